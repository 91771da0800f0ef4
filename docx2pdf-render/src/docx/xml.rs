//! Shared XML reading: a guarded pull reader (DTD refused, depth, element and table
//! nesting limits, deadline checks, `mc:AlternateContent` resolved) and helpers for attributes matched by local name.

use std::borrow::Cow;
use std::cell::OnceCell;

use quick_xml::events::attributes::Attribute;
use quick_xml::events::{BytesStart, BytesText, Event};
use quick_xml::Reader;

use crate::deadline::Deadline;

use super::attribute_scan::{find_attribute, AttributeList, Irregular};
use super::theme_color::Palette;
use super::{DocxError, PackageLimits};

/// How many events pass between two deadline checks.
const EVENTS_PER_DEADLINE_CHECK: u32 = 256;

/// Namespaces whose `mc:Choice` branches we take (Part 3 §10.2.1): the Word 2010+
/// drawing and text-box vocabularies, whose text boxes we read. Anything else (e.g. the
/// `w16se` emoji symbols) falls back to `mc:Fallback`, which holds plain WordprocessingML.
const UNDERSTOOD_NAMESPACES: &[&[u8]] = &[
    b"http://schemas.openxmlformats.org/wordprocessingml/2006/main",
    b"http://purl.oclc.org/ooxml/wordprocessingml/main",
    b"http://schemas.openxmlformats.org/drawingml/2006/main",
    b"http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing",
    b"http://schemas.microsoft.com/office/word/2010/wordml",
    b"http://schemas.microsoft.com/office/word/2012/wordml",
    b"http://schemas.microsoft.com/office/word/2010/wordprocessingShape",
    b"http://schemas.microsoft.com/office/word/2010/wordprocessingGroup",
    b"http://schemas.microsoft.com/office/word/2010/wordprocessingCanvas",
    b"http://schemas.microsoft.com/office/word/2010/wordprocessingDrawing",
    b"urn:schemas-microsoft-com:vml",
];

