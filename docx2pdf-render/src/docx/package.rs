//! The zip container with the upload limits: entry count, per-entry size (declared and
//! actual), total size, compression ratio and PNG pixel count. Parts are read lazily, by
//! name, once.

use std::io::{Cursor, Read};

use flate2::{Decompress, FlushDecompress, Status};
use zip::result::ZipError;
use zip::{CompressionMethod, ZipArchive};

use super::{DocxError, PackageLimits};

/// Entries above this size must also respect `PackageLimits::max_ratio`.
const RATIO_FLOOR: u64 = crate::units::MIB;

/// The PNG signature and the IHDR chunk that must follow it (PNG spec §5.2, §11.2.2):
/// width and height are the big-endian words at bytes 16 and 20.
const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";
const PNG_HEAD: u64 = 24;

/// An opened package: the central directory is read, no entry is inflated yet.
pub(crate) struct Package<'a> {
    zip: ZipArchive<Cursor<&'a [u8]>>,
    /// The package's bytes, whose deflated entries are inflated in place.
    bytes: &'a [u8],
    /// One raw inflater for every entry: the zip reader sets up a fresh one (state, window
    /// and checksum) per entry, 56 k instructions each, a tenth of reading a one-page
    /// document's package (callgrind).
    inflater: Decompress,
    limits: &'a PackageLimits,
    /// Bytes inflated so far, against `max_total_bytes`.
    total: u64,
}

