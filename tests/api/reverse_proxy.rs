//! The console behind a real nginx, configured with the shipped `deploy/nginx.conf` (only its
//! addresses and file paths replaced): TLS and basic auth at nginx, the operator named by nginx
//! in `X-Remote-User`, whatever the client sent under that name. The console is the real
//! binary on the demo upstream; the client is curl.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use scraper::Html;

use crate::console_process::ConsoleProcess;
use crate::host_tools::required;
use crate::web::{attr, select, select_in};

const SHIPPED: &str = include_str!("../../deploy/nginx.conf");
const USER: &str = "alice";
const PASSWORD: &str = "correct horse battery staple";

/// A free port on 127.0.0.1 (closed again: nginx binds it next).
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// `text` with `from` replaced by `to`, which must be there (the shipped file changed otherwise).
fn replaced(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "deploy/nginx.conf holds {from:?}");
    text.replace(from, to)
}

/// nginx in its own process group, ended (TERM, then KILL) by that group's id when dropped.
struct Nginx {
    master: Child,
    error_log: PathBuf,
}

impl Nginx {
    fn start(nginx: &Path, dir: &Path, https_port: u16, console: &str) -> Self {
        let site = [
            ("server 127.0.0.1:8080;", format!("server {console};")),
            ("listen 80;", format!("listen 127.0.0.1:{};", free_port())),
            (
                "listen 443 ssl http2;",
                format!("listen 127.0.0.1:{https_port} ssl http2;"),
            ),
            (
                "/etc/ssl/certs/console.example.com.pem",
                path_in(dir, "cert.pem"),
            ),
            (
                "/etc/ssl/private/console.example.com.key",
                path_in(dir, "key.pem"),
            ),
            ("/etc/nginx/repo-console.htpasswd", path_in(dir, "htpasswd")),
            ("/etc/nginx/repo-console.groups", path_in(dir, "groups")),
        ]
        .iter()
        .fold(SHIPPED.to_owned(), |text, (from, to)| {
            replaced(&text, from, to)
        });
        std::fs::write(dir.join("repo-console.conf"), site).unwrap();
        let d = dir.display();
        // The main file a distribution would provide, with every path inside the test's directory.
        let main = format!(
            "daemon off;\nworker_processes 1;\npid {d}/nginx.pid;\nerror_log {d}/error.log warn;\n\
             events {{ worker_connections 64; }}\n\
             http {{\n  access_log {d}/access.log;\n  proxy_max_temp_file_size 0;\n\
             client_body_temp_path {d}/body;\n  proxy_temp_path {d}/proxy;\n\
             fastcgi_temp_path {d}/fastcgi;\n  uwsgi_temp_path {d}/uwsgi;\n  scgi_temp_path {d}/scgi;\n\
             include {d}/repo-console.conf;\n}}\n"
        );
        std::fs::write(dir.join("nginx.conf"), main).unwrap();
        let args = |test: bool| {
            let mut command = Command::new(nginx);
            command
                .arg("-p")
                .arg(dir)
                .arg("-e")
                .arg(dir.join("error.log"))
                .arg("-c")
                .arg(dir.join("nginx.conf"));
            if test {
                command.arg("-t");
            }
            command
        };
        let checked = args(true).output().unwrap();
        assert!(
            checked.status.success(),
            "nginx -t refuses the shipped configuration:\n{}",
            String::from_utf8_lossy(&checked.stderr)
        );
        let master = args(false)
            .process_group(0)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let nginx = Self {
            master,
            error_log: dir.join("error.log"),
        };
        let deadline = Instant::now() + Duration::from_secs(10);
        while std::net::TcpStream::connect(("127.0.0.1", https_port)).is_err() {
            assert!(
                Instant::now() < deadline,
                "nginx listens: {}",
                nginx.errors()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        nginx
    }

    fn errors(&self) -> String {
        std::fs::read_to_string(&self.error_log).unwrap_or_default()
    }
}

use std::os::unix::process::CommandExt;

impl Drop for Nginx {
    fn drop(&mut self) {
        let group = format!("-{}", self.master.id());
        let _ = Command::new("kill").args(["-TERM", "--", &group]).status();
        let deadline = Instant::now() + Duration::from_secs(5);
        while self.master.try_wait().ok().flatten().is_none() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = Command::new("kill")
            .args(["-KILL", "--", &group])
            .stderr(Stdio::null())
            .status();
        let _ = self.master.wait();
    }
}

fn path_in(dir: &Path, name: &str) -> String {
    dir.join(name).display().to_string()
}

/// A self-signed certificate for 127.0.0.1, its key, the htpasswd and the groups files.
fn write_secrets(dir: &Path) {
    let certified =
        rcgen::generate_simple_self_signed(vec!["127.0.0.1".into(), "localhost".into()]).unwrap();
    std::fs::write(dir.join("cert.pem"), certified.cert.pem()).unwrap();
    std::fs::write(dir.join("key.pem"), certified.signing_key.serialize_pem()).unwrap();
    let hashed = Command::new("openssl")
        .args(["passwd", "-apr1", PASSWORD])
        .output()
        .unwrap();
    assert!(hashed.status.success(), "openssl passwd");
    let hash = String::from_utf8(hashed.stdout).unwrap();
    std::fs::write(dir.join("htpasswd"), format!("{USER}:{}", hash.trim())).unwrap();
    std::fs::write(dir.join("groups"), format!("{USER} \"release,ops\";\n")).unwrap();
    // nginx's workers run as an unprivileged user: they must read these.
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    for file in ["cert.pem", "htpasswd", "groups"] {
        std::fs::set_permissions(dir.join(file), std::fs::Permissions::from_mode(0o644)).unwrap();
    }
}

struct Answer {
    status: u16,
    body: String,
}

/// curl to nginx over TLS (trusting only the test's certificate), as `alice` unless `anonymous`.
struct Client {
    base: String,
    ca: String,
    dir: PathBuf,
}

impl Client {
    fn request(&self, method: &str, path: &str, headers: &[&str], form: Option<&str>) -> Answer {
        let body_file = self.dir.join("curl-body");
        let mut curl = Command::new("curl");
        curl.args([
            "-sS",
            "--max-time",
            "30",
            "--cacert",
            &self.ca,
            "-X",
            method,
        ])
        .args(["-o"])
        .arg(&body_file)
        .args(["-w", "%{http_code}"]);
        for header in headers {
            curl.args(["-H", header]);
        }
        if let Some(form) = form {
            curl.args(["--data", form]);
        }
        let out = curl.arg(format!("{}{path}", self.base)).output().unwrap();
        assert!(
            out.status.success(),
            "curl {method} {path}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        Answer {
            status: String::from_utf8_lossy(&out.stdout).trim().parse().unwrap(),
            body: std::fs::read_to_string(&body_file).unwrap_or_default(),
        }
    }

    fn as_alice(&self, method: &str, path: &str, headers: &[&str], form: Option<&str>) -> Answer {
        let auth = format!("Authorization: Basic {}", basic(USER, PASSWORD));
        let mut all = vec![auth.as_str()];
        all.extend_from_slice(headers);
        self.request(method, path, &all, form)
    }
}

fn basic(user: &str, password: &str) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(format!("{user}:{password}"))
}

fn audited_operators(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["operator"].to_string())
        .collect()
}

