//! repo-console: parse the command line, load the configuration, start serving.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Arg, ArgMatches, Command, CommandFactory, FromArgMatches, Parser, Subcommand};
use repo_console::wiring::config::overrides::environment_of;
use repo_console::wiring::config::{self, LogFormat, Overrides, ALIASES, DEFAULT_TOML};
use repo_console::wiring::startup;

/// What `-h` and `--help` both say after the options.
const SETTINGS_HELP: &str = "\
Settings, lowest to highest: the built-in defaults (print them with `repo-console config \
defaults`), pulp-cli's ~/.config/pulp/cli.toml (only when no other layer names a Pulp: its \
server, user and password are then used), the --config file, the environment \
(REPO_CONSOLE_<SECTION>_<KEY>, lists comma separated; an unknown REPO_CONSOLE_* variable is \
refused), then the flags. With no Pulp named anywhere, the console serves a built-in demo.";

/// A web console for the versions of Pulp 3 RPM and Debian repositories and their deployment.
#[derive(Parser)]
#[command(version, about, long_about = None, after_help = SETTINGS_HELP)]
struct Cli {
    /// A TOML file layered over the built-in defaults.
    #[arg(long, env = "REPO_CONSOLE_CONFIG", global = true)]
    config: Option<PathBuf>,
    /// Any setting, as section.key=value (repeatable; wins over the shorthand flags), e.g.
    /// --set server.header_timeout_secs=10.
    #[arg(long = "set", value_name = "KEY=VALUE", global = true)]
    set: Vec<String>,
    #[command(subcommand)]
    task: Option<Task>,
}

#[derive(Subcommand)]
enum Task {
    /// The configuration: print the defaults, or check a file.
    #[command(subcommand)]
    Config(ConfigTask),
    /// The audit log: check its hash chain.
    #[command(subcommand)]
    Audit(AuditTask),
    /// Signed evidence of promotions: verify it.
    #[command(subcommand)]
    Evidence(EvidenceTask),
}

#[derive(Subcommand)]
enum EvidenceTask {
    /// Checks each DSSE envelope's signature with the public keys given, the files (in the
    /// order given) as a chain, and with --pulp-content-url that each repository's newest
    /// attestation is what its distribution serves now. Exits 0 verified, 1 refused, 2 when it
    /// could not check.
    Verify {
        /// Envelopes as GET /api/v1/deployments/<deploy_id>/evidence answers them, oldest first.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// A PEM public key, as [ID=]PATH (repeatable; without ID it is tried for any keyid).
        #[arg(long = "key", required = true, value_name = "[ID=]PUBLIC.pem")]
        keys: Vec<String>,
        /// Pulp's content app, e.g. https://pulp.example.com/pulp/content/.
        #[arg(long)]
        pulp_content_url: Option<String>,
    },
}

#[derive(Subcommand)]
enum AuditTask {
    /// Reads the audit log from its first line and checks that no line was changed, removed
    /// or reordered: prints each log's verdict (`line N (time) ...` for the first line that
    /// breaks it) and exits 0 when intact, 1 when broken, 2 when it could not check.
    Verify {
        /// A JSON Lines audit file (otherwise the sink the configuration names).
        #[arg(long)]
        path: Option<PathBuf>,
        /// A head an earlier check printed, as LINE:SHA256 or LOG=LINE:SHA256 (repeatable):
        /// the log must still hold that line, so lines cut from its end show too.
        #[arg(long = "head", value_name = "[LOG=]LINE:SHA256")]
        heads: Vec<String>,
    },
}

#[derive(Subcommand)]
enum ConfigTask {
    /// Prints the built-in defaults: every key with its default and what it does.
    Defaults,
    /// Loads FILE over the built-in defaults (the environment and pulp-cli's file left out)
    /// as the console would at start, and says what is wrong with it, naming the key.
    Check { file: PathBuf },
}

/// The command line: [`Cli`] plus one shorthand flag per alias of a key, with its default.
fn command() -> Command {
    let defaults: toml::Table = DEFAULT_TOML
        .parse()
        .expect("the built-in defaults are TOML");
    ALIASES.iter().fold(Cli::command(), |command, alias| {
        let help = format!("{} (--set {}=VALUE)", alias.help, alias.key);
        let help = match default_of(&defaults, alias.key) {
            Some(default) => format!("{help} [default: {default}]"),
            None => help,
        };
        command.arg(
            Arg::new(alias.flag)
                .long(alias.flag)
                .value_name("VALUE")
                .help(help),
        )
    })
}

/// The default of `section.key`, as `--help` shows it (`none` for an empty one).
fn default_of(defaults: &toml::Table, dotted: &str) -> Option<String> {
    let (section, key) = dotted.split_once('.')?;
    let value = defaults.get(section)?.get(key)?;
    Some(match value {
        toml::Value::String(text) if text.is_empty() => "none".to_owned(),
        toml::Value::Array(items) if items.is_empty() => "none".to_owned(),
        toml::Value::String(text) => text.clone(),
        other => other.to_string(),
    })
}

