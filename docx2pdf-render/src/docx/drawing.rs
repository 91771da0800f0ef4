//! Drawings (`w:drawing`, `w:pict`, `w:object`): pictures (`pic:pic`, §20.2.2.5, or VML
//! `v:imagedata`) are read with their media bytes, size, crop, transform and placement;
//! the content of text boxes (`w:txbxContent`, §17.17.1.1) is kept, with where the drawing
//! says the box goes and how text wraps around it; shapes (`wps:wsp`, groups, VML
//! `v:rect`…) keep their look (see `shape`); charts and diagrams without a fallback
//! picture are drawn from their chart part (`chart`, `chart_plot`) or the diagram's saved
//! drawing (`diagram`) as a group of shapes and labels, else a placeholder. Drawings with
//! none of these are skipped, one warning per kind.

mod chart;
mod chart_plot;
mod diagram;
mod horizontal_rule;
mod label;
mod shape;

use quick_xml::events::BytesStart;

use super::body::read_blocks;
use super::context::Story;
use super::media::sniff_image;
use super::model::{
    AnchorPosition, Crop, Distances, GroupChild, ImageFormat, Inline, Paragraph, Picture, PictureAnchor, PictureTransform,
    RunContent, TextBox, Wrap, WrapText,
};
use super::simple_types::int;
use super::xml::{attr, attr_raw, on_off_attr, Ev, XmlReader};
use super::DocxError;
use crate::units::Emu;
use shape::ShapeReader;

/// Which element is being read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DrawingKind {
    /// `w:drawing` (DrawingML, §20.4).
    Drawing,
    /// `w:pict` (VML).
    Pict,
    /// `w:object` (an embedded object with its VML preview).
    Object,
}

/// Which axis a `wp:posOffset`/`wp:align` belongs to.
#[derive(Clone, Copy)]
enum Axis {
    Horizontal,
    Vertical,
}

/// What a drawing says about its picture, gathered while it is read.
#[derive(Default)]
struct PictureRef {
    /// Inside the first `pic:pic` (at this depth): its `a:blip`, `a:srcRect` and `a:xfrm`
    /// are the picture's. Later pictures of a group are left out.
    in_pic: bool,
    pic_depth: Option<usize>,
    /// `a:blip@r:embed` or `v:imagedata@r:id`: the relationship of the media part.
    rel_id: Option<String>,
    crop: Crop,
    transform: PictureTransform,
    wrap: Wrap,
    wrap_text: WrapText,
    distance: Distances,
    /// `wp:effectExtent`.
    effect: Distances,
    /// `wp:docPr@descr`, else `@title`; VML `v:shape@alt`.
    alt: Option<String>,
    /// `adec:decorative@val` in the `wp:docPr` extensions.
    decorative: bool,
}

