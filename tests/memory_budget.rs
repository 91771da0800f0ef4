//! The render memory budget over HTTP, in the app that `serve` builds and under the
//! counting allocator the binary installs: a document whose render needs more heap than
//! the budget is answered 500 `conversion_memory_limit`, costs nothing, and its worker
//! converts the next document.

mod common;

use actix_web::http::StatusCode;
use actix_web::test;
use common::docx::{docx, paragraph};
use common::{convert_request, multipart, Settings, TestService};
use docx2pdf::db::{self, accounts::Plan};
use docx2pdf::http::create_app;
use docx2pdf::render::memory;
use serde_json::Value;

/// As in the binary (src/main.rs): without it the budget has nothing to read.
#[global_allocator]
static ALLOCATOR: memory::Counting = memory::Counting;

/// The budget of the test's one worker.
const BUDGET_MB: usize = BUDGET >> 20;
const BUDGET: usize = 8 << 20;

/// One page.
fn small() -> Vec<u8> {
    docx(&paragraph("Quarterly report for the board"))
}

/// About 240 pages of plain paragraphs: its render holds two to four times the budget at
/// its largest (`convert --render-memory-mb` stops it at 16 MB and lets it through at 32),
/// where a one-page document's holds less than 1 MB.
fn long() -> Vec<u8> {
    let sentence = "the committee reviewed the figures of the quarter and agreed to publish them with the annual report.";
    docx(&(0..4_000).map(|i| paragraph(&format!("Paragraph {i}: {sentence}"))).collect::<String>())
}

async fn balance(svc: &TestService) -> (i64, i64) {
    let b = db::usage::balance(&svc.db, 1, docx2pdf::credits::Month::of(svc.state.clock.now())).await.unwrap();
    (b.used, b.reserved)
}

#[actix_web::test]
async fn a_render_over_its_memory_budget_is_500_conversion_memory_limit_free_and_the_worker_goes_on() {
    assert!(memory::is_counting(), "the test binary counts its heap");
    let svc = TestService::start(Settings { workers: 1, render_memory: Some(BUDGET), ..Settings::default() }).await;
    let key = svc.account("acme", Plan::Paid, 5).await;
    let app = test::init_service(create_app(svc.state.clone())).await;

    // A small document fits the budget, the worker's first render included.
    let res = test::call_service(&app, convert_request(&key, multipart("file", &small()))).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(balance(&svc).await, (1, 0));

    let res = test::call_service(&app, convert_request(&key, multipart("file", &long()))).await;
    assert_eq!(res.status(), StatusCode::INTERNAL_SERVER_ERROR);
    let body: Value = serde_json::from_slice(&test::read_body(res).await).expect("JSON body");
    assert_eq!(body["code"], "conversion_memory_limit", "{body}");
    let error = body["error"].as_str().unwrap_or_default();
    assert!(error.contains(&format!("({BUDGET_MB} MB)")), "the message names the budget: {error}");
    assert_eq!(balance(&svc).await, (1, 0), "the hold was given back and nothing debited");

    // The same worker converts the next documents, and is paid for them.
    for n in 2..=3 {
        let res = test::call_service(&app, convert_request(&key, multipart("file", &small()))).await;
        assert_eq!(res.status(), StatusCode::OK);
        assert_eq!(balance(&svc).await, (n, 0));
    }
}
