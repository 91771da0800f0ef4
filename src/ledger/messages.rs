//! The messages the CreditLedger answers, and its errors.

use actix::Message;
use chrono::{DateTime, Utc};

use crate::db::usage::Hold;
use crate::db::DbError;

/// Why the ledger refused or failed.
#[derive(Debug, thiserror::Error)]
pub enum LedgerError {
    /// The month's allowance does not cover the request.
    #[error("not enough credits: {needed} needed, {remaining} remaining of {limit} this month")]
    Insufficient { needed: i64, remaining: i64, limit: i64, reset_at: DateTime<Utc> },
    /// The database could not be reached.
    #[error(transparent)]
    Db(#[from] DbError),
    /// The hold expired before the commit (only after a render far past its time limit).
    #[error("the credit reservation expired before the conversion finished")]
    HoldLost,
    /// The actor is gone (the server is shutting down).
    #[error("the credit ledger is not running")]
    Stopped,
}

/// Hold `credits` for one render.
#[derive(Debug, Clone)]
pub struct Reserve {
    pub account_id: i64,
    pub limit: i64,
    pub credits: i64,
    pub request_id: String,
}

impl Message for Reserve {
    type Result = Result<Hold, LedgerError>;
}

/// The render succeeded: charge the hold.
#[derive(Debug, Clone)]
pub struct Commit {
    pub hold: Hold,
    pub limit: i64,
    pub api_key_id: i64,
    pub request_id: String,
    pub bytes: i64,
}

/// The figures after a commit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Committed {
    /// Credits still available this month.
    pub remaining: i64,
}

impl Message for Commit {
    type Result = Result<Committed, LedgerError>;
}

/// The render failed: give the hold back.
#[derive(Debug, Clone)]
pub struct Release {
    pub hold: Hold,
}

impl Message for Release {
    type Result = Result<(), LedgerError>;
}

/// Release holds left behind by a crashed process.
#[derive(Debug, Clone, Copy)]
pub struct SweepExpired;

impl Message for SweepExpired {
    type Result = Result<usize, LedgerError>;
}
