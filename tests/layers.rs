//! The map is true: the library's top-level modules use only the layers below them, as the
//! diagram of `docs/architecture.md` draws them, and the diagram names them in that order.
//!
//! The check reads the sources as text: every path that starts with `crate::` outside comments
//! and test modules is an edge from the module of the file to the module it names (a name the
//! crate root re-exports counts for the module that defines it). Modules of one layer are
//! peers and must not use each other either.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The layers from the bottom up; the modules of a layer are peers.
const LAYERS: &[&[&str]] = &[
    &["error", "ids", "util"],
    &["domain"],
    &["kernel"],
    &["constraints"],
    &["model"],
    &["conformance"],
    &["search"],
    &["puzzle", "teach"],
    &["models", "flatzinc"],
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&module))
}

/// The library's source files, without the binaries and the crate root.
fn library_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<_> = fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|entry| entry.expect("a directory entry").path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|ext| ext == "rs") {
                out.push(path);
            }
        }
    }
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    walk(&src, &mut files);
    files
        .into_iter()
        .filter(|path| {
            let relative = path.strip_prefix(&src).expect("below src");
            !relative.starts_with("bin") && relative != Path::new("lib.rs")
        })
        .collect()
}

/// The top-level module a file belongs to: `search` for `src/search/engine.rs`.
fn module_of(file: &Path) -> String {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let relative = file.strip_prefix(&src).expect("below src");
    let first = relative.components().next().expect("a file below src");
    first
        .as_os_str()
        .to_string_lossy()
        .trim_end_matches(".rs")
        .to_owned()
}

/// The code of a file without its comments, string contents and test modules.
fn code_of(text: &str) -> String {
    // Comments and string literals out (a `//` in a string is no comment).
    let mut code = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        code.push('\n');
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let mut last = ' ';
                for c in chars.by_ref() {
                    if last == '*' && c == '/' {
                        break;
                    }
                    last = c;
                }
            }
            '"' => {
                code.push('"');
                let mut escaped = false;
                for c in chars.by_ref() {
                    if c == '"' && !escaped {
                        break;
                    }
                    escaped = c == '\\' && !escaped;
                }
                code.push('"');
            }
            _ => code.push(c),
        }
    }
    // Test modules out: `#[cfg(test)]` followed by `mod name { ... }` or `mod name;`.
    while let Some(at) = code.find("#[cfg(test)]") {
        let rest = &code[at..];
        let end = match (rest.find('{'), rest.find(';')) {
            (Some(open), semi) if semi.is_none_or(|semi| open < semi) => {
                let mut depth = 0usize;
                let mut end = rest.len();
                for (i, c) in rest[open..].char_indices() {
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
                end
            }
            (_, Some(semi)) => semi + 1,
            _ => rest.len(),
        };
        code.replace_range(at..at + end, "");
    }
    code
}

/// The identifier at the start of `text`.
fn identifier(text: &str) -> &str {
    let end = text
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    &text[..end]
}

/// The first segment of each path in a `{a, b::c, D}` group (nested groups included).
fn group_heads(group: &str, out: &mut Vec<String>) {
    let mut depth = 0usize;
    let mut start = true;
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => start = true,
            c if start && (c.is_alphanumeric() || c == '_') && depth == 0 => {
                out.push(identifier(&group[i..]).to_owned());
                start = false;
            }
            _ => {}
        }
    }
}

/// Every name `crate::` leads to in `code`: `crate::search::Solver` gives `search`,
/// `crate::{Model, ids::VarId}` gives `Model` and `ids`.
fn crate_paths(code: &str) -> Vec<String> {
    let mut names = Vec::new();
    for (at, _) in code.match_indices("crate::") {
        let rest = &code[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 1usize;
            let end = group
                .char_indices()
                .find(|&(_, c)| {
                    match c {
                        '{' => depth += 1,
                        '}' => depth -= 1,
                        _ => {}
                    }
                    depth == 0
                })
                .map_or(group.len(), |(i, _)| i);
            group_heads(&group[..end], &mut names);
        } else {
            let name = identifier(rest);
            if !name.is_empty() {
                names.push(name.to_owned());
            }
        }
    }
    names
}

