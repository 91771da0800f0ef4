//! sea-orm entities of the docx2pdf ledger: accounts, API keys, monthly usage, open
//! reservations and ledger entries; and of the account pages: sign-in links, passwords,
//! sessions and sign-in back-off. Times are Unix milliseconds (UTC) on every engine.

pub mod account;
pub mod account_password;
pub mod api_key;
pub mod ledger_entry;
pub mod monthly_usage;
pub mod reservation;
pub mod sign_in_link;
pub mod sign_in_throttle;
pub mod web_session;
