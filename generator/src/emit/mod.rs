//! Emission: the model becomes files in memory, and nothing else.
//!
//! Each emitter ([`types`], [`server`], [`client`], [`openapi`], [`reference`](mod@reference)) is a pure
//! function of the [`Api`] and the [`Options`]: the Rust ones give [`jobs::Job`]s (tokens to
//! print), the others text. This module runs them all on one queue into an [`Output`], which
//! the output directory's room ([`crate::out`]) stamps, writes or checks. Emitters share
//! [`rust`] (building and printing Rust), [`text`] (shared prose), [`escape`] and
//! [`templates`]; none imports another. Nothing here reads or writes the disk.

pub mod client;
pub mod escape;
pub mod features;
pub mod fragments;
pub mod inputs;
pub mod jobs;
pub mod links;
pub mod openapi;
pub mod options;
pub mod output;
pub mod reference;
pub mod rust;
pub mod server;
pub mod short_paths;
pub mod templates;
pub mod text;
pub mod types;

pub use jobs::{Nothing, Printed};
pub use options::{Options, Outputs, RUNTIME_VERSION, RuntimeSource, relative_path};
pub use output::{MARKER, Output};

use crate::model::Api;

/// Runs every emitter, printing every Rust file.
pub fn emit(api: &Api, options: &Options) -> Output {
    emit_reusing(api, options, &Nothing)
}

/// Runs every emitter; a Rust file whose tokens an earlier run printed (as `printed` says) is
/// taken from there instead of printed again (see [`jobs`]), so a change to the spec costs the
/// printing of the files it changes only. Every file of every emitter is one job on one queue,
/// so the threads stay busy until the last file.
pub fn emit_reusing(api: &Api, options: &Options, printed: &dyn Printed) -> Output {
    emit_reporting(api, options, printed, &crate::progress::Silent)
}

/// [`emit_reusing`], reporting each file printed to `progress`.
pub fn emit_reporting(
    api: &Api,
    options: &Options,
    printed: &dyn Printed,
    progress: &dyn crate::progress::Progress,
) -> Output {
    emit_into(api, options, printed, &jobs::Keep, progress)
}

/// [`emit_reporting`], handing each file to `sink` as soon as it is done (see [`jobs::Sink`]).
pub fn emit_into(
    api: &Api,
    options: &Options,
    printed: &dyn Printed,
    sink: &dyn jobs::Sink,
    progress: &dyn crate::progress::Progress,
) -> Output {
    let outputs = options.outputs;
    // Which groups need each type: the cargo features of the three crates.
    let reach = api.reach();
    let mut queue = vec![jobs::text(MARKER, || templates::gitattributes(api, options))];
    // The two largest single jobs go first, so no thread is left with one of them at the end.
    if outputs.openapi {
        queue.push(jobs::assembled("openapi.json", |fragments| openapi::assemble(api, options, fragments)));
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
    let digests = inputs::Digests::of(api, options, &reach);
    let mut output = Output::default();
    jobs::run_reporting(queue, &digests, printed, sink, &mut output, progress);
    output
}
