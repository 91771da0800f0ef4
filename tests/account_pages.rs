//! The account pages' security rules through the app that `serve` builds: the session
//! cookie's flags and storage, same-origin POSTs, CSRF tokens, one key per form, the
//! sign-in back-off, session fixation and expiry (with the test clock), the headers of
//! every page, and the wall between API keys and sessions.

mod common;

use std::time::{Duration, Instant};

use actix_web::body::MessageBody;
use actix_web::dev::{Service, ServiceResponse};
use actix_web::http::StatusCode;
use actix_web::test::{self, TestRequest};
use common::docx::{docx, paragraph};
use common::{multipart, multipart_type, Settings, TestService};
use docx2pdf::clock::{unix_ms, Clock};
use docx2pdf::db::{self, accounts::Plan};
use docx2pdf::http::create_app;
use entity::{api_key, web_session};
use sea_orm::EntityTrait;

const PASSWORD: &str = "a calm long passphrase";

fn header<B>(res: &ServiceResponse<B>, name: &str) -> String {
    res.headers().get(name).map(|v| v.to_str().unwrap().to_owned()).unwrap_or_default()
}

async fn body<B: MessageBody>(res: ServiceResponse<B>) -> String {
    String::from_utf8(test::read_body(res).await.to_vec()).unwrap()
}

/// The value of the hidden field `name` in a page.
fn field(html: &str, name: &str) -> String {
    let at = html.find(&format!("name=\"{name}\" value=\"")).unwrap_or_else(|| panic!("no field {name} in {html}"));
    let rest = &html[at + name.len() + 15..];
    rest[..rest.find('"').unwrap()].to_owned()
}

/// The session token a `Set-Cookie` header carries.
fn session_token<B>(res: &ServiceResponse<B>) -> String {
    let cookie = header(res, "set-cookie");
    let value = cookie.strip_prefix("__Host-docx2pdf-session=").unwrap_or_else(|| panic!("no session cookie: {cookie:?}"));
    value.split(';').next().unwrap().to_owned()
}

/// A form POST as a page of the service sends it.
fn post(uri: &str, form: &[(&str, &str)]) -> TestRequest {
    TestRequest::post()
        .uri(uri)
        .insert_header(("Sec-Fetch-Site", "same-origin"))
        .insert_header(("Content-Type", "application/x-www-form-urlencoded"))
        .set_payload(serde_urlencoded_body(form))
}

fn serde_urlencoded_body(form: &[(&str, &str)]) -> String {
    form.iter()
        .map(|(k, v)| format!("{k}={}", v.bytes().map(|b| if b.is_ascii_alphanumeric() { (b as char).to_string() } else { format!("%{b:02X}") }).collect::<String>()))
        .collect::<Vec<_>>()
        .join("&")
}

fn with_session(req: TestRequest, token: &str) -> TestRequest {
    req.insert_header(("Cookie", format!("__Host-docx2pdf-session={token}")))
}

/// An account `acme` with a password, signed in: the service, the app and the session token.
macro_rules! signed_in {
    ($plan:expr) => {{
        let svc = TestService::start(Settings::default()).await;
        let key = svc.account("acme", $plan, 100).await;
        let app = test::init_service(create_app(svc.state.clone())).await;
        let now = unix_ms(svc.clock.now());
        let link = db::sign_in_links::issue(&svc.db, "acme", now, now + 3_600_000).await.unwrap();
        let res = test::call_service(&app, post("/account/set-up", &[("token", &link), ("password", PASSWORD), ("confirm", PASSWORD)]).to_request()).await;
        assert_eq!(res.status(), StatusCode::SEE_OTHER);
        let token = session_token(&res);
        (svc, app, token, key)
    }};
}

async fn sign_in<S, B>(app: &S, name: &str, password: &str) -> ServiceResponse<B>
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
{
    test::call_service(app, post("/account/sign-in", &[("name", name), ("password", password)]).to_request()).await
}

