//! The project's fidelity scorer: one PDF of ours against its reference on text, pages,
//! visual and lines placed, read back with poppler's tools (pdfinfo, pdftotext, pdftoppm).
//! The measures follow `../shared/fidelity` (fidelity.py, lines.py) with poppler alone.

use std::collections::HashMap;
use std::path::Path;
use std::process::Command;

use crate::common::timed::Timed;

/// Raster resolution of the visual score.
const DPI: u32 = 40;
/// Grey levels below this are ink.
const INK: u8 = 200;
/// Ink within this many pixels (about 1.3 mm at 40 dpi) of the other's ink still matches.
const REACH: usize = 2;
/// A line of ours is placed when on the reference's page within this many points of it.
const PLACED_PT: f64 = 2.0;

/// The scores of one document.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Score {
    /// F1 of the multisets of words pdftotext reads.
    pub text: f64,
    /// Whether the page counts are equal.
    pub pages: bool,
    /// Mean over pages of the F1 of ink overlap; a missing or extra page scores 0.
    pub visual: f64,
    /// The share of the reference's lines we set on the same page within 2 pt of it.
    pub placed: f64,
}

/// Scores `ours` against `reference`; `scratch` is an empty folder for the rasters.
pub fn score(ours: &Path, reference: &Path, scratch: &Path) -> Result<Score, String> {
    let (ours_lines, ref_lines) = (lines(ours)?, lines(reference)?);
    Ok(Score {
        text: text_f1(&words(ours)?, &words(reference)?),
        pages: page_count(ours)? == page_count(reference)?,
        visual: visual(ours, reference, scratch)?,
        placed: placed(&ours_lines, &ref_lines),
    })
}

fn poppler(tool: &str, args: &[&str], pdf: &Path) -> Result<Vec<u8>, String> {
    let out = Command::new(tool).args(args).arg(pdf).args(if tool == "pdftotext" { &["-"][..] } else { &[][..] }).timed_output();
    let out = out.map_err(|e| format!("{tool}: {e} (apt-get install poppler-utils)"))?;
    if !out.status.success() {
        return Err(format!("{tool} {}: {}", pdf.display(), String::from_utf8_lossy(&out.stderr).trim()));
    }
    Ok(out.stdout)
}

fn page_count(pdf: &Path) -> Result<usize, String> {
    let info = String::from_utf8_lossy(&poppler("pdfinfo", &[], pdf)?).into_owned();
    info.lines()
        .find_map(|l| l.strip_prefix("Pages:"))
        .and_then(|n| n.trim().parse().ok())
        .ok_or_else(|| format!("pdfinfo gives no page count for {}", pdf.display()))
}

/// A word as both sides write it: soft hyphens and zero-width spaces dropped, Word's
/// symbol-font bullets (U+F0xx) and the Unicode ones made one.
fn normal(word: &str) -> String {
    word.chars()
        .filter(|c| !matches!(c, '\u{ad}' | '\u{200b}'))
        .map(|c| if ('\u{f020}'..='\u{f0ff}').contains(&c) || "•▪●◦■□➢✓·".contains(c) { '•' } else { c })
        .collect()
}

fn words(pdf: &Path) -> Result<Vec<String>, String> {
    let text = poppler("pdftotext", &["-enc", "UTF-8"], pdf)?;
    Ok(String::from_utf8_lossy(&text).split_whitespace().map(normal).filter(|w| !w.is_empty()).collect())
}

fn text_f1(ours: &[String], reference: &[String]) -> f64 {
    if ours.is_empty() && reference.is_empty() {
        return 1.0;
    }
    let mut counts: HashMap<&str, i64> = HashMap::new();
    for w in reference {
        *counts.entry(w).or_default() += 1;
    }
    let mut common = 0;
    for w in ours {
        if let Some(n) = counts.get_mut(w.as_str()).filter(|n| **n > 0) {
            *n -= 1;
            common += 1;
        }
    }
    f1(common as f64 / ours.len().max(1) as f64, common as f64 / reference.len().max(1) as f64)
}

fn f1(precision: f64, recall: f64) -> f64 {
    if precision + recall == 0.0 {
        0.0
    } else {
        2.0 * precision * recall / (precision + recall)
    }
}

/// A greyscale page: width, height and one byte a pixel.
struct Raster {
    width: usize,
    height: usize,
    grey: Vec<u8>,
}

