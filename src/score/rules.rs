//! The rules and komi a game is counted under, from what its record says: RU and KM when
//! given, else inferred from the komi's form, the place and the event, and a missing komi
//! from the era (scoring-spec §1). A policy of the scorer, not of the SGF reader: RE is never
//! one of its inputs.

use crate::go::rules::{Rules, Ruleset, Scoring};
use crate::sgf::result::{
    komi_looks_like_stones, parse_handicap, parse_komi, parse_result, parse_rules, GameResult, How,
    Winner,
};
use crate::sgf::GameInfo;

/// What a record says about its game, read from its raw properties.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct RecordInfo {
    /// `None` when the record has no RE.
    pub result: Option<GameResult>,
    /// Komi in points: KM, doubled when KM is given in stones under area counting, or the
    /// komi customary for the game's era when KM is missing (`komi_source`).
    pub komi: f32,
    pub komi_source: KomiSource,
    /// The komi has a quarter fraction, as Chinese komi counted in stones has (3.75 for 7.5
    /// points): see `komi_looks_like_stones`.
    pub komi_in_stones: bool,
    /// The rules the game is counted under: RU's, else inferred from the record.
    pub rules: Rules,
    pub rules_source: RulesSource,
    pub handicap: u32,
}

/// Where a game's komi comes from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum KomiSource {
    /// The record's KM.
    Km,
    /// No KM: the komi customary for the year in DT and the rules (`customary_komi`).
    Era,
    /// No KM, and nothing to infer it from (no year, or a handicap game): 0.
    Default,
}

impl KomiSource {
    pub fn as_str(self) -> &'static str {
        match self {
            KomiSource::Km => "KM",
            KomiSource::Era => "inferred:era",
            KomiSource::Default => "default",
        }
    }
}

/// Where the rules a game is counted under come from. RE is never one of them.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RulesSource {
    /// The record's RU.
    Ru,
    /// KM's value or form: komi in stones or 7.5 points (Chinese), 8 points (Ing).
    Komi,
    /// PC names a place in China.
    Place,
    /// EV names an Ing or a Chinese event, or one that kept its own rules wherever it was
    /// held (the Fujitsu Cup: Japanese).
    Event,
    /// Nothing tells: territory counting, as most collections count.
    Default,
}

impl RulesSource {
    pub fn as_str(self) -> &'static str {
        match self {
            RulesSource::Ru => "RU",
            RulesSource::Komi => "inferred:komi",
            RulesSource::Place => "inferred:place",
            RulesSource::Event => "inferred:event",
            RulesSource::Default => "default",
        }
    }
}

impl RecordInfo {
    /// Whether RE says the game was counted (a margin, or a draw): the games whose final
    /// position is scored against RE.
    pub fn counted(&self) -> bool {
        self.result
            .as_ref()
            .is_some_and(|res| res.how == How::Score || res.winner == Winner::Draw)
    }

    pub fn read(info: &GameInfo) -> RecordInfo {
        let (km, from_km) = parse_komi(&info.km);
        let handicap = parse_handicap(&info.ha);
        let in_stones = from_km && komi_looks_like_stones(km);
        let (rules, rules_source) = match parse_rules(&info.ru) {
            r if r.name == Ruleset::Unknown => {
                infer_rules(from_km.then_some(km), &info.ev, &info.pc)
            }
            r => (r, RulesSource::Ru),
        };
        let area = rules.scoring == Some(Scoring::Area);
        let (komi, komi_source) = if from_km {
            (
                if in_stones && area { 2.0 * km } else { km },
                KomiSource::Km,
            )
        } else {
            match year(&info.dt).filter(|_| handicap < 2) {
                Some(y) => (customary_komi(y, rules, &info.pc), KomiSource::Era),
                None => (0.0, KomiSource::Default),
            }
        };
        RecordInfo {
            result: (!info.re.trim().is_empty()).then(|| parse_result(&info.re)),
            komi,
            komi_source,
            komi_in_stones: in_stones,
            rules,
            rules_source,
            handicap,
        }
    }
}

