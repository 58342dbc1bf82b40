//! Diagnostics: every problem found in a spec, with where it is and how to fix it.
//!
//! Phases never stop at the first problem. They push [`Diagnostic`]s into a [`Diagnostics`]
//! collection and the pipeline checks it at each phase boundary, so a user sees every problem
//! of a broken spec in one run. Rendering happens once, sorted by file, line and spec path.

use std::fmt;

/// A position in the spec: a key path inside the YAML tree, like
/// `types.Collection.fields.title` or `operations.listSpaces.params[2]`.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
pub struct SpecPath(Vec<Segment>);

/// One step of a [`SpecPath`].
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
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
#[derive(Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
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

// Set while `without_lines` runs on this thread.
thread_local!(static WITHOUT_LINES: std::cell::Cell<bool> = const { std::cell::Cell::new(false) });

/// `f`'s result, with every [`Location`] formatted by `{:?}` on this thread leaving out its
/// line and column. What a generated file is made from is hashed from the model's `Debug`
/// text ([`crate::emit::inputs`]); no emitter prints where an element was declared, so an edit
/// that only moves the elements after it (a line added above them) changes none of their
/// files.
pub fn without_lines<R>(f: impl FnOnce() -> R) -> R {
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            WITHOUT_LINES.with(|flag| flag.set(self.0));
        }
    }
    let _restore = Restore(WITHOUT_LINES.with(|flag| flag.replace(true)));
    f()
}

impl fmt::Debug for Location {
    /// As derived, but without the line and column inside [`without_lines`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = f.debug_struct("Location");
        out.field("file", &self.file);
        if !WITHOUT_LINES.with(std::cell::Cell::get) {
            out.field("line", &self.line).field("column", &self.column);
        }
        out.field("path", &self.path).finish()
    }
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
pub enum Severity {
    /// The spec cannot be turned into code.
    Error,
    /// The spec works but something is probably not meant that way.
    Warning,
}

/// A class of warnings, whose level `[lint]` of `apigen.toml` sets (`allow`, `warn`, `deny`).
/// Errors have no class: a spec with an error cannot be turned into code, whatever the levels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
pub enum Lint {
    /// A type, field, parameter or header without `description`.
    MissingDescription,
    /// A named type no operation takes or answers, directly or through another type.
    UnusedType,
    /// A link to a directory in the spec directory, or a link or submodule in a git tree:
    /// not followed, so nothing in it is read.
    UnfollowedLink,
}

impl Lint {
    /// Every class, in the order `apigen --help` and the summaries list them.
    pub const ALL: [Lint; 3] = [Lint::MissingDescription, Lint::UnusedType, Lint::UnfollowedLink];

    /// The class's name in `[lint]` and in summaries.
    pub fn name(self) -> &'static str {
        match self {
            Lint::MissingDescription => "missing-description",
            Lint::UnusedType => "unused-type",
            Lint::UnfollowedLink => "unfollowed-link",
        }
    }

    /// The level of a class no `[lint]` names: every class warns but `unused-type` (a spec
    /// may declare types for its users alone, as GitHub's webhook payloads).
    pub fn default_level(self) -> Level {
        match self {
            Lint::UnusedType => Level::Allow,
            Lint::MissingDescription | Lint::UnfollowedLink => Level::Warn,
        }
    }
}

impl fmt::Display for Lint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a warning class does: nothing (`allow`), a warning (`warn`), or an error (`deny`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Not reported.
    Allow,
    /// Reported as a warning.
    Warn,
    /// Reported as an error: the command fails.
    Deny,
}

/// The level of every warning class ([`Lint::default_level`] unless set).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Levels(std::collections::BTreeMap<Lint, Level>);

impl Levels {
    /// Sets the level of one class.
    #[must_use]
    pub fn with(mut self, lint: Lint, level: Level) -> Self {
        self.0.insert(lint, level);
        self
    }

    /// The level of `lint`.
    pub fn of(&self, lint: Lint) -> Level {
        self.0.get(&lint).copied().unwrap_or_else(|| lint.default_level())
    }
}

