//! How an import ends when it cannot write a spec ([`ImportFailure`]), and the lint policy an
//! imported spec is held to ([`imported_levels`]): both the import's own, re-exported by the
//! crate root.

use crate::diag;

/// Why `apigen import` failed.
#[derive(Debug, thiserror::Error)]
pub enum ImportFailure {
    /// The document could not be read or parsed (located).
    #[error("{path}{}: {}", location(.error), .error.message)]
    Unreadable {
        /// The document as the user named it.
        path: String,
        /// What is wrong, and where.
        error: crate::load::document::DocumentError,
    },
    /// The document is not OpenAPI 3.0 or 3.1.
    #[error("{0}: {1}")]
    NotOpenApi(String, super::ImportError),
    /// The output directory is not empty and replacing it was not asked for, or is not a
    /// directory.
    #[error("{0}")]
    Refused(String),
    /// Writing failed.
    #[error("cannot write {0}: {1}")]
    Io(String, std::io::Error),
}

fn location(error: &crate::load::document::DocumentError) -> String {
    match (error.line, error.column) {
        (Some(line), Some(column)) => format!(":{line}:{column}"),
        (Some(line), None) => format!(":{line}"),
        _ => String::new(),
    }
}

/// The lint levels `init --from` writes into `apigen.toml`: an imported document describes few
/// of its fields, so missing descriptions are allowed.
pub fn imported_levels() -> diag::Levels {
    diag::Levels::default().with(diag::Lint::MissingDescription, diag::Level::Allow)
}