/// What [`XmlReader::next`] yields. Empty elements arrive as a `Start` and an `End`.
pub(crate) enum Ev<'a> {
    /// An element opens; its children follow, then its `End`.
    Start(BytesStart<'a>),
    /// The innermost open element closes.
    End,
    /// Character data (still escaped).
    Text(BytesText<'a>),
    /// A CDATA section's text.
    CData(Cow<'a, [u8]>),
    /// The part is over.
    Eof,
}

/// Namespace declarations (`xmlns:prefix="uri"`), as written.
type Declarations = Vec<(Vec<u8>, Vec<u8>)>;

/// An open `mc:AlternateContent`, `mc:Choice` or `mc:Fallback`, hidden from callers.
struct Hidden {
    /// Its depth.
    depth: usize,
    /// An `mc:AlternateContent` (else one of its branches).
    alternate: bool,
    /// For an `mc:AlternateContent`: a branch has been taken.
    taken: bool,
    /// Namespaces an `mc:AlternateContent` declares itself.
    declarations: Declarations,
}

/// A pull reader over one part, borrowing its bytes: every guard of the brief lives here,
/// so element readers only match local names.
///
/// Namespaces are not resolved for every element (a namespace-aware reader costs about a
/// third more per event); only `mc:Choice@Requires` needs prefixes, and those resolve
/// against the declarations of the `mc:Choice`, its `mc:AlternateContent` and the document
/// element, where producers put them. A prefix declared elsewhere reads as not
/// understood, which safely selects `mc:Fallback`.
pub(crate) struct XmlReader<'a> {
    inner: Reader<&'a [u8]>,
    part: &'a str,
    deadline: &'a Deadline,
    max_depth: usize,
    /// Open elements, counting those hidden by `mc:AlternateContent` handling.
    depth: usize,
    events: u32,
    /// Elements opened so far, against `max_elements`.
    elements: usize,
    max_elements: usize,
    /// Depths of the open `w:tbl` elements, against `max_table_depth`.
    tables: Vec<usize>,
    max_table_depth: usize,
    /// Open `mc:AlternateContent`/`mc:Choice`/`mc:Fallback` elements hidden from callers.
    hidden: Vec<Hidden>,
    /// The document element's start tag, whose namespace declarations `mc:Choice@Requires`
    /// may need. Kept as the tag (a borrow of the part) and parsed at the first `mc:Choice`:
    /// parsing the declarations of every part's document element up front, some thirty of
    /// them on a `w:document`, took 0.13 M of reading a one-page document's 6.49 M
    /// instructions (callgrind), for parts that seldom hold an `mc:AlternateContent`.
    root: Option<BytesStart<'a>>,
    /// The declarations of `root`, once parsed.
    root_declarations: OnceCell<Declarations>,
    /// The theme colours that `w:themeColor` references resolve against.
    palette: Option<&'a Palette>,
    /// The last Start was an empty element (`<w:b/>`): its End comes next.
    empty_open: bool,
}

impl<'a> XmlReader<'a> {
    /// A reader over `bytes`, the part named `part`.
    pub(crate) fn new(bytes: &'a [u8], part: &'a str, max_depth: usize, deadline: &'a Deadline) -> XmlReader<'a> {
        let mut inner = Reader::from_reader(bytes);
        let config = inner.config_mut();
        config.trim_text(false);
        XmlReader {
            inner,
            part,
            deadline,
            max_depth,
            depth: 0,
            events: 0,
            elements: 0,
            max_elements: usize::MAX,
            tables: Vec::new(),
            max_table_depth: usize::MAX,
            hidden: Vec::new(),
            root: None,
            root_declarations: OnceCell::new(),
            palette: None,
            empty_open: false,
        }
    }

    /// The same reader, also refusing more elements than `limits.max_xml_elements` and
    /// tables nested deeper than `limits.max_table_depth`.
    pub(crate) fn guarded(mut self, limits: &PackageLimits) -> XmlReader<'a> {
        self.max_elements = limits.max_xml_elements;
        self.max_table_depth = limits.max_table_depth;
        self
    }

    /// The same reader, resolving theme colour references against `palette`.
    pub(crate) fn with_palette(mut self, palette: &'a Palette) -> XmlReader<'a> {
        self.palette = Some(palette);
        self
    }

    /// A reader over another part of the same package (`bytes`, named `part`), under the
    /// same deadline, limits and theme colours.
    pub(crate) fn for_part<'b>(&self, bytes: &'b [u8], part: &'b str) -> XmlReader<'b>
    where
        'a: 'b,
    {
        let mut reader = XmlReader::new(bytes, part, self.max_depth, self.deadline);
        reader.max_elements = self.max_elements;
        reader.max_table_depth = self.max_table_depth;
        reader.palette = self.palette;
        reader
    }

    /// The theme colours of the document, when known.
    pub(crate) fn palette(&self) -> Option<&'a Palette> {
        self.palette
    }

    /// The part being read.
    pub(crate) fn part(&self) -> &'a str {
        self.part
    }

    fn malformed(&self, reason: impl ToString) -> DocxError {
        DocxError::Xml {
            part: self.part.to_owned(),
            position: self.inner.error_position(),
            reason: reason.to_string(),
        }
    }

    /// The next event with the guards applied, `mc:AlternateContent` not yet resolved.
    fn raw(&mut self) -> Result<Ev<'a>, DocxError> {
        if self.empty_open {
            self.empty_open = false;
            self.close();
            return Ok(Ev::End);
        }
        loop {
            self.events += 1;
            if self.events.is_multiple_of(EVENTS_PER_DEADLINE_CHECK) {
                self.deadline.check()?;
            }
            let event = self.inner.read_event().map_err(|e| self.malformed(e))?;
            return Ok(match event {
                Event::Start(e) => {
                    self.open(&e)?;
                    Ev::Start(e)
                }
                // An empty element is a Start whose End is the next event: quick-xml's
                // `expand_empty_elements` would copy its name into a fresh allocation for
                // that End (1,500 of a one-page conversion's mallocs; 18.06 M → 17.91 M
                // instructions).
                Event::Empty(e) => {
                    self.open(&e)?;
                    self.empty_open = true;
                    Ev::Start(e)
                }
                Event::End(_) => {
                    self.close();
                    Ev::End
                }
                Event::Text(t) => Ev::Text(t),
                Event::CData(c) => Ev::CData(c.into_inner()),
                // A DTD could define entities (billion laughs, external fetches): refuse it.
                Event::DocType(_) => {
                    return Err(DocxError::Dtd {
                        part: self.part.to_owned(),
                    })
                }
                Event::Comment(_) | Event::Decl(_) | Event::PI(_) => continue,
                Event::Eof if self.depth > 0 => return Err(self.malformed("the part ends inside an open element")),
                Event::Eof => Ev::Eof,
            });
        }
    }

    /// Enters an element: depth, the document element's namespaces, and the depth, element
    /// and table nesting limits.
    fn open(&mut self, e: &BytesStart<'a>) -> Result<(), DocxError> {
        self.depth += 1;
        if self.depth > self.max_depth {
            return Err(DocxError::TooDeep {
                part: self.part.to_owned(),
                limit: self.max_depth,
            });
        }
        if self.depth == 1 {
            self.root = Some(e.clone());
        }
        // Tables are counted here, where every element passes, so a nesting the story
        // readers would skip still counts.
        self.elements += 1;
        if self.elements > self.max_elements {
            return Err(DocxError::TooManyElements {
                part: self.part.to_owned(),
                limit: self.max_elements,
            });
        }
        if e.local_name().as_ref() == b"tbl" {
            self.tables.push(self.depth);
            if self.tables.len() > self.max_table_depth {
                return Err(DocxError::TablesTooDeep {
                    part: self.part.to_owned(),
                    limit: self.max_table_depth,
                });
            }
        }
        Ok(())
    }

    /// Leaves the innermost element.
    fn close(&mut self) {
        if self.tables.last() == Some(&self.depth) {
            self.tables.pop();
        }
        self.depth -= 1;
    }

    /// The next event. `mc:AlternateContent` (Part 3 §10.2) is resolved here, once for
    /// every reader: the first `mc:Choice` whose `Requires` prefixes all name understood
    /// namespaces is read as if its children stood in place of the whole construct;
    /// otherwise `mc:Fallback` is; the other branches are skipped.
    pub(crate) fn next(&mut self) -> Result<Ev<'a>, DocxError> {
        loop {
            match self.raw()? {
                Ev::Start(e) => {
                    let parent_is_alternate = self
                        .hidden
                        .last()
                        .is_some_and(|h| h.alternate && h.depth + 1 == self.depth);
                    match e.local_name().as_ref() {
                        b"AlternateContent" => self.hidden.push(Hidden {
                            depth: self.depth,
                            alternate: true,
                            taken: false,
                            declarations: declarations(&e),
                        }),
                        b"Choice" | b"Fallback" if parent_is_alternate => {
                            let taken = self.hidden.last().is_some_and(|h| h.taken);
                            let take =
                                !taken && (e.local_name().as_ref() == b"Fallback" || self.requires_understood(&e));
                            if take {
                                if let Some(h) = self.hidden.last_mut() {
                                    h.taken = true;
                                }
                                self.hidden.push(Hidden {
                                    depth: self.depth,
                                    alternate: false,
                                    taken: false,
                                    declarations: Vec::new(),
                                });
                            } else {
                                self.skip()?;
                            }
                        }
                        _ => return Ok(Ev::Start(e)),
                    }
                }
                Ev::End => {
                    // `raw` already decremented: the closing element sat at depth + 1.
                    if self.hidden.last().is_some_and(|h| h.depth == self.depth + 1) {
                        self.hidden.pop();
                        continue;
                    }
                    return Ok(Ev::End);
                }
                other => return Ok(other),
            }
        }
    }

    /// Whether every prefix of `mc:Choice@Requires` names an understood namespace.
    fn requires_understood(&self, e: &BytesStart) -> bool {
        let Some(requires) = attr(e, b"Requires") else {
            return false;
        };
        let own = declarations(e);
        let root = self
            .root_declarations
            .get_or_init(|| self.root.as_ref().map(declarations).unwrap_or_default());
        let alternate = self
            .hidden
            .last()
            .map(|h| h.declarations.as_slice())
            .unwrap_or_default();
        let mut any = false;
        for prefix in requires.split_ascii_whitespace() {
            any = true;
            let uri = [own.as_slice(), alternate, root.as_slice()]
                .into_iter()
                .flatten()
                .find(|(p, _)| p == prefix.as_bytes())
                .map(|(_, uri)| uri.as_slice());
            if !uri.is_some_and(|uri| UNDERSTOOD_NAMESPACES.contains(&uri)) {
                return false;
            }
        }
        any
    }

    /// Skips the rest of the element whose `Start` was just returned, children included.
    pub(crate) fn skip(&mut self) -> Result<(), DocxError> {
        let target = self.depth;
        while self.depth >= target {
            if let Ev::Eof = self.raw()? {
                break;
            }
        }
        Ok(())
    }

    /// The unescaped text of a character-data event.
    pub(crate) fn text<'t>(&self, t: &'t BytesText<'a>) -> Result<Cow<'t, str>, DocxError> {
        t.unescape().map_err(|e| self.malformed(e))
    }

    /// The concatenated character data of the current element, skipping child elements
    /// (for simple text elements such as `dc:title`).
    pub(crate) fn read_text(&mut self) -> Result<String, DocxError> {
        let mut out = String::new();
        loop {
            match self.next()? {
                Ev::Text(t) => out.push_str(&self.text(&t)?),
                Ev::CData(c) => out.push_str(&String::from_utf8_lossy(&c)),
                Ev::Start(_) => self.skip()?,
                Ev::End | Ev::Eof => return Ok(out),
            }
        }
    }

    /// Moves to the document element, which must have one of the local names `roots`;
    /// `false` when the part holds another root.
    pub(crate) fn enter_root(&mut self, roots: &[&[u8]]) -> Result<bool, DocxError> {
        loop {
            match self.next()? {
                Ev::Start(e) => return Ok(roots.contains(&e.local_name().as_ref())),
                Ev::Eof => return Ok(false),
                _ => {}
            }
        }
    }

    /// Reads every child element of the current element through `each`, which must consume
    /// the child it is given (read it fully or call [`XmlReader::skip`]).
    pub(crate) fn children(
        &mut self,
        mut each: impl FnMut(&mut Self, BytesStart<'a>) -> Result<(), DocxError>,
    ) -> Result<(), DocxError> {
        loop {
            match self.next()? {
                Ev::Start(e) => each(self, e)?,
                Ev::End | Ev::Eof => return Ok(()),
                Ev::Text(_) | Ev::CData(_) => {}
            }
        }
    }
}

