//! EMF and WMF records ([MS-EMF] §2.3, [MS-WMF] §2.3): the framing that the text reader
//! (docx) and the bitmap reader (pdf) both walk. A record whose size runs past the data,
//! or is smaller than its own header, ends the walk; so does the record budget.

use crate::bytes::{u16_le, u32_le};

/// The key a placeable WMF starts with (its 22-byte header before the standard one).
pub const PLACEABLE_KEY: u32 = 0x9AC6_CDD7;

/// The records of an EMF, from its header record on: (type, the whole record), at most
/// `budget` of them.
pub fn emf_records(d: &[u8], budget: usize) -> impl Iterator<Item = (u32, &[u8])> {
    let mut at = 0usize;
    std::iter::from_fn(move || {
        let (kind, size) = (u32_le(d, at)?, u32_le(d, at.checked_add(4)?)? as usize);
        if size < 8 || at.checked_add(size)? > d.len() {
            return None;
        }
        let rec = &d[at..at + size];
        at += size;
        Some((kind, rec))
    })
    .take(budget)
}

/// The records of a WMF, placeable or not, after its standard header: (function, the whole
/// record), at most `budget` of them; `None` without a header.
pub fn wmf_records(d: &[u8], budget: usize) -> Option<impl Iterator<Item = (u16, &[u8])>> {
    let start = if u32_le(d, 0) == Some(PLACEABLE_KEY) { 22 } else { 0 };
    // The standard header: its size in words at +2.
    let mut at = start + usize::from(u16_le(d, start + 2)?) * 2;
    Some(
        std::iter::from_fn(move || {
            let (words, function) = (u32_le(d, at)?, u16_le(d, at.checked_add(4)?)?);
            let size = (words as usize).checked_mul(2)?;
            if size < 6 || at.checked_add(size)? > d.len() {
                return None;
            }
            let rec = &d[at..at + size];
            at += size;
            Some((function, rec))
        })
        .take(budget),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_are_walked_until_one_runs_past_the_data() {
        let mut emf = Vec::new();
        for (kind, size) in [(1u32, 12u32), (14, 8)] {
            emf.extend_from_slice(&kind.to_le_bytes());
            emf.extend_from_slice(&size.to_le_bytes());
            emf.resize(emf.len() + size as usize - 8, 0);
        }
        emf.extend_from_slice(&[7, 0, 0, 0, 200, 0, 0, 0]);
        let kinds: Vec<u32> = emf_records(&emf, 100).map(|(k, _)| k).collect();
        assert_eq!(kinds, [1, 14]);
        assert_eq!(emf_records(&emf, 1).count(), 1);

        // A standard header of 9 words, then a 3-word record and the EOF record.
        let mut wmf = vec![1, 0, 9, 0];
        wmf.resize(18, 0);
        wmf.extend_from_slice(&[3, 0, 0, 0, 0x1E, 0x01]);
        wmf.extend_from_slice(&[3, 0, 0, 0, 0, 0]);
        let functions: Vec<u16> = wmf_records(&wmf, 100).expect("a header").map(|(f, _)| f).collect();
        assert_eq!(functions, [0x011E, 0]);
    }
}
