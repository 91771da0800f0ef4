//! The HTTP contract of API.md, driven through the app that `serve` builds: every error row,
//! the success headers, the credit arithmetic, concurrency, revocation and month rollover.

mod common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use actix_web::body::MessageBody;
use actix_web::dev::ServiceResponse;
use actix_web::http::StatusCode;
use actix_web::test::{self, TestRequest};
use chrono::{TimeZone, Utc};
use common::docx::{docx, docx_of_size, paragraph};
use common::{convert_request_builder, multipart, Settings, TestService};
use docx2pdf::db::{self, accounts::Plan};
use docx2pdf::http::create_app;
use docx2pdf::pdf::PdfOptions;
use docx2pdf::render::{convert, Deadline, RenderError, RenderPool};
use entity::ledger_entry;
use sea_orm::EntityTrait;
use serde_json::Value;

fn sample() -> Vec<u8> {
    docx(&paragraph("Quarterly report for the board"))
}

fn header<B>(res: &ServiceResponse<B>, name: &str) -> Option<String> {
    res.headers().get(name).map(|v| v.to_str().unwrap().to_owned())
}

/// Reads a JSON error body and checks the shape every error shares.
async fn error_body<B: MessageBody>(res: ServiceResponse<B>, status: StatusCode, code: &str) -> Value {
    assert_eq!(res.status(), status, "status");
    assert_eq!(header(&res, "content-type").as_deref(), Some("application/json"));
    assert!(header(&res, "x-request-id").is_some(), "errors carry X-Request-Id too");
    let body: Value = serde_json::from_slice(&test::read_body(res).await).expect("JSON body");
    assert_eq!(body["code"], code);
    assert!(body["error"].as_str().is_some_and(|s| !s.is_empty()));
    assert_eq!(body["error"], body["message"], "message repeats error for older clients");
    body
}

async fn ledger_sum(svc: &TestService) -> i64 {
    ledger_entry::Entity::find().all(&svc.db).await.unwrap().iter().map(|e| e.credits).sum()
}

#[actix_web::test]
async fn a_conversion_returns_the_pdf_with_credit_headers() {
    let svc = TestService::start(Settings::default()).await;
    let key = svc.account("acme", Plan::Paid, 100).await;
    let app = test::init_service(create_app(svc.state.clone())).await;
    let res = test::call_service(&app, convert_request_builder(Some(&key), multipart("file", &sample())).to_request()).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(header(&res, "content-type").as_deref(), Some("application/pdf"));
    assert_eq!(header(&res, "x-credits-used").as_deref(), Some("1"));
    assert_eq!(header(&res, "x-credits-remaining").as_deref(), Some("99"));
    assert_eq!(header(&res, "x-credits-limit").as_deref(), Some("100"));
    assert_eq!(header(&res, "x-request-id").map(|id| id.len()), Some(32));
    let pdf = test::read_body(res).await;
    assert!(pdf.starts_with(b"%PDF-"));
    assert_eq!(ledger_sum(&svc).await, 1);
}

#[actix_web::test]
async fn a_valid_request_id_is_echoed_and_an_unsafe_one_replaced() {
    let svc = TestService::start(Settings::default()).await;
    let app = test::init_service(create_app(svc.state.clone())).await;
    let res = test::call_service(&app, TestRequest::get().uri("/healthz").insert_header(("X-Request-Id", "trace-42.a")).to_request()).await;
    assert_eq!(header(&res, "x-request-id").as_deref(), Some("trace-42.a"));
    let res = test::call_service(&app, TestRequest::get().uri("/healthz").insert_header(("X-Request-Id", "bad id")).to_request()).await;
    let id = header(&res, "x-request-id").unwrap();
    assert_ne!(id, "bad id");
    assert_eq!(id.len(), 32);
}

#[actix_web::test]
async fn missing_or_malformed_authorization_is_401_with_bearer_challenge() {
    let svc = TestService::start(Settings::default()).await;
    let app = test::init_service(create_app(svc.state.clone())).await;
    let cases = [
        convert_request_builder(None, multipart("file", &sample())),
        convert_request_builder(None, multipart("file", &sample())).insert_header(("Authorization", "Basic dXNlcjpwYXNz")),
        convert_request_builder(Some("d2p_unknownunknownunknownunknownunknown12"), multipart("file", &sample())),
        convert_request_builder(Some("not-a-key"), multipart("file", &sample())),
    ];
    for req in cases {
        let res = test::call_service(&app, req.to_request()).await;
        assert_eq!(header(&res, "www-authenticate").as_deref(), Some("Bearer"));
        error_body(res, StatusCode::UNAUTHORIZED, "unauthorized").await;
    }
}

