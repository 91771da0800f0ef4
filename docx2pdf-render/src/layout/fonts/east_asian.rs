//! East Asian text: Word's choice of `w:rFonts` slot per character and the CJK faces by language.

use std::sync::Arc;

use crate::resolve::RunStyle;

/// An East Asian language, which picks among the Noto CJK faces (their glyph shapes differ
/// per region for the same Han character).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum CjkLang {
    /// Japanese.
    Ja,
    /// Korean.
    Ko,
    /// Simplified Chinese.
    ZhHans,
    /// Traditional Chinese.
    ZhHant,
}

impl CjkLang {
    /// The language of a BCP 47 tag as `w:lang@w:eastAsia` or `w:themeFontLang` write it.
    pub fn from_tag(tag: &str) -> Option<CjkLang> {
        let t = tag.trim().to_ascii_lowercase();
        Some(match t.as_str() {
            s if s.starts_with("ja") => CjkLang::Ja,
            s if s.starts_with("ko") => CjkLang::Ko,
            "zh-tw" | "zh-hk" | "zh-mo" | "zh-hant" => CjkLang::ZhHant,
            s if s.starts_with("zh-hant") => CjkLang::ZhHant,
            s if s.starts_with("zh") => CjkLang::ZhHans,
            _ => return None,
        })
    }

    /// The language a Windows character set implies (`w:charset`, §17.8.3.2): 80 Shift-JIS,
    /// 81 Hangul, 82 Johab, 86 GB2312, 88 Big5.
    pub fn from_charset(charset: u8) -> Option<CjkLang> {
        Some(match charset {
            0x80 => CjkLang::Ja,
            0x81 | 0x82 => CjkLang::Ko,
            0x86 => CjkLang::ZhHans,
            0x88 => CjkLang::ZhHant,
            _ => return None,
        })
    }

    /// The Noto CJK family for this language (fonts-noto-cjk), serif or sans.
    pub fn noto(self, serif: bool) -> &'static str {
        match (self, serif) {
            (CjkLang::Ja, false) => "Noto Sans CJK JP",
            (CjkLang::Ja, true) => "Noto Serif CJK JP",
            (CjkLang::Ko, false) => "Noto Sans CJK KR",
            (CjkLang::Ko, true) => "Noto Serif CJK KR",
            (CjkLang::ZhHans, false) => "Noto Sans CJK SC",
            (CjkLang::ZhHans, true) => "Noto Serif CJK SC",
            (CjkLang::ZhHant, false) => "Noto Sans CJK TC",
            (CjkLang::ZhHant, true) => "Noto Serif CJK TC",
        }
    }
}

/// A known East Asian Windows/Office family: its names (English and native), the English
/// name (the key of the metric overrides), its language and whether it has serifs (Mincho,
/// Song, Ming and Batang are serif designs; Gothic, Hei, Gulim and Dotum are sans).
struct CjkFamily {
    names: &'static [&'static str],
    canonical: &'static str,
    lang: CjkLang,
    serif: bool,
}

