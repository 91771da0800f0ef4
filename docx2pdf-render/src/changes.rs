//! What changed: a conversion's warnings summed up as what the document asked for and
//! did not get, one entry per kind (and per font or link scheme) with its count, in an
//! order that does not depend on the order the warnings came in. The service sends it in
//! `X-Conversion-Warnings`, the `convert` command prints it on its standard error.

use std::collections::BTreeMap;
use std::fmt;

use crate::warning::Warning;

/// The longest detail kept, in bytes of its printed form (a font name is rarely longer).
const MAX_DETAIL: usize = 96;

/// One entry of the summary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// The warnings' kind, e.g. `font_compatible`, `element_skipped`, `pdfua_no_title`.
    pub kind: &'static str,
    /// What it is about, printable ASCII (see [`Change::fmt`]); `None` for the kind as a whole.
    pub detail: Option<String>,
    /// How many times, summed over the warnings of this kind and detail.
    pub count: usize,
}

impl fmt::Display for Change {
    /// `kind`, `kind: detail`, then ` xN` when it happened more than once: printable ASCII
    /// only, and never a comma, so that entries can be joined with `, ` in a header
    /// (RFC 9110 §5.5). A detail's other characters are percent-encoded as UTF-8.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.kind)?;
        if let Some(detail) = &self.detail {
            write!(f, ": {detail}")?;
        }
        if self.count > 1 {
            write!(f, " x{}", self.count)?;
        }
        Ok(())
    }
}

/// The summary of `warnings`: the conformance warnings first (what keeps the PDF from the
/// PDF/UA or PDF/A asked for, in the order the checks run), then every other kind in
/// order of kind and detail, each once with its count.
pub fn summarize(warnings: &[Warning]) -> Vec<Change> {
    let mut conformance: Vec<Change> = Vec::new();
    let mut others: BTreeMap<(&'static str, Option<String>), usize> = BTreeMap::new();
    for w in warnings {
        let detail = w.detail.as_deref().map(printable);
        if w.is_conformance() {
            match conformance.iter_mut().find(|c| c.kind == w.kind && c.detail == detail) {
                Some(c) => c.count += w.count,
                None => conformance.push(Change { kind: w.kind, detail, count: w.count }),
            }
        } else {
            *others.entry((w.kind, detail)).or_default() += w.count;
        }
    }
    conformance.extend(others.into_iter().map(|((kind, detail), count)| Change { kind, detail, count }));
    conformance
}

/// `text` as printable ASCII without `,` or `%`: other characters (non-ASCII, controls,
/// CR and LF among them) percent-encoded as UTF-8, cut to [`MAX_DETAIL`] bytes.
fn printable(text: &str) -> String {
    let mut out = String::new();
    for c in text.trim().chars() {
        let mut piece = String::new();
        if (' '..='~').contains(&c) && c != ',' && c != '%' {
            piece.push(c);
        } else {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                piece.push_str(&format!("%{b:02X}"));
            }
        }
        if out.len() + piece.len() > MAX_DETAIL {
            out.push_str("...");
            break;
        }
        out.push_str(&piece);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warnings_are_summed_per_kind_and_detail_in_a_fixed_order() {
        let warnings = [
            Warning::new("picture_placeholder", "a"),
            Warning::counted("font_compatible", "Calibri -> Carlito", 1, "x"),
            Warning::new("pdfua_no_title", "t"),
            Warning::new("picture_placeholder", "b"),
            Warning::counted("element_skipped", "w:object", 3, "x"),
            Warning::counted("element_skipped", "w:object", 2, "x"),
            Warning::counted("font_substituted", "宋体, \"x\"\r\n -> Liberation Sans", 1, "x"),
            Warning::new("pdfa_transparency", "t"),
        ];
        let summary: Vec<String> = summarize(&warnings).iter().map(ToString::to_string).collect();
        assert_eq!(
            summary,
            [
                "pdfua_no_title",
                "pdfa_transparency",
                "element_skipped: w:object x5",
                "font_compatible: Calibri -> Carlito",
                "font_substituted: %E5%AE%8B%E4%BD%93%2C \"x\"%0D%0A -> Liberation Sans",
                "picture_placeholder x2",
            ]
        );
        let mut reversed = warnings.to_vec();
        reversed.reverse();
        let again: Vec<String> = summarize(&reversed).iter().map(ToString::to_string).collect();
        assert_eq!(again[2..], summary[2..], "the order does not follow the warnings'");
    }

    #[test]
    fn a_long_detail_is_cut() {
        let long = "x".repeat(500);
        let c = &summarize(&[Warning::counted("font_substituted", long, 1, "m")])[0];
        assert!(c.detail.as_ref().unwrap().len() <= MAX_DETAIL + 3);
    }
}
