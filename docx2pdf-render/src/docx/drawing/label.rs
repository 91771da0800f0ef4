//! Text boxes built for drawings the reader draws itself (charts, SmartArt): paragraphs of
//! plain runs in a box of a group, with no spacing or indents of their own.

use crate::docx::model::{
    Align, Block, Color, Indent, Inline, LineSpacing, Paragraph, ParagraphProps, Run, RunContent, RunProps, Spacing,
    TextBox, Wrap,
};
use crate::units::{Emu, HalfPoints, Twips};

/// One run of text: the text, its size in points, colour and boldness.
pub(super) struct Piece {
    pub text: String,
    pub size: f64,
    pub color: (u8, u8, u8),
    pub bold: bool,
}

/// A paragraph aligned `align` holding `pieces`, its line `line_pct` of single spacing.
pub(super) fn paragraph(pieces: Vec<Piece>, align: Align, line_pct: f64) -> Block {
    let runs = pieces
        .into_iter()
        .map(|p| {
            Inline::Run(Run {
                props: RunProps {
                    size: Some(HalfPoints((p.size * 2.0).round() as i64)),
                    color: Some(Color::Rgb(p.color.0, p.color.1, p.color.2)),
                    bold: Some(p.bold),
                    ..Default::default()
                },
                content: vec![RunContent::Text(p.text)],
                ..Default::default()
            })
        })
        .collect();
    let zero = Some(Twips(0));
    Block::Paragraph(Paragraph {
        props: ParagraphProps {
            align: Some(align),
            spacing: Spacing {
                before: zero,
                after: zero,
                line: Some(LineSpacing::Auto((240.0 * line_pct).round() as i64)),
                ..Default::default()
            },
            indent: Indent { left: zero, right: zero, first_line: zero, ..Default::default() },
            ..Default::default()
        },
        inlines: runs,
        ..Default::default()
    })
}

/// A text box of `group`'s drawing at `offset` from the group's corner, `extent` in size,
/// holding `blocks` placed by `anchor` (`t`, `ctr`, `b`) inside `insets`.
pub(super) fn text_box(
    group: &TextBox,
    offset: (Emu, Emu),
    extent: (Emu, Emu),
    blocks: Vec<Block>,
    anchor: &str,
    insets: [Emu; 4],
) -> TextBox {
    TextBox {
        blocks,
        extent: Some((Emu(extent.0 .0.max(1)), Emu(extent.1 .0.max(1)))),
        wrap: Wrap::None,
        shape: None,
        children: Vec::new(),
        insets: insets.map(Some),
        text_anchor: Some(anchor.to_owned()),
        group_offset: offset,
        group_extent: group.extent,
        ..group.clone()
    }
}