fn rasters(pdf: &Path, scratch: &Path, tag: &str) -> Result<Vec<Raster>, String> {
    let prefix = scratch.join(tag);
    let out = Command::new("pdftoppm").args(["-r", &DPI.to_string(), "-gray"]).arg(pdf).arg(&prefix).timed_output();
    let out = out.map_err(|e| format!("pdftoppm: {e} (apt-get install poppler-utils)"))?;
    if !out.status.success() {
        return Err(format!("pdftoppm {}: {}", pdf.display(), String::from_utf8_lossy(&out.stderr).trim()));
    }
    let mut pages: Vec<(usize, std::path::PathBuf)> = std::fs::read_dir(scratch)
        .map_err(|e| e.to_string())?
        .flatten()
        .map(|e| e.path())
        .filter_map(|p| {
            let stem = p.file_stem()?.to_str()?.to_owned();
            let n = stem.strip_prefix(&format!("{tag}-"))?.parse().ok()?;
            Some((n, p))
        })
        .collect();
    pages.sort();
    pages.into_iter().map(|(_, p)| read_pgm(&p)).collect()
}

/// Reads a binary PGM (P5, 8 bits), as pdftoppm writes it.
fn read_pgm(path: &Path) -> Result<Raster, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let mut fields = Vec::new();
    let mut at = 0;
    while fields.len() < 4 {
        while at < bytes.len() && bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        let start = at;
        while at < bytes.len() && !bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        fields.push(String::from_utf8_lossy(&bytes[start..at]).into_owned());
    }
    let bad = || format!("{} is no 8-bit P5 PGM", path.display());
    let (width, height): (usize, usize) = (fields[1].parse().map_err(|_| bad())?, fields[2].parse().map_err(|_| bad())?);
    let grey = bytes.get(at + 1..at + 1 + width * height).ok_or_else(bad)?.to_vec();
    if fields[0] != "P5" || fields[3] != "255" {
        return Err(bad());
    }
    Ok(Raster { width, height, grey })
}

/// The ink of a page on a canvas of `width` × `height` (cropped or padded with paper).
fn ink(page: &Raster, width: usize, height: usize) -> Vec<bool> {
    let mut mask = vec![false; width * height];
    for y in 0..height.min(page.height) {
        for x in 0..width.min(page.width) {
            mask[y * width + x] = page.grey[y * page.width + x] < INK;
        }
    }
    mask
}

/// Whether `mask` has ink within [`REACH`] pixels of (x, y), either way.
fn near(mask: &[bool], width: usize, height: usize, x: usize, y: usize) -> bool {
    let (x0, x1) = (x.saturating_sub(REACH), (x + REACH).min(width - 1));
    (y.saturating_sub(REACH)..=(y + REACH).min(height - 1)).any(|yy| mask[yy * width + x0..=yy * width + x1].contains(&true))
}

/// The ink of `a` that `b` has ink near.
fn hits(a: &[bool], b: &[bool], width: usize, height: usize) -> usize {
    a.iter().enumerate().filter(|(i, &ink)| ink && near(b, width, height, i % width, i / width)).count()
}

fn page_f1(ours: &[bool], reference: &[bool], width: usize, height: usize) -> f64 {
    let (a, b) = (ours.iter().filter(|&&v| v).count(), reference.iter().filter(|&&v| v).count());
    if a == 0 && b == 0 {
        return 1.0;
    }
    if a == 0 || b == 0 {
        return 0.0;
    }
    f1(hits(ours, reference, width, height) as f64 / a as f64, hits(reference, ours, width, height) as f64 / b as f64)
}

fn visual(ours: &Path, reference: &Path, scratch: &Path) -> Result<f64, String> {
    let (ours, reference) = (rasters(ours, scratch, "ours")?, rasters(reference, scratch, "ref")?);
    let pages = ours.len().max(reference.len());
    if pages == 0 {
        return Ok(1.0);
    }
    let total: f64 = ours
        .iter()
        .zip(&reference)
        .map(|(o, r)| page_f1(&ink(o, r.width, r.height), &ink(r, r.width, r.height), r.width, r.height))
        .sum();
    Ok(total / pages as f64)
}

/// One line of text: its page, the bottom of its box (points from the top), its words.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    pub page: usize,
    pub bottom: f64,
    pub text: String,
}

/// The lines pdftotext finds (`-bbox-layout`), in reading order.
fn lines(pdf: &Path) -> Result<Vec<Line>, String> {
    let xml = String::from_utf8_lossy(&poppler("pdftotext", &["-bbox-layout", "-enc", "UTF-8"], pdf)?).into_owned();
    let mut lines = Vec::new();
    for (page, body) in xml.split("<page ").skip(1).enumerate() {
        for line in body.split("<line ").skip(1) {
            let Some(bottom) = attribute(line, "yMax").and_then(|v| v.parse().ok()) else { continue };
            let words: Vec<String> = line
                .split("<word ")
                .skip(1)
                .filter_map(|w| w.split_once('>').and_then(|(_, rest)| rest.split_once("</word>")).map(|(t, _)| normal(&unescape(t))))
                .filter(|w| !w.trim().is_empty())
                .collect();
            if !words.is_empty() {
                lines.push(Line { page: page + 1, bottom, text: words.join(" ") });
            }
        }
    }
    Ok(lines)
}

