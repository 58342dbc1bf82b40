//! A string matching a regular expression, invented for samples: the shortest walk through the
//! common subset APIs write (`^CR[0-9a-fA-F]{32}$`, `^[a-z][a-z0-9-]{2,62}$`, `\d{4}-\d{2}`,
//! `(ab|cd)+`): literals, escapes (`\d`, `\w`, `\s`, `\.`), classes (negated ones too), groups
//! with alternatives (the first is taken), and quantifiers (`?`, `*`, `+`, `{n}`, `{n,}`,
//! `{n,m}`, lazy or not), characters by their code (`\u000A`, `\x{0D}`), look-around read as
//! writing nothing. A walk writes each class's first character; when the engine refuses it (a
//! look-ahead it did not meet), each class's last, then their characters in turn. Anything
//! else (backreferences, `\b`) gives `None`, and the result is always checked against the
//! engine the generated code matches with before it is used.
//!
//! Which engine that is, is decided here as in the runtime's `validate::Pattern`: the regex
//! crate's syntax, matched in linear time (regex-lite); a pattern only a backtracking engine
//! reads (look-around, backreferences, Unicode classes) by fancy-regex, bounded by
//! [`BACKTRACK_LIMIT`] steps per value.

/// The runtime's `validate::PATTERN_BACKTRACK_LIMIT` (a test keeps them equal).
pub const BACKTRACK_LIMIT: usize = 100_000;

/// A pattern compiled as the generated code compiles it.
pub enum Engine {
    /// The regex crate's syntax: linear time.
    Linear(regex_lite::Regex),
    /// Look-around, backreferences, Unicode classes: the runtime's `extended-patterns` feature.
    Backtracking(fancy_regex::Regex),
}

impl Engine {
    /// The pattern compiled, or the linear engine's error when neither engine reads it.
    pub fn compile(pattern: &str) -> Result<Engine, String> {
        match regex_lite::Regex::new(pattern) {
            Ok(regex) => Ok(Engine::Linear(regex)),
            Err(error) => fancy_regex::RegexBuilder::new(pattern)
                .backtrack_limit(BACKTRACK_LIMIT)
                .build()
                .map(Engine::Backtracking)
                .map_err(|_| error.to_string()),
        }
    }

    /// True when `value` matches (a value past the backtracking limit does not).
    pub fn is_match(&self, value: &str) -> bool {
        match self {
            Engine::Linear(regex) => regex.is_match(value),
            Engine::Backtracking(regex) => regex.is_match(value).unwrap_or(false),
        }
    }
}

/// True when `pattern` compiles and `value` matches it.
pub fn matches(pattern: &str, value: &str) -> bool {
    Engine::compile(pattern).is_ok_and(|engine| engine.is_match(value))
}

/// True when `pattern` needs the backtracking engine (the runtime's `extended-patterns`).
pub fn needs_backtracking(pattern: &str) -> bool {
    matches!(Engine::compile(pattern), Ok(Engine::Backtracking(_)))
}

/// A string matching `pattern` whose length is within `min..=max` characters, or `None`.
pub fn sample(pattern: &str, min: usize, max: usize) -> Option<String> {
    let regex = Engine::compile(pattern).ok()?;
    let nodes = Parser { chars: pattern.chars().collect(), at: 0 }.alternatives()?;
    let walk_with = |extra: usize, pick: Pick| {
        let mut out = String::new();
        write(&nodes, extra, &mut Writer { pick, classes: 0 }, &mut out);
        out
    };
    let length = |extra: usize| walk_with(extra, Pick::First).chars().count();
    // The walk grows with `extra` (each open repetition written that many times more): the
    // least `extra` reaching `min`, found by doubling then halving (`[0-9a-f]+` of exactly 40
    // characters is extra 39), then a few more in case the engine refuses the first walk.
    let mut high = 0;
    while length(high) < min {
        if high > max {
            return None; // no open repetition, or not one that reaches `min`
        }
        high = (high * 2).max(1);
    }
    let mut low = high / 2;
    while low < high {
        let middle = (low + high) / 2;
        if length(middle) < min { low = middle + 1 } else { high = middle }
    }
    for extra in high..high + 8 {
        // Each class's first character; failing that (a look-ahead wanting a digit somewhere,
        // `(?=.*[0-9])[a-z0-9]{6}`), its last, then its characters in turn (`a0a0..`, for
        // look-aheads wanting a letter and a digit).
        for pick in [Pick::First, Pick::Last, Pick::Turns] {
            let out = walk_with(extra, pick);
            if out.chars().count() > max {
                return None;
            }
            if regex.is_match(&out) {
                return Some(out);
            }
        }
    }
    None
}

