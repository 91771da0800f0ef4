//! Which characters each installed face maps, read from the cmaps once and kept beside the font index, for the last-resort glyph search.

use std::path::Path;

use fontdb::Database;
use rustybuzz::ttf_parser;

use crate::layout::cache_file::{write_atomically, Reader, Writer};

const MAGIC: &[u8; 4] = b"D2PC";
const VERSION: u32 = 1;

/// The characters one face maps to a real glyph, as sorted disjoint inclusive ranges.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct Coverage {
    ranges: Vec<(u32, u32)>,
}

impl Coverage {
    /// Whether the face maps `c`.
    pub fn contains(&self, c: char) -> bool {
        let u = u32::from(c);
        let i = self.ranges.partition_point(|(_, end)| *end < u);
        self.ranges.get(i).is_some_and(|(start, _)| *start <= u)
    }

    /// Reads the cmap of a face: every code with a glyph other than .notdef in any
    /// subtable, plus, for Windows symbol subtables (platform 3, encoding 0), the codes
    /// below U+0100 whose U+F000 + code is mapped (how Word addresses symbol fonts).
    pub fn of_face(face: &ttf_parser::Face<'_>) -> Coverage {
        let mut codes = Vec::new();
        if let Some(cmap) = face.tables().cmap {
            for s in cmap.subtables {
                s.codepoints(|cp| {
                    if s.glyph_index(cp).is_some_and(|g| g.0 != 0) {
                        codes.push(cp);
                    }
                });
                if s.platform_id == ttf_parser::PlatformId::Windows && s.encoding_id == 0 {
                    codes.extend(
                        (0..0x100)
                            .filter(|code| s.glyph_index(0xF000 + code).is_some_and(|g| g.0 != 0)),
                    );
                }
            }
        }
        codes.sort_unstable();
        codes.dedup();
        let mut ranges: Vec<(u32, u32)> = Vec::new();
        for c in codes {
            match ranges.last_mut() {
                Some((_, end)) if *end + 1 == c => *end = c,
                _ => ranges.push((c, c)),
            }
        }
        Coverage { ranges }
    }
}

/// The coverage of every face of `db`, in database order (unreadable faces cover nothing).
pub(crate) fn compute(db: &Database) -> Vec<Coverage> {
    db.faces()
        .map(|info| {
            db.with_face_data(info.id, |data, index| {
                ttf_parser::Face::parse(data, index)
                    .ok()
                    .map(|f| Coverage::of_face(&f))
            })
            .flatten()
            .unwrap_or_default()
        })
        .collect()
}

/// Reads a coverage file written for the index with `fingerprint` and `faces` faces.
pub(crate) fn load(path: &Path, fingerprint: &[u8; 8], faces: usize) -> Option<Vec<Coverage>> {
    let bytes = std::fs::read(path).ok()?;
    let mut r = Reader::new(&bytes);
    if r.take(4)? != MAGIC || r.u32()? != VERSION || r.take(8)? != fingerprint || r.u32()? as usize != faces {
        return None;
    }
    let mut out = Vec::with_capacity(faces);
    for _ in 0..faces {
        let n = r.count(8)?;
        let mut ranges = Vec::with_capacity(n);
        for _ in 0..n {
            ranges.push((r.u32()?, r.u32()?));
        }
        out.push(Coverage { ranges });
    }
    r.at_end().then_some(out)
}

/// Writes the coverage file for the index with `fingerprint` (best effort).
pub(crate) fn store(path: &Path, fingerprint: &[u8; 8], coverage: &[Coverage]) {
    let mut w = Writer::default();
    w.raw(MAGIC);
    w.u32(VERSION);
    w.raw(fingerprint);
    w.count(coverage.len());
    for c in coverage {
        w.count(c.ranges.len());
        for &(start, end) in &c.ranges {
            w.u32(start);
            w.u32(end);
        }
    }
    write_atomically(path, &w.bytes);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dejavu() -> Coverage {
        let data = dejavu::sans::regular();
        Coverage::of_face(&ttf_parser::Face::parse(data, 0).expect("DejaVu parses"))
    }

    #[test]
    fn coverage_holds_what_the_cmap_maps_and_nothing_else() {
        let c = dejavu();
        assert!(c.contains('A') && c.contains('é') && c.contains('Ω'));
        assert!(!c.contains('中'));
        assert!(!c.contains('\u{10FFFF}'));
    }

    #[test]
    fn a_coverage_file_reads_back_only_for_its_index() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("coverage.bin");
        let all = vec![dejavu(), Coverage::default()];
        store(&path, b"12345678", &all);
        assert_eq!(load(&path, b"12345678", 2), Some(all));
        assert_eq!(load(&path, b"87654321", 2), None);
        assert_eq!(load(&path, b"12345678", 3), None);
    }
}
