//! Which link targets may become a URI action (ISO 32000-2 §12.6.4.8): only `http`,
//! `https`, `mailto`, `ftp` and `tel`. A `javascript:` or `vbscript:` target, any other
//! scheme, and a target with no scheme (relative, or odd) keep their text, drawn as
//! Word draws it, without an action; each is counted for a warning.

use std::collections::{BTreeMap, BTreeSet};

use crate::warning::Warning;

/// The schemes a link may act on, lower-case.
const ACTING: [&str; 5] = ["http", "https", "mailto", "ftp", "tel"];

/// The scheme of `uri` as a browser reads it (WHATWG URL Standard, basic URL parser):
/// leading and trailing C0 controls and spaces trimmed, tabs and newlines anywhere
/// removed, then `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )` before the first `:`
/// (RFC 3986 §3.1), lower-cased. `None` when there is no scheme.
pub(crate) fn scheme(uri: &str) -> Option<String> {
    let trimmed = uri.trim_matches(|c: char| c <= ' ');
    let mut scheme = String::new();
    for c in trimmed.chars().filter(|c| !matches!(c, '\t' | '\n' | '\r')) {
        match c {
            ':' if !scheme.is_empty() => return Some(scheme),
            c if c.is_ascii_alphabetic() => scheme.push(c.to_ascii_lowercase()),
            '0'..='9' | '+' | '-' | '.' if !scheme.is_empty() => scheme.push(c),
            _ => return None,
        }
    }
    None
}

/// Whether a link to `uri` becomes a URI action.
pub(crate) fn acts(uri: &str) -> bool {
    scheme(uri).is_some_and(|s| ACTING.contains(&s.as_str()))
}

/// The link targets left without an action, by scheme (`None`: no scheme).
#[derive(Debug, Default)]
pub(crate) struct InertLinks {
    targets: BTreeMap<Option<String>, BTreeSet<String>>,
}

impl InertLinks {
    /// Notes a target that was left without an action.
    pub(crate) fn note(&mut self, uri: &str) {
        self.targets.entry(scheme(uri)).or_default().insert(uri.to_owned());
    }

    /// One warning per scheme, with the number of distinct targets, in scheme order.
    pub(crate) fn into_warnings(self) -> impl Iterator<Item = Warning> {
        self.targets.into_iter().map(|(scheme, targets)| {
            let (detail, what) = match scheme {
                Some(s) => (format!("{s}:"), format!("{s}: targets")),
                None => ("no scheme".to_owned(), "targets without a scheme (relative)".to_owned()),
            };
            let n = targets.len();
            Warning::counted(
                "link_without_action",
                detail,
                n,
                format!("{n} links to {what} keep their text without an action; only http, https, mailto, ftp and tel links act"),
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_five_schemes_act_whatever_their_case_and_padding() {
        for uri in ["http://a.example", "HTTPS://a.example/x", "mailto:a@b.example", "ftp://f.example", "tel:+4930123", " \thttps://a.example"] {
            assert!(acts(uri), "{uri}");
        }
        for uri in [
            "javascript:alert(1)",
            "JaVaScRiPt:alert(1)",
            "vbscript:msgbox(1)",
            " \u{1}javascript:alert(1)",
            "java\tscript:alert(1)",
            "java\r\nscript:alert(1)",
            "file:///etc/passwd",
            "data:text/html,<script>",
            "report.docx",
            "#top",
            "//host.example/x",
            ":nothing",
            "",
        ] {
            assert!(!acts(uri), "{uri:?}");
        }
        assert_eq!(scheme("java\tscript:x").as_deref(), Some("javascript"));
        assert_eq!(scheme("a+b.c-d:x").as_deref(), Some("a+b.c-d"));
        assert_eq!(scheme("1abc:x"), None);
    }

    #[test]
    fn inert_targets_are_counted_once_per_target_by_scheme() {
        let mut inert = InertLinks::default();
        for uri in ["javascript:a()", "javascript:a()", "JAVASCRIPT:b()", "vbscript:c", "notes.txt"] {
            inert.note(uri);
        }
        let w: Vec<(String, usize)> = inert.into_warnings().map(|w| (w.detail.unwrap(), w.count)).collect();
        assert_eq!(w, [("no scheme".to_owned(), 1), ("javascript:".to_owned(), 2), ("vbscript:".to_owned(), 1)]);
    }
}
