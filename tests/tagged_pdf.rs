//! Tagged PDF on documents the tests build: the CLI's and the HTTP API's default output
//! pass the `pdfua` checker with no error, and pikepdf finds the structure the document
//! implies (headings, nested lists, a header row, a figure's alternative text, links, a
//! footnote, a table of contents) in reading order.

mod common;

use actix_web::test::{self};
use common::docx::{docx_styled_with_files, docx_with_files, escape, inline_picture, png, WORD_STYLES};
use common::{convert_cli, convert_request, form, form_named, multipart, Settings, TestService};
use docx2pdf::db::accounts::Plan;
use docx2pdf::http::create_app;
use serde_json::Value;

const NS: &str = r#"xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main""#;

/// Reads a PDF with pdfua and pikepdf; prints one JSON object.
const CHECK: &str = r#"
import json, re, subprocess, sys
import pikepdf
path = sys.argv[1]
run = subprocess.run([sys.executable, "-m", "pdfua", "check", "--format", "json", path], capture_output=True, text=True)
report = json.loads(run.stdout)
out = {"errors": [f["rule_id"] + ": " + f["message"] for f in report["findings"] if f["severity"] == "error"]}
pdf = pikepdf.open(path)
root = pdf.Root
out["marked"] = bool(root.MarkInfo.Marked) if "/MarkInfo" in root else False
out["lang"] = str(root.get("/Lang", ""))
out["display_doc_title"] = bool(root.ViewerPreferences.DisplayDocTitle) if "/ViewerPreferences" in root else False
roles, alts, scopes, objr = [], [], [], []
def walk(e):
    if isinstance(e, pikepdf.Array):
        for k in e:
            walk(k)
        return
    if not isinstance(e, pikepdf.Dictionary):
        return
    if e.get("/Type") == "/OBJR":
        objr.append(str(e.Obj.get("/Subtype")))
        return
    if "/S" not in e:
        return
    s = str(e.S)[1:]
    roles.append(s)
    if s == "Figure":
        alts.append(str(e.get("/Alt", "")))
        out["figure_bbox"] = [float(v) for v in e.A.BBox] if "/A" in e else []
    if s == "TH":
        scopes.append(str(e.A.get("/Scope", "")) if "/A" in e else "")
    if "/K" in e:
        walk(e.K)
walk(root.StructTreeRoot.K)
out.update(roles=roles, alts=alts, scopes=scopes, objr=objr)
out["annots"] = [str(a.get("/Contents", "")) for p in pdf.pages for a in p.get("/Annots", [])]
nums = root.StructTreeRoot.ParentTree.Nums
tree = {int(nums[i]): nums[i + 1] for i in range(0, len(nums), 2)}
mcids = []
for page in pdf.pages:
    content = page.Contents.read_bytes()
    found = [int(m) for m in re.findall(rb"/MCID (\d+)", content)]
    key = int(page.get("/StructParents", -1))
    mcids.append([found == list(range(len(found))), len(tree.get(key, [])) == len(found)])
out["mcids"] = mcids
out["next_key"] = int(root.StructTreeRoot.ParentTreeNextKey)
out["tree_keys"] = sorted(tree)
with pdf.open_metadata() as meta:
    out["xmp_title"] = str(meta.get("dc:title", ""))
    out["xmp_creator"] = str(meta.get("dc:creator", ""))
    out["xmp_created"] = str(meta.get("xmp:CreateDate", ""))
out["info_title"] = str(pdf.docinfo.get("/Title", ""))
out["info_created"] = str(pdf.docinfo.get("/CreationDate", ""))
print(json.dumps(out))
"#;

/// The checker's findings on `pdf`, or `None` when its tools are not installed.
fn check(pdf: &[u8]) -> Option<Value> {
    common::python::run_on_pdf(CHECK, pdf)
}

fn numbering() -> String {
    let level = |ilvl: u8, indent: u32| {
        format!(
            r#"<w:lvl w:ilvl="{ilvl}"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%{}."/><w:lvlJc w:val="left"/><w:pPr><w:ind w:left="{indent}" w:hanging="360"/></w:pPr></w:lvl>"#,
            ilvl + 1
        )
    };
    format!(
        r#"<w:numbering {NS}><w:abstractNum w:abstractNumId="0">{}{}</w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>"#,
        level(0, 720),
        level(1, 1440)
    )
}

