//! KataGo's rules as settings (`cpp/game/rules.cpp`), not as names: the net's inputs and
//! the replay depend on the settings, and several names share them. The game's settings are
//! `go::rules`' own rows; KataGo adds two that only its search has (the button, friendly
//! passes).

use crate::go::rules::{HandicapBonus, Rules, Ruleset, Scoring};

/// The rule settings of one KataGo query: a ruleset of `go::rules` whose scoring is known,
/// and KataGo's own two.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct KataRules {
    /// Scoring, tax, ko, whether a move may capture its own group of two or more stones (a
    /// single-stone suicide is never legal), and the handicap bonus.
    pub game: Rules,
    /// Whether the first pass earns half a point (AGA "button" Go).
    pub button: bool,
    /// Whether passing with dead stones still on the board is fine; KataGo then does not let
    /// a pass end an area-scored game during search.
    pub friendly_pass_ok: bool,
}

impl KataRules {
    /// The settings KataGo's analysis engine uses for a query with `"rules": name` and
    /// `"whiteHandicapBonus": "0"`, as livingblocks sends them: `japanese`, `korean`,
    /// `chinese`, `aga` or `new-zealand`, each `go::rules`' row of that name. The bonus
    /// field of the query overrides the named ruleset's own (N for chinese, N-1 for aga).
    pub fn from_name(name: &str) -> Option<KataRules> {
        let ruleset = match name {
            "japanese" => Ruleset::Japanese,
            "korean" => Ruleset::Korean,
            "chinese" => Ruleset::Chinese,
            "aga" => Ruleset::Aga,
            "new-zealand" => Ruleset::Nz,
            _ => return None,
        };
        let game = Rules {
            handicap_bonus: HandicapBonus::Zero,
            ..ruleset.rules()
        };
        let area = game.scoring? == Scoring::Area;
        Some(KataRules {
            game,
            button: false,
            friendly_pass_ok: area,
        })
    }

    /// How the game is scored: always known, `from_name` takes no ruleset without.
    pub fn scoring(&self) -> Scoring {
        self.game
            .scoring
            .expect("a KataGo ruleset names its scoring")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The settings of each name as KataGo's `cpp/game/rules.cpp` gives them.
    #[test]
    fn the_five_names_differ_where_katago_says() {
        use crate::go::rules::{KoRule, Tax};
        let settings = |name| {
            let r = KataRules::from_name(name).unwrap();
            (
                r.scoring(),
                r.game.tax,
                r.game.ko,
                r.game.suicide,
                r.friendly_pass_ok,
            )
        };
        use KoRule::{Simple, Situational};
        use Scoring::{Area, Territory};
        assert_eq!(
            settings("japanese"),
            (Territory, Tax::Seki, Simple, false, false)
        );
        assert_eq!(settings("korean"), settings("japanese"));
        assert_eq!(settings("chinese"), (Area, Tax::None, Simple, false, true));
        assert_eq!(settings("aga"), (Area, Tax::None, Situational, false, true));
        assert_eq!(
            settings("new-zealand"),
            (Area, Tax::None, Situational, true, true)
        );
        for name in ["japanese", "korean", "chinese", "aga", "new-zealand"] {
            let r = KataRules::from_name(name).unwrap();
            assert_eq!(r.game.handicap_bonus, HandicapBonus::Zero);
            assert!(!r.button);
        }
        assert_eq!(KataRules::from_name("tromp-taylor"), None);
    }
}
