//! The rules of Go as a struct of settings, as KataGo keeps them (`cpp/game/rules.h`): what a
//! count counts, how repetition and suicide are treated, what a handicap is worth. A named
//! ruleset is one row of `RULESETS`, so that code asks a setting ("does it count area?"),
//! never a name, and a new ruleset is one more row.

/// What the score counts.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Scoring {
    /// Stones plus surrounded points.
    Area,
    /// Surrounded points plus prisoners.
    Territory,
}

/// Points a group must pay for its eyes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Tax {
    None,
    /// Points inside a seki do not count.
    Seki,
    /// As `Seki`, and every living group also pays two points.
    All,
}

/// Which repetitions are forbidden.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum KoRule {
    /// Only the immediate recapture of a single stone.
    Simple,
    /// No whole-board position may repeat.
    Positional,
    /// No position may repeat with the same player to move.
    Situational,
}

/// Extra komi White receives for Black's handicap stones.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum HandicapBonus {
    Zero,
    /// One point per handicap stone.
    N,
    /// One point per handicap stone after the first.
    NMinusOne,
}

/// The name of a row of `RULESETS`, as the `rules` column writes it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Ruleset {
    Japanese,
    Chinese,
    Aga,
    Nz,
    Ing,
    Korean,
    /// No RU, or one not understood.
    Unknown,
}

impl Ruleset {
    pub const ALL: [Ruleset; 7] = [
        Ruleset::Japanese,
        Ruleset::Chinese,
        Ruleset::Aga,
        Ruleset::Nz,
        Ruleset::Ing,
        Ruleset::Korean,
        Ruleset::Unknown,
    ];

    /// The ruleset a `rules` cell names.
    pub fn named(name: &str) -> Option<Ruleset> {
        Ruleset::ALL.into_iter().find(|r| r.as_str() == name)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Ruleset::Japanese => "japanese",
            Ruleset::Chinese => "chinese",
            Ruleset::Aga => "aga",
            Ruleset::Nz => "nz",
            Ruleset::Ing => "ing",
            Ruleset::Korean => "korean",
            Ruleset::Unknown => "unknown",
        }
    }

    /// The ruleset's settings: its row of `RULESETS`.
    pub const fn rules(self) -> Rules {
        RULESETS[self as usize]
    }
}

/// A ruleset: its name, kept because the outputs write it, and its settings. The count reads
/// `scoring`, `handicap_bonus` and `fixed_komi`; ko, tax and suicide say what the ruleset
/// is, for whoever replays or asks an engine under it.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Rules {
    pub name: Ruleset,
    /// `None` when the rules are unknown: a count is then held against RE under both.
    pub scoring: Option<Scoring>,
    pub tax: Tax,
    pub ko: KoRule,
    /// Whether a move may take its own block of two or more stones.
    pub suicide: bool,
    pub handicap_bonus: HandicapBonus,
    /// The komi of an even game whatever its era (Ing: 8); `None` when it changed over the
    /// years (`score::rules::customary_komi`).
    pub fixed_komi: Option<f32>,
}

impl Rules {
    pub fn as_str(self) -> &'static str {
        self.name.as_str()
    }
}

/// Every named ruleset, in the order of `Ruleset` (checked as the crate builds). The
/// settings are KataGo's for the same name (`cpp/game/rules.cpp`); Ing's komi is its own.
#[rustfmt::skip]
pub const RULESETS: [Rules; 7] = {
    use HandicapBonus::{NMinusOne, Zero, N};
    use KoRule::{Positional, Simple, Situational};
    use Ruleset::*;
    use Scoring::{Area, Territory};
    [
        //  name      scoring          tax        ko           suicide bonus      fixed komi
        row(Japanese, Some(Territory), Tax::Seki, Simple,      false,  Zero,      None),
        row(Chinese,  Some(Area),      Tax::None, Simple,      false,  N,         None),
        row(Aga,      Some(Area),      Tax::None, Situational, false,  NMinusOne, None),
        row(Nz,       Some(Area),      Tax::None, Situational, true,   Zero,      None),
        row(Ing,      Some(Area),      Tax::None, Positional,  true,   Zero,      Some(8.0)),
        row(Korean,   Some(Territory), Tax::Seki, Simple,      false,  Zero,      None),
        row(Unknown,  None,            Tax::None, Simple,      false,  Zero,      None),
    ]
};

const _: () = {
    let mut i = 0;
    while i < RULESETS.len() {
        assert!(
            RULESETS[i].name as usize == i,
            "RULESETS is not in Ruleset's order"
        );
        i += 1;
    }
};

/// A row of `RULESETS`, its fields in their order.
const fn row(
    name: Ruleset,
    scoring: Option<Scoring>,
    tax: Tax,
    ko: KoRule,
    suicide: bool,
    handicap_bonus: HandicapBonus,
    fixed_komi: Option<f32>,
) -> Rules {
    Rules {
        name,
        scoring,
        tax,
        ko,
        suicide,
        handicap_bonus,
        fixed_komi,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_name_has_its_row() {
        for r in RULESETS {
            assert_eq!(r.name.rules(), r);
        }
        assert_eq!(
            Ruleset::Korean.rules().scoring,
            Ruleset::Japanese.rules().scoring
        );
        assert_eq!(Ruleset::Unknown.rules().scoring, None);
        assert_eq!(Ruleset::Ing.rules().as_str(), "ing");
    }
}
