//! `word/settings.xml` (§17.15): the document-wide settings that change layout.

use quick_xml::events::BytesStart;

use super::model::{ColorSchemeMapping, Compat, LineBreakChars, Settings};
use super::section::read_note_props;
use super::simple_types::{int, twips};
use super::theme_color::theme_color;
use super::xml::{attr, attr_raw, on_off, val, Attrs, XmlReader};
use super::DocxError;

/// Reads a settings part.
pub(crate) fn read_settings(xml: &mut XmlReader<'_>) -> Result<Settings, DocxError> {
    let mut s = Settings::default();
    if !xml.enter_root(&[b"settings"])? {
        return Ok(s);
    }
    xml.children(|xml, e| {
        match e.local_name().as_ref() {
            b"defaultTabStop" => s.default_tab_stop = val(&e).and_then(|v| twips(&v)).filter(|t| t.0 > 0),
            b"evenAndOddHeaders" => s.even_and_odd_headers = on_off(&e),
            b"mirrorMargins" => s.mirror_margins = on_off(&e),
            b"gutterAtTop" => s.gutter_at_top = on_off(&e),
            b"themeFontLang" => {
                let lang = &mut s.theme_font_lang;
                lang.latin = attr(&e, b"val").map(|v| v.into_owned());
                lang.east_asia = attr(&e, b"eastAsia").map(|v| v.into_owned());
                lang.bidi = attr(&e, b"bidi").map(|v| v.into_owned());
            }
            b"autoHyphenation" => s.auto_hyphenation = on_off(&e),
            b"doNotHyphenateCaps" => s.do_not_hyphenate_caps = on_off(&e),
            b"hyphenationZone" => s.hyphenation_zone = val(&e).and_then(|v| twips(&v)),
            b"consecutiveHyphenLimit" => {
                s.consecutive_hyphen_limit = val(&e).and_then(|v| int(&v)).map(|v| v.clamp(0, 32767) as u32)
            }
            b"noLineBreaksBefore" => s.no_line_breaks_before.push(line_break_chars(&e)),
            b"noLineBreaksAfter" => s.no_line_breaks_after.push(line_break_chars(&e)),
            b"strictFirstAndLastChars" => s.strict_first_and_last_chars = on_off(&e),
            b"updateFields" => s.update_fields = on_off(&e),
            b"bordersDoNotSurroundHeader" => s.borders_do_not_surround_header = on_off(&e),
            b"bordersDoNotSurroundFooter" => s.borders_do_not_surround_footer = on_off(&e),
            b"clrSchemeMapping" => s.color_scheme_mapping = color_scheme_mapping(&e),
            b"footnotePr" => {
                s.footnote_props = Some(read_note_props(xml)?);
                return Ok(());
            }
            b"endnotePr" => {
                s.endnote_props = Some(read_note_props(xml)?);
                return Ok(());
            }
            b"compat" => {
                return xml.children(|xml, e| {
                    match e.local_name().as_ref() {
                        // §17.15.3.4: `compatSetting` name/uri/val triples.
                        b"compatSetting" => compat_setting(&e, &mut s),
                        // The legacy switches (§17.15.3) are ST_OnOff elements.
                        name => {
                            if on_off(&e) {
                                set_compat(&mut s.compat, name);
                                s.compat_flags.push(String::from_utf8_lossy(name).into_owned());
                            }
                        }
                    }
                    xml.skip()
                });
            }
            _ => {}
        }
        xml.skip()
    })?;
    Ok(s)
}

/// A `w:compatSetting` (§17.15.3.4): `compatibilityMode` and the boolean settings of
/// Word 2010+.
fn compat_setting(e: &BytesStart<'_>, s: &mut Settings) {
    let Some(name) = attr_raw(e, b"name") else { return };
    if name.as_ref() == b"compatibilityMode" {
        s.compatibility_mode = val(e).and_then(|v| int(&v)).map(|v| v.clamp(0, 1000) as u32);
        return;
    }
    let on = val(e).is_some_and(|v| matches!(v.trim_ascii(), b"1" | b"true" | b"on"));
    let c = &mut s.compat;
    let slot = match name.as_ref() {
        b"overrideTableStyleFontSizeAndJustification" => &mut c.override_table_style_font_size_and_justification,
        b"enableOpenTypeFeatures" => &mut c.enable_open_type_features,
        b"doNotFlipMirrorIndents" => &mut c.do_not_flip_mirror_indents,
        b"differentiateMultirowTableHeaders" => &mut c.differentiate_multirow_table_headers,
        _ => return,
    };
    *slot = on;
}

