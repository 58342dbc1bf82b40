//! Path templates: `/v1/spaces/{spaceId}/content/page/{pageId}`.

/// A parsed path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathTemplate {
    /// As written in the spec (also the form axum and OpenAPI use).
    pub raw: String,
    /// Segments between slashes.
    pub segments: Vec<PathSegment>,
}

/// One segment of a path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathSegment {
    /// Literal text.
    Literal(String),
    /// A whole-segment parameter, by wire name.
    Param(String),
}

impl PathTemplate {
    /// Parses a path. Parameters must fill whole segments.
    pub fn parse(raw: &str) -> Result<PathTemplate, String> {
        let Some(rest) = raw.strip_prefix('/') else {
            return Err(format!("the path `{raw}` does not start with `/`"));
        };
        let mut segments = Vec::new();
        for segment in rest.split('/') {
            if segment.is_empty() {
                return Err(format!("the path `{raw}` has an empty segment"));
            }
            if let Some(name) = segment.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
                let valid = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
                if !valid {
                    return Err(format!("`{{{name}}}` in `{raw}` is not a valid parameter name"));
                }
                segments.push(PathSegment::Param(name.to_owned()));
            } else if segment.contains(['{', '}']) {
                return Err(format!(
                    "the segment `{segment}` of `{raw}` mixes a parameter with text; a parameter fills a whole segment"
                ));
            } else if segment == "." || segment == ".." {
                return Err(format!(
                    "the path `{raw}` holds the segment `{segment}`, which clients and proxies resolve away"
                ));
            } else if let Some(bad) = segment.chars().find(|&c| !is_literal_char(c)) {
                return Err(format!(
                    "the segment `{segment}` of `{raw}` holds {}: a path holds letters, digits and `-._~` only",
                    describe_char(bad)
                ));
            } else {
                segments.push(PathSegment::Literal(segment.to_owned()));
            }
        }
        Ok(PathTemplate { raw: raw.to_owned(), segments })
    }

    /// Parameter names in path order (a name may repeat; lowering reports that).
    pub fn params(&self) -> impl Iterator<Item = &str> {
        self.segments.iter().filter_map(|s| match s {
            PathSegment::Param(name) => Some(name.as_str()),
            PathSegment::Literal(_) => None,
        })
    }
}

/// RFC 3986's unreserved characters: a literal segment made of them is sent, routed and
/// documented the same everywhere, with no escaping. (`?` would start a query, `#` a fragment,
/// a space or `%` would need escaping that clients and the router disagree on.)
fn is_literal_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_' | '~')
}

fn describe_char(c: char) -> String {
    match c {
        ' ' => "a space".to_owned(),
        c if c.is_control() => format!("the control character U+{:04X}", u32::from(c)),
        c => format!("`{c}`"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_literals_and_params() {
        let path = PathTemplate::parse("/v1/spaces/{spaceId}/content").unwrap();
        assert_eq!(
            path.segments,
            vec![
                PathSegment::Literal("v1".into()),
                PathSegment::Literal("spaces".into()),
                PathSegment::Param("spaceId".into()),
                PathSegment::Literal("content".into()),
            ]
        );
        assert_eq!(path.params().collect::<Vec<_>>(), ["spaceId"]);
    }

    #[test]
    fn rejects_malformed_paths() {
        assert_eq!(PathTemplate::parse("v1/x"), Err("the path `v1/x` does not start with `/`".into()));
        assert_eq!(PathTemplate::parse("/v1//x"), Err("the path `/v1//x` has an empty segment".into()));
        assert_eq!(PathTemplate::parse("/v1/"), Err("the path `/v1/` has an empty segment".into()));
        assert_eq!(
            PathTemplate::parse("/v1/{a}.json"),
            Err("the segment `{a}.json` of `/v1/{a}.json` mixes a parameter with text; a parameter fills a whole segment".into())
        );
        assert_eq!(PathTemplate::parse("/v1/{}"), Err("`{}` in `/v1/{}` is not a valid parameter name".into()));
        assert_eq!(
            PathTemplate::parse("/v1/pets?x=1"),
            Err("the segment `pets?x=1` of `/v1/pets?x=1` holds `?`: a path holds letters, digits and `-._~` only"
                .into())
        );
        assert_eq!(
            PathTemplate::parse("/v1/pet s"),
            Err("the segment `pet s` of `/v1/pet s` holds a space: a path holds letters, digits and `-._~` only".into())
        );
        assert_eq!(
            PathTemplate::parse("/v1/../pets"),
            Err("the path `/v1/../pets` holds the segment `..`, which clients and proxies resolve away".into())
        );
        assert!(PathTemplate::parse("/v1/conversations-issues/a.b_c~d").is_ok());
    }
}
