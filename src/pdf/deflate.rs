//! FlateDecode compression (ISO 32000-1 §7.4.4) with one compressor reused for every stream.

use miniz_oxide::deflate::core::{compress_to_output, CompressorOxide, TDEFLFlush, TDEFLStatus};
use miniz_oxide::DataFormat;

use super::PdfError;

/// Level 1 (greedy matching, a short hash chain): font subsets and content streams come
/// out about 10% larger than at zlib's default 6 for about a third of the time, and
/// compression was the largest cost of writing a short document (every request runs it).
const LEVEL: u8 = 1;

/// A zlib compressor and its output buffer, both kept across streams so that a document
/// allocates the compressor state (hundreds of KB) once rather than per stream.
///
/// miniz_oxide's core is driven directly: its output callback appends to `out`, so no
/// output buffer is zeroed ahead of the compressor (through flate2 every stream zeroed a
/// buffer of its worst-case size, ~20% of a one-page document's compression), and the
/// package reader's inflate can use another backend (zlib-rs) without changing a byte
/// of what is written here.
pub(super) struct Deflater {
    compress: Box<CompressorOxide>,
    out: Vec<u8>,
}

impl Deflater {
    /// A compressor with an empty output buffer.
    pub(super) fn new() -> Deflater {
        let mut compress = Box::<CompressorOxide>::default();
        // FlateDecode expects the zlib wrapper (RFC 1950), not a raw deflate stream.
        compress.set_format_and_level(DataFormat::Zlib, LEVEL);
        Deflater { compress, out: Vec::new() }
    }

    /// Compresses `data`; the result lives until the next call.
    pub(super) fn deflate(&mut self, data: &[u8]) -> Result<&[u8], PdfError> {
        self.compress.reset();
        self.out.clear();
        // Content streams shrink to about a quarter; reserving that much saves most regrowth.
        self.out.reserve(data.len() / 4 + 64);
        let out = &mut self.out;
        let (status, _) = compress_to_output(&mut self.compress, data, TDEFLFlush::Finish, |chunk| {
            out.extend_from_slice(chunk);
            true
        });
        match status {
            TDEFLStatus::Done => Ok(&self.out),
            _ => Err(PdfError::Compress),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn streams_of_any_size_inflate_back_after_a_large_one() {
        let mut d = Deflater::new();
        let noise: Vec<u8> = (0..300_000u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        for data in [
            noise.clone(),
            b"BT /F1 11 Tf (short) Tj ET".to_vec(),
            Vec::new(),
            noise,
        ] {
            let packed = d.deflate(&data).expect("deflate").to_vec();
            let mut back = Vec::new();
            flate2::read::ZlibDecoder::new(&packed[..])
                .read_to_end(&mut back)
                .expect("inflate");
            assert_eq!(back, data);
        }
    }
}