/// The rules of a record without RU, from its komi, place and event, in that order.
fn infer_rules(km: Option<f32>, ev: &str, pc: &str) -> (Rules, RulesSource) {
    if let Some(k) = km {
        if komi_looks_like_stones(k) || k == 7.5 {
            return (Ruleset::Chinese.rules(), RulesSource::Komi);
        }
        if k == 8.0 {
            return (Ruleset::Ing.rules(), RulesSource::Komi);
        }
    }
    // 6.5 is the komi of territory rules (Japan and Korea since 2003, Korea since 1999);
    // Chinese rules never used it: such a game held in China is played under its event's
    // territory rules.
    let territory_komi = km == Some(6.5);
    let ev_words = words(ev);
    // The Fujitsu Cup kept Japanese rules wherever a round was held (its Beijing finals of
    // the 5.5-komi years included).
    if ev_words.iter().any(|w| w == "fujitsu") {
        return (Ruleset::Japanese.rules(), RulesSource::Event);
    }
    if in_china(pc) && !territory_komi {
        return (Ruleset::Chinese.rules(), RulesSource::Place);
    }
    if ev_words.iter().any(|w| w == "ing") || ev.contains("应氏") || ev.contains("應氏") {
        return (Ruleset::Ing.rules(), RulesSource::Event);
    }
    if pc.trim().is_empty() && in_china(ev) && !territory_komi {
        return (Ruleset::Chinese.rules(), RulesSource::Event);
    }
    (Ruleset::Japanese.rules(), RulesSource::Default)
}

/// Lower-case words of a text, split at anything not alphanumeric.
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Whether a place or an event's name points to China: the country, its main cities, its
/// association, or the leagues and cups played under Chinese rules.
fn in_china(text: &str) -> bool {
    const NAMES: &[&str] = &[
        "china",
        "chinese",
        "beijing",
        "shanghai",
        "qiyuan",
        "zhongguo",
        "chengdu",
        "hangzhou",
        "guangzhou",
        "chongqing",
        "shenzhen",
        "tianjin",
        "wuhan",
        "chunlan",
        "tianfu",
        "mlily",
        "jiangsu",
        "zhejiang",
        "sichuan",
        "fujian",
        "guiyang",
        "xian",
        "nanjing",
        "jiayi",
    ];
    let w = words(text);
    w.iter().any(|x| NAMES.contains(&x.as_str()))
        || ["中国", "中國", "北京", "上海"]
            .iter()
            .any(|s| text.contains(s))
}

/// The first four-digit year in DT.
pub fn year(dt: &str) -> Option<u32> {
    let b = dt.as_bytes();
    b.windows(4)
        .enumerate()
        .find(|(k, w)| {
            w.iter().all(u8::is_ascii_digit)
                && (*k == 0 || !b[k - 1].is_ascii_digit())
                && b.get(k + 4).is_none_or(|c| !c.is_ascii_digit())
        })
        .and_then(|(_, w)| std::str::from_utf8(w).ok()?.parse().ok())
}