#[actix_web::test]
async fn the_session_cookie_is_host_prefixed_secure_httponly_strict_and_stored_as_a_hash() {
    let (svc, app, token, _) = signed_in!(Plan::Paid);
    let res = sign_in(&app, "acme", PASSWORD).await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    assert_eq!(header(&res, "location"), "/account/credentials");
    let cookie = header(&res, "set-cookie");
    for part in ["__Host-docx2pdf-session=", "Secure", "HttpOnly", "SameSite=Strict", "Path=/"] {
        assert!(cookie.contains(part), "{part} in {cookie}");
    }
    assert!(!cookie.contains("Domain"), "{cookie}");
    let rows = web_session::Entity::find().all(&svc.db).await.unwrap();
    assert_eq!(rows.len(), 2, "the set-up's session and this one");
    for row in rows {
        assert_ne!(row.token_hash, token);
        assert_eq!(row.token_hash.len(), 64);
    }
    assert!(web_session::Entity::find().all(&svc.db).await.unwrap().iter().any(|r| r.token_hash == docx2pdf::tokens::digest(&token)));
}

#[actix_web::test]
async fn posts_from_another_origin_are_refused_with_403() {
    let (svc, app, token, _) = signed_in!(Plan::Paid);
    let form = serde_urlencoded_body(&[("name", "acme"), ("password", PASSWORD)]);
    let cases = [
        ("cross-site Sec-Fetch-Site", vec![("Sec-Fetch-Site", "cross-site"), ("Origin", "http://localhost:8080")]),
        ("same-site is not same-origin", vec![("Sec-Fetch-Site", "same-site")]),
        ("a foreign Origin", vec![("Origin", "https://evil.example"), ("Host", "localhost:8080")]),
        ("Origin null without Sec-Fetch-Site", vec![("Origin", "null"), ("Host", "localhost:8080")]),
        ("neither header", vec![]),
    ];
    for (why, headers) in cases {
        let mut req = TestRequest::post().uri("/account/sign-in").insert_header(("Content-Type", "application/x-www-form-urlencoded"));
        for h in headers {
            req = req.insert_header(h);
        }
        let res = test::call_service(&app, req.set_payload(form.clone()).to_request()).await;
        assert_eq!(res.status(), StatusCode::FORBIDDEN, "{why}");
        assert!(header(&res, "set-cookie").is_empty(), "{why}");
    }
    // A same-origin form POST under a strict referrer policy may say `Origin: null`:
    // Sec-Fetch-Site decides. An old browser's matching Origin passes too.
    let res = test::call_service(&app, post("/account/sign-in", &[("name", "acme"), ("password", PASSWORD)]).insert_header(("Origin", "null")).to_request()).await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    let req = TestRequest::post()
        .uri("/account/sign-in")
        .insert_header(("Origin", "http://localhost:8080"))
        .insert_header(("Host", "localhost:8080"))
        .insert_header(("Content-Type", "application/x-www-form-urlencoded"))
        .set_payload(form);
    assert_eq!(test::call_service(&app, req.to_request()).await.status(), StatusCode::SEE_OTHER);
    // A signed-in POST from another site is refused before it does anything.
    let page = body(test::call_service(&app, with_session(TestRequest::get().uri("/account/credentials"), &token).to_request()).await).await;
    let (csrf, nonce) = (field(&page, "csrf"), field(&page, "nonce"));
    let req = with_session(post("/account/credentials", &[("csrf", &csrf), ("nonce", &nonce), ("name", "evil")]), &token)
        .insert_header(("Sec-Fetch-Site", "cross-site"));
    assert_eq!(test::call_service(&app, req.to_request()).await.status(), StatusCode::FORBIDDEN);
    assert_eq!(api_key::Entity::find().all(&svc.db).await.unwrap().len(), 1, "no key was made");
}

#[actix_web::test]
async fn every_post_of_a_session_needs_its_csrf_token() {
    let (svc, app, token, _) = signed_in!(Plan::Paid);
    let page = body(test::call_service(&app, with_session(TestRequest::get().uri("/account/credentials"), &token).to_request()).await).await;
    let (csrf, nonce) = (field(&page, "csrf"), field(&page, "nonce"));
    assert_ne!(csrf, token, "the CSRF token is not the session's");
    let wrong = "0".repeat(64);
    for (uri, form) in [
        ("/account/credentials", vec![("csrf", wrong.as_str()), ("nonce", nonce.as_str()), ("name", "ci")]),
        ("/account/credentials/revoke", vec![("csrf", wrong.as_str()), ("key", "1")]),
        ("/account/sign-out", vec![("csrf", wrong.as_str())]),
    ] {
        let res = test::call_service(&app, with_session(post(uri, &form), &token).to_request()).await;
        assert_eq!(res.status(), StatusCode::FORBIDDEN, "{uri}");
    }
    // Another session's token does not do either.
    let other = session_token(&sign_in(&app, "acme", PASSWORD).await);
    let other_csrf = field(&body(test::call_service(&app, with_session(TestRequest::get().uri("/account/credentials"), &other).to_request()).await).await, "csrf");
    let res = test::call_service(&app, with_session(post("/account/sign-out", &[("csrf", &other_csrf)]), &token).to_request()).await;
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    let keys = api_key::Entity::find().all(&svc.db).await.unwrap();
    assert!(keys.iter().all(|k| k.revoked_at.is_none()) && keys.len() == 1, "nothing changed");
    // With it, sign-out works and ends the session.
    let res = test::call_service(&app, with_session(post("/account/sign-out", &[("csrf", &csrf)]), &token).to_request()).await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    assert!(header(&res, "set-cookie").contains("Max-Age=0"), "{}", header(&res, "set-cookie"));
    let res = test::call_service(&app, with_session(TestRequest::get().uri("/account/credentials"), &token).to_request()).await;
    assert_eq!((res.status(), header(&res, "location")), (StatusCode::SEE_OTHER, "/account/sign-in".to_owned()));
}

