//! Type expressions: `string`, `Collection`, `list<Page>`, `map<list<string>>`.

use std::fmt;

/// A reference to a type, as a field, parameter or body uses it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TypeRef {
    /// Text.
    String,
    /// A whole number (64-bit).
    Integer,
    /// Any number (64-bit float).
    Number,
    /// true or false.
    Boolean,
    /// An RFC 3339 date-time.
    DateTime,
    /// An absolute URL, kept as text.
    Url,
    /// Any JSON value, where the documents give no shape.
    Json,
    /// Raw bytes: a whole request or response body of a media type that is not JSON, text or
    /// a form (a PDF, an image, `application/octet-stream`).
    Bytes,
    /// A file part of a `multipart/form-data` body: a field (or list item) of its object.
    File,
    /// A named type.
    Named(String),
    /// A JSON array.
    List(Box<TypeRef>),
    /// A JSON object with string keys and values of one type.
    Map(Box<TypeRef>),
}

/// The forms a type expression can take, for hints.
pub const FORMS: &str =
    "string, integer, number, boolean, date-time, url, json, bytes, file, a type name, list<T> or map<T>";

/// Placeholders an expression may hold where an inline shape is declared next to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placeholder {
    /// `object`: the inline `fields`.
    Object,
    /// `enum`: the inline `enum` values.
    Enum,
}

/// A parsed expression that may still hold a placeholder for an inline shape.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Parsed {
    /// A complete reference.
    Ref(TypeRef),
    /// `object`, `list<object>`, `enum`, ...: the wrappers around the placeholder, outermost
    /// first.
    Inline { placeholder: Placeholder, wrappers: Vec<Wrapper> },
}

/// A collection around a placeholder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wrapper {
    /// `list<...>`
    List,
    /// `map<...>`
    Map,
}

impl Parsed {
    /// Wraps a resolved inline type in the same collections as the placeholder.
    pub fn complete(wrappers: &[Wrapper], inner: TypeRef) -> TypeRef {
        wrappers.iter().rev().fold(inner, |acc, wrapper| match wrapper {
            Wrapper::List => TypeRef::List(Box::new(acc)),
            Wrapper::Map => TypeRef::Map(Box::new(acc)),
        })
    }
}

/// Parses a type expression. The error says what was expected where.
pub fn parse(text: &str) -> Result<Parsed, String> {
    let mut parser = Parser { text, at: 0, depth: 0 };
    let parsed = parser.expression()?;
    parser.skip_spaces();
    if parser.at != text.len() {
        return Err(format!("unexpected `{}` after the type in `{text}`", &text[parser.at..]));
    }
    Ok(parsed)
}

/// How deeply `list<...>` and `map<...>` may nest. Real types nest two or three levels; the
/// bound keeps parsing (and every later pass that walks a type) far from the stack's limit.
pub const MAX_NESTING: usize = 16;

struct Parser<'a> {
    text: &'a str,
    at: usize,
    /// `list<`/`map<` currently open.
    depth: usize,
}

impl Parser<'_> {
    fn skip_spaces(&mut self) {
        while self.text[self.at..].starts_with(' ') {
            self.at += 1;
        }
    }

    fn word(&mut self) -> &str {
        self.skip_spaces();
        let rest = &self.text[self.at..];
        let len = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-')).unwrap_or(rest.len());
        self.at += len;
        &rest[..len]
    }

    fn expect(&mut self, symbol: char) -> Result<(), String> {
        self.skip_spaces();
        if self.text[self.at..].starts_with(symbol) {
            self.at += 1;
            Ok(())
        } else {
            let found = self.text[self.at..].chars().next().map_or("the end".to_owned(), |c| format!("`{c}`"));
            Err(format!("expected `{symbol}` but found {found} in `{}`", self.text))
        }
    }

    fn expression(&mut self) -> Result<Parsed, String> {
        let word = self.word().to_owned();
        let simple = |r: TypeRef| Ok(Parsed::Ref(r));
        match word.as_str() {
            "" => Err(format!("expected a type in `{}`", self.text)),
            "string" => simple(TypeRef::String),
            "integer" => simple(TypeRef::Integer),
            "number" => simple(TypeRef::Number),
            "boolean" => simple(TypeRef::Boolean),
            "date-time" => simple(TypeRef::DateTime),
            "url" => simple(TypeRef::Url),
            "json" => simple(TypeRef::Json),
            "bytes" => simple(TypeRef::Bytes),
            "file" => simple(TypeRef::File),
            "object" => Ok(Parsed::Inline { placeholder: Placeholder::Object, wrappers: Vec::new() }),
            "enum" => Ok(Parsed::Inline { placeholder: Placeholder::Enum, wrappers: Vec::new() }),
            "list" | "map" => {
                self.expect('<')?;
                self.depth += 1;
                if self.depth > MAX_NESTING {
                    let start: String = self.text.chars().take(40).collect();
                    let shown = if start.len() < self.text.len() { format!("{start}...") } else { start };
                    return Err(format!("`{shown}` nests lists and maps more than {MAX_NESTING} levels deep"));
                }
                let inner = self.expression()?;
                self.depth -= 1;
                self.expect('>')?;
                let wrapper = if word == "list" { Wrapper::List } else { Wrapper::Map };
                Ok(match inner {
                    Parsed::Ref(r) => Parsed::Ref(Parsed::complete(&[wrapper], r)),
                    Parsed::Inline { placeholder, mut wrappers } => {
                        wrappers.insert(0, wrapper);
                        Parsed::Inline { placeholder, wrappers }
                    }
                })
            }
            name if name.starts_with(|c: char| c.is_ascii_uppercase()) && !name.contains('-') => {
                simple(TypeRef::Named(name.to_owned()))
            }
            other => Err(format!("`{other}` is not a type")),
        }
    }
}

