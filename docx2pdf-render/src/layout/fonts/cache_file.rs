//! The little-endian encoding of the font cache files (face index, coverage) and their atomic replacement.

use std::path::Path;

/// Appends little-endian fields to a file's bytes.
#[derive(Debug, Default)]
pub(crate) struct Writer {
    pub bytes: Vec<u8>,
}

impl Writer {
    pub fn raw(&mut self, b: &[u8]) {
        self.bytes.extend_from_slice(b);
    }

    pub fn u8(&mut self, v: u8) {
        self.bytes.push(v);
    }

    pub fn u16(&mut self, v: u16) {
        self.raw(&v.to_le_bytes());
    }

    pub fn u32(&mut self, v: u32) {
        self.raw(&v.to_le_bytes());
    }

    pub fn u64(&mut self, v: u64) {
        self.raw(&v.to_le_bytes());
    }

    /// A count, which every reader checks against what is left of the file.
    pub fn count(&mut self, n: usize) {
        self.u32(n as u32);
    }

    /// A string, its length first.
    pub fn str(&mut self, s: &str) {
        self.count(s.len());
        self.raw(s.as_bytes());
    }
}

/// A cursor over a file's bytes: every read past the end, or of a malformed string, is
/// `None`, so a truncated or foreign file is only a cache miss.
#[derive(Debug)]
pub(crate) struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    pub fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader { bytes, at: 0 }
    }

    pub fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let s = self.bytes.get(self.at..self.at.checked_add(n)?)?;
        self.at += n;
        Some(s)
    }

    fn array<const N: usize>(&mut self) -> Option<[u8; N]> {
        self.take(N)?.try_into().ok()
    }

    pub fn u8(&mut self) -> Option<u8> {
        self.array::<1>().map(|[b]| b)
    }

    pub fn u16(&mut self) -> Option<u16> {
        self.array().map(u16::from_le_bytes)
    }

    pub fn u32(&mut self) -> Option<u32> {
        self.array().map(u32::from_le_bytes)
    }

    pub fn u64(&mut self) -> Option<u64> {
        self.array().map(u64::from_le_bytes)
    }

    /// A count of items of at least `item` bytes each: larger than the rest of the file
    /// could hold means a damaged file, not a huge allocation.
    pub fn count(&mut self, item: usize) -> Option<usize> {
        let n = self.u32()? as usize;
        (n.saturating_mul(item.max(1)) <= self.bytes.len() - self.at).then_some(n)
    }

    pub fn str(&mut self) -> Option<&'a str> {
        let n = self.count(1)?;
        std::str::from_utf8(self.take(n)?).ok()
    }

    /// Whether every byte has been read.
    pub fn at_end(&self) -> bool {
        self.at == self.bytes.len()
    }
}

/// Writes through a temporary file and a rename, so a concurrent reader sees the old file
/// or the new one, never half of one. Failures (a read-only cache folder) are only logged:
/// the caller already has what it needs.
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) {
    let Some(dir) = path.parent() else { return };
    let tmp = dir.join(format!(
        ".{}.{}.tmp",
        path.file_name().unwrap_or_default().to_string_lossy(),
        std::process::id()
    ));
    let result = std::fs::create_dir_all(dir)
        .and_then(|()| std::fs::write(&tmp, bytes))
        .and_then(|()| std::fs::rename(&tmp, path));
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        tracing::debug!(path = %path.display(), error = %e, "font cache not written");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_read_back_in_order_and_short_files_read_as_none() {
        let mut w = Writer::default();
        w.u8(7);
        w.u16(0xBEEF);
        w.u32(123_456);
        w.u64(u64::MAX - 1);
        w.str("Liberation Sans");
        let mut r = Reader::new(&w.bytes);
        assert_eq!(r.u8(), Some(7));
        assert_eq!(r.u16(), Some(0xBEEF));
        assert_eq!(r.u32(), Some(123_456));
        assert_eq!(r.u64(), Some(u64::MAX - 1));
        assert_eq!(r.str(), Some("Liberation Sans"));
        assert!(r.at_end());
        assert_eq!(r.u8(), None);

        // A string whose length runs past the end, and a count too large for the file.
        let cut = &w.bytes[..w.bytes.len() - 1];
        let mut r = Reader::new(cut);
        r.take(15).unwrap();
        assert_eq!(r.str(), None);
        let mut r = Reader::new(&[0xFF, 0xFF, 0, 0, 1, 2]);
        assert_eq!(r.count(1), None);
    }
}
