//! Error bodies: [`ErrorBody`], the one of an API that declares none (spec gap `error-body` of
//! the Documentation Platform): `{"error": {"code": <http status>, "message": "<text>",
//! "violations"?: [...]}}`; and [`ErrorShape`], where any API's own error body carries the
//! status, the message and the violations.

use crate::validate::Violation;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The JSON body of every failure.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorBody {
    /// The error.
    pub error: ErrorDetail,
}

/// What went wrong.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorDetail {
    /// The HTTP status code.
    pub code: u16,
    /// A message for humans.
    pub message: String,
    /// For a request that failed validation: every violation, with its JSON pointer.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub violations: Vec<Violation>,
}

impl ErrorBody {
    /// An error body with no violations.
    pub fn new(code: u16, message: impl Into<String>) -> Self {
        ErrorBody { error: ErrorDetail { code, message: message.into(), violations: Vec::new() } }
    }

    /// A 400 listing every violation.
    pub fn invalid(message: impl Into<String>, violations: Vec<Violation>) -> Self {
        ErrorBody { error: ErrorDetail { code: 400, message: message.into(), violations } }
    }
}

/// How an API writes its error body, as its spec declares it (`api.errors`): where the
/// router's refusals and the errors a handler builds from a message put the status, the
/// message and the violations (JSON pointers into the body), and the media type. The client
/// reads the same places back from any error body it receives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ErrorShape {
    /// The media type of error bodies (`application/json`, `application/problem+json`).
    pub media_type: &'static str,
    /// Where the HTTP status goes (a JSON pointer such as `/error/code`), if anywhere.
    pub status: Option<&'static str>,
    /// Where the message goes (`/message`, `/error/message`, `/detail`); empty when the body
    /// has no place for one (a body saying what failed in its list of violations or in its
    /// codes alone).
    pub message: &'static str,
    /// Where a machine-readable code goes, if anywhere (`/error/code`, OAuth's `/error`): a
    /// string named from the status ([`code_of`]: `invalid_request` for 400, `not_found` for
    /// 404, ...).
    pub code: Option<&'static str>,
    /// Where the list of violations goes, if anywhere (`/error/violations`).
    pub violations: Option<&'static str>,
    /// The key of a violation's JSON pointer inside each violation object (`path`).
    pub violation_path: &'static str,
    /// The key of a violation's message inside each violation object (`message`).
    pub violation_message: &'static str,
    /// Required fields no other place names, each written with one value: JSON pointer and
    /// JSON text (RFC 9457's `("/type", "\"about:blank\"")`).
    pub fill: &'static [(&'static str, &'static str)],
}

impl ErrorShape {
    /// The error body of an API that declares none: [`ErrorBody`],
    /// `{"error": {"code", "message", "violations"?}}`.
    pub const DEFAULT: ErrorShape = ErrorShape {
        media_type: "application/json",
        status: Some("/error/code"),
        message: "/error/message",
        code: None,
        violations: Some("/error/violations"),
        violation_path: "path",
        violation_message: "message",
        fill: &[],
    };

