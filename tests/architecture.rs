//! The shape of the source: no import circles between files, and the in-memory Pulp apart
//! from the real one. Reads `src/` as text: a file imports another when one of its
//! `use` lines or inline paths (`crate::…`, `super::…`) names it, directly or through a
//! `pub use` of a `mod.rs`. Test modules (`mod tests`, `*_tests.rs`) are left out.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The folders (or files) whose files must not import each other in a circle.
const CIRCLE_FREE: &[&str] = &[
    "domain",
    "ports",
    "app",
    "adapters/memory",
    "adapters/pulp",
    "adapters/coalescing",
];

type Module = Vec<String>;

struct Source {
    /// Every file, by its module path (`adapters/memory/mod.rs` is `adapters::memory`).
    files: BTreeMap<Module, SourceFile>,
}

struct SourceFile {
    is_mod: bool,
    /// `(is pub use, path)` of each `use`, braces expanded, plus inline paths.
    paths: Vec<(bool, String)>,
}

impl Source {
    fn read() -> Self {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = BTreeMap::new();
        for path in rust_files(&root) {
            let relative = path.strip_prefix(&root).expect("under src");
            let mut module: Module = relative
                .with_extension("")
                .iter()
                .map(|part| part.to_string_lossy().into_owned())
                .collect();
            let name = module.last().cloned().unwrap_or_default();
            if name.ends_with("_tests") || module.len() < 2 && name != "mod" {
                continue; // test files, lib.rs, main.rs
            }
            let is_mod = name == "mod";
            if is_mod {
                module.pop();
            }
            let text = fs::read_to_string(&path).expect("a readable source file");
            let paths = imports(&text);
            files.insert(module, SourceFile { is_mod, paths });
        }
        Self { files }
    }

    /// The file that `path`, written in `from`, names (through `pub use` of a `mod.rs`).
    fn resolve(&self, from: &Module, path: &str, depth: usize) -> Option<Module> {
        let segments: Vec<&str> = path.split("::").collect();
        let bare = !matches!(segments[0], "crate" | "super" | "self");
        let (mut base, rest): (Module, &[&str]) = match segments[0] {
            "crate" => (Vec::new(), &segments[1..]),
            "super" | "self" => {
                let mut base = from.clone();
                if !self.files.get(from)?.is_mod {
                    base.pop(); // a file's `super` is its folder's module
                }
                let mut rest = &segments[..];
                if rest[0] == "self" {
                    rest = &rest[1..];
                } else {
                    rest = &rest[1..];
                    while rest.first() == Some(&"super") {
                        base.pop();
                        rest = &rest[1..];
                    }
                }
                (base, rest)
            }
            // `use state::X` names a module of this one; anything else is another crate.
            _ => (from.clone(), &segments[..]),
        };
        let mut consumed = 0;
        for segment in rest {
            base.push(segment.split(" as ").next()?.to_owned());
            if !self.files.contains_key(&base) {
                base.pop();
                break;
            }
            consumed += 1;
        }
        if bare && consumed == 0 {
            return None;
        }
        let file = self.files.get(&base)?;
        let Some(name) = rest.get(consumed) else {
            return Some(base);
        };
        if file.is_mod && depth < 8 {
            let name = name.split(" as ").next()?;
            let exported = file.paths.iter().find(|(public, p)| {
                *public && p.rsplit("::").next().and_then(|n| n.split(" as ").last()) == Some(name)
            });
            if let Some((_, target)) = exported {
                return self.resolve(&base, target, depth + 1);
            }
        }
        Some(base)
    }