/// The `xmlns:prefix` declarations of an element.
fn declarations(e: &BytesStart<'_>) -> Declarations {
    e.attributes()
        .with_checks(false)
        .flatten()
        .filter_map(|a| {
            let prefix = a.key.as_ref().strip_prefix(b"xmlns:")?;
            Some((prefix.to_vec(), a.value.into_owned()))
        })
        .collect()
}

/// Where attributes are looked up by local name: a start tag, scanned again at each
/// request, or its [`Attrs`], scanned once.
pub(crate) trait AttrSource {
    /// What [`find_attribute`] answers on the tag's attribute bytes.
    fn find_raw(&self, local: &[u8]) -> Result<Option<&[u8]>, Irregular>;
    /// The start tag, for quick-xml's iterator.
    fn tag(&self) -> &BytesStart<'_>;
}

impl AttrSource for BytesStart<'_> {
    fn find_raw(&self, local: &[u8]) -> Result<Option<&[u8]>, Irregular> {
        find_attribute(self.attributes_raw(), local)
    }

    fn tag(&self) -> &BytesStart<'_> {
        self
    }
}

impl<T: AttrSource + ?Sized> AttrSource for &T {
    fn find_raw(&self, local: &[u8]) -> Result<Option<&[u8]>, Irregular> {
        (**self).find_raw(local)
    }

