//! Which characters each installed face maps, read from the cmaps once and kept beside the font index, for the last-resort glyph search.

use std::path::Path;

use fontdb::Database;
use rustybuzz::ttf_parser;

use super::font_index::write_atomically;

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
    let mut r = Reader {
        bytes: &bytes,
        at: 0,
    };
    if r.take(4)? != MAGIC
        || r.u32()? != VERSION
        || r.take(8)? != fingerprint
        || r.u32()? as usize != faces
    {
        return None;
    }
    let mut out = Vec::with_capacity(faces);
    for _ in 0..faces {
        let n = r.u32()? as usize;
        let mut ranges = Vec::with_capacity(n.min(bytes.len() / 8));
        for _ in 0..n {
            ranges.push((r.u32()?, r.u32()?));
        }
        out.push(Coverage { ranges });
    }
    (r.at == bytes.len()).then_some(out)
}

/// Writes the coverage file for the index with `fingerprint` (best effort).
pub(crate) fn store(path: &Path, fingerprint: &[u8; 8], coverage: &[Coverage]) {
    let mut bytes = Vec::new();
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&VERSION.to_le_bytes());
    bytes.extend_from_slice(fingerprint);
    bytes.extend_from_slice(&(coverage.len() as u32).to_le_bytes());
    for c in coverage {
        bytes.extend_from_slice(&(c.ranges.len() as u32).to_le_bytes());
        for (start, end) in &c.ranges {
            bytes.extend_from_slice(&start.to_le_bytes());
            bytes.extend_from_slice(&end.to_le_bytes());
        }
    }
    write_atomically(path, &bytes);
}

/// A cursor over the little-endian file.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let s = self.bytes.get(self.at..self.at + n)?;
        self.at += n;
        Some(s)
    }

    fn u32(&mut self) -> Option<u32> {
        self.take(4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
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