    /// Which files each file under `within` imports, among the files under `within`.
    fn imports_within(&self, within: &[&str]) -> BTreeMap<Module, BTreeSet<Module>> {
        let inside = |m: &Module| {
            within
                .iter()
                .any(|w| m.starts_with(&w.split('/').map(str::to_owned).collect::<Vec<_>>()))
        };
        let mut edges: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
        for (module, file) in self.files.iter().filter(|(m, _)| inside(m)) {
            for (public, path) in &file.paths {
                if *public && file.is_mod {
                    continue; // a folder's re-exports are its callers' convenience
                }
                let Some(target) = self.resolve(module, path, 0) else {
                    continue;
                };
                let is_folder = self.files.get(&target).is_some_and(|f| f.is_mod);
                if target != *module && inside(&target) && !is_folder {
                    edges.entry(module.clone()).or_default().insert(target);
                }
            }
        }
        edges
    }
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in fs::read_dir(dir).expect("a readable folder") {
        let path = entry.expect("a folder entry").path();
        if path.is_dir() {
            found.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
    found
}

/// The paths a file's code names: its `use` items and its inline `crate::`/`super::` paths,
/// without its `mod tests` and comments.
fn imports(text: &str) -> Vec<(bool, String)> {
    let code = text.split("#[cfg(test)]\nmod tests").next().unwrap_or(text);
    let code: String = code
        .lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let mut paths = Vec::new();
    let mut rest = code.as_str();
    let mut inline = String::new();
    while let Some(start) = find_use(rest) {
        inline.push_str(&rest[..start.0]);
        let end = rest[start.1..]
            .find(';')
            .map_or(rest.len(), |e| start.1 + e);
        let item: String = rest[start.1..end].split_whitespace().collect();
        for path in expand(&item) {
            paths.push((start.2, path));
        }
        rest = &rest[(end + 1).min(rest.len())..];
    }
    inline.push_str(rest);
    paths.extend(inline_paths(&inline).into_iter().map(|p| (false, p)));
    paths
}

/// The next `use` item at a line start: (where its line starts, where its path starts, pub).
fn find_use(code: &str) -> Option<(usize, usize, bool)> {
    let mut offset = 0;
    for line in code.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let (public, after) = match trimmed.strip_prefix("pub") {
            Some(after_pub) => {
                let after_vis = if after_pub.starts_with('(') {
                    after_pub
                        .find(')')
                        .map_or(after_pub, |i| &after_pub[i + 1..])
                } else {
                    after_pub
                };
                (true, after_vis.trim_start())
            }
            None => (false, trimmed),
        };
        if let Some(path) = after.strip_prefix("use ") {
            let path_start = offset + line.len() - path.len();
            return Some((offset, path_start, public));
        }
        offset += line.len();
    }
    None
}

/// `a::{b, c::{d, e}}` as `a::b`, `a::c::d`, `a::c::e`.
fn expand(item: &str) -> Vec<String> {
    let Some(open) = item.find('{') else {
        return vec![item.to_owned()];
    };
    let (prefix, body) = (&item[..open], &item[open + 1..item.len() - 1]);
    let mut parts = Vec::new();
    let (mut depth, mut current) = (0, String::new());
    for c in body.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ => {}
        }
        if c == ',' && depth == 0 {
            parts.push(std::mem::take(&mut current));
        } else {
            current.push(c);
        }
    }
    parts.push(current);
    parts
        .iter()
        .filter(|p| !p.is_empty())
        .flat_map(|p| expand(p))
        .map(|p| format!("{prefix}{p}"))
        .collect()
}

/// Paths such as `crate::ports::correlation::current` or `super::state::State` in code.
fn inline_paths(code: &str) -> Vec<String> {
    let mut found = Vec::new();
    let bytes = code.as_bytes();
    for start in ["crate::", "super::"]
        .iter()
        .flat_map(|head| code.match_indices(head).map(|(i, _)| i))
    {
        let before = start.checked_sub(1).map(|i| bytes[i]);
        if before.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b':') {
            continue;
        }
        let tail = &code[start..];
        let end = tail
            .char_indices()
            .find(|(i, c)| !(c.is_alphanumeric() || *c == '_' || *c == ':') && *i > 0)
            .map_or(tail.len(), |(i, _)| i);
        found.push(tail[..end].trim_end_matches(':').to_owned());
    }
    found
}

