//! Fuzzing on the stable toolchain: corpus documents and built fixtures, mutated (bit
//! flips, zip entries truncated, swapped and dropped, XML edits inside the parts), each
//! rendered under tight limits with `catch_unwind` and a deadline. A short run is part of
//! the normal suite; the long run is
//! `DOCX2PDF_FUZZ_INPUTS=200000 cargo test --release --test fuzz -- --ignored --nocapture`.

mod common;
#[path = "fuzz/mutate.rs"]
mod mutate;
#[path = "fuzz/seeds.rs"]
mod seeds;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use docx2pdf::docx::PackageLimits;
use docx2pdf::render::{convert, Deadline, Renderer};

use mutate::{mutate, Rng};

/// The render time limit of each input.
const TIME_LIMIT: Duration = Duration::from_secs(3);
/// A render still running this long after its time limit did not honour it: a hang.
const HANG_AFTER: Duration = Duration::from_secs(3);

/// A long run reports its counts every this many inputs.
const PROGRESS_EVERY: usize = 10_000;

/// Limits tight enough that no mutant can make a render slow for its size; `max_pages`
/// bounds what duplicated elements can grow to.
fn limits(max_pages: usize) -> PackageLimits {
    PackageLimits {
        max_entries: 500,
        max_entry_bytes: 16 << 20,
        max_total_bytes: 64 << 20,
        max_xml_elements: 500_000,
        max_pages,
        ..PackageLimits::default()
    }
}

/// What a run found.
#[derive(Debug, Default)]
struct Counts {
    inputs: AtomicUsize,
    converted: AtomicUsize,
    refused: AtomicUsize,
    timeouts: AtomicUsize,
    panics: AtomicUsize,
    hangs: AtomicUsize,
    /// Seed index, mutation and message of each panic or hang, to reproduce it.
    findings: Mutex<Vec<String>>,
}

/// Renders `inputs` mutants of `seeds`, input `i` drawn from `Rng::new(seed ^ i)`, on
/// `threads` threads.
fn run(seeds: &[(String, Vec<u8>)], limits: PackageLimits, inputs: usize, seed: u64, threads: usize) -> Arc<Counts> {
    let started = Instant::now();
    let renderer = Arc::new(Renderer::new(&[], limits));
    let counts = Arc::new(Counts::default());
    let next = AtomicUsize::new(0);
    // Panics are counted and reported below; the default hook would print each one.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= inputs {
                    break;
                }
                let mut rng = Rng::new(seed ^ (i as u64).wrapping_mul(0x2545_F491_4F6C_DD1D));
                let (name, original) = &seeds[rng.below(seeds.len())];
                let (bytes, what) = mutate(original, &mut rng);
                one(&renderer, &bytes, &counts, &format!("input {i} ({name}: {what})"));
                if (i + 1).is_multiple_of(PROGRESS_EVERY) {
                    println!("{}", report(&counts, started.elapsed()));
                }
            });
        }
    });
    std::panic::set_hook(hook);
    counts
}

fn one(renderer: &Renderer, bytes: &[u8], counts: &Counts, label: &str) {
    counts.inputs.fetch_add(1, Ordering::Relaxed);
    let started = Instant::now();
    let result = catch_unwind(AssertUnwindSafe(|| convert(renderer, bytes, &Deadline::after(TIME_LIMIT))));
    let elapsed = started.elapsed();
    let mut finding = None;
    match result {
        Ok(Ok(rendered)) => {
            assert!(rendered.pdf.starts_with(b"%PDF-"), "{label}: output is not a PDF");
            counts.converted.fetch_add(1, Ordering::Relaxed);
        }
        Ok(Err(e)) if e.kind() == docx2pdf::render::RenderErrorKind::Timeout => {
            counts.timeouts.fetch_add(1, Ordering::Relaxed);
        }
        Ok(Err(_)) => {
            counts.refused.fetch_add(1, Ordering::Relaxed);
        }
        Err(panic) => {
            let message = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            counts.panics.fetch_add(1, Ordering::Relaxed);
            finding = Some(format!("panic in {label}: {message}"));
        }
    }
    if elapsed > TIME_LIMIT + HANG_AFTER {
        counts.hangs.fetch_add(1, Ordering::Relaxed);
        finding = Some(format!("hang in {label}: {elapsed:?}"));
    }
    if let Some(f) = finding {
        // Printed at once too: an abort later in a long run would lose the list.
        println!("{f}");
        counts.findings.lock().unwrap().push(f);
    }
}