#[actix_web::test]
async fn a_revoked_key_is_refused_at_once() {
    let svc = TestService::start(Settings::default()).await;
    let key = svc.account("acme", Plan::Paid, 100).await;
    let app = test::init_service(create_app(svc.state.clone())).await;
    let res = test::call_service(&app, convert_request_builder(Some(&key), multipart("file", &sample())).to_request()).await;
    assert_eq!(res.status(), StatusCode::OK);
    db::keys::revoke(&svc.db, &key[..12], 0).await.unwrap();
    let res = test::call_service(&app, convert_request_builder(Some(&key), multipart("file", &sample())).to_request()).await;
    error_body(res, StatusCode::UNAUTHORIZED, "unauthorized").await;
}

#[actix_web::test]
async fn a_free_plan_key_is_403_plan_required() {
    let svc = TestService::start(Settings::default()).await;
    let key = svc.account("hobby", Plan::Free, 100).await;
    let app = test::init_service(create_app(svc.state.clone())).await;
    let res = test::call_service(&app, convert_request_builder(Some(&key), multipart("file", &sample())).to_request()).await;
    error_body(res, StatusCode::FORBIDDEN, "plan_required").await;
}

#[actix_web::test]
async fn bad_uploads_are_400_with_their_codes_and_cost_nothing() {
    let svc = TestService::start(Settings::default()).await;
    let key = svc.account("acme", Plan::Paid, 100).await;
    let app = test::init_service(create_app(svc.state.clone())).await;

    let not_multipart = TestRequest::post()
        .uri("/api/convert")
        .insert_header(("Authorization", format!("Bearer {key}")))
        .insert_header(("Content-Type", "application/json"))
        .set_payload("{}");
    let res = test::call_service(&app, not_multipart.to_request()).await;
    error_body(res, StatusCode::BAD_REQUEST, "invalid_multipart").await;

    let res = test::call_service(&app, convert_request_builder(Some(&key), multipart("document", &sample())).to_request()).await;
    error_body(res, StatusCode::BAD_REQUEST, "missing_file").await;

    let res = test::call_service(&app, convert_request_builder(Some(&key), multipart("file", b"")).to_request()).await;
    error_body(res, StatusCode::BAD_REQUEST, "empty_file").await;

    let res = test::call_service(&app, convert_request_builder(Some(&key), multipart("file", b"just some text, not a zip")).to_request()).await;
    error_body(res, StatusCode::BAD_REQUEST, "invalid_docx").await;

    // A zip that is not a Word document.
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    zip.start_file("hello.txt", zip::write::SimpleFileOptions::default()).unwrap();
    std::io::Write::write_all(&mut zip, b"hello").unwrap();
    let not_word = zip.finish().unwrap().into_inner();
    let res = test::call_service(&app, convert_request_builder(Some(&key), multipart("file", &not_word)).to_request()).await;
    error_body(res, StatusCode::BAD_REQUEST, "invalid_docx").await;

    let legacy_doc = common::ole::compound_file(&["WordDocument", "1Table"]);
    let res = test::call_service(&app, convert_request_builder(Some(&key), multipart("file", &legacy_doc)).to_request()).await;
    error_body(res, StatusCode::BAD_REQUEST, "unsupported_format").await;

    let res = test::call_service(&app, convert_request_builder(Some(&key), multipart("file", b"%PDF-1.7\n%\xe2\xe3\n1 0 obj")).to_request()).await;
    error_body(res, StatusCode::BAD_REQUEST, "unsupported_format").await;

    let encrypted = common::ole::compound_file(&["EncryptionInfo", "EncryptedPackage"]);
    let res = test::call_service(&app, convert_request_builder(Some(&key), multipart("file", &encrypted)).to_request()).await;
    error_body(res, StatusCode::BAD_REQUEST, "encrypted_document").await;

    assert_eq!(ledger_sum(&svc).await, 0, "failed requests cost nothing");
    let acme = db::accounts::get(&svc.db, "acme").await.unwrap();
    let month = docx2pdf::credits::Month::of(Utc.with_ymd_and_hms(2026, 11, 21, 12, 0, 0).unwrap());
    let balance = db::usage::balance(&svc.db, acme.id, month).await.unwrap();
    assert_eq!((balance.used, balance.reserved), (0, 0), "no hold is left behind");
}

