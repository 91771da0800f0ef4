//! Computed run properties: docDefaults → style levels → direct formatting (§17.7.2, §17.7.3).

use std::sync::Arc;

use super::cascade::{merge_run, toggle};
use super::{BorderStyle, FontNames, RunStyle};
use crate::docx::model::{Color, FontRef, Lang, RunProps, ThemeFont, ThemeFontLang, ThemeFonts, Underline, VertAlign};
use crate::units::{HalfPoints, Pt};

/// Word's font when nothing names one.
pub(super) const DEFAULT_FONT: &str = "Times New Roman";
/// Word's size when nothing gives one: 10 pt (dolanmiu/docx #724).
const DEFAULT_SIZE: HalfPoints = HalfPoints(20);

/// Computes a run's properties from docDefaults, the style levels (outermost first, each
/// already merged through its `basedOn` chain) and the direct properties.
pub(super) fn compute_run(
    defaults: &RunProps,
    levels: &[&RunProps],
    direct: &RunProps,
    theme: &ThemeFonts,
    lang: &ThemeFontLang,
) -> RunStyle {
    let mut merged = defaults.clone();
    for level in levels {
        merge_run(&mut merged, level);
    }
    merge_run(&mut merged, direct);
    let tog = |get: fn(&RunProps) -> Option<bool>| {
        let lv: Vec<Option<bool>> = levels.iter().map(|l| get(l)).collect();
        toggle(get(defaults), &lv, get(direct))
    };
    let size = merged.size.unwrap_or(DEFAULT_SIZE).pt();
    let size_cs = merged.size_cs.map(HalfPoints::pt).unwrap_or(size);
    RunStyle {
        fonts: FontNames {
            east_asia_lang: east_asia_lang(defaults, levels, direct, lang),
            ..font_names(&merged, theme, lang)
        },
        size: positive(size),
        size_cs: positive(size_cs),
        bold: tog(|p| p.bold),
        italic: tog(|p| p.italic),
        bold_cs: tog(|p| p.bold_cs),
        italic_cs: tog(|p| p.italic_cs),
        caps: tog(|p| p.caps),
        small_caps: tog(|p| p.small_caps),
        strike: tog(|p| p.strike),
        double_strike: tog(|p| p.double_strike),
        vanish: tog(|p| p.vanish),
        underline: merged.underline.unwrap_or(Underline::None),
        color: merged.color.unwrap_or(Color::Auto),
        highlight: merged.highlight,
        shading: merged.shading,
        border: merged.border.as_ref().and_then(BorderStyle::from_model),
        vert_align: merged.vert_align.unwrap_or(VertAlign::Baseline),
        position: merged.position.map(HalfPoints::pt).unwrap_or(Pt::ZERO),
        spacing: merged.spacing.map(|t| t.pt()).unwrap_or(Pt::ZERO),
        kern: merged.kern.map(HalfPoints::pt).filter(|k| *k > Pt::ZERO),
        rtl: merged.rtl.unwrap_or(false),
        complex_script: merged.complex_script.unwrap_or(false),
        lang: own_lang(defaults, levels, direct, |l| l.latin.as_deref()),
        lang_bidi: own_lang(defaults, levels, direct, |l| l.bidi.as_deref()),
    }
}

/// One attribute of the innermost `w:lang` that gives it (§17.3.2.20: each attribute
/// inherits on its own).
fn own_lang(defaults: &RunProps, levels: &[&RunProps], direct: &RunProps, get: fn(&Lang) -> Option<&str>) -> Option<Arc<str>> {
    let own = |p: &RunProps| p.lang.as_ref().and_then(get).map(str::trim).filter(|t| !t.is_empty()).map(Arc::from);
    own(direct).or_else(|| levels.iter().rev().find_map(|l| own(l))).or_else(|| own(defaults))
}

/// Sizes below 1 pt (or negative, from a damaged file) are clamped so layout stays sane.
fn positive(size: Pt) -> Pt {
    size.max(Pt(1.0))
}

/// Resolves the four slots; a theme reference uses the theme's name (§20.1.4.1.24), and a
/// slot nobody filled borrows a neighbour before falling back to Times New Roman.
fn font_names(props: &RunProps, theme: &ThemeFonts, lang: &ThemeFontLang) -> FontNames {
    let name = |r: &Option<FontRef>| -> Option<String> {
        match r.as_ref()? {
            FontRef::Named(n) if !n.trim().is_empty() => Some(n.trim().to_string()),
            FontRef::Named(_) => None,
            FontRef::Theme(t) => theme_name(*t, theme, lang),
        }
    };
    let ascii = name(&props.fonts.ascii);
    let h_ansi = name(&props.fonts.h_ansi);
    let east_asia = name(&props.fonts.east_asia);
    let cs = name(&props.fonts.cs);
    let latin = ascii.clone().or_else(|| h_ansi.clone()).unwrap_or_else(|| DEFAULT_FONT.to_string());
    let arc = |s: String| -> Arc<str> { Arc::from(s) };
    FontNames {
        ascii: arc(ascii.unwrap_or_else(|| latin.clone())),
        h_ansi: arc(h_ansi.unwrap_or_else(|| latin.clone())),
        east_asia: arc(east_asia.unwrap_or_else(|| latin.clone())),
        cs: arc(cs.unwrap_or_else(|| latin.clone())),
        hint_east_asia: props.fonts.hint_east_asia.unwrap_or(false),
        east_asia_lang: None,
    }
}

