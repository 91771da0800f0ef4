//! The renderer's layers as the compiler cannot see them: docx ← resolve ← layout, pdf
//! reading only frames, and the leaves below all. A module that imports one above it
//! fails here, naming the file and the import; so does a web, database or async runtime
//! crate in the renderer's dependency tree.

#[path = "../../tests/support/timed.rs"]
mod timed;

use std::path::{Path, PathBuf};
use std::process::Command;

use timed::Timed;

/// The leaves every layer may use: units, the time and memory limits, warnings, languages,
/// frames, the byte reader, the metafile records, the document password (docx opens with
/// it, the PDF options carry it there).
const LEAVES: &[&str] =
    &["units", "warning", "deadline", "memory", "release", "lang", "fast_map", "frame", "bytes", "metafile", "password"];

/// The modules on top, which may import any other: the crate root, the pipeline, its
/// options, its errors and the summary of what changed.
const TOP: &[&str] = &["lib", "pipeline", "options", "error", "changes"];

/// The layers in order, each with what it may import besides the leaves.
const LAYERS: &[(&str, &[&str])] = &[
    ("docx", &[]),
    // Templates fill the story parts as the reader reads them, before resolve.
    ("template", &["docx"]),
    ("resolve", &["docx"]),
    ("layout", &["docx", "resolve"]),
    // The PDF writer reads frames only, as typst's writes its frames.
    ("pdf", &[]),
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read src") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level modules a file names through `crate::`, with the line they are on.
fn imports(text: &str) -> Vec<(String, usize)> {
    let mut found = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let mut rest = line;
        while let Some(at) = rest.find("crate::") {
            rest = &rest[at + "crate::".len()..];
            let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '{').collect();
            if name.starts_with('{') {
                // `use crate::{a, b::c}`: every name in the braces.
                let inner = rest[1..].split('}').next().unwrap_or("");
                for part in inner.split(',') {
                    let head = part.trim().split("::").next().unwrap_or("").to_string();
                    if !head.is_empty() {
                        found.push((head, n + 1));
                    }
                }
            } else if !name.is_empty() {
                found.push((name, n + 1));
            }
        }
    }
    found
}

#[test]
fn no_module_imports_one_above_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut back_arrows = Vec::new();
    for file in &files {
        let rel = file.strip_prefix(&src).expect("under src");
        let module = rel.components().next().and_then(|c| c.as_os_str().to_str()).unwrap_or("").trim_end_matches(".rs").to_string();
        let allowed: Vec<&str> = if LEAVES.contains(&module.as_str()) {
            LEAVES.to_vec()
        } else if let Some((_, below)) = LAYERS.iter().find(|(name, _)| *name == module) {
            LEAVES.iter().chain(below.iter()).copied().chain([module.as_str()]).collect()
        } else if TOP.contains(&module.as_str()) {
            continue;
        } else {
            // A new module takes its place in the layers before it is exempt from them.
            back_arrows.push(format!("{}: `{module}` is in no layer: name it in LEAVES, LAYERS or TOP", rel.display()));
            continue;
        };
        let text = std::fs::read_to_string(file).expect("read file");
        for (name, line) in imports(&text) {
            if !allowed.contains(&name.as_str()) {
                back_arrows.push(format!("{}:{line}: `{module}` imports `crate::{name}`", rel.display()));
            }
        }
    }
    assert!(back_arrows.is_empty(), "imports against the layers:\n{}", back_arrows.join("\n"));
}

#[test]
fn the_dependency_tree_holds_no_web_database_or_async_runtime_crate() {
    let out = Command::new(env!("CARGO"))
        .args(["tree", "--offline", "-p", "docx2pdf-render", "-e", "normal", "--prefix", "none", "--format", "{p}"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .timed_output()
        .expect("run cargo tree");
    assert!(out.status.success(), "cargo tree: {}", String::from_utf8_lossy(&out.stderr));
    let tree = String::from_utf8_lossy(&out.stdout);
    const FORBIDDEN: &[&str] = &["actix", "awc", "hyper", "tokio", "async-std", "mio", "sea-orm", "sqlx", "diesel", "postgres", "rusqlite"];
    let found: Vec<&str> = tree
        .lines()
        .filter(|l| {
            let name = l.split_whitespace().next().unwrap_or("");
            FORBIDDEN.iter().any(|f| name == *f || name.starts_with(&format!("{f}-")))
        })
        .collect();
    assert!(found.is_empty(), "{found:?}");
    assert!(tree.lines().count() > 10, "a tree: {tree}");
}

#[test]
fn the_layer_check_sees_an_import_in_braces_and_a_plain_one() {
    let found = imports("use crate::{layout::frame::Page, units::Pt};\nlet x = crate::pdf::write(y);");
    assert_eq!(found, vec![("layout".to_string(), 1), ("units".to_string(), 1), ("pdf".to_string(), 2)]);
}
