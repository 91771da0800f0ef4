//! Criterion benchmarks of each stage (package read, style resolution, layout, PDF writing)
//! and of the whole conversion, per page, on documents the benchmark builds and on the
//! shared corpus when it is present.

#[allow(dead_code)]
#[path = "../tests/common/docx.rs"]
mod docx;

use std::path::Path;

use criterion::{
    criterion_group, criterion_main, BenchmarkGroup, BenchmarkId, Criterion, Throughput,
};
use docx2pdf::docx::PackageLimits;
use docx2pdf::render::{convert, Deadline, Renderer};

const SENTENCE: &str = "the committee reviewed the figures of the quarter and agreed to publish them with the annual report.";

/// About `pages` pages of Calibri 11 pt (20 paragraphs a page).
fn text_document(pages: usize) -> Vec<u8> {
    let body: String = (0..pages * 20)
        .map(|i| docx::paragraph(&format!("Paragraph {i}: {SENTENCE}")))
        .collect();
    docx::docx(&body)
}

/// Ten pages of bordered 4-column tables.
fn table_document() -> Vec<u8> {
    let cell = |text: &str| {
        format!(
            r#"<w:tc><w:tcPr><w:tcW w:w="2250" w:type="dxa"/></w:tcPr>{}</w:tc>"#,
            docx::paragraph(text)
        )
    };
    let border = r#"<w:tblBorders><w:top w:val="single" w:sz="4"/><w:left w:val="single" w:sz="4"/><w:bottom w:val="single" w:sz="4"/><w:right w:val="single" w:sz="4"/><w:insideH w:val="single" w:sz="4"/><w:insideV w:val="single" w:sz="4"/></w:tblBorders>"#;
    let rows: String = (0..400)
        .map(|r| {
            format!(
                "<w:tr>{}{}{}{}</w:tr>",
                cell(&format!("Row {r}")),
                cell("Quarterly revenue"),
                cell(&format!("{}.{:02}", r * 17, r % 100)),
                cell("Approved by the board")
            )
        })
        .collect();
    let table = format!(
        r#"<w:tbl><w:tblPr><w:tblW w:w="9000" w:type="dxa"/>{border}</w:tblPr><w:tblGrid><w:gridCol w:w="2250"/><w:gridCol w:w="2250"/><w:gridCol w:w="2250"/><w:gridCol w:w="2250"/></w:tblGrid>{rows}</w:tbl>"#
    );
    docx::docx(&table)
}

/// Ten pages each with a 256×256 PNG photograph-like picture and a caption.
fn image_document() -> Vec<u8> {
    let (w, h) = (256u32, 256u32);
    let mut pixels = Vec::with_capacity((w * h * 3) as usize);
    for y in 0..h {
        for x in 0..w {
            pixels.extend_from_slice(&[(x ^ y) as u8, (x * 3 + y) as u8, (y * 5) as u8]);
        }
    }
    let mut png_bytes = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut png_bytes, w, h);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        let mut writer = enc.write_header().expect("png header");
        writer.write_image_data(&pixels).expect("png data");
    }
    let body: String = (0..10)
        .map(|i| {
            format!(
                r#"<w:p><w:r>{}</w:r></w:p>{}<w:p><w:r><w:br w:type="page"/></w:r></w:p>"#,
                docx::inline_picture(400, 400),
                docx::paragraph(&format!("Figure {i}: {SENTENCE}"))
            )
        })
        .collect();
    docx::docx_with_image(&body, "image.png", &png_bytes)
}

/// Benchmarks every stage of one document, with the throughput in pages.
fn stages(
    group: &mut BenchmarkGroup<'_, criterion::measurement::WallTime>,
    renderer: &Renderer,
    name: &str,
    bytes: &[u8],
) {
    let deadline = Deadline::none();
    let Ok(read) = docx2pdf::docx::read(bytes, &renderer.limits, &deadline) else {
        return;
    };
    let Ok(laid) = docx2pdf::layout::layout(&read.document, &renderer.fonts, &deadline) else {
        return;
    };
    group.throughput(Throughput::Elements(laid.layout.pages.len().max(1) as u64));
    group.bench_with_input(BenchmarkId::new("read", name), bytes, |b, bytes| {
        b.iter(|| docx2pdf::docx::read(bytes, &renderer.limits, &deadline).expect("read"))
    });
    group.bench_with_input(
        BenchmarkId::new("resolve", name),
        &read.document,
        |b, doc| b.iter(|| docx2pdf::resolve::resolve(doc)),
    );
    group.bench_with_input(
        BenchmarkId::new("layout", name),
        &read.document,
        |b, doc| {
            b.iter(|| docx2pdf::layout::layout(doc, &renderer.fonts, &deadline).expect("layout"))
        },
    );
    group.bench_with_input(BenchmarkId::new("pdf", name), &laid.layout, |b, layout| {
        b.iter(|| docx2pdf::pdf::write(layout).expect("pdf"))
    });
    group.bench_with_input(BenchmarkId::new("pipeline", name), bytes, |b, bytes| {
        b.iter(|| convert(renderer, bytes, &deadline).expect("conversion"))
    });
}

fn built(c: &mut Criterion) {
    let renderer = Renderer::new(&[], PackageLimits::default());
    let mut group = c.benchmark_group("built");
    for pages in [1, 10, 100] {
        stages(
            &mut group,
            &renderer,
            &format!("text-{pages}p"),
            &text_document(pages),
        );
    }
    stages(&mut group, &renderer, "tables-10p", &table_document());
    stages(&mut group, &renderer, "images-10p", &image_document());
    group.finish();
}

/// The corpus documents: `D2P_BENCH_CORPUS` documents of `../shared/corpus/docs` (default
/// 8; `all` for every one), the stages of each.
fn corpus(c: &mut Criterion) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/docs");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return;
    };
    let mut files: Vec<_> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "docx"))
        .collect();
    files.sort();
    let take = match std::env::var("D2P_BENCH_CORPUS").as_deref() {
        Ok("all") => files.len(),
        Ok(n) => n.parse().unwrap_or(8),
        Err(_) => 8,
    };
    let renderer = Renderer::new(&[], PackageLimits::default());
    let mut group = c.benchmark_group("corpus");
    group.sample_size(10);
    for path in files.iter().take(take) {
        let bytes = std::fs::read(path).expect("corpus file");
        let name: String = path
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .chars()
            .take(40)
            .collect();
        stages(&mut group, &renderer, &name, &bytes);
    }
    group.finish();
}

criterion_group!(benches, built, corpus);
criterion_main!(benches);
