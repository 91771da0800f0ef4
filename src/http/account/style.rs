//! The pages' one stylesheet, built into the binary.

use actix_web::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use actix_web::HttpResponse;

const CSS: &str = include_str!("../../../assets/account/style.css");

/// `GET /account/style.css`. It holds nothing private, so it may be cached for an hour.
pub async fn stylesheet() -> HttpResponse {
    HttpResponse::Ok()
        .insert_header((CONTENT_TYPE, "text/css; charset=utf-8"))
        .insert_header((CACHE_CONTROL, "public, max-age=3600"))
        .body(CSS)
}
