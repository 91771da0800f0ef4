//! FlateDecode compression (ISO 32000-1 §7.4.4) with one compressor reused for every stream.

use flate2::{Compress, Compression, FlushCompress, Status};

use super::PdfError;

/// Level 6 is zlib's default: nearly the ratio of 9 at a fraction of its time, which
/// matters because every HTTP request runs the writer.
const LEVEL: u32 = 6;

/// A zlib compressor and its output buffer, both kept across streams so that a document
/// allocates the compressor state (hundreds of KB) once rather than per stream.
pub(super) struct Deflater {
    compress: Compress,
    out: Vec<u8>,
}

impl Deflater {
    /// A compressor with an empty output buffer.
    pub(super) fn new() -> Deflater {
        Deflater {
            // FlateDecode expects the zlib wrapper (RFC 1950), not a raw deflate stream.
            compress: Compress::new(Compression::new(LEVEL), true),
            out: Vec::new(),
        }
    }

    /// Compresses `data`; the result lives until the next call.
    pub(super) fn deflate(&mut self, data: &[u8]) -> Result<&[u8], PdfError> {
        self.compress.reset();
        self.out.clear();
        self.out.reserve(data.len() / 2 + 64);
        loop {
            let consumed = self.compress.total_in() as usize;
            let status = self
                .compress
                .compress_vec(&data[consumed..], &mut self.out, FlushCompress::Finish)
                .map_err(|_| PdfError::Compress)?;
            match status {
                Status::StreamEnd => return Ok(&self.out),
                // `compress_vec` only fills spare capacity: grow and go on.
                Status::Ok | Status::BufError => self.out.reserve(self.out.len().max(1024)),
            }
        }
    }
}