/// Runs `config defaults` or `config check FILE`.
fn config_task(task: &ConfigTask) -> Result<(), String> {
    match task {
        ConfigTask::Defaults => {
            print!("{DEFAULT_TOML}");
            Ok(())
        }
        ConfigTask::Check { file } => {
            let config = config::check_file(file).map_err(|e| e.to_string())?;
            println!("{}: {}", file.display(), config::summary(&config));
            println!(
                "policy sha256: {} (what each attestation's policy.sha256 names)",
                config.policy_facts.sha256
            );
            Ok(())
        }
    }
}

/// Runs `audit verify`: the verdicts on standard output, the exit status as documented.
async fn audit_task(task: AuditTask, matches: &ArgMatches, cli: &Cli) -> ExitCode {
    let AuditTask::Verify { path, heads } = task;
    let check = repo_console::wiring::audit_verify::VerifyAudit { path, heads };
    let config =
        || overrides(matches, cli).and_then(|o| config::load(&o).map_err(|e| e.to_string()));
    match repo_console::wiring::audit_verify::verify(&check, config).await {
        Ok(verdict) => {
            for line in verdict.lines() {
                println!("{line}");
            }
            ExitCode::from(verdict.exit_code())
        }
        Err(message) => {
            eprintln!("repo-console: the audit log was not checked: {message}");
            ExitCode::from(2)
        }
    }
}

/// Runs `evidence verify`: a line per envelope on standard output, the exit status as
/// documented.
async fn evidence_task(task: EvidenceTask) -> ExitCode {
    let EvidenceTask::Verify {
        files,
        keys,
        pulp_content_url,
    } = task;
    let check = repo_console::wiring::evidence_verify::VerifyEvidence {
        files,
        keys,
        pulp_content_url,
    };
    match repo_console::wiring::evidence_verify::verify(&check).await {
        Ok(Ok(lines)) => {
            for line in lines {
                println!("{line}");
            }
            ExitCode::SUCCESS
        }
        Ok(Err(refused)) => {
            println!("{refused}");
            ExitCode::from(1)
        }
        Err(message) => {
            eprintln!("repo-console: the evidence was not checked: {message}");
            ExitCode::from(2)
        }
    }
}

/// What the command line and the environment say.
fn overrides(matches: &ArgMatches, cli: &Cli) -> Result<Overrides, String> {
    let mut flags: Vec<(String, String)> = ALIASES
        .iter()
        .filter_map(|alias| {
            let value = matches.get_one::<String>(alias.flag)?;
            Some((alias.key.to_owned(), value.clone()))
        })
        .collect();
    for setting in &cli.set {
        let (key, value) = setting.split_once('=').ok_or_else(|| {
            format!(
                "--set {setting}: write it as section.key=value, e.g. server.listen=127.0.0.1:8080"
            )
        })?;
        flags.push((key.trim().to_owned(), value.to_owned()));
    }
    let environment = environment_of(std::env::vars_os()).map_err(|e| e.to_string())?;
    Ok(Overrides {
        config_file: cli.config.clone(),
        environment,
        flags,
        pulp_cli_config: std::env::var_os("HOME")
            .map(|home| PathBuf::from(home).join(".config/pulp/cli.toml")),
    })
}

/// Logs go to standard error (standard output may carry the audit lines): readable lines,
/// in colour on a terminal, or one JSON object per line.
fn init_tracing(format: LogFormat) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| "repo_console=info,tower_http=info".into());
    let logs = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(filter);
    match format {
        LogFormat::Text => logs
            .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
            .init(),
        LogFormat::Json => logs
            .json()
            .with_current_span(true)
            .with_span_list(true)
            .init(),
    }
}

#[tokio::main]
async fn main() -> ExitCode {
    let matches = command().get_matches();
    let result = match Cli::from_arg_matches(&matches).map_err(|e| e.to_string()) {
        Ok(Cli {
            task: Some(Task::Evidence(task)),
            ..
        }) => return evidence_task(task).await,
        Ok(Cli {
            task: Some(Task::Audit(task)),
            config,
            set,
        }) => {
            let cli = Cli {
                task: None,
                config,
                set,
            };
            return audit_task(task, &matches, &cli).await;
        }
        Ok(Cli {
            task: Some(Task::Config(task)),
            ..
        }) => config_task(&task),
        Ok(cli) => match overrides(&matches, &cli)
            .and_then(|o| config::load(&o).map_err(|e| e.to_string()))
        {
            Ok(config) => {
                init_tracing(config.log_format);
                startup::run(config).await
            }
            Err(message) => Err(message),
        },
        Err(message) => Err(message),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("repo-console: {message}");
            ExitCode::FAILURE
        }
    }
}
