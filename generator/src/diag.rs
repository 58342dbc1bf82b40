//! Diagnostics: every problem found in a spec, with where it is and how to fix it.
//!
//! Phases never stop at the first problem. They push [`Diagnostic`]s into a [`Diagnostics`]
//! collection and the pipeline checks it at each phase boundary, so a user sees every problem
//! of a broken spec in one run. Rendering happens once, sorted by file, line and spec path.

use std::fmt;

/// A position in the spec: a key path inside the YAML tree, like
/// `types.Collection.fields.title` or `operations.listSpaces.params[2]`.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SpecPath(Vec<Segment>);

/// One step of a [`SpecPath`].
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Segment {
    /// A mapping key.
    Key(String),
    /// A sequence index.
    Index(usize),
}

impl SpecPath {
    /// The root of a file.
    pub fn root() -> Self {
        SpecPath(Vec::new())
    }

    /// This path extended by a mapping key.
    pub fn key(&self, key: impl Into<String>) -> Self {
        let mut next = self.clone();
        next.0.push(Segment::Key(key.into()));
        next
    }

    /// This path extended by a sequence index.
    pub fn index(&self, index: usize) -> Self {
        let mut next = self.clone();
        next.0.push(Segment::Index(index));
        next
    }

    /// The segments, outermost first.
    pub fn segments(&self) -> &[Segment] {
        &self.0
    }

    /// This path followed by a dotted path reported by serde (`fields.title.max_length`,
    /// `params[1].type`). Serde's `?` marks for enum variants carry no position and are dropped.
    pub fn join_serde(&self, serde_path: &str) -> Self {
        let mut next = self.clone();
        for part in serde_path.split('.') {
            if part.is_empty() || part == "?" {
                continue;
            }
            // `params[1]` and `[1]` both occur.
            let (key, rest) = match part.find('[') {
                Some(at) => (&part[..at], &part[at..]),
                None => (part, ""),
            };
            if !key.is_empty() {
                next.0.push(Segment::Key(key.to_owned()));
            }
            for index in rest.split('[').filter(|s| !s.is_empty()) {
                match index.trim_end_matches(']').parse() {
                    Ok(i) => next.0.push(Segment::Index(i)),
                    Err(_) => next.0.push(Segment::Key(index.trim_end_matches(']').to_owned())),
                }
            }
        }
        next
    }
}

impl fmt::Display for SpecPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, segment) in self.0.iter().enumerate() {
            match segment {
                Segment::Key(key) if i == 0 => write!(f, "{key}")?,
                Segment::Key(key) => write!(f, ".{key}")?,
                Segment::Index(index) => write!(f, "[{index}]")?,
            }
        }
        Ok(())
    }
}

/// Where a diagnostic points: a file, a line and column when known, a spec path when known.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Location {
    /// The file, relative to the working directory as the user named it (`spec/spaces.yaml`).
    pub file: String,
    /// 1-based line, when known.
    pub line: Option<usize>,
    /// 1-based column, when known.
    pub column: Option<usize>,
    /// The spec path inside the file, when the problem belongs to an element.
    pub path: Option<SpecPath>,
}

impl Location {
    /// A whole file.
    pub fn file(file: impl Into<String>) -> Self {
        Location { file: file.into(), ..Location::default() }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
            if let Some(column) = self.column {
                write!(f, ":{column}")?;
            }
        }
        if let Some(path) = &self.path
            && !path.segments().is_empty()
        {
            write!(f, ": {path}")?;
        }
        Ok(())
    }
}

/// How bad a diagnostic is. Errors stop the pipeline; warnings are printed and let it go on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// The spec cannot be turned into code.
    Error,
    /// The spec works but something is probably not meant that way.
    Warning,
}

/// One problem: where, what, and (usually) how to fix it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Diagnostic {
    /// Where the problem is.
    pub location: Location,
    /// Error or warning.
    pub severity: Severity,
    /// What is wrong, in one sentence.
    pub message: String,
    /// How to fix it, when there is something useful to say.
    pub hint: Option<String>,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let severity = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(f, "{severity}: {}: {}", self.location, self.message)?;
        if let Some(hint) = &self.hint {
            write!(f, "\n  hint: {hint}")?;
        }
        Ok(())
    }
}

