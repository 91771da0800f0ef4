//! Log set-up: human-readable or JSON lines on stderr, filtered by `RUST_LOG` (default: info
//! for docx2pdf, warnings only from the database libraries).

use std::io::IsTerminal;

use tracing_subscriber::EnvFilter;

/// The filter when `RUST_LOG` is not set: migrations and driver notices are not news.
const DEFAULT_FILTER: &str = "info,sea_orm_migration=warn,sqlx=warn";

use crate::config::LogFormat;

/// Installs the global subscriber once.
pub fn init(format: LogFormat) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(DEFAULT_FILTER));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal());
    let _ = match format {
        LogFormat::Human => builder.try_init(),
        LogFormat::Json => builder.json().flatten_event(true).try_init(),
    };
}
