//! The HTTP API: routes, authentication, upload streaming, the error table, request ids
//! and per-request logging.

mod app;
mod auth;
mod convert;
pub mod error;
mod health;
mod request_log;
mod upload;

pub use app::{create_app, AppState};
pub use error::ApiError;
pub use request_log::RequestId;
