//! Hand-written support shared by generated crates.
