//! Media parts (pictures) read through a story's relationships: each part once, under
//! the package limits, with its format sniffed from its first bytes.

use std::collections::HashMap;
use std::sync::Arc;

use super::model::ImageFormat;
use super::package::Package;
use super::DocxError;
use crate::warning::Warning;

/// Where a story gets the bytes of the media parts its drawings point at.
pub(crate) trait MediaSource {
    /// The bytes of part `name`, or `None` (with a warning) when it is missing or damaged.
    /// A package limit or the deadline is an error that stops the whole read.
    fn media(&mut self, name: &str) -> Result<Option<Arc<[u8]>>, DocxError>;
}

/// Media parts already read, by part name: a picture shown by several drawings is
/// inflated once and shared.
#[derive(Debug, Default)]
pub(crate) struct MediaCache {
    parts: HashMap<String, Option<Arc<[u8]>>>,
}

/// The package and the cache, lent to a story while it is read.
pub(crate) struct PackageMedia<'p, 'a> {
    pub package: &'p mut Package<'a>,
    pub cache: &'p mut MediaCache,
    pub warnings: &'p mut Vec<Warning>,
}

impl MediaCache {
    /// Puts `bytes` in as the part `name` (a picture a story filter added).
    pub(crate) fn insert(&mut self, name: &str, bytes: Arc<[u8]>) {
        self.parts.insert(name.trim_start_matches('/').to_ascii_lowercase(), Some(bytes));
    }
}

impl MediaSource for PackageMedia<'_, '_> {
    fn media(&mut self, name: &str) -> Result<Option<Arc<[u8]>>, DocxError> {
        let key = name.trim_start_matches('/').to_ascii_lowercase();
        if let Some(hit) = self.cache.parts.get(&key) {
            return Ok(hit.clone());
        }
        let data = match self.package.read(name) {
            Ok(Some(data)) => Some(Arc::from(data)),
            Ok(None) => {
                self.warnings.push(Warning::new("picture_skipped", format!("picture part {name} is missing")));
                None
            }
            Err(e) if e.is_recoverable_in_optional_part() => {
                self.warnings.push(Warning::new("picture_skipped", format!("picture part {name} was skipped: {e}")));
                None
            }
            Err(e) => return Err(e),
        };
        self.cache.parts.insert(key, data.clone());
        Ok(data)
    }
}

/// The image format from the signature bytes, whatever the part name or content type says.
pub(crate) fn sniff_image(data: &[u8]) -> ImageFormat {
    match data {
        [0x89, b'P', b'N', b'G', ..] => ImageFormat::Png,
        [0xFF, 0xD8, 0xFF, ..] => ImageFormat::Jpeg,
        [b'G', b'I', b'F', b'8', ..] => ImageFormat::Gif,
        [b'B', b'M', ..] => ImageFormat::Bmp,
        [b'I', b'I', 42, 0, ..] | [b'M', b'M', 0, 42, ..] => ImageFormat::Tiff,
        // EMR_HEADER (type 1) with the " EMF" signature at offset 40 ([MS-EMF] 2.3.4.2).
        [1, 0, 0, 0, ..] if data.get(40..44) == Some(b" EMF") => ImageFormat::Emf,
        // A placeable WMF key, or a plain META_HEADER ([MS-WMF] 2.3.2).
        [0xD7, 0xCD, 0xC6, 0x9A, ..] | [1 | 2, 0, 9, 0, ..] => ImageFormat::Wmf,
        _ => ImageFormat::Unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_are_told_by_their_signatures() {
        assert_eq!(sniff_image(b"\x89PNG\r\n\x1a\n"), ImageFormat::Png);
        assert_eq!(sniff_image(&[0xFF, 0xD8, 0xFF, 0xE0]), ImageFormat::Jpeg);
        assert_eq!(sniff_image(b"GIF89a"), ImageFormat::Gif);
        assert_eq!(sniff_image(b"BM\0\0"), ImageFormat::Bmp);
        assert_eq!(sniff_image(b"II*\0"), ImageFormat::Tiff);
        assert_eq!(sniff_image(&[0xD7, 0xCD, 0xC6, 0x9A]), ImageFormat::Wmf);
        assert_eq!(sniff_image(b"hello"), ImageFormat::Unknown);
    }

    #[test]
    fn emf_is_told_by_its_header_signature() {
        let mut emf = vec![0u8; 44];
        emf[0] = 1;
        emf[40..44].copy_from_slice(b" EMF");
        assert_eq!(sniff_image(&emf), ImageFormat::Emf);
    }
}
