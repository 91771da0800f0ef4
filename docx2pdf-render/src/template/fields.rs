//! Merge fields among a paragraph's runs: simple (`w:fldSimple`, §17.16.19) and complex
//! (`w:fldChar` begin, `w:instrText`, separate, result, end; §17.16.18) fields whose
//! instruction is MERGEFIELD become one run of the value's text, in the run properties of
//! the field's result. A key the data lacks leaves the field as the document has it.

use super::fill::{Fill, Scope};
use super::mergefield::{parse, Instruction, MergeField};
use super::text::{first_run_props, run};
use super::tree::{Element, Node};

/// A `w:fldSimple`.
pub(crate) fn simple<'d>(fill: &mut Fill<'_>, e: Element, scopes: &[Scope<'d>], out: &mut Vec<Node>) {
    let instr = e.attr("instr").unwrap_or_default();
    match parse(&instr) {
        Instruction::Merge(m) => match value_of(fill, &m, scopes, &e.children) {
            Some(text) => out.push(Node::Element(run(e.prefix(), first_run_props(&e.children), &text))),
            None => out.push(Node::Element(e)),
        },
        Instruction::Unsupported(what) => {
            fill.usage.unsupported(what);
            out.push(Node::Element(e));
        }
        Instruction::Other => out.push(Node::Element(e)),
    }
}

/// The text of merge field `m`, or `None` (noted as missing) when the data lacks its key.
fn value_of<'d>(fill: &mut Fill<'_>, m: &MergeField, scopes: &[Scope<'d>], runs: &[Node]) -> Option<String> {
    let Some((value, path)) = fill.lookup(&m.name, scopes) else {
        fill.usage.missing(&m.name);
        return None;
    };
    fill.usage.used(path);
    // The field's own language (`w:lang`, §17.3.2.20), else the document's.
    let lang = runs
        .iter()
        .find_map(|n| match n {
            Node::Element(e) => e.find("rPr").and_then(|p| p.child("lang")).and_then(|l| l.attr("val")),
            _ => None,
        })
        .unwrap_or_else(|| fill.language.clone());
    Some(m.result(value, &lang))
}

/// A complex field's extent among siblings: its end, its separator and its instruction.
struct Span {
    end: usize,
    separate: Option<usize>,
    instr: String,
}

/// The `w:fldCharType` of each field character of a run, in order.
fn chars(n: &Node) -> Vec<String> {
    match n {
        Node::Element(e) if e.is("r") => e.elements().filter(|c| c.is("fldChar")).filter_map(|c| c.attr("fldCharType")).collect(),
        _ => Vec::new(),
    }
}

/// The field beginning at `begin`, when it ends among the same siblings.
fn span(nodes: &[Node], begin: usize) -> Option<Span> {
    let (mut depth, mut separate, mut instr) = (0usize, None, String::new());
    for (j, n) in nodes.iter().enumerate().skip(begin) {
        let Node::Element(e) = n else { continue };
        if !e.is("r") {
            continue;
        }
        for c in e.elements() {
            if c.is("fldChar") {
                match c.attr("fldCharType").as_deref() {
                    Some("begin") => depth += 1,
                    Some("separate") if depth == 1 => separate = Some(j),
                    Some("end") => {
                        depth = depth.checked_sub(1)?;
                        if depth == 0 {
                            return Some(Span { end: j, separate, instr });
                        }
                    }
                    _ => {}
                }
            } else if c.is("instrText") && depth == 1 && separate.is_none() {
                instr.push_str(&c.text());
            }
        }
    }
    None
}

/// Fills the complex merge fields among `nodes`, the children of one element.
pub(crate) fn complex<'d>(fill: &mut Fill<'_>, nodes: &mut Vec<Node>, scopes: &[Scope<'d>]) {
    if !nodes.iter().any(|n| !chars(n).is_empty()) {
        return;
    }
    let mut i = 0;
    while i < nodes.len() {
        if chars(&nodes[i]).first().map(String::as_str) != Some("begin") {
            i += 1;
            continue;
        }
        let Some(span) = span(nodes, i) else {
            i += 1;
            continue;
        };
        match parse(&span.instr) {
            Instruction::Merge(m) => {
                let result = &nodes[span.separate.map_or(span.end, |s| s + 1)..span.end];
                match value_of(fill, &m, scopes, &nodes[i..=span.end]) {
                    Some(text) => {
                        let props = first_run_props(result).or_else(|| first_run_props(&nodes[i..=i]));
                        let prefix = match &nodes[i] {
                            Node::Element(e) => e.prefix().to_vec(),
                            _ => b"w:".to_vec(),
                        };
                        nodes.splice(i..=span.end, [Node::Element(run(&prefix, props, &text))]);
                        i += 1;
                    }
                    None => i = span.end + 1,
                }
            }
            Instruction::Unsupported(what) => {
                fill.usage.unsupported(what);
                i = span.end + 1;
            }
            // Fields nested in another's instruction (an IF's) are filled in turn.
            Instruction::Other => i += 1,
        }
    }
}
