//! Why template data cannot be used: one variant per reason, each naming what to fix.

/// Why the `data` a template is filled with was refused. Messages are the end of a
/// sentence naming the option ("the form field \"data\" …", "--data …") and never quote
/// the data.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TemplateError {
    /// More than [`super::MAX_DATA_BYTES`].
    #[error("is larger than the limit of 1 MiB (1048576 bytes)")]
    TooLarge,
    /// Not JSON at all.
    #[error("is not JSON ({0})")]
    NotJson(String),
    /// JSON, but not an object of keys.
    #[error("is a JSON {0}; it must be a JSON object of keys and values, e.g. {{\"customer\": {{\"name\": \"Ada\"}}}}")]
    NotObject(&'static str),
}