/// Reads a drawing whose `Start` was just returned. Its first picture is returned;
/// text-box content found anywhere inside (`wps:txbx/w:txbxContent`,
/// `v:textbox/w:txbxContent`, in groups too) is read as a [`TextBox`] into
/// `story.text_boxes`, for the anchoring paragraph. `mc:AlternateContent` is already
/// resolved by the reader, so a text box with a VML fallback is read once, and a chart or
/// shape whose `mc:Fallback` holds a picture gives that picture. A VML horizontal rule
/// (`v:rect` with `o:hr="t"`) is returned as one.
pub(crate) fn read_drawing(
    xml: &mut XmlReader<'_>,
    story: &mut Story<'_>,
    kind: DrawingKind,
) -> Result<Option<RunContent>, DocxError> {
    // Where the box goes, gathered from the elements before its content.
    let mut frame = Box::<TextBox>::default();
    let mut pic = PictureRef::default();
    let mut axis = Axis::Horizontal;
    let mut vml_style_seen = false;
    let mut depth = 0usize;
    // Local names of the open elements, for the shape reader's context.
    let mut stack: Vec<Vec<u8>> = Vec::new();
    let mut shapes = ShapeReader::default();
    let mut top_shape = None;
    let mut children: Vec<GroupChild> = Vec::new();
    let first_box = story.text_boxes.len();
    let palette = xml.palette();
    // The top-level shape's look went with its text box.
    let mut text_in_shape = false;
    let mut vml_not_a_box = false;
    // VML WordArt (`v:textpath`), whose text we do not draw.
    let mut word_art = false;
    // A chart (`c:chart`, `cx:chart`) or SmartArt (`dgm:relIds`) with no fallback picture.
    let mut chart = false;
    // `c:chart@r:id` (§21.2.2.27): the chart part.
    let mut chart_rel: Option<String> = None;
    // `dgm:relIds@r:dm`: the SmartArt's data part.
    let mut diagram_rel: Option<String> = None;
    // Where the text box of the shape being read went, for its `wps:bodyPr` after it.
    let mut text_box_at: Option<usize> = None;
    // `v:textbox` fits its shape to the text.
    let mut vml_fit = false;
    let mut rule = None;
    loop {
        let e = match xml.next()? {
            Ev::Start(e) => e,
            Ev::End if depth == 0 => break,
            Ev::End => {
                if pic.pic_depth == Some(depth) {
                    pic.in_pic = false;
                }
                depth -= 1;
                match stack.pop().as_deref() {
                    Some(b"wsp") if shapes.in_group() => {
                        let extent = frame.extent.unwrap_or_default();
                        if let (Some(style), Some((offset, extent))) = (shapes.style(), shapes.box_in_group(extent)) {
                            children.push(GroupChild { offset, extent, style });
                        }
                    }
                    Some(b"wsp") => top_shape = shapes.style(),
                    Some(b"wgp" | b"grpSp") => shapes.end_group(),
                    _ => {}
                }
                continue;
            }
            Ev::Eof => break,
            Ev::Text(_) | Ev::CData(_) => continue,
        };
        match e.local_name().as_ref() {
            b"txbxContent" => {
                let mut boxed = (*frame).clone();
                boxed.shape = shapes.style();
                boxed.fit_text = vml_fit;
                if shapes.in_group() {
                    // A group's text box sits in its own shape's box; the group wraps.
                    boxed.wrap = Wrap::None;
                    if let Some((offset, size)) = shapes.box_in_group(frame.extent.unwrap_or_default()) {
                        boxed.extent = Some(size);
                        boxed.group_offset = offset;
                        boxed.group_extent = frame.extent;
                    }
                } else {
                    text_in_shape = true;
                }
                text_box_at = Some(story.text_boxes.len());
                read_text_box(xml, story, &boxed)?;
            }
            // §20.4.2.10/11: the text of these elements is the value.
            b"posOffset" => {
                let offset = int(xml.read_text()?.as_bytes()).map(Emu);
                position(&mut frame, axis).offset = offset;
            }
            b"pctPosHOffset" | b"pctPosVOffset" => {
                let percent = int(xml.read_text()?.as_bytes());
                position(&mut frame, axis).percent = percent;
            }
            b"align" => {
                let align = xml.read_text()?.trim().to_owned();
                position(&mut frame, axis).align = Some(align).filter(|a| !a.is_empty());
            }
            name => {
                depth += 1;
                if kind == DrawingKind::Drawing {
                    match name {
                        b"wsp" => shapes.begin_shape(),
                        b"wgp" | b"grpSp" => shapes.begin_group(),
                        _ => shapes.element(name, &e, &stack, palette),
                    }
                } else if !shapes.seen && matches!(name, b"rect" | b"roundrect" | b"oval" | b"line" | b"shape") {
                    if name == b"rect" {
                        rule = horizontal_rule::horizontal_rule(&e);
                    }
                    shapes.vml_shape(name, &e);
                    if name == b"line" {
                        vml_line(&e, &mut frame);
                    }
                } else if shapes.seen && matches!(name, b"fill" | b"stroke") {
                    shapes.vml_child(name, &e);
                } else if matches!(name, b"textpath" | b"imagedata") {
                    // WordArt text and pictures are not boxes: the shape is not drawn.
                    vml_not_a_box = true;
                    word_art |= name == b"textpath";
                }
                // VML's alternative text (Part 4 §14.1.2.19 `v:shape@alt`).
                if kind != DrawingKind::Drawing && name == b"shape" && pic.alt.is_none() {
                    pic.alt = nonblank_attr(&e, b"alt");
                }
                stack.push(name.to_vec());
                match name {
                    b"chart" | b"relIds" if stack.iter().any(|s| s == b"graphicData") => {
                        chart = true;
                        if name == b"chart" {
                            chart_rel = attr(&e, b"id").map(|r| r.into_owned());
                        } else {
                            diagram_rel = attr(&e, b"dm").map(|r| r.into_owned());
                        }
                    }
                    b"wsp" => text_box_at = None,
                    // §21.1.2.1.1: the insets and vertical anchoring of the shape's text.
                    b"bodyPr" => {
                        if let Some(b) = text_box_at.and_then(|i| story.text_boxes.get_mut(i)) {
                            let inset = |name: &[u8]| attr_raw(&e, name).and_then(|v| int(&v)).map(Emu);
                            b.insets = [inset(b"lIns"), inset(b"tIns"), inset(b"rIns"), inset(b"bIns")];
                            b.text_anchor = attr(&e, b"anchor").map(|a| a.into_owned());
                        }
                    }
                    b"spAutoFit" if stack.iter().any(|s| s == b"bodyPr") => {
                        if let Some(b) = text_box_at.and_then(|i| story.text_boxes.get_mut(i)) {
                            b.fit_text = true;
                        }
                    }
                    // Part 4 §14.1.2.22: `v:textbox@style` may fit the shape to its text.
                    b"textbox" if kind != DrawingKind::Drawing => {
                        vml_fit = attr(&e, b"style").is_some_and(|s| s.replace(' ', "").contains("mso-fit-shape-to-text:t"));
                    }
                    // §20.4.2.5: the drawing's non-visual properties.
                    b"docPr" => pic.alt = alt_text(&e),
                    // A group's picture carries its own alternative text (`pic:cNvPr`,
                    // §20.2.2.3) where the group's `wp:docPr` gives none.
                    b"cNvPr" if pic.in_pic && pic.alt.is_none() => pic.alt = alt_text(&e),
                    b"decorative" => pic.decorative = on_off_attr(&e, b"val").unwrap_or(true),
                    b"inline" => frame.anchored = false,
                    b"anchor" => {
                        frame.anchored = true;
                        frame.behind_text = on_off_attr(&e, b"behindDoc").unwrap_or(false);
                        pic.distance = distances(&e);
                        frame.distance = pic.distance;
                    }
                    // `wp:extent` (§20.4.2.7); `a:ext` of a transform has another name.
                    b"extent" => frame.extent = emu_pair(&e),
                    b"effectExtent" => pic.effect = effect_extent(&e),
                    b"positionH" | b"positionV" => {
                        axis = if name == b"positionH" {
                            Axis::Horizontal
                        } else {
                            Axis::Vertical
                        };
                        position(&mut frame, axis).relative_from = attr(&e, b"relativeFrom").map(|r| r.into_owned());
                    }
                    // §20.4.2.15–20; tight and through wrap along a polygon: square for now.
                    b"wrapNone" => pic.wrap = Wrap::None,
                    b"wrapSquare" | b"wrapTight" | b"wrapThrough" => {
                        pic.wrap = Wrap::Square;
                        pic.wrap_text = wrap_text(&e);
                    }
                    b"wrapTopAndBottom" => pic.wrap = Wrap::TopAndBottom,
                    b"pic" if pic.pic_depth.is_none() => {
                        pic.in_pic = true;
                        pic.pic_depth = Some(depth);
                    }
                    // §20.1.8.13: a linked (`r:link`) picture is outside the package.
                    b"blip" if pic.in_pic && pic.rel_id.is_none() => {
                        pic.rel_id = attr(&e, b"embed").map(|r| r.into_owned()).filter(|r| !r.is_empty());
                    }
                    b"srcRect" if pic.in_pic => pic.crop = crop(&e),
                    b"xfrm" if pic.in_pic => pic.transform = transform(&e),
                    // VML: the picture of a `v:shape` (Part 4 §14.1.2.11), `r:id`.
                    b"imagedata" if kind != DrawingKind::Drawing && pic.rel_id.is_none() => {
                        pic.rel_id = attr(&e, b"id").map(|r| r.into_owned()).filter(|r| !r.is_empty());
                        if let Some(crop) = vml_crop(&e) {
                            pic.crop = crop;
                        }
                    }
                    // `w10:wrap@type` (Part 4 §14.3.2.6) of a floating VML shape.
                    b"wrap" if kind != DrawingKind::Drawing => {
                        pic.wrap = match attr_raw(&e, b"type").as_deref() {
                            Some(b"topAndBottom") => Wrap::TopAndBottom,
                            Some(b"square" | b"tight" | b"through") => Wrap::Square,
                            _ => Wrap::None,
                        };
                        pic.wrap_text = match attr_raw(&e, b"side").as_deref() {
                            Some(b"left") => WrapText::Left,
                            Some(b"right") => WrapText::Right,
                            Some(b"largest") => WrapText::Largest,
                            _ => WrapText::BothSides,
                        };
                    }
                    // The outermost VML shape's CSS-like `style` places the box.
                    _ if kind != DrawingKind::Drawing && !vml_style_seen => {
                        if let Some(style) = attr(&e, b"style") {
                            vml_style_seen = true;
                            vml_frame(&style, &mut frame);
                            if let Some(rotation) = vml_rotation(&style) {
                                pic.transform.rotation = rotation;
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    if let Some(rule) = rule {
        return Ok(Some(RunContent::HorizontalRule(rule)));
    }
    frame.wrap = pic.wrap;
    frame.wrap_text = pic.wrap_text;
    // The drawing's alternative text goes with every box it makes (a shape, a group, a
    // chart or SmartArt drawn as a group), those read already and those made below.
    frame.alt.clone_from(&pic.alt);
    frame.decorative = pic.decorative;
    // A VML `w10:wrap` follows the text box it belongs to: the box learns it now.
    let had_boxes = story.text_boxes.len() > first_box;
    for b in &mut story.text_boxes[first_box..] {
        if kind != DrawingKind::Drawing {
            b.wrap = frame.wrap;
            b.wrap_text = frame.wrap_text;
        }
        b.alt.clone_from(&frame.alt);
        b.decorative = frame.decorative;
    }
    let picture = picture(story, &frame, &pic)?;
    if kind != DrawingKind::Drawing && !had_boxes && !vml_not_a_box {
        top_shape = shapes.style();
    }
    // A shape whose text box was read already drew with it.
    let drew_with_text = text_in_shape || (kind != DrawingKind::Drawing && had_boxes);
    let top_shape = top_shape.filter(|_| !drew_with_text);
    let mut drawn = false;
    if picture.is_none() && (top_shape.is_some() || !children.is_empty()) && frame.extent.is_some_and(|(w, h)| w.0 > 0 || h.0 > 0) {
        // A shape with no text, or a group's shapes: a box without blocks that draws
        // them, painted before the group's text boxes.
        let mut shape_box = (*frame).clone();
        shape_box.shape = top_shape;
        shape_box.children = children;
        story.text_boxes.insert(first_box, shape_box);
        drawn = true;
    }
    // A group of plain text frames draws nothing of its own, and its text boxes do not
    // wrap (the group does): an empty box of the group's placement keeps the body text
    // out of the group's area as the anchor's wrap says (§20.4.2.15–20), as Word sets the
    // text below a caption group wrapped square across the column.
    let in_group = story.text_boxes[first_box..].iter().any(|b| b.group_extent.is_some());
    if picture.is_none() && !drawn && in_group && frame.anchored && frame.wrap != Wrap::None {
        story.text_boxes.insert(first_box, (*frame).clone());
        drawn = true;
    }
    let mut group_drawn = false;
    if picture.is_none() && !drawn {
        let group = match (chart_rel.as_deref(), diagram_rel.as_deref()) {
            (Some(rel), _) => read_chart_group(xml, story, rel, &frame)?,
            (None, Some(rel)) => read_diagram_group(xml, story, rel, &frame)?,
            _ => None,
        };
        if let Some((shapes, labels)) = group {
            place_group(story, &frame, first_box, shapes, labels);
            group_drawn = true;
            drawn = true;
        }
    }
    let picture = match picture {
        // An inline chart or diagram keeps its room in the line; its group is drawn over it.
        None if group_drawn && !frame.anchored => placeholder(&frame, &pic).map(|p| Picture {
            format: ImageFormat::Blank,
            ..p
        }),
        None if chart && !drawn => placeholder(&frame, &pic),
        // Inline WordArt is not drawn, but Word sets it in its line as tall as its shape
        // (a 410 × 108 pt WordArt title in aspose_words_Aspose_Words_for_NET_images moves
        // the text after it a page down in Word's PDF): it keeps that room, blank.
        None if word_art && !drawn && !frame.anchored => {
            placeholder(&frame, &pic).map(|p| Picture { format: ImageFormat::Blank, ..p })
        }
        // An inline text box, shape or group (`wp:inline`, §20.4.2.8) sits in its line like
        // a character: a blank picture keeps its room there, and its boxes are drawn over
        // it from the start of the paragraph's column, as an inline chart's group is.
        None if !frame.anchored && story.text_boxes.len() > first_box => {
            let blank = placeholder(&frame, &pic).map(|p| Picture { format: ImageFormat::Blank, ..p });
            if blank.is_some() {
                for b in &mut story.text_boxes[first_box..] {
                    float_at_line_start(b);
                    b.in_line = true;
                }
            }
            blank
        }
        p => p,
    };
    // WordArt keeps its room (above) but not its text: counted as WordArt, not a shape.
    if word_art && !drawn {
        story.skipped.word_art += 1;
    } else if picture.is_none() && !drawn && !had_boxes {
        // A text box read above is drawn with its content: not skipped.
        match kind {
            DrawingKind::Drawing => story.skipped.drawings += 1,
            DrawingKind::Pict => story.skipped.picts += 1,
            DrawingKind::Object => story.skipped.objects += 1,
        }
    }
    Ok(picture.map(|p| RunContent::Picture(Box::new(p))))
}

/// An attribute's value, trimmed, unless it is blank.
fn nonblank_attr(e: &BytesStart<'_>, name: &[u8]) -> Option<String> {
    attr(e, name).map(|v| v.trim().to_owned()).filter(|v| !v.is_empty())
}

/// The alternative text of `wp:docPr` or `pic:cNvPr` (§20.4.2.5): `descr`, which Word's
/// "Alt Text" pane writes, else `title`, its older title.
fn alt_text(e: &BytesStart<'_>) -> Option<String> {
    nonblank_attr(e, b"descr").or_else(|| nonblank_attr(e, b"title"))
}

/// The picture a drawing points at, with its media part read through the story's
/// relationships; `None` without a picture, a size or a readable part.
fn picture(story: &mut Story<'_>, frame: &TextBox, pic: &PictureRef) -> Result<Option<Picture>, DocxError> {
    let Some(rel_id) = pic.rel_id.as_ref() else { return Ok(None) };
    let Some((cx, cy)) = frame.extent.filter(|(cx, cy)| cx.0 > 0 && cy.0 > 0) else { return Ok(None) };
    let Some(rel) = story.rels.get(rel_id).filter(|r| !r.external) else { return Ok(None) };
    let target = rel.target.clone();
    let Some(media) = story.media.as_deref_mut() else { return Ok(None) };
    let Some(data) = media.media(&target)? else { return Ok(None) };
    let anchor = anchor_of(frame, pic);
    let format = sniff_image(&data);
    let texts = match format {
        ImageFormat::Emf => super::metafile_text::emf_texts(&data),
        ImageFormat::Wmf => super::metafile_text::wmf_texts(&data),
        _ => Vec::new(),
    };
    Ok(Some(Picture {
        format,
        texts,
        data,
        extent: (cx, cy),
        crop: pic.crop,
        transform: pic.transform,
        effect: if anchor.is_none() { pic.effect } else { Distances::default() },
        anchor,
        alt: pic.alt.clone(),
        decorative: pic.decorative,
    }))
}

/// Where an anchored picture sits and how text wraps around it; `None` when it is inline.
fn anchor_of(frame: &TextBox, pic: &PictureRef) -> Option<Box<PictureAnchor>> {
    frame.anchored.then(|| {
        Box::new(PictureAnchor {
            horizontal: frame.horizontal.clone(),
            vertical: frame.vertical.clone(),
            behind_text: frame.behind_text,
            wrap: pic.wrap,
            distance: pic.distance,
            wrap_text: pic.wrap_text,
        })
    })
}

/// The shapes and labels of a group drawn by the reader.
type Group = (Vec<GroupChild>, Vec<TextBox>);

/// The chart part of relationship `rel` drawn in `frame`'s box; `None` when the part is
/// missing or holds no chart drawn here (the caller puts a placeholder).
fn read_chart_group(xml: &XmlReader<'_>, story: &mut Story<'_>, rel: &str, frame: &TextBox) -> Result<Option<Group>, DocxError> {
    let Some(data) = part(story, rel)? else { return Ok(None) };
    let Some(chart) = chart::read_chart(&mut xml.for_part(&data.1, &data.0))? else {
        return Ok(None);
    };
    Ok(chart_plot::plot(&chart, frame, xml.palette()).map(|d| (d.shapes, d.labels)))
}

/// The SmartArt whose data part is relationship `rel`, from the drawing part Word saved
/// with it; `None` without one.
fn read_diagram_group(xml: &XmlReader<'_>, story: &mut Story<'_>, rel: &str, frame: &TextBox) -> Result<Option<Group>, DocxError> {
    let Some((name, data)) = part(story, rel)? else { return Ok(None) };
    let Some(drawing_rel) = diagram::drawing_rel(&mut xml.for_part(&data, &name))? else {
        return Ok(None);
    };
    let Some((drawing_part, bytes)) = part(story, &drawing_rel)? else { return Ok(None) };
    let diagram = diagram::read_diagram(&mut xml.for_part(&bytes, &drawing_part), frame)?;
    Ok(diagram.map(|d| (d.shapes, d.labels)))
}

/// A part's name and bytes.
type Part = (String, std::sync::Arc<[u8]>);

/// The name and bytes of the internal part of relationship `rel`.
fn part(story: &mut Story<'_>, rel: &str) -> Result<Option<Part>, DocxError> {
    let Some(target) = story.rels.get(rel).filter(|r| !r.external).map(|r| r.target.clone()) else {
        return Ok(None);
    };
    let Some(media) = story.media.as_deref_mut() else { return Ok(None) };
    Ok(media.media(&target)?.map(|data| (target, data)))
}

/// Puts a group drawn by the reader into the story: its shapes as one box at `first_box`,
/// its labels as text boxes after it.
fn place_group(story: &mut Story<'_>, frame: &TextBox, first_box: usize, shapes: Vec<GroupChild>, mut labels: Vec<TextBox>) {
    let mut group = frame.clone();
    group.shape = None;
    group.children = shapes;
    if !frame.anchored {
        float_at_line_start(&mut group);
    }
    for label in &mut labels {
        label.anchored = group.anchored;
        label.horizontal = group.horizontal.clone();
        label.vertical = group.vertical.clone();
        label.wrap = Wrap::None;
    }
    story.text_boxes.insert(first_box, group);
    let at = first_box + 1;
    story.text_boxes.splice(at..at, labels);
}

/// Floats the box of an inline drawing, whose room a blank picture keeps in its line, at
/// the start of the paragraph's column and top, where a drawing alone in its paragraph
/// sits (one after text in the same line is drawn at the line start); text does not wrap.
fn float_at_line_start(b: &mut TextBox) {
    let start = |from: &str| Some(AnchorPosition { relative_from: Some(from.to_owned()), ..Default::default() });
    b.anchored = true;
    b.horizontal = start("column");
    b.vertical = start("paragraph");
    b.wrap = Wrap::None;
}

/// Settles the boxes of inline drawings (`TextBox::in_line`) in paragraph `p`: floated at
/// the line start, they are where Word draws them only when nothing comes before them in
/// the paragraph. After text (a rule drawn after a heading on its line, as in
/// AdrianKlei_Bewerbungen's CV) they go back to sitting in the text flow, their room
/// still kept in the line.
pub(crate) fn settle_inline_boxes(p: &Paragraph, boxes: &mut [TextBox]) {
    if !boxes.iter().any(|b| b.in_line) {
        return;
    }
    let mut runs = p.inlines.iter().filter_map(|i| match i {
        Inline::Run(r) => Some(r.content.iter()),
        _ => None,
    });
    let text_first = runs
        .by_ref()
        .flatten()
        .take_while(|c| !matches!(c, RunContent::Picture(p) if p.format == ImageFormat::Blank))
        .any(|c| matches!(c, RunContent::Text(t) if !t.trim().is_empty()) || matches!(c, RunContent::Tab));
    if text_first {
        for b in boxes.iter_mut().filter(|b| b.in_line) {
            b.anchored = false;
            b.in_line = false;
            b.horizontal = None;
            b.vertical = None;
        }
    }
}

/// A grey box the size of a chart or diagram drawn without its fallback picture: it takes
/// its room in the line or on the page, and the PDF writer warns that it stands in.
fn placeholder(frame: &TextBox, pic: &PictureRef) -> Option<Picture> {
    let (cx, cy) = frame.extent.filter(|(cx, cy)| cx.0 > 0 && cy.0 > 0)?;
    let anchor = anchor_of(frame, pic);
    Some(Picture {
        data: std::sync::Arc::from(&[][..]),
        format: super::model::ImageFormat::Unknown,
        extent: (cx, cy),
        crop: Crop::default(),
        transform: PictureTransform::default(),
        effect: if anchor.is_none() { pic.effect } else { Distances::default() },
        anchor,
        texts: Vec::new(),
        alt: pic.alt.clone(),
        decorative: pic.decorative,
    })
}

/// `a:srcRect@l,t,r,b` (§20.1.8.55), in thousandths of a percent.
fn crop(e: &BytesStart<'_>) -> Crop {
    let v = |name: &[u8]| attr_raw(e, name).and_then(|v| int(&v)).unwrap_or(0);
    Crop { left: v(b"l"), top: v(b"t"), right: v(b"r"), bottom: v(b"b") }
}

/// VML `v:imagedata@cropleft,croptop,cropright,cropbottom`: fractions, either plain
/// (`0.25`) or in 65,536ths (`16384f`).
fn vml_crop(e: &BytesStart<'_>) -> Option<Crop> {
    let v = |name: &[u8]| {
        let raw = attr(e, name)?;
        let raw = raw.trim();
        let fraction = match raw.strip_suffix('f') {
            Some(n) => n.parse::<f64>().ok()? / 65_536.0,
            None => raw.parse::<f64>().ok()?,
        };
        fraction.is_finite().then(|| (fraction * 100_000.0).round() as i64)
    };
    let crop = Crop {
        left: v(b"cropleft").unwrap_or(0),
        top: v(b"croptop").unwrap_or(0),
        right: v(b"cropright").unwrap_or(0),
        bottom: v(b"cropbottom").unwrap_or(0),
    };
    (crop != Crop::default()).then_some(crop)
}

/// `a:xfrm@rot,flipH,flipV` (§20.1.7.6).
fn transform(e: &BytesStart<'_>) -> PictureTransform {
    PictureTransform {
        rotation: attr_raw(e, b"rot").and_then(|v| int(&v)).unwrap_or(0),
        flip_h: on_off_attr(e, b"flipH").unwrap_or(false),
        flip_v: on_off_attr(e, b"flipV").unwrap_or(false),
    }
}

/// A VML `style`'s `rotation` (degrees) in 60,000ths of a degree.
fn vml_rotation(style: &str) -> Option<i64> {
    let value = style.split(';').find_map(|d| d.split_once(':').filter(|(k, _)| k.trim() == "rotation"))?.1;
    let degrees: f64 = value.trim().trim_end_matches("fd").parse().ok().filter(|d: &f64| d.is_finite())?;
    Some((degrees * 60_000.0).round() as i64)
}

/// `wrapSquare@wrapText` (§20.4.3.7).
fn wrap_text(e: &BytesStart<'_>) -> WrapText {
    match attr_raw(e, b"wrapText").as_deref() {
        Some(b"left") => WrapText::Left,
        Some(b"right") => WrapText::Right,
        Some(b"largest") => WrapText::Largest,
        _ => WrapText::BothSides,
    }
}

/// A VML `v:line`'s `from` and `to` points: its box, where the style gives none.
fn vml_line(e: &BytesStart<'_>, frame: &mut TextBox) {
    let point = |name: &[u8]| {
        let v = attr(e, name)?;
        let (x, y) = v.split_once(',')?;
        Some((css_length(x.trim())?, css_length(y.trim())?))
    };
    let (Some(from), Some(to)) = (point(b"from"), point(b"to")) else { return };
    if frame.extent.is_none() {
        frame.extent = Some((Emu((to.0 .0 - from.0 .0).abs()), Emu((to.1 .0 - from.1 .0).abs())));
        let h = position(frame, Axis::Horizontal);
        h.offset = Some(Emu(h.offset.unwrap_or_default().0 + from.0 .0.min(to.0 .0)));
        let v = position(frame, Axis::Vertical);
        v.offset = Some(Emu(v.offset.unwrap_or_default().0 + from.1 .0.min(to.1 .0)));
    }
}

/// `wp:effectExtent@l,t,r,b` (§20.4.2.6), in EMU; a negative side counts as none.
fn effect_extent(e: &BytesStart<'_>) -> Distances {
    let v = |name: &[u8]| Emu(attr_raw(e, name).and_then(|v| int(&v)).unwrap_or(0).max(0));
    Distances { top: v(b"t"), bottom: v(b"b"), left: v(b"l"), right: v(b"r") }
}

/// `distT/B/L/R` of a `wp:anchor`, in EMU.
fn distances(e: &BytesStart<'_>) -> Distances {
    let v = |name: &[u8]| Emu(attr_raw(e, name).and_then(|v| int(&v)).unwrap_or(0));
    Distances { top: v(b"distT"), bottom: v(b"distB"), left: v(b"distL"), right: v(b"distR") }
}

/// Reads a `w:txbxContent` whose `Start` was just returned into a text box placed as
/// `frame` says.
#[inline(never)]
fn read_text_box(xml: &mut XmlReader<'_>, story: &mut Story<'_>, frame: &TextBox) -> Result<(), DocxError> {
    // A text box inside this text box belongs to a paragraph of this one, not to the outer
    // paragraph: the outer pending boxes are set aside meanwhile.
    story.enter(xml)?;
    let outer = std::mem::take(&mut story.text_boxes);
    let blocks = read_blocks(xml, story)?;
    story.leave();
    let leftover = std::mem::replace(&mut story.text_boxes, outer);
    story.text_boxes.push(TextBox { blocks, ..frame.clone() });
    story.text_boxes.extend(leftover);
    Ok(())
}

fn position(frame: &mut TextBox, axis: Axis) -> &mut AnchorPosition {
    let slot = match axis {
        Axis::Horizontal => &mut frame.horizontal,
        Axis::Vertical => &mut frame.vertical,
    };
    slot.get_or_insert_with(AnchorPosition::default)
}

/// `cx`/`cy` in EMU.
fn emu_pair(e: &BytesStart<'_>) -> Option<(Emu, Emu)> {
    let v = |name: &[u8]| super::xml::attr_raw(e, name).and_then(|v| int(&v)).map(Emu);
    Some((v(b"cx")?, v(b"cy")?))
}

/// A VML shape's `style` (VML §14.1.2.19 in Part 4): `position:absolute` floats the box;
/// `width`, `height`, `margin-left`, `margin-top` and the `mso-position-*-relative` keys
/// size and place it.
fn vml_frame(style: &str, frame: &mut TextBox) {
    let mut width = None;
    let mut height = None;
    for declaration in style.split(';') {
        let Some((key, value)) = declaration.split_once(':') else {
            continue;
        };
        let (key, value) = (key.trim(), value.trim());
        match key {
            "position" => frame.anchored = value == "absolute",
            "width" => width = css_length(value),
            "height" => height = css_length(value),
            "margin-left" => position(frame, Axis::Horizontal).offset = css_length(value),
            "margin-top" => position(frame, Axis::Vertical).offset = css_length(value),
            "mso-position-horizontal-relative" => {
                position(frame, Axis::Horizontal).relative_from = Some(value.to_owned())
            }
            "mso-position-vertical-relative" => position(frame, Axis::Vertical).relative_from = Some(value.to_owned()),
            "mso-position-horizontal" => position(frame, Axis::Horizontal).align = Some(value.to_owned()),
            "mso-position-vertical" => position(frame, Axis::Vertical).align = Some(value.to_owned()),
            _ => {}
        }
    }
    if let (Some(w), Some(h)) = (width, height) {
        frame.extent = Some((w, h));
    }
}

/// A CSS length with a unit, in EMU; a bare number (group coordinates) is not a length.
fn css_length(v: &str) -> Option<Emu> {
    let (number, emu_per_unit) = [
        ("pt", 12_700.0),
        ("in", 914_400.0),
        ("cm", 360_000.0),
        ("mm", 36_000.0),
        ("px", 9_525.0),
    ]
    .iter()
    .find_map(|(unit, per)| v.strip_suffix(unit).map(|n| (n, *per)))?;
    let n: f64 = number.trim().parse().ok().filter(|n: &f64| n.is_finite())?;
    Some(Emu((n * emu_per_unit).round() as i64))
}

#[cfg(test)]
mod tests {
    use crate::docx::model::{AnchorPosition, Block, Crop, ImageFormat, Inline, Picture, RunContent, Wrap};
    use crate::docx::test_support::{docx, paragraph, read_body, read_bytes, texts, DOCUMENT_RELS};
    use crate::docx::ReadDocument;
    use crate::units::Emu;

    /// Reads `body` in a package whose `rIdImg` points at a small GIF and `rIdGone` at a
    /// missing part.
    fn read_with_media(body: &str) -> ReadDocument {
        let rels = DOCUMENT_RELS.replace(
            "</Relationships>",
            r#"<Relationship Id="rIdImg" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="media/image1.gif"/><Relationship Id="rIdGone" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="media/gone.png"/></Relationships>"#,
        );
        let bytes = docx(body, &[("word/_rels/document.xml.rels", &rels), ("word/media/image1.gif", "GIF89a tiny")]);
        read_bytes(&bytes).unwrap()
    }

    fn pictures(read: &ReadDocument) -> Vec<Picture> {
        let mut out = Vec::new();
        for b in &read.document.body {
            let Block::Paragraph(p) = b else { continue };
            for i in &p.inlines {
                let Inline::Run(r) = i else { continue };
                for c in &r.content {
                    if let RunContent::Picture(pic) = c {
                        out.push(Picture::clone(pic));
                    }
                }
            }
        }
        out
    }

    const PIC: &str = r#"<a:graphic><a:graphicData><pic:pic><pic:blipFill><a:blip r:embed="rIdImg"/><a:srcRect l="10000" t="0" r="5000" b="2500"/></pic:blipFill>
        <pic:spPr><a:xfrm rot="5400000" flipH="1"><a:off x="0" y="0"/><a:ext cx="1" cy="1"/></a:xfrm></pic:spPr></pic:pic></a:graphicData></a:graphic>"#;

    #[test]
    fn an_inline_picture_is_read_with_its_bytes_size_crop_and_transform() {
        let read = read_with_media(&format!(r#"<w:p><w:r><w:drawing><wp:inline><wp:extent cx="914400" cy="457200"/>{PIC}</wp:inline></w:drawing></w:r></w:p>"#));
        let pics = pictures(&read);
        assert_eq!(pics.len(), 1);
        let p = &pics[0];
        assert_eq!(&p.data[..], b"GIF89a tiny");
        assert_eq!(p.format, ImageFormat::Gif);
        assert_eq!(p.extent, (Emu(914_400), Emu(457_200)));
        assert_eq!(p.crop, Crop { left: 10_000, top: 0, right: 5_000, bottom: 2_500 });
        assert_eq!((p.transform.rotation, p.transform.flip_h, p.transform.flip_v), (5_400_000, true, false));
        assert!(p.anchor.is_none());
        assert!(read.warnings.iter().all(|w| w.kind != "element_skipped"), "{:?}", read.warnings);
    }

    #[test]
    fn an_anchored_picture_keeps_its_position_wrap_and_distances() {
        let read = read_with_media(&format!(
            r#"<w:p><w:r><w:drawing><wp:anchor distT="12700" distB="25400" distL="0" distR="0" behindDoc="0">
               <wp:positionH relativeFrom="column"><wp:align>center</wp:align></wp:positionH>
               <wp:positionV relativeFrom="paragraph"><wp:posOffset>127000</wp:posOffset></wp:positionV>
               <wp:extent cx="100" cy="200"/><wp:wrapTopAndBottom/>{PIC}</wp:anchor></w:drawing></w:r></w:p>"#
        ));
        let a = pictures(&read)[0].anchor.clone().expect("anchored");
        assert_eq!(a.wrap, Wrap::TopAndBottom);
        assert_eq!((a.distance.top, a.distance.bottom), (Emu(12_700), Emu(25_400)));
        assert_eq!(a.horizontal.unwrap().align.as_deref(), Some("center"));
        let v = a.vertical.unwrap();
        assert_eq!((v.relative_from.as_deref(), v.offset), (Some("paragraph"), Some(Emu(127_000))));
    }

    #[test]
    fn tight_wrap_is_read_as_square() {
        let read = read_with_media(&format!(r#"<w:p><w:r><w:drawing><wp:anchor><wp:extent cx="100" cy="200"/><wp:wrapTight wrapText="bothSides"/>{PIC}</wp:anchor></w:drawing></w:r></w:p>"#));
        assert_eq!(pictures(&read)[0].anchor.as_ref().unwrap().wrap, Wrap::Square);
    }

    #[test]
    fn drawings_of_one_part_share_its_bytes() {
        let drawing = format!(r#"<w:drawing><wp:inline><wp:extent cx="100" cy="200"/>{PIC}</wp:inline></w:drawing>"#);
        let read = read_with_media(&format!("<w:p><w:r>{drawing}</w:r><w:r>{drawing}</w:r></w:p>"));
        let pics = pictures(&read);
        assert_eq!(pics.len(), 2);
        assert!(std::sync::Arc::ptr_eq(&pics[0].data, &pics[1].data));
    }

    #[test]
    fn a_group_shows_its_first_picture_with_that_picture_crop() {
        let second = r#"<pic:pic><pic:blipFill><a:blip r:embed="rIdGone"/><a:srcRect l="50000"/></pic:blipFill><pic:spPr><a:xfrm flipV="1"/></pic:spPr></pic:pic>"#;
        let first = PIC.replace("<a:graphic><a:graphicData>", "").replace("</a:graphicData></a:graphic>", "");
        let read = read_with_media(&format!(
            r#"<w:p><w:r><w:drawing><wp:inline><wp:extent cx="100" cy="200"/><a:graphic><a:graphicData><wpg:wgp>{first}{second}</wpg:wgp></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>"#
        ));
        let p = &pictures(&read)[0];
        assert_eq!((p.crop.left, p.transform.flip_v), (10_000, false));
    }

    #[test]
    fn a_vml_picture_is_sized_by_its_style() {
        let read = read_with_media(r#"<w:p><w:r><w:pict><v:shape style="width:72pt;height:36pt"><v:imagedata r:id="rIdImg" o:title=""/></v:shape></w:pict></w:r></w:p>"#);
        let pics = pictures(&read);
        assert_eq!(pics[0].extent, (Emu(72 * 12_700), Emu(36 * 12_700)));
        assert!(pics[0].anchor.is_none());
    }

    #[test]
    fn the_alternative_text_comes_from_docpr_descr_or_title_or_the_vml_alt() {
        let inline = |docpr: &str| {
            format!(r#"<w:p><w:r><w:drawing><wp:inline><wp:extent cx="100" cy="200"/>{docpr}{PIC}</wp:inline></w:drawing></w:r></w:p>"#)
        };
        let alt = |body: &str| pictures(&read_with_media(body)).first().map(|p| (p.alt.clone(), p.decorative));
        assert_eq!(alt(&inline(r#"<wp:docPr id="1" name="Picture 1" descr=" A red square " title="Red"/>"#)), Some((Some("A red square".into()), false)));
        assert_eq!(alt(&inline(r#"<wp:docPr id="1" name="Picture 1" title="Red"/>"#)), Some((Some("Red".into()), false)));
        // The picture's name is never its alternative text.
        assert_eq!(alt(&inline(r#"<wp:docPr id="1" name="Picture 1"/>"#)), Some((None, false)));
        let decorative = r#"<wp:docPr id="1" name="Picture 1"><a:extLst><a:ext uri="{C183D7F6-B498-43B3-948B-1728B52AA6E4}"><adec:decorative val="1"/></a:ext></a:extLst></wp:docPr>"#;
        assert_eq!(alt(&inline(decorative)), Some((None, true)));
        let vml = r#"<w:p><w:r><w:pict><v:group style="width:72pt;height:36pt"><v:shape style="width:72pt;height:36pt" alt="A chart"><v:imagedata r:id="rIdImg"/></v:shape></v:group></w:pict></w:r></w:p>"#;
        assert_eq!(alt(vml).map(|a| a.0), Some(Some("A chart".into())));
        // A group's picture has its own `pic:cNvPr`, read where the group gives none.
        let group = r#"<w:p><w:r><w:drawing><wp:inline><wp:extent cx="100" cy="200"/><wp:docPr id="1" name="Group 1"/><a:graphic><a:graphicData><wpg:wgp><pic:pic><pic:nvPicPr><pic:cNvPr id="2" name="Picture 2" descr="A screenshot"/></pic:nvPicPr><pic:blipFill><a:blip r:embed="rIdImg"/></pic:blipFill></pic:pic></wpg:wgp></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>"#;
        assert_eq!(alt(group).map(|a| a.0), Some(Some("A screenshot".into())));
    }

    #[test]
    fn a_linked_picture_or_a_missing_part_is_skipped() {
        let linked = r#"<a:graphic><a:graphicData><pic:pic><pic:blipFill><a:blip r:link="rIdImg"/></pic:blipFill></pic:pic></a:graphicData></a:graphic>"#;
        let gone = PIC.replace("rIdImg", "rIdGone");
        let read = read_with_media(&format!(
            r#"<w:p><w:r><w:drawing><wp:inline><wp:extent cx="1" cy="1"/>{linked}</wp:inline></w:drawing></w:r><w:r><w:drawing><wp:inline><wp:extent cx="1" cy="1"/>{gone}</wp:inline></w:drawing></w:r></w:p>"#
        ));
        assert!(pictures(&read).is_empty());
        assert!(read.warnings.iter().any(|w| w.kind == "picture_skipped" && w.message.contains("gone.png")));
    }

    #[test]
    fn a_shape_whose_fallback_holds_a_picture_shows_that_picture() {
        let read = read_with_media(&format!(
            r#"<w:p><w:r><mc:AlternateContent><mc:Choice Requires="cx1"><w:drawing><wp:inline><wp:extent cx="100" cy="200"/><a:graphic><a:graphicData><cx:chart r:id="rIdChart"/></a:graphicData></a:graphic></wp:inline></w:drawing></mc:Choice>
               <mc:Fallback><w:drawing><wp:inline><wp:extent cx="100" cy="200"/>{PIC}</wp:inline></w:drawing></mc:Fallback></mc:AlternateContent></w:r></w:p>"#
        ));
        assert_eq!(pictures(&read).len(), 1);
    }

    const TEXT_BOX: &str = r#"<w:p><w:r><w:t>anchor</w:t></w:r><w:r><mc:AlternateContent>
        <mc:Choice Requires="wps"><w:drawing><wp:anchor><a:graphic><a:graphicData><wps:wsp><wps:txbx>
          <w:txbxContent><w:p><w:r><w:t>in the box</w:t></w:r></w:p></w:txbxContent>
        </wps:txbx></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></mc:Choice>
        <mc:Fallback><w:pict><v:shape><v:textbox><w:txbxContent><w:p><w:r><w:t>in the box</w:t></w:r></w:p></w:txbxContent></v:textbox></v:shape></w:pict></mc:Fallback>
        </mc:AlternateContent></w:r><w:r><w:t> text</w:t></w:r></w:p><w:p><w:r><w:t>next</w:t></w:r></w:p>"#;

    #[test]
    fn text_box_belongs_to_its_anchor_paragraph_not_the_body() {
        let read = read_body(TEXT_BOX);
        assert_eq!(texts(&read.document.body), ["anchor text", "next"]);
        let Block::Paragraph(p) = &read.document.body[0] else {
            panic!()
        };
        assert_eq!(p.text_boxes.len(), 1);
        assert_eq!(texts(&p.text_boxes[0].blocks), ["in the box"]);
        assert!(p.text_boxes[0].anchored);
    }

    #[test]
    fn anchor_extent_and_position_are_read() {
        let p = paragraph(
            r#"<w:p><w:r><w:drawing><wp:anchor behindDoc="1"><wp:simplePos x="0" y="0"/>
               <wp:positionH relativeFrom="page"><wp:posOffset>914400</wp:posOffset></wp:positionH>
               <wp:positionV relativeFrom="paragraph"><wp:align>top</wp:align></wp:positionV>
               <wp:extent cx="1828800" cy="457200"/><a:graphic><a:graphicData><wps:wsp><wps:spPr><a:xfrm><a:ext cx="1" cy="1"/></a:xfrm></wps:spPr>
               <wps:txbx><w:txbxContent><w:p><w:r><w:t>box</w:t></w:r></w:p></w:txbxContent></wps:txbx></wps:wsp></a:graphicData></a:graphic>
               </wp:anchor></w:drawing></w:r></w:p>"#,
        );
        let b = &p.text_boxes[0];
        assert!(b.anchored && b.behind_text);
        assert_eq!(b.extent, Some((Emu(1_828_800), Emu(457_200))));
        let h = b.horizontal.as_ref().unwrap();
        assert_eq!(
            (h.relative_from.as_deref(), h.offset),
            (Some("page"), Some(Emu(914_400)))
        );
        let v = b.vertical.as_ref().unwrap();
        assert_eq!(
            (v.relative_from.as_deref(), v.align.as_deref()),
            (Some("paragraph"), Some("top"))
        );
    }

    #[test]
    fn an_inline_text_box_keeps_its_room_in_the_line_and_floats_at_the_line_start() {
        let p = paragraph(
            r#"<w:p><w:r><w:drawing><wp:inline><wp:extent cx="100" cy="200"/><a:graphic><a:graphicData><wps:wsp><wps:txbx>
               <w:txbxContent><w:p/></w:txbxContent></wps:txbx></wps:wsp></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>"#,
        );
        let b = &p.text_boxes[0];
        assert!(b.anchored && b.wrap == Wrap::None);
        assert_eq!(b.extent, Some((Emu(100), Emu(200))));
        let from = |a: &Option<AnchorPosition>| a.as_ref().and_then(|a| a.relative_from.clone());
        assert_eq!((from(&b.horizontal).as_deref(), from(&b.vertical).as_deref()), (Some("column"), Some("paragraph")));
        let Inline::Run(r) = &p.inlines[0] else { panic!() };
        let RunContent::Picture(blank) = &r.content[0] else { panic!("{:?}", r.content) };
        assert_eq!((blank.format, blank.extent, blank.anchor.is_none()), (ImageFormat::Blank, (Emu(100), Emu(200)), true));
    }

    #[test]
    fn vml_text_box_is_placed_by_its_style() {
        let p = paragraph(
            r#"<w:p><w:r><w:pict><v:shapetype/><v:shape style="position:absolute;margin-left:36pt;margin-top:1in;width:144pt;height:72pt;mso-position-horizontal-relative:page">
               <v:textbox style="mso-fit-shape-to-text:t"><w:txbxContent><w:p><w:r><w:t>vml</w:t></w:r></w:p></w:txbxContent></v:textbox></v:shape></w:pict></w:r></w:p>"#,
        );
        let b = &p.text_boxes[0];
        assert!(b.anchored);
        assert_eq!(b.extent, Some((Emu(144 * 12_700), Emu(72 * 12_700))));
        let h = b.horizontal.as_ref().unwrap();
        assert_eq!(
            (h.relative_from.as_deref(), h.offset),
            (Some("page"), Some(Emu(36 * 12_700)))
        );
        assert_eq!(b.vertical.as_ref().unwrap().offset, Some(Emu(914_400)));
    }

    #[test]
    fn an_inline_box_after_text_in_its_paragraph_stays_in_the_text_flow() {
        let drawing = r#"<w:r><w:drawing><wp:inline><wp:extent cx="100" cy="200"/><a:graphic><a:graphicData><wps:wsp><wps:txbx>
               <w:txbxContent><w:p/></w:txbxContent></wps:txbx></wps:wsp></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>"#;
        let after_text = paragraph(&format!(r#"<w:p><w:r><w:t>Studies</w:t></w:r>{drawing}</w:p>"#));
        let b = &after_text.text_boxes[0];
        assert!(!b.anchored && !b.in_line && b.horizontal.is_none());
        // Its room stays in the line.
        let Inline::Run(r) = &after_text.inlines[1] else { panic!() };
        assert!(matches!(&r.content[0], RunContent::Picture(p) if p.format == ImageFormat::Blank));
        // Only a bookmark or blank text before it: it is the line's start.
        let first = paragraph(&format!(r#"<w:p><w:bookmarkStart w:id="0" w:name="x"/><w:r><w:t xml:space="preserve"> </w:t></w:r>{drawing}</w:p>"#));
        assert!(first.text_boxes[0].anchored && first.text_boxes[0].in_line);
    }

    #[test]
    fn a_shape_fitted_to_its_text_says_so() {
        let fit = |body_pr: &str, textbox: &str| {
            let p = paragraph(&format!(
                r#"<w:p><w:r><w:drawing><wp:anchor><wp:extent cx="100" cy="1"/><a:graphic><a:graphicData><wps:wsp><wps:txbx>
                   <w:txbxContent><w:p/></w:txbxContent></wps:txbx>{body_pr}</wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></w:r>
                   <w:r><w:pict><v:shape style="position:absolute;width:10pt;height:1pt"><v:textbox{textbox}><w:txbxContent><w:p/></w:txbxContent></v:textbox></v:shape></w:pict></w:r></w:p>"#
            ));
            (p.text_boxes[0].fit_text, p.text_boxes[1].fit_text)
        };
        assert_eq!(fit(r#"<wps:bodyPr rot="0"><a:spAutoFit/></wps:bodyPr>"#, r#" style="mso-fit-shape-to-text:t""#), (true, true));
        assert_eq!(fit(r#"<wps:bodyPr rot="0"><a:noAutofit/></wps:bodyPr>"#, ""), (false, false));
    }

    #[test]
    fn a_group_of_plain_text_frames_wraps_as_its_anchor_says() {
        let frame = |x: i64| {
            format!(r#"<wps:wsp><wps:spPr><a:xfrm><a:off x="{x}" y="0"/><a:ext cx="1000" cy="500"/></a:xfrm><a:prstGeom prst="rect"/><a:noFill/></wps:spPr><wps:txbx><w:txbxContent><w:p><w:r><w:t>cap{x}</w:t></w:r></w:p></w:txbxContent></wps:txbx><wps:bodyPr/></wps:wsp>"#)
        };
        let group = |wrap: &str| {
            format!(
                r#"<w:p><w:r><w:drawing><wp:anchor><wp:positionH relativeFrom="column"><wp:posOffset>0</wp:posOffset></wp:positionH><wp:positionV relativeFrom="paragraph"><wp:posOffset>0</wp:posOffset></wp:positionV><wp:extent cx="2000000" cy="500000"/>{wrap}<a:graphic><a:graphicData><wpg:wgp><wpg:grpSpPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="2000000" cy="500000"/><a:chOff x="0" y="0"/><a:chExt cx="2000" cy="500"/></a:xfrm></wpg:grpSpPr>{}{}</wpg:wgp></a:graphicData></a:graphic></wp:anchor></w:drawing></w:r></w:p>"#,
                frame(0),
                frame(1000)
            )
        };
        let read = read_body(&group(r#"<wp:wrapSquare wrapText="bothSides"/>"#));
        let Block::Paragraph(p) = &read.document.body[0] else { panic!() };
        assert_eq!(p.text_boxes.len(), 3);
        let carrier = &p.text_boxes[0];
        assert!(carrier.blocks.is_empty() && carrier.shape.is_none() && carrier.children.is_empty());
        assert_eq!((carrier.wrap, carrier.extent), (Wrap::Square, Some((Emu(2_000_000), Emu(500_000)))));
        assert!(p.text_boxes[1..].iter().all(|b| b.wrap == Wrap::None && b.holds_text()));
        assert!(read.warnings.iter().all(|w| w.kind != "element_skipped"), "{:?}", read.warnings);
        // A group that does not wrap needs no such box.
        let read = read_body(&group("<wp:wrapNone/>"));
        let Block::Paragraph(p) = &read.document.body[0] else { panic!() };
        assert_eq!(p.text_boxes.len(), 2);
    }

    #[test]
    fn text_box_of_a_joined_paragraph_moves_with_its_content() {
        let body = r#"<w:p><w:pPr><w:rPr><w:del w:id="1" w:author="A"/></w:rPr></w:pPr><w:r><w:pict><v:shape><v:textbox><w:txbxContent><w:p><w:r><w:t>kept</w:t></w:r></w:p></w:txbxContent></v:textbox></v:shape></w:pict></w:r></w:p>
            <w:p><w:r><w:t>two</w:t></w:r></w:p>"#;
        let p = paragraph(body);
        assert_eq!(crate::docx::test_support::text(&p), "two");
        assert_eq!(texts(&p.text_boxes[0].blocks), ["kept"]);
    }

    #[test]
    fn a_drawing_without_picture_shape_or_text_box_is_skipped_with_one_warning_per_kind() {
        let body = format!(
            "{TEXT_BOX}{TEXT_BOX}<w:p><w:r><w:pict><v:rect/></w:pict></w:r><w:r><w:drawing><wp:inline/></w:drawing></w:r></w:p>"
        );
        let read = read_body(&body);
        let kinds: Vec<_> = read.warnings.iter().filter(|w| w.kind == "element_skipped").collect();
        assert_eq!(kinds.len(), 2, "{kinds:?}");
        // The two text boxes are read and drawn: only the empty drawing is skipped.
        assert!(kinds[0].message.contains("w:drawing") && kinds[0].message.contains("(1 skipped)"));
        assert!(kinds[1].message.contains("w:pict") && kinds[1].message.contains("(1 skipped)"));
    }

    #[test]
    fn text_box_inside_a_text_box_is_kept_once() {
        let body = r#"<w:p><w:r><w:pict><v:shape><v:textbox><w:txbxContent>
            <w:p><w:r><w:t>outer</w:t></w:r><w:r><w:pict><v:shape><v:textbox><w:txbxContent><w:p><w:r><w:t>inner</w:t></w:r></w:p></w:txbxContent></v:textbox></v:shape></w:pict></w:r></w:p>
            </w:txbxContent></v:textbox></v:shape></w:pict></w:r></w:p>"#;
        let p = paragraph(body);
        assert_eq!(p.text_boxes.len(), 1);
        let outer = &p.text_boxes[0].blocks;
        assert_eq!(texts(outer), ["outer"]);
        let Block::Paragraph(inner) = &outer[0] else { panic!() };
        assert_eq!(inner.text_boxes.len(), 1);
        assert_eq!(texts(&inner.text_boxes[0].blocks), ["inner"]);
    }

    const SHAPE: &str = r#"<w:p><w:r><w:drawing><wp:anchor distL="114300" distR="114300"><wp:positionH relativeFrom="column"><wp:posOffset>0</wp:posOffset></wp:positionH>
        <wp:positionV relativeFrom="paragraph"><wp:posOffset>0</wp:posOffset></wp:positionV><wp:extent cx="1270000" cy="635000"/><wp:wrapSquare wrapText="right"/>
        <a:graphic><a:graphicData><wps:wsp><wps:spPr><a:xfrm flipV="1"><a:off x="0" y="0"/><a:ext cx="1270000" cy="635000"/></a:xfrm><a:prstGeom prst="ellipse"/>
        <a:solidFill><a:srgbClr val="FF0000"><a:lumMod val="50000"/></a:srgbClr></a:solidFill><a:ln w="25400"><a:prstDash val="dash"/></a:ln></wps:spPr>
        <wps:style><a:lnRef idx="2"><a:srgbClr val="0000FF"/></a:lnRef><a:fillRef idx="1"><a:srgbClr val="00FF00"/></a:fillRef></wps:style><wps:bodyPr/></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></w:r></w:p>"#;

    #[test]
    fn a_shape_without_text_is_kept_with_its_geometry_fill_and_outline() {
        use crate::docx::model::{Color, Geometry, WrapText};
        let read = read_body(SHAPE);
        let Block::Paragraph(p) = &read.document.body[0] else { panic!() };
        assert_eq!(p.text_boxes.len(), 1);
        let b = &p.text_boxes[0];
        assert!(b.blocks.is_empty() && b.anchored);
        assert_eq!((b.wrap, b.wrap_text, b.distance.left), (Wrap::Square, WrapText::Right, Emu(114_300)));
        let s = b.shape.as_ref().expect("drawn");
        assert_eq!(s.geometry, Geometry::Ellipse);
        // lumMod halves the luminance; the channel is truncated as Word does for theme shades.
        assert_eq!(s.fill, Some(Color::Rgb(127, 0, 0)), "lumMod halves the luminance");
        assert_eq!(s.line, Some(Color::Rgb(0, 0, 255)), "the style's line colour");
        assert_eq!((s.line_width, s.dashed, s.flip_v), (Emu(25_400), true, true));
        assert!(read.warnings.iter().all(|w| w.kind != "element_skipped"), "{:?}", read.warnings);
    }

    #[test]
    fn a_group_maps_its_children_from_child_coordinates() {
        let child = |x: i64, prst: &str| {
            format!(r#"<wps:wsp><wps:spPr><a:xfrm><a:off x="{x}" y="100"/><a:ext cx="500" cy="200"/></a:xfrm><a:prstGeom prst="{prst}"/><a:solidFill><a:srgbClr val="000000"/></a:solidFill></wps:spPr><wps:bodyPr/></wps:wsp>"#)
        };
        let body = format!(
            r#"<w:p><w:r><w:drawing><wp:inline><wp:extent cx="2000000" cy="1000000"/><a:graphic><a:graphicData><wpg:wgp><wpg:grpSpPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="2000000" cy="1000000"/><a:chOff x="0" y="0"/><a:chExt cx="2000" cy="1000"/></a:xfrm></wpg:grpSpPr>{}{}</wpg:wgp></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>"#,
            child(0, "rect"),
            child(1500, "roundRect")
        );
        let read = read_body(&body);
        let Block::Paragraph(p) = &read.document.body[0] else { panic!() };
        let c = &p.text_boxes[0].children;
        assert_eq!(c.len(), 2);
        assert_eq!((c[1].offset, c[1].extent), ((Emu(1_500_000), Emu(100_000)), (Emu(500_000), Emu(200_000))));
        assert_eq!(c[1].style.geometry, crate::docx::model::Geometry::RoundRect);
    }

    #[test]
    fn a_vml_rectangle_is_filled_and_outlined_as_its_attributes_say() {
        use crate::docx::model::Color;
        let read = read_body(r##"<w:p><w:r><w:pict><v:rect style="position:absolute;margin-left:10pt;margin-top:20pt;width:100pt;height:50pt" fillcolor="#4f81bd [3204]" strokecolor="black" strokeweight="2pt"><w10:wrap type="topAndBottom"/></v:rect></w:pict></w:r></w:p>"##);
        let Block::Paragraph(p) = &read.document.body[0] else { panic!() };
        let b = &p.text_boxes[0];
        let s = b.shape.as_ref().expect("drawn");
        assert_eq!((s.fill, s.line, s.line_width), (Some(Color::Rgb(0x4f, 0x81, 0xbd)), Some(Color::Rgb(0, 0, 0)), Emu(25_400)));
        assert_eq!((b.wrap, b.extent), (Wrap::TopAndBottom, Some((Emu(1_270_000), Emu(635_000)))));
    }

    #[test]
    fn a_vml_horizontal_rule_is_read_as_a_rule_not_a_shape() {
        use crate::docx::model::{Color, HorizontalRule, HorizontalRuleAlign};
        let read = read_body(
            r##"<w:p><w:r><w:pict><v:rect style="width:0;height:.75pt" o:hrpct="330" o:hralign="right" o:hrstd="t" o:hrnoshade="t" o:hr="t" fillcolor="#ccc" stroked="f"/></w:pict></w:r></w:p>"##,
        );
        let Block::Paragraph(p) = &read.document.body[0] else { panic!() };
        assert!(p.text_boxes.is_empty());
        let Inline::Run(r) = &p.inlines[0] else { panic!() };
        let rule = HorizontalRule {
            fraction: 0.33,
            width: None,
            height: Emu(9_525),
            align: HorizontalRuleAlign::Right,
            shaded: false,
            color: Some(Color::Rgb(0xCC, 0xCC, 0xCC)),
        };
        assert_eq!(r.content, vec![RunContent::HorizontalRule(rule)]);
    }
}
