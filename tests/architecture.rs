//! The shape of the house, read from the source as text: which file of `src/` imports which.
//!
//! - no import circle: no file imports a file that imports it back, directly or around a loop;
//! - the domain is pure: no async runtime, web framework, HTTP or database crate;
//! - the layers point inward: the domain imports nothing of `ports`, `app`, `adapters` or
//!   `wiring`; `ports` nothing of `app`, `adapters` or `wiring`; `app` nothing of `adapters` or
//!   `wiring`; `adapters` nothing of `wiring` (the composition root names the adapters, never
//!   the reverse);
//! - adapters do not lean on each other: each folder of `src/adapters` (memory, pulp,
//!   postgres, web, files, identity, webhook...) and each single file there (metrics,
//!   coalescing, clock_system, audit_stdout) is a family that imports no other family, but
//!   only the named shared module `src/adapters/shared/`.
//!
//! Each check is a function of the house that lists what breaks it; each is also run on a
//! small synthetic source, so that it is shown able to fail.
//!
//! An import is any `crate::`, `super::` or `self::` path in a file (its `use` lines, braces
//! expanded, and paths written inline), resolved to the file that defines the name: a name a
//! `mod.rs` re-exports (`pub use child::Name`) is followed to `child`. Test modules
//! (`#[cfg(test)] mod … { … }` and `*_tests.rs` files) are left out: they may reach anywhere.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module path from the crate root: `["adapters", "web", "errors"]`.
type ModPath = Vec<String>;

struct SourceFile {
    path: PathBuf,
    module: ModPath,
    /// The source without comments and test modules.
    code: String,
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The source without `//` and `/* */` comments, string literals emptied.
fn strip_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            i += 2;
            while i + 1 < chars.len() && !(chars[i] == '*' && chars[i + 1] == '/') {
                i += 1;
            }
            i += 2;
        } else if c == '"' {
            out.push('"');
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    i += 1;
                }
                i += 1;
            }
            out.push('"');
            i += 1;
        } else if c == '\'' && next.is_some_and(|n| n != '\\') && chars.get(i + 2) == Some(&'\'') {
            i += 3; // a char literal such as '"'
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// `code` without `#[cfg(test)] mod name { … }` blocks.
fn strip_test_modules(code: &str) -> String {
    let mut out = String::new();
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let after = &rest[at + "#[cfg(test)]".len()..];
        let trimmed = after.trim_start();
        let is_inline_mod = trimmed.starts_with("mod ")
            && trimmed
                .find(['{', ';'])
                .is_some_and(|end| trimmed.as_bytes()[end] == b'{');
        if !is_inline_mod {
            rest = after;
            continue;
        }
        let open = after.find('{').unwrap();
        let mut depth = 0;
        let mut end = after.len();
        for (i, c) in after[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + i + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

fn read_sources(src: &Path) -> Vec<SourceFile> {
    let mut files = Vec::new();
    let mut test_only = Vec::new();
    let mut dirs = vec![src.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            let name = path.file_name().unwrap().to_str().unwrap();
            if !name.ends_with(".rs") || name.ends_with("_tests.rs") || path == src.join("main.rs")
            {
                continue;
            }
            let relative = path.strip_prefix(src).unwrap().with_extension("");
            let mut module: ModPath = relative
                .components()
                .map(|c| c.as_os_str().to_str().unwrap().to_owned())
                .collect();
            if matches!(module.last().map(String::as_str), Some("mod" | "lib")) {
                module.pop();
            }
            let text = strip_comments(&std::fs::read_to_string(&path).unwrap());
            test_only.extend(test_only_modules(&module, &text));
            let code = strip_test_modules(&text);
            files.push(SourceFile { path, module, code });
        }
    }
    files.retain(|f| !test_only.iter().any(|t| f.module.starts_with(t)));
    files
}

/// The modules that `code` (of `module`) declares `#[cfg(test)] mod name;`: a test module in
/// a file of its own, such as `domain/properties.rs`, left out like `*_tests.rs` files.
fn test_only_modules(module: &ModPath, code: &str) -> Vec<ModPath> {
    let mut found = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(test)]") {
        rest = &rest[at + "#[cfg(test)]".len()..];
        let declared = rest.trim_start().strip_prefix("mod ").and_then(|after| {
            let name: String = after.chars().take_while(|&c| is_ident_char(c)).collect();
            after[name.len()..]
                .trim_start()
                .starts_with(';')
                .then_some(name)
        });
        if let Some(name) = declared {
            let mut test_module = module.clone();
            test_module.push(name);
            found.push(test_module);
        }
    }
    found
}