#[actix_web::test]
async fn a_create_key_form_makes_one_key_however_often_it_is_sent() {
    let (svc, app, token, _) = signed_in!(Plan::Paid);
    let page = body(test::call_service(&app, with_session(TestRequest::get().uri("/account/credentials"), &token).to_request()).await).await;
    let (csrf, nonce) = (field(&page, "csrf"), field(&page, "nonce"));
    let send = || with_session(post("/account/credentials", &[("csrf", &csrf), ("nonce", &nonce), ("name", "invoices <server>")]), &token);
    let res = test::call_service(&app, send().to_request()).await;
    assert_eq!(res.status(), StatusCode::OK);
    let html = body(res).await;
    assert!(html.contains("shown only this once"), "{html}");
    assert!(html.contains("invoices &#60;server&#62;") || html.contains("invoices &lt;server&gt;"), "names are escaped: {html}");
    let at = html.find("readonly value=\"").expect("the new key's field") + 16;
    let key = html[at..at + html[at..].find('"').unwrap()].to_owned();
    assert!(key.starts_with("d2p_") && key.len() == 44, "{key}");
    let res = test::call_service(&app, send().to_request()).await;
    assert_eq!(res.status(), StatusCode::CONFLICT);
    let again = body(res).await;
    assert!(again.contains("sent already") && !again.contains(&key), "{again}");
    let keys = api_key::Entity::find().all(&svc.db).await.unwrap();
    assert_eq!(keys.len(), 2, "the account's first key and one from the form");
    let made = keys.iter().find(|k| k.name.as_deref() == Some("invoices <server>")).expect("the named key");
    assert_ne!(made.key_hash, key, "stored as a hash");
    assert!(made.form_nonce_hash.as_deref().is_some_and(|h| h != nonce));
    // A name too long is refused beside its field, and makes nothing.
    let page = body(test::call_service(&app, with_session(TestRequest::get().uri("/account/credentials"), &token).to_request()).await).await;
    let long = "x".repeat(65);
    let res = test::call_service(&app, with_session(post("/account/credentials", &[("csrf", &csrf), ("nonce", &field(&page, "nonce")), ("name", &long)]), &token).to_request()).await;
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    assert!(body(res).await.contains("id=\"key-name-error\""));
    assert_eq!(api_key::Entity::find().all(&svc.db).await.unwrap().len(), 2);
}

