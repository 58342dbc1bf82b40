//! Redaction of secrets in `Debug` output.

use std::fmt;

/// Stands in for a secret in `Debug` output: prints `"<redacted>"`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Redacted;

impl fmt::Debug for Redacted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("\"<redacted>\"")
    }
}

/// Shows whether a secret is set without showing it (`Some("<redacted>")` or `None`).
#[doc(hidden)]
pub fn redact_option<T>(value: &Option<T>) -> Option<Redacted> {
    value.as_ref().map(|_| Redacted)
}

/// Shows whether a secret field of a request is absent, null or set, without showing it.
#[doc(hidden)]
pub fn redact_patch<T>(value: &crate::Patch<T>) -> crate::Patch<Redacted> {
    match value {
        crate::Patch::Absent => crate::Patch::Absent,
        crate::Patch::Null => crate::Patch::Null,
        crate::Patch::Value(_) => crate::Patch::Value(Redacted),
    }
}
