//! apigen run by a user on hostile input, one case at a time, each in a temporary directory:
//! input files that are not regular files or lead elsewhere (`inputs`), `apigen init` on
//! directories that hold something already or links (`init`), `apigen diff --base-rev` on
//! revisions whose trees hold odd names (`diff_rev`), and `apigen import` of documents built
//! to hang, blow up or delete (`import`).

mod common;
mod diff_rev;
mod import;
mod init;
mod inputs;
