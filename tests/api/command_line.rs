//! The command line of the real binary: `config defaults`, `config check FILE`, the help,
//! and unknown `REPO_CONSOLE_*` variables refused at start.

use std::process::{Command, Output};

fn console(args: &[&str], env: &[(&str, &str)]) -> Output {
    let home = tempfile::tempdir().unwrap();
    Command::new(env!("CARGO_BIN_EXE_repo-console"))
        .args(args)
        .env("HOME", home.path())
        .envs(env.iter().copied())
        .output()
        .expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn config_defaults_prints_the_built_in_defaults() {
    let out = console(&["config", "defaults"], &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        repo_console::wiring::config::DEFAULT_TOML
    );
}

#[test]
fn config_check_says_a_good_file_is_valid_and_names_the_key_of_a_bad_one() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.toml");
    std::fs::write(&good, "[pulp]\nbase_url = \"https://pulp.example.com\"\n").unwrap();
    let out = console(&["config", "check", good.to_str().unwrap()], &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let said = text(&out.stdout);
    assert!(
        said.contains("valid") && said.contains("https://pulp.example.com"),
        "{said}"
    );

    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, "[server]\nlisten = \"nowhere\"\n").unwrap();
    let out = console(&["config", "check", bad.to_str().unwrap()], &[]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("server.listen"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn short_and_long_help_describe_the_program_alike_with_defaults_and_the_pulp_cli_fallback() {
    let short = text(&console(&["-h"], &[]).stdout);
    let long = text(&console(&["--help"], &[]).stdout);
    assert_eq!(short.lines().next(), long.lines().next());
    for help in [&short, &long] {
        assert!(help.contains("[default: 127.0.0.1:8080]"), "{help}");
        assert!(help.contains("[default: audit.jsonl]"), "{help}");
        assert!(
            help.contains("pulp-cli's ~/.config/pulp/cli.toml"),
            "{help}"
        );
        assert!(help.contains("repo-console config defaults"), "{help}");
        assert!(!help.contains("config/default.toml"), "{help}");
    }
}

#[test]
fn an_unknown_repo_console_variable_is_refused_naming_the_nearest_key() {
    let env = [("REPO_CONSOLE_PULP_BASEURL", "https://pulp.example.com")];
    let out = console(&["--listen", "127.0.0.1:0"], &env);
    assert!(!out.status.success());
    let said = text(&out.stderr);
    assert!(
        said.contains(
            "REPO_CONSOLE_PULP_BASEURL is not a setting; did you mean REPO_CONSOLE_PULP_BASE_URL?"
        ),
        "{said}"
    );
}
