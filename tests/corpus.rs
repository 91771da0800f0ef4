//! Every document of `../shared/corpus` through the renderer, and the fidelity gate on them.
//! None may panic, hang past the time limit or give an empty PDF; documents that cannot be
//! read must fail with a precise message. Every PDF must have the SHA-256 that
//! `tests/corpus/manifest.tsv` gives it, and every document keep the page match and, within
//! 0.02, the visual and placed scores that `tests/corpus/baseline.tsv` gives it against its
//! reference (tests/corpus/score.rs). `DOCX2PDF_UPDATE_FIDELITY=1` rewrites both files
//! (refused under CI; docs/fidelity.md). Skipped where the corpus folder is absent; a
//! failure under CI.

mod common;
#[path = "corpus/gate.rs"]
mod gate;
#[path = "corpus/score.rs"]
mod score;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use docx2pdf::render::{convert, Deadline, RenderErrorKind};
use sha2::{Digest, Sha256};

/// The two sets: name, documents folder and references folder, under the corpus.
const SETS: [(&str, &str, &str); 2] = [("word", "word/docs", "word/refs"), ("docs", "docs", "refs")];

/// Where the corpus lives: `DOCX2PDF_CORPUS`, else `../shared/corpus` beside the repository.
fn corpus_dir() -> PathBuf {
    std::env::var_os("DOCX2PDF_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"))
}

/// The committed files of the gate.
fn committed(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus").join(name)
}

fn documents(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("docx")));
    files.sort();
    files
}

/// What became of one document.
enum Outcome {
    /// Its PDF, written to `pdf`, with the SHA-256 of its bytes.
    Converted { pdf: PathBuf, digest: String },
    /// Refused as unreadable, with the message.
    Refused(String),
    /// A panic, an empty PDF, a time-out or a failure: a bug.
    Problem(String),
}

struct Document {
    /// `set/NAME.docx`.
    key: String,
    reference: PathBuf,
    outcome: Outcome,
}

/// Every corpus document converted once per test process, on every core, its PDF written
/// under the target folder (`corpus/SET/NAME.pdf`, kept for a look after a failure); `None`
/// when there is no corpus (the caller skips).
fn converted() -> Option<&'static [Document]> {
    static DOCUMENTS: OnceLock<Vec<Document>> = OnceLock::new();
    let root = corpus_dir();
    let documents = DOCUMENTS.get_or_init(|| {
        let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("corpus");
        let _ = std::fs::remove_dir_all(&out);
        let mut jobs: Vec<(&str, PathBuf, PathBuf)> = Vec::new();
        for (set, docs, refs) in SETS {
            for d in documents(&root.join(docs)) {
                let reference = root.join(refs).join(d.with_extension("pdf").file_name().unwrap());
                jobs.push((set, d, reference));
            }
        }
        let renderer = common::renderer();
        // Generous for a debug build on a small machine; a hang would still be caught.
        let limit = Duration::from_secs(120);
        parallel(&jobs, |(set, path, reference)| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let bytes = std::fs::read(path).expect("read corpus file");
            let started = Instant::now();
            let result = catch_unwind(AssertUnwindSafe(|| convert(&renderer, &bytes, &Deadline::after(limit))));
            let outcome = match result {
                Err(_) => Outcome::Problem("panicked".into()),
                Ok(Ok(r)) if r.pages == 0 || !r.pdf.starts_with(b"%PDF-") => Outcome::Problem("empty output".into()),
                Ok(Ok(r)) => {
                    let pdf = out.join(set).join(Path::new(&name).with_extension("pdf"));
                    std::fs::create_dir_all(pdf.parent().unwrap()).expect("create the output folder");
                    std::fs::write(&pdf, &r.pdf).expect("write a corpus PDF");
                    Outcome::Converted { pdf, digest: format!("{:x}", Sha256::digest(&r.pdf)) }
                }
                Ok(Err(e)) => match e.kind() {
                    RenderErrorKind::Timeout => Outcome::Problem(format!("timed out after {:?}", started.elapsed())),
                    RenderErrorKind::Failed => Outcome::Problem(e.to_string()),
                    _ => Outcome::Refused(e.to_string()),
                },
            };
            Document { key: format!("{set}/{name}"), reference: reference.clone(), outcome }
        })
    });
    if documents.is_empty() {
        common::skip::skip(&format!("no corpus documents in {} (set DOCX2PDF_CORPUS)", root.display()));
        return None;
    }
    Some(documents)
}

