use std::io::Write;
use std::time::Duration;

use super::*;

#[test]
fn the_defaults_alone_give_the_demo_on_localhost_8080() {
    let config = load(&Overrides::default()).unwrap();
    assert_eq!(config.listen.to_string(), "127.0.0.1:8080");
    assert_eq!(config.audit.sink, "jsonl");
    assert_eq!(config.audit.path, PathBuf::from("audit.jsonl"));
    assert!(config.pulp.base_url.is_empty());
    assert_eq!(config.page_size, 25);
}

#[test]
fn a_file_overrides_the_defaults_key_by_key() {
    let mut file = tempfile::NamedTempFile::new().unwrap();
    writeln!(
        file,
        "[audit]\nsink = \"stdout\"\n[production]\n\"base-os\" = \"base-os-live\""
    )
    .unwrap();
    let config = load(&Overrides {
        config_file: Some(file.path().into()),
        ..Default::default()
    })
    .unwrap();
    assert_eq!(config.audit.sink, "stdout");
    assert_eq!(
        config.production.get("base-os").map(String::as_str),
        Some("base-os-live")
    );
    assert_eq!(
        config.listen.to_string(),
        "127.0.0.1:8080",
        "untouched keys keep their default"
    );
}

#[test]
fn overrides_win_over_the_file() {
    let overrides = Overrides::default()
        .env("REPO_CONSOLE_LISTEN", "127.0.0.1:9999")
        .env("REPO_CONSOLE_AUDIT_PATH", "/tmp/x/audit.jsonl")
        .env("REPO_CONSOLE_PULP_URL", "http://pulp:24817");
    let config = load(&overrides).unwrap();
    assert_eq!(config.listen.port(), 9999);
    assert_eq!(config.audit.path, PathBuf::from("/tmp/x/audit.jsonl"));
    assert_eq!(config.pulp.base_url, "http://pulp:24817");
}

#[test]
fn errors_name_the_key() {
    let err = load(&Overrides::default().env("REPO_CONSOLE_LISTEN", "nowhere")).unwrap_err();
    assert!(err.to_string().contains("server.listen"), "{err}");
    let mut file = tempfile::NamedTempFile::new().unwrap();
    writeln!(file, "[audit]\nsink = \"syslog\"").unwrap();
    let err = load(&Overrides {
        config_file: Some(file.path().into()),
        ..Default::default()
    })
    .unwrap_err();
    assert!(err.to_string().contains("audit.sink"), "{err}");
}

#[test]
fn an_unknown_key_is_refused() {
    let mut file = tempfile::NamedTempFile::new().unwrap();
    writeln!(file, "[server]\nlisten_addr = \"127.0.0.1:1\"").unwrap();
    let err = load(&Overrides {
        config_file: Some(file.path().into()),
        ..Default::default()
    })
    .unwrap_err();
    assert!(err.to_string().contains("listen_addr"), "{err}");
}

#[test]
fn a_mistyped_key_is_refused_with_its_line_and_the_key_meant() {
    let mut file = tempfile::NamedTempFile::new().unwrap();
    writeln!(file, "# mine\n[server]\nlisen = \"127.0.0.1:1\"").unwrap();
    let err = load(&Overrides {
        config_file: Some(file.path().into()),
        ..Default::default()
    })
    .unwrap_err()
    .to_string();
    assert!(err.contains("`lisen` (line 3)"), "{err}");
    assert!(err.contains("Did you mean `listen`?"), "{err}");
    assert!(err.contains(&file.path().display().to_string()), "{err}");
}

#[test]
fn a_mistyped_flag_is_refused_with_the_flag_meant() {
    let err = load(&Overrides::default().flag("pulp.baseurl", "https://pulp.example"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("--set pulp.baseurl: no such setting"), "{err}");
    assert!(err.contains("Did you mean --set pulp.base_url?"), "{err}");
    let err = load(&Overrides::default().flag("webhooks.everything", "x"))
        .unwrap_err()
        .to_string();
    assert!(!err.contains("Did you mean"), "nothing near: {err}");
}

#[test]
fn the_password_can_come_from_a_file_and_never_shows_in_debug() {
    let mut secret = tempfile::NamedTempFile::new().unwrap();
    writeln!(secret, "s3cret").unwrap();
    let mut file = tempfile::NamedTempFile::new().unwrap();
    writeln!(
        file,
        "[pulp]\npassword_file = \"{}\"",
        secret.path().display()
    )
    .unwrap();
    let config = load(&Overrides {
        config_file: Some(file.path().into()),
        ..Default::default()
    })
    .unwrap();
    assert_eq!(config.pulp.password, "s3cret");
    assert!(!format!("{config:?}").contains("s3cret"));
}

#[test]
fn pulp_cli_config_is_used_when_nothing_names_a_pulp() {
    let mut cli = tempfile::NamedTempFile::new().unwrap();
    writeln!(cli, "[cli]\nbase_url = \"https://pulp.corp:443\"\nusername = \"ops\"\npassword = \"pw\"\nverify_ssl = false").unwrap();
    let overrides = Overrides {
        pulp_cli_config: Some(cli.path().into()),
        ..Default::default()
    };
    let config = load(&overrides).unwrap();
    assert_eq!(config.pulp.base_url, "https://pulp.corp:443");
    assert_eq!(
        (config.pulp.username.as_str(), config.pulp.password.as_str()),
        ("ops", "pw")
    );
    assert!(!config.pulp.verify_tls);
    assert_eq!(config.pulp_from_cli.as_deref(), Some(cli.path()));

    let explicit = overrides.env("REPO_CONSOLE_PULP_URL", "http://other:24817");
    let config = load(&explicit).unwrap();
    assert_eq!(
        config.pulp.base_url, "http://other:24817",
        "the console's own setting wins"
    );
    assert_eq!(config.pulp_from_cli, None);
}

// ---- Layers: defaults < pulp-cli's file < --config file < environment and flags ----

/// pulp-cli's file naming its server with every field it can set.
const CLI: &str = "[cli]\nbase_url = \"https://cli.example\"\napi_root = \"/cli/\"\nusername = \"cli-user\"\npassword = \"cli-pw\"\nverify_ssl = false";

/// Loads with pulp-cli's file, a `--config` file and the environment/flags, each optional.
fn layered(
    cli: Option<&str>,
    file: Option<&str>,
    overrides: Overrides,
) -> Result<Config, ConfigError> {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path
    };
    load(&Overrides {
        pulp_cli_config: cli.map(|text| write("cli.toml", text)),
        config_file: file.map(|text| write("console.toml", text)),
        ..overrides
    })
}

