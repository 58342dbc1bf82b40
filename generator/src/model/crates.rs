//! The generated crates as names and roots: what each crate is called ([`CrateNames`], made
//! from the API's name in lowering with the other derived names), and what the client's and
//! the server's crate root hold of their own ([`CLIENT_ROOT`], [`SERVER_ROOT`], and the types
//! crate's [`TYPES_ROOT`]). A root's list is read twice: lowering reserves its names before
//! operations and groups claim theirs, and the emitter prints its re-exports from it, so a
//! re-export cannot be added to one and forgotten in the other.

/// A generated crate's names.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CrateName {
    /// The package name of its manifest (`docs-api-types`).
    pub package: String,
    /// The name Rust code gives it (`docs_api_types`).
    pub rust: String,
}

impl CrateName {
    fn of(prefix: &str, suffix: &str) -> Self {
        let package = format!("{prefix}-{suffix}");
        CrateName { rust: package.replace('-', "_"), package }
    }
}

/// The names of the three generated crates.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CrateNames {
    /// The types crate (`docs-api-types`).
    pub types: CrateName,
    /// The server crate (`docs-api-server`).
    pub server: CrateName,
    /// The client crate (`docs-api-client`).
    pub client: CrateName,
}

impl CrateNames {
    /// The crates of the API whose crate-name prefix (`api.name`) is `prefix`.
    pub fn of(prefix: &str) -> Self {
        CrateNames {
            types: CrateName::of(prefix, "types"),
            server: CrateName::of(prefix, "server"),
            client: CrateName::of(prefix, "client"),
        }
    }
}

/// What a generated crate's root holds of its own, beside what operations and groups add.
#[derive(Debug)]
pub struct CrateRoot {
    /// The crate, as a collision's message names it (`the client's own builder`).
    pub owner: &'static str,
    /// The items its emitter writes, each with what it is.
    pub items: &'static [(&'static str, &'static str)],
    /// Its `pub use`s, in the order printed.
    pub re_exports: &'static [ReExport],
}

/// One `pub use` of a crate root.
#[derive(Debug)]
pub struct ReExport {
    /// Its doc comment, if any.
    pub doc: Option<&'static str>,
    /// What it re-exports.
    pub from: Source,
}

/// Where a re-export comes from.
#[derive(Debug)]
pub enum Source {
    /// `pub use ::apigen_runtime::<module>::{<names>};` (`module` empty: the runtime's root).
    Runtime {
        /// The runtime's module (`client`), or empty.
        module: &'static str,
        /// The names re-exported, in the order printed.
        names: &'static [&'static str],
    },
    /// `pub use ::apigen_runtime as <alias>;`
    RuntimeCrate {
        /// The name it takes.
        alias: &'static str,
    },
    /// `pub use ::<types crate> as <alias>;`
    TypesCrate {
        /// The name it takes.
        alias: &'static str,
    },
}

/// The doc comment of the `FilePart` re-export of the client and the server.
const FILE_PART: &str = "A file of a multipart body: its name, media type and bytes.";

/// The client crate's root: the client, its builder, the generic request, constants, and what
/// it re-exports.
pub const CLIENT_ROOT: CrateRoot = CrateRoot {
    owner: "client",
    items: &[
        ("ClientBuilder", "the client's own builder"),
        ("Request", "the client's generic request"),
        ("Client", "the client"),
        ("USER_AGENT", "the client's user agent"),
        ("DEFAULT_BASE_URL", "the client's default base URL"),
        ("servers", "the client's servers"),
        ("SCHEMES", "the client's auth schemes"),
        ("ERRORS", "the client's error convention"),
        ("ERROR_BODIES", "the client's other error bodies"),
    ],
    re_exports: &[
        ReExport {
            doc: None,
            from: Source::Runtime {
                module: "client",
                names: &["Download", "Error", "Response", "RetryPolicy", "Upload", "http_client_builder"],
            },
        },
        ReExport { doc: Some(FILE_PART), from: Source::Runtime { module: "", names: &["FilePart"] } },
        ReExport { doc: Some("The types of the API."), from: Source::TypesCrate { alias: "types" } },
    ],
};

