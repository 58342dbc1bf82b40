//! Escaping, one function per format that spec text reaches: a line comment (`one_line`), an
//! HTML comment (`html_comment`), a TOML string (`toml_string`), Markdown without raw HTML
//! (`escape_html_outside_code`), a Markdown table cell (`table_cell`).

/// `text` with every line break and control character turned into a space, and every
/// character that changes the direction of text shown escaped (see [`comment_text`]). The
/// header is a line comment in every format (`//`, `#`): spec text in it (the API's title)
/// must not be able to end the comment and add code or manifest keys after it.
pub fn one_line(text: &str) -> String {
    let spaced: String =
        text.chars().map(|c| if c.is_control() || matches!(c, '\u{2028}' | '\u{2029}') { ' ' } else { c }).collect();
    comment_text(&spaced)
}

/// `text` as a Rust comment may hold it: a carriage return not followed by a line feed (which
/// rustc refuses in a doc comment) becomes a line break, and each character that changes the
/// direction of text shown (U+202A to U+202E, U+2066 to U+2069, which rustc refuses in
/// comments so that code cannot be made to read otherwise than it runs) is written as its
/// escape, `\u{202E}`: Hebrew or Arabic text wrapped in isolates stays readable.
pub fn comment_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' if chars.peek() == Some(&'\n') => {}
            '\r' => out.push('\n'),
            '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' => out.push_str(&format!("\\u{{{:04X}}}", u32::from(c))),
            c => out.push(c),
        }
    }
    out
}

/// The `toml` filter: `text` as a quoted TOML basic string, every character TOML requires
/// escaped, so spec text in a manifest stays one value and never adds a key.
pub fn toml_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Escapes `<`, `>` and `&` except inside code spans (where Markdown shows them as they are).
/// A backslash-escaped backtick (`` \` ``) opens no code span in Markdown, so it opens none here.
pub fn escape_html_outside_code(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = unescaped_backtick(rest) {
        out.push_str(&escape_html(&rest[..start]));
        let after = &rest[start..];
        let ticks = after.len() - after.trim_start_matches('`').len();
        let fence = &after[..ticks];
        // A code span closes at the next run of exactly as many backticks.
        let close = find_run(&after[ticks..], ticks);
        match close {
            Some(end) => {
                let span_len = ticks + end + ticks;
                out.push_str(&after[..span_len]);
                rest = &after[span_len..];
            }
            None => {
                out.push_str(fence);
                rest = &after[ticks..];
            }
        }
    }
    out.push_str(&escape_html(rest));
    out
}

/// The offset of the first backtick of `text` not escaped by a backslash (an odd number of
/// backslashes before it escapes it).
fn unescaped_backtick(text: &str) -> Option<usize> {
    let mut backslashes = 0;
    for (i, byte) in text.bytes().enumerate() {
        match byte {
            b'`' if backslashes % 2 == 0 => return Some(i),
            b'\\' => backslashes += 1,
            _ => backslashes = 0,
        }
    }
    None
}

/// Text that stays inside an HTML comment (`<!-- .. -->`), on one line: `<` and `>` as
/// entities and every `--` broken up, so nothing in it can end the comment or open another,
/// whatever code spans it holds.
pub fn html_comment(text: &str) -> String {
    let mut out = one_line(text).replace('<', "&lt;").replace('>', "&gt;");
    while out.contains("--") {
        out = out.replace("--", "- -");
    }
    out
}

/// Text on one line with its white space runs folded to one space (a list item, a sentence
/// of the reference).
pub fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Text that stays in one cell of a Markdown table: on one line, `|` escaped.
pub fn table_cell(text: &str) -> String {
    flat(text).replace('|', "\\|")
}

/// The offset of the first run of exactly `n` backticks in `text`.
fn find_run(text: &str, n: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'`' {
            let run = bytes[i..].iter().take_while(|&&b| b == b'`').count();
            if run == n {
                return Some(i);
            }
            i += run;
        } else {
            i += 1;
        }
    }
    None
}

fn escape_html(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains(['&', '<', '>']) {
        return std::borrow::Cow::Borrowed(text); // Most text: no copy.
    }
    std::borrow::Cow::Owned(text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;"))
}

#[cfg(test)]
mod tests {

    #[test]
    fn comments_hold_no_bare_carriage_return_and_no_direction_change() {
        assert_eq!(comment_text("a\r\nb\rc"), "a\nb\nc");
        assert_eq!(comment_text("\u{2067}שלום\u{2069} \u{202E}x"), "\\u{2067}שלום\\u{2069} \\u{202E}x");
        assert_eq!(one_line("t\u{202E}itle\nnext"), "t\\u{202E}itle next");
    }

    use super::*;

    #[test]
    fn toml_strings_hold_any_text_as_one_value() {
        assert_eq!(toml_string("plain"), r#""plain""#);
        assert_eq!(toml_string("a \"b\" \\ c\nbuild = \"x\"\u{7f}"), r#""a \"b\" \\ c\nbuild = \"x\"\u007F""#);
    }

    #[test]
    fn markdown_keeps_code_spans_and_escapes_html_elsewhere() {
        let cases = [
            ("plain **bold**", "plain **bold**"),
            ("<script>x</script> & more", "&lt;script&gt;x&lt;/script&gt; &amp; more"),
            ("`Bearer <token>` then <b>", "`Bearer <token>` then &lt;b&gt;"),
            ("``a ` <b>`` <c>", "``a ` <b>`` &lt;c&gt;"),
            ("unclosed ` <d>", "unclosed ` &lt;d&gt;"),
            ("--> <!-- x", "--&gt; &lt;!-- x"),
            ("\\`<img src=x onerror=alert(1)>\\`", "\\`&lt;img src=x onerror=alert(1)&gt;\\`"),
            ("\\\\`<b>` <c>", "\\\\`<b>` &lt;c&gt;"),
        ];
        for (input, expected) in cases {
            assert_eq!(escape_html_outside_code(input), expected, "{input:?}");
        }
    }
}