/// Every path of a `use` tree, braces expanded: `a::{b, c::{d, e}}` gives `a::b`, `a::c::d`, `a::c::e`.
fn expand_use(tree: &str) -> Vec<String> {
    // Aliases dropped (`Z as W` names Z), then whitespace.
    let mut words = Vec::new();
    let mut tokens = tree.split_whitespace();
    while let Some(token) = tokens.next() {
        if token == "as" {
            let alias = tokens.next().unwrap_or("");
            words.extend(alias.find([',', '}']).map(|at| &alias[at..]));
        } else {
            words.push(token);
        }
    }
    let tree: String = words.concat();
    let Some(open) = tree.find('{') else {
        return vec![tree.trim_end_matches("::").to_owned()];
    };
    let prefix = &tree[..open];
    let inner = &tree[open + 1..tree.rfind('}').unwrap()];
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .filter(|p| !p.is_empty())
        .flat_map(expand_use)
        .map(|p| {
            if p == "self" {
                prefix.trim_end_matches("::").to_owned()
            } else {
                format!("{prefix}{p}")
            }
        })
        .collect()
}

/// The paths a file names: its `use` trees expanded, and `crate::`/`super::`/`self::` paths inline.
fn named_paths(code: &str) -> Vec<String> {
    let mut paths = Vec::new();
    let mut rest = code;
    // `use` items (possibly `pub use`, over several lines).
    while let Some(at) = rest.find("use ") {
        let boundary = at == 0 || !is_ident_char(rest[..at].chars().last().unwrap());
        let after = &rest[at + 4..];
        if boundary {
            if let Some(end) = after.find(';') {
                let tree = &after[..end];
                let first = tree.trim_start();
                if first.starts_with("crate::")
                    || first.starts_with("super::")
                    || first.starts_with("self::")
                {
                    paths.extend(expand_use(tree));
                }
            }
        }
        rest = after;
    }
    // Inline paths.
    for root in ["crate::", "super::", "self::"] {
        let mut from = 0;
        while let Some(found) = code[from..].find(root) {
            let at = from + found;
            from = at + root.len();
            if at > 0 && is_ident_char(code[..at].chars().last().unwrap()) {
                continue;
            }
            let path: String = code[at..]
                .chars()
                .take_while(|&c| is_ident_char(c) || c == ':')
                .collect();
            paths.push(path.trim_end_matches(':').to_owned());
        }
    }
    paths
}

/// `path` as an absolute module path, seen from `module` (the file's own module).
fn absolute(path: &str, module: &ModPath, is_mod_file: bool) -> ModPath {
    let mut segments = path.split("::").filter(|s| !s.is_empty()).peekable();
    // `super` in a.rs or a/mod.rs both mean a's parent.
    let _ = is_mod_file;
    let mut at: ModPath = match segments.peek().copied() {
        Some("crate") => {
            segments.next();
            Vec::new()
        }
        _ => module.clone(),
    };
    for segment in segments {
        match segment {
            "self" => {}
            "super" => {
                at.pop();
            }
            other => at.push(other.to_owned()),
        }
    }
    at
}

struct House {
    files: Vec<SourceFile>,
    by_module: BTreeMap<ModPath, usize>,
}

impl House {
    /// The file that defines what `target` names: its longest module prefix, following the
    /// re-exports of that module (`pub use child::Name` / `pub use child::*`) one level at a time.
    fn resolve(&self, target: &ModPath, depth: usize) -> Option<usize> {
        let (len, &file) = (1..=target.len())
            .rev()
            .find_map(|n| self.by_module.get(&target[..n]).map(|f| (n, f)))?;
        let Some(name) = target.get(len) else {
            return Some(file);
        };
        if depth > 8 {
            return Some(file);
        }
        let source = &self.files[file];
        for exported in named_paths_of_pub_use(&source.code) {
            let absolute_export = absolute(&exported, &source.module, true);
            let last = absolute_export.last().map(String::as_str);
            let mut rest = target[len + 1..].to_vec();
            if last == Some(name.as_str()) {
                let mut through = absolute_export.clone();
                through.append(&mut rest);
                if let Some(found) = self.resolve(&through, depth + 1) {
                    if found != file {
                        return Some(found);
                    }
                }
            } else if last == Some("*") {
                let mut through = absolute_export[..absolute_export.len() - 1].to_vec();
                through.push(name.clone());
                through.append(&mut rest);
                let defines = self.resolve(&through, depth + 1);
                if let Some(found) = defines.filter(|&f| f != file) {
                    if self.files[found].code.contains(&format!(" {name}")) {
                        return Some(found);
                    }
                }
            }
        }
        Some(file)
    }

