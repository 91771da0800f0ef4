//! Rasterised reference test: a handful of fixtures rendered to PDF, rasterised with
//! pdftoppm at 144 dpi (2 pixels a point), and the ink of named regions of each page (its
//! bounding box and amount) compared with `tests/ref/NAME.txt` to a pixel, so a block moved
//! by 1 pt is seen. `DOCX2PDF_UPDATE_REFS=1` (re)writes the references, and is refused
//! under CI; without it a missing reference fails. Without pdftoppm the test is skipped (a
//! failure under CI).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::docx::{docx, docx_with_rels, header_footer_xml, paragraph};
use common::timed::Timed;
use docx2pdf::render::{convert, Deadline};

/// Rasterisation resolution: 2 pixels a point, so a 1 pt move is 2 pixels.
const DPI: u32 = 144;
/// Pixels darker than this are ink.
const INK: u8 = 128;
/// A box edge may move this many pixels (anti-aliasing at the threshold), less than 1 pt.
const EDGE_TOLERANCE: usize = 1;
/// The amount of ink may differ by this share (hinting), far less than a word.
const INK_TOLERANCE: f64 = 0.03;
/// A region of a reference holds at least this much ink: no blank references.
const MIN_INK: usize = 200;

const SECT_START: &str = r#"<w:sectPr>"#;
const SECT_END: &str = r#"<w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr>"#;

const LOREM: &str = "The renderer lays text out as Word does: lines are broken at the opportunities of the Unicode rules, filled greedily, aligned and justified, and placed on pages in columns.";

fn sect(extra: &str) -> String {
    format!("{SECT_START}{extra}{SECT_END}")
}

