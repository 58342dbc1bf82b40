//! Cargo features of the generated crates: one per group, so a user of a big API compiles
//! only the groups they call and the types those reach.
//!
//! Every generated crate has a feature per group with operations (named as the group's
//! module, `site_structure`), `unreferenced-types` when some types no operation needs (webhook
//! payloads, say), and `full` enabling them all, which is the default. The client and server
//! forward each feature to the types crate, which they take without its defaults. An item is
//! compiled under the features of the groups that need it ([`crate::model::reach`]): a type
//! under those of every group reaching it, an operation's request, handle and answer under
//! its group's. Feature names of groups are snake case, and those of the generator are not
//! (or are reserved module names: `default`, `full`, `mock`, `samples`), so they never collide.

use crate::model::Tag;
use crate::model::reach::{Need, Reach};
use proc_macro2::{TokenStream, TokenTree};
use quote::quote;

/// The feature compiling the types no operation needs.
pub const UNREFERENCED: &str = "unreferenced-types";

/// The feature compiling every group (and the unreferenced types): the default.
pub const FULL: &str = "full";

/// The feature of a group: its module's name.
pub fn of_group(tag: &Tag) -> &str {
    &tag.rust
}

/// `#[cfg(..)]` compiling an item only where it is needed (nothing when always).
pub fn cfg(need: &Need) -> TokenStream {
    let Need::Some { groups, unreferenced } = need else { return TokenStream::new() };
    let features: Vec<&str> =
        groups.iter().map(|tag| of_group(tag)).chain(unreferenced.then_some(UNREFERENCED)).collect();
    match features.as_slice() {
        [feature] => quote!(#[cfg(feature = #feature)]),
        features => quote!(#[cfg(any(#(feature = #features),*))]),
    }
}

/// `#[cfg(feature = "<group>")]`: an item of one group's operations.
pub fn cfg_group(tag: &Tag) -> TokenStream {
    cfg(&Need::Some { groups: vec![tag], unreferenced: false })
}

/// `items` compiled only where `attr` says. Every item but an impl gets the attribute before
/// it; the impls (two or more) go together in one gated `const _: () = { .. };`, where impls
/// apply as anywhere else. The attribute lists every group reaching a type (Stripe's reach up
/// to 60): once per item it was 47% of Stripe's types crate, and what printing spent most on.
pub fn gate(attr: &TokenStream, items: TokenStream) -> TokenStream {
    if attr.is_empty() {
        return items;
    }
    let (impls, others): (Vec<TokenStream>, Vec<TokenStream>) = split_items(items).into_iter().partition(is_impl);
    let mut gated = TokenStream::new();
    for item in others.into_iter().chain((impls.len() == 1).then(|| impls[0].clone())) {
        gated.extend(attr.clone());
        gated.extend(item);
    }
    if impls.len() > 1 {
        gated.extend(quote! { #attr const _: () = { #(#impls)* }; });
    }
    gated
}

/// The top-level items of `items`, each with its attributes: an item ends with its braces, or
/// with a `;` outside any braces, as every item the emitters write does.
fn split_items(items: TokenStream) -> Vec<TokenStream> {
    let mut split = Vec::new();
    let mut item = TokenStream::new();
    let mut tokens = items.into_iter().peekable();
    while let Some(token) = tokens.next() {
        let ends = match &token {
            TokenTree::Group(group) => group.delimiter() == proc_macro2::Delimiter::Brace,
            TokenTree::Punct(punct) => punct.as_char() == ';',
            _ => false,
        };
        item.extend([token]);
        if ends {
            // `const X: T = T { .. };` ends with the `;` after its braces.
            if let Some(TokenTree::Punct(punct)) = tokens.peek()
                && punct.as_char() == ';'
            {
                item.extend(tokens.next());
            }
            split.push(std::mem::take(&mut item));
        }
    }
    if !item.is_empty() {
        split.push(item);
    }
    split
}

/// True for an `impl` item: its first word after its attributes is `impl`.
fn is_impl(item: &TokenStream) -> bool {
    let mut tokens = item.clone().into_iter();
    while let Some(token) = tokens.next() {
        match token {
            // An attribute: `#` and its brackets.
            TokenTree::Punct(punct) if punct.as_char() == '#' => _ = tokens.next(),
            TokenTree::Ident(word) => return word == "impl",
            _ => return false,
        }
    }
    false
}

/// The `[features]` entries of a generated crate: `default`, `full`, one per group and
/// `unreferenced-types` when some type needs it. `forward` names the types crate's dependency
/// (the client and server forward each feature to it).
pub fn manifest(reach: &Reach, forward: Option<&str>) -> Vec<(String, String)> {
    let list = |items: Vec<String>| -> String {
        let quoted: Vec<String> = items.iter().map(|item| format!("\"{item}\"")).collect();
        if quoted.len() <= 4 {
            format!("[{}]", quoted.join(", "))
        } else {
            format!("[\n  {},\n]", quoted.join(",\n  "))
        }
    };
    let forwarded =
        |feature: &str| -> Vec<String> { forward.map(|dep| vec![format!("{dep}/{feature}")]).unwrap_or_default() };
    let mut full: Vec<String> = reach.groups().iter().map(|tag| of_group(tag).to_owned()).collect();
    let unreferenced = reach.has_unreferenced();
    if unreferenced {
        full.push(UNREFERENCED.to_owned());
    }
    let mut features = vec![("default".to_owned(), list(vec![FULL.to_owned()])), (FULL.to_owned(), list(full))];
    for tag in reach.groups() {
        features.push((of_group(tag).to_owned(), list(forwarded(of_group(tag)))));
    }
    if unreferenced {
        features.push((UNREFERENCED.to_owned(), list(forwarded(UNREFERENCED))));
    }
    features
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gate_puts_the_attribute_before_every_item_and_once_before_the_impls() {
        let attr = quote!(#[cfg(feature = "a")]);
        let items = quote! {
            /// A thing.
            #[derive(Clone)]
            pub struct A { x: u8 }
            impl A { fn f(&self) {} }
            pub struct B(u8);
            #[doc = "Display."]
            impl ::core::fmt::Display for A { fn fmt(&self) {} }
            pub const C: A = A { x: 1 };
            pub type D = A;
        };
        let expected = quote! {
            #[cfg(feature = "a")]
            /// A thing.
            #[derive(Clone)]
            pub struct A { x: u8 }
            #[cfg(feature = "a")]
            pub struct B(u8);
            #[cfg(feature = "a")]
            pub const C: A = A { x: 1 };
            #[cfg(feature = "a")]
            pub type D = A;
            #[cfg(feature = "a")]
            const _: () = {
                impl A { fn f(&self) {} }
                #[doc = "Display."]
                impl ::core::fmt::Display for A { fn fmt(&self) {} }
            };
        };
        assert_eq!(gate(&attr, items).to_string(), expected.to_string());
        let one_impl = quote! { pub struct E; impl E { fn g() {} } };
        let gated = quote! { #[cfg(feature = "a")] pub struct E; #[cfg(feature = "a")] impl E { fn g() {} } };
        assert_eq!(gate(&attr, one_impl).to_string(), gated.to_string());
        assert_eq!(
            gate(
                &TokenStream::new(),
                quote!(
                    struct A;
                )
            )
            .to_string(),
            quote!(
                struct A;
            )
            .to_string()
        );
    }
}
