//! The one place a test decides that something it needs is missing: under CI (any
//! non-empty `CI` but `false`, as CI services set `CI=1` or `CI=true`) the test fails naming
//! what is missing; elsewhere it is skipped, visibly.
//!
//! A skip is written straight to the standard error stream (not through `eprintln!`,
//! which the harness captures for passing tests) and, when `DOCX2PDF_SKIP_DIR` names a
//! folder (`.ci/run` sets it), as one file there, so the run can count and list skips
//! that the harness itself counts as passes.

#![allow(dead_code)]

use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Whether the run is CI's, where nothing may be skipped: `CI` is set to anything but the
/// empty string or `false`.
pub fn in_ci() -> bool {
    ci_value(std::env::var("CI").ok().as_deref())
}

/// Whether a value of `CI` means CI.
pub fn ci_value(value: Option<&str>) -> bool {
    value.is_some_and(|v| !v.is_empty() && v != "false")
}

/// Whether the run asks, by `var=1`, to rewrite the committed references a test compares
/// with; panics under CI, where a rewrite would turn every difference into a pass.
pub fn update_requested(var: &str) -> bool {
    update_wanted(var, std::env::var(var).ok().as_deref(), std::env::var("CI").ok().as_deref()).unwrap_or_else(|e| panic!("{e}"))
}

/// [`update_requested`] on the values of `var` and `CI`.
pub fn update_wanted(var: &str, update: Option<&str>, ci: Option<&str>) -> Result<bool, String> {
    let update = update == Some("1");
    if update && ci_value(ci) {
        return Err(format!("{var}=1 is refused under CI: references are rewritten on a local run and committed"));
    }
    Ok(update)
}

/// Stops the calling test for want of `missing`: panics under CI, else reports the
/// skip. The caller returns right after.
pub fn skip(missing: &str) {
    let test = test_name();
    assert!(!in_ci(), "{test}: {missing} (CI: a missing tool, server, font or corpus fails the test)");
    let line = format!("skipped: {test}: {missing}\n");
    let _ = std::io::stderr().lock().write_all(line.as_bytes());
    if let Some(dir) = std::env::var_os("DOCX2PDF_SKIP_DIR") {
        // One file per skip (process and count): test binaries run one after another but
        // their tests in parallel, so no file is shared.
        static SKIPS: AtomicUsize = AtomicUsize::new(0);
        let nanos = std::time::SystemTime::UNIX_EPOCH.elapsed().map_or(0, |d| d.as_nanos());
        let name = format!("{}-{nanos}-{}.skip", std::process::id(), SKIPS.fetch_add(1, Ordering::Relaxed));
        let _ = std::fs::write(std::path::Path::new(&dir).join(name), line);
    }
}

/// `binary::module::test`: the harness names each test's thread after the test.
fn test_name() -> String {
    let binary = std::env::current_exe()
        .ok()
        .and_then(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .unwrap_or_default();
    // Cargo names test binaries `NAME-HASH`.
    let binary = binary.rsplit_once('-').map_or(binary.as_str(), |(name, _)| name).to_owned();
    let thread = std::thread::current();
    format!("{binary}::{}", thread.name().unwrap_or("?"))
}
