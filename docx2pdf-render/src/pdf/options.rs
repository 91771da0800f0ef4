//! What a conversion may ask of its PDF beyond the default tagged output: PDF/UA-1
//! (ISO 14289-1) and PDF/A (ISO 19005) conformance, a selection of pages, passwords and
//! document information of its own.

use super::encrypt::Passwords;
use super::metadata_override::MetadataOverride;
use super::select::PageRanges;

/// The conformance a conversion asks for; the default is plain tagged PDF.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PdfOptions {
    /// Claim PDF/UA-1: the pdfuaid XMP part, a title, and warnings for what the document
    /// itself leaves out (a figure without alternative text).
    pub pdfua: bool,
    /// Claim a PDF/A level.
    pub pdfa: Option<PdfA>,
    /// The name of the file converted, as [`file_stem`] gives it: the title of last resort
    /// under PDF/UA (ISO 14289-1 §7.1), when neither the properties nor the text give one.
    pub file_stem: Option<String>,
    /// The most pixels a picture may decode to; a larger one is drawn as a placeholder.
    pub max_image_pixels: u64,
    /// The pages to keep, in the document's order; all when `None`.
    pub pages: Option<PageRanges>,
    /// Encrypt the PDF with these passwords (AES-256); never with PDF/A, which forbids it.
    pub encryption: Option<Passwords>,
    /// Document information replacing the document's properties.
    pub metadata: Option<MetadataOverride>,
    /// The password a password-protected DOCX is opened with; taken out before the PDF is
    /// written, and never written anywhere.
    pub password: Option<crate::password::Password>,
}

impl Default for PdfOptions {
    fn default() -> PdfOptions {
        PdfOptions {
            pdfua: false,
            pdfa: None,
            file_stem: None,
            max_image_pixels: crate::frame::MAX_IMAGE_PIXELS,
            pages: None,
            encryption: None,
            metadata: None,
            password: None,
        }
    }
}

/// The stem of a file's name or path as a title: `Q3 report` for `C:\work\Q3 report.docx`
/// or `/srv/in/Q3 report.docx`; never its folder. `None` when nothing is left (`.docx`).
pub fn file_stem(name: &str) -> Option<String> {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let stem = base.rfind('.').map_or(base, |dot| &base[..dot]);
    let words: Vec<&str> = stem.split(|c: char| c.is_whitespace() || c.is_control()).filter(|w| !w.is_empty()).collect();
    (!words.is_empty()).then(|| words.join(" "))
}

/// The PDF/A levels offered: level B (visual appearance) of parts 1, 2 and 3.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PdfA {
    /// ISO 19005-1 level B: no transparency at all.
    A1b,
    /// ISO 19005-2 level B.
    A2b,
    /// ISO 19005-3 level B (part 2 plus embedded files, of which we write none).
    A3b,
}

impl PdfA {
    /// Every level offered, in order.
    pub const ALL: [PdfA; 3] = [PdfA::A1b, PdfA::A2b, PdfA::A3b];

    /// The level's name as the API and the CLI take it.
    pub fn name(self) -> &'static str {
        match self {
            PdfA::A1b => "PDF/A-1b",
            PdfA::A2b => "PDF/A-2b",
            PdfA::A3b => "PDF/A-3b",
        }
    }

    /// The level named as the API and the CLI take it (`PDF/A-2b`, any case), or `None`.
    pub fn parse(name: &str) -> Option<PdfA> {
        let name = name.trim();
        PdfA::ALL.into_iter().find(|level| level.name().eq_ignore_ascii_case(name))
    }

    /// The names [`PdfA::parse`] accepts, for messages.
    pub const NAMES: &'static str = "PDF/A-1b, PDF/A-2b, PDF/A-3b";

    /// The part of ISO 19005 (`pdfaid:part`).
    pub fn part(self) -> u8 {
        match self {
            PdfA::A1b => 1,
            PdfA::A2b => 2,
            PdfA::A3b => 3,
        }
    }

    /// Whether the level forbids all transparency (soft masks): part 1 does (ISO 19005-1 §6.4).
    pub fn opaque(self) -> bool {
        self == PdfA::A1b
    }
}

/// Parses a `pdfua` value: `true` or `false`.
pub fn parse_pdfua(value: &str) -> Option<bool> {
    match value.trim().to_ascii_lowercase().as_str() {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_and_switches_are_read_in_any_case() {
        assert_eq!(PdfA::parse("PDF/A-2b"), Some(PdfA::A2b));
        assert_eq!(PdfA::parse("pdf/a-1B"), Some(PdfA::A1b));
        assert_eq!(PdfA::parse("PDF/A-2u"), None);
        assert_eq!(PdfA::parse("2b"), None);
        assert_eq!(parse_pdfua("TRUE"), Some(true));
        assert_eq!(parse_pdfua("yes"), None);
    }

    #[test]
    fn a_file_stem_keeps_neither_folder_nor_extension() {
        assert_eq!(file_stem("Q3 report.docx").as_deref(), Some("Q3 report"));
        assert_eq!(file_stem("/srv/uploads/Q3 report.docx").as_deref(), Some("Q3 report"));
        assert_eq!(file_stem(r"C:\Users\ada\Q3  report.v2.docx").as_deref(), Some("Q3 report.v2"));
        assert_eq!(file_stem("README").as_deref(), Some("README"));
        assert_eq!(file_stem(".docx"), None);
        assert_eq!(file_stem("folder/"), None);
        assert_eq!(file_stem(" .docx"), None);
    }
}