impl fmt::Display for TypeRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TypeRef::String => f.write_str("string"),
            TypeRef::Integer => f.write_str("integer"),
            TypeRef::Number => f.write_str("number"),
            TypeRef::Boolean => f.write_str("boolean"),
            TypeRef::DateTime => f.write_str("date-time"),
            TypeRef::Url => f.write_str("url"),
            TypeRef::Json => f.write_str("json"),
            TypeRef::Bytes => f.write_str("bytes"),
            TypeRef::File => f.write_str("file"),
            TypeRef::Named(name) => f.write_str(name),
            TypeRef::List(inner) => write!(f, "list<{inner}>"),
            TypeRef::Map(inner) => write!(f, "map<{inner}>"),
        }
    }
}

impl TypeRef {
    /// Whether this is `file` or `list<file>`: a field of a multipart body that is files.
    pub fn is_file_or_files(&self) -> bool {
        match self {
            TypeRef::File => true,
            TypeRef::List(inner) => **inner == TypeRef::File,
            _ => false,
        }
    }

    /// The named type this reference ends in, through lists and maps.
    pub fn named(&self) -> Option<&str> {
        match self {
            TypeRef::Named(name) => Some(name),
            TypeRef::List(inner) | TypeRef::Map(inner) => inner.named(),
            _ => None,
        }
    }

    /// True for a string on the wire (string, date-time, url).
    pub fn is_stringy(&self) -> bool {
        matches!(self, TypeRef::String | TypeRef::DateTime | TypeRef::Url)
    }

    /// True for integer and number.
    pub fn is_numeric(&self) -> bool {
        matches!(self, TypeRef::Integer | TypeRef::Number)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(n: &str) -> TypeRef {
        TypeRef::Named(n.into())
    }

    #[test]
    fn parses_every_form() {
        assert_eq!(parse("string"), Ok(Parsed::Ref(TypeRef::String)));
        assert_eq!(parse("date-time"), Ok(Parsed::Ref(TypeRef::DateTime)));
        assert_eq!(parse("Page"), Ok(Parsed::Ref(named("Page"))));
        assert_eq!(parse("list<Page>"), Ok(Parsed::Ref(TypeRef::List(Box::new(named("Page"))))));
        assert_eq!(
            parse("map< list<number> >"),
            Ok(Parsed::Ref(TypeRef::Map(Box::new(TypeRef::List(Box::new(TypeRef::Number))))))
        );
        assert_eq!(
            parse("list<map<object>>"),
            Ok(Parsed::Inline { placeholder: Placeholder::Object, wrappers: vec![Wrapper::List, Wrapper::Map] })
        );
        assert_eq!(parse("enum"), Ok(Parsed::Inline { placeholder: Placeholder::Enum, wrappers: vec![] }));
    }

    #[test]
    fn reports_what_is_wrong() {
        assert_eq!(parse("list<Page"), Err("expected `>` but found the end in `list<Page`".into()));
        assert_eq!(parse("strin"), Err("`strin` is not a type".into()));
        assert_eq!(parse("list Page"), Err("expected `<` but found `P` in `list Page`".into()));
        assert_eq!(parse("Page>"), Err("unexpected `>` after the type in `Page>`".into()));
        assert_eq!(parse(""), Err("expected a type in ``".into()));
        let deepest = format!("{}string{}", "list<".repeat(MAX_NESTING), ">".repeat(MAX_NESTING));
        assert!(parse(&deepest).is_ok());
        assert_eq!(
            parse(&format!("map<{deepest}>")),
            Err("`map<list<list<list<list<list<list<list<l...` nests lists and maps more than 16 levels deep".into())
        );
        assert_eq!(parse("list<list<x>>"), Err("`x` is not a type".into()));
    }

    #[test]
    fn completes_placeholders_inside_out() {
        let done = Parsed::complete(&[Wrapper::List, Wrapper::Map], named("X"));
        assert_eq!(done.to_string(), "list<map<X>>");
    }
}
