//! Office Math (`m:oMath`/`m:oMathPara`, ECMA-376 Part 1 §22.1) read as runs in reading
//! order: the math runs in Cambria Math, letters italic unless `m:sty`/`m:nor` say
//! otherwise, scripts raised or lowered, fractions, radicals, delimiters and n-ary
//! operators written out linearly with the characters Word draws for them.

use quick_xml::events::BytesStart;

use super::model::{Align, FontRef, Fraction, Inline, MathText, Run, RunContent, RunProps, VertAlign};
use super::properties::read_rpr;
use super::xml::{attr, Ev, XmlReader};
use super::DocxError;

/// The font Word sets math in (§22.1.2.26 `m:mathFont` defaults to it).
const MATH_FONT: &str = "Cambria Math";

/// What the runs of a math element are drawn with: the script position its parent
/// gives them.
#[derive(Debug, Clone, Copy, Default)]
struct Ctx {
    script: Option<VertAlign>,
}

/// Reads an `m:oMath` whose `Start` was just returned, pushing its runs.
pub(crate) fn read_math(xml: &mut XmlReader<'_>, out: &mut Vec<Inline>) -> Result<(), DocxError> {
    element(xml, b"oMath", Ctx::default(), out)
}

/// Reads an `m:oMathPara` (display math) whose `Start` was just returned, pushing its
/// runs; returns its justification (§22.1.2.51 `m:jc`, centred as a group by default).
pub(crate) fn read_math_paragraph(xml: &mut XmlReader<'_>, out: &mut Vec<Inline>) -> Result<Align, DocxError> {
    let mut align = Align::Center;
    xml.children(|xml, e| match e.local_name().as_ref() {
        b"oMathParaPr" => xml.children(|xml, e| {
            if e.local_name().as_ref() == b"jc" {
                align = match attr(&e, b"val").as_deref() {
                    Some("left") => Align::Left,
                    Some("right") => Align::Right,
                    _ => Align::Center,
                };
            }
            xml.skip()
        }),
        b"oMath" => element(xml, b"oMath", Ctx::default(), out),
        _ => xml.skip(),
    })?;
    Ok(align)
}