fn flags() -> Overrides {
    Overrides::default()
}

#[test]
fn username_each_layer_wins_over_the_ones_below() {
    let user = |cli, file, o| layered(cli, file, o).unwrap().pulp.username;
    let file = Some("[pulp]\nusername = \"file-user\"");
    let env = || flags().env("REPO_CONSOLE_PULP_USERNAME", "env-user");
    assert_eq!(user(None, None, flags()), "admin", "the built-in default");
    assert_eq!(user(Some(CLI), None, flags()), "cli-user");
    assert_eq!(user(Some(CLI), file, flags()), "file-user");
    assert_eq!(user(Some(CLI), None, env()), "env-user", "issue 11 point 3");
    assert_eq!(user(Some(CLI), file, env()), "env-user");
}

#[test]
fn api_root_each_layer_wins_over_the_ones_below() {
    let root = |cli, file| layered(cli, file, flags()).unwrap().pulp.api_root;
    assert_eq!(root(None, None), "/pulp/");
    assert_eq!(root(Some(CLI), None), "/cli/");
    assert_eq!(
        root(Some(CLI), Some("[pulp]\napi_root = \"/pulp/corp/\"")),
        "/pulp/corp/"
    );
}

#[test]
fn verify_tls_each_layer_wins_over_the_ones_below() {
    let verify = |cli, file| layered(cli, file, flags()).unwrap().pulp.verify_tls;
    assert!(verify(None, None));
    assert!(!verify(Some(CLI), None), "pulp-cli's verify_ssl = false");
    assert!(verify(Some(CLI), Some("[pulp]\nverify_tls = true")));
    let cli_verifies = CLI.replace("verify_ssl = false", "verify_ssl = true");
    assert!(!verify(
        Some(&cli_verifies),
        Some("[pulp]\nverify_tls = false")
    ));
}

#[test]
fn base_url_each_layer_wins_and_pulp_cli_only_when_nothing_names_a_pulp() {
    let url = |cli, file, o| layered(cli, file, o).unwrap();
    let env = || flags().env("REPO_CONSOLE_PULP_URL", "http://env:24817");
    let file = Some("[pulp]\nbase_url = \"https://file.example\"");
    assert_eq!(url(None, None, flags()).pulp.base_url, "", "the demo");
    let from_cli = url(Some(CLI), None, flags());
    assert_eq!(from_cli.pulp.base_url, "https://cli.example");
    assert!(from_cli.pulp_from_cli.is_some());
    let named = url(Some(CLI), file, flags());
    assert_eq!(named.pulp.base_url, "https://file.example");
    assert_eq!(named.pulp_from_cli, None);
    assert_eq!(
        (named.pulp.username.as_str(), named.pulp.api_root.as_str()),
        ("admin", "/pulp/"),
        "another server's settings are not layered onto the one named"
    );
    assert!(named.pulp.password.is_empty() && named.pulp.verify_tls);
    assert_eq!(
        url(Some(CLI), file, env()).pulp.base_url,
        "http://env:24817"
    );
    assert_eq!(url(Some(CLI), None, env()).pulp_from_cli, None);
}

#[test]
fn password_and_password_file_are_one_secret_decided_by_the_highest_layer() {
    let mut secret = tempfile::NamedTempFile::new().unwrap();
    writeln!(secret, "from-file").unwrap();
    let by_file = format!("[pulp]\npassword_file = \"{}\"", secret.path().display());
    let password = |cli, file: Option<&str>, o| layered(cli, file, o).unwrap().pulp.password;
    let env = || flags().env("REPO_CONSOLE_PULP_PASSWORD", "env-pw");
    assert_eq!(password(None, None, flags()), "");
    assert_eq!(password(Some(CLI), None, flags()), "cli-pw");
    assert_eq!(password(Some(CLI), Some(&by_file), flags()), "from-file");
    assert_eq!(password(Some(CLI), Some(&by_file), env()), "env-pw");
    let missing = "[pulp]\npassword_file = \"/nonexistent/pulp-password\"";
    assert_eq!(
        password(None, Some(missing), env()),
        "env-pw",
        "a lower layer's password file is not even read"
    );
    assert_eq!(
        password(Some(CLI), Some("[pulp]\npassword = \"\""), flags()),
        ""
    );
}

#[test]
fn a_layer_setting_both_password_and_password_file_is_refused() {
    let both = "[pulp]\npassword = \"a\"\npassword_file = \"/etc/b\"";
    let err = layered(None, Some(both), flags()).unwrap_err().to_string();
    assert!(
        err.contains("pulp.password") && err.contains("pulp.password_file"),
        "{err}"
    );
    assert!(err.contains("console.toml"), "names the file: {err}");
}

#[test]
fn an_unknown_key_or_a_wrong_type_names_its_source() {
    let err = layered(None, Some("[pulp]\npage_size = \"many\""), flags()).unwrap_err();
    let shown = err.to_string();
    assert!(
        shown.contains("console.toml") && shown.contains("page_size"),
        "{shown}"
    );
    let cli = "[cli]\nbase_url = \"https://cli.example\"\nverify_ssl = \"no\"";
    let shown = layered(Some(cli), None, flags()).unwrap_err().to_string();
    assert!(
        shown.contains("pulp-cli") && shown.contains("verify_ssl"),
        "{shown}"
    );
}

// ---- Validation: nonsense is refused, naming the key ----

fn refused(file: &str) -> String {
    let err = layered(None, Some(file), flags())
        .map(|_| ())
        .expect_err(file);
    assert!(matches!(err, ConfigError::Invalid { .. }), "{err:?}");
    err.to_string()
}

#[test]
fn each_timeout_must_be_between_one_second_and_one_day() {
    for key in [
        "connect_timeout_secs",
        "request_timeout_secs",
        "task_timeout_secs",
    ] {
        for bad in [0, 86_401] {
            let shown = refused(&format!("[pulp]\n{key} = {bad}"));
            assert!(shown.contains(&format!("pulp.{key}")), "{shown}");
        }
        assert!(layered(None, Some(&format!("[pulp]\n{key} = 1")), flags()).is_ok());
    }
}

#[test]
fn page_sizes_must_be_at_least_one() {
    for (section, key) in [("pulp", "page_size"), ("dashboard", "page_size")] {
        let shown = refused(&format!("[{section}]\n{key} = 0"));
        assert!(shown.contains(&format!("{section}.{key}")), "{shown}");
    }
}

