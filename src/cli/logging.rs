//! Log set-up: human-readable or JSON lines on stderr, filtered by `RUST_LOG` (default info).

use tracing_subscriber::EnvFilter;

use crate::config::LogFormat;

/// Installs the global subscriber once.
pub fn init(format: LogFormat) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr);
    let _ = match format {
        LogFormat::Human => builder.try_init(),
        LogFormat::Json => builder.json().flatten_event(true).try_init(),
    };
}
