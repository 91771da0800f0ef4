//! FlateDecode compression (ISO 32000-1 §7.4.4) with one compressor reused for every stream.

use flate2::{Compress, Compression, FlushCompress, Status};

use super::PdfError;

/// Level 1 (greedy matching, a short hash chain): font subsets and content streams come
/// out about 10% larger than at zlib's default 6 for about a third of the time, and
/// compression was the largest cost of writing a short document (every request runs it).
const LEVEL: u32 = 1;

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
        // zlib's compressBound: what even incompressible input needs. The buffer is sized
        // (and zeroed) for this input only: `compress_vec` would zero the whole capacity
        // kept from the largest earlier stream on every call, which cost more than the
        // compression itself on long documents.
        let n = data.len();
        let bound = n + (n >> 12) + (n >> 14) + (n >> 25) + 13 + 6;
        self.out.clear();
        self.out.resize(bound, 0);
        loop {
            let consumed = self.compress.total_in() as usize;
            let produced = self.compress.total_out() as usize;
            let status = self
                .compress
                .compress(
                    &data[consumed..],
                    &mut self.out[produced..],
                    FlushCompress::Finish,
                )
                .map_err(|_| PdfError::Compress)?;
            match status {
                Status::StreamEnd => {
                    self.out.truncate(self.compress.total_out() as usize);
                    return Ok(&self.out);
                }
                Status::Ok | Status::BufError => {
                    let grown = self.out.len() * 2 + 1024;
                    self.out.resize(grown, 0);
                }
            }
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