/// Reads the children of the element `name` (its `Start` just returned).
fn element(xml: &mut XmlReader<'_>, name: &[u8], ctx: Ctx, out: &mut Vec<Inline>) -> Result<(), DocxError> {
    match name {
        // §22.1.2.36 fraction: stacked when both parts are plain text and the type is the
        // default bar; otherwise (linear, skewed, no bar, nested structures) written out
        // as numerator, a slash, denominator.
        b"f" => {
            let mut kind = None;
            let (mut num, mut den) = (Vec::new(), Vec::new());
            xml.children(|xml, e| match e.local_name().as_ref() {
                b"fPr" => {
                    kind = property(xml, b"type")?;
                    Ok(())
                }
                b"num" => element(xml, b"num", ctx, &mut num),
                b"den" => element(xml, b"den", ctx, &mut den),
                _ => xml.skip(),
            })?;
            let stacked = kind.as_deref().is_none_or(|k| k == "bar") && ctx.script.is_none();
            match (stacked, plain(&num), plain(&den)) {
                (true, Some(numerator), Some(denominator)) => {
                    let mut props = RunProps::default();
                    style(&mut props, ctx, false);
                    let fraction = Fraction { numerator, denominator };
                    out.push(Inline::Run(Run { style: None, props, content: vec![RunContent::Fraction(Box::new(fraction))] }));
                }
                _ => {
                    out.extend(num);
                    push(out, "/", ctx);
                    out.extend(den);
                }
            }
            Ok(())
        }
        // §22.1.2.88 radical: the root sign before the base; the degree is raised.
        b"rad" => {
            let mut deg = Vec::new();
            let mut base = Vec::new();
            xml.children(|xml, e| match e.local_name().as_ref() {
                b"deg" => element(xml, b"deg", Ctx { script: Some(VertAlign::Superscript) }, &mut deg),
                b"e" => element(xml, b"e", ctx, &mut base),
                _ => xml.skip(),
            })?;
            out.extend(deg);
            push(out, "\u{221a}", ctx);
            out.extend(base);
            Ok(())
        }
        // §22.1.2.24 delimiters: begin and end characters (parentheses by default) and a
        // separator between the bases.
        b"d" => {
            let mut props = DelimiterChars { begin: "(".into(), separator: "|".into(), end: ")".into() };
            let mut bases = Vec::new();
            xml.children(|xml, e| match e.local_name().as_ref() {
                b"dPr" => delimiter_props(xml, &mut props),
                b"e" => {
                    let mut base = Vec::new();
                    element(xml, b"e", ctx, &mut base)?;
                    bases.push(base);
                    Ok(())
                }
                _ => xml.skip(),
            })?;
            push(out, &props.begin, ctx);
            for (i, base) in bases.into_iter().enumerate() {
                if i > 0 {
                    push(out, &props.separator, ctx);
                }
                out.extend(base);
            }
            push(out, &props.end, ctx);
            Ok(())
        }
        // §22.1.2.70 n-ary operator: its character (an integral by default), limits as
        // scripts, then the base.
        b"nary" => {
            let mut chr = "\u{222b}".to_owned();
            let mut rest = Vec::new();
            xml.children(|xml, e| match e.local_name().as_ref() {
                b"naryPr" => {
                    if let Some(c) = property(xml, b"chr")? {
                        chr = c;
                    }
                    Ok(())
                }
                b"sub" => element(xml, b"sub", Ctx { script: Some(VertAlign::Subscript) }, &mut rest),
                b"sup" => element(xml, b"sup", Ctx { script: Some(VertAlign::Superscript) }, &mut rest),
                b"e" => element(xml, b"e", ctx, &mut rest),
                _ => xml.skip(),
            })?;
            push(out, &chr, ctx);
            out.extend(rest);
            Ok(())
        }
        // §22.1.2.1 accent: the base, then its accent character (a circumflex by default).
        b"acc" => {
            let mut chr = "\u{302}".to_owned();
            let mut base = Vec::new();
            xml.children(|xml, e| match e.local_name().as_ref() {
                b"accPr" => {
                    if let Some(c) = property(xml, b"chr")? {
                        chr = c;
                    }
                    Ok(())
                }
                b"e" => element(xml, b"e", ctx, &mut base),
                _ => xml.skip(),
            })?;
            out.extend(base);
            push(out, &chr, ctx);
            Ok(())
        }
        b"r" => math_run(xml, ctx, out),
        // Scripts (§22.1.2.112 sSup, §22.1.2.105 sSub, §22.1.2.107 sSubSup, §22.1.2.86
        // sPre), limits (§22.1.2.54 limLow, §22.1.2.56 limUpp) and every other structure:
        // the children in order, a script part raised or lowered.
        _ => xml.children(|xml, e| {
            let local = e.local_name();
            let name = local.as_ref();
            if name.ends_with(b"Pr") {
                return xml.skip();
            }
            let script = match name {
                b"sup" => Some(VertAlign::Superscript),
                b"sub" => Some(VertAlign::Subscript),
                b"lim" => Some(VertAlign::Subscript),
                _ => ctx.script,
            };
            element(xml, name, Ctx { script }, out)
        }),
    }
}

/// The `m:val` of child `name` of a structure's properties (`m:naryPr`, `m:accPr`, `m:fPr`…),
/// when given.
fn property(xml: &mut XmlReader<'_>, name: &[u8]) -> Result<Option<String>, DocxError> {
    let mut value = None;
    xml.children(|xml, e| {
        if e.local_name().as_ref() == name {
            value = attr(&e, b"val").map(|v| v.into_owned());
        }
        xml.skip()
    })?;
    Ok(value)
}

/// The text of math runs that hold nothing but text in the math font, unscripted; `None`
/// for anything else (a nested structure's own layout is not stacked).
fn plain(inlines: &[Inline]) -> Option<Vec<MathText>> {
    let mut out = Vec::new();
    for inline in inlines {
        let Inline::Run(run) = inline else { return None };
        if run.props.vert_align.is_some() {
            return None;
        }
        for content in &run.content {
            let RunContent::Text(text) = content else { return None };
            out.push(MathText { text: text.clone(), italic: run.props.italic.unwrap_or(false) });
        }
    }
    (!out.is_empty()).then_some(out)
}