    fn tag(&self) -> &BytesStart<'_> {
        (**self).tag()
    }
}

/// The attributes of a start tag scanned once, for readers that ask for several of them
/// (see [`AttributeList`]); they answer exactly as the tag does.
pub(crate) struct Attrs<'e> {
    tag: &'e BytesStart<'e>,
    list: AttributeList<'e>,
}

impl<'e> Attrs<'e> {
    pub(crate) fn of(tag: &'e BytesStart<'e>) -> Attrs<'e> {
        Attrs { tag, list: AttributeList::new(tag.attributes_raw()) }
    }
}

impl AttrSource for Attrs<'_> {
    fn find_raw(&self, local: &[u8]) -> Result<Option<&[u8]>, Irregular> {
        self.list.find(local)
    }

    fn tag(&self) -> &BytesStart<'_> {
        self.tag
    }
}

/// The unescaped value of the attribute with local name `local` (prefixes vary between
/// producers; WordprocessingML attribute local names do not collide on one element).
pub(crate) fn attr<'e>(e: &'e (impl AttrSource + ?Sized), local: &[u8]) -> Option<Cow<'e, str>> {
    match e.find_raw(local) {
        // What quick-xml's `unescape_value` does: UTF-8, then the predefined entities and
        // character references.
        Ok(raw) => {
            let text = std::str::from_utf8(raw?).ok()?;
            match quick_xml::escape::unescape(text).ok()? {
                Cow::Borrowed(_) => Some(Cow::Borrowed(text)),
                Cow::Owned(unescaped) => Some(Cow::Owned(unescaped)),
            }
        }
        Err(Irregular) => iterated(e.tag(), local)?.unescape_value().ok(),
    }
}

