//! repo-console: parse the command line, load the configuration, start serving.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Arg, Command, CommandFactory, FromArgMatches, Parser};
use repo_console::wiring::config::overrides::environment_of;
use repo_console::wiring::config::{self, LogFormat, Overrides, ALIASES};
use repo_console::wiring::startup;

/// A web console for the versions of Pulp 3 RPM repositories and their deployment.
///
/// Every setting of config/default.toml is also read from the environment as
/// REPO_CONSOLE_<SECTION>_<KEY> (lists comma separated), and from --set section.key=value.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    /// A TOML file layered over the built-in defaults (config/default.toml).
    #[arg(long, env = "REPO_CONSOLE_CONFIG")]
    config: Option<PathBuf>,
    /// Any setting, as section.key=value (repeatable; wins over the shorthand flags), e.g.
    /// --set server.header_timeout_secs=10.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    set: Vec<String>,
}

/// The command line: [`Cli`] plus one shorthand flag per alias of a key.
fn command() -> Command {
    ALIASES.iter().fold(Cli::command(), |command, alias| {
        command.arg(
            Arg::new(alias.flag)
                .long(alias.flag)
                .value_name("VALUE")
                .help(format!("{} (--set {}=VALUE)", alias.help, alias.key)),
        )
    })
}

/// What the command line and the environment say.
fn overrides() -> Result<Overrides, String> {
    let matches = command().get_matches();
    let cli = Cli::from_arg_matches(&matches).map_err(|e| e.to_string())?;
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
        config_file: cli.config,
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
    let result = match overrides().and_then(|o| config::load(&o).map_err(|e| e.to_string())) {
        Ok(config) => {
            init_tracing(config.log_format);
            startup::run(config).await
        }
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
