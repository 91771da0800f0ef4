//! Reading our PDFs back with poppler's tools (installed by `.ci/run`): text, page count,
//! page size, fonts and images.

use super::timed::Timed;
use std::io::Write;
use std::process::Command;

fn with_file<T>(pdf: &[u8], f: impl FnOnce(&std::path::Path) -> T) -> T {
    let mut file = tempfile::NamedTempFile::new().expect("temp file");
    file.write_all(pdf).expect("write pdf");
    f(file.path())
}

fn tool(name: &str, args: &[&str], path: &std::path::Path) -> String {
    let out = Command::new(name)
        .args(args)
        .arg(path)
        .args(if name == "pdftotext" {
            &["-"][..]
        } else {
            &[][..]
        })
        .timed_output()
        .unwrap_or_else(|e| panic!("{name} is needed (apt-get install poppler-utils): {e}"));
    assert!(
        out.status.success(),
        "{name} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The text of the whole document (`pdftotext`).
pub fn text(pdf: &[u8]) -> String {
    with_file(pdf, |p| tool("pdftotext", &[], p))
}

/// The text of one page, counted from 1.
pub fn page_text(pdf: &[u8], page: usize) -> String {
    let n = page.to_string();
    with_file(pdf, |p| tool("pdftotext", &["-f", &n, "-l", &n], p))
}

/// `pdfinfo`'s answer.
pub fn info(pdf: &[u8]) -> String {
    with_file(pdf, |p| tool("pdfinfo", &[], p))
}

/// The number of pages.
pub fn pages(pdf: &[u8]) -> usize {
    info(pdf)
        .lines()
        .find_map(|l| l.strip_prefix("Pages:"))
        .and_then(|v| v.trim().parse().ok())
        .expect("a page count")
}

/// `pdffonts`' answer: one line per embedded font.
pub fn fonts(pdf: &[u8]) -> String {
    with_file(pdf, |p| tool("pdffonts", &[], p))
}

/// `pdfimages -list`'s rows (headers left out): one per image drawn, with its page,
/// kind (`image`, `smask`), pixel size and object number.
pub fn images(pdf: &[u8]) -> Vec<Vec<String>> {
    with_file(pdf, |p| tool("pdfimages", &["-list"], p))
        .lines()
        .skip(2)
        .map(|l| l.split_whitespace().map(str::to_owned).collect())
        .collect()
}

/// The words of a text, for comparisons that ignore line breaks.
pub fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_owned).collect()
}

/// The first image of page 1 as `pdfimages -png` extracts it: size, colour type, samples.
pub fn first_image_pixels(pdf: &[u8]) -> (u32, u32, png::ColorType, Vec<u8>) {
    let dir = tempfile::tempdir().expect("temp dir");
    with_file(pdf, |p| {
        let root = dir.path().join("img");
        tool("pdfimages", &["-png", "-f", "1", "-l", "1", p.to_str().expect("utf-8 path")], &root)
    });
    let file = std::fs::File::open(dir.path().join("img-000.png")).expect("an extracted image");
    let mut reader = png::Decoder::new(std::io::BufReader::new(file)).read_info().expect("png");
    let mut buf = vec![0; reader.output_buffer_size().expect("size")];
    let frame = reader.next_frame(&mut buf).expect("frame");
    buf.truncate(frame.buffer_size());
    (frame.width, frame.height, frame.color_type, buf)
}

/// Page 1 rasterised at 72 dpi, one pixel per point, in RGB.
pub struct RgbPage {
    pub width: usize,
    pub samples: Vec<u8>,
}

impl RgbPage {
    /// The colour of the pixel whose top-left corner is at (x, y) points.
    pub fn pixel(&self, x: usize, y: usize) -> (u8, u8, u8) {
        let at = (y * self.width + x) * 3;
        (self.samples[at], self.samples[at + 1], self.samples[at + 2])
    }
}

/// Page 1 of `pdf` as `pdftoppm -r 72 -png` draws it, or `None` without pdftoppm (the
/// test is then skipped, or fails under `CI=true`, and the caller returns).
pub fn page_pixels(pdf: &[u8]) -> Option<RgbPage> {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("page");
    let status = with_file(pdf, |p| {
        std::process::Command::new("pdftoppm")
            .args(["-r", "72", "-png", "-f", "1", "-l", "1", "-singlefile"])
            .arg(p)
            .arg(&out)
            .timed_status()
    });
    let Ok(status) = status else {
        super::skip::skip("pdftoppm is not installed (apt-get install poppler-utils)");
        return None;
    };
    assert!(status.success(), "pdftoppm failed");
    let file = std::fs::File::open(out.with_extension("png")).expect("pdftoppm output");
    let mut reader = png::Decoder::new(std::io::BufReader::new(file)).read_info().expect("png header");
    let mut samples = vec![0; reader.output_buffer_size().expect("png size")];
    let frame = reader.next_frame(&mut samples).expect("png data");
    assert_eq!(frame.color_type, png::ColorType::Rgb);
    Some(RgbPage { width: frame.width as usize, samples })
}

/// One word as `pdftotext -bbox` places it: its text and box in points from the page's
/// top left, computed by poppler from the font's widths and the text state.
#[derive(Debug, Clone, PartialEq)]
pub struct WordBox {
    pub text: String,
    pub x_min: f64,
    pub y_min: f64,
    pub x_max: f64,
    pub y_max: f64,
}

/// Every word of the document with its box (`pdftotext -bbox`), in reading order.
pub fn word_boxes(pdf: &[u8]) -> Vec<WordBox> {
    let html = with_file(pdf, |p| tool("pdftotext", &["-bbox"], p));
    let attr = |tag: &str, name: &str| -> f64 {
        let start = tag.find(&format!("{name}=\"")).expect("an attribute") + name.len() + 2;
        tag[start..].split('"').next().and_then(|v| v.parse().ok()).expect("a number")
    };
    html.split("<word ")
        .skip(1)
        .filter_map(|w| {
            let (tag, rest) = w.split_once('>')?;
            let text = rest.split("</word>").next()?.to_owned();
            Some(WordBox { text, x_min: attr(tag, "xMin"), y_min: attr(tag, "yMin"), x_max: attr(tag, "xMax"), y_max: attr(tag, "yMax") })
        })
        .collect()
}