/// The module that defines each public (or crate-visible) item name, for the names defined in
/// one module only.
fn definitions(files: &[PathBuf]) -> BTreeMap<String, String> {
    let mut defined: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files {
        let code = code_of(&fs::read_to_string(file).expect("a readable source file"));
        for line in code.lines() {
            let line = line.trim_start();
            let Some(rest) = line.strip_prefix("pub") else {
                continue;
            };
            let rest = rest.strip_prefix("(crate)").unwrap_or(rest).trim_start();
            for keyword in [
                "struct ", "enum ", "trait ", "type ", "fn ", "const ", "static ",
            ] {
                if let Some(name) = rest.strip_prefix(keyword) {
                    defined
                        .entry(identifier(name).to_owned())
                        .or_default()
                        .insert(module_of(file));
                }
            }
        }
    }
    defined
        .into_iter()
        .filter(|(_, modules)| modules.len() == 1)
        .map(|(name, modules)| (name, modules.into_iter().next().expect("one module")))
        .collect()
}

/// Every edge between top-level modules, with a file that makes it.
fn edges() -> BTreeMap<(String, String), PathBuf> {
    let files = library_files();
    let defined = definitions(&files);
    let mut edges = BTreeMap::new();
    for file in &files {
        let from = module_of(file);
        let code = code_of(&fs::read_to_string(file).expect("a readable source file"));
        for name in crate_paths(&code) {
            let to = if layer_of(&name).is_some() {
                name
            } else if let Some(module) = defined.get(&name) {
                module.clone()
            } else {
                continue;
            };
            if to != from {
                edges
                    .entry((from.clone(), to))
                    .or_insert_with(|| file.clone());
            }
        }
    }
    edges
}

#[test]
fn every_top_level_module_is_in_a_layer() {
    let modules: BTreeSet<String> = library_files().iter().map(|f| module_of(f)).collect();
    let missing: Vec<_> = modules.iter().filter(|m| layer_of(m).is_none()).collect();
    assert!(missing.is_empty(), "modules in no layer: {missing:?}");
}

