//! Reading the `file` part of a multipart upload as it streams in, refusing it as soon as it
//! passes the size limit (413) rather than after buffering it all.

use std::time::Duration;

use actix_multipart::{Multipart, MultipartError};
use actix_web::{web, HttpRequest};
use futures_util::StreamExt;

use super::ApiError;
use crate::credits::MIB;
use docx2pdf_render::template::MAX_DATA_BYTES;

/// Largest accepted form field other than `file` (the options, or anything else, which is
/// read and ignored).
const MAX_OTHER_FIELD: usize = 64 * 1024;

/// An upload: the document and the option fields that came with it, as sent.
#[derive(Debug, Default)]
pub struct Upload {
    pub file: Vec<u8>,
    /// The `file` part's file name as the client sent it (`filename` of its
    /// Content-Disposition), if any.
    pub file_name: Option<String>,
    /// The `pdfua` field.
    pub pdfua: Option<String>,
    /// The `pdfa` field.
    pub pdfa: Option<String>,
    /// The output option fields: pages, passwords, metadata.
    pub output: crate::output_options::OutputFields,
    /// The `password` field, a secret (password_field.rs).
    pub password: Option<super::password_field::PasswordField>,
    /// The `data` field: the JSON a template is filled with, as sent (at most
    /// [`MAX_DATA_BYTES`] are kept; more is refused when it is read).
    pub data: Option<Vec<u8>>,
}

/// Most form fields a request may hold: the API needs one.
const MAX_FIELDS: usize = 16;

fn multipart_error(e: MultipartError) -> ApiError {
    ApiError::InvalidMultipart(e.to_string())
}

/// Reads the body and returns the bytes of its `file` part with the option fields,
/// refusing a client that takes longer than `time_limit` to send it (a slow client holds
/// a connection, not a render).
pub async fn read_file_part(
    req: &HttpRequest,
    payload: web::Payload,
    max_bytes: u64,
    time_limit: Duration,
) -> Result<Upload, ApiError> {
    match tokio::time::timeout(time_limit, read_within_limits(req, payload, max_bytes)).await {
        Ok(read) => read,
        Err(_) => Err(ApiError::InvalidMultipart(format!(
            "the upload did not arrive within {} seconds, the server's limit \
             (--upload-timeout-secs / DOCX2PDF_UPLOAD_TIMEOUT_SECS)",
            time_limit.as_secs()
        ))),
    }
}

async fn read_within_limits(req: &HttpRequest, payload: web::Payload, max_bytes: u64) -> Result<Upload, ApiError> {
    let too_large = || ApiError::FileTooLarge { limit_mb: max_bytes / MIB, limit_bytes: max_bytes };
    // A body that cannot fit is refused before a byte is read. Multipart framing adds a
    // little, so only bodies past the limit plus 64 KiB of framing are refused this way
    // (a `data` field counts in the body: a file at the limit leaves it 64 KiB).
    let declared = req
        .headers()
        .get(actix_web::http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > max_bytes.saturating_add(64 * 1024)) {
        return Err(too_large());
    }
    let mut form = Multipart::new(req.headers(), payload);
    let mut file: Option<Vec<u8>> = None;
    let mut upload = Upload::default();
    let mut fields = 0;
    while let Some(field) = form.next().await {
        let mut field = field.map_err(multipart_error)?;
        fields += 1;
        if fields > MAX_FIELDS {
            return Err(ApiError::InvalidMultipart(format!("the form has more than {MAX_FIELDS} fields")));
        }
        let is_file = field.name() == Some("file") && file.is_none();
        let mut buf = Vec::new();
        while let Some(chunk) = field.next().await {
            let chunk = chunk.map_err(multipart_error)?;
            if is_file {
                if buf.len() as u64 + chunk.len() as u64 > max_bytes {
                    return Err(too_large());
                }
            } else if field.name() == Some("data") {
                // One byte past the limit is enough to refuse it (convert.rs) by its size.
                if buf.len() + chunk.len() > MAX_DATA_BYTES {
                    let room = MAX_DATA_BYTES + 1 - buf.len();
                    buf.extend_from_slice(&chunk[..room.min(chunk.len())]);
                    continue;
                }
            } else if buf.len() + chunk.len() > MAX_OTHER_FIELD {
                if field.name() == Some("metadata") {
                    return Err(ApiError::InvalidOption(format!("the form field \"metadata\" is larger than {MAX_OTHER_FIELD} bytes")));
                }
                return Err(ApiError::InvalidMultipart(format!(
                    "the form field {:?} is larger than {MAX_OTHER_FIELD} bytes",
                    field.name().unwrap_or("")
                )));
            }
            buf.extend_from_slice(&chunk);
        }
        if is_file {
            file = Some(buf);
            upload.file_name = field.content_disposition().and_then(|cd| cd.get_filename()).map(str::to_owned);
        } else if field.name() == Some("data") {
            upload.data = Some(buf);
        } else if field.name() == Some("password") {
            upload.password = Some(super::password_field::PasswordField::new(buf));
        } else {
            let slot = match field.name() {
                Some("pdfua") => &mut upload.pdfua,
                Some("pdfa") => &mut upload.pdfa,
                Some(name) => match upload.output.slot(name) {
                    Some(slot) => slot,
                    None => continue,
                },
                None => continue,
            };
            // A value that is not text cannot name an option: it fails as one.
            *slot = Some(String::from_utf8(buf).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()));
        }
    }
    match file {
        None => Err(ApiError::MissingFile),
        Some(bytes) if bytes.is_empty() => Err(ApiError::EmptyFile),
        Some(bytes) => Ok(Upload { file: bytes, ..upload }),
    }
}
