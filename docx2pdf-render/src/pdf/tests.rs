//! Unit tests of the PDF writer: layouts built by hand with real faces, checked with poppler's tools and a minimal reader of our own output.

use std::io::Read;
use std::path::Path;
use std::process::Command;
use std::sync::Arc;

use rustybuzz::ttf_parser;

use super::outline::Tree;
use super::write;
use crate::frame::{
    DocInfo, Face, Glyph, GlyphText, Item, Layout, LineItem, LinkDest, LinkItem, OutlineEntry, Page, Point,
    Positioned, RectItem, Rgb, Size, TextItem,
};
use crate::units::Pt;

// The test suite's one rule for a missing font or tool: skipped, or a failure under CI=true.
#[path = "../../../tests/support/skip.rs"]
mod skip;

const LETTER: Size = Size {
    width: Pt(612.0),
    height: Pt(792.0),
};
const NOTO_CJK: &str = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc";

// ---- building layouts ----

fn face(id: u32, data: &'static [u8], postscript_name: &str) -> Arc<Face> {
    Arc::new(Face {
        id,
        data: Arc::new(data),
        index: 0,
        postscript_name: postscript_name.into(),
        emulation: None,
    })
}

/// A 12 pt black text item.
fn black_12pt(face: Arc<Face>, glyphs: Vec<Glyph>) -> Item {
    Item::Text(TextItem { face, size: Pt(12.0), color: Rgb::BLACK, glyphs, rtl: false })
}

fn sans() -> Arc<Face> {
    face(1, dejavu::sans::regular(), "DejaVuSans")
}

fn bold() -> Arc<Face> {
    face(2, dejavu::sans::bold(), "DejaVuSans-Bold")
}

/// Shapes `text` with rustybuzz; each cluster's text goes on its first glyph.
fn shape(face: &Face, text: &str, size: f64) -> Vec<Glyph> {
    let hb = rustybuzz::Face::from_slice(face.bytes(), face.index).expect("face parses");
    let scale = size / f64::from(hb.units_per_em());
    let mut buffer = rustybuzz::UnicodeBuffer::new();
    buffer.push_str(text);
    let shaped = rustybuzz::shape(&hb, &[], buffer);
    let (infos, positions) = (shaped.glyph_infos(), shaped.glyph_positions());
    (0..infos.len())
        .map(|i| {
            let start = infos[i].cluster as usize;
            let first = i == 0 || infos[i - 1].cluster != infos[i].cluster;
            let end = infos[i..]
                .iter()
                .map(|info| info.cluster as usize)
                .find(|&c| c > start)
                .unwrap_or(text.len());
            Glyph {
                id: infos[i].glyph_id as u16,
                advance: Pt(f64::from(positions[i].x_advance) * scale),
                offset: Point::new(
                    Pt(f64::from(positions[i].x_offset) * scale),
                    Pt(-f64::from(positions[i].y_offset) * scale),
                ),
                text: if first {
                    text[start..end].into()
                } else {
                    GlyphText::EMPTY
                },
            }
        })
        .collect()
}

/// One glyph per (character, text) pair, looked up in the face's cmap, at its natural advance.
fn glyphs(face: &Face, pairs: &[(char, &str)], size: f64) -> Vec<Glyph> {
    let ttf = ttf_parser::Face::parse(face.bytes(), face.index).expect("face parses");
    let scale = size / f64::from(ttf.units_per_em());
    pairs
        .iter()
        .map(|&(c, text)| {
            let id = ttf.glyph_index(c).expect("glyph in cmap");
            Glyph {
                id: id.0,
                advance: Pt(f64::from(ttf.glyph_hor_advance(id).unwrap_or(0)) * scale),
                offset: Point::default(),
                text: text.into(),
            }
        })
        .collect()
}

fn text(face: &Arc<Face>, s: &str, size: f64) -> Item {
    Item::Text(TextItem {
        face: face.clone(),
        size: Pt(size),
        color: Rgb::BLACK,
        glyphs: shape(face, s, size),
        rtl: false,
    })
}

fn at(x: f64, y: f64, item: Item) -> Positioned {
    Positioned {
        pos: Point::new(Pt(x), Pt(y)),
        item,
        tag: Default::default(),
    }
}

fn page(items: Vec<Positioned>) -> Page {
    Page {
        size: LETTER,
        items,
    }
}

fn layout(pages: Vec<Page>) -> Layout {
    Layout {
        pages,
        ..Layout::default()
    }
}

fn hello() -> Layout {
    layout(vec![page(vec![at(
        72.0,
        100.0,
        text(&sans(), "Hello, world.", 12.0),
    )])])
}

fn link(dest: LinkDest) -> Item {
    Item::Link(LinkItem {
        size: Size {
            width: Pt(100.0),
            height: Pt(14.0),
        },
        dest,
    })
}

fn entry(level: u8, title: &str, page: usize, y: f64) -> OutlineEntry {
    OutlineEntry {
        level,
        title: title.into(),
        page,
        y: Pt(y),
    }
}

// ---- reading the output ----

fn write_ok(layout: &Layout) -> Vec<u8> {
    write(layout).expect("PDF written")
}

