//! Reading a whole package: sniff, open the zip, find the main part through the package
//! relationships, then read the document and the parts it relies on, each once.

use std::collections::HashSet;
use std::sync::Arc;

use crate::deadline::Deadline;
use crate::warning::Warning;

use super::body::read_body;
use super::content_types::{is_main_part_type, ContentTypes};
use super::context::{Skipped, Story};
use super::core_props::read_core_props;
use super::font_table::{read_font_table, EmbedRef};
use super::model::{Block, Document, EmbeddedFont, FontDecl, SectionProps};
use super::obfuscated_font::{deobfuscate, looks_like_font};
use super::notes::read_notes;
use super::numbering::read_numbering;
use super::media::{MediaCache, MediaSource, PackageMedia};
use super::package::Package;
use super::rels::{rels_part_for, Rels};
use super::settings::read_settings;
use super::sniff::sniff;
use super::styles::read_styles;
use super::theme::read_theme;
use super::theme_color::Palette;
use super::xml::{to_utf8, Ev, XmlReader};
use super::{DocxError, PackageLimits, ReadDocument, StoryContext, StoryFilter};
use super::story_filter::CustomXmlPart;

/// The main part when the package relationships do not name one.
const DEFAULT_MAIN_PART: &str = "word/document.xml";

/// Reads a package (see [`super::read`]).
pub(crate) fn read_package(
    bytes: &[u8],
    limits: &PackageLimits,
    deadline: &Deadline,
    filter: Option<&mut dyn StoryFilter>,
) -> Result<ReadDocument, DocxError> {
    sniff(bytes)?;
    deadline.check()?;
    let mut parts = Parts {
        package: Package::open(bytes, limits)?,
        limits,
        deadline,
        warnings: Vec::new(),
        palette: Palette::default(),
        media: MediaCache::default(),
        filter: match filter {
            Some(f) => Some(&mut *f as &mut dyn StoryFilter),
            None => None,
        },
        language: None,
    };

    let package_rels = parts.rels_of("")?;
    let content_types = parts.optional("[Content_Types].xml", ContentTypes::read)?;
    let main = find_main_part(&mut parts, &package_rels, content_types.as_ref())?;
    check_main_content_type(&mut parts.warnings, &main, content_types.as_ref());
    let document_rels = parts.rels_of(&main)?;

    // Settings and the theme come first: theme colour references in every other part
    // resolve through their palette as they are read.
    let mut document = Document::default();
    let settings = document_rels
        .first_of("settings")
        .filter(|r| !r.external)
        .map_or(default_sibling(&main, "settings.xml"), |r| r.target.clone());
    document.settings = parts.optional(&settings, read_settings)?.unwrap_or_default();
    parts.language = document.settings.theme_font_lang.latin.clone();
    if let Some(theme) = document_rels.first_of("theme").filter(|r| !r.external) {
        let theme = parts.optional(&theme.target.clone(), read_theme)?.unwrap_or_default();
        document.theme = theme.fonts;
        document.theme_colors = theme.colors;
    }
    parts.palette = Palette {
        scheme: document.theme_colors,
        mapping: document.settings.color_scheme_mapping,
    };

    if parts.filter.is_some() {
        let custom = parts.custom_xml(&document_rels)?;
        if let Some(filter) = parts.filter.as_deref_mut() {
            filter.custom_xml(custom, limits);
        }
    }

    let mut skipped = Skipped::default();
    let (body, final_section) = parts
        .story(&main, false, &document_rels, |xml, media, rels| read_main_document(xml, rels, &mut skipped, media))?
        .ok_or(DocxError::NoMainPart)?;
    document.body = body;
    document.final_section = final_section;

    let styles = document_rels
        .first_of("styles")
        .filter(|r| !r.external)
        .map_or(default_sibling(&main, "styles.xml"), |r| r.target.clone());
    document.styles = parts.optional(&styles, read_styles)?.unwrap_or_default();
    // §17.9: only a relationship makes a numbering part; damage skips it with a warning.
    if let Some(rel) = document_rels.first_of("numbering").filter(|r| !r.external) {
        let name = rel.target.clone();
        let rels = parts.rels_of(&name)?;
        let warned = parts.warnings.len();
        let read = parts.story(&name, true, &rels, |xml, media, rels| read_numbering(xml, &mut Story::new(rels, &mut skipped).with_media(media)))?;
        match read {
            Some(defs) => document.numbering = defs,
            // A broken part has already said so.
            None if parts.warnings.len() == warned => parts
                .warnings
                .push(Warning::new("part_missing", format!("the numbering part {name} is missing; lists have no numbers"))),
            None => {}
        }
    }
    let core = package_rels
        .first_of("core-properties")
        .filter(|r| !r.external)
        .map_or("docProps/core.xml".to_owned(), |r| r.target.clone());
    document.info = parts.optional(&core, read_core_props)?.unwrap_or_default();

    for id in header_footer_ids(&document.body, &document.final_section) {
        let Some(rel) = document_rels.get(&id).filter(|r| !r.external) else {
            continue;
        };
        let part = rel.target.clone();
        let rels = parts.rels_of(&part)?;
        let read = parts.story(&part, true, &rels, |xml, media, rels| read_header_footer(xml, rels, &mut skipped, media))?;
        if let Some(blocks) = read {
            document.parts.insert(id, blocks);
        }
    }

    // §17.11: the notes parts, found through the document's relationships.
    for (kind, endnotes) in [("footnotes", false), ("endnotes", true)] {
        let Some(rel) = document_rels.first_of(kind).filter(|r| !r.external) else {
            continue;
        };
        let part = rel.target.clone();
        let rels = parts.rels_of(&part)?;
        if let Some(notes) = parts.story(&part, true, &rels, |xml, media, rels| read_notes(xml, rels, &mut skipped, media))? {
            if endnotes {
                document.endnotes = notes;
            } else {
                document.footnotes = notes;
            }
        }
    }

    document.fonts = parts.fonts(&document_rels)?;
    document.hyperlinks = document_rels
        .iter()
        .filter(|r| r.external && r.is("hyperlink"))
        .map(|r| (r.id.clone(), r.target.clone()))
        .collect();
    let mut warnings = parts.warnings;
    skipped.into_warnings(&mut warnings);
    Ok(ReadDocument { document, warnings })
}

