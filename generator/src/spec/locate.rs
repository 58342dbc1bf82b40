//! Finds the line of a spec path in a YAML text.
//!
//! serde_yaml's `Value` carries no positions, so semantic errors found after parsing would
//! only have a spec path. This walks the block structure of the text (indentation, `key:`,
//! `- ` items) to find the line a path points at. It is best effort: for flow collections
//! (`{ a: 1 }`) it stops at the line holding the collection, which is still the right line.

use crate::diag::{Segment, SpecPath};

/// A line of the text with what the walk needs to know about it.
struct Line<'a> {
    /// 1-based number.
    number: usize,
    /// Column of the first character that is not a space.
    indent: usize,
    /// The text from `indent` on.
    text: &'a str,
}

/// The lines of a text that carry YAML (not blank, not comments), indexed once per file so
/// locating many paths stays cheap.
#[derive(Debug, Clone, Default)]
pub struct LineIndex {
    /// (1-based number, indent, byte range of the text after the indent).
    lines: Vec<(usize, usize, std::ops::Range<usize>)>,
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
                lines.push((i + 1, indent, offset + indent..offset + raw.len()));
            }
            offset += raw.len() + 1;
        }
        LineIndex { lines }
    }

    /// The 1-based line and column where `path` starts in `text` (the text this index was
    /// built from), or the position of its deepest ancestor found.
    pub fn locate(&self, text: &str, path: &SpecPath) -> Option<(usize, usize)> {
        let lines: Vec<Line<'_>> = self
            .lines
            .iter()
            .map(|(number, indent, range)| Line { number: *number, indent: *indent, text: &text[range.clone()] })
            .collect();
        locate_lines(&lines, path)
    }
}

/// Returns the 1-based line and column where `path` starts in `text`, or the position of its
/// deepest ancestor found.
pub fn locate(text: &str, path: &SpecPath) -> Option<(usize, usize)> {
    LineIndex::new(text).locate(text, path)
}

fn locate_lines(lines: &[Line<'_>], path: &SpecPath) -> Option<(usize, usize)> {
    // The block being searched: lines [start, end) whose indent is above `parent_indent`.
    let (mut start, mut end) = (0, lines.len());
    let mut parent_indent: Option<usize> = None;
    let mut found = None;
    for segment in path.segments() {
        let hit = match segment {
            Segment::Key(key) => find_key(&lines[start..end], parent_indent, key),
            Segment::Index(index) => find_item(&lines[start..end], parent_indent, *index),
        };
        let Some((offset, block_indent)) = hit else {
            break;
        };
        let at = start + offset;
        let column = match segment {
            Segment::Key(_) => block_indent,
            Segment::Index(_) => block_indent + 2,
        };
        found = Some((lines[at].number, column + 1));
        // The entry's children are the following lines indented deeper than its key (or its
        // dash). An item `- key: value` holds its first key on its own line, so the search
        // into an item starts at the item's line.
        let is_key = matches!(segment, Segment::Key(_));
        let child_end = lines[at + 1..end]
            .iter()
            // YAML lets a list sit at its key's own indent (`params:` then `- page`).
            .position(|l| l.indent < block_indent || (l.indent == block_indent && !(is_key && l.text.starts_with('-'))))
            .map_or(end, |p| at + 1 + p);
        start = if is_key { at + 1 } else { at };
        end = child_end;
        parent_indent = Some(block_indent);
    }
    found
}

/// Finds `key:` among the direct children of a block; returns (line offset, key column).
fn find_key(lines: &[Line<'_>], parent_indent: Option<usize>, key: &str) -> Option<(usize, usize)> {
    let child_indent = direct_child_indent(lines, parent_indent)?;
    for (offset, line) in lines.iter().enumerate() {
        // A `- ` item at the parent's column may start with a key (`- name: x`).
        let (column, text) = match line.text.strip_prefix("- ") {
            Some(rest) => (line.indent + 2, rest.trim_start()),
            None => (line.indent, line.text),
        };
        if column != child_indent {
            continue;
        }
        if key_of(text) == Some(key) {
            return Some((offset, column));
        }
    }
    None
}

/// Finds the `index`-th `- ` item among the direct children of a block; returns (line
/// offset, column of its dash).
fn find_item(lines: &[Line<'_>], parent_indent: Option<usize>, index: usize) -> Option<(usize, usize)> {
    let child_indent = lines
        .iter()
        .filter(|l| l.text.starts_with('-'))
        .map(|l| l.indent)
        .find(|&i| parent_indent.is_none_or(|p| i >= p))?;
    lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.indent == child_indent && l.text.starts_with('-'))
        .nth(index)
        .map(|(offset, l)| (offset, l.indent))
}

/// The indentation of the first line that is a child of the block.
fn direct_child_indent(lines: &[Line<'_>], parent_indent: Option<usize>) -> Option<usize> {
    lines.iter().map(|l| l.indent).find(|&i| parent_indent.is_none_or(|p| i > p))
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