#[actix_web::test]
async fn an_upload_over_the_limit_is_413_stating_the_limit() {
    let svc = TestService::start(Settings { max_upload_bytes: 1_048_576, ..Settings::default() }).await;
    let key = svc.account("acme", Plan::Paid, 100).await;
    let app = test::init_service(create_app(svc.state.clone())).await;
    let big = docx_of_size(&paragraph("big"), 1_048_577);
    let res = test::call_service(&app, convert_request_builder(Some(&key), multipart("file", &big)).to_request()).await;
    let body = error_body(res, StatusCode::PAYLOAD_TOO_LARGE, "file_too_large").await;
    assert!(body["error"].as_str().unwrap().contains("1 MB"), "{body}");
    let exact = docx_of_size(&paragraph("fits"), 1_048_576);
    let res = test::call_service(&app, convert_request_builder(Some(&key), multipart("file", &exact)).to_request()).await;
    assert_eq!(res.status(), StatusCode::OK);
}

#[actix_web::test]
async fn five_mib_costs_one_credit_and_one_byte_more_costs_two() {
    let svc = TestService::start(Settings::default()).await;
    let key = svc.account("acme", Plan::Paid, 10).await;
    let app = test::init_service(create_app(svc.state.clone())).await;
    let exact = docx_of_size(&paragraph("five"), 5_242_880);
    let res = test::call_service(&app, convert_request_builder(Some(&key), multipart("file", &exact)).to_request()).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(header(&res, "x-credits-used").as_deref(), Some("1"));
    assert_eq!(header(&res, "x-credits-remaining").as_deref(), Some("9"));
    let over = docx_of_size(&paragraph("five and a byte"), 5_242_881);
    let res = test::call_service(&app, convert_request_builder(Some(&key), multipart("file", &over)).to_request()).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(header(&res, "x-credits-used").as_deref(), Some("2"));
    assert_eq!(header(&res, "x-credits-remaining").as_deref(), Some("7"));
    assert_eq!(ledger_sum(&svc).await, 3);
}

#[actix_web::test]
async fn without_enough_credits_the_answer_is_429_with_the_allowance() {
    let svc = TestService::start(Settings::default()).await;
    let key = svc.account("acme", Plan::Paid, 2).await;
    let app = test::init_service(create_app(svc.state.clone())).await;
    let over = docx_of_size(&paragraph("needs three"), 10 * 1_048_576 + 1);
    let res = test::call_service(&app, convert_request_builder(Some(&key), multipart("file", &over)).to_request()).await;
    assert_eq!(header(&res, "x-credits-remaining").as_deref(), Some("2"));
    assert_eq!(header(&res, "x-credits-limit").as_deref(), Some("2"));
    // 2026-11-21T12:00:00Z to 2026-12-01T00:00:00Z.
    assert_eq!(header(&res, "retry-after").as_deref(), Some("820800"));
    let body = error_body(res, StatusCode::TOO_MANY_REQUESTS, "insufficient_credits").await;
    assert!(body["error"].as_str().unwrap().contains("not enough credits"));
    assert_eq!(body["creditsNeeded"], 3);
    assert_eq!(body["creditsRemaining"], 2);
    assert_eq!(body["creditsLimit"], 2);
    assert_eq!(body["resetAt"], "2026-12-01T00:00:00.000Z");
    assert_eq!(ledger_sum(&svc).await, 0);
}

#[actix_web::test]
async fn thirty_concurrent_requests_on_ten_credits_spend_exactly_ten() {
    let svc = TestService::start(Settings { workers: 2, queue: 64, ..Settings::default() }).await;
    let key = svc.account("acme", Plan::Paid, 10).await;
    let app = test::init_service(create_app(svc.state.clone())).await;
    let body = multipart("file", &sample());
    let calls = (0..30).map(|_| test::call_service(&app, convert_request_builder(Some(&key), body.clone()).to_request()));
    let statuses: Vec<StatusCode> = futures_util::future::join_all(calls).await.iter().map(|r| r.status()).collect();
    let ok = statuses.iter().filter(|s| **s == StatusCode::OK).count();
    let refused = statuses.iter().filter(|s| **s == StatusCode::TOO_MANY_REQUESTS).count();
    assert_eq!((ok, refused), (10, 20), "{statuses:?}");
    assert_eq!(ledger_sum(&svc).await, 10);
    let remaining = db::usage::balance(&svc.db, 1, docx2pdf::credits::Month::of(svc.state.clock.now())).await.unwrap();
    assert_eq!((remaining.used, remaining.reserved), (10, 0));
}

