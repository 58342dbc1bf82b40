//! Names an import gives: type, operation and tag names the format accepts, each unique by the
//! Rust name lowering derives from it (so two document names that differ only in case or
//! punctuation never collide in the generated code).

use crate::model::names::{Case, sanitize};
use heck::{ToKebabCase, ToLowerCamelCase, ToPascalCase};
use std::collections::{BTreeMap, BTreeSet};

/// Names taken in one namespace, by the Rust name derived from each.
#[derive(Debug, Default, Clone)]
pub struct Taken {
    rust: BTreeSet<String>,
    case: Option<Case>,
    /// For each name wanted before, the next number to try: 10,000 operations wanting one
    /// name take `name2` .. `name10000` in linear time, not quadratic.
    next: BTreeMap<String, u64>,
}

impl Taken {
    /// A namespace whose Rust names are in `case`.
    pub fn new(case: Case) -> Self {
        Taken { rust: BTreeSet::new(), case: Some(case), next: BTreeMap::new() }
    }

    /// Takes `rust` without a spec name (names the generator itself uses).
    pub fn reserve(&mut self, rust: &str) {
        self.rust.insert(rust.to_owned());
    }

    /// True when `name` is free.
    pub fn is_free(&self, name: &str) -> bool {
        !self.rust.contains(&sanitize(name, self.case.unwrap_or(Case::Pascal)))
    }

    /// `wanted` when its Rust name is free, else `wanted2`, `wanted3`, ...; taken either way.
    pub fn claim(&mut self, wanted: &str) -> String {
        let name = self.first_free(wanted, "", |taken, name| taken.is_free(name));
        self.rust.insert(sanitize(&name, self.case.unwrap_or(Case::Pascal)));
        name
    }

    /// The first of `wanted`, `wanted{sep}2`, `wanted{sep}3`, ... that `free` accepts (nothing
    /// is taken). A search for a name wanted before goes on from where the last one ended:
    /// names only ever get taken, so those it passed are still taken.
    pub fn first_free(&mut self, wanted: &str, sep: &str, free: impl Fn(&Self, &str) -> bool) -> String {
        let key = format!("{sep}\0{wanted}");
        let mut n = self.next.get(&key).copied().unwrap_or(1);
        let at = |n: u64| if n == 1 { wanted.to_owned() } else { format!("{wanted}{sep}{n}") };
        while !free(self, &at(n)) {
            n += 1;
        }
        self.next.insert(key, n);
        at(n)
    }
}

/// A type name the format accepts (PascalCase, letters and digits, starting with a capital)
/// from any text: `pet.Owner` gives `PetOwner`, `2fa` gives `N2fa`, `` gives `Type`.
pub fn type_name(text: &str) -> String {
    let pascal: String = text.to_pascal_case().chars().filter(char::is_ascii_alphanumeric).collect();
    match pascal.chars().next() {
        None => "Type".to_owned(),
        Some(c) if c.is_ascii_digit() => format!("N{pascal}"),
        Some(c) if c.is_ascii_lowercase() => {
            let mut chars = pascal.chars();
            chars.next().map(|c| c.to_ascii_uppercase()).into_iter().chain(chars).collect()
        }
        Some(_) => pascal,
    }
}

/// An operation name (camelCase) from an operation id: `Pets_List` gives `petsList`,
/// `repos/get-content` gives `reposGetContent`.
pub fn operation_name(text: &str) -> String {
    let camel: String = text.to_lower_camel_case().chars().filter(char::is_ascii_alphanumeric).collect();
    match camel.chars().next() {
        None => "operation".to_owned(),
        Some(c) if c.is_ascii_digit() => format!("op{camel}"),
        Some(_) => camel,
    }
}

/// The name of an operation without an id, from its method and path: `GET /pets/{petId}/toys`
/// gives `getPetsPetIdToys`.
pub fn operation_name_from_route(method: &str, path: &str) -> String {
    let words: Vec<&str> = path.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()).collect();
    operation_name(&format!("{} {}", method.to_lowercase(), words.join(" ")))
}