/// Runs a poppler tool on `pdf`; returns stdout, failing on a non-zero exit or on stderr
/// output (poppler reports syntax errors there).
fn poppler(tool: &str, args: &[&str], pdf: &[u8]) -> String {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("out.pdf");
    std::fs::write(&path, pdf).expect("PDF saved");
    let output = Command::new(tool)
        .args(args)
        .arg(&path)
        .args(match tool {
            "pdftotext" => vec![Path::new("-").to_path_buf()],
            "pdftoppm" => vec![dir.path().join("page")],
            _ => vec![],
        })
        .output()
        .unwrap_or_else(|e| panic!("{tool} (poppler-utils) must be installed: {e}"));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success() && stderr.is_empty(),
        "{tool} failed: {stderr}"
    );
    String::from_utf8(output.stdout).expect("UTF-8 output")
}

fn pdftotext(pdf: &[u8]) -> String {
    poppler("pdftotext", &["-enc", "UTF-8"], pdf)
}

/// An indirect object of our output: its number, dictionary text and decoded stream.
struct Object {
    num: u32,
    dict: String,
    data: Option<Vec<u8>>,
}

/// Splits our own (non-pretty) output into objects, inflating Flate streams.
fn objects(pdf: &[u8]) -> Vec<Object> {
    let mut out = Vec::new();
    let mut pos = 0;
    while let Some(found) = find(&pdf[pos..], b" 0 obj\n") {
        let header = pos + found;
        let num_start = pdf[..header]
            .iter()
            .rposition(|b| !b.is_ascii_digit())
            .map_or(0, |i| i + 1);
        let num = std::str::from_utf8(&pdf[num_start..header])
            .unwrap()
            .parse()
            .unwrap();
        let body = header + b" 0 obj\n".len();
        let end = body + find(&pdf[body..], b"\nendobj\n").unwrap();
        let stream = find(&pdf[body..end], b">>\nstream\n").map(|s| body + s);
        match stream {
            Some(s) => {
                let dict = String::from_utf8_lossy(&pdf[body..s + 2]).into_owned();
                let length: usize = number_after(&dict, "/Length ").unwrap() as usize;
                let start = s + b">>\nstream\n".len();
                let raw = &pdf[start..start + length];
                let data = if dict.contains("/FlateDecode") {
                    let mut inflated = Vec::new();
                    flate2::read::ZlibDecoder::new(raw)
                        .read_to_end(&mut inflated)
                        .unwrap();
                    inflated
                } else {
                    raw.to_vec()
                };
                out.push(Object {
                    num,
                    dict,
                    data: Some(data),
                });
                pos = start + length;
            }
            None => {
                out.push(Object {
                    num,
                    dict: String::from_utf8_lossy(&pdf[body..end]).into_owned(),
                    data: None,
                });
                pos = end;
            }
        }
    }
    out
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

fn number_after(text: &str, key: &str) -> Option<f64> {
    let rest = &text[text.find(key)? + key.len()..];
    let end = rest
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
        .unwrap_or(rest.len());
    rest[..end].parse().ok()
}

fn object(objects: &[Object], num: u32) -> &Object {
    objects
        .iter()
        .find(|o| o.num == num)
        .expect("object exists")
}

fn with<'o>(objects: &'o [Object], needle: &str) -> Vec<&'o Object> {
    objects.iter().filter(|o| o.dict.contains(needle)).collect()
}

