//! The Python tools the tests drive (pdfua, pikepdf) through the venv that
//! `DOCX2PDF_TEST_PYTHON` names: missing tools skip a test with a message, or fail it under CI.

use std::process::Command;

use serde_json::Value;

/// Runs `script` with the path of `pdf` as its argument and reads the JSON it prints;
/// `None` (with a message) when the tools are not installed, a failure under `CI=true`.
pub fn run_on_pdf(script: &str, pdf: &[u8]) -> Option<Value> {
    let ci = std::env::var("CI").is_ok_and(|v| v == "true");
    let Ok(python) = std::env::var("DOCX2PDF_TEST_PYTHON") else {
        assert!(!ci, "DOCX2PDF_TEST_PYTHON is not set (.ci/run sets it)");
        eprintln!("skipped: DOCX2PDF_TEST_PYTHON is not set, so pdfua and pikepdf cannot run");
        return None;
    };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.pdf");
    std::fs::write(&path, pdf).unwrap();
    let out = Command::new(&python).arg("-c").arg(script).arg(&path).output().expect("run the test python");
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() && stderr.contains("No module named") {
        assert!(!ci, "pdfua or pikepdf missing: {stderr}");
        eprintln!("skipped: {stderr}");
        return None;
    }
    assert!(out.status.success(), "checker failed: {stderr}");
    Some(serde_json::from_slice(&out.stdout).expect("checker JSON"))
}