/// The raw (still escaped) bytes of an attribute: enough for numbers and keywords.
pub(crate) fn attr_raw<'e>(e: &'e (impl AttrSource + ?Sized), local: &[u8]) -> Option<Cow<'e, [u8]>> {
    match e.find_raw(local) {
        Ok(raw) => raw.map(Cow::Borrowed),
        Err(Irregular) => iterated(e.tag(), local).map(|a| a.value),
    }
}

/// The attribute with local name `local` as quick-xml's iterator finds it, for the
/// attribute bytes that [`find_attribute`] leaves to it.
fn iterated<'e>(e: &'e BytesStart<'_>, local: &[u8]) -> Option<Attribute<'e>> {
    e.attributes().with_checks(false).flatten().find(|a| a.key.local_name().as_ref() == local)
}

/// `w:val` as raw bytes.
pub(crate) fn val<'e>(e: &'e BytesStart<'_>) -> Option<Cow<'e, [u8]>> {
    attr_raw(e, b"val")
}

/// `w:val` as text.
pub(crate) fn val_string(e: &BytesStart<'_>) -> Option<String> {
    attr(e, b"val").map(Cow::into_owned)
}

/// An ST_OnOff value (§17.17.4): `1`/`true`/`on` or `0`/`false`/`off`.
pub(crate) fn parse_on_off(v: &[u8]) -> Option<bool> {
    match v.trim_ascii() {
        b"1" | b"true" | b"on" | b"True" | b"TRUE" => Some(true),
        b"0" | b"false" | b"off" | b"False" | b"FALSE" => Some(false),
        _ => None,
    }
}

/// A toggle element such as `<w:b/>` (§17.17.4): present with no `w:val` means on; an
/// unreadable value also means on, as Word treats it.
pub(crate) fn on_off(e: &BytesStart<'_>) -> bool {
    attr_raw(e, b"val").is_none_or(|v| parse_on_off(&v).unwrap_or(true))
}

