//! Documents for tests/input_options.rs, all made in the test: password-protected DOCX
//! files (encrypted with msoffcrypto-tool, see encrypt.py), documents with links to
//! scripts and with fonts that are not installed, and multipart forms with raw fields.

use crate::common::timed::Timed;
use std::process::Command;

use crate::common::docx::{docx_of_size, docx_with_files, paragraph};
use crate::common::{multipart_named, BOUNDARY};

/// A password with spaces and non-ASCII letters, as Word takes them.
pub const PASSWORD: &str = "Hårvest 2026 pass";
/// The text the protected document holds.
pub const SECRET_TEXT: &str = "Secret harvest figures";

/// The document before encryption: 8 KiB, so that its encrypted package is a regular
/// stream of the compound file (msoffcrypto-tool's writer does not read back packages
/// under 4 KiB, which go to the mini stream).
pub fn plain_docx() -> Vec<u8> {
    docx_of_size(&paragraph(SECRET_TEXT), 8 * 1024)
}

/// `plain` encrypted with `password`: `agile` (Word 2010 and later) or `standard` (Word
/// 2007); `None` when msoffcrypto-tool is not installed (the test is then skipped, or fails
/// under CI=true).
pub fn encrypted(kind: &str, password: &str, plain: &[u8]) -> Option<Vec<u8>> {
    let python = crate::python::with_module("msoffcrypto")?;
    let dir = tempfile::tempdir().unwrap();
    let (script, input, output) = (dir.path().join("encrypt.py"), dir.path().join("in.docx"), dir.path().join("out.docx"));
    std::fs::write(&script, include_str!("encrypt.py")).unwrap();
    std::fs::write(&input, plain).unwrap();
    let out = Command::new(python).arg(&script).args([kind, password]).arg(&input).arg(&output).timed_output().unwrap();
    assert!(out.status.success(), "encrypt.py {kind}: {}", String::from_utf8_lossy(&out.stderr));
    Some(std::fs::read(output).unwrap())
}

/// One `w:hyperlink` per relationship target, each with its own text, then a link to a
/// bookmark that does not exist and a HYPERLINK field to a script.
pub fn links_docx(targets: &[(&str, &str)]) -> Vec<u8> {
    let mut body = String::new();
    let mut rels = Vec::new();
    for (i, (target, text)) in targets.iter().enumerate() {
        let id = format!("rIdLink{i}");
        body.push_str(&format!(
            r#"<w:p><w:hyperlink r:id="{id}"><w:r><w:t xml:space="preserve">{text}</w:t></w:r></w:hyperlink></w:p>"#
        ));
        // The helper writes `Target="…"`: the target closes it and adds the mode.
        rels.push((id, format!(r#"{target}" TargetMode="External"#)));
    }
    body.push_str(r#"<w:p><w:hyperlink w:anchor="NoSuchBookmark"><w:r><w:t>Nowhere link</w:t></w:r></w:hyperlink></w:p>"#);
    body.push_str(concat!(
        r#"<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> HYPERLINK "javascript:fieldScript()" </w:instrText></w:r>"#,
        r#"<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>Field script link</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>"#,
    ));
    let rels: Vec<(&str, &str, &str)> = rels.iter().map(|(id, t)| (id.as_str(), "hyperlink", t.as_str())).collect();
    docx_with_files(&body, &rels, &[])
}

/// A paragraph in each of `families`.
pub fn fonts_docx(families: &[&str]) -> Vec<u8> {
    let body: String = families
        .iter()
        .map(|f| {
            format!(
                r#"<w:p><w:r><w:rPr><w:rFonts w:ascii="{f}" w:hAnsi="{f}"/></w:rPr><w:t>Set in {f}</w:t></w:r></w:p>"#
            )
        })
        .collect();
    docx_with_files(&body, &[], &[])
}

/// A multipart form with raw `fields` before the file part (named `filename`).
pub fn form_raw(file: &[u8], filename: Option<&str>, fields: &[(&str, &[u8])]) -> Vec<u8> {
    let mut body = Vec::new();
    for (name, value) in fields {
        body.extend_from_slice(format!("--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n").as_bytes());
        body.extend_from_slice(value);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(&multipart_named("file", filename, file));
    body
}
