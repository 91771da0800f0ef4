//! Documents from templates (docs/templates.md): DOCX templates built here, with content
//! controls (§17.5.2) and MERGEFIELD fields (§17.16.5.35), filled with JSON through the
//! library, `POST /api/convert`'s `data` field and `docx2pdf convert --data`, then read
//! back with pdftotext and pikepdf.

mod common;

use std::time::{Duration, Instant};

use actix_web::test::{self};
use common::docx::{docx, escape};
use common::{convert_cli, convert_request, form, renderer, Settings, TestService};
use docx2pdf::db::accounts::Plan;
use docx2pdf::http::create_app;
use docx2pdf::pdf::PdfOptions;
use docx2pdf::render::{convert_filled, Deadline, Rendered};
use docx2pdf_render::TemplateData;
use serde_json::{json, Value};

const W14: &str = "http://schemas.microsoft.com/office/word/2010/wordml";
const W15: &str = "http://schemas.microsoft.com/office/word/2012/wordml";

/// Word's placeholder run in a control that shows it.
fn placeholder() -> &'static str {
    r#"<w:r><w:rPr><w:rStyle w:val="PlaceholderText"/></w:rPr><w:t>Click or tap here to enter text.</w:t></w:r>"#
}

/// A plain text control inside a paragraph, tagged `tag`, showing its placeholder.
pub fn text_control(tag: &str) -> String {
    format!(r#"<w:sdt><w:sdtPr><w:alias w:val="{tag}"/><w:tag w:val="{tag}"/><w:showingPlcHdr/><w:text/></w:sdtPr><w:sdtContent>{}</w:sdtContent></w:sdt>"#, placeholder())
}

/// A rich text control around a paragraph (block level), tagged `tag`.
fn block_control(tag: &str, paragraphs: &str) -> String {
    format!(r#"<w:sdt><w:sdtPr><w:tag w:val="{tag}"/></w:sdtPr><w:sdtContent>{paragraphs}</w:sdtContent></w:sdt>"#)
}

/// A date picker tagged `tag` writing dates as `format` in `lang`.
fn date_control(tag: &str, format: &str, lang: &str) -> String {
    format!(
        r#"<w:sdt><w:sdtPr><w:tag w:val="{tag}"/><w:showingPlcHdr/><w:date><w:dateFormat w:val="{format}"/><w:lid w:val="{lang}"/><w:storeMappedDataAs w:val="dateTime"/><w:calendar w:val="gregorian"/></w:date></w:sdtPr><w:sdtContent>{}</w:sdtContent></w:sdt>"#,
        placeholder()
    )
}

/// A check box tagged `tag`, unchecked, with Word's default symbols.
fn checkbox(tag: &str) -> String {
    format!(
        r#"<w:sdt><w:sdtPr><w:tag w:val="{tag}"/><w14:checkbox xmlns:w14="{W14}"><w14:checked w14:val="0"/><w14:checkedState w14:val="2612" w14:font="MS Gothic"/><w14:uncheckedState w14:val="2610" w14:font="MS Gothic"/></w14:checkbox></w:sdtPr><w:sdtContent><w:r><w:rPr><w:rFonts w:ascii="MS Gothic" w:eastAsia="MS Gothic" w:hAnsi="MS Gothic" w:hint="eastAsia"/></w:rPr><w:t>☐</w:t></w:r></w:sdtContent></w:sdt>"#
    )
}

/// A drop-down list tagged `tag` of (display text, value) items.
fn dropdown(tag: &str, items: &[(&str, &str)]) -> String {
    let items: String = items.iter().map(|(d, v)| format!(r#"<w:listItem w:displayText="{d}" w:value="{v}"/>"#)).collect();
    format!(
        r#"<w:sdt><w:sdtPr><w:tag w:val="{tag}"/><w:showingPlcHdr/><w:dropDownList><w:listItem w:value=""/>{items}</w:dropDownList></w:sdtPr><w:sdtContent><w:r><w:rPr><w:rStyle w:val="PlaceholderText"/></w:rPr><w:t>Choose an item.</w:t></w:r></w:sdtContent></w:sdt>"#
    )
}

/// A repeating section tagged `tag` whose one item holds `paragraphs`.
fn repeating_section(tag: &str, paragraphs: &str) -> String {
    format!(
        r#"<w:sdt><w:sdtPr><w:tag w:val="{tag}"/><w15:repeatingSection xmlns:w15="{W15}"/></w:sdtPr><w:sdtContent><w:sdt><w:sdtPr><w15:repeatingSectionItem xmlns:w15="{W15}"/></w:sdtPr><w:sdtContent>{paragraphs}</w:sdtContent></w:sdt></w:sdtContent></w:sdt>"#
    )
}

/// A complex MERGEFIELD with `instr`, showing «name» as Word does before a merge.
fn merge_field(instr: &str, shown: &str) -> String {
    format!(
        r#"<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> {} </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:rPr><w:noProof/></w:rPr><w:t>«{}»</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>"#,
        escape(instr),
        escape(shown)
    )
}

fn run(text: &str) -> String {
    format!(r#"<w:r><w:t xml:space="preserve">{}</w:t></w:r>"#, escape(text))
}

fn cell(content: &str) -> String {
    format!(r#"<w:tc><w:tcPr><w:tcW w:w="3000" w:type="dxa"/></w:tcPr><w:p>{content}</w:p></w:tc>"#)
}

/// The invoice of docs/templates.md: number, date, customer, one table row per item (a
/// row-level repeating control), a total, a check box, a drop-down, a conditional
/// paragraph, a repeating section of contacts and a note.
pub fn invoice() -> Vec<u8> {
    let row = format!("<w:tr>{}{}{}</w:tr>", cell(&text_control("description")), cell(&text_control("qty")), cell(&merge_field(r##"MERGEFIELD amount \# "#,##0.00""##, "amount")));
    let table = format!(
        r#"<w:tbl><w:tblPr><w:tblW w:w="9000" w:type="dxa"/><w:tblBorders><w:insideH w:val="single" w:sz="4" w:color="000000"/></w:tblBorders></w:tblPr><w:tblGrid><w:gridCol w:w="3000"/><w:gridCol w:w="3000"/><w:gridCol w:w="3000"/></w:tblGrid><w:tr>{}{}{}</w:tr>{}</w:tbl>"#,
        cell(&run("Description")),
        cell(&run("Qty")),
        cell(&run("Amount")),
        block_control("items", &row)
    );
    let body = [
        format!("<w:p>{}{}</w:p>", run("Invoice "), text_control("invoice.number")),
        format!("<w:p>{}{}</w:p>", run("Date: "), date_control("date", "d MMMM yyyy", "en-US")),
        block_control("customer.name", &format!("<w:p>{}</w:p>", placeholder())),
        format!("<w:p>{}{}</w:p>", run("City: "), text_control("customer.address.city")),
        table,
        format!(r#"<w:p><w:fldSimple w:instr=" MERGEFIELD total \b &quot;Total: &quot; \# &quot;#,##0.00&quot; ">{}</w:fldSimple></w:p>"#, run("«total»")),
        format!("<w:p>{}{}</w:p>", run("Paid: "), checkbox("paid")),
        format!("<w:p>{}{}</w:p>", run("Terms: "), dropdown("terms", &[("Net 30", "n30"), ("Due on receipt", "now")])),
        block_control("early", &format!("<w:p>{}</w:p>", run("Thank you for paying early."))),
        repeating_section("contacts", &format!("<w:p>{}{}</w:p>", run("Contact: "), text_control("name"))),
        format!("<w:p>{}{}</w:p>", run("Note: "), text_control("note")),
        format!("<w:p>{}</w:p>", run("End of invoice.")),
    ]
    .concat();
    docx(&body)
}

/// The invoice's data.
pub fn invoice_data() -> Value {
    json!({
        "invoice": {"number": "INV-0042"},
        "date": "2026-03-03",
        "customer": {"name": "Ada Lovelace", "address": {"city": "London"}},
        "items": [
            {"description": "Analytical engine design", "qty": 2, "amount": 1234.5},
            {"description": "Punched cards", "qty": 500, "amount": 75}
        ],
        "total": 1309.5,
        "paid": true,
        "terms": "n30",
        "early": false,
        "contacts": [{"name": "Charles Babbage"}, {"name": "Mary Somerville"}],
        "note": "Bring the cards"
    })
}

fn data(value: Value) -> TemplateData {
    let Value::Object(map) = value else { panic!("an object") };
    TemplateData::new(map)
}

/// Converts `bytes` filled with `value` through the library's pipeline.
fn fill(bytes: &[u8], value: Value) -> Rendered {
    convert_filled(&renderer(), bytes, &Deadline::none(), PdfOptions::default(), Some(&data(value))).expect("a PDF")
}

/// The PDF's text as words, one string.
fn words(pdf: &[u8]) -> String {
    common::pdf::text(pdf).split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Asserts that `parts` appear in `text` in this order.
fn in_order(text: &str, parts: &[&str]) {
    let mut at = 0;
    for part in parts {
        match text[at..].find(part) {
            Some(i) => at += i + part.len(),
            None => panic!("{part:?} is missing or out of order in {text:?}"),
        }
    }
}

fn warnings(rendered: &Rendered) -> Vec<String> {
    docx2pdf_render::changes::summarize(&rendered.warnings).iter().map(ToString::to_string).filter(|w| w.starts_with("template_")).collect()
}

#[test]
fn the_invoice_is_filled_in_the_documents_order() {
    let rendered = fill(&invoice(), invoice_data());
    let text = words(&rendered.pdf);
    in_order(
        &text,
        &[
            "Invoice INV-0042",
            "Date: 3 March 2026",
            "Ada Lovelace",
            "City: London",
            "Description Qty Amount",
            "Analytical engine design 2 1,234.50",
            "Punched cards 500 75.00",
            "Total: 1,309.50",
            "Paid: ☒",
            "Terms: Net 30",
            "Contact: Charles Babbage",
            "Contact: Mary Somerville",
            "Note: Bring the cards",
            "End of invoice.",
        ],
    );
    // Placeholders, the merge fields' «names» and the conditional paragraph are gone.
    for gone in ["Click or tap", "Choose an item", "«", "Thank you for paying early", "☐"] {
        assert!(!text.contains(gone), "{gone:?} in {text:?}");
    }
    assert_eq!(warnings(&rendered), Vec::<String>::new(), "every key used, none missing");
}

#[test]
fn library_users_fill_through_options_data() {
    let data = TemplateData::parse(invoice_data().to_string().as_bytes()).unwrap();
    let options = docx2pdf_render::Options { data: Some(data), ..Default::default() };
    let converted = docx2pdf_render::convert(&invoice(), &options).unwrap();
    in_order(&words(&converted.pdf), &["Invoice INV-0042", "Punched cards 500 75.00", "Total: 1,309.50"]);
}

#[test]
fn empty_arrays_remove_the_row_and_the_section_and_true_keeps_a_block() {
    let mut value = invoice_data();
    value["items"] = json!([]);
    value["contacts"] = json!([]);
    value["early"] = json!(true);
    let text = words(&fill(&invoice(), value).pdf);
    // Only the heading row is left (pdftotext reads a one-row table's columns apart).
    in_order(&text, &["Description", "Total: 1,309.50", "Thank you for paying early.", "Note: Bring the cards"]);
    for gone in ["Contact:", "Punched cards", "Analytical", "Click or tap"] {
        assert!(!text.contains(gone), "{gone:?} in {text:?}");
    }
}

/// The structure elements' roles in reading order (pikepdf).
const ROLES: &str = r#"
import json, sys
import pikepdf
pdf = pikepdf.open(sys.argv[1])
roles = []
def walk(e):
    if isinstance(e, pikepdf.Array):
        for k in e:
            walk(k)
        return
    if not isinstance(e, pikepdf.Dictionary) or "/S" not in e:
        return
    roles.append(str(e.S)[1:])
    if "/K" in e:
        walk(e.K)
walk(pdf.Root.StructTreeRoot.K)
print(json.dumps(roles))
"#;

#[test]
fn repeated_rows_are_rows_of_the_same_table_in_the_structure() {
    let mut value = invoice_data();
    value["items"] = json!((1..=7).map(|n| json!({"description": format!("Item {n}"), "qty": n, "amount": n * 10})).collect::<Vec<_>>());
    let rendered = fill(&invoice(), value);
    let text = words(&rendered.pdf);
    in_order(&text, &["Item 1 1 10.00", "Item 2 2 20.00", "Item 7 7 70.00", "Total:"]);
    let Some(roles) = common::python::run_on_pdf(ROLES, &rendered.pdf) else { return };
    let roles: Vec<&str> = roles.as_array().unwrap().iter().map(|r| r.as_str().unwrap()).collect();
    assert_eq!(roles.iter().filter(|r| **r == "Table").count(), 1, "{roles:?}");
    assert_eq!(roles.iter().filter(|r| **r == "TR").count(), 1 + 7, "{roles:?}");
}

#[test]
fn a_repeating_section_around_a_table_row_as_word_makes_it_repeats_the_row() {
    let item = format!("<w:tr>{}{}</w:tr>", cell(&text_control("sku")), cell(&text_control("price")));
    let rows = repeating_section("lines", &item);
    let body = format!(
        r#"<w:tbl><w:tblPr><w:tblW w:w="6000" w:type="dxa"/></w:tblPr><w:tblGrid><w:gridCol w:w="3000"/><w:gridCol w:w="3000"/></w:tblGrid><w:tr>{}{}</w:tr>{rows}</w:tbl><w:p>{}</w:p>"#,
        cell(&run("SKU")),
        cell(&run("Price")),
        run("After the table.")
    );
    let value = json!({"lines": [{"sku": "A-1", "price": "1.00"}, {"sku": "B-2", "price": "2.00"}, {"sku": "C-3", "price": "3.00"}]});
    let rendered = fill(&docx(&body), value);
    let text = words(&rendered.pdf);
    in_order(&text, &["SKU Price", "A-1 1.00", "B-2 2.00", "C-3 3.00", "After the table."]);
    let Some(roles) = common::python::run_on_pdf(ROLES, &rendered.pdf) else { return };
    let roles: Vec<&str> = roles.as_array().unwrap().iter().map(|r| r.as_str().unwrap()).collect();
    assert_eq!(roles.iter().filter(|r| **r == "TR").count(), 4, "{roles:?}");
}

/// A paragraph with a picture control tagged `logo` showing the package's 4×2 picture in
/// a 40×40 pt square, as Word's picture placeholder does.
fn picture_template() -> Vec<u8> {
    let control = format!(
        r#"<w:sdt><w:sdtPr><w:tag w:val="logo"/><w:showingPlcHdr/><w:picture/></w:sdtPr><w:sdtContent><w:r>{}</w:r></w:sdtContent></w:sdt>"#,
        common::docx::inline_picture(40, 40)
    );
    common::docx::docx_with_image(&format!("<w:p>{control}</w:p><w:p>{}</w:p>", run("Below the logo.")), "logo.png", &common::docx::png(4, 2))
}

/// `bytes` as a `data:image/{kind};base64,` URI (RFC 4648 §4).
fn data_uri(kind: &str, bytes: &[u8]) -> String {
    const ABC: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = format!("data:image/{kind};base64,");
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            out.push(if i <= chunk.len() { ABC[(n >> (18 - 6 * i) & 63) as usize] as char } else { '=' });
        }
    }
    out
}

#[test]
fn a_picture_control_shows_the_datas_png_or_jpeg_fitted_into_its_extent() {
    let before = common::pdf::images(&convert_filled(&renderer(), &picture_template(), &Deadline::none(), PdfOptions::default(), None).unwrap().pdf);
    assert_eq!((before.len(), before[0][3].as_str(), before[0][4].as_str()), (1, "4", "2"), "{before:?}");
    let png = fill(&picture_template(), json!({"logo": data_uri("png", &common::docx::png(6, 3))}));
    let shown = common::pdf::images(&png.pdf);
    assert_eq!((shown.len(), shown[0][3].as_str(), shown[0][4].as_str()), (1, "6", "3"), "{shown:?}");
    assert_eq!(warnings(&png), Vec::<String>::new());
    // The 2:1 picture fills the 40 pt square's width and half its height: the text below
    // moves up by 20 pt against a square picture's.
    let square = fill(&picture_template(), json!({"logo": data_uri("png", &common::docx::png(5, 5))}));
    let below = |pdf: &[u8]| common::pdf::word_boxes(pdf).into_iter().find(|w| w.text == "Below").map(|w| w.y_min).unwrap();
    let moved = below(&square.pdf) - below(&png.pdf);
    assert!((moved - 20.0).abs() < 0.6, "moved {moved}");
    let jpeg = jpeg_encoder_bytes();
    let shown = common::pdf::images(&fill(&picture_template(), json!({"logo": data_uri("jpeg", &jpeg)})).pdf);
    assert_eq!((shown.len(), shown[0][2].as_str(), shown[0][3].as_str(), shown[0][4].as_str()), (1, "image", "8", "4"), "{shown:?}");
}

/// An 8×4 grey JPEG.
fn jpeg_encoder_bytes() -> Vec<u8> {
    let mut out = Vec::new();
    jpeg_encoder::Encoder::new(&mut out, 90).encode(&[128u8; 8 * 4 * 3], 8, 4, jpeg_encoder::ColorType::Rgb).unwrap();
    out
}

#[actix_web::test]
async fn a_picture_that_is_no_png_or_jpeg_data_uri_is_refused_and_costs_nothing() {
    let svc = TestService::start(Settings::default()).await;
    let key = svc.account("templates", Plan::Paid, 100).await;
    let app = test::init_service(create_app(svc.state.clone())).await;
    for logo in ["https://example.com/logo.png", "file:///etc/passwd", "data:image/gif;base64,R0lGODlhAQABAAAAACw=", "data:image/png;base64,bm90IGEgcG5n"] {
        let data = json!({"logo": logo}).to_string();
        let res = test::call_service(&app, convert_request(&key, form(&picture_template(), &[("data", &data)]))).await;
        assert_eq!(res.status(), 400, "{logo}");
        let body: Value = serde_json::from_slice(&test::read_body(res).await).unwrap();
        assert_eq!(body["code"], "invalid_option", "{body}");
        let message = body["error"].as_str().unwrap();
        assert!(message.contains("\"data\"") && message.contains("\"logo\""), "{message}");
    }
    let b = docx2pdf::db::usage::balance(&svc.db, 1, docx2pdf::credits::Month::of(svc.state.clock.now())).await.unwrap();
    assert_eq!((b.used, b.reserved), (0, 0), "refused pictures cost nothing");
}

/// Two controls bound to a Custom XML part (`w:dataBinding`), showing stale text as a
/// document edited outside Word may: the part says "Lovelace Ltd" and "2026-03-03".
fn bound_template() -> Vec<u8> {
    let store = "{6A1F2C3D-0000-4000-8000-00000000BEEF}";
    let bound = |tag: &str, xpath: &str, kind: &str| {
        format!(
            r#"<w:sdt><w:sdtPr><w:tag w:val="{tag}"/><w:dataBinding w:prefixMappings="xmlns:ns0='urn:invoice'" w:xpath="{xpath}" w:storeItemID="{store}"/>{kind}</w:sdtPr><w:sdtContent><w:r><w:t>stale</w:t></w:r></w:sdtContent></w:sdt>"#
        )
    };
    let body = [
        format!("<w:p>{}{}</w:p>", run("Company: "), bound("company", "/ns0:invoice[1]/ns0:company[1]", "<w:text/>")),
        format!("<w:p>{}{}</w:p>", run("Issued: "), bound("issued", "/ns0:invoice[1]/ns0:issued[1]", r#"<w:date><w:dateFormat w:val="d MMMM yyyy"/><w:lid w:val="fr-FR"/></w:date>"#)),
        format!("<w:p>{}{}</w:p>", run("Name: "), text_control("name")),
    ]
    .concat();
    let item = r#"<?xml version="1.0" encoding="UTF-8"?><ns0:invoice xmlns:ns0="urn:invoice"><ns0:company>Lovelace Ltd</ns0:company><ns0:issued>2026-03-03</ns0:issued></ns0:invoice>"#;
    let props = format!(r#"<?xml version="1.0" encoding="UTF-8"?><ds:datastoreItem ds:itemID="{store}" xmlns:ds="http://schemas.openxmlformats.org/officeDocument/2006/customXml"><ds:schemaRefs/></ds:datastoreItem>"#);
    let item_rels = r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/customXmlProps" Target="itemProps1.xml"/></Relationships>"#;
    common::docx::docx_with_files(
        &body,
        &[("rIdCx", "customXml", "../customXml/item1.xml")],
        &[("customXml/item1.xml", item.as_bytes()), ("customXml/itemProps1.xml", props.as_bytes()), ("customXml/_rels/item1.xml.rels", item_rels.as_bytes())],
    )
}

#[test]
fn a_bound_control_shows_its_custom_xml_parts_value_unless_the_data_names_it() {
    let text = words(&fill(&bound_template(), json!({"name": "Ada"})).pdf);
    in_order(&text, &["Company: Lovelace Ltd", "Issued: 3 mars 2026", "Name: Ada"]);
    assert!(!text.contains("stale"), "{text}");
    let text = words(&fill(&bound_template(), json!({"name": "Ada", "company": "Babbage & Co"})).pdf);
    in_order(&text, &["Company: Babbage & Co", "Issued: 3 mars 2026", "Name: Ada"]);
}

#[test]
fn date_pickers_write_the_month_in_their_language() {
    let body = [
        format!("<w:p>{}{}</w:p>", run("DE "), date_control("due", "d MMMM yyyy", "de-DE")),
        format!("<w:p>{}{}</w:p>", run("FR "), date_control("due", "dddd d MMMM yyyy", "fr-FR")),
        format!("<w:p>{}{}</w:p>", run("US "), date_control("due", "MMMM d, yyyy", "en-US")),
    ]
    .concat();
    let text = words(&fill(&docx(&body), json!({"due": "2026-03-03"})).pdf);
    in_order(&text, &["DE 3 März 2026", "FR mardi 3 mars 2026", "US March 3, 2026"]);
}

#[test]
fn merge_fields_honour_each_switch() {
    let fields = [
        (r#"MERGEFIELD name \b "Dear " \f ",""#, "Greeting"),
        (r#"MERGEFIELD name \* Upper"#, "Upper"),
        (r#"MERGEFIELD name \* Lower"#, "Lower"),
        (r#"MERGEFIELD lower \* FirstCap"#, "FirstCap"),
        (r#"MERGEFIELD lower \* Caps"#, "Caps"),
        (r##"MERGEFIELD amount \# "#,##0.00""##, "Number"),
        (r#"MERGEFIELD due \@ "dd.MM.yyyy""#, "Date"),
        (r#"MERGEFIELD empty \b "never " \f " shown""#, "Empty"),
        (r#"MERGEFIELD customer.city"#, "Dotted"),
    ];
    let body: String = fields.iter().map(|(instr, label)| format!("<w:p>{}{}{}</w:p>", run(&format!("{label}: [")), merge_field(instr, "x"), run("]"))).collect();
    let value = json!({"name": "Ada Lovelace", "lower": "ada byron lovelace", "amount": 1234567.891, "due": "2026-03-03", "empty": "", "customer": {"city": "London"}});
    let rendered = fill(&docx(&body), value);
    let text = words(&rendered.pdf);
    in_order(
        &text,
        &[
            "Greeting: [Dear Ada Lovelace,]",
            "Upper: [ADA LOVELACE]",
            "Lower: [ada lovelace]",
            "FirstCap: [Ada byron lovelace]",
            "Caps: [Ada Byron Lovelace]",
            "Number: [1,234,567.89]",
            "Date: [03.03.2026]",
            "Empty: []",
            "Dotted: [London]",
        ],
    );
    assert_eq!(warnings(&rendered), Vec::<String>::new());
}

#[test]
fn numbers_take_the_documents_language_for_their_separators() {
    let settings = r#"<w:settings xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:themeFontLang w:val="de-DE"/></w:settings>"#;
    let body = format!("<w:p>{}{}</w:p>", run("Summe "), merge_field(r##"MERGEFIELD amount \# "#,##0.00""##, "amount"));
    let bytes = common::docx::docx_with_part(&body, "settings", "settings.xml", settings);
    let text = words(&fill(&bytes, json!({"amount": 1234.5})).pdf);
    assert!(text.contains("Summe 1.234,50"), "{text}");
}

#[test]
fn values_are_literal_text_and_a_newline_is_a_line_break() {
    let body = [format!("<w:p>{}{}</w:p>", run("A "), text_control("a")), format!("<w:p>{}</w:p>", run("After"))].concat();
    let value = json!({"a": "<w:t>x</w:t></w:p><w:p> & { MERGEFIELD b } \u{1}first\nsecond"});
    let rendered = fill(&docx(&body), value);
    let lines: Vec<String> = common::pdf::text(&rendered.pdf).lines().map(|l| l.trim().to_owned()).filter(|l| !l.is_empty()).collect();
    assert_eq!(lines, ["A <w:t>x</w:t></w:p><w:p> & { MERGEFIELD b } first", "second", "After"]);
}

#[test]
fn numbers_and_booleans_are_written_as_json_writes_them_and_aliases_name_keys() {
    let alias_only = r#"<w:sdt><w:sdtPr><w:alias w:val="Count"/></w:sdtPr><w:sdtContent><w:r><w:t>n</w:t></w:r></w:sdtContent></w:sdt>"#;
    let body = format!("<w:p>{}{}{}{}{}{}</w:p>", run("Values "), text_control("price"), run(" "), text_control("vat"), run(" "), alias_only);
    let text = words(&fill(&docx(&body), json!({"price": 12.5, "vat": false, "Count": 3})).pdf);
    assert!(text.contains("Values 12.5 false 3"), "{text}");
}

#[test]
fn missing_unused_and_unsupported_keys_are_reported() {
    let body = [
        format!("<w:p>{}{}</w:p>", run("Name "), text_control("customer.name")),
        format!("<w:p>{}</w:p>", text_control("missing.key")),
        format!("<w:p>{}</w:p>", merge_field("MERGEFIELD missing.key", "missing")),
        format!("<w:p>{}</w:p>", merge_field("NEXTIF x = 1", "")),
    ]
    .concat();
    let rendered = fill(&docx(&body), json!({"customer": {"name": "Ada", "email": "ada@example.com"}, "extra": 1}));
    assert_eq!(
        warnings(&rendered),
        ["template_feature_unsupported: NEXTIF", "template_key_missing: missing.key x2", "template_key_unused: customer.email", "template_key_unused: extra"]
    );
    // A key without a value leaves the control as the document has it.
    let text = words(&rendered.pdf);
    in_order(&text, &["Name Ada", "Click or tap here to enter text.", "«missing»"]);
}

#[test]
fn without_data_or_with_an_empty_object_the_pdf_is_the_same() {
    let plain = convert_filled(&renderer(), &invoice(), &Deadline::none(), PdfOptions::default(), None).unwrap().pdf;
    let empty = fill(&invoice(), json!({})).pdf;
    let before = docx2pdf::render::convert_with(&renderer(), &invoice(), &Deadline::none(), PdfOptions::default()).unwrap().pdf;
    assert!(plain == empty && plain == before, "byte-identical");
}

/// The binary's own counting allocator holds the render to `--render-memory-mb`: 256 MB is
/// the smallest budget `serve` gives a worker by default; 60 s its time limit.
#[test]
fn a_ten_thousand_row_invoice_converts_within_the_time_limit_and_memory_budget() {
    let mut value = invoice_data();
    value["items"] = json!((1..=10_000).map(|n| json!({"description": format!("Line {n}"), "qty": n % 9 + 1, "amount": n as f64 * 1.25})).collect::<Vec<_>>());
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("invoice.json");
    std::fs::write(&json, value.to_string()).unwrap();
    let limit = Duration::from_secs(60);
    let started = Instant::now();
    let pdf = convert_cli(&invoice(), &["--data", json.to_str().unwrap(), "--render-memory-mb", "256", "--render-timeout-secs", "60"]);
    let took = started.elapsed();
    let text = common::pdf::text(&pdf);
    let rows = text.lines().filter(|l| l.trim().starts_with("Line ")).count();
    assert_eq!(rows, 10_000, "one row per element");
    assert!(text.contains("Line 10000"));
    assert!(took < limit, "{took:?}");
}

#[actix_web::test]
async fn the_data_field_fills_the_template_and_reports_what_was_missing() {
    let svc = TestService::start(Settings::default()).await;
    let key = svc.account("templates", Plan::Paid, 100).await;
    let app = test::init_service(create_app(svc.state.clone())).await;
    let mut value = invoice_data();
    value["unused"] = json!("nobody reads this");
    value.as_object_mut().unwrap().remove("note");
    let res = test::call_service(&app, convert_request(&key, form(&invoice(), &[("data", &value.to_string())]))).await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers().get("x-credits-used").unwrap(), "1");
    let header = res.headers().get("x-conversion-warnings").unwrap().to_str().unwrap().to_owned();
    assert!(header.contains("template_key_missing: note") && header.contains("template_key_unused: unused"), "{header}");
    let text = words(&test::read_body(res).await);
    in_order(&text, &["Invoice INV-0042", "Punched cards 500 75.00", "Note: Click or tap here to enter text."]);
}

#[actix_web::test]
async fn bad_data_is_refused_naming_the_field_and_costs_nothing() {
    let svc = TestService::start(Settings::default()).await;
    let key = svc.account("templates", Plan::Paid, 100).await;
    let app = test::init_service(create_app(svc.state.clone())).await;
    let too_large = format!("{{\"a\": \"{}\"}}", "x".repeat(1 << 20));
    for (value, says) in [("{\"a\": ", "is not JSON"), ("[1, 2]", "is a JSON array"), ("\"text\"", "is a JSON string"), (too_large.as_str(), "larger than the limit of 1 MiB")] {
        let res = test::call_service(&app, convert_request(&key, form(&invoice(), &[("data", value)]))).await;
        assert_eq!(res.status(), 400);
        let body: Value = serde_json::from_slice(&test::read_body(res).await).unwrap();
        assert_eq!(body["code"], "invalid_option", "{body}");
        let message = body["error"].as_str().unwrap();
        assert!(message.contains("\"data\"") && message.contains(says), "{message}");
    }
    let b = docx2pdf::db::usage::balance(&svc.db, 1, docx2pdf::credits::Month::of(svc.state.clock.now())).await.unwrap();
    assert_eq!((b.used, b.reserved), (0, 0), "refused data costs nothing");
}

#[test]
fn the_cli_fills_from_a_json_file_and_refuses_a_bad_one_with_exit_code_2() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("invoice.json");
    std::fs::write(&json, invoice_data().to_string()).unwrap();
    let text = words(&convert_cli(&invoice(), &["--data", json.to_str().unwrap()]));
    in_order(&text, &["Invoice INV-0042", "Total: 1,309.50"]);
    std::fs::write(&json, "[]").unwrap();
    let input = dir.path().join("in.docx");
    std::fs::write(&input, invoice()).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_docx2pdf")).arg("convert").arg("--data").arg(&json).arg(&input).arg(dir.path().join("out.pdf")).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--data") && stderr.contains("JSON array"), "{stderr}");
}
