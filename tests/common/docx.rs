//! Builds small DOCX packages for tests and benchmarks: a document body as WordprocessingML,
//! optional styles, and optional padding to reach an exact file size.

use std::io::{Cursor, Write};

use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipWriter};

const CONTENT_TYPES: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Default Extension="bin" ContentType="application/octet-stream"/><Default Extension="png" ContentType="image/png"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/></Types>"#;

const PACKAGE_RELS: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>"#;

const DOCUMENT_RELS: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>"#;

/// Styles like Word's blank document: Calibri 11 pt, 8 pt after, 1.08 lines.
pub const WORD_STYLES: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Calibri" w:hAnsi="Calibri" w:eastAsia="Calibri" w:cs="Calibri"/><w:sz w:val="22"/><w:szCs w:val="22"/><w:lang w:val="en-US"/></w:rPr></w:rPrDefault><w:pPrDefault><w:pPr><w:spacing w:after="160" w:line="259" w:lineRule="auto"/></w:pPr></w:pPrDefault></w:docDefaults><w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:pPr><w:keepNext/><w:spacing w:before="240" w:after="0"/><w:outlineLvl w:val="0"/></w:pPr><w:rPr><w:sz w:val="32"/></w:rPr></w:style><w:style w:type="paragraph" w:styleId="TOC1"><w:name w:val="toc 1"/><w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:pPr><w:spacing w:after="100"/></w:pPr></w:style></w:styles>"#;

const W_NS: &str = r#"xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships""#;

/// A DOCX whose `w:body` holds `body` (paragraphs, tables, a final `w:sectPr`).
pub fn docx(body: &str) -> Vec<u8> {
    package(body, 0)
}

/// A DOCX with `body` whose file is exactly `size` bytes, padded with a stored part that
/// nothing references (so the document is unchanged).
pub fn docx_of_size(body: &str, size: usize) -> Vec<u8> {
    let base = package(body, 0).len();
    // A stored entry adds its data plus fixed header overhead; measure that overhead once.
    let with_one = package(body, 1).len();
    let overhead = with_one - base - 1;
    assert!(
        size >= with_one,
        "a {size}-byte package is too small for this body"
    );
    let padded = package(body, size - base - overhead);
    assert_eq!(padded.len(), size);
    padded
}

/// One paragraph of plain text.
pub fn paragraph(text: &str) -> String {
    format!(
        r#"<w:p><w:r><w:t xml:space="preserve">{}</w:t></w:r></w:p>"#,
        escape(text)
    )
}

/// Escapes text for XML content.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// A DOCX with `body` and a picture part `word/media/{name}` holding `image`, which the
/// body's drawings reach through relationship `rIdImg`.
pub fn docx_with_image(body: &str, name: &str, image: &[u8]) -> Vec<u8> {
    docx_with_images(body, &[("rIdImg", name, image)])
}

/// A DOCX with `body` and picture parts `word/media/{name}`, each reached through its
/// relationship id (see [`inline_picture_of`]).
pub fn docx_with_images(body: &str, images: &[(&str, &str, &[u8])]) -> Vec<u8> {
    let rels: String = images
        .iter()
        .map(|(id, name, _)| {
            format!(
                r#"<Relationship Id="{id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="media/{name}"/>"#
            )
        })
        .collect();
    let rels = DOCUMENT_RELS.replace("</Relationships>", &format!("{rels}</Relationships>"));
    let names: Vec<String> = images.iter().map(|(_, name, _)| format!("word/media/{name}")).collect();
    let parts: Vec<(&str, &[u8])> = names.iter().zip(images).map(|(name, (_, _, bytes))| (name.as_str(), *bytes)).collect();
    package_with(body, 0, &rels, &parts)
}

/// A DOCX with `body` and no styles part at all (nor a relationship to one), so that
/// everything takes the application's built-in defaults.
pub fn docx_without_styles(body: &str) -> Vec<u8> {
    let rels = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"></Relationships>"#;
    package_of(body, 0, rels, None, &[])
}

/// A DOCX with `body` and one more XML part `word/{name}`, reached from the document
/// through a relationship of type `.../relationships/{kind}` (`numbering`, `footnotes`…).
pub fn docx_with_part(body: &str, kind: &str, name: &str, xml: &str) -> Vec<u8> {
    let rel = format!(
        r#"<Relationship Id="rIdPart" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/{kind}" Target="{name}"/>"#
    );
    let rels = DOCUMENT_RELS.replace("</Relationships>", &format!("{rel}</Relationships>"));
    package_with(body, 0, &rels, &[(&format!("word/{name}"), xml.as_bytes())])
}

/// A DOCX with `body` and more XML parts `word/{name}`, each reached from the document
/// through a relationship of type `.../relationships/{kind}`: `(kind, name, xml)`.
pub fn docx_with_parts(body: &str, parts: &[(&str, &str, &str)]) -> Vec<u8> {
    let rels: String = parts
        .iter()
        .enumerate()
        .map(|(i, (kind, name, _))| {
            format!(
                r#"<Relationship Id="rIdPart{i}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/{kind}" Target="{name}"/>"#
            )
        })
        .collect();
    let rels = DOCUMENT_RELS.replace("</Relationships>", &format!("{rels}</Relationships>"));
    let names: Vec<String> = parts
        .iter()
        .map(|(_, name, _)| format!("word/{name}"))
        .collect();
    let files: Vec<(&str, &[u8])> = names
        .iter()
        .zip(parts)
        .map(|(n, (_, _, xml))| (n.as_str(), xml.as_bytes()))
        .collect();
    package_with(body, 0, &rels, &files)
}

