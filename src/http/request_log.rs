//! Request ids and the one log line per request (id, account, status, bytes, credits,
//! milliseconds) — never a key, never document text.

use std::time::Instant;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::middleware::Next;
use actix_web::{web, HttpMessage};

use super::AppState;

/// The request's id: a valid incoming `X-Request-Id`, else a generated one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestId(pub String);

/// What the convert handler tells the log line.
#[derive(Debug, Clone, Default)]
pub struct Outcome {
    pub account: Option<String>,
    pub bytes: u64,
    pub credits: i64,
}

const HEADER: HeaderName = HeaderName::from_static("x-request-id");

/// An incoming id is echoed only if it is 1–128 characters of `[A-Za-z0-9._:-]`, so it
/// cannot forge log lines or headers.
fn valid_incoming(v: &HeaderValue) -> Option<String> {
    let s = v.to_str().ok()?;
    let ok = !s.is_empty()
        && s.len() <= 128
        && s.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b':' | b'-'));
    ok.then(|| s.to_owned())
}

fn generate() -> String {
    let mut raw = [0u8; 16];
    if getrandom::fill(&mut raw).is_err() {
        // The id is for correlation only; a clock-based one will do.
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        raw = nanos.to_le_bytes();
    }
    raw.iter().map(|b| format!("{b:02x}")).collect()
}

/// The route a request is counted under in metrics (bounded set).
fn route_label(path: &str) -> &'static str {
    match path {
        "/api/convert" => "/api/convert",
        "/healthz" => "/healthz",
        "/readyz" => "/readyz",
        "/metrics" => "/metrics",
        "/openapi.json" => "/openapi.json",
        p if p == "/account" || p.starts_with("/account/") => "/account",
        _ => "other",
    }
}

/// Middleware: assigns the request id, sets it on the answer, counts and logs the request.
pub async fn around(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let started = Instant::now();
    let id = req.headers().get(&HEADER).and_then(valid_incoming).unwrap_or_else(generate);
    req.extensions_mut().insert(RequestId(id.clone()));
    let method = req.method().clone();
    let route = route_label(req.path());
    let state = req.app_data::<web::Data<AppState>>().cloned();
    let mut res = next.call(req).await?;
    if let Ok(v) = HeaderValue::from_str(&id) {
        res.headers_mut().insert(HEADER, v);
    }
    let status = res.status().as_u16();
    // Milliseconds with one decimal, a number in JSON logs.
    let ms = (started.elapsed().as_secs_f64() * 10_000.0).round() / 10.0;
    let outcome = res.request().extensions().get::<Outcome>().cloned().unwrap_or_default();
    if let Some(state) = state {
        state.metrics.request(route, status);
    }
    if route != "/metrics" && route != "/healthz" && route != "/readyz" {
        tracing::info!(
            request_id = %id,
            method = %method,
            route,
            account = outcome.account.as_deref().unwrap_or("-"),
            status,
            bytes = outcome.bytes,
            credits = outcome.credits,
            ms,
            "request"
        );
    }
    Ok(res)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_safe_incoming_id_is_kept_and_an_unsafe_one_refused() {
        assert_eq!(valid_incoming(&HeaderValue::from_static("abc-123.x")), Some("abc-123.x".into()));
        assert_eq!(valid_incoming(&HeaderValue::from_static("a b")), None);
        assert_eq!(valid_incoming(&HeaderValue::from_static("")), None);
    }

    #[test]
    fn generated_ids_are_32_hex_characters() {
        let id = generate();
        assert_eq!(id.len(), 32);
        assert!(id.bytes().all(|b| b.is_ascii_hexdigit()));
    }
}
