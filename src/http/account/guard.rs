//! What every account page gets: POSTs from other origins refused before any handler runs,
//! and the security headers on every answer.

use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderName, HeaderValue};
use actix_web::http::Method;
use actix_web::middleware::Next;
use actix_web::ResponseError;

use super::PageError;

/// No scripts at all, styles and images from the service only, forms posted to it only,
/// never framed.
pub const CSP: &str = "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; \
                       frame-ancestors 'none'; base-uri 'none'";

/// Whether a request comes from a page of this service. Browsers send `Sec-Fetch-Site` on
/// every request and it is decided first: a same-origin form POST under a strict
/// referrer policy may carry `Origin: null`. Older browsers send `Origin` on POSTs, which
/// must then name the host the request was sent to. A request with neither is refused:
/// every browser that can show these pages sends one of them.
pub fn same_origin(req: &ServiceRequest) -> bool {
    let headers = req.headers();
    if let Some(site) = headers.get("sec-fetch-site") {
        return site.as_bytes() == b"same-origin";
    }
    let (Some(origin), Some(host)) = (headers.get(header::ORIGIN), headers.get(header::HOST)) else {
        return false;
    };
    let (Ok(origin), Ok(host)) = (origin.to_str(), host.to_str()) else { return false };
    let authority = origin.strip_prefix("https://").or_else(|| origin.strip_prefix("http://"));
    authority.is_some_and(|a| a.eq_ignore_ascii_case(host))
}

/// Middleware of the `/account` scope.
pub async fn around(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody>>, actix_web::Error> {
    let mut res = if req.method() == Method::POST && !same_origin(&req) {
        let answer = PageError::CrossOrigin.error_response();
        req.into_response(answer).map_into_right_body()
    } else {
        next.call(req).await?.map_into_left_body()
    };
    let headers = res.headers_mut();
    let fixed: [(HeaderName, &'static str); 5] = [
        (header::CONTENT_SECURITY_POLICY, CSP),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::REFERRER_POLICY, "same-origin"),
        (header::X_FRAME_OPTIONS, "DENY"),
        (HeaderName::from_static("cross-origin-opener-policy"), "same-origin"),
    ];
    for (name, value) in fixed {
        headers.insert(name, HeaderValue::from_static(value));
    }
    // Pages hold account data: never stored by the browser or a proxy (the stylesheet
    // says otherwise for itself).
    if !headers.contains_key(header::CACHE_CONTROL) {
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    Ok(res)
}
