//! The input-side conversion options, through HTTP and the CLI: `password` opens ECMA-376
//! agile and standard encrypted documents (and never reaches a log or a message); links to
//! scripts keep their text without an action; `X-Conversion-Warnings` says what changed,
//! bounded, in a fixed order, as the CLI's standard error does; `Content-Disposition`
//! names the PDF after the upload; malformed values cost nothing. Last, a client generated
//! from `/openapi.json` converts a protected document against the running server.

mod common;

#[path = "support/binary.rs"]
mod binary;
#[path = "input_options/fixtures.rs"]
mod fixtures;
#[path = "support/python.rs"]
mod python;

use std::process::Command;

use actix_web::body::MessageBody;
use actix_web::dev::ServiceResponse;
use actix_web::test::{self};
use common::docx::{docx_with_files, paragraph};
use common::timed::Timed;
use common::{convert_request, form, form_named, Settings, TestService};
use docx2pdf::db::accounts::Plan;
use docx2pdf::http::create_app;
use fixtures::{encrypted, fonts_docx, form_raw, links_docx, plain_docx, PASSWORD, SECRET_TEXT};
use serde_json::Value;

/// Credits taken so far, from the ledger.
async fn used(svc: &TestService) -> i64 {
    use sea_orm::EntityTrait;
    entity::ledger_entry::Entity::find().all(&svc.db).await.unwrap().iter().map(|e| e.credits).sum()
}

/// The JSON error of an answer: (status, code, message).
async fn error_of<B: MessageBody>(res: impl std::future::Future<Output = ServiceResponse<B>>) -> (u16, String, String) {
    let res = res.await;
    let status = res.status().as_u16();
    let body: Value = serde_json::from_slice(&test::read_body(res).await).unwrap();
    (status, body["code"].as_str().unwrap_or_default().to_owned(), body["message"].as_str().unwrap_or_default().to_owned())
}

fn header<B>(res: &ServiceResponse<B>, name: &str) -> Option<String> {
    res.headers().get(name).map(|v| v.to_str().expect("a visible-ASCII header").to_owned())
}

// ---- password ----

#[actix_web::test]
async fn the_password_field_opens_agile_and_standard_documents_and_says_when_it_is_missing_or_wrong() {
    let plain = plain_docx();
    let Some(agile) = encrypted("agile", PASSWORD, &plain) else { return };
    let Some(standard) = encrypted("standard", PASSWORD, &plain) else { return };
    let svc = TestService::start(Settings::default()).await;
    let key = svc.account("locked", Plan::Paid, 100).await;
    let app = test::init_service(create_app(svc.state.clone())).await;
    let post = |body: Vec<u8>| convert_request(&key, body);

    for (kind, file) in [("agile", &agile), ("standard", &standard)] {
        let res = test::call_service(&app, post(form(file, &[("password", PASSWORD)]))).await;
        assert_eq!(res.status(), 200, "{kind}");
        let pdf = test::read_body(res).await;
        assert!(common::pdf::text(&pdf).contains(SECRET_TEXT), "{kind}");

        let (status, code, message) = error_of(test::call_service(&app, post(form(file, &[])))).await;
        assert_eq!((status, code.as_str()), (400, "encrypted_document"), "{kind}");
        assert!(message.contains("no password was given"), "{kind}: {message}");
        // An empty field is a field not sent.
        let (_, code, message) = error_of(test::call_service(&app, post(form(file, &[("password", "")])))).await;
        assert_eq!(code, "encrypted_document");
        assert!(message.contains("no password was given"), "{message}");

        for wrong in ["Harvest 2026 pass", "Hårvest 2026 pass ", "hårvest 2026 pass"] {
            let (status, code, message) = error_of(test::call_service(&app, post(form(file, &[("password", wrong)])))).await;
            assert_eq!((status, code.as_str()), (400, "encrypted_document"), "{kind} {wrong:?}");
            assert!(message.contains("does not open"), "{kind}: {message}");
            assert!(!message.contains(wrong.trim()) && !message.contains(PASSWORD), "{message}");
        }
    }
    // Two conversions, one credit each; the refusals cost nothing.
    assert_eq!(used(&svc).await, 2);

    // A password for a document that has none is not needed, and not held against it.
    let res = test::call_service(&app, post(form(&plain, &[("password", PASSWORD)]))).await;
    assert_eq!(res.status(), 200);
}

