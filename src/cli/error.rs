//! Errors of the commands, printed as one line before a non-zero exit.

use std::path::PathBuf;

use crate::db::DbError;
use crate::render::RenderError;

/// Why a command failed.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    #[error(transparent)]
    Db(#[from] DbError),
    #[error("cannot read {path}: {source}")]
    Read { path: PathBuf, source: std::io::Error },
    #[error("cannot write {path}: {source}")]
    Write { path: PathBuf, source: std::io::Error },
    #[error("cannot convert {path}: {source}")]
    Convert { path: PathBuf, source: RenderError },
    #[error(transparent)]
    InvalidOption(#[from] crate::output_options::OptionError),
    #[error("the server failed: {0}")]
    Server(std::io::Error),
    #[error("{0}")]
    Usage(String),
    #[error("unhealthy: {0}")]
    Unhealthy(String),
}

impl CliError {
    /// The process exit code: 2 for a document that cannot be converted or an option that
    /// cannot be used (what the service answers with a 400), 1 for everything else.
    pub fn exit_code(&self) -> i32 {
        match self {
            CliError::Convert { .. } | CliError::InvalidOption(_) => 2,
            _ => 1,
        }
    }
}
