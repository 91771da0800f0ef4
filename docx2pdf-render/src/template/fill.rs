//! The walk that fills a story part: each content control (§17.5.2) and merge field takes
//! its value from the innermost scope that has its key; repeating controls repeat their
//! content once per element of an array, conditional blocks stay or go.

use std::mem::take;

use serde_json::Value;

use crate::deadline::Deadline;
use crate::docx::{AddedPicture, DocxError};

use super::binding::Store;
use super::controls::{Control, Kind, Symbol};
use super::data::at_path;
use super::date;
use super::picture::{self, Picture};
use super::fields;
use super::text::{first_run_props, run, value_text};
use super::tree::{write, Element, Node};
use super::usage::Usage;

/// Where key paths are read: an object of the data, and its path from the top
/// (`items.` for an element of `items`).
#[derive(Clone)]
pub(crate) struct Scope<'d> {
    pub value: &'d Value,
    pub prefix: String,
}

/// Where a control sits (§17.5.2.29–32), told by its content.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Level {
    /// Runs in a paragraph.
    Inline,
    /// Paragraphs and tables.
    Block,
    /// Table rows.
    Row,
    /// Table cells.
    Cell,
}

/// One part's fill.
pub(crate) struct Fill<'a> {
    pub usage: &'a mut Usage,
    pub deadline: &'a Deadline,
    pub part: &'a str,
    /// Elements the filled part may still grow by before it passes the package's limit.
    pub budget: usize,
    pub limit: usize,
    /// The document's language, for numbers and dates of fields whose runs name none.
    pub language: String,
    /// The most pixels a picture may have (the package's limit).
    pub max_pixels: u64,
    /// The pictures put in this part so far.
    pub pictures: &'a mut Vec<AddedPicture>,
    /// The package's Custom XML parts, for bound controls.
    pub store: &'a Store,
}

