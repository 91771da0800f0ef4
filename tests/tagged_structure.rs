//! The structure tree as Word's own PDFs build it, on documents the tests make: every
//! table a Table (a header-less one continued on a new page is a new Table there), a
//! styled first column as row headers, a numbered heading a heading, every paragraph of a
//! TOC field an entry, cross-references with `\h` as links, a drawn shape without text a
//! Figure with the drawing's alternative text, and words in another language a Span with
//! its /Lang.

mod common;

use actix_web::test::{self, TestRequest};
use common::docx::{docx_styled_with_files, escape, WORD_STYLES};
use common::{convert_cli, form, multipart_type, Settings, TestService};
use docx2pdf::db::accounts::Plan;
use docx2pdf::http::create_app;
use serde_json::{json, Value};

const NS: &str = r#"xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main""#;

/// The structure elements in reading order (Spans left out), with figures' /Alt and
/// /BBox, TH scopes, the link annotations' /Contents and the pdfua errors by rule.
const CHECK: &str = r#"
import json, subprocess, sys
import pikepdf
path = sys.argv[1]
run = subprocess.run([sys.executable, "-m", "pdfua", "check", "--format", "json", path], capture_output=True, text=True)
report = json.loads(run.stdout)
out = {"errors": sorted({f["rule_id"] for f in report["findings"] if f["severity"] == "error"})}
pdf = pikepdf.open(path)
roles, alts, boxes, scopes, spans = [], [], [], [], []
def walk(e):
    if isinstance(e, pikepdf.Array):
        for k in e:
            walk(k)
        return
    if not isinstance(e, pikepdf.Dictionary) or "/S" not in e:
        return
    s = str(e.S)[1:]
    if s == "Span":
        spans.append(str(e.get("/Lang", "")))
    else:
        roles.append(s)
    if s == "Figure":
        alts.append(str(e.get("/Alt", "")))
        boxes.append([round(float(v), 1) for v in e.A.BBox] if "/A" in e else [])
    if s == "TH":
        scopes.append(str(e.A.get("/Scope", "")) if "/A" in e else "")
    if "/K" in e:
        walk(e.K)
walk(pdf.Root.StructTreeRoot.K)
out.update(roles=roles, alts=alts, boxes=boxes, scopes=scopes, spans=spans, pages=len(pdf.pages), lang=str(pdf.Root.Lang))
out["annots"] = [str(a.get("/Contents", "")) for p in pdf.pages for a in p.get("/Annots", [])]
print(json.dumps(out))
"#;

/// Word's blank styles with a table style whose first column is formatted (like Word's
/// "Grid Table 4"), a numbered heading style, and the numbering they use.
fn styles() -> String {
    WORD_STYLES.replace(
        "</w:styles>",
        r#"<w:style w:type="table" w:styleId="GridTable4"><w:name w:val="Grid Table 4"/><w:tblPr><w:tblBorders><w:insideH w:val="single" w:sz="4" w:color="000000"/></w:tblBorders></w:tblPr><w:tblStylePr w:type="firstCol"><w:rPr><w:b/></w:rPr></w:tblStylePr></w:style></w:styles>"#,
    )
}

fn numbering() -> String {
    format!(
        r#"<w:numbering {NS}><w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/><w:lvlJc w:val="left"/></w:lvl></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>"#
    )
}

