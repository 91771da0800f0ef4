//! sea-orm entities of the docx2pdf ledger: accounts, API keys, monthly usage, open
//! reservations and ledger entries. Times are Unix milliseconds (UTC) on every engine.

pub mod account;
pub mod api_key;
pub mod ledger_entry;
pub mod monthly_usage;
pub mod reservation;
