//! The credit ledger on both engines: one set of test bodies (hold, commit, release, expiry,
//! month rollover, concurrency; the database layer and the CreditLedger actor) run against
//! SQLite and against PostgreSQL (skipped, saying so, when no server answers).

mod pg;

use std::sync::Arc;
use std::time::Duration;

use actix::Actor;
use chrono::{DateTime, TimeZone, Utc};
use docx2pdf::clock::{unix_ms, ManualClock};
use docx2pdf::credits::Month;
use docx2pdf::db::usage::{self, Balance, Debit, Hold, HoldOutcome, HoldRequest};
use docx2pdf::db::{self, accounts::Plan, PoolOptions};
use docx2pdf::ledger::{Commit, CreditLedger, LedgerError, Release, Reserve, SweepExpired};
use entity::reservation;
use futures_util::future::join_all;
use sea_orm::{DatabaseConnection, EntityTrait, PaginatorTrait};

/// Generates `sqlite::NAME` and `postgres::NAME` for every body `NAME(&Engine)`.
macro_rules! on_both_engines {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[actix_web::test]
                async fn $name() {
                    let dir = tempfile::tempdir().unwrap();
                    let url = format!("sqlite://{}?mode=rwc", dir.path().join("ledger.db").display());
                    super::$name(&super::Engine { url }).await;
                }
            )*
        }
        mod postgres {
            $(
                #[actix_web::test]
                async fn $name() {
                    let Some(test_db) = super::pg::TestDb::create().await else { return };
                    super::$name(&super::Engine { url: test_db.url.clone() }).await;
                }
            )*
        }
    };
}

on_both_engines!(
    a_hold_becomes_a_ledger_entry_when_committed,
    a_hold_that_does_not_fit_is_refused_with_the_balance,
    a_released_hold_gives_its_credits_back_and_charges_nothing,
    expired_holds_are_released_by_the_sweep,
    each_month_has_its_own_allowance,
    concurrent_holds_from_separate_pools_never_overspend,
    the_ledger_actor_spends_exactly_the_allowance,
    the_ledger_actor_sweeps_holds_left_by_a_crash,
    three_ledgers_racing_on_a_small_allowance_never_overspend,
);

/// One engine's database.
struct Engine {
    url: String,
}

impl Engine {
    /// A pool on the database (migrations applied); each call opens a separate pool, as a
    /// separate process would.
    async fn pool(&self) -> DatabaseConnection {
        db::connect(&self.url, &PoolOptions { max_connections: 8, acquire_timeout: Duration::from_secs(10), ..PoolOptions::default() })
            .await
            .expect("database")
    }
}

fn noon() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 21, 12, 0, 0).unwrap()
}

fn november() -> Month {
    Month::of(noon())
}

/// An account allowed `credits` a month, with one key; returns (account id, key id).
async fn account(db: &DatabaseConnection, name: &str, credits: i64) -> (i64, i64) {
    let now = unix_ms(noon());
    let a = db::accounts::create(db, name, Plan::Paid, credits, now).await.unwrap();
    db::keys::create(db, name, now).await.unwrap();
    let key = db::keys::list(db, name).await.unwrap().remove(0);
    (a.id, key.id)
}

fn request(account_id: i64, month: Month, limit: i64, credits: i64) -> HoldRequest<'static> {
    let now = unix_ms(noon());
    HoldRequest { account_id, month, limit, credits, request_id: "req", now_ms: now, expires_ms: now + 60_000 }
}

async fn held(db: &DatabaseConnection, req: &HoldRequest<'_>) -> Hold {
    match usage::hold(db, req).await.unwrap() {
        HoldOutcome::Held(h) => h,
        HoldOutcome::Refused(b) => panic!("refused with {b:?}"),
    }
}

fn debit(key_id: i64) -> Debit<'static> {
    Debit { api_key_id: key_id, request_id: "req", bytes: 1234, now_ms: unix_ms(noon()) }
}

async fn open_holds(db: &DatabaseConnection) -> u64 {
    reservation::Entity::find().count(db).await.unwrap()
}

