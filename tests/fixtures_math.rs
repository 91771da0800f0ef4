//! Equations (Office Math, ECMA-376 §22.1) on DOCX files the tests build, laid out through
//! the real reader and layout: the text in reading order, variables italic, scripts raised,
//! fractions stacked over a bar.

mod common;

use common::docx::docx;
use docx2pdf::layout::frame::{Item, LineItem, Page};

fn lay(body: &str) -> Vec<Page> {
    let bytes =
        docx(&format!(r#"<w:p xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math">{body}</w:p>"#));
    common::layout::pages(&bytes)
}

/// The text items of a page: (x, baseline y, size, face name, text).
fn texts(page: &Page) -> Vec<(f64, f64, f64, String, String)> {
    page.items
        .iter()
        .filter_map(|p| match &p.item {
            Item::Text(t) => Some((
                p.pos.x.0,
                p.pos.y.0,
                t.size.0,
                t.face.postscript_name.clone(),
                t.glyphs.iter().map(|g| g.text.as_str()).collect(),
            )),
            _ => None,
        })
        .collect()
}

#[test]
fn an_equation_shows_its_text_in_reading_order_with_raised_scripts() {
    // E = m c², then a fraction a/b.
    let pages = lay(
        r#"<w:r><w:t xml:space="preserve">Energy: </w:t></w:r><m:oMath><m:r><m:t>E</m:t></m:r><m:r><m:rPr><m:sty m:val="p"/></m:rPr><m:t>=</m:t></m:r><m:sSup><m:e><m:r><m:t>mc</m:t></m:r></m:e><m:sup><m:r><m:t>2</m:t></m:r></m:sup></m:sSup><m:r><m:rPr><m:sty m:val="p"/></m:rPr><m:t>,</m:t></m:r><m:f><m:num><m:r><m:t>a</m:t></m:r></m:num><m:den><m:r><m:t>b</m:t></m:r></m:den></m:f></m:oMath>"#,
    );
    let t = texts(&pages[0]);
    let all: String = t.iter().map(|x| x.4.as_str()).collect();
    assert_eq!(all.replace(' ', ""), "Energy:E=mc2,ab");
    let base = t.iter().find(|x| x.4 == "mc").expect("the base");
    let sup = t.iter().find(|x| x.4 == "2").expect("the exponent");
    // The exponent is smaller, raised and after its base.
    assert!(sup.2 < base.2 && sup.1 < base.1 - 1.0 && sup.0 > base.0, "{sup:?} {base:?}");
    // Variables are italic, the operator upright.
    assert!(base.3.to_ascii_lowercase().contains("italic"), "{base:?}");
    let eq = t.iter().find(|x| x.4 == "=").expect("the operator");
    assert!(!eq.3.to_ascii_lowercase().contains("italic"), "{eq:?}");
}

#[test]
fn a_fraction_stacks_its_numerator_over_a_bar_over_its_denominator() {
    let pages = lay(
        r#"<w:r><w:t xml:space="preserve">Half: </w:t></w:r><m:oMath><m:f><m:num><m:r><m:t>x+1</m:t></m:r></m:num><m:den><m:r><m:rPr><m:sty m:val="p"/></m:rPr><m:t>2</m:t></m:r></m:den></m:f><m:r><m:t>y</m:t></m:r></m:oMath>"#,
    );
    let t = texts(&pages[0]);
    let find = |s: &str| t.iter().find(|x| x.4 == s).unwrap_or_else(|| panic!("{s} in {t:?}"));
    let (text, num, den, after) = (find("Half: "), find("x+1"), find("2"), find("y"));
    // The line's baseline is the text's: the numerator above it, the denominator below.
    assert!((after.1 - text.1).abs() < 0.01);
    assert!(num.1 < text.1 - 0.3 * text.2, "{num:?} over {text:?}");
    assert!(den.1 > text.1 + 0.3 * text.2, "{den:?} under {text:?}");
    // The bar lies between them, as wide as the numerator at least, on the math axis.
    let bars: Vec<(f64, f64, LineItem)> = pages[0]
        .items
        .iter()
        .filter_map(|p| match &p.item {
            Item::Line(l) => Some((p.pos.x.0, p.pos.y.0, *l)),
            _ => None,
        })
        .collect();
    assert_eq!(bars.len(), 1, "{bars:?}");
    let (x0, y, bar) = bars[0];
    assert!(y < text.1 && y > num.1 && y < den.1, "bar at {y}");
    assert!((bar.to.y.0 - y).abs() < 0.01 && x0 <= num.0 + 0.01);
    // The denominator is centred under the numerator; what follows starts after the bar.
    let num_w = num.2 * 0.5 * 3.0;
    assert!(den.0 > num.0 && den.0 < num.0 + num_w, "{den:?} under {num:?}");
    assert!(after.0 >= bar.to.x.0, "{after:?} after the bar ending at {}", bar.to.x.0);
    // The line grows to hold the fraction: the text sits lower than a plain first line.
    let plain = lay(r#"<w:r><w:t xml:space="preserve">Half: </w:t></w:r>"#);
    let plain_text = texts(&plain[0]).into_iter().find(|x| x.4 == "Half: ").expect("plain");
    assert!(text.1 > plain_text.1 + 2.0, "{text:?} against {plain_text:?}");
}