#[actix_web::test]
async fn a_malformed_option_value_is_refused_by_name_and_costs_nothing() {
    let svc = TestService::start(Settings::default()).await;
    let key = svc.account("typos", Plan::Paid, 100).await;
    let app = test::init_service(create_app(svc.state.clone())).await;
    let plain = plain_docx();
    let long = "p".repeat(256);
    let cases: [(&str, &[u8]); 4] =
        [("password", &[0xFF, 0xFE, b'x']), ("password", long.as_bytes()), ("pdfua", b"maybe"), ("pdfa", b"PDF/A-4")];
    for (name, value) in cases {
        let (status, code, message) = error_of(test::call_service(&app, convert_request(&key, form_raw(&plain, Some("a.docx"), &[(name, value)])))).await;
        assert_eq!((status, code.as_str()), (400, "invalid_option"), "{name}");
        assert!(message.contains(&format!("\"{name}\"")), "{message}");
        assert!(!message.contains("ppppp") && !message.contains('\u{FFFD}'), "the password is never echoed: {message}");
    }
    // 255 characters (of two bytes each) are taken.
    let most = "é".repeat(255);
    let res = test::call_service(&app, convert_request(&key, form(&plain, &[("password", &most)]))).await;
    assert_eq!(res.status(), 200);
    assert_eq!(used(&svc).await, 1, "only the conversion cost a credit");
}

/// The real server, with its log: the password appears nowhere in it, whether it opens
/// the document or not; nothing is written outside its database, whatever the file name.
#[test]
fn the_password_never_reaches_the_server_log_and_the_name_never_reaches_the_disk() {
    let Some(agile) = encrypted("agile", PASSWORD, &plain_docx()) else { return };
    let dir = tempfile::tempdir().unwrap();
    let key = binary::account(dir.path(), "logged", 100);
    let server = binary::Server::start(dir.path(), &["--workers", "1"]);
    let post = |password: &str, name: &str| {
        let body = form_named(&agile, Some(name), &[("password", password)]);
        binary::exchange(server.port, &binary::convert_request_of(&key, body))
    };
    let ok = post(PASSWORD, "../../../etc/cron.d/x.docx");
    assert_eq!(ok.status, 200, "{}", ok.head);
    assert!(ok.head.to_ascii_lowercase().contains("content-disposition: attachment; filename=\"x.pdf\"\r\n"), "{}", ok.head);
    let wrong = post("Wrong horse battery", "report.docx");
    assert_eq!((wrong.status, wrong.code().as_str()), (400, "encrypted_document"));
    assert!(!wrong.message().contains("Wrong horse"));
    let log = server.log();
    assert_eq!(log.matches("/api/convert").count(), 2, "the log has both requests: {log}");
    for secret in [PASSWORD, "Hårvest", "Wrong horse battery", "Wrong horse"] {
        assert!(!log.contains(secret), "the log holds a password:\n{log}");
    }
    for sub in ["cwd", "tmp"] {
        let written: Vec<_> = std::fs::read_dir(dir.path().join(sub)).unwrap().collect();
        assert!(written.is_empty(), "the server wrote into {sub}: {written:?}");
    }
    assert!(!dir.path().join("etc").exists());
}

/// Runs `docx2pdf convert` with `flags` on `bytes`: (success, PDF, standard error).
fn cli(bytes: &[u8], flags: &[&str]) -> (bool, Vec<u8>, String) {
    cli_named(bytes, "in", flags)
}

