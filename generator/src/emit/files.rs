//! Non-Rust files (Cargo manifests, READMEs, the reference) rendered from `templates/` with
//! minijinja. Templates are compiled into the binary, so output never depends on the working
//! directory.

use crate::model::Api;
use minijinja::{Environment, Value};
use std::sync::OnceLock;

/// Every template, by name, embedded at build time.
const TEMPLATES: &[(&str, &str)] = &[
    ("gitattributes.j2", include_str!("../../../templates/gitattributes.j2")),
    ("Cargo.toml.j2", include_str!("../../../templates/Cargo.toml.j2")),
    ("REFERENCE.md.j2", include_str!("../../../templates/REFERENCE.md.j2")),
];

fn environment() -> &'static Environment<'static> {
    static ENV: OnceLock<Environment<'static>> = OnceLock::new();
    ENV.get_or_init(|| {
        let mut env = Environment::new();
        let syntax = minijinja::syntax::SyntaxConfig::builder()
            .trim_blocks(true)
            .lstrip_blocks(true)
            .keep_trailing_newline(true)
            .build()
            .expect("the default delimiters are valid");
        env.set_syntax(syntax);
        env.add_filter("toml", toml_string);
        env.add_filter("one_line", |text: &str| super::one_line(text));
        env.set_formatter(escape_markdown_output);
        for (name, source) in TEMPLATES {
            // A template that does not parse is a bug in this crate, caught by every test.
            env.add_template(name, source).expect("embedded templates parse");
        }
        env
    })
}

