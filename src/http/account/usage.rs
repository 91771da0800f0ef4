//! `/account/usage`: the month's figures (the same as `docx2pdf usage`) and its ledger
//! entries, newest first, 50 a page; earlier months through a GET form.

use std::collections::HashMap;

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;

use super::pages::{html, when, EntryRow, Usage};
use super::session::signed_in;
use super::PageError;
use crate::credits::{format_reset_at, Month};
use crate::db;
use crate::http::AppState;

/// Ledger entries on one page.
pub const PER_PAGE: u64 = 50;

/// The query of the Usage page.
#[derive(Debug, Deserialize)]
pub struct UsageQuery {
    /// `YYYY-MM`; the current month when absent or empty.
    month: Option<String>,
    /// 1-based.
    page: Option<u64>,
}

/// `GET /account/usage`.
pub async fn page(req: HttpRequest, query: web::Query<UsageQuery>, state: web::Data<AppState>) -> Result<HttpResponse, PageError> {
    let me = signed_in(&req, &state).await?;
    let current = Month::of(state.clock.now());
    let asked = query.month.as_deref().map(str::trim).filter(|m| !m.is_empty());
    let (month, month_error) = match asked {
        None => (current, None),
        Some(text) => match Month::parse(text) {
            Some(m) => (m, None),
            None => (current, Some(format!("“{text}” is not a month: write it as YYYY-MM, e.g. {current}."))),
        },
    };
    let account = &me.account;
    let balance = db::usage::balance(&state.db, account.id, month).await?;
    let page = query.page.unwrap_or(1).max(1);
    let (entries, total) = db::usage::entries_newest_first(&state.db, account.id, month, page - 1, PER_PAGE).await?;
    let pages = total.div_ceil(PER_PAGE).max(1);
    let keys: HashMap<i64, String> = db::keys::of_account(&state.db, account.id)
        .await?
        .into_iter()
        .map(|k| (k.id, k.name.unwrap_or_else(|| format!("{}…", k.prefix))))
        .collect();
    let link = |p: u64| format!("/account/usage?month={month}&page={p}");
    let view = Usage {
        nav: Some(me.nav("usage")),
        free_plan: account.plan != "paid",
        plan: if account.plan == "paid" { "Paid".to_owned() } else { "Free".to_owned() },
        month_title: if month == current { format!("This month ({month})") } else { month.to_string() },
        month_value: month.to_string(),
        month_error: month_error.clone(),
        used: balance.used,
        limit: account.monthly_credits,
        remaining: balance.available(account.monthly_credits),
        held: balance.reserved,
        reset_at: format_reset_at(month.reset_at()),
        entries: entries
            .iter()
            .map(|e| EntryRow {
                at: when(e.created_at),
                key: keys.get(&e.api_key_id).cloned().unwrap_or_default(),
                credits: e.credits,
                bytes: e.bytes,
                request_id: e.request_id.clone(),
            })
            .collect(),
        total,
        page,
        pages,
        newer: (page > 1).then(|| link(page - 1)),
        older: (page < pages).then(|| link(page + 1)),
    };
    let status = if month_error.is_some() { StatusCode::BAD_REQUEST } else { StatusCode::OK };
    Ok(html(status, &view))
}