#[test]
fn modules_use_only_the_layers_below_them() {
    let wrong: Vec<String> = edges()
        .into_iter()
        .filter(|((from, to), _)| layer_of(to) >= layer_of(from))
        .map(|((from, to), file)| {
            let src = Path::new(env!("CARGO_MANIFEST_DIR"));
            let file = file
                .strip_prefix(src)
                .unwrap_or(&file)
                .display()
                .to_string();
            format!("{from} uses {to} ({file})")
        })
        .collect();
    assert!(
        wrong.is_empty(),
        "uses against the layers:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_architecture_diagram_draws_the_layers_in_their_order() {
    let doc =
        fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/architecture.md"))
            .expect("docs/architecture.md");
    let diagram = doc
        .split("```text")
        .nth(1)
        .and_then(|block| block.split("```").next())
        .expect("a text diagram in docs/architecture.md");
    // A row's label starts its first line and ends at two blanks: `│ search/   Solver, …`.
    let labels: Vec<&str> = diagram
        .lines()
        .map(|line| {
            // A continuation line (blanks after the border) has no label.
            let text = line.trim_start().trim_start_matches('│');
            let text = text.strip_prefix(' ').filter(|t| !t.starts_with(' '));
            text.and_then(|t| t.split("  ").next()).unwrap_or("")
        })
        .collect();
    let line_of = |module: &str| {
        labels.iter().position(|label| {
            label
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .any(|word| word == module)
        })
    };
    let mut previous: Option<(usize, &str)> = None;
    for layer in LAYERS.iter().rev() {
        let lines: Vec<(usize, &str)> = layer
            .iter()
            .map(|&m| {
                (
                    line_of(m).unwrap_or_else(|| panic!("the diagram does not name {m}")),
                    m,
                )
            })
            .collect();
        let first = lines.iter().copied().min().expect("a layer has modules");
        if let Some((line, module)) = previous {
            assert!(
                first.0 > line,
                "the diagram draws {} above or beside {module}, a layer above it",
                first.1
            );
        }
        previous = Some(lines.iter().copied().max().expect("a layer has modules"));
    }
}

/// Within each folder of the library, the uses between its files and subfolders (`mod.rs`,
/// the folder's own face, aside): `super::grid` from `format.rs` is an edge from `format` to
/// `grid`, as is `crate::models::sudoku::grid` from any file below `format/`.
fn sibling_edges() -> BTreeMap<PathBuf, BTreeSet<(String, String)>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut by_folder: BTreeMap<PathBuf, BTreeSet<(String, String)>> = BTreeMap::new();
    for file in library_files() {
        let relative = file.strip_prefix(&src).expect("below src").to_path_buf();
        let code = code_of(&fs::read_to_string(&file).expect("a readable source file"));
        // Each folder above the file: the file's sibling there, and how code names that folder.
        let mut folder = relative.parent();
        let mut below = relative.clone();
        while let Some(dir) = folder {
            let member = below
                .strip_prefix(dir)
                .ok()
                .and_then(|rest| rest.components().next())
                .map(|c| {
                    c.as_os_str()
                        .to_string_lossy()
                        .trim_end_matches(".rs")
                        .to_owned()
                });
            let Some(member) = member.filter(|m| m != "mod" && m != "lib") else {
                below = dir.to_path_buf();
                folder = dir.parent();
                continue;
            };
            let siblings: BTreeSet<String> = fs::read_dir(src.join(dir))
                .map(|entries| {
                    entries
                        .filter_map(|e| e.ok())
                        .map(|e| {
                            e.file_name()
                                .to_string_lossy()
                                .trim_end_matches(".rs")
                                .to_owned()
                        })
                        .filter(|name| name != "mod" && name != "lib")
                        .collect()
                })
                .unwrap_or_default();
            let mut prefixes = vec![format!(
                "crate::{}",
                dir.components()
                    .map(|c| format!("{}::", c.as_os_str().to_string_lossy()))
                    .collect::<String>()
            )];
            // `super::` names this folder from a file directly in it, or from the `mod.rs` of
            // one of its subfolders.
            let in_folder = relative.parent() == Some(dir) && !relative.ends_with("mod.rs");
            let subfolder_face = relative.ends_with("mod.rs")
                && relative.parent().and_then(Path::parent) == Some(dir);
            if in_folder || subfolder_face {
                prefixes.push("super::".to_owned());
            }
            for prefix in &prefixes {
                for (at, _) in code.match_indices(prefix.as_str()) {
                    let name = identifier(&code[at + prefix.len()..]);
                    if name != member && siblings.contains(name) {
                        by_folder
                            .entry(dir.to_path_buf())
                            .or_default()
                            .insert((member.clone(), name.to_owned()));
                    }
                }
            }
            below = dir.to_path_buf();
            folder = dir.parent();
        }
    }
    by_folder
}

#[test]
fn no_folder_has_a_circle_between_its_files() {
    let mut circles = Vec::new();
    for (folder, edges) in sibling_edges() {
        for (a, b) in &edges {
            // A circle through a → b is a path back from b to a.
            let mut seen = BTreeSet::from([b.clone()]);
            let mut stack = vec![b.clone()];
            while let Some(at) = stack.pop() {
                for (from, to) in &edges {
                    if *from == at && seen.insert(to.clone()) {
                        stack.push(to.clone());
                    }
                }
            }
            if seen.contains(a) {
                circles.push(format!("{}: {a} → {b} → … → {a}", folder.display()));
            }
        }
    }
    assert!(
        circles.is_empty(),
        "circles between files:\n{}",
        circles.join("\n")
    );
}

#[test]
fn the_check_sees_a_use_against_the_layers() {
    // The reader itself: a use written the way the sources write them is found, and comments,
    // strings and test modules are not read as code.
    let code = code_of(
        "use crate::search::Solver; // crate::teach\n\
         fn f() { let _ = \"crate::flatzinc\"; }\n\
         #[cfg(test)]\nmod tests { use crate::models; }\n\
         use crate::{ids::VarId, Model};\n",
    );
    assert_eq!(crate_paths(&code), ["search", "ids", "Model"]);
}
