//! A plain view of laid-out pages for tests and tools: text pieces and rules with positions.

use super::frame::{Item, Layout, Page};

/// Text pieces on one baseline further apart than this many ems are separate pieces (a
/// column gap or a tab jump, not a justified space).
const GAP_EMS: f64 = 0.5;
/// Baselines closer than this (points) are one baseline.
const SAME_BASELINE: f64 = 0.5;

/// One page: its size, its text in pieces and its straight lines, in points from the
/// page's top-left corner.
#[derive(Debug, Clone, PartialEq)]
pub struct PageSummary {
    /// Page width.
    pub width: f64,
    /// Page height.
    pub height: f64,
    /// Text pieces, top to bottom, then left to right.
    pub text: Vec<TextPiece>,
    /// Straight lines (underlines, borders, column separators).
    pub rules: Vec<Rule>,
}

/// Consecutive glyph runs on one baseline with no wide gap between them.
#[derive(Debug, Clone, PartialEq)]
pub struct TextPiece {
    /// Left edge of the first glyph.
    pub x: f64,
    /// Right edge of the last glyph's advance.
    pub right: f64,
    /// Right edge of the last glyph that is not a space (trailing spaces hang past the
    /// margin in Word's lines).
    pub ink_right: f64,
    /// The baseline.
    pub baseline: f64,
    /// Font size of the first run.
    pub size: f64,
    /// The text, as the glyphs stand for it.
    pub text: String,
}

/// A straight line from `from` to `to` (x, y).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rule {
    /// Start point.
    pub from: (f64, f64),
    /// End point.
    pub to: (f64, f64),
    /// Line width.
    pub thickness: f64,
}

impl PageSummary {
    /// The first piece whose text contains `needle`.
    pub fn find(&self, needle: &str) -> Option<&TextPiece> {
        self.text.iter().find(|p| p.text.contains(needle))
    }

    /// All text of the page, pieces joined by spaces.
    pub fn all_text(&self) -> String {
        self.text.iter().map(|p| p.text.as_str()).collect::<Vec<_>>().join(" ")
    }
}

/// Summarizes every page of a layout.
pub fn summarize(layout: &Layout) -> Vec<PageSummary> {
    layout.pages.iter().map(summarize_page).collect()
}

fn summarize_page(page: &Page) -> PageSummary {
    let mut runs: Vec<TextPiece> = Vec::new();
    let mut rules = Vec::new();
    for p in &page.items {
        match &p.item {
            Item::Text(t) => runs.push(TextPiece {
                x: p.pos.x.0,
                right: p.pos.x.0 + t.width().0,
                ink_right: p.pos.x.0 + t.width().0
                    - t.glyphs.iter().rev().take_while(|g| g.text.trim().is_empty()).map(|g| g.advance.0).sum::<f64>(),
                baseline: p.pos.y.0,
                size: t.size.0,
                text: t.glyphs.iter().map(|g| g.text.as_str()).collect(),
            }),
            Item::Line(l) => {
                rules.push(Rule { from: (p.pos.x.0, p.pos.y.0), to: (l.to.x.0, l.to.y.0), thickness: l.thickness.0 })
            }
            _ => {}
        }
    }
    runs.sort_by(|a, b| a.baseline.total_cmp(&b.baseline).then(a.x.total_cmp(&b.x)));
    // Group by baseline (runs of one line can differ by rounding), then join neighbours.
    let mut text: Vec<TextPiece> = Vec::new();
    let mut line_base = f64::NEG_INFINITY;
    for run in runs {
        if (run.baseline - line_base).abs() > SAME_BASELINE {
            line_base = run.baseline;
        }
        match text.last_mut() {
            Some(last)
                if (last.baseline - line_base).abs() <= SAME_BASELINE
                    && run.x - last.right <= last.size.max(run.size) * GAP_EMS
                    && run.x >= last.x =>
            {
                last.right = last.right.max(run.right);
                if !run.text.trim().is_empty() {
                    last.ink_right = run.ink_right;
                }
                last.text.push_str(&run.text);
            }
            _ => text.push(TextPiece { baseline: line_base, ..run }),
        }
    }
    PageSummary { width: page.size.width.0, height: page.size.height.0, text, rules }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::testing::*;

    #[test]
    fn runs_of_one_line_make_one_piece() {
        let out = lay(&doc_of(vec![para("one line of text")]));
        let pages = summarize(&out.layout);
        assert_eq!(pages.len(), 1);
        let p = pages[0].find("one line").expect("the line");
        assert_eq!(p.text.trim_end(), "one line of text");
        assert!((p.x - 72.0).abs() < 0.01);
    }
}
