//! KataGo's rules as a struct of settings (`cpp/game/rules.cpp`), not as names: the net's
//! inputs and the replay depend on the settings, and several names share them. The settings
//! are the game's (`go::rules`) and two that only KataGo's search has (the button, friendly
//! passes).

use crate::go::rules::{HandicapBonus, KoRule, Scoring, Tax};

/// The rule settings of one KataGo query.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct KataRules {
    pub scoring: Scoring,
    pub tax: Tax,
    pub ko: KoRule,
    /// Whether a move may capture its own group of two or more stones. A single-stone
    /// suicide is never legal.
    pub multi_stone_suicide: bool,
    /// Whether the first pass earns half a point (AGA "button" Go).
    pub button: bool,
    pub white_handicap_bonus: HandicapBonus,
    /// Whether passing with dead stones still on the board is fine; KataGo then does not let
    /// a pass end an area-scored game during search.
    pub friendly_pass_ok: bool,
}

impl KataRules {
    /// Japanese and Korean rules: territory scoring, seki tax, simple ko.
    const TERRITORY: KataRules = KataRules {
        scoring: Scoring::Territory,
        tax: Tax::Seki,
        ko: KoRule::Simple,
        multi_stone_suicide: false,
        button: false,
        white_handicap_bonus: HandicapBonus::Zero,
        friendly_pass_ok: false,
    };
    /// Chinese rules: area scoring, simple ko.
    const AREA: KataRules = KataRules {
        scoring: Scoring::Area,
        tax: Tax::None,
        friendly_pass_ok: true,
        ..KataRules::TERRITORY
    };
    const AGA: KataRules = KataRules {
        ko: KoRule::Situational,
        ..KataRules::AREA
    };
    const NEW_ZEALAND: KataRules = KataRules {
        ko: KoRule::Situational,
        multi_stone_suicide: true,
        ..KataRules::AREA
    };

    /// The settings KataGo's analysis engine uses for a query with `"rules": name` and
    /// `"whiteHandicapBonus": "0"`, as livingblocks sends them: `japanese`, `korean`,
    /// `chinese`, `aga` or `new-zealand`. The bonus field of the query overrides the
    /// named ruleset's own (N for chinese, N-1 for aga).
    pub fn from_name(name: &str) -> Option<KataRules> {
        match name {
            "japanese" | "korean" => Some(KataRules::TERRITORY),
            "chinese" => Some(KataRules::AREA),
            "aga" => Some(KataRules::AGA),
            "new-zealand" => Some(KataRules::NEW_ZEALAND),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::rules::Ruleset;

    #[test]
    fn the_five_names_differ_where_katago_says() {
        let jp = KataRules::from_name("japanese").unwrap();
        assert_eq!(jp, KataRules::from_name("korean").unwrap());
        assert_eq!(
            (jp.scoring, jp.tax, jp.ko),
            (Scoring::Territory, Tax::Seki, KoRule::Simple)
        );
        let cn = KataRules::from_name("chinese").unwrap();
        assert_eq!(
            (cn.scoring, cn.tax, cn.ko),
            (Scoring::Area, Tax::None, KoRule::Simple)
        );
        let aga = KataRules::from_name("aga").unwrap();
        assert_eq!(
            (aga.ko, aga.multi_stone_suicide),
            (KoRule::Situational, false)
        );
        let nz = KataRules::from_name("new-zealand").unwrap();
        assert_eq!((nz.ko, nz.multi_stone_suicide), (KoRule::Situational, true));
        for r in [jp, cn, aga, nz] {
            assert_eq!(r.white_handicap_bonus, HandicapBonus::Zero);
            assert!(!r.button);
        }
        assert_eq!(KataRules::from_name("tromp-taylor"), None);
        // KataGo's settings are the rows' where the names are the same.
        for (r, kata) in [
            (Ruleset::Japanese, jp),
            (Ruleset::Chinese, cn),
            (Ruleset::Aga, aga),
            (Ruleset::Nz, nz),
        ] {
            let rules = r.rules();
            assert_eq!(
                (
                    Some(kata.scoring),
                    kata.tax,
                    kata.ko,
                    kata.multi_stone_suicide
                ),
                (rules.scoring, rules.tax, rules.ko, rules.suicide),
                "{r:?}"
            );
        }
    }
}
