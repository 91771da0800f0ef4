//! Rasterised reference test: a handful of fixtures rendered to PDF, rasterised with
//! pdftoppm at low resolution and compared with the grey images in `tests/ref/` under a
//! tolerance. `DOCX2PDF_UPDATE_REFS=1` (re)writes the references; without it a missing
//! reference fails. Without pdftoppm the test prints a notice and passes.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::docx::{docx, docx_with_rels, header_footer_xml, paragraph};
use docx2pdf::render::{convert, Deadline};

/// Rasterisation resolution: a Letter page is 153×198 pixels, enough to see layout.
const DPI: &str = "18";
/// Pixels whose grey differs by more than this count as different.
const PIXEL_TOLERANCE: u8 = 64;
/// At most this share of the pixels may differ (anti-aliasing, font hinting).
const MAX_DIFFERENT: f64 = 0.01;

const SECT_START: &str = r#"<w:sectPr>"#;
const SECT_END: &str = r#"<w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr>"#;

const LOREM: &str = "The renderer lays text out as Word does: lines are broken at the opportunities of the Unicode rules, filled greedily, aligned and justified, and placed on pages in columns.";

fn sect(extra: &str) -> String {
    format!("{SECT_START}{extra}{SECT_END}")
}

/// The fixtures: name and DOCX.
fn fixtures() -> Vec<(&'static str, Vec<u8>)> {
    let many: String = (0..12).map(|_| paragraph(LOREM)).collect();
    let justified = format!(r#"<w:p><w:pPr><w:jc w:val="both"/></w:pPr><w:r><w:t>{LOREM} {LOREM}</w:t></w:r></w:p>"#);
    let footer = header_footer_xml(
        "ftr",
        r#"<w:p><w:pPr><w:jc w:val="center"/></w:pPr><w:r><w:t xml:space="preserve">Page </w:t></w:r><w:fldSimple w:instr=" PAGE "><w:r><w:t>1</w:t></w:r></w:fldSimple></w:p>"#,
    );
    vec![
        (
            "section_columns_separator",
            docx(&format!("{many}{}", sect(r#"<w:cols w:num="2" w:space="720" w:sep="1"/>"#))),
        ),
        ("section_v_align_center", docx(&format!("{}{}", paragraph(LOREM), sect(r#"<w:vAlign w:val="center"/>"#)))),
        ("paragraph_justified", docx(&format!("{justified}{}", sect("")))),
        (
            "section_page_number_roman_footer",
            docx_with_rels(
                &format!(
                    "{}{}",
                    paragraph(LOREM),
                    sect(
                        r#"<w:footerReference w:type="default" r:id="rIdF"/><w:pgNumType w:fmt="upperRoman" w:start="4"/>"#
                    )
                ),
                &[("rIdF", "footer", "footer1.xml", &footer)],
            ),
        ),
    ]
}

/// A grey image.
struct Grey {
    width: usize,
    height: usize,
    pixels: Vec<u8>,
}

/// The first page of `pdf` rasterised in grey, or `None` without pdftoppm.
fn rasterise(pdf: &[u8]) -> Option<Grey> {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = dir.path().join("in.pdf");
    std::fs::write(&input, pdf).expect("write pdf");
    let out = dir.path().join("page");
    let status = Command::new("pdftoppm")
        .args(["-r", DPI, "-gray", "-f", "1", "-l", "1", "-singlefile"])
        .arg(&input)
        .arg(&out)
        .status();
    match status {
        Err(_) => None,
        Ok(s) => {
            assert!(s.success(), "pdftoppm failed");
            Some(read_pgm(&std::fs::read(out.with_extension("pgm")).expect("pdftoppm output")))
        }
    }
}

/// A binary PGM (`P5`, 8-bit), as pdftoppm writes it.
fn read_pgm(data: &[u8]) -> Grey {
    let mut fields = Vec::new();
    let mut i = 0;
    while fields.len() < 4 {
        while data[i].is_ascii_whitespace() {
            i += 1;
        }
        let start = i;
        while !data[i].is_ascii_whitespace() {
            i += 1;
        }
        fields.push(String::from_utf8_lossy(&data[start..i]).into_owned());
    }
    assert_eq!(fields[0], "P5", "a binary grey map");
    let (width, height): (usize, usize) = (fields[1].parse().unwrap(), fields[2].parse().unwrap());
    let pixels = data[i + 1..i + 1 + width * height].to_vec();
    Grey { width, height, pixels }
}

fn read_png(path: &Path) -> Grey {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).expect("reference")));
    let mut reader = decoder.read_info().expect("png header");
    let mut buf = vec![0; reader.output_buffer_size().expect("png size")];
    let info = reader.next_frame(&mut buf).expect("png frame");
    assert_eq!(info.color_type, png::ColorType::Grayscale, "{} is grey", path.display());
    assert_eq!(info.bit_depth, png::BitDepth::Eight);
    buf.truncate(info.buffer_size());
    Grey { width: info.width as usize, height: info.height as usize, pixels: buf }
}

fn write_png(path: &Path, img: &Grey) {
    let file = std::fs::File::create(path).expect("create reference");
    let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), img.width as u32, img.height as u32);
    encoder.set_color(png::ColorType::Grayscale);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::High);
    encoder.write_header().expect("png header").write_image_data(&img.pixels).expect("png data");
}

/// The share of pixels that differ by more than the tolerance.
fn difference(a: &Grey, b: &Grey) -> f64 {
    let differing = a.pixels.iter().zip(&b.pixels).filter(|(x, y)| x.abs_diff(**y) > PIXEL_TOLERANCE).count();
    differing as f64 / a.pixels.len().max(1) as f64
}

fn reference(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ref").join(format!("{name}.png"))
}

#[test]
fn fixtures_match_their_reference_images() {
    let update = std::env::var("DOCX2PDF_UPDATE_REFS").is_ok_and(|v| v == "1");
    let mut failures = Vec::new();
    for (name, bytes) in fixtures() {
        let pdf = convert(&common::renderer(), &bytes, &Deadline::none()).expect("conversion").pdf;
        let Some(img) = rasterise(&pdf) else {
            eprintln!("notice: pdftoppm is not installed; the raster reference test is skipped");
            return;
        };
        let path = reference(name);
        if update {
            std::fs::create_dir_all(path.parent().expect("ref folder")).expect("create tests/ref");
            write_png(&path, &img);
            eprintln!("notice: wrote {}", path.display());
            continue;
        }
        assert!(path.exists(), "{} is missing: run with DOCX2PDF_UPDATE_REFS=1 to write it", path.display());
        let want = read_png(&path);
        if (want.width, want.height) != (img.width, img.height) {
            failures.push(format!("{name}: {}×{} instead of {}×{}", img.width, img.height, want.width, want.height));
            continue;
        }
        let d = difference(&img, &want);
        if d > MAX_DIFFERENT {
            failures.push(format!("{name}: {:.2} % of the pixels differ", d * 100.0));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_comparison_sees_a_moved_block() {
    // The tolerance must not hide a layout change: the same page with its text 2 lines
    // lower differs by far more than the allowed share.
    let bytes = |before: &str| docx(&format!("{before}{}{}", paragraph(LOREM), sect("")));
    let render = |b: &[u8]| convert(&common::renderer(), b, &Deadline::none()).expect("conversion").pdf;
    let (Some(a), Some(b)) = (rasterise(&render(&bytes(""))), rasterise(&render(&bytes(&paragraph(" ").repeat(2)))))
    else {
        eprintln!("notice: pdftoppm is not installed; the raster comparison test is skipped");
        return;
    };
    assert!(difference(&a, &b) > MAX_DIFFERENT);
    assert_eq!(difference(&a, &a), 0.0);
}
