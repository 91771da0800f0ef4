//! The mutations of the fuzz harness: raw bit flips and cuts, zip entries truncated,
//! swapped, dropped or corrupted, and XML edits inside a part (elements deleted,
//! duplicated or swapped, attribute values pushed to extremes, text cut).

use std::io::{Cursor, Read, Write};

use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipArchive, ZipWriter};

/// A small deterministic generator (SplitMix64), so a run is reproduced from its seed.
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Attribute values that stress number parsing and unit arithmetic.
const EXTREMES: &[&str] = &[
    "0", "-1", "-2147483648", "2147483647", "4294967295", "99999999999999999999", "-99999999999",
    "1e308", "NaN", "", "auto", "100%", "-100%", "0x7fffffff", "﷐", "31680", "-31680", "9999pt",
];

/// One input: `seed` mutated once or a few times. Returns the bytes and what was done.
pub fn mutate(seed: &[u8], rng: &mut Rng) -> (Vec<u8>, String) {
    let rounds = 1 + rng.below(3);
    let mut bytes = seed.to_vec();
    let mut done = Vec::new();
    for _ in 0..rounds {
        let (next, what) = match rng.below(10) {
            0 | 1 => bit_flips(&bytes, rng),
            2 => raw_cut(&bytes, rng),
            3 => entry_level(&bytes, rng),
            _ => xml_level(&bytes, rng),
        };
        bytes = next;
        done.push(what);
    }
    (bytes, done.join(", "))
}

fn bit_flips(bytes: &[u8], rng: &mut Rng) -> (Vec<u8>, String) {
    let mut out = bytes.to_vec();
    let flips = 1 + rng.below(8);
    for _ in 0..flips {
        if out.is_empty() {
            break;
        }
        let at = rng.below(out.len());
        out[at] ^= 1 << rng.below(8);
    }
    (out, format!("{flips} bit flips"))
}

fn raw_cut(bytes: &[u8], rng: &mut Rng) -> (Vec<u8>, String) {
    let at = rng.below(bytes.len() + 1);
    if rng.below(2) == 0 {
        (bytes[..at].to_vec(), format!("file cut at {at}"))
    } else {
        // Overwrite a run of bytes inside the file (a damaged entry or header).
        let mut out = bytes.to_vec();
        let len = (1 + rng.below(64)).min(out.len().saturating_sub(at));
        for b in &mut out[at..at + len] {
            *b = rng.next() as u8;
        }
        (out, format!("{len} bytes garbled at {at}"))
    }
}

/// The entries of a zip, or `None` when it no longer reads.
fn entries(bytes: &[u8]) -> Option<Vec<(String, Vec<u8>)>> {
    let mut zip = ZipArchive::new(Cursor::new(bytes)).ok()?;
    let mut out = Vec::new();
    for i in 0..zip.len().min(400) {
        let mut file = zip.by_index(i).ok()?;
        let name = String::from_utf8_lossy(file.name_raw()).into_owned();
        let mut data = Vec::new();
        file.by_ref().take(32 << 20).read_to_end(&mut data).ok()?;
        out.push((name, data));
    }
    Some(out)
}

fn rezip(entries: &[(String, Vec<u8>)], rng: &mut Rng) -> Vec<u8> {
    let mut zip = ZipWriter::new(Cursor::new(Vec::new()));
    let method = if rng.below(4) == 0 { CompressionMethod::Stored } else { CompressionMethod::Deflated };
    let options = SimpleFileOptions::default().compression_method(method);
    for (name, data) in entries {
        if zip.start_file(name.as_str(), options).is_err() {
            continue;
        }
        let _ = zip.write_all(data);
    }
    zip.finish().map(|c| c.into_inner()).unwrap_or_default()
}

fn entry_level(bytes: &[u8], rng: &mut Rng) -> (Vec<u8>, String) {
    let Some(mut list) = entries(bytes) else { return bit_flips(bytes, rng) };
    if list.is_empty() {
        return bit_flips(bytes, rng);
    }
    let i = rng.below(list.len());
    let what = match rng.below(4) {
        0 => {
            let keep = rng.below(list[i].1.len() + 1);
            list[i].1.truncate(keep);
            format!("entry {} truncated to {keep} bytes", list[i].0)
        }
        1 => {
            let j = rng.below(list.len());
            let (a, b) = (list[i].1.clone(), list[j].1.clone());
            list[i].1 = b;
            list[j].1 = a;
            format!("entries {} and {} swapped", list[i].0, list[j].0)
        }
        2 => {
            let (name, _) = list.remove(i);
            format!("entry {name} dropped")
        }
        _ => {
            let j = rng.below(list.len());
            let name = list[j].0.clone();
            let old = std::mem::replace(&mut list[i].0, name.clone());
            format!("entry {old} renamed to {name}")
        }
    };
    (rezip(&list, rng), what)
}