#[actix_web::test]
async fn wrong_passwords_back_off_per_name_with_429_and_one_message() {
    let (svc, app, _, _) = signed_in!(Plan::Paid);
    let mut messages = Vec::new();
    for name in ["acme", "nobody"] {
        for _ in 0..5 {
            let res = sign_in(&app, name, "not the password").await;
            assert_eq!(res.status(), StatusCode::UNAUTHORIZED, "{name}");
            let html = body(res).await;
            let at = html.find("id=\"sign-in-error\">").unwrap();
            messages.push(html[at..at + 80].to_owned());
        }
    }
    messages.dedup();
    assert_eq!(messages.len(), 1, "one message for a wrong name and a wrong password: {messages:?}");
    for name in ["acme", "nobody"] {
        // Blocked now, even with the right password.
        let res = sign_in(&app, name, PASSWORD).await;
        assert_eq!(res.status(), StatusCode::TOO_MANY_REQUESTS, "{name}");
        assert_eq!(header(&res, "retry-after"), "30");
        assert!(header(&res, "set-cookie").is_empty());
    }
    svc.clock.set(svc.clock.now() + chrono::Duration::seconds(31));
    let res = sign_in(&app, "acme", PASSWORD).await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER, "the block is over");
    // The right password cleared the count: five more wrong ones are needed for a block.
    for _ in 0..4 {
        assert_eq!(sign_in(&app, "acme", "wrong").await.status(), StatusCode::UNAUTHORIZED);
    }
    assert_eq!(sign_in(&app, "acme", PASSWORD).await.status(), StatusCode::SEE_OTHER);
    // Wrong passwords a day apart do not add up.
    for _ in 0..4 {
        assert_eq!(sign_in(&app, "newcomer", "wrong").await.status(), StatusCode::UNAUTHORIZED);
    }
    svc.clock.set(svc.clock.now() + chrono::Duration::hours(25));
    for _ in 0..4 {
        assert_eq!(sign_in(&app, "newcomer", "wrong").await.status(), StatusCode::UNAUTHORIZED);
    }
    assert_eq!(sign_in(&app, "newcomer", "wrong").await.status(), StatusCode::UNAUTHORIZED, "the fifth in a row, not the ninth");
    assert_eq!(sign_in(&app, "newcomer", "wrong").await.status(), StatusCode::TOO_MANY_REQUESTS);
    // A name too long to be stored as typed is held back all the same.
    let long = "n".repeat(300);
    for _ in 0..5 {
        assert_eq!(sign_in(&app, &long, "wrong").await.status(), StatusCode::UNAUTHORIZED);
    }
    assert_eq!(sign_in(&app, &long, "wrong").await.status(), StatusCode::TOO_MANY_REQUESTS);
}

#[actix_web::test]
async fn an_unknown_name_costs_the_same_argon2_check_as_a_wrong_password() {
    let (_svc, app, _, _) = signed_in!(Plan::Paid);
    // Interleaved, and the quickest of five each: other tests share the cores, and load
    // only ever adds time.
    let (mut known, mut unknown) = (Duration::MAX, Duration::MAX);
    for i in 0..5 {
        for (name, best) in [("acme", &mut known), ("nobody-at-all", &mut unknown)] {
            let started = Instant::now();
            let res = sign_in(&app, name, &format!("wrong {i}")).await;
            *best = (*best).min(started.elapsed());
            assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
        }
    }
    // Skipping the hash for unknown names would make them twenty times quicker or more.
    // A factor of 5 either way leaves room for a loaded CPU.
    assert!(unknown * 5 > known && known * 5 > unknown, "known {known:?}, unknown {unknown:?}");
}

#[actix_web::test]
async fn every_sign_in_makes_a_new_session_and_ends_the_one_presented() {
    let (svc, app, first, _) = signed_in!(Plan::Paid);
    let planted = "ab".repeat(32);
    let res = test::call_service(&app, with_session(post("/account/sign-in", &[("name", "acme"), ("password", PASSWORD)]), &planted).to_request()).await;
    let fresh = session_token(&res);
    assert_ne!(fresh, planted, "a planted token is never taken over");
    let res = test::call_service(&app, with_session(post("/account/sign-in", &[("name", "acme"), ("password", PASSWORD)]), &first).to_request()).await;
    let second = session_token(&res);
    assert_ne!(second, first);
    let open = |t: String| with_session(TestRequest::get().uri("/account/credentials"), &t).to_request();
    assert_eq!(test::call_service(&app, open(first)).await.status(), StatusCode::SEE_OTHER, "the old session ended");
    assert_eq!(test::call_service(&app, open(second)).await.status(), StatusCode::OK);
    assert_eq!(test::call_service(&app, open(planted)).await.status(), StatusCode::SEE_OTHER);
    assert_eq!(web_session::Entity::find().all(&svc.db).await.unwrap().len(), 2);
}

