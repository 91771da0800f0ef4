//! The account holder's web application under `/account/`: sign in with a one-time link
//! and a password, Credentials (API keys) and usage. Plain HTML forms, no scripts; every
//! state lives in the database, so any instance serves any request.

mod credentials;
mod error;
mod guard;
mod pages;
mod session;
mod set_up;
mod sign_in;
mod style;
mod usage;

use actix_web::middleware::from_fn;
use actix_web::{web, HttpResponse, Scope};

pub use error::PageError;
pub use session::COOKIE;

/// Largest form body the pages accept: their fields are short.
const FORM_LIMIT: usize = 16 * 1024;

/// The pages, their stylesheet and their guard (same-origin POSTs, security headers).
pub fn scope() -> Scope<
    impl actix_web::dev::ServiceFactory<
        actix_web::dev::ServiceRequest,
        Config = (),
        Response = actix_web::dev::ServiceResponse<impl actix_web::body::MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    web::scope("/account")
        .app_data(
            web::FormConfig::default()
                .limit(FORM_LIMIT)
                .error_handler(|e, _| PageError::BadForm(e.to_string()).into()),
        )
        .app_data(web::QueryConfig::default().error_handler(|e, _| PageError::BadForm(e.to_string()).into()))
        .wrap(from_fn(guard::around))
        .route("", web::get().to(home))
        .route("/", web::get().to(home))
        .route("/style.css", web::get().to(style::stylesheet))
        .route("/sign-in", web::get().to(sign_in::form))
        .route("/sign-in", web::post().to(sign_in::submit))
        .route("/sign-out", web::post().to(sign_in::sign_out))
        .route("/set-up", web::get().to(set_up::form))
        .route("/set-up", web::post().to(set_up::submit))
        .route("/credentials", web::get().to(credentials::page))
        .route("/credentials", web::post().to(credentials::create))
        .route("/credentials/revoke", web::get().to(credentials::confirm_revoke))
        .route("/credentials/revoke", web::post().to(credentials::revoke))
        .route("/usage", web::get().to(usage::page))
        .default_service(web::to(|| async { Err::<HttpResponse, _>(PageError::NotFound) }))
}

/// `/account/`: the Credentials page (which sends visitors without a session to sign in).
async fn home() -> HttpResponse {
    error::see_other("/account/credentials")
}
