//! A request's parameters and body, read by generated code into the operation's typed request
//! with every problem collected.

use super::ApiError;
use crate::json::{FromJson, Mode};
use crate::validate::{Validate, Validator, Violation};
use axum::body::Bytes;

/// A request's parameters and body, read by generated code into the operation's typed
/// request. Every problem is collected; [`Input::finish`] answers them all at once.
pub struct Input {
    path: Vec<(String, String)>,
    query: Vec<(String, String, bool)>,
    body: Bytes,
    has_body: bool,
    violations: Vec<Violation>,
    syntax: Option<String>,
}

impl Input {
    pub(crate) fn new(path: Vec<(String, String)>, query: &str, body: Bytes, has_body: bool) -> Self {
        let query =
            form_urlencoded::parse(query.as_bytes()).map(|(k, v)| (k.into_owned(), v.into_owned(), false)).collect();
        Input { path, query, body, has_body, violations: Vec::new(), syntax: None }
    }

    /// An input built by hand, for tests of generated parsing.
    pub fn for_test(path: &[(&str, &str)], query: &str, body: &str, has_body: bool) -> Self {
        let path = path.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect();
        Input::new(path, query, Bytes::copy_from_slice(body.as_bytes()), has_body)
    }

    fn fail(&mut self, path: String, message: impl Into<String>) {
        self.violations.push(Violation::new(path, message));
    }

    /// A path parameter (always present: the route matched it).
    pub fn path(&mut self, name: &str) -> String {
        self.path.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone()).unwrap_or_default()
    }

    /// A path parameter of another type than text (integer, number, boolean, date-time); a
    /// value that does not parse is a violation at `path.<name>`.
    pub fn path_as<T: FromParam>(&mut self, name: &str) -> Option<T> {
        let text = self.path(name);
        match T::from_param(&text) {
            Ok(parsed) => Some(parsed),
            Err(message) => {
                self.fail(format!("path.{name}"), message);
                None
            }
        }
    }

    fn take_query(&mut self, name: &str) -> Vec<String> {
        let mut values = Vec::new();
        for (key, value, used) in &mut self.query {
            if key == name {
                *used = true;
                values.push(value.clone());
            }
        }
        values
    }

    /// An optional query parameter; given twice is a violation.
    pub fn query<T: FromParam>(&mut self, name: &str) -> Option<T> {
        let values = self.take_query(name);
        match values.as_slice() {
            [] => None,
            [value] => self.parse(name, value),
            _ => {
                self.fail(format!("query.{name}"), "is given more than once");
                None
            }
        }
    }

    /// A required query parameter.
    pub fn query_required<T: FromParam>(&mut self, name: &str) -> Option<T> {
        if !self.query.iter().any(|(k, _, _)| k == name) {
            self.fail(format!("query.{name}"), "is required");
            return None;
        }
        self.query(name)
    }

    /// A list-valued query parameter, sent as repeated keys.
    pub fn query_list<T: FromParam>(&mut self, name: &str) -> Vec<T> {
        let values = self.take_query(name);
        values.iter().filter_map(|value| self.parse(name, value)).collect()
    }

    fn parse<T: FromParam>(&mut self, name: &str, value: &str) -> Option<T> {
        match T::from_param(value) {
            Ok(parsed) => Some(parsed),
            Err(message) => {
                self.fail(format!("query.{name}"), message);
                None
            }
        }
    }

    /// Checks a parameter's value; `location` is `query.<name>` or `path.<name>`.
    pub fn check(&mut self, location: &str, check: impl FnOnce(&mut Validator)) {
        let mut validator = Validator::rooted(location);
        check(&mut validator);
        if let Err(found) = validator.finish() {
            self.violations.extend(found.0);
        }
    }

    /// The JSON body, decoded strictly and validated. `None` when absent (allowed only when
    /// `required` is false) or invalid (the problems are recorded).
    pub fn body<T: FromJson + Validate>(&mut self, required: bool) -> Option<T> {
        if self.body.iter().all(u8::is_ascii_whitespace) {
            if required {
                self.fail(String::new(), "a JSON body is required");
            }
            return None;
        }
        let value = match crate::json::parse_strict(&self.body) {
            Ok(value) => value,
            Err(crate::json::StrictParseError::Syntax(error)) => {
                self.syntax = Some(format!("the body is not valid JSON: {error}"));
                return None;
            }
            Err(crate::json::StrictParseError::DuplicateKeys(paths)) => {
                for path in paths {
                    self.fail(path, "is given more than once in the object");
                }
                return None;
            }
        };
        match crate::json::decode::<T>(value, Mode::Strict) {
            Ok(decoded) => {
                if let Err(found) = decoded.validate() {
                    self.violations.extend(found.0);
                    return None;
                }
                Some(decoded)
            }
            Err(found) => {
                self.violations.extend(found.0);
                None
            }
        }
    }

    /// Ends parsing: unknown query parameters and an unexpected body are violations; any
    /// problem answers 400.
    pub fn finish(mut self) -> Result<(), ApiError> {
        // One violation per unknown name, however often it is repeated; a set keeps this
        // linear in the number of parameters.
        let mut reported: std::collections::BTreeSet<String> = self.violations.iter().map(|v| v.path.clone()).collect();
        let unknown: Vec<String> = self.query.iter().filter(|(_, _, used)| !used).map(|(k, _, _)| k.clone()).collect();
        for name in unknown {
            let path = format!("query.{name}");
            if reported.insert(path.clone()) {
                self.fail(path, "is not a parameter of this operation");
            }
        }
        if !self.has_body && !self.body.iter().all(u8::is_ascii_whitespace) {
            self.fail(String::new(), "this operation takes no body");
        }
        match self.syntax {
            Some(message) if self.violations.is_empty() => Err(ApiError::bad_request(message)),
            Some(message) => {
                self.violations.push(Violation::new("", message));
                Err(ApiError::invalid(self.violations))
            }
            None if self.violations.is_empty() => Ok(()),
            None => Err(ApiError::invalid(self.violations)),
        }
    }
}

/// A query parameter value's type.
pub trait FromParam: Sized {
    /// Parses the text of a query parameter.
    fn from_param(text: &str) -> Result<Self, String>;
}

impl FromParam for String {
    fn from_param(text: &str) -> Result<Self, String> {
        Ok(text.to_owned())
    }
}

impl FromParam for i64 {
    fn from_param(text: &str) -> Result<Self, String> {
        text.parse().map_err(|_| format!("expected an integer, found {text:?}"))
    }
}

impl FromParam for f64 {
    fn from_param(text: &str) -> Result<Self, String> {
        text.parse().map_err(|_| format!("expected a number, found {text:?}"))
    }
}

impl FromParam for bool {
    fn from_param(text: &str) -> Result<Self, String> {
        match text {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(format!("expected `true` or `false`, found {text:?}")),
        }
    }
}

impl FromParam for chrono::DateTime<chrono::Utc> {
    fn from_param(text: &str) -> Result<Self, String> {
        chrono::DateTime::parse_from_rfc3339(text)
            .map(|at| at.with_timezone(&chrono::Utc))
            .map_err(|_| format!("expected an RFC 3339 date-time, found {text:?}"))
    }
}