/// A DOCX with `body` and more XML parts: each `(id, kind, name, xml)` is `word/{name}`,
/// reached from the document through relationship `id` of type `.../relationships/{kind}`
/// (`header`, `footer`, `settings`…).
pub fn docx_with_rels(body: &str, parts: &[(&str, &str, &str, &str)]) -> Vec<u8> {
    let rels: String = parts
        .iter()
        .map(|(id, kind, name, _)| {
            format!(r#"<Relationship Id="{id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/{kind}" Target="{name}"/>"#)
        })
        .collect();
    let rels = DOCUMENT_RELS.replace("</Relationships>", &format!("{rels}</Relationships>"));
    let files: Vec<(String, &[u8])> = parts
        .iter()
        .map(|(_, _, name, xml)| (format!("word/{name}"), xml.as_bytes()))
        .collect();
    let files: Vec<(&str, &[u8])> = files.iter().map(|(n, x)| (n.as_str(), *x)).collect();
    package_with(body, 0, &rels, &files)
}

/// A package whose main part has extra relationships `(id, kind, target)` and extra
/// files `(path in the package, bytes)`, for documents that need several kinds of part.
pub fn docx_with_files(body: &str, rels: &[(&str, &str, &str)], files: &[(&str, &[u8])]) -> Vec<u8> {
    docx_styled_with_files(body, WORD_STYLES, rels, files)
}

/// [`docx_with_files`] with `styles` (a whole `w:styles` part) in place of Word's blank
/// document styles.
pub fn docx_styled_with_files(body: &str, styles: &str, rels: &[(&str, &str, &str)], files: &[(&str, &[u8])]) -> Vec<u8> {
    let rels: String = rels
        .iter()
        .map(|(id, kind, target)| {
            format!(r#"<Relationship Id="{id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/{kind}" Target="{target}"/>"#)
        })
        .collect();
    let rels = DOCUMENT_RELS.replace("</Relationships>", &format!("{rels}</Relationships>"));
    package_of(body, 0, &rels, Some(styles), files)
}

/// A header or footer part (`w:hdr`/`w:ftr`, §17.10) holding `paragraphs`.
pub fn header_footer_xml(root: &str, paragraphs: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:{root} {W_NS}>{paragraphs}</w:{root}>"#
    )
}

/// An inline picture (`wp:inline`, §20.4.2.8) of `width`×`height` points showing the
/// picture of [`docx_with_image`].
pub fn inline_picture(width_pt: i64, height_pt: i64) -> String {
    inline_picture_of("rIdImg", width_pt, height_pt)
}

/// An inline picture of `width`×`height` points showing the picture of relationship `id`.
pub fn inline_picture_of(id: &str, width_pt: i64, height_pt: i64) -> String {
    let (cx, cy) = (width_pt * 12_700, height_pt * 12_700);
    format!(
        r#"<w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"><wp:extent cx="{cx}" cy="{cy}"/><wp:docPr id="1" name="Picture 1"/><a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:nvPicPr><pic:cNvPr id="0" name="image.png"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:embed="{id}"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill><pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="{cx}" cy="{cy}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing>"#
    )
}

fn package(body: &str, padding: usize) -> Vec<u8> {
    package_with(body, padding, DOCUMENT_RELS, &[])
}

fn package_with(
    body: &str,
    padding: usize,
    document_rels: &str,
    parts: &[(&str, &[u8])],
) -> Vec<u8> {
    package_of(body, padding, document_rels, Some(WORD_STYLES), parts)
}

/// [`package_with`] with these styles, or no styles part.
fn package_of(
    body: &str,
    padding: usize,
    document_rels: &str,
    styles: Option<&str>,
    parts: &[(&str, &[u8])],
) -> Vec<u8> {
    let mut zip = ZipWriter::new(Cursor::new(Vec::new()));
    let deflate = SimpleFileOptions::default().compression_method(CompressionMethod::Deflated);
    let stored = SimpleFileOptions::default().compression_method(CompressionMethod::Stored);
    let document = format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document {W_NS}><w:body>{body}</w:body></w:document>"#
    );
    for (name, text) in [
        ("[Content_Types].xml", CONTENT_TYPES),
        ("_rels/.rels", PACKAGE_RELS),
        ("word/_rels/document.xml.rels", document_rels),
        ("word/styles.xml", styles.unwrap_or_default()),
        ("word/document.xml", document.as_str()),
    ] {
        if name == "word/styles.xml" && styles.is_none() {
            continue;
        }
        zip.start_file(name, deflate).expect("zip entry");
        zip.write_all(text.as_bytes()).expect("zip write");
    }
    for (name, data) in parts {
        zip.start_file(*name, stored).expect("zip entry");
        zip.write_all(data).expect("zip write");
    }
    if padding > 0 {
        zip.start_file("customXml/padding.bin", stored)
            .expect("zip entry");
        zip.write_all(&vec![b'x'; padding]).expect("zip write");
    }
    zip.finish().expect("zip finish").into_inner()
}

/// An opaque RGB PNG of `w`×`h` pixels.
pub fn png(w: u32, h: u32) -> Vec<u8> {
    let pixels: Vec<u8> = (0..w * h * 3).map(|i| (i % 251) as u8).collect();
    png_of(w, h, png::ColorType::Rgb, &pixels)
}

/// An 8-bit PNG of `w`×`h` pixels of `color` with these samples.
pub fn png_of(w: u32, h: u32, color: png::ColorType, samples: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, w, h);
    encoder.set_color(color);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().expect("png header");
    writer.write_image_data(samples).expect("png data");
    writer.finish().expect("png end");
    out
}