/// The characters of a delimiter (§22.1.2.31 `m:dPr`).
struct DelimiterChars {
    begin: String,
    separator: String,
    end: String,
}

fn delimiter_props(xml: &mut XmlReader<'_>, props: &mut DelimiterChars) -> Result<(), DocxError> {
    xml.children(|xml, e| {
        let value = attr(&e, b"val").map(|v| v.into_owned()).unwrap_or_default();
        match e.local_name().as_ref() {
            b"begChr" => props.begin = value,
            b"sepChr" => props.separator = value,
            b"endChr" => props.end = value,
            _ => {}
        }
        xml.skip()
    })
}

/// An `m:r` (§22.1.2.87): its `w:rPr`, `m:rPr` (`m:sty`, `m:nor`) and `m:t` text.
fn math_run(xml: &mut XmlReader<'_>, ctx: Ctx, out: &mut Vec<Inline>) -> Result<(), DocxError> {
    let mut run = Run::default();
    let mut text = String::new();
    let mut upright = false;
    loop {
        let e = match xml.next()? {
            Ev::Start(e) => e,
            Ev::End | Ev::Eof => break,
            Ev::Text(_) | Ev::CData(_) => continue,
        };
        match e.local_name().as_ref() {
            b"rPr" if is_word(&e) => {
                let rpr = read_rpr(xml)?;
                run.style = rpr.style;
                run.props = rpr.props;
            }
            b"rPr" => upright = math_props(xml)?,
            b"t" => text.push_str(&xml.read_text()?),
            _ => xml.skip()?,
        }
    }
    if !text.is_empty() {
        style(&mut run.props, ctx, upright);
        run.content.push(RunContent::Text(text));
        out.push(Inline::Run(run));
    }
    Ok(())
}

/// Whether an `rPr` is WordprocessingML's (`w:rPr`) rather than math's (`m:rPr`).
fn is_word(e: &BytesStart<'_>) -> bool {
    e.name().prefix().is_some_and(|p| p.as_ref() == b"w")
}

/// `m:rPr`: whether the run is upright — `m:sty` plain or bold (§22.1.2.111) or normal
/// text (`m:nor`, §22.1.2.73).
fn math_props(xml: &mut XmlReader<'_>) -> Result<bool, DocxError> {
    let mut upright = false;
    xml.children(|xml, e| {
        match e.local_name().as_ref() {
            b"sty" => upright = matches!(attr(&e, b"val").as_deref(), Some("p") | Some("b")),
            b"nor" => upright = !matches!(attr(&e, b"val").as_deref(), Some("0") | Some("false") | Some("off")),
            _ => {}
        }
        xml.skip()
    })?;
    Ok(upright)
}

/// Math text's look: Cambria Math unless the run names a font, italic unless upright,
/// and the script position of the enclosing structure.
fn style(props: &mut RunProps, ctx: Ctx, upright: bool) {
    if props.fonts.ascii.is_none() {
        props.fonts.ascii = Some(FontRef::Named(MATH_FONT.into()));
        props.fonts.h_ansi = Some(FontRef::Named(MATH_FONT.into()));
    }
    if props.italic.is_none() {
        props.italic = Some(!upright);
    }
    if let Some(script) = ctx.script {
        props.vert_align = Some(script);
    }
}

/// Pushes operator text (upright) in the math font.
fn push(out: &mut Vec<Inline>, text: &str, ctx: Ctx) {
    if text.is_empty() {
        return;
    }
    let mut props = RunProps::default();
    style(&mut props, ctx, true);
    out.push(Inline::Run(Run { style: None, props, content: vec![RunContent::Text(text.to_owned())] }));
}

#[cfg(test)]
mod tests {
    use crate::docx::model::{Inline, VertAlign};
    use crate::docx::test_support::{paragraph, text};

