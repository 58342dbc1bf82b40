//! Values as text: parameters (query, header, cookie, path) and response headers, parsed with
//! [`FromParam`]; typed response headers ([`HeaderSet`]), written by the server and read by the
//! client.

/// A parameter value's type (query, header, cookie, and path values other than text).
pub trait FromParam: Sized {
    /// Parses the text of a parameter.
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

/// A number is finite: `NaN`, `inf` and `1e400` (which Rust's parser reads as infinite) are
/// refused, as JSON has no word for them and every bound (`minimum`, `maximum`) would let NaN
/// through (it compares false with everything).
impl FromParam for f64 {
    fn from_param(text: &str) -> Result<Self, String> {
        match text.parse::<f64>() {
            Ok(number) if number.is_finite() => Ok(number),
            Ok(_) => Err(format!("expected a finite number, found {text:?}")),
            Err(_) => Err(format!("expected a number, found {text:?}")),
        }
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

/// The typed response headers of an operation (a generated struct, one field per header the
/// spec declares): the server's handler sets them with `Context::set_headers`, the client
/// reads them from a response.
pub trait HeaderSet: Sized {
    /// The headers the spec says the service always sends (the router answers 500 when a
    /// handler's success leaves one unset).
    const REQUIRED: &'static [&'static str];

    /// Every header set, by name, as text.
    fn to_pairs(&self) -> Vec<(&'static str, String)>;

    /// The headers found through `get` (every value of a name, looked up without case). A
    /// header missing, or whose value does not parse, is left unset: responses are read
    /// leniently.
    fn from_lookup(get: &dyn Fn(&str) -> Vec<String>) -> Self;
}

/// A header value as a typed value, when it parses (for generated [`HeaderSet::from_lookup`]).
#[doc(hidden)]
pub fn header_value<T: FromParam>(values: Vec<String>) -> Option<T> {
    values.first().and_then(|text| T::from_param(text.trim()).ok())
}

/// A comma-separated header value as a list of typed values (items that do not parse left
/// out).
#[doc(hidden)]
pub fn header_list<T: FromParam>(values: Vec<String>) -> Vec<T> {
    values.iter().flat_map(|v| v.split(',')).filter_map(|item| T::from_param(item.trim()).ok()).collect()
}

#[cfg(test)]
mod tests {
    use super::FromParam;

    #[test]
    fn numbers_are_finite() {
        assert_eq!(f64::from_param("-2.5e3"), Ok(-2500.0));
        for text in ["NaN", "nan", "inf", "-infinity", "1e400", "-1e309"] {
            assert_eq!(f64::from_param(text), Err(format!("expected a finite number, found {text:?}")));
        }
        assert_eq!(f64::from_param("x"), Err("expected a number, found \"x\"".to_owned()));
    }
}
