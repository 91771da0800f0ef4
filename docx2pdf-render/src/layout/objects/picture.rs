//! Pictures: the image item a picture becomes, inline in its line or floating where its
//! anchor says (DrawingML §20.4.2.3, §20.4.2.8).

use std::sync::Arc;

use crate::layout::context::Ctx;
use crate::layout::fields::text_item;
use crate::layout::fragment::Fragment;
use crate::layout::frame::{ImageCrop, ImageData, ImageItem, Item, Point, Rgb, Size, Tag, TextItem};
use crate::docx::model::{Picture, TextAnchor};
use crate::units::Pt;

/// `a:srcRect` values are thousandths of a percent (ST_Percentage, §20.1.10.40).
const CROP_UNIT: f64 = 100_000.0;
/// `a:xfrm@rot` is in 60,000ths of a degree (ST_Angle, §20.1.10.3).
const ANGLE_UNIT: f64 = 60_000.0;

/// The room an inline picture's effects take around its extent (`wp:effectExtent`,
/// §20.4.2.6). Word lays the picture out as extent plus effect extent: in
/// `Sari_Dot_ADPL_srs` (corpus/word) a table after a picture paragraph with
/// `effectExtent b="9525"` starts 0.75 pt lower than the extent alone puts it.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct Effect {
    pub left: Pt,
    pub top: Pt,
    pub right: Pt,
    pub bottom: Pt,
}

impl Effect {
    /// The room an inline picture takes around its extent: its effect extent, and what a
    /// rotation (`a:xfrm@rot`) adds or takes, for Word sets a rotated inline picture in its
    /// line by the bounding box of the rotated extent, the picture turned about its centre
    /// (dries007_Project2_Verslag, corpus/word: two 286 × 169 pt pictures turned 270° stand
    /// side by side, 169 pt wide and 286 pt tall each; a negative room narrows the box).
    pub fn of(p: &Picture) -> Effect {
        let e = &p.effect;
        let Size { width: w, height: h } = size(p);
        // Quarter turns exactly, so that an upright picture keeps its box to the bit.
        let (sin, cos) = match p.transform.rotation.rem_euclid(360 * 60_000) {
            0 | 10_800_000 => (0.0, 1.0),
            5_400_000 | 16_200_000 => (1.0, 0.0),
            r => {
                let angle = (r as f64 / ANGLE_UNIT).to_radians();
                (angle.sin().abs(), angle.cos().abs())
            }
        };
        let dx = (w * cos + h * sin - w) * 0.5;
        let dy = (w * sin + h * cos - h) * 0.5;
        Effect { left: e.left.pt() + dx, top: e.top.pt() + dy, right: e.right.pt() + dx, bottom: e.bottom.pt() + dy }
    }

    /// The room above and below the picture together.
    pub fn height(&self) -> Pt {
        self.top + self.bottom
    }
}

/// The item that shows `p` at its extent.
pub(crate) fn image_item(p: &Picture) -> ImageItem {
    let c = p.crop;
    let fraction = |v: i64| (v as f64 / CROP_UNIT).clamp(-10.0, 1.0);
    ImageItem {
        image: Arc::new(ImageData { bytes: p.data.clone(), format: p.format }),
        size: size(p),
        crop: ImageCrop { left: fraction(c.left), top: fraction(c.top), right: fraction(c.right), bottom: fraction(c.bottom) },
        rotation: p.transform.rotation as f64 / ANGLE_UNIT,
        flip_h: p.transform.flip_h,
        flip_v: p.transform.flip_v,
    }
}

/// The text a metafile picture draws, shaped for a box of `size`: each run with its
/// baseline position from the box's top-left corner. A face the metafile names that is
/// not installed falls back as body text does.
pub(crate) fn overlay(p: &Picture, size: Size, ctx: &mut Ctx<'_>) -> Vec<(Point, TextItem)> {
    let mut out = Vec::new();
    for t in &p.texts {
        let font_size = Pt(t.height * size.height.0);
        if font_size.0 < 0.5 || t.text.is_empty() {
            continue;
        }
        let family: Arc<str> = Arc::from(if t.face.is_empty() { "Arial" } else { t.face.as_str() });
        let Some(face) = ctx.face(&family, t.bold, t.italic) else { continue };
        let item = text_item(&face, &t.text, font_size, Rgb(t.color.0, t.color.1, t.color.2), ctx);
        let width = item.width();
        let x = size.width * t.x
            - match t.anchor {
                TextAnchor::Left => Pt::ZERO,
                TextAnchor::Center => width * 0.5,
                TextAnchor::Right => width,
            };
        out.push((Point::new(x, size.height * t.y), item));
    }
    out
}