    fn runs(body: &str) -> Vec<(String, bool, Option<VertAlign>)> {
        paragraph(body)
            .inlines
            .into_iter()
            .filter_map(|i| match i {
                Inline::Run(r) => Some((text_of(&r), r.props.italic == Some(true), r.props.vert_align)),
                _ => None,
            })
            .collect()
    }

    fn text_of(r: &crate::docx::model::Run) -> String {
        r.content
            .iter()
            .map(|c| match c {
                crate::docx::model::RunContent::Text(t) => t.as_str(),
                _ => "",
            })
            .collect()
    }

    #[test]
    fn math_text_reads_in_order_with_variables_italic_and_plain_runs_upright() {
        let p = paragraph(
            r#"<w:p><w:r><w:t xml:space="preserve">Let </w:t></w:r><m:oMath><m:r><m:t>x</m:t></m:r><m:r><m:rPr><m:sty m:val="p"/></m:rPr><m:t>=2</m:t></m:r></m:oMath></w:p>"#,
        );
        assert_eq!(text(&p), "Let x=2");
        let r = runs(
            r#"<w:p><m:oMath><m:r><m:t>x</m:t></m:r><m:r><m:rPr><m:sty m:val="p"/></m:rPr><m:t>=2</m:t></m:r></m:oMath></w:p>"#,
        );
        assert_eq!(r, [("x".into(), true, None), ("=2".into(), false, None)]);
    }

    #[test]
    fn scripts_are_raised_and_lowered() {
        let r = runs(
            r#"<w:p><m:oMath><m:sSubSup><m:sSubSupPr/><m:e><m:r><m:t>a</m:t></m:r></m:e><m:sub><m:r><m:t>i</m:t></m:r></m:sub><m:sup><m:r><m:t>2</m:t></m:r></m:sup></m:sSubSup></m:oMath></w:p>"#,
        );
        assert_eq!(
            r,
            [
                ("a".into(), true, None),
                ("i".into(), true, Some(VertAlign::Subscript)),
                ("2".into(), true, Some(VertAlign::Superscript)),
            ]
        );
    }

    #[test]
    fn a_plain_fraction_is_stacked_and_a_linear_or_nested_one_written_out() {
        let f = |pr: &str, num: &str| {
            text(&paragraph(&format!(
                r#"<w:p><m:oMath><m:f>{pr}<m:num>{num}</m:num><m:den><m:r><m:t>2</m:t></m:r></m:den></m:f></m:oMath></w:p>"#
            )))
        };
        assert_eq!(f("", "<m:r><m:t>x+1</m:t></m:r>"), "x+1⁄2");
        assert_eq!(f(r#"<m:fPr><m:type m:val="lin"/></m:fPr>"#, "<m:r><m:t>x</m:t></m:r>"), "x/2");
        let nested = "<m:sSup><m:e><m:r><m:t>x</m:t></m:r></m:e><m:sup><m:r><m:t>2</m:t></m:r></m:sup></m:sSup>";
        assert_eq!(f("", nested), "x2/2");
    }

    #[test]
    fn fractions_radicals_and_delimiters_are_written_out() {
        let p = paragraph(
            r#"<w:p><m:oMathPara><m:oMath><m:d><m:e><m:f><m:num><m:r><m:t>a</m:t></m:r></m:num><m:den><m:r><m:t>b</m:t></m:r></m:den></m:f></m:e></m:d><m:rad><m:radPr><m:degHide m:val="1"/></m:radPr><m:deg/><m:e><m:r><m:t>c</m:t></m:r></m:e></m:rad><m:nary><m:naryPr><m:chr m:val="∑"/></m:naryPr><m:sub><m:r><m:t>k</m:t></m:r></m:sub><m:sup/><m:e><m:r><m:t>k</m:t></m:r></m:e></m:nary></m:oMath></m:oMathPara></w:p>"#,
        );
        assert_eq!(text(&p), "(a⁄b)√c∑kk");
        assert_eq!(p.props.align, Some(crate::docx::model::Align::Center));
    }
}