    fn imports(&self) -> BTreeMap<usize, BTreeSet<usize>> {
        let mut edges: BTreeMap<usize, BTreeSet<usize>> = BTreeMap::new();
        for (i, file) in self.files.iter().enumerate() {
            let is_mod = file.path.ends_with("mod.rs") || file.path.ends_with("lib.rs");
            for path in named_paths(&file.code) {
                let target = absolute(&path, &file.module, is_mod);
                if let Some(j) = self.resolve(&target, 0) {
                    // A module's own children and the module declaring a file are not imports
                    // in the sense of a circle's "imports back".
                    let child_of_i = self.files[j].module.starts_with(&file.module)
                        && self.files[j].module.len() == file.module.len() + 1
                        && is_mod;
                    if j != i && !child_of_i && !is_parent_mod(&self.files[j], file) {
                        edges.entry(i).or_default().insert(j);
                    }
                }
            }
        }
        edges
    }
}

/// `parent` is the `mod.rs` that declares `child`.
fn is_parent_mod(parent: &SourceFile, child: &SourceFile) -> bool {
    let declares = parent.path.ends_with("mod.rs") || parent.path.ends_with("lib.rs");
    declares
        && child.module.len() == parent.module.len() + 1
        && child.module.starts_with(&parent.module)
}

/// The paths of a file's `pub use` items (`pub(crate) use` too).
fn named_paths_of_pub_use(code: &str) -> Vec<String> {
    let mut paths = Vec::new();
    for (at, _) in code.match_indices("use ") {
        let before = code[..at].trim_end();
        if !(before.ends_with("pub") || before.ends_with(')')) {
            continue;
        }
        if let Some(end) = code[at + 4..].find(';') {
            paths.extend(expand_use(&code[at + 4..at + 4 + end]));
        }
    }
    paths
}

fn house() -> House {
    House::of(read_sources(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
    ))
}

impl House {
    fn of(files: Vec<SourceFile>) -> House {
        let by_module = files
            .iter()
            .enumerate()
            .map(|(i, f)| (f.module.clone(), i))
            .collect();
        House { files, by_module }
    }

    /// A house of synthetic files: (path under `src/`, source).
    fn synthetic(sources: &[(&str, &str)]) -> House {
        let files = sources
            .iter()
            .map(|(path, text)| {
                let mut module: ModPath = path
                    .trim_end_matches(".rs")
                    .split('/')
                    .map(str::to_owned)
                    .collect();
                if matches!(module.last().map(String::as_str), Some("mod" | "lib")) {
                    module.pop();
                }
                SourceFile {
                    path: Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(path),
                    module,
                    code: strip_test_modules(&strip_comments(text)),
                }
            })
            .collect();
        House::of(files)
    }

    /// The layer (first module: domain, ports, app, adapters, wiring) of `file`.
    fn layer(&self, file: usize) -> &str {
        self.files[file].module.first().map_or("", String::as_str)
    }
}

/// What each layer may not import: dependencies point inward only.
const LAYERS_MAY_NOT_IMPORT: [(&str, &[&str]); 4] = [
    ("domain", &["ports", "app", "adapters", "wiring"]),
    ("ports", &["app", "adapters", "wiring"]),
    ("app", &["adapters", "wiring"]),
    ("adapters", &["wiring"]),
];

/// Every import that points outward, as `from -> to (layer -> layer)`.
fn outward_imports(house: &House) -> Vec<String> {
    let mut found = Vec::new();
    for (&from, targets) in &house.imports() {
        let forbidden = LAYERS_MAY_NOT_IMPORT
            .iter()
            .find(|(layer, _)| *layer == house.layer(from))
            .map_or(&[][..], |(_, forbidden)| *forbidden);
        for &to in targets {
            if forbidden.contains(&house.layer(to)) {
                found.push(format!(
                    "{} -> {} ({} -> {})",
                    shown(house, from),
                    shown(house, to),
                    house.layer(from),
                    house.layer(to)
                ));
            }
        }
    }
    found
}

/// The module through which adapters share code; no family of its own.
const SHARED_ADAPTER_MODULE: &str = "shared";

/// The adapter family of `file`: the folder or single file under `src/adapters` it is in
/// (`None` outside the adapters, for `adapters/mod.rs` and for the shared module).
fn adapter_family(house: &House, file: usize) -> Option<&str> {
    let module = &house.files[file].module;
    (module.first().map(String::as_str) == Some("adapters"))
        .then(|| module.get(1).map(String::as_str))
        .flatten()
        .filter(|family| *family != SHARED_ADAPTER_MODULE)
}