impl<'a> Package<'a> {
    /// Opens the zip, refusing too many entries before the central directory is parsed
    /// (from the end record) and again after.
    pub(crate) fn open(bytes: &'a [u8], limits: &'a PackageLimits) -> Result<Package<'a>, DocxError> {
        if let Some(count) = declared_entry_count(bytes) {
            if count > limits.max_entries as u64 {
                return Err(DocxError::TooManyEntries {
                    count,
                    limit: limits.max_entries,
                });
            }
        }
        let zip = ZipArchive::new(Cursor::new(bytes)).map_err(|e| DocxError::DamagedZip { reason: e.to_string() })?;
        if zip.len() > limits.max_entries {
            return Err(DocxError::TooManyEntries {
                count: zip.len() as u64,
                limit: limits.max_entries,
            });
        }
        let mut package = Package { zip, bytes, inflater: Decompress::new(false), limits, total: 0 };
        package.check_pictures()?;
        Ok(package)
    }

    /// Refuses a PNG entry (whatever its name) whose header declares more pixels than
    /// `max_image_pixels`, before anything is decoded: a 50,000 × 50,000 picture is a few
    /// kilobytes compressed and 10 GB decoded. Only the first 24 bytes of each entry are
    /// inflated; entries that cannot be read here are left for [`Package::read`] to report.
    fn check_pictures(&mut self) -> Result<(), DocxError> {
        for index in 0..self.zip.len() {
            let (name, head) = match self.zip.by_index_raw(index) {
                Ok(mut file) => {
                    let head = match file.compression() {
                        CompressionMethod::Stored => {
                            let mut head = Vec::with_capacity(PNG_HEAD as usize);
                            if (&mut file).take(PNG_HEAD).read_to_end(&mut head).is_err() {
                                continue;
                            }
                            head
                        }
                        CompressionMethod::Deflated => inflate_head(&mut file, &mut self.inflater),
                        // Read by no part reader either: `Package::read` reports it.
                        _ => continue,
                    };
                    (String::from_utf8_lossy(file.name_raw()).into_owned(), head)
                }
                Err(_) => continue,
            };
            let Some((width, height)) = png_size(&head) else { continue };
            if u64::from(width) * u64::from(height) > self.limits.max_image_pixels {
                return Err(DocxError::ImageTooLarge {
                    entry: name,
                    width,
                    height,
                    limit: self.limits.max_image_pixels,
                });
            }
        }
        Ok(())
    }

    /// The index of a part. OPC part names compare case-insensitively (Part 2 §9.1.1.1.2).
    fn index_of(&self, name: &str) -> Option<usize> {
        let name = name.trim_start_matches('/');
        self.zip.index_for_name_raw(name.as_bytes()).or_else(|| {
            self.zip
                .file_names_raw()
                .position(|n| n.strip_prefix(b"/").unwrap_or(n).eq_ignore_ascii_case(name.as_bytes()))
        })
    }

    /// Whether a part exists.
    pub(crate) fn contains(&self, name: &str) -> bool {
        self.index_of(name).is_some()
    }

    /// Whether any entry name starts with `prefix` (ASCII case-insensitive).
    pub(crate) fn has_folder(&self, prefix: &str) -> bool {
        self.zip
            .file_names_raw()
            .any(|n| n.len() >= prefix.len() && n[..prefix.len()].eq_ignore_ascii_case(prefix.as_bytes()))
    }

    /// Inflates a part, or `None` when it is absent. Every limit is checked here.
    pub(crate) fn read(&mut self, name: &str) -> Result<Option<Vec<u8>>, DocxError> {
        let Some(index) = self.index_of(name) else {
            return Ok(None);
        };
        let limits = self.limits;
        let damaged = |reason: String| DocxError::DamagedEntry {
            entry: name.to_owned(),
            reason,
        };
        let meta = self.zip.by_index_data(index).map_err(|e| damaged(e.to_string()))?;
        let declared = meta.size();
        let compressed = meta.compressed_size();
        let (method, crc) = (meta.compression(), meta.crc32());
        if meta.encrypted() {
            return Err(DocxError::Encrypted);
        }
        if declared > limits.max_entry_bytes {
            return Err(DocxError::EntryTooLarge {
                entry: name.to_owned(),
                size: declared,
                limit: limits.max_entry_bytes,
            });
        }
        self.check_ratio(name, declared, compressed)?;
        let data = match method {
            CompressionMethod::Deflated => self.inflate(index, name, declared, crc)?,
            _ => self.read_through_zip(index, name, declared)?,
        };
        let actual = data.len() as u64;
        if actual > limits.max_entry_bytes {
            return Err(DocxError::EntryInflatesPastLimit {
                entry: name.to_owned(),
                declared,
                limit: limits.max_entry_bytes,
            });
        }
        self.check_ratio(name, actual, compressed)?;
        self.total += actual;
        if self.total > limits.max_total_bytes {
            return Err(DocxError::TotalTooLarge {
                entry: name.to_owned(),
                limit: limits.max_total_bytes,
            });
        }
        Ok(Some(data))
    }

    /// Inflates a deflated entry straight from the package's bytes into a vector of its
    /// declared size, with the checks the zip reader makes: no byte past the declared
    /// size, and the CRC-32 of what was inflated. Through the zip reader (a fresh
    /// inflater, a 32 KiB buffer and a vector zeroed before it is filled, per entry)
    /// reading a one-page document took 5.95 M instructions, 5.63 M this way (callgrind).
    /// Other compression methods go through the zip reader (`read_through_zip`).
    fn inflate(&mut self, index: usize, name: &str, declared: u64, crc: u32) -> Result<Vec<u8>, DocxError> {
        let damaged = |reason: &str| DocxError::DamagedEntry {
            entry: name.to_owned(),
            reason: reason.to_owned(),
        };
        let (start, length) = {
            let file = self.zip.by_index_raw(index).map_err(|e| damaged(&e.to_string()))?;
            (file.data_start(), file.compressed_size())
        };
        let start = start.ok_or_else(|| damaged("no local header"))?;
        // A truncated package gives what it holds, as the zip reader's bounded reads do.
        let from = (start.min(self.bytes.len() as u64)) as usize;
        let to = (start.saturating_add(length).min(self.bytes.len() as u64)) as usize;
        let input = &self.bytes[from..to];
        // `declared` is within `max_entry_bytes` (checked by the caller).
        let mut data = Vec::with_capacity(declared as usize);
        self.inflater.reset(false);
        match inflate_into(&mut self.inflater, input, &mut data) {
            Ok(()) => {}
            // The zip reader's own words (flate2's, and zip's for a lying size).
            Err(Inflate::Corrupt) => return Err(damaged("corrupt deflate stream")),
            Err(Inflate::Incomplete) => return Err(damaged("incomplete deflate stream")),
            Err(Inflate::PastCapacity) => {
                return Err(DocxError::EntryLargerThanDeclared {
                    entry: name.to_owned(),
                    declared,
                })
            }
        }
        let mut sum = flate2::Crc::new();
        sum.update(&data);
        if sum.sum() != crc {
            return Err(damaged("Invalid checksum"));
        }
        Ok(data)
    }

    /// Reads an entry through the zip reader, for the compression methods other than
    /// deflate (stored entries, and those it refuses).
    fn read_through_zip(&mut self, index: usize, name: &str, declared: u64) -> Result<Vec<u8>, DocxError> {
        let limits = self.limits;
        let damaged = |reason: String| DocxError::DamagedEntry {
            entry: name.to_owned(),
            reason,
        };
        let mut data = Vec::with_capacity(declared.min(limits.max_entry_bytes) as usize);
        {
            let file = self.zip.by_index(index).map_err(|e| match e {
                ZipError::UnsupportedArchive(_) | ZipError::CompressionMethodNotSupported(_) => {
                    DocxError::UnsupportedCompression {
                        entry: name.to_owned(),
                        method: e.to_string(),
                    }
                }
                e => damaged(e.to_string()),
            })?;
            // Read one byte past the limit, so a header that understates the size is
            // caught whatever it says.
            file.take(limits.max_entry_bytes + 1)
                .read_to_end(&mut data)
                .map_err(|e| {
                    // The zip reader itself refuses to inflate past the declared size (zip 9
                    // `Crc32Reader::count`); its message tells a lying header from other damage.
                    if e.kind() == std::io::ErrorKind::InvalidData
                        && e.to_string().contains("declared uncompressed size")
                    {
                        DocxError::EntryLargerThanDeclared {
                            entry: name.to_owned(),
                            declared,
                        }
                    } else {
                        damaged(e.to_string())
                    }
                })?;
        }
        Ok(data)
    }

    fn check_ratio(&self, name: &str, size: u64, compressed: u64) -> Result<(), DocxError> {
        if size <= RATIO_FLOOR {
            return Ok(());
        }
        let ratio = size / compressed.max(1);
        if ratio > self.limits.max_ratio {
            return Err(DocxError::CompressionRatio {
                entry: name.to_owned(),
                ratio,
                limit: self.limits.max_ratio,
            });
        }
        Ok(())
    }
}