/// A document of many pages: seconds of layout in a debug build.
fn long_document() -> Vec<u8> {
    let text = "Every clause of this agreement is read with the others, and no heading limits the meaning of the text below it. ";
    docx(&(0..1500).map(|i| paragraph(&format!("{i}. {}", text.repeat(3)))).collect::<String>())
}

/// Fails the test when `call` has not answered within a minute, instead of letting it hang.
async fn watchdog<T>(call: impl std::future::Future<Output = T>) -> T {
    tokio::time::timeout(Duration::from_secs(60), call).await.expect("no answer within 60 s")
}

async fn balance(svc: &TestService) -> (i64, i64) {
    let b = db::usage::balance(&svc.db, 1, docx2pdf::credits::Month::of(svc.state.clock.now())).await.unwrap();
    (b.used, b.reserved)
}

#[actix_web::test]
async fn a_render_cut_by_its_time_limit_mid_layout_is_500_conversion_timeout_free_and_the_worker_goes_on() {
    let long = long_document();
    // The render's own duration, warm (the first conversion also loads fonts and caches).
    convert(&common::renderer(), &sample(), &Deadline::none()).expect("the sample converts");
    let started = Instant::now();
    convert(&common::renderer(), &long, &Deadline::none()).expect("the long document converts");
    let full = started.elapsed();
    assert!(full >= Duration::from_secs(1), "the long document renders in {full:?}: too fast to be cut mid-render");
    let limit = full / 4;
    let svc = TestService::start(Settings { workers: 1, render_timeout: limit, ..Settings::default() }).await;
    let key = svc.account("acme", Plan::Paid, 5).await;
    let app = test::init_service(create_app(svc.state.clone())).await;
    let started = Instant::now();
    let res = watchdog(test::call_service(&app, convert_request_builder(Some(&key), multipart("file", &long)).to_request())).await;
    let took = started.elapsed();
    error_body(res, StatusCode::INTERNAL_SERVER_ERROR, "conversion_timeout").await;
    // The render was at work for its whole limit (it did not trip before it started) and
    // was stopped by its own deadline checks before it could have finished: a quarter of
    // the render's time, with three quarters of it left for a loaded CPU.
    assert!(took >= limit, "answered after {took:?}, before the limit of {limit:?}");
    assert!(took < full, "answered after {took:?}: the limit of {limit:?} did not stop a {full:?} render");
    assert_eq!(balance(&svc).await, (0, 0), "the hold was given back and nothing debited");
    // The worker is free again: the next document converts and is paid for.
    let res = test::call_service(&app, convert_request_builder(Some(&key), multipart("file", &sample())).to_request()).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(balance(&svc).await, (1, 0));
}

#[actix_web::test]
async fn a_renderer_stuck_past_its_limit_is_answered_by_the_handler_after_the_grace_period() {
    let svc = TestService::start(Settings { workers: 1, render_timeout: Duration::from_millis(200), ..Settings::default() }).await;
    let key = svc.account("acme", Plan::Paid, 5).await;
    // A renderer stuck where it cannot check its deadline: it ignores it for 30 s.
    let stuck = |_: &[u8], _: &Deadline, _: PdfOptions, _: Option<&docx2pdf_render::TemplateData>| {
        std::thread::sleep(Duration::from_secs(30));
        Err(RenderError::Panic)
    };
    let mut state = svc.state.clone();
    state.pool = RenderPool::start_with(Arc::new(stuck), 1, 4);
    let app = test::init_service(create_app(state)).await;
    let started = Instant::now();
    let res = watchdog(test::call_service(&app, convert_request_builder(Some(&key), multipart("file", &sample())).to_request())).await;
    let took = started.elapsed();
    error_body(res, StatusCode::INTERNAL_SERVER_ERROR, "conversion_timeout").await;
    // The limit plus the handler's 5 s of grace, not the renderer's 30 s: the upper bound
    // leaves 10 s for a loaded CPU.
    assert!(took >= Duration::from_secs(5) && took < Duration::from_secs(15), "answered after {took:?}");
    assert_eq!(balance(&svc).await, (0, 0), "the hold was given back");
}