/// [`cli`] with the input named `stem`.docx (`.docx` alone leaves no title to PDF/UA).
fn cli_named(bytes: &[u8], stem: &str, flags: &[&str]) -> (bool, Vec<u8>, String) {
    let dir = tempfile::tempdir().unwrap();
    let (input, output) = (dir.path().join(format!("{stem}.docx")), dir.path().join("out.pdf"));
    std::fs::write(&input, bytes).unwrap();
    let out = Command::new(binary::BIN).arg("convert").args(flags).arg(&input).arg(&output).timed_output().unwrap();
    let pdf = std::fs::read(&output).unwrap_or_default();
    (out.status.success(), pdf, String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn the_cli_reads_the_password_from_a_file_and_never_prints_it() {
    let plain = plain_docx();
    let Some(agile) = encrypted("agile", PASSWORD, &plain) else { return };
    let Some(standard) = encrypted("standard", PASSWORD, &plain) else { return };
    let dir = tempfile::tempdir().unwrap();
    let right = dir.path().join("right.txt");
    // The first line is the password; its line ending is not part of it.
    std::fs::write(&right, format!("{PASSWORD}\r\nnot read\n")).unwrap();
    let wrong = dir.path().join("wrong.txt");
    std::fs::write(&wrong, "Wrong horse battery\n").unwrap();
    for file in [&agile, &standard] {
        let (ok, pdf, err) = cli(file, &["--password-file", right.to_str().unwrap()]);
        assert!(ok, "{err}");
        assert!(common::pdf::text(&pdf).contains(SECRET_TEXT));
        let (ok, _, err) = cli(file, &[]);
        assert!(!ok && err.contains("no password was given"), "{err}");
        let (ok, _, err) = cli(file, &["--password-file", wrong.to_str().unwrap()]);
        assert!(!ok && err.contains("does not open"), "{err}");
        assert!(!err.contains("Wrong horse") && !err.contains(PASSWORD), "{err}");
    }
}

// ---- links ----

/// The link annotations of a PDF: (page, URI or `None` for another action), by pikepdf.
fn link_actions(pdf: &[u8]) -> Option<Vec<Value>> {
    let script = r#"
import json, sys, pikepdf
pdf = pikepdf.open(sys.argv[1])
out = []
for n, page in enumerate(pdf.pages):
    for a in page.obj.get("/Annots", []):
        if a.get("/Subtype") != "/Link":
            continue
        action = a.get("/A")
        uri = str(action.get("/URI")) if action is not None and action.get("/S") == "/URI" else None
        out.append([n, uri, str(action.get("/S")) if action is not None else None])
print(json.dumps(out))
"#;
    common::python::run_on_pdf(script, pdf).map(|v| v.as_array().unwrap().clone())
}

const LINKS: [(&str, &str); 6] = [
    ("https://example.com/harvest", "Web link"),
    ("javascript:alert(1)", "Script link"),
    ("JaVaScRiPt:alert(2)", "Mixed case script link"),
    ("vbscript:msgbox(3)", "VB script link"),
    ("mailto:farm@example.com", "Mail link"),
    ("file:///etc/passwd", "File link"),
];

#[actix_web::test]
async fn links_to_scripts_keep_their_text_without_an_action() {
    let bytes = links_docx(&LINKS);
    let svc = TestService::start(Settings::default()).await;
    let key = svc.account("links", Plan::Paid, 100).await;
    let app = test::init_service(create_app(svc.state.clone())).await;
    let res = test::call_service(&app, convert_request(&key, form(&bytes, &[]))).await;
    assert_eq!(res.status(), 200);
    let warnings = header(&res, "X-Conversion-Warnings").unwrap_or_default();
    let pdf = test::read_body(res).await;
    let text = common::pdf::text(&pdf);
    for (_, words) in LINKS {
        assert!(text.contains(words), "{words} is drawn: {text}");
    }
    assert!(text.contains("Nowhere link") && text.contains("Field script link"));
    let Some(actions) = link_actions(&pdf) else { return };
    let uris: Vec<&str> = actions.iter().filter_map(|a| a[1].as_str()).collect();
    assert_eq!(uris, ["https://example.com/harvest", "mailto:farm@example.com"], "{actions:?}");
    assert_eq!(actions.len(), 2, "no other action at all (no GoTo to the missing bookmark): {actions:?}");
    // Three script targets of two schemes, and the file: link; the field's script too.
    let entries: Vec<&str> = warnings.split(", ").collect();
    assert!(entries.contains(&"link_without_action: javascript: x3"), "{warnings}");
    assert!(entries.contains(&"link_without_action: vbscript:"), "{warnings}");
    assert!(entries.contains(&"link_without_action: file:"), "{warnings}");

    // The CLI draws the same PDF and says the same.
    let (ok, cli_pdf, err) = cli(&bytes, &[]);
    assert!(ok, "{err}");
    assert_eq!(cli_pdf, pdf.to_vec(), "the CLI and the service write the same PDF");
    assert!(err.lines().any(|l| l == "warning: link_without_action: javascript: x3"), "{err}");
}

// ---- warnings ----

#[actix_web::test]
async fn the_warnings_say_which_fonts_and_content_changed_bounded_and_in_a_fixed_order() {
    let object = r#"<w:p><w:r><w:object w:dxaOrig="100" w:dyaOrig="100"><o:OLEObject xmlns:o="urn:schemas-microsoft-com:office:office" Type="Embed" ProgID="Package"/></w:object></w:r></w:p>"#;
    let body = format!(
        "{}{}{object}{object}{object}",
        paragraph("Calibri is the default"),
        r#"<w:p><w:r><w:rPr><w:rFonts w:ascii="Zyxwv Unknown Serif" w:hAnsi="Zyxwv Unknown Serif"/></w:rPr><w:t>Fallback</w:t></w:r></w:p><w:p><w:r><w:rPr><w:rFonts w:ascii="宋体Fake" w:hAnsi="宋体Fake"/></w:rPr><w:t>CJK name</w:t></w:r></w:p>"#,
    );
    let small = docx_with_files(&body, &[], &[]);
    let families: Vec<String> = (0..40).map(|i| format!("Unknown Family {i:02}")).collect();
    let many = fonts_docx(&families.iter().map(String::as_str).collect::<Vec<_>>());

    let svc = TestService::start(Settings::default()).await;
    let key = svc.account("fonts", Plan::Paid, 100).await;
    let app = test::init_service(create_app(svc.state.clone())).await;
    let warnings_of = |bytes: Vec<u8>| {
        // No file name: nothing gives PDF/UA a title, which the header says first.
        let req = convert_request(&key, form_named(&bytes, None, &[("pdfua", "true")]));
        let app = &app;
        async move {
            let res = test::call_service(app, req).await;
            assert_eq!(res.status(), 200);
            header(&res, "X-Conversion-Warnings").expect("warnings")
        }
    };
    let small_warnings = warnings_of(small.clone()).await;
    let entries: Vec<&str> = small_warnings.split(", ").collect();
    assert!(entries.contains(&"font_compatible: Calibri -> Carlito"), "{small_warnings}");
    assert!(entries.iter().any(|e| e.starts_with("font_substituted: Zyxwv Unknown Serif -> ")), "{small_warnings}");
    assert!(entries.iter().any(|e| e.starts_with("font_substituted: %E5%AE%8B%E4%BD%93Fake -> ")), "{small_warnings}");
    assert!(entries.contains(&"element_skipped: w:object x3"), "{small_warnings}");
    // What keeps it from PDF/UA comes first; the rest in order of kind.
    assert_eq!(entries[0], "pdfua_no_title", "{small_warnings}");
    let rest: Vec<&str> = entries[1..].to_vec();
    let mut sorted = rest.clone();
    sorted.sort_by_key(|e| e.split([':', ' ']).next().unwrap().to_owned());
    assert_eq!(rest, sorted, "{small_warnings}");
    assert_eq!(warnings_of(small.clone()).await, small_warnings, "the same answer twice");

    // Forty substituted families, Calibri and the title: at most twenty entries and 1 KiB,
    // the rest counted.
    let many_warnings = warnings_of(many).await;
    let entries: Vec<&str> = many_warnings.split(", ").collect();
    let more: usize = entries.last().and_then(|e| e.strip_prefix("and ")?.strip_suffix(" more")?.parse().ok()).expect(&many_warnings);
    assert_eq!(entries.len() - 1 + more, 42, "{many_warnings}");
    assert!(entries.len() - 1 <= 20, "{many_warnings}");
    assert!(many_warnings.len() <= 1024 + ", and 42 more".len(), "{many_warnings}");
    assert!(many_warnings.bytes().all(|b| (0x20..0x7F).contains(&b)), "{many_warnings}");
    assert_eq!(&entries[..3], ["pdfua_no_title", "font_compatible: Calibri -> Carlito", entries[2]]);
    assert!(entries[2].starts_with("font_substituted: Unknown Family 00 -> "), "{many_warnings}");

    // The CLI says the same, one entry a line.
    let (ok, _, err) = cli_named(&small, "", &["--pdfua"]);
    assert!(ok, "{err}");
    let said: Vec<&str> = err.lines().filter_map(|l| l.strip_prefix("warning: ")).collect();
    assert_eq!(said, small_warnings.split(", ").collect::<Vec<_>>(), "{err}");
}

/// Two private use characters no installed face has, between words every face has: the
/// header counts them with their script and the face that drew its missing-glyph box,
/// PDF/UA lists the .notdef glyphs first, the CLI says the same, and the PDF's text holds
/// no character the document does not (the .notdef glyph once read as the first missing
/// character of its font, for all of them).
#[actix_web::test]
async fn characters_no_face_has_are_counted_and_never_read_as_other_characters() {
    let written = "Before \u{E000}\u{E001} after \u{E001}";
    let bytes = common::docx::docx(&paragraph(written));
    let svc = TestService::start(Settings::default()).await;
    let key = svc.account("glyphs", Plan::Paid, 100).await;
    let app = test::init_service(create_app(svc.state.clone())).await;
    for pdfua in [false, true] {
        let fields: &[(&str, &str)] = if pdfua { &[("pdfua", "true")] } else { &[] };
        let res = test::call_service(&app, convert_request(&key, form_named(&bytes, Some("glyphs.docx"), fields))).await;
        assert_eq!(res.status(), 200);
        let warnings = header(&res, "X-Conversion-Warnings").expect("warnings");
        let entries: Vec<&str> = warnings.split(", ").collect();
        let missing: Vec<&&str> = entries.iter().filter(|e| e.starts_with("missing_glyphs: ")).collect();
        assert_eq!(missing.len(), 1, "{warnings}");
        assert!(missing[0].starts_with("missing_glyphs: 3 (Unknown) -> "), "{warnings}");
        assert_eq!(entries[0] == "pdfua_notdef_glyph", pdfua, "{warnings}");
        let pdf = test::read_body(res).await;
        let text = common::pdf::text(&pdf);
        let strangers: Vec<char> = text.chars().filter(|c| !c.is_whitespace() && !written.contains(*c)).collect();
        assert!(strangers.is_empty(), "{strangers:?} in {text:?}");
        assert_eq!(common::pdf::words(&text), common::pdf::words(written), "each character reads as itself");
    }
    let (ok, _, err) = cli(&bytes, &[]);
    assert!(ok, "{err}");
    assert!(err.lines().any(|l| l.starts_with("warning: missing_glyphs: 3 (Unknown) -> ")), "{err}");
}

// ---- Content-Disposition ----

#[actix_web::test]
async fn the_pdf_is_named_after_the_upload() {
    let svc = TestService::start(Settings::default()).await;
    let key = svc.account("names", Plan::Paid, 100).await;
    let app = test::init_service(create_app(svc.state.clone())).await;
    let bytes = common::docx::docx(&paragraph("Named"));
    let cases: [(Option<&str>, &str); 7] = [
        (Some("Q3 report.docx"), "attachment; filename=\"Q3 report.pdf\""),
        (Some("Bericht über Käse.docx"), "attachment; filename=\"Bericht _ber K_se.pdf\"; filename*=UTF-8''Bericht%20%C3%BCber%20K%C3%A4se.pdf"),
        (Some("収穫.docx"), "attachment; filename=\"__.pdf\"; filename*=UTF-8''%E5%8F%8E%E7%A9%AB.pdf"),
        // A quoted-string escapes its backslashes (RFC 7578 §4.2, RFC 9110 §5.6.4).
        (Some(r"C:\\Users\\ada\\notes.v2.docx"), "attachment; filename=\"notes.v2.pdf\""),
        (Some("a\tb;c.docx"), "attachment; filename=\"ab_c.pdf\""),
        (Some(".docx"), "attachment; filename=\"document.pdf\""),
        (None, "attachment; filename=\"document.pdf\""),
    ];
    for (name, expected) in cases {
        let res = test::call_service(&app, convert_request(&key, form_named(&bytes, name, &[]))).await;
        assert_eq!(res.status(), 200, "{name:?}");
        assert_eq!(header(&res, "Content-Disposition").as_deref(), Some(expected), "{name:?}");
    }
    // A quote in the part's name: whatever the multipart parser makes of it, no quote,
    // backslash or folder passes.
    for hostile in [r#"../../x\".docx"#, "../../x'.docx", "..%2F..%2Fx.docx"] {
        let res = test::call_service(&app, convert_request(&key, form_named(&bytes, Some(hostile), &[]))).await;
        assert_eq!(res.status(), 200, "{hostile}");
        let value = header(&res, "Content-Disposition").unwrap();
        let name = value.strip_prefix("attachment; filename=\"").and_then(|v| v.strip_suffix(".pdf\"")).unwrap_or_else(|| panic!("{value}"));
        assert!(!name.contains(['"', '\\', '/', '%']) && !name.starts_with('.'), "{hostile}: {value}");
    }
}

// ---- a generated client ----

/// openapi-python-client generates a client from the running server's description; the
/// generated package, imported as it is, converts a protected document with `password`.
#[test]
fn a_client_generated_from_the_description_converts_with_a_password() {
    let Some(python) = python::with_module("openapi_python_client") else { return };
    let Some(agile) = encrypted("agile", PASSWORD, &plain_docx()) else { return };
    let dir = tempfile::tempdir().unwrap();
    let key = binary::account(dir.path(), "generated", 100);
    let server = binary::Server::start(dir.path(), &["--workers", "1"]);
    let base = format!("http://127.0.0.1:{}", server.port);
    let generated = dir.path().join("docx2pdf_client");
    let out = Command::new(&python)
        .current_dir(dir.path())
        .args(["-m", "openapi_python_client", "generate", "--meta", "none", "--url", &format!("{base}/openapi.json")])
        .arg("--output-path")
        .arg(&generated)
        .timed_output()
        .unwrap();
    assert!(out.status.success(), "generate: {}\n{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    let input = dir.path().join("locked.docx");
    std::fs::write(&input, &agile).unwrap();
    let output = dir.path().join("out.pdf");
    let script = include_str!("input_options/generated_client.py");
    let run = |password: &str| {
        let out = Command::new(&python)
            .arg("-c")
            .arg(script)
            .arg(&generated)
            .args([&base, &key])
            .arg(&input)
            .arg(password)
            .arg(&output)
            .timed_output()
            .unwrap();
        assert!(out.status.success(), "the generated client: {}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice::<Value>(&out.stdout).unwrap()
    };
    let answer = run(PASSWORD);
    assert_eq!(answer["status"], 200, "{answer}");
    assert_eq!(answer["disposition"], "attachment; filename=\"locked.pdf\"", "{answer}");
    assert!(common::pdf::text(&std::fs::read(&output).unwrap()).contains(SECRET_TEXT));
    let answer = run("not it");
    assert_eq!((answer["status"].as_u64(), answer["code"].as_str()), (Some(400), Some("encrypted_document")), "{answer}");
}