fn run(text: &str) -> String {
    format!(r#"<w:r><w:t xml:space="preserve">{}</w:t></w:r>"#, escape(text))
}

/// A complex field: `instruction`, then `result` runs.
fn field(instruction: &str, result: &str) -> String {
    format!(
        r#"<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> {instruction} </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>{result}<w:r><w:fldChar w:fldCharType="end"/></w:r>"#
    )
}

/// A TOC entry as Word writes it: a hyperlink to the heading's bookmark holding the text,
/// a tab and a PAGEREF with `\h`.
fn toc_entry(bookmark: &str, text: &str) -> String {
    format!(
        r#"<w:hyperlink w:anchor="{bookmark}">{}<w:r><w:tab/></w:r>{}</w:hyperlink>"#,
        run(text),
        field(&format!(r"PAGEREF {bookmark} \h"), &run("1"))
    )
}

fn cell(text: &str) -> String {
    format!(r#"<w:tc><w:tcPr><w:tcW w:w="3000" w:type="dxa"/></w:tcPr><w:p>{}</w:p></w:tc>"#, run(text))
}

fn table(style: &str, look: &str, rows: &[[&str; 2]]) -> String {
    let rows: String = rows.iter().map(|r| format!("<w:tr>{}{}</w:tr>", cell(r[0]), cell(r[1]))).collect();
    format!(
        r#"<w:tbl><w:tblPr>{style}<w:tblW w:w="6000" w:type="dxa"/>{look}</w:tblPr><w:tblGrid><w:gridCol w:w="3000"/><w:gridCol w:w="3000"/></w:tblGrid>{rows}</w:tbl>"#
    )
}

/// A floating rectangle (`wps:wsp`) with a fill and no text (its text box holds one empty
/// paragraph, as Word writes it), 100 × 50 pt at (100, 400) pt on the page, and the
/// alternative text `alt`.
fn rectangle(alt: &str) -> String {
    format!(
        r#"<w:r><w:drawing><wp:anchor xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" behindDoc="0" distT="0" distB="0" distL="0" distR="0" simplePos="0" relativeHeight="1" locked="0" layoutInCell="1" allowOverlap="1"><wp:simplePos x="0" y="0"/><wp:positionH relativeFrom="page"><wp:posOffset>1270000</wp:posOffset></wp:positionH><wp:positionV relativeFrom="page"><wp:posOffset>5080000</wp:posOffset></wp:positionV><wp:extent cx="1270000" cy="635000"/><wp:wrapNone/><wp:docPr id="7" name="Rectangle 7" descr="{alt}"/><a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:wsp xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:cNvSpPr/><wps:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="1270000" cy="635000"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom><a:solidFill><a:srgbClr val="4472C4"/></a:solidFill></wps:spPr><wps:txbx><w:txbxContent><w:p><w:pPr><w:spacing w:after="0"/></w:pPr></w:p></w:txbxContent></wps:txbx><wps:bodyPr/></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></w:r>"#
    )
}

const SECTION: &str = r#"<w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr>"#;

/// The document, and the structure it implies up to its long table.
fn document() -> (Vec<u8>, Vec<&'static str>) {
    let heading = |bookmark: &str, text: &str| {
        format!(
            r#"<w:p><w:pPr><w:pStyle w:val="Heading1"/><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr><w:bookmarkStart w:id="0" w:name="{bookmark}"/>{}<w:bookmarkEnd w:id="0"/></w:p>"#,
            run(text)
        )
    };
    let long: Vec<[&str; 2]> = (0..40).map(|_| ["Sample", "Reading"]).collect();
    let body = [
        // The TOC field's result: two entries with a Normal paragraph between them, all
        // three the TOC's items; the field ends in the last entry.
        format!(
            r#"<w:p><w:pPr><w:pStyle w:val="TOC1"/></w:pPr><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> TOC \o "1-3" \h \z \u </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>{}</w:p>"#,
            toc_entry("_Toc1", "Method")
        ),
        format!("<w:p>{}</w:p>", run("Part one")),
        format!(
            r#"<w:p><w:pPr><w:pStyle w:val="TOC1"/></w:pPr>{}<w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>"#,
            toc_entry("_Toc2", "Results")
        ),
        heading("_Toc1", "Method"),
        // Cross-references with `\h` (a simple and a complex field) link to their bookmark.
        format!(
            r#"<w:p>{}<w:fldSimple w:instr=" REF _Toc2 \h ">{}</w:fldSimple>{}{}</w:p>"#,
            run("See "),
            run("Results"),
            run(" on page "),
            field(r"PAGEREF _Toc2 \h", &run("1"))
        ),
        // Words in other languages: French by `w:val`, Arabic by `w:bidi` on a
        // right-to-left run; English as the document is, and in a link, gives no Span.
        format!(
            r#"<w:p>{}<w:r><w:rPr><w:lang w:val="fr-FR"/></w:rPr><w:t>bonjour</w:t></w:r>{}<w:r><w:rPr><w:rtl/><w:lang w:bidi="ar-SA"/></w:rPr><w:t>مرحبا</w:t></w:r><w:r><w:rPr><w:lang w:val="EN-us"/></w:rPr><w:t> again.</w:t></w:r></w:p>"#,
            run("They say "),
            run(" and ")
        ),
        table(r#"<w:tblStyle w:val="GridTable4"/>"#, r#"<w:tblLook w:val="0080" w:firstRow="0" w:firstColumn="1"/>"#, &[["Crop", "Wheat"], ["Yield", "7.1"]]),
        format!("<w:p>{}</w:p>", rectangle("A blue box")),
        heading("_Toc2", "Results"),
        table("", "", &long),
        SECTION.to_owned(),
    ]
    .concat();
    let numbering = numbering();
    let bytes = docx_styled_with_files(&body, &styles(), &[("rIdNum", "numbering", "numbering.xml")], &[("word/numbering.xml", numbering.as_bytes())]);
    #[rustfmt::skip]
    let roles = vec![
        "Document",
        "TOC", "TOCI", "Link", "Link", "TOCI", "TOCI", "Link", "Link",
        "H1",
        "P", "Link", "Link",
        "P",
        "Table", "TBody", "TR", "TH", "P", "TD", "P", "TR", "TH", "P", "TD", "P",
        "Figure",
        "H1",
        "Table", "TBody",
    ];
    (bytes, roles)
}

fn check(pdf: &[u8]) -> Option<Value> {
    common::python::run_on_pdf(CHECK, pdf)
}

#[test]
fn the_structure_follows_words_pdfs() {
    let (bytes, roles) = document();
    let Some(found) = check(&convert_cli(&bytes, &[])) else { return };
    let got: Vec<&str> = found["roles"].as_array().unwrap().iter().map(|r| r.as_str().unwrap()).collect();
    assert_eq!(&got[..roles.len()], roles.as_slice(), "structure in reading order: {got:?}");
    // The numbered headings are headings, not list items.
    assert!(!got.contains(&"LI") && !got.contains(&"L"), "{got:?}");
    // The 40-row table without headers starts on the first page and runs onto the next:
    // a Table on each page, its rows each in one of them.
    let pages = found["pages"].as_u64().unwrap() as usize;
    assert!(pages >= 2, "{pages} pages");
    assert_eq!(got.iter().filter(|r| **r == "Table").count(), 1 + pages, "{got:?}");
    assert_eq!(got.iter().filter(|r| **r == "TR").count(), 2 + 40);
    assert_eq!(got.iter().filter(|r| **r == "TH").count(), 2, "only the styled first column heads rows");
    assert_eq!(found["scopes"], json!(["/Row", "/Row"]));
    // The document is in English; the French and Arabic words are Spans with their own.
    assert_eq!(found["lang"], "en-US");
    assert_eq!(found["spans"], json!(["fr-FR", "ar-SA"]));
    // The shape is a Figure with its alternative text and its box on the page.
    assert_eq!(found["alts"], json!(["A blue box"]));
    assert_eq!(found["boxes"], json!([[100.0, 342.0, 200.0, 392.0]]));
    // Six links: the two entries' text and page numbers, REF and PAGEREF.
    assert_eq!(found["annots"], json!(["Method", "1", "Results", "1", "Results", "1"]));
    // pdfua's one objection is its table rule: the long table names no header cell (ISO
    // 14289-1 §7.5 asks for them only where the document has them).
    assert_eq!(found["errors"], json!(["UA-15-003"]));
}

#[actix_web::test]
async fn a_pdfua_request_names_the_tables_without_headers() {
    let (bytes, _) = document();
    let svc = TestService::start(Settings::default()).await;
    let key = svc.account("tables", Plan::Paid, 100).await;
    let app = test::init_service(create_app(svc.state.clone())).await;
    let body = form(&bytes, &[("pdfua", "true")]);
    let req = TestRequest::post()
        .uri("/api/convert")
        .insert_header(("Content-Type", multipart_type()))
        .insert_header(("Authorization", format!("Bearer {key}")))
        .set_payload(body);
    let res = test::call_service(&app, req.to_request()).await;
    assert_eq!(res.status(), 200);
    let warnings = common::conformance_warnings(res.headers());
    // The first heading gives the title the properties lack (ISO 14289-1 §7.1).
    assert_eq!(warnings.as_deref(), Some("pdfua_table_without_headers"));
}
