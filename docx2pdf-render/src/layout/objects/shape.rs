//! Drawn shapes: the items a shape's outline and fill become (DrawingML `a:prstGeom`,
//! §20.1.9.18), and a group's shapes in the group's box (§20.4.2.1).

use crate::layout::collect::rgb;
use crate::layout::fragment::Fragment;
use crate::layout::frame::{Item, Point, ShapeItem, ShapeKind, Size, Tag};
use crate::docx::model::{Geometry, PolygonPreset, ShapeStyle, TextBox};
use crate::units::Pt;

/// `roundRect`'s default corner adjustment: 16,667 thousandths of a percent of the
/// shorter side (§20.1.10.56, presetShapeDefinitions.xml `adj`).
const ROUND_CORNER: f64 = 0.166_67;

/// The item that draws `style` in a box of `size`.
pub(crate) fn shape_item(style: &ShapeStyle, size: Size) -> ShapeItem {
    let kind = match &style.geometry {
        Geometry::Rect => ShapeKind::Rect,
        Geometry::RoundRect => ShapeKind::RoundRect(size.width.min(size.height) * ROUND_CORNER),
        Geometry::Ellipse => ShapeKind::Ellipse,
        // A flip in one direction turns the line from the other corner.
        Geometry::Line => ShapeKind::Line {
            down: style.flip_h == style.flip_v,
        },
        Geometry::Polygon(preset) => {
            ShapeKind::Polygon(polygon(*preset, size, style.flip_h, style.flip_v))
        }
        Geometry::Freeform(points) => ShapeKind::Polygon(
            points
                .iter()
                .map(|&(x, y)| Point::new(size.width * (x as f64 / 1e5), size.height * (y as f64 / 1e5)))
                .collect(),
        ),
    };
    ShapeItem {
        size,
        kind,
        fill: style.fill.map(rgb),
        stroke: style
            .line
            .map(|c| (rgb(c), style.line_width.pt().max(Pt(0.25)))),
        dashed: style.dashed,
    }
}

