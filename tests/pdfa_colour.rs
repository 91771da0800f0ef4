//! PDF/A colour: every colour space a PDF/A file uses is covered by its sRGB output intent
//! or is ICC-based (ISO 19005-2 §6.2.4.3), for RGB, CMYK and grey pictures, coloured text
//! and vector fills; read back with pikepdf (`DOCX2PDF_TEST_PYTHON`).

mod common;

use common::convert_cli;
use common::docx::{docx_with_images, inline_picture_of};
use jpeg_encoder::{ColorType, Encoder};
use serde_json::{json, Value};

/// Lists the output intents' component counts, every colour space the pages use (content
/// operators, pictures, their masks, forms), and each picture's size, colour space and,
/// when stored as Flate, its middle pixel.
const CHECK: &str = r#"
import json, sys, pikepdf
pdf = pikepdf.open(sys.argv[1])
intents = [int(i.DestOutputProfile.N) for i in pdf.Root.get("/OutputIntents", [])]
found, images = set(), []

def space(cs):
    if isinstance(cs, pikepdf.Array):
        return "/Indexed " + space(cs[1]) if cs[0] == "/Indexed" else str(cs[0])
    return str(cs)

def walk(resources, owner):
    named = resources.get("/ColorSpace", {})
    for operands, op in pikepdf.parse_content_stream(owner):
        op = str(op)
        if op in ("rg", "RG"):
            found.add("/DeviceRGB")
        elif op in ("g", "G"):
            found.add("/DeviceGray")
        elif op in ("k", "K"):
            found.add("/DeviceCMYK")
        elif op in ("cs", "CS"):
            name = operands[0]
            found.add(space(named[name]) if name in named else str(name))
    for x in resources.get("/XObject", {}).values():
        if x.Subtype == "/Image":
            s = space(x.ColorSpace)
            found.add(s)
            if "/SMask" in x:
                found.add(space(x.SMask.ColorSpace))
            w, h = int(x.Width), int(x.Height)
            middle = None
            if x.get("/Filter") == "/FlateDecode" and s == "/DeviceRGB" and "/DecodeParms" not in x:
                at = ((h // 2) * w + w // 2) * 3
                middle = list(x.read_bytes()[at:at + 3])
            images.append([w, h, s, middle])
        elif x.Subtype == "/Form":
            walk(x.get("/Resources", resources), x)

for page in pdf.pages:
    walk(page.Resources, page)
print(json.dumps({"intents": intents, "spaces": sorted(found), "images": sorted(images)}))
"#;

/// A JPEG of `w` × `h` pixels all of one colour, in `color` samples.
fn solid_jpeg(w: u16, h: u16, color: ColorType, pixel: &[u8]) -> Vec<u8> {
    let samples = pixel.repeat(usize::from(w) * usize::from(h));
    let mut out = Vec::new();
    Encoder::new(&mut out, 95).encode(&samples, w, h, color).expect("encode a JPEG");
    out
}

/// Three pictures (an RGB, an Adobe CMYK and a grey JPEG, of different sizes), red text,
/// and a paragraph shaded green: a filled rectangle.
fn colourful() -> Vec<u8> {
    let rgb = solid_jpeg(20, 10, ColorType::Rgb, &[0, 0, 255]);
    // Pure cyan ink.
    let cmyk = solid_jpeg(24, 16, ColorType::Cmyk, &[255, 0, 0, 0]);
    let gray = solid_jpeg(12, 12, ColorType::Luma, &[128]);
    let picture = |id: &str| format!("<w:p><w:r>{}</w:r></w:p>", inline_picture_of(id, 60, 40));
    let body = format!(
        r#"{}{}{}<w:p><w:r><w:rPr><w:color w:val="FF0000"/></w:rPr><w:t>Red text</w:t></w:r></w:p><w:p><w:pPr><w:shd w:val="clear" w:color="auto" w:fill="00FF00"/></w:pPr><w:r><w:t>On green</w:t></w:r></w:p>"#,
        picture("rIdRgb"),
        picture("rIdCmyk"),
        picture("rIdGray")
    );
    docx_with_images(&body, &[("rIdRgb", "rgb.jpeg", &rgb), ("rIdCmyk", "cmyk.jpeg", &cmyk), ("rIdGray", "gray.jpeg", &gray)])
}

/// Colour spaces an sRGB output intent covers, or that carry their own profile.
const COVERED: [&str; 5] = ["/DeviceRGB", "/DeviceGray", "/ICCBased", "/Indexed /DeviceRGB", "/Indexed /ICCBased"];

#[test]
fn under_pdfa_every_colour_space_is_covered_by_the_srgb_intent() {
    let bytes = colourful();
    for level in ["PDF/A-1b", "PDF/A-2b", "PDF/A-3b"] {
        let Some(found) = common::python::run_on_pdf(CHECK, &convert_cli(&bytes, &["--pdfa", level])) else { return };
        assert_eq!(found["intents"], json!([3]), "{level}: one RGB output intent");
        let spaces: Vec<&str> = found["spaces"].as_array().unwrap().iter().map(|s| s.as_str().unwrap()).collect();
        let uncovered: Vec<&&str> = spaces.iter().filter(|s| !COVERED.contains(s)).collect();
        assert!(uncovered.is_empty(), "{level}: {uncovered:?} beside an sRGB output intent (all: {spaces:?})");
        // Text, the shading and the pictures were all looked at.
        assert!(spaces.contains(&"/DeviceRGB") && spaces.contains(&"/DeviceGray"), "{level}: {spaces:?}");
        // The CMYK picture (24 × 16) is now RGB, and its cyan stays cyan.
        let images = found["images"].as_array().unwrap();
        assert_eq!(images.len(), 3, "{level}: {images:?}");
        let cmyk = images.iter().find(|i| i[0] == 24).expect("the CMYK picture");
        assert_eq!(cmyk[2], "/DeviceRGB", "{level}: {cmyk}");
        let pixel: Vec<i64> = cmyk[3].as_array().expect("its samples").iter().map(|v| v.as_i64().unwrap()).collect();
        assert!(pixel[0] < 16 && pixel[1] > 239 && pixel[2] > 239, "{level}: cyan ink gave {pixel:?}");
    }
}

#[test]
fn without_pdfa_a_cmyk_jpeg_passes_through_as_device_cmyk() {
    // Outside PDF/A nothing constrains the colour spaces: the JPEG is not decoded.
    let Some(found) = common::python::run_on_pdf(CHECK, &convert_cli(&colourful(), &[])) else { return };
    assert_eq!(found["intents"], json!([]));
    let cmyk: &Value = found["images"].as_array().unwrap().iter().find(|i| i[0] == 24).expect("the CMYK picture");
    assert_eq!(cmyk[2], "/DeviceCMYK");
}