/// used = sum of the month's entries, and no hold is left.
async fn settled(db: &DatabaseConnection, account_id: i64, month: Month, used: i64) {
    let balance = usage::balance(db, account_id, month).await.unwrap();
    let entries: i64 = usage::entries(db, account_id, month).await.unwrap().iter().map(|e| e.credits).sum();
    assert_eq!(balance, Balance { used, reserved: 0 });
    assert_eq!(entries, used, "used is the sum of the ledger entries");
    assert_eq!(open_holds(db).await, 0);
}

async fn a_hold_becomes_a_ledger_entry_when_committed(engine: &Engine) {
    let db = engine.pool().await;
    let (id, key) = account(&db, "acme", 10).await;
    let hold = held(&db, &request(id, november(), 10, 3)).await;
    assert_eq!(usage::balance(&db, id, november()).await.unwrap(), Balance { used: 0, reserved: 3 });
    let after = usage::commit(&db, &hold, debit(key)).await.unwrap();
    assert_eq!(after, Some(Balance { used: 3, reserved: 0 }));
    let entries = usage::entries(&db, id, november()).await.unwrap();
    assert_eq!(entries.len(), 1);
    assert_eq!((entries[0].credits, entries[0].bytes, entries[0].api_key_id), (3, 1234, key));
    // A second commit of the same hold charges nothing more.
    assert_eq!(usage::commit(&db, &hold, debit(key)).await.unwrap(), None);
    settled(&db, id, november(), 3).await;
}

async fn a_hold_that_does_not_fit_is_refused_with_the_balance(engine: &Engine) {
    let db = engine.pool().await;
    let (id, key) = account(&db, "acme", 5).await;
    let first = held(&db, &request(id, november(), 5, 3)).await;
    let refused = usage::hold(&db, &request(id, november(), 5, 3)).await.unwrap();
    assert_eq!(refused, HoldOutcome::Refused(Balance { used: 0, reserved: 3 }));
    // Exactly the rest still fits.
    let second = held(&db, &request(id, november(), 5, 2)).await;
    usage::commit(&db, &first, debit(key)).await.unwrap();
    usage::commit(&db, &second, debit(key)).await.unwrap();
    let refused = usage::hold(&db, &request(id, november(), 5, 1)).await.unwrap();
    assert_eq!(refused, HoldOutcome::Refused(Balance { used: 5, reserved: 0 }));
    settled(&db, id, november(), 5).await;
}

async fn a_released_hold_gives_its_credits_back_and_charges_nothing(engine: &Engine) {
    let db = engine.pool().await;
    let (id, key) = account(&db, "acme", 4).await;
    let hold = held(&db, &request(id, november(), 4, 4)).await;
    usage::release(&db, &hold).await.unwrap();
    usage::release(&db, &hold).await.unwrap();
    assert_eq!(usage::commit(&db, &hold, debit(key)).await.unwrap(), None, "a released hold cannot be charged");
    settled(&db, id, november(), 0).await;
    // The whole allowance is there again.
    let again = held(&db, &request(id, november(), 4, 4)).await;
    usage::commit(&db, &again, debit(key)).await.unwrap();
    settled(&db, id, november(), 4).await;
}

async fn expired_holds_are_released_by_the_sweep(engine: &Engine) {
    let db = engine.pool().await;
    let (id, key) = account(&db, "acme", 10).await;
    let req = request(id, november(), 10, 6);
    let stale = held(&db, &req).await;
    assert_eq!(usage::release_expired(&db, req.expires_ms - 1).await.unwrap(), 0, "not yet expired");
    assert_eq!(usage::release_expired(&db, req.expires_ms + 1).await.unwrap(), 1);
    assert_eq!(usage::commit(&db, &stale, debit(key)).await.unwrap(), None, "a swept hold is not charged");
    settled(&db, id, november(), 0).await;
}