/// The outline of a preset in a box of `size`, with the default adjustments of
/// presetShapeDefinitions.xml (§20.1.10.56): arrow heads and bevels are set by the
/// shorter side (`ss`), as there.
fn polygon(preset: PolygonPreset, size: Size, flip_h: bool, flip_v: bool) -> Vec<Point> {
    use PolygonPreset as P;
    let (w, h) = (size.width.0, size.height.0);
    let ss = w.min(h);
    let pts: Vec<(f64, f64)> = match preset {
        P::Diamond => vec![(w / 2.0, 0.0), (w, h / 2.0), (w / 2.0, h), (0.0, h / 2.0)],
        P::Triangle => vec![(w / 2.0, 0.0), (w, h), (0.0, h)],
        P::RightTriangle => vec![(0.0, 0.0), (w, h), (0.0, h)],
        // The regular pentagon's points on its box (hf 105146, vf 110557 in the spec).
        P::Pentagon => vec![
            (w / 2.0, 0.0),
            (w, h * 0.382),
            (w * 0.809, h),
            (w * 0.191, h),
            (0.0, h * 0.382),
        ],
        P::Hexagon => {
            let a = ss * 0.25;
            vec![
                (a, 0.0),
                (w - a, 0.0),
                (w, h / 2.0),
                (w - a, h),
                (a, h),
                (0.0, h / 2.0),
            ]
        }
        P::Octagon => {
            let a = ss * 0.292_89;
            vec![
                (a, 0.0),
                (w - a, 0.0),
                (w, a),
                (w, h - a),
                (w - a, h),
                (a, h),
                (0.0, h - a),
                (0.0, a),
            ]
        }
        P::Parallelogram => {
            let a = ss * 0.25;
            vec![(a, 0.0), (w, 0.0), (w - a, h), (0.0, h)]
        }
        P::Trapezoid => {
            let a = ss * 0.25;
            vec![(a, 0.0), (w - a, 0.0), (w, h), (0.0, h)]
        }
        P::RightArrow | P::LeftArrow => {
            let (head, shaft) = (ss * 0.5, h * 0.25);
            let right = vec![
                (0.0, shaft),
                (w - head, shaft),
                (w - head, 0.0),
                (w, h / 2.0),
                (w - head, h),
                (w - head, h - shaft),
                (0.0, h - shaft),
            ];
            if preset == P::LeftArrow {
                right.into_iter().map(|(x, y)| (w - x, y)).collect()
            } else {
                right
            }
        }
        P::UpArrow | P::DownArrow => {
            let (head, shaft) = (ss * 0.5, w * 0.25);
            let down = vec![
                (shaft, 0.0),
                (w - shaft, 0.0),
                (w - shaft, h - head),
                (w, h - head),
                (w / 2.0, h),
                (0.0, h - head),
                (shaft, h - head),
            ];
            if preset == P::UpArrow {
                down.into_iter().map(|(x, y)| (x, h - y)).collect()
            } else {
                down
            }
        }
        P::UpDownArrow => {
            let (head, shaft) = ((ss * 0.5).min(h / 2.0), w * 0.25);
            vec![
                (w / 2.0, 0.0),
                (w, head),
                (w - shaft, head),
                (w - shaft, h - head),
                (w, h - head),
                (w / 2.0, h),
                (0.0, h - head),
                (shaft, h - head),
                (shaft, head),
                (0.0, head),
            ]
        }
        P::LeftRightArrow => {
            let (head, shaft) = ((ss * 0.5).min(w / 2.0), h * 0.25);
            vec![
                (0.0, h / 2.0),
                (head, 0.0),
                (head, shaft),
                (w - head, shaft),
                (w - head, 0.0),
                (w, h / 2.0),
                (w - head, h),
                (w - head, h - shaft),
                (head, h - shaft),
                (head, h),
            ]
        }
        P::Chevron => {
            let a = (ss * 0.5).min(w);
            vec![
                (0.0, 0.0),
                (w - a, 0.0),
                (w, h / 2.0),
                (w - a, h),
                (0.0, h),
                (a, h / 2.0),
            ]
        }
        P::HomePlate => {
            let a = (ss * 0.5).min(w);
            vec![(0.0, 0.0), (w - a, 0.0), (w, h / 2.0), (w - a, h), (0.0, h)]
        }
        P::Plus => {
            let a = ss * 0.25;
            vec![
                (a, 0.0),
                (w - a, 0.0),
                (w - a, a),
                (w, a),
                (w, h - a),
                (w - a, h - a),
                (w - a, h),
                (a, h),
                (a, h - a),
                (0.0, h - a),
                (0.0, a),
                (a, a),
            ]
        }
        P::Star5 => (0..10u32)
            .map(|i| {
                let angle = std::f64::consts::PI * f64::from(i) / 5.0 - std::f64::consts::FRAC_PI_2;
                let r = if i.is_multiple_of(2) { 1.0 } else { 0.381_97 };
                (
                    w / 2.0 + w / 2.0 * r * angle.cos(),
                    h / 2.0 + h / 2.0 * r * angle.sin(),
                )
            })
            .collect(),
    };
    pts.into_iter()
        .map(|(x, y)| {
            let x = if flip_h { w - x } else { x };
            let y = if flip_v { h - y } else { y };
            Point::new(Pt(x), Pt(y))
        })
        .collect()
}

