//! Font dictionaries (ISO 32000-1 §9.7): each used face becomes a Type0 font over a CIDFont with a subset font program, widths and a ToUnicode CMap.

use pdf_writer::types::{CidFontType, SystemInfo};
use pdf_writer::writers::CidFont;
use pdf_writer::{Chunk, Filter, Finish, Name, Str};
use rustybuzz::ttf_parser::{name_id, Tag};

use super::cmap;
use super::deflate::Deflater;
use super::descriptor;
use super::document::Refs;
use super::font::{FontSet, UsedFont};
use super::PdfError;

/// Content streams show 2-byte glyph ids as CIDs (§9.7.5.2).
const IDENTITY_H: &str = "Identity-H";

/// The character collection of Identity-keyed CIDFonts; subsetter also writes this
/// ROS into CFF fonts it makes CID-keyed.
const IDENTITY: SystemInfo<'static> = SystemInfo {
    registry: Str(b"Adobe"),
    ordering: Str(b"Identity"),
    supplement: 0,
};

/// Leaves room for the subset tag and `-Identity-H` within the 127-byte name limit of
/// PDF/A and Acrobat (ISO 32000-1 Annex C).
const MAX_NAME_LEN: usize = 127 - 7 - 1 - IDENTITY_H.len();

/// A font's compressed streams: its subset program and its ToUnicode CMap.
pub(super) struct PackedFont {
    /// The length of the subset program before compression (Length1).
    program_len: usize,
    program: Vec<u8>,
    to_unicode: Vec<u8>,
    /// The subset's glyph count (its CIDs are 0 up to it).
    glyphs: usize,
}

/// About how much work packing `font` is, in bytes to compress: subsetting reads tables
/// in proportion to the face (a CJK face of 20 MB is ~1 MB of work, a Latin one a few
/// tens of KB), and each glyph kept is compressed.
pub(super) fn work(font: &UsedFont) -> usize {
    font.face.bytes().len() / 16 + font.texts.len() * 256
}

/// Subsets and compresses one font: the slow part of embedding it, which the writer runs
/// for all fonts at once, on as many threads as it may use.
pub(super) fn pack_font(font: &UsedFont, deflater: &mut Deflater) -> Result<PackedFont, PdfError> {
    let subset =
        subsetter::subset(font.face.bytes(), font.face.index, &font.remapper).map_err(|err| {
            PdfError::Font {
                name: font.face.postscript_name.clone(),
                reason: err.to_string(),
            }
        })?;
    let program = deflater.deflate(&subset)?.to_vec();
    let texts: Vec<&str> = font.texts.iter().map(|t| t.as_str()).collect();
    let to_unicode = deflater.deflate(&cmap::to_unicode(&texts))?.to_vec();
    // The subset also holds the components of composite glyphs, numbered after the glyphs
    // shown: its own glyph count says which CIDs it has.
    let glyphs = rustybuzz::ttf_parser::Face::parse(&subset, 0).map_or(0, |f| usize::from(f.number_of_glyphs()));
    Ok(PackedFont { program_len: subset.len(), program, to_unicode, glyphs })
}

/// Writes every font of `fonts` with its packed streams (same order), each at the Type0
/// reference it got on first use.
/// `cid_set` adds each descriptor's /CIDSet (PDF/A-1 requires one for a subset CIDFont,
/// ISO 19005-1 §6.3.5).
pub(super) fn write_fonts(chunk: &mut Chunk, refs: &mut Refs, fonts: &FontSet, packed: &[PackedFont], cid_set: bool) -> Result<(), PdfError> {
    for (font, packed) in fonts.iter().zip(packed) {
        write_font(chunk, refs, font, packed, cid_set)?;
    }
    Ok(())
}

/// The /CIDSet bit string (§9.8.1, Table 124) of a subset whose CIDs are 0..`count`: one
/// bit per CID, the high bit of the first byte for CID 0.
fn cid_set_bits(count: usize) -> Vec<u8> {
    let mut bits = vec![0xFF; count.div_ceil(8)];
    if let Some(last) = bits.last_mut() {
        let rest = count % 8;
        if rest != 0 {
            *last = 0xFF << (8 - rest);
        }
    }
    bits
}

