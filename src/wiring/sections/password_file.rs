//! A password kept in a file of its own (a mounted secret): its first line, without the line
//! ending; an empty file is an empty password.

use std::path::Path;

/// The first line of the file at `path`.
pub fn first_line(path: &Path) -> std::io::Result<String> {
    let text = std::fs::read_to_string(path)?;
    Ok(text.lines().next().unwrap_or("").to_owned())
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    #[test]
    fn the_password_is_the_first_line_without_its_ending() {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        assert_eq!(first_line(file.path()).unwrap(), "");
        write!(file, "s3cret\r\nignored\n").unwrap();
        assert_eq!(first_line(file.path()).unwrap(), "s3cret");
        assert!(first_line(Path::new("/nonexistent/password")).is_err());
    }
}
