//! The renderer as a library: a program outside this workspace that depends on
//! `docx2pdf-render` by path and calls `convert` gets the bytes `docx2pdf convert` writes.

mod common;

use std::path::Path;
use std::process::Command;

use common::docx::{docx, paragraph};
use common::timed::Timed;
use common::{convert_cli, skip};

const MAIN: &str = r#"
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let docx = std::fs::read(&args[1]).expect("read the DOCX");
    let options = docx2pdf_render::Options { threads: 0, ..Default::default() };
    let converted = docx2pdf_render::convert(&docx, &options).expect("a PDF");
    std::fs::write(&args[2], converted.pdf).expect("write the PDF");
}
"#;

#[test]
fn a_program_outside_the_workspace_converts_as_the_cli_does() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let manifest = format!(
        "[package]\nname = \"outside\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\n[dependencies]\ndocx2pdf-render = {{ path = {:?} }}\n\n[workspace]\n",
        root.join("docx2pdf-render")
    );
    std::fs::write(dir.path().join("Cargo.toml"), manifest).unwrap();
    // The workspace's lock file pins the same versions of every dependency.
    std::fs::copy(root.join("Cargo.lock"), dir.path().join("Cargo.lock")).unwrap();
    std::fs::create_dir(dir.path().join("src")).unwrap();
    std::fs::write(dir.path().join("src/main.rs"), MAIN).unwrap();
    let target = root.join("target").join("outside-workspace");
    let built = Command::new(env!("CARGO"))
        .args(["build", "--offline", "--quiet"])
        .current_dir(dir.path())
        .env("CARGO_TARGET_DIR", &target)
        .output_within(std::time::Duration::from_secs(1800))
        .expect("run cargo");
    if !built.status.success() {
        let stderr = String::from_utf8_lossy(&built.stderr);
        if stderr.contains("offline") {
            skip::skip(&format!("the registry cache lacks a dependency: {stderr}"));
            return;
        }
        panic!("the outside program does not build: {stderr}");
    }

    let body = format!(
        "{}{}<w:tbl><w:tblGrid><w:gridCol w:w=\"3000\"/></w:tblGrid><w:tr><w:tc><w:p><w:r><w:t>A cell</w:t></w:r></w:p></w:tc></w:tr></w:tbl><w:p/>",
        paragraph("A library renders this as the service does."),
        paragraph("Second paragraph, long enough to wrap onto a second line of the page at the default size of eleven points, or close to it.")
    );
    let bytes = docx(&body);
    let input = dir.path().join("in.docx");
    let output = dir.path().join("out.pdf");
    std::fs::write(&input, &bytes).unwrap();
    let ran = Command::new(target.join("debug").join("outside")).arg(&input).arg(&output).timed_output().expect("run the outside program");
    assert!(ran.status.success(), "{}", String::from_utf8_lossy(&ran.stderr));
    let library = std::fs::read(&output).unwrap();
    assert!(library.starts_with(b"%PDF-"));
    assert_eq!(library, convert_cli(&bytes, &[]), "the library's PDF and the CLI's differ");
}
