//! Paragraph and run properties (`w:pPr` §17.3.1, `w:rPr` §17.3.2) as written. Only the
//! current properties are read: `w:pPrChange`/`w:rPrChange` hold the *old* ones (§17.13.5)
//! and are skipped with every other unknown child.

use quick_xml::events::BytesStart;

use super::model::{
    Align, Border, FontRef, FontSlots, FrameProps, Lang, LineSpacing, NumberingRef, ParagraphBorders, ParagraphProps,
    RunProps, SectionProps, TabKind, TabLeader, TabStop, TextAlignment, ThemeFont, Underline, VertAlign,
};
use super::section::read_section;
use super::simple_types::{border, color, half_points, highlight, int, shading, twips, twips_attr};
use super::theme_color::{theme_ref, themed, THEME_COLOR};
use super::xml::{attr, attr_raw, on_off, on_off_attr, val, val_string, Attrs, XmlReader};
use super::DocxError;

/// A `w:rPr` as read.
#[derive(Debug, Default)]
pub(crate) struct RunPr {
    /// `w:rStyle`.
    pub style: Option<String>,
    /// Direct formatting.
    pub props: RunProps,
    /// A `w:del`/`w:moveFrom` inside: in a paragraph mark's properties this deletes the
    /// mark itself (§17.13.5.15).
    pub deleted: bool,
}

/// A `w:pPr` as read.
#[derive(Debug, Default)]
pub(crate) struct ParaPr {
    /// `w:pStyle`.
    pub style: Option<String>,
    /// Direct formatting.
    pub props: ParagraphProps,
    /// `w:rPr`: the paragraph mark's run properties.
    pub mark: RunProps,
    /// The paragraph mark's `w:rStyle`.
    pub mark_style: Option<String>,
    /// The paragraph mark is a tracked deletion.
    pub mark_deleted: bool,
    /// A `w:sectPr`: the paragraph closes a section (§17.6.17).
    pub section: Option<SectionProps>,
}

/// Reads a `w:rPr` whose `Start` was just returned.
pub(crate) fn read_rpr(xml: &mut XmlReader<'_>) -> Result<RunPr, DocxError> {
    let mut out = RunPr::default();
    xml.children(|xml, e| {
        let p = &mut out.props;
        match e.local_name().as_ref() {
            b"rStyle" => out.style = val_string(&e),
            b"rFonts" => p.fonts = fonts(&e),
            b"b" => p.bold = Some(on_off(&e)),
            b"bCs" => p.bold_cs = Some(on_off(&e)),
            b"i" => p.italic = Some(on_off(&e)),
            b"iCs" => p.italic_cs = Some(on_off(&e)),
            b"caps" => p.caps = Some(on_off(&e)),
            b"smallCaps" => p.small_caps = Some(on_off(&e)),
            b"strike" => p.strike = Some(on_off(&e)),
            b"dstrike" => p.double_strike = Some(on_off(&e)),
            b"vanish" => p.vanish = Some(on_off(&e)),
            b"outline" => p.outline = Some(on_off(&e)),
            b"shadow" => p.shadow = Some(on_off(&e)),
            b"emboss" => p.emboss = Some(on_off(&e)),
            b"imprint" => p.imprint = Some(on_off(&e)),
            b"rtl" => p.rtl = Some(on_off(&e)),
            b"cs" => p.complex_script = Some(on_off(&e)),
            b"sz" => p.size = val(&e).and_then(|v| half_points(&v)),
            b"szCs" => p.size_cs = val(&e).and_then(|v| half_points(&v)),
            b"u" => {
                p.underline = Some(underline(val(&e).as_deref()));
                p.underline_color =
                    themed(&e, THEME_COLOR, xml.palette()).or_else(|| attr_raw(&e, b"color").and_then(|v| color(&v)));
            }
            // §17.3.2.6: a `w:themeColor` supersedes `w:val`; `w:val` stays when the theme
            // lacks the colour (Word writes its last computed value there).
            b"color" => {
                p.theme_color = theme_ref(&e, THEME_COLOR);
                p.color = themed(&e, THEME_COLOR, xml.palette()).or_else(|| val(&e).and_then(|v| color(&v)));
            }
            b"highlight" => p.highlight = val(&e).and_then(|v| highlight(&v)),
            b"bdr" => p.border = Some(border(&e, xml.palette())),
            b"shd" => p.shading = shading(&e, xml.palette()),
            b"lang" => p.lang = Some(lang(&e)),
            b"vertAlign" => {
                p.vert_align = match val(&e).as_deref() {
                    Some(b"superscript") => Some(VertAlign::Superscript),
                    Some(b"subscript") => Some(VertAlign::Subscript),
                    Some(b"baseline") => Some(VertAlign::Baseline),
                    _ => None,
                }
            }
            b"position" => p.position = val(&e).and_then(|v| half_points(&v)),
            b"spacing" => p.spacing = val(&e).and_then(|v| twips(&v)),
            b"kern" => p.kern = val(&e).and_then(|v| half_points(&v)),
            // ST_TextScale (§17.18.91): a percent, written `150` or `150%`.
            b"w" => {
                p.scale = val(&e)
                    .and_then(|v| int(v.strip_suffix(b"%").unwrap_or(&v)))
                    .map(|v| v.clamp(1, 600) as u32)
            }
            b"del" | b"moveFrom" => out.deleted = true,
            _ => {}
        }
        xml.skip()
    })?;
    Ok(out)
}

