//! The session cookie and the CSRF token derived from it.
//!
//! The cookie is `__Host-` prefixed (the browser then insists on `Secure`, `Path=/` and no
//! `Domain`), `HttpOnly` and `SameSite=Strict`; it lasts as long as the browser session,
//! and the database enforces the idle and absolute expiries. The CSRF token of a session is
//! the SHA-256 of a fixed label and the session's token: it is never stored, cannot be
//! turned back into the token, and changes with every sign-in.

use actix_web::cookie::{Cookie, SameSite};
use actix_web::HttpRequest;
use entity::account;
use sha2::{Digest, Sha256};

use super::pages::Nav;
use super::PageError;
use crate::clock::unix_ms;
use crate::db;
use crate::http::AppState;
use crate::tokens;

/// The session cookie's name.
pub const COOKIE: &str = "__Host-docx2pdf-session";

/// A request with a live session.
#[derive(Debug, Clone)]
pub struct SignedIn {
    pub account: account::Model,
    /// The token of the cookie.
    pub token: String,
}

impl SignedIn {
    /// The session's CSRF token.
    pub fn csrf(&self) -> String {
        csrf_of(&self.token)
    }

    /// Refuses a POST whose `csrf` field is not this session's token.
    pub fn check_csrf(&self, sent: &str) -> Result<(), PageError> {
        if tokens::same(sent, &self.csrf()) {
            Ok(())
        } else {
            Err(PageError::Csrf)
        }
    }

    /// The page header for this session, with `current` marked.
    pub fn nav(&self, current: &'static str) -> Nav {
        Nav { account: self.account.name.clone(), csrf: self.csrf(), current }
    }
}

/// The CSRF token of the session whose cookie holds `token`.
pub fn csrf_of(token: &str) -> String {
    let digest = Sha256::new().chain_update(b"docx2pdf account csrf\0").chain_update(token.as_bytes()).finalize();
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// The token of the request's session cookie, if it sent one.
pub fn token_of(req: &HttpRequest) -> Option<String> {
    req.cookie(COOKIE).map(|c| c.value().to_owned())
}

/// The request's live session, or [`PageError::NotSignedIn`]. Only the cookie counts: an
/// `Authorization` header (an API key) opens no page.
pub async fn signed_in(req: &HttpRequest, state: &AppState) -> Result<SignedIn, PageError> {
    let token = token_of(req).ok_or(PageError::NotSignedIn)?;
    let now = unix_ms(state.clock.now());
    match db::sessions::find(&state.db, &token, now).await? {
        Some(session) => Ok(SignedIn { account: session.account, token }),
        None => Err(PageError::NotSignedIn),
    }
}

/// The cookie that carries a new session.
pub fn cookie(token: &str) -> Cookie<'static> {
    Cookie::build(COOKIE, token.to_owned()).path("/").secure(true).http_only(true).same_site(SameSite::Strict).finish()
}

/// The cookie that makes the browser forget the session.
pub fn removal() -> Cookie<'static> {
    let mut c = cookie("");
    c.make_removal();
    c
}
