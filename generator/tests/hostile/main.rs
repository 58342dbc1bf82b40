//! apigen run by a user on hostile input, one case at a time, each in a temporary directory:
//! input files that are not regular files or lead elsewhere (`inputs`), `apigen init` on
//! directories that hold something already or links (`init`), and `apigen diff --base-rev`
//! on revisions whose trees hold odd names (`diff_rev`).

mod common;
mod diff_rev;
mod init;
mod inputs;
