//! A story part as a small tree of elements and text, as written (names with their prefix,
//! attribute values and text still escaped), so that controls can be repeated, removed and
//! refilled, then written back for the reader.

use quick_xml::events::Event;
use quick_xml::Reader;

/// A node of the tree.
#[derive(Debug, Clone)]
pub(crate) enum Node {
    /// An element with its children.
    Element(Element),
    /// Character data, escaped as written.
    Text(Vec<u8>),
    /// A comment, processing instruction, CDATA section or declaration, as written.
    Raw(Vec<u8>),
}

/// An element.
#[derive(Debug, Clone, Default)]
pub(crate) struct Element {
    /// The qualified name, `w:sdt`.
    pub name: Vec<u8>,
    /// The attributes: qualified name and value, escaped as written.
    pub attrs: Vec<(Vec<u8>, Vec<u8>)>,
    pub children: Vec<Node>,
}

/// Why a part could not be made a tree: the reader reports the part as it is instead.
#[derive(Debug)]
pub(crate) enum Unparsed {
    /// Not well-formed, a DTD, or nested deeper than `max_depth`.
    Refused,
    /// More elements than the limit.
    TooManyElements,
}

impl Element {
    /// An element named `prefix` + `local`, with no attributes or children.
    pub fn new(prefix: &[u8], local: &str) -> Element {
        let mut name = prefix.to_vec();
        name.extend_from_slice(local.as_bytes());
        Element { name, attrs: Vec::new(), children: Vec::new() }
    }

    /// The name without its prefix.
    pub fn local(&self) -> &[u8] {
        local(&self.name)
    }

    /// The prefix with its colon (`w:`), or nothing.
    pub fn prefix(&self) -> &[u8] {
        &self.name[..self.name.len() - self.local().len()]
    }

    /// Whether it is named `local` whatever its prefix.
    pub fn is(&self, name: &str) -> bool {
        self.local() == name.as_bytes()
    }

    /// The unescaped value of the attribute named `local` (whatever its prefix).
    pub fn attr(&self, name: &str) -> Option<String> {
        let (_, v) = self.attrs.iter().find(|(k, _)| local(k) == name.as_bytes())?;
        let text = String::from_utf8_lossy(v);
        Some(quick_xml::escape::unescape(&text).map_or_else(|_| text.to_string(), |t| t.into_owned()))
    }

    /// Sets the attribute `qualified` to `value` (unescaped), adding it when absent.
    pub fn set_attr(&mut self, qualified: &[u8], value: &str) {
        let escaped = quick_xml::escape::escape(value).into_owned().into_bytes();
        match self.attrs.iter_mut().find(|(k, _)| k == qualified) {
            Some((_, v)) => *v = escaped,
            None => self.attrs.push((qualified.to_vec(), escaped)),
        }
    }

    /// The first child element named `local`.
    pub fn child(&self, name: &str) -> Option<&Element> {
        self.elements().find(|e| e.is(name))
    }

    /// The first child element named `local`, to change.
    pub fn child_mut(&mut self, name: &str) -> Option<&mut Element> {
        self.children.iter_mut().find_map(|n| match n {
            Node::Element(e) if e.is(name) => Some(e),
            _ => None,
        })
    }

    /// The child elements.
    pub fn elements(&self) -> impl Iterator<Item = &Element> {
        self.children.iter().filter_map(|n| match n {
            Node::Element(e) => Some(e),
            _ => None,
        })
    }

    /// The first element named `local` at or below this one, depth first.
    pub fn find(&self, name: &str) -> Option<&Element> {
        if self.is(name) {
            return Some(self);
        }
        self.elements().find_map(|e| e.find(name))
    }

    /// The first element named `local` at or below this one, depth first, to change.
    pub fn find_mut(&mut self, name: &str) -> Option<&mut Element> {
        if self.is(name) {
            return Some(self);
        }
        self.children.iter_mut().find_map(|n| match n {
            Node::Element(e) => e.find_mut(name),
            _ => None,
        })
    }

    /// Sets the attribute whose local name is `local` (keeping its prefix) to `value`.
    pub fn set_local_attr(&mut self, local_name: &str, value: &str) -> bool {
        let Some(key) = self.attrs.iter().find(|(k, _)| local(k) == local_name.as_bytes()).map(|(k, _)| k.clone()) else {
            return false;
        };
        self.set_attr(&key, value);
        true
    }

    /// The `w:val` (or any prefix's `val`) of the child `local`.
    pub fn child_val(&self, name: &str) -> Option<String> {
        self.child(name).and_then(|c| c.attr("val"))
    }

    /// The text of the element's `w:t`/`w:instrText` descendants (or its own text),
    /// unescaped.
    pub fn text(&self) -> String {
        let mut out = String::new();
        collect_text(self, &mut out);
        out
    }

    /// How many elements it holds, itself included.
    pub fn count(&self) -> usize {
        1 + self.elements().map(Element::count).sum::<usize>()
    }
}

fn collect_text(e: &Element, out: &mut String) {
    for n in &e.children {
        match n {
            Node::Text(t) => {
                let raw = String::from_utf8_lossy(t);
                out.push_str(&quick_xml::escape::unescape(&raw).map_or_else(|_| raw.to_string(), |t| t.into_owned()));
            }
            Node::Element(c) => collect_text(c, out),
            Node::Raw(_) => {}
        }
    }
}

