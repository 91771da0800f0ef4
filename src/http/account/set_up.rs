//! `/account/set-up?token=…`: the page a sign-in link opens. Looking at it uses nothing
//! up; choosing the password uses the link and signs the holder in.

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use serde::Deserialize;

use super::error::see_other;
use super::pages::{html, SetUp};
use super::session;
use super::PageError;
use crate::clock::unix_ms;
use crate::db;
use crate::db::sign_in_links::LinkState;
use crate::http::AppState;
use crate::password;

/// The query of a sign-in link.
#[derive(Debug, Deserialize)]
pub struct LinkQuery {
    #[serde(default)]
    token: String,
}

/// The page for a link that opens no form, with its status.
fn closed(state: &LinkState) -> HttpResponse {
    let (status, message) = match state {
        LinkState::Used => (StatusCode::GONE, "This sign-in link has been used already, or a newer one has replaced it."),
        LinkState::Expired => (StatusCode::GONE, "This sign-in link has expired."),
        LinkState::Unknown | LinkState::Usable(_) => (StatusCode::NOT_FOUND, "This sign-in link is not valid."),
    };
    let page = SetUp {
        nav: None,
        form: false,
        token: String::new(),
        account: String::new(),
        message: message.to_owned(),
        password_error: None,
        confirm_error: None,
    };
    html(status, &page)
}

fn form_page(status: StatusCode, token: String, account: String, password_error: Option<String>, confirm_error: Option<String>) -> HttpResponse {
    html(status, &SetUp { nav: None, form: true, token, account, message: String::new(), password_error, confirm_error })
}

/// `GET /account/set-up?token=…`.
pub async fn form(query: web::Query<LinkQuery>, state: web::Data<AppState>) -> Result<HttpResponse, PageError> {
    let now = unix_ms(state.clock.now());
    Ok(match db::sign_in_links::state(&state.db, &query.token, now).await? {
        LinkState::Usable(account) => form_page(StatusCode::OK, query.token.clone(), account.name, None, None),
        other => closed(&other),
    })
}

/// The set-up form.
#[derive(Deserialize)]
pub struct SetUpForm {
    token: String,
    password: String,
    confirm: String,
}

/// `POST /account/set-up`.
pub async fn submit(form: web::Form<SetUpForm>, state: web::Data<AppState>) -> Result<HttpResponse, PageError> {
    let SetUpForm { token, password, confirm } = form.into_inner();
    let now = unix_ms(state.clock.now());
    let account = match db::sign_in_links::state(&state.db, &token, now).await? {
        LinkState::Usable(account) => account,
        other => return Ok(closed(&other)),
    };
    if let Some(problem) = password::problem(&password) {
        return Ok(form_page(StatusCode::BAD_REQUEST, token, account.name, Some(problem), None));
    }
    if password != confirm {
        let e = "The two passwords differ: type the same one twice.".to_owned();
        return Ok(form_page(StatusCode::BAD_REQUEST, token, account.name, None, Some(e)));
    }
    let hash = web::block(move || password::hash(&password))
        .await
        .map_err(|e| PageError::Unavailable(e.to_string()))?
        .map_err(|e| PageError::Unavailable(e.to_string()))?;
    let account = match db::sign_in_links::redeem(&state.db, &token, &hash, now).await? {
        Ok(account) => account,
        Err(other) => return Ok(closed(&other)),
    };
    db::passwords::clear(&state.db, &account.name).await?;
    let session = db::sessions::start(&state.db, account.id, now).await?;
    let mut res = see_other("/account/credentials");
    res.add_cookie(&session::cookie(&session)).map_err(|e| PageError::Unavailable(e.to_string()))?;
    Ok(res)
}