const CJK_FAMILIES: &[CjkFamily] = &[
    CjkFamily { names: &["malgun gothic", "맑은 고딕"], canonical: "malgun gothic", lang: CjkLang::Ko, serif: false },
    CjkFamily { names: &["gulim", "굴림", "gulimche", "굴림체"], canonical: "gulim", lang: CjkLang::Ko, serif: false },
    CjkFamily { names: &["dotum", "돋움", "dotumche", "돋움체"], canonical: "dotum", lang: CjkLang::Ko, serif: false },
    CjkFamily { names: &["nanumgothic", "나눔고딕", "nanum gothic"], canonical: "nanumgothic", lang: CjkLang::Ko, serif: false },
    CjkFamily { names: &["nanum pen", "나눔손글씨 펜", "nanumpen"], canonical: "nanum pen", lang: CjkLang::Ko, serif: false },
    CjkFamily { names: &["nanumbarunpen", "나눔바른펜", "nanum barunpen"], canonical: "nanumbarunpen", lang: CjkLang::Ko, serif: false },
    CjkFamily { names: &["batang", "바탕", "batangche", "바탕체"], canonical: "batang", lang: CjkLang::Ko, serif: true },
    CjkFamily { names: &["gungsuh", "궁서", "gungsuhche", "궁서체"], canonical: "gungsuh", lang: CjkLang::Ko, serif: true },
    CjkFamily { names: &["nanummyeongjo", "나눔명조"], canonical: "nanummyeongjo", lang: CjkLang::Ko, serif: true },
    // Hancom's faces, the defaults of documents that began in Hangul Office.
    CjkFamily { names: &["hcr batang", "함초롬바탕"], canonical: "hcr batang", lang: CjkLang::Ko, serif: true },
    CjkFamily { names: &["hcr dotum", "함초롬돋움"], canonical: "hcr dotum", lang: CjkLang::Ko, serif: false },
    CjkFamily { names: &["ms gothic", "ｍｓ ゴシック", "ms pgothic", "ｍｓ ｐゴシック", "ms ui gothic"], canonical: "ms gothic", lang: CjkLang::Ja, serif: false },
    CjkFamily { names: &["meiryo", "メイリオ", "meiryo ui"], canonical: "meiryo", lang: CjkLang::Ja, serif: false },
    CjkFamily { names: &["yu gothic", "游ゴシック", "yu gothic ui", "yu gothic light", "游ゴシック light"], canonical: "yu gothic", lang: CjkLang::Ja, serif: false },
    CjkFamily { names: &["ms mincho", "ｍｓ 明朝", "ms pmincho", "ｍｓ ｐ明朝"], canonical: "ms mincho", lang: CjkLang::Ja, serif: true },
    CjkFamily { names: &["yu mincho", "游明朝"], canonical: "yu mincho", lang: CjkLang::Ja, serif: true },
    CjkFamily { names: &["microsoft yahei", "微软雅黑", "microsoft yahei ui"], canonical: "microsoft yahei", lang: CjkLang::ZhHans, serif: false },
    CjkFamily { names: &["simhei", "黑体"], canonical: "simhei", lang: CjkLang::ZhHans, serif: false },
    CjkFamily { names: &["dengxian", "等线", "dengxian light", "等线 light"], canonical: "dengxian", lang: CjkLang::ZhHans, serif: false },
    CjkFamily { names: &["simsun", "宋体", "nsimsun", "新宋体"], canonical: "simsun", lang: CjkLang::ZhHans, serif: true },
    CjkFamily { names: &["kaiti", "楷体", "fangsong", "仿宋"], canonical: "kaiti", lang: CjkLang::ZhHans, serif: true },
    CjkFamily { names: &["fzshuti", "方正舒体"], canonical: "fzshuti", lang: CjkLang::ZhHans, serif: true },
    CjkFamily { names: &["microsoft jhenghei", "微軟正黑體", "microsoft jhenghei ui"], canonical: "microsoft jhenghei", lang: CjkLang::ZhHant, serif: false },
    CjkFamily { names: &["pmingliu", "新細明體", "mingliu", "細明體"], canonical: "pmingliu", lang: CjkLang::ZhHant, serif: true },
];

/// A known East Asian family by any of its names (any case): its English name, language
/// and whether it is a serif design.
pub(crate) fn cjk_family(name: &str) -> Option<(&'static str, CjkLang, bool)> {
    let lower = name.trim().to_lowercase();
    CJK_FAMILIES.iter().find(|f| f.names.contains(&lower.as_str())).map(|f| (f.canonical, f.lang, f.serif))
}