/// The diagnostics of one run, in the order found; [`Diagnostics::sorted`] orders them for
/// display.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diagnostics {
    items: Vec<Diagnostic>,
}

impl Diagnostics {
    /// An empty collection.
    pub fn new() -> Self {
        Diagnostics::default()
    }

    /// Records an error.
    pub fn error(&mut self, location: Location, message: impl Into<String>) -> &mut Diagnostic {
        self.push(location, Severity::Error, message.into())
    }

    /// Records a warning.
    pub fn warning(&mut self, location: Location, message: impl Into<String>) -> &mut Diagnostic {
        self.push(location, Severity::Warning, message.into())
    }

    fn push(&mut self, location: Location, severity: Severity, message: String) -> &mut Diagnostic {
        self.items.push(Diagnostic { location, severity, message, hint: None });
        self.items.last_mut().expect("just pushed")
    }

    /// Moves every diagnostic of `other` into this collection.
    pub fn extend(&mut self, other: Diagnostics) {
        self.items.extend(other.items);
    }

    /// True when at least one error was recorded.
    pub fn has_errors(&self) -> bool {
        self.items.iter().any(|d| d.severity == Severity::Error)
    }

    /// Number of errors.
    pub fn error_count(&self) -> usize {
        self.items.iter().filter(|d| d.severity == Severity::Error).count()
    }

    /// Number of warnings.
    pub fn warning_count(&self) -> usize {
        self.items.iter().filter(|d| d.severity == Severity::Warning).count()
    }

    /// True when nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The diagnostics sorted by file, line, path and message, duplicates removed.
    pub fn sorted(&self) -> Vec<Diagnostic> {
        let mut items = self.items.clone();
        items.sort();
        items.dedup();
        items
    }

    /// Renders every diagnostic, sorted, followed by a one-line summary.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for diagnostic in self.sorted() {
            out.push_str(&diagnostic.to_string());
            out.push('\n');
        }
        let (errors, warnings) = (self.error_count(), self.warning_count());
        if errors + warnings > 0 {
            out.push_str(&format!("{} error(s), {} warning(s)\n", errors, warnings));
        }
        out
    }
}

impl Diagnostic {
    /// Attaches a hint saying how to fix the problem.
    pub fn hint(&mut self, hint: impl Into<String>) -> &mut Self {
        self.hint = Some(hint.into());
        self
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}

impl std::error::Error for Diagnostics {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_paths_render_like_the_yaml_they_point_into() {
        let path = SpecPath::root().key("operations").key("listSpaces").key("params").index(2);
        assert_eq!(path.to_string(), "operations.listSpaces.params[2]");
    }

    #[test]
    fn serde_paths_are_split_into_keys_and_indexes() {
        let base = SpecPath::root().key("operations").key("x");
        assert_eq!(base.join_serde("params[1].type").to_string(), "operations.x.params[1].type");
        assert_eq!(base.join_serde("errors[0][1]").to_string(), "operations.x.errors[0][1]");
        assert_eq!(base.join_serde("?.fields").to_string(), "operations.x.fields");
        assert_eq!(base.join_serde(".").to_string(), "operations.x");
    }

    #[test]
    fn rendering_sorts_by_location_and_counts() {
        let mut diags = Diagnostics::new();
        diags.error(Location { file: "b.yaml".into(), line: Some(1), ..Location::default() }, "second");
        diags
            .error(Location { file: "a.yaml".into(), line: Some(9), column: Some(3), path: None }, "first")
            .hint("fix it");
        diags.warning(Location::file("b.yaml"), "third");
        assert_eq!(
            diags.render(),
            "error: a.yaml:9:3: first\n  hint: fix it\nwarning: b.yaml: third\nerror: b.yaml:1: second\n2 error(s), 1 warning(s)\n"
        );
    }
}