/// Which character of a class a walk writes.
#[derive(Debug, Clone, Copy)]
enum Pick {
    /// The first it names.
    First,
    /// The last it names.
    Last,
    /// Each in turn, counting every class written.
    Turns,
}

/// A walk's choices: how it picks, and how many classes it wrote.
struct Writer {
    pick: Pick,
    classes: usize,
}

impl Writer {
    fn pick(&mut self, candidates: &[char]) -> Option<char> {
        let at = match self.pick {
            Pick::First => 0,
            Pick::Last => candidates.len().saturating_sub(1),
            Pick::Turns => self.classes % candidates.len().max(1),
        };
        self.classes += 1;
        candidates.get(at).copied()
    }
}

/// A piece of a pattern.
#[derive(Debug, Clone)]
enum Node {
    /// One character.
    Char(char),
    /// One character of a class: the candidates to write, in the order the class names them.
    Class(Vec<char>),
    /// A group: its alternatives (the first is written).
    Group(Vec<Vec<Node>>),
    /// A node repeated at least `min`, at most `max` times.
    Repeat(Box<Node>, usize, Option<usize>),
    /// An anchor (`^`, `$`): writes nothing.
    Anchor,
}

/// Writes the shortest string of `nodes`, each open repetition `extra` times more.
fn write(alternatives: &[Vec<Node>], extra: usize, writer: &mut Writer, out: &mut String) {
    for node in alternatives.first().into_iter().flatten() {
        write_node(node, extra, writer, out);
    }
}

fn write_node(node: &Node, extra: usize, writer: &mut Writer, out: &mut String) {
    match node {
        Node::Char(c) => out.push(*c),
        Node::Class(candidates) => out.extend(writer.pick(candidates)),
        Node::Group(alternatives) => write(alternatives, extra, writer, out),
        Node::Repeat(inner, min, max) => {
            let count = max.map_or(min + extra, |max| (min + extra).min(max));
            for _ in 0..count {
                write_node(inner, extra, writer, out);
            }
        }
        Node::Anchor => {}
    }
}

struct Parser {
    chars: Vec<char>,
    at: usize,
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn next(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.at += 1;
        Some(c)
    }

    /// `a|b|c` up to the end or a closing `)`.
    fn alternatives(&mut self) -> Option<Vec<Vec<Node>>> {
        let mut all = vec![Vec::new()];
        while let Some(c) = self.peek() {
            match c {
                ')' => break,
                '|' => {
                    self.at += 1;
                    all.push(Vec::new());
                }
                _ => {
                    let atom = self.atom()?;
                    let node = self.quantified(atom)?;
                    all.last_mut()?.push(node);
                }
            }
        }
        Some(all)
    }

