//! `/account/sign-in` and `/account/sign-out`.
//!
//! A wrong name and a wrong password get the same answer after the same work: one Argon2
//! check (of a decoy hash when there is no real one) and one back-off update keyed by the
//! name typed.

use actix_web::http::header::RETRY_AFTER;
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;

use super::error::see_other;
use super::pages::{html, SignIn};
use super::session::{self, signed_in};
use super::PageError;
use crate::clock::unix_ms;
use crate::db;
use crate::http::AppState;
use crate::password;

/// The one answer to a wrong account name or password.
pub const WRONG: &str = "The account name or password is not right.";

/// The query of the sign-in page.
#[derive(Debug, Deserialize)]
pub struct SignInQuery {
    /// Set after signing out.
    #[serde(rename = "signed-out")]
    signed_out: Option<String>,
}

/// `GET /account/sign-in`.
pub async fn form(query: web::Query<SignInQuery>) -> HttpResponse {
    let notice = query.signed_out.as_ref().map(|_| "You are signed out.".to_owned());
    html(StatusCode::OK, &SignIn { nav: None, name: String::new(), error: None, notice })
}

/// The sign-in form.
#[derive(Deserialize)]
pub struct SignInForm {
    name: String,
    password: String,
}

/// `POST /account/sign-in`.
pub async fn submit(req: HttpRequest, form: web::Form<SignInForm>, state: web::Data<AppState>) -> Result<HttpResponse, PageError> {
    let SignInForm { name, password } = form.into_inner();
    let name = name.trim().to_owned();
    let now = unix_ms(state.clock.now());
    if let Some(until) = db::passwords::blocked_until(&state.db, &name, now).await? {
        return Ok(too_many(name, until - now));
    }
    let found = db::passwords::find(&state.db, &name).await?;
    let stored = found.as_ref().and_then(|(_, hash)| hash.clone());
    let right = web::block(move || password::verify(&password, stored.as_deref()))
        .await
        .map_err(|e| PageError::Unavailable(e.to_string()))?;
    let account = match (right, found) {
        (true, Some((account, _))) => account,
        _ => {
            db::passwords::record_failure(&state.db, &name, now).await?;
            let page = SignIn { nav: None, name, error: Some(WRONG.to_owned()), notice: None };
            return Ok(html(StatusCode::UNAUTHORIZED, &page));
        }
    };
    db::passwords::clear(&state.db, &name).await?;
    // A new session on every sign-in: a token planted in the browser beforehand is
    // never promoted (session fixation), and the one it had is ended.
    if let Some(old) = session::token_of(&req) {
        db::sessions::end(&state.db, &old).await?;
    }
    let token = db::sessions::start(&state.db, account.id, now).await?;
    let mut res = see_other("/account/credentials");
    res.add_cookie(&session::cookie(&token)).map_err(|e| PageError::Unavailable(e.to_string()))?;
    Ok(res)
}

/// 429 with `Retry-After` for a name in back-off.
fn too_many(name: String, wait_ms: i64) -> HttpResponse {
    let secs = (wait_ms + 999) / 1000;
    let error = format!("Too many wrong passwords for this account. Try again in {secs} seconds.");
    let mut res = html(StatusCode::TOO_MANY_REQUESTS, &SignIn { nav: None, name, error: Some(error), notice: None });
    if let Ok(v) = secs.max(1).to_string().parse() {
        res.headers_mut().insert(RETRY_AFTER, v);
    }
    res
}

/// The sign-out form.
#[derive(Deserialize)]
pub struct CsrfForm {
    csrf: String,
}

/// `POST /account/sign-out`: ends the session here and on every instance.
pub async fn sign_out(req: HttpRequest, form: web::Form<CsrfForm>, state: web::Data<AppState>) -> Result<HttpResponse, PageError> {
    let me = signed_in(&req, &state).await?;
    me.check_csrf(&form.csrf)?;
    db::sessions::end(&state.db, &me.token).await?;
    let mut res = see_other("/account/sign-in?signed-out=1");
    res.add_cookie(&session::removal()).map_err(|e| PageError::Unavailable(e.to_string()))?;
    Ok(res)
}
