//! Emission: the model becomes files, built in memory, then written or compared.
//!
//! Each emitter ([`types`], [`server`], [`client`], [`openapi`], [`reference`](mod@reference)) is a pure
//! function of the [`Api`] and the [`Options`]: the Rust ones give [`jobs::Job`]s (tokens to
//! print), the others text. This module runs them all on one queue into an [`Output`], which
//! [`output`] writes or checks and [`stamp`] records. Emitters share [`rust`] (building and
//! printing Rust), [`text`] (shared prose), [`escape`] and [`templates`]; none imports another.

pub mod client;
pub mod escape;
pub mod features;
pub mod jobs;
pub mod links;
pub mod openapi;
pub mod options;
pub mod output;
pub mod reference;
pub mod rust;
pub mod server;
pub mod stamp;
pub mod templates;
pub mod text;
pub mod types;

pub use options::{Options, Outputs, RUNTIME_VERSION, RuntimeSource, relative_path};
pub use output::{Drift, MARKER, Output, WriteError, WriteReport};
pub use stamp::{STAMP, fingerprint, printer, unchanged};

use crate::model::Api;
use std::path::Path;

/// Runs every emitter, printing every Rust file.
pub fn emit(api: &Api, options: &Options) -> Output {
    emit_reusing(api, options, &jobs::Reuse::nothing())
}

/// Runs every emitter for output going to `dir`: Rust files printed there by an earlier run
/// from the same tokens are reused (see [`jobs`]), so a change to the spec costs the printing
/// of the files it changes only.
pub fn emit_into(dir: &Path, api: &Api, options: &Options) -> Output {
    emit_reusing(api, options, &jobs::Reuse::from_dir(dir, &printer(api, options)))
}

/// Runs every emitter; a Rust file whose tokens are those `reuse` recorded is taken from disk
/// instead of printed again (see [`jobs`]). Every file of every emitter is one job on one
/// queue, so the threads stay busy until the last file.
pub fn emit_reusing(api: &Api, options: &Options, reuse: &jobs::Reuse) -> Output {
    let outputs = options.outputs;
    // Which groups need each type: the cargo features of the three crates.
    let reach = api.reach();
    let mut queue = vec![jobs::text(MARKER, || templates::gitattributes(api, options))];
    // The two largest single jobs go first, so no thread is left with one of them at the end.
    if outputs.openapi {
        queue.push(jobs::text("openapi.json", || openapi::emit(api, options)));
    }
    if outputs.reference {
        queue.push(jobs::text("REFERENCE.md", || reference::emit(api, options)));
    }
    if outputs.types {
        queue.extend(types::jobs(api, options, &reach));
    }
    if outputs.server {
        queue.extend(server::jobs(api, options, &reach));
    }
    if outputs.client {
        queue.extend(client::jobs(api, options, &reach));
    }
    let mut output = Output::default();
    jobs::run(queue, reuse, &mut output);
    let stamp = stamp::stamp(api, options, &output);
    output.add(STAMP, stamp);
    output
}