/// An ST_OnOff attribute other than `w:val`, e.g. `w:default="1"`; `None` when absent.
pub(crate) fn on_off_attr(e: &(impl AttrSource + ?Sized), local: &[u8]) -> Option<bool> {
    attr_raw(e, local).and_then(|v| parse_on_off(&v))
}

/// Decodes a part to UTF-8 when it starts with a UTF-16 byte-order mark (Part 2 §8.1.2
/// allows UTF-16 parts); other parts are returned as they are.
pub(crate) fn to_utf8(bytes: Vec<u8>) -> Vec<u8> {
    let (le, body) = match bytes.get(..2) {
        Some([0xFF, 0xFE]) => (true, &bytes[2..]),
        Some([0xFE, 0xFF]) => (false, &bytes[2..]),
        _ => return bytes,
    };
    let units = body.chunks_exact(2).map(|c| {
        if le {
            u16::from_le_bytes([c[0], c[1]])
        } else {
            u16::from_be_bytes([c[0], c[1]])
        }
    });
    let text: String = char::decode_utf16(units)
        .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
        .collect();
    // The declaration still says UTF-16; quick-xml without the `encoding` feature reads
    // UTF-8 whatever it says, which is now right.
    text.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reader(xml: &str) -> XmlReader<'_> {
        static NONE: std::sync::OnceLock<Deadline> = std::sync::OnceLock::new();
        XmlReader::new(xml.as_bytes(), "word/document.xml", 8, NONE.get_or_init(Deadline::none))
    }

    fn names(xml: &str) -> Vec<String> {
        let mut r = reader(xml);
        let mut out = Vec::new();
        loop {
            match r.next().unwrap() {
                Ev::Start(e) => out.push(String::from_utf8_lossy(e.local_name().as_ref()).into_owned()),
                Ev::Eof => return out,
                _ => {}
            }
        }
    }

    #[test]
    fn dtd_is_refused() {
        let mut r = reader("<?xml version=\"1.0\"?><!DOCTYPE x [<!ENTITY a \"b\">]><x/>");
        let e = loop {
            match r.next() {
                Err(e) => break e,
                Ok(Ev::Eof) => panic!("no error"),
                Ok(_) => {}
            }
        };
        assert_eq!(
            e.to_string(),
            "XML part word/document.xml declares a DTD, which is refused"
        );
    }

    /// Reads `xml` to its end under `limits`, returning the first error.
    fn read_all(xml: &str, limits: &PackageLimits) -> Result<(), DocxError> {
        let deadline = Deadline::none();
        let mut r = XmlReader::new(xml.as_bytes(), "word/document.xml", 64, &deadline).guarded(limits);
        while !matches!(r.next()?, Ev::Eof) {}
        Ok(())
    }

    #[test]
    fn elements_past_the_limit_are_refused() {
        let limits = PackageLimits { max_xml_elements: 10, ..Default::default() };
        let ten = format!("<r>{}</r>", "<p/>".repeat(9));
        assert!(read_all(&ten, &limits).is_ok());
        let eleven = format!("<r>{}</r>", "<p/>".repeat(10));
        let e = read_all(&eleven, &limits).unwrap_err();
        assert!(matches!(e, DocxError::TooManyElements { limit: 10, .. }), "{e}");
        assert!(e.to_string().contains("--max-xml-elements"), "{e}");
    }

    #[test]
    fn tables_nested_past_the_limit_are_refused_and_siblings_are_not_nesting() {
        let limits = PackageLimits { max_table_depth: 3, ..Default::default() };
        let nested = |n: usize| format!("<b>{}{}</b>", "<w:tbl><w:tr><w:tc>".repeat(n), "</w:tc></w:tr></w:tbl>".repeat(n));
        assert!(read_all(&nested(3), &limits).is_ok());
        let e = read_all(&nested(4), &limits).unwrap_err();
        assert!(matches!(e, DocxError::TablesTooDeep { limit: 3, .. }), "{e}");
        // Ten tables side by side, each holding one, nest two deep.
        let siblings = format!("<b>{}</b>", nested(2).repeat(10));
        assert!(read_all(&siblings, &limits).is_ok());
        let empty = format!("<b>{}</b>", "<w:tbl/>".repeat(10));
        assert!(read_all(&empty, &limits).is_ok());
    }

    #[test]
    fn nesting_past_the_limit_is_refused() {
        let xml = "<a>".repeat(9) + &"</a>".repeat(9);
        let mut r = reader(&xml);
        let e = loop {
            match r.next() {
                Err(e) => break e,
                Ok(Ev::Eof) => panic!("no error"),
                Ok(_) => {}
            }
        };
        assert!(matches!(e, DocxError::TooDeep { limit: 8, .. }), "{e}");
    }

    #[test]
    fn malformed_xml_names_the_part_and_position() {
        let mut r = reader("<a><b></a>");
        let e = loop {
            match r.next() {
                Err(e) => break e,
                Ok(Ev::Eof) => panic!("no error"),
                Ok(_) => {}
            }
        };
        let text = e.to_string();
        assert!(
            text.starts_with("XML part word/document.xml is malformed at byte "),
            "{text}"
        );
    }

    #[test]
    fn truncated_xml_is_malformed() {
        let mut r = reader("<a><b>");
        let e = loop {
            match r.next() {
                Err(e) => break e,
                Ok(Ev::Eof) => panic!("no error"),
                Ok(_) => {}
            }
        };
        assert!(matches!(e, DocxError::Xml { .. }));
    }

    #[test]
    fn understood_choice_is_taken() {
        let xml = r#"<r xmlns:mc="m" xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><mc:AlternateContent><mc:Choice Requires="wps"><yes/></mc:Choice><mc:Fallback><no/></mc:Fallback></mc:AlternateContent><after/></r>"#;
        assert_eq!(names(xml), ["r", "yes", "after"]);
    }

    #[test]
    fn unknown_choice_falls_back() {
        let xml = r#"<r xmlns:mc="m" xmlns:w16se="http://schemas.microsoft.com/office/word/2015/wordml/symex"><mc:AlternateContent><mc:Choice Requires="w16se"><no/></mc:Choice><mc:Fallback><yes/></mc:Fallback></mc:AlternateContent></r>"#;
        assert_eq!(names(xml), ["r", "yes"]);
    }

    #[test]
    fn choice_may_declare_its_own_namespace() {
        let xml = r#"<r><AlternateContent><Choice xmlns:wpg="http://schemas.microsoft.com/office/word/2010/wordprocessingGroup" Requires="wpg"><yes/></Choice><Fallback><no/></Fallback></AlternateContent></r>"#;
        assert_eq!(names(xml), ["r", "yes"]);
    }

    #[test]
    fn undeclared_prefix_in_requires_falls_back() {
        let xml = r#"<r><AlternateContent><Choice Requires="zz"><no/></Choice><Fallback><yes/></Fallback></AlternateContent></r>"#;
        assert_eq!(names(xml), ["r", "yes"]);
    }

    #[test]
    fn on_off_without_val_is_true() {
        let e = BytesStart::from_content("b", 1);
        assert!(on_off(&e));
        let e = BytesStart::from_content(r#"b w:val="off""#, 1);
        assert!(!on_off(&e));
        let e = BytesStart::from_content(r#"b w:val="0""#, 1);
        assert!(!on_off(&e));
        let e = BytesStart::from_content(r#"b w:val="true""#, 1);
        assert!(on_off(&e));
    }

    #[test]
    fn attributes_match_by_local_name() {
        let e = BytesStart::from_content(r#"hyperlink r:id="rId4" ns9:anchor="top""#, 9);
        assert_eq!(attr(&e, b"id").as_deref(), Some("rId4"));
        assert_eq!(attr(&e, b"anchor").as_deref(), Some("top"));
    }

    #[test]
    fn utf16_parts_are_decoded() {
        let mut bytes = vec![0xFF, 0xFE];
        bytes.extend("<a>é</a>".encode_utf16().flat_map(u16::to_le_bytes));
        assert_eq!(to_utf8(bytes), "<a>é</a>".as_bytes());
    }
}