#[actix_web::test]
async fn a_full_render_queue_is_503_overloaded_and_free() {
    let svc = TestService::start(Settings { workers: 1, queue: 0, ..Settings::default() }).await;
    let key = svc.account("acme", Plan::Paid, 1000).await;
    let app = test::init_service(create_app(svc.state.clone())).await;
    let long: String = (0..400).map(|i| paragraph(&format!("Paragraph {i} with enough words to wrap across the line at least once in the page."))).collect();
    let body = multipart("file", &docx(&long));
    let calls = (0..12).map(|_| test::call_service(&app, convert_request_builder(Some(&key), body.clone()).to_request()));
    let responses = futures_util::future::join_all(calls).await;
    let mut ok = 0;
    let mut overloaded = 0;
    for res in responses {
        match res.status() {
            StatusCode::OK => ok += 1,
            StatusCode::SERVICE_UNAVAILABLE => {
                assert_eq!(header(&res, "retry-after").as_deref(), Some("1"));
                error_body(res, StatusCode::SERVICE_UNAVAILABLE, "overloaded").await;
                overloaded += 1;
            }
            other => panic!("unexpected status {other}"),
        }
    }
    assert!(ok >= 1 && overloaded >= 1, "ok {ok}, overloaded {overloaded}");
    assert_eq!(ledger_sum(&svc).await, ok, "only successes are charged");
}

#[actix_web::test]
async fn the_allowance_renews_when_the_month_turns() {
    let now = Utc.with_ymd_and_hms(2026, 11, 30, 23, 59, 59).unwrap();
    let svc = TestService::start(Settings { now, ..Settings::default() }).await;
    let key = svc.account("acme", Plan::Paid, 1).await;
    let app = test::init_service(create_app(svc.state.clone())).await;
    let res = test::call_service(&app, convert_request_builder(Some(&key), multipart("file", &sample())).to_request()).await;
    assert_eq!(header(&res, "x-credits-remaining").as_deref(), Some("0"));
    let res = test::call_service(&app, convert_request_builder(Some(&key), multipart("file", &sample())).to_request()).await;
    assert_eq!(header(&res, "retry-after").as_deref(), Some("1"));
    let body = error_body(res, StatusCode::TOO_MANY_REQUESTS, "insufficient_credits").await;
    assert_eq!(body["resetAt"], "2026-12-01T00:00:00.000Z");
    svc.clock.set(Utc.with_ymd_and_hms(2026, 12, 1, 0, 0, 0).unwrap());
    let res = test::call_service(&app, convert_request_builder(Some(&key), multipart("file", &sample())).to_request()).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(header(&res, "x-credits-remaining").as_deref(), Some("0"));
    let entries = ledger_entry::Entity::find().all(&svc.db).await.unwrap();
    let months: Vec<&str> = entries.iter().map(|e| e.month.as_str()).collect();
    assert_eq!(months, ["2026-11", "2026-12"]);
}

