//! The pages' error table: every error an account page answers, with its status and the
//! page that explains it. (The API's JSON errors are `http::error::ApiError`.)

use actix_web::http::header::{self, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};

use super::pages::{html, Message};
use crate::db::DbError;

/// Why an account page could not do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum PageError {
    /// No live session: the visitor is sent to sign in.
    #[error("not signed in")]
    NotSignedIn,
    /// A POST that did not come from the service's own pages.
    #[error("the form was not sent from this service's own pages")]
    CrossOrigin,
    /// A POST without the session's CSRF token.
    #[error("the form's security token is missing or out of date")]
    Csrf,
    /// A form or query the pages never send.
    #[error("the request is not one these pages send: {0}")]
    BadForm(String),
    /// No such page, or no such key of this account.
    #[error("no such page")]
    NotFound,
    /// The database could not be reached.
    #[error("the database is unavailable: {0}")]
    Unavailable(String),
}

impl From<DbError> for PageError {
    fn from(e: DbError) -> PageError {
        PageError::Unavailable(e.to_string())
    }
}

impl ResponseError for PageError {
    fn status_code(&self) -> StatusCode {
        match self {
            PageError::NotSignedIn => StatusCode::SEE_OTHER,
            PageError::CrossOrigin | PageError::Csrf => StatusCode::FORBIDDEN,
            PageError::BadForm(_) => StatusCode::BAD_REQUEST,
            PageError::NotFound => StatusCode::NOT_FOUND,
            PageError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
        }
    }

    fn error_response(&self) -> HttpResponse {
        let (title, message, next_href, next_label) = match self {
            PageError::NotSignedIn => return see_other("/account/sign-in"),
            PageError::CrossOrigin => (
                "Form refused",
                "This form was not sent from this service's own pages, so it was refused. \
                 Open the page again and send the form from there.",
                "/account/credentials",
                "Go to Credentials",
            ),
            PageError::Csrf => (
                "Form out of date",
                "This form is out of date, perhaps from a session that has ended. Open the page again and send the form from there.",
                "/account/credentials",
                "Go to Credentials",
            ),
            PageError::BadForm(_) => (
                "Request not understood",
                "This request is not one these pages send.",
                "/account/credentials",
                "Go to Credentials",
            ),
            PageError::NotFound => ("Page not found", "There is no such page here.", "/account/credentials", "Go to Credentials"),
            PageError::Unavailable(why) => {
                tracing::error!(error = %why, "account page failed");
                (
                    "Temporarily unavailable",
                    "The service cannot answer right now. Please try again in a moment.",
                    "/account/credentials",
                    "Try again",
                )
            }
        };
        let page = Message { nav: None, title, message: message.to_owned(), next_href, next_label };
        let mut res = html(self.status_code(), &page);
        if matches!(self, PageError::Unavailable(_)) {
            res.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
        }
        res
    }
}

/// `303 See Other` to `location`: the answer to every successful POST, so reloading
/// the page that follows sends nothing again.
pub fn see_other(location: &str) -> HttpResponse {
    HttpResponse::SeeOther().insert_header((header::LOCATION, location)).finish()
}