/// Which `w:rFonts` slot a character uses, and whether it is the complex-script one, after
/// OI29500 2.1.88: `w:cs`/`w:rtl` force cs; an eastAsia font of "Times New Roman" with
/// ascii equal to hAnsi means ascii; otherwise Word's Unicode-block table, where
/// `w:hint="eastAsia"` moves shared punctuation and symbols to eastAsia (and, for Chinese
/// text, accented Latin too). Complex scripts (Arabic, Hebrew, Indic, Thai) take cs as Word
/// does for text its bidi and script analysis marks complex.
///
/// Asked once per character by `inline::collect`, in another codegen unit: without the
/// hint, whether it is inlined there follows how the crate happens to be partitioned
/// (a change elsewhere in the crate moved it out of line and cost 26 M of the 2,658 M
/// instructions of converting Docxodus__WC-BodyBookmarks-After.docx, callgrind).
#[inline]
pub(crate) fn font_slot(c: char, run: &RunStyle) -> (&Arc<str>, bool) {
    let u = u32::from(c);
    let f = &run.fonts;
    if run.complex_script || run.rtl || is_complex(u) {
        return (&f.cs, true);
    }
    // ASCII takes the ascii slot whatever the hint and language; deciding it first spares
    // reading the language tag for every character of Latin text.
    if (&*f.east_asia == "Times New Roman" && f.ascii == f.h_ansi) || u <= 0x7F {
        return (&f.ascii, false);
    }
    let chinese = f.east_asia_lang.as_deref().and_then(CjkLang::from_tag).is_some_and(|l| matches!(l, CjkLang::ZhHans | CjkLang::ZhHant));
    let east = match classify(u, f.hint_east_asia, chinese) {
        Class::Ascii => return (&f.ascii, false),
        Class::HAnsi => false,
        Class::EastAsia => true,
    };
    (if east { &f.east_asia } else { &f.h_ansi }, false)
}

enum Class {
    Ascii,
    HAnsi,
    EastAsia,
}

/// OI29500 2.1.88's table; ranges it does not list use hAnsi.
fn classify(u: u32, hint: bool, chinese: bool) -> Class {
    let hinted = |yes: bool| if yes { Class::EastAsia } else { Class::HAnsi };
    match u {
        0x0000..=0x007F => Class::Ascii,
        0x00A0..=0x00FF => hinted(
            hint && (matches!(u, 0xA1 | 0xA4 | 0xA7..=0xA8 | 0xAA | 0xAD | 0xAF | 0xB0..=0xB4 | 0xB6..=0xBA | 0xBC..=0xBF | 0xD7 | 0xF7)
                || chinese && matches!(u, 0xE0..=0xE1 | 0xE8..=0xEA | 0xEC..=0xED | 0xF2..=0xF3 | 0xF9..=0xFA | 0xFC)),
        ),
        // Latin Extended-A and -B, IPA Extensions, Latin Extended Additional.
        0x0100..=0x02AF | 0x1E00..=0x1EFF => hinted(hint && chinese),
        // Spacing modifiers, combining marks, Greek, Cyrillic.
        0x02B0..=0x04FF => hinted(hint),
        0x1100..=0x11FF => Class::EastAsia,
        // General Punctuation through Dingbats (arrows, maths, box drawing, shapes…).
        0x2000..=0x27BF => hinted(hint),
        0x2E80..=0x9FFF | 0xA000..=0xA4CF | 0xA960..=0xA97F | 0xAC00..=0xD7FF => Class::EastAsia,
        0xE000..=0xF8FF => hinted(hint),
        0xF900..=0xFAFF => Class::EastAsia,
        0xFB00..=0xFB1C => hinted(hint),
        0xFE30..=0xFE6F | 0xFF00..=0xFFEF | 0x20000..=0x3FFFF => Class::EastAsia,
        _ => Class::HAnsi,
    }
}

/// Scripts Word sets in the complex-script font.
fn is_complex(u: u32) -> bool {
    matches!(u, 0x0590..=0x08FF | 0x0900..=0x0DFF | 0x0E00..=0x0EFF | 0xFB1D..=0xFDFF | 0xFE70..=0xFEFF)
}

