//! Path templates: `/v1/spaces/{spaceId}/content/page/{pageId}`, `/v1/{name}:cancel`,
//! `/files/{id}.json`, `/api/` (a trailing slash kept exactly).
//!
//! A segment is a literal, a whole-segment parameter, or a *mixed* segment: literal text and
//! parameters in one segment (`{id}.json`, `${id}`, `fn(a='{a}',b={b})`, `{lat},{lon}`). Two
//! parameters with no text between them are refused: nothing would say where one ends; so is
//! text between two parameters made only of characters a client leaves unencoded in a value
//! (`{a}.{b}`): a value could hold it, and the router ends a parameter at its first occurrence.
//! Literal characters are RFC 3986's `pchar` but `%` (unreserved, sub-delims `!$&'()*+,;=`,
//! `:` and `@`): each travels as written, so client, router and documents agree on the bytes.
//! `{` and `}` only delimit parameters.

use super::Selector;

/// A parsed path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathTemplate {
    /// As written in the spec (also the form OpenAPI uses).
    pub raw: String,
    /// Segments between slashes (none for `/`).
    pub segments: Vec<PathSegment>,
    /// The path ends with `/` after its last segment (`/a/`): another route than `/a`.
    pub trailing_slash: bool,
}

/// One segment of a path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathSegment {
    /// Literal text.
    Literal(String),
    /// A whole-segment parameter, by wire name.
    Param(String),
    /// Literal text and parameters, in order; never two parameters in a row.
    Mixed(Vec<Piece>),
}

/// A piece of a mixed segment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece {
    /// Literal text, sent and matched as written.
    Text(String),
    /// A parameter, by wire name.
    Param(String),
}

impl PathSegment {
    /// The segment as pieces (a literal is one text piece, a parameter one parameter piece).
    pub fn pieces(&self) -> Vec<Piece> {
        match self {
            PathSegment::Literal(text) => vec![Piece::Text(text.clone())],
            PathSegment::Param(name) => vec![Piece::Param(name.clone())],
            PathSegment::Mixed(pieces) => pieces.clone(),
        }
    }
}

impl PathTemplate {
    /// Parses a path.
    pub fn parse(raw: &str) -> Result<PathTemplate, String> {
        let Some(rest) = raw.strip_prefix('/') else {
            return Err(format!("the path `{raw}` does not start with `/`"));
        };
        if rest.is_empty() {
            return Ok(PathTemplate { raw: raw.to_owned(), segments: Vec::new(), trailing_slash: false });
        }
        let (rest, trailing_slash) = match rest.strip_suffix('/') {
            Some(inner) => (inner, true),
            None => (rest, false),
        };
        let mut segments = Vec::new();
        for segment in rest.split('/') {
            if segment.is_empty() {
                return Err(format!("the path `{raw}` has an empty segment"));
            }
            if segment == "." || segment == ".." {
                return Err(format!(
                    "the path `{raw}` holds the segment `{segment}`, which clients and proxies resolve away"
                ));
            }
            segments.push(parse_segment(segment, raw)?);
        }
        Ok(PathTemplate { raw: raw.to_owned(), segments, trailing_slash })
    }

    /// Parameter names in path order (a name may repeat; lowering reports that).
    pub fn params(&self) -> impl Iterator<Item = &str> {
        self.segments.iter().flat_map(|s| -> Vec<&str> {
            match s {
                PathSegment::Param(name) => vec![name.as_str()],
                PathSegment::Literal(_) => Vec::new(),
                PathSegment::Mixed(pieces) => pieces
                    .iter()
                    .filter_map(|p| match p {
                        Piece::Param(name) => Some(name.as_str()),
                        Piece::Text(_) => None,
                    })
                    .collect(),
            }
        })
    }
}

impl PathTemplate {
    /// The route axum matches: literal segments as written, `{}` for a segment holding a
    /// parameter, the trailing slash kept. Operations of one method conflict only within one.
    pub fn route(&self) -> String {
        let mut route: String = self
            .segments
            .iter()
            .map(|segment| match segment {
                PathSegment::Literal(text) => format!("/{text}"),
                PathSegment::Param(_) | PathSegment::Mixed(_) => "/{}".to_owned(),
            })
            .collect();
        if self.trailing_slash || self.segments.is_empty() {
            route.push('/');
        }
        route
    }

