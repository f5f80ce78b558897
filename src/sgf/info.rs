//! Game-information properties kept as raw text: the CSV shows what the record says, and the
//! scoring layer parses it later, counting what it cannot read rather than guessing.

use sgf_parse::go::Prop;
use sgf_parse::SgfNode;

/// Raw RE, KM, RU, HA, DT, PB, PW, EV, PC (and PL, SZ for the replay); empty when absent.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameInfo {
    pub re: String,
    pub km: String,
    pub ru: String,
    pub ha: String,
    pub dt: String,
    pub pb: String,
    pub pw: String,
    pub ev: String,
    pub pc: String,
}

impl GameInfo {
    /// Reads the first occurrence of each property along the main line (game-info properties
    /// belong in the root, but some editors put them in the first move nodes).
    pub fn from_main_line(root: &SgfNode<Prop>) -> GameInfo {
        let mut info = GameInfo::default();
        for node in root.main_variation() {
            for prop in node.properties() {
                let (slot, value) = match prop {
                    Prop::RE(t) => (&mut info.re, t.text.clone()),
                    Prop::KM(v) => (&mut info.km, v.to_string()),
                    Prop::RU(t) => (&mut info.ru, t.text.clone()),
                    Prop::HA(v) => (&mut info.ha, v.to_string()),
                    Prop::DT(t) => (&mut info.dt, t.text.clone()),
                    Prop::PB(t) => (&mut info.pb, t.text.clone()),
                    Prop::PW(t) => (&mut info.pw, t.text.clone()),
                    Prop::EV(t) => (&mut info.ev, t.text.clone()),
                    Prop::PC(t) => (&mut info.pc, t.text.clone()),
                    Prop::Invalid(id, values) => match id.as_str() {
                        "RE" => (&mut info.re, values.join(",")),
                        "KM" => (&mut info.km, values.join(",")),
                        "RU" => (&mut info.ru, values.join(",")),
                        "HA" => (&mut info.ha, values.join(",")),
                        "DT" => (&mut info.dt, values.join(",")),
                        "PB" => (&mut info.pb, values.join(",")),
                        "PW" => (&mut info.pw, values.join(",")),
                        "EV" => (&mut info.ev, values.join(",")),
                        "PC" => (&mut info.pc, values.join(",")),
                        _ => continue,
                    },
                    _ => continue,
                };
                if slot.is_empty() {
                    *slot = value;
                }
            }
        }
        info
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_values_are_kept() {
        let root = sgf_parse::go::parse("(;RE[W+6半]KM[6.5]HA[1]PB[秀策]DT[1846-09-11];B[aa])")
            .unwrap()
            .remove(0);
        let info = GameInfo::from_main_line(&root);
        assert_eq!(info.re, "W+6半");
        assert_eq!(info.km, "6.5");
        // HA[1] is not a valid handicap for sgf-parse; the raw text survives anyway.
        assert_eq!(info.ha, "1");
        assert_eq!(info.pb, "秀策");
        assert_eq!(info.dt, "1846-09-11");
        assert_eq!(info.ru, "");
    }
}
