//! Spec edits as the diff fixtures write them (`tests/fixtures/diff/cases/NAME.edit`): `@ FILE`
//! selects a spec file, then a run of `-` lines (text that must occur exactly once, lines
//! joined) followed by `+` lines (its replacement, possibly empty). Lines starting with `#` are
//! comments. Used by the diff fixtures and by the diff fuzzing, which combines them.

use std::fs;
use std::path::Path;

/// One replacement: `old` must occur exactly once in `file`.
#[derive(Debug, Clone)]
pub struct Edit {
    /// The spec file, relative to the spec directory.
    pub file: String,
    /// The text replaced.
    pub old: String,
    /// Its replacement.
    pub new: String,
}

/// The edits of an edit file's text.
pub fn parse(text: &str) -> Vec<Edit> {
    let mut edits: Vec<Edit> = Vec::new();
    let mut file = String::new();
    let mut previous = ' ';
    for line in text.lines() {
        let (mark, rest) = line.split_at(line.len().min(1));
        let rest = rest.strip_prefix(' ').unwrap_or(rest);
        match mark {
            "@" => file = rest.to_owned(),
            "-" if previous == '-' => edits.last_mut().unwrap().old.push_str(&format!("\n{rest}")),
            "-" => edits.push(Edit { file: file.clone(), old: rest.to_owned(), new: String::new() }),
            "+" => {
                let edit = edits.last_mut().expect("`+` without `-`");
                if previous == '+' {
                    edit.new.push('\n');
                }
                edit.new.push_str(rest);
            }
            "#" | "" => {}
            other => panic!("unknown edit line `{other}{rest}`"),
        }
        previous = mark.chars().next().unwrap_or(' ');
    }
    edits
}

/// Applies `edits` to the spec in `dir`, in order; the first whose text does not occur exactly
/// once stops it.
pub fn apply(edits: &[Edit], dir: &Path) -> Result<(), String> {
    for edit in edits {
        let path = dir.join(&edit.file);
        let text = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", edit.file))?;
        match text.matches(&edit.old).count() {
            1 => fs::write(&path, text.replacen(&edit.old, &edit.new, 1)).unwrap(),
            n => return Err(format!("{}: `{}` occurs {n} times, not once", edit.file, edit.old)),
        }
    }
    Ok(())
}
