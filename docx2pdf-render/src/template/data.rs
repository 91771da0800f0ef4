//! The data a template is filled with: a JSON object of at most 1 MiB, read by dotted key
//! paths (`customer.address.city`) from the innermost repeated element outwards.

use serde_json::{Map, Value};

use super::TemplateError;

/// The most bytes the data may have.
pub const MAX_DATA_BYTES: usize = 1 << 20;

/// A JSON object of template values.
#[derive(Debug, Clone, PartialEq)]
pub struct TemplateData(Value);

impl TemplateData {
    /// The data of an object; library users build theirs with `serde_json::json!`.
    pub fn new(values: Map<String, Value>) -> TemplateData {
        TemplateData(Value::Object(values))
    }

    /// Reads `json`, the `data` option as sent: a JSON object of at most
    /// [`MAX_DATA_BYTES`]. `{}` is data that changes nothing.
    pub fn parse(json: &[u8]) -> Result<TemplateData, TemplateError> {
        if json.len() > MAX_DATA_BYTES {
            return Err(TemplateError::TooLarge);
        }
        let value: Value = serde_json::from_slice(json).map_err(|e| TemplateError::NotJson(e.to_string()))?;
        match value {
            Value::Object(values) => Ok(TemplateData::new(values)),
            Value::Array(_) => Err(TemplateError::NotObject("array")),
            Value::String(_) => Err(TemplateError::NotObject("string")),
            Value::Number(_) => Err(TemplateError::NotObject("number")),
            Value::Bool(_) => Err(TemplateError::NotObject("boolean")),
            Value::Null => Err(TemplateError::NotObject("null")),
        }
    }

    /// Whether it has no key at all, so that a conversion with it is one without data.
    pub fn is_empty(&self) -> bool {
        self.values().is_empty()
    }

    /// The top-level object.
    pub fn values(&self) -> &Map<String, Value> {
        static EMPTY: std::sync::OnceLock<Map<String, Value>> = std::sync::OnceLock::new();
        self.0.as_object().unwrap_or_else(|| EMPTY.get_or_init(Map::new))
    }

    /// The object as a value, the outermost scope of key paths.
    pub(crate) fn root(&self) -> &Value {
        &self.0
    }
}

/// The value at the dotted `path` under `scope`: object keys, or an array's index.
pub(crate) fn at_path<'v>(scope: &'v Value, path: &str) -> Option<&'v Value> {
    // A key that holds a dot itself is found whole first.
    if let Some(v) = scope.as_object().and_then(|o| o.get(path)) {
        return Some(v);
    }
    let mut at = scope;
    for key in path.split('.') {
        at = match at {
            Value::Object(o) => o.get(key)?,
            Value::Array(items) => items.get(key.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(at)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn data_must_be_a_json_object_of_at_most_one_mebibyte() {
        assert!(TemplateData::parse(b"{}").unwrap().is_empty());
        assert_eq!(TemplateData::parse(br#"{"a": 1}"#).unwrap().values()["a"], json!(1));
        assert!(matches!(TemplateData::parse(b"{\"a\":"), Err(TemplateError::NotJson(_))));
        assert_eq!(TemplateData::parse(b"[1]"), Err(TemplateError::NotObject("array")));
        assert_eq!(TemplateData::parse(b"null"), Err(TemplateError::NotObject("null")));
        let big = format!("{{\"a\": \"{}\"}}", "x".repeat(MAX_DATA_BYTES));
        assert_eq!(TemplateData::parse(big.as_bytes()), Err(TemplateError::TooLarge));
    }

    #[test]
    fn a_dotted_path_walks_objects_and_array_indexes() {
        let data = json!({"customer": {"address": {"city": "Lyon"}}, "items": [{"sku": "A"}], "a.b": 1});
        assert_eq!(at_path(&data, "customer.address.city"), Some(&json!("Lyon")));
        assert_eq!(at_path(&data, "items.0.sku"), Some(&json!("A")));
        assert_eq!(at_path(&data, "a.b"), Some(&json!(1)));
        assert_eq!(at_path(&data, "customer.name"), None);
    }
}
