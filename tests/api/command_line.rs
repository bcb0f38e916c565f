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

/// The recipe of the book's Evidence reference ("The policy's digest"), as an auditor runs it:
/// the file's `[policy]` and `[environments]` over the built-in defaults, as JSON with sorted
/// keys and no spaces, hashed with SHA-256.
const POLICY_DIGEST_RECIPE: &str = r#"
import hashlib, json, subprocess, sys, tomllib

def merged(low, high):
    out = dict(low)
    for key, value in high.items():
        both = isinstance(value, dict) and isinstance(out.get(key), dict)
        out[key] = merged(out[key], value) if both else value
    return out

defaults = tomllib.loads(subprocess.run([sys.argv[2], "config", "defaults"],
                                        capture_output=True, text=True, check=True).stdout)
written = tomllib.load(open(sys.argv[1], "rb"))
tables = {name: merged(defaults.get(name, {}), written.get(name, {}))
          for name in ("environments", "policy")}
text = json.dumps(tables, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
print(hashlib.sha256(text.encode()).hexdigest())
"#;

/// The digest `config check` prints for `policy` (a configuration file's text).
fn printed_digest(file: &std::path::Path) -> String {
    let out = console(&["config", "check", file.to_str().unwrap()], &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let said = text(&out.stdout);
    said.lines()
        .find_map(|line| line.strip_prefix("policy sha256: "))
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("no policy digest said: {said}"))
        .to_owned()
}

#[test]
#[ignore = "needs python3 (3.11 or later, for tomllib)"]
fn the_policy_digest_is_what_the_books_recipe_computes_from_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("console.toml");
    std::fs::write(
        &file,
        "[environments]\norder = [\"staging\", \"production\"]\n\
         [environments.staging]\ndistribution = \"{repo}-staging\"\n\
         [environments.production]\ndistribution = \"{repo}-prod\"\nrequires_previous = true\n\
         [policy.production]\ndeployers = [\"group:release\", \"user:alice\"]\n\
         approvers = [\"group:release\"]\napprovals = 1\nrequired_checks = [\"smoke\"]\n",
    )
    .unwrap();
    let printed = printed_digest(&file);
    let python = std::env::var("RC_TEST_PYTHON").unwrap_or_else(|_| "python3".to_owned());
    let out = Command::new(&python)
        .args(["-c", POLICY_DIGEST_RECIPE])
        .arg(&file)
        .arg(env!("CARGO_BIN_EXE_repo-console"))
        .output()
        .unwrap_or_else(|e| panic!("{python} does not run ({e}): set RC_TEST_PYTHON"));
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).trim(), printed);

    // One changed rule: another digest.
    let changed = dir.path().join("changed.toml");
    let source = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&changed, source.replace("user:alice", "user:mallory")).unwrap();
    assert_ne!(printed_digest(&changed), printed);
}
