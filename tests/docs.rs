//! The documentation stays true: every page of `docs/src` is in the book's summary, every TOML
//! example of the book and the README is accepted by the console's own configuration loader
//! (what `repo-console config check` runs), and every `data-*` hook of the pages is listed in the
//! HTML hooks reference. Links and anchors are checked by `scripts/docs.sh` (lychee).

use std::path::{Path, PathBuf};

use toml::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every file under `dir` whose name ends with `extension`.
fn files(dir: &Path, extension: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().map(Result::unwrap) {
        let path = entry.path();
        if path.is_dir() {
            found.extend(files(&path, extension));
        } else if path.to_string_lossy().ends_with(extension) {
            found.push(path);
        }
    }
    found.sort();
    found
}

fn book_pages() -> Vec<PathBuf> {
    files(&root().join("docs/src"), ".md")
}

#[test]
fn every_page_is_in_the_summary_and_every_summary_entry_is_a_page() {
    let src = root().join("docs/src");
    let summary = std::fs::read_to_string(src.join("SUMMARY.md")).unwrap();
    let linked: Vec<&str> = summary
        .split("](")
        .skip(1)
        .filter_map(|rest| rest.split_once(')').map(|(target, _)| target))
        .collect();
    for page in book_pages() {
        let relative = page
            .strip_prefix(&src)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        if relative != "SUMMARY.md" {
            assert!(
                linked.contains(&relative.as_str()),
                "{relative} is not in SUMMARY.md"
            );
        }
    }
    for target in linked {
        assert!(
            src.join(target).is_file(),
            "SUMMARY.md names {target}, which is no page"
        );
    }
}

/// The fenced blocks of `language` in a Markdown text, with `{{#include path}}` lines replaced
/// by the file they name (relative to `dir`, as mdBook reads them).
fn fenced(text: &str, language: &str, dir: &Path) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        let fence = line.trim_start();
        match &mut current {
            None if fence == format!("```{language}") => current = Some(String::new()),
            Some(block) if fence.starts_with("```") => {
                blocks.push(std::mem::take(block));
                current = None;
            }
            Some(block) => match line.trim().strip_prefix("{{#include ") {
                Some(rest) => {
                    let path = dir.join(rest.trim_end_matches("}}").trim());
                    let included = std::fs::read_to_string(&path)
                        .unwrap_or_else(|e| panic!("{{{{#include}}}} of {}: {e}", path.display()));
                    block.push_str(&included);
                }
                None => {
                    block.push_str(line);
                    block.push('\n');
                }
            },
            None => {}
        }
    }
    blocks
}

/// The example with each `*_file` it names made in `dir` (a secret's first line), so that it is
/// checked as it would be where its files exist.
fn with_its_files(example: &str, dir: &Path) -> Result<String, String> {
    fn walk(value: &mut Value, dir: &Path) {
        match value {
            Value::Table(table) => {
                for (key, value) in table.iter_mut() {
                    match value {
                        Value::String(path) if key.ends_with("_file") && !path.is_empty() => {
                            let name = Path::new(path.as_str()).file_name().unwrap().to_owned();
                            let made = dir.join(name);
                            std::fs::write(&made, "example-secret\n").unwrap();
                            *path = made.to_string_lossy().into_owned();
                        }
                        other => walk(other, dir),
                    }
                }
            }
            Value::Array(items) => items.iter_mut().for_each(|item| walk(item, dir)),
            _ => {}
        }
    }
    let parsed = example.parse().map_err(|e| format!("not TOML: {e}"))?;
    let mut table = Value::Table(parsed);
    walk(&mut table, dir);
    Ok(toml::to_string(&table).unwrap())
}

#[test]
fn every_toml_example_is_accepted_by_the_configuration_loader() {
    let mut documents = book_pages();
    documents.push(root().join("README.md"));
    let mut checked = 0;
    let mut refused = Vec::new();
    for document in documents {
        let text = std::fs::read_to_string(&document).unwrap();
        let dir = document.parent().unwrap();
        for (n, example) in fenced(&text, "toml", dir).into_iter().enumerate() {
            let scratch = tempfile::tempdir().unwrap();
            let file = scratch.path().join("example.toml");
            let outcome = with_its_files(&example, scratch.path()).and_then(|text| {
                std::fs::write(&file, text).unwrap();
                repo_console::wiring::config::check_file(&file).map_err(|e| e.to_string())
            });
            if let Err(error) = outcome {
                let at = document.strip_prefix(root()).unwrap().display().to_string();
                refused.push(format!("{at} (example {}): {error}", n + 1));
            }
            checked += 1;
        }
    }
    assert!(
        refused.is_empty(),
        "refused examples:\n{}",
        refused.join("\n")
    );
    assert!(
        checked >= 7,
        "only {checked} examples found: is the fence still ```toml?"
    );
}

#[test]
fn every_data_hook_of_the_pages_is_in_the_html_hooks_reference() {
    let reference =
        std::fs::read_to_string(root().join("docs/src/reference/html-hooks.md")).unwrap();
    let mut missing = Vec::new();
    for source in files(&root().join("src/adapters/web"), ".rs") {
        let text = std::fs::read_to_string(&source).unwrap();
        for (at, _) in text.match_indices("data-") {
            let name: String = text[at..]
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || *c == '-')
                .collect();
            let name = name.trim_end_matches('-');
            if name.len() > "data-".len() && !reference.contains(&format!("`{name}`")) {
                missing.push(format!("{name} ({})", source.display()));
            }
        }
    }
    missing.sort();
    missing.dedup();
    assert!(
        missing.is_empty(),
        "hooks not in html-hooks.md:\n{}",
        missing.join("\n")
    );
}