/// A floating picture as a fragment with its corner at the origin, tagged `tag`, its
/// metafile words over it; and its size.
pub(crate) fn floating(picture: &Picture, tag: Tag, ctx: &mut Ctx<'_>) -> (Size, Fragment) {
    let size = size(picture);
    let mut frag = Fragment::new(size.height);
    frag.push_tagged(Point::default(), Item::Image(image_item(picture)), tag);
    for (at, text) in overlay(picture, size, ctx) {
        frag.push_tagged(at, Item::Text(text), tag);
    }
    (size, frag)
}

/// The picture's box: `wp:extent` (§20.4.2.7).
pub(crate) fn size(p: &Picture) -> Size {
    Size { width: p.extent.0.pt().max(Pt::ZERO), height: p.extent.1.pt().max(Pt::ZERO) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::docx::model::{AnchorPosition, Crop, ImageFormat, Inline, PictureAnchor, PictureTransform, Run, RunContent, Wrap};
    use crate::layout::testing::{doc_of, images, lay, lines, para, texts};
    use crate::units::Emu;

    fn picture(wrap: Option<Wrap>, width_pt: i64) -> Picture {
        Picture {
            data: Arc::from(&b"x"[..]),
            format: ImageFormat::Png,
            extent: (Emu(width_pt * 12_700), Emu(50 * 12_700)),
            crop: Crop { left: 25_000, top: 0, right: 0, bottom: 10_000 },
            transform: PictureTransform { rotation: 90 * 60_000, flip_h: true, flip_v: false },
            anchor: wrap.map(|wrap| Box::new(PictureAnchor { wrap, ..PictureAnchor::default() })),
            texts: Vec::new(),
            effect: Default::default(),
            alt: None,
            decorative: false,
        }
    }

    /// A paragraph holding `text` then the picture.
    fn with_picture(text: &str, p: Picture) -> crate::docx::model::Paragraph {
        let mut para = para(text);
        para.inlines.push(Inline::Run(Run { content: vec![RunContent::Picture(Box::new(p))], ..Run::default() }));
        para
    }

    fn anchored(wrap: Wrap, v_offset_pt: i64, behind_text: bool) -> Picture {
        let mut p = picture(None, 300);
        p.crop = Crop::default();
        p.anchor = Some(Box::new(PictureAnchor {
            horizontal: Some(AnchorPosition { relative_from: Some("margin".into()), offset: Some(Emu(0)), align: None, percent: None }),
            vertical: Some(AnchorPosition { relative_from: Some("paragraph".into()), offset: Some(Emu(v_offset_pt * 12_700)), align: None, percent: None }),
            behind_text,
            wrap,
            ..PictureAnchor::default()
        }));
        p
    }

    #[test]
    fn an_inline_picture_stands_on_the_baseline_and_makes_its_line_taller() {
        // Upright: a turned picture stands on the baseline by its turned box (see `Effect::of`).
        let mut upright = picture(None, 100);
        upright.transform = PictureTransform::default();
        let out = lay(&doc_of(vec![with_picture("text ", upright), para("next")]));
        let page = &out.layout.pages[0];
        let (at, item) = images(page).pop().expect("the picture");
        let l = lines(page);
        let baseline = l.iter().find(|x| x.1.starts_with("text")).expect("first line").0;
        assert!((at.y.0 + item.size.height.0 - baseline).abs() < 0.01, "bottom {} baseline {baseline}", at.y.0 + item.size.height.0);
        assert!(at.x.0 > 72.0, "after the text: {}", at.x.0);
        // The 50 pt picture, not the text, sets the first line's ascent below the 72 pt margin.
        assert!((baseline - (72.0 + 50.0)).abs() < 0.01, "baseline {baseline}");
    }

    #[test]
    fn a_multiple_line_spacing_adds_its_extra_for_the_text_not_the_picture() {
        use crate::layout::font_metrics::LineExtent;
        use crate::resolve::LineRule;
        let text = LineExtent { ascent: Pt(9.0), descent: Pt(3.0) };
        let (height, baseline) = crate::layout::line::picture_line_height(text, Pt(100.0), LineRule::Auto(1.5), false);
        assert_eq!((height, baseline), (Pt(109.0), Pt(100.0)));
        // Without text beside it the picture ends the line: its height plus half a line.
        let (height, baseline) = crate::layout::line::picture_line_height(text, Pt(100.0), LineRule::Auto(1.5), true);
        assert_eq!((height, baseline), (Pt(106.0), Pt(100.0)));
        // A picture shorter than the mark leaves the mark's height.
        let (height, _) = crate::layout::line::picture_line_height(text, Pt(10.0), LineRule::Auto(1.0), true);
        assert_eq!(height, Pt(12.0));
    }

    #[test]
    fn a_top_and_bottom_picture_pushes_the_following_text_below_it() {
        let out = lay(&doc_of(vec![with_picture("anchor", anchored(Wrap::TopAndBottom, 0, false)), para("next")]));
        let page = &out.layout.pages[0];
        let (at, item) = images(page).pop().expect("the picture");
        let next = lines(page).into_iter().find(|x| x.1 == "next").expect("next").0;
        assert!(next > at.y.0 + item.size.height.0, "next {next} picture bottom {}", at.y.0 + item.size.height.0);
    }

    #[test]
    fn a_picture_in_front_of_the_text_does_not_move_it() {
        let plain = lay(&doc_of(vec![para("anchor"), para("next")]));
        let out = lay(&doc_of(vec![with_picture("anchor", anchored(Wrap::None, 10, false)), para("next")]));
        let y = |o: &crate::layout::document::LaidOut| lines(&o.layout.pages[0]).into_iter().find(|x| x.1 == "next").unwrap().0;
        assert!((y(&plain) - y(&out)).abs() < 0.01);
        let (at, _) = images(&out.layout.pages[0]).pop().expect("the picture");
        assert!((at.x.0 - 72.0).abs() < 0.01 && at.y.0 > 72.0 + 9.99, "{at:?}");
    }

    #[test]
    fn a_picture_behind_the_text_is_painted_first() {
        let out = lay(&doc_of(vec![with_picture("anchor", anchored(Wrap::None, 0, true))]));
        assert!(matches!(out.layout.pages[0].items[0].item, crate::layout::frame::Item::Image(_)));
    }

    #[test]
    fn the_item_has_the_extent_crop_fractions_and_rotation_in_degrees() {
        let item = image_item(&picture(None, 100));
        assert_eq!(item.size, Size { width: Pt(100.0), height: Pt(50.0) });
        assert_eq!((item.crop.left, item.crop.bottom), (0.25, 0.1));
        assert_eq!(item.rotation, 90.0);
        assert!(item.flip_h && !item.flip_v);
    }

    #[test]
    fn lines_beside_a_square_wrapped_picture_are_shorter_and_clear_it() {
        let mut p = anchored(Wrap::Square, 0, false);
        p.extent = (Emu(150 * 12_700), Emu(60 * 12_700));
        let out = lay(&doc_of(vec![with_picture(&"words beside the picture ".repeat(40), p)]));
        let page = &out.layout.pages[0];
        let (at, item) = images(page).pop().expect("the picture");
        let right = at.x.0 + item.size.width.0;
        let t = texts(page);
        let beside: Vec<_> = t.iter().filter(|x| x.1 < at.y.0 + item.size.height.0).collect();
        assert!(!beside.is_empty());
        for (x, _, text, _) in &beside {
            assert!(*x >= right - 0.01, "{text:?} at {x} overlaps the picture ending at {right}");
        }
        let below = t.iter().find(|x| x.1 > at.y.0 + item.size.height.0 + 12.0).expect("a line below");
        assert!((below.0 - 72.0).abs() < 0.01, "full width again below: {}", below.0);
    }

    #[test]
    fn a_top_and_bottom_picture_below_the_first_lines_lets_them_run_above_it() {
        let p = anchored(Wrap::TopAndBottom, 30, false);
        let out = lay(&doc_of(vec![with_picture(&"text around ".repeat(100), p)]));
        let page = &out.layout.pages[0];
        let (at, item) = images(page).pop().expect("the picture");
        let l = lines(page);
        assert!(l.iter().any(|x| x.0 < at.y.0), "lines above the picture");
        assert!(l.iter().all(|x| x.0 < at.y.0 || x.0 > at.y.0 + item.size.height.0), "no line over it: {l:?}");
    }
}