impl<'d> Fill<'_> {
    /// Fills `nodes` in `scopes`.
    pub fn nodes(&mut self, nodes: Vec<Node>, scopes: &[Scope<'d>]) -> Result<Vec<Node>, DocxError> {
        let mut out = Vec::with_capacity(nodes.len());
        for node in nodes {
            match node {
                Node::Element(e) if e.is("sdt") => self.control(e, scopes, &mut out)?,
                Node::Element(e) if e.is("fldSimple") => fields::simple(self, e, scopes, &mut out),
                Node::Element(mut e) => {
                    e.children = self.nodes(take(&mut e.children), scopes)?;
                    out.push(Node::Element(e));
                }
                other => out.push(other),
            }
        }
        fields::complex(self, &mut out, scopes);
        Ok(out)
    }

    /// The value of `key` in the innermost scope that has it, noted as used.
    pub fn lookup(&mut self, key: &str, scopes: &[Scope<'d>]) -> Option<(&'d Value, String)> {
        for scope in scopes.iter().rev() {
            if let Some(v) = at_path(scope.value, key) {
                let path = format!("{}{key}", scope.prefix);
                return Some((v, path));
            }
        }
        None
    }

    /// Takes `elements` more from the budget, or fails as the reader would on the part.
    fn spend(&mut self, elements: usize) -> Result<(), DocxError> {
        self.deadline.check()?;
        self.budget = self.budget.checked_sub(elements).ok_or_else(|| DocxError::TooManyElements { part: self.part.to_owned(), limit: self.limit })?;
        Ok(())
    }

    fn control(&mut self, mut sdt: Element, scopes: &[Scope<'d>], out: &mut Vec<Node>) -> Result<(), DocxError> {
        let control = Control::read(sdt.child("sdtPr"));
        let level = level(&sdt);
        let found = match &control.key {
            Some(key) => {
                let found = self.lookup(key, scopes);
                // A bound control shows its Custom XML part's value, as Word does.
                if found.is_none() && control.binding.is_none() && control.kind != Kind::RepeatingItem {
                    self.usage.missing(key);
                }
                found
            }
            None => None,
        };
        let Some((value, path)) = found else {
            // A bound control without data shows its part's value, as Word does.
            if let Some(text) = control.binding.as_ref().and_then(|b| self.store.value(b)) {
                match control.kind {
                    Kind::Date { ref format, ref lang } => {
                        let text = date::parse_iso(&text).map_or(text.clone(), |d| date::format(&d, format, lang));
                        set_text(&mut sdt, level, &text);
                    }
                    Kind::Text | Kind::List(_) => set_text(&mut sdt, level, &text),
                    _ => return self.keep(sdt, scopes, out),
                }
                out.push(Node::Element(sdt));
                return Ok(());
            }
            return self.keep(sdt, scopes, out);
        };
        match (&control.kind, value) {
            (Kind::RepeatingSection, Value::Array(items)) => {
                self.usage.scoped(path.clone());
                let content = take(&mut content_mut(&mut sdt).children);
                let template = section_item(&content).unwrap_or(content);
                self.repeat(&template, items, &path, scopes, out)
            }
            (_, Value::Array(items)) if level != Level::Inline => {
                self.usage.scoped(path.clone());
                let template = take(&mut content_mut(&mut sdt).children);
                self.repeat(&template, items, &path, scopes, out)
            }
            (Kind::Picture, Value::Null) => {
                self.usage.used(path);
                self.keep(sdt, scopes, out)
            }
            (Kind::Picture, v) => {
                self.usage.used(path);
                let key = control.key.clone().unwrap_or_default();
                let refused = |reason: String| DocxError::TemplatePicture { key: key.clone(), reason };
                let uri = v.as_str().ok_or_else(|| refused("is not a string; a picture is a data:image/png or data:image/jpeg URI".into()))?;
                let picture = picture::decode(uri, self.max_pixels).map_err(refused)?;
                let id = format!("rIdTemplatePicture{}", self.pictures.len() + 1);
                if place_picture(&mut sdt, &picture, &id) {
                    self.pictures.push(AddedPicture { id, bytes: picture.bytes.into() });
                } else {
                    // A control without a drawing to show it in keeps what it has.
                    self.usage.unsupported("picture");
                }
                out.push(Node::Element(sdt));
                Ok(())
            }
            (Kind::Checkbox { checked, unchecked }, v) => {
                self.usage.used(path);
                let state = if truthy(v) { checked } else { unchecked };
                check(&mut sdt, state, truthy(v));
                out.push(Node::Element(sdt));
                Ok(())
            }
            // §17.5.2: a block's control whose value is false or null goes with its
            // content; true keeps the content without the control.
            (_, Value::Bool(false) | Value::Null) if level != Level::Inline => {
                self.usage.used(path);
                Ok(())
            }
            (_, Value::Bool(true)) if level != Level::Inline => {
                self.usage.used(path);
                let content = take(&mut content_mut(&mut sdt).children);
                out.extend(self.nodes(content, scopes)?);
                Ok(())
            }
            // An object is a scope for the controls inside, at any level.
            (_, Value::Object(_)) => {
                self.usage.scoped(path.clone());
                let mut inner = scopes.to_vec();
                inner.push(Scope { value, prefix: format!("{path}.") });
                let content = take(&mut content_mut(&mut sdt).children);
                out.extend(self.nodes(content, &inner)?);
                Ok(())
            }
            // A row takes arrays and booleans, not text: what is inside is filled.
            (_, _) if level == Level::Row => {
                self.usage.used(path);
                self.keep(sdt, scopes, out)
            }
            (kind, v) => {
                self.usage.used(path);
                let text = match (kind, v) {
                    (Kind::Date { format, lang }, Value::String(s)) => {
                        date::parse_iso(s).map_or_else(|| s.clone(), |d| date::format(&d, format, lang))
                    }
                    (Kind::List(items), v) => {
                        let wanted = value_text(v);
                        items.iter().find(|(_, value)| *value == wanted).map_or(wanted, |(display, _)| display.clone())
                    }
                    (_, Value::Array(items)) => items.iter().map(value_text).collect::<Vec<_>>().join(", "),
                    (_, v) => value_text(v),
                };
                set_text(&mut sdt, level, &text);
                out.push(Node::Element(sdt));
                Ok(())
            }
        }
    }

    /// A control left as the document has it, with what is inside filled.
    fn keep(&mut self, mut sdt: Element, scopes: &[Scope<'d>], out: &mut Vec<Node>) -> Result<(), DocxError> {
        sdt.children = self.nodes(take(&mut sdt.children), scopes)?;
        out.push(Node::Element(sdt));
        Ok(())
    }

    /// `template` once per element of `items`, each filled with the element as the
    /// innermost scope; nothing for an empty array. Each copy is kept as the XML it writes,
    /// a small part of its tree's memory (hundreds of bytes a row against kilobytes).
    fn repeat(&mut self, template: &[Node], items: &'d [Value], path: &str, scopes: &[Scope<'d>], out: &mut Vec<Node>) -> Result<(), DocxError> {
        let size: usize = template.iter().map(|n| if let Node::Element(e) = n { e.count() } else { 0 }).sum();
        let mut inner = scopes.to_vec();
        for item in items {
            self.spend(size)?;
            inner.push(Scope { value: item, prefix: format!("{path}.") });
            let filled = self.nodes(template.to_vec(), &inner)?;
            let mut xml = Vec::new();
            write(&filled, &mut xml);
            out.push(Node::Raw(xml));
            inner.pop();
        }
        Ok(())
    }
}

/// Where `sdt` sits, from the first element of its content (a control's inside a
/// control: Word's repeating section items).
fn level(sdt: &Element) -> Level {
    content_level(sdt).unwrap_or(Level::Inline)
}

fn content_level(sdt: &Element) -> Option<Level> {
    for e in sdt.child("sdtContent")?.elements() {
        match e.local() {
            b"tr" => return Some(Level::Row),
            b"tc" => return Some(Level::Cell),
            b"p" | b"tbl" => return Some(Level::Block),
            b"r" | b"hyperlink" | b"fldSimple" => return Some(Level::Inline),
            b"sdt" => {
                if let Some(level) = content_level(e) {
                    return Some(level);
                }
            }
            _ => {}
        }
    }
    None
}

/// The control's content, made when it has none.
fn content_mut(sdt: &mut Element) -> &mut Element {
    if sdt.child("sdtContent").is_none() {
        let content = Element::new(sdt.prefix(), "sdtContent");
        sdt.children.push(Node::Element(content));
    }
    sdt.child_mut("sdtContent").expect("made above")
}

/// The content of a repeating section's first item (`w15:repeatingSectionItem`).
fn section_item(content: &[Node]) -> Option<Vec<Node>> {
    content.iter().find_map(|n| match n {
        Node::Element(e) if e.is("sdt") && matches!(Control::read(e.child("sdtPr")).kind, Kind::RepeatingItem) => {
            e.child("sdtContent").map(|c| c.children.clone())
        }
        _ => None,
    })
}

/// Shows `picture` in the control's drawing (`a:blip@r:embed` becomes `id`), fitted into
/// the drawing's extent (`wp:extent`, §20.4.2.7, and the picture's `a:ext`) with its
/// aspect ratio kept; `false` when the control holds no drawing.
fn place_picture(sdt: &mut Element, picture: &Picture, id: &str) -> bool {
    drop_placeholder(sdt);
    let content = content_mut(sdt);
    let Some(drawing) = content.find_mut("drawing") else { return false };
    let Some(blip) = drawing.find_mut("blip") else { return false };
    if !blip.set_local_attr("embed", id) {
        return false;
    }
    let size = |e: &Element| Some((e.attr("cx")?.parse::<i64>().ok()?, e.attr("cy")?.parse::<i64>().ok()?));
    let Some((cx, cy)) = drawing.find("extent").and_then(size) else { return true };
    let (cx, cy) = picture::fit(picture.width, picture.height, cx, cy);
    if let Some(extent) = drawing.find_mut("extent") {
        extent.set_local_attr("cx", &cx.to_string());
        extent.set_local_attr("cy", &cy.to_string());
    }
    if let Some(ext) = drawing.find_mut("xfrm").and_then(|x| x.child_mut("ext")) {
        ext.set_local_attr("cx", &cx.to_string());
        ext.set_local_attr("cy", &cy.to_string());
    }
    true
}

/// JSON's truth for a check box: `true`, a non-zero number, `"true"`, `"1"`, `"yes"`.
fn truthy(v: &Value) -> bool {
    match v {
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|n| n != 0.0),
        Value::String(s) => matches!(s.trim().to_ascii_lowercase().as_str(), "true" | "1" | "yes" | "x"),
        _ => false,
    }
}

/// The placeholder goes: `w:showingPlcHdr` (§17.5.2.39) says the content is one.
fn drop_placeholder(sdt: &mut Element) {
    if let Some(props) = sdt.child_mut("sdtPr") {
        props.children.retain(|n| !matches!(n, Node::Element(e) if e.is("showingPlcHdr")));
    }
}

/// The control's content becomes `text` in the run properties of its first run, in the
/// first paragraph's properties for a block or a cell.
fn set_text(sdt: &mut Element, level: Level, text: &str) {
    drop_placeholder(sdt);
    let prefix = sdt.prefix().to_vec();
    let content = content_mut(sdt);
    let props = first_run_props(&content.children);
    let new_run = Node::Element(run(&prefix, props, text));
    let paragraph = |nodes: &[Node]| {
        let mut p = Element::new(&prefix, "p");
        let first = nodes.iter().find_map(|n| if let Node::Element(e) = n { e.find("p") } else { None });
        if let Some(props) = first.and_then(|p| p.child("pPr")) {
            p.children.push(Node::Element(props.clone()));
        }
        p.children.push(new_run.clone());
        p
    };
    match level {
        Level::Inline => content.children = vec![new_run.clone()],
        Level::Block => content.children = vec![Node::Element(paragraph(&content.children))],
        Level::Cell => {
            let Some(cell) = content.elements().find(|e| e.is("tc")).cloned() else { return };
            let mut tc = Element { children: Vec::new(), ..cell.clone() };
            if let Some(props) = cell.child("tcPr") {
                tc.children.push(Node::Element(props.clone()));
            }
            tc.children.push(Node::Element(paragraph(&cell.children)));
            content.children = vec![Node::Element(tc)];
        }
        Level::Row => {}
    }
}

/// A check box shows `state`'s symbol in its font (`w14:checked`, §17.5.2 of the 2010
/// extensions).
fn check(sdt: &mut Element, state: &Symbol, checked: bool) {
    drop_placeholder(sdt);
    if let Some(flag) = sdt.child_mut("sdtPr").and_then(|p| p.child_mut("checkbox")).and_then(|c| c.child_mut("checked")) {
        let name = flag.attrs.iter().find(|(k, _)| super::tree::local(k) == b"val").map(|(k, _)| k.clone());
        if let Some(name) = name {
            flag.set_attr(&name, if checked { "1" } else { "0" });
        }
    }
    let prefix = sdt.prefix().to_vec();
    let content = content_mut(sdt);
    let mut props = first_run_props(&content.children).unwrap_or_else(|| Element::new(&prefix, "rPr"));
    props.children.retain(|n| !matches!(n, Node::Element(e) if e.is("rFonts")));
    let mut fonts = Element::new(&prefix, "rFonts");
    for slot in ["ascii", "hAnsi", "eastAsia", "cs"] {
        let mut name = prefix.clone();
        name.extend_from_slice(slot.as_bytes());
        fonts.set_attr(&name, &state.font);
    }
    // rFonts follows rStyle (§17.3.2, the order of CT_RPr).
    let at = props.children.iter().position(|n| matches!(n, Node::Element(e) if !e.is("rStyle"))).unwrap_or(props.children.len());
    props.children.insert(at, Node::Element(fonts));
    let symbol = run(&prefix, Some(props), &state.char.to_string());
    replace_first_run(&mut content.children, symbol);
}

/// Puts `new` where the first run is (inside a paragraph for a block control), dropping the
/// other runs beside it.
fn replace_first_run(nodes: &mut Vec<Node>, new: Element) {
    if let Some(i) = nodes.iter().position(|n| matches!(n, Node::Element(e) if e.is("r"))) {
        nodes[i] = Node::Element(new);
        let mut seen = 0;
        nodes.retain(|n| {
            let is_run = matches!(n, Node::Element(e) if e.is("r"));
            seen += usize::from(is_run);
            !is_run || seen == 1
        });
        return;
    }
    for n in nodes.iter_mut() {
        if let Node::Element(e) = n {
            if e.find("r").is_some() {
                replace_first_run(&mut e.children, new);
                return;
            }
        }
    }
    nodes.push(Node::Element(new));
}

#[cfg(test)]
mod tests {
    use super::super::tree::parse;
    use super::*;
    use serde_json::json;

    /// `xml` filled with `data`, written back.
    fn filled(xml: &str, data: Value) -> (String, Usage) {
        let mut usage = Usage::default();
        let mut pictures = Vec::new();
        let store = Store::default();
        let deadline = Deadline::none();
        let mut fill = Fill { usage: &mut usage, deadline: &deadline, part: "p", budget: 1000, limit: 1000, language: "en-US".into(), max_pixels: 100, pictures: &mut pictures, store: &store };
        let nodes = fill.nodes(parse(xml.as_bytes(), 64, 1000).unwrap(), &[Scope { value: &data, prefix: String::new() }]).unwrap();
        let mut out = Vec::new();
        write(&nodes, &mut out);
        (String::from_utf8(out).unwrap(), usage)
    }

    const SDT: &str = r#"<w:sdt><w:sdtPr><w:tag w:val="customer"/></w:sdtPr><w:sdtContent><w:r><w:t>x</w:t></w:r><w:sdt><w:sdtPr><w:tag w:val="name"/></w:sdtPr><w:sdtContent><w:r><w:t>n</w:t></w:r></w:sdtContent></w:sdt></w:sdtContent></w:sdt>"#;

    #[test]
    fn an_object_is_a_scope_for_the_controls_inside() {
        let (xml, _) = filled(&format!("<w:p>{SDT}</w:p>"), json!({"customer": {"name": "Ada"}}));
        assert!(xml.contains(r#"<w:t xml:space="preserve">Ada</w:t>"#) && xml.contains("<w:t>x</w:t>"), "{xml}");
    }

    #[test]
    fn a_repeat_past_the_element_budget_fails_as_the_reader_would() {
        let row = r#"<w:tbl><w:sdt><w:sdtPr><w:tag w:val="rows"/></w:sdtPr><w:sdtContent><w:tr><w:tc><w:p/></w:tc></w:tr></w:sdtContent></w:sdt></w:tbl>"#;
        let items: Vec<Value> = (0..400).map(|_| json!({})).collect();
        let mut usage = Usage::default();
        let mut pictures = Vec::new();
        let store = Store::default();
        let deadline = Deadline::none();
        let data = json!({ "rows": items });
        let mut fill = Fill { usage: &mut usage, deadline: &deadline, part: "word/document.xml", budget: 1000, limit: 1000, language: "en-US".into(), max_pixels: 100, pictures: &mut pictures, store: &store };
        let e = fill.nodes(parse(row.as_bytes(), 64, 1000).unwrap(), &[Scope { value: &data, prefix: String::new() }]).unwrap_err();
        assert!(matches!(e, DocxError::TooManyElements { limit: 1000, .. }), "{e}");
    }
}
