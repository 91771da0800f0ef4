//! Bearer-key authentication: header → hash → active key and its account.

use actix_web::http::header::AUTHORIZATION;
use actix_web::HttpRequest;
use entity::{account, api_key};
use sea_orm::DatabaseConnection;

use super::ApiError;
use crate::db;
use crate::keys;

/// The caller, once authenticated.
#[derive(Debug, Clone)]
pub struct Caller {
    pub key: api_key::Model,
    pub account: account::Model,
}

/// Authenticates the request's `Authorization: Bearer <key>` (RFC 6750 §2.1; the scheme
/// name is case-insensitive). Revocations are seen at once: the key is looked up every time.
pub async fn authenticate(req: &HttpRequest, db: &DatabaseConnection) -> Result<Caller, ApiError> {
    let header = req
        .headers()
        .get(AUTHORIZATION)
        .ok_or(ApiError::Unauthorized("an API key is required: send the header Authorization: Bearer <API_KEY>"))?;
    let value = header.to_str().map_err(|_| ApiError::Unauthorized("the Authorization header is not valid text"))?;
    let (scheme, key) = value.trim().split_once(' ').unwrap_or((value, ""));
    if !scheme.eq_ignore_ascii_case("bearer") {
        return Err(ApiError::Unauthorized("the Authorization header must use the Bearer scheme: Bearer <API_KEY>"));
    }
    let key = key.trim();
    const INVALID: ApiError = ApiError::Unauthorized("the API key is not valid or has been revoked");
    if !keys::looks_like_key(key) {
        return Err(INVALID);
    }
    match db::keys::authenticate(db, key).await {
        Ok(Some((key, account))) => Ok(Caller { key, account }),
        Ok(None) => Err(INVALID),
        Err(e) => Err(ApiError::Unavailable(format!("the key could not be checked ({e})"))),
    }
}
