//! The Python the tests drive their outside tools with (schemathesis, pdfua, pikepdf):
//! `DOCX2PDF_TEST_PYTHON`, else `python3`. A missing tool skips the test (see `skip.rs`),
//! except under `CI=true`, where it fails (.ci/run installs them all).

#![allow(dead_code)]

use crate::common::timed::Timed;
use std::process::{Command, Stdio};

/// The Python interpreter that can import `module`, or `None` when the test is to be skipped.
pub fn with_module(module: &str) -> Option<String> {
    let python = std::env::var("DOCX2PDF_TEST_PYTHON").unwrap_or_else(|_| "python3".to_owned());
    let found = Command::new(&python)
        .args(["-c", &format!("import {module}")])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .timed_status()
        .is_ok_and(|s| s.success());
    if found {
        return Some(python);
    }
    crate::common::skip::skip(&format!("{python} cannot import {module} (set DOCX2PDF_TEST_PYTHON, or run .ci/run)"));
    None
}