fn report(counts: &Counts, took: Duration) -> String {
    format!(
        "{} inputs in {took:.1?}: {} converted, {} refused, {} timed out, {} panics, {} hangs",
        counts.inputs.load(Ordering::Relaxed),
        counts.converted.load(Ordering::Relaxed),
        counts.refused.load(Ordering::Relaxed),
        counts.timeouts.load(Ordering::Relaxed),
        counts.panics.load(Ordering::Relaxed),
        counts.hangs.load(Ordering::Relaxed),
    )
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn assert_clean(counts: &Counts, took: Duration) {
    let summary = report(counts, took);
    println!("{summary}");
    let findings = counts.findings.lock().unwrap();
    assert!(findings.is_empty(), "{summary}\n{}", findings.join("\n"));
    assert!(counts.converted.load(Ordering::Relaxed) > 0, "nothing converted: the mutations are too strong ({summary})");
    assert!(counts.refused.load(Ordering::Relaxed) > 0, "nothing refused: the mutations are too weak ({summary})");
}

#[test]
fn two_thousand_mutants_of_fixtures_and_small_corpus_documents_neither_panic_nor_hang() {
    let mut seeds = seeds::fixtures();
    seeds.extend(seeds::corpus(12 * 1024, 2));
    let started = Instant::now();
    let counts = run(&seeds, limits(20), 2_000, env_number("DOCX2PDF_FUZZ_SEED", 0x5EED), 2);
    assert_clean(&counts, started.elapsed());
}

/// The long run: `DOCX2PDF_FUZZ_INPUTS` inputs (200,000 unless set), seed
/// `DOCX2PDF_FUZZ_SEED`, on every core, over the fixtures and corpus documents up to
/// 100 KB.
#[test]
#[ignore = "long run: DOCX2PDF_FUZZ_INPUTS=200000 cargo test --release --test fuzz -- --ignored --nocapture"]
fn long_run() {
    let mut seeds = seeds::fixtures();
    seeds.extend(seeds::corpus(100 * 1024, 300));
    let inputs = env_number("DOCX2PDF_FUZZ_INPUTS", 200_000) as usize;
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    println!("{} seed documents, {inputs} inputs, {threads} threads", seeds.len());
    let started = Instant::now();
    let counts = run(&seeds, limits(60), inputs, env_number("DOCX2PDF_FUZZ_SEED", 0x5EED), threads);
    assert_clean(&counts, started.elapsed());
}

/// Found by the long run (after 170,000 inputs, an attribute set to an extreme): a tab stop far
/// past the page with a dot leader asked layout for a leader of ~10^18 glyphs, and the
/// allocation failure aborted the whole process (no `catch_unwind` can stop an abort).
#[test]
fn regression_a_leader_to_a_tab_stop_far_past_the_page_does_not_abort() {
    for pos in ["2147483647", "4294967295", "99999999999999999999", "-2147483648", "31680"] {
        for kind in ["right", "left", "center", "decimal"] {
            let body = format!(
                r#"<w:p><w:pPr><w:tabs><w:tab w:val="{kind}" w:leader="dot" w:pos="{pos}"/></w:tabs></w:pPr><w:r><w:t>a</w:t><w:tab/><w:t>b</w:t></w:r></w:p>"#
            );
            let bytes = common::docx::docx(&body);
            let renderer = Renderer::new(&[], limits(20));
            let result = convert(&renderer, &bytes, &Deadline::after(TIME_LIMIT));
            assert!(result.is_ok(), "{pos} {kind}: {:?}", result.err());
        }
    }
}
