//! The `docx2pdf` binary: parses the command line and runs it.

use clap::Parser;

/// Counts each thread's heap, which the render memory budget is checked against
/// (`--render-memory-mb`). The count is a thread-local addition per allocation and free.
#[global_allocator]
static ALLOCATOR: docx2pdf::render::memory::Counting = docx2pdf::render::memory::Counting;

fn main() {
    let cli = docx2pdf::config::Cli::parse();
    if let Err(e) = docx2pdf::cli::run(cli) {
        eprintln!("docx2pdf: {e}");
        std::process::exit(e.exit_code());
    }
}