/// A named part of the page, in points from the top left: (name, x0, y0, x1, y1).
type Region = (&'static str, usize, usize, usize, usize);

/// The whole Letter page.
const PAGE: Region = ("page", 0, 0, 612, 792);

/// The fixtures: name, DOCX and the regions compared.
fn fixtures() -> Vec<(&'static str, Vec<u8>, Vec<Region>)> {
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
            // Columns of 216 pt at 72 and 324 pt, the rule in the 36 pt gap between them.
            vec![("left column", 0, 0, 296, 792), ("rule", 296, 0, 316, 792), ("right column", 316, 0, 612, 792)],
        ),
        (
            "section_v_align_center",
            docx(&format!("{}{}", paragraph(LOREM), sect(r#"<w:vAlign w:val="center"/>"#))),
            vec![PAGE],
        ),
        ("paragraph_justified", docx(&format!("{justified}{}", sect(""))), vec![PAGE]),
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
            vec![("body", 0, 0, 612, 396), ("footer", 0, 396, 612, 792)],
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
        .args(["-r", &DPI.to_string(), "-gray", "-f", "1", "-l", "1", "-singlefile"])
        .arg(&input)
        .arg(&out)
        .timed_status();
    match status {
        Err(_) => {
            common::skip::skip("pdftoppm is not installed (apt-get install poppler-utils)");
            None
        }
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

/// The ink of one region: its bounding box in pixels (x0, y0, x1, y1, ends excluded) and
/// how many pixels are ink.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Ink {
    bbox: (usize, usize, usize, usize),
    pixels: usize,
}

/// The ink of `region` of the page.
fn ink(page: &Grey, (_, x0, y0, x1, y1): Region) -> Ink {
    let scale = DPI as usize / 72;
    let (x0, y0) = (x0 * scale, y0 * scale);
    let (x1, y1) = ((x1 * scale).min(page.width), (y1 * scale).min(page.height));
    let mut bbox = (usize::MAX, usize::MAX, 0, 0);
    let mut pixels = 0;
    for y in y0..y1 {
        for x in x0..x1 {
            if page.pixels[y * page.width + x] < INK {
                pixels += 1;
                bbox = (bbox.0.min(x), bbox.1.min(y), bbox.2.max(x + 1), bbox.3.max(y + 1));
            }
        }
    }
    if pixels == 0 {
        bbox = (0, 0, 0, 0);
    }
    Ink { bbox, pixels }
}

/// Where `got` differs from `want` past the tolerances, for each region; empty if nowhere.
fn differences(regions: &[Region], got: &[Ink], want: &[Ink]) -> Vec<String> {
    let near = |a: usize, b: usize| a.abs_diff(b) <= EDGE_TOLERANCE;
    let mut found = Vec::new();
    for ((region, got), want) in regions.iter().zip(got).zip(want) {
        let (g, w) = (got.bbox, want.bbox);
        if !(near(g.0, w.0) && near(g.1, w.1) && near(g.2, w.2) && near(g.3, w.3)) {
            found.push(format!("{}: ink box {g:?} instead of {w:?} (pixels at {DPI} dpi)", region.0));
        }
        if got.pixels.abs_diff(want.pixels) as f64 > want.pixels as f64 * INK_TOLERANCE {
            found.push(format!("{}: {} ink pixels instead of {}", region.0, got.pixels, want.pixels));
        }
    }
    found
}

fn reference(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ref").join(format!("{name}.txt"))
}

/// A reference file: a comment line, then `region name: x0 y0 x1 y1 ink` per region.
fn write_reference(path: &Path, regions: &[Region], inks: &[Ink]) {
    let mut text = format!("# ink bounding box (x0 y0 x1 y1, pixels at {DPI} dpi) and ink pixels of each region\n");
    for (region, ink) in regions.iter().zip(inks) {
        assert!(ink.pixels >= MIN_INK, "{}: region {} is blank; a reference must hold ink", path.display(), region.0);
        let (x0, y0, x1, y1) = ink.bbox;
        text += &format!("{}: {x0} {y0} {x1} {y1} {}\n", region.0, ink.pixels);
    }
    std::fs::write(path, text).expect("write the reference");
}

fn read_reference(path: &Path, regions: &[Region]) -> Vec<Ink> {
    let text = std::fs::read_to_string(path).expect("reference");
    let inks: Vec<Ink> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .zip(regions)
        .map(|(line, region)| {
            let (name, numbers) = line.rsplit_once(": ").expect("region: numbers");
            assert_eq!(name, region.0, "{}", path.display());
            let n: Vec<usize> = numbers.split_whitespace().map(|v| v.parse().expect("a number")).collect();
            Ink { bbox: (n[0], n[1], n[2], n[3]), pixels: n[4] }
        })
        .collect();
    assert_eq!(inks.len(), regions.len(), "{}: one line per region", path.display());
    assert!(inks.iter().all(|i| i.pixels >= MIN_INK), "{}: a blank region", path.display());
    inks
}

fn render(bytes: &[u8]) -> Vec<u8> {
    convert(&common::renderer(), bytes, &Deadline::none()).expect("conversion").pdf
}

#[test]
fn fixtures_match_their_reference_ink() {
    let update = common::skip::update_requested("DOCX2PDF_UPDATE_REFS");
    let mut failures = Vec::new();
    for (name, bytes, regions) in fixtures() {
        let Some(page) = rasterise(&render(&bytes)) else { return };
        let got: Vec<Ink> = regions.iter().map(|r| ink(&page, *r)).collect();
        let path = reference(name);
        if update {
            std::fs::create_dir_all(path.parent().expect("ref folder")).expect("create tests/ref");
            write_reference(&path, &regions, &got);
            continue;
        }
        assert!(path.exists(), "{} is missing: run with DOCX2PDF_UPDATE_REFS=1 to write it", path.display());
        failures.extend(differences(&regions, &got, &read_reference(&path, &regions)).into_iter().map(|d| format!("{name}: {d}")));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_comparison_sees_a_one_point_move_and_a_blank_page() {
    // The tolerances must not hide a layout change: the same page with its left margin
    // 1 pt (20 twips) wider, or nothing drawn at all, differs from the original.
    let page = |left: &str| {
        let bytes = docx(&format!(
            "{}<w:sectPr><w:pgSz w:w=\"12240\" w:h=\"15840\"/><w:pgMar w:top=\"1440\" w:right=\"1440\" w:bottom=\"1440\" w:left=\"{left}\" w:header=\"720\" w:footer=\"720\" w:gutter=\"0\"/></w:sectPr>",
            paragraph(LOREM)
        ));
        rasterise(&render(&bytes))
    };
    let (Some(original), Some(moved), Some(blank)) = (page("1440"), page("1460"), rasterise(&render(&docx(&sect(""))))) else {
        return;
    };
    let regions = [PAGE];
    let want = [ink(&original, PAGE)];
    assert!(want[0].pixels >= MIN_INK);
    assert_eq!(differences(&regions, &want, &want), Vec::<String>::new());
    let moved = differences(&regions, &[ink(&moved, PAGE)], &want);
    assert!(moved.iter().any(|d| d.contains("ink box")), "a 1 pt move went unseen: {moved:?}");
    let blank = differences(&regions, &[ink(&blank, PAGE)], &want);
    assert!(blank.len() == 2, "a blank page went unseen: {blank:?}");
}

#[test]
fn ci_is_any_non_empty_value_but_false_and_refuses_a_reference_update() {
    use common::skip::{ci_value, update_wanted};
    for ci in ["true", "1", "yes", "TRUE"] {
        assert!(ci_value(Some(ci)), "CI={ci}");
        assert_eq!(update_wanted("DOCX2PDF_UPDATE_REFS", Some("1"), Some(ci)).unwrap_err(),
                   "DOCX2PDF_UPDATE_REFS=1 is refused under CI: references are rewritten on a local run and committed");
    }
    for ci in [None, Some(""), Some("false")] {
        assert!(!ci_value(ci), "CI={ci:?}");
        assert_eq!(update_wanted("DOCX2PDF_UPDATE_REFS", Some("1"), ci), Ok(true));
        assert_eq!(update_wanted("DOCX2PDF_UPDATE_REFS", None, ci), Ok(false));
    }
    assert_eq!(update_wanted("DOCX2PDF_UPDATE_REFS", Some("0"), Some("1")), Ok(false));
}