/// `work` on every item, on as many threads as there are cores, the results in order.
fn parallel<T: Sync, R: Send>(items: &[T], work: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<R>>> = Mutex::new((0..items.len()).map(|_| None).collect());
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(i) else { return };
                let result = work(item);
                results.lock().unwrap()[i] = Some(result);
            });
        }
    });
    results.into_inner().unwrap().into_iter().map(|r| r.expect("every item done")).collect()
}

#[test]
fn every_corpus_document_converts_or_fails_cleanly() {
    let Some(documents) = converted() else { return };
    let problems: Vec<String> =
        documents.iter().filter_map(|d| if let Outcome::Problem(p) = &d.outcome { Some(format!("{}: {p}", d.key)) } else { None }).collect();
    let refused: Vec<String> =
        documents.iter().filter_map(|d| if let Outcome::Refused(r) = &d.outcome { Some(format!("{}: {r}", d.key)) } else { None }).collect();
    eprintln!("corpus: {} converted, {} refused as unreadable, {} problems", documents.len() - problems.len() - refused.len(), refused.len(), problems.len());
    for r in &refused {
        eprintln!("  refused {r}");
    }
    assert!(problems.is_empty(), "{problems:#?}");
    assert!(refused.len() <= documents.len() / 50, "too many refused: {refused:#?}");
}

#[test]
fn every_corpus_pdf_has_the_bytes_of_the_manifest() {
    let Some(documents) = converted() else { return };
    let now: gate::Manifest = documents
        .iter()
        .filter_map(|d| match &d.outcome {
            Outcome::Converted { digest, .. } => Some((d.key.replace(".docx", ".pdf"), digest.clone())),
            _ => None,
        })
        .collect();
    let path = committed("manifest.tsv");
    if common::skip::update_requested("DOCX2PDF_UPDATE_FIDELITY") {
        gate::write_manifest(&path, &now);
        eprintln!("wrote {} ({} PDFs)", path.display(), now.len());
        return;
    }
    let manifest = gate::read_manifest(&path).unwrap_or_else(|e| panic!("{e}"));
    let changed = gate::changed(&manifest, &now);
    assert!(
        changed.is_empty(),
        "{} corpus PDFs differ from {} (a rule changed them: score them, then rewrite it with `{}` in a commit that names the rule):\n{}",
        changed.len(),
        path.display(),
        gate::UPDATE,
        changed.join("\n")
    );
}

#[test]
fn no_corpus_document_falls_below_its_fidelity_baseline() {
    let Some(documents) = converted() else { return };
    let scored: Vec<&Document> = documents.iter().filter(|d| matches!(d.outcome, Outcome::Converted { .. }) && d.reference.exists()).collect();
    let scratch = tempfile::tempdir().unwrap();
    let next = AtomicUsize::new(0);
    let results = parallel(&scored, |d| {
        let Outcome::Converted { pdf, .. } = &d.outcome else { unreachable!() };
        let dir = scratch.path().join(next.fetch_add(1, Ordering::Relaxed).to_string());
        std::fs::create_dir(&dir).unwrap();
        let score = score::score(pdf, &d.reference, &dir);
        let _ = std::fs::remove_dir_all(&dir);
        (d.key.clone(), score)
    });
    let errors: Vec<String> = results.iter().filter_map(|(k, r)| r.as_ref().err().map(|e| format!("{k}: {e}"))).collect();
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    let now: gate::Scores = results.into_iter().map(|(k, r)| (k, r.unwrap())).collect();
    for (set, _, _) in SETS {
        let part: gate::Scores = now.iter().filter(|(k, _)| k.starts_with(&format!("{set}/"))).map(|(k, s)| (k.clone(), *s)).collect();
        eprintln!("fidelity of corpus/{set}: {}", gate::summary(&part));
    }
    let path = committed("baseline.tsv");
    if common::skip::update_requested("DOCX2PDF_UPDATE_FIDELITY") {
        gate::write_baseline(&path, &now);
        eprintln!("wrote {} ({} documents)", path.display(), now.len());
        return;
    }
    let baseline = gate::read_baseline(&path).unwrap_or_else(|e| panic!("{e}"));
    let regressions = gate::regressions(&baseline, &now);
    assert!(
        regressions.is_empty(),
        "{} corpus documents fall below {} (a page match lost, or visual or placed down by more than {}):\n{}",
        regressions.len(),
        path.display(),
        gate::MAX_DROP,
        regressions.join("\n")
    );
}
