//! RE, KM, RU, HA read into values (scoring-spec §1). Every form met in real collections is
//! understood, CJK ones included; what is not understood is marked unparsed and never
//! guessed. The raw text stays in the CSV beside the parsed columns.

/// Who won.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Winner {
    Black,
    White,
    Draw,
    /// No winner: void, unfinished, suspended, both lost.
    Nobody,
    /// Not recorded, or not readable (`?`, `X+`, an unparsed text).
    Unknown,
}

impl Winner {
    pub fn as_str(self) -> &'static str {
        match self {
            Winner::Black => "B",
            Winner::White => "W",
            Winner::Draw => "draw",
            Winner::Nobody => "none",
            Winner::Unknown => "unknown",
        }
    }
}

/// How the game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum How {
    Score,
    Resign,
    Time,
    Forfeit,
    Other,
    Unknown,
}

impl How {
    pub fn as_str(self) -> &'static str {
        match self {
            How::Score => "score",
            How::Resign => "resign",
            How::Time => "time",
            How::Forfeit => "forfeit",
            How::Other => "other",
            How::Unknown => "unknown",
        }
    }
}

/// A parsed RE.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct GameResult {
    pub winner: Winner,
    pub how: How,
    /// Points, for a counted result with a readable margin.
    pub margin: Option<f32>,
    /// False when the text matched no known form.
    pub parsed: bool,
}

impl GameResult {
    fn new(winner: Winner, how: How, margin: Option<f32>) -> GameResult {
        GameResult {
            winner,
            how,
            margin,
            parsed: true,
        }
    }

    const UNPARSED: GameResult = GameResult {
        winner: Winner::Unknown,
        how: How::Unknown,
        margin: None,
        parsed: false,
    };
}

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

    pub fn read(info: &super::GameInfo) -> RecordInfo {
        let (km, from_km) = parse_komi(&info.km);
        let handicap = parse_handicap(&info.ha);
        let in_stones = from_km && komi_looks_like_stones(km);
        let (rules, rules_source) = match parse_rules(&info.ru) {
            Rules::Unknown => infer_rules(from_km.then_some(km), &info.ev, &info.pc),
            r => (r, RulesSource::Ru),
        };
        let area = matches!(rules, Rules::Chinese | Rules::Aga | Rules::Nz | Rules::Ing);
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
            return (Rules::Chinese, RulesSource::Komi);
        }
        if k == 8.0 {
            return (Rules::Ing, RulesSource::Komi);
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
        return (Rules::Japanese, RulesSource::Event);
    }
    if in_china(pc) && !territory_komi {
        return (Rules::Chinese, RulesSource::Place);
    }
    if ev_words.iter().any(|w| w == "ing") || ev.contains("应氏") || ev.contains("應氏") {
        return (Rules::Ing, RulesSource::Event);
    }
    if pc.trim().is_empty() && in_china(ev) && !territory_komi {
        return (Rules::Chinese, RulesSource::Event);
    }
    (Rules::Japanese, RulesSource::Default)
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
/// before 1939; Japanese and Korean 4.5 to 1973, 5.5 to 2002 (Korea 1999), 6.5 since;
/// Chinese 5.5 to 2001, 7.5 since; Ing 8.
pub fn customary_komi(year: u32, rules: Rules, pc: &str) -> f32 {
    let korea = words(pc)
        .iter()
        .any(|w| ["korea", "seoul", "daejeon", "busan", "kiwon"].contains(&w.as_str()));
    match rules {
        _ if year < 1939 => 0.0,
        Rules::Ing => 8.0,
        Rules::Chinese | Rules::Aga | Rules::Nz if year < 2002 => 5.5,
        Rules::Chinese | Rules::Aga | Rules::Nz => 7.5,
        _ if year < 1974 => 4.5,
        _ if year < 1999 || (year < 2003 && !korea) => 5.5,
        _ => 6.5,
    }
}

