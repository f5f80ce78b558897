//! Games met before: each game's key (`go::GameKey`) against the keys of the games before it
//! in input order, so that the first copy of a game counts and the later ones name it. A run
//! and `merge` both feed it the games in input order, so shards resolve as one run does.
//!
//! It keeps, per distinct game, its two keys, its length and where it was first met: a few
//! dozen bytes, the file name shared by the games of a file.

use std::collections::HashMap;
use std::sync::Arc;

use crate::go::GameKey;

/// How a game repeats the first copy it names.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DuplicateKind {
    /// The same moves (up to the board's symmetries and passes).
    Same,
    /// The same first `go::key::OPENING` moves; one record has fewer moves.
    Prefix,
    /// The same first `go::key::OPENING` moves and as many moves, not all of them the same:
    /// one game, transcribed differently.
    Variant,
}

impl DuplicateKind {
    pub const ALL: [DuplicateKind; 3] = [
        DuplicateKind::Same,
        DuplicateKind::Prefix,
        DuplicateKind::Variant,
    ];

    /// The name games.csv `duplicate_kind` writes.
    pub fn as_str(self) -> &'static str {
        match self {
            DuplicateKind::Same => "same",
            DuplicateKind::Prefix => "prefix",
            DuplicateKind::Variant => "variant",
        }
    }
}

/// The first copy a game repeats.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Duplicate {
    pub file: Arc<str>,
    pub game: usize,
    pub kind: DuplicateKind,
}

/// A game met first.
struct First {
    file: Arc<str>,
    game: usize,
    key: GameKey,
}

/// The games met so far.
#[derive(Default)]
pub struct Duplicates {
    firsts: Vec<First>,
    by_whole: HashMap<u64, u32>,
    by_opening: HashMap<u64, u32>,
    /// The last file name given, shared by its games.
    file: Option<Arc<str>>,
}

impl Duplicates {
    /// Game `game` of `file`, with key `key`: the first copy it repeats, if any; otherwise
    /// it is remembered as a first copy.
    pub fn meet(&mut self, file: &str, game: usize, key: &GameKey) -> Option<Duplicate> {
        let found = self
            .by_whole
            .get(&key.whole)
            .or_else(|| key.opening.and_then(|o| self.by_opening.get(&o)));
        if let Some(&i) = found {
            let first = &self.firsts[i as usize];
            let kind = if first.key.whole == key.whole {
                DuplicateKind::Same
            } else if first.key.moves != key.moves {
                DuplicateKind::Prefix
            } else {
                DuplicateKind::Variant
            };
            return Some(Duplicate {
                file: first.file.clone(),
                game: first.game,
                kind,
            });
        }
        let name = match &self.file {
            Some(f) if &**f == file => f.clone(),
            _ => {
                let f: Arc<str> = Arc::from(file);
                self.file = Some(f.clone());
                f
            }
        };
        let i = self.firsts.len() as u32;
        self.by_whole.insert(key.whole, i);
        if let Some(o) = key.opening {
            self.by_opening.insert(o, i);
        }
        self.firsts.push(First {
            file: name,
            game,
            key: *key,
        });
        None
    }

    /// Distinct games met.
    pub fn distinct(&self) -> usize {
        self.firsts.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(whole: u64, opening: Option<u64>, moves: u32) -> GameKey {
        GameKey {
            whole,
            opening,
            moves,
        }
    }

    #[test]
    fn later_copies_name_the_first() {
        let mut d = Duplicates::default();
        assert_eq!(d.meet("a.sgf", 0, &key(1, Some(10), 200)), None);
        assert_eq!(d.meet("a.sgf", 1, &key(2, None, 40)), None);
        let same = d.meet("b.sgf", 0, &key(1, Some(10), 200)).unwrap();
        assert_eq!(
            (&*same.file, same.game, same.kind),
            ("a.sgf", 0, DuplicateKind::Same)
        );
        let cut = d.meet("c.sgf", 3, &key(3, Some(10), 150)).unwrap();
        assert_eq!((&*cut.file, cut.kind), ("a.sgf", DuplicateKind::Prefix));
        let other = d.meet("d.sgf", 0, &key(4, Some(10), 200)).unwrap();
        assert_eq!(other.kind, DuplicateKind::Variant);
        // A short game repeats only whole.
        assert_eq!(d.meet("e.sgf", 0, &key(2, None, 40)).unwrap().game, 1);
        assert_eq!(d.meet("e.sgf", 1, &key(5, None, 40)), None);
        assert_eq!(d.distinct(), 3);
    }
}
