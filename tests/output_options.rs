//! The output options through `POST /api/convert` and `docx2pdf convert`: a selection of
//! pages (`pages`, `nativePageRanges`), passwords (`userPassword`, `ownerPassword`) and
//! document information (`metadata`), read back with pikepdf and pymupdf. Every malformed
//! value is 400 `invalid_option` naming its field, and costs nothing.

mod common;
#[path = "output_options/read.rs"]
mod read;

use actix_web::test::{self};
use common::docx::{docx_with_rels, escape, header_footer_xml};
use common::timed::Timed;
use common::{convert_cli, convert_request, form, Settings, TestService};
use docx2pdf::db::accounts::Plan;
use docx2pdf::http::create_app;
use read::{read, used_and_held};
use serde_json::{json, Value};

/// Five pages, one chapter each: a Heading 1 (an outline entry) with a bookmark, its body,
/// and a footer "Page N of 5" from PAGE and NUMPAGES. Page 1 links to chapters 3 and 4.
fn chapters() -> Vec<u8> {
    let run = |text: &str| format!(r#"<w:r><w:t xml:space="preserve">{}</w:t></w:r>"#, escape(text));
    let mut body = String::new();
    for n in 1..=5 {
        let before = if n > 1 { "<w:pageBreakBefore/>" } else { "" };
        body.push_str(&format!(
            r#"<w:p><w:pPr><w:pStyle w:val="Heading1"/>{before}</w:pPr><w:bookmarkStart w:id="{n}" w:name="_Ch{n}"/>{}<w:bookmarkEnd w:id="{n}"/></w:p>"#,
            run(&format!("Chapter {n}"))
        ));
        body.push_str(&format!("<w:p>{}</w:p>", run(&format!("Body of chapter {n}."))));
        if n == 1 {
            for (target, text) in [("_Ch3", "Go to chapter three"), ("_Ch4", "Go to chapter four")] {
                body.push_str(&format!(r#"<w:p><w:hyperlink w:anchor="{target}">{}</w:hyperlink></w:p>"#, run(text)));
            }
        }
    }
    body.push_str(r#"<w:sectPr><w:footerReference w:type="default" r:id="rIdF"/><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr>"#);
    let footer = header_footer_xml(
        "ftr",
        &format!(
            r#"<w:p>{}<w:fldSimple w:instr=" PAGE ">{}</w:fldSimple>{}<w:fldSimple w:instr=" NUMPAGES ">{}</w:fldSimple></w:p>"#,
            run("Page "),
            run("1"),
            run(" of "),
            run("1")
        ),
    );
    docx_with_rels(&body, &[("rIdF", "footer", "footer1.xml", &footer)])
}

/// The text of each page, one line.
fn texts(found: &Value) -> Vec<String> {
    found["text"].as_array().unwrap().iter().map(|t| t.as_str().unwrap().split_whitespace().collect::<Vec<_>>().join(" ")).collect()
}

#[actix_web::test]
async fn pages_keep_the_pages_selected_with_their_numbers_outline_links_and_structure() {
    let svc = TestService::start(Settings::default()).await;
    let key = svc.account("pages", Plan::Paid, 100).await;
    let app = test::init_service(create_app(svc.state.clone())).await;
    let whole = test::read_body(test::call_service(&app, convert_request(&key, form(&chapters(), &[]))).await).await;
    let res = test::call_service(&app, convert_request(&key, form(&chapters(), &[("pages", "3,1")]))).await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers().get("x-credits-used").unwrap(), "1", "credits follow the upload's size");
    let pdf = test::read_body(res).await;
    let Some(found) = read(&pdf, "") else { return };
    let Some(all) = read(&whole, "") else { return };
    assert_eq!((all["pages"].as_u64(), found["pages"].as_u64()), (Some(5), Some(2)));
    let text = texts(&found);
    // The document's order, and the numbers the document gives its pages.
    assert!(text[0].contains("Chapter 1") && text[0].contains("Page 1 of 5"), "{text:?}");
    assert!(text[1].contains("Chapter 3") && text[1].contains("Page 3 of 5"), "{text:?}");
    assert!(!text.iter().any(|t| t.contains("Chapter 2") || t.contains("Chapter 4")), "{text:?}");
    // Bookmarks and destinations to pages left out are gone; the rest lead to their page.
    assert_eq!(all["outline"].as_array().unwrap().len(), 5);
    assert_eq!(found["outline"], json!([[1, "Chapter 1", 1], [1, "Chapter 3", 2]]));
    assert_eq!(found["dests"], json!([["_Ch1", 1], ["_Ch3", 2]]));
    // The link to chapter three now leads to page 2; the one to chapter four is no link.
    assert_eq!(all["links"][0], json!([3, 4]));
    assert_eq!(found["links"], json!([[2], []]));
    // The structure holds the headings shown and names no page that is not there.
    assert_eq!((all["headings"].as_u64(), found["headings"].as_u64()), (Some(5), Some(2)));
    assert_eq!(found["struct_pages_ok"], true);
    assert_eq!(found["parent_tree_ok"], true);
    assert_eq!(used_and_held(&svc).await, (2, 0));
}

#[test]
fn native_page_ranges_from_the_cli_ignore_pages_past_the_end() {
    let pdf = convert_cli(&chapters(), &["--native-page-ranges", "4-9"]);
    let Some(found) = read(&pdf, "") else { return };
    let text = texts(&found);
    assert_eq!(text.len(), 2, "{text:?}");
    assert!(text[0].contains("Chapter 4") && text[0].contains("Page 4 of 5"), "{text:?}");
    assert!(text[1].contains("Chapter 5") && text[1].contains("Page 5 of 5"), "{text:?}");
    assert_eq!(found["outline"], json!([[1, "Chapter 4", 1], [1, "Chapter 5", 2]]));
    assert_eq!(found["links"], json!([[], []]));
}

/// Posts `fields` with the chapters and expects 400 `invalid_option` naming `field`.
async fn refused<S, B>(app: &S, key: &str, fields: &[(&str, &str)], field: &str) -> String
where
    S: actix_web::dev::Service<actix_http::Request, Response = actix_web::dev::ServiceResponse<B>, Error = actix_web::Error>,
    B: actix_web::body::MessageBody,
{
    let res = test::call_service(app, convert_request(key, form(&chapters(), fields))).await;
    assert_eq!(res.status(), 400, "{fields:?}");
    let body: Value = serde_json::from_slice(&test::read_body(res).await).unwrap();
    assert_eq!(body["code"], "invalid_option", "{body}");
    assert_eq!(body["error"], body["message"]);
    let message = body["error"].as_str().unwrap().to_owned();
    assert!(message.contains(&format!("\"{field}\"")), "{fields:?}: {message}");
    message
}

#[actix_web::test]
async fn page_selections_that_cannot_be_used_are_refused_naming_their_field_for_free() {
    let svc = TestService::start(Settings::default()).await;
    let key = svc.account("pages", Plan::Paid, 100).await;
    let app = test::init_service(create_app(svc.state.clone())).await;
    for (field, value) in [("pages", "0"), ("pages", "2-1"), ("pages", "a"), ("pages", "1,,2"), ("pages", "1-3;5"), ("nativePageRanges", "x")] {
        refused(&app, &key, &[(field, value)], field).await;
    }
    let both = refused(&app, &key, &[("pages", "1"), ("nativePageRanges", "2")], "pages").await;
    assert!(both.contains("\"nativePageRanges\""), "{both}");
    // Known only once the document is laid out: the render is refused, and its hold released.
    let past = refused(&app, &key, &[("nativePageRanges", "6-")], "nativePageRanges").await;
    assert!(past.contains("5 page"), "{past}");
    assert_eq!(used_and_held(&svc).await, (0, 0), "refused options cost nothing");
}

#[test]
fn the_cli_refuses_a_bad_selection_with_exit_code_2_naming_the_flag() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.docx");
    std::fs::write(&input, chapters()).unwrap();
    let cases: [(&[&str], &str); 4] = [
        (&["--pages", "0"], "--pages"),
        (&["--pages", "6-9"], "keeps none"),
        (&["--pages", "1", "--native-page-ranges", "2"], "--native-page-ranges"),
        // The page limit counts the pages laid out, not the pages kept.
        (&["--pages", "1", "--max-pages", "3"], "more than 3 pages"),
    ];
    for (flags, says) in cases {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_docx2pdf")).arg("convert").args(flags).arg(&input).arg(dir.path().join("out.pdf")).timed_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{flags:?}: {stderr}");
        assert!(stderr.contains(says), "{flags:?}: {stderr}");
    }
}

#[actix_web::test]
async fn a_user_password_is_needed_to_open_the_pdf_which_is_aes_256() {
    let svc = TestService::start(Settings::default()).await;
    let key = svc.account("secret", Plan::Paid, 100).await;
    let app = test::init_service(create_app(svc.state.clone())).await;
    let res = test::call_service(&app, convert_request(&key, form(&chapters(), &[("userPassword", "open sesame"), ("pages", "2")]))).await;
    assert_eq!(res.status(), 200);
    let pdf = test::read_body(res).await;
    assert!(!String::from_utf8_lossy(&pdf).contains("Chapter"), "no text left readable");
    let Some(closed) = read(&pdf, "") else { return };
    assert_eq!(closed["opened"], false, "{closed}");
    assert_eq!(read(&pdf, "open sesamE").unwrap()["opened"], false);
    let found = read(&pdf, "open sesame").unwrap();
    assert_eq!(found["opened"], true);
    // Standard security handler V 5, R 6, 256-bit AES for streams and strings.
    assert_eq!(found["encryption"], json!([5, 6, 256, "aesv3", "aesv3"]), "{found}");
    assert_eq!(texts(&found).len(), 1);
    assert!(texts(&found)[0].contains("Chapter 2") && texts(&found)[0].contains("Page 2 of 5"), "{found}");
    // The user password is the owner password too: nothing is restricted.
    assert_eq!(found["owner"], true);
    assert!(found["allow"].as_object().unwrap().values().all(|v| v == true), "{found}");
}

#[test]
fn an_owner_password_alone_keeps_reading_printing_and_copying_and_restricts_changes() {
    let pdf = convert_cli(&chapters(), &["--owner-password", "boss only"]);
    let Some(anyone) = read(&pdf, "") else { return };
    assert_eq!((anyone["opened"].as_bool(), anyone["owner"].as_bool()), (Some(true), Some(false)), "{anyone}");
    assert_eq!(anyone["encryption"], json!([5, 6, 256, "aesv3", "aesv3"]));
    assert_eq!(
        anyone["allow"],
        json!({"print": true, "extract": true, "accessibility": true, "modify": false, "annotate": false, "forms": false, "assemble": false})
    );
    assert_eq!(texts(&anyone).len(), 5);
    // The owner password opens it as its owner (qpdf reports /P as it is, whoever opens).
    let owner = read(&pdf, "boss only").unwrap();
    assert_eq!((owner["owner"].as_bool(), owner["user"].as_bool()), (Some(true), Some(false)), "{owner}");
    assert_eq!(read(&pdf, "boss").unwrap()["opened"], false, "a wrong password opens nothing");
}

#[actix_web::test]
async fn with_both_passwords_each_opens_with_its_own_rights() {
    let svc = TestService::start(Settings::default()).await;
    let key = svc.account("secret", Plan::Paid, 100).await;
    let app = test::init_service(create_app(svc.state.clone())).await;
    let fields = [("userPassword", "reader-pw"), ("ownerPassword", "owner-pw"), ("metadata", r#"{"Title": "Sealed"}"#)];
    let res = test::call_service(&app, convert_request(&key, form(&chapters(), &fields))).await;
    assert_eq!(res.status(), 200);
    let pdf = test::read_body(res).await;
    let Some(closed) = read(&pdf, "") else { return };
    assert_eq!(closed["opened"], false);
    let reader = read(&pdf, "reader-pw").unwrap();
    assert_eq!((reader["user"].as_bool(), reader["owner"].as_bool()), (Some(true), Some(false)));
    assert_eq!(reader["allow"]["modify"], false);
    assert_eq!(reader["allow"]["print"], true);
    // The encrypted Info dictionary and XMP packet still agree.
    assert_eq!((reader["info"]["Title"].as_str(), reader["xmp"]["dc:title"].as_str()), (Some("Sealed"), Some("Sealed")));
    let owner = read(&pdf, "owner-pw").unwrap();
    assert_eq!((owner["owner"].as_bool(), owner["user"].as_bool()), (Some(true), Some(false)), "{owner}");
}

#[actix_web::test]
async fn passwords_with_pdfa_or_with_prohibited_characters_are_refused_without_echo() {
    let svc = TestService::start(Settings::default()).await;
    let key = svc.account("secret", Plan::Paid, 100).await;
    let app = test::init_service(create_app(svc.state.clone())).await;
    let m = refused(&app, &key, &[("userPassword", "tops3cret"), ("pdfa", "PDF/A-2b")], "userPassword").await;
    assert!(m.contains("PDF/A-2b") && !m.contains("tops3cret"), "{m}");
    let m = refused(&app, &key, &[("ownerPassword", "tops3cret"), ("pdfa", "PDF/A-1b")], "ownerPassword").await;
    assert!(!m.contains("tops3cret"), "{m}");
    let m = refused(&app, &key, &[("ownerPassword", "tops3cret\u{7}")], "ownerPassword").await;
    assert!(!m.contains("tops3cret"), "{m}");
    assert_eq!(used_and_held(&svc).await, (0, 0));
    // An empty password is no password.
    let res = test::call_service(&app, convert_request(&key, form(&chapters(), &[("userPassword", ""), ("pdfa", "PDF/A-2b")]))).await;
    assert_eq!(res.status(), 200);
}

const METADATA: &str = r#"{"Title": "Quarterly report", "Author": "Finance team", "Subject": "Q3 figures",
    "Keywords": ["finance", "Q3", "Zürich"], "Creator": "Billing 4.2",
    "CreationDate": "2024-03-01T09:30:00+02:00", "ModDate": "2024-03-02T10:00:00Z"}"#;

/// The Info entries and XMP properties that must agree (ISO 19005-2 §6.6.2.3.1).
fn assert_info_is_xmp(found: &Value) {
    let pairs = [("Title", "dc:title"), ("Author", "dc:creator"), ("Subject", "dc:description"), ("Keywords", "pdf:Keywords"), ("Creator", "xmp:CreatorTool"), ("Producer", "pdf:Producer")];
    for (info, xmp) in pairs {
        assert_eq!(found["info"][info], found["xmp"][xmp], "{info} and {xmp}: {found}");
    }
    assert_eq!(found["dates_agree"], json!([true, true]), "{found}");
}

#[actix_web::test]
async fn metadata_replaces_the_properties_in_info_and_xmp_alike() {
    let svc = TestService::start(Settings::default()).await;
    let key = svc.account("meta", Plan::Paid, 100).await;
    let app = test::init_service(create_app(svc.state.clone())).await;
    let res = test::call_service(&app, convert_request(&key, form(&read::with_properties(&chapters()), &[("metadata", METADATA), ("pdfua", "true")]))).await;
    assert_eq!(res.status(), 200);
    let pdf = test::read_body(res).await;
    let Some(found) = read(&pdf, "") else { return };
    assert_info_is_xmp(&found);
    assert_eq!(found["info"]["Title"], "Quarterly report", "the request's title, not the document's");
    assert_eq!(found["info"]["Keywords"], "finance, Q3, Zürich");
    assert_eq!(found["info"]["Creator"], "Billing 4.2");
    assert_eq!(found["xmp"]["xmp:CreateDate"], "2024-03-01T09:30:00+02:00");
    // The title PDF/UA shows in the title bar is the one given.
    assert_eq!(found["display_doc_title"], true);

    // Keys not given keep the document's properties.
    let res = test::call_service(&app, convert_request(&key, form(&read::with_properties(&chapters()), &[("metadata", r#"{"Keywords": "a, b"}"#)]))).await;
    let Some(found) = read(&test::read_body(res).await, "") else { return };
    assert_info_is_xmp(&found);
    assert_eq!((found["info"]["Title"].as_str(), found["info"]["Keywords"].as_str()), (Some("Field notes"), Some("a, b")));
}

#[test]
fn metadata_keeps_pdfa_output_in_sync() {
    let pdf = convert_cli(&read::with_properties(&chapters()), &["--pdfa", "PDF/A-2b", "--metadata", METADATA]);
    let Some(found) = read(&pdf, "") else { return };
    assert_info_is_xmp(&found);
    assert_eq!(found["pdfaid"], json!(["2", "B"]));
    assert_eq!(found["info"]["Author"], "Finance team");
}

#[actix_web::test]
async fn malformed_metadata_is_refused_naming_the_field_for_free() {
    let svc = TestService::start(Settings::default()).await;
    let key = svc.account("meta", Plan::Paid, 100).await;
    let app = test::init_service(create_app(svc.state.clone())).await;
    let large = format!(r#"{{"Title": "{}"}}"#, "x".repeat(64 * 1024));
    let bad = [
        "{",
        r#"["Title"]"#,
        r#"{"title": "lower case"}"#,
        r#"{"Title": "x", "Pages": 3}"#,
        r#"{"Author": ["two", "authors"]}"#,
        r#"{"Keywords": [1, 2]}"#,
        r#"{"Keywords": {"a": 1}}"#,
        r#"{"CreationDate": "01/03/2024"}"#,
        r#"{"ModDate": "2024-02-30T10:00:00Z"}"#,
        r#"{"Subject": null}"#,
        large.as_str(),
    ];
    for value in bad {
        refused(&app, &key, &[("metadata", value)], "metadata").await;
    }
    assert_eq!(used_and_held(&svc).await, (0, 0));
}

#[test]
fn the_cli_refuses_bad_metadata_and_passwords_with_pdfa_with_exit_code_2() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.docx");
    std::fs::write(&input, chapters()).unwrap();
    let cases: [(&[&str], &str); 2] = [(&["--metadata", r#"{"When": "now"}"#], "--metadata"), (&["--user-password", "Xy9secret", "--pdfa", "PDF/A-3b"], "--user-password")];
    for (flags, says) in cases {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_docx2pdf")).arg("convert").args(flags).arg(&input).arg(dir.path().join("out.pdf")).timed_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{flags:?}: {stderr}");
        assert!(stderr.contains(says) && !stderr.contains("Xy9secret"), "{flags:?}: {stderr}");
    }
}

/// Fields sent empty are fields not sent: the bytes are those of a conversion without them.
#[actix_web::test]
async fn empty_option_fields_change_no_byte() {
    let svc = TestService::start(Settings::default()).await;
    let key = svc.account("plain", Plan::Paid, 100).await;
    let app = test::init_service(create_app(svc.state.clone())).await;
    let plain = test::read_body(test::call_service(&app, convert_request(&key, form(&chapters(), &[]))).await).await;
    let empty = [("pages", ""), ("nativePageRanges", " "), ("userPassword", ""), ("ownerPassword", ""), ("metadata", "")];
    let res = test::call_service(&app, convert_request(&key, form(&chapters(), &empty))).await;
    assert_eq!(res.status(), 200);
    assert!(test::read_body(res).await == plain);
}
