//! A value as the content of a control or a field: literal text in the run properties of
//! the first run it replaces, `\n` a line break (`w:br`, §17.3.3.1) and `\t` a tab
//! (`w:tab`, §17.3.3.32). Markup in a value is escaped, so it is text and nothing else.

use serde_json::Value;

use super::tree::{Element, Node};

/// The text a value is written as: a string as it is, numbers and booleans as JSON
/// writes them, null as nothing.
pub(crate) fn value_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// The run properties of the first run in `nodes`, without the placeholder's character
/// style (`PlaceholderText`, which Word shows while `w:showingPlcHdr` is set).
pub(crate) fn first_run_props(nodes: &[Node]) -> Option<Element> {
    let run = nodes.iter().find_map(|n| match n {
        Node::Element(e) => e.find("r"),
        _ => None,
    })?;
    let mut props = run.child("rPr")?.clone();
    props.children.retain(|n| !matches!(n, Node::Element(e) if e.is("rStyle") && e.attr("val").as_deref() == Some("PlaceholderText")));
    Some(props)
}

/// One run holding `text` with `props`; names take `prefix` (`w:`).
pub(crate) fn run(prefix: &[u8], props: Option<Element>, text: &str) -> Element {
    let mut run = Element::new(prefix, "r");
    if let Some(props) = props {
        run.children.push(Node::Element(props));
    }
    let mut piece = String::new();
    let flush = |piece: &mut String, run: &mut Element| {
        if !piece.is_empty() {
            let mut t = Element::new(prefix, "t");
            t.attrs.push((b"xml:space".to_vec(), b"preserve".to_vec()));
            t.children.push(Node::Text(quick_xml::escape::escape(piece.as_str()).into_owned().into_bytes()));
            run.children.push(Node::Element(t));
            piece.clear();
        }
    };
    for c in text.chars() {
        match c {
            '\n' => {
                flush(&mut piece, &mut run);
                run.children.push(Node::Element(Element::new(prefix, "br")));
            }
            '\t' => {
                flush(&mut piece, &mut run);
                run.children.push(Node::Element(Element::new(prefix, "tab")));
            }
            // Characters XML 1.0 cannot hold (§2.2) are left out.
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => {}
            c => piece.push(c),
        }
    }
    flush(&mut piece, &mut run);
    run
}

#[cfg(test)]
mod tests {
    use super::super::tree::write;
    use super::*;
    use serde_json::json;

    fn xml(e: Element) -> String {
        let mut out = Vec::new();
        write(&[Node::Element(e)], &mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn a_value_is_literal_text_with_breaks_and_tabs() {
        assert_eq!(
            xml(run(b"w:", None, "a<w:t>&\n\tb\u{7}")),
            r#"<w:r><w:t xml:space="preserve">a&lt;w:t&gt;&amp;</w:t><w:br/><w:tab/><w:t xml:space="preserve">b</w:t></w:r>"#
        );
    }

    #[test]
    fn numbers_and_booleans_are_written_as_json_writes_them() {
        assert_eq!(value_text(&json!(12.5)), "12.5");
        assert_eq!(value_text(&json!(true)), "true");
        assert_eq!(value_text(&json!(null)), "");
        assert_eq!(value_text(&json!("x")), "x");
    }
}