/// Every import from one adapter family into another, as `from -> to`.
fn adapters_leaning_on_each_other(house: &House) -> Vec<String> {
    let mut found = Vec::new();
    for (&from, targets) in &house.imports() {
        for &to in targets {
            if let (Some(a), Some(b)) = (adapter_family(house, from), adapter_family(house, to)) {
                if a != b {
                    found.push(format!("{} -> {}", shown(house, from), shown(house, to)));
                }
            }
        }
    }
    found
}

/// Every circle, as the files around it (Tarjan's strongly connected components).
fn circles(edges: &BTreeMap<usize, BTreeSet<usize>>, count: usize) -> Vec<Vec<usize>> {
    struct Walk<'a> {
        edges: &'a BTreeMap<usize, BTreeSet<usize>>,
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        found: Vec<Vec<usize>>,
    }
    impl Walk<'_> {
        fn visit(&mut self, v: usize) {
            self.index[v] = Some(self.next);
            self.low[v] = self.next;
            self.next += 1;
            self.stack.push(v);
            self.on_stack[v] = true;
            for &w in self.edges.get(&v).into_iter().flatten() {
                match self.index[w] {
                    None => {
                        self.visit(w);
                        self.low[v] = self.low[v].min(self.low[w]);
                    }
                    Some(index) if self.on_stack[w] => self.low[v] = self.low[v].min(index),
                    _ => {}
                }
            }
            if Some(self.low[v]) == self.index[v] {
                let mut component = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack[w] = false;
                    component.push(w);
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    self.found.push(component);
                }
            }
        }
    }
    let mut walk = Walk {
        edges,
        index: vec![None; count],
        low: vec![0; count],
        on_stack: vec![false; count],
        stack: Vec::new(),
        next: 0,
        found: Vec::new(),
    };
    for v in 0..count {
        if walk.index[v].is_none() {
            walk.visit(v);
        }
    }
    walk.found
}

fn shown(house: &House, file: usize) -> String {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"));
    house.files[file]
        .path
        .strip_prefix(src)
        .unwrap()
        .display()
        .to_string()
}