/// One problem: where, what, and (usually) how to fix it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
pub struct Diagnostic {
    /// Where the problem is.
    pub location: Location,
    /// Error or warning.
    pub severity: Severity,
    /// What is wrong, in one sentence.
    pub message: String,
    /// How to fix it, when there is something useful to say.
    pub hint: Option<String>,
    /// The warning class (for a warning, or an error a `deny` level made of one).
    pub lint: Option<Lint>,
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
/// display. Its `Debug` is its rendering, as the CLI prints it (so `?` from a build script's
/// `main` shows located problems).
/// It is saved as JSON in the cache (the warnings `generate`'s fast path repeats without reading
/// the spec: [`crate::out::cache`]).
#[derive(Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
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

    /// Records a warning of the class `lint` (its level is applied by [`Diagnostics::leveled`]).
    pub fn warning(&mut self, lint: Lint, location: Location, message: impl Into<String>) -> &mut Diagnostic {
        let diagnostic = self.push(location, Severity::Warning, message.into());
        diagnostic.lint = Some(lint);
        diagnostic
    }

    fn push(&mut self, location: Location, severity: Severity, message: String) -> &mut Diagnostic {
        self.items.push(Diagnostic { location, severity, message, hint: None, lint: None });
        self.items.last_mut().expect("just pushed")
    }

    /// These diagnostics at `levels`: warnings of an allowed class dropped, those of a denied
    /// class made errors (their hint names the level); errors are kept as they are.
    #[must_use]
    pub fn leveled(self, levels: &Levels) -> Diagnostics {
        let mut items = Vec::with_capacity(self.items.len());
        for mut diagnostic in self.items {
            match diagnostic.lint.map(|lint| (lint, levels.of(lint))) {
                Some((_, Level::Allow)) if diagnostic.severity == Severity::Warning => continue,
                Some((lint, Level::Deny)) if diagnostic.severity == Severity::Warning => {
                    diagnostic.severity = Severity::Error;
                    let denied = format!("denied by `{lint} = \"deny\"` in [lint] of apigen.toml");
                    diagnostic.hint = Some(match diagnostic.hint.take() {
                        Some(hint) => format!("{hint} ({denied})"),
                        None => denied,
                    });
                }
                _ => {}
            }
            items.push(diagnostic);
        }
        Diagnostics { items }
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

/// Past this many warnings of one class, [`Diagnostics::render_summarised`] gives the class one
/// line.
pub const SUMMARY_THRESHOLD: usize = 10;

/// How many places a class's summary line names.
const SUMMARY_PLACES: usize = 3;

impl Diagnostics {
    /// Renders like [`Diagnostics::render`], except that a warning class with more than
    /// [`SUMMARY_THRESHOLD`] warnings is one line naming its count, its first places (in sorted
    /// order) and how to see or silence them all. Errors are always listed, each in full.
    pub fn render_summarised(&self) -> String {
        let sorted = self.sorted();
        let mut per_class: std::collections::BTreeMap<Lint, Vec<&Diagnostic>> = std::collections::BTreeMap::new();
        for diagnostic in &sorted {
            if let (Severity::Warning, Some(lint)) = (diagnostic.severity, diagnostic.lint) {
                per_class.entry(lint).or_default().push(diagnostic);
            }
        }
        per_class.retain(|_, warnings| warnings.len() > SUMMARY_THRESHOLD);
        let mut out = String::new();
        for diagnostic in &sorted {
            let summarised = diagnostic.severity == Severity::Warning
                && diagnostic.lint.is_some_and(|lint| per_class.contains_key(&lint));
            if !summarised {
                out.push_str(&diagnostic.to_string());
                out.push('\n');
            }
        }
        for (lint, warnings) in &per_class {
            let places: Vec<String> = warnings.iter().take(SUMMARY_PLACES).map(|d| d.location.to_string()).collect();
            out.push_str(&format!(
                "warning: {} {lint} warnings, the first at {}, ...\n  hint: `--verbose` lists them all; `{lint} = \"allow\"` \
                 under [lint] in apigen.toml silences them\n",
                warnings.len(),
                places.join("; "),
            ));
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

impl fmt::Debug for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}

impl std::error::Error for Diagnostics {}

/// `1 operation`, `2 operations`: a count with its noun in the right number (for messages).
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 { format!("1 {noun}") } else { format!("{n} {noun}s") }
}

/// "did you mean" for a misspelled name: the closest known name within a small distance.
pub(crate) fn suggest<'a>(name: &str, known: impl Iterator<Item = &'a str>) -> Option<String> {
    closest(name, known).map(|k| format!("did you mean `{k}`?"))
}

/// The known name closest to `name` (case aside), within a third of its length (at least 2
/// edits).
pub(crate) fn closest<'a>(name: &str, known: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (name.len() / 3).max(2);
    known
        .map(|k| (edit_distance(&name.to_lowercase(), &k.to_lowercase()), k))
        .filter(|(d, _)| *d <= limit)
        .min()
        .map(|(_, k)| k)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let current = row[j + 1];
            row[j + 1] = (previous + usize::from(ca != *cb)).min(row[j] + 1).min(current + 1);
            previous = current;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions_find_near_misses_only() {
        let known = ["Collection", "Space", "Organization"];
        assert_eq!(suggest("Colection", known.iter().copied()), Some("did you mean `Collection`?".into()));
        assert_eq!(suggest("Widget", known.iter().copied()), None);
    }

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
        diags.warning(Lint::UnfollowedLink, Location::file("b.yaml"), "third");
        assert_eq!(
            diags.render(),
            "error: a.yaml:9:3: first\n  hint: fix it\nwarning: b.yaml: third\nerror: b.yaml:1: second\n2 error(s), 1 warning(s)\n"
        );
    }