pub(crate) use crate::lang::is_cjk;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::docx::model::{FontRef, FontSlots, Lang, Paragraph, RunProps};
    use crate::layout::testing::{doc_of, run as text_run};
    use crate::resolve::{resolve, ResolvedBlock, ResolvedInline};

    /// The computed style of a one-run document.
    fn style(props: &RunProps) -> RunStyle {
        let doc = doc_of(vec![Paragraph { inlines: vec![text_run("x", props.clone())], ..Default::default() }]);
        let resolved = resolve(&doc);
        match &resolved.body[0] {
            ResolvedBlock::Paragraph(p) => match &p.inlines[0] {
                ResolvedInline::Run(r) => (*r.style).clone(),
                other => panic!("not a run: {other:?}"),
            },
            ResolvedBlock::Table(_) => panic!("not a paragraph"),
        }
    }

    fn run(ascii: &str, east_asia: &str, hint: bool, lang: Option<&str>) -> RunStyle {
        let props = RunProps {
            fonts: FontSlots {
                ascii: Some(FontRef::Named(ascii.into())),
                h_ansi: Some(FontRef::Named(ascii.into())),
                east_asia: Some(FontRef::Named(east_asia.into())),
                hint_east_asia: Some(hint),
                ..Default::default()
            },
            lang: lang.map(|l| Lang { east_asia: Some(l.into()), ..Default::default() }),
            ..Default::default()
        };
        style(&props)
    }

    #[test]
    fn hangul_uses_the_east_asian_slot() {
        let r = run("Calibri", "Malgun Gothic", false, None);
        assert_eq!(&**font_slot('한', &r).0, "Malgun Gothic");
        assert_eq!(&**font_slot('a', &r).0, "Calibri");
    }

    #[test]
    fn the_east_asia_hint_moves_shared_punctuation_to_the_east_asian_font() {
        let plain = run("Calibri", "MS Mincho", false, None);
        let hinted = run("Calibri", "MS Mincho", true, None);
        assert_eq!(&**font_slot('“', &plain).0, "Calibri");
        assert_eq!(&**font_slot('“', &hinted).0, "MS Mincho");
        assert_eq!(&**font_slot('§', &hinted).0, "MS Mincho");
        assert_eq!(&**font_slot('x', &hinted).0, "Calibri");
    }

    #[test]
    fn accented_latin_goes_east_asian_only_for_hinted_chinese_text() {
        let ja = run("Calibri", "SimSun", true, Some("ja-JP"));
        let zh = run("Calibri", "SimSun", true, Some("zh-CN"));
        assert_eq!(&**font_slot('é', &ja).0, "Calibri");
        assert_eq!(&**font_slot('é', &zh).0, "SimSun");
    }

    #[test]
    fn an_east_asia_font_of_times_new_roman_yields_to_ascii() {
        let r = run("Arial", "Times New Roman", false, None);
        assert_eq!(&**font_slot('中', &r).0, "Arial");
    }

    #[test]
    fn charsets_and_tags_name_the_language() {
        assert_eq!(CjkLang::from_charset(0x81), Some(CjkLang::Ko));
        assert_eq!(CjkLang::from_tag("zh-TW"), Some(CjkLang::ZhHant));
        assert_eq!(CjkLang::from_tag("zh-CN"), Some(CjkLang::ZhHans));
        assert_eq!(CjkLang::from_tag("en-US"), None);
    }

    #[test]
    fn batang_is_a_korean_serif_and_meiryo_a_japanese_sans() {
        assert_eq!(cjk_family("바탕"), Some(("batang", CjkLang::Ko, true)));
        assert_eq!(cjk_family("Meiryo"), Some(("meiryo", CjkLang::Ja, false)));
    }

    #[test]
    fn hand_lettered_faces_named_in_their_own_script_find_the_metrics_word_measured() {
        for (native, english) in [("나눔손글씨 펜", "nanum pen"), ("나눔바른펜", "nanumbarunpen"), ("方正舒体", "fzshuti")] {
            let (canonical, _, _) = cjk_family(native).expect(native);
            assert_eq!(canonical, english);
            assert!(crate::layout::fonts::office_metrics::family(canonical).is_some(), "{canonical}");
        }
    }
}