#[actix_web::test]
async fn unknown_paths_are_404_and_wrong_methods_405_in_json() {
    let svc = TestService::start(Settings::default()).await;
    let app = test::init_service(create_app(svc.state.clone())).await;
    let res = test::call_service(&app, TestRequest::get().uri("/api/nothing").to_request()).await;
    error_body(res, StatusCode::NOT_FOUND, "not_found").await;
    let res = test::call_service(&app, TestRequest::get().uri("/api/convert").to_request()).await;
    assert_eq!(header(&res, "allow").as_deref(), Some("POST"));
    error_body(res, StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed").await;
    let res = test::call_service(&app, TestRequest::post().uri("/healthz").to_request()).await;
    error_body(res, StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed").await;
}

#[actix_web::test]
async fn health_readiness_and_metrics_report_the_service() {
    let svc = TestService::start(Settings::default()).await;
    let key = svc.account("acme", Plan::Paid, 100).await;
    let app = test::init_service(create_app(svc.state.clone())).await;
    let res = test::call_service(&app, TestRequest::get().uri("/healthz").to_request()).await;
    assert_eq!(res.status(), StatusCode::OK);
    let res = test::call_service(&app, TestRequest::get().uri("/readyz").to_request()).await;
    assert_eq!(res.status(), StatusCode::OK);
    let res = test::call_service(&app, convert_request_builder(Some(&key), multipart("file", &sample())).to_request()).await;
    assert_eq!(res.status(), StatusCode::OK);
    let res = test::call_service(&app, convert_request_builder(None, multipart("file", &sample())).to_request()).await;
    assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
    let res = test::call_service(&app, TestRequest::get().uri("/metrics").to_request()).await;
    let text = String::from_utf8(test::read_body(res).await.to_vec()).unwrap();
    assert!(text.contains("docx2pdf_http_requests_total{route=\"/api/convert\",status=\"200\"} 1"), "{text}");
    assert!(text.contains("docx2pdf_http_requests_total{route=\"/api/convert\",status=\"401\"} 1"));
    assert!(text.contains("docx2pdf_conversion_seconds_count 1"));
    assert!(text.contains("docx2pdf_credits_debited_total 1"));
    assert!(text.contains("docx2pdf_render_queue_depth 0"));
}

#[actix_web::test]
async fn readiness_is_503_when_the_database_is_gone() {
    let svc = TestService::start(Settings::default()).await;
    let app = test::init_service(create_app(svc.state.clone())).await;
    svc.db.clone().close().await.unwrap();
    let res = test::call_service(&app, TestRequest::get().uri("/readyz").to_request()).await;
    assert!(header(&res, "retry-after").is_some());
    error_body(res, StatusCode::SERVICE_UNAVAILABLE, "unavailable").await;
}

#[actix_web::test]
async fn a_conversion_held_in_one_month_and_finished_in_the_next_is_charged_to_the_first() {
    let svc = TestService::start(Settings { now: Utc.with_ymd_and_hms(2026, 11, 30, 23, 59, 59).unwrap(), ..Settings::default() }).await;
    let key = svc.account("acme", Plan::Paid, 1).await;
    let mut state = svc.state.clone();
    let mut gate = common::GatedPool::install(&mut state);
    let app = test::init_service(create_app(state)).await;
    let request = convert_request_builder(Some(&key), multipart("file", &sample())).to_request();
    let (res, ()) = tokio::join!(
        test::call_service(&app, request),
        gate.while_rendering(async { svc.clock.set(Utc.with_ymd_and_hms(2026, 12, 1, 0, 0, 1).unwrap()) })
    );
    assert_eq!(res.status(), StatusCode::OK);
    // The credit was held against November's allowance, so November pays for it, even
    // though the conversion ended in December; December's allowance is untouched.
    let entries = ledger_entry::Entity::find().all(&svc.db).await.unwrap();
    assert_eq!(entries.iter().map(|e| (e.month.as_str(), e.credits)).collect::<Vec<_>>(), [("2026-11", 1)]);
    let month = |y, m| docx2pdf::credits::Month::of(Utc.with_ymd_and_hms(y, m, 1, 0, 0, 0).unwrap());
    let november = db::usage::balance(&svc.db, 1, month(2026, 11)).await.unwrap();
    let december = db::usage::balance(&svc.db, 1, month(2026, 12)).await.unwrap();
    assert_eq!((november.used, november.reserved, december.used, december.reserved), (1, 0, 0, 0));
    // So December's one credit is still there for the next conversion.
    let request = convert_request_builder(Some(&key), multipart("file", &sample())).to_request();
    let (res, ()) = tokio::join!(test::call_service(&app, request), gate.while_rendering(async {}));
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(header(&res, "x-credits-remaining").as_deref(), Some("0"));
}

#[actix_web::test]
async fn a_hold_lost_before_the_commit_is_500_conversion_failed_and_nothing_is_debited() {
    let svc = TestService::start(Settings::default()).await;
    let key = svc.account("acme", Plan::Paid, 5).await;
    let mut state = svc.state.clone();
    let mut gate = common::GatedPool::install(&mut state);
    let ledger = state.ledger.clone();
    let app = test::init_service(create_app(state)).await;
    let request = convert_request_builder(Some(&key), multipart("file", &sample())).to_request();
    // While the render runs, its hold outlives its time to live and the sweep releases it,
    // as it would for a render far past its time limit.
    let (res, ()) = tokio::join!(
        test::call_service(&app, request),
        gate.while_rendering(async {
            assert_eq!(balance(&svc).await, (0, 1), "the render holds one credit");
            svc.clock.set(Utc.with_ymd_and_hms(2026, 11, 22, 12, 0, 0).unwrap());
            let swept = ledger.send(docx2pdf::ledger::SweepExpired).await.unwrap().unwrap();
            assert_eq!(swept, 1, "the sweep released the hold");
        })
    );
    let body = error_body(res, StatusCode::INTERNAL_SERVER_ERROR, "conversion_failed").await;
    assert!(body["message"].as_str().unwrap().contains("reservation expired"), "{body}");
    assert_eq!(ledger_sum(&svc).await, 0, "no ledger entry for a lost hold");
    assert_eq!(balance(&svc).await, (0, 0));
}