/// The run's East Asian language: the innermost `w:lang@w:eastAsia` (§17.3.2.20, each
/// attribute inherits on its own), else the document's `w:themeFontLang@w:eastAsia`.
fn east_asia_lang(defaults: &RunProps, levels: &[&RunProps], direct: &RunProps, lang: &ThemeFontLang) -> Option<Arc<str>> {
    own_lang(defaults, levels, direct, |l| l.east_asia.as_deref()).or_else(|| lang.east_asia.as_deref().map(Arc::from))
}

/// A theme slot's typeface; an empty `ea`/`cs` uses the `a:font@script` entry chosen by
/// `w:themeFontLang` (notes §2).
fn theme_name(t: ThemeFont, theme: &ThemeFonts, lang: &ThemeFontLang) -> Option<String> {
    let (n, by_script, script) = match t {
        ThemeFont::MajorAscii | ThemeFont::MajorHAnsi => (&theme.major_latin, &theme.major_by_script, None),
        ThemeFont::MinorAscii | ThemeFont::MinorHAnsi => (&theme.minor_latin, &theme.minor_by_script, None),
        ThemeFont::MajorEastAsia => (&theme.major_east_asia, &theme.major_by_script, east_asia_script(lang)),
        ThemeFont::MinorEastAsia => (&theme.minor_east_asia, &theme.minor_by_script, east_asia_script(lang)),
        ThemeFont::MajorBidi => (&theme.major_cs, &theme.major_by_script, bidi_script(lang)),
        ThemeFont::MinorBidi => (&theme.minor_cs, &theme.minor_by_script, bidi_script(lang)),
    };
    let clean = |s: &String| Some(s.trim().to_string()).filter(|s| !s.is_empty());
    n.as_ref().and_then(clean).or_else(|| script.and_then(|sc| by_script.get(sc)).and_then(clean))
}

fn east_asia_script(lang: &ThemeFontLang) -> Option<&'static str> {
    let l = lang.east_asia.as_deref()?.to_ascii_lowercase();
    Some(match l.as_str() {
        s if s.starts_with("ja") => "Jpan",
        "zh-tw" | "zh-hk" | "zh-mo" => "Hant",
        s if s.starts_with("zh") => "Hans",
        s if s.starts_with("ko") => "Hang",
        _ => return None,
    })
}

fn bidi_script(lang: &ThemeFontLang) -> Option<&'static str> {
    let l = lang.bidi.as_deref()?.to_ascii_lowercase();
    Some(match l.get(..2)? {
        "ar" | "fa" | "ur" => "Arab",
        "he" | "yi" => "Hebr",
        "th" => "Thai",
        "hi" => "Deva",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::docx::model::{FontSlots, Lang};

    #[test]
    fn nothing_said_gives_ten_point_times_new_roman() {
        let s = compute_run(&RunProps::default(), &[], &RunProps::default(), &ThemeFonts::default(), &ThemeFontLang::default());
        assert_eq!(s.size, Pt(10.0));
        assert_eq!(&*s.fonts.ascii, "Times New Roman");
        assert!(!s.bold);
    }

    #[test]
    fn a_theme_reference_uses_the_theme_name() {
        let theme = ThemeFonts { minor_latin: Some("Calibri".into()), ..Default::default() };
        let direct = RunProps {
            fonts: FontSlots { ascii: Some(FontRef::Theme(ThemeFont::MinorAscii)), ..Default::default() },
            ..Default::default()
        };
        let s = compute_run(&RunProps::default(), &[], &direct, &theme, &ThemeFontLang::default());
        assert_eq!(&*s.fonts.ascii, "Calibri");
        assert_eq!(&*s.fonts.h_ansi, "Calibri");
    }

    #[test]
    fn an_empty_east_asian_theme_font_uses_the_script_entry() {
        let mut theme = ThemeFonts::default();
        theme.minor_by_script.insert("Jpan".into(), "Yu Mincho".into());
        let lang = ThemeFontLang { east_asia: Some("ja-JP".into()), ..Default::default() };
        let direct = RunProps {
            fonts: FontSlots { east_asia: Some(FontRef::Theme(ThemeFont::MinorEastAsia)), ..Default::default() },
            ..Default::default()
        };
        let s = compute_run(&RunProps::default(), &[], &direct, &theme, &lang);
        assert_eq!(&*s.fonts.east_asia, "Yu Mincho");
    }

    #[test]
    fn the_east_asian_language_comes_from_the_innermost_lang_then_the_theme_font_lang() {
        let lang = |tag: &str| RunProps { lang: Some(Lang { east_asia: Some(tag.into()), ..Default::default() }), ..Default::default() };
        let theme_lang = ThemeFontLang { east_asia: Some("ja-JP".into()), ..Default::default() };
        let none = RunProps::default();
        let s = compute_run(&lang("ko-KR"), &[&lang("zh-CN")], &none, &ThemeFonts::default(), &theme_lang);
        assert_eq!(s.fonts.east_asia_lang.as_deref(), Some("zh-CN"));
        let s = compute_run(&none, &[], &none, &ThemeFonts::default(), &theme_lang);
        assert_eq!(s.fonts.east_asia_lang.as_deref(), Some("ja-JP"));
    }

    #[test]
    fn direct_size_wins_over_the_style() {
        let style = RunProps { size: Some(HalfPoints(28)), ..Default::default() };
        let direct = RunProps { size: Some(HalfPoints(18)), ..Default::default() };
        let s = compute_run(&RunProps::default(), &[&style], &direct, &ThemeFonts::default(), &ThemeFontLang::default());
        assert_eq!(s.size, Pt(9.0));
    }
}