#[test]
fn base_url_must_be_an_http_or_https_url_with_a_host() {
    for bad in [
        "ftp://pulp.example",
        "pulp.example.com",
        "http://",
        "https://pulp.example/?x=1",
        "https://pulp.example/#top",
        "file:///etc/passwd",
    ] {
        let shown = refused(&format!("[pulp]\nbase_url = \"{bad}\""));
        assert!(shown.contains("pulp.base_url"), "{bad}: {shown}");
    }
    let shown = refused("[pulp]\nbase_url = \"https://ops:hunter2@pulp.example\"");
    assert!(
        shown.contains("pulp.base_url") && !shown.contains("hunter2"),
        "{shown}"
    );
    for good in [
        "http://127.0.0.1:24817",
        "https://pulp.example.com/",
        "http://[::1]:24817",
    ] {
        let config = layered(
            None,
            Some(&format!("[pulp]\nbase_url = \"{good}\"")),
            flags(),
        );
        assert_eq!(config.unwrap().pulp.base_url, good);
    }
}

#[test]
fn a_base_url_with_a_path_is_refused_naming_the_server_alone() {
    for (bad, path) in [
        ("https://pulp.example.com/pulp/api/v3/", "/pulp/api/v3/"),
        ("http://127.0.0.1:24817/pulp/", "/pulp/"),
    ] {
        let shown = refused(&format!("[pulp]\nbase_url = \"{bad}\""));
        assert!(shown.contains("pulp.base_url"), "{shown}");
        assert!(shown.contains(&format!("has a path ({path})")), "{shown}");
        assert!(shown.contains("pulp.api_root"), "{shown}");
    }
    let shown = refused("[pulp]\nbase_url = \"https://pulp.example.com/pulp/api/v3/\"");
    assert!(shown.contains("e.g. https://pulp.example.com;"), "{shown}");
}

#[test]
fn api_root_must_start_and_end_with_a_slash() {
    for bad in ["pulp/", "/pulp", "", "pulp"] {
        let shown = refused(&format!("[pulp]\napi_root = \"{bad}\""));
        assert!(shown.contains("pulp.api_root"), "{bad}: {shown}");
    }
    let cli = "[cli]\nbase_url = \"https://cli.example\"\napi_root = \"pulp\"";
    let shown = layered(Some(cli), None, flags()).unwrap_err().to_string();
    assert!(
        shown.contains("pulp.api_root") && shown.contains("pulp-cli's"),
        "pulp-cli's value is checked too, and its file named: {shown}"
    );
}

#[test]
fn the_client_settings_come_from_the_one_set_of_defaults() {
    let defaults: toml::Table = DEFAULT_TOML.parse().unwrap();
    let pulp = defaults["pulp"].as_table().unwrap();
    let secs = |key: &str| Duration::from_secs(pulp[key].as_integer().unwrap() as u64);
    let settings = crate::wiring::default_pulp_settings("http://pulp.example").unwrap();
    assert_eq!(settings.task_timeout, secs("task_timeout_secs"));
    assert_eq!(settings.request_timeout, secs("request_timeout_secs"));
    assert_eq!(settings.connect_timeout, secs("connect_timeout_secs"));
    assert_eq!(
        settings.page_size as i64,
        pulp["page_size"].as_integer().unwrap()
    );
    assert_eq!(settings.api_root, pulp["api_root"].as_str().unwrap());
    assert!(crate::wiring::default_pulp_settings("ftp://pulp.example").is_err());
}

// ---- The demo's production mapping belongs to the demo upstream only ----

#[test]
fn the_demo_mapping_applies_to_the_demo_only_and_configured_entries_win() {
    use crate::wiring::startup::production;
    let demo = load(&Overrides::default()).unwrap();
    assert!(
        demo.production.is_empty(),
        "[production] is empty by default"
    );
    assert_eq!(
        production(&demo).get("epel9-appstream").map(String::as_str),
        Some("epel9-appstream-prod")
    );
    let real = layered(
        None,
        None,
        flags().env("REPO_CONSOLE_PULP_URL", "https://pulp.corp"),
    );
    let real = real.unwrap();
    assert!(real.production.is_empty());
    assert!(production(&real).is_empty(), "{:?}", production(&real));
    let own = "[production]\n\"epel9-appstream\" = \"mine\"\n\"x\" = \"x-prod\"";
    let demo = layered(None, Some(own), flags()).unwrap();
    let map = production(&demo);
    assert_eq!(map["epel9-appstream"], "mine");
    assert_eq!(map["x"], "x-prod");
}

#[test]
fn an_audit_path_that_is_not_utf8_is_refused_naming_the_variable() {
    use std::os::unix::ffi::OsStrExt;
    let path = std::ffi::OsStr::from_bytes(b"/tmp/audit-\xff.jsonl").to_owned();
    let err = crate::wiring::config::overrides::environment_of([(
        "REPO_CONSOLE_AUDIT_PATH".into(),
        path,
    )])
    .unwrap_err();
    assert!(err.to_string().contains("REPO_CONSOLE_AUDIT_PATH"), "{err}");
}

#[test]
fn identity_comes_from_a_header_of_trusted_proxies_named_in_the_environment() {
    use crate::wiring::sections::identity::IdentitySettings;
    assert_eq!(
        load(&Overrides::default()).unwrap().identity,
        IdentitySettings::Fixed
    );
    let config = load(
        &Overrides::default()
            .env("REPO_CONSOLE_IDENTITY_HEADER", "X-Remote-User")
            .env("REPO_CONSOLE_TRUSTED_PROXIES", "10.0.0.0/8, ::1"),
    )
    .unwrap();
    let IdentitySettings::ProxyHeader {
        header,
        trusted_proxies,
        ..
    } = config.identity
    else {
        panic!("a proxy header scheme");
    };
    assert_eq!(header, "X-Remote-User");
    let proxies: Vec<String> = trusted_proxies.iter().map(ToString::to_string).collect();
    assert_eq!(proxies, ["10.0.0.0/8", "::1/128"]);
}

#[test]
fn a_bad_identity_setting_is_refused_naming_its_key() {
    let refused = |header: &str, proxies: &str| {
        let overrides = Overrides::default()
            .env("REPO_CONSOLE_IDENTITY_HEADER", header)
            .env("REPO_CONSOLE_TRUSTED_PROXIES", proxies);
        match load(&overrides) {
            Err(ConfigError::Invalid { key, reason }) => format!("{key}: {reason}"),
            other => panic!("refused, not {other:?}"),
        }
    };
    assert!(refused("X Remote", "::1").starts_with("identity.header: 'X Remote'"));
    assert!(refused("X-Remote-User", "")
        .starts_with("identity.trusted_proxies: identity.header is set"));
    assert!(refused("X-Remote-User", "10.0.0.0/33").contains("'10.0.0.0/33' is not an address"));
}

