//! The `docx2pdf` binary: parses the command line and runs it.

use clap::Parser;

fn main() {
    let cli = docx2pdf::config::Cli::parse();
    if let Err(e) = docx2pdf::cli::run(cli) {
        eprintln!("docx2pdf: {e}");
        std::process::exit(e.exit_code());
    }
}