/// Sets the typed switch of a legacy `w:compat` child (§17.15.3) that is on.
fn set_compat(c: &mut Compat, name: &[u8]) {
    let slot = match name {
        b"doNotExpandShiftReturn" => &mut c.do_not_expand_shift_return,
        b"noLeading" => &mut c.no_leading,
        b"suppressSpBfAfterPgBrk" => &mut c.suppress_space_before_after_page_break,
        b"suppressTopSpacing" => &mut c.suppress_top_spacing,
        b"doNotUseHTMLParagraphAutoSpacing" => &mut c.do_not_use_html_paragraph_auto_spacing,
        b"allowSpaceOfSameStyleInTable" => &mut c.allow_space_of_same_style_in_table,
        b"adjustLineHeightInTable" => &mut c.adjust_line_height_in_table,
        b"useFELayout" => &mut c.use_fe_layout,
        b"balanceSingleByteDoubleByteWidth" => &mut c.balance_single_byte_double_byte_width,
        b"spaceForUL" => &mut c.space_for_underline,
        b"ulTrailSpace" => &mut c.underline_trailing_space,
        b"underlineTabInNumList" => &mut c.underline_tab_in_num_list,
        b"splitPgBreakAndParaMark" => &mut c.split_page_break_and_paragraph_mark,
        b"autofitToFirstFixedWidthCell" => &mut c.autofit_to_first_fixed_width_cell,
        b"growAutofit" => &mut c.grow_autofit,
        b"doNotBreakWrappedTables" => &mut c.do_not_break_wrapped_tables,
        b"doNotAutofitConstrainedTables" => &mut c.do_not_autofit_constrained_tables,
        _ => return,
    };
    *slot = true;
}

/// `w:noLineBreaksBefore`/`w:noLineBreaksAfter` (§17.15.1.60/61).
fn line_break_chars(e: &BytesStart<'_>) -> LineBreakChars {
    LineBreakChars {
        lang: attr(e, b"lang").map(|v| v.into_owned()),
        chars: attr(e, b"val").map(|v| v.into_owned()).unwrap_or_default(),
    }
}

