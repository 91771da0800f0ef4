//! Converts one DOCX file to PDF: `cargo run -p docx2pdf-render --example convert -- in.docx out.pdf [--pdfua]`.

use std::process::ExitCode;

use docx2pdf_render::{convert, Options};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(input), Some(output)) = (args.first(), args.get(1)) else {
        eprintln!("usage: convert IN.docx OUT.pdf [--pdfua]");
        return ExitCode::from(2);
    };
    let docx = match std::fs::read(input) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("{input}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut options = Options { threads: 0, ..Options::default() };
    options.pdf.pdfua = args.iter().any(|a| a == "--pdfua");
    match convert(&docx, &options) {
        Ok(converted) => {
            for warning in &converted.warnings {
                eprintln!("warning: {warning}");
            }
            if let Err(e) = std::fs::write(output, &converted.pdf) {
                eprintln!("{output}: {e}");
                return ExitCode::FAILURE;
            }
            println!("{output}: {} pages", converted.pages);
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{input}: {e}");
            ExitCode::FAILURE
        }
    }
}