#[actix_web::test]
async fn sessions_expire_when_idle_and_at_their_absolute_limit() {
    let (svc, app, token, _) = signed_in!(Plan::Paid);
    let open = |t: &str| with_session(TestRequest::get().uri("/account/usage"), t).to_request();
    // Active every 20 minutes: alive until the 12th hour, then gone.
    for _ in 0..(12 * 3 - 1) {
        svc.clock.set(svc.clock.now() + chrono::Duration::minutes(20));
        assert_eq!(test::call_service(&app, open(&token)).await.status(), StatusCode::OK);
    }
    svc.clock.set(svc.clock.now() + chrono::Duration::minutes(20));
    assert_eq!(test::call_service(&app, open(&token)).await.status(), StatusCode::SEE_OTHER, "absolute expiry");
    // Idle for 31 minutes: gone.
    let token = session_token(&sign_in(&app, "acme", PASSWORD).await);
    svc.clock.set(svc.clock.now() + chrono::Duration::minutes(29));
    assert_eq!(test::call_service(&app, open(&token)).await.status(), StatusCode::OK);
    svc.clock.set(svc.clock.now() + chrono::Duration::minutes(31));
    let res = test::call_service(&app, open(&token)).await;
    assert_eq!((res.status(), header(&res, "location")), (StatusCode::SEE_OTHER, "/account/sign-in".to_owned()), "idle expiry");
}

#[actix_web::test]
async fn every_account_page_carries_the_security_headers() {
    let (_svc, app, token, _) = signed_in!(Plan::Paid);
    let pages = ["/account/sign-in", "/account/set-up?token=nope", "/account/credentials", "/account/usage", "/account/credentials/revoke?key=1", "/account/no-such-page"];
    for uri in pages {
        let res = test::call_service(&app, with_session(TestRequest::get().uri(uri), &token).to_request()).await;
        assert!(res.status().is_success() || res.status().is_client_error(), "{uri}: {}", res.status());
        assert_eq!(header(&res, "cache-control"), "no-store", "{uri}");
        let csp = header(&res, "content-security-policy");
        assert!(csp.contains("default-src 'none'") && csp.contains("style-src 'self'") && csp.contains("frame-ancestors 'none'"), "{uri}: {csp}");
        assert!(!csp.contains("script-src"), "no script is allowed: {csp}");
        assert_eq!(header(&res, "x-content-type-options"), "nosniff", "{uri}");
        assert_eq!(header(&res, "referrer-policy"), "same-origin", "{uri}");
        assert!(header(&res, "content-type").starts_with("text/html"), "{uri}");
    }
    let res = test::call_service(&app, TestRequest::get().uri("/account/style.css").to_request()).await;
    assert_eq!(header(&res, "content-type"), "text/css; charset=utf-8");
    assert_eq!(header(&res, "x-content-type-options"), "nosniff");
    let metrics = body(test::call_service(&app, TestRequest::get().uri("/metrics").to_request()).await).await;
    assert!(metrics.contains("docx2pdf_http_requests_total{route=\"/account\",status=\"200\"}"), "{metrics}");
}

#[actix_web::test]
async fn an_api_key_opens_no_page_and_a_session_converts_nothing() {
    let (_svc, app, token, key) = signed_in!(Plan::Paid);
    let res = test::call_service(&app, TestRequest::get().uri("/account/credentials").insert_header(("Authorization", format!("Bearer {key}"))).to_request()).await;
    assert_eq!((res.status(), header(&res, "location")), (StatusCode::SEE_OTHER, "/account/sign-in".to_owned()));
    let req = with_session(TestRequest::post().uri("/api/convert"), &token)
        .insert_header(("Content-Type", multipart_type()))
        .set_payload(multipart("file", &docx(&paragraph("Hello"))));
    let res = test::call_service(&app, req.to_request()).await;
    assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
    // And the pages are no part of the API's description.
    let doc = body(test::call_service(&app, TestRequest::get().uri("/openapi.json").to_request()).await).await;
    assert!(!doc.contains("/account"), "{doc}");
}

