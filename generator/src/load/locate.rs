//! Finds the line of a spec path in a YAML text.
//!
//! serde_yaml's `Value` carries no positions, so semantic errors found after parsing would
//! only have a spec path. This walks the block structure of the text (indentation, `key:`,
//! `- ` items) to find the line a path points at. It is best effort: for flow collections
//! (`{ a: 1 }`) it stops at the line holding the collection, which is still the right line.

use crate::diag::{Segment, SpecPath};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// A line of the text that carries YAML (not blank, not a comment).
#[derive(Debug, Clone)]
struct Line {
    /// 1-based number.
    number: usize,
    /// Column of the first character that is not a space.
    indent: usize,
    /// Byte range of the text from `indent` on.
    range: std::ops::Range<usize>,
}

/// A block of lines being searched: lines `[start, end)` whose indent is above `parent`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Block {
    start: usize,
    end: usize,
    parent: Option<usize>,
}

/// Where a child of a block is: its line (index into the lines), its column and the block of
/// its own children.
#[derive(Debug, Clone, Copy)]
struct Child {
    at: usize,
    column: usize,
    children: Block,
}

/// The direct children of one block: keys by name (the first of each), `- ` items in order.
#[derive(Debug, Default)]
struct Children {
    keys: HashMap<String, Child>,
    items: Vec<Child>,
}

/// The lines of a text that carry YAML, indexed once per file, and the children of every
/// block searched so far, so locating many paths costs one scan per block instead of one
/// scan of the file per path (lowering locates every element it reads).
#[derive(Debug, Default)]
pub struct LineIndex {
    lines: Vec<Line>,
    blocks: Mutex<HashMap<Block, Arc<Children>>>,
}

impl Clone for LineIndex {
    fn clone(&self) -> Self {
        LineIndex { lines: self.lines.clone(), blocks: Mutex::default() }
    }
}

impl LineIndex {
    /// Indexes `text`.
    pub fn new(text: &str) -> Self {
        let mut lines = Vec::new();
        let mut offset = 0;
        for (i, raw) in text.split('\n').enumerate() {
            let trimmed = raw.trim_start_matches(' ');
            let indent = raw.len() - trimmed.len();
            if !(trimmed.trim().is_empty() || trimmed.starts_with('#')) {
                lines.push(Line { number: i + 1, indent, range: offset + indent..offset + raw.len() });
            }
            offset += raw.len() + 1;
        }
        LineIndex { lines, blocks: Mutex::default() }
    }

    /// The 1-based line and column where `path` starts in `text` (the text this index was
    /// built from), or the position of its deepest ancestor found.
    pub fn locate(&self, text: &str, path: &SpecPath) -> Option<(usize, usize)> {
        let mut block = Block { start: 0, end: self.lines.len(), parent: None };
        let mut found = None;
        for segment in path.segments() {
            let children = self.children(text, block);
            let hit = match segment {
                Segment::Key(key) => children.keys.get(key.as_str()),
                Segment::Index(index) => children.items.get(*index),
            };
            let Some(child) = hit else {
                break;
            };
            found = Some((self.lines[child.at].number, child.column + 1));
            block = child.children;
        }
        found
    }

    /// The children of `block`, scanned on first use.
    fn children(&self, text: &str, block: Block) -> Arc<Children> {
        // A poisoned cache only means a panic elsewhere; its entries are still whole.
        let mut blocks = self.blocks.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        blocks.entry(block).or_insert_with(|| Arc::new(self.scan(text, block))).clone()
    }

