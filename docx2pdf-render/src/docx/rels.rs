//! Relationship parts (`_rels/*.rels`, OPC Part 2 §9.3): ids, types and targets resolved
//! against the source part's folder.

use super::xml::{attr, XmlReader};
use super::DocxError;

/// One `Relationship` element.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Relationship {
    /// `Id`.
    pub id: String,
    /// `Type`, a URI.
    pub kind: String,
    /// `Target`: a resolved part name for internal targets, the URI as written for
    /// external ones.
    pub target: String,
    /// `TargetMode="External"`.
    pub external: bool,
}

impl Relationship {
    /// Whether the type URI ends with `/name` (transitional and strict URIs share the end,
    /// e.g. `…/relationships/officeDocument`).
    pub fn is(&self, name: &str) -> bool {
        self.kind.rsplit('/').next() == Some(name)
    }
}

/// The relationships of one source part.
#[derive(Debug, Clone, Default)]
pub(crate) struct Rels {
    list: Vec<Relationship>,
}

impl Rels {
    /// Reads a `.rels` part whose source is `source_part` (`""` for the package).
    pub(crate) fn read(xml: &mut XmlReader<'_>, source_part: &str) -> Result<Rels, DocxError> {
        let mut list = Vec::new();
        if !xml.enter_root(&[b"Relationships"])? {
            return Ok(Rels { list });
        }
        xml.children(|xml, e| {
            if e.local_name().as_ref() == b"Relationship" {
                let external = attr(&e, b"TargetMode").is_some_and(|m| m.eq_ignore_ascii_case("external"));
                if let (Some(id), Some(target)) = (attr(&e, b"Id"), attr(&e, b"Target")) {
                    let target = if external {
                        target.into_owned()
                    } else {
                        resolve_target(source_part, &target)
                    };
                    list.push(Relationship {
                        id: id.into_owned(),
                        kind: attr(&e, b"Type").map(|t| t.into_owned()).unwrap_or_default(),
                        target,
                        external,
                    });
                }
            }
            xml.skip()
        })?;
        Ok(Rels { list })
    }

    /// The relationship with this id.
    pub(crate) fn get(&self, id: &str) -> Option<&Relationship> {
        self.list.iter().find(|r| r.id == id)
    }

    /// The first relationship of a type (by the last segment of its URI).
    pub(crate) fn first_of(&self, name: &str) -> Option<&Relationship> {
        self.list.iter().find(|r| r.is(name))
    }

    /// These relationships and an internal picture relationship `id` to `target`.
    pub(crate) fn with_picture(&self, id: &str, target: &str) -> Rels {
        let mut list = self.list.clone();
        list.retain(|r| r.id != id);
        list.push(Relationship {
            id: id.to_owned(),
            kind: "http://schemas.openxmlformats.org/officeDocument/2006/relationships/image".to_owned(),
            target: target.to_owned(),
            external: false,
        });
        Rels { list }
    }

    /// Every relationship, in the order written.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &Relationship> {
        self.list.iter()
    }
}

/// The relationships part of a part: `word/document.xml` → `word/_rels/document.xml.rels`
/// (Part 2 §9.3.2).
pub(crate) fn rels_part_for(part: &str) -> String {
    match part.rsplit_once('/') {
        Some((folder, file)) => format!("{folder}/_rels/{file}.rels"),
        None => format!("_rels/{part}.rels"),
    }
}

/// Resolves an internal target against the folder of its source part (RFC 3986 §5.2, as
/// Part 2 §9.3.3 asks): `media/a.png` from `word/document.xml` is `word/media/a.png`,
/// `../customXml/item1.xml` is `customXml/item1.xml`, `/word/styles.xml` is absolute.
/// Percent-escapes are decoded and backslashes read as slashes (some producers write them).
pub(crate) fn resolve_target(source_part: &str, target: &str) -> String {
    let target = target.split('#').next().unwrap_or("");
    let target = percent_decode(&target.replace('\\', "/"));
    let mut segments: Vec<&str> = Vec::new();
    if !target.starts_with('/') {
        if let Some((folder, _)) = source_part.rsplit_once('/') {
            segments.extend(folder.split('/').filter(|s| !s.is_empty()));
        }
    }
    for segment in target.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                segments.pop();
            }
            s => segments.push(s),
        }
    }
    segments.join("/")
}

/// A target with its `%XX` escapes decoded (RFC 3986 §2.1), as written when the result
/// is not UTF-8.
fn percent_decode(s: &str) -> String {
    percent_encoding::percent_decode_str(s).decode_utf8().map_or_else(|_| s.to_owned(), |d| d.into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deadline::Deadline;

    fn read(xml: &str, source: &str) -> Rels {
        let deadline = Deadline::none();
        let mut r = XmlReader::new(xml.as_bytes(), "word/_rels/document.xml.rels", 64, &deadline);
        Rels::read(&mut r, source).unwrap()
    }

    #[test]
    fn targets_resolve_against_the_source_folder() {
        assert_eq!(resolve_target("word/document.xml", "styles.xml"), "word/styles.xml");
        assert_eq!(
            resolve_target("word/document.xml", "../customXml/item1.xml"),
            "customXml/item1.xml"
        );
        assert_eq!(
            resolve_target("word/document.xml", "/word/header1.xml"),
            "word/header1.xml"
        );
        assert_eq!(resolve_target("", "word/document.xml"), "word/document.xml");
        assert_eq!(
            resolve_target("word/document.xml", "media/image%201.png"),
            "word/media/image 1.png"
        );
        assert_eq!(
            resolve_target("word/document.xml", "./theme\\theme1.xml"),
            "word/theme/theme1.xml"
        );
    }

    #[test]
    fn rels_part_sits_in_the_rels_folder() {
        assert_eq!(rels_part_for("word/document.xml"), "word/_rels/document.xml.rels");
        assert_eq!(rels_part_for("word/header1.xml"), "word/_rels/header1.xml.rels");
    }

    #[test]
    fn external_targets_are_kept_as_written() {
        let rels = read(
            r#"<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
                <Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="https://example.com/a?b=1&amp;c=2" TargetMode="External"/>
                <Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>
            </Relationships>"#,
            "word/document.xml",
        );
        let link = rels.get("rId1").unwrap();
        assert!(link.external && link.is("hyperlink"));
        assert_eq!(link.target, "https://example.com/a?b=1&c=2");
        assert_eq!(rels.first_of("styles").unwrap().target, "word/styles.xml");
    }

    #[test]
    fn strict_relationship_types_match_by_their_last_segment() {
        let rels = read(
            r#"<Relationships><Relationship Id="r" Type="http://purl.oclc.org/ooxml/officeDocument/relationships/officeDocument" Target="/word/document.xml"/></Relationships>"#,
            "",
        );
        assert_eq!(rels.first_of("officeDocument").unwrap().target, "word/document.xml");
    }
}
