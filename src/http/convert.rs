//! `POST /api/convert`: authenticate, read the upload, reserve credits, render, then commit
//! or release (API.md).

use std::time::{Duration, Instant};

use actix_web::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use actix_web::{web, HttpMessage, HttpRequest, HttpResponse};

use super::auth::{authenticate, Caller};
use super::request_log::{Outcome, RequestId};
use super::upload::{read_file_part, Upload};
use super::{ApiError, AppState};
use crate::config::ServiceConfig;
use crate::credits::credits_for;
use crate::db::usage::Hold;
use crate::ledger::{Commit, LedgerError, Release, Reserve};
use crate::output_options::Via;
use crate::pdf::{file_stem, parse_pdfua, PdfA, PdfOptions};
use crate::render::pool::RenderJob;
use crate::render::{PoolError, RenderError, RenderErrorKind};
use docx2pdf_render::TemplateData;

/// Extra time the handler waits past the render limit before answering a timeout itself,
/// in case the renderer is stuck where it cannot check its deadline.
const TIMEOUT_GRACE: Duration = Duration::from_secs(5);

/// The handler.
#[utoipa::path(
    post,
    path = "/api/convert",
    tag = "convert",
    request_body(content = super::openapi::ConvertForm, content_type = "multipart/form-data"),
    responses(super::openapi::ConvertAnswers),
    security(("bearer" = []))
)]
pub async fn convert(req: HttpRequest, payload: web::Payload, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let started = Instant::now();
    let request_id = req.extensions().get::<RequestId>().map(|r| r.0.clone()).unwrap_or_default();
    let caller = authenticate(&req, &state.db).await?;
    note(&req, |o| o.account = Some(caller.account.name.clone()));
    note_key_use(&state, &caller).await;
    if caller.account.plan != "paid" {
        return Err(ApiError::PlanRequired(caller.account.plan.clone()));
    }
    let mut upload = read_file_part(&req, payload, state.config.max_upload_bytes, state.upload_timeout).await?;
    // A bad option is refused before any credit is held.
    let options = options(&upload)?;
    let data = data(&upload)?;
    let file_name = upload.file_name.clone();
    let bytes = std::mem::take(&mut upload.file);
    let size = bytes.len() as u64;
    note(&req, |o| o.bytes = size);
    let credits = credits_for(size);
    let hold = reserve(&state, &caller, credits, &request_id).await?;
    // If the client goes away while we render, actix drops this future: the guard then
    // gives the hold back instead of leaving it for the stale-hold sweep.
    let mut guard = HoldGuard { state: &state, hold: Some(hold.clone()) };

    let job = RenderJob { bytes, time_limit: state.config.render_timeout, memory_limit: state.config.render_memory, options, data };
    let limit_secs = state.config.render_timeout.as_secs();
    let outcome = match tokio::time::timeout(state.config.render_timeout + TIMEOUT_GRACE, state.pool.render(job)).await {
        Err(_elapsed) => Err(ApiError::ConversionTimeout(limit_secs)),
        Ok(Err(PoolError::Overloaded)) => Err(ApiError::Overloaded),
        Ok(Err(PoolError::Stopped)) => Err(ApiError::Unavailable("the server is shutting down".into())),
        Ok(Ok(result)) => result.map_err(|e| match upload.output.render_error(&e, Via::Form) {
            Some(message) => ApiError::InvalidOption(message),
            None => render_error(e, &state.config),
        }),
    };
    let rendered = match outcome {
        Ok(rendered) => rendered,
        Err(e) => {
            guard.disarm();
            release(&state, hold).await;
            state.metrics.failed();
            return Err(e);
        }
    };
    for w in &rendered.warnings {
        if w.is_conformance() {
            tracing::warn!(request_id = %request_id, warning = %w, "conformance warning");
        } else {
            tracing::debug!(request_id = %request_id, warning = %w, "render warning");
        }
    }
    // What the document asked for and did not get, conformance first: the PDF is sent all the same.
    let warnings = super::conversion_warnings::header(&docx2pdf_render::changes::summarize(&rendered.warnings));

    let commit = Commit {
        hold: hold.clone(),
        limit: caller.account.monthly_credits,
        api_key_id: caller.key.id,
        request_id: request_id.clone(),
        bytes: size as i64,
    };
    // From here the commit message is in the ledger's hands; it completes even if we are dropped.
    guard.disarm();
    let committed = match state.ledger.send(commit).await {
        Ok(Ok(c)) => c,
        Ok(Err(e)) => {
            release(&state, hold).await;
            return Err(ledger_error(e, &state));
        }
        Err(_) => {
            release(&state, hold).await;
            return Err(ledger_error(LedgerError::Stopped, &state));
        }
    };
    state.metrics.debited(credits);
    state.metrics.conversion(started.elapsed());
    note(&req, |o| o.credits = credits);
    let mut res = HttpResponse::Ok();
    res.insert_header((CONTENT_TYPE, "application/pdf"))
        .insert_header(("X-Credits-Used", credits.to_string()))
        .insert_header(("X-Credits-Remaining", committed.remaining.to_string()))
        .insert_header(("X-Credits-Limit", caller.account.monthly_credits.to_string()));
    res.insert_header((CONTENT_DISPOSITION, super::content_disposition::attachment(file_name.as_deref())));
    if let Some(warnings) = warnings {
        res.insert_header(("X-Conversion-Warnings", warnings));
    }
    Ok(res.body(rendered.pdf))
}

