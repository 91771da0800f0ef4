//! The pages' templates (askama: checked when compiling, HTML-escaped) and the values they
//! show, formatted once here.

use actix_web::http::header::CONTENT_TYPE;
use actix_web::http::StatusCode;
use actix_web::HttpResponse;
use askama::Template;
use chrono::DateTime;

/// What the header of a signed-in page shows.
#[derive(Debug, Clone)]
pub struct Nav {
    /// The account's name.
    pub account: String,
    /// The session's CSRF token, for the sign-out form.
    pub csrf: String,
    /// `credentials` or `usage`: the page marked current.
    pub current: &'static str,
}

/// `/account/sign-in`.
#[derive(Template)]
#[template(path = "account/sign_in.html")]
pub struct SignIn {
    pub nav: Option<Nav>,
    /// The name typed, kept when the form comes back.
    pub name: String,
    pub error: Option<String>,
    pub notice: Option<String>,
}

/// `/account/set-up`.
#[derive(Template)]
#[template(path = "account/set_up.html")]
pub struct SetUp {
    pub nav: Option<Nav>,
    /// Whether the link is usable and the form shown.
    pub form: bool,
    pub token: String,
    pub account: String,
    /// Why no form is shown.
    pub message: String,
    pub password_error: Option<String>,
    pub confirm_error: Option<String>,
}

/// A key as the Credentials page lists it.
#[derive(Debug, Clone)]
pub struct KeyRow {
    pub id: i64,
    pub name: String,
    pub prefix: String,
    pub created: String,
    pub last_used: String,
    pub credits: i64,
    pub revoked: Option<String>,
}

/// The key just made, shown in the answer to its POST only.
#[derive(Debug, Clone)]
pub struct CreatedKey {
    pub name: String,
    pub text: String,
}

/// `/account/credentials`.
#[derive(Template)]
#[template(path = "account/credentials.html")]
pub struct Credentials {
    pub nav: Option<Nav>,
    pub free_plan: bool,
    pub created: Option<CreatedKey>,
    pub status: Option<String>,
    /// The one-time nonce of the Create key form.
    pub nonce: String,
    pub name_value: String,
    pub name_error: Option<String>,
    pub keys: Vec<KeyRow>,
}

/// `/account/credentials/revoke`: the confirmation.
#[derive(Template)]
#[template(path = "account/revoke.html")]
pub struct Revoke {
    pub nav: Option<Nav>,
    pub key: KeyRow,
}

/// A ledger entry as the Usage page lists it.
#[derive(Debug, Clone)]
pub struct EntryRow {
    pub at: String,
    pub key: String,
    pub credits: i64,
    pub bytes: i64,
    pub request_id: String,
}

/// `/account/usage`.
#[derive(Template)]
#[template(path = "account/usage.html")]
pub struct Usage {
    pub nav: Option<Nav>,
    pub free_plan: bool,
    pub plan: String,
    /// "This month: 2026-11" or "2026-10".
    pub month_title: String,
    pub month_value: String,
    pub month_error: Option<String>,
    pub used: i64,
    pub limit: i64,
    pub remaining: i64,
    pub held: i64,
    /// `resetAt`, as the API writes it.
    pub reset_at: String,
    pub entries: Vec<EntryRow>,
    pub total: u64,
    /// 1-based.
    pub page: u64,
    pub pages: u64,
    pub newer: Option<String>,
    pub older: Option<String>,
}

/// A page that only says something: errors, used links.
#[derive(Template)]
#[template(path = "account/message.html")]
pub struct Message {
    pub nav: Option<Nav>,
    pub title: &'static str,
    pub message: String,
    pub next_href: &'static str,
    pub next_label: &'static str,
}

/// A page as an HTML answer with `status`.
pub fn html(status: StatusCode, page: &impl Template) -> HttpResponse {
    match page.render() {
        Ok(body) => HttpResponse::build(status).insert_header((CONTENT_TYPE, "text/html; charset=utf-8")).body(body),
        Err(e) => {
            tracing::error!(error = %e, "an account page could not be rendered");
            HttpResponse::InternalServerError().insert_header((CONTENT_TYPE, "text/plain; charset=utf-8")).body("internal error")
        }
    }
}

/// A stored time (Unix milliseconds) as the pages show it: `2026-11-21 12:00 UTC`.
pub fn when(ms: i64) -> String {
    DateTime::from_timestamp_millis(ms).map_or_else(String::new, |t| t.format("%Y-%m-%d %H:%M UTC").to_string())
}