    fn atom(&mut self) -> Option<Node> {
        match self.next()? {
            '^' | '$' => Some(Node::Anchor),
            '.' => Some(Node::Class(vec!['a', 'A', '0'])),
            '(' => {
                if self.peek() == Some('?') {
                    self.at += 1;
                    // `(?:...)`, flags groups (`(?i)`) and look-around (which writes nothing:
                    // the walk is checked against the engine after) are read.
                    match self.next()? {
                        ':' => {}
                        '=' | '!' => return self.zero_width(),
                        '<' if matches!(self.peek(), Some('=' | '!')) => {
                            self.at += 1;
                            return self.zero_width();
                        }
                        'i' | 'm' | 's' | 'x' | 'u' => {
                            while self.peek().is_some_and(|c| c != ')' && c != ':') {
                                self.at += 1;
                            }
                            if self.next()? == ')' {
                                return Some(Node::Anchor);
                            }
                        }
                        _ => return None,
                    }
                }
                let alternatives = self.alternatives()?;
                (self.next()? == ')').then_some(Node::Group(alternatives))
            }
            '[' => self.class(),
            '\\' => self.escape(false).map(|c| Node::Class(vec![c])),
            c if "*+?{".contains(c) => None,
            c => Some(Node::Char(c)),
        }
    }

    /// The character an escape stands for (`\d` gives `0`), in a class or not.
    /// The rest of a look-around group, read and written as nothing.
    fn zero_width(&mut self) -> Option<Node> {
        self.alternatives()?;
        (self.next()? == ')').then_some(Node::Anchor)
    }

    fn escape(&mut self, in_class: bool) -> Option<char> {
        match self.next()? {
            'd' => Some('0'),
            'w' => Some('a'),
            's' => Some(' '),
            'D' => Some('a'),
            'W' | 'S' => Some('-'),
            'n' => Some('\n'),
            't' => Some('\t'),
            'r' => Some('\r'),
            'f' => Some('\u{c}'),
            'v' => Some('\u{b}'),
            'b' if in_class => Some('\u{8}'),
            // A character by its code (`\u000D`, `\x0A`, `\x{2028}`, `\U0000000A`): PEM patterns
            // write their line breaks so (ACM's `-{5}BEGIN CERTIFICATE-{5}\u000D?\u000A..`).
            'x' => self.code(2),
            'u' => self.code(4),
            'U' => self.code(8),
            'p' => self.unicode_class(),
            c if c.is_ascii_alphanumeric() => None, // `\b`, `\P{..}`, backreferences...
            c => Some(c),
        }
    }

    /// A character of the Unicode class after `\p` (`\pL`, `\p{L}`, `\p{Letter}`, `\p{Nd}`):
    /// AWS's tag patterns are `^([\p{L}\p{Z}\p{N}_.:/=+\-@]*)$`. A letter, digit, space or
    /// punctuation mark of ASCII for the general categories; for another class (a script,
    /// `\p{Greek}`) a letter, which the engine's check after the walk may refuse.
    fn unicode_class(&mut self) -> Option<char> {
        let name: String = if self.peek() == Some('{') {
            self.at += 1;
            let mut name = String::new();
            loop {
                match self.next()? {
                    '}' => break,
                    c => name.push(c),
                }
            }
            name
        } else {
            self.next()?.to_string()
        };
        if matches!(name.as_str(), "Lu" | "Lt" | "Uppercase_Letter" | "Titlecase_Letter") {
            return Some('A');
        }
        Some(match name.chars().next()? {
            'N' => '0',
            'Z' => ' ',
            'P' => '.',
            'S' => '+',
            _ => 'a',
        })
    }

    /// The character of a code after `\x`, `\u` or `\U`: `digits` hexadecimal digits, or any
    /// number of them in braces (`\x{2028}`).
    fn code(&mut self, digits: usize) -> Option<char> {
        let mut hex = String::new();
        if self.peek() == Some('{') {
            self.at += 1;
            while let Some(c) = self.next() {
                if c == '}' {
                    break;
                }
                hex.push(c);
            }
        } else {
            for _ in 0..digits {
                hex.push(self.next()?);
            }
        }
        char::from_u32(u32::from_str_radix(&hex, 16).ok()?)
    }

