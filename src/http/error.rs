//! The one HTTP error table: every error the API answers, with its status, stable `code`,
//! JSON body `{error, code, message}` and extra headers (API.md, "Errors").

use actix_web::http::header::{self, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};
use chrono::{DateTime, Utc};
use serde::Serialize;
use strum::IntoEnumIterator;
use utoipa::ToSchema;

use crate::credits::format_reset_at;

/// Every error answer of the API. Each variant's fields must have a `Default` (the API
/// description walks one value of every variant, see [`ApiError::every`]).
#[derive(Debug, thiserror::Error, strum::EnumIter)]
pub enum ApiError {
    #[error("the request has no form field named \"file\"; send the DOCX as multipart/form-data field \"file\"")]
    MissingFile,
    #[error("the request body is not valid multipart/form-data: {0}")]
    InvalidMultipart(String),
    #[error("the uploaded file is empty")]
    EmptyFile,
    #[error("{0}")]
    InvalidOption(String),
    #[error("the file is not a readable DOCX document: {0}")]
    InvalidDocx(String),
    #[error("the file is not a DOCX document: {0}")]
    UnsupportedFormat(String),
    #[error("{0}")]
    EncryptedDocument(String),
    #[error("{0}")]
    Unauthorized(&'static str),
    #[error("the API is available to paid plans; this key's account is on the {0} plan")]
    PlanRequired(String),
    #[error("the file is larger than the maximum upload size of {limit_mb} MB ({limit_bytes} bytes)")]
    FileTooLarge { limit_mb: u64, limit_bytes: u64 },
    #[error("not enough credits: this conversion needs {needed} and {remaining} of {limit} remain this month")]
    InsufficientCredits { needed: i64, remaining: i64, limit: i64, reset_at: DateTime<Utc>, retry_after_secs: i64 },
    #[error("the conversion failed: {0}")]
    ConversionFailed(String),
    #[error("the conversion ran past its time limit of {0} seconds")]
    ConversionTimeout(u64),
    #[error("the conversion needed more memory than the server allows one document ({0} MB)")]
    ConversionMemoryLimit(u64),
    #[error("the server is busy converting other documents; retry in a moment")]
    Overloaded,
    #[error("the service is temporarily unavailable: {0}")]
    Unavailable(String),
    #[error("no such endpoint: {0}")]
    NotFound(String),
    #[error("method {method} is not allowed on {path}")]
    MethodNotAllowed { method: String, path: String, allow: &'static str },
}

/// The JSON body of every error (API.md, "Errors").
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    /// What went wrong, for people.
    pub error: String,
    /// The stable snake_case identifier clients switch on.
    pub code: &'static str,
    /// The same text as `error`, for older clients that read `message`.
    pub message: String,
}

/// The body of 429 `insufficient_credits`: the error plus the account's allowance.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InsufficientCreditsBody {
    #[serde(flatten)]
    pub base: ErrorBody,
    /// Credits the refused conversion needed.
    pub credits_needed: i64,
    /// Credits left this month.
    pub credits_remaining: i64,
    /// The account's monthly allowance.
    pub credits_limit: i64,
    /// The first instant of the next month (UTC), e.g. `2026-12-01T00:00:00.000Z`.
    pub reset_at: String,
}

impl ApiError {
    /// One value of every variant (fields at their defaults): the table the API description
    /// and its test walk, so a new error appears in both by itself.
    pub fn every() -> impl Iterator<Item = ApiError> {
        ApiError::iter()
    }

    /// The stable snake_case identifier clients switch on.
    pub fn code(&self) -> &'static str {
        match self {
            ApiError::MissingFile => "missing_file",
            ApiError::InvalidMultipart(_) => "invalid_multipart",
            ApiError::EmptyFile => "empty_file",
            ApiError::InvalidOption(_) => "invalid_option",
            ApiError::InvalidDocx(_) => "invalid_docx",
            ApiError::UnsupportedFormat(_) => "unsupported_format",
            ApiError::EncryptedDocument(_) => "encrypted_document",
            ApiError::Unauthorized(_) => "unauthorized",
            ApiError::PlanRequired(_) => "plan_required",
            ApiError::FileTooLarge { .. } => "file_too_large",
            ApiError::InsufficientCredits { .. } => "insufficient_credits",
            ApiError::ConversionFailed(_) => "conversion_failed",
            ApiError::ConversionTimeout(_) => "conversion_timeout",
            ApiError::ConversionMemoryLimit(_) => "conversion_memory_limit",
            ApiError::Overloaded => "overloaded",
            ApiError::Unavailable(_) => "unavailable",
            ApiError::NotFound(_) => "not_found",
            ApiError::MethodNotAllowed { .. } => "method_not_allowed",
        }
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        match self {
            ApiError::MissingFile
            | ApiError::InvalidMultipart(_)
            | ApiError::EmptyFile
            | ApiError::InvalidOption(_)
            | ApiError::InvalidDocx(_)
            | ApiError::UnsupportedFormat(_)
            | ApiError::EncryptedDocument(_) => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            ApiError::PlanRequired(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed { .. } => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::FileTooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::InsufficientCredits { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::ConversionFailed(_) | ApiError::ConversionTimeout(_) | ApiError::ConversionMemoryLimit(_) => {
                StatusCode::INTERNAL_SERVER_ERROR
            }
            ApiError::Overloaded | ApiError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
        }
    }

    fn error_response(&self) -> HttpResponse {
        let text = self.to_string();
        let body = ErrorBody { error: text.clone(), code: self.code(), message: text };
        let mut res = HttpResponse::build(self.status_code());
        match self {
            ApiError::Unauthorized(_) => {
                res.insert_header((header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer")));
            }
            ApiError::InsufficientCredits { needed, remaining, limit, reset_at, retry_after_secs } => {
                res.insert_header((header::RETRY_AFTER, retry_after_secs.max(&1).to_string()))
                    .insert_header(("X-Credits-Remaining", remaining.to_string()))
                    .insert_header(("X-Credits-Limit", limit.to_string()));
                return res.json(InsufficientCreditsBody {
                    base: body,
                    credits_needed: *needed,
                    credits_remaining: *remaining,
                    credits_limit: *limit,
                    reset_at: format_reset_at(*reset_at),
                });
            }
            ApiError::Overloaded => {
                res.insert_header((header::RETRY_AFTER, "1"));
            }
            ApiError::Unavailable(_) => {
                res.insert_header((header::RETRY_AFTER, "5"));
            }
            ApiError::MethodNotAllowed { allow, .. } => {
                res.insert_header((header::ALLOW, *allow));
            }
            _ => {}
        }
        res.json(body)
    }
}
