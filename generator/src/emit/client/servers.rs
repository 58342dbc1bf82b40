//! `servers`: each server of the spec as a module of the client's root (`servers::<name>`),
//! with its `URL` (every variable at its default), and when it has variables a `url(..)`
//! taking each (an enumeration for one with `enum`, text otherwise). The URL is built by the
//! runtime's `server_url`; these are declarations.

use super::super::rust::{doc, ident};
use crate::model::{Api, Server, ServerVariable};
use proc_macro2::TokenStream;
use quote::quote;

/// The `servers` module, or nothing when the spec declares no server.
pub(super) fn servers_module(api: &Api) -> TokenStream {
    if api.servers.is_empty() {
        return TokenStream::new();
    }
    let servers = api.servers.iter().map(server);
    quote! {
        /// The API's servers (`servers` of the spec), one module each: its `URL`, every
        /// variable at its default, and with variables `url(..)` taking them. Any other base
        /// URL works as well: `Client::new` takes any.
        pub mod servers {
            #(#servers)*
        }
    }
}

/// One server's module.
fn server(server: &Server) -> TokenStream {
    let module = ident(&server.rust);
    let template = &server.url;
    let about = match &server.description {
        Some(description) => format!("{}\n\n`{template}`", description.trim()),
        None => format!("`{template}`"),
    };
    let about = doc(&about);
    let url = server.default_url();
    let enums = server.variables.iter().filter(|v| !v.values.is_empty()).map(enumeration);
    let build = (!server.variables.is_empty()).then(|| url_fn(server));
    quote! {
        #about
        pub mod #module {
            /// The URL, every variable at its default.
            pub const URL: &str = #url;
            #build
            #(#enums)*
        }
    }
}

/// `url(..)`: the URL with each variable given.
fn url_fn(server: &Server) -> TokenStream {
    let template = &server.url;
    let params = server.variables.iter().map(|variable| {
        let name = ident(&variable.rust_param);
        if variable.values.is_empty() {
            quote!(#name: &str)
        } else {
            let ty = ident(&variable.rust_type);
            quote!(#name: #ty)
        }
    });
    let values = server.variables.iter().map(|variable| {
        let (key, name) = (&variable.name, ident(&variable.rust_param));
        if variable.values.is_empty() { quote!((#key, #name)) } else { quote!((#key, #name.as_str())) }
    });
    let arguments: Vec<String> = server.variables.iter().map(argument_doc).collect();
    let text = doc(&format!("The URL `{template}` with each variable given:\n\n{}", arguments.join("\n")));
    quote! {
        #text
        pub fn url(#(#params),*) -> ::std::string::String {
            ::apigen_runtime::codegen::client::server_url(#template, &[#(#values),*])
        }
    }
}

/// The line of `url(..)`'s docs saying what a variable is.
fn argument_doc(variable: &ServerVariable) -> String {
    let what = variable.description.as_deref().map(str::trim).filter(|d| !d.is_empty());
    let default = format!("(default `{}`)", variable.default);
    match what {
        Some(what) => format!("- `{}`: {what} {default}", variable.rust_param),
        None => format!("- `{}` {default}", variable.rust_param),
    }
}

/// The enumeration of a variable with `enum`: its values in the spec's order, the default
/// one `Default`.
fn enumeration(variable: &ServerVariable) -> TokenStream {
    let ty = ident(&variable.rust_type);
    let about = match variable.description.as_deref().map(str::trim) {
        Some(description) if !description.is_empty() => format!("{description}\n\nThe values of `{}`.", variable.name),
        _ => format!("The values of `{}`.", variable.name),
    };
    let about = doc(&about);
    let variants: Vec<_> = variable.variants.iter().map(|v| ident(v)).collect();
    let declared = variable.values.iter().zip(&variants).map(|(value, variant)| {
        let text = doc(&format!("`{value}`"));
        let default = (*value == variable.default).then(|| quote!(#[default]));
        quote! { #text #default #variant }
    });
    let values = &variable.values;
    quote! {
        #about
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
        pub enum #ty {
            #(#declared),*
        }

        impl #ty {
            /// Every value, in the spec's order.
            pub const ALL: &'static [#ty] = &[#(#ty::#variants),*];

            /// The value as the URL carries it.
            pub fn as_str(self) -> &'static str {
                match self {
                    #(#ty::#variants => #values),*
                }
            }
        }

        impl ::core::fmt::Display for #ty {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    }
}
