//! The `docx2pdf` commands: serve, convert, the operator's accounts/keys/usage tools, and
//! the health probe.

mod admin;
mod allocator;
pub mod bench_load;
mod convert;
mod error;
mod healthcheck;
mod logging;
mod password_file;
mod serve;

pub use error::CliError;

use crate::config::{Cli, Command};

/// Writes command output to stdout; a closed pipe (`| head`) is not an error worth a panic.
fn emit(text: &str) {
    use std::io::Write;
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
}

/// Runs the parsed command line.
pub fn run(cli: Cli) -> Result<(), CliError> {
    logging::init(cli.log_format);
    match cli.command {
        Command::Serve(args) => serve::run(args),
        Command::Convert(args) => convert::run(args),
        Command::Accounts { command, db } => admin::accounts(command, db),
        Command::Keys { command, db } => admin::keys(command, db),
        Command::Usage(args) => admin::usage(args),
        Command::BenchLoad(args) => bench_load::run(args),
        Command::Healthcheck(args) => healthcheck::run(args),
    }
}