/// The komi of an even game of `year` under `rules`, as professional play set it: none
/// before 1939; the ruleset's own where it fixes one (Ing 8); area counting 5.5 to 2001,
/// 7.5 since (Chinese); territory counting 4.5 to 1973, 5.5 to 2002 (Korea 1999), 6.5 since.
pub fn customary_komi(year: u32, rules: Rules, pc: &str) -> f32 {
    let korea = words(pc)
        .iter()
        .any(|w| ["korea", "seoul", "daejeon", "busan", "kiwon"].contains(&w.as_str()));
    match (rules.fixed_komi, rules.scoring) {
        _ if year < 1939 => 0.0,
        (Some(komi), _) => komi,
        (None, Some(Scoring::Area)) if year < 2002 => 5.5,
        (None, Some(Scoring::Area)) => 7.5,
        _ if year < 1974 => 4.5,
        _ if year < 1999 || (year < 2003 && !korea) => 5.5,
        _ => 6.5,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The record read from KM, RU, HA, DT, EV and PC: `(rules, rules source, komi, komi
    /// source)`.
    fn record(
        km: &str,
        ru: &str,
        ha: &str,
        dt: &str,
        ev: &str,
        pc: &str,
    ) -> (Ruleset, &'static str, f32, &'static str) {
        let info = crate::sgf::GameInfo {
            km: km.into(),
            ru: ru.into(),
            ha: ha.into(),
            dt: dt.into(),
            ev: ev.into(),
            pc: pc.into(),
            ..Default::default()
        };
        let r = RecordInfo::read(&info);
        (
            r.rules.name,
            r.rules_source.as_str(),
            r.komi,
            r.komi_source.as_str(),
        )
    }

    #[test]
    fn rules_come_from_ru_else_from_komi_place_and_event() {
        use Ruleset::*;
        assert_eq!(record("6.5", "Japanese", "", "", "", "Beijing").0, Japanese);
        assert_eq!(record("6.5", "Japanese", "", "", "", "").1, "RU");
        assert_eq!(record("7.5", "", "", "", "", "").1, "inferred:komi");
        assert_eq!(record("7.5", "", "", "", "", "").0, Chinese);
        assert_eq!(record("8", "", "", "", "", "").0, Ing);
        // Komi in stones: Chinese, and the komi counts double in points.
        let (rules, source, komi, _) = record("3.75", "", "", "", "", "");
        assert_eq!((rules, source, komi), (Chinese, "inferred:komi", 7.5));
        assert_eq!(
            record("5.5", "", "", "", "", "Zhongguo Qiyuan, Beijing").1,
            "inferred:place"
        );
        assert_eq!(record("5.5", "", "", "", "5th Ing Cup", "").0, Ing);
        assert_eq!(
            record("5.5", "", "", "", "1st Chunlan Cup", "").1,
            "inferred:event"
        );
        // An event with rules of its own keeps them in China.
        let fujitsu = record("5.5", "", "", "", "4th Fujitsu Cup", "Beijing, China");
        assert_eq!((fujitsu.0, fujitsu.1), (Japanese, "inferred:event"));
        // A Chinese event played elsewhere is counted as the place counts.
        assert_eq!(
            record("6.5", "", "", "", "China-Japan Agon", "Tokyo").0,
            Japanese
        );
        // "Beijing" holds "ing": only the word counts.
        assert_eq!(
            record("6.5", "", "", "", "Beijing Evening News", "Tokyo").1,
            "default"
        );
        assert_eq!(
            record("6.5", "", "", "", "Meijin", "Nihon Ki-in").0,
            Japanese
        );
    }

    #[test]
    fn a_missing_komi_is_the_one_customary_for_the_era() {
        assert_eq!(record("", "", "", "1930", "", "").2, 0.0);
        assert_eq!(record("", "", "", "1930", "", "").3, "inferred:era");
        assert_eq!(record("", "", "", "1965-03-01", "", "").2, 4.5);
        assert_eq!(record("", "", "", "1985", "", "").2, 5.5);
        assert_eq!(record("", "", "", "2000", "", "Seoul, Korea").2, 6.5);
        assert_eq!(record("", "", "", "2000", "", "Tokyo").2, 5.5);
        assert_eq!(record("", "", "", "2010", "", "").2, 6.5);
        assert_eq!(record("", "", "", "1995", "", "Beijing").2, 5.5);
        assert_eq!(record("", "", "", "2010", "", "Beijing").2, 7.5);
        // No year, or a handicap game: 0, said to be the default.
        assert_eq!(record("", "", "", "", "", "").3, "default");
        assert_eq!(record("", "", "3", "1985", "", "").3, "default");
        assert_eq!(record("0", "", "", "1985", "", "").3, "KM");
        // A year is four digits standing alone.
        assert_eq!(year("1985-03-01"), Some(1985));
        assert_eq!(year("Showa 60 (1985)"), Some(1985));
        assert_eq!(year("19850301"), None);
    }
}
