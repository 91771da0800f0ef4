//! The CreditLedger actor. Each message runs as a future that first takes its account's
//! lock, so debits of one account are serialized inside the process while other accounts
//! proceed; the conditional UPDATE in the database keeps the allowance across processes.
//! The lock is only an optimisation (one account's requests queue here instead of on the
//! database row): correctness rests on the database alone, as with several instances.
//! On PostgreSQL a debit lets go of the lock once written and waits for its WAL flush
//! outside it, sharing the flush with the debits that finish meanwhile (`db/wal_flush.rs`).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use actix::{Actor, AsyncContext, Context, Handler, ResponseFuture};
use sea_orm::DatabaseConnection;
use tokio::sync::Mutex;

use super::messages::{Commit, Committed, LedgerError, Release, Reserve, SweepExpired};
use crate::clock::{unix_ms, Clock};
use crate::credits::Month;
use crate::db::usage::{self, Debit, HoldOutcome, HoldRequest};
use crate::db::wal_flush::WalFlush;

/// How often stale holds are looked for.
const SWEEP_EVERY: Duration = Duration::from_secs(60);

/// Serializes credit operations per account and records them in the database.
pub struct CreditLedger {
    db: DatabaseConnection,
    clock: Arc<dyn Clock>,
    /// How long a hold lives before a sweep may release it: longer than any render.
    hold_ttl: Duration,
    locks: HashMap<i64, Arc<Mutex<()>>>,
    /// Shared by all debits of the process: one WAL flush for those that finish together.
    flush: Arc<WalFlush>,
}

impl CreditLedger {
    /// A ledger over `db`; holds expire `hold_ttl` after they were taken.
    pub fn new(db: DatabaseConnection, clock: Arc<dyn Clock>, hold_ttl: Duration) -> CreditLedger {
        CreditLedger { db, clock, hold_ttl, locks: HashMap::new(), flush: Arc::default() }
    }

    fn lock_for(&mut self, account_id: i64) -> Arc<Mutex<()>> {
        // Locks nobody else holds are dropped now and then so the map stays small.
        if self.locks.len() > 4096 {
            self.locks.retain(|_, l| Arc::strong_count(l) > 1);
        }
        self.locks.entry(account_id).or_default().clone()
    }
}

impl Actor for CreditLedger {
    type Context = Context<Self>;

    fn started(&mut self, ctx: &mut Context<Self>) {
        ctx.notify(SweepExpired);
        ctx.run_interval(SWEEP_EVERY, |_, ctx| ctx.notify(SweepExpired));
    }
}

impl Handler<Reserve> for CreditLedger {
    type Result = ResponseFuture<Result<usage::Hold, LedgerError>>;

    fn handle(&mut self, msg: Reserve, _: &mut Context<Self>) -> Self::Result {
        let lock = self.lock_for(msg.account_id);
        let db = self.db.clone();
        let now = self.clock.now();
        let ttl = chrono::Duration::from_std(self.hold_ttl).unwrap_or(chrono::Duration::hours(1));
        Box::pin(async move {
            let _serial = lock.lock().await;
            let month = Month::of(now);
            let req = HoldRequest {
                account_id: msg.account_id,
                month,
                limit: msg.limit,
                credits: msg.credits,
                request_id: &msg.request_id,
                now_ms: unix_ms(now),
                expires_ms: unix_ms(now + ttl),
            };
            match usage::hold(&db, &req).await? {
                HoldOutcome::Held(hold) => Ok(hold),
                HoldOutcome::Refused(balance) => Err(LedgerError::Insufficient {
                    needed: msg.credits,
                    remaining: balance.available(msg.limit),
                    limit: msg.limit,
                    reset_at: month.reset_at(),
                }),
            }
        })
    }
}

impl Handler<Commit> for CreditLedger {
    type Result = ResponseFuture<Result<Committed, LedgerError>>;

    fn handle(&mut self, msg: Commit, _: &mut Context<Self>) -> Self::Result {
        let lock = self.lock_for(msg.hold.account_id);
        let db = self.db.clone();
        let flush = self.flush.clone();
        let now_ms = unix_ms(self.clock.now());
        Box::pin(async move {
            let serial = lock.lock().await;
            let debit = Debit { api_key_id: msg.api_key_id, request_id: &msg.request_id, bytes: msg.bytes, now_ms };
            let after = usage::commit_written(&db, &msg.hold, debit).await?;
            // The account's next request need not wait for this one's disk write, and
            // debits that finish meanwhile share the flush.
            drop(serial);
            if after.is_some() {
                flush.durable(&db).await?;
            }
            match after {
                Some(balance) => Ok(Committed { remaining: balance.available(msg.limit) }),
                None => Err(LedgerError::HoldLost),
            }
        })
    }
}

impl Handler<Release> for CreditLedger {
    type Result = ResponseFuture<Result<(), LedgerError>>;

    fn handle(&mut self, msg: Release, _: &mut Context<Self>) -> Self::Result {
        let lock = self.lock_for(msg.hold.account_id);
        let db = self.db.clone();
        Box::pin(async move {
            let _serial = lock.lock().await;
            Ok(usage::release(&db, &msg.hold).await?)
        })
    }
}

impl Handler<SweepExpired> for CreditLedger {
    type Result = ResponseFuture<Result<usize, LedgerError>>;

    fn handle(&mut self, _: SweepExpired, _: &mut Context<Self>) -> Self::Result {
        let db = self.db.clone();
        let now_ms = unix_ms(self.clock.now());
        Box::pin(async move {
            let released = usage::release_expired(&db, now_ms).await?;
            if released > 0 {
                tracing::warn!(released, "released credit holds left by an earlier process");
            }
            Ok(released)
        })
    }
}
