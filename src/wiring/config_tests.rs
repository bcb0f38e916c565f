use std::io::Write;

use super::*;

#[test]
fn the_defaults_alone_give_the_demo_on_localhost_8080() {
    let config = load(&Overrides::default()).unwrap();
    assert_eq!(config.listen.to_string(), "127.0.0.1:8080");
    assert_eq!(
        config.audit,
        AuditSinkKind::Jsonl(PathBuf::from("audit.jsonl"))
    );
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
    assert_eq!(config.audit, AuditSinkKind::Stdout);
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
    let overrides = Overrides {
        listen: Some("127.0.0.1:9999".into()),
        audit_path: Some("/tmp/x/audit.jsonl".into()),
        pulp_url: Some("http://pulp:24817".into()),
        ..Default::default()
    };
    let config = load(&overrides).unwrap();
    assert_eq!(config.listen.port(), 9999);
    assert_eq!(
        config.audit,
        AuditSinkKind::Jsonl("/tmp/x/audit.jsonl".into())
    );
    assert_eq!(config.pulp.base_url, "http://pulp:24817");
}

#[test]
fn errors_name_the_key() {
    let err = load(&Overrides {
        listen: Some("nowhere".into()),
        ..Default::default()
    })
    .unwrap_err();
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

    let explicit = Overrides {
        pulp_url: Some("http://other:24817".into()),
        ..overrides
    };
    let config = load(&explicit).unwrap();
    assert_eq!(
        config.pulp.base_url, "http://other:24817",
        "the console's own setting wins"
    );
    assert_eq!(config.pulp_from_cli, None);
}