/// Writes one font: Type0 → CIDFont → FontDescriptor → font file, plus ToUnicode.
fn write_font(chunk: &mut Chunk, refs: &mut Refs, font: &UsedFont, packed: &PackedFont, cid_set: bool) -> Result<(), PdfError> {
    let ttf = font.ttf()?;
    let (cid_ref, descriptor_ref, cmap_ref, file_ref) =
        (refs.alloc(), refs.alloc(), refs.alloc(), refs.alloc());
    // Subsetter keeps glyf outlines as glyf and otherwise CFF as CFF (in an OpenType
    // wrapper); decide the same way it does.
    let raw = ttf.raw_face();
    let is_cff = raw.table(Tag::from_bytes(b"glyf")).is_none()
        && raw.table(Tag::from_bytes(b"CFF ")).is_some();
    let base_font = base_font(font, &ttf);

    // §9.7.6.1: a Type0 over a CIDFontType0 is named `<CIDFont name>-<CMap name>`,
    // over a CIDFontType2 just like its CIDFont.
    let type0_name = if is_cff {
        format!("{base_font}-{IDENTITY_H}")
    } else {
        base_font.clone()
    };
    chunk
        .type0_font(font.type0)
        .base_font(Name(type0_name.as_bytes()))
        .encoding_predefined(Name(IDENTITY_H.as_bytes()))
        .descendant_font(cid_ref)
        .to_unicode(cmap_ref);

    let mut cid = chunk.cid_font(cid_ref);
    cid.subtype(if is_cff {
        CidFontType::Type0
    } else {
        CidFontType::Type2
    })
    .base_font(Name(base_font.as_bytes()))
    .system_info(IDENTITY)
    .font_descriptor(descriptor_ref);
    // CIDToGIDMap exists only for CIDFontType2 (§9.7.4.2, Table 117); a CFF CIDFont maps
    // CIDs through its charset, which subsetter writes as the identity.
    if !is_cff {
        cid.cid_to_gid_map_predefined(Name(b"Identity"));
    }
    write_widths(&mut cid, &font.widths);
    cid.finish();

    let mut descriptor =
        descriptor::write(chunk, descriptor_ref, Name(base_font.as_bytes()), &ttf);
    if is_cff {
        descriptor.font_file3(file_ref);
    } else {
        descriptor.font_file2(file_ref);
    }
    // Every CID up to the subset's last glyph is present: glyphs are numbered densely.
    let set = cid_set.then(|| (refs.alloc(), cid_set_bits(packed.glyphs.max(font.widths.len()))));
    if let Some((set_ref, _)) = &set {
        descriptor.pair(Name(b"CIDSet"), *set_ref);
    }
    descriptor.finish();
    if let Some((set_ref, bits)) = &set {
        chunk.stream(*set_ref, bits);
    }

    let mut stream = chunk.stream(file_ref, &packed.program);
    stream.filter(Filter::FlateDecode);
    if is_cff {
        // Subsetter writes an OTTO font whose CFF table is CID-keyed (ROS Adobe-Identity-0,
        // identity charset, so CID = new glyph id) with maxp and hmtx matching the
        // CharStrings count, and without cmap or OS/2, which a CIDFontType0 never consults.
        // That is the FontFile3 /OpenType case "CFF table with a Top DICT that uses CIDFont
        // operators" of Table 126 (PDF 1.6; pdf-writer's header says 1.7).
        stream.pair(Name(b"Subtype"), Name(b"OpenType"));
    } else {
        // Length1, the decoded length, is required for TrueType programs (Table 127).
        stream.pair(
            Name(b"Length1"),
            i32::try_from(packed.program_len).unwrap_or(i32::MAX),
        );
    }
    stream.finish();

    chunk
        .cmap(cmap_ref, &packed.to_unicode)
        .name(cmap::NAME)
        .system_info(cmap::SYSTEM_INFO)
        .filter(Filter::FlateDecode);
    Ok(())
}

/// Writes DW and W (§9.7.4.3): DW is the most common whole-number width and W lists the
/// CIDs that differ from it, which keeps the array short both for Latin text and for
/// CJK's uniform ideographs. DW stays an integer because poppler ignores a real DW.
fn write_widths(cid: &mut CidFont, widths: &[f32]) {
    let default = most_common_integer(widths);
    cid.default_width(default);
    let mut array = cid.widths();
    let mut i = 0;
    while i < widths.len() {
        if widths[i] == default {
            i += 1;
            continue;
        }
        let start = i;
        while i < widths.len() && widths[i] != default {
            i += 1;
        }
        // CIDs are u16 by construction (the remapper hands them out).
        array.consecutive(start as u16, widths[start..i].iter().copied());
    }
}

/// The most frequent whole-number width, the smallest among ties so output stays
/// deterministic; 1000, the default DW, when no width is whole.
fn most_common_integer(widths: &[f32]) -> f32 {
    let mut whole: Vec<u32> = widths
        .iter()
        .filter(|w| w.fract() == 0.0)
        .map(|&w| w as u32)
        .collect();
    whole.sort_unstable();
    let (mut best, mut best_len) = (1000, 0);
    for run in whole.chunk_by(|a, b| a == b) {
        if run.len() > best_len {
            (best, best_len) = (run[0], run.len());
        }
    }
    best as f32
}

/// `ABCDEF+PostScriptName`: a subset tag (§9.6.4) derived from the name and glyph set, so
/// different subsets of one face get different names while the same input always gets
/// the same one.
fn base_font(font: &UsedFont, ttf: &rustybuzz::ttf_parser::Face<'_>) -> String {
    let mut name = sanitize(&font.face.postscript_name);
    if name.is_empty() {
        let from_table = ttf
            .names()
            .into_iter()
            .filter(|n| n.name_id == name_id::POST_SCRIPT_NAME)
            .find_map(|n| n.to_string());
        name = sanitize(from_table.as_deref().unwrap_or(""));
    }
    if name.is_empty() {
        name.push_str("Unknown");
    }
    name.truncate(MAX_NAME_LEN);

    let mut hash = Fnv::default();
    hash.write(name.as_bytes());
    for gid in font.remapper.remapped_gids() {
        hash.write(&gid.to_be_bytes());
    }
    let mut value = hash.0;
    let mut tag = String::with_capacity(8 + name.len());
    for _ in 0..6 {
        tag.push(char::from(b'A' + (value % 26) as u8));
        value /= 26;
    }
    tag.push('+');
    tag.push_str(&name);
    tag
}

/// Keeps the characters a PostScript name may hold: printable ASCII without spaces and
/// without PDF delimiters, which would need escaping in a name.
fn sanitize(name: &str) -> String {
    name.chars()
        .filter(|c| c.is_ascii_graphic() && !"()<>[]{}/%#".contains(*c))
        .collect()
}

/// 64-bit FNV-1a: tiny, and unlike `DefaultHasher` its output is fixed forever, which
/// byte-for-byte reproducible output across Rust releases needs.
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::cid_set_bits;

    #[test]
    fn a_cid_set_marks_exactly_the_first_cids() {
        assert_eq!(cid_set_bits(8), vec![0xFF]);
        assert_eq!(cid_set_bits(10), vec![0xFF, 0b1100_0000]);
        assert_eq!(cid_set_bits(1), vec![0b1000_0000]);
    }
}