    fn scan(&self, text: &str, block: Block) -> Children {
        let lines = &self.lines[block.start..block.end];
        let line_text = |line: &Line| &text[line.range.clone()];
        let mut children = Children::default();
        if let Some(key_indent) = lines.iter().map(|l| l.indent).find(|&i| block.parent.is_none_or(|p| i > p)) {
            for (offset, line) in lines.iter().enumerate() {
                // A `- ` item at the parent's column may start with a key (`- name: x`).
                let (column, rest) = match line_text(line).strip_prefix("- ") {
                    Some(rest) => (line.indent + 2, rest.trim_start()),
                    None => (line.indent, line_text(line)),
                };
                if column != key_indent {
                    continue;
                }
                if let Some(key) = key_of(rest)
                    && !children.keys.contains_key(key)
                {
                    let at = block.start + offset;
                    let child = Child { at, column, children: self.below(text, at, column, block.end, true) };
                    children.keys.insert(key.to_owned(), child);
                }
            }
        }
        let is_item = |line: &Line| line_text(line).starts_with('-');
        let item_indent =
            lines.iter().filter(|l| is_item(l)).map(|l| l.indent).find(|&i| block.parent.is_none_or(|p| i >= p));
        if let Some(item_indent) = item_indent {
            for (offset, line) in lines.iter().enumerate() {
                if line.indent == item_indent && is_item(line) {
                    let at = block.start + offset;
                    let children_block = self.below(text, at, item_indent, block.end, false);
                    children.items.push(Child { at, column: item_indent + 2, children: children_block });
                }
            }
        }
        children
    }

    /// The block of an entry's children: the following lines indented deeper than its key
    /// (or its dash). An item `- key: value` holds its first key on its own line, so the
    /// block of an item starts at the item's line.
    fn below(&self, text: &str, at: usize, indent: usize, end: usize, is_key: bool) -> Block {
        let child_end = self.lines[at + 1..end]
            .iter()
            // YAML lets a list sit at its key's own indent (`params:` then `- page`).
            .position(|l| {
                l.indent < indent || (l.indent == indent && !(is_key && text[l.range.clone()].starts_with('-')))
            })
            .map_or(end, |p| at + 1 + p);
        Block { start: if is_key { at + 1 } else { at }, end: child_end, parent: Some(indent) }
    }
}

/// Returns the 1-based line and column where `path` starts in `text`, or the position of its
/// deepest ancestor found.
pub fn locate(text: &str, path: &SpecPath) -> Option<(usize, usize)> {
    LineIndex::new(text).locate(text, path)
}

/// The key of a `key: value` or `key:` line, unquoted.
fn key_of(text: &str) -> Option<&str> {
    let (key, _) = if let Some(rest) = text.strip_prefix('"') {
        let close = rest.find('"')?;
        (&rest[..close], &rest[close + 1..])
    } else if let Some(rest) = text.strip_prefix('\'') {
        let close = rest.find('\'')?;
        (&rest[..close], &rest[close + 1..])
    } else {
        let colon = text.find(':')?;
        let after = &text[colon + 1..];
        if !(after.is_empty() || after.starts_with(' ')) {
            return None;
        }
        (&text[..colon], after)
    };
    Some(key.trim())
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "\
types:
  Collection:
    description: A collection.
    fields:
      id: { type: string }
      title:
        type: string
        max_length: 50
operations:
  listThings:
    params:
      - page
      - name: nested
        in: query
";

    fn at(path: &SpecPath) -> Option<(usize, usize)> {
        locate(TEXT, path)
    }

    #[test]
    fn finds_nested_keys() {
        let fields = SpecPath::root().key("types").key("Collection").key("fields");
        assert_eq!(at(&fields.key("id")), Some((5, 7)));
        assert_eq!(at(&fields.key("title").key("max_length")), Some((8, 9)));
    }

    #[test]
    fn finds_list_items_and_keys_inside_them() {
        let params = SpecPath::root().key("operations").key("listThings").key("params");
        assert_eq!(at(&params.index(0)), Some((12, 9)));
        assert_eq!(at(&params.index(1)), Some((13, 9)));
        assert_eq!(at(&params.index(1).key("in")), Some((14, 9)));
    }

    #[test]
    fn stops_at_the_deepest_ancestor_found() {
        let path = SpecPath::root().key("types").key("Collection").key("fields").key("id").key("type");
        assert_eq!(at(&path), Some((5, 7)), "a flow mapping is located by its line");
        assert_eq!(at(&SpecPath::root().key("types").key("Missing")), Some((1, 1)));
        assert_eq!(at(&SpecPath::root().key("nothing")), None);
    }
}