async fn each_month_has_its_own_allowance(engine: &Engine) {
    let db = engine.pool().await;
    let (id, key) = account(&db, "acme", 2).await;
    let december = Month::parse("2026-12").unwrap();
    let nov = held(&db, &request(id, november(), 2, 2)).await;
    usage::commit(&db, &nov, debit(key)).await.unwrap();
    assert!(matches!(usage::hold(&db, &request(id, november(), 2, 1)).await.unwrap(), HoldOutcome::Refused(_)));
    let dec = held(&db, &request(id, december, 2, 2)).await;
    usage::commit(&db, &dec, debit(key)).await.unwrap();
    settled(&db, id, november(), 2).await;
    settled(&db, id, december, 2).await;
    assert_eq!(usage::entries(&db, id, december).await.unwrap().len(), 1);
}

async fn concurrent_holds_from_separate_pools_never_overspend(engine: &Engine) {
    // Three pools stand for three processes; no in-process lock serializes them, only the
    // database. The month's row does not exist yet, so its creation races too.
    let pools = [engine.pool().await, engine.pool().await, engine.pool().await];
    let (id, key) = account(&pools[0], "acme", 10).await;
    let attempts = (0..45).map(|i| {
        let db = &pools[i % 3];
        async move {
            let req = request(id, november(), 10, 1);
            match usage::hold(db, &req).await.unwrap() {
                HoldOutcome::Held(hold) => usage::commit(db, &hold, debit(key)).await.unwrap().is_some(),
                HoldOutcome::Refused(_) => false,
            }
        }
    });
    let charged = join_all(attempts).await.into_iter().filter(|&ok| ok).count();
    assert_eq!(charged, 10);
    settled(&pools[1], id, november(), 10).await;
}

fn ledger(db: &DatabaseConnection, clock: &ManualClock) -> actix::Addr<CreditLedger> {
    CreditLedger::new(db.clone(), Arc::new(clock.clone()), Duration::from_secs(120)).start()
}

async fn the_ledger_actor_spends_exactly_the_allowance(engine: &Engine) {
    let db = engine.pool().await;
    let (id, key) = account(&db, "acme", 10).await;
    let clock = ManualClock::new(noon());
    // Two ledgers on separate pools, as two instances of the service would run.
    let ledgers = [ledger(&db, &clock), ledger(&engine.pool().await, &clock)];
    let tries = (0..30).map(|i| {
        let addr = ledgers[i % 2].clone();
        async move {
            let reserve = Reserve { account_id: id, limit: 10, credits: 1, request_id: format!("r{i}") };
            match addr.send(reserve).await.unwrap() {
                Ok(hold) => {
                    // Every third success fails its render and gives the credit back.
                    if i % 3 == 0 {
                        addr.send(Release { hold }).await.unwrap().unwrap();
                        return 0;
                    }
                    let commit = Commit { hold, limit: 10, api_key_id: key, request_id: format!("r{i}"), bytes: 10 };
                    addr.send(commit).await.unwrap().unwrap();
                    1
                }
                Err(LedgerError::Insufficient { needed: 1, limit: 10, .. }) => 0,
                Err(e) => panic!("unexpected ledger error: {e}"),
            }
        }
    });
    let first_round: i64 = join_all(tries).await.into_iter().sum();
    // Released credits can be spent again: top up to the allowance.
    let mut spent = first_round;
    while spent < 10 {
        let hold = ledgers[1]
            .send(Reserve { account_id: id, limit: 10, credits: 1, request_id: "top-up".into() })
            .await
            .unwrap()
            .unwrap();
        ledgers[1]
            .send(Commit { hold, limit: 10, api_key_id: key, request_id: "top-up".into(), bytes: 10 })
            .await
            .unwrap()
            .unwrap();
        spent += 1;
    }
    let refused =
        ledgers[0].send(Reserve { account_id: id, limit: 10, credits: 1, request_id: "over".into() }).await.unwrap();
    assert!(matches!(refused, Err(LedgerError::Insufficient { remaining: 0, .. })), "{refused:?}");
    settled(&db, id, november(), 10).await;

    // The next month starts from zero.
    clock.set(Utc.with_ymd_and_hms(2026, 12, 1, 0, 0, 0).unwrap());
    let hold = ledgers[0]
        .send(Reserve { account_id: id, limit: 10, credits: 4, request_id: "dec".into() })
        .await
        .unwrap()
        .unwrap();
    assert_eq!(hold.month, Month::parse("2026-12").unwrap());
    let done = ledgers[0]
        .send(Commit { hold, limit: 10, api_key_id: key, request_id: "dec".into(), bytes: 10 })
        .await
        .unwrap()
        .unwrap();
    assert_eq!(done.remaining, 6);
}