    /// `[...]`: the first character the class accepts (for a negated class, one of a few
    /// candidates it does not exclude).
    fn class(&mut self) -> Option<Node> {
        let negated = self.peek() == Some('^');
        if negated {
            self.at += 1;
        }
        let mut members: Vec<(char, char)> = Vec::new();
        let mut first = true;
        loop {
            let c = self.next()?;
            if c == ']' && !first {
                break;
            }
            first = false;
            let low = match c {
                '\\' => self.escape(true)?,
                '[' if self.peek() == Some(':') => return None, // POSIX classes
                c => c,
            };
            let high = if self.peek() == Some('-') && self.chars.get(self.at + 1).is_some_and(|&c| c != ']') {
                self.at += 1;
                match self.next()? {
                    '\\' => self.escape(true)?,
                    c => c,
                }
            } else {
                low
            };
            members.push((low, high));
        }
        if !negated {
            let mut candidates: Vec<char> = Vec::new();
            for (low, _) in &members {
                if !candidates.contains(low) {
                    candidates.push(*low);
                }
            }
            return (!candidates.is_empty()).then_some(Node::Class(candidates));
        }
        let inside = |c: char| members.iter().any(|(low, high)| (*low..=*high).contains(&c));
        let candidates: Vec<char> =
            ['a', 'A', '0', '_', '-', 'x', 'Z', '9'].into_iter().filter(|c| !inside(*c)).collect();
        (!candidates.is_empty()).then_some(Node::Class(candidates))
    }

    /// The atom with its quantifier, if one follows (a lazy `?` after it is read and ignored).
    fn quantified(&mut self, atom: Node) -> Option<Node> {
        let (min, max) = match self.peek() {
            Some('*') => (0, None),
            Some('+') => (1, None),
            Some('?') => (0, Some(1)),
            Some('{') => return self.braces(atom),
            _ => return Some(atom),
        };
        self.at += 1;
        if self.peek() == Some('?') {
            self.at += 1;
        }
        Some(Node::Repeat(Box::new(atom), min, max))
    }