#[test]
#[ignore = "needs nginx"]
fn behind_nginx_the_operator_is_the_user_nginx_authenticated() {
    let nginx = required("nginx", "nginx");
    let dir = tempfile::tempdir().unwrap();
    write_secrets(dir.path());
    let https_port = free_port();
    let site = format!("https://127.0.0.1:{https_port}");
    let audit = dir.path().join("audit.jsonl");
    std::fs::write(
        dir.path().join("console.toml"),
        format!(
            "[server]\nallowed_hosts = [\"{site}\"]\n\
             [identity]\nheader = \"X-Remote-User\"\ntrusted_proxies = [\"127.0.0.1/32\"]\n\
             [audit]\npath = \"{}\"\n[demo]\ntask_delay_ms = 10\n",
            audit.display()
        ),
    )
    .unwrap();
    let config = path_in(dir.path(), "console.toml");
    let console = ConsoleProcess::start(&["--config", &config], &[], dir.path());
    let console_address = console.address.trim_start_matches("http://").to_owned();
    let proxy = Nginx::start(&nginx, dir.path(), https_port, &console_address);
    let client = Client {
        base: site.clone(),
        ca: path_in(dir.path(), "cert.pem"),
        dir: dir.path().to_owned(),
    };

    // nginx asks for credentials before anything reaches the console.
    assert_eq!(client.request("GET", "/", &[], None).status, 401);
    let forged = "X-Remote-User: mallory";
    assert_eq!(
        client.request("GET", "/", &[forged], None).status,
        401,
        "a client naming itself gets nowhere without credentials"
    );

    // The header bar names the user nginx authenticated, not the one the client sent.
    let dashboard = client.as_alice("GET", "/", &[forged], None);
    assert_eq!(
        dashboard.status,
        200,
        "{}\n{}",
        dashboard.body,
        proxy.errors()
    );
    let html = Html::parse_document(&dashboard.body);
    let operator: String = select(&html, "#operator")[0].text().collect();
    assert_eq!(operator.trim(), USER);
    let row = select(&html, "tr[data-repo]")
        .into_iter()
        .find(|row| !select_in(row, "[data-badge='verified']").is_empty())
        .expect("a verified repository on the demo's dashboard");
    let repo = attr(&row, "data-repo").to_owned();

    // A deploy through nginx, as a browser sends it (its Origin is nginx's site).
    let versions = client.as_alice("GET", &format!("/repos/{repo}/versions"), &[], None);
    let html = Html::parse_document(&versions.body);
    let version = select(&html, "button[data-deploy-version]:not([disabled])")
        .first()
        .map(|b| attr(b, "data-deploy-version").to_owned())
        .expect("a deployable version on the demo");
    let confirm = client.as_alice(
        "GET",
        &format!("/repos/{repo}/deploy/confirm?version={version}"),
        &["HX-Request: true"],
        None,
    );
    assert_eq!(confirm.status, 200, "{}", confirm.body);
    let html = Html::parse_fragment(&confirm.body);
    let name = attr(&select(&html, "#deploy-modal")[0], "data-confirm").to_owned();
    let live = attr(&select(&html, "input[name=live]")[0], "value").to_owned();
    let form = format!(
        "version={version}&live={live}&confirm={}",
        crate::web::enc(&name)
    );
    let origin = format!("Origin: {site}");
    let deployed = client.as_alice(
        "POST",
        &format!("/repos/{repo}/deploy"),
        &[forged, &origin, "HX-Request: true"],
        Some(&form),
    );
    assert_eq!(deployed.status, 200, "{}", deployed.body);
    assert_eq!(
        audited_operators(&audit),
        [format!("\"{USER}\""), format!("\"{USER}\"")],
        "the started and the deployed lines name the user nginx authenticated"
    );
    drop(proxy);
    drop(console);
}