async fn the_ledger_actor_sweeps_holds_left_by_a_crash(engine: &Engine) {
    let db = engine.pool().await;
    let (id, _) = account(&db, "acme", 10).await;
    let clock = ManualClock::new(noon());
    // A process takes a hold and dies without committing or releasing it.
    let crashed = ledger(&engine.pool().await, &clock);
    crashed.send(Reserve { account_id: id, limit: 10, credits: 7, request_id: "lost".into() }).await.unwrap().unwrap();
    drop(crashed);
    let survivor = ledger(&db, &clock);
    assert_eq!(survivor.send(SweepExpired).await.unwrap().unwrap(), 0, "the hold is still live");
    let refused =
        survivor.send(Reserve { account_id: id, limit: 10, credits: 4, request_id: "x".into() }).await.unwrap();
    assert!(matches!(refused, Err(LedgerError::Insufficient { remaining: 3, .. })), "{refused:?}");
    clock.set(noon() + chrono::Duration::seconds(121));
    assert_eq!(survivor.send(SweepExpired).await.unwrap().unwrap(), 1);
    settled(&db, id, november(), 0).await;
}

async fn three_ledgers_racing_on_a_small_allowance_never_overspend(engine: &Engine) {
    // Three ledgers on separate pools stand for three instances; 240 requests of 1 to 3
    // credits race for 37. On PostgreSQL each hold and debit is one statement committed
    // without waiting for the disk, and the debits share their WAL flushes.
    const LIMIT: i64 = 37;
    let db = engine.pool().await;
    let (id, key) = account(&db, "acme", LIMIT).await;
    let clock = ManualClock::new(noon());
    let ledgers = [ledger(&db, &clock), ledger(&engine.pool().await, &clock), ledger(&engine.pool().await, &clock)];
    let tries = (0..240).map(|i| {
        let addr = ledgers[i % 3].clone();
        let credits = (i % 3) as i64 + 1;
        async move {
            let reserve = Reserve { account_id: id, limit: LIMIT, credits, request_id: format!("r{i}") };
            match addr.send(reserve).await.unwrap() {
                Ok(hold) => {
                    // Every fourth success fails its render and gives the credits back.
                    if i % 4 == 0 {
                        addr.send(Release { hold }).await.unwrap().unwrap();
                        return 0;
                    }
                    let commit = Commit { hold, limit: LIMIT, api_key_id: key, request_id: format!("r{i}"), bytes: 10 };
                    let done = addr.send(commit).await.unwrap().unwrap();
                    assert!((0..LIMIT).contains(&done.remaining), "{done:?}");
                    credits
                }
                Err(LedgerError::Insufficient { .. }) => 0,
                Err(e) => panic!("unexpected ledger error: {e}"),
            }
        }
    });
    let charged: i64 = join_all(tries).await.into_iter().sum();
    // Every answered debit is in the ledger, and nothing beyond the allowance.
    assert!(charged <= LIMIT, "charged {charged} of {LIMIT}");
    settled(&db, id, november(), charged).await;
    // What the race left (credits released late) is exactly what can still be spent.
    let rest = LIMIT - charged;
    if rest > 0 {
        let hold = ledgers[2]
            .send(Reserve { account_id: id, limit: LIMIT, credits: rest, request_id: "rest".into() })
            .await
            .unwrap()
            .unwrap();
        ledgers[2]
            .send(Commit { hold, limit: LIMIT, api_key_id: key, request_id: "rest".into(), bytes: 10 })
            .await
            .unwrap()
            .unwrap();
    }
    let refused =
        ledgers[0].send(Reserve { account_id: id, limit: LIMIT, credits: 1, request_id: "over".into() }).await.unwrap();
    assert!(matches!(refused, Err(LedgerError::Insufficient { remaining: 0, .. })), "{refused:?}");
    settled(&db, id, november(), LIMIT).await;
}