/// Why [`inflate_into`] stopped short.
enum Inflate {
    /// The data is not deflate data.
    Corrupt,
    /// The data ends before the stream does.
    Incomplete,
    /// The stream holds more than the vector's capacity.
    PastCapacity,
}

/// Inflates the raw deflate stream `input` into `data`, at most to its capacity, failing
/// where the zip reader fails: flate2's reader calls a stream that stops giving output
/// before its end incomplete, and zip's reader refuses a byte past the declared size.
fn inflate_into(inflater: &mut Decompress, mut input: &[u8], data: &mut Vec<u8>) -> Result<(), Inflate> {
    loop {
        let (read, written) = (inflater.total_in(), inflater.total_out());
        let status = if data.len() < data.capacity() {
            inflater.decompress_vec(input, data, FlushDecompress::Finish)
        } else {
            // Full: one more byte is one too many.
            let mut probe = [0u8; 1];
            let status = inflater.decompress(input, &mut probe, FlushDecompress::Finish);
            if inflater.total_out() > written {
                return Err(Inflate::PastCapacity);
            }
            status
        };
        let status = status.map_err(|_| Inflate::Corrupt)?;
        input = &input[(inflater.total_in() - read) as usize..];
        match status {
            Status::StreamEnd => return Ok(()),
            _ if inflater.total_in() == read && inflater.total_out() == written => return Err(Inflate::Incomplete),
            _ => {}
        }
    }
}

/// The first [`PNG_HEAD`] bytes (fewer if the entry is shorter or damaged) that the raw
/// deflate data (RFC 1951) of an entry inflates to, read a kilobyte at a time.
fn inflate_head(raw: &mut impl Read, inflater: &mut Decompress) -> Vec<u8> {
    inflater.reset(false);
    let mut head = [0u8; PNG_HEAD as usize];
    let mut produced = 0;
    let mut chunk = [0u8; 1024];
    while produced < head.len() {
        let Ok(n) = raw.read(&mut chunk) else { break };
        let mut input = &chunk[..n];
        loop {
            let (read, written) = (inflater.total_in(), inflater.total_out());
            let status = inflater.decompress(input, &mut head[produced..], FlushDecompress::None);
            let used = (inflater.total_in() - read) as usize;
            produced += (inflater.total_out() - written) as usize;
            input = &input[used..];
            match status {
                Ok(Status::Ok) if produced < head.len() && !input.is_empty() => continue,
                Ok(Status::Ok) if n > 0 => break,
                _ => return head[..produced].to_vec(),
            }
        }
    }
    head[..produced].to_vec()
}