/// The server crate's root: the service trait, the router and its builder, constants, and
/// what it re-exports.
pub const SERVER_ROOT: CrateRoot = CrateRoot {
    owner: "server",
    items: &[
        ("Service", "the server's service trait"),
        ("RouterBuilder", "the server's router builder"),
        ("OPERATIONS", "the server's list of operations"),
        ("SCHEMES", "the server's auth schemes"),
        ("ERRORS", "the server's error convention"),
        ("ERROR_BODIES", "the server's other error bodies"),
        ("router", "the server's `router`"),
        ("router_with", "the server's `router_with`"),
    ],
    re_exports: &[
        ReExport {
            doc: None,
            from: Source::Runtime {
                module: "server",
                names: &[
                    "Anonymous",
                    "ApiError",
                    "Authenticator",
                    "BodyStream",
                    "Context",
                    "Credential",
                    "Download",
                    "MissingOperations",
                    "OperationInfo",
                    "Secret",
                    "ServerConfig",
                ],
            },
        },
        ReExport { doc: Some(FILE_PART), from: Source::Runtime { module: "", names: &["FilePart"] } },
        ReExport { doc: Some("The types of the API."), from: Source::TypesCrate { alias: "types" } },
    ],
};

/// The types crate's root: the runtime it is built on. (Its modules' names are kept clear of
/// `runtime` by [`super::names::module_name`]; its types are Pascal case.)
pub const TYPES_ROOT: CrateRoot = CrateRoot {
    owner: "types",
    items: &[],
    re_exports: &[ReExport {
        doc: Some("The runtime these types are built on: `Patch`, `Page`, `Validate`, JSON decoding."),
        from: Source::RuntimeCrate { alias: "runtime" },
    }],
};

impl CrateRoot {
    /// Every name the root takes, each with what takes it: its items, then what it
    /// re-exports (`the client's re-export of `Download``).
    pub fn reserved(&self) -> Vec<(&'static str, String)> {
        let owner = self.owner;
        let items = self.items.iter().map(|(name, what)| (*name, (*what).to_owned()));
        let re_exported = self.re_exports.iter().flat_map(|re_export| match &re_export.from {
            Source::Runtime { names, .. } => {
                names.iter().map(|name| (*name, format!("the {owner}'s re-export of `{name}`"))).collect()
            }
            Source::RuntimeCrate { alias } => vec![(*alias, format!("the {owner}'s re-export of the runtime"))],
            Source::TypesCrate { alias } => vec![(*alias, format!("the {owner}'s re-export of the types crate"))],
        });
        items.chain(re_exported).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crate_names_are_the_prefix_and_the_crate() {
        let crates = CrateNames::of("docs-api");
        assert_eq!(crates.types, CrateName { package: "docs-api-types".into(), rust: "docs_api_types".into() });
        assert_eq!(crates.server.package, "docs-api-server");
        assert_eq!(crates.client.rust, "docs_api_client");
    }

    #[test]
    fn a_root_reserves_its_items_and_each_name_it_re_exports() {
        let reserved = CLIENT_ROOT.reserved();
        let find = |name: &str| reserved.iter().find(|(n, _)| *n == name).map(|(_, what)| what.as_str());
        assert_eq!(find("ClientBuilder"), Some("the client's own builder"));
        assert_eq!(find("http_client_builder"), Some("the client's re-export of `http_client_builder`"));
        assert_eq!(find("FilePart"), Some("the client's re-export of `FilePart`"));
        assert_eq!(find("types"), Some("the client's re-export of the types crate"));
        assert_eq!(SERVER_ROOT.reserved().len(), 8 + 11 + 1 + 1);
    }
}
