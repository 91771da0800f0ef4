//! Hostile uploads against the real binary over TCP, with its default limits: zip bombs,
//! huge declared entries, 100,000 entries, deep XML, billion laughs, a pixel bomb, deep
//! tables, 100,000 pages, damaged zips and other formats. Each gets its documented status
//! within the time limit, the server stays up, and no credit moves.

mod common;
#[path = "support/binary.rs"]
mod binary;

use std::io::{Cursor, Read, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use binary::{account, log_lines, post_convert, usage, Server};
use common::docx::{docx, docx_with_image, inline_picture, paragraph};
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipArchive, ZipWriter};

/// The server's render time limit in this suite; every answer must come well within it.
const RENDER_TIMEOUT_SECS: u64 = 30;

const W_NS: &str = r#"xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships""#;

fn document_xml(body: &str) -> String {
    format!(r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document {W_NS}><w:body>{body}</w:body></w:document>"#)
}

/// A valid package whose entries are rewritten: `replace` gives new bytes for a name (or
/// drops it with `None`); `extra` entries are added; all stored or all deflated.
fn repackage(
    replace: impl Fn(&str, Vec<u8>) -> Option<Vec<u8>>,
    extra: &[(&str, &[u8])],
    method: CompressionMethod,
) -> Vec<u8> {
    let base = docx(&paragraph("base"));
    let mut zip = ZipArchive::new(Cursor::new(base)).unwrap();
    let mut out = ZipWriter::new(Cursor::new(Vec::new()));
    let options = SimpleFileOptions::default().compression_method(method).large_file(false);
    for i in 0..zip.len() {
        let mut file = zip.by_index(i).unwrap();
        let name = file.name().unwrap().to_string();
        let mut data = Vec::new();
        file.read_to_end(&mut data).unwrap();
        if let Some(data) = replace(&name, data) {
            out.start_file(name.as_str(), options).unwrap();
            out.write_all(&data).unwrap();
        }
    }
    for (name, data) in extra {
        out.start_file(*name, options).unwrap();
        out.write_all(data).unwrap();
    }
    out.finish().unwrap().into_inner()
}

/// A package whose main part is `xml`.
fn with_document(xml: &str, method: CompressionMethod) -> Vec<u8> {
    repackage(
        |name, data| Some(if name == "word/document.xml" { xml.as_bytes().to_vec() } else { data }),
        &[],
        method,
    )
}

/// The header of a PNG of `w` × `h` pixels, with a token IDAT and IEND: a few dozen bytes
/// that would decode to `w * h * 4` bytes.
fn png_header(w: u32, h: u32) -> Vec<u8> {
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut chunk = |kind: &[u8], data: &[u8]| {
        png.extend_from_slice(&(data.len() as u32).to_be_bytes());
        png.extend_from_slice(kind);
        png.extend_from_slice(data);
        png.extend_from_slice(&[0, 0, 0, 0]);
    };
    let mut ihdr = w.to_be_bytes().to_vec();
    ihdr.extend_from_slice(&h.to_be_bytes());
    ihdr.extend_from_slice(&[8, 6, 0, 0, 0]);
    chunk(b"IHDR", &ihdr);
    chunk(b"IDAT", &[0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]);
    chunk(b"IEND", &[]);
    png
}

/// Rewrites the uncompressed size of every zip header that says `from` (local header +22,
/// central header +24, APPNOTE §4.3.7 and §4.3.12).
fn patch_uncompressed_size(bytes: &mut [u8], from: u32, to: u32) {
    for i in 0..bytes.len().saturating_sub(28) {
        let at = match &bytes[i..i + 4] {
            b"PK\x03\x04" => i + 22,
            b"PK\x01\x02" => i + 24,
            _ => continue,
        };
        if bytes[at..at + 4] == from.to_le_bytes() {
            bytes[at..at + 4].copy_from_slice(&to.to_le_bytes());
        }
    }
}

/// Where the stored data of entry `name` lies: after its local header (APPNOTE §4.3.7).
fn entry_data(zip: &[u8], name: &str) -> (usize, usize) {
    let word = |at: usize| u16::from_le_bytes([zip[at], zip[at + 1]]) as usize;
    let at = (0..zip.len() - 30)
        .find(|&i| &zip[i..i + 4] == b"PK\x03\x04" && zip[i + 30..].starts_with(name.as_bytes()))
        .expect("entry");
    let compressed = u32::from_le_bytes(zip[at + 18..at + 22].try_into().unwrap()) as usize;
    (at + 30 + word(at + 26) + word(at + 28), compressed)
}

fn nested_tables(n: usize) -> String {
    "<w:tbl><w:tr><w:tc>".repeat(n) + "<w:p/>" + &"</w:tc></w:tr></w:tbl>".repeat(n)
}

/// One hostile input with the answer API.md documents for it.
struct Case {
    name: &'static str,
    bytes: Vec<u8>,
    status: u16,
    code: &'static str,
    /// A phrase the message must hold (the limit or the format named).
    says: &'static str,
}

fn cases() -> Vec<Case> {
    let stored = CompressionMethod::Stored;
    let deflated = CompressionMethod::Deflated;
    let valid = docx(&paragraph("A valid document that will be damaged"));

    let zip_bomb = repackage(
        |name, data| Some(if name == "word/document.xml" { vec![0; 10 << 20] } else { data }),
        &[],
        deflated,
    );
    let mut gigabyte = with_document(&document_xml(&paragraph(&"x".repeat(4321 - 300))), stored);
    let real = document_xml(&paragraph(&"x".repeat(4321 - 300))).len() as u32;
    patch_uncompressed_size(&mut gigabyte, real, 1 << 30);
    let many: Vec<(String, Vec<u8>)> = (0..100_000).map(|i| (format!("customXml/item{i}.xml"), Vec::new())).collect();
    let many_refs: Vec<(&str, &[u8])> = many.iter().map(|(n, d)| (n.as_str(), d.as_slice())).collect();
    let hundred_thousand_entries = repackage(|_, d| Some(d), &many_refs, stored);
    let deep_xml = with_document(&document_xml(&("<w:sdt>".repeat(100_000) + &"</w:sdt>".repeat(100_000))), deflated);
    let laughs = {
        let mut dtd = String::from(r#"<?xml version="1.0"?><!DOCTYPE w:document [<!ENTITY lol0 "lol">"#);
        for i in 1..10 {
            dtd += &format!(r#"<!ENTITY lol{i} "{}">"#, format!("&lol{};", i - 1).repeat(10));
        }
        dtd += "]>";
        dtd + &document_xml(&paragraph("&lol9;")).replace(r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"#, "")
    };
    let billion_laughs = with_document(&laughs, deflated);
    let picture = format!("<w:p><w:r>{}</w:r></w:p>", inline_picture(100, 100));
    let pixel_bomb = docx_with_image(&picture, "image1.png", &png_header(50_000, 50_000));
    let tables_500 = with_document(&document_xml(&nested_tables(500)), deflated);
    let tables_150 = with_document(&document_xml(&nested_tables(150)), deflated);
    let pages = format!("<w:p><w:r>{}</w:r></w:p>", r#"<w:br w:type="page"/>"#.repeat(100_000));
    let hundred_thousand_pages = with_document(&document_xml(&pages), stored);
    let truncated = valid[..valid.len() / 2].to_vec();
    let mut corrupted = valid.clone();
    // Garble the deflate stream of the main part, not its headers.
    let (start, len) = entry_data(&corrupted, "word/document.xml");
    for b in &mut corrupted[start + len / 4..start + len / 2] {
        *b ^= 0x5A;
    }
    let doc = common::ole::compound_file(&["WordDocument"]);
    let encrypted = common::ole::compound_file(&["EncryptionInfo", "EncryptedPackage"]);
    let pdf = b"%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n".to_vec();

    vec![
        Case { name: "zip bomb", bytes: zip_bomb, status: 400, code: "invalid_docx", says: "--max-compression-ratio" },
        Case { name: "1 GB declared entry", bytes: gigabyte, status: 400, code: "invalid_docx", says: "declares 1073741824 bytes" },
        Case { name: "100,000 entries", bytes: hundred_thousand_entries, status: 400, code: "invalid_docx", says: "--max-zip-entries" },
        Case { name: "deeply nested XML", bytes: deep_xml, status: 400, code: "invalid_docx", says: "--max-xml-depth" },
        Case { name: "billion laughs", bytes: billion_laughs, status: 400, code: "invalid_docx", says: "declares a DTD" },
        Case { name: "50,000 × 50,000 PNG", bytes: pixel_bomb, status: 400, code: "invalid_docx", says: "--max-image-pixels" },
        Case { name: "table nested 500 deep", bytes: tables_500, status: 400, code: "invalid_docx", says: "--max-table-depth" },
        Case { name: "table nested 150 deep", bytes: tables_150, status: 400, code: "invalid_docx", says: "--max-table-depth" },
        Case { name: "100,000 pages", bytes: hundred_thousand_pages, status: 400, code: "invalid_docx", says: "--max-pages" },
        Case { name: "truncated zip", bytes: truncated, status: 400, code: "invalid_docx", says: "the zip archive is damaged" },
        Case { name: "corrupted zip", bytes: corrupted, status: 400, code: "invalid_docx", says: "zip entry word/document.xml is damaged" },
        Case { name: ".doc", bytes: doc, status: 400, code: "unsupported_format", says: ".doc" },
        Case { name: "encrypted .docx", bytes: encrypted, status: 400, code: "encrypted_document", says: "password" },
        Case { name: "PDF renamed .docx", bytes: pdf, status: 400, code: "unsupported_format", says: "PDF" },
    ]
}

#[test]
fn every_hostile_upload_gets_its_status_in_time_the_server_stays_up_and_no_credit_moves() {
    let dir = tempfile::tempdir().unwrap();
    let key = account(dir.path(), "acme", 1000);
    let server = Server::start(dir.path(), &["--workers", "2", "--render-timeout-secs", &RENDER_TIMEOUT_SECS.to_string()]);
    let before = usage(dir.path(), "acme");
    let mut failures = Vec::new();
    let mut answered = Vec::new();
    for case in cases() {
        let started = Instant::now();
        let answer = post_convert(server.port, &key, &case.bytes);
        answered.push(answer.status);
        let took = started.elapsed();
        let message = answer.message();
        let ok = answer.status == case.status
            && answer.code() == case.code
            && message.contains(case.says)
            && took < Duration::from_secs(RENDER_TIMEOUT_SECS);
        println!("{:<24} {} {:<20} {:>6} ms  {message}", case.name, answer.status, answer.code(), took.as_millis());
        if !ok {
            failures.push(format!("{}: {} {} in {took:?}: {message}", case.name, answer.status, answer.code()));
        }
        assert_eq!(binary::get(server.port, "/healthz").0, 200, "the server went down after {}", case.name);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(usage(dir.path(), "acme"), before, "no credit moved");
    // And it still converts.
    let fine = post_convert(server.port, &key, &docx(&paragraph("Still converting")));
    assert_eq!(fine.status, 200, "{}", String::from_utf8_lossy(&fine.body));
    assert_eq!(usage(dir.path(), "acme").used, before.used + 1);

    // A wrong key of the right shape is refused and, like the right one, never logged.
    // Its last character changed (to `1` when it is `0`), so it can never be the key itself.
    let last = if key.ends_with('0') { '1' } else { '0' };
    let wrong = format!("{}{last}", &key[..key.len() - 1]);
    assert_eq!(post_convert(server.port, &wrong, &docx(&paragraph("x"))).status, 401);
    let log = server.log();
    // One request line per conversion, in order, each with the status answered.
    answered.extend([200, 401]);
    let logged: Vec<u16> = log_lines(&server, "route=\"/api/convert\"")
        .iter()
        .filter_map(|l| l.split(" status=").nth(1)?.split(' ').next()?.parse().ok())
        .collect();
    assert_eq!(logged, answered, "the log has the requests: {log}");
    assert!(!log.contains(&key) && !log.contains(&wrong), "a key was logged");
    // The server wrote nothing but its database: not in its working folder, not in temp.
    for sub in ["cwd", "tmp"] {
        let left: Vec<_> = std::fs::read_dir(dir.path().join(sub)).unwrap().flatten().map(|e| e.file_name()).collect();
        assert!(left.is_empty(), "the server wrote {left:?} into {sub}");
    }
    let mut files: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .filter(|e| e.file_type().unwrap().is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with("serve-"))
        .collect();
    files.sort();
    assert!(files.iter().all(|f| f.starts_with("ledger.db")), "{files:?}");
}

#[test]
fn oversized_headers_and_too_many_form_fields_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let key = account(dir.path(), "acme", 10);
    let server = Server::start(dir.path(), &["--workers", "1"]);
    let huge = format!("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: {}\r\nConnection: close\r\n\r\n", "a".repeat(200 * 1024));
    let answer = binary::exchange(server.port, huge.as_bytes());
    assert_eq!(answer.status, 431, "{}", answer.head);
    let boundary = common::BOUNDARY;
    let mut body = String::new();
    for i in 0..20 {
        body += &format!("--{boundary}\r\nContent-Disposition: form-data; name=\"f{i}\"\r\n\r\nx\r\n");
    }
    body += &format!("--{boundary}--\r\n");
    let request = format!(
        "POST /api/convert HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {key}\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        common::multipart_type(),
        body.len()
    );
    let answer = binary::exchange(server.port, request.as_bytes());
    assert_eq!((answer.status, answer.code().as_str()), (400, "invalid_multipart"), "{}", answer.message());
    assert!(answer.message().contains("more than 16 fields"));
    assert_eq!(binary::get(server.port, "/healthz").0, 200);
}

#[test]
fn slow_heads_and_slow_uploads_are_cut_off_at_their_time_limits_without_a_debit() {
    let dir = tempfile::tempdir().unwrap();
    let key = account(dir.path(), "acme", 10);
    let server =
        Server::start(dir.path(), &["--workers", "1", "--upload-timeout-secs", "1", "--client-request-timeout-secs", "1"]);
    // Half a request head, then nothing: cut off with 408 at the head time limit.
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    stream.write_all(b"POST /api/convert HTTP/1.1\r\nHost: x\r\n").unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let started = Instant::now();
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    assert!(String::from_utf8_lossy(&answer).starts_with("HTTP/1.1 408"), "{}", String::from_utf8_lossy(&answer));
    assert!(started.elapsed() < Duration::from_secs(10));
    let request = binary::convert_request(&key, &docx(&paragraph("slow")));
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    // The head and a little of the body, then nothing: a slow-loris client.
    stream.write_all(&request[..request.len() - 100]).unwrap();
    let started = Instant::now();
    let mut answer = Vec::new();
    stream.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let _ = stream.read_to_end(&mut answer);
    let text = String::from_utf8_lossy(&answer);
    assert!(text.starts_with("HTTP/1.1 400"), "{text}");
    assert!(text.contains("--upload-timeout-secs"), "{text}");
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_eq!(usage(dir.path(), "acme").used, 0);
    assert_eq!(usage(dir.path(), "acme").held, 0);
}

/// Lets a render through once `wanted` renders of its kind are in at once (or after
/// `patience`); counts them as they come: (in now, most at once).
struct Rendezvous {
    counts: Mutex<(usize, usize)>,
    changed: Condvar,
    patience: Duration,
}

impl Rendezvous {
    fn new(patience: Duration) -> Arc<Rendezvous> {
        Arc::new(Rendezvous { counts: Mutex::new((0, 0)), changed: Condvar::new(), patience })
    }

    fn meet(&self, wanted: usize) {
        let mut c = self.counts.lock().unwrap();
        c.0 += 1;
        c.1 = c.1.max(c.0);
        self.changed.notify_all();
        let (mut c, _) = self.changed.wait_timeout_while(c, self.patience, |c| c.1 < wanted).unwrap();
        c.0 -= 1;
    }

    fn most_at_once(&self) -> usize {
        self.counts.lock().unwrap().1
    }
}

/// A render that panics (a renderer bug) answers 500 `conversion_failed` without a debit,
/// and the pool keeps its threads: every worker panics once (the failing renders meet
/// before they panic), then a load that needs every worker at once still completes.
#[actix_web::test]
async fn a_panicking_render_is_a_500_without_debit_and_the_pool_keeps_its_workers() {
    use actix_web::test::{self, TestRequest};
    use docx2pdf::db::accounts::Plan;
    use docx2pdf::pdf::PdfOptions;
    use docx2pdf::render::{convert_with, Deadline, RenderPool};

    let svc = common::TestService::start(common::Settings::default()).await;
    let key = svc.account("acme", Plan::Paid, 100).await;
    let renderer = common::renderer();
    let workers = 2;
    let (exploding, converting) = (Rendezvous::new(Duration::from_secs(20)), Rendezvous::new(Duration::from_secs(20)));
    let (explode_gate, fine_gate) = (exploding.clone(), converting.clone());
    // The real pipeline, except for a document holding the word "explode" (a renderer bug),
    // and for "fine" documents, which wait until every worker renders one.
    let convert_fn = move |bytes: &[u8], deadline: &Deadline, options: PdfOptions, _: Option<&docx2pdf_render::TemplateData>| {
        let doc = docx2pdf::docx::read(bytes, &renderer.limits, deadline)?;
        let text = format!("{:?}", doc.document.body);
        if text.contains("explode") {
            explode_gate.meet(workers);
            panic!("a renderer bug");
        }
        fine_gate.meet(workers);
        convert_with(&renderer, bytes, deadline, options)
    };
    let mut state = svc.state.clone();
    state.pool = RenderPool::start_with(Arc::new(convert_fn), workers, 8);
    let app = test::init_service(docx2pdf::http::create_app(state.clone())).await;
    let request = |text: &str| {
        TestRequest::post()
            .uri("/api/convert")
            .insert_header(("Content-Type", common::multipart_type()))
            .insert_header(("Authorization", format!("Bearer {key}")))
            .set_payload(common::multipart("file", &docx(&paragraph(text))))
            .to_request()
    };
    let failed = futures_util::future::join_all((0..workers).map(|_| test::call_service(&app, request("explode")))).await;
    assert_eq!(exploding.most_at_once(), workers, "every worker took a failing render");
    for res in failed {
        assert_eq!(res.status().as_u16(), 500);
        let body: serde_json::Value = serde_json::from_slice(&test::read_body(res).await).unwrap();
        assert_eq!(body["code"], "conversion_failed");
    }
    assert_eq!(state.pool.depth(), 0, "every admission slot came back");
    let all = futures_util::future::join_all((0..workers).map(|_| test::call_service(&app, request("fine")))).await;
    assert_eq!(converting.most_at_once(), workers, "renders at once after the panics: the live workers");
    assert!(all.iter().all(|r| r.status().as_u16() == 200), "{:?}", all.iter().map(|r| r.status()).collect::<Vec<_>>());
    let balance = docx2pdf::db::usage::balance(&svc.db, 1, docx2pdf::credits::Month::of(docx2pdf::clock::Clock::now(&svc.clock))).await.unwrap();
    assert_eq!((balance.used, balance.reserved), (workers as i64, 0), "only the good conversions were debited");
}

/// The count of live workers is not the pool's own say: a pool of one thread, asked for a
/// load that needs two at once, shows one.
#[actix_web::test]
async fn the_rendezvous_counts_one_render_at_once_on_a_pool_that_lost_a_worker() {
    use docx2pdf::pdf::PdfOptions;
    use docx2pdf::render::pool::RenderJob;
    use docx2pdf::render::{Deadline, RenderPool, Rendered};

    let gate = Rendezvous::new(Duration::from_millis(300));
    let meeting = gate.clone();
    let convert = move |_: &[u8], _: &Deadline, _: PdfOptions, _: Option<&docx2pdf_render::TemplateData>| {
        meeting.meet(2);
        Ok(Rendered { pdf: Vec::new(), pages: 1, warnings: Vec::new() })
    };
    let pool = RenderPool::start_with(Arc::new(convert), 1, 8);
    let job = || RenderJob { bytes: Vec::new(), time_limit: Duration::from_secs(5), memory_limit: None, options: PdfOptions::default(), data: None };
    let (a, b) = tokio::join!(pool.render(job()), pool.render(job()));
    assert!(a.is_ok() && b.is_ok());
    assert_eq!(gate.most_at_once(), 1);
}

/// The request head of a conversion whose body follows as `framing` says.
fn convert_head(key: &str, framing: &str) -> String {
    format!(
        "POST /api/convert HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {key}\r\nContent-Type: {}\r\n{framing}Connection: close\r\n\r\n",
        common::multipart_type()
    )
}

/// Reads an answer to its end (the server closes), at most 20 s.
fn read_answer(stream: &mut std::net::TcpStream) -> (u16, serde_json::Value) {
    stream.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    let text = String::from_utf8_lossy(&answer);
    let status = text.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let body = text.split_once("\r\n\r\n").and_then(|(_, b)| serde_json::from_str(b).ok()).unwrap_or_default();
    (status, body)
}

#[test]
fn an_upload_over_the_limit_is_413_from_its_content_length_before_the_body_or_as_its_chunks_cross_it() {
    let dir = tempfile::tempdir().unwrap();
    let key = account(dir.path(), "acme", 100);
    let server = Server::start(dir.path(), &["--workers", "1", "--max-upload-mb", "1", "--upload-timeout-secs", "10"]);

    // Only the head, declaring 2 MB: the answer comes without a byte of the body sent.
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    stream.write_all(convert_head(&key, &format!("Content-Length: {}\r\n", 2 * 1_048_576)).as_bytes()).unwrap();
    let (status, body) = read_answer(&mut stream);
    assert_eq!((status, body["code"].as_str()), (413, Some("file_too_large")), "{body}");
    assert!(body["message"].as_str().unwrap().contains("1 MB"), "{body}");

    // A chunked body (no length declared) is counted as it streams: 64 KiB chunks of a
    // 64 MB file are cut once the file passes 1 MB. The answer comes while the sender is
    // still far from the end of the file (the loopback's socket buffers hold a few MB).
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    stream.write_all(convert_head(&key, "Transfer-Encoding: chunked\r\n").as_bytes()).unwrap();
    let body = common::multipart("file", &vec![b'x'; 64 * 1_048_576]);
    let whole = body.len();
    let mut sender = stream.try_clone().unwrap();
    sender.set_write_timeout(Some(Duration::from_secs(20))).unwrap();
    let sent = Arc::new(AtomicUsize::new(0));
    let counted = sent.clone();
    let sending = std::thread::spawn(move || {
        for chunk in body.chunks(64 * 1024) {
            let framed = [format!("{:x}\r\n", chunk.len()).as_bytes(), chunk, b"\r\n"].concat();
            if sender.write_all(&framed).is_err() {
                return;
            }
            counted.fetch_add(chunk.len(), Ordering::SeqCst);
        }
        let _ = sender.write_all(b"0\r\n\r\n");
    });
    stream.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    stream.peek(&mut [0u8; 1]).expect("an answer within 20 s");
    let sent_when_answered = sent.load(Ordering::SeqCst);
    assert!(sent_when_answered < whole / 4, "answered after {sent_when_answered} of {whole} bytes: the file past 1 MB was not cut as it streamed");
    let (status, body) = read_answer(&mut stream);
    assert_eq!((status, body["code"].as_str()), (413, Some("file_too_large")), "{body}");
    sending.join().unwrap();
    assert_eq!(binary::get(server.port, "/healthz").0, 200);
    let u = usage(dir.path(), "acme");
    assert_eq!((u.used, u.held), (0, 0), "{u:?}");
}