/// Reads RE.
pub fn parse_result(raw: &str) -> GameResult {
    let t = raw.trim();
    let lower = t.to_lowercase();
    let l = lower.as_str();
    use How::*;
    use Winner::*;
    match l {
        "" | "?" | "unknown" => return GameResult::new(Winner::Unknown, How::Unknown, None),
        "0" | "draw" | "jigo" | "和" | "和棋" | "持碁" | "무승부" => {
            return GameResult::new(Draw, Score, Some(0.0))
        }
        "void" | "no result" | "无胜负" | "無勝負" => {
            return GameResult::new(Nobody, Other, None)
        }
        "unfinished" | "left unfinished" | "game suspended" | "suspended" | "has adjourned."
        | "打挂" | "打掛" => return GameResult::new(Nobody, Other, None),
        "both lost" => return GameResult::new(Nobody, Forfeit, None),
        _ => {}
    }
    // "White resigns. W 12 B 30": what follows is a count at the moment of resignation.
    if l.starts_with("white resigns.") {
        return GameResult::new(Black, Resign, None);
    }
    if l.starts_with("black resigns.") {
        return GameResult::new(White, Resign, None);
    }
    if let Some(r) = parse_cjk(t) {
        return r;
    }
    let (winner, rest) = match l.split_once('+') {
        Some((w, rest)) => (w.trim(), rest.trim()),
        None => (l, ""),
    };
    let winner = match winner {
        "b" | "black" => Black,
        "w" | "white" => White,
        "x" | "y" => Winner::Unknown,
        _ => return GameResult::UNPARSED,
    };
    // A trailing parenthetical remark does not change the result.
    let rest = match rest.find('(') {
        Some(i) if rest.ends_with(')') => rest[..i].trim(),
        _ => rest,
    };
    let how = match rest {
        "" => return GameResult::new(winner, How::Unknown, None),
        "r" | "resign" | "resignation" => Resign,
        "t" | "time" | "timeout" => Time,
        "f" | "forfeit" | "illegal" | "bye" => Forfeit,
        _ => match parse_margin(rest) {
            Some(m) => return GameResult::new(winner, Score, Some(m)),
            // A counted result whose margin is marked uncertain (`B+3?`): the winner stands.
            None if rest.trim_end_matches('?').parse::<f32>().is_ok() => {
                return GameResult::new(winner, Score, None)
            }
            None => return GameResult::UNPARSED,
        },
    };
    GameResult::new(winner, how, None)
}

/// `3`, `3.5`, `.5`, `3 1/2`, `3半`, `3½`.
fn parse_margin(s: &str) -> Option<f32> {
    let s = s.trim();
    let (s, half) = match s.strip_suffix('半').or_else(|| s.strip_suffix('½')) {
        Some(rest) => (rest.trim(), 0.5),
        None => (s, 0.0),
    };
    if let Some((whole, frac)) = s.split_once(' ') {
        let (n, d) = frac.split_once('/')?;
        let (n, d): (f32, f32) = (n.parse().ok()?, d.parse().ok()?);
        return (d != 0.0).then(|| whole.parse::<f32>().ok().map(|w| w + n / d + half))?;
    }
    let v: f32 = s.parse().ok()?;
    (v.is_finite() && v >= 0.0).then_some(v + half)
}

/// Chinese, Japanese and Korean forms: 黑中盘胜 (B+R), 白胜3又3/4子, 白1/4子胜, 黒中押し勝,
/// 白3目半勝, 흑 불계승, 백 6집반승, 黑超时胜 …
fn parse_cjk(t: &str) -> Option<GameResult> {
    let s: String = t.chars().filter(|c| !c.is_whitespace()).collect();
    let (winner, rest) = if let Some(r) = s.strip_prefix('黑').or_else(|| s.strip_prefix('黒')) {
        (Winner::Black, r)
    } else if let Some(r) = s.strip_prefix('白') {
        (Winner::White, r)
    } else if let Some(r) = s.strip_prefix('흑') {
        (Winner::Black, r)
    } else if let Some(r) = s.strip_prefix('백') {
        (Winner::White, r)
    } else {
        return None;
    };
    let has = |words: &[&str]| words.iter().any(|w| rest.contains(w));
    if has(&["中盘", "中盤", "中押", "불계"]) {
        return Some(GameResult::new(winner, How::Resign, None));
    }
    if has(&["超时", "超時", "時間切れ", "시간"]) {
        return Some(GameResult::new(winner, How::Time, None));
    }
    if has(&["不战", "不戰", "不戦", "기권"]) {
        return Some(GameResult::new(winner, How::Forfeit, None));
    }
    let body: String = rest
        .chars()
        .filter(|c| !matches!(c, '胜' | '勝' | '승' | '又'))
        .collect();
    if body.is_empty() {
        return Some(GameResult::new(winner, How::Unknown, None));
    }
    // Stones (子): Chinese counting, one stone = two points.
    if let Some(n) = body.strip_suffix('子') {
        return Some(GameResult::new(winner, How::Score, Some(stones(n)? * 2.0)));
    }
    // Points (目, 집), with 半/반 for a half.
    let body = body.replace('반', "半");
    let (n, half) = match body
        .strip_suffix("目半")
        .or_else(|| body.strip_suffix("집半"))
    {
        Some(n) => (n, 0.5),
        None => (
            body.strip_suffix('目')
                .or_else(|| body.strip_suffix('집'))
                .or_else(|| body.strip_suffix("点"))?,
            0.0,
        ),
    };
    let v: f32 = n.parse().ok()?;
    Some(GameResult::new(winner, How::Score, Some(v + half)))
}

