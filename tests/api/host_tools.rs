//! Programs of the host that a test drives (nginx, systemd-analyze): found on the `PATH` or in
//! the sbin directories; a test without one prints `SKIPPED`, except with `CI=true`, where the
//! suite must fail (scripts/test.sh installs them).

use std::path::PathBuf;

/// The program `name`, or `None` after saying the test is skipped (panics when `CI=true`).
pub fn required(name: &str, debian_package: &str, test: &str) -> Option<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect())
        .unwrap_or_default();
    dirs.extend(["/usr/sbin", "/sbin", "/usr/bin"].map(PathBuf::from));
    if let Some(found) = dirs.iter().map(|d| d.join(name)).find(|p| p.is_file()) {
        return Some(found);
    }
    let message = format!("{test}: {name} not found (Debian: apt-get install {debian_package})");
    if std::env::var("CI").as_deref() == Ok("true") {
        panic!("{message}; CI=true, so this is a failure");
    }
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "SKIPPED {message}");
    None
}
