//! The Python tools the tests drive (pdfua, pikepdf) through the venv that
//! `DOCX2PDF_TEST_PYTHON` names: missing tools skip a test (see `skip.rs`), or fail it in CI.

use super::timed::Timed;
use std::process::Command;

use serde_json::Value;

/// Runs `script` with the path of `pdf` as its argument and reads the JSON it prints;
/// `None` (the test is skipped) when the tools are not installed, a failure under `CI=true`.
pub fn run_on_pdf(script: &str, pdf: &[u8]) -> Option<Value> {
    let Ok(python) = std::env::var("DOCX2PDF_TEST_PYTHON") else {
        super::skip::skip("DOCX2PDF_TEST_PYTHON is not set, so pdfua and pikepdf cannot run (.ci/run sets it)");
        return None;
    };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.pdf");
    std::fs::write(&path, pdf).unwrap();
    let out = Command::new(&python).arg("-c").arg(script).arg(&path).timed_output().expect("run the test python");
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() && stderr.contains("No module named") {
        super::skip::skip(&format!("pdfua or pikepdf is not installed: {}", stderr.trim()));
        return None;
    }
    assert!(out.status.success(), "checker failed: {stderr}");
    Some(serde_json::from_slice(&out.stdout).expect("checker JSON"))
}
