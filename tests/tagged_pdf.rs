//! Tagged PDF on documents the tests build: the CLI's and the HTTP API's default output
//! pass the `pdfua` checker with no error, and pikepdf finds the structure the document
//! implies (headings, nested lists, a header row, a figure's alternative text, links, a
//! footnote, a table of contents) in reading order.

mod common;

use std::process::Command;

use actix_web::test::{self, TestRequest};
use common::docx::{docx_with_files, escape, inline_picture, png};
use common::{multipart, multipart_type, Settings, TestService};
use docx2pdf::db::accounts::Plan;
use docx2pdf::http::create_app;
use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_docx2pdf");

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

/// The checker's findings on `pdf`, or `None` (with a message) when its Python tools are
/// not installed; under CI a missing tool fails the test.
fn check(pdf: &[u8]) -> Option<Value> {
    let ci = std::env::var("CI").is_ok_and(|v| v == "true");
    let Ok(python) = std::env::var("DOCX2PDF_TEST_PYTHON") else {
        assert!(!ci, "DOCX2PDF_TEST_PYTHON is not set (.ci/run sets it)");
        eprintln!("skipped: DOCX2PDF_TEST_PYTHON is not set, so pdfua and pikepdf cannot run");
        return None;
    };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.pdf");
    std::fs::write(&path, pdf).unwrap();
    let out = Command::new(&python).arg("-c").arg(CHECK).arg(&path).output().expect("run the test python");
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() && stderr.contains("No module named") {
        assert!(!ci, "pdfua or pikepdf missing: {stderr}");
        eprintln!("skipped: {stderr}");
        return None;
    }
    assert!(out.status.success(), "checker failed: {stderr}");
    Some(serde_json::from_slice(&out.stdout).expect("checker JSON"))
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
fn sample() -> (Vec<u8>, Vec<&'static str>) {
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
    let dir = tempfile::tempdir().unwrap();
    let (input, output) = (dir.path().join("in.docx"), dir.path().join("out.pdf"));
    std::fs::write(&input, &bytes).unwrap();
    let out = Command::new(BIN).arg("convert").arg(&input).arg(&output).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_tagged(&std::fs::read(&output).unwrap(), &roles);
}

#[actix_web::test]
async fn the_api_returns_a_tagged_pdf_that_passes_pdfua() {
    let (bytes, roles) = sample();
    let svc = TestService::start(Settings::default()).await;
    let key = svc.account("tagged", Plan::Paid, 100).await;
    let app = test::init_service(create_app(svc.state.clone())).await;
    let req = TestRequest::post()
        .uri("/api/convert")
        .insert_header(("Content-Type", multipart_type()))
        .insert_header(("Authorization", format!("Bearer {key}")))
        .set_payload(multipart("file", &bytes));
    let res = test::call_service(&app, req.to_request()).await;
    assert_eq!(res.status(), 200);
    let pdf = test::read_body(res).await;
    assert_tagged(&pdf, &roles);
}