/// `3`, `1/4`, `3又3/4` (又 removed), `3.25` stones.
fn stones(n: &str) -> Option<f32> {
    if let Some((w, f)) = n.split_once('/') {
        // "33/4" after removing 又 is ambiguous; the whole part is all but the last digit.
        let d: f32 = f.parse().ok()?;
        let (whole, num) = if w.len() > 1 {
            (
                w[..w.len() - 1].parse::<f32>().ok()?,
                w[w.len() - 1..].parse::<f32>().ok()?,
            )
        } else {
            (0.0, w.parse::<f32>().ok()?)
        };
        return (d != 0.0).then_some(whole + num / d);
    }
    n.parse().ok()
}

/// Rules, as a family: the scoring method follows.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Rules {
    Japanese,
    Chinese,
    Aga,
    Nz,
    Ing,
    Korean,
    Unknown,
}

impl Rules {
    pub fn as_str(self) -> &'static str {
        match self {
            Rules::Japanese => "japanese",
            Rules::Chinese => "chinese",
            Rules::Aga => "aga",
            Rules::Nz => "nz",
            Rules::Ing => "ing",
            Rules::Korean => "korean",
            Rules::Unknown => "unknown",
        }
    }
}

/// Reads RU. Tromp-Taylor counts area and allows suicide, like New Zealand rules.
pub fn parse_rules(raw: &str) -> Rules {
    let l = raw.trim().to_lowercase();
    let has = |w: &[&str]| w.iter().any(|x| l.contains(x));
    if has(&["japan", "jpn", "uchikomi", "日本"]) || l == "jp" || l == "j" {
        Rules::Japanese
    } else if has(&["chin", "中国", "中國"]) || l == "cn" || l == "c" {
        Rules::Chinese
    } else if has(&["aga", "american"]) {
        Rules::Aga
    } else if has(&["new zealand", "tromp", "taylor"]) || l == "nz" {
        Rules::Nz
    } else if has(&["ing", "goe", "应氏", "應氏"]) {
        Rules::Ing
    } else if has(&["korea", "한국"]) || l == "kr" {
        Rules::Korean
    } else {
        Rules::Unknown
    }
}

/// Reads KM: `(komi, from_km)`; absent or unreadable means 0, not from KM.
pub fn parse_komi(raw: &str) -> (f32, bool) {
    match raw.trim().parse::<f32>() {
        Ok(v) if v.is_finite() => (v, true),
        _ => (0.0, false),
    }
}

/// Komi that looks given in stones, as some Chinese records do (`KM[2.75]` = 5.5 points,
/// `KM[3.75]` = 7.5): a quarter fraction below 5.
pub fn komi_looks_like_stones(komi: f32) -> bool {
    let frac = (komi.abs() * 4.0).round() / 4.0 - komi.abs().floor();
    (frac == 0.25 || frac == 0.75) && komi.abs() < 5.0
}