/// The decoded content stream of the first page.
fn content(pdf: &[u8]) -> String {
    let objects = objects(pdf);
    let page = with(&objects, "/MediaBox")[0];
    let num = number_after(&page.dict, "/Contents ").expect("contents") as u32;
    let text = String::from_utf8_lossy(object(&objects, num).data.as_deref().unwrap()).into_owned();
    // pdf-writer separates operations by newlines; one space makes assertions simpler.
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The object number that `key` refers to in `dict` (`/Key N 0 R`).
fn reference(dict: &str, key: &str) -> Option<u32> {
    number_after(dict, &format!("{key} ")).map(|n| n as u32)
}

// ---- text ----

#[test]
fn text_comes_back_from_pdftotext() {
    assert_eq!(pdftotext(&write_ok(&hello())).trim(), "Hello, world.");
}

#[test]
fn pdfinfo_reports_the_page_count_and_sizes() {
    let a4 = Size {
        width: Pt(595.0),
        height: Pt(842.0),
    };
    let mut doc = layout(vec![page(vec![]), page(vec![])]);
    doc.pages[1].size = a4;
    let info = poppler("pdfinfo", &["-f", "1", "-l", "2"], &write_ok(&doc));
    assert!(info.contains("Pages:           2"), "{info}");
    assert!(
        info.contains("Page    1 size:  612 x 792 pts (letter)"),
        "{info}"
    );
    assert!(info.contains("Page    2 size:  595 x 842 pts"), "{info}");
}

#[test]
fn an_empty_layout_becomes_one_blank_letter_page() {
    let info = poppler("pdfinfo", &[], &write_ok(&Layout::default()));
    assert!(info.contains("Pages:           1"), "{info}");
    assert!(
        info.contains("Page size:       612 x 792 pts (letter)"),
        "{info}"
    );
}

#[test]
fn two_writes_of_one_layout_are_identical() {
    let mut doc = hello();
    doc.outline.push(entry(1, "Intro", 0, 100.0));
    doc.destinations
        .insert("here".into(), (0, Point::new(Pt(72.0), Pt(100.0))));
    doc.pages[0].items.push(at(
        72.0,
        90.0,
        link(LinkDest::Uri("https://example.com".into())),
    ));
    assert_eq!(write_ok(&doc), write_ok(&doc));
}

#[test]
fn a_ligature_glyph_maps_back_to_all_its_characters() {
    let face = sans();
    let glyphs = glyphs(&face, &[('\u{FB01}', "fi"), ('n', "n"), ('e', "e")], 12.0);
    let item = black_12pt(face, glyphs);
    let pdf = write_ok(&layout(vec![page(vec![at(72.0, 100.0, item)])]));
    assert_eq!(pdftotext(&pdf).trim(), "fine");
    let objects = objects(&pdf);
    let cmap = with(&objects, "/CMapName");
    let cmap = String::from_utf8_lossy(cmap[0].data.as_deref().unwrap()).into_owned();
    assert!(cmap.contains("<0001> <00660069>"), "{cmap}");
}

#[test]
fn a_glyph_keeps_its_first_non_empty_text() {
    let face = sans();
    let glyphs = glyphs(&face, &[('a', ""), ('a', "a"), ('a', "x")], 12.0);
    let item = black_12pt(face, glyphs);
    let objects = objects(&write_ok(&layout(vec![page(vec![at(72.0, 100.0, item)])])));
    let cmap = String::from_utf8_lossy(with(&objects, "/CMapName")[0].data.as_deref().unwrap())
        .into_owned();
    assert!(cmap.contains("1 beginbfchar\n<0001> <0061>\n"), "{cmap}");
}

#[test]
fn shaped_ligatures_keep_their_cluster_text() {
    let pdf = write_ok(&layout(vec![page(vec![at(
        72.0,
        100.0,
        text(&sans(), "office affluent", 12.0),
    )])]));
    assert_eq!(pdftotext(&pdf).trim(), "office affluent");
}

#[test]
fn astral_characters_map_through_surrogate_pairs() {
    let face = sans();
    let glyphs = glyphs(&face, &[('A', "\u{1D400}")], 12.0);
    let item = black_12pt(face, glyphs);
    let pdf = write_ok(&layout(vec![page(vec![at(72.0, 100.0, item)])]));
    assert_eq!(pdftotext(&pdf).trim(), "\u{1D400}");
}

#[test]
fn text_position_flips_to_the_bottom_left_origin() {
    assert!(content(&write_ok(&hello())).contains("1 0 0 1 72 692 Tm"));
}

#[test]
fn changed_advances_become_tj_adjustments() {
    let face = sans();
    let mut glyphs = glyphs(&face, &[('a', "a"), ('b', "b"), ('c', "c")], 12.0);
    glyphs[0].advance += Pt(2.0);
    let item = black_12pt(face, glyphs);
    let content = content(&write_ok(&layout(vec![page(vec![at(72.0, 100.0, item)])])));
    // 2 pt at 12 pt is 166.7 thousandths of text space, negative to move right.
    assert!(
        content.contains(">-166.7<") || content.contains(")-166.7("),
        "{content}"
    );
    assert_eq!(content.matches("-166.7").count(), 1, "{content}");
}

#[test]
fn natural_advances_need_no_adjustment() {
    let face = sans();
    let glyphs = glyphs(&face, &[('H', "H"), ('i', "i"), ('!', "!")], 12.0);
    let item = black_12pt(face, glyphs);
    let content = content(&write_ok(&layout(vec![page(vec![at(72.0, 100.0, item)])])));
    let tj = &content[content.find('[').unwrap()..content.find("]TJ").unwrap()];
    assert_eq!(
        tj.matches(['(', '<']).count(),
        1,
        "one string, no numbers: {tj}"
    );
}

#[test]
fn a_vertical_glyph_offset_becomes_text_rise() {
    let face = sans();
    let mut glyphs = glyphs(&face, &[('x', "x"), ('2', "2")], 12.0);
    glyphs[1].offset.y = Pt(-4.0);
    let item = black_12pt(face, glyphs);
    let content = content(&write_ok(&layout(vec![page(vec![at(72.0, 100.0, item)])])));
    assert!(content.contains("4 Ts"), "{content}");
}

#[test]
fn unchanged_font_and_colour_are_not_repeated() {
    let face = sans();
    let doc = layout(vec![page(vec![
        at(72.0, 100.0, text(&face, "one", 12.0)),
        at(72.0, 120.0, text(&face, "two", 12.0)),
        at(72.0, 140.0, text(&face, "three", 14.0)),
    ])]);
    let content = content(&write_ok(&doc));
    assert_eq!(content.matches("Tf").count(), 2, "{content}");
    assert_eq!(content.matches("rg").count(), 1, "{content}");
    assert_eq!(content.matches("BT").count(), 1, "{content}");
}

#[test]
fn text_colour_is_set_with_rg() {
    let face = sans();
    let item = Item::Text(TextItem {
        face: face.clone(),
        size: Pt(12.0),
        color: Rgb(255, 0, 0),
        glyphs: shape(&face, "red", 12.0),
        rtl: false,
    });
    let content = content(&write_ok(&layout(vec![page(vec![at(72.0, 100.0, item)])])));
    assert!(content.contains("1 0 0 rg"), "{content}");
}

// ---- graphics ----

#[test]
fn a_line_is_stroked_with_its_colour_and_thickness() {
    let line = Item::Line(LineItem {
        to: Point::new(Pt(200.0), Pt(100.0)),
        thickness: Pt(0.5),
        color: Rgb(0, 0, 255),
    });
    let content = content(&write_ok(&layout(vec![page(vec![at(72.0, 100.0, line)])])));
    assert!(content.contains("0 0 1 RG"), "{content}");
    assert!(content.contains("0.5 w"), "{content}");
    assert!(content.contains("72 692 m 200 692 l S"), "{content}");
}

#[test]
fn a_rectangle_with_fill_and_stroke_uses_both() {
    let rect = Item::Rect(RectItem {
        size: Size {
            width: Pt(100.0),
            height: Pt(50.0),
        },
        fill: Some(Rgb(255, 255, 0)),
        stroke: Some((Rgb::BLACK, Pt(1.0))),
    });
    let content = content(&write_ok(&layout(vec![page(vec![at(72.0, 100.0, rect)])])));
    assert!(content.contains("72 642 100 50 re B"), "{content}");
    assert!(content.contains("1 1 0 rg"), "{content}");
}

#[test]
fn a_filled_rectangle_is_only_filled() {
    let rect = Item::Rect(RectItem {
        size: Size {
            width: Pt(10.0),
            height: Pt(10.0),
        },
        fill: Some(Rgb::BLACK),
        stroke: None,
    });
    let content = content(&write_ok(&layout(vec![page(vec![at(0.0, 0.0, rect)])])));
    assert!(content.contains("0 782 10 10 re f"), "{content}");
    assert!(
        !content.contains(" S") && !content.contains(" w"),
        "{content}"
    );
}

#[test]
fn text_after_a_path_reopens_a_text_object() {
    let face = sans();
    let rule = Item::Line(LineItem {
        to: Point::new(Pt(300.0), Pt(110.0)),
        thickness: Pt(1.0),
        color: Rgb::BLACK,
    });
    let doc = layout(vec![page(vec![
        at(72.0, 100.0, text(&face, "above", 12.0)),
        at(72.0, 110.0, rule),
        at(72.0, 130.0, text(&face, "below", 12.0)),
    ])]);
    let pdf = write_ok(&doc);
    let content = content(&pdf);
    assert_eq!(content.matches("BT").count(), 2, "{content}");
    assert_eq!(content.matches("ET").count(), 2, "{content}");
    assert_eq!(
        pdftotext(&pdf).split_whitespace().collect::<Vec<_>>(),
        ["above", "below"]
    );
}

#[test]
fn every_stream_is_flate_compressed() {
    let pdf = write_ok(&hello());
    let objects = objects(&pdf);
    // The XMP metadata stays plain text, readable without a PDF parser (PDF/A-1 §6.7.2
    // forbids a filter on it).
    let streams: Vec<_> = objects.iter().filter(|o| o.data.is_some() && !o.dict.contains("/Type/Metadata")).collect();
    assert_eq!(streams.len(), 3, "content, font file, ToUnicode");
    assert!(streams
        .iter()
        .all(|o| o.dict.contains("/Filter/FlateDecode")));
}

// ---- fonts ----

#[test]
fn a_truetype_face_embeds_as_a_type0_identity_h_cid_font() {
    let fonts = poppler("pdffonts", &[], &write_ok(&hello()));
    let line = fonts.lines().nth(2).expect("one font line");
    assert!(line.contains("DejaVuSans"), "{fonts}");
    assert!(line.contains("CID TrueType"), "{fonts}");
    assert!(line.contains("Identity-H"), "{fonts}");
    assert!(
        line.contains("yes yes yes"),
        "embedded, subset, ToUnicode: {fonts}"
    );
}

#[test]
fn the_base_font_has_a_six_letter_subset_tag() {
    let objects = objects(&write_ok(&hello()));
    let type0 = with(&objects, "/Subtype/Type0")[0];
    let name = &type0.dict[type0.dict.find("/BaseFont/").unwrap() + 10..];
    let (tag, rest) = name.split_at(7);
    assert!(
        tag[..6].bytes().all(|b| b.is_ascii_uppercase()) && tag.ends_with('+'),
        "{name}"
    );
    assert!(
        rest.starts_with("DejaVuSans/") || rest.starts_with("DejaVuSans>"),
        "{name}"
    );
}

#[test]
fn spaces_in_the_postscript_name_are_removed() {
    let face = face(9, dejavu::sans::regular(), "DejaVu Sans Book");
    let doc = layout(vec![page(vec![at(72.0, 100.0, text(&face, "x", 12.0))])]);
    let objects = objects(&write_ok(&doc));
    assert!(with(&objects, "/Subtype/Type0")[0]
        .dict
        .contains("+DejaVuSansBook"));
}

#[test]
fn each_face_is_one_font_numbered_in_first_use_order() {
    let (regular, bold) = (sans(), bold());
    let doc = layout(vec![
        page(vec![
            at(72.0, 100.0, text(&bold, "Bold", 12.0)),
            at(72.0, 120.0, text(&regular, "regular", 12.0)),
        ]),
        page(vec![
            at(72.0, 100.0, text(&regular, "again", 12.0)),
            at(72.0, 120.0, text(&bold, "Bold", 12.0)),
        ]),
    ]);
    let pdf = write_ok(&doc);
    let objects = objects(&pdf);
    let type0 = with(&objects, "/Subtype/Type0");
    assert_eq!(type0.len(), 2);
    let page = with(&objects, "/MediaBox")[0];
    let f0 = object(&objects, reference(&page.dict, "/F0").unwrap());
    assert!(f0.dict.contains("DejaVuSans-Bold"), "{}", f0.dict);
    let words: Vec<String> = pdftotext(&pdf)
        .split_whitespace()
        .map(String::from)
        .collect();
    assert_eq!(words, ["Bold", "regular", "again", "Bold"]);
}

#[test]
fn one_face_on_many_pages_is_embedded_once() {
    let face = sans();
    let pages = (0..3)
        .map(|i| {
            page(vec![at(
                72.0,
                100.0,
                text(&face, &format!("page {i}"), 12.0),
            )])
        })
        .collect();
    let objects = objects(&write_ok(&layout(pages)));
    assert_eq!(with(&objects, "/Subtype/Type0").len(), 1);
    assert_eq!(with(&objects, "/FontFile2").len(), 1);
}

#[test]
fn widths_are_the_original_advances_in_glyph_space() {
    let objects = objects(&write_ok(&hello()));
    let cid = &with(&objects, "/Subtype/CIDFontType2")[0].dict;
    // DejaVu Sans: 'H' advances 1540 of 2048 units, i.e. 751.95 per 1000.
    assert!(cid.contains("751.9531"), "{cid}");
    assert!(cid.contains("/CIDToGIDMap/Identity"), "{cid}");
}

#[test]
fn the_font_descriptor_carries_metrics_from_the_tables() {
    let objects = objects(&write_ok(&hello()));
    let descriptor = &with(&objects, "/Type/FontDescriptor")[0].dict;
    for key in [
        "/Flags 4",
        "/FontBBox[",
        "/ItalicAngle 0",
        "/Ascent 928",
        "/Descent -236",
        "/CapHeight 729",
        "/StemV 88",
        "/FontFile2",
    ] {
        assert!(descriptor.contains(key), "{key} in {descriptor}");
    }
}

#[test]
fn a_cff_face_from_a_collection_embeds_as_opentype() {
    if !Path::new(NOTO_CJK).exists() {
        skip::skip(&format!("{NOTO_CJK} is not installed (apt-get install fonts-noto-cjk)"));
        return;
    }
    let data = std::fs::read(NOTO_CJK).unwrap();
    let index = 1;
    let ttf = ttf_parser::Face::parse(&data, index).unwrap();
    let name = ttf
        .names()
        .into_iter()
        .find(|n| n.name_id == ttf_parser::name_id::POST_SCRIPT_NAME)
        .and_then(|n| n.to_string())
        .unwrap();
    let face = Arc::new(Face {
        id: 7,
        data: Arc::new(data),
        index,
        postscript_name: name,
        emulation: None,
    });
    let glyphs = glyphs(&face, &[('日', "日"), ('本', "本"), ('語', "語")], 12.0);
    let item = black_12pt(face, glyphs);
    let pdf = write_ok(&layout(vec![page(vec![at(72.0, 100.0, item)])]));

    assert_eq!(pdftotext(&pdf).trim(), "日本語");
    let fonts = poppler("pdffonts", &[], &pdf);
    assert!(fonts.contains("CID Type 0C (OT)"), "{fonts}");
    poppler("pdftoppm", &["-r", "20", "-png"], &pdf);

    let objects = objects(&pdf);
    assert!(with(&objects, "/Subtype/CIDFontType0")[0]
        .dict
        .contains("/CIDSystemInfo"));
    assert!(with(&objects, "/Subtype/Type0")[0]
        .dict
        .contains("-Identity-H"));
    let file = with(&objects, "/Subtype/OpenType")[0]
        .data
        .as_deref()
        .unwrap();
    assert_eq!(&file[..4], b"OTTO");
    let subset = ttf_parser::Face::parse(file, 0).expect("the subset parses");
    assert_eq!(subset.number_of_glyphs(), 4, ".notdef and three ideographs");
    let bbox = subset.glyph_bounding_box(ttf_parser::GlyphId(1));
    assert!(bbox.is_some(), "CID 1 has an outline");
}

// ---- links and destinations ----

#[test]
fn a_uri_link_becomes_a_borderless_uri_annotation() {
    let mut doc = hello();
    doc.pages[0].items.push(at(
        72.0,
        90.0,
        link(LinkDest::Uri("https://example.com/a b/é".into())),
    ));
    let objects = objects(&write_ok(&doc));
    let annotation = &with(&objects, "/Subtype/Link")[0].dict;
    assert!(annotation.contains("/Border[0 0 0]"), "{annotation}");
    assert!(
        annotation.contains("/S/URI/URI(https://example.com/a%20b/%C3%A9)"),
        "{annotation}"
    );
    assert!(annotation.contains("/Rect[72 688 172 702]"), "{annotation}");
    let page = with(&objects, "/MediaBox")[0];
    assert!(page.dict.contains("/Annots["), "{}", page.dict);
}

#[test]
fn a_named_link_goes_to_its_destination() {
    let mut doc = layout(vec![
        page(vec![at(
            72.0,
            100.0,
            link(LinkDest::Named("target".into())),
        )]),
        page(vec![]),
    ]);
    doc.destinations
        .insert("target".into(), (1, Point::new(Pt(72.0), Pt(200.0))));
    let objects = objects(&write_ok(&doc));
    let annotation = &with(&objects, "/Subtype/Link")[0].dict;
    let pages = &with(&objects, "/Type/Pages")[0].dict;
    let second = pages[pages.find("/Kids[").unwrap() + 6..]
        .split(" 0 R")
        .nth(1)
        .unwrap()
        .trim()
        .to_string();
    assert!(annotation.contains("/S/GoTo"), "{annotation}");
    assert!(
        annotation.contains(&format!("/D[{second} 0 R/XYZ 72 592 0]")),
        "{annotation}"
    );
}

#[test]
fn a_named_link_without_destination_is_skipped() {
    let doc = layout(vec![page(vec![at(
        72.0,
        100.0,
        link(LinkDest::Named("nowhere".into())),
    )])]);
    let objects = objects(&write_ok(&doc));
    assert!(with(&objects, "/Subtype/Link").is_empty());
    assert!(!with(&objects, "/MediaBox")[0].dict.contains("/Annots"));
}

#[test]
fn every_destination_is_in_the_catalog_name_tree() {
    let mut doc = layout(vec![page(vec![]), page(vec![])]);
    doc.destinations
        .insert("beta".into(), (1, Point::new(Pt(0.0), Pt(50.0))));
    doc.destinations
        .insert("alpha".into(), (0, Point::new(Pt(10.0), Pt(20.0))));
    let objects = objects(&write_ok(&doc));
    let catalog = &with(&objects, "/Type/Catalog")[0].dict;
    let tree = object(&objects, reference(catalog, "/Dests").expect("Names/Dests"));
    let (alpha, beta) = (
        tree.dict.find("(alpha)[").unwrap(),
        tree.dict.find("(beta)[").unwrap(),
    );
    assert!(alpha < beta, "keys ascend: {}", tree.dict);
    assert!(tree.dict.contains("/XYZ 10 772 0]"), "{}", tree.dict);
}

// ---- outline ----

#[test]
fn outline_levels_nest_under_the_last_open_entry() {
    let tree = Tree::new([1, 2, 2, 1, 3, 2]);
    assert_eq!(
        tree.parent,
        [None, Some(0), Some(0), None, Some(3), Some(3)]
    );
    assert_eq!(tree.descendants, [2, 0, 0, 2, 0, 0]);
}

#[test]
fn outline_items_link_parents_children_and_counts() {
    let mut doc = layout(vec![page(vec![]), page(vec![])]);
    doc.outline = vec![
        entry(1, "One", 0, 72.0),
        entry(2, "One.A", 0, 300.0),
        entry(3, "One.A.i", 1, 72.0),
        entry(1, "Two", 1, 400.0),
    ];
    let pdf = write_ok(&doc);
    let objects = objects(&pdf);
    let item = |title: &str| with(&objects, &format!("/Title({title})"))[0];
    let (one, one_a, one_a_i, two) = (item("One"), item("One.A"), item("One.A.i"), item("Two"));
    assert_eq!(reference(&one_a.dict, "/Parent"), Some(one.num));
    assert_eq!(reference(&one_a_i.dict, "/Parent"), Some(one_a.num));
    assert_eq!(reference(&one.dict, "/Next"), Some(two.num));
    assert_eq!(number_after(&one.dict, "/Count "), Some(2.0));
    assert!(two.dict.contains("/XYZ 0 392 0]"), "{}", two.dict);
    let root = object(&objects, reference(&one.dict, "/Parent").unwrap());
    assert_eq!(number_after(&root.dict, "/Count "), Some(4.0));
    assert_eq!(reference(&root.dict, "/Last"), Some(two.num));
    assert!(with(&objects, "/Type/Catalog")[0]
        .dict
        .contains("/PageMode/UseOutlines"));
}

#[test]
fn no_outline_means_no_outline_page_mode() {
    let objects = objects(&write_ok(&hello()));
    let catalog = &with(&objects, "/Type/Catalog")[0].dict;
    assert!(
        !catalog.contains("/Outlines") && !catalog.contains("/PageMode"),
        "{catalog}"
    );
}

// ---- metadata ----

#[test]
fn info_keeps_non_ascii_text_and_names_the_producer() {
    let mut doc = hello();
    doc.info = DocInfo {
        title: Some("Über naïve 日本".into()),
        author: Some("Zoë".into()),
        subject: Some("Tests".into()),
        keywords: Some("pdf, ünïcode".into()),
        ..DocInfo::default()
    };
    let info = poppler("pdfinfo", &[], &write_ok(&doc));
    assert!(info.contains("Title:           Über naïve 日本"), "{info}");
    assert!(info.contains("Author:          Zoë"), "{info}");
    assert!(info.contains("Keywords:        pdf, ünïcode"), "{info}");
    assert!(info.contains("Producer:        docx2pdf"), "{info}");
    assert!(!info.contains("CreationDate"), "{info}");
}

/// Under PDF/UA a document without a title property takes the text's title, else the
/// file's name (ISO 14289-1 §7.1); a title property is never replaced, and without PDF/UA
/// nothing is added.
#[test]
fn pdfua_takes_a_missing_title_from_the_text_then_the_file_name() {
    use super::{write_with_options, PdfOptions};
    let write_as = |info: DocInfo, pdfua: bool, file_stem: Option<&str>| {
        let doc = Layout { info, ..hello() };
        let options = PdfOptions { pdfua, file_stem: file_stem.map(str::to_owned), ..PdfOptions::default() };
        let (pdf, warnings) = write_with_options(&doc, 1, options).expect("PDF written");
        (String::from_utf8_lossy(&pdf).into_owned(), warnings.iter().map(|w| w.kind).collect::<Vec<_>>())
    };
    let titled = |title: Option<&str>, text: Option<&str>| DocInfo {
        title: title.map(str::to_owned),
        text_title: text.map(str::to_owned),
        ..DocInfo::default()
    };
    let property = write_as(titled(Some("Report"), None), true, None);
    assert_eq!(write_as(titled(Some("Report"), Some("Annual report")), true, Some("q3")), property, "the property wins, byte for byte");
    let (pdf, warnings) = write_as(titled(None, Some("Annual report")), true, Some("q3"));
    assert!(pdf.contains("/Title(Annual report)") && pdf.contains("<rdf:li xml:lang=\"x-default\">Annual report</rdf:li>"), "{pdf}");
    assert!(pdf.contains("/DisplayDocTitle true") && warnings.is_empty(), "{warnings:?}");
    let (pdf, warnings) = write_as(titled(None, None), true, Some("q3"));
    assert!(pdf.contains("/Title(q3)") && pdf.contains("/DisplayDocTitle true") && warnings.is_empty(), "{warnings:?}");
    let (pdf, warnings) = write_as(titled(None, None), true, None);
    assert!(!pdf.contains("/Title") && !pdf.contains("/DisplayDocTitle"));
    assert_eq!(warnings, ["pdfua_no_title"]);
    let (pdf, _) = write_as(titled(None, Some("Annual report")), false, Some("q3"));
    assert!(!pdf.contains("/Title") && !pdf.contains("dc:title") && !pdf.contains("/DisplayDocTitle"), "only under PDF/UA");
}

/// The dark pixels of page 1 rasterised by pdftoppm at 72 dpi (one pixel a point), by row.
fn ink_rows(pdf: &[u8]) -> Vec<usize> {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("out.pdf");
    std::fs::write(&path, pdf).expect("PDF saved");
    let output = Command::new("pdftoppm")
        .args(["-r", "72", "-gray", "-singlefile"])
        .arg(&path)
        .arg(dir.path().join("page"))
        .output()
        .unwrap_or_else(|e| panic!("pdftoppm (poppler-utils) must be installed: {e}"));
    assert!(output.status.success() && output.stderr.is_empty(), "pdftoppm failed: {}", String::from_utf8_lossy(&output.stderr));
    let pgm = std::fs::read(dir.path().join("page.pgm")).expect("the raster");
    // P5 WIDTH HEIGHT 255, one whitespace, then the pixels.
    let header: Vec<&[u8]> = pgm.splitn(5, |b| b.is_ascii_whitespace()).collect();
    let width: usize = std::str::from_utf8(header[1]).unwrap().parse().unwrap();
    let pixels = header[4];
    pixels.chunks(width).map(|row| row.iter().filter(|&&v| v < 128).count()).collect()
}

#[test]
fn text_survives_a_render_without_errors_and_inks_its_line() {
    // "Hello, world." at 12 pt placed 100 pt down: ink within 20 pt of there, none
    // elsewhere; an empty page has none at all.
    let rows = ink_rows(&write_ok(&hello()));
    let inside: usize = rows[80..120].iter().sum();
    let outside: usize = rows.iter().sum::<usize>() - inside;
    assert!(inside > 100 && outside == 0, "ink {inside} in the line's rows, {outside} elsewhere");
    assert_eq!(ink_rows(&write_ok(&layout(vec![page(vec![])]))).iter().sum::<usize>(), 0);
}

#[test]
fn an_unreadable_face_is_an_error() {
    let broken = face(3, b"not a font", "Broken");
    let glyph = Glyph {
        id: 1,
        advance: Pt(5.0),
        offset: Point::default(),
        text: "x".into(),
    };
    let item = Item::Text(TextItem {
        face: broken,
        size: Pt(12.0),
        color: Rgb::BLACK,
        glyphs: vec![glyph],
        rtl: false,
    });
    let err = write(&layout(vec![page(vec![at(0.0, 10.0, item)])])).unwrap_err();
    assert_eq!(err.to_string(), "font Broken could not be read");
}

// ---- output options ----

/// Poppler, which shares no code with our handler, opens the PDF with either password
/// and not without one, and reads the owner's restrictions (ISO 32000-2 §7.6.4).
#[test]
fn an_encrypted_pdf_opens_in_poppler_with_its_passwords_only() {
    use super::{write_with_options, Passwords, PdfOptions};
    let encryption = Passwords::new(Some("open sesame"), Some("boss")).unwrap();
    let (pdf, _) = write_with_options(&hello(), 1, PdfOptions { encryption, ..PdfOptions::default() }).expect("PDF written");
    // The producer, in the Info dictionary and the XMP packet, is no longer readable.
    assert!(find(&pdf, b"docx2pdf").is_none(), "strings and the metadata stream are encrypted");
    let info = poppler("pdfinfo", &["-upw", "open sesame"], &pdf);
    assert!(info.contains("AES-256") && info.contains("print:yes copy:yes change:no addNotes:no"), "{info}");
    assert!(poppler("pdftotext", &["-upw", "open sesame"], &pdf).contains("Hello, world."));
    assert!(poppler("pdftotext", &["-opw", "boss"], &pdf).contains("Hello, world."));
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("locked.pdf");
    std::fs::write(&path, &pdf).expect("PDF saved");
    let attempts: [&[&str]; 2] = [&[], &["-upw", "Open sesame"]];
    for password in attempts {
        let out = Command::new("pdftotext").args(password).arg(&path).arg("-").output().expect("pdftotext runs");
        assert!(!out.status.success(), "opened with {password:?}");
    }
    let owner_only = Passwords::new(None, Some("boss")).unwrap();
    let (pdf, _) = write_with_options(&hello(), 1, PdfOptions { encryption: owner_only, ..PdfOptions::default() }).expect("PDF written");
    assert!(poppler("pdftotext", &[], &pdf).contains("Hello, world."), "anyone may read it");
}

/// The document information given replaces the properties, in Info and XMP alike, with
/// /Creator and xmp:CreatorTool written only when given.
#[test]
fn metadata_given_replaces_the_properties_in_info_and_xmp() {
    use super::{write_with_options, MetadataOverride, PdfOptions};
    let doc = Layout { info: DocInfo { title: Some("Draft".into()), author: Some("Ada".into()), ..DocInfo::default() }, ..hello() };
    let given = MetadataOverride { title: Some("Final & signed".into()), creator: Some("Billing".into()), created: Some("2024-03-01T09:30:00Z".into()), ..MetadataOverride::default() };
    let (pdf, _) = write_with_options(&doc, 1, PdfOptions { metadata: Some(given), ..PdfOptions::default() }).expect("PDF written");
    let text = String::from_utf8_lossy(&pdf);
    assert!(text.contains("/Title(Final & signed)") && text.contains("<rdf:li xml:lang=\"x-default\">Final &amp; signed</rdf:li>"), "{text}");
    assert!(text.contains("/Author(Ada)") && text.contains("<rdf:li>Ada</rdf:li>"), "the rest stays");
    assert!(text.contains("/Creator(Billing)") && text.contains("<xmp:CreatorTool>Billing</xmp:CreatorTool>"));
    assert!(text.contains("<xmp:CreateDate>2024-03-01T09:30:00Z</xmp:CreateDate>"));
    let plain = String::from_utf8_lossy(&write_ok(&doc)).into_owned();
    assert!(!plain.contains("/Creator") && !plain.contains("CreatorTool"));
}

/// Characters DejaVu Sans lacks (two ideographs and a private use character) are drawn as
/// its .notdef glyph: each run's text comes back through /ActualText, never as another
/// character (the ToUnicode CMap maps CID 0 to nothing), they are counted per script, and
/// under PDF/UA and PDF/A-2 they are a conformance finding listed first.
#[test]
fn characters_no_face_has_read_as_themselves_and_are_reported() {
    use super::options::PdfA;
    use super::{write_with_options, PdfOptions};
    let written = "A电B\u{E000}中C";
    let glyphs = shape(&sans(), written, 12.0);
    assert_eq!(glyphs.iter().filter(|g| g.id == 0).count(), 3, "DejaVu Sans has neither Han nor U+E000");
    let doc = layout(vec![page(vec![at(72.0, 100.0, black_12pt(sans(), glyphs))])]);

    let (pdf, warnings) = write_with_options(&doc, 1, PdfOptions::default()).expect("PDF written");
    assert_eq!(pdftotext(&pdf).trim(), written);
    let spans: usize = objects(&pdf).iter().filter_map(|o| o.data.as_deref()).map(|d| String::from_utf8_lossy(d).matches("/ActualText").count()).sum();
    assert_eq!(spans, 2, "one span per .notdef run");
    let details: Vec<String> = warnings.iter().map(|w| format!("{}: {}", w.kind, w.detail.as_deref().unwrap_or(""))).collect();
    assert_eq!(details, ["missing_glyphs: 2 (Han) -> DejaVu Sans", "missing_glyphs: 1 (Unknown) -> DejaVu Sans"]);

    let strict = PdfOptions { pdfua: true, pdfa: Some(PdfA::A2b), file_stem: Some("t".into()), ..PdfOptions::default() };
    let (pdf, warnings) = write_with_options(&doc, 1, strict.clone()).expect("PDF written");
    assert_eq!(pdftotext(&pdf).trim(), written);
    // The findings themselves; the report lists conformance first (changes.rs, and the
    // HTTP test in tests/input_options.rs).
    let mut kinds: Vec<&str> = warnings.iter().map(|w| w.kind).collect();
    kinds.sort_unstable();
    kinds.dedup();
    assert_eq!(kinds, ["missing_glyphs", "pdfa_notdef_glyph", "pdfua_notdef_glyph"]);
    let (_, clean) = write_with_options(&hello(), 1, strict).expect("PDF written");
    assert!(clean.iter().all(|w| !w.kind.contains("notdef") && w.kind != "missing_glyphs"), "{clean:?}");
}