#[test]
fn no_file_imports_a_file_that_imports_it_back() {
    let house = house();
    let edges = house.imports();
    let found: Vec<String> = circles(&edges, house.files.len())
        .into_iter()
        .map(|circle| {
            let mut names: Vec<String> = circle.iter().map(|&f| shown(&house, f)).collect();
            names.sort();
            format!("  {}", names.join(" <-> "))
        })
        .collect();
    assert!(
        found.is_empty(),
        "{} import circle(s); move what both need to a module both import:\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn the_domain_uses_no_runtime_framework_or_io_crate() {
    let house = house();
    let forbidden = [
        "tokio",
        "axum",
        "hyper",
        "hyper_util",
        "sqlx",
        "maud",
        "tower",
        "reqwest",
    ];
    let mut found = Vec::new();
    for file in house
        .files
        .iter()
        .filter(|f| f.module.first().map(String::as_str) == Some("domain"))
    {
        for krate in forbidden {
            let named = file
                .code
                .match_indices(&format!("{krate}::"))
                .any(|(at, _)| at == 0 || !is_ident_char(file.code[..at].chars().last().unwrap()));
            if named {
                found.push(format!("{} uses {krate}", file.path.display()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "the domain must stay pure:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_layers_point_inward() {
    let found = outward_imports(&house());
    assert!(
        found.is_empty(),
        "a layer imports an outer one (domain <- ports <- app <- adapters <- wiring; move what \
         the inner layer needs inward, or pass it in through a port):\n{}",
        found.join("\n")
    );
}

#[test]
fn adapters_do_not_lean_on_each_other() {
    let found = adapters_leaning_on_each_other(&house());
    assert!(
        found.is_empty(),
        "an adapter imports another (move what both need to src/adapters/shared/, the domain \
         or a port):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_layer_check_finds_an_outward_import_and_passes_an_inward_one() {
    let house = House::synthetic(&[
        ("domain/mod.rs", "pub struct Version;"),
        (
            "ports/mod.rs",
            "use crate::domain::Version;\nuse crate::app::Deploy;",
        ),
        (
            "app/mod.rs",
            "pub struct Deploy; fn f() { crate::adapters::pulp::Client::new(); }",
        ),
        (
            "adapters/pulp.rs",
            "use crate::app::Deploy; pub struct Client;",
        ),
        ("adapters/web.rs", "use crate::wiring::Config;"),
        (
            "wiring/mod.rs",
            "use crate::adapters::pulp::Client; pub struct Config;",
        ),
    ]);
    assert_eq!(
        outward_imports(&house),
        [
            "src/ports/mod.rs -> src/app/mod.rs (ports -> app)",
            "src/app/mod.rs -> src/adapters/pulp.rs (app -> adapters)",
            "src/adapters/web.rs -> src/wiring/mod.rs (adapters -> wiring)",
        ]
    );
}

#[test]
fn the_adapter_check_finds_one_family_importing_another_but_not_the_shared_module() {
    let house = House::synthetic(&[
        (
            "adapters/mod.rs",
            "pub mod memory; pub mod pulp; pub mod shared; pub mod metrics;",
        ),
        ("adapters/shared/mod.rs", "pub mod codec;"),
        ("adapters/shared/codec.rs", "pub fn encode() {}"),
        (
            "adapters/pulp/mod.rs",
            "mod http; use crate::adapters::shared::codec::encode;",
        ),
        ("adapters/pulp/http.rs", "use super::super::memory::Fake;"),
        (
            "adapters/memory/mod.rs",
            "pub struct Fake; use self::inner::X; mod inner;",
        ),
        ("adapters/memory/inner.rs", "pub struct X;"),
        (
            "adapters/metrics.rs",
            "fn f() { crate::adapters::pulp::http::g(); }",
        ),
    ]);
    assert_eq!(
        adapters_leaning_on_each_other(&house),
        [
            "src/adapters/pulp/http.rs -> src/adapters/memory/mod.rs",
            "src/adapters/metrics.rs -> src/adapters/pulp/http.rs",
        ]
    );
}

#[test]
fn the_reader_sees_imports_through_re_exports_and_braces() {
    assert_eq!(
        expand_use("super::{a::X, b::{Y, Z as W}, self}"),
        ["super::a::X", "super::b::Y", "super::b::Z", "super"]
    );
    let code = strip_test_modules(&strip_comments(
        "use crate::x::Y; // crate::nope\nfn f() { crate::z::g(); }\n#[cfg(test)]\nmod tests { use crate::t::T; }\n",
    ));
    let mut paths = named_paths(&code);
    paths.sort();
    paths.dedup();
    assert_eq!(paths, ["crate::x::Y", "crate::z::g"]);
    // A test module in a file of its own is test code too.
    let declared = test_only_modules(
        &vec!["domain".to_owned()],
        "pub mod deploy;\n#[cfg(test)]\nmod properties;\n#[cfg(test)]\nmod inline { }\n",
    );
    assert_eq!(
        declared,
        [vec!["domain".to_owned(), "properties".to_owned()]]
    );
    // The house itself: the web adapter's files import the domain through its mod.rs re-exports.
    let house = house();
    let edges = house.imports();
    let web_to_domain = edges.iter().any(|(&from, to)| {
        house.files[from]
            .module
            .starts_with(&["adapters".to_owned(), "web".to_owned()])
            && to.iter().any(|&t| {
                house.files[t].module.first().map(String::as_str) == Some("domain")
                    && !house.files[t].path.ends_with("mod.rs")
            })
    });
    assert!(
        web_to_domain,
        "re-exports are followed to the defining file"
    );
}

/// The room (folder) of `file`, under `src/`: `app/deploy` for `app/deploy/lock.rs` and for
/// `app/deploy/mod.rs`; a file directly under a layer is in that layer's room (`app`).
fn room(house: &House, file: usize) -> String {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let path = house.files[file].path.strip_prefix(&src).unwrap();
    path.parent()
        .map(|p| p.display().to_string())
        .unwrap_or_default()
}

/// The circles between rooms: each a sorted list of rooms that import each other around a
/// loop (a file's import of a file in another room is an arrow between their rooms).
fn room_circles(house: &House) -> Vec<Vec<String>> {
    let rooms: BTreeSet<String> = (0..house.files.len()).map(|f| room(house, f)).collect();
    let rooms: Vec<String> = rooms.into_iter().collect();
    let index = |name: &str| rooms.iter().position(|r| r == name).unwrap();
    let mut edges: BTreeMap<usize, BTreeSet<usize>> = BTreeMap::new();
    for (from, to) in house.imports() {
        for to in to {
            let (a, b) = (index(&room(house, from)), index(&room(house, to)));
            if a != b {
                edges.entry(a).or_default().insert(b);
            }
        }
    }
    circles(&edges, rooms.len())
        .into_iter()
        .map(|circle| {
            let mut names: Vec<String> = circle.iter().map(|&r| rooms[r].clone()).collect();
            names.sort();
            names
        })
        .collect()
}

/// The circles between rooms the house still has: none since issue 44. Kept as the place a
/// circle would have to be written down (with the reason, in the design page) to pass; no
/// room may import a room that imports it back.
const KNOWN_ROOM_CIRCLES: &[&[&str]] = &[];

#[test]
fn no_room_imports_a_room_that_imports_it_back_beyond_the_known_ones() {
    let house = house();
    let found = room_circles(&house);
    let known: Vec<BTreeSet<&str>> = KNOWN_ROOM_CIRCLES
        .iter()
        .map(|c| c.iter().copied().collect())
        .collect();
    let new: Vec<String> = found
        .iter()
        .filter(|circle| {
            let rooms: BTreeSet<&str> = circle.iter().map(String::as_str).collect();
            !known.iter().any(|k| rooms.is_subset(k))
        })
        .map(|circle| format!("  {}", circle.join(" <-> ")))
        .collect();
    assert!(
        new.is_empty(),
        "{} import circle(s) between rooms (folders) not known before; a re-export must not \
         hide one: move what both need to a room both import:\n{}",
        new.len(),
        new.join("\n")
    );
    let gone: Vec<String> = known
        .iter()
        .filter(|k| {
            !found
                .iter()
                .any(|circle| circle.iter().filter(|r| k.contains(r.as_str())).count() > 1)
        })
        .map(|k| format!("  {}", k.iter().copied().collect::<Vec<_>>().join(" <-> ")))
        .collect();
    assert!(
        gone.is_empty(),
        "known circle(s) between rooms no longer found: remove them from KNOWN_ROOM_CIRCLES \
         (and from the design page), so that none comes back unseen:\n{}",
        gone.join("\n")
    );
}

#[test]
fn the_room_check_finds_a_circle_hidden_behind_a_re_export() {
    let house = House::synthetic(&[
        ("app/mod.rs", "pub mod approvals; pub mod deploy;"),
        ("app/approvals/mod.rs", "pub mod ask; pub mod ending;"),
        ("app/approvals/ask.rs", "use crate::app::approvals::ending::report;"),
        ("app/approvals/ending.rs", "use crate::app::deploy::DeployOutcome;"),
        ("app/deploy/mod.rs", "pub mod outcome; pub use crate::app::deploy::outcome::DeployOutcome; use crate::app::approvals::ask::ask;"),
        ("app/deploy/outcome.rs", "pub enum DeployOutcome {}"),
    ]);
    let found = room_circles(&house);
    assert_eq!(
        found,
        vec![vec!["app/approvals".to_owned(), "app/deploy".to_owned()]]
    );
    let apart = House::synthetic(&[
        ("app/mod.rs", "pub mod approvals; pub mod deploy;"),
        ("app/approvals/mod.rs", "pub mod ask;"),
        (
            "app/approvals/ask.rs",
            "use crate::app::deploy::outcome::DeployOutcome;",
        ),
        ("app/deploy/mod.rs", "pub mod outcome;"),
        ("app/deploy/outcome.rs", "pub enum DeployOutcome {}"),
    ]);
    assert!(room_circles(&apart).is_empty());
}

/// The rooms of `src/domain`, from the ground up: a room imports only rooms before it in this
/// list (and itself). `domain` is the layer's own room (`mod.rs` and `record_keys.rs`); `ids`
/// holds the ids several features share. The same order is written in the developer guide's
/// design page ("Rooms that lean one way"); change both together.
const DOMAIN_ROOM_ORDER: &[&str] = &[
    "domain",
    "domain/audit_chain",
    "domain/edge",
    "domain/content/deb",
    "domain/content/rpm",
    "domain/content",
    "domain/repository",
    "domain/environment",
    "domain/identity",
    "domain/check",
    "domain/ids",
    "domain/diff",
    "domain/exposure",
    "domain/sync",
    "domain/deploy",
    "domain/policy",
    "domain/release",
    "domain/approval",
    "domain/schedule",
    "domain/pin",
    "domain/promotion",
    "domain/evidence",
    "domain/history",
    "domain/event",
    "domain/insights",
];

/// The rooms of `src/app`, from the ground up, as for the domain: `app` is the layer's own room
/// (the state, its parts, the write limit), then the facts and the features, each importing only
/// those before it. The same order is written in the design page ("Rooms that lean one way").
const APP_ROOM_ORDER: &[&str] = &[
    "app/edges",
    "app/sign_in",
    "app",
    "app/audit_chain",
    "app/evidence",
    "app/environments",
    "app/facts",
    "app/diffs",
    "app/events",
    "app/sync",
    "app/exposure",
    "app/pins",
    "app/approvals/asking",
    "app/promotion",
    "app/deploy",
    "app/releases",
    "app/approvals",
    "app/checks",
    "app/schedules",
    "app/insights",
    "app/pages",
];

/// Every import of a domain room that does not run downward in `order`, as
/// `from -> to (room -> room above it)`, and every domain room missing from `order`.
fn domain_imports_running_up(house: &House, order: &[&str]) -> Vec<String> {
    imports_running_up(house, "domain", order)
}

/// [`domain_imports_running_up`], for the rooms of any `layer`.
fn imports_running_up(house: &House, layer: &str, order: &[&str]) -> Vec<String> {
    let place = |room: &str| order.iter().position(|r| *r == room);
    let mut found = BTreeSet::new();
    for (&from, targets) in &house.imports() {
        if house.layer(from) != layer {
            continue;
        }
        let from_room = room(house, from);
        let Some(from_place) = place(&from_room) else {
            found.insert(format!("{from_room} is in no place of the order"));
            continue;
        };
        for &to in targets {
            let to_room = room(house, to);
            if house.layer(to) != layer || to_room == from_room {
                continue;
            }
            match place(&to_room) {
                Some(to_place) if to_place < from_place => {}
                Some(_) => {
                    found.insert(format!(
                        "{} -> {} ({from_room} -> {to_room} above it)",
                        shown(house, from),
                        shown(house, to)
                    ));
                }
                None => {
                    found.insert(format!("{to_room} is in no place of the order"));
                }
            }
        }
    }
    found.into_iter().collect()
}

#[test]
fn domain_rooms_import_only_rooms_below_them() {
    let found = domain_imports_running_up(&house(), DOMAIN_ROOM_ORDER);
    assert!(
        found.is_empty(),
        "{} import(s) in src/domain run back up the order of rooms ({}). Move what the lower \
         room needs down (an id or a small value several features share goes to domain/ids, \
         one concept per file), or, for a new room, give it its place in DOMAIN_ROOM_ORDER \
         and in docs/src/developer/design.md:\n{}",
        found.len(),
        DOMAIN_ROOM_ORDER.join(" -> "),
        found.join("\n")
    );
}

#[test]
fn app_rooms_import_only_rooms_below_them() {
    let found = imports_running_up(&house(), "app", APP_ROOM_ORDER);
    assert!(
        found.is_empty(),
        "{} import(s) in src/app run back up the order of rooms ({}). Move what the lower room \
         needs down (a feature's part of the state is declared in its own room and reached \
         through `app::parts`; a request instead of a move is `app/approvals/asking`'s), or, \
         for a new room, give it its place in APP_ROOM_ORDER and in \
         docs/src/developer/design.md:\n{}",
        found.len(),
        APP_ROOM_ORDER.join(" -> "),
        found.join("\n")
    );
}

#[test]
fn the_order_check_finds_an_import_running_up_and_a_room_without_a_place() {
    let house = House::synthetic(&[
        (
            "domain/mod.rs",
            "pub mod ids; pub mod deploy; pub mod release; pub mod stray;",
        ),
        ("domain/ids/mod.rs", "pub mod release_id;"),
        ("domain/ids/release_id.rs", "pub struct ReleaseId;"),
        ("domain/deploy/mod.rs", "pub mod record;"),
        (
            "domain/deploy/record.rs",
            "use crate::domain::ids::release_id::ReleaseId; use crate::domain::release::name::ReleaseName;",
        ),
        ("domain/release/mod.rs", "pub mod name;"),
        (
            "domain/release/name.rs",
            "use crate::domain::deploy::record::Record; pub struct ReleaseName;",
        ),
        ("domain/stray/mod.rs", "use crate::domain::ids::release_id::ReleaseId;"),
    ]);
    let order = ["domain", "domain/ids", "domain/deploy", "domain/release"];
    assert_eq!(
        domain_imports_running_up(&house, &order),
        [
            "domain/stray is in no place of the order",
            "src/domain/deploy/record.rs -> src/domain/release/name.rs \
             (domain/deploy -> domain/release above it)",
        ]
    );
}

/// The rooms that name no content type: what a deploy, a release, an approval, a schedule, a
/// check, an environment, its history and the promotion pipeline do is the same for every
/// type, so their code asks a repository's `ContentType` instead of naming one.
const TYPE_FREE_ROOMS: &[&str] = &[
    "domain/deploy",
    "domain/release",
    "domain/approval",
    "domain/schedule",
    "domain/check",
    "domain/environment",
    "domain/history",
    "domain/promotion",
    "app/deploy",
    "app/releases",
    "app/approvals",
    "app/schedules",
    "app/checks",
    "app/environments",
    "app/promotion",
];

/// The words a content type's specifics are named by, matched against each part of an
/// identifier (split at `_` and at a lower-to-upper case change, compared in lower case):
/// the types (`rpm`, `deb`), their clients and tools (`dnf`, `apt`, `dpkg`), RPM's version
/// triple (`evr`) and settings (`gpgcheck`), and RPM's advisories (`advisory`, `advisories`,
/// `errata`).
const CONTENT_TYPE_WORDS: &[&str] = &[
    "rpm",
    "deb",
    "dnf",
    "apt",
    "dpkg",
    "evr",
    "gpgcheck",
    "advisory",
    "advisories",
    "errata",
];

/// Files of the type-free rooms allowed to name a content type's specifics, each with why.
/// Empty: none is needed today.
const TYPE_NAMING_ALLOWED: &[(&str, &str)] = &[];

/// The parts of an identifier, in lower case: `AdvisoryDiff` -> `advisory`, `diff`;
/// `rpm_cmp` -> `rpm`, `cmp`.
fn identifier_parts(ident: &str) -> Vec<String> {
    let mut parts = Vec::new();
    for piece in ident.split('_') {
        let mut current = String::new();
        let mut previous_lower = false;
        for c in piece.chars() {
            if c.is_ascii_uppercase() && previous_lower && !current.is_empty() {
                parts.push(std::mem::take(&mut current));
            }
            previous_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
            current.push(c.to_ascii_lowercase());
        }
        if !current.is_empty() {
            parts.push(current);
        }
    }
    parts
}

/// Every identifier in the code (comments, strings and test modules already left out) of a
/// type-free room that names a content type's specifics, as `file: identifier`.
fn content_type_names(house: &House) -> Vec<String> {
    let mut found = Vec::new();
    for (i, file) in house.files.iter().enumerate() {
        let room = room(house, i);
        let in_scope = TYPE_FREE_ROOMS
            .iter()
            .any(|r| room == *r || room.starts_with(&format!("{r}/")));
        let shown_path = shown(house, i);
        if !in_scope
            || TYPE_NAMING_ALLOWED
                .iter()
                .any(|(allowed, _)| shown_path.ends_with(allowed))
        {
            continue;
        }
        let idents: BTreeSet<&str> = file
            .code
            .split(|c: char| !is_ident_char(c))
            .filter(|w| !w.is_empty())
            .collect();
        for ident in idents {
            if identifier_parts(ident)
                .iter()
                .any(|part| CONTENT_TYPE_WORDS.contains(&part.as_str()))
            {
                found.push(format!("{shown_path}: {ident}"));
            }
        }
    }
    found
}

#[test]
fn deploy_release_approval_schedule_check_environment_history_and_promotion_name_no_content_type() {
    let found = content_type_names(&house());
    assert!(
        found.is_empty(),
        "a type-free room names a content type's specifics (move the rule to its type's room \
         under src/domain/content/, or to the Pulp adapter's plugin table, and ask the \
         repository's ContentType):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_content_type_check_finds_a_type_named_in_a_type_free_room_and_nowhere_else() {
    let house = House::synthetic(&[
        (
            "domain/deploy/plan.rs",
            "// rpm in a comment is fine\nfn f(e: &Evr) -> bool { let s = \"deb\"; e.rpm_cmp(e); true }",
        ),
        ("domain/schedule/model.rs", "#[derive(Debug)] pub struct Schedule { debt: u32 }"),
        ("app/releases/preview.rs", "fn f(d: &AdvisoryDiff) {}\n#[cfg(test)]\nmod tests { fn g(_: Rpm) {} }"),
        ("domain/content/rpm/version.rs", "pub fn rpmvercmp() {}"),
        ("domain/diff/evr.rs", "pub struct Evr;"),
    ]);
    assert_eq!(
        content_type_names(&house),
        [
            "src/domain/deploy/plan.rs: Evr",
            "src/domain/deploy/plan.rs: rpm_cmp",
            "src/app/releases/preview.rs: AdvisoryDiff",
        ]
    );
    assert_eq!(identifier_parts("AdvisoryDiff"), ["advisory", "diff"]);
    assert_eq!(identifier_parts("is_rpm"), ["is", "rpm"]);
    assert_eq!(identifier_parts("Debug"), ["debug"]);
}