    fn many(count: usize, lint: Lint) -> Diagnostics {
        let mut diags = Diagnostics::new();
        for line in 1..=count {
            let at = Location { file: "a.yaml".into(), line: Some(line), ..Location::default() };
            diags.warning(lint, at, format!("thing {line} has no description"));
        }
        diags
    }

    #[test]
    fn many_warnings_of_one_class_are_one_line_and_errors_are_never_summarised() {
        let mut diags = many(11, Lint::MissingDescription);
        diags.extend(many(2, Lint::UnfollowedLink));
        diags.error(Location::file("b.yaml"), "broken");
        assert_eq!(
            diags.render_summarised(),
            "warning: a.yaml:1: thing 1 has no description\n\
             warning: a.yaml:2: thing 2 has no description\n\
             error: b.yaml: broken\n\
             warning: 11 missing-description warnings, the first at a.yaml:1; a.yaml:2; a.yaml:3, ...\n\
             \x20 hint: `--verbose` lists them all; `missing-description = \"allow\"` under [lint] in apigen.toml silences them\n\
             1 error(s), 13 warning(s)\n"
        );
        // Ten of a class are listed one by one.
        assert_eq!(many(10, Lint::MissingDescription).render_summarised(), many(10, Lint::MissingDescription).render());
    }

    #[test]
    fn levels_drop_allowed_warnings_and_make_denied_ones_errors() {
        let mut diags = many(1, Lint::MissingDescription);
        diags.extend(many(1, Lint::UnfollowedLink));
        diags.extend(many(1, Lint::UnusedType));
        let levels =
            Levels::default().with(Lint::MissingDescription, Level::Allow).with(Lint::UnfollowedLink, Level::Deny);
        let leveled = diags.leveled(&levels);
        assert_eq!(
            leveled.render(),
            "error: a.yaml:1: thing 1 has no description\n  hint: denied by `unfollowed-link = \"deny\"` in [lint] of \
             apigen.toml\n1 error(s), 0 warning(s)\n"
        );
        // unused-type is allowed unless a level says otherwise.
        assert_eq!(many(1, Lint::UnusedType).leveled(&Levels::default()).render(), "");
    }
}
