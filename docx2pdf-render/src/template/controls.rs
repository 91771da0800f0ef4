//! What a content control's properties (`w:sdtPr`, §17.5.2.38) say: the key it takes
//! (`w:tag`, else `w:alias`), its kind, and whether it shows its placeholder.

use super::binding::Binding;
use super::tree::Element;

/// A check box's symbol for one state (`w14:checkedState`/`w14:uncheckedState`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Symbol {
    /// The character.
    pub char: char,
    /// The font it is drawn in.
    pub font: String,
}

/// The kinds of control a value fills differently.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Plain (`w:text`) or rich text (no kind element): the value's text.
    Text,
    /// `w14:checkbox`: a boolean chooses the symbol.
    Checkbox { checked: Symbol, unchecked: Symbol },
    /// `w:date` (§17.5.2.7): an ISO 8601 date written with `w:dateFormat` in `w:lid`.
    Date { format: String, lang: String },
    /// `w:dropDownList`/`w:comboBox` (§17.5.2.15, §17.5.2.5): list items' display text
    /// and value.
    List(Vec<(String, String)>),
    /// `w:picture` (§17.5.2.25).
    Picture,
    /// `w15:repeatingSection`: its items repeat once per element of an array.
    RepeatingSection,
    /// `w15:repeatingSectionItem`: one item of a repeating section.
    RepeatingItem,
}

/// A content control's properties, as far as filling goes.
#[derive(Debug, Clone)]
pub(crate) struct Control {
    /// The key path it takes: its tag, else its alias (title).
    pub key: Option<String>,
    pub kind: Kind,
    /// `w:dataBinding` (§17.5.2.6): it shows a Custom XML part's value.
    pub binding: Option<Binding>,
}

impl Control {
    /// Reads `w:sdtPr`.
    pub fn read(props: Option<&Element>) -> Control {
        let Some(props) = props else {
            return Control { key: None, kind: Kind::Text, binding: None };
        };
        let named = |n: &str| props.child_val(n).map(|v| v.trim().to_owned()).filter(|v| !v.is_empty());
        let key = named("tag").or_else(|| named("alias"));
        let mut kind = Kind::Text;
        for e in props.elements() {
            kind = match e.local() {
                b"checkbox" => Kind::Checkbox {
                    checked: symbol(e.child("checkedState"), '\u{2612}'),
                    unchecked: symbol(e.child("uncheckedState"), '\u{2610}'),
                },
                b"date" => Kind::Date {
                    format: e.child_val("dateFormat").unwrap_or_else(|| "M/d/yyyy".into()),
                    lang: e.child_val("lid").unwrap_or_else(|| "en-US".into()),
                },
                b"dropDownList" | b"comboBox" => Kind::List(
                    e.elements()
                        .filter(|i| i.is("listItem"))
                        .map(|i| {
                            let value = i.attr("value").unwrap_or_default();
                            (i.attr("displayText").unwrap_or_else(|| value.clone()), value)
                        })
                        .collect(),
                ),
                b"picture" => Kind::Picture,
                b"repeatingSection" => Kind::RepeatingSection,
                b"repeatingSectionItem" => Kind::RepeatingItem,
                _ => continue,
            };
        }
        Control { key, kind, binding: props.child("dataBinding").and_then(Binding::read) }
    }
}

/// A check box state's symbol: `w14:val` is the character's hexadecimal code, `w14:font`
/// its font; Word's defaults are ☒ and ☐ in MS Gothic.
fn symbol(state: Option<&Element>, default: char) -> Symbol {
    let char = state
        .and_then(|s| s.attr("val"))
        .and_then(|v| u32::from_str_radix(v.trim(), 16).ok())
        .and_then(char::from_u32)
        .unwrap_or(default);
    let font = state.and_then(|s| s.attr("font")).unwrap_or_else(|| "MS Gothic".into());
    Symbol { char, font }
}

#[cfg(test)]
mod tests {
    use super::super::tree::{parse, Node};
    use super::*;

    fn props(xml: &str) -> Control {
        let nodes = parse(xml.as_bytes(), 64, 1000).unwrap();
        let Node::Element(e) = &nodes[0] else { panic!() };
        Control::read(Some(e))
    }

    #[test]
    fn the_tag_names_the_key_and_the_alias_only_without_one() {
        assert_eq!(props(r#"<w:sdtPr><w:alias w:val="Name"/><w:tag w:val="customer.name"/></w:sdtPr>"#).key.as_deref(), Some("customer.name"));
        assert_eq!(props(r#"<w:sdtPr><w:alias w:val="Name"/></w:sdtPr>"#).key.as_deref(), Some("Name"));
        assert_eq!(props(r#"<w:sdtPr><w:id w:val="1"/></w:sdtPr>"#).key, None);
    }

    #[test]
    fn kinds_are_read_with_their_settings() {
        let c = props(r#"<w:sdtPr><w:tag w:val="ok"/><w14:checkbox><w14:checked w14:val="0"/><w14:checkedState w14:val="2713" w14:font="Segoe UI Symbol"/></w14:checkbox></w:sdtPr>"#);
        assert_eq!(
            c.kind,
            Kind::Checkbox { checked: Symbol { char: '✓', font: "Segoe UI Symbol".into() }, unchecked: Symbol { char: '☐', font: "MS Gothic".into() } }
        );
        let d = props(r#"<w:sdtPr><w:date><w:dateFormat w:val="d MMMM yyyy"/><w:lid w:val="de-DE"/></w:date></w:sdtPr>"#);
        assert_eq!(d.kind, Kind::Date { format: "d MMMM yyyy".into(), lang: "de-DE".into() });
        let l = props(r#"<w:sdtPr><w:dropDownList><w:listItem w:displayText="Net 30" w:value="n30"/><w:listItem w:value="cod"/></w:dropDownList></w:sdtPr>"#);
        assert_eq!(l.kind, Kind::List(vec![("Net 30".into(), "n30".into()), ("cod".into(), "cod".into())]));
    }
}
