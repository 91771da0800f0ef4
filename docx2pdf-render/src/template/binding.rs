//! Data binding (`w:dataBinding`, §17.5.2.6): a control shows the text its XPath selects
//! in the Custom XML part whose store item id (`ds:itemID`, Part 1 §15.2.5) it names, as
//! Word does when it opens the document. The paths Word writes are absolute steps with
//! positions (`/ns0:invoice[1]/ns0:customer[1]/@id`); names compare by local name.

use crate::docx::CustomXmlPart;

use super::tree::{self, Element, Node};

/// A control's binding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Binding {
    pub xpath: String,
    /// `w:storeItemID`, e.g. `{5B0C…}`.
    pub store: Option<String>,
}

impl Binding {
    /// Reads `w:dataBinding`.
    pub fn read(e: &Element) -> Option<Binding> {
        Some(Binding { xpath: e.attr("xpath")?, store: e.attr("storeItemID") })
    }
}

/// The package's Custom XML parts, read.
#[derive(Debug, Default)]
pub(crate) struct Store {
    /// Each part's store item id (upper case) and top-level nodes.
    items: Vec<(Option<String>, Vec<Node>)>,
}

impl Store {
    /// Reads the parts; one that cannot be read is left out (Word ignores it too).
    pub fn read(parts: Vec<CustomXmlPart>, max_depth: usize, max_elements: usize) -> Store {
        let items = parts
            .into_iter()
            .filter_map(|p| {
                let nodes = tree::parse(&p.item, max_depth, max_elements).ok()?;
                let id = p.props.and_then(|props| {
                    let props = tree::parse(&props, max_depth, max_elements).ok()?;
                    props.iter().find_map(|n| match n {
                        Node::Element(e) => e.attr("itemID"),
                        _ => None,
                    })
                });
                Some((id.map(|i| i.trim().to_ascii_uppercase()), nodes))
            })
            .collect();
        Store { items }
    }

    /// The text `binding` selects: in the part it names, else the first part where the
    /// path leads somewhere.
    pub fn value(&self, binding: &Binding) -> Option<String> {
        let wanted = binding.store.as_deref().map(|s| s.trim().to_ascii_uppercase());
        let named = self.items.iter().find(|(id, _)| id.is_some() && *id == wanted);
        match named {
            Some((_, nodes)) => select(nodes, &binding.xpath),
            None => self.items.iter().find_map(|(_, nodes)| select(nodes, &binding.xpath)),
        }
    }
}

/// The text of the element or attribute `xpath` selects.
fn select(nodes: &[Node], xpath: &str) -> Option<String> {
    let steps = xpath.split('/').filter(|s| !s.is_empty());
    let mut children: Vec<&Element> = nodes.iter().filter_map(|n| if let Node::Element(e) = n { Some(e) } else { None }).collect();
    let mut at: Option<&Element> = None;
    for step in steps {
        if let Some(attr) = step.strip_prefix('@') {
            let name = attr.rsplit(':').next().unwrap_or(attr);
            return at?.attr(name);
        }
        if step == "text()" {
            break;
        }
        let (name, position) = match step.split_once('[') {
            Some((name, rest)) => (name, rest.trim_end_matches(']').trim().parse::<usize>().ok()?),
            None => (step, 1),
        };
        let local = name.rsplit(':').next().unwrap_or(name);
        let found = children.iter().filter(|e| e.is(local) || local == "*").nth(position.checked_sub(1)?)?;
        at = Some(found);
        children = found.elements().collect();
    }
    at.map(Element::text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_binding_selects_an_element_or_attribute_of_the_named_part() {
        let part = |xml: &str, id: &str| CustomXmlPart {
            item: xml.as_bytes().to_vec(),
            props: Some(format!(r#"<ds:datastoreItem ds:itemID="{id}" xmlns:ds="d"/>"#).into_bytes()),
        };
        let store = Store::read(
            vec![
                part(r#"<ns0:root xmlns:ns0="u"><ns0:name>Other</ns0:name></ns0:root>"#, "{AAA}"),
                part(r#"<ns0:root xmlns:ns0="u"><ns0:item>x</ns0:item><ns0:item id="7">Ada &amp; co</ns0:item></ns0:root>"#, "{bbb}"),
            ],
            64,
            1000,
        );
        let bind = |xpath: &str, store: &str| Binding { xpath: xpath.into(), store: Some(store.into()) };
        assert_eq!(store.value(&bind("/ns0:root[1]/ns0:item[2]", "{BBB}")).as_deref(), Some("Ada & co"));
        assert_eq!(store.value(&bind("/ns0:root[1]/ns0:item[2]/@id", "{BBB}")).as_deref(), Some("7"));
        assert_eq!(store.value(&bind("/ns0:root[1]/ns0:name[1]", "{AAA}")).as_deref(), Some("Other"));
        assert_eq!(store.value(&bind("/ns0:root[1]/ns0:name[1]", "{CCC}")).as_deref(), Some("Other"), "an unknown store: the first part that has the path");
        assert_eq!(store.value(&bind("/ns0:root[1]/ns0:missing[1]", "{BBB}")), None);
    }
}
