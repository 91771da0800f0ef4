//! The CreditLedger actor: reserve before rendering, commit on success, release on failure,
//! serialized per account inside the process.

mod actor;
mod messages;

pub use actor::CreditLedger;
pub use messages::{Commit, Committed, LedgerError, Release, Reserve, SweepExpired};