    /// How specific each segment is, as the generated router orders operations: of the
    /// operations of one method whose path and selectors match a request, it answers the one
    /// whose ranks are greatest (compared segment by segment from the left: literal, then
    /// mixed with more literal text, then a whole parameter), then the one with more
    /// selectors. Routes of two operations that share no axum route ([`PathTemplate::route`])
    /// but may match one path differ in rank where one has literal text: lint needs no check
    /// across routes, and the router tries the operations of overlapping routes in this order.
    pub fn ranks(&self) -> Vec<(u8, usize)> {
        self.segments.iter().map(rank).collect()
    }
}

/// True when one request can reach two operations of one method and route (see
/// [`PathTemplate::route`]) with neither preferred by the router: their segments rank the
/// same ([`PathTemplate::ranks`]), may match one text, and no selector names one header or
/// query parameter with two different values (one request is to carry one value of each).
/// Selectors of different names do not tell two operations apart: one request may carry both.
pub fn routes_conflict(a: (&PathTemplate, &[Selector]), b: (&PathTemplate, &[Selector])) -> bool {
    let segments = a.0.segments.iter().zip(&b.0.segments);
    let ranked = a.0.ranks() == b.0.ranks();
    let selectors = !a.1.iter().any(|x| b.1.iter().any(|y| x.key() == y.key() && x.value != y.value));
    a.0.route() == b.0.route() && ranked && segments.clone().all(|(x, y)| overlap(x, y)) && selectors
}

/// How specific a segment is, as the generated router orders them.
fn rank(segment: &PathSegment) -> (u8, usize) {
    let text = |pieces: &[Piece]| pieces.iter().map(|p| if let Piece::Text(t) = p { t.len() } else { 0 }).sum();
    match segment {
        PathSegment::Param(_) => (0, 0),
        PathSegment::Mixed(pieces) => (1, text(pieces)),
        PathSegment::Literal(text) => (2, text.len()),
    }
}

/// True when some text may match both segments: literals when equal, parameters always,
/// mixed segments unless their leading or trailing texts disagree.
fn overlap(a: &PathSegment, b: &PathSegment) -> bool {
    let (x, y) = match (a, b) {
        (PathSegment::Literal(x), PathSegment::Literal(y)) => return x == y,
        (PathSegment::Mixed(x), PathSegment::Mixed(y)) => (x, y),
        _ => return true,
    };
    let end = |piece: Option<&Piece>| match piece {
        Some(Piece::Text(t)) => t.clone(),
        _ => String::new(),
    };
    let (lx, ly, tx, ty) = (end(x.first()), end(y.first()), end(x.last()), end(y.last()));
    (lx.starts_with(&ly) || ly.starts_with(&lx)) && (tx.ends_with(&ty) || ty.ends_with(&tx))
}

/// One segment: literal text, `{name}` alone, or pieces of both.
fn parse_segment(segment: &str, raw: &str) -> Result<PathSegment, String> {
    let mut pieces: Vec<Piece> = Vec::new();
    let mut rest = segment;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('{') {
            let Some(end) = after.find('}') else {
                return Err(format!("the segment `{segment}` of `{raw}` opens `{{` without closing it"));
            };
            let name = &after[..end];
            let valid = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            if !valid {
                return Err(format!("`{{{name}}}` in `{raw}` is not a valid parameter name"));
            }
            if matches!(pieces.last(), Some(Piece::Param(_))) {
                return Err(format!(
                    "the segment `{segment}` of `{raw}` holds two parameters with no text between them: nothing says where one ends"
                ));
            }
            pieces.push(Piece::Param(name.to_owned()));
            rest = &after[end + 1..];
        } else {
            let end = rest.find('{').unwrap_or(rest.len());
            let text = &rest[..end];
            if let Some(bad) = text.chars().find(|&c| !is_literal_char(c)) {
                return Err(format!(
                    "the segment `{segment}` of `{raw}` holds {}: a path holds letters, digits, `-._~`, `!$&'()*+,;=:@` and parameters",
                    describe_char(bad)
                ));
            }
            pieces.push(Piece::Text(text.to_owned()));
            rest = &rest[end..];
        }
    }
    if let Some(message) = ambiguous_separator(&pieces, segment, raw) {
        return Err(message);
    }
    Ok(match pieces.as_slice() {
        [Piece::Text(text)] => PathSegment::Literal(text.clone()),
        [Piece::Param(name)] => PathSegment::Param(name.clone()),
        _ => PathSegment::Mixed(pieces),
    })
}

