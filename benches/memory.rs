//! Peak resident memory of `docx2pdf convert`, per document and per page, as the operating
//! system counts it: each conversion runs as a child process and its `ru_maxrss` is read
//! when it is reaped (`wait4`). Documents of 100, 1,000 and 10,000 plain paragraphs of about
//! 100 characters, 1,000 and 10,000 dense ones of about 430, then the shared corpus (`../shared/corpus/docs`, skipped with a remark when absent). Prints
//! figure lines (docs/performance.md, "The figure format"); run with
//! `cargo bench --bench memory`, which builds the release binary it runs.

#[allow(dead_code)]
#[path = "../tests/common/docx.rs"]
mod docx;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The binary under test, built by `cargo bench` with the bench profile (release).
const BIN: &str = env!("CARGO_BIN_EXE_docx2pdf");

const SENTENCE: &str = "the committee reviewed the figures of the quarter and agreed to publish them with the annual report.";

/// The built documents: name, paragraphs, and how many times each repeats the sentence
/// (one: about 100 characters a paragraph, 17 paragraphs a page; four: about 430, 8 a page).
/// The growth per page is measured from the previous document of the same name.
const SIZES: [(&str, usize, usize); 5] = [("text", 100, 1), ("text", 1_000, 1), ("text", 10_000, 1), ("dense", 1_000, 4), ("dense", 10_000, 4)];

/// What one conversion took.
struct Measured {
    pages: usize,
    peak_mb: f64,
}

/// Converts `input` in a child process; its peak resident memory and the PDF's page count,
/// or why not.
fn measure(input: &Path, output: &Path) -> Result<Measured, String> {
    let child = Command::new(BIN)
        .args(["convert", "--render-timeout-secs", "0"])
        .arg(input)
        .arg(output)
        .env("RUST_LOG", "error")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start {BIN}: {e}"))?;
    let (status, peak_kib) = wait_with_peak(child.id())?;
    if status != 0 {
        return Err(format!("exit status {status}"));
    }
    let pdf = std::fs::read(output).map_err(|e| format!("no PDF: {e}"))?;
    match page_count(&pdf) {
        0 => Err("no page object found in the PDF".into()),
        pages => Ok(Measured { pages, peak_mb: peak_kib as f64 / 1024.0 }),
    }
}

/// Reaps the child `pid`: its exit status (wait status as `waitpid` gives it) and its peak
/// resident memory in KiB (Linux counts `ru_maxrss` in KiB).
fn wait_with_peak(pid: u32) -> Result<(i32, i64), String> {
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value to be overwritten.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for our own child; both pointers are to live locals. The std handle is
    // dropped without waiting (dropping a Child neither waits nor kills it).
    let reaped = unsafe { libc::wait4(pid as libc::pid_t, &mut status, 0, &mut usage) };
    if reaped != pid as libc::pid_t {
        return Err(format!("wait4: {}", std::io::Error::last_os_error()));
    }
    Ok((status, usage.ru_maxrss))
}

/// Pages of a PDF: its `/Type /Page` objects (not `/Type /Pages`; the writer puts no space
/// between the two names and keeps page dictionaries outside object streams).
fn page_count(pdf: &[u8]) -> usize {
    let mut pages = 0;
    let mut rest = pdf;
    while let Some(at) = rest.windows(5).position(|w| w == b"/Type") {
        rest = &rest[at + 5..];
        let name = rest.iter().position(|b| !b.is_ascii_whitespace()).map_or(&[][..], |n| &rest[n..]);
        if name.starts_with(b"/Page") && !name.get(5).is_some_and(|b| b.is_ascii_alphanumeric()) {
            pages += 1;
        }
    }
    pages
}

/// A document of `paragraphs` plain paragraphs of Calibri 11 pt, each the sentence
/// `repeat` times.
fn text_document(paragraphs: usize, repeat: usize) -> Vec<u8> {
    let text = vec![SENTENCE; repeat].join(" ");
    let body: String = (0..paragraphs).map(|i| docx::paragraph(&format!("Paragraph {i}: {text}"))).collect();
    docx::docx(&body)
}

fn figure(name: &str, value: f64, context: &str) {
    println!("figure {name} {value:.2} MB tool=bench-memory {context}");
}

/// The built documents: peak per document, per page, and the growth per page from the
/// next smaller one (what one more page costs, without the process's fixed part).
fn built(dir: &Path) {
    let mut previous: Option<(&str, Measured)> = None;
    for (name, paragraphs, repeat) in SIZES {
        let document = format!("{name}-{paragraphs}");
        let input = dir.join(format!("{document}.docx"));
        std::fs::write(&input, text_document(paragraphs, repeat)).expect("write the document");
        let m = match measure(&input, &dir.join("out.pdf")) {
            Ok(m) => m,
            Err(e) => {
                println!("# {document}: {e}");
                continue;
            }
        };
        let context = format!("document={document} paragraphs={paragraphs} pages={}", m.pages);
        figure("memory.peak_rss", m.peak_mb, &context);
        figure("memory.per_page", m.peak_mb / m.pages.max(1) as f64, &context);
        if let Some((_, p)) = previous.as_ref().filter(|(n, _)| *n == name) {
            let pages = m.pages.saturating_sub(p.pages).max(1) as f64;
            figure("memory.marginal_per_page", (m.peak_mb - p.peak_mb) / pages, &format!("{context} from_pages={}", p.pages));
        }
        previous = Some((name, m));
    }
}

/// The corpus: the largest and the median peak over its documents.
fn corpus(dir: &Path) {
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/docs");
    let mut files: Vec<PathBuf> = match std::fs::read_dir(&docs) {
        Ok(entries) => entries.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == "docx")).collect(),
        Err(_) => {
            println!("# corpus: {} is absent, skipped", docs.display());
            return;
        }
    };
    files.sort();
    let mut peaks: Vec<(f64, usize, String)> = Vec::new();
    let mut failed = 0;
    for file in &files {
        match measure(file, &dir.join("out.pdf")) {
            Ok(m) => peaks.push((m.peak_mb, m.pages, file.file_name().unwrap_or_default().to_string_lossy().into_owned())),
            Err(_) => failed += 1,
        }
    }
    if peaks.is_empty() {
        println!("# corpus: no document converted");
        return;
    }
    peaks.sort_by(|a, b| a.0.total_cmp(&b.0));
    let context = format!("documents={} converted={}", files.len(), files.len() - failed);
    let (max, pages, name) = &peaks[peaks.len() - 1];
    figure("memory.corpus.peak_rss.max", *max, &format!("{context} document={name} pages={pages}"));
    figure("memory.corpus.peak_rss.median", peaks[peaks.len() / 2].0, &context);
}

fn main() {
    // `cargo bench` passes `--bench`; a filter names the part to run (`built`, `corpus`).
    let filter: Option<String> = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let wanted = |part: &str| filter.as_deref().is_none_or(|f| part.contains(f));
    let dir = tempfile::tempdir().expect("a temporary folder");
    if wanted("built") {
        built(dir.path());
    }
    if wanted("corpus") {
        corpus(dir.path());
    }
}
