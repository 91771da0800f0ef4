//! What PDF/UA-1 and PDF/A add to the default tagged output: the sRGB output intent, the
//! file identifier, a title taken from the text or the file's name, and the warnings for
//! what a document keeps from conforming.

use std::borrow::Cow;

use pdf_writer::types::OutputIntentSubtype;
use pdf_writer::writers::Catalog;
use pdf_writer::{Filter, Pdf, Ref, TextStr};
use sha2::{Digest, Sha256};

use super::deflate::Deflater;
use super::document::Refs;
use super::metadata::present;
use super::options::PdfOptions;
use super::structure::Tagging;
use super::PdfError;
use crate::frame::DocInfo;
use crate::warning::Warning;

/// The sRGB IEC 61966-2.1 profile (ICC v2, so PDF/A-1 takes it too); its source and
/// licence are in `assets/sRGB.icc.txt`.
const SRGB: &[u8] = include_bytes!("../../assets/sRGB.icc");

/// The registry name of the sRGB output condition (ICC characterization data registry).
const SRGB_NAME: &str = "sRGB IEC61966-2.1";

/// Writes the ICC profile of the output intent; `None` unless PDF/A is asked for.
pub(super) fn write_profile(pdf: &mut Pdf, refs: &mut Refs, deflater: &mut Deflater, options: &PdfOptions) -> Result<Option<Ref>, PdfError> {
    if options.pdfa.is_none() {
        return Ok(None);
    }
    let id = refs.alloc();
    let packed = deflater.deflate(SRGB)?;
    pdf.icc_profile(id, packed).n(3).filter(Filter::FlateDecode);
    Ok(Some(id))
}

/// The catalog's /OutputIntents: every colour we write is sRGB (ISO 19005-2 §6.2.3).
pub(super) fn write_output_intent(catalog: &mut Catalog<'_>, profile: Option<Ref>) {
    let Some(profile) = profile else { return };
    let mut intents = catalog.output_intents();
    intents
        .push()
        .subtype(OutputIntentSubtype::PDFA)
        .output_condition_identifier(TextStr(SRGB_NAME))
        .info(TextStr(SRGB_NAME))
        .dest_output_profile(profile);
}

/// Sets the trailer's /ID (ISO 19005-2 §6.1.3): a digest of everything written before it,
/// so the same input keeps the same bytes.
pub(super) fn set_file_id(pdf: &mut Pdf, options: &PdfOptions) {
    if options.pdfa.is_none() {
        return;
    }
    let digest = Sha256::digest(pdf.as_bytes());
    let id = digest[..16].to_vec();
    pdf.set_file_id((id.clone(), id));
}

/// The document information to write. Under PDF/UA a title is required, in dc:title and
/// shown in the title bar (ISO 14289-1 §7.1): when the properties give none, the text of the
/// first paragraph in the Title style or else of the first heading, else the file's name
/// without its extension. Otherwise the properties as they are.
pub(super) fn titled<'a>(info: &'a DocInfo, options: &PdfOptions) -> Cow<'a, DocInfo> {
    if !options.pdfua || present(&info.title).is_some() {
        return Cow::Borrowed(info);
    }
    match present(&info.text_title).or(options.file_stem.as_deref().filter(|s| !s.is_empty())) {
        Some(title) => Cow::Owned(DocInfo { title: Some(title.to_owned()), ..info.clone() }),
        None => Cow::Borrowed(info),
    }
}

/// The .notdef glyphs shown (characters no available face has), as the findings of the
/// conformance asked for: PDF/UA-1 forbids any reference to .notdef (ISO 14289-1 §7.21.8),
/// as PDF/A-2 and PDF/A-3 do (ISO 19005-2 §6.2.11.8); PDF/A-1 has no such rule.
pub(super) fn notdef(options: &PdfOptions, glyphs: usize) -> Vec<Warning> {
    let mut out = Vec::new();
    if glyphs == 0 {
        return out;
    }
    if options.pdfua {
        out.push(Warning::new(
            "pdfua_notdef_glyph",
            format!("{glyphs} glyph(s) are .notdef: characters no available face has (ISO 14289-1 §7.21.8)"),
        ));
    }
    if options.pdfa.is_some_and(|level| level.part() >= 2) {
        out.push(Warning::new(
            "pdfa_notdef_glyph",
            format!("{glyphs} glyph(s) are .notdef: characters no available face has (ISO 19005-2 §6.2.11.8)"),
        ));
    }
    out
}

/// What keeps the document from the conformance asked for, as warnings; the PDF is
/// written all the same. `info` is as [`titled`] gives it.
pub(super) fn warnings(options: &PdfOptions, info: &DocInfo, tagging: &Tagging<'_>) -> Vec<Warning> {
    let mut out = Vec::new();
    if options.pdfua {
        let figures_without_alt = tagging.figures_without_alt();
        if figures_without_alt > 0 {
            out.push(Warning::new(
                "pdfua_figure_without_alt",
                format!("{figures_without_alt} picture(s) have no alternative text in the document (ISO 14289-1 §7.3)"),
            ));
        }
        let tables_without_headers = tagging.tables_without_headers();
        if tables_without_headers > 0 {
            out.push(Warning::new(
                "pdfua_table_without_headers",
                format!("{tables_without_headers} table(s) mark no header row or column in the document (ISO 14289-1 §7.5)"),
            ));
        }
        if present(&info.title).is_none() {
            out.push(Warning::new(
                "pdfua_no_title",
                "the document has no title in its properties, no Title or heading paragraph to take one from, and no file name (ISO 14289-1 §7.1)",
            ));
        }
    }
    out
}