fn xml_level(bytes: &[u8], rng: &mut Rng) -> (Vec<u8>, String) {
    let Some(mut list) = entries(bytes) else { return bit_flips(bytes, rng) };
    let xml: Vec<usize> = (0..list.len()).filter(|&i| list[i].1.first() == Some(&b'<') || list[i].0.ends_with(".xml")).collect();
    if xml.is_empty() {
        return entry_level(bytes, rng);
    }
    // The main document most of the time: it holds most of what the renderer does.
    let i = match list.iter().position(|(n, _)| n == "word/document.xml") {
        Some(main) if rng.below(3) > 0 => main,
        _ => xml[rng.below(xml.len())],
    };
    let (data, what) = edit_xml(&list[i].1, rng);
    list[i].1 = data;
    let what = format!("{what} in {}", list[i].0);
    (rezip(&list, rng), what)
}

/// One edit of an XML text.
pub fn edit_xml(xml: &[u8], rng: &mut Rng) -> (Vec<u8>, String) {
    let kind = rng.below(6);
    if kind == 5 {
        let at = rng.below(xml.len() + 1);
        return (xml[..at].to_vec(), format!("text cut at {at}"));
    }
    if kind == 4 {
        return extreme_attribute(xml, rng);
    }
    let Some(a) = random_element(xml, rng) else { return (xml.to_vec(), "no element".into()) };
    match kind {
        0 => {
            let mut out = xml[..a.0].to_vec();
            out.extend_from_slice(&xml[a.1..]);
            (out, format!("element at {} deleted", a.0))
        }
        1 => {
            let most = if rng.below(8) == 0 { 200 } else { 3 };
            let copies = 1 + rng.below(most);
            let mut out = xml[..a.1].to_vec();
            for _ in 0..copies {
                out.extend_from_slice(&xml[a.0..a.1]);
            }
            out.extend_from_slice(&xml[a.1..]);
            (out, format!("element at {} duplicated {copies} times", a.0))
        }
        _ => {
            let Some(b) = random_element(xml, rng) else { return (xml.to_vec(), "no element".into()) };
            let (first, second) = if a.0 <= b.0 { (a, b) } else { (b, a) };
            if first.1 > second.0 {
                // Nested: move the inner element out after the outer one.
                let mut out = xml[..second.0].to_vec();
                out.extend_from_slice(&xml[second.1..first.1]);
                out.extend_from_slice(&xml[second.0..second.1]);
                out.extend_from_slice(&xml[first.1..]);
                return (out, format!("element at {} moved out of {}", second.0, first.0));
            }
            let mut out = xml[..first.0].to_vec();
            out.extend_from_slice(&xml[second.0..second.1]);
            out.extend_from_slice(&xml[first.1..second.0]);
            out.extend_from_slice(&xml[first.0..first.1]);
            out.extend_from_slice(&xml[second.1..]);
            (out, format!("elements at {} and {} swapped", first.0, second.0))
        }
    }
}

fn extreme_attribute(xml: &[u8], rng: &mut Rng) -> (Vec<u8>, String) {
    let quotes: Vec<usize> = xml.windows(2).enumerate().filter(|(_, w)| w == b"=\"").map(|(i, _)| i + 2).collect();
    if quotes.is_empty() {
        return (xml.to_vec(), "no attribute".into());
    }
    let start = quotes[rng.below(quotes.len())];
    let Some(len) = xml[start..].iter().position(|&b| b == b'"') else { return (xml.to_vec(), "no attribute".into()) };
    let value = EXTREMES[rng.below(EXTREMES.len())];
    let mut out = xml[..start].to_vec();
    out.extend_from_slice(value.as_bytes());
    out.extend_from_slice(&xml[start + len..]);
    (out, format!("attribute at {start} set to {value:?}"))
}

/// The byte range of a random element (start tag to matching end tag), found without a
/// parser so that it also works on text earlier rounds have damaged.
fn random_element(xml: &[u8], rng: &mut Rng) -> Option<(usize, usize)> {
    let starts: Vec<usize> = xml
        .windows(2)
        .enumerate()
        .filter(|(_, w)| w[0] == b'<' && w[1].is_ascii_alphabetic())
        .map(|(i, _)| i)
        .collect();
    if starts.is_empty() {
        return None;
    }
    let start = starts[rng.below(starts.len())];
    let name_end = start + 1 + xml[start + 1..].iter().position(|b| b" \t\r\n/>".contains(b))?;
    let name = &xml[start + 1..name_end];
    let tag_end = name_end + xml[name_end..].iter().position(|&b| b == b'>')?;
    if xml[tag_end - 1] == b'/' {
        return Some((start, tag_end + 1));
    }
    let mut depth = 1;
    let mut at = tag_end + 1;
    while at < xml.len() {
        let rest = &xml[at..];
        if rest.starts_with(b"</") && rest[2..].starts_with(name) && rest.get(2 + name.len()) == Some(&b'>') {
            depth -= 1;
            if depth == 0 {
                return Some((start, at + 3 + name.len()));
            }
        } else if rest.starts_with(b"<")
            && rest[1..].starts_with(name)
            && rest.get(1 + name.len()).is_some_and(|b| b" \t\r\n/>".contains(b))
        {
            let close = rest.iter().position(|&b| b == b'>')?;
            if rest[close - 1] != b'/' {
                depth += 1;
            }
        }
        at += 1;
    }
    None
}
