//! Printing generated Rust: tokens from `quote` are parsed with `syn` and printed with
//! `prettyplease`, so every generated Rust file parses by construction.

use proc_macro2::TokenStream;

/// Prints a file of Rust items under the generated header.
pub fn print_file(header: &str, tokens: TokenStream) -> String {
    let file: syn::File = match syn::parse2(tokens.clone()) {
        Ok(file) => file,
        // Unparseable tokens are a bug in an emitter; show them to whoever fixes it.
        Err(error) => panic!("generated tokens do not parse: {error}\n{tokens}"),
    };
    format!("// {header}\n\n{}", prettyplease::unparse(&file))
}