/// The `toml` filter: `text` as a quoted TOML basic string, every character TOML requires
/// escaped, so spec text in a manifest stays one value and never adds a key.
fn toml_string(text: &str) -> String {
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

/// What `{{ ... }}` writes. In Markdown templates, spec text is Markdown (emphasis, code
/// spans and links are kept) but never raw HTML: `<`, `>` and `&` outside code spans are
/// written as entities, so a description cannot open a comment, a tag or an anchor.
/// Other templates write values as they are (and quote through filters such as `toml`).
fn escape_markdown_output(
    out: &mut minijinja::Output<'_>,
    state: &mut minijinja::State<'_, '_>,
    value: &Value,
) -> Result<(), minijinja::Error> {
    match value.as_str() {
        Some(text) if state.name().ends_with(".md.j2") => {
            out.write_str(&escape_html_outside_code(text)).map_err(minijinja::Error::from)
        }
        _ => minijinja::escape_formatter(out, state, value),
    }
}

/// Escapes `<`, `>` and `&` except inside code spans (where Markdown shows them as they are).
pub fn escape_html_outside_code(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find('`') {
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

/// Renders a template. Rendering errors are bugs in a template, caught by the tests.
pub fn render(name: &str, context: Value) -> String {
    let template = environment().get_template(name).expect("template exists");
    template.render(context).unwrap_or_else(|error| panic!("template {name} failed: {error:#}"))
}

/// The stamp file (see [`super::STAMP`]): TOML, one file per line with the hash of its
/// contents (and, for a Rust file, of the tokens it was printed from), so a change in the set
/// of files or in one file reads as a one-line diff.
pub fn stamp(api: &Api, options: &super::Options, output: &super::Output) -> String {
    let mut out = format!(
        "# {}\n# What this directory was generated from, and every file apigen wrote here:\n# `apigen generate` removes only files listed below.\nspec-hash = \"{}\"\ngenerator = \"apigen {}\"\nruntime = \"apigen-runtime {}\"\nfingerprint = \"{}\"\nprinter = \"{}\"\nfiles = [\n",
        super::header_text(api, options),
        api.spec_hash,
        env!("CARGO_PKG_VERSION"),
        crate::RUNTIME_VERSION,
        super::fingerprint(api, options),
        super::printer(api, options),
    );
    for path in output.files().keys() {
        let hash = output.hash(path).unwrap_or_default();
        out.push_str(&format!("    {{ path = {}, hash = \"{hash}\"", toml_string(path)));
        if let Some(source) = output.source(path) {
            out.push_str(&format!(", source = \"{source}\""));
        }
        out.push_str(" },\n");
    }
    out.push_str("]\n");
    out
}

/// What a stamp says (see [`stamp`]).
#[derive(Debug, Default)]
pub struct Stamp {
    /// What the whole output was generated from.
    pub fingerprint: Option<String>,
    /// Which printer printed its Rust files.
    pub printer: Option<String>,
    /// Every file written, by path.
    pub files: std::collections::BTreeMap<String, StampedFile>,
}

/// A file a stamp lists.
#[derive(Debug, Default)]
pub struct StampedFile {
    /// The hash of its contents (`None` in stamps written before hashes were recorded).
    pub hash: Option<String>,
    /// For a Rust file, the hash of its header and tokens.
    pub source: Option<String>,
}

/// Reads what [`stamp`] writes; generated paths need no unescaping.
pub fn read_stamp(text: &str) -> Stamp {
    let quoted = |text: &str| text.trim().strip_prefix('"').and_then(|t| t.split_once('"')).map(|(v, _)| v.to_owned());
    let key = |key: &str| text.lines().find_map(|line| line.strip_prefix(key).and_then(quoted));
    let mut stamp = Stamp { fingerprint: key("fingerprint = "), printer: key("printer = "), ..Stamp::default() };
    let Some((_, list)) = text.split_once("files = [") else {
        return stamp;
    };
    for line in list.lines() {
        let line = line.trim().trim_end_matches(',');
        let field = |entry: &str, name: &str| entry.split_once(&format!("{name} = ")).and_then(|(_, v)| quoted(v));
        let (path, file) = match line.strip_prefix("{ path = ") {
            Some(entry) => (quoted(entry), StampedFile { hash: field(entry, "hash"), source: field(entry, "source") }),
            None => (quoted(line), StampedFile::default()),
        };
        if let Some(path) = path {
            stamp.files.insert(path, file);
        }
    }
    stamp
}

/// The marker file at the top of the output directory.
pub fn gitattributes(api: &Api, options: &super::Options) -> String {
    render("gitattributes.j2", minijinja::context! { header => super::header_text(api, options) })
}

/// A generated crate's manifest depending on the runtime only.
pub fn cargo_toml(api: &Api, options: &super::Options, name: &str, description: &str) -> String {
    cargo_toml_with(api, options, name, description, &[], &[], &[])
}

/// A generated crate's manifest: runtime features, extra dependencies (`name = spec` lines)
/// and features of its own (`name = [..]` lines).
pub fn cargo_toml_with(
    api: &Api,
    options: &super::Options,
    name: &str,
    description: &str,
    runtime_features: &[&str],
    dependencies: &[(&str, &str)],
    features: &[(&str, &str)],
) -> String {
    let pairs = |items: &[(&str, &str)]| -> Vec<minijinja::Value> {
        items.iter().map(|&(name, spec)| minijinja::context! { name => name, spec => spec }).collect()
    };
    render(
        "Cargo.toml.j2",
        minijinja::context! {
            header => super::header_text(api, options),
            name => name,
            version => crate_version(&api.version),
            description => description,
            runtime => runtime_dependency(&options.runtime),
            runtime_features => runtime_features.iter().map(|f| (*f).to_owned()).collect::<Vec<String>>(),
            dependencies => pairs(dependencies),
            features => pairs(features),
        },
    )
}

/// The source keys of the runtime dependency (`version = "0.1.0", path = ".."`), TOML-quoted.
fn runtime_dependency(source: &super::RuntimeSource) -> String {
    use super::RuntimeSource;
    match source {
        RuntimeSource::Path { from_crate, version } => {
            format!("version = {}, path = {}", toml_string(version), toml_string(from_crate))
        }
        RuntimeSource::Git { url, reference, version } => {
            let mut keys = format!("version = {}, git = {}", toml_string(version), toml_string(url));
            if let Some((key, value)) = reference {
                keys.push_str(&format!(", {key} = {}", toml_string(value)));
            }
            keys
        }
        RuntimeSource::Registry { version } => format!("version = {}", toml_string(version)),
    }
}

/// A semver version for the generated crates from the API version (`1` gives `1.0.0`).
pub fn crate_version(version: &str) -> String {
    let mut parts: Vec<&str> = version.split('.').collect();
    if parts.iter().all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit())) {
        parts.resize(3, "0");
        parts.join(".")
    } else {
        "0.0.0".to_owned()
    }
}

#[cfg(test)]
mod tests {
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
        ];
        for (input, expected) in cases {
            assert_eq!(escape_html_outside_code(input), expected, "{input:?}");
        }
    }
}
