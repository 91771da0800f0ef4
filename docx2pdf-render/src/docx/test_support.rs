//! Test helpers: small packages built in memory and documents read from inline XML.

use std::io::{Cursor, Write};

use zip::write::SimpleFileOptions;
use zip::ZipWriter;

use super::model::{Block, Inline, Paragraph, RunContent};
use super::{read, PackageLimits, ReadDocument};
use crate::deadline::Deadline;

/// Namespace declarations for inline test documents.
pub(crate) const NS: &str = concat!(
    r#"xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" "#,
    r#"xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" "#,
    r#"xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" "#,
    r#"xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" "#,
    r#"xmlns:wpg="http://schemas.microsoft.com/office/word/2010/wordprocessingGroup" "#,
    r#"xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" "#,
    r#"xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" "#,
    r#"xmlns:v="urn:schemas-microsoft-com:vml" "#,
    r#"xmlns:o="urn:schemas-microsoft-com:office:office" "#,
    r#"xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture" "#,
    r#"xmlns:cx1="http://schemas.microsoft.com/office/drawing/2015/9/8/chartex" "#,
    r#"xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math" "#,
    r#"xmlns:w16se="http://schemas.microsoft.com/office/word/2015/wordml/symex""#,
);

/// The package relationships of a test document.
pub(crate) const PACKAGE_RELS: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>
<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/>
</Relationships>"#;

/// The content types of a test document.
pub(crate) const CONTENT_TYPES: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="xml" ContentType="application/xml"/>
<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>
</Types>"#;

/// The document relationships of a test document: a hyperlink, a header and a footer.
pub(crate) const DOCUMENT_RELS: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rIdLink" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="https://example.com/page" TargetMode="External"/>
<Relationship Id="rIdH" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/header" Target="header1.xml"/>
<Relationship Id="rIdF" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/footer" Target="/word/footer1.xml"/>
<Relationship Id="rIdS" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>
<Relationship Id="rIdT" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/theme" Target="theme/theme1.xml"/>
</Relationships>"#;

/// A deflated zip of `entries`.
pub(crate) fn zip_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
    zip_with_options(entries, SimpleFileOptions::default())
}

/// A zip of `entries` written with `options`.
pub(crate) fn zip_with_options(entries: &[(&str, &[u8])], options: SimpleFileOptions) -> Vec<u8> {
    let mut w = ZipWriter::new(Cursor::new(Vec::new()));
    for (name, data) in entries {
        w.start_file(*name, options).unwrap();
        w.write_all(data).unwrap();
    }
    w.finish().unwrap().into_inner()
}

/// `document.xml` around `body` (the children of `w:body`).
pub(crate) fn document_xml(body: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document {NS}><w:body>{body}</w:body></w:document>"#
    )
}

/// A package with `body` in its main part, the usual relationships, and `extra` parts
/// (which replace the defaults of the same name).
pub(crate) fn docx(body: &str, extra: &[(&str, &str)]) -> Vec<u8> {
    let document = document_xml(body);
    let mut entries: Vec<(&str, &[u8])> = vec![
        ("[Content_Types].xml", CONTENT_TYPES.as_bytes()),
        ("_rels/.rels", PACKAGE_RELS.as_bytes()),
        ("word/document.xml", document.as_bytes()),
        ("word/_rels/document.xml.rels", DOCUMENT_RELS.as_bytes()),
    ];
    for (name, data) in extra {
        entries.retain(|(n, _)| n != name);
        entries.push((name, data.as_bytes()));
    }
    zip_of(&entries)
}

/// Reads a package with default limits and no deadline.
pub(crate) fn read_bytes(bytes: &[u8]) -> Result<ReadDocument, super::DocxError> {
    read(bytes, &PackageLimits::default(), &Deadline::none())
}

/// Reads a document whose body is `body`.
pub(crate) fn read_body(body: &str) -> ReadDocument {
    read_bytes(&docx(body, &[])).unwrap()
}

/// The body blocks of a document whose body is `body`.
pub(crate) fn blocks(body: &str) -> Vec<Block> {
    read_body(body).document.body
}

/// The first paragraph of a document whose body is `body`.
pub(crate) fn paragraph(body: &str) -> Paragraph {
    match blocks(body).into_iter().next() {
        Some(Block::Paragraph(p)) => p,
        other => panic!("expected a paragraph, got {other:?}"),
    }
}

/// The visible text of a paragraph (tabs as `\t`, breaks as `\n`).
pub(crate) fn text(p: &Paragraph) -> String {
    let mut s = String::new();
    for inline in &p.inlines {
        if let Inline::Run(r) = inline {
            for c in &r.content {
                match c {
                    RunContent::Text(t) => s.push_str(t),
                    RunContent::Tab => s.push('\t'),
                    RunContent::Break(_) => s.push('\n'),
                    RunContent::Symbol { .. } => s.push('□'),
                    RunContent::Field(_) => s.push('#'),
                    RunContent::Picture(_) => s.push('▣'),
                    RunContent::HorizontalRule(_) => s.push('―'),
                    RunContent::NoteReference(_) | RunContent::NoteMark => s.push('†'),
                    RunContent::Fraction(f) => {
                        f.numerator.iter().for_each(|t| s.push_str(&t.text));
                        s.push('⁄');
                        f.denominator.iter().for_each(|t| s.push_str(&t.text));
                    }
                }
            }
        }
    }
    s
}

/// The texts of the paragraphs among `blocks` (tables shown as `[table]`).
pub(crate) fn texts(blocks: &[Block]) -> Vec<String> {
    blocks
        .iter()
        .map(|b| match b {
            Block::Paragraph(p) => text(p),
            Block::Table(_) => "[table]".to_owned(),
        })
        .collect()
}
