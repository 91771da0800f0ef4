//! Criterion benchmarks of the whole conversion (package read → layout → PDF) on documents
//! the benchmark builds, and on the shared corpus when it is present.

#[allow(dead_code)]
#[path = "../tests/common/docx.rs"]
mod docx;

use std::path::Path;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use docx2pdf::docx::PackageLimits;
use docx2pdf::render::{convert, Deadline, Renderer};

fn built_document(paragraphs: usize) -> Vec<u8> {
    let body: String = (0..paragraphs)
        .map(|i| docx::paragraph(&format!("Paragraph {i}: the committee reviewed the figures of the quarter and agreed to publish them with the annual report.")))
        .collect();
    docx::docx(&body)
}

fn pipeline(c: &mut Criterion) {
    let renderer = Renderer::new(&[], PackageLimits::default());
    let mut group = c.benchmark_group("pipeline");
    // Roughly 1, 10 and 100 pages of Calibri 11 pt.
    for paragraphs in [20, 200, 2000] {
        let doc = built_document(paragraphs);
        let pages = convert(&renderer, &doc, &Deadline::none()).expect("bench document converts").pages;
        group.throughput(Throughput::Elements(pages as u64));
        group.bench_with_input(BenchmarkId::new("built", format!("{pages}p")), &doc, |b, doc| {
            b.iter(|| convert(&renderer, doc, &Deadline::none()).expect("conversion"))
        });
    }
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/word/docs");
    if let Ok(entries) = std::fs::read_dir(&corpus) {
        let mut files: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        files.sort();
        for path in files.iter().take(8) {
            let bytes = std::fs::read(path).expect("corpus file");
            let Ok(r) = convert(&renderer, &bytes, &Deadline::none()) else { continue };
            group.throughput(Throughput::Elements(r.pages.max(1) as u64));
            let name = path.file_stem().unwrap().to_string_lossy().chars().take(40).collect::<String>();
            group.bench_with_input(BenchmarkId::new("corpus", name), &bytes, |b, bytes| {
                b.iter(|| convert(&renderer, bytes, &Deadline::none()))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, pipeline);
criterion_main!(benches);