/// Every set of files that import each other around a loop (Tarjan's components).
fn circles(edges: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
    struct Walk<'a> {
        edges: &'a BTreeMap<Module, BTreeSet<Module>>,
        index: BTreeMap<Module, usize>,
        low: BTreeMap<Module, usize>,
        stack: Vec<Module>,
        found: Vec<Vec<Module>>,
    }
    impl Walk<'_> {
        fn visit(&mut self, v: &Module) {
            let n = self.index.len();
            self.index.insert(v.clone(), n);
            self.low.insert(v.clone(), n);
            self.stack.push(v.clone());
            for w in self.edges.get(v).into_iter().flatten() {
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let low = self.low[v].min(self.low[w]);
                    self.low.insert(v.clone(), low);
                } else if self.stack.contains(w) {
                    let low = self.low[v].min(self.index[w]);
                    self.low.insert(v.clone(), low);
                }
            }
            if self.low[v] == self.index[v] {
                let at = self
                    .stack
                    .iter()
                    .position(|m| m == v)
                    .expect("on the stack");
                let component = self.stack.split_off(at);
                if component.len() > 1 {
                    self.found.push(component);
                }
            }
        }
    }
    let mut walk = Walk {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        found: Vec::new(),
    };
    for v in edges.keys() {
        if !walk.index.contains_key(v) {
            walk.visit(v);
        }
    }
    walk.found
}

fn shown(circle: &[Module], edges: &BTreeMap<Module, BTreeSet<Module>>) -> String {
    circle
        .iter()
        .map(|m| {
            let targets: Vec<String> = edges[m]
                .iter()
                .filter(|t| circle.contains(t))
                .map(|t| t.join("/"))
                .collect();
            format!("{} -> {}", m.join("/"), targets.join(", "))
        })
        .collect::<Vec<_>>()
        .join("; ")
}

#[test]
fn no_file_imports_a_file_that_imports_it_back() {
    let source = Source::read();
    let edges = source.imports_within(CIRCLE_FREE);
    let found: Vec<String> = circles(&edges).iter().map(|c| shown(c, &edges)).collect();
    assert!(
        found.is_empty(),
        "import circles (move what both files need to a file of its own):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_circle_finder_sees_a_direct_circle_and_one_around_a_loop() {
    let module = |name: &str| vec!["domain".to_owned(), name.to_owned()];
    let mut edges: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    edges.entry(module("a")).or_default().insert(module("b"));
    edges.entry(module("b")).or_default().insert(module("a"));
    edges.entry(module("c")).or_default().insert(module("d"));
    edges.entry(module("d")).or_default().insert(module("e"));
    edges.entry(module("e")).or_default().insert(module("c"));
    edges.entry(module("e")).or_default().insert(module("f"));
    let mut sizes: Vec<usize> = circles(&edges).iter().map(Vec::len).collect();
    sizes.sort();
    assert_eq!(sizes, [2, 3]);
}

#[test]
fn imports_are_read_from_use_lines_re_exports_and_inline_paths() {
    let text = "use super::state::{bad_request, State};\npub use crate::domain::{A, b::C};\n\
                fn f() { crate::ports::correlation::current(); }\n\
                #[cfg(test)]\nmod tests {\n    use crate::adapters::pulp::X;\n}\n";
    let paths: Vec<String> = imports(text).into_iter().map(|(_, p)| p).collect();
    assert_eq!(
        paths,
        [
            "super::state::bad_request",
            "super::state::State",
            "crate::domain::A",
            "crate::domain::b::C",
            "crate::ports::correlation::current",
        ]
    );
}

#[test]
fn the_in_memory_pulp_does_not_import_the_real_pulp_adapter() {
    let source = Source::read();
    let memory = vec!["adapters".to_owned(), "memory".to_owned()];
    let pulp = vec!["adapters".to_owned(), "pulp".to_owned()];
    let mut leaning = Vec::new();
    for (module, file) in source.files.iter().filter(|(m, _)| m.starts_with(&memory)) {
        for (_, path) in &file.paths {
            let target = source.resolve(module, path, 0);
            if target.is_some_and(|t| t.starts_with(&pulp)) {
                leaning.push(format!("{} uses {path}", module.join("/")));
            }
        }
    }
    assert!(leaning.is_empty(), "{}", leaning.join("\n"));
}
