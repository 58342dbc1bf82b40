//! What bounds a walk over the document's schemas ([`Walk`]): the references being expanded
//! and the compositions being merged (so loops stop), the merges remembered (so nesting stays
//! linear), and how many schemas one root may still visit.

use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// How many schemas one root (a component type, an operation) may visit.
pub(super) const SCHEMA_BUDGET: usize = 20_000;

/// The guards of the schema walk of one import.
pub(super) struct Walk {
    /// References being expanded, to stop at loops.
    pub expanding: Vec<String>,
    /// Compositions (allOf) being merged, by address, to stop at loops.
    pub merging: Vec<usize>,
    /// The references whose allOf parts are being merged, to stop at cycles.
    pub merge_path: Vec<String>,
    /// Each referenced schema merged with its allOf parts, merged once: a composition naming
    /// the next one twice, nested, is linear, not exponential.
    pub merged_refs: BTreeMap<String, Map<String, Value>>,
    /// Schemas one root (a component, an operation) may still visit: bounds the time and
    /// memory of documents whose schemas expand into each other.
    pub budget: usize,
}

impl Default for Walk {
    /// Guards for a new walk: nothing being expanded, the whole budget left.
    fn default() -> Self {
        Walk {
            expanding: Vec::new(),
            merging: Vec::new(),
            merge_path: Vec::new(),
            merged_refs: BTreeMap::new(),
            budget: SCHEMA_BUDGET,
        }
    }
}

impl Walk {
    /// A new root (a component, an operation): its own budget.
    pub fn start_root(&mut self) {
        self.budget = SCHEMA_BUDGET;
    }
}
