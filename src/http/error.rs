//! The one HTTP error table: every error the API answers, with its status, stable `code`,
//! JSON body `{error, code, message}` and extra headers (API.md, "Errors").

use actix_web::http::header::{self, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};
use chrono::{DateTime, Utc};
use serde_json::json;

use crate::credits::format_reset_at;

/// Every error answer of the API.
#[derive(Debug, thiserror::Error)]
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
    #[error("the server is busy converting other documents; retry in a moment")]
    Overloaded,
    #[error("the service is temporarily unavailable: {0}")]
    Unavailable(String),
    #[error("no such endpoint: {0}")]
    NotFound(String),
    #[error("method {method} is not allowed on {path}")]
    MethodNotAllowed { method: String, path: String },
}

impl ApiError {
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
            ApiError::ConversionFailed(_) | ApiError::ConversionTimeout(_) => StatusCode::INTERNAL_SERVER_ERROR,
            ApiError::Overloaded | ApiError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
        }
    }

    fn error_response(&self) -> HttpResponse {
        let text = self.to_string();
        let mut body = json!({ "error": text, "code": self.code(), "message": text });
        let mut res = HttpResponse::build(self.status_code());
        match self {
            ApiError::Unauthorized(_) => {
                res.insert_header((header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer")));
            }
            ApiError::InsufficientCredits { needed, remaining, limit, reset_at, retry_after_secs } => {
                body["creditsNeeded"] = json!(needed);
                body["creditsRemaining"] = json!(remaining);
                body["creditsLimit"] = json!(limit);
                body["resetAt"] = json!(format_reset_at(*reset_at));
                res.insert_header((header::RETRY_AFTER, retry_after_secs.max(&1).to_string()))
                    .insert_header(("X-Credits-Remaining", remaining.to_string()))
                    .insert_header(("X-Credits-Limit", limit.to_string()));
            }
            ApiError::Overloaded => {
                res.insert_header((header::RETRY_AFTER, "1"));
            }
            ApiError::Unavailable(_) => {
                res.insert_header((header::RETRY_AFTER, "5"));
            }
            ApiError::MethodNotAllowed { path, .. } if path == "/api/convert" => {
                res.insert_header((header::ALLOW, "POST"));
            }
            _ => {}
        }
        res.json(body)
    }
}
