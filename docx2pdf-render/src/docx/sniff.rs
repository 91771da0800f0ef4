//! Recognising what an upload is from its first bytes, before any unzipping.

use super::compound_file::{self, CompoundFile, SIGNATURE};
use super::DocxError;

/// Accepts bytes that look like a zip archive and names everything else precisely.
pub(crate) fn sniff(bytes: &[u8]) -> Result<(), DocxError> {
    if bytes.is_empty() {
        return Err(DocxError::Empty);
    }
    if bytes.starts_with(&SIGNATURE) {
        // An encrypted DOCX is an OLE file with an `EncryptedPackage` stream
        // ([MS-OFFCRYPTO] §2.3.4.4); anything else is a legacy binary format.
        return Err(if has_encrypted_package(bytes) {
            DocxError::Encrypted
        } else {
            DocxError::LegacyOle
        });
    }
    // Local file header, or the end record of an empty archive (APPNOTE §4.3.7, §4.3.16).
    if bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06") {
        return Ok(());
    }
    let head = skip_bom_and_space(&bytes[..bytes.len().min(4096)]);
    if head.starts_with(b"%PDF") {
        return Err(DocxError::Pdf);
    }
    if head.starts_with(b"{\\rtf") {
        return Err(DocxError::Rtf);
    }
    if head.starts_with(b"<") && (contains(head, b"pkg:package") || contains(head, b"wordDocument")) {
        return Err(DocxError::WordXml);
    }
    Err(DocxError::NotZip)
}

fn skip_bom_and_space(b: &[u8]) -> &[u8] {
    let b = b.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(b);
    let start = b.iter().position(|c| !c.is_ascii_whitespace()).unwrap_or(b.len());
    &b[start..]
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

/// Whether a compound file holds an `EncryptedPackage` stream: a password-protected
/// OOXML package ([MS-OFFCRYPTO] §2.3.4.4).
pub(crate) fn has_encrypted_package(bytes: &[u8]) -> bool {
    ole_has_stream(bytes, "EncryptedPackage")
}

/// Whether the compound file's directory holds a stream named `name` ([MS-CFB] §2.2–2.6);
/// when its structures are damaged, whether any 128-byte directory slot after the header
/// holds it.
fn ole_has_stream(bytes: &[u8], name: &str) -> bool {
    let matches = |entry: &[u8]| compound_file::is_stream(entry, name);
    match CompoundFile::open(bytes).and_then(|file| file.directory()) {
        Some(entries) => entries.into_iter().any(matches),
        None => bytes.chunks_exact(128).skip(4).any(matches),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::docx::compound_file::END_OF_CHAIN;
    use crate::docx::DocxErrorKind;

    /// A minimal version-3 compound file: sector 0 is the FAT, sector 1 the directory with
    /// the root entry and one stream named `stream`.
    pub(crate) fn compound_file(stream: &str) -> Vec<u8> {
        let mut f = vec![0u8; 512 * 3];
        f[..8].copy_from_slice(&SIGNATURE);
        f[0x18..0x1A].copy_from_slice(&0x3Eu16.to_le_bytes());
        f[0x1A..0x1C].copy_from_slice(&3u16.to_le_bytes());
        f[0x1C..0x1E].copy_from_slice(&0xFFFEu16.to_le_bytes());
        f[0x1E..0x20].copy_from_slice(&9u16.to_le_bytes());
        f[0x20..0x22].copy_from_slice(&6u16.to_le_bytes());
        f[0x2C..0x30].copy_from_slice(&1u32.to_le_bytes());
        f[0x30..0x34].copy_from_slice(&1u32.to_le_bytes());
        f[0x44..0x48].copy_from_slice(&END_OF_CHAIN.to_le_bytes());
        for k in 0..109 {
            let v: u32 = if k == 0 { 0 } else { 0xFFFF_FFFF };
            f[0x4C + 4 * k..0x50 + 4 * k].copy_from_slice(&v.to_le_bytes());
        }
        let fat = 512;
        f[fat..fat + 4].copy_from_slice(&0xFFFF_FFFDu32.to_le_bytes());
        f[fat + 4..fat + 8].copy_from_slice(&END_OF_CHAIN.to_le_bytes());
        for i in 2..128 {
            f[fat + 4 * i..fat + 4 * i + 4].copy_from_slice(&0xFFFF_FFFFu32.to_le_bytes());
        }
        let dir = 1024;
        let mut entry = |slot: usize, name: &str, kind: u8| {
            let at = dir + 128 * slot;
            let units: Vec<u8> = name.encode_utf16().chain([0]).flat_map(u16::to_le_bytes).collect();
            f[at..at + units.len()].copy_from_slice(&units);
            f[at + 64..at + 66].copy_from_slice(&(units.len() as u16).to_le_bytes());
            f[at + 66] = kind;
        };
        entry(0, "Root Entry", 5);
        entry(1, stream, 2);
        f
    }

    #[test]
    fn empty_input_is_invalid() {
        assert!(matches!(sniff(b""), Err(DocxError::Empty)));
    }

    #[test]
    fn ole_with_encrypted_package_is_encrypted() {
        let e = sniff(&compound_file("EncryptedPackage")).unwrap_err();
        assert_eq!(e.kind(), DocxErrorKind::Encrypted);
    }

    #[test]
    fn ole_without_encrypted_package_is_a_legacy_doc() {
        let e = sniff(&compound_file("WordDocument")).unwrap_err();
        assert!(matches!(e, DocxError::LegacyOle));
        assert_eq!(e.kind(), DocxErrorKind::Unsupported);
    }

    #[test]
    fn damaged_ole_still_finds_the_encrypted_package() {
        let mut f = compound_file("EncryptedPackage");
        f[0x30..0x34].copy_from_slice(&77u32.to_le_bytes());
        assert!(matches!(sniff(&f), Err(DocxError::Encrypted)));
    }

    #[test]
    fn pdf_is_unsupported() {
        assert!(matches!(sniff(b"%PDF-1.7\n..."), Err(DocxError::Pdf)));
    }

    #[test]
    fn rtf_is_unsupported() {
        assert!(matches!(sniff(b"{\\rtf1\\ansi hello}"), Err(DocxError::Rtf)));
    }

    #[test]
    fn flat_opc_xml_is_unsupported() {
        let e = sniff(b"<?xml version=\"1.0\"?><pkg:package xmlns:pkg=\"x\"/>").unwrap_err();
        assert_eq!(e.kind(), DocxErrorKind::Unsupported);
    }

    #[test]
    fn text_is_not_a_zip() {
        assert!(matches!(sniff(b"hello world"), Err(DocxError::NotZip)));
    }

    #[test]
    fn zip_signature_passes() {
        assert!(sniff(b"PK\x03\x04rest").is_ok());
    }
}