/// A tag name (kebab-case, letters and digits) from a tag of the document; `api` otherwise.
pub fn tag_name(text: &str) -> String {
    let mut kebab: String =
        text.to_kebab_case().chars().filter(|c| c.is_ascii_alphanumeric() || *c == '-').collect::<String>();
    // A tag names a module, a file and a cargo feature: kept short, with room for a number.
    kebab.truncate(crate::model::names::MAX_MODULE_NAME - 8);
    let kebab = kebab.trim_matches('-').to_owned();
    match kebab.chars().next() {
        None => "default".to_owned(),
        Some(c) if c.is_ascii_digit() => format!("n{kebab}"),
        Some(_) => kebab,
    }
}

/// File stems that name no API (`openapi.json`): the title names the crates instead.
const GENERIC_STEMS: &[&str] =
    &["api", "doc", "docs", "document", "index", "openapi", "openapi3", "schema", "spec", "swagger", "swagger2"];

/// A crate prefix from the document's file name (`gitbook.json` gives `gitbook`), or from its
/// title when the file name is generic (`openapi.yaml`, `swagger.json`). Words are kept as
/// written, never split at capitals (`GitBook` gives `gitbook`, not `git-book`): each run of
/// characters other than ASCII letters and digits becomes one `-`, and a name starting with a
/// digit is prefixed with `api-`.
pub fn crate_prefix(document: &str, title: &str) -> String {
    let file = document.rsplit(['/', '\\']).next().unwrap_or(document);
    let lower = file.to_ascii_lowercase();
    let stem = [".json", ".yaml", ".yml"].iter().find_map(|ext| lower.strip_suffix(ext)).unwrap_or(&lower);
    let from_stem = words(stem);
    let words =
        if from_stem.is_empty() || GENERIC_STEMS.contains(&from_stem.as_str()) { words(title) } else { from_stem };
    let mut prefix = words;
    prefix.truncate(40);
    let prefix = prefix.trim_matches('-');
    match prefix.chars().next() {
        None => "api".to_owned(),
        Some(c) if c.is_ascii_digit() => format!("api-{prefix}"),
        Some(_) => prefix.to_owned(),
    }
}

/// `text` lower-cased, each run of other characters than ASCII letters and digits one `-`.
fn words(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_owned()
}

/// A path parameter name the format accepts (letters, digits and `_`).
pub fn path_param_name(text: &str) -> String {
    let name: String = text.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect();
    if name.chars().all(|c| c == '_') { "param".to_owned() } else { name }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_the_format_accepts() {
        assert_eq!(type_name("pet.Owner"), "PetOwner");
        assert_eq!(type_name("2fa"), "N2fa");
        assert_eq!(type_name(""), "Type");
        assert_eq!(type_name("Microsoft.Web/sites"), "MicrosoftWebSites");
        assert_eq!(operation_name("Pets_List"), "petsList");
        assert_eq!(operation_name("repos/get-content"), "reposGetContent");
        assert_eq!(operation_name_from_route("GET", "/pets/{petId}/toys"), "getPetsPetIdToys");
        assert_eq!(tag_name("Pet Store"), "pet-store");
        assert_eq!(crate_prefix("gitbook.json", "GitBook API"), "gitbook");
        assert_eq!(crate_prefix("specs/GitBook.YAML", "x"), "gitbook");
        assert_eq!(crate_prefix("petstore-3.0.json", "Swagger Petstore"), "petstore-3-0");
        assert_eq!(crate_prefix("openapi.json", "GitBook API"), "gitbook-api");
        assert_eq!(crate_prefix("swagger.yaml", "Swagger Petstore"), "swagger-petstore");
        assert_eq!(crate_prefix("openapi.json", "1Password Connect"), "api-1password-connect");
        assert_eq!(crate_prefix("amazonaws.com_iotsecuretunneling.json", "x"), "amazonaws-com-iotsecuretunneling");
        assert_eq!(crate_prefix("openapi.json", "+++"), "api");
        assert_eq!(path_param_name("user-id"), "user_id");
    }

    #[test]
    fn claims_are_unique_by_rust_name() {
        let mut taken = Taken::new(Case::Pascal);
        assert_eq!(taken.claim("FooBar"), "FooBar");
        assert_eq!(taken.claim("FOOBar"), "FOOBar2");
        assert_eq!(taken.claim("Foo"), "Foo");
    }
}
