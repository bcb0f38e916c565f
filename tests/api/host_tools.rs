//! Programs of the host that a test drives (nginx, systemd-analyze): found on the `PATH` or in
//! the sbin directories. Such a test carries `#[ignore = "needs <program>"]`; asked to run
//! without its program, it fails (scripts/test.sh installs them).

use std::path::PathBuf;

use crate::needs::missing;

/// The program `name`; fails the test when the host has none.
pub fn required(name: &str, debian_package: &str) -> PathBuf {
    let mut dirs: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect())
        .unwrap_or_default();
    dirs.extend(["/usr/sbin", "/sbin", "/usr/bin"].map(PathBuf::from));
    dirs.iter()
        .map(|d| d.join(name))
        .find(|p| p.is_file())
        .unwrap_or_else(|| {
            let why = format!("not found on the PATH (Debian: apt-get install {debian_package})");
            missing(name, &why)
        })
}