fn attribute<'a>(element: &'a str, name: &str) -> Option<&'a str> {
    let head = element.split('>').next()?;
    let start = head.find(&format!("{name}=\""))? + name.len() + 2;
    head[start..].split('"').next()
}

fn unescape(text: &str) -> String {
    text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&apos;", "'").replace("&#39;", "'").replace("&amp;", "&")
}

/// The share of the reference's lines that, aligned with ours by their text (a longest
/// common subsequence), sit on the same page within [`PLACED_PT`].
pub fn placed(ours: &[Line], reference: &[Line]) -> f64 {
    if reference.is_empty() {
        return if ours.is_empty() { 1.0 } else { 0.0 };
    }
    let placed = aligned(ours, reference)
        .into_iter()
        .filter(|&(o, r)| ours[o].page == reference[r].page && (ours[o].bottom - reference[r].bottom).abs() <= PLACED_PT)
        .count();
    placed as f64 / reference.len() as f64
}

/// Pairs of indices (ours, reference) of lines with equal text, in order: a longest common
/// subsequence after the common head and tail are taken off.
fn aligned(ours: &[Line], reference: &[Line]) -> Vec<(usize, usize)> {
    let head = ours.iter().zip(reference).take_while(|(o, r)| o.text == r.text).count();
    let tail = ours[head..].iter().rev().zip(reference[head..].iter().rev()).take_while(|(o, r)| o.text == r.text).count();
    // The texts as numbers, so the table compares integers.
    let mut ids = HashMap::new();
    let mut id = |l: &Line| {
        let next = ids.len();
        *ids.entry(l.text.clone()).or_insert(next)
    };
    let a: Vec<usize> = ours[head..ours.len() - tail].iter().map(&mut id).collect();
    let b: Vec<usize> = reference[head..reference.len() - tail].iter().map(&mut id).collect();
    let mut pairs: Vec<(usize, usize)> = (0..head).map(|i| (i, i)).collect();
    // Lengths of the common subsequences of the suffixes a[i..] and b[j..].
    let width = b.len() + 1;
    let mut table = vec![0u32; (a.len() + 1) * width];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            table[i * width + j] = if a[i] == b[j] {
                table[(i + 1) * width + j + 1] + 1
            } else {
                table[(i + 1) * width + j].max(table[i * width + j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if a[i] == b[j] {
            pairs.push((head + i, head + j));
            i += 1;
            j += 1;
        } else if table[(i + 1) * width + j] >= table[i * width + j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    pairs.extend((0..tail).map(|k| (ours.len() - tail + k, reference.len() - tail + k)));
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(page: usize, bottom: f64, text: &str) -> Line {
        Line { page, bottom, text: text.to_owned() }
    }

    #[test]
    fn a_line_is_placed_within_two_points_on_its_page_and_aligned_by_its_text() {
        let reference = [line(1, 100.0, "a b"), line(1, 114.0, "c d"), line(2, 72.0, "e f"), line(2, 86.0, "g")];
        let ours = [line(1, 101.5, "a b"), line(1, 117.0, "c d"), line(1, 131.0, "inserted"), line(2, 72.0, "e f"), line(2, 86.0, "g")];
        assert_eq!(placed(&ours, &reference), 0.75);
        assert_eq!(placed(&reference, &reference), 1.0);
        assert_eq!(placed(&[], &reference), 0.0);
    }

    #[test]
    fn visual_overlap_forgives_two_pixels_and_no_more() {
        let (w, h) = (20, 20);
        let mut a = vec![false; w * h];
        let mut b = vec![false; w * h];
        let mut c = vec![false; w * h];
        for y in 5..10 {
            a[y * w + 5] = true;
            b[y * w + 7] = true;
            c[y * w + 8] = true;
        }
        assert_eq!(page_f1(&a, &b, w, h), 1.0);
        assert_eq!(page_f1(&a, &c, w, h), 0.0);
        assert_eq!(page_f1(&a, &vec![false; w * h], w, h), 0.0);
    }

    #[test]
    fn text_f1_counts_repeated_words_once_each() {
        let words = |s: &str| s.split(' ').map(str::to_owned).collect::<Vec<_>>();
        assert_eq!(text_f1(&words("a a b"), &words("a a b")), 1.0);
        assert!((text_f1(&words("a a"), &words("a b")) - 0.5).abs() < 1e-9);
    }
}
