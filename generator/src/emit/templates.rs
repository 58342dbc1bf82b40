//! Non-Rust files (Cargo manifests, READMEs, the reference) rendered from `templates/` with
//! minijinja. Templates are compiled into the binary, so output never depends on the working
//! directory.

use super::escape::{escape_html_outside_code, html_comment, one_line, toml_string};
use crate::model::Api;
use minijinja::{Environment, Value};
use std::sync::OnceLock;

/// Every template, by name, embedded at build time.
const TEMPLATES: &[(&str, &str)] = &[
    ("gitattributes.j2", include_str!("../../templates/gitattributes.j2")),
    ("Cargo.toml.j2", include_str!("../../templates/Cargo.toml.j2")),
    ("REFERENCE.md.j2", include_str!("../../templates/REFERENCE.md.j2")),
    ("types-lib.md.j2", include_str!("../../templates/types-lib.md.j2")),
    ("server-lib.md.j2", include_str!("../../templates/server-lib.md.j2")),
    ("client-lib.md.j2", include_str!("../../templates/client-lib.md.j2")),
];

/// The runtime's defaults (`runtime/src/defaults.rs`, a file without dependencies), compiled
/// in so the crate documentation states the values the runtime applies.
#[path = "../../embedded/runtime/src/defaults.rs"]
pub mod runtime_defaults;

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
        env.add_filter("one_line", |text: &str| one_line(text));
        env.add_filter("bytes", bytes);
        env.add_filter("html_comment", |text: &str| Value::from_safe_string(html_comment(text)));
        env.add_global("runtime", runtime_globals());
        env.set_formatter(escape_markdown_output);
        for (name, source) in TEMPLATES {
            // A template that does not parse is a bug in this crate, caught by every test.
            env.add_template(name, source).expect("embedded templates parse");
        }
        env
    })
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
        Some(text) if state.name().ends_with(".md.j2") && !value.is_safe() => {
            out.write_str(&escape_html_outside_code(text)).map_err(minijinja::Error::from)
        }
        _ => minijinja::escape_formatter(out, state, value),
    }
}

/// The runtime's defaults, as every template sees them (`{{ runtime.body_limit | bytes }}`).
fn runtime_globals() -> Value {
    use runtime_defaults as d;
    minijinja::context! {
        body_limit => d::DEFAULT_BODY_LIMIT,
        upload_limit => d::DEFAULT_UPLOAD_LIMIT,
        timeout_seconds => d::DEFAULT_TIMEOUT_SECONDS,
        max_response_bytes => d::DEFAULT_MAX_RESPONSE_BYTES,
        max_pages => d::DEFAULT_MAX_PAGES,
        retried => d::RETRIED_STATUSES.to_vec(),
    }
}

/// The `bytes` filter: a size as people write it (`2 MiB`, `8 KiB`, `100 bytes`).
fn bytes(n: u64) -> String {
    const KIB: u64 = 1024;
    match n {
        0 => "0 bytes".to_owned(),
        n if n % (KIB * KIB * KIB) == 0 => format!("{} GiB", n / (KIB * KIB * KIB)),
        n if n % (KIB * KIB) == 0 => format!("{} MiB", n / (KIB * KIB)),
        n if n % KIB == 0 => format!("{} KiB", n / KIB),
        n => format!("{n} bytes"),
    }
}

/// Renders a template. Rendering errors are bugs in a template, caught by the tests.
pub fn render(name: &str, context: Value) -> String {
    let template = environment().get_template(name).expect("template exists");
    template.render(context).unwrap_or_else(|error| panic!("template {name} failed: {error:#}"))
}

/// The marker file at the top of the output directory.
pub fn gitattributes(api: &Api, options: &super::Options) -> String {
    render("gitattributes.j2", minijinja::context! { header => super::text::header_text(api, options) })
}

/// What a generated crate's manifest says of the crate itself.
pub struct Manifest<'a> {
    /// The package name.
    pub name: &'a str,
    /// The package description.
    pub description: &'a str,
    /// Features of `apigen-runtime` it needs.
    pub runtime_features: &'a [&'a str],
    /// Other dependencies, as `name = spec` lines.
    pub dependencies: &'a [(&'a str, &'a str)],
    /// Dev-dependencies, as `name = spec` lines.
    pub dev_dependencies: &'a [(&'a str, &'a str)],
    /// Features of its own, as `name = [..]` lines.
    pub features: &'a [(String, String)],
}

/// A generated crate's manifest.
pub fn cargo_toml(api: &Api, options: &super::Options, manifest: &Manifest<'_>) -> String {
    let &Manifest { name, description, runtime_features, dependencies, dev_dependencies, features } = manifest;
    let pairs = |items: Vec<(&str, &str)>| -> Vec<minijinja::Value> {
        items.into_iter().map(|(name, spec)| minijinja::context! { name => name, spec => spec }).collect()
    };
    render(
        "Cargo.toml.j2",
        minijinja::context! {
            header => super::text::header_text(api, options),
            name => name,
            version => crate_version(&api.version),
            description => description,
            license => options.license.as_deref().or(api.license.as_deref()),
            runtime => runtime_dependency(&options.runtime),
            runtime_features => runtime_features.iter().map(|f| (*f).to_owned()).collect::<Vec<String>>(),
            dependencies => pairs(dependencies.to_vec()),
            dev_dependencies => pairs(dev_dependencies.to_vec()),
            features => pairs(features.iter().map(|(n, s)| (n.as_str(), s.as_str())).collect()),
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

/// A semver version for the generated crates from the API version (`1` gives `1.0.0`,
/// `1.04` gives `1.4.0`: semver numbers have no leading zeros); `0.0.0` for a version that is
/// not numbers and dots (`2021-01-01`, `v3`, `1.0-beta`).
pub fn crate_version(version: &str) -> String {
    let parts: Option<Vec<u64>> =
        version.split('.').map(|p| if p.chars().all(|c| c.is_ascii_digit()) { p.parse().ok() } else { None }).collect();
    match parts {
        Some(mut parts) => {
            parts.resize(3, 0);
            parts[..3].iter().map(u64::to_string).collect::<Vec<_>>().join(".")
        }
        None => "0.0.0".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn crate_versions_are_semver_whatever_the_api_version() {
        let cases = [
            ("1", "1.0.0"),
            ("1.2", "1.2.0"),
            ("1.04", "1.4.0"),
            ("2.0.01", "2.0.1"),
            ("1.2.3.4", "1.2.3"),
            ("2021-01-01", "0.0.0"),
            ("v3", "0.0.0"),
            ("", "0.0.0"),
            ("99999999999999999999", "0.0.0"),
        ];
        for (version, expected) in cases {
            assert_eq!(super::crate_version(version), expected, "{version:?}");
        }
    }

    #[test]
    fn sizes_read_as_people_write_them() {
        let cases = [(0, "0 bytes"), (100, "100 bytes"), (8 * 1024, "8 KiB"), (2 << 20, "2 MiB"), (1 << 30, "1 GiB")];
        for (n, text) in cases {
            assert_eq!(super::bytes(n), text);
        }
    }
}