/// The package being read, with the warnings gathered so far.
struct Parts<'a> {
    package: Package<'a>,
    limits: &'a PackageLimits,
    deadline: &'a Deadline,
    warnings: Vec<Warning>,
    /// Theme colours for every part read after the theme and settings.
    palette: Palette,
    /// Picture parts read so far.
    media: MediaCache,
    /// What rewrites story parts before they are read (a template's fill), if anything.
    filter: Option<&'a mut dyn StoryFilter>,
    /// The document's language from its settings, for the filter.
    language: Option<String>,
}

impl Parts<'_> {
    /// The text of an XML part as UTF-8, once the deadline allows; `None` when absent.
    fn xml_part(&mut self, name: &str) -> Result<Option<Vec<u8>>, DocxError> {
        self.deadline.check()?;
        Ok(self.package.read(name)?.map(to_utf8))
    }

    /// Reads an XML part through `read`; `None` when the part is absent.
    fn required<T>(
        &mut self,
        name: &str,
        read: impl FnOnce(&mut XmlReader<'_>) -> Result<T, DocxError>,
    ) -> Result<Option<T>, DocxError> {
        let Some(bytes) = self.xml_part(name)? else {
            return Ok(None);
        };
        let xml = XmlReader::new(&bytes, name, self.limits.max_xml_depth, self.deadline).guarded(self.limits);
        read(&mut xml.with_palette(&self.palette)).map(Some)
    }

    /// Reads a story part (the body, a header, a footer) through `read`, which may also
    /// read the media parts its pictures point at through `rels`, the part's
    /// relationships (with the pictures a filter added). When `optional`, damage or
    /// malformed XML only skips the part with a warning, as in [`Parts::optional`].
    fn story<T>(
        &mut self,
        name: &str,
        optional: bool,
        rels: &Rels,
        read: impl FnOnce(&mut XmlReader<'_>, &mut dyn MediaSource, &Rels) -> Result<T, DocxError>,
    ) -> Result<Option<T>, DocxError> {
        match self.story_inner(name, rels, read) {
            Err(e) if optional && e.is_recoverable_in_optional_part() => {
                self.warnings
                    .push(Warning::new("part_skipped", format!("{e}; the part was skipped")));
                Ok(None)
            }
            other => other,
        }
    }

    fn story_inner<T>(
        &mut self,
        name: &str,
        rels: &Rels,
        read: impl FnOnce(&mut XmlReader<'_>, &mut dyn MediaSource, &Rels) -> Result<T, DocxError>,
    ) -> Result<Option<T>, DocxError> {
        let Some(mut bytes) = self.xml_part(name)? else {
            return Ok(None);
        };
        let mut added_rels = None;
        if let Some(filter) = self.filter.as_deref_mut() {
            let context = StoryContext { limits: self.limits, deadline: self.deadline, language: self.language.as_deref() };
            bytes = filter.story(name, bytes, &context)?;
            // Pictures the filter put in: a relationship of the part each, to a part name
            // no package holds, whose bytes the media cache already has.
            for (n, picture) in filter.take_pictures().into_iter().enumerate() {
                let target = format!("{name}/template-picture-{n}");
                self.media.insert(&target, picture.bytes);
                added_rels = Some(added_rels.as_ref().unwrap_or(rels).with_picture(&picture.id, &target));
            }
        }
        let rels = added_rels.as_ref().unwrap_or(rels);
        let xml = XmlReader::new(&bytes, name, self.limits.max_xml_depth, self.deadline).guarded(self.limits);
        let mut media = PackageMedia {
            package: &mut self.package,
            cache: &mut self.media,
            warnings: &mut self.warnings,
        };
        read(&mut xml.with_palette(&self.palette), &mut media, rels).map(Some)
    }

    /// The Custom XML data parts the document relates to (Part 1 §15.2.4), with their
    /// properties; a damaged or missing one is left out, limits still stop the read.
    fn custom_xml(&mut self, document_rels: &Rels) -> Result<Vec<CustomXmlPart>, DocxError> {
        let mut found = Vec::new();
        for rel in document_rels.iter().filter(|r| !r.external && r.is("customXml")) {
            let optional = |read: Result<Option<Vec<u8>>, DocxError>| match read {
                Err(e) if e.is_recoverable_in_optional_part() => Ok(None),
                other => other,
            };
            let Some(item) = optional(self.xml_part(&rel.target))? else { continue };
            let rels = self.rels_of(&rel.target)?;
            let props = match rels.first_of("customXmlProps").filter(|r| !r.external) {
                Some(p) => optional(self.xml_part(&p.target.clone()))?,
                None => None,
            };
            found.push(CustomXmlPart { item, props });
        }
        Ok(found)
    }

    /// Like [`Parts::required`], but damage or malformed XML only skips the part with a
    /// warning. Limits, DTDs and the deadline still stop the read.
    fn optional<T>(
        &mut self,
        name: &str,
        read: impl FnOnce(&mut XmlReader<'_>) -> Result<T, DocxError>,
    ) -> Result<Option<T>, DocxError> {
        match self.required(name, read) {
            Err(e) if e.is_recoverable_in_optional_part() => {
                self.warnings
                    .push(Warning::new("part_skipped", format!("{e}; the part was skipped")));
                Ok(None)
            }
            other => other,
        }
    }

    /// The font table (§17.8.3) with its embedded faces. A face that is missing or does
    /// not de-obfuscate to a font is skipped with a warning; the package limits and the
    /// deadline still stop the read, since font parts count like any other.
    fn fonts(&mut self, document_rels: &Rels) -> Result<Vec<FontDecl>, DocxError> {
        let Some(rel) = document_rels.first_of("fontTable").filter(|r| !r.external) else {
            return Ok(Vec::new());
        };
        let part = rel.target.clone();
        let entries = self.optional(&part, read_font_table)?.unwrap_or_default();
        let rels = if entries.iter().any(|e| !e.embeds.is_empty()) {
            self.rels_of(&part)?
        } else {
            Rels::default()
        };
        let mut fonts = Vec::with_capacity(entries.len());
        for mut entry in entries {
            for embed in &entry.embeds {
                self.deadline.check()?;
                match self.embedded_font(&rels, embed) {
                    Ok(font) => entry.decl.embedded.push(font),
                    Err(Skip::Because(reason)) => self.warnings.push(Warning::new(
                        "embedded_font_skipped",
                        format!(
                            "the embedded {:?} face of font {} was skipped: {reason}",
                            embed.style, entry.decl.name
                        ),
                    )),
                    Err(Skip::Fatal(e)) => return Err(e),
                }
            }
            fonts.push(entry.decl);
        }
        Ok(fonts)
    }

    /// One embedded face, read and de-obfuscated (§17.8.1).
    fn embedded_font(&mut self, rels: &Rels, embed: &EmbedRef) -> Result<EmbeddedFont, Skip> {
        let rel = rels
            .get(&embed.rel_id)
            .filter(|r| !r.external)
            .ok_or_else(|| Skip::Because(format!("relationship {} is not in the font table's rels", embed.rel_id)))?;
        let mut data = match self.package.read(&rel.target) {
            Ok(Some(data)) => data,
            Ok(None) => return Err(Skip::Because(format!("part {} is missing", rel.target))),
            Err(e) if e.is_recoverable_in_optional_part() => return Err(Skip::Because(e.to_string())),
            Err(e) => return Err(Skip::Fatal(e)),
        };
        if let Some(key) = &embed.key {
            deobfuscate(&mut data, key);
        }
        if !looks_like_font(&data) {
            return Err(Skip::Because(format!(
                "part {} is not a TrueType or OpenType font",
                rel.target
            )));
        }
        Ok(EmbeddedFont {
            style: embed.style,
            subsetted: embed.subsetted,
            data: Arc::from(data),
        })
    }

    /// The relationships of a part (`""` for the package); empty when absent or broken.
    fn rels_of(&mut self, part: &str) -> Result<Rels, DocxError> {
        let name = if part.is_empty() {
            "_rels/.rels".to_owned()
        } else {
            rels_part_for(part)
        };
        Ok(self.optional(&name, |xml| Rels::read(xml, part))?.unwrap_or_default())
    }
}

/// Why an embedded font was not kept.
enum Skip {
    /// A warning's reason.
    Because(String),
    /// A limit or the deadline: the whole read stops.
    Fatal(DocxError),
}

/// The main document part: the package's `officeDocument` relationship (Part 1 §11.3.10),
/// else `word/document.xml`. A package of another format is named in the error.
fn find_main_part(
    parts: &mut Parts<'_>,
    package_rels: &Rels,
    types: Option<&ContentTypes>,
) -> Result<String, DocxError> {
    let by_rel = package_rels
        .first_of("officeDocument")
        .filter(|r| !r.external)
        .map(|r| r.target.as_str());
    if let Some(target) = by_rel {
        let foreign = ["xl/", "ppt/", "visio/"]
            .iter()
            .any(|p| starts_with_ignore_case(target, p))
            || types
                .and_then(|t| t.of(target))
                .is_some_and(|t| t.contains("spreadsheetml") || t.contains("presentationml"));
        if !foreign && parts.package.contains(target) {
            return Ok(target.to_owned());
        }
    }
    if parts.package.contains(DEFAULT_MAIN_PART) {
        return Ok(DEFAULT_MAIN_PART.to_owned());
    }
    Err(other_format(parts)?.unwrap_or(DocxError::NoMainPart))
}

/// Names the format of a zip that has no Word main part.
fn other_format(parts: &mut Parts<'_>) -> Result<Option<DocxError>, DocxError> {
    let format = if parts.package.contains("mimetype") {
        // ODF 1.2 Part 3 §3.3: the first entry, `mimetype`, holds the media type.
        let bytes = parts.package.read("mimetype")?.unwrap_or_default();
        let mimetype: String = String::from_utf8_lossy(&bytes)
            .trim()
            .chars()
            .take(100)
            .filter(|c| c.is_ascii_graphic())
            .collect();
        match mimetype.as_str() {
            "application/vnd.oasis.opendocument.text" => "an OpenDocument text document (.odt)".to_owned(),
            "application/vnd.oasis.opendocument.spreadsheet" => "an OpenDocument spreadsheet (.ods)".to_owned(),
            "application/vnd.oasis.opendocument.presentation" => "an OpenDocument presentation (.odp)".to_owned(),
            "application/epub+zip" => "an EPUB e-book".to_owned(),
            other => format!("an OpenDocument or other zip package ({other})"),
        }
    } else if parts.package.has_folder("xl/") {
        "an Excel workbook (.xlsx)".to_owned()
    } else if parts.package.has_folder("ppt/") {
        "a PowerPoint presentation (.pptx)".to_owned()
    } else if parts.package.has_folder("visio/") {
        "a Visio drawing (.vsdx)".to_owned()
    } else {
        return Ok(None);
    };
    Ok(Some(DocxError::OtherPackage { format }))
}

/// A content-type mismatch on the main part is worth a warning, not a failure: Word itself
/// opens such files when the XML is right.
fn check_main_content_type(warnings: &mut Vec<Warning>, main: &str, types: Option<&ContentTypes>) {
    let message = match types.map(|t| t.of(main)) {
        None => "the package has no readable [Content_Types].xml".to_owned(),
        Some(None) => format!("[Content_Types].xml gives no content type for {main}"),
        Some(Some(t)) if is_main_part_type(t) => return,
        Some(Some(t)) => format!("{main} has content type {t}, not a WordprocessingML main document type"),
    };
    warnings.push(Warning::new(
        "package_irregular",
        format!("{message}; read as a Word document anyway"),
    ));
}

/// `w:document/w:body` (§17.2.2): the blocks and the last section.
fn read_main_document(
    xml: &mut XmlReader<'_>,
    rels: &Rels,
    skipped: &mut Skipped,
    media: &mut dyn MediaSource,
) -> Result<(Vec<Block>, SectionProps), DocxError> {
    if !xml.enter_root(&[b"document"])? {
        return Err(DocxError::Xml {
            part: xml.part().to_owned(),
            position: 0,
            reason: "the root element is not w:document".into(),
        });
    }
    let mut story = Story::new(rels, skipped).with_media(media);
    let mut out = (Vec::new(), SectionProps::default());
    loop {
        match xml.next()? {
            Ev::Start(e) if e.local_name().as_ref() == b"body" => out = read_body(xml, &mut story)?,
            // `w:background` and anything else at this level.
            Ev::Start(_) => xml.skip()?,
            Ev::End | Ev::Eof => return Ok(out),
            Ev::Text(_) | Ev::CData(_) => {}
        }
    }
}

/// A header or footer part (`w:hdr`/`w:ftr`, §17.10.4): its blocks.
fn read_header_footer(
    xml: &mut XmlReader<'_>,
    rels: &Rels,
    skipped: &mut Skipped,
    media: &mut dyn MediaSource,
) -> Result<Vec<Block>, DocxError> {
    if !xml.enter_root(&[b"hdr", b"ftr"])? {
        return Ok(Vec::new());
    }
    let mut story = Story::new(rels, skipped).with_media(media);
    super::body::read_blocks(xml, &mut story)
}

/// The header and footer relationship ids of every section, each once, in order.
fn header_footer_ids(body: &[Block], last: &SectionProps) -> Vec<String> {
    let sections = body
        .iter()
        .filter_map(|b| match b {
            Block::Paragraph(p) => p.section.as_deref(),
            Block::Table(_) => None,
        })
        .chain([last]);
    let mut seen = HashSet::new();
    let mut ids = Vec::new();
    for s in sections {
        for id in [
            &s.headers.default,
            &s.headers.first,
            &s.headers.even,
            &s.footers.default,
            &s.footers.first,
            &s.footers.even,
        ]
        .into_iter()
        .flatten()
        {
            if seen.insert(id.as_str()) {
                ids.push(id.clone());
            }
        }
    }
    ids
}

/// A part next to the main part (`word/styles.xml` beside `word/document.xml`).
fn default_sibling(main: &str, file: &str) -> String {
    match main.rsplit_once('/') {
        Some((folder, _)) => format!("{folder}/{file}"),
        None => file.to_owned(),
    }
}

fn starts_with_ignore_case(s: &str, prefix: &str) -> bool {
    s.len() >= prefix.len() && s.as_bytes()[..prefix.len()].eq_ignore_ascii_case(prefix.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::docx::model::{Block, Color, Inline, LinkTarget, ThemeColor};
    use crate::docx::test_support::{
        document_xml, docx, read_bytes, texts, zip_of, CONTENT_TYPES, DOCUMENT_RELS, PACKAGE_RELS,
    };
    use crate::docx::DocxErrorKind;
    use crate::units::Twips;
    use std::time::Duration;

    const HEADER_RELS: &str = r#"<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
        <Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="https://header.example/" TargetMode="External"/></Relationships>"#;

    fn header(tag: &str, body: &str) -> String {
        format!(r#"<w:{tag} xmlns:w="w" xmlns:r="r">{body}</w:{tag}>"#)
    }

    fn with_numbering_rel() -> String {
        DOCUMENT_RELS.replace(
            "</Relationships>",
            r#"<Relationship Id="rIdN" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/numbering" Target="numbering.xml"/></Relationships>"#,
        )
    }

    #[test]
    fn the_numbering_part_is_read_through_the_document_rels() {
        let rels = with_numbering_rel();
        let numbering = r#"<w:numbering xmlns:w="w"><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>"#;
        let bytes = docx("<w:p/>", &[("word/_rels/document.xml.rels", &rels), ("word/numbering.xml", numbering)]);
        let read = read_bytes(&bytes).unwrap();
        assert_eq!(read.document.numbering.nums[&1].abstract_id, 0);
    }

    #[test]
    fn a_missing_numbering_part_is_a_warning() {
        let rels = with_numbering_rel();
        let read = read_bytes(&docx("<w:p/>", &[("word/_rels/document.xml.rels", &rels)])).unwrap();
        assert!(read.warnings.iter().any(|w| w.kind == "part_missing"), "{:?}", read.warnings);
    }

    #[test]
    fn a_broken_numbering_part_is_skipped_with_a_warning() {
        let rels = with_numbering_rel();
        let bytes = docx("<w:p/>", &[("word/_rels/document.xml.rels", &rels), ("word/numbering.xml", "<w:numbering><w:num")]);
        let read = read_bytes(&bytes).unwrap();
        assert!(read.warnings.iter().any(|w| w.kind == "part_skipped"), "{:?}", read.warnings);
    }

    #[test]
    fn minimal_package_reads_without_warnings() {
        let read = read_bytes(&docx("<w:p><w:r><w:t>Hello</w:t></w:r></w:p>", &[])).unwrap();
        assert_eq!(texts(&read.document.body), ["Hello"]);
        assert!(read.warnings.is_empty(), "{:?}", read.warnings);
    }

    #[test]
    fn main_part_comes_from_the_package_rels() {
        let rels = PACKAGE_RELS.replace("word/document.xml", "/content/main.xml");
        let types = CONTENT_TYPES.replace("/word/document.xml", "/content/main.xml");
        let doc = document_xml("<w:p><w:r><w:t>moved</w:t></w:r></w:p>");
        let bytes = zip_of(&[
            ("_rels/.rels", rels.as_bytes()),
            ("[Content_Types].xml", types.as_bytes()),
            ("content/main.xml", doc.as_bytes()),
        ]);
        let read = read_bytes(&bytes).unwrap();
        assert_eq!(texts(&read.document.body), ["moved"]);
        assert!(read.warnings.is_empty(), "{:?}", read.warnings);
    }

    #[test]
    fn missing_package_rels_fall_back_to_word_document() {
        let doc = document_xml("<w:p><w:r><w:t>x</w:t></w:r></w:p>");
        let bytes = zip_of(&[
            ("[Content_Types].xml", CONTENT_TYPES.as_bytes()),
            ("word/document.xml", doc.as_bytes()),
        ]);
        assert_eq!(texts(&read_bytes(&bytes).unwrap().document.body), ["x"]);
    }

    #[test]
    fn content_type_mismatch_is_a_warning() {
        let types = CONTENT_TYPES.replace("wordprocessingml.document.main+xml", "wordprocessingml.foo+xml");
        let read = read_bytes(&docx("<w:p/>", &[("[Content_Types].xml", &types)])).unwrap();
        assert_eq!(read.warnings.len(), 1);
        assert_eq!(read.warnings[0].kind, "package_irregular");
    }

    #[test]
    fn macro_enabled_template_is_accepted() {
        let types = CONTENT_TYPES.replace(
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml",
            "application/vnd.ms-word.template.macroEnabledTemplate.main+xml",
        );
        let read = read_bytes(&docx("<w:p/>", &[("[Content_Types].xml", &types)])).unwrap();
        assert!(read.warnings.is_empty());
    }

    #[test]
    fn zip_without_main_part_is_invalid() {
        let e = read_bytes(&zip_of(&[("hello.txt", b"hi")])).unwrap_err();
        assert_eq!(e.kind(), DocxErrorKind::Invalid);
        assert!(e.to_string().contains("no word/document.xml"), "{e}");
    }

    #[test]
    fn odf_package_is_unsupported_and_named() {
        let e = read_bytes(&zip_of(&[
            ("mimetype", b"application/vnd.oasis.opendocument.text"),
            ("content.xml", b"<x/>"),
        ]))
        .unwrap_err();
        assert_eq!(e.kind(), DocxErrorKind::Unsupported);
        assert_eq!(
            e.to_string(),
            "the upload is an OpenDocument text document (.odt), not a Word document"
        );
    }

    #[test]
    fn xlsx_package_is_unsupported_and_named() {
        let rels = PACKAGE_RELS.replace("word/document.xml", "xl/workbook.xml");
        let e = read_bytes(&zip_of(&[
            ("_rels/.rels", rels.as_bytes()),
            ("xl/workbook.xml", b"<workbook/>"),
        ]))
        .unwrap_err();
        assert_eq!(e.kind(), DocxErrorKind::Unsupported);
        assert!(e.to_string().contains("Excel workbook (.xlsx)"));
    }

    #[test]
    fn pptx_package_is_unsupported_and_named() {
        let e = read_bytes(&zip_of(&[("ppt/presentation.xml", b"<p/>")])).unwrap_err();
        assert!(e.to_string().contains("PowerPoint presentation (.pptx)"));
    }

    #[test]
    fn not_a_zip_is_invalid() {
        let e = read_bytes(b"just some text").unwrap_err();
        assert_eq!(e.to_string(), "the upload is not a zip archive, so not a DOCX");
    }

    #[test]
    fn malformed_main_document_is_an_error_naming_the_part() {
        let bytes = zip_of(&[
            ("_rels/.rels", PACKAGE_RELS.as_bytes()),
            ("word/document.xml", b"<w:document><w:body><w:p></w:body></w:document>"),
        ]);
        let e = read_bytes(&bytes).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("XML part word/document.xml is malformed at byte"),
            "{e}"
        );
    }

    #[test]
    fn malformed_styles_are_a_warning() {
        let read = read_bytes(&docx(
            "<w:p/>",
            &[("word/styles.xml", "<w:styles><w:style></w:styles>")],
        ))
        .unwrap();
        assert_eq!(read.warnings.len(), 1);
        assert_eq!(read.warnings[0].kind, "part_skipped");
        assert!(read.warnings[0].message.contains("word/styles.xml"));
        assert_eq!(read.document.body.len(), 1);
    }

    #[test]
    fn dtd_in_an_optional_part_is_still_refused() {
        let e = read_bytes(&docx(
            "<w:p/>",
            &[("word/styles.xml", "<!DOCTYPE x [<!ENTITY a 'b'>]><w:styles/>")],
        ))
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "XML part word/styles.xml declares a DTD, which is refused"
        );
    }

    #[test]
    fn headers_and_footers_are_read_by_relationship_id() {
        let body = r#"<w:p/><w:sectPr><w:headerReference w:type="default" r:id="rIdH"/><w:footerReference w:type="default" r:id="rIdF"/></w:sectPr>"#;
        let head = header(
            "hdr",
            r#"<w:p><w:hyperlink r:id="rId1"><w:r><w:t>head</w:t></w:r></w:hyperlink></w:p>"#,
        );
        let foot = header("ftr", r#"<w:p><w:r><w:t>foot</w:t></w:r></w:p>"#);
        let bytes = docx(
            body,
            &[
                ("word/header1.xml", &head),
                ("word/_rels/header1.xml.rels", HEADER_RELS),
                ("word/footer1.xml", &foot),
            ],
        );
        let read = read_bytes(&bytes).unwrap();
        let parts = &read.document.parts;
        assert_eq!(texts(&parts["rIdH"]), ["head"]);
        assert_eq!(texts(&parts["rIdF"]), ["foot"]);
        let Block::Paragraph(p) = &parts["rIdH"][0] else {
            panic!()
        };
        assert!(matches!(&p.inlines[0], Inline::LinkStart(LinkTarget::External(u)) if u == "https://header.example/"));
    }

    #[test]
    fn malformed_header_is_skipped_with_a_warning() {
        let body = r#"<w:p/><w:sectPr><w:headerReference w:type="default" r:id="rIdH"/></w:sectPr>"#;
        let read = read_bytes(&docx(body, &[("word/header1.xml", "<w:hdr><w:p></w:hdr>")])).unwrap();
        assert!(read.document.parts.is_empty());
        assert_eq!(read.warnings.len(), 1);
    }

    #[test]
    fn missing_header_part_is_fine() {
        let body = r#"<w:p/><w:sectPr><w:headerReference w:type="default" r:id="rIdH"/></w:sectPr>"#;
        let read = read_bytes(&docx(body, &[])).unwrap();
        assert!(read.document.parts.is_empty() && read.warnings.is_empty());
    }

    #[test]
    fn styles_theme_settings_and_core_properties_are_read() {
        let styles =
            r#"<w:styles xmlns:w="w"><w:style w:type="paragraph" w:styleId="Normal" w:default="1"/></w:styles>"#;
        let theme = r#"<a:theme xmlns:a="a"><a:themeElements><a:fontScheme><a:minorFont><a:latin typeface="Aptos"/></a:minorFont></a:fontScheme></a:themeElements></a:theme>"#;
        let settings = r#"<w:settings xmlns:w="w"><w:defaultTabStop w:val="720"/></w:settings>"#;
        let core = r#"<cp:coreProperties xmlns:cp="c" xmlns:dc="d"><dc:title>T</dc:title></cp:coreProperties>"#;
        let bytes = docx(
            "<w:p/>",
            &[
                ("word/styles.xml", styles),
                ("word/theme/theme1.xml", theme),
                ("word/settings.xml", settings),
                ("docProps/core.xml", core),
            ],
        );
        let doc = read_bytes(&bytes).unwrap().document;
        assert!(doc.styles.styles["Normal"].is_default);
        assert_eq!(doc.theme.minor_latin.as_deref(), Some("Aptos"));
        assert_eq!(doc.settings.default_tab_stop, Some(Twips(720)));
        assert_eq!(doc.info.title.as_deref(), Some("T"));
        assert_eq!(doc.hyperlinks["rIdLink"], "https://example.com/page");
    }

    const FONT_KEY: &str = "{00112233-4455-6677-8899-AABBCCDDEEFF}";

    fn with_font_table(font_part: Option<Vec<u8>>) -> Vec<u8> {
        let rels = DOCUMENT_RELS.replace(
            "</Relationships>",
            r#"<Relationship Id="rIdFT" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/fontTable" Target="fontTable.xml"/></Relationships>"#,
        );
        let table = format!(
            r#"<w:fonts xmlns:w="w" xmlns:r="r"><w:font w:name="Lato"><w:family w:val="swiss"/><w:embedBold r:id="rId1" w:fontKey="{FONT_KEY}"/></w:font></w:fonts>"#
        );
        let table_rels = r#"<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/font" Target="fonts/font1.odttf"/></Relationships>"#;
        let doc = document_xml("<w:p/>");
        let mut entries: Vec<(&str, &[u8])> = vec![
            ("[Content_Types].xml", CONTENT_TYPES.as_bytes()),
            ("_rels/.rels", PACKAGE_RELS.as_bytes()),
            ("word/document.xml", doc.as_bytes()),
            ("word/_rels/document.xml.rels", rels.as_bytes()),
            ("word/fontTable.xml", table.as_bytes()),
            ("word/_rels/fontTable.xml.rels", table_rels.as_bytes()),
        ];
        if let Some(font) = &font_part {
            entries.push(("word/fonts/font1.odttf", font));
        }
        zip_of(&entries)
    }

    #[test]
    fn embedded_font_is_deobfuscated_with_the_reversed_guid() {
        let plain: Vec<u8> = b"\x00\x01\x00\x00"
            .iter()
            .copied()
            .chain((4..64u8).map(|i| i * 3))
            .collect();
        // The key is the GUID's bytes reversed: FF EE DD … 11 00.
        let key: Vec<u8> = (0..16u8).map(|i| 0xFF - i * 0x11).collect();
        let mut odttf = plain.clone();
        for (i, b) in odttf.iter_mut().take(32).enumerate() {
            *b ^= key[i % 16];
        }
        let read = read_bytes(&with_font_table(Some(odttf))).unwrap();
        assert!(read.warnings.is_empty(), "{:?}", read.warnings);
        let font = &read.document.fonts[0];
        assert_eq!(font.name, "Lato");
        assert_eq!(font.embedded.len(), 1);
        assert_eq!(font.embedded[0].style, crate::docx::model::EmbeddedFontStyle::Bold);
        assert_eq!(&font.embedded[0].data[..], &plain[..]);
    }

    #[test]
    fn missing_or_broken_embedded_font_is_a_warning() {
        let read = read_bytes(&with_font_table(None)).unwrap();
        assert_eq!(read.document.fonts.len(), 1);
        assert!(read.document.fonts[0].embedded.is_empty());
        assert_eq!(read.warnings.len(), 1);
        assert_eq!(read.warnings[0].kind, "embedded_font_skipped");
        let read = read_bytes(&with_font_table(Some(vec![7; 100]))).unwrap();
        assert!(
            read.warnings[0].message.contains("not a TrueType or OpenType font"),
            "{:?}",
            read.warnings
        );
    }

    #[test]
    fn embedded_fonts_count_toward_the_total_size() {
        let bytes = with_font_table(Some(vec![0; 4000]));
        let limits = PackageLimits {
            max_total_bytes: 3000,
            ..Default::default()
        };
        let e = read_package(&bytes, &limits, &Deadline::none(), None).unwrap_err();
        assert!(matches!(e, DocxError::TotalTooLarge { .. }), "{e}");
    }

    #[test]
    fn theme_colors_resolve_in_runs_styles_shading_and_borders() {
        let theme = r#"<a:theme xmlns:a="a"><a:themeElements><a:clrScheme name="x"><a:dk1><a:sysClr val="windowText" lastClr="000000"/></a:dk1>
            <a:lt1><a:srgbClr val="FFFFFF"/></a:lt1><a:accent1><a:srgbClr val="4472C4"/></a:accent1><a:accent2><a:srgbClr val="ED7D31"/></a:accent2></a:clrScheme></a:themeElements></a:theme>"#;
        let settings = r#"<w:settings xmlns:w="w"><w:clrSchemeMapping w:bg1="light1" w:t1="dark1"/></w:settings>"#;
        let styles = r#"<w:styles xmlns:w="w"><w:style w:type="character" w:styleId="A"><w:rPr><w:color w:val="FF0000" w:themeColor="accent2"/></w:rPr></w:style></w:styles>"#;
        let body = r#"<w:p><w:pPr><w:shd w:val="clear" w:color="auto" w:fill="FFFFFF" w:themeFill="accent1"/>
            <w:pBdr><w:bottom w:val="single" w:sz="4" w:color="000000" w:themeColor="accent2"/></w:pBdr></w:pPr>
            <w:r><w:rPr><w:color w:val="123456" w:themeColor="accent1"/></w:rPr><w:t>a</w:t></w:r>
            <w:r><w:rPr><w:color w:val="123456" w:themeColor="text1"/></w:rPr><w:t>b</w:t></w:r></w:p>"#;
        let doc = read_bytes(&docx(
            body,
            &[
                ("word/theme/theme1.xml", theme),
                ("word/settings.xml", settings),
                ("word/styles.xml", styles),
            ],
        ))
        .unwrap()
        .document;
        let Block::Paragraph(p) = &doc.body[0] else { panic!() };
        let run = |i: usize| match &p.inlines[i] {
            Inline::Run(r) => r.props.clone(),
            other => panic!("{other:?}"),
        };
        assert_eq!(run(0).color, Some(Color::Rgb(0x44, 0x72, 0xC4)));
        assert_eq!(run(0).theme_color.map(|t| t.color), Some(ThemeColor::Accent1));
        assert_eq!(run(1).color, Some(Color::Rgb(0, 0, 0)));
        assert_eq!(p.props.shading, Some(Color::Rgb(0x44, 0x72, 0xC4)));
        assert_eq!(p.props.borders.bottom.unwrap().color, Color::Rgb(0xED, 0x7D, 0x31));
        assert_eq!(doc.styles.styles["A"].run.color, Some(Color::Rgb(0xED, 0x7D, 0x31)));
        assert_eq!(doc.theme_colors.accents[0], Some(Color::Rgb(0x44, 0x72, 0xC4)));
    }

    #[test]
    fn theme_color_without_a_theme_keeps_the_written_value() {
        let body = r#"<w:p><w:r><w:rPr><w:color w:val="123456" w:themeColor="accent1" w:themeShade="BF"/></w:rPr><w:t>a</w:t></w:r></w:p>"#;
        let doc = read_bytes(&docx(body, &[])).unwrap().document;
        let Block::Paragraph(p) = &doc.body[0] else { panic!() };
        let Inline::Run(r) = &p.inlines[0] else { panic!() };
        assert_eq!(r.props.color, Some(Color::Rgb(0x12, 0x34, 0x56)));
    }

    #[test]
    fn passed_deadline_is_a_timeout() {
        let bytes = docx("<w:p/>", &[]);
        let e = read_package(&bytes, &PackageLimits::default(), &Deadline::after(Duration::ZERO), None).unwrap_err();
        assert_eq!(e.kind(), DocxErrorKind::Timeout);
    }

    /// Blocks in `blocks`, counting those of text boxes too.
    fn count_blocks(blocks: &[Block]) -> usize {
        blocks
            .iter()
            .map(|b| match b {
                Block::Paragraph(p) => 1 + p.text_boxes.iter().map(|t| count_blocks(&t.blocks)).sum::<usize>(),
                Block::Table(_) => 1,
            })
            .sum()
    }

    /// Reads the body `body(n)` on a 2 MiB thread (the default for spawned threads) and
    /// counts its blocks.
    fn read_on_small_stack(body: String) -> Result<usize, DocxError> {
        let bytes = docx(&body, &[]);
        std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || read_bytes(&bytes).map(|r| count_blocks(&r.document.body)))
            .unwrap()
            .join()
            .unwrap()
    }

    fn nested_tables(n: usize) -> String {
        "<w:tbl><w:tr><w:tc>".repeat(n) + "<w:p/>" + &"</w:tc></w:tr></w:tbl>".repeat(n)
    }

    fn nested_text_boxes(n: usize) -> String {
        let open = "<w:p><w:r><w:pict><v:shape><v:textbox><w:txbxContent>";
        let close = "</w:txbxContent></v:textbox></v:shape></w:pict></w:r></w:p>";
        open.repeat(n) + "<w:p/>" + &close.repeat(n)
    }

    fn nested_ruby(n: usize) -> String {
        let open = "<w:ruby><w:rubyBase><w:r>";
        let close = "</w:r></w:rubyBase></w:ruby>";
        format!(
            "<w:p><w:r>{}<w:t>x</w:t>{}</w:r></w:p>",
            open.repeat(n),
            close.repeat(n)
        )
    }

    #[test]
    fn nesting_up_to_the_limit_fits_a_small_stack() {
        use crate::docx::context::MAX_NESTING;
        assert_eq!(read_on_small_stack(nested_tables(MAX_NESTING)).unwrap(), 1);
        // Text boxes take 6 XML levels each: the depth limit stops them first.
        assert_eq!(read_on_small_stack(nested_text_boxes(84)).unwrap(), 85);
        assert_eq!(read_on_small_stack(nested_ruby(MAX_NESTING)).unwrap(), 1);
    }

    #[test]
    fn nesting_past_the_limit_is_refused_before_the_stack_runs_out() {
        // 168 nested tables are within the default depth of 512 XML levels.
        let e = read_on_small_stack(nested_tables(168)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "XML part word/document.xml nests tables more than 100 levels deep, the server's limit \
             (--max-table-depth / DOCX2PDF_MAX_TABLE_DEPTH)"
        );
        assert!(matches!(
            read_on_small_stack(nested_ruby(168)),
            Err(DocxError::TooDeeplyNested { .. })
        ));
    }

    #[test]
    fn nesting_past_the_limit_is_an_error() {
        let body = "<w:sdt><w:sdtContent>".repeat(300) + &"</w:sdtContent></w:sdt>".repeat(300);
        let e = read_bytes(&docx(&body, &[])).unwrap_err();
        assert!(e.to_string().contains("deeper than the limit of 512"), "{e}");
    }
}