/// `w:lang` (§17.3.2.20).
fn lang(e: &BytesStart<'_>) -> Lang {
    let e = &Attrs::of(e);
    let tag = |name: &[u8]| attr(e, name).filter(|v| !v.trim().is_empty()).map(|v| v.into_owned());
    Lang {
        latin: tag(b"val"),
        east_asia: tag(b"eastAsia"),
        bidi: tag(b"bidi"),
    }
}

/// `w:rFonts` (§17.3.2.26): each theme attribute overrides its explicit twin.
fn fonts(e: &BytesStart<'_>) -> FontSlots {
    let e = &Attrs::of(e);
    let slot = |name: &[u8], theme: &[u8]| {
        attr_raw(e, theme)
            .and_then(|t| theme_font(&t))
            .map(FontRef::Theme)
            .or_else(|| {
                attr(e, name)
                    .filter(|n| !n.trim().is_empty())
                    .map(|n| FontRef::Named(n.into_owned()))
            })
    };
    FontSlots {
        ascii: slot(b"ascii", b"asciiTheme"),
        h_ansi: slot(b"hAnsi", b"hAnsiTheme"),
        east_asia: slot(b"eastAsia", b"eastAsiaTheme"),
        cs: slot(b"cs", b"cstheme"),
        hint_east_asia: match attr_raw(e, b"hint").as_deref() {
            Some(b"eastAsia") => Some(true),
            Some(b"default") | Some(b"cs") => Some(false),
            _ => None,
        },
    }
}

/// ST_Theme (§17.18.96).
fn theme_font(v: &[u8]) -> Option<ThemeFont> {
    Some(match v.trim_ascii() {
        b"majorAscii" => ThemeFont::MajorAscii,
        b"majorHAnsi" => ThemeFont::MajorHAnsi,
        b"majorEastAsia" => ThemeFont::MajorEastAsia,
        b"majorBidi" => ThemeFont::MajorBidi,
        b"minorAscii" => ThemeFont::MinorAscii,
        b"minorHAnsi" => ThemeFont::MinorHAnsi,
        b"minorEastAsia" => ThemeFont::MinorEastAsia,
        b"minorBidi" => ThemeFont::MinorBidi,
        _ => return None,
    })
}