/// Reads HA; absent or unreadable means 0.
pub fn parse_handicap(raw: &str) -> u32 {
    raw.trim().parse().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use How::*;
    use Winner::*;

    /// The record read from KM, RU, HA, DT, EV and PC: `(rules, rules source, komi, komi
    /// source)`.
    fn record(
        km: &str,
        ru: &str,
        ha: &str,
        dt: &str,
        ev: &str,
        pc: &str,
    ) -> (Rules, &'static str, f32, &'static str) {
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
            r.rules,
            r.rules_source.as_str(),
            r.komi,
            r.komi_source.as_str(),
        )
    }

    #[test]
    fn rules_come_from_ru_else_from_komi_place_and_event() {
        use Rules::*;
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

    fn re(s: &str) -> (Winner, How, Option<f32>, bool) {
        let r = parse_result(s);
        (r.winner, r.how, r.margin, r.parsed)
    }

    #[test]
    fn standard_forms() {
        assert_eq!(re("B+3.5"), (Black, Score, Some(3.5), true));
        assert_eq!(re("W+0.5"), (White, Score, Some(0.5), true));
        assert_eq!(re("B+R"), (Black, Resign, None, true));
        assert_eq!(re("W+Resign"), (White, Resign, None, true));
        assert_eq!(re("B+T"), (Black, Time, None, true));
        assert_eq!(re("W+time"), (White, Time, None, true));
        assert_eq!(re("B+F"), (Black, Forfeit, None, true));
        assert_eq!(re("0"), (Draw, Score, Some(0.0), true));
        assert_eq!(re("Jigo"), (Draw, Score, Some(0.0), true));
        assert_eq!(re("Void"), (Nobody, Other, None, true));
        assert_eq!(re("?"), (Winner::Unknown, How::Unknown, None, true));
    }

    #[test]
    fn forms_seen_in_the_pro_collection() {
        assert_eq!(re("B+"), (Black, How::Unknown, None, true));
        assert_eq!(re("X+"), (Winner::Unknown, How::Unknown, None, true));
        assert_eq!(re("Unfinished"), (Nobody, Other, None, true));
        assert_eq!(re("Game suspended"), (Nobody, Other, None, true));
        assert_eq!(re("B+Illegal"), (Black, Forfeit, None, true));
        assert_eq!(re("B+bye"), (Black, Forfeit, None, true));
        assert_eq!(re("Both lost"), (Nobody, Forfeit, None, true));
        assert_eq!(re("White resigns."), (Black, Resign, None, true));
        assert_eq!(re("Black resigns. W 3 B 12"), (White, Resign, None, true));
        assert_eq!(re("W+6半"), (White, Score, Some(6.5), true));
        assert_eq!(re("W+.5"), (White, Score, Some(0.5), true));
        assert_eq!(re("B+3 1/2"), (Black, Score, Some(3.5), true));
        assert_eq!(re("B+1?"), (Black, Score, None, true));
        assert_eq!(
            re("W+ (but Black does not lose)"),
            (White, How::Unknown, None, true)
        );
        assert_eq!(re("W"), (White, How::Unknown, None, true));
    }

    #[test]
    fn cjk_forms() {
        assert_eq!(re("黑中盘胜"), (Black, Resign, None, true));
        assert_eq!(re("白胜1/4子"), (White, Score, Some(0.5), true));
        assert_eq!(re("白胜3又3/4子"), (White, Score, Some(7.5), true));
        assert_eq!(re("黒中押し勝"), (Black, Resign, None, true));
        assert_eq!(re("白3目半勝"), (White, Score, Some(3.5), true));
        assert_eq!(re("흑 불계승"), (Black, Resign, None, true));
        assert_eq!(re("백 6집반승"), (White, Score, Some(6.5), true));
        assert_eq!(re("黑超时胜"), (Black, Time, None, true));
        assert_eq!(re("和棋"), (Draw, Score, Some(0.0), true));
    }

    #[test]
    fn what_is_not_understood_is_not_guessed() {
        assert!(!parse_result("john wins").parsed);
        assert!(!parse_result("B+3 ? W+timeout").parsed);
        assert!(!parse_result("B+lots").parsed);
        assert_eq!(parse_result("john wins").winner, Winner::Unknown);
    }

    #[test]
    fn rules_komi_handicap() {
        assert_eq!(parse_rules("Japanese"), Rules::Japanese);
        assert_eq!(parse_rules("JPN"), Rules::Japanese);
        assert_eq!(parse_rules("Chinese"), Rules::Chinese);
        assert_eq!(parse_rules("Tromp/Taylor"), Rules::Nz);
        assert_eq!(parse_rules("Ing"), Rules::Ing);
        assert_eq!(parse_rules("AGA"), Rules::Aga);
        assert_eq!(parse_rules("Pair Go"), Rules::Unknown);
        assert_eq!(parse_komi("6.5"), (6.5, true));
        assert_eq!(parse_komi(""), (0.0, false));
        assert!(komi_looks_like_stones(2.75));
        assert!(komi_looks_like_stones(3.75));
        assert!(!komi_looks_like_stones(6.5));
        assert!(!komi_looks_like_stones(5.75));
        assert_eq!(parse_handicap("4"), 4);
        assert_eq!(parse_handicap(""), 0);
    }
}
