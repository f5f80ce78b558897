//! RE, KM, RU, HA read into values (scoring-spec §1). Every form met in real collections is
//! understood, CJK ones included; what is not understood is marked unparsed and never
//! guessed. The raw text stays in the CSV beside the parsed columns.

use crate::go::rules::{Rules, Ruleset};

/// Who won.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
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
    pub const ALL: [Winner; 5] = [
        Winner::Black,
        Winner::White,
        Winner::Draw,
        Winner::Nobody,
        Winner::Unknown,
    ];

    /// The value `as_str` names.
    pub fn named(name: &str) -> Option<Winner> {
        Winner::ALL.into_iter().find(|w| w.as_str() == name)
    }

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
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum How {
    Score,
    Resign,
    Time,
    Forfeit,
    Other,
    Unknown,
}

impl How {
    pub const ALL: [How; 6] = [
        How::Score,
        How::Resign,
        How::Time,
        How::Forfeit,
        How::Other,
        How::Unknown,
    ];

    /// The value `as_str` names.
    pub fn named(name: &str) -> Option<How> {
        How::ALL.into_iter().find(|h| h.as_str() == name)
    }

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

/// RU's names of a ruleset, tried in this order: a ruleset's own name before a way of
/// counting (`Japanese, area scoring` is Japanese). A name in Latin letters is a whole word
/// of RU (`Beijing` holds no `ing`); one in Chinese, Japanese or Korean script may be part of
/// one, as these scripts do not separate words (`中国规则`).
const RU_NAMES: [(&[&str], Ruleset); 8] = [
    (
        &["japanese", "japan", "jpn", "jp", "uchikomi", "日本"],
        Ruleset::Japanese,
    ),
    (
        &["chinese", "china", "cn", "中国", "中國"],
        Ruleset::Chinese,
    ),
    (&["aga", "american"], Ruleset::Aga),
    (
        &[
            "nz",
            "zealand",
            "newzealand",
            "tromp",
            "taylor",
            "tromptaylor",
        ],
        Ruleset::Nz,
    ),
    (&["ing", "goe", "应氏", "應氏"], Ruleset::Ing),
    (
        &["korean", "korea", "kr", "한국", "韓國", "韩国", "韓国"],
        Ruleset::Korean,
    ),
    (&["territory"], Ruleset::Japanese),
    (&["area", "counting"], Ruleset::Chinese),
];

/// Reads RU by its words, in any case. Tromp-Taylor counts area and allows suicide, like New
/// Zealand rules; `J` and `C` name rulesets only alone.
pub fn parse_rules(raw: &str) -> Rules {
    let lower = raw.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let names = |word: &str, name: &str| {
        if name.is_ascii() {
            word == name
        } else {
            word.contains(name)
        }
    };
    let ruleset = match words.as_slice() {
        ["j"] => Ruleset::Japanese,
        ["c"] => Ruleset::Chinese,
        _ => RU_NAMES
            .iter()
            .find(|(ns, _)| ns.iter().any(|n| words.iter().any(|w| names(w, n))))
            .map_or(Ruleset::Unknown, |&(_, r)| r),
    };
    ruleset.rules()
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

/// A margin (Black − White − komi) as a result is written: `B+3.5`, `W+50`, `Draw`.
pub fn result_text(margin: f32) -> String {
    match margin {
        m if m > 0.0 => format!("B+{m}"),
        m if m < 0.0 => format!("W+{}", -m),
        _ => "Draw".to_string(),
    }
}

#[cfg(test)]
mod tests {

    /// The report writes a count as a result is written, as its diagrams do: `W+50`, not
    /// `-50`.
    #[test]
    fn margins_are_written_as_results() {
        assert_eq!(result_text(-50.0), "W+50");
        assert_eq!(result_text(3.5), "B+3.5");
        assert_eq!(result_text(0.0), "Draw");
        assert_eq!(parse_result(&result_text(-6.5)), parse_result("W+6.5"));
    }

    use super::*;
    use crate::go::rules::Scoring;
    use How::*;
    use Winner::*;

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
    fn komi_handicap() {
        assert_eq!(parse_komi("6.5"), (6.5, true));
        assert_eq!(parse_komi(""), (0.0, false));
        assert!(komi_looks_like_stones(2.75));
        assert!(komi_looks_like_stones(3.75));
        assert!(!komi_looks_like_stones(6.5));
        assert!(!komi_looks_like_stones(5.75));
        assert_eq!(parse_handicap("4"), 4);
        assert_eq!(parse_handicap(""), 0);
    }

    fn ru(raw: &str) -> &'static str {
        parse_rules(raw).as_str()
    }

    #[test]
    fn ru_names_a_ruleset_by_its_words() {
        for (raw, want) in [
            ("Japanese", "japanese"),
            ("JPN", "japanese"),
            ("jp", "japanese"),
            ("J", "japanese"),
            ("Uchikomi", "japanese"),
            ("日本ルール", "japanese"),
            ("Chinese", "chinese"),
            ("chinese rules", "chinese"),
            ("CN", "chinese"),
            ("c", "chinese"),
            ("中国规则", "chinese"),
            ("中國", "chinese"),
            ("AGA", "aga"),
            ("American", "aga"),
            ("NZ", "nz"),
            ("New Zealand", "nz"),
            ("Tromp/Taylor", "nz"),
            ("Tromp-Taylor", "nz"),
            ("tromp taylor", "nz"),
            ("Ing", "ing"),
            ("Ing's rules", "ing"),
            ("GOE", "ing"),
            ("应氏规则", "ing"),
            ("應氏", "ing"),
            ("Korean", "korean"),
            ("KR", "korean"),
            ("한국", "korean"),
            ("韓國", "korean"),
        ] {
            assert_eq!(ru(raw), want, "RU[{raw}]");
        }
    }

    /// Issue 50: RU was read by substrings, and "ing" is one of "Territory scoring" and of
    /// "Counting": both read as Ing rules, area counting.
    #[test]
    fn issue_50_a_way_of_counting_is_not_ing() {
        assert_eq!(ru("Territory scoring"), "japanese");
        assert_eq!(ru("territory"), "japanese");
        assert_eq!(ru("Counting"), "chinese");
        assert_eq!(ru("area"), "chinese");
        assert_eq!(ru("Area scoring"), "chinese");
        assert_eq!(
            parse_rules("Territory scoring").scoring,
            Some(Scoring::Territory)
        );
        assert_eq!(parse_rules("Counting").scoring, Some(Scoring::Area));
        // A ruleset's name comes before a way of counting.
        assert_eq!(ru("AGA (area)"), "aga");
        // Words that only hold a name read as nothing.
        for raw in [
            "Beijing", "Nagano", "Machine", "Pair Go", "J. Smith", "TT--", "",
        ] {
            assert_eq!(ru(raw), "unknown", "RU[{raw}]");
        }
        assert_eq!(parse_rules("Pair Go").scoring, None);
    }

    #[test]
    fn tromp_taylor_counts_area_and_allows_suicide() {
        let tt = parse_rules("Tromp-Taylor");
        assert_eq!((tt.scoring, tt.suicide), (Some(Scoring::Area), true));
    }
}