/// ST_Underline (§17.18.99), grouped by how the line is drawn; no `w:val` is single.
fn underline(v: Option<&[u8]>) -> Underline {
    match v.map(<[u8]>::trim_ascii) {
        Some(b"none") => Underline::None,
        Some(b"words") => Underline::Words,
        Some(b"double") => Underline::Double,
        Some(b"thick") => Underline::Thick,
        Some(b"dotted") | Some(b"dottedHeavy") => Underline::Dotted,
        Some(b"dash")
        | Some(b"dashedHeavy")
        | Some(b"dashLong")
        | Some(b"dashLongHeavy")
        | Some(b"dotDash")
        | Some(b"dashDotHeavy")
        | Some(b"dotDotDash")
        | Some(b"dashDotDotHeavy") => Underline::Dashed,
        Some(b"wave") | Some(b"wavyHeavy") | Some(b"wavyDouble") => Underline::Wave,
        _ => Underline::Single,
    }
}

/// Reads a `w:pPr` whose `Start` was just returned.
pub(crate) fn read_ppr(xml: &mut XmlReader<'_>) -> Result<ParaPr, DocxError> {
    let mut out = ParaPr::default();
    xml.children(|xml, e| {
        let p = &mut out.props;
        match e.local_name().as_ref() {
            b"pStyle" => out.style = val_string(&e),
            b"keepNext" => p.keep_next = Some(on_off(&e)),
            b"keepLines" => p.keep_lines = Some(on_off(&e)),
            b"pageBreakBefore" => p.page_break_before = Some(on_off(&e)),
            b"widowControl" => p.widow_control = Some(on_off(&e)),
            b"contextualSpacing" => p.contextual_spacing = Some(on_off(&e)),
            b"mirrorIndents" => p.mirror_indents = Some(on_off(&e)),
            b"bidi" => p.bidi = Some(on_off(&e)),
            b"jc" => p.align = val(&e).and_then(|v| align(&v)),
            b"shd" => p.shading = shading(&e, xml.palette()),
            b"snapToGrid" => p.snap_to_grid = Some(on_off(&e)),
            b"suppressAutoHyphens" => p.suppress_auto_hyphens = Some(on_off(&e)),
            b"kinsoku" => p.kinsoku = Some(on_off(&e)),
            b"wordWrap" => p.word_wrap = Some(on_off(&e)),
            b"autoSpaceDE" => p.auto_space_de = Some(on_off(&e)),
            b"autoSpaceDN" => p.auto_space_dn = Some(on_off(&e)),
            b"textAlignment" => p.text_alignment = val(&e).and_then(|v| text_alignment(&v)),
            b"framePr" => p.frame = Some(Box::new(frame(&e))),
            b"outlineLvl" => p.outline_level = val(&e).and_then(|v| int(&v)).map(|v| v.clamp(0, 9) as u8),
            b"spacing" => read_spacing(&e, p),
            b"ind" => {
                // `start`/`end` are the strict names of `left`/`right` (§17.3.1.12).
                let i = &mut p.indent;
                let e = Attrs::of(&e);
                i.left = twips_attr(&e, b"start").or_else(|| twips_attr(&e, b"left"));
                i.right = twips_attr(&e, b"end").or_else(|| twips_attr(&e, b"right"));
                i.first_line = twips_attr(&e, b"firstLine");
                i.hanging = twips_attr(&e, b"hanging");
                // Hundredths of a character, kept as written: layout converts them.
                let chars = |name: &[u8]| attr_raw(&e, name).and_then(|v| int(&v));
                i.left_chars = chars(b"startChars").or_else(|| chars(b"leftChars"));
                i.right_chars = chars(b"endChars").or_else(|| chars(b"rightChars"));
                i.first_line_chars = chars(b"firstLineChars");
                i.hanging_chars = chars(b"hangingChars");
            }
            b"numPr" => return read_numbering(xml, &mut p.numbering),
            b"tabs" => return read_tabs(xml, &mut p.tabs),
            b"pBdr" => return read_paragraph_borders(xml, &mut p.borders),
            b"rPr" => {
                let mark = read_rpr(xml)?;
                out.mark = mark.props;
                out.mark_style = mark.style;
                out.mark_deleted = mark.deleted;
                return Ok(());
            }
            b"sectPr" => {
                out.section = Some(read_section(xml)?);
                return Ok(());
            }
            _ => {}
        }
        xml.skip()
    })?;
    Ok(out)
}