/// Pushes the shapes a box draws (its own outline, then a group's children) into `frag`,
/// whose origin is the box's corner, as content of `tag`.
pub(crate) fn push_shapes(tb: &TextBox, size: Size, frag: &mut Fragment, tag: Tag) {
    if let Some(style) = &tb.shape {
        frag.push_tagged(Point::default(), Item::Shape(shape_item(style, size)), tag);
    }
    for child in &tb.children {
        let at = Point::new(child.offset.0.pt(), child.offset.1.pt());
        let size = Size {
            width: child.extent.0.pt(),
            height: child.extent.1.pt(),
        };
        frag.push_tagged(at, Item::Shape(shape_item(&child.style, size)), tag);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::docx::model::{Block, Color, GroupChild};
    use crate::layout::testing::*;
    use crate::units::Emu;

    fn style(geometry: Geometry) -> ShapeStyle {
        ShapeStyle {
            geometry,
            fill: Some(Color::Rgb(0x44, 0x72, 0xC4)),
            line: Some(Color::Rgb(0, 0, 0)),
            line_width: Emu(12_700),
            ..ShapeStyle::default()
        }
    }

    fn shapes(page: &crate::layout::frame::Page) -> Vec<(Point, ShapeItem)> {
        page.items
            .iter()
            .filter_map(|p| match &p.item {
                Item::Shape(s) => Some((p.pos, s.clone())),
                _ => None,
            })
            .collect()
    }

    fn floating(
        shape: Option<ShapeStyle>,
        children: Vec<GroupChild>,
        text: Option<&str>,
    ) -> crate::docx::model::Paragraph {
        let mut p = para("anchor");
        let at = |pt: i64| crate::docx::model::AnchorPosition {
            relative_from: Some("page".into()),
            offset: Some(Emu(pt * 12_700)),
            align: None,
            percent: None,
        };
        p.text_boxes.push(TextBox {
            blocks: text
                .map(|t| vec![Block::Paragraph(para(t))])
                .unwrap_or_default(),
            anchored: true,
            extent: Some((Emu(200 * 12_700), Emu(100 * 12_700))),
            horizontal: Some(at(100)),
            vertical: Some(at(300)),
            shape,
            children,
            ..TextBox::default()
        });
        p
    }

    #[test]
    fn a_filled_rectangle_with_text_is_drawn_under_its_text() {
        let out = lay(&doc_of(vec![floating(
            Some(style(Geometry::Rect)),
            vec![],
            Some("inside"),
        )]));
        let page = &out.layout.pages[0];
        let s = shapes(page);
        assert_eq!(s.len(), 1);
        let (at, item) = s[0].clone();
        assert_eq!((at.x.0, at.y.0), (100.0, 300.0));
        assert_eq!((item.size.width.0, item.size.height.0), (200.0, 100.0));
        assert_eq!(item.kind, ShapeKind::Rect);
        assert_eq!(item.fill, Some(crate::layout::frame::Rgb(0x44, 0x72, 0xC4)));
        let text = texts(page)
            .into_iter()
            .find(|t| t.2 == "inside")
            .expect("the shape's text");
        assert!(
            text.0 > 100.0 && text.0 < 300.0 && text.1 > 300.0 && text.1 < 400.0,
            "{:?}",
            (text.0, text.1)
        );
        let shape_index = page
            .items
            .iter()
            .position(|p| matches!(p.item, Item::Shape(_)))
            .unwrap();
        let text_index = page
            .items
            .iter()
            .position(
                |p| matches!(&p.item, Item::Text(t) if t.glyphs.iter().any(|g| g.text == "i")),
            )
            .unwrap();
        assert!(shape_index < text_index, "the fill is painted first");
    }

    #[test]
    fn a_group_places_its_shapes_in_its_box() {
        let child = |x: i64, g: Geometry| GroupChild {
            offset: (Emu(x * 12_700), Emu(10 * 12_700)),
            extent: (Emu(50 * 12_700), Emu(40 * 12_700)),
            style: style(g),
        };
        let out = lay(&doc_of(vec![floating(
            None,
            vec![child(0, Geometry::Ellipse), child(150, Geometry::Line)],
            None,
        )]));
        let s = shapes(&out.layout.pages[0]);
        assert_eq!(s.len(), 2);
        assert_eq!(
            (s[0].0.x.0, s[0].0.y.0, s[0].1.kind.clone()),
            (100.0, 310.0, ShapeKind::Ellipse)
        );
        assert_eq!(
            (s[1].0.x.0, s[1].1.kind.clone()),
            (250.0, ShapeKind::Line { down: true })
        );
    }

    #[test]
    fn a_diamond_touches_the_middle_of_each_side_and_flips_turn_an_arrow() {
        let size = Size {
            width: Pt(100.0),
            height: Pt(50.0),
        };
        let d = polygon(PolygonPreset::Diamond, size, false, false);
        assert_eq!(
            d,
            vec![
                Point::new(Pt(50.0), Pt(0.0)),
                Point::new(Pt(100.0), Pt(25.0)),
                Point::new(Pt(50.0), Pt(50.0)),
                Point::new(Pt(0.0), Pt(25.0))
            ]
        );
        let right = polygon(PolygonPreset::RightArrow, size, false, false);
        let tip = right.iter().max_by(|a, b| a.x.0.total_cmp(&b.x.0)).unwrap();
        assert_eq!((tip.x.0, tip.y.0), (100.0, 25.0));
        let flipped = polygon(PolygonPreset::RightArrow, size, true, false);
        assert!(
            flipped.iter().any(|p| p.x.0 == 0.0 && p.y.0 == 25.0),
            "the tip on the left"
        );
    }

    #[test]
    fn a_round_rectangle_rounds_a_sixth_of_its_shorter_side() {
        let item = shape_item(
            &style(Geometry::RoundRect),
            Size {
                width: Pt(120.0),
                height: Pt(60.0),
            },
        );
        let ShapeKind::RoundRect(r) = item.kind else {
            panic!()
        };
        assert!((r.0 - 10.0).abs() < 0.01);
    }
}
