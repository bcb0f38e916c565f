//! repo-console: parse the command line, load the configuration, start serving.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use repo_console::wiring::config::{self, LogFormat};
use repo_console::wiring::startup;

/// A web console for the versions of Pulp 3 RPM repositories and their deployment.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    /// A TOML file layered over the built-in defaults (config/default.toml).
    #[arg(long, env = "REPO_CONSOLE_CONFIG")]
    config: Option<PathBuf>,
    /// Address to listen on, e.g. 127.0.0.1:8080.
    #[arg(long, env = "REPO_CONSOLE_LISTEN")]
    listen: Option<String>,
    /// The audit log file (JSON Lines).
    #[arg(long, env = "REPO_CONSOLE_AUDIT_PATH")]
    audit_path: Option<PathBuf>,
    /// Where deployment records go: jsonl, stdout or postgres (audit.sink).
    #[arg(long, env = "REPO_CONSOLE_AUDIT_SINK")]
    audit_sink: Option<String>,
    /// The PostgreSQL URL of the postgres sink (audit.url).
    #[arg(long, env = "REPO_CONSOLE_AUDIT_URL", hide_env_values = true)]
    audit_url: Option<String>,
    /// A file holding the database password (audit.password_file).
    #[arg(long, env = "REPO_CONSOLE_AUDIT_PASSWORD_FILE")]
    audit_password_file: Option<PathBuf>,
    /// The Pulp server's URL; without one, the built-in demo upstream is used.
    #[arg(long, env = "REPO_CONSOLE_PULP_URL")]
    pulp_url: Option<String>,
    #[arg(long, env = "REPO_CONSOLE_PULP_USERNAME")]
    pulp_username: Option<String>,
    /// Prefer the environment or pulp.password_file: a flag shows in the process list.
    #[arg(long, env = "REPO_CONSOLE_PULP_PASSWORD", hide_env_values = true)]
    pulp_password: Option<String>,
    /// Log lines as "text" or "json" (log.format).
    #[arg(long, env = "REPO_CONSOLE_LOG_FORMAT")]
    log_format: Option<String>,
    /// The header an authenticating proxy names the operator in (identity.header).
    #[arg(long, env = "REPO_CONSOLE_IDENTITY_HEADER")]
    identity_header: Option<String>,
    /// The proxies trusted to set it, comma separated (identity.trusted_proxies).
    #[arg(long, env = "REPO_CONSOLE_TRUSTED_PROXIES")]
    trusted_proxies: Option<String>,
}

impl Cli {
    fn overrides(self) -> config::Overrides {
        config::Overrides {
            config_file: self.config,
            listen: self.listen,
            audit_path: self.audit_path,
            audit_sink: self.audit_sink,
            audit_url: self.audit_url,
            audit_password_file: self.audit_password_file,
            pulp_url: self.pulp_url,
            pulp_username: self.pulp_username,
            pulp_password: self.pulp_password,
            log_format: self.log_format,
            identity_header: self.identity_header,
            trusted_proxies: self.trusted_proxies,
            pulp_cli_config: std::env::var_os("HOME")
                .map(|home| PathBuf::from(home).join(".config/pulp/cli.toml")),
        }
    }
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
    let overrides = Cli::parse().overrides();
    let result = match config::load(&overrides) {
        Ok(config) => {
            init_tracing(config.log_format);
            startup::run(config).await
        }
        Err(error) => Err(error.to_string()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("repo-console: {message}");
            ExitCode::FAILURE
        }
    }
}