/// ST_Jc for paragraphs (§17.18.44); `start`/`end` are the strict names.
pub(crate) fn align(v: &[u8]) -> Option<Align> {
    Some(match v.trim_ascii() {
        b"left" | b"start" | b"numTab" => Align::Left,
        b"center" => Align::Center,
        b"right" | b"end" => Align::Right,
        b"both" | b"lowKashida" | b"mediumKashida" | b"highKashida" => Align::Both,
        b"distribute" | b"thaiDistribute" => Align::Distribute,
        _ => return None,
    })
}

/// `w:spacing` (§17.3.1.33): `lineRule` defaults to `auto` (240ths of a line).
fn read_spacing(e: &BytesStart<'_>, p: &mut ParagraphProps) {
    let e = &Attrs::of(e);
    let s = &mut p.spacing;
    s.before = twips_attr(e, b"before");
    s.after = twips_attr(e, b"after");
    s.before_autospacing = on_off_attr(e, b"beforeAutospacing");
    s.after_autospacing = on_off_attr(e, b"afterAutospacing");
    // Hundredths of a line, kept as written: layout converts them.
    s.before_lines = attr_raw(e, b"beforeLines").and_then(|v| int(&v));
    s.after_lines = attr_raw(e, b"afterLines").and_then(|v| int(&v));
    if let Some(line) = attr_raw(e, b"line").and_then(|v| int(&v)) {
        s.line = Some(match attr_raw(e, b"lineRule").as_deref().map(<[u8]>::trim_ascii) {
            Some(b"exact") => LineSpacing::Exact(crate::units::Twips(line)),
            Some(b"atLeast") => LineSpacing::AtLeast(crate::units::Twips(line)),
            _ => LineSpacing::Auto(line),
        });
    }
}

/// ST_TextAlignment (§17.18.91).
fn text_alignment(v: &[u8]) -> Option<TextAlignment> {
    Some(match v.trim_ascii() {
        b"top" => TextAlignment::Top,
        b"center" => TextAlignment::Center,
        b"baseline" => TextAlignment::Baseline,
        b"bottom" => TextAlignment::Bottom,
        b"auto" => TextAlignment::Auto,
        _ => return None,
    })
}

/// `w:framePr` (§17.3.1.11), as written.
fn frame(e: &BytesStart<'_>) -> FrameProps {
    let name = |n: &[u8]| attr(e, n).map(|v| v.trim().to_owned()).filter(|v| !v.is_empty());
    FrameProps {
        width: twips_attr(e, b"w"),
        height: twips_attr(e, b"h"),
        height_rule: name(b"hRule"),
        h_space: twips_attr(e, b"hSpace"),
        v_space: twips_attr(e, b"vSpace"),
        wrap: name(b"wrap"),
        h_anchor: name(b"hAnchor"),
        v_anchor: name(b"vAnchor"),
        x: twips_attr(e, b"x"),
        x_align: name(b"xAlign"),
        y: twips_attr(e, b"y"),
        y_align: name(b"yAlign"),
        drop_cap: name(b"dropCap"),
        lines: attr_raw(e, b"lines").and_then(|v| int(&v)),
    }
}

/// `w:numPr` (§17.3.1.19).
fn read_numbering(xml: &mut XmlReader<'_>, out: &mut Option<NumberingRef>) -> Result<(), DocxError> {
    let mut n = NumberingRef::default();
    xml.children(|xml, e| {
        match e.local_name().as_ref() {
            b"ilvl" => n.level = val(&e).and_then(|v| int(&v)).map(|v| v.clamp(0, 8) as u8),
            b"numId" => n.num_id = val(&e).and_then(|v| int(&v)),
            _ => {}
        }
        xml.skip()
    })?;
    *out = Some(n);
    Ok(())
}

