//! The `docx2pdf` commands: serve, convert, and the operator's accounts/keys/usage tools.

mod admin;
mod convert;
mod error;
mod logging;
mod serve;

pub use error::CliError;

use crate::config::{Cli, Command};

/// Runs the parsed command line.
pub fn run(cli: Cli) -> Result<(), CliError> {
    logging::init(cli.log_format);
    match cli.command {
        Command::Serve(args) => serve::run(args),
        Command::Convert(args) => convert::run(args),
        Command::Accounts { command, db } => admin::accounts(command, db),
        Command::Keys { command, db } => admin::keys(command, db),
        Command::Usage(args) => admin::usage(args),
    }
}
