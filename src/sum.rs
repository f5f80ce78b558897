//! Totals that add up: the tally of a run's rows is the sum of the tallies of its parts (chunks,
//! shards), so `merge` and a parallel run give what one run over everything gives. A struct
//! declared with `summable!` sums field by field, so a new field cannot be left out of the sum.

use std::collections::BTreeMap;

use crate::life::PerMethod;
use crate::score::PerSource;

/// A total that adds another of its kind: `a.add_all(&b)` is the total of `a`'s rows followed
/// by `b`'s.
pub trait Summable {
    fn add_all(&mut self, other: &Self);
    /// Takes `other`, added before, away again: the sums as if it had never been added (a
    /// game found, at the end of a run, to be a copy of another).
    fn take_away(&mut self, other: &Self);
    /// Whether nothing is counted: a map's entry that is is dropped, as if never made.
    fn is_nothing(&self) -> bool;
}

macro_rules! counts {
    ($($t:ty),*) => {$(
        impl Summable for $t {
            fn add_all(&mut self, other: &Self) {
                *self += *other;
            }
            fn take_away(&mut self, other: &Self) {
                *self -= *other;
            }
            fn is_nothing(&self) -> bool {
                *self == 0
            }
        }
    )*};
}
counts!(u32, u64);

impl<A: Summable, B: Summable> Summable for (A, B) {
    fn add_all(&mut self, other: &Self) {
        self.0.add_all(&other.0);
        self.1.add_all(&other.1);
    }
    fn take_away(&mut self, other: &Self) {
        self.0.take_away(&other.0);
        self.1.take_away(&other.1);
    }
    fn is_nothing(&self) -> bool {
        self.0.is_nothing() && self.1.is_nothing()
    }
}

impl<T: Summable, const N: usize> Summable for [T; N] {
    fn add_all(&mut self, other: &Self) {
        for (a, b) in self.iter_mut().zip(other) {
            a.add_all(b);
        }
    }
    fn take_away(&mut self, other: &Self) {
        for (a, b) in self.iter_mut().zip(other) {
            a.take_away(b);
        }
    }
    fn is_nothing(&self) -> bool {
        self.iter().all(Summable::is_nothing)
    }
}

/// Counts by key: a key of either side is in the sum.
impl<K: Ord + Clone, V: Summable + Default> Summable for BTreeMap<K, V> {
    fn add_all(&mut self, other: &Self) {
        for (k, v) in other {
            self.entry(k.clone()).or_default().add_all(v);
        }
    }
    fn take_away(&mut self, other: &Self) {
        for (k, v) in other {
            if let Some(mine) = self.get_mut(k) {
                mine.take_away(v);
                if mine.is_nothing() {
                    self.remove(k);
                }
            }
        }
    }
    fn is_nothing(&self) -> bool {
        self.is_empty()
    }
}

/// Listed items (games, blocks) in row order: the first part's, then the second's.
impl<T: Clone + PartialEq> Summable for Vec<T> {
    fn add_all(&mut self, other: &Self) {
        self.extend_from_slice(other);
    }
    /// Each item of `other` once, where it was added.
    fn take_away(&mut self, other: &Self) {
        for item in other {
            if let Some(i) = self.iter().rposition(|x| x == item) {
                self.remove(i);
            }
        }
    }
    fn is_nothing(&self) -> bool {
        self.is_empty()
    }
}

impl<T: Summable> Summable for PerMethod<T> {
    fn add_all(&mut self, other: &Self) {
        self.0.add_all(&other.0);
    }
    fn take_away(&mut self, other: &Self) {
        self.0.take_away(&other.0);
    }
    fn is_nothing(&self) -> bool {
        self.0.is_nothing()
    }
}

impl<T: Summable> Summable for PerSource<T> {
    fn add_all(&mut self, other: &Self) {
        self.0.add_all(&other.0);
    }
    fn take_away(&mut self, other: &Self) {
        self.0.take_away(&other.0);
    }
    fn is_nothing(&self) -> bool {
        self.0.is_nothing()
    }
}

/// A property of the key a total is filed under (a big eye's worth, given by its shape): every
/// part gives the same, so the sum keeps the one it has, or takes the other's.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Same<T>(pub T);

impl<T: Clone + Default + PartialEq> Summable for Same<T> {
    fn add_all(&mut self, other: &Self) {
        if self.0 == T::default() {
            self.0.clone_from(&other.0);
        }
    }
    /// The value stays: every part that set it set the same.
    fn take_away(&mut self, _: &Self) {}
    /// A value alone counts nothing.
    fn is_nothing(&self) -> bool {
        true
    }
}

/// Declares a struct and its `Summable` impl, which adds every field: the field list is
/// written once.
macro_rules! summable {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $($(#[$field_meta:meta])* $field_vis:vis $field:ident: $ty:ty,)*
        }
    ) => {
        $(#[$meta])*
        $vis struct $name {
            $($(#[$field_meta])* $field_vis $field: $ty,)*
        }

        impl $crate::sum::Summable for $name {
            fn add_all(&mut self, other: &Self) {
                $($crate::sum::Summable::add_all(&mut self.$field, &other.$field);)*
            }
            fn take_away(&mut self, other: &Self) {
                $($crate::sum::Summable::take_away(&mut self.$field, &other.$field);)*
            }
            fn is_nothing(&self) -> bool {
                true $(&& $crate::sum::Summable::is_nothing(&self.$field))*
            }
        }
    };
}
pub(crate) use summable;

#[cfg(test)]
mod tests {
    use super::*;

    summable! {
        #[derive(Clone, Debug, Default, PartialEq)]
        struct Totals {
            games: u64,
            by_rules: BTreeMap<String, (u64, u64)>,
            per_colour: [u64; 2],
            listed: Vec<&'static str>,
            worth: Same<(u32, u32)>,
        }
    }

    fn totals(games: u64, rules: &str, listed: &'static str) -> Totals {
        Totals {
            games,
            by_rules: BTreeMap::from([(rules.to_string(), (games, 1))]),
            per_colour: [games, 2 * games],
            listed: vec![listed],
            worth: Same((1, 2)),
        }
    }

    #[test]
    fn every_field_is_summed() {
        let mut a = totals(2, "japanese", "a");
        a.add_all(&totals(3, "chinese", "b"));
        a.add_all(&totals(1, "japanese", "c"));
        assert_eq!(
            a,
            Totals {
                games: 6,
                by_rules: BTreeMap::from([
                    ("chinese".to_string(), (3, 1)),
                    ("japanese".to_string(), (3, 2)),
                ]),
                per_colour: [6, 12],
                listed: vec!["a", "b", "c"],
                worth: Same((1, 2)),
            }
        );
    }

    /// A part taken away leaves the sum of the others, entries it alone made dropped.
    #[test]
    fn a_part_taken_away_leaves_the_others() {
        let mut a = totals(2, "japanese", "a");
        a.add_all(&totals(3, "chinese", "b"));
        a.add_all(&totals(1, "japanese", "c"));
        a.take_away(&totals(3, "chinese", "b"));
        let mut want = totals(2, "japanese", "a");
        want.add_all(&totals(1, "japanese", "c"));
        assert_eq!(a, want);
        a.take_away(&want);
        assert!(a.is_nothing());
    }

    #[test]
    fn the_empty_total_adds_nothing() {
        let mut a = Totals::default();
        a.add_all(&totals(2, "aga", "x"));
        assert_eq!(a, totals(2, "aga", "x"));
        let mut b = totals(2, "aga", "x");
        b.add_all(&Totals::default());
        assert_eq!(b, totals(2, "aga", "x"));
    }
}