    /// `{n}`, `{n,}`, `{n,m}`.
    fn braces(&mut self, atom: Node) -> Option<Node> {
        self.at += 1;
        let mut text = String::new();
        loop {
            let c = self.next()?;
            if c == '}' {
                break;
            }
            text.push(c);
        }
        let (min, max) = match text.split_once(',') {
            None => {
                let n = text.trim().parse().ok()?;
                (n, Some(n))
            }
            Some((min, max)) => {
                let min = if min.trim().is_empty() { 0 } else { min.trim().parse().ok()? };
                let max = if max.trim().is_empty() { None } else { Some(max.trim().parse().ok()?) };
                (min, max)
            }
        };
        if self.peek() == Some('?') {
            self.at += 1;
        }
        Some(Node::Repeat(Box::new(atom), min, max))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_apis_write_get_a_matching_sample() {
        let cases: &[(&str, usize, usize, &str)] = &[
            ("^CR[0-9a-fA-F]{32}$", 0, 100, "CR00000000000000000000000000000000"),
            ("^[a-z][a-z0-9-]{2,62}$", 0, 100, "aaa"),
            (r"^\d{4}-\d{2}-\d{2}$", 0, 100, "0000-00-00"),
            ("^(ab|cd)+$", 0, 100, "ab"),
            ("^[^/]+$", 0, 100, "a"),
            (r"^\w+@\w+\.com$", 0, 100, "a@a.com"),
            ("^[A-Z]{2}$", 0, 100, "AA"),
            ("x*", 3, 10, "xxx"),
            // GitHub's commit SHA: a repetition stretched to a length the doubling skips.
            ("^[0-9a-fA-F]+$", 40, 40, "0000000000000000000000000000000000000000"),
            ("^(?:v|V)[0-9]+(?:\\.[0-9]+)*$", 0, 100, "v0"),
            ("^[+-]?[0-9]+$", 0, 100, "0"),
            // Look-around writes nothing; the walk is checked by the backtracking engine.
            (r"^(?!\s*$).+$", 0, 100, "a"),
            (r"^(?=[a-z])[a-z0-9]{3}$", 0, 100, "aaa"),
        ];
        for (pattern, min, max, expected) in cases {
            assert_eq!(sample(pattern, *min, *max).as_deref(), Some(*expected), "{pattern}");
        }
    }

    #[test]
    fn pem_patterns_with_their_line_breaks_by_code_get_a_matching_sample() {
        // ACM's certificate body, and a key written with `\r?\n` and `\x0A`.
        let acm = r"-{5}BEGIN CERTIFICATE-{5}\u000D?\u000A([A-Za-z0-9/+]{64}\u000D?\u000A)*[A-Za-z0-9/+]{1,64}={0,2}\u000D?\u000A-{5}END CERTIFICATE-{5}(\u000D?\u000A)?";
        assert_eq!(sample(acm, 1, 32768).as_deref(), Some("-----BEGIN CERTIFICATE-----\nA\n-----END CERTIFICATE-----"));
        let key = r"^-----BEGIN [A-Z ]+-----\r?\n[A-Za-z0-9+/=\x0A\x{0D}]+\r?\n-----END [A-Z ]+-----\s*$";
        assert_eq!(sample(key, 0, 4096).as_deref(), Some("-----BEGIN A-----\nA\n-----END A-----"));
        assert_eq!(sample(r"^\u{41}\U00000042$", 0, 10).as_deref(), Some("AB"));
    }

    #[test]
    fn unicode_classes_get_a_sample_of_their_category() {
        // AWS's tag keys and values (lookoutvision's `TagKey`, 1 to 128 characters): dropped
        // with gap `patterns` before, so a value of a control character was accepted.
        let tag = r"^([\p{L}\p{Z}\p{N}_.:/=+\-@]*)$";
        assert_eq!(sample(tag, 1, 128).as_deref(), Some("a"));
        assert_eq!(sample(r"^\pN{3}\p{Zs}\p{Lu}$", 0, 10).as_deref(), Some("000 A"));
        assert_eq!(sample(r"^\P{L}$", 0, 10), None, "a negated class is not walked");
    }

    #[test]
    fn look_aheads_the_first_walk_misses_are_met_by_another_pick() {
        assert_eq!(sample(r"^(?=.*[0-9])[a-z0-9]{6}$", 0, 10).as_deref(), Some("000000"));
        assert_eq!(sample(r"^(?=.*[a-z])(?=.*[A-Z])(?=.*\d).{8,}$", 0, 64).as_deref(), Some("aA0aA0aA"));
    }

    #[test]
    fn what_cannot_be_walked_or_fit_gives_nothing() {
        assert_eq!(sample(r"^(a)\1$", 0, 10), None, "backreference");
        assert_eq!(sample("^[a-z]{20}$", 0, 10), None, "longer than allowed");
        assert_eq!(sample("(", 0, 10), None, "does not compile");
        // Every walk skips the look-ahead and writes `aaaa` (the class names one range), which
        // it refuses. (`^(?=.*[0-9]).{8}$` was such a one before walks took other picks.)
        assert_eq!(sample(r"^(?=.*x)(?=.*y)[a-z]{4}$", 0, 10), None, "a look-ahead no walk meets");
    }

    #[test]
    fn the_engine_is_the_runtimes() {
        assert!(!needs_backtracking("^[a-z]+$"));
        assert!(needs_backtracking(r"^(?!admin$)[a-z]+$"), "look-ahead");
        assert!(needs_backtracking(r"^(a)\1$"), "backreference");
        assert!(matches(r"^(?!admin$)[a-z]+$", "ada") && !matches(r"^(?!admin$)[a-z]+$", "admin"));
        assert!(Engine::compile("(").is_err());
        let runtime = include_str!("../../embedded/runtime/src/validate.rs");
        assert!(
            runtime.contains(&format!("pub const PATTERN_BACKTRACK_LIMIT: usize = {};", "100_000"))
                && BACKTRACK_LIMIT == 100_000,
            "the generator and the runtime bound backtracking alike"
        );
    }
}