/// The refusal of text between two parameters that a value of the first may hold: the router
/// ends a parameter followed by text at that text's first occurrence (linear, no backtracking),
/// and a client sends letters, digits and `-._~` of a value as they are (RFC 6570's simple
/// expansion, apigen's client), so `{a}.{b}` would read the value `1.5` of `a` sent with
/// `b = 2` as `1` and `5.2`. Text holding any other character is safe: clients percent-encode
/// it in values, so it only ever occurs where the template puts it.
fn ambiguous_separator(pieces: &[Piece], segment: &str, raw: &str) -> Option<String> {
    pieces.windows(3).find_map(|window| match window {
        [Piece::Param(a), Piece::Text(text), Piece::Param(b)] if text.chars().all(is_unreserved) => Some(format!(
            "the segment `{segment}` of `{raw}` separates `{{{a}}}` from `{{{b}}}` by `{text}`, which a value of `{{{a}}}` may hold as it is: the router ends `{{{a}}}` at the first `{text}`; separate them by text holding a character clients percent-encode (`,`, `:`, `;`, `@`, ...)"
        )),
        _ => None,
    })
}

/// RFC 3986's unreserved characters: what clients send of a parameter's value as it is.
fn is_unreserved(c: char) -> bool {
    c.is_ascii_alphanumeric() || "-._~".contains(c)
}

