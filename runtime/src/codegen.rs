//! The seam generated code goes through: every item of this crate that only generated code
//! needs, re-exported in one place.
//!
//! A generated crate is declarations; what its declarations need at run time (writing and
//! reading JSON field by field, choosing a union's variant, compiled patterns, redacted
//! `Debug`, typed headers, building and sending a call, routing a request and writing its
//! answer) is here. Items shared by every generated crate sit at the top of this module;
//! [`client`] (feature `client`) holds what only generated clients need, [`server`] (feature
//! `server`) what only generated servers need. Each item is a re-export: it stays at the path
//! where it is defined, and this module is the list the generator writes against, so the
//! runtime's modules can be rearranged without touching a generator that names its items
//! through here. (Code generated before the seam names them at their defining paths, which keep
//! working.)
//!
//! **No stability promise for hand-written code.** This module is hidden from the docs and
//! changes whenever the generator's needs change (in step with the runtime version generated
//! crates require); hand-written code names items by their public paths.
//!
//! **Generated code names user-facing items by their public paths, not through here**: what
//! users of a generated crate meet in its signatures and write in their own code (the server's
//! `ApiError`, `Context`, `Authenticator`, `Anonymous`, `Download` and `BodyStream`; the
//! client's `Error`, `Response`, `Upload`, `Download` and `RetryPolicy`; `Page`, `Patch`,
//! `FilePart`, `FromJson`, `Validate`, `Bytes`, and the re-exported `chrono`, `serde` and
//! `serde_json`), so the path a user reads in a generated crate is the one they would write.
//! A few items here also show in generated signatures (a client's `Builder`, `Settings`, `Core`,
//! `Items` and `Call`, a handler's `OnlyStatus`, the server's `OperationInfo` and
//! `axum::Router`): they stay documented, and usable, at their public paths, where signatures
//! name them. Generated *code* (function bodies, the initializers of consts and statics)
//! names every item of this module through here, unless the generated crate re-exports it
//! (the server's `OperationInfo`, then its own); `tests/tests/seams.rs` checks it.

pub use crate::auth::{
    AuthorizationCodeFlow, ClientCredentialsFlow, DeviceCodeFlow, KeyIn, OpenIdConnectFlow, Scheme, SchemeKind,
};
pub use crate::error::ErrorShape;
pub use crate::format::Format;
pub use crate::json::{Decoder, Fields, Mode, decode, deserialize, tagged, untagged};
pub use crate::media::{Part, sent_type};
pub use crate::page::{PageStyle, Paginated, Paging};
pub use crate::params::{HeaderSet, header_list, header_value};
pub use crate::redact::{Redacted, redact_option, redact_patch};
pub use crate::validate::{Pattern, Validator};

/// What only generated clients need (feature `client`): the core a generated `Client` wraps,
/// the calls its builders make, and the decoding of answers and error bodies.
#[cfg(feature = "client")]
pub mod client {
    pub use crate::client::{
        Answer, Builder, Call, Core, DecodeAnswer, DecodeSource, Empty, Headers, Items, Json, Kind, Made, Operation,
        Raw, Received, Settings, Text, Varied, WithResponse, decode_body, decode_error_as, given, given_time, reqwest,
        scalar_text, segment, segments, server_url, variant,
    };
}

/// What only generated servers need (feature `server`): the routes a generated router sets,
/// the constants selecting an operation, who may call each operation, the request's input,
/// the writers of each answer, and axum.
#[cfg(feature = "server")]
pub mod server {
    pub use crate::server::{
        Authenticated, GroupLeftOut, Input, OnlyStatus, OperationInfo, Public, Routes, Selector, Status, axum,
        bodiless, download, empty, from_text, json, text,
    };

    /// How many operations `groups`' tables hold together: the length of a generated server's
    /// `OPERATIONS`, which is each compiled group's table (a file each, so that no file holds
    /// every operation) one after the other.
    pub const fn operation_count(groups: &[&[OperationInfo]]) -> usize {
        let (mut count, mut group) = (0, 0);
        while group < groups.len() {
            count += groups[group].len();
            group += 1;
        }
        count
    }

    /// `groups`' tables one after the other, in order, at compile time: a generated server's
    /// `OPERATIONS`. `N` is their [`operation_count`].
    ///
    /// # Panics
    ///
    /// When `N` is not their count (at compile time, in a constant).
    pub const fn concat_operations<const N: usize>(groups: &[&[OperationInfo]]) -> [OperationInfo; N] {
        assert!(operation_count(groups) == N, "N is not the count of the groups' operations");
        let mut all = [OperationInfo::BASE; N];
        let (mut group, mut next) = (0, 0);
        while group < groups.len() {
            let mut index = 0;
            while index < groups[group].len() {
                all[next] = groups[group][index];
                next += 1;
                index += 1;
            }
            group += 1;
        }
        all
    }
}

#[cfg(all(test, feature = "server"))]
mod tests {
    use super::server::{OperationInfo, concat_operations, operation_count};

    const FIRST: &[OperationInfo] =
        &[OperationInfo { name: "a", ..OperationInfo::BASE }, OperationInfo { name: "b", ..OperationInfo::BASE }];
    const SECOND: &[OperationInfo] = &[OperationInfo { name: "c", ..OperationInfo::BASE }];
    const GROUPS: &[&[OperationInfo]] = &[FIRST, &[], SECOND];
    const ALL: &[OperationInfo] = &concat_operations::<{ operation_count(GROUPS) }>(GROUPS);

    #[test]
    fn the_groups_tables_are_one_after_the_other_in_order() {
        let names: Vec<&str> = ALL.iter().map(|op| op.name).collect();
        assert_eq!(names, ["a", "b", "c"]);
        assert!(concat_operations::<0>(&[]).is_empty());
    }
}
