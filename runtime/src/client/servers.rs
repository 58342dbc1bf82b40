//! The servers a spec declares, as a generated client offers them (`servers::<name>::url(..)`):
//! a server URL with its placeholders filled. It names no other part of the client.

/// `template` with each `{name}` of `values` replaced by its value, as written (OpenAPI
/// substitutes server variables verbatim: a value is part of the URL, not a parameter, so it
/// is not percent-encoded); a placeholder `values` does not name stays as it is.
#[doc(hidden)]
pub fn server_url(template: &str, values: &[(&str, &str)]) -> String {
    values.iter().fold(template.to_owned(), |url, (name, value)| url.replace(&format!("{{{name}}}"), value))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_placeholder_is_filled_with_its_value_as_written() {
        let template = "https://{region}.api.example.com/{version}/{other}";
        let url = server_url(template, &[("region", "eu-west"), ("version", "v2")]);
        assert_eq!(url, "https://eu-west.api.example.com/v2/{other}");
        assert_eq!(server_url("https://{a}{a}", &[("a", "x")]), "https://xx");
    }
}
