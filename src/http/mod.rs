//! The HTTP API: routes, authentication, upload streaming, the error table, request ids,
//! per-request logging and the API's own description (`/openapi.json`); and the account
//! holder's pages under `/account/`.

pub mod account;
mod app;
mod auth;
mod content_disposition;
mod conversion_warnings;
mod convert;
pub mod error;
mod health;
mod openapi;
mod password_field;
mod request_log;
pub mod server;
mod upload;

pub use app::{create_app, AppState};
pub use error::ApiError;
pub use openapi::description;
pub use request_log::RequestId;