/// `w:tabs` (§17.3.1.38), in the order written.
fn read_tabs(xml: &mut XmlReader<'_>, out: &mut Vec<TabStop>) -> Result<(), DocxError> {
    xml.children(|xml, e| {
        if e.local_name().as_ref() == b"tab" {
            if let Some(pos) = twips_attr(&e, b"pos") {
                let kind = match val(&e).as_deref().map(<[u8]>::trim_ascii) {
                    Some(b"center") => TabKind::Center,
                    Some(b"right") | Some(b"end") => TabKind::Right,
                    Some(b"decimal") => TabKind::Decimal,
                    Some(b"bar") => TabKind::Bar,
                    Some(b"clear") => TabKind::Clear,
                    _ => TabKind::Left,
                };
                let leader = match attr_raw(&e, b"leader").as_deref().map(<[u8]>::trim_ascii) {
                    Some(b"dot") => TabLeader::Dot,
                    Some(b"hyphen") => TabLeader::Hyphen,
                    Some(b"underscore") | Some(b"heavy") => TabLeader::Underscore,
                    Some(b"middleDot") => TabLeader::MiddleDot,
                    _ => TabLeader::None,
                };
                out.push(TabStop { kind, pos, leader });
            }
        }
        xml.skip()
    })
}

/// `w:pBdr` (§17.3.1.24).
fn read_paragraph_borders(xml: &mut XmlReader<'_>, out: &mut ParagraphBorders) -> Result<(), DocxError> {
    xml.children(|xml, e| {
        let side: Option<&mut Option<Border>> = match e.local_name().as_ref() {
            b"top" => Some(&mut out.top),
            b"bottom" => Some(&mut out.bottom),
            b"left" | b"start" => Some(&mut out.left),
            b"right" | b"end" => Some(&mut out.right),
            b"between" => Some(&mut out.between),
            _ => None,
        };
        if let Some(side) = side {
            *side = Some(border(&e, xml.palette()));
        }
        xml.skip()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::docx::model::Color;
    use crate::deadline::Deadline;
    use crate::units::{HalfPoints, Twips};

    fn rpr(inner: &str) -> RunPr {
        let xml = format!("<w:rPr>{inner}</w:rPr>");
        let deadline = Deadline::none();
        let mut r = XmlReader::new(xml.as_bytes(), "t.xml", 64, &deadline);
        r.enter_root(&[b"rPr"]).unwrap();
        read_rpr(&mut r).unwrap()
    }

    fn ppr(inner: &str) -> ParaPr {
        let xml = format!("<w:pPr>{inner}</w:pPr>");
        let deadline = Deadline::none();
        let mut r = XmlReader::new(xml.as_bytes(), "t.xml", 64, &deadline);
        r.enter_root(&[b"pPr"]).unwrap();
        read_ppr(&mut r).unwrap()
    }

    #[test]
    fn theme_attribute_overrides_explicit_font() {
        let p = rpr(
            r#"<w:rFonts w:ascii="Arial" w:asciiTheme="minorHAnsi" w:hAnsi="Arial" w:eastAsia="MS Mincho" w:hint="eastAsia"/>"#,
        );
        assert_eq!(p.props.fonts.ascii, Some(FontRef::Theme(ThemeFont::MinorHAnsi)));
        assert_eq!(p.props.fonts.h_ansi, Some(FontRef::Named("Arial".into())));
        assert_eq!(p.props.fonts.east_asia, Some(FontRef::Named("MS Mincho".into())));
        assert_eq!(p.props.fonts.hint_east_asia, Some(true));
    }

    #[test]
    fn explicit_false_toggle_is_kept() {
        let p = rpr(r#"<w:b w:val="0"/><w:i/><w:caps w:val="false"/>"#);
        assert_eq!(
            (p.props.bold, p.props.italic, p.props.caps),
            (Some(false), Some(true), Some(false))
        );
    }

    #[test]
    fn run_properties_are_read() {
        let p = rpr(
            r#"<w:rStyle w:val="Strong"/><w:sz w:val="28"/><w:szCs w:val="24"/><w:u w:val="dottedHeavy" w:color="FF0000"/>
               <w:color w:val="1F3864"/><w:highlight w:val="cyan"/><w:vertAlign w:val="superscript"/>
               <w:position w:val="-4"/><w:spacing w:val="20"/><w:dstrike/><w:smallCaps/><w:vanish/><w:rtl/><w:cs/>
               <w:shd w:val="clear" w:fill="FFFF00"/><w:kern w:val="32"/><w:w w:val="150"/>"#,
        );
        let r = &p.props;
        assert_eq!(p.style.as_deref(), Some("Strong"));
        assert_eq!((r.size, r.size_cs), (Some(HalfPoints(28)), Some(HalfPoints(24))));
        assert_eq!(r.underline, Some(Underline::Dotted));
        assert_eq!(r.underline_color, Some(Color::Rgb(255, 0, 0)));
        assert_eq!(r.color, Some(Color::Rgb(0x1F, 0x38, 0x64)));
        assert_eq!(r.highlight, Some(Color::Rgb(0, 255, 255)));
        assert_eq!(r.vert_align, Some(VertAlign::Superscript));
        assert_eq!((r.position, r.spacing), (Some(HalfPoints(-4)), Some(Twips(20))));
        assert_eq!(
            (r.double_strike, r.small_caps, r.vanish),
            (Some(true), Some(true), Some(true))
        );
        assert_eq!((r.rtl, r.complex_script), (Some(true), Some(true)));
        assert_eq!(r.shading, Some(Color::Rgb(255, 255, 0)));
        assert_eq!((r.kern, r.scale), (Some(HalfPoints(32)), Some(150)));
    }

    #[test]
    fn run_property_change_does_not_overwrite_current_props() {
        let p = rpr(r#"<w:b/><w:rPrChange w:id="1" w:author="A"><w:rPr><w:b w:val="0"/><w:i/></w:rPr></w:rPrChange>"#);
        assert_eq!(p.props.bold, Some(true));
        assert_eq!(p.props.italic, None);
    }

    #[test]
    fn paragraph_properties_are_read() {
        let p = ppr(
            r#"<w:pStyle w:val="Heading1"/><w:keepNext/><w:keepLines w:val="1"/><w:pageBreakBefore/>
               <w:widowControl w:val="0"/><w:contextualSpacing/><w:bidi/><w:jc w:val="end"/>
               <w:numPr><w:ilvl w:val="2"/><w:numId w:val="7"/></w:numPr>
               <w:spacing w:before="240" w:after="120" w:line="360" w:lineRule="auto" w:beforeAutospacing="1"/>
               <w:ind w:start="720" w:hanging="360"/><w:outlineLvl w:val="0"/>
               <w:tabs><w:tab w:val="right" w:leader="dot" w:pos="9350"/><w:tab w:val="clear" w:pos="720"/></w:tabs>
               <w:pBdr><w:bottom w:val="single" w:sz="4" w:space="1" w:color="auto"/></w:pBdr>
               <w:shd w:val="clear" w:fill="EEEEEE"/>"#,
        );
        let q = &p.props;
        assert_eq!(p.style.as_deref(), Some("Heading1"));
        assert_eq!(
            (q.keep_next, q.keep_lines, q.page_break_before),
            (Some(true), Some(true), Some(true))
        );
        assert_eq!(
            (q.widow_control, q.contextual_spacing, q.bidi),
            (Some(false), Some(true), Some(true))
        );
        assert_eq!(q.align, Some(Align::Right));
        assert_eq!(
            q.numbering,
            Some(NumberingRef {
                num_id: Some(7),
                level: Some(2)
            })
        );
        assert_eq!(q.spacing.before, Some(Twips(240)));
        assert_eq!(q.spacing.after, Some(Twips(120)));
        assert_eq!(q.spacing.line, Some(LineSpacing::Auto(360)));
        assert_eq!(q.spacing.before_autospacing, Some(true));
        assert_eq!((q.indent.left, q.indent.hanging), (Some(Twips(720)), Some(Twips(360))));
        assert_eq!(q.outline_level, Some(0));
        assert_eq!(q.tabs.len(), 2);
        assert_eq!(
            q.tabs[0],
            TabStop {
                kind: TabKind::Right,
                pos: Twips(9350),
                leader: TabLeader::Dot
            }
        );
        assert_eq!(q.tabs[1].kind, TabKind::Clear);
        assert!(q.borders.bottom.unwrap().visible);
        assert_eq!(q.shading, Some(Color::Rgb(0xEE, 0xEE, 0xEE)));
    }

    #[test]
    fn run_language_is_read() {
        let p = rpr(r#"<w:lang w:val="en-US" w:eastAsia="ja-JP" w:bidi="ar-SA"/>"#);
        let lang = p.props.lang.unwrap();
        assert_eq!(lang.latin.as_deref(), Some("en-US"));
        assert_eq!(lang.east_asia.as_deref(), Some("ja-JP"));
        assert_eq!(lang.bidi.as_deref(), Some("ar-SA"));
    }

    #[test]
    fn east_asian_layout_is_ignored_safely() {
        let p = rpr(r#"<w:eastAsianLayout w:id="1" w:combine="1" w:vert="1"/><w:b/>"#);
        assert_eq!(p.props.bold, Some(true));
    }

    #[test]
    fn grid_alignment_and_hyphenation_switches_are_read() {
        let p = ppr(
            r#"<w:snapToGrid w:val="0"/><w:textAlignment w:val="center"/><w:suppressAutoHyphens/><w:kinsoku w:val="0"/><w:wordWrap w:val="0"/><w:autoSpaceDE w:val="0"/><w:autoSpaceDN/>"#,
        );
        let q = &p.props;
        assert_eq!(q.word_wrap, Some(false));
        assert_eq!((q.auto_space_de, q.auto_space_dn), (Some(false), Some(true)));
        assert_eq!(q.snap_to_grid, Some(false));
        assert_eq!(q.text_alignment, Some(TextAlignment::Center));
        assert_eq!((q.suppress_auto_hyphens, q.kinsoku), (Some(true), Some(false)));
    }

    #[test]
    fn character_and_line_units_are_kept_as_written() {
        let p = ppr(
            r#"<w:ind w:leftChars="200" w:left="420" w:firstLineChars="100" w:hangingChars="50" w:endChars="10"/>
               <w:spacing w:beforeLines="50" w:before="156" w:afterLines="100"/>"#,
        );
        let i = p.props.indent;
        assert_eq!((i.left, i.left_chars), (Some(Twips(420)), Some(200)));
        assert_eq!(
            (i.first_line_chars, i.hanging_chars, i.right_chars),
            (Some(100), Some(50), Some(10))
        );
        let s = p.props.spacing;
        assert_eq!(
            (s.before, s.before_lines, s.after_lines),
            (Some(Twips(156)), Some(50), Some(100))
        );
    }

    #[test]
    fn frame_properties_are_kept() {
        let p = ppr(
            r#"<w:framePr w:dropCap="drop" w:lines="3" w:wrap="around" w:vAnchor="text" w:hAnchor="page" w:x="720" w:y="-20"/>"#,
        );
        let f = p.props.frame.unwrap();
        assert_eq!((f.drop_cap.as_deref(), f.lines), (Some("drop"), Some(3)));
        assert_eq!(
            (f.wrap.as_deref(), f.h_anchor.as_deref()),
            (Some("around"), Some("page"))
        );
        assert_eq!((f.x, f.y), (Some(Twips(720)), Some(Twips(-20))));
    }

    #[test]
    fn exact_line_spacing_is_in_twips() {
        let p = ppr(r#"<w:spacing w:line="280" w:lineRule="exact"/>"#);
        assert_eq!(p.props.spacing.line, Some(LineSpacing::Exact(Twips(280))));
    }

    #[test]
    fn paragraph_mark_properties_and_deletion_are_read() {
        let p = ppr(r#"<w:rPr><w:del w:id="3" w:author="A"/><w:b/><w:sz w:val="40"/></w:rPr>"#);
        assert!(p.mark_deleted);
        assert_eq!(p.mark.size, Some(HalfPoints(40)));
        assert_eq!(p.mark.bold, Some(true));
    }

    #[test]
    fn paragraph_property_change_is_ignored() {
        let p = ppr(r#"<w:jc w:val="center"/><w:pPrChange><w:pPr><w:jc w:val="left"/></w:pPr></w:pPrChange>"#);
        assert_eq!(p.props.align, Some(Align::Center));
    }
}