/// `w:clrSchemeMapping` (§17.15.1.20).
fn color_scheme_mapping(e: &BytesStart<'_>) -> ColorSchemeMapping {
    let e = &Attrs::of(e);
    let slot = |name: &[u8]| attr_raw(e, name).and_then(|v| theme_color(&v));
    ColorSchemeMapping {
        background1: slot(b"bg1"),
        text1: slot(b"t1"),
        background2: slot(b"bg2"),
        text2: slot(b"t2"),
        accents: [
            slot(b"accent1"),
            slot(b"accent2"),
            slot(b"accent3"),
            slot(b"accent4"),
            slot(b"accent5"),
            slot(b"accent6"),
        ],
        hyperlink: slot(b"hyperlink"),
        followed_hyperlink: slot(b"followedHyperlink"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::docx::model::{NumberFormat, ThemeColor};
    use crate::deadline::Deadline;
    use crate::units::Twips;

    fn settings(inner: &str) -> Settings {
        let xml = format!(r#"<w:settings xmlns:w="w">{inner}</w:settings>"#);
        let deadline = Deadline::none();
        let mut r = XmlReader::new(xml.as_bytes(), "word/settings.xml", 64, &deadline);
        read_settings(&mut r).unwrap()
    }

    #[test]
    fn compat_switches_are_typed() {
        let s = settings(
            r#"<w:compat><w:noLeading/><w:suppressSpBfAfterPgBrk/><w:useFELayout w:val="0"/>
               <w:doNotUseHTMLParagraphAutoSpacing/><w:allowSpaceOfSameStyleInTable/><w:adjustLineHeightInTable/>
               <w:balanceSingleByteDoubleByteWidth/><w:suppressTopSpacing/><w:doNotExpandShiftReturn/>
               <w:compatSetting w:name="overrideTableStyleFontSizeAndJustification" w:uri="http://schemas.microsoft.com/office/word" w:val="1"/>
               <w:compatSetting w:name="enableOpenTypeFeatures" w:uri="http://schemas.microsoft.com/office/word" w:val="0"/></w:compat>"#,
        );
        let c = s.compat;
        assert!(c.no_leading && c.suppress_space_before_after_page_break && c.suppress_top_spacing);
        assert!(c.do_not_use_html_paragraph_auto_spacing && c.allow_space_of_same_style_in_table);
        assert!(c.adjust_line_height_in_table && c.balance_single_byte_double_byte_width);
        assert!(c.do_not_expand_shift_return && !c.use_fe_layout);
        assert!(c.override_table_style_font_size_and_justification && !c.enable_open_type_features);
        assert!(s.compat_flags.contains(&"noLeading".to_owned()));
    }

    #[test]
    fn hyphenation_and_field_settings_are_read() {
        let s = settings(
            r#"<w:autoHyphenation/><w:doNotHyphenateCaps/><w:hyphenationZone w:val="357"/><w:updateFields w:val="true"/>"#,
        );
        assert!(s.auto_hyphenation && s.do_not_hyphenate_caps && s.update_fields);
        assert_eq!(s.hyphenation_zone, Some(Twips(357)));
        assert!(!settings("").auto_hyphenation);
    }

    #[test]
    fn line_break_character_lists_keep_their_language() {
        let s = settings(
            r#"<w:noLineBreaksAfter w:lang="ja-JP" w:val="$([\{"/><w:noLineBreaksBefore w:lang="ja-JP" w:val="!%),."/>"#,
        );
        assert_eq!(s.no_line_breaks_after[0].lang.as_deref(), Some("ja-JP"));
        assert_eq!(s.no_line_breaks_after[0].chars, "$([\\{");
        assert_eq!(s.no_line_breaks_before[0].chars, "!%),.");
    }

    #[test]
    fn color_scheme_mapping_is_read() {
        let s = settings(
            r#"<w:clrSchemeMapping w:bg1="light1" w:t1="dark1" w:bg2="light2" w:t2="dark2" w:accent1="accent2" w:hyperlink="hyperlink" w:followedHyperlink="followedHyperlink"/>"#,
        );
        let m = s.color_scheme_mapping;
        assert_eq!(
            (m.text1, m.background1),
            (Some(ThemeColor::Dark1), Some(ThemeColor::Light1))
        );
        assert_eq!(m.accents[0], Some(ThemeColor::Accent2));
        assert_eq!(m.accents[1], None);
    }

    #[test]
    fn document_note_properties_are_read() {
        let s = settings(
            r#"<w:footnotePr><w:footnote w:id="-1"/><w:footnote w:id="0"/><w:numFmt w:val="upperLetter"/></w:footnotePr><w:endnotePr><w:numRestart w:val="eachSect"/></w:endnotePr>"#,
        );
        assert_eq!(s.footnote_props.unwrap().format, Some(NumberFormat::UpperLetter));
        assert_eq!(s.endnote_props.unwrap().restart.as_deref(), Some("eachSect"));
    }

    #[test]
    fn settings_are_read() {
        let xml = r#"<w:settings xmlns:w="w"><w:defaultTabStop w:val="708"/><w:evenAndOddHeaders/>
            <w:mirrorMargins w:val="0"/><w:themeFontLang w:val="en-US" w:eastAsia="ja-JP"/>
            <w:compat><w:doNotExpandShiftReturn/><w:useFELayout w:val="0"/>
              <w:compatSetting w:name="compatibilityMode" w:uri="http://schemas.microsoft.com/office/word" w:val="15"/>
            </w:compat></w:settings>"#;
        let deadline = Deadline::none();
        let mut r = XmlReader::new(xml.as_bytes(), "word/settings.xml", 64, &deadline);
        let s = read_settings(&mut r).unwrap();
        assert_eq!(s.default_tab_stop, Some(Twips(708)));
        assert!(s.even_and_odd_headers);
        assert!(!s.mirror_margins);
        assert_eq!(s.compatibility_mode, Some(15));
        assert_eq!(s.compat_flags, ["doNotExpandShiftReturn"]);
        assert_eq!(s.theme_font_lang.east_asia.as_deref(), Some("ja-JP"));
    }
}