#[actix_web::test]
async fn a_link_is_not_used_up_by_looking_and_a_newer_one_voids_it() {
    let svc = TestService::start(Settings::default()).await;
    svc.account("acme", Plan::Free, 10).await;
    let app = test::init_service(create_app(svc.state.clone())).await;
    let now = unix_ms(svc.clock.now());
    let old = db::sign_in_links::issue(&svc.db, "acme", now, now + 3_600_000).await.unwrap();
    let link = db::sign_in_links::issue(&svc.db, "acme", now, now + 3_600_000).await.unwrap();
    let get = |t: &str| TestRequest::get().uri(&format!("/account/set-up?token={t}")).to_request();
    let res = test::call_service(&app, get(&old)).await;
    assert_eq!(res.status(), StatusCode::GONE);
    let html = body(res).await;
    assert!(html.contains("used already") && !html.contains("<form method=\"post\" action=\"/account/set-up\""), "{html}");
    for _ in 0..2 {
        let res = test::call_service(&app, get(&link)).await;
        assert_eq!(res.status(), StatusCode::OK, "looking twice uses nothing");
        assert!(body(res).await.contains("New password"));
    }
    // Too short, then two that differ: the errors sit beside their fields; the link lives on.
    let res = test::call_service(&app, post("/account/set-up", &[("token", &link), ("password", "short"), ("confirm", "short")]).to_request()).await;
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    assert!(body(res).await.contains("id=\"password-error\""));
    let res = test::call_service(&app, post("/account/set-up", &[("token", &link), ("password", PASSWORD), ("confirm", "another long one")]).to_request()).await;
    assert!(body(res).await.contains("id=\"confirm-error\""));
    let res = test::call_service(&app, post("/account/set-up", &[("token", &link), ("password", PASSWORD), ("confirm", PASSWORD)]).to_request()).await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    let token = session_token(&res);
    let res = test::call_service(&app, get(&link)).await;
    assert_eq!(res.status(), StatusCode::GONE, "used up by choosing the password");
    // A free account signs in and is told the API needs a paid plan.
    let html = body(test::call_service(&app, with_session(TestRequest::get().uri("/account/credentials"), &token).to_request()).await).await;
    assert!(html.contains("free plan") && html.contains("API needs a paid plan"), "{html}");
    // An expired link says so; a new link ends the sessions and the password.
    let expired = db::sign_in_links::issue(&svc.db, "acme", now, now + 1000).await.unwrap();
    svc.clock.set(svc.clock.now() + chrono::Duration::seconds(2));
    let res = test::call_service(&app, get(&expired)).await;
    assert_eq!(res.status(), StatusCode::GONE);
    assert!(body(res).await.contains("expired"));
    assert_eq!(test::call_service(&app, with_session(TestRequest::get().uri("/account/usage"), &token).to_request()).await.status(), StatusCode::SEE_OTHER);
    assert_eq!(sign_in(&app, "acme", PASSWORD).await.status(), StatusCode::UNAUTHORIZED, "the password was reset");
}

#[actix_web::test]
async fn last_used_is_written_at_most_once_a_minute_and_revocation_is_immediate() {
    let (svc, app, token, key) = signed_in!(Plan::Paid);
    let convert = || {
        TestRequest::post()
            .uri("/api/convert")
            .insert_header(("Authorization", format!("Bearer {key}")))
            .insert_header(("Content-Type", multipart_type()))
            .set_payload(multipart("file", &docx(&paragraph("Hello"))))
            .to_request()
    };
    let last_used = || async { api_key::Entity::find().all(&svc.db).await.unwrap()[0].last_used_at };
    assert_eq!(last_used().await, None);
    assert_eq!(test::call_service(&app, convert()).await.status(), StatusCode::OK);
    let first = last_used().await.expect("written");
    svc.clock.set(svc.clock.now() + chrono::Duration::seconds(59));
    assert_eq!(test::call_service(&app, convert()).await.status(), StatusCode::OK);
    assert_eq!(last_used().await, Some(first), "not again within the minute");
    svc.clock.set(svc.clock.now() + chrono::Duration::seconds(2));
    assert_eq!(test::call_service(&app, convert()).await.status(), StatusCode::OK);
    assert_eq!(last_used().await, Some(first + 61_000));
    // The pages show the month's credits per key, and usage as `docx2pdf usage` does.
    let page = body(test::call_service(&app, with_session(TestRequest::get().uri("/account/usage"), &token).to_request()).await).await;
    assert!(page.contains("3 of 100 credits used") && page.contains("97 credits left") && page.contains("2026-12-01T00:00:00.000Z"), "{page}");
    assert!(page.contains("<meter id=\"used-meter\" min=\"0\" max=\"100\" value=\"3\">"), "{page}");
    // Revoked through the confirmation page: refused at once.
    let id = api_key::Entity::find().all(&svc.db).await.unwrap()[0].id.to_string();
    let confirm = body(test::call_service(&app, with_session(TestRequest::get().uri(&format!("/account/credentials/revoke?key={id}")), &token).to_request()).await).await;
    assert!(confirm.contains(">Revoke key</button>"), "{confirm}");
    let res = test::call_service(&app, with_session(post("/account/credentials/revoke", &[("csrf", &field(&confirm, "csrf")), ("key", &id)]), &token).to_request()).await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    assert_eq!(test::call_service(&app, convert()).await.status(), StatusCode::UNAUTHORIZED);
    let list = body(test::call_service(&app, with_session(TestRequest::get().uri(&header(&res, "location")), &token).to_request()).await).await;
    assert!(list.contains("revoked: requests with it are refused") && list.contains("<dt>Revoked</dt>"), "{list}");
    // Another account's key can be neither shown nor revoked from this session.
    let theirs = svc.account("other", Plan::Paid, 10).await;
    let theirs_id = api_key::Entity::find().all(&svc.db).await.unwrap().iter().find(|k| theirs.starts_with(&k.prefix)).unwrap().id.to_string();
    let res = test::call_service(&app, with_session(TestRequest::get().uri(&format!("/account/credentials/revoke?key={theirs_id}")), &token).to_request()).await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    let res = test::call_service(&app, with_session(post("/account/credentials/revoke", &[("csrf", &field(&confirm, "csrf")), ("key", &theirs_id)]), &token).to_request()).await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    assert!(api_key::Entity::find().all(&svc.db).await.unwrap().iter().all(|k| !theirs.starts_with(&k.prefix) || k.revoked_at.is_none()));
}