/// The local part of a qualified name.
pub(crate) fn local(name: &[u8]) -> &[u8] {
    match name.iter().rposition(|&b| b == b':') {
        Some(i) => &name[i + 1..],
        None => name,
    }
}

/// Reads a part into its top-level nodes, refusing what the reader would refuse.
pub(crate) fn parse(xml: &[u8], max_depth: usize, max_elements: usize) -> Result<Vec<Node>, Unparsed> {
    let mut reader = Reader::from_reader(xml);
    reader.config_mut().trim_text(false);
    let mut stack: Vec<Element> = Vec::new();
    let mut top: Vec<Node> = Vec::new();
    let mut elements = 0usize;
    let push = |stack: &mut Vec<Element>, top: &mut Vec<Node>, node: Node| match stack.last_mut() {
        Some(parent) => parent.children.push(node),
        None => top.push(node),
    };
    loop {
        let event = reader.read_event().map_err(|_| Unparsed::Refused)?;
        match event {
            Event::Start(ref e) | Event::Empty(ref e) => {
                elements += 1;
                if elements > max_elements {
                    return Err(Unparsed::TooManyElements);
                }
                let mut attrs = Vec::new();
                for a in e.attributes() {
                    let a = a.map_err(|_| Unparsed::Refused)?;
                    attrs.push((a.key.as_ref().to_vec(), a.value.into_owned()));
                }
                let element = Element { name: e.name().as_ref().to_vec(), attrs, children: Vec::new() };
                if matches!(event, Event::Start(_)) {
                    if stack.len() >= max_depth {
                        return Err(Unparsed::Refused);
                    }
                    stack.push(element);
                } else {
                    push(&mut stack, &mut top, Node::Element(element));
                }
            }
            Event::End(_) => {
                let done = stack.pop().ok_or(Unparsed::Refused)?;
                push(&mut stack, &mut top, Node::Element(done));
            }
            Event::Text(t) => push(&mut stack, &mut top, Node::Text(t.into_inner().into_owned())),
            Event::CData(c) => {
                let mut raw = b"<![CDATA[".to_vec();
                raw.extend_from_slice(&c);
                raw.extend_from_slice(b"]]>");
                push(&mut stack, &mut top, Node::Raw(raw));
            }
            Event::Comment(_) => {}
            Event::Decl(d) => {
                let mut raw = b"<?".to_vec();
                raw.extend_from_slice(&d);
                raw.extend_from_slice(b"?>");
                push(&mut stack, &mut top, Node::Raw(raw));
            }
            Event::PI(p) => {
                let mut raw = b"<?".to_vec();
                raw.extend_from_slice(&p);
                raw.extend_from_slice(b"?>");
                push(&mut stack, &mut top, Node::Raw(raw));
            }
            Event::DocType(_) => return Err(Unparsed::Refused),
            Event::Eof => break,
        }
    }
    if !stack.is_empty() {
        return Err(Unparsed::Refused);
    }
    Ok(top)
}

/// Writes nodes back as XML.
pub(crate) fn write(nodes: &[Node], out: &mut Vec<u8>) {
    for n in nodes {
        match n {
            Node::Text(t) | Node::Raw(t) => out.extend_from_slice(t),
            Node::Element(e) => write_element(e, out),
        }
    }
}

fn write_element(e: &Element, out: &mut Vec<u8>) {
    out.push(b'<');
    out.extend_from_slice(&e.name);
    for (k, v) in &e.attrs {
        out.push(b' ');
        out.extend_from_slice(k);
        out.extend_from_slice(b"=\"");
        for &b in v {
            if b == b'"' {
                out.extend_from_slice(b"&quot;");
            } else {
                out.push(b);
            }
        }
        out.push(b'"');
    }
    if e.children.is_empty() {
        out.extend_from_slice(b"/>");
        return;
    }
    out.push(b'>');
    write(&e.children, out);
    out.extend_from_slice(b"</");
    out.extend_from_slice(&e.name);
    out.push(b'>');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_part_is_written_back_as_it_reads() {
        let xml = br#"<?xml version="1.0"?><w:document xmlns:w="x"><w:body><w:p w:rsidR="00A1"><w:r><w:t xml:space="preserve">a &amp; b</w:t></w:r></w:p></w:body></w:document>"#;
        let nodes = parse(xml, 64, 100).unwrap();
        let mut out = Vec::new();
        write(&nodes, &mut out);
        assert_eq!(String::from_utf8(out).unwrap(), String::from_utf8(xml.to_vec()).unwrap());
    }

    #[test]
    fn malformed_deep_or_dtd_parts_are_left_to_the_reader() {
        assert!(matches!(parse(b"<a><b></a>", 64, 100), Err(Unparsed::Refused)));
        assert!(matches!(parse(b"<a><b><c/></b></a>", 1, 100), Err(Unparsed::Refused)));
        assert!(matches!(parse(b"<!DOCTYPE a><a/>", 64, 100), Err(Unparsed::Refused)));
        assert!(matches!(parse(b"<a><b/><b/></a>", 64, 2), Err(Unparsed::TooManyElements)));
    }
}