    /// The error body of a failure of `status` among an operation's `bodies` (status and
    /// shape, `0` standing for `default`): the one of that status, else the `default` one,
    /// else the API's (`api`).
    pub fn of_status(
        bodies: &'static [(u16, &'static ErrorShape)],
        status: u16,
        api: &'static ErrorShape,
    ) -> &'static ErrorShape {
        let own = |wanted: u16| bodies.iter().find(|(status, _)| *status == wanted).map(|(_, shape)| *shape);
        own(status).or_else(|| own(0)).unwrap_or(api)
    }

    /// The body for a failure with this status, message and violations (none written when
    /// there are none). A shape with no place for violations names them in the message
    /// (`the request is invalid: /name: is required; query.limit: is too large`), so a caller
    /// still learns each violated field. A shape with no place for the message but a list of
    /// violations says a failure without violations as one item of the list, its path empty
    /// (`[{"field": "", "message": "missing credentials"}]`).
    pub fn render(&self, status: u16, message: &str, violations: &[Violation]) -> Value {
        let mut body = Value::Object(Map::new());
        for (pointer, text) in self.fill {
            if let Ok(value) = serde_json::from_str(text) {
                set(&mut body, pointer, value);
            }
        }
        if let Some(pointer) = self.status {
            set(&mut body, pointer, Value::from(status));
        }
        let message = match self.violations {
            None if !violations.is_empty() => {
                let each: Vec<String> = violations
                    .iter()
                    .map(|v| match v.path.as_str() {
                        "" => format!("the body: {}", v.message),
                        path => format!("{path}: {}", v.message),
                    })
                    .collect();
                format!("{message}: {}", each.join("; "))
            }
            _ => message.to_owned(),
        };
        if !self.message.is_empty() {
            set(&mut body, self.message, Value::from(message.as_str()));
        }
        if let Some(pointer) = self.code {
            set(&mut body, pointer, Value::from(code_of(status)));
        }
        let said = [Violation::new("", message.as_str())];
        let violations = match violations {
            [] if self.message.is_empty() => &said[..],
            _ => violations,
        };
        if let Some(pointer) = self.violations.filter(|_| !violations.is_empty()) {
            let list = violations
                .iter()
                .map(|v| {
                    let mut item = Map::new();
                    item.insert(self.violation_path.to_owned(), Value::from(v.path.as_str()));
                    item.insert(self.violation_message.to_owned(), Value::from(v.message.as_str()));
                    Value::Object(item)
                })
                .collect();
            set(&mut body, pointer, Value::Array(list));
        }
        body
    }

    /// What an error body says, read from the places of this shape: the status (when it is
    /// an integer there), the message (when it is a string there; in a body without a place
    /// for it, the first violation's) and the violations (the items that have both keys as
    /// strings; without a message place, those with a path).
    pub fn read(&self, body: &Value) -> (Option<u16>, Option<String>, Vec<Violation>) {
        let status =
            self.status.and_then(|p| body.pointer(p)).and_then(Value::as_u64).and_then(|s| u16::try_from(s).ok());
        let message = match self.message {
            "" => None,
            pointer => body.pointer(pointer).and_then(Value::as_str).map(str::to_owned),
        };
        let violations = self
            .violations
            .and_then(|p| body.pointer(p))
            .and_then(Value::as_array)
            .map(|items| {
                items
                    .iter()
                    .filter_map(|item| {
                        let path = item.get(self.violation_path)?.as_str()?;
                        let message = item.get(self.violation_message)?.as_str()?;
                        Some(Violation::new(path, message))
                    })
                    .collect()
            })
            .unwrap_or_default();
        match message {
            Some(message) => (status, Some(message), violations),
            None if self.message.is_empty() => {
                // The message travels as a violation (the first's); one without a path is it alone.
                let message = violations.first().map(|v| v.message.clone());
                let violations = violations.into_iter().filter(|v| !v.path.is_empty()).collect();
                (status, message, violations)
            }
            None => (status, None, violations),
        }
    }
}

/// The machine-readable code of a failure with `status`, as OAuth 2.0 (RFC 6749) and most
/// APIs spell theirs: `invalid_request` (400), `unauthorized` (401), `forbidden` (403),
/// `not_found` (404), `method_not_allowed` (405), `not_acceptable` (406), `conflict` (409),
/// `payload_too_large` (413), `uri_too_long` (414), `unsupported_media_type` (415),
/// `unprocessable` (422), `too_many_requests` (429), `headers_too_large` (431),
/// `internal_error` (500), `unavailable` (503); `error` for any other.
pub fn code_of(status: u16) -> &'static str {
    match status {
        400 => "invalid_request",
        401 => "unauthorized",
        403 => "forbidden",
        404 => "not_found",
        405 => "method_not_allowed",
        406 => "not_acceptable",
        409 => "conflict",
        413 => "payload_too_large",
        414 => "uri_too_long",
        415 => "unsupported_media_type",
        422 => "unprocessable",
        429 => "too_many_requests",
        431 => "headers_too_large",
        500 => "internal_error",
        503 => "unavailable",
        _ => "error",
    }
}