#[actix_web::test]
async fn usage_shows_held_credits_and_pages_the_ledger_fifty_at_a_time_newest_first() {
    use docx2pdf::credits::Month;
    use entity::ledger_entry;
    use sea_orm::ActiveModelTrait;
    let (svc, app, token, _) = signed_in!(Plan::Paid);
    let account = db::accounts::get(&svc.db, "acme").await.unwrap();
    let key = api_key::Entity::find().all(&svc.db).await.unwrap()[0].id;
    let month = Month::of(svc.clock.now());
    let now = unix_ms(svc.clock.now());
    for i in 0..51 {
        ledger_entry::ActiveModel {
            account_id: sea_orm::Set(account.id),
            api_key_id: sea_orm::Set(key),
            request_id: sea_orm::Set(format!("request-{i:02}")),
            month: sea_orm::Set(month.to_string()),
            bytes: sea_orm::Set(1000 + i),
            credits: sea_orm::Set(1),
            created_at: sea_orm::Set(now + i),
            ..Default::default()
        }
        .insert(&svc.db)
        .await
        .unwrap();
    }
    // The usage row the ledger keeps beside its entries, and a hold of a conversion in flight.
    let request = db::usage::HoldRequest { account_id: account.id, month, limit: 100, credits: 51, request_id: "a", now_ms: now, expires_ms: now + 60_000 };
    db::usage::hold(&svc.db, &request).await.unwrap();
    let hold = db::usage::HoldRequest { credits: 2, request_id: "b", ..request };
    assert!(matches!(db::usage::hold(&svc.db, &hold).await.unwrap(), db::usage::HoldOutcome::Held(_)));
    let page = |uri: &str| with_session(TestRequest::get().uri(uri), &token).to_request();
    let res = test::call_service(&app, page("/account/usage")).await;
    assert_eq!(res.status(), StatusCode::OK);
    let html = body(res).await;
    assert!(html.contains("51 conversions, newest first; page 1 of 2"), "{html}");
    assert_eq!(html.matches("<tr><td").count(), 50);
    assert!(html.find("request-50").unwrap() < html.find("request-49").unwrap(), "newest first");
    assert!(!html.contains("request-00"));
    assert!(html.contains("53 credits held by conversions in progress"), "{html}");
    // 100 − 0 committed (the holds are not debits yet) − 53 held.
    assert!(html.contains("47 credits left"), "{html}");
    assert!(html.contains(&format!("/account/usage?month={month}&#38;page=2\">Older conversions")), "{html}");
    let html = body(test::call_service(&app, page(&format!("/account/usage?month={month}&page=2"))).await).await;
    assert_eq!(html.matches("<tr><td").count(), 1);
    assert!(html.contains("request-00") && html.contains("Newer conversions"), "{html}");
    // Another month by the GET form; a month that is not one is refused beside its field.
    let html = body(test::call_service(&app, page("/account/usage?month=2026-10")).await).await;
    assert!(html.contains("No conversions in 2026-10") && html.contains("0 of 100 credits used"), "{html}");
    let res = test::call_service(&app, page("/account/usage?month=2026-13")).await;
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    assert!(body(res).await.contains("id=\"month-error\""));
}