/// Width and height from the IHDR chunk of a PNG's first 24 bytes.
fn png_size(head: &[u8]) -> Option<(u32, u32)> {
    if head.len() < PNG_HEAD as usize || !head.starts_with(PNG_SIGNATURE) || &head[12..16] != b"IHDR" {
        return None;
    }
    let word = |at: usize| u32::from_be_bytes([head[at], head[at + 1], head[at + 2], head[at + 3]]);
    Some((word(16), word(20)))
}

/// The entry count of the end-of-central-directory record (APPNOTE §4.3.16), found by
/// scanning back over at most a maximal comment. `None` when absent or a ZIP64 marker.
fn declared_entry_count(bytes: &[u8]) -> Option<u64> {
    let tail_start = bytes.len().saturating_sub(22 + 0xFFFF);
    let tail = &bytes[tail_start..];
    let at = tail.windows(4).rposition(|w| w == b"PK\x05\x06")?;
    let record = tail.get(at..at + 22)?;
    let total = u16::from_le_bytes([record[10], record[11]]);
    (total != 0xFFFF).then_some(total as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::docx::test_support::{zip_of, zip_with_options};
    use zip::write::SimpleFileOptions;

    #[test]
    fn too_many_entries_are_refused_before_reading() {
        let names: Vec<(String, &[u8])> = (0..5).map(|i| (format!("f{i}.xml"), &b"x"[..])).collect();
        let bytes = zip_of(&names.iter().map(|(n, d)| (n.as_str(), *d)).collect::<Vec<_>>());
        let limits = PackageLimits {
            max_entries: 4,
            ..Default::default()
        };
        let e = Package::open(&bytes, &limits).err().unwrap();
        assert_eq!(
            e.to_string(),
            "the package holds 5 zip entries, more than the limit of 4 \
             (--max-zip-entries / DOCX2PDF_MAX_ZIP_ENTRIES)"
        );
    }

    #[test]
    fn declared_size_over_the_limit_is_refused() {
        let bytes = zip_of(&[("word/document.xml", &[b'a'; 100][..])]);
        let limits = PackageLimits {
            max_entry_bytes: 50,
            ..Default::default()
        };
        let mut p = Package::open(&bytes, &limits).unwrap();
        let e = p.read("word/document.xml").unwrap_err();
        assert!(
            matches!(
                e,
                DocxError::EntryTooLarge {
                    size: 100,
                    limit: 50,
                    ..
                }
            ),
            "{e}"
        );
        assert!(e.to_string().contains("word/document.xml"));
    }

    #[test]
    fn lying_zip_header_is_caught() {
        // Patch the declared uncompressed size (central and local headers) to 10 bytes
        // while the entry really inflates to 4000.
        let data = vec![b'a'; 4000];
        let mut bytes = zip_with_options(&[("word/document.xml", &data)], SimpleFileOptions::default());
        patch_uncompressed_sizes(&mut bytes, 4000, 10);
        let limits = PackageLimits {
            max_entry_bytes: 1000,
            ..Default::default()
        };
        let mut p = Package::open(&bytes, &limits).unwrap();
        let e = p.read("word/document.xml").unwrap_err();
        assert!(
            matches!(
                e,
                DocxError::EntryLargerThanDeclared { declared: 10, .. }
                    | DocxError::EntryInflatesPastLimit { declared: 10, .. }
            ),
            "{e}"
        );
        assert!(e.to_string().contains("word/document.xml"));
    }

    #[test]
    fn total_size_over_the_limit_is_refused() {
        let a = vec![b'a'; 600];
        let bytes = zip_of(&[("a.xml", &a), ("b.xml", &a)]);
        let limits = PackageLimits {
            max_total_bytes: 1000,
            ..Default::default()
        };
        let mut p = Package::open(&bytes, &limits).unwrap();
        p.read("a.xml").unwrap();
        let e = p.read("b.xml").unwrap_err();
        assert!(matches!(e, DocxError::TotalTooLarge { .. }), "{e}");
        assert!(e.to_string().contains("b.xml") && e.to_string().contains("1000"));
    }

    #[test]
    fn high_compression_ratio_is_refused() {
        let zeros = vec![0u8; 3 << 20];
        let bytes = zip_of(&[("word/document.xml", &zeros)]);
        let limits = PackageLimits {
            max_ratio: 10,
            ..Default::default()
        };
        let mut p = Package::open(&bytes, &limits).unwrap();
        let e = p.read("word/document.xml").unwrap_err();
        assert!(matches!(e, DocxError::CompressionRatio { limit: 10, .. }), "{e}");
    }

    #[test]
    fn part_names_match_case_insensitively() {
        let bytes = zip_of(&[("Word/Document.XML", b"x")]);
        let limits = PackageLimits::default();
        let mut p = Package::open(&bytes, &limits).unwrap();
        assert_eq!(p.read("/word/document.xml").unwrap().as_deref(), Some(&b"x"[..]));
        assert!(p.read("word/missing.xml").unwrap().is_none());
    }

    /// The first 24 bytes of a PNG of `width` × `height` pixels: all the check reads.
    fn png_head(width: u32, height: u32) -> Vec<u8> {
        let mut head = PNG_SIGNATURE.to_vec();
        head.extend_from_slice(&13u32.to_be_bytes());
        head.extend_from_slice(b"IHDR");
        head.extend_from_slice(&width.to_be_bytes());
        head.extend_from_slice(&height.to_be_bytes());
        head.extend_from_slice(&[8, 6, 0, 0, 0]);
        head
    }

    #[test]
    fn a_png_declaring_too_many_pixels_is_refused_at_open_whatever_its_name() {
        let limits = PackageLimits { max_image_pixels: 1_000_000, ..Default::default() };
        let fine = zip_of(&[("word/media/a.png", &png_head(1000, 1000))]);
        assert!(Package::open(&fine, &limits).is_ok());
        let bomb = zip_of(&[("word/media/image1.bin", &png_head(50_000, 50_000))]);
        let e = Package::open(&bomb, &limits).err().unwrap();
        assert!(
            matches!(e, DocxError::ImageTooLarge { width: 50_000, height: 50_000, limit: 1_000_000, .. }),
            "{e}"
        );
        assert!(e.to_string().contains("word/media/image1.bin") && e.to_string().contains("--max-image-pixels"));
    }

    #[test]
    fn a_stored_png_declaring_too_many_pixels_is_refused_too() {
        let limits = PackageLimits { max_image_pixels: 1_000_000, ..Default::default() };
        let opts = SimpleFileOptions::default().compression_method(CompressionMethod::Stored);
        let bomb = zip_with_options(&[("a.xml", b"<a/>"), ("word/media/x.png", &png_head(50_000, 50_000))], opts);
        let e = Package::open(&bomb, &limits).err().unwrap();
        assert!(matches!(e, DocxError::ImageTooLarge { width: 50_000, .. }), "{e}");
    }

    #[test]
    fn the_head_of_an_entry_is_inflated_across_input_chunks_with_one_inflater() {
        use std::io::Write;
        // 400 empty stored blocks (RFC 1951 §3.2.4: a header byte, LEN 0 and NLEN, 5 bytes
        // each) before the final stored block that holds the picture's first bytes: the
        // head needs two kilobytes of input.
        let head = png_head(640, 480);
        let mut data = head.clone();
        data.extend_from_slice(&[7u8; 5000]);
        let mut raw: Vec<u8> = [0u8, 0, 0, 0xFF, 0xFF].repeat(400);
        let len = data.len() as u16;
        raw.push(1);
        raw.extend_from_slice(&len.to_le_bytes());
        raw.extend_from_slice(&(!len).to_le_bytes());
        raw.extend_from_slice(&data);
        let mut inflater = Decompress::new(false);
        assert_eq!(inflate_head(&mut &raw[..], &mut inflater), head[..PNG_HEAD as usize]);
        assert_eq!(png_size(&inflate_head(&mut &raw[..], &mut inflater)), Some((640, 480)));
        // Shorter than a head, and not deflate data at all.
        let mut short = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::fast());
        short.write_all(b"PNG").unwrap();
        assert_eq!(inflate_head(&mut &short.finish().unwrap()[..], &mut inflater), b"PNG");
        assert!(png_size(&inflate_head(&mut &[0xFFu8; 64][..], &mut inflater)).is_none());
    }

    #[test]
    fn stored_entries_are_read() {
        let opts = SimpleFileOptions::default().compression_method(CompressionMethod::Stored);
        let bytes = zip_with_options(&[("a.xml", b"hello")], opts);
        let limits = PackageLimits::default();
        let mut p = Package::open(&bytes, &limits).unwrap();
        assert_eq!(p.read("a.xml").unwrap().unwrap(), b"hello");
    }

    /// What the zip reader itself gives for the one entry of `bytes`: its bytes, or the
    /// message of its error.
    fn through_zip(bytes: &[u8]) -> Result<Vec<u8>, String> {
        let mut zip = ZipArchive::new(Cursor::new(bytes)).unwrap();
        let mut file = zip.by_index(0).map_err(|e| e.to_string())?;
        let mut data = Vec::new();
        file.read_to_end(&mut data).map_err(|e| e.to_string())?;
        Ok(data)
    }

    /// What `Package::read` gives for `a.xml`, in the zip reader's words.
    fn through_package(bytes: &[u8]) -> Result<Vec<u8>, String> {
        let limits = PackageLimits::default();
        match Package::open(bytes, &limits).unwrap().read("a.xml") {
            Ok(Some(data)) => Ok(data),
            Err(DocxError::DamagedEntry { reason, .. }) => Err(reason),
            Err(DocxError::EntryLargerThanDeclared { .. }) => {
                Err("File is larger than its declared uncompressed size".to_owned())
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn deflated_entries_read_as_the_zip_reader_reads_them() {
        // Text that compresses, and bytes that do not (stored blocks inside the stream).
        let text = "<w:p><w:r><w:t>Notulen rapat</w:t></w:r></w:p>".repeat(2000).into_bytes();
        let noise: Vec<u8> = (0u32..70_000).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
        let len = |n: usize| n as u32;
        for data in [&b""[..], b"x", &text[..], &noise[..]] {
            let bytes = zip_of(&[("a.xml", data)]);
            assert_eq!(through_package(&bytes).as_deref(), Ok(data));
            assert_eq!(through_package(&bytes), through_zip(&bytes));

            // A wrong checksum (local header +14, central +16).
            let crc = {
                let mut c = flate2::Crc::new();
                c.update(data);
                c.sum()
            };
            let mut wrong = bytes.clone();
            patch_headers(&mut wrong, (14, 16), crc, crc ^ 1);
            assert_eq!(through_package(&wrong), Err("Invalid checksum".to_owned()));
            assert_eq!(through_package(&wrong), through_zip(&wrong));

            if data.is_empty() {
                continue;
            }
            // A declared size one byte short, and one byte long.
            for declared in [len(data.len()) - 1, len(data.len()) + 1] {
                let mut lying = bytes.clone();
                patch_uncompressed_sizes(&mut lying, len(data.len()), declared);
                assert_eq!(through_package(&lying), through_zip(&lying), "declared {declared}");
            }
        }
    }

    #[test]
    fn damaged_deflate_data_reads_as_the_zip_reader_reads_it() {
        let text = "<w:p><w:r><w:t>Notulen rapat</w:t></w:r></w:p>".repeat(500).into_bytes();
        let bytes = zip_of(&[("a.xml", &text)]);
        // The entry's data starts after the 30-byte local header, its name and extra field.
        let extra = u16::from_le_bytes([bytes[28], bytes[29]]) as usize;
        let start = 30 + "a.xml".len() + extra;
        // A reserved block type (RFC 1951 §3.2.3: BTYPE 11) is an error.
        let mut reserved = bytes.clone();
        reserved[start] = 0xFF;
        assert_eq!(through_package(&reserved), Err("corrupt deflate stream".to_owned()));
        assert_eq!(through_package(&reserved), through_zip(&reserved));
        // A compressed size that cuts the stream short (local header +18, central +20).
        let compressed = u32::from_le_bytes(bytes[18..22].try_into().unwrap());
        let mut cut = bytes.clone();
        patch_headers(&mut cut, (18, 20), compressed, compressed / 2);
        assert!(through_package(&cut).is_err());
        assert_eq!(through_package(&cut), through_zip(&cut));
    }

    fn patch_uncompressed_sizes(bytes: &mut [u8], from: u32, to: u32) {
        // Local header: size at +22; central header: size at +24.
        patch_headers(bytes, (22, 24), from, to);
    }

    /// Replaces the little-endian word `from` by `to` at `local` bytes into every local
    /// header and `central` bytes into every central directory header.
    fn patch_headers(bytes: &mut [u8], (local, central): (usize, usize), from: u32, to: u32) {
        let mut i = 0;
        while i + 4 <= bytes.len() {
            let sig = &bytes[i..i + 4];
            let at = if sig == b"PK\x03\x04" {
                Some(i + local)
            } else if sig == b"PK\x01\x02" {
                Some(i + central)
            } else {
                None
            };
            if let Some(at) = at {
                if bytes[at..at + 4] == from.to_le_bytes() {
                    bytes[at..at + 4].copy_from_slice(&to.to_le_bytes());
                }
            }
            i += 1;
        }
    }
}
