//! Every document of `../shared/corpus` through the renderer: none may panic, hang past the
//! time limit or give an empty PDF; documents that cannot be read must fail with a precise
//! message. Skipped where the corpus folder is absent; a failure under `CI=true`.

mod common;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use docx2pdf::render::{convert, Deadline, RenderErrorKind};

/// Where the corpus lives: `DOCX2PDF_CORPUS`, else `../shared/corpus` beside the repository.
fn corpus_dir() -> PathBuf {
    std::env::var_os("DOCX2PDF_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"))
}

fn documents(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("docx")));
    files.sort();
    files
}

#[test]
fn every_corpus_document_converts_or_fails_cleanly() {
    let root = corpus_dir();
    let mut files = documents(&root.join("docs"));
    files.extend(documents(&root.join("word/docs")));
    if files.is_empty() {
        common::skip::skip(&format!("no corpus documents in {} (set DOCX2PDF_CORPUS)", root.display()));
        return;
    }
    let renderer = common::renderer();
    // Generous for a debug build on a small machine; a hang would still be caught.
    let limit = Duration::from_secs(120);
    let mut problems = Vec::new();
    let mut refused = Vec::new();
    let mut converted = 0;
    for path in &files {
        let bytes = std::fs::read(path).expect("read corpus file");
        let started = Instant::now();
        let result = catch_unwind(AssertUnwindSafe(|| convert(&renderer, &bytes, &Deadline::after(limit))));
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        match result {
            Err(_) => problems.push(format!("{name}: panicked")),
            Ok(Ok(r)) if r.pages == 0 || !r.pdf.starts_with(b"%PDF-") => problems.push(format!("{name}: empty output")),
            Ok(Ok(_)) => converted += 1,
            Ok(Err(e)) => match e.kind() {
                RenderErrorKind::Timeout => problems.push(format!("{name}: timed out after {:?}", started.elapsed())),
                RenderErrorKind::Failed => problems.push(format!("{name}: {e}")),
                _ => refused.push(format!("{name}: {e}")),
            },
        }
    }
    eprintln!("corpus: {converted} converted, {} refused as unreadable, {} problems", refused.len(), problems.len());
    for r in &refused {
        eprintln!("  refused {r}");
    }
    assert!(problems.is_empty(), "{problems:#?}");
    assert!(refused.len() <= files.len() / 50, "too many refused: {refused:#?}");
}
