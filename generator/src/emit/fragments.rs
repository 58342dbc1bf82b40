//! The files of the whole API (`openapi.json`, `REFERENCE.md`), assembled from fragments: one
//! per path of operations or per type, each keyed by what it reads of the model (the shared
//! part and its operations: [`super::inputs::Digests::fragment_key`]). After one operation
//! changed, the file is made again (it reads every operation), but each fragment whose key is
//! the one an earlier run wrote is copied from that run's file instead of built, so the file
//! costs what changed plus the copying.
//!
//! Where an earlier run put each fragment is its *index* (key, start and length in the file),
//! remembered with the file in the cache ([`crate::out::cache`]); the earlier text is the file
//! on disk, taken only when it hashes to what that run wrote ([`super::Printed::fragments`]). A
//! fragment's text is a pure function of its key and its place (each kind is always at the same
//! depth), so the file assembled has the bytes of one built whole (tested against an empty
//! cache after each kind of edit).

use std::collections::BTreeMap;

/// The keys of an assembled file's fragments and what an earlier run made of them.
pub trait Fragments: Sync {
    /// The key of a fragment of `kind` reading the shared part of the model, the operations at
    /// these positions and `extra` (whatever else it reads, as text); `None` when fragments
    /// are not kept (a plain [`super::emit`]).
    fn key(&self, kind: &str, operations: &[usize], extra: &str) -> Option<String>;

    /// The text an earlier run made of the fragment keyed `key`, if it is at hand.
    fn earlier(&self, key: &str) -> Option<&str>;
}

/// No keys: every fragment is built.
pub struct Unkeyed;

impl Fragments for Unkeyed {
    fn key(&self, _: &str, _: &[usize], _: &str) -> Option<String> {
        None
    }

    fn earlier(&self, _: &str) -> Option<&str> {
        None
    }
}

/// A file being assembled, with where each keyed fragment is in it.
pub struct Assembly<'f> {
    text: String,
    index: Vec<(String, usize, usize)>,
    fragments: &'f dyn Fragments,
    done: FragmentsDone,
}

/// A file assembled: its text and its fragments' index (see [`Index`]).
pub struct Assembled {
    /// The file's text.
    pub text: String,
    /// Where each keyed fragment is in `text`, as [`Index::of`] reads it.
    pub index: String,
    /// How many fragments were taken from an earlier run and how many built.
    pub done: FragmentsDone,
}

/// How many fragments of assembled files were taken from an earlier run's file and how many
/// were built: what the tests of the edit loop observe ([`crate::emit::jobs::fragments_done`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FragmentsDone {
    /// Taken from the earlier file.
    pub taken: usize,
    /// Built.
    pub built: usize,
}

impl<'f> Assembly<'f> {
    /// An empty file, its fragments keyed (and reused) through `fragments`.
    pub fn new(fragments: &'f dyn Fragments) -> Self {
        Assembly {
            text: String::with_capacity(64 * 1024),
            index: Vec::new(),
            fragments,
            done: FragmentsDone::default(),
        }
    }

    /// The keys and earlier fragments this assembly uses.
    pub fn fragments(&self) -> &'f dyn Fragments {
        self.fragments
    }

    /// The text so far.
    pub fn text(&mut self) -> &mut String {
        &mut self.text
    }

    /// Appends the fragment keyed `key` (unkeyed: `None`): an earlier run's text of it, or
    /// what `make` appends.
    pub fn fragment(&mut self, key: Option<String>, make: impl FnOnce(&mut String)) {
        let start = self.text.len();
        match key.as_deref().and_then(|key| self.fragments.earlier(key)) {
            Some(earlier) => {
                self.text.push_str(earlier);
                self.done.taken += 1;
            }
            None => {
                make(&mut self.text);
                self.done.built += 1;
            }
        }
        if let Some(key) = key {
            self.index.push((key, start, self.text.len() - start));
        }
    }

    /// The file and its index.
    pub fn finish(self) -> Assembled {
        let index = self.index.iter().map(|(key, start, len)| format!("{key}:{start}:{len}")).collect::<Vec<_>>();
        Assembled { text: self.text, index: index.join(","), done: self.done }
    }
}

/// An earlier run's file and where each of its fragments is.
pub struct Index {
    text: String,
    ranges: BTreeMap<String, std::ops::Range<usize>>,
}

impl Index {
    /// The fragments of `text` that `index` (as [`Assembly::finish`] writes it) names; an entry
    /// that does not read, or names no text of `text`, is left out.
    pub fn of(text: String, index: &str) -> Self {
        let ranges = index
            .split(',')
            .filter_map(|entry| {
                let mut parts = entry.split(':');
                let key = parts.next()?;
                let start: usize = parts.next()?.parse().ok()?;
                let end = start.checked_add(parts.next()?.parse().ok()?)?;
                (parts.next().is_none() && text.get(start..end).is_some()).then(|| (key.to_owned(), start..end))
            })
            .collect();
        Index { text, ranges }
    }

    /// The text of the fragment keyed `key`.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.text.get(self.ranges.get(key)?.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Keys(Option<Index>);

    impl Fragments for Keys {
        fn key(&self, kind: &str, operations: &[usize], extra: &str) -> Option<String> {
            Some(format!("{kind}{operations:?}{extra}").replace([',', ':', ' ', '[', ']'], ""))
        }
        fn earlier(&self, key: &str) -> Option<&str> {
            self.0.as_ref()?.get(key)
        }
    }

    #[test]
    fn fragments_are_taken_from_an_earlier_file_by_key() {
        let assemble = |keys: &Keys, second: &str| {
            let mut assembly = Assembly::new(keys);
            assembly.text().push_str("head ");
            assembly.fragment(keys.key("a", &[1], ""), |out| out.push_str("made a"));
            assembly.fragment(keys.key("b", &[2], ""), |out| out.push_str(second));
            assembly.finish()
        };
        let first = assemble(&Keys(None), "made b");
        assert_eq!(first.text, "head made amade b");
        assert_eq!(first.index, "a1:5:6,b2:11:6");
        let later = Keys(Some(Index::of(first.text.clone(), &first.index)));
        let again = assemble(&later, "made anew");
        assert_eq!(again.text, first.text, "both fragments taken as they were");
        assert_eq!((first.done.built, again.done.taken, again.done.built), (2, 2, 0));
        // An index naming text past the end, or not reading, names nothing.
        let broken = Index::of("short".to_owned(), "a1:2:99,b2:x:1,c3:0:5:1,d4:1:2");
        assert_eq!(
            (broken.get("a1"), broken.get("b2"), broken.get("c3"), broken.get("d4")),
            (None, None, None, Some("ho"))
        );
    }
}