fn footnotes() -> String {
    format!(
        r#"<w:footnotes {NS}><w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote><w:footnote w:id="1"><w:p><w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:footnoteRef/></w:r><w:r><w:t xml:space="preserve"> Measured in 2024.</w:t></w:r></w:p></w:footnote></w:footnotes>"#
    )
}

const CORE: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/"><dc:title>Field report</dc:title><dc:creator>Ada Lovelace</dc:creator><dcterms:created>2024-03-01T09:30:00Z</dcterms:created></cp:coreProperties>"#;

fn run(text: &str) -> String {
    format!(r#"<w:r><w:t xml:space="preserve">{}</w:t></w:r>"#, escape(text))
}

fn item(ilvl: u8, text: &str) -> String {
    format!(r#"<w:p><w:pPr><w:numPr><w:ilvl w:val="{ilvl}"/><w:numId w:val="1"/></w:numPr></w:pPr>{}</w:p>"#, run(text))
}

fn cell(text: &str) -> String {
    format!(r#"<w:tc><w:tcPr><w:tcW w:w="2000" w:type="dxa"/></w:tcPr><w:p>{}</w:p></w:tc>"#, run(text))
}

/// A document with each kind of element once, and the structure it implies.
pub fn sample() -> (Vec<u8>, Vec<&'static str>) {
    let picture = inline_picture(40, 30).replace(r#"name="Picture 1"/>"#, r#"name="Picture 1" descr="A red square"/>"#);
    let body = [
        format!(r#"<w:p><w:pPr><w:pStyle w:val="TOC1"/></w:pPr><w:hyperlink w:anchor="_Toc1">{}</w:hyperlink></w:p>"#, run("Introduction")),
        format!(r#"<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:bookmarkStart w:id="0" w:name="_Toc1"/>{}<w:bookmarkEnd w:id="0"/></w:p>"#, run("Introduction")),
        format!(r#"<w:p>{}<w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:footnoteReference w:id="1"/></w:r></w:p>"#, run("The yield rose.")),
        item(0, "First"),
        item(1, "Nested"),
        item(0, "Second"),
        format!(
            r#"<w:tbl><w:tblPr><w:tblW w:w="4000" w:type="dxa"/></w:tblPr><w:tblGrid><w:gridCol w:w="2000"/><w:gridCol w:w="2000"/></w:tblGrid><w:tr><w:trPr><w:tblHeader/></w:trPr>{}{}</w:tr><w:tr>{}{}</w:tr></w:tbl>"#,
            cell("Crop"),
            cell("Yield"),
            cell("Wheat"),
            cell("7.1")
        ),
        format!(r#"<w:p><w:r>{picture}</w:r></w:p>"#),
        format!(r#"<w:p>{}<w:hyperlink w:anchor="_Toc1">{}</w:hyperlink></w:p>"#, run("See "), run("the introduction")),
        r#"<w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr>"#.to_owned(),
    ]
    .concat();
    let image = png(4, 3);
    let (numbering, footnotes) = (numbering(), footnotes());
    let bytes = docx_with_files(
        &body,
        &[("rIdNum", "numbering", "numbering.xml"), ("rIdNotes", "footnotes", "footnotes.xml"), ("rIdImg", "image", "media/image1.png")],
        &[
            ("word/numbering.xml", numbering.as_bytes()),
            ("word/footnotes.xml", footnotes.as_bytes()),
            ("word/media/image1.png", &image),
            ("docProps/core.xml", CORE.as_bytes()),
        ],
    );
    #[rustfmt::skip]
    let roles = vec![
        "Document",
        "TOC", "TOCI", "Link",
        "H1",
        "P", "Note", "P",
        "L", "LI", "Lbl", "LBody", "L", "LI", "Lbl", "LBody", "LI", "Lbl", "LBody",
        "Table", "THead", "TR", "TH", "P", "TH", "P", "TBody", "TR", "TD", "P", "TD", "P",
        "P", "Figure",
        "P", "Link",
    ];
    (bytes, roles)
}

/// Everything the default output promises, on `pdf` converted from [`sample`].
fn assert_tagged(pdf: &[u8], roles: &[&str]) {
    let Some(found) = check(pdf) else { return };
    assert_eq!(found["errors"], Value::Array(Vec::new()), "pdfua errors");
    let got: Vec<&str> = found["roles"].as_array().unwrap().iter().map(|r| r.as_str().unwrap()).collect();
    assert_eq!(got, roles, "structure in reading order");
    assert_eq!(found["alts"], serde_json::json!(["A red square"]));
    // The 40 × 30 pt picture sits at the left margin (72 pt).
    let bbox: Vec<f64> = found["figure_bbox"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
    assert!((bbox[0] - 72.0).abs() < 0.01 && (bbox[2] - bbox[0] - 40.0).abs() < 0.01 && (bbox[3] - bbox[1] - 30.0).abs() < 0.01, "{bbox:?}");
    assert_eq!(found["scopes"], serde_json::json!(["/Column", "/Column"]));
    assert_eq!(found["objr"], serde_json::json!(["/Link", "/Link"]), "each Link element owns its annotation");
    assert_eq!(found["annots"], serde_json::json!(["Introduction", "the introduction"]));
    assert_eq!(found["marked"], Value::Bool(true));
    assert_eq!(found["lang"], "en-US");
    assert_eq!(found["display_doc_title"], Value::Bool(true));
    for page in found["mcids"].as_array().unwrap() {
        assert_eq!(page, &serde_json::json!([true, true]), "MCIDs count up from 0 and the parent tree has one entry each");
    }
    // One page: key 0, then the two annotations' keys.
    assert_eq!(found["tree_keys"], serde_json::json!([0, 1, 2]));
    assert_eq!(found["next_key"], 3);
    assert_eq!(found["xmp_title"], "Field report");
    assert_eq!(found["info_title"], "Field report");
    assert_eq!(found["xmp_creator"], "['Ada Lovelace']");
    assert!(found["xmp_created"].as_str().unwrap().starts_with("2024-03-01T09:30:00"), "{}", found["xmp_created"]);
    assert_eq!(found["info_created"], "D:20240301093000+00'00");
}

#[test]
fn the_cli_writes_a_tagged_pdf_that_passes_pdfua() {
    let (bytes, roles) = sample();
    assert_tagged(&convert_cli(&bytes, &[]), &roles);
}

#[actix_web::test]
async fn the_api_returns_a_tagged_pdf_that_passes_pdfua() {
    let (bytes, roles) = sample();
    let svc = TestService::start(Settings::default()).await;
    let key = svc.account("tagged", Plan::Paid, 100).await;
    let app = test::init_service(create_app(svc.state.clone())).await;
    let res = test::call_service(&app, convert_request(&key, multipart("file", &bytes))).await;
    assert_eq!(res.status(), 200);
    let pdf = test::read_body(res).await;
    assert_tagged(&pdf, &roles);
}

// ---- PDF/UA and PDF/A on request ----

/// Reads the PDF/A clauses we implement with pikepdf; prints one JSON object.
const PDFA_CHECK: &str = r#"
import hashlib, json, sys
import pikepdf
pdf = pikepdf.open(sys.argv[1])
root = pdf.Root
out = {"header": open(sys.argv[1], "rb").read(8).decode("latin-1")}
out["intents"] = [
    [str(i.S), str(i.OutputConditionIdentifier), int(i.DestOutputProfile.N), hashlib.sha256(i.DestOutputProfile.read_bytes()).hexdigest()]
    for i in root.get("/OutputIntents", [])
]
meta = pdf.open_metadata()
out["pdfaid"] = [str(meta.get("pdfaid:part", "")), str(meta.get("pdfaid:conformance", ""))]
out["pdfuaid"] = str(meta.get("pdfuaid:part", ""))
out["xmp_title"] = str(meta.get("dc:title", ""))
out["xmp_producer"] = str(meta.get("pdf:Producer", ""))
out["info_title"] = str(pdf.docinfo.get("/Title", ""))
out["info_producer"] = str(pdf.docinfo.get("/Producer", ""))
out["metadata_filtered"] = "/Filter" in root.Metadata
ids = pdf.trailer.get("/ID")
out["ids"] = [bytes(i).hex() for i in ids] if ids is not None else []
flags, fonts, unembedded, smasks, forbidden, cidsets = [], 0, 0, 0, [], []
def glyph_count(program):
    import struct
    tables = struct.unpack(">H", program[4:6])[0]
    for i in range(tables):
        tag, _, offset, _ = struct.unpack(">4sIII", program[12 + 16 * i:28 + 16 * i])
        if tag == b"maxp":
            return struct.unpack(">H", program[offset + 4:offset + 6])[0]
for key in ("/AA", "/OpenAction"):
    if key in root:
        forbidden.append("catalog " + key)
if "/Names" in root:
    for key in ("/JavaScript", "/EmbeddedFiles"):
        if key in root.Names:
            forbidden.append("names " + key)
for page in pdf.pages:
    if "/AA" in page.obj:
        forbidden.append("page /AA")
    if "/Group" in page.obj:
        forbidden.append("page /Group")
    for a in page.obj.get("/Annots", []):
        flags.append(int(a.get("/F", 0)))
        if "/A" in a and str(a.A.get("/S")) in ("/Launch", "/JavaScript"):
            forbidden.append("annotation action " + str(a.A.S))
    res = page.obj.Resources
    for name, font in res.get("/Font", {}).items():
        fonts += 1
        cid = font.DescendantFonts[0]
        fd = cid.FontDescriptor
        if not any(k in fd for k in ("/FontFile", "/FontFile2", "/FontFile3")) or "/W" not in cid:
            unembedded += 1
        if "/CIDSet" in fd:
            bits = sum(bin(b).count("1") for b in fd.CIDSet.read_bytes())
            cidsets.append(bits == glyph_count(fd.FontFile2.read_bytes()))
    for name, x in res.get("/XObject", {}).items():
        if "/SMask" in x:
            smasks += 1
        if "first_pixel" not in out:
            out["first_pixel"] = list(pikepdf.PdfImage(x).read_bytes()[:3])
    for name, gs in res.get("/ExtGState", {}).items():
        if "/SMask" in gs or float(gs.get("/CA", 1)) < 1 or float(gs.get("/ca", 1)) < 1:
            forbidden.append("transparent ExtGState")
out.update(flags=flags, fonts=fonts, unembedded=unembedded, smasks=smasks, forbidden=forbidden, cidsets=cidsets)
print(json.dumps(out))
"#;

/// The SHA-256 of the shipped sRGB profile, as the checker prints it.
fn profile_digest() -> String {
    use sha2::{Digest, Sha256};
    let profile = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/docx2pdf-render/assets/sRGB.icc")).unwrap();
    Sha256::digest(&profile).iter().map(|b| format!("{b:02x}")).collect()
}

/// The clauses of PDF/A level `part`-B we implement, checked one by one.
fn assert_pdfa(pdf: &[u8], part: &str, pdfua: bool) -> Option<Value> {
    let found = common::python::run_on_pdf(PDFA_CHECK, pdf)?;
    // §6.2.3: one sRGB output intent whose profile is the shipped one.
    assert_eq!(found["intents"], serde_json::json!([["/GTS_PDFA1", "sRGB IEC61966-2.1", 3, profile_digest()]]));
    // §6.6.4: the identification schema; §6.6.2.1: XMP agrees with Info and is not filtered.
    assert_eq!(found["pdfaid"], serde_json::json!([part, "B"]));
    assert_eq!(found["pdfuaid"], if pdfua { "1" } else { "" });
    assert_eq!(found["xmp_title"], found["info_title"]);
    assert_eq!(found["xmp_producer"], "docx2pdf");
    assert_eq!(found["info_producer"], "docx2pdf");
    assert_eq!(found["metadata_filtered"], Value::Bool(false));
    // §6.1.3: a file identifier of two 16-byte strings.
    let ids = found["ids"].as_array().unwrap();
    assert!(ids.len() == 2 && ids.iter().all(|i| i.as_str().unwrap().len() == 32), "{ids:?}");
    // §6.3: every annotation printable (and nothing hidden).
    assert!(found["flags"].as_array().unwrap().iter().all(|f| f == 4), "{}", found["flags"]);
    // §6.2.11: every font embedded with its widths.
    assert_eq!(found["unembedded"], 0);
    // §6.1.10, §6.6.1: no actions, scripts or embedded files.
    assert_eq!(found["forbidden"], serde_json::json!([]));
    Some(found)
}

#[test]
fn pdfa_2b_with_pdfua_from_the_cli_meets_the_clauses_and_stays_reproducible() {
    let (bytes, roles) = sample();
    let pdf = convert_cli(&bytes, &["--pdfua", "--pdfa", "PDF/A-2b"]);
    assert_eq!(pdf, convert_cli(&bytes, &["--pdfua", "--pdfa", "PDF/A-2b"]), "same bytes every time");
    if let Some(found) = assert_pdfa(&pdf, "2", true) {
        assert!(found["header"].as_str().unwrap().starts_with("%PDF-1.7"));
        assert!(found["fonts"].as_u64().unwrap() > 0, "the fonts were looked at");
    }
    assert_tagged(&pdf, &roles);
    let plain = convert_cli(&bytes, &[]);
    assert!(!String::from_utf8_lossy(&plain).contains("GTS_PDFA1"), "no output intent unless asked");
}

/// A document with one half-transparent red picture and a caption.
fn transparent_picture() -> Vec<u8> {
    let samples: Vec<u8> = (0..4 * 3).flat_map(|_| [255, 0, 0, 128]).collect();
    let image = common::docx::png_of(4, 3, png::ColorType::Rgba, &samples);
    let picture = inline_picture(40, 30).replace(r#"name="Picture 1"/>"#, r#"name="Picture 1" descr="A red square"/>"#);
    let body = format!("<w:p><w:r>{picture}</w:r></w:p><w:p>{}</w:p>", run("A red square over white."));
    docx_with_files(&body, &[("rIdImg", "image", "media/image1.png")], &[("word/media/image1.png", &image)])
}

#[test]
fn pdfa_1b_paints_transparent_pictures_over_white_without_a_soft_mask() {
    let bytes = transparent_picture();
    let Some(one) = assert_pdfa(&convert_cli(&bytes, &["--pdfa", "PDF/A-1b"]), "1", false) else { return };
    assert_eq!(one["smasks"], 0, "ISO 19005-1 §6.4: no soft masks");
    // §6.3.5: each subset CIDFont says which CIDs it holds, all of its glyphs.
    assert_eq!(one["cidsets"], serde_json::json!([true]));
    let two = assert_pdfa(&convert_cli(&bytes, &["--pdfa", "PDF/A-3b"]), "3", false).unwrap();
    assert_eq!(two["smasks"], 1, "parts 2 and 3 keep the transparency");
    assert_eq!(two["cidsets"], serde_json::json!([]), "optional from part 2 on");
    // Half-transparent red over white is pink in the picture's own samples.
    assert_eq!(one["first_pixel"], serde_json::json!([255, 127, 127]));
    assert_eq!(two["first_pixel"], serde_json::json!([255, 0, 0]));
}

/// A multipart body with the file and text fields.
#[actix_web::test]
async fn the_api_takes_pdfua_and_pdfa_fields_and_refuses_other_values_for_free() {
    let svc = TestService::start(Settings::default()).await;
    let key = svc.account("tagged", Plan::Paid, 100).await;
    let app = test::init_service(create_app(svc.state.clone())).await;
    let post = |body: Vec<u8>| convert_request(&key, body);
    let (bytes, _) = sample();
    for fields in [[("pdfa", "PDF/A-4")], [("pdfa", "2b")], [("pdfua", "yes")]] {
        let res = test::call_service(&app, post(form(&bytes, &fields))).await;
        assert_eq!(res.status(), 400, "{fields:?}");
        let body: Value = serde_json::from_slice(&test::read_body(res).await).unwrap();
        assert_eq!(body["code"], "invalid_option");
        assert_eq!(body["error"], body["message"]);
        assert!(body["error"].as_str().unwrap().contains(fields[0].0), "{body}");
    }
    let used = |svc: &TestService| {
        let db = svc.db.clone();
        async move {
            use sea_orm::EntityTrait;
            entity::ledger_entry::Entity::find().all(&db).await.unwrap().iter().map(|e| e.credits).sum::<i64>()
        }
    };
    assert_eq!(used(&svc).await, 0, "a refused option costs nothing");

    // A picture without alternative text: converted anyway, and the header says why it is
    // not PDF/UA (the upload's name, document.docx, gives the title).
    let no_alt = docx_with_files(
        &format!("<w:p><w:r>{}</w:r></w:p>", inline_picture(40, 30)),
        &[("rIdImg", "image", "media/image1.png")],
        &[("word/media/image1.png", &png(4, 3))],
    );
    let res = test::call_service(&app, post(form(&no_alt, &[("pdfua", "true"), ("pdfa", "PDF/A-2b")]))).await;
    assert_eq!(res.status(), 200);
    let warnings = common::conformance_warnings(res.headers());
    assert_eq!(warnings.as_deref(), Some("pdfua_figure_without_alt"));
    let pdf = test::read_body(res).await;
    assert_pdfa(&pdf, "2", true);

    // The sample has a title and alternative text: nothing to warn about.
    let res = test::call_service(&app, post(form(&bytes, &[("pdfua", "true")]))).await;
    assert_eq!(res.status(), 200);
    assert!(common::conformance_warnings(res.headers()).is_none());
    // Without the fields, nothing to say about conformance either.
    let res = test::call_service(&app, post(form(&no_alt, &[]))).await;
    assert!(common::conformance_warnings(res.headers()).is_none());
}

// ---- the PDF/UA title (ISO 14289-1 §7.1) ----

/// Reads the title back with pikepdf and what pdfua says about it; prints one JSON object.
const TITLE_CHECK: &str = r#"
import json, subprocess, sys
import pikepdf
path = sys.argv[1]
run = subprocess.run([sys.executable, "-m", "pdfua", "check", "--format", "json", path], capture_output=True, text=True)
report = json.loads(run.stdout)
out = {"title_findings": [f["rule_id"] + ": " + f["message"] for f in report["findings"]
                          if f["rule_id"] in ("UA-07-001", "UA-07-002") or "title" in f["message"].lower()]}
pdf = pikepdf.open(path)
root = pdf.Root
out["info_title"] = str(pdf.docinfo.get("/Title", ""))
out["xmp_title"] = str(pdf.open_metadata().get("dc:title", ""))
out["display_doc_title"] = bool(root.ViewerPreferences.DisplayDocTitle) if "/ViewerPreferences" in root else False
print(json.dumps(out))
"#;

/// `pdf` carries `title` in /Info and in XMP `dc:title`, asks viewers to show it, and
/// pdfua finds nothing to say about its title.
fn assert_titled(pdf: &[u8], title: &str) {
    assert!(String::from_utf8_lossy(pdf).contains("/DisplayDocTitle true"), "the title bar shows the title");
    let Some(found) = common::python::run_on_pdf(TITLE_CHECK, pdf) else { return };
    assert_eq!(found["info_title"], title);
    assert_eq!(found["xmp_title"], title);
    assert_eq!(found["display_doc_title"], Value::Bool(true));
    assert_eq!(found["title_findings"], serde_json::json!([]));
}

/// Word's Title style, beside the blank document's Normal, Heading 1 and TOC 1.
fn title_styles() -> String {
    WORD_STYLES.replace(
        "</w:styles>",
        r#"<w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/><w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:pPr><w:spacing w:after="0"/><w:contextualSpacing/></w:pPr><w:rPr><w:sz w:val="56"/></w:rPr></w:style></w:styles>"#,
    )
}

fn styled(style: &str, runs: &str) -> String {
    format!(r#"<w:p><w:pPr><w:pStyle w:val="{style}"/></w:pPr>{runs}</w:p>"#)
}

/// No title in the properties (no `docProps/core.xml` at all): under PDF/UA the Title
/// paragraph's text is the title, the words either side of its line break kept apart;
/// without PDF/UA the PDF stays as Word would write it, without one.
#[test]
fn pdfua_takes_a_missing_title_from_the_title_paragraph() {
    let body = [
        styled("Title", &format!("{}<w:r><w:br/></w:r>{}", run("Harvest & yield"), run("2024"))),
        styled("Heading1", &run("Method")),
        format!("<w:p>{}</w:p>", run("Wheat was sown in March.")),
    ]
    .concat();
    let bytes = docx_styled_with_files(&body, &title_styles(), &[], &[]);
    assert_titled(&convert_cli(&bytes, &["--pdfua"]), "Harvest & yield 2024");
    let plain = String::from_utf8_lossy(&convert_cli(&bytes, &[])).into_owned();
    assert!(!plain.contains("/DisplayDocTitle") && !plain.contains("dc:title"), "only under PDF/UA");
}

/// Without a Title paragraph, the first heading (the first H1–H6 element) gives the title.
#[test]
fn pdfua_takes_a_missing_title_from_the_first_heading() {
    let body = [
        format!("<w:p>{}</w:p>", run("Notes from the field.")),
        styled("Heading1", &run("Method")),
        styled("Heading1", &run("Results")),
    ]
    .concat();
    let bytes = docx_styled_with_files(&body, &title_styles(), &[], &[]);
    assert_titled(&convert_cli(&bytes, &["--pdfua"]), "Method");
}

/// Without a Title paragraph or a heading, the uploaded file's name without its folder or
/// extension gives the title; without a file name either, the response says there is none.
#[actix_web::test]
async fn pdfua_takes_a_missing_title_from_the_uploaded_file_name() {
    let svc = TestService::start(Settings::default()).await;
    let key = svc.account("titles", Plan::Paid, 100).await;
    let app = test::init_service(create_app(svc.state.clone())).await;
    let post = |body: Vec<u8>| convert_request(&key, body);
    let bytes = common::docx::docx(&format!("<w:p>{}</w:p>", run("Wheat was sown in March.")));
    let res = test::call_service(&app, post(form_named(&bytes, Some("/home/ada/Q3 field report.docx"), &[("pdfua", "true")]))).await;
    assert_eq!(res.status(), 200);
    assert!(common::conformance_warnings(res.headers()).is_none());
    let pdf = test::read_body(res).await;
    assert!(!String::from_utf8_lossy(&pdf).contains("/home/ada"), "never the folder");
    assert_titled(&pdf, "Q3 field report");

    let res = test::call_service(&app, post(form_named(&bytes, None, &[("pdfua", "true")]))).await;
    assert_eq!(res.status(), 200);
    let warnings = common::conformance_warnings(res.headers());
    assert_eq!(warnings.as_deref(), Some("pdfua_no_title"));
    let pdf = test::read_body(res).await;
    assert!(!String::from_utf8_lossy(&pdf).contains("/DisplayDocTitle"));
}

/// Each line of the first page as PyMuPDF reads it: its text in the order the content
/// stream writes it, and the fonts of its spans.
const LINES: &str = r#"
import json, sys
import pymupdf
page = pymupdf.open(sys.argv[1])[0]
lines = [{"text": "".join(s["text"] for s in l["spans"]).strip(), "fonts": sorted({s["font"] for s in l["spans"]})}
         for b in page.get_text("dict")["blocks"] for l in b.get("lines", [])]
print(json.dumps([l for l in lines if l["text"]]))
"#;

/// Right-to-left text is written in reading order, as Word's PDFs write it: its first word
/// first, each word from its first letter, so text extraction and assistive technology
/// read the Persian line as typed (ISO 14289-1 §7.2). The spaces between the words stay in
/// the face that sets the letters when the run's font (B Nazanin, not installed) lacks
/// them, so the line is one span of text.
#[test]
fn right_to_left_lines_are_written_in_reading_order_in_one_face() {
    let line = "به نام خداوند بخشنده و مهربان";
    let body = format!(
        r#"<w:p><w:pPr><w:bidi/><w:jc w:val="center"/></w:pPr><w:r><w:rPr><w:rFonts w:cs="B Nazanin"/><w:rtl/><w:lang w:bidi="fa-IR"/></w:rPr><w:t>{line}</w:t></w:r></w:p>"#
    );
    let pdf = convert_cli(&common::docx::docx(&body), &[]);
    let Some(found) = common::python::run_on_pdf(LINES, &pdf) else { return };
    let lines = found.as_array().expect("lines");
    assert_eq!(lines.len(), 1, "{found}");
    assert_eq!(lines[0]["text"], line, "{found}");
    assert_eq!(lines[0]["fonts"].as_array().map(Vec::len), Some(1), "{found}");
}