/// Sets the value at a JSON pointer, creating the objects on the way (`~1` and `~0` unescaped;
/// a pointer through a value that is not an object is left unwritten).
fn set(body: &mut Value, pointer: &str, value: Value) {
    let mut keys = pointer.split('/').skip(1).map(|k| k.replace("~1", "/").replace("~0", "~")).peekable();
    let mut current = body;
    while let Some(key) = keys.next() {
        let Value::Object(map) = current else { return };
        if keys.peek().is_none() {
            map.insert(key, value);
            return;
        }
        current = map.entry(key).or_insert_with(|| Value::Object(Map::new()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_shape_writes_the_error_body_envelope() {
        let violations = [Violation::new("/title", "is required")];
        let body = ErrorShape::DEFAULT.render(400, "the request is invalid", &violations);
        let expected = ErrorBody::invalid("the request is invalid", violations.to_vec());
        assert_eq!(serde_json::to_string(&body).unwrap(), serde_json::to_string(&expected).unwrap());
        assert_eq!(
            serde_json::to_value(ErrorBody::new(404, "gone")).unwrap(),
            ErrorShape::DEFAULT.render(404, "gone", &[])
        );
    }

    #[test]
    fn other_shapes_put_each_part_where_they_say_and_read_it_back() {
        let problem = ErrorShape {
            media_type: "application/problem+json",
            status: Some("/status"),
            message: "/detail",
            code: None,
            violations: Some("/invalid-params"),
            violation_path: "name",
            violation_message: "reason",
            fill: &[],
        };
        let body = problem.render(400, "bad", &[Violation::new("query.limit", "too big")]);
        assert_eq!(
            body.to_string(),
            r#"{"status":400,"detail":"bad","invalid-params":[{"name":"query.limit","reason":"too big"}]}"#
        );
        assert_eq!(
            problem.read(&body),
            (Some(400), Some("bad".into()), vec![Violation::new("query.limit", "too big")])
        );
        let github = ErrorShape { status: None, message: "/message", violations: None, ..problem };
        assert_eq!(github.render(404, "Not Found", &[]).to_string(), r#"{"message":"Not Found"}"#);
        // No place for violations: the message names each one.
        let invalid = [Violation::new("/name", "is required"), Violation::new("", "expected an object, found null")];
        assert_eq!(
            github.render(400, "the request is invalid", &invalid).to_string(),
            r#"{"message":"the request is invalid: /name: is required; the body: expected an object, found null"}"#
        );
        assert_eq!(github.read(&serde_json::json!({"message": 1})), (None, None, vec![]));
        // OAuth 2.0's `{error, error_description}`: a code from the status beside the message.
        let oauth = ErrorShape { message: "/error_description", code: Some("/error"), ..github };
        assert_eq!(
            oauth.render(401, "missing credentials", &[]).to_string(),
            r#"{"error_description":"missing credentials","error":"unauthorized"}"#
        );
        assert_eq!(oauth.render(418, "teapot", &[]).to_string(), r#"{"error_description":"teapot","error":"error"}"#);
        // RFC 9457 with its required `type`, and a required correlation id: each written with
        // its one value, beside what the router says.
        let filled =
            ErrorShape { fill: &[("/type", r#""about:blank""#), ("/meta/correlationId", r#""c-1""#)], ..problem };
        assert_eq!(
            filled.render(404, "gone", &[]).to_string(),
            r#"{"type":"about:blank","meta":{"correlationId":"c-1"},"status":404,"detail":"gone"}"#
        );
    }

    #[test]
    fn a_body_without_a_message_place_says_the_message_as_a_violation_or_not_at_all() {
        // SendGrid's `{errors: [{field, message}]}`: each violation an item, a failure without
        // violations one item, its path empty; read back, that item is the message.
        let listed = ErrorShape {
            media_type: "application/json",
            status: None,
            message: "",
            code: None,
            violations: Some("/errors"),
            violation_path: "field",
            violation_message: "message",
            fill: &[],
        };
        let invalid = listed.render(400, "the request is invalid", &[Violation::new("query.q", "is required")]);
        assert_eq!(invalid.to_string(), r#"{"errors":[{"field":"query.q","message":"is required"}]}"#);
        let unauthorized = listed.render(401, "missing credentials", &[]);
        assert_eq!(unauthorized.to_string(), r#"{"errors":[{"field":"","message":"missing credentials"}]}"#);
        assert_eq!(listed.read(&unauthorized), (None, Some("missing credentials".into()), vec![]));
        assert_eq!(
            listed.read(&invalid),
            (None, Some("is required".into()), vec![Violation::new("query.q", "is required")])
        );
        // API Setu's `{error, errorDescription}`, two enumerations: only their values.
        let coded = ErrorShape {
            violations: None,
            fill: &[("/error", r#""record_not_found""#), ("/errorDescription", r#""No record found""#)],
            ..listed
        };
        assert_eq!(
            coded.render(404, "gone", &[]).to_string(),
            r#"{"error":"record_not_found","errorDescription":"No record found"}"#
        );
        assert_eq!(coded.read(&coded.render(404, "gone", &[])), (None, None, vec![]));
    }
}
