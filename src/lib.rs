//! docx2pdf: a DOCX-to-PDF conversion service metered in monthly credits, and the native
//! renderer behind it (docx → resolve → layout → pdf).

pub mod cli;
pub mod clock;
pub mod config;
pub mod credits;
pub mod db;
pub mod docx;
pub mod fast_map;
pub mod http;
pub mod keys;
pub mod layout;
pub mod ledger;
pub mod metrics;
pub mod password;
pub mod pdf;
pub mod render;
pub mod resolve;
pub mod tokens;
pub mod units;
pub mod warning;