/// Writes the key's "last used" for the Credentials page, at most once a minute per key
/// (the check is on the row authentication just read, so most requests write nothing). A
/// failure is logged and the conversion goes on: the date is a courtesy, not the ledger.
async fn note_key_use(state: &AppState, caller: &Caller) {
    let now = crate::clock::unix_ms(state.clock.now());
    if !crate::db::keys::needs_use_noted(&caller.key, now) {
        return;
    }
    if let Err(e) = crate::db::keys::note_use(&state.db, &caller.key, now).await {
        tracing::warn!(key_id = caller.key.id, error = %e, "could not note the key's last use");
    }
}

/// The conformance the form fields ask for: `pdfua` `true`/`false`, `pdfa` a level name;
/// with the stem of the upload's file name, PDF/UA's title of last resort; and the
/// `password` that opens a protected document.
fn options(upload: &Upload) -> Result<PdfOptions, ApiError> {
    // An empty field is a field not sent (forms often send every field).
    let given = |v: &Option<String>| v.as_deref().map(str::trim).filter(|v| !v.is_empty()).map(str::to_owned);
    let pdfua = match given(&upload.pdfua).as_deref() {
        None => false,
        Some(v) => parse_pdfua(v)
            .ok_or_else(|| ApiError::InvalidOption(format!("the form field \"pdfua\" is {v:?}; it takes true or false")))?,
    };
    let pdfa = match given(&upload.pdfa).as_deref() {
        None => None,
        Some(v) => Some(PdfA::parse(v).ok_or_else(|| {
            ApiError::InvalidOption(format!("the form field \"pdfa\" is {v:?}; it takes one of {}", PdfA::NAMES))
        })?),
    };
    let file_stem = upload.file_name.as_deref().and_then(file_stem);
    let password = super::password_field::parse(upload.password.as_ref())?;
    let mut options = PdfOptions { pdfua, pdfa, file_stem, password, ..PdfOptions::default() };
    upload.output.apply(&mut options, Via::Form).map_err(|e| ApiError::InvalidOption(e.0))?;
    Ok(options)
}

/// The `data` field: a JSON object a template is filled with (docs/templates.md). Not
/// sent, empty or `{}` is no data: the document converts as it is.
fn data(upload: &Upload) -> Result<Option<TemplateData>, ApiError> {
    let Some(bytes) = upload.data.as_deref().filter(|b| !b.trim_ascii().is_empty()) else {
        return Ok(None);
    };
    let data = TemplateData::parse(bytes).map_err(|e| ApiError::InvalidOption(format!("the form field \"data\" {e}")))?;
    Ok(Some(data).filter(|d| !d.is_empty()))
}

/// Releases a hold when the handler is dropped before it could commit or release it.
struct HoldGuard<'a> {
    state: &'a AppState,
    hold: Option<Hold>,
}

impl HoldGuard<'_> {
    fn disarm(&mut self) {
        self.hold = None;
    }
}

impl Drop for HoldGuard<'_> {
    fn drop(&mut self) {
        if let Some(hold) = self.hold.take() {
            self.state.ledger.do_send(Release { hold });
        }
    }
}

/// Records something for the request's log line.
fn note(req: &HttpRequest, f: impl FnOnce(&mut Outcome)) {
    let mut ext = req.extensions_mut();
    if ext.get::<Outcome>().is_none() {
        ext.insert(Outcome::default());
    }
    if let Some(o) = ext.get_mut::<Outcome>() {
        f(o);
    }
}

async fn reserve(state: &AppState, caller: &Caller, credits: i64, request_id: &str) -> Result<Hold, ApiError> {
    let msg = Reserve {
        account_id: caller.account.id,
        limit: caller.account.monthly_credits,
        credits,
        request_id: request_id.to_owned(),
    };
    match state.ledger.send(msg).await {
        Ok(Ok(hold)) => Ok(hold),
        Ok(Err(e)) => Err(ledger_error(e, state)),
        Err(_) => Err(ledger_error(LedgerError::Stopped, state)),
    }
}

/// Gives a hold back; a failure here is logged, and the sweep releases the hold later.
async fn release(state: &AppState, hold: Hold) {
    let id = hold.id;
    match state.ledger.send(Release { hold }).await {
        Ok(Ok(())) => {}
        Ok(Err(e)) => tracing::warn!(hold = id, error = %e, "could not release a credit hold; the sweep will"),
        Err(_) => tracing::warn!(hold = id, "could not release a credit hold: the ledger has stopped"),
    }
}

fn ledger_error(e: LedgerError, state: &AppState) -> ApiError {
    match e {
        LedgerError::Insufficient { needed, remaining, limit, reset_at } => ApiError::InsufficientCredits {
            needed,
            remaining,
            limit,
            reset_at,
            retry_after_secs: (reset_at - state.clock.now()).num_seconds(),
        },
        LedgerError::Db(e) => ApiError::Unavailable(format!("the credit ledger cannot be reached ({e})")),
        LedgerError::HoldLost => ApiError::ConversionFailed(e.to_string()),
        LedgerError::Stopped => ApiError::Unavailable("the server is shutting down".into()),
    }
}

fn render_error(e: RenderError, config: &ServiceConfig) -> ApiError {
    match e.kind() {
        RenderErrorKind::InvalidDocx => ApiError::InvalidDocx(e.to_string()),
        RenderErrorKind::UnsupportedFormat => ApiError::UnsupportedFormat(e.to_string()),
        RenderErrorKind::Encrypted => ApiError::EncryptedDocument(e.to_string()),
        RenderErrorKind::InvalidOption => ApiError::InvalidOption(e.to_string()),
        RenderErrorKind::Timeout => ApiError::ConversionTimeout(config.render_timeout.as_secs()),
        RenderErrorKind::MemoryLimit => ApiError::ConversionMemoryLimit(config.render_memory.unwrap_or(0) as u64 >> 20),
        RenderErrorKind::Failed => ApiError::ConversionFailed(e.to_string()),
    }
}
