//! Horizontal rules: the VML `v:rect` with `o:hr="t"` that Word writes for HTML's `<hr>`
//! (`o:hrpct`, `o:hralign`, `o:hrstd`, `o:hrnoshade`, `fillcolor` and the `style` size).

use quick_xml::events::BytesStart;

use super::css_length;
use super::shape::vml_color;
use crate::docx::model::{HorizontalRule, HorizontalRuleAlign};
use crate::docx::simple_types::number;
use crate::docx::xml::{attr, attr_raw};
use crate::units::Emu;

/// The height of a rule whose `style` gives none: HTML's 2 px, as Word writes it (1.5 pt).
const DEFAULT_HEIGHT: Emu = Emu(19_050);

/// The rule a `v:rect` draws when it has `o:hr="t"`; `None` for any other shape.
pub(super) fn horizontal_rule(e: &BytesStart<'_>) -> Option<HorizontalRule> {
    let on = |name: &[u8]| attr_raw(e, name).is_some_and(|v| matches!(v.trim_ascii(), b"t" | b"true" | b"1"));
    if !on(b"hr") {
        return None;
    }
    let (mut width, mut height) = (None, None);
    if let Some(style) = attr(e, b"style") {
        for declaration in style.split(';') {
            match declaration.split_once(':').map(|(k, v)| (k.trim(), v.trim())) {
                Some(("width", v)) => width = css_length(v).filter(|w| w.0 > 0),
                Some(("height", v)) => height = css_length(v).filter(|h| h.0 > 0),
                _ => {}
            }
        }
    }
    let fraction = attr_raw(e, b"hrpct").and_then(|v| number(&v)).map(|t| (t / 1000.0).clamp(0.0, 1.0)).unwrap_or(0.0);
    Some(HorizontalRule {
        fraction,
        width,
        height: height.unwrap_or(DEFAULT_HEIGHT),
        align: match attr_raw(e, b"hralign").as_deref().map(<[u8]>::trim_ascii) {
            Some(b"center") => HorizontalRuleAlign::Center,
            Some(b"right") => HorizontalRuleAlign::Right,
            _ => HorizontalRuleAlign::Left,
        },
        shaded: on(b"hrstd") && !on(b"hrnoshade"),
        color: attr(e, b"fillcolor").and_then(|c| vml_color(&c)),
    })
}
