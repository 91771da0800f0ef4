//! `/account/credentials`: the account's API keys: create (the key shown once, in the
//! answer to that POST only), list, and revoke through a confirmation page.

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use entity::api_key;
use serde::Deserialize;

use super::error::see_other;
use super::pages::{html, when, CreatedKey, Credentials, KeyRow, Revoke};
use super::session::{signed_in, SignedIn};
use super::PageError;
use crate::clock::unix_ms;
use crate::credits::Month;
use crate::db;
use crate::db::keys::MAX_NAME_CHARS;
use crate::http::AppState;
use crate::tokens;

/// The query of the Credentials page.
#[derive(Debug, Deserialize)]
pub struct CredentialsQuery {
    /// The key just revoked, to say so.
    revoked: Option<i64>,
}

/// The name a key is listed under: its own, else its prefix (keys made by the CLI
/// without `--name`).
fn display_name(key: &api_key::Model) -> String {
    key.name.clone().unwrap_or_else(|| format!("{}…", key.prefix))
}

fn row(key: &api_key::Model, credits: i64) -> KeyRow {
    KeyRow {
        id: key.id,
        name: display_name(key),
        prefix: format!("{}…", key.prefix),
        created: when(key.created_at),
        last_used: key.last_used_at.map_or_else(|| "Never".to_owned(), when),
        credits,
        revoked: key.revoked_at.map(when),
    }
}

/// What every answer of the page shows around its message.
struct View {
    created: Option<CreatedKey>,
    status: Option<String>,
    name_value: String,
    name_error: Option<String>,
}

async fn render(state: &AppState, me: &SignedIn, code: StatusCode, view: View) -> Result<HttpResponse, PageError> {
    let month = Month::of(state.clock.now());
    let keys = db::keys::of_account(&state.db, me.account.id).await?;
    let credits = db::usage::credits_by_key(&state.db, me.account.id, month).await?;
    let page = Credentials {
        nav: Some(me.nav("credentials")),
        free_plan: me.account.plan != "paid",
        created: view.created,
        status: view.status,
        nonce: tokens::generate().map_err(|e| PageError::Unavailable(e.to_string()))?,
        name_value: view.name_value,
        name_error: view.name_error,
        keys: keys.iter().map(|k| row(k, credits.get(&k.id).copied().unwrap_or(0))).collect(),
    };
    Ok(html(code, &page))
}

/// `GET /account/credentials`.
pub async fn page(req: HttpRequest, query: web::Query<CredentialsQuery>, state: web::Data<AppState>) -> Result<HttpResponse, PageError> {
    let me = signed_in(&req, &state).await?;
    let mut status = None;
    if let Some(id) = query.revoked {
        let keys = db::keys::of_account(&state.db, me.account.id).await?;
        if let Some(key) = keys.iter().find(|k| k.id == id && k.revoked_at.is_some()) {
            status = Some(format!("Key “{}” revoked: requests with it are refused.", display_name(key)));
        }
    }
    render(&state, &me, StatusCode::OK, View { created: None, status, name_value: String::new(), name_error: None }).await
}

/// The Create key form.
#[derive(Deserialize)]
pub struct CreateForm {
    csrf: String,
    nonce: String,
    name: String,
}

/// `POST /account/credentials`: creates a key, once per form.
pub async fn create(req: HttpRequest, form: web::Form<CreateForm>, state: web::Data<AppState>) -> Result<HttpResponse, PageError> {
    let me = signed_in(&req, &state).await?;
    me.check_csrf(&form.csrf)?;
    if !tokens::looks_like_token(&form.nonce) {
        return Err(PageError::BadForm("the form's nonce is malformed".into()));
    }
    let name = form.name.trim();
    let problem = if name.is_empty() {
        Some("Give the key a name.".to_owned())
    } else if name.chars().count() > MAX_NAME_CHARS {
        Some(format!("A key name has at most {MAX_NAME_CHARS} characters; this one has {}.", name.chars().count()))
    } else {
        None
    };
    if problem.is_some() {
        let view = View { created: None, status: None, name_value: form.name.clone(), name_error: problem };
        return render(&state, &me, StatusCode::BAD_REQUEST, view).await;
    }
    let now = unix_ms(state.clock.now());
    match db::keys::create_from_form(&state.db, me.account.id, name, &form.nonce, now).await? {
        Some(key) => {
            let created = CreatedKey { name: name.to_owned(), text: key.text };
            let view = View { created: Some(created), status: None, name_value: String::new(), name_error: None };
            render(&state, &me, StatusCode::OK, view).await
        }
        None => {
            let status = "This form was sent already, and its key was created then. A key is shown only once: \
                          if you did not copy it, revoke it and create another."
                .to_owned();
            let view = View { created: None, status: Some(status), name_value: String::new(), name_error: None };
            render(&state, &me, StatusCode::CONFLICT, view).await
        }
    }
}

/// Which key a revocation is about.
#[derive(Deserialize)]
pub struct KeyQuery {
    key: i64,
}

/// `GET /account/credentials/revoke?key=ID`: asks before revoking.
pub async fn confirm_revoke(req: HttpRequest, query: web::Query<KeyQuery>, state: web::Data<AppState>) -> Result<HttpResponse, PageError> {
    let me = signed_in(&req, &state).await?;
    let keys = db::keys::of_account(&state.db, me.account.id).await?;
    let key = keys.iter().find(|k| k.id == query.key).ok_or(PageError::NotFound)?;
    if key.revoked_at.is_some() {
        return Ok(see_other(&format!("/account/credentials?revoked={}", key.id)));
    }
    let page = Revoke { nav: Some(me.nav("credentials")), key: row(key, 0) };
    Ok(html(StatusCode::OK, &page))
}

/// The Revoke key form.
#[derive(Deserialize)]
pub struct RevokeForm {
    csrf: String,
    key: i64,
}

/// `POST /account/credentials/revoke`: revokes at once, for every instance.
pub async fn revoke(req: HttpRequest, form: web::Form<RevokeForm>, state: web::Data<AppState>) -> Result<HttpResponse, PageError> {
    let me = signed_in(&req, &state).await?;
    me.check_csrf(&form.csrf)?;
    let now = unix_ms(state.clock.now());
    match db::keys::revoke_own(&state.db, me.account.id, form.key, now).await? {
        Some(key) => Ok(see_other(&format!("/account/credentials?revoked={}", key.id))),
        None => Err(PageError::NotFound),
    }
}