#[test]
fn the_postgres_sink_and_json_logs_come_from_the_environment_and_are_checked() {
    let config = load(
        &Overrides::default()
            .env("REPO_CONSOLE_AUDIT_SINK", "postgres")
            .env(
                "REPO_CONSOLE_AUDIT_URL",
                "postgres://console@db.example.com/repo_console?sslmode=verify-full",
            )
            .env("REPO_CONSOLE_AUDIT_PASSWORD_FILE", "/run/secrets/db")
            .env("REPO_CONSOLE_LOG_FORMAT", "json"),
    )
    .unwrap();
    assert_eq!(config.audit.sink, "postgres");
    assert!(config.audit.url.ends_with("?sslmode=verify-full"));
    assert_eq!(config.audit.password_file, PathBuf::from("/run/secrets/db"));
    assert_eq!(config.log_format, LogFormat::Json);

    let refused = |overrides: Overrides| load(&overrides).unwrap_err().to_string();
    let no_url = refused(Overrides::default().env("REPO_CONSOLE_AUDIT_SINK", "postgres"));
    assert!(
        no_url.starts_with("configuration key audit.url: audit.sink is \"postgres\""),
        "{no_url}"
    );
    let not_pg = refused(
        Overrides::default()
            .env("REPO_CONSOLE_AUDIT_SINK", "postgres")
            .env("REPO_CONSOLE_AUDIT_URL", "mysql://db/x"),
    );
    assert!(not_pg.contains("must start with postgres://"), "{not_pg}");
    let format = refused(Overrides::default().env("REPO_CONSOLE_LOG_FORMAT", "xml"));
    assert!(
        format.contains("the environment") && format.contains("xml"),
        "{format}"
    );
}

// ---- Environments (issue 23) ----

const ISSUE_EXAMPLE: &str = r#"
[environments]
order = ["testing", "staging", "production"]
[environments.testing]
distribution = "{repo}-testing"
[environments.staging]
distribution = "{repo}-staging"
[environments.staging.repos]
"rhel9-baseos" = "baseos-stage"
[environments.production]
distribution = "{repo}-prod"
requires_previous = true
"#;

/// Each environment as `name: distribution of each repository` ('-': none), `!` after the
/// name of those requiring the previous.
fn named(config: &Config, repos: &[&str]) -> Vec<String> {
    let shown = |environment: &crate::domain::environment::Environment| {
        let required = if environment.requires_previous {
            "!"
        } else {
            ""
        };
        let names: Vec<String> = repos
            .iter()
            .map(|repo| environment.distribution_for(repo).unwrap_or("-".into()))
            .collect();
        format!("{}{required}: {}", environment.name, names.join(","))
    };
    config.environments.iter().map(shown).collect()
}

#[test]
fn the_issue_example_gives_three_environments_and_an_explicit_name_wins() {
    let config = layered(None, Some(ISSUE_EXAMPLE), flags()).unwrap();
    assert_eq!(
        named(&config, &["rhel9-baseos", "epel9"]),
        [
            "testing: rhel9-baseos-testing,epel9-testing",
            "staging: baseos-stage,epel9-staging",
            "production!: rhel9-baseos-prod,epel9-prod",
        ]
    );
    assert_eq!(config.environments.last().name.as_str(), "production");
    assert!(config.production.is_empty());
}

#[test]
fn without_environments_production_alone_is_named_by_the_production_table() {
    let defaults = load(&Overrides::default()).unwrap();
    assert!(defaults.environments.is_single());
    assert_eq!(named(&defaults, &["base-os"]), ["production: -"]);
    let today = "[production]\n\"base-os\" = \"base-os-live\"";
    let config = layered(None, Some(today), flags()).unwrap();
    assert!(config.environments.is_single());
    assert_eq!(
        named(&config, &["base-os", "other"]),
        ["production: base-os-live,-"],
        "a repository not named is left to detection"
    );
    assert_eq!(
        config.production["base-os"], "base-os-live",
        "kept as it was"
    );
}

#[test]
fn the_order_comes_from_the_environment_or_the_command_line() {
    let tables = "[environments.staging]\ndistribution = \"{repo}-stage\"\n\
                  [environments.production]\ndistribution = \"{repo}\"";
    let order = |overrides: Overrides| {
        let config = layered(None, Some(tables), overrides).unwrap();
        let names: Vec<String> = config
            .environments
            .iter()
            .map(|e| e.name.to_string())
            .collect();
        names.join(",")
    };
    let env = flags().env("REPO_CONSOLE_ENVIRONMENTS_ORDER", "staging, production");
    assert_eq!(order(env), "staging,production");
    let set = flags().flag("environments.order", "production,staging");
    assert_eq!(order(set), "production,staging");
}

/// The refusal of `file` as `key: reason`.
fn refused_key(file: &str) -> String {
    match layered(None, Some(file), flags()) {
        Err(ConfigError::Invalid { key, reason }) => format!("{key}: {reason}"),
        other => panic!("{file}: refused, not {other:?}"),
    }
}

