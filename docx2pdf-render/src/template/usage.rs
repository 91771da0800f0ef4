//! What a fill used and missed, reported as warnings: `template_key_missing` (a tag or
//! merge field with no value, left as the document has it), `template_key_unused` (a data
//! key nothing used) and `template_feature_unsupported` (NEXT, NEXTIF, SKIPIF).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use crate::warning::Warning;

/// The keys looked up so far, found or not.
#[derive(Debug, Default)]
pub(crate) struct Usage {
    /// Paths found, from the top of the data; an array's elements add no index
    /// (`items.qty`).
    used: BTreeSet<String>,
    /// Paths of objects and arrays whose keys were read inside them (a repeated row, a
    /// section): their own keys are told apart.
    scoped: BTreeSet<String>,
    missing: BTreeMap<String, usize>,
    unsupported: BTreeMap<&'static str, usize>,
}

impl Usage {
    /// `path` was found and used.
    pub fn used(&mut self, path: String) {
        self.used.insert(path);
    }

    /// `path`, an object or an array, was entered for the keys inside it.
    pub fn scoped(&mut self, path: String) {
        self.scoped.insert(path);
    }

    /// A control or field asked for `key`, which the data does not have.
    pub fn missing(&mut self, key: &str) {
        *self.missing.entry(key.to_owned()).or_default() += 1;
    }

    /// A field of the mail-merge kind `what`, or a control of a kind, that is not filled.
    pub fn unsupported(&mut self, what: &'static str) {
        *self.unsupported.entry(what).or_default() += 1;
    }

    /// The warnings, once every part is filled.
    pub fn warnings(&self, data: &Map<String, Value>) -> Vec<Warning> {
        let mut out = Vec::new();
        for (key, &count) in &self.missing {
            out.push(Warning::counted("template_key_missing", key.as_str(), count, "the data has no value for a template key; it is left as the document has it"));
        }
        let mut unused = BTreeSet::new();
        self.unused(data, "", &mut unused);
        for key in unused {
            out.push(Warning::counted("template_key_unused", key, 1, "a data key was used by no content control or merge field"));
        }
        for (&what, &count) in &self.unsupported {
            out.push(Warning::counted("template_feature_unsupported", what, count, "a mail-merge field that moves between records, or a picture control, is not filled"));
        }
        out
    }

    /// The paths under `prefix` that no lookup reached, each at its highest level.
    fn unused(&self, values: &Map<String, Value>, prefix: &str, out: &mut BTreeSet<String>) {
        for (key, value) in values {
            let path = format!("{prefix}{key}");
            if self.used.contains(&path) {
                continue;
            }
            let below = format!("{path}.");
            let reached = self.scoped.contains(&path)
                || self.used.range(below.clone()..).next().is_some_and(|u| u.starts_with(&below));
            if !reached {
                out.insert(path);
                continue;
            }
            match value {
                Value::Object(o) => self.unused(o, &below, out),
                Value::Array(items) => {
                    for item in items {
                        if let Value::Object(o) = item {
                            self.unused(o, &below, out);
                        }
                    }
                }
                _ => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn unused_keys_are_named_at_their_highest_level_and_missing_ones_counted() {
        let data = json!({"customer": {"name": "Ada", "email": "a@b"}, "items": [{"qty": 1, "sku": "A"}], "extra": {"deep": 1}});
        let mut usage = Usage::default();
        usage.used("customer.name".into());
        usage.scoped("items".into());
        usage.used("items.qty".into());
        usage.missing("total");
        usage.missing("total");
        usage.unsupported("NEXTIF");
        let shown: Vec<String> = usage.warnings(data.as_object().unwrap()).iter().map(|w| format!("{} {:?} {}", w.kind, w.detail, w.count)).collect();
        assert_eq!(
            shown,
            [
                r#"template_key_missing Some("total") 2"#,
                r#"template_key_unused Some("customer.email") 1"#,
                r#"template_key_unused Some("extra") 1"#,
                r#"template_key_unused Some("items.sku") 1"#,
                r#"template_feature_unsupported Some("NEXTIF") 1"#,
            ]
        );
    }
}