/// RFC 3986's `pchar` but `%`: unreserved characters, sub-delims, `:` and `@`. Each is sent,
/// routed and documented as written, with no escaping. (`?` would start a query, `#` a
/// fragment; a space or `%` would need escaping that clients and the router disagree on.)
fn is_literal_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "-._~!$&'()*+,;=:@".contains(c)
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

    fn text(s: &str) -> Piece {
        Piece::Text(s.into())
    }
    fn param(s: &str) -> Piece {
        Piece::Param(s.into())
    }

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
        assert!(!path.trailing_slash);
        assert_eq!(path.params().collect::<Vec<_>>(), ["spaceId"]);
    }

    #[test]
    fn parses_mixed_segments() {
        let cases: [(&str, Vec<Piece>); 6] = [
            ("/{id}.json", vec![param("id"), text(".json")]),
            ("/{name}:cancel", vec![param("name"), text(":cancel")]),
            ("/${id}", vec![text("$"), param("id")]),
            ("/fn(a='{a}',b={b})", vec![text("fn(a='"), param("a"), text("',b="), param("b"), text(")")]),
            ("/{lat},{lon}", vec![param("lat"), text(","), param("lon")]),
            ("/carrier@{a}@{b}", vec![text("carrier@"), param("a"), text("@"), param("b")]),
        ];
        for (raw, pieces) in cases {
            let path = PathTemplate::parse(raw).unwrap();
            assert_eq!(path.segments, vec![PathSegment::Mixed(pieces)], "{raw}");
        }
        let path = PathTemplate::parse("/fn(a='{a}',b={b})").unwrap();
        assert_eq!(path.params().collect::<Vec<_>>(), ["a", "b"]);
    }

    #[test]
    fn parses_other_literal_characters_and_slashes() {
        let path = PathTemplate::parse("/v1/{parent}/messages:send").unwrap();
        assert_eq!(path.segments[2], PathSegment::Literal("messages:send".into()));
        let path = PathTemplate::parse("/@connections/{id}").unwrap();
        assert_eq!(path.segments[0], PathSegment::Literal("@connections".into()));
        let path = PathTemplate::parse("/a/{b}/").unwrap();
        assert_eq!(path.segments.len(), 2);
        assert!(path.trailing_slash);
        let root = PathTemplate::parse("/").unwrap();
        assert_eq!((root.segments.len(), root.trailing_slash), (0, false));
    }

    #[test]
    fn tells_conflicting_routes() {
        let path = |raw: &str| PathTemplate::parse(raw).unwrap();
        let header =
            |v: &str| Selector { location: super::super::SelectIn::Header, name: "X-T".into(), value: v.into() };
        let cases = [
            ("/v1/{a}", "/v1/{b}", true),
            ("/v1/{a}", "/v1/{a}:cancel", false),
            ("/v1/{a}:cancel", "/v1/{b}:cancel", true),
            ("/v1/{a}:cancel", "/v1/{b}:undo", false),
            ("/v1/{a}-x", "/v1/x-{a}", true),
            ("/a", "/a/", false),
            ("/a/{b}", "/{a}/b", false),
        ];
        for (a, b, expected) in cases {
            assert_eq!(routes_conflict((&path(a), &[]), (&path(b), &[])), expected, "{a} {b}");
        }
        let (x, y) = ([header("A")], [header("B")]);
        assert!(!routes_conflict((&path("/"), &x), (&path("/"), &y)));
        assert!(routes_conflict((&path("/"), &x), (&path("/"), &[])));
        assert!(routes_conflict((&path("/"), &x), (&path("/"), &x)));
    }

    #[test]
    fn rejects_malformed_paths() {
        let cases = [
            ("v1/x", "the path `v1/x` does not start with `/`"),
            ("/v1//x", "the path `/v1//x` has an empty segment"),
            ("//", "the path `//` has an empty segment"),
            ("/v1//", "the path `/v1//` has an empty segment"),
            (
                "/v1/{a}{b}",
                "the segment `{a}{b}` of `/v1/{a}{b}` holds two parameters with no text between them: nothing says where one ends",
            ),
            ("/v1/{a", "the segment `{a` of `/v1/{a` opens `{` without closing it"),
            (
                "/v1/x{a}.{b}.{c}z",
                "the segment `x{a}.{b}.{c}z` of `/v1/x{a}.{b}.{c}z` separates `{a}` from `{b}` by `.`, which a value of `{a}` may hold as it is: the router ends `{a}` at the first `.`; separate them by text holding a character clients percent-encode (`,`, `:`, `;`, `@`, ...)",
            ),
            (
                "/{year}-{month}",
                "the segment `{year}-{month}` of `/{year}-{month}` separates `{year}` from `{month}` by `-`, which a value of `{year}` may hold as it is: the router ends `{year}` at the first `-`; separate them by text holding a character clients percent-encode (`,`, `:`, `;`, `@`, ...)",
            ),
            (
                "/v1/a}",
                "the segment `a}` of `/v1/a}` holds `}`: a path holds letters, digits, `-._~`, `!$&'()*+,;=:@` and parameters",
            ),
            ("/v1/{}", "`{}` in `/v1/{}` is not a valid parameter name"),
            (
                "/v1/pets?x=1",
                "the segment `pets?x=1` of `/v1/pets?x=1` holds `?`: a path holds letters, digits, `-._~`, `!$&'()*+,;=:@` and parameters",
            ),
            (
                "/v1/pet s",
                "the segment `pet s` of `/v1/pet s` holds a space: a path holds letters, digits, `-._~`, `!$&'()*+,;=:@` and parameters",
            ),
            (
                "/v1/a%20b",
                "the segment `a%20b` of `/v1/a%20b` holds `%`: a path holds letters, digits, `-._~`, `!$&'()*+,;=:@` and parameters",
            ),
            ("/v1/../pets", "the path `/v1/../pets` holds the segment `..`, which clients and proxies resolve away"),
        ];
        for (raw, message) in cases {
            assert_eq!(PathTemplate::parse(raw), Err(message.to_owned()), "{raw}");
        }
        assert!(PathTemplate::parse("/v1/conversations-issues/a.b_c~d").is_ok());
        // One parameter is anchored by the text around it; a separator clients encode is safe.
        for fine in ["/{a}.json", "/x-{a}-y", "/{a},{b}.json", "/{a}.x,{b}", "/cell(row={r},column={c})"] {
            assert!(PathTemplate::parse(fine).is_ok(), "{fine}");
        }
    }
}