#[test]
fn each_environment_refusal_names_its_key() {
    let with = |extra: &str| format!("{ISSUE_EXAMPLE}{extra}");
    let cases = [
        (
            "[environments.staging]\ndistribution = \"{repo}-s\"".to_owned(),
            "environments.order: empty, but [environments.staging] is configured",
        ),
        (
            ISSUE_EXAMPLE.replace(r#""staging", "production"]"#, r#""staging", "testing"]"#),
            "environments.order: 'testing' is listed twice",
        ),
        (
            ISSUE_EXAMPLE.replace(r#""testing","#, r#""Testing","#),
            "environments.order: 'Testing' is not an environment name",
        ),
        (
            ISSUE_EXAMPLE.replace("{repo}-staging", "staging"),
            "environments.staging.distribution: 'staging' does not contain {repo}",
        ),
        (
            ISSUE_EXAMPLE.replace("distribution = \"{repo}-testing\"", "requires_previous = true\ndistribution = \"{repo}-t\""),
            "environments.testing.requires_previous: testing is the first environment",
        ),
        (
            with("[environments.qa]\ndistribution = \"{repo}-qa\""),
            "environments.qa: not in environments.order",
        ),
        (
            ISSUE_EXAMPLE.replace("distribution = \"{repo}-testing\"", ""),
            "environments.testing: testing names no distribution",
        ),
        (
            with("[production]\n\"base-os\" = \"base-os-live\""),
            "production: [environments] is configured: put those names under [environments.production.repos]",
        ),
    ];
    for (file, expected) in cases {
        let shown = refused_key(&file);
        assert!(shown.starts_with(expected), "{file}\n{shown}");
    }
}

#[test]
fn an_unknown_key_or_a_wrong_type_in_environments_names_the_whole_key() {
    let cases = [
        (
            ISSUE_EXAMPLE.replace(
                "distribution = \"{repo}-staging\"",
                "distrbution = \"{repo}-staging\"",
            ),
            "unknown key environments.staging.distrbution",
        ),
        (
            "[environments]\nordr = [\"production\"]".to_owned(),
            "unknown key environments.ordr",
        ),
        (
            ISSUE_EXAMPLE.replace("requires_previous = true", "requires_previous = \"yes\""),
            "environments.production.requires_previous: invalid type",
        ),
        (
            "[environments]\norder = \"production\"".to_owned(),
            "environments.order: invalid type",
        ),
    ];
    for (file, expected) in cases {
        let err = layered(None, Some(&file), flags()).unwrap_err();
        let shown = err.to_string();
        assert!(matches!(err, ConfigError::Parse { .. }), "{shown}");
        assert!(
            shown.contains(expected) && shown.contains("console.toml"),
            "{file}\n{shown}"
        );
    }
}

// ---- [policy] (issue 24): who may deploy where, and synchronize ----

#[test]
fn the_policy_names_deployers_per_environment_and_syncers() {
    use crate::domain::environment::EnvironmentName;
    use crate::domain::identity::Operator;
    let file = "[identity]\nheader = \"X-Remote-User\"\ngroups_header = \"X-Remote-Groups\"\n\
                trusted_proxies = [\"10.0.0.1\"]\n[policy]\nsyncers = [\"group:ops\"]\n\
                [policy.production]\ndeployers = [\"group:release\", \"user:alice\"]\n";
    let config = layered(None, Some(file), flags()).unwrap();
    let op = |name: &str, groups: &[&str]| {
        Operator::new(name)
            .unwrap()
            .with_groups(groups.iter().map(|g| (*g).to_owned()).collect())
    };
    let production = EnvironmentName::production();
    assert!(config
        .policy
        .may_deploy(&production, &op("alice", &[]))
        .is_ok());
    assert!(config
        .policy
        .may_deploy(&production, &op("bob", &["release"]))
        .is_ok());
    assert!(config
        .policy
        .may_deploy(&production, &op("bob", &["dev"]))
        .is_err());
    assert!(config.policy.may_sync(&op("erin", &["ops"])).is_ok());
    assert!(config.policy.may_sync(&op("alice", &[])).is_err());
    let crate::wiring::sections::identity::IdentitySettings::ProxyHeader { groups_header, .. } =
        config.identity
    else {
        panic!("a proxy header scheme");
    };
    assert_eq!(groups_header.as_deref(), Some("X-Remote-Groups"));
    let defaults = layered(None, Some(""), flags()).unwrap();
    assert!(
        defaults
            .policy
            .may_deploy(&production, &op("anyone", &[]))
            .is_ok(),
        "without [policy], every identified operator may"
    );
}

#[test]
fn each_policy_refusal_names_its_key() {
    let cases = [
        (
            "[policy.production]\ndeployers = [\"team:release\"]",
            "policy.production.deployers: 'team:release' is not a subject",
        ),
        (
            "[policy]\nsyncers = [\"ops\"]",
            "policy.syncers: 'ops' is not a subject",
        ),
        (
            "[pulp]\nbase_url = \"https://pulp.example.com\"\n\
             [policy.staging]\ndeployers = [\"user:a\"]",
            "policy.staging: there is no environment 'staging'; the environments are: production",
        ),
        (
            "[identity]\ngroups_header = \"X-Remote-Groups\"",
            "identity.groups_header: groups are believed only with the user's header",
        ),
    ];
    for (file, expected) in cases {
        let shown = refused_key(file);
        assert!(shown.starts_with(expected), "{file}\n{shown}");
    }
    for (file, expected) in [
        (
            "[policy.production]\ndeployer = []",
            "unknown key policy.production.deployer",
        ),
        ("[policy]\nsyncer = []", "unknown key policy.syncer"),
    ] {
        let shown = layered(None, Some(file), flags()).unwrap_err().to_string();
        assert!(shown.contains(expected), "{file}\n{shown}");
    }
}

#[test]
fn freeze_windows_are_read_and_each_bad_one_names_its_key() {
    use crate::domain::environment::EnvironmentName;
    let file = "[policy.production]\nfreeze = [\"2026-12-20T00:00:00Z/2027-01-04T00:00:00Z\", \
                { cron = \"0 16 * * FRI\", duration = \"64h\", timezone = \"Europe/Berlin\" }]\n";
    let config = layered(None, Some(file), flags()).unwrap();
    let at = |t: &str| chrono::DateTime::parse_from_rfc3339(t).unwrap().into();
    let production = EnvironmentName::production();
    assert!(config
        .policy
        .freeze_at(&production, at("2026-12-24T10:00:00Z"))
        .is_some());
    // Saturday 2026-11-28, inside the Friday 16:00 Berlin window.
    assert!(config
        .policy
        .freeze_at(&production, at("2026-11-28T10:00:00Z"))
        .is_some());
    assert!(config
        .policy
        .freeze_at(&production, at("2026-11-25T10:00:00Z"))
        .is_none());
    for (window, expected) in [
        (
            "\"2027-01-04T00:00:00Z/2026-12-20T00:00:00Z\"",
            "policy.production.freeze[0]: ",
        ),
        (
            "{ cron = \"0 16 * * FUNDAY\", duration = \"64h\" }",
            "policy.production.freeze[0]: ",
        ),
        (
            "{ cron = \"0 16 * * FRI\", duration = \"0h\" }",
            "policy.production.freeze[0]: ",
        ),
        (
            "{ cron = \"0 16 * * FRI\", duration = \"1h\", timezone = \"Mars/Olympus\" }",
            "policy.production.freeze[0]: ",
        ),
        (
            "{ cron = \"0 16 * * FRI\" }",
            "policy.production.freeze[0]: duration is missing",
        ),
        ("42", "policy.production.freeze[0]: a window is"),
    ] {
        let shown = refused_key(&format!("[policy.production]\nfreeze = [{window}]"));
        assert!(shown.starts_with(expected), "{window}\n{shown}");
    }
}

#[test]
fn policy_environments_are_those_of_the_path_the_console_uses() {
    use crate::domain::environment::EnvironmentName;
    use crate::domain::identity::Operator;
    // The demo (no Pulp, no [environments], no [production]) brings testing, staging and
    // production: its policy may name them.
    let file = "[policy.staging]\ndeployers = [\"user:alice\"]";
    let config = layered(None, Some(file), flags()).unwrap();
    let staging = EnvironmentName::parse("staging").unwrap();
    let bob = Operator::new("bob").unwrap();
    assert!(config.policy.may_deploy(&staging, &bob).is_err());
    let path = crate::wiring::startup::environments(&config);
    assert!(path.find("staging").is_some(), "the path in use");
    // On a real Pulp, or with the demo under a configured [production], production alone.
    for (extra, why) in [
        (
            "[pulp]\nbase_url = \"https://pulp.example.com\"\n",
            "a real Pulp",
        ),
        (
            "[production]\n\"rhel9-baseos\" = \"prod\"\n",
            "[production]",
        ),
    ] {
        let shown = refused_key(&format!("{extra}{file}"));
        assert!(
            shown.starts_with("policy.staging: there is no environment 'staging'"),
            "{why}: {shown}"
        );
    }
    let unknown = refused_key("[policy.qa]\ndeployers = [\"user:a\"]");
    assert!(
        unknown.starts_with(
            "policy.qa: there is no environment 'qa'; the environments are: testing, staging, \
             production"
        ),
        "{unknown}"
    );
}

#[test]
fn approvals_approvers_and_override_are_read() {
    use crate::domain::environment::EnvironmentName;
    use crate::domain::identity::Operator;
    let file = "[policy.production]\napprovers = [\"group:release\", \"user:alice\"]\n\
                approvals = 2\noverride = [\"group:sre\"]\n\
                [policy.staging]\napprovals = 0\n";
    let config = layered(None, Some(file), flags()).unwrap();
    let op = |name: &str, groups: &[&str]| {
        Operator::new(name)
            .unwrap()
            .with_groups(groups.iter().map(|g| (*g).to_owned()).collect())
    };
    let production = EnvironmentName::production();
    let staging = EnvironmentName::parse("staging").unwrap();
    assert_eq!(config.policy.approvals_needed(&production), 2);
    assert_eq!(config.policy.approvals_needed(&staging), 0, "0: none");
    let policy = &config.policy;
    assert!(policy
        .may_approve(&production, &op("bob", &["release"]))
        .is_ok());
    assert!(policy.may_approve(&production, &op("alice", &[])).is_ok());
    assert!(policy
        .may_approve(&production, &op("carol", &["dev"]))
        .is_err());
    assert!(policy
        .may_override(&production, &op("sam", &["sre"]))
        .is_ok());
    assert!(policy
        .may_override(&production, &op("bob", &["release"]))
        .is_err());
    assert!(policy.may_override(&staging, &op("sam", &["sre"])).is_err());
    let none = layered(None, Some(""), flags()).unwrap();
    assert_eq!(none.policy.approvals_needed(&production), 0);
    assert_eq!(none.request_ttl, chrono::Duration::hours(24), "the default");
}

#[test]
fn each_approval_refusal_names_its_key() {
    let env = |body: &str| format!("[policy.production]\n{body}");
    let cases = [
        (
            env("approvals = 1"),
            "policy.production.approvals: approvals = 1, but nobody may give them",
        ),
        (
            env("approvals = 1\napprovers = []"),
            "policy.production.approvers: an empty list, but policy.production.approvals = 1",
        ),
        (
            env("approvers = [\"group:release\"]"),
            "policy.production.approvers: approvers are listed but policy.production.approvals \
             is 0 or absent",
        ),
        (
            env("approvers = [\"group:release\"]\napprovals = 0"),
            "policy.production.approvers: approvers are listed",
        ),
        (
            env("approvers = [\"group:release\"]\napprovals = -1"),
            "policy.production.approvals: -1: the number of approvals",
        ),
        (
            env("approvers = [\"release\"]\napprovals = 1"),
            "policy.production.approvers: 'release' is not a subject",
        ),
        (
            env("override = [\"sre\"]"),
            "policy.production.override: 'sre' is not a subject",
        ),
        (
            env("approvers = [\"user:bob\", \"user:bob\"]\napprovals = 2"),
            "policy.production.approvals: 2, but policy.production.approvers lists 1 user(s) and \
             no group",
        ),
        (
            "[policy]\nrequest_ttl_hours = 0".to_owned(),
            "policy.request_ttl_hours: 0: a request waits",
        ),
        (
            "[policy]\nrequest_ttl_hours = -3".to_owned(),
            "policy.request_ttl_hours: -3: a request waits",
        ),
        (
            "[policy]\nrequest_ttl_hours = 9000".to_owned(),
            "policy.request_ttl_hours: 9000: a request waits",
        ),
    ];
    for (file, expected) in cases {
        let shown = refused_key(&file);
        assert!(shown.starts_with(expected), "{file}\n{shown}");
    }
    for (file, expected) in [
        (
            env("approvers = [\"group:release\"]\napprovals = 1.5"),
            "policy.production.approvals: invalid type: floating point `1.5`",
        ),
        (
            env("approvers = [\"group:release\"]\napprovals = \"1\""),
            "policy.production.approvals: invalid type: string",
        ),
        (
            env("approvers = \"group:release\"\napprovals = 1"),
            "policy.production.approvers: invalid type",
        ),
        (
            "[policy]\nrequest_ttl_hours = \"two days\"".to_owned(),
            "policy.request_ttl_hours: invalid type: string",
        ),
    ] {
        let err = layered(None, Some(&file), flags()).unwrap_err();
        let shown = err.to_string();
        assert!(matches!(err, ConfigError::Parse { .. }), "{shown}");
        assert!(
            shown.contains(expected) && shown.contains("console.toml"),
            "{file}\n{shown}"
        );
    }
}

#[test]
fn approvals_need_a_sink_that_keeps_requests() {
    let approvals = "[policy.production]\napprovers = [\"group:release\"]\napprovals = 1\n";
    let stdout = format!("[audit]\nsink = \"stdout\"\n{approvals}");
    let shown = refused_key(&stdout);
    assert!(
        shown.starts_with(
            "policy.production.approvals: deploys to production need approvals, but audit.sink \
             is \"stdout\""
        ),
        "{shown}"
    );
    let env = flags().env("REPO_CONSOLE_AUDIT_SINK", "stdout");
    let err = layered(None, Some(approvals), env).unwrap_err();
    assert!(
        err.to_string().contains("policy.production.approvals"),
        "{err}"
    );
    let without = layered(None, Some("[audit]\nsink = \"stdout\""), flags());
    assert!(without.is_ok(), "stdout without approvals: as before");
    let jsonl = layered(None, Some(approvals), flags()).unwrap();
    assert_eq!(jsonl.audit.requests_path(), PathBuf::from("requests.jsonl"));
    let beside = format!("[audit]\npath = \"/var/log/rc/audit.jsonl\"\n{approvals}");
    let config = layered(None, Some(&beside), flags()).unwrap();
    assert_eq!(
        config.audit.requests_path(),
        PathBuf::from("/var/log/rc/requests.jsonl")
    );
    let clash = refused_key("[audit]\npath = \"/var/log/rc/requests.jsonl\"");
    assert!(
        clash.starts_with("audit.path: /var/log/rc/requests.jsonl: approval requests are kept"),
        "{clash}"
    );
    assert_eq!(
        config.audit.pins_path(),
        PathBuf::from("/var/log/rc/pins.jsonl")
    );
    let clash = refused_key("[audit]\npath = \"/var/log/rc/pins.jsonl\"");
    assert!(
        clash.starts_with("audit.path: /var/log/rc/pins.jsonl: the rollbacks' pins are kept"),
        "{clash}"
    );
}

#[test]
fn the_request_ttl_comes_from_the_file_the_environment_or_the_command_line() {
    let ttl = |file: Option<&str>, overrides: Overrides| {
        layered(None, file, overrides).unwrap().request_ttl
    };
    let hours = chrono::Duration::hours;
    let file = Some("[policy]\nrequest_ttl_hours = 48");
    let env = || flags().env("REPO_CONSOLE_POLICY_REQUEST_TTL_HOURS", "72");
    assert_eq!(ttl(None, flags()), hours(24), "the built-in default");
    assert_eq!(ttl(file, flags()), hours(48));
    assert_eq!(
        ttl(file, env()),
        hours(72),
        "the environment wins over the file"
    );
    assert_eq!(
        ttl(None, flags().flag("policy.request_ttl_hours", "12")),
        hours(12)
    );
    assert_eq!(
        ttl(file, env().flag("policy.request_ttl_hours", "6")),
        hours(6),
        "the command line wins over both"
    );
    let with_policy = Some(
        "[policy]\nsyncers = [\"group:ops\"]\n[policy.production]\n\
                           approvers = [\"group:release\"]\napprovals = 1",
    );
    assert_eq!(
        ttl(with_policy, env()),
        hours(72),
        "a file's [policy] keeps the environment's TTL"
    );
    let err = layered(
        None,
        None,
        flags().env("REPO_CONSOLE_POLICY_REQUEST_TTL_HOURS", "1d"),
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("from the environment") && err.contains("policy.request_ttl_hours"),
        "{err}"
    );
    let err = layered(None, None, flags().flag("policy.request_ttl_hours", "0")).unwrap_err();
    assert!(
        err.to_string().contains("policy.request_ttl_hours: 0"),
        "{err}"
    );
}

#[test]
fn the_write_limit_comes_from_the_file_the_environment_or_the_command_line() {
    let limit = |file: Option<&str>, overrides: Overrides| {
        layered(None, file, overrides)
            .unwrap()
            .writes_per_minute
            .get()
    };
    let file = Some("[api]\nwrites_per_minute = 10");
    assert_eq!(limit(None, flags()), 60, "the built-in default");
    assert_eq!(limit(file, flags()), 10);
    let env = flags().env("REPO_CONSOLE_API_WRITES_PER_MINUTE", "20");
    assert_eq!(limit(file, env), 20, "the environment wins over the file");
    assert_eq!(limit(file, flags().flag("api.writes_per_minute", "5")), 5);
    for refused in ["0", "4294967296"] {
        let err = layered(None, None, flags().flag("api.writes_per_minute", refused))
            .unwrap_err()
            .to_string();
        assert!(err.contains("api.writes_per_minute"), "{err}");
    }
}

#[test]
fn the_anonymous_question_limit_comes_from_the_file_the_environment_or_the_command_line() {
    let limit = |file: Option<&str>, overrides: Overrides| {
        layered(None, file, overrides)
            .unwrap()
            .anonymous_exposure_per_minute
            .get()
    };
    let file = Some("[api]\nanonymous_exposure_per_minute = 10");
    assert_eq!(limit(None, flags()), 30, "the built-in default");
    assert_eq!(limit(file, flags()), 10);
    let env = flags().env("REPO_CONSOLE_API_ANONYMOUS_EXPOSURE_PER_MINUTE", "20");
    assert_eq!(limit(file, env), 20, "the environment wins over the file");
    let flag = flags().flag("api.anonymous_exposure_per_minute", "5");
    assert_eq!(limit(file, flag), 5);
    let err = layered(
        None,
        None,
        flags().flag("api.anonymous_exposure_per_minute", "0"),
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("api.anonymous_exposure_per_minute"), "{err}");
}

#[test]
fn the_deprecated_webhook_signature_is_off_unless_configured() {
    let sent = |overrides: Overrides| {
        layered(None, None, overrides)
            .unwrap()
            .webhooks
            .deprecated_signature
    };
    assert!(!sent(flags()), "off by default");
    assert!(sent(flags().env(
        "REPO_CONSOLE_WEBHOOK_DELIVERY_DEPRECATED_SIGNATURE",
        "true"
    )));
    assert!(sent(
        flags().flag("webhook_delivery.deprecated_signature", "true")
    ));
}

#[test]
fn the_check_retention_comes_from_the_file_the_environment_or_the_command_line() {
    let days = |file: Option<&str>, overrides: Overrides| {
        layered(None, file, overrides)
            .unwrap()
            .check_retention
            .num_days()
    };
    let file = Some("[policy]\ncheck_retention_days = 30");
    assert_eq!(days(None, flags()), 90, "the built-in default");
    assert_eq!(days(file, flags()), 30);
    let env = flags().env("REPO_CONSOLE_POLICY_CHECK_RETENTION_DAYS", "7");
    assert_eq!(days(file, env), 7, "the environment wins over the file");
    let flag = flags().flag("policy.check_retention_days", "2");
    assert_eq!(days(file, flag), 2);
    let err = layered(None, None, flags().flag("policy.check_retention_days", "0"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("policy.check_retention_days"), "{err}");
}

#[test]
fn the_request_retention_comes_from_the_file_the_environment_or_the_command_line() {
    let days = |file: Option<&str>, overrides: Overrides| {
        layered(None, file, overrides)
            .unwrap()
            .request_retention
            .num_days()
    };
    let file = Some("[policy]\nrequest_retention_days = 30");
    assert_eq!(days(None, flags()), 90, "the built-in default");
    assert_eq!(days(file, flags()), 30);
    let env = flags().env("REPO_CONSOLE_POLICY_REQUEST_RETENTION_DAYS", "7");
    assert_eq!(days(file, env), 7, "the environment wins over the file");
    assert_eq!(
        days(file, flags().flag("policy.request_retention_days", "2")),
        2
    );
    for refused in ["0", "3651"] {
        let err = layered(
            None,
            None,
            flags().flag("policy.request_retention_days", refused),
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("policy.request_retention_days"), "{err}");
    }
}

#[test]
fn soak_is_a_duration_on_an_environment_with_one_before_it() {
    use crate::domain::environment::EnvironmentName;
    let file = "[policy.production]\nsoak = \"24h\"\n[policy.staging]\nsoak = \"90s\"";
    let config = layered(None, Some(file), flags()).unwrap();
    let soak = |name: &str| {
        config
            .policy
            .soak_of(&EnvironmentName::parse(name).unwrap())
            .map(|s| s.as_delta().num_seconds())
    };
    assert_eq!(soak("production"), Some(86_400));
    assert_eq!(soak("staging"), Some(90));
    assert_eq!(soak("testing"), None);
    for (file, expected) in [
        (
            "[policy.production]\nsoak = \"0s\"",
            "policy.production.soak: soak '0s' is zero",
        ),
        (
            "[policy.production]\nsoak = \"1w\"",
            "policy.production.soak: soak '1w'",
        ),
        (
            "[policy.testing]\nsoak = \"1h\"",
            "policy.testing.soak: testing is the first environment",
        ),
    ] {
        let shown = refused_key(file);
        assert!(shown.starts_with(expected), "{file}\n{shown}");
    }
}

#[test]
fn schedules_are_looked_at_often_enough_and_claims_outlast_a_deploy() {
    let config = layered(None, None, flags()).unwrap();
    assert_eq!(config.schedules.every, Duration::from_secs(10));
    assert_eq!(config.schedules.lapse, chrono::Duration::minutes(10));
    assert_eq!(config.schedules.retention, chrono::Duration::days(90));
    let env = flags()
        .env("REPO_CONSOLE_SCHEDULES_CHECK_INTERVAL_SECS", "2")
        .env("REPO_CONSOLE_SCHEDULES_RETENTION_DAYS", "7")
        .flag("schedules.claim_lapse_secs", "120");
    let config = layered(None, None, env).unwrap();
    assert_eq!(config.schedules.every, Duration::from_secs(2));
    assert_eq!(config.schedules.lapse, chrono::Duration::minutes(2));
    assert_eq!(config.schedules.retention, chrono::Duration::days(7));
    for (file, expected) in [
        (
            "[schedules]\ncheck_interval_secs = 0",
            "schedules.check_interval_secs: 0",
        ),
        (
            "[schedules]\ncheck_interval_secs = 61",
            "schedules.check_interval_secs: 61",
        ),
        (
            "[schedules]\nclaim_lapse_secs = 59",
            "schedules.claim_lapse_secs: 59",
        ),
        (
            "[schedules]\nretention_days = 0",
            "schedules.retention_days: 0",
        ),
    ] {
        let shown = refused_key(file);
        assert!(shown.starts_with(expected), "{file}\n{shown}");
    }
}

/// Issue 43: `user:` names people only. A policy naming a token with `user:` is refused at
/// start, naming the fix; `token:` names it, and `user:` of a person is still read.
#[test]
fn a_policy_naming_a_token_with_user_is_refused_with_the_fix() {
    use crate::domain::environment::EnvironmentName;
    use crate::domain::identity::Operator;
    let token = "[[api.tokens]]\nname = \"ci\"\nsha256 = \"4b0a2d3f3a3a0b5f1c5b1c1b7c5b1a36a8a0b8a1b0b0a7e3f6f1a0b1c2d3e4f5\"\n\
                 scopes = [\"deploy:staging\"]\n";
    let shown = refused_key(&format!(
        "{token}[policy.staging]\ndeployers = [\"user:CI\"]\n"
    ));
    assert!(
        shown.starts_with("policy.staging.deployers: 'user:CI' names the API token 'ci'"),
        "{shown}"
    );
    assert!(shown.contains("Write \"token:ci\" instead"), "{shown}");
    let approvers = refused_key(&format!(
        "{token}[policy.production]\napprovals = 1\napprovers = [\"user:ci\"]\n"
    ));
    assert!(
        approvers.starts_with("policy.production.approvers"),
        "{approvers}"
    );
    let syncers = refused_key(&format!("{token}[policy]\nsyncers = [\"user:ci\"]\n"));
    assert!(syncers.starts_with("policy.syncers"), "{syncers}");

    let file = format!("{token}[policy.staging]\ndeployers = [\"token:ci\", \"user:alice\"]\n");
    let config = layered(None, Some(&file), flags()).unwrap();
    let staging = EnvironmentName::parse("staging").unwrap();
    let ci = &config.api_tokens[0].operator;
    assert!(config.policy.may_deploy(&staging, ci).is_ok());
    let person_ci = Operator::new("CI").unwrap();
    assert!(config.policy.may_deploy(&staging, &person_ci).is_err());
    assert!(config
        .policy
        .may_deploy(&staging, &Operator::new("ＡＬＩＣＥ").unwrap())
        .is_ok());
}

/// A policy naming an invisible spelling is refused at start, saying why.
#[test]
fn a_policy_subject_with_an_invisible_code_point_is_refused() {
    let shown = refused_key("[policy.staging]\ndeployers = [\"user:ali\u{00AD}ce\"]\n");
    assert!(shown.starts_with("policy.staging.deployers"), "{shown}");
    assert!(shown.contains("U+00AD (soft hyphen)"), "{shown}");
}
