//! Totals read back from a run's tables (blocks.csv's tallied by the run as it writes it):
//! what the report shows and summary.csv holds.

use std::collections::{BTreeMap, HashMap};
use std::io::Read;
use std::path::Path;

use super::ReportError;
use crate::go::Color;
use crate::row::FileAnalysis;

/// The life methods, in the order the tables write them.
pub const METHODS: [&str; 5] = ["benson", "mp95", "mpfix", "mp95_eyes", "mpfix_eyes"];

/// The groups games are split into by how they ended.
pub const ENDINGS: [&str; 3] = ["score", "resign", "other"];

/// The sources of dead stones, as games.csv names them.
pub const SOURCES: [&str; 3] = ["markup", "estimate", "none"];

/// Life totals of one group of games, per colour (index: Black 0, White 1).
#[derive(Clone, Debug, Default)]
pub struct LifeSums {
    pub games: u64,
    pub blocks: [u64; 2],
    pub stones: [u64; 2],
    /// Per method of `METHODS`.
    pub alive_blocks: [[u64; 2]; 5],
    pub alive_stones: [[u64; 2]; 5],
    pub benson_territory: [u64; 2],
}

/// Margins of one dead-stone source compared with RE.
#[derive(Clone, Debug, Default)]
pub struct SourceSums {
    pub compared: u64,
    pub exact: u64,
    pub within_one: u64,
    pub same_winner: u64,
    /// Computed − recorded margin, rounded to whole points.
    pub error: BTreeMap<i32, u32>,
    /// `(compared, exact)` by rules and by board size.
    pub by_rules: BTreeMap<String, (u64, u64)>,
    pub by_size: BTreeMap<String, (u64, u64)>,
}

/// The estimate's dead stones against the markup's, in games that have both.
#[derive(Clone, Debug, Default)]
pub struct DeadSums {
    pub games: u64,
    /// Games where the two sets are the same.
    pub exact: u64,
    /// Stones both call dead, only the estimate does, only the markup does.
    pub both: u64,
    pub estimate_only: u64,
    pub markup_only: u64,
    /// The games where they differ, in table order.
    pub differing: Vec<DeadDiff>,
}

/// One game whose estimate differs from its markup: the points each alone calls dead.
#[derive(Clone, Debug)]
pub struct DeadDiff {
    pub file: String,
    pub game: String,
    pub estimate_only: Vec<String>,
    pub markup_only: Vec<String>,
}

impl DeadSums {
    /// Adds a game from its `dead_estimate` and `dead_markup` cells (space-separated SGF
    /// points).
    fn add(&mut self, file: &str, game: &str, estimate: &str, markup: &str) {
        // The cells list points by column, then row: string order only up to 26 lines, where
        // the SGF letters turn uppercase. Sorted here, the lookups hold for any board.
        let mut e: Vec<&str> = estimate.split_whitespace().collect();
        let mut m: Vec<&str> = markup.split_whitespace().collect();
        e.sort_unstable();
        m.sort_unstable();
        let only = |a: &[&str], b: &[&str]| -> Vec<String> {
            a.iter()
                .filter(|p| b.binary_search(p).is_err())
                .map(|p| p.to_string())
                .collect()
        };
        let (estimate_only, markup_only) = (only(&e, &m), only(&m, &e));
        self.games += 1;
        self.both += (e.len() - estimate_only.len()) as u64;
        self.estimate_only += estimate_only.len() as u64;
        self.markup_only += markup_only.len() as u64;
        if estimate_only.is_empty() && markup_only.is_empty() {
            self.exact += 1;
        } else {
            self.differing.push(DeadDiff {
                file: file.to_string(),
                game: game.to_string(),
                estimate_only,
                markup_only,
            });
        }
    }
}

/// A block some method calls alive and Benson does not.
#[derive(Clone, Debug)]
pub struct NotBenson {
    pub file: String,
    pub game: String,
    pub colour: String,
    pub anchor: String,
    pub stones: String,
    pub mp95: bool,
    pub mpfix: bool,
}

/// A record whose result contradicts what Benson proves.
#[derive(Clone, Debug)]
pub struct Suspicious {
    pub file: String,
    pub game: String,
    pub re: String,
    pub rules: String,
    pub low: String,
    pub high: String,
}

/// Everything the report needs, read from one output folder.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    pub rows: u64,
    pub files: u64,
    pub status: BTreeMap<String, u64>,
    pub sizes: BTreeMap<String, u64>,
    /// `(how, winner)` of the games with an RE.
    pub endings: BTreeMap<(String, String), u64>,
    pub encodings: BTreeMap<String, u64>,
    pub rules: BTreeMap<String, u64>,
    pub suicides: u64,
    pub ko_retakes: u64,
    pub setup_games: u64,
    pub markup_games: u64,
    pub re_present: u64,
    pub re_parsed: u64,
    pub re_margin: u64,
    /// Raw REs that matched no known form, with their counts.
    pub re_unparsed: BTreeMap<String, u64>,
    /// Per `ENDINGS` group, then all games last.
    pub life: [LifeSums; 4],
    /// `agreement[a][b]`: blocks alive under both methods a and b.
    pub agreement: [[u64; 5]; 5],
    pub not_benson: Vec<NotBenson>,
    pub sources: [SourceSums; 3],
    pub dead: DeadSums,
    /// Estimate's winner against RE's for resigned games: `(games, agreeing)`.
    pub resign_winner: (u64, u64),
    pub suspicious: Vec<Suspicious>,
    /// Benson-proven points (stones and territory) and area scores, per colour.
    pub proven: [u64; 2],
    pub area: [u64; 2],
    /// `(word, closed, grammar)` → `(chains, all alive by mp95, all alive by mpfix)`.
    pub chains: BTreeMap<(String, bool, bool), (u64, u64, u64)>,
    /// `(size, shape)` → `(count, worth owner to move, worth opponent to move, classified)`.
    pub big_eyes: BTreeMap<(u32, String), (u64, String, String, u64)>,
}

/// What blocks.csv adds to the report. A run tallies it from the rows as it writes them (the
/// table is the largest a run writes: reading it back cost a tenth of a corpus run); `report
/// DIR` reads it from the table. Both give the same sums.
#[derive(Clone, Debug, Default)]
pub struct BlockSums {
    /// Per `ENDINGS` group, then all games; only the block and stone counts are set.
    pub life: [LifeSums; 4],
    pub agreement: [[u64; 5]; 5],
    pub not_benson: Vec<NotBenson>,
}

impl BlockSums {
    /// Adds one block of a game in ending group `group`. `alive` is per `METHODS`; `listed`
    /// names the block, asked for only when it goes on the not-Benson list.
    fn add(
        &mut self,
        group: usize,
        colour: usize,
        stones: u64,
        alive: [bool; 5],
        listed: impl FnOnce() -> NotBenson,
    ) {
        for g in [group, 3] {
            let l = &mut self.life[g];
            l.blocks[colour] += 1;
            l.stones[colour] += stones;
            for (k, &a) in alive.iter().enumerate() {
                if a {
                    l.alive_blocks[k][colour] += 1;
                    l.alive_stones[k][colour] += stones;
                }
            }
        }
        for a in 0..5 {
            for b in 0..5 {
                self.agreement[a][b] += u64::from(alive[a] && alive[b]);
            }
        }
        if (alive[1] || alive[2]) && !alive[0] {
            self.not_benson.push(listed());
        }
    }

    /// Adds the blocks of one file's games, as blocks.csv writes them.
    pub fn add_file(&mut self, file: &str, a: &FileAnalysis) {
        for g in &a.games {
            let Some(game) = g.game else { continue };
            let group = g
                .record
                .as_ref()
                .and_then(|r| r.result)
                .map_or(2, |res| ending(res.how.as_str()));
            for b in &g.blocks {
                let v = &b.verdict;
                let alive = [v.benson, v.mp95, v.mpfix, v.mp95_eyes, v.mpfix_eyes];
                let colour = usize::from(b.colour == Color::White);
                self.add(group, colour, u64::from(b.stones), alive, || NotBenson {
                    file: file.to_string(),
                    game: game.to_string(),
                    colour: b.colour.letter().to_string(),
                    anchor: b.anchor.to_string(),
                    stones: b.stones.to_string(),
                    mp95: v.mp95,
                    mpfix: v.mpfix,
                });
            }
        }
    }
}

/// The header of a CSV table: column names to positions, looked up once per table, not per row
/// (blocks.csv has a hundred million bytes on a large corpus).
struct Columns(HashMap<String, usize>);

impl Columns {
    fn col(&self, name: &str) -> Col {
        Col(self.0.get(name).copied())
    }

    fn cols<const N: usize>(&self, names: [&str; N]) -> [Col; N] {
        names.map(|n| self.col(n))
    }
}

/// One column of a table; a column the table lacks reads as empty.
#[derive(Clone, Copy)]
struct Col(Option<usize>);

impl Col {
    fn get(self, row: &csv::StringRecord) -> &str {
        self.0.and_then(|i| row.get(i)).unwrap_or("")
    }

    fn num(self, row: &csv::StringRecord) -> u64 {
        self.get(row).parse().unwrap_or(0)
    }

    fn flag(self, row: &csv::StringRecord) -> bool {
        self.get(row) == "1"
    }
}

fn open(dir: &Path, name: &str) -> Result<(csv::Reader<Box<dyn Read>>, Columns), ReportError> {
    let path = dir.join(name);
    let file = std::fs::File::open(&path)
        .map_err(|e| ReportError::Read(format!("{}: {e}", path.display())))?;
    let reader: Box<dyn Read> = Box::new(std::io::BufReader::with_capacity(1 << 16, file));
    let mut r = csv::Reader::from_reader(reader);
    let headers = r
        .headers()
        .map_err(|e| ReportError::Read(format!("{}: {e}", path.display())))?;
    let cols = headers
        .iter()
        .enumerate()
        .map(|(i, h)| (h.to_string(), i))
        .collect();
    Ok((r, Columns(cols)))
}

/// Reads the next row of table `name` into `row`; false at the end.
fn next_row(
    r: &mut csv::Reader<Box<dyn Read>>,
    row: &mut csv::StringRecord,
    dir: &Path,
    name: &str,
) -> Result<bool, ReportError> {
    r.read_record(row)
        .map_err(|e| ReportError::Read(format!("{}: {e}", dir.join(name).display())))
}

fn rows(
    r: &mut csv::Reader<Box<dyn Read>>,
    dir: &Path,
    name: &str,
    mut f: impl FnMut(&csv::StringRecord),
) -> Result<(), ReportError> {
    let mut row = csv::StringRecord::new();
    while next_row(r, &mut row, dir, name)? {
        f(&row);
    }
    Ok(())
}

/// Sums blocks.csv of `dir`, each block under its game's ending. Both tables list games in
/// the same order (a run's input order, which `merge` keeps), so games.csv is read alongside,
/// a merge join that holds one game at a time instead of a key per game of the corpus.
fn read_blocks(dir: &Path) -> Result<BlockSums, ReportError> {
    let (mut games, gc) = open(dir, "games.csv")?;
    let [g_file, g_game, g_how] = gc.cols(["file", "game", "how"]);
    let (mut r, c) = open(dir, "blocks.csv")?;
    let [file_c, game_c, colour_c, stones_c, anchor_c] =
        c.cols(["file", "game", "colour", "stones", "anchor"]);
    let methods = METHODS.map(|m| c.col(m));
    let mut key = (String::new(), String::new());
    let mut group = 2;
    let (mut row, mut game_row) = (csv::StringRecord::new(), csv::StringRecord::new());
    let mut sums = BlockSums::default();
    while next_row(&mut r, &mut row, dir, "blocks.csv")? {
        let (file, game) = (file_c.get(&row), game_c.get(&row));
        if key.0 != file || key.1 != game {
            key = (file.to_string(), game.to_string());
            group = loop {
                if !next_row(&mut games, &mut game_row, dir, "games.csv")? {
                    return Err(ReportError::Read(format!(
                        "{}: game {game} of {file} is not in games.csv, or not in its order",
                        dir.join("blocks.csv").display()
                    )));
                }
                if g_file.get(&game_row) == file && g_game.get(&game_row) == game {
                    break ending(g_how.get(&game_row));
                }
            };
        }
        let alive = methods.map(|m| m.flag(&row));
        let colour = usize::from(colour_c.get(&row) == "W");
        sums.add(group, colour, stones_c.num(&row), alive, || NotBenson {
            file: file.to_string(),
            game: game.to_string(),
            colour: colour_c.get(&row).to_string(),
            anchor: anchor_c.get(&row).to_string(),
            stones: stones_c.get(&row).to_string(),
            mp95: alive[1],
            mpfix: alive[2],
        });
    }
    Ok(sums)
}

/// The ending group of a `how` value.
fn ending(how: &str) -> usize {
    match how {
        "score" => 0,
        "resign" => 1,
        _ => 2,
    }
}

fn parse_f(s: &str) -> Option<f64> {
    s.parse().ok()
}

/// The columns of games.csv the report reads.
struct GameCols {
    file: Col,
    game: Col,
    status: Col,
    encoding: Col,
    size: Col,
    suicides: Col,
    ko_retakes: Col,
    setup_stones: Col,
    rules: Col,
    how: Col,
    winner: Col,
    re: Col,
    re_parsed: Col,
    margin: Col,
    score_source: Col,
    has_markup: Col,
    suspicious: Col,
    benson_low: Col,
    benson_high: Col,
    /// Per colour (Black, White).
    benson_territory: [Col; 2],
    benson_stones: [Col; 2],
    area: [Col; 2],
    /// Per `SOURCES`: the margin under the game's rules, territory, area.
    margins: [[Col; 3]; 3],
    dead_markup: Col,
    dead_estimate: Col,
}

impl GameCols {
    fn of(c: &Columns) -> GameCols {
        let [file, game, status, encoding, size, suicides, ko_retakes, setup_stones, rules] = c
            .cols([
                "file",
                "game",
                "status",
                "encoding",
                "size",
                "suicides",
                "ko_retakes",
                "setup_stones",
                "rules",
            ]);
        let [how, winner, re, re_parsed, margin, score_source, has_markup, suspicious] = c.cols([
            "how",
            "winner",
            "RE",
            "re_parsed",
            "margin",
            "score_source",
            "has_markup",
            "suspicious",
        ]);
        let per_colour = |name: &str| ["b", "w"].map(|s| c.col(&format!("{name}_{s}")));
        GameCols {
            file,
            game,
            status,
            encoding,
            size,
            suicides,
            ko_retakes,
            setup_stones,
            rules,
            how,
            winner,
            re,
            re_parsed,
            margin,
            score_source,
            has_markup,
            suspicious,
            benson_low: c.col("benson_margin_low"),
            benson_high: c.col("benson_margin_high"),
            benson_territory: per_colour("benson_territory"),
            benson_stones: per_colour("benson_stones"),
            area: per_colour("area"),
            dead_markup: c.col("dead_markup"),
            dead_estimate: c.col("dead_estimate"),
            margins: SOURCES.map(|src| {
                [
                    c.col(&format!("margin_{src}")),
                    c.col(&format!("margin_{src}_territory")),
                    c.col(&format!("margin_{src}_area")),
                ]
            }),
        }
    }
}

impl Tally {
    /// Reads games.csv, blocks.csv, chains.csv and big_eyes.csv of `dir`, taking the block
    /// sums from `blocks` instead of blocks.csv when the run that wrote the table tallied them.
    pub fn read(dir: &Path, blocks: Option<BlockSums>) -> Result<Tally, ReportError> {
        let mut t = Tally::default();
        let (mut r, c) = open(dir, "games.csv")?;
        let c = GameCols::of(&c);
        let mut last_file = String::new();
        rows(&mut r, dir, "games.csv", |row| {
            t.rows += 1;
            let file = c.file.get(row);
            if file != last_file {
                t.files += 1;
                last_file = file.to_string();
            }
            *t.status.entry(c.status.get(row).to_string()).or_default() += 1;
            let enc = c.encoding.get(row);
            if !enc.is_empty() {
                *t.encodings.entry(enc.to_string()).or_default() += 1;
            }
            let size = c.size.get(row);
            if size.is_empty() {
                return;
            }
            *t.sizes.entry(size.to_string()).or_default() += 1;
            t.suicides += c.suicides.num(row);
            t.ko_retakes += c.ko_retakes.num(row);
            t.setup_games += u64::from(c.setup_stones.num(row) > 0);
            *t.rules.entry(c.rules.get(row).to_string()).or_default() += 1;
            let how = c.how.get(row);
            let winner = c.winner.get(row);
            let group = ending(how);
            let re = c.re.get(row);
            if !re.trim().is_empty() {
                t.re_present += 1;
                *t.endings
                    .entry((how.to_string(), winner.to_string()))
                    .or_default() += 1;
                if c.re_parsed.flag(row) {
                    t.re_parsed += 1;
                } else {
                    *t.re_unparsed.entry(re.to_string()).or_default() += 1;
                }
            }
            for g in [group, 3] {
                let l = &mut t.life[g];
                l.games += 1;
                for k in 0..2 {
                    l.benson_territory[k] += c.benson_territory[k].num(row);
                }
            }
            t.score_columns(&c, row, winner, how);
        })?;
        let blocks = match blocks {
            Some(b) => b,
            None => read_blocks(dir)?,
        };
        for (l, b) in t.life.iter_mut().zip(&blocks.life) {
            l.blocks = b.blocks;
            l.stones = b.stones;
            l.alive_blocks = b.alive_blocks;
            l.alive_stones = b.alive_stones;
        }
        t.agreement = blocks.agreement;
        t.not_benson = blocks.not_benson;
        t.read_chains(dir)?;
        t.read_big_eyes(dir)?;
        Ok(t)
    }

    fn score_columns(&mut self, c: &GameCols, row: &csv::StringRecord, winner: &str, how: &str) {
        if c.score_source.get(row).is_empty() {
            return;
        }
        let has_markup = c.has_markup.flag(row);
        self.markup_games += u64::from(has_markup);
        // The estimate ran when its territory margin is written (the margin under the
        // game's rules is empty when the rules are unknown).
        if has_markup && !c.margins[1][1].get(row).is_empty() {
            self.dead.add(
                c.file.get(row),
                c.game.get(row),
                c.dead_estimate.get(row),
                c.dead_markup.get(row),
            );
        }
        for k in 0..2 {
            self.proven[k] += c.benson_stones[k].num(row) + c.benson_territory[k].num(row);
            self.area[k] += c.area[k].num(row);
        }
        let recorded = match (winner, parse_f(c.margin.get(row))) {
            ("B", Some(m)) => Some(m),
            ("W", Some(m)) => Some(-m),
            ("draw", _) => Some(0.0),
            _ => None,
        };
        if recorded.is_some() {
            self.re_margin += 1;
        }
        if c.suspicious.flag(row) {
            self.suspicious.push(Suspicious {
                file: c.file.get(row).to_string(),
                game: c.game.get(row).to_string(),
                re: c.re.get(row).to_string(),
                rules: c.rules.get(row).to_string(),
                low: c.benson_low.get(row).to_string(),
                high: c.benson_high.get(row).to_string(),
            });
        }
        if how == "resign" && (winner == "B" || winner == "W") {
            let estimate_territory = c.margins[1][1];
            if let Some(m) = parse_f(estimate_territory.get(row)) {
                self.resign_winner.0 += 1;
                let says = if m > 0.0 { "B" } else { "W" };
                self.resign_winner.1 += u64::from(says == winner);
            }
        }
        let Some(want) = recorded else {
            return;
        };
        let (size, rules) = (c.size.get(row), c.rules.get(row));
        for (k, [under, territory, area]) in c.margins.iter().enumerate() {
            let computed = parse_f(under.get(row)).or_else(|| {
                let t = parse_f(territory.get(row))?;
                let a = parse_f(area.get(row))?;
                Some(if (t - want).abs() <= (a - want).abs() {
                    t
                } else {
                    a
                })
            });
            let Some(m) = computed else {
                continue;
            };
            let s = &mut self.sources[k];
            let exact = (m - want).abs() < 1e-3;
            s.compared += 1;
            s.exact += u64::from(exact);
            s.within_one += u64::from((m - want).abs() <= 1.0 + 1e-3);
            s.same_winner += u64::from((m > 0.0) == (want > 0.0) || m == want);
            *s.error.entry((m - want).round() as i32).or_default() += 1;
            for (map, key) in [(&mut s.by_rules, rules), (&mut s.by_size, size)] {
                let e = map.entry(key.to_string()).or_default();
                e.0 += 1;
                e.1 += u64::from(exact);
            }
        }
    }

    fn read_chains(&mut self, dir: &Path) -> Result<(), ReportError> {
        let (mut r, c) = open(dir, "chains.csv")?;
        let [word, closed, grammar, mp95, mpfix] =
            c.cols(["word", "closed", "grammar", "mp95", "mpfix"]);
        rows(&mut r, dir, "chains.csv", |row| {
            let e = self
                .chains
                .entry((
                    word.get(row).to_string(),
                    closed.flag(row),
                    grammar.flag(row),
                ))
                .or_default();
            e.0 += 1;
            e.1 += u64::from(mp95.flag(row));
            e.2 += u64::from(mpfix.flag(row));
        })
    }

    fn read_big_eyes(&mut self, dir: &Path) -> Result<(), ReportError> {
        let (mut r, c) = open(dir, "big_eyes.csv")?;
        let [size_c, shape, owner, opponent, classified] = c.cols([
            "size",
            "shape",
            "worth_owner_to_move",
            "worth_opponent_to_move",
            "classified",
        ]);
        rows(&mut r, dir, "big_eyes.csv", |row| {
            let size = size_c.num(row) as u32;
            let e = self
                .big_eyes
                .entry((size, shape.get(row).to_string()))
                .or_insert_with(|| {
                    (
                        0,
                        owner.get(row).to_string(),
                        opponent.get(row).to_string(),
                        0,
                    )
                });
            e.0 += 1;
            e.3 += u64::from(classified.flag(row));
        })
    }

    /// summary.csv rows: `(measure, colour, method, value)`, counts only, so that the rows of
    /// several runs add up to those of one run over all their inputs.
    pub fn summary(&self) -> Vec<(String, String, String, u64)> {
        let mut out = Vec::new();
        let mut push = |m: &str, c: &str, k: &str, v: u64| {
            out.push((m.to_string(), c.to_string(), k.to_string(), v));
        };
        push("rows", "", "", self.rows);
        push("files", "", "", self.files);
        for (s, n) in &self.status {
            push("games", "", &format!("status:{s}"), *n);
        }
        for (s, n) in &self.sizes {
            push("games", "", &format!("size:{s}"), *n);
        }
        for ((how, winner), n) in &self.endings {
            push("games", "", &format!("ended:{how}:{winner}"), *n);
        }
        push("re", "", "present", self.re_present);
        push("re", "", "parsed", self.re_parsed);
        push("re", "", "with_margin", self.re_margin);
        push("games", "", "has_markup", self.markup_games);
        let all = &self.life[3];
        for (k, colour) in ["B", "W"].iter().enumerate() {
            push("blocks", colour, "all", all.blocks[k]);
            push("stones", colour, "all", all.stones[k]);
            for (m, method) in METHODS.iter().enumerate() {
                push("blocks_alive", colour, method, all.alive_blocks[m][k]);
                push("stones_alive", colour, method, all.alive_stones[m][k]);
            }
            push("territory", colour, "benson", all.benson_territory[k]);
            push("proven_points", colour, "benson", self.proven[k]);
            push("area_points", colour, "best_source", self.area[k]);
        }
        for (k, src) in SOURCES.iter().enumerate() {
            let s = &self.sources[k];
            push("margin_compared", "", src, s.compared);
            push("margin_exact", "", src, s.exact);
            push("margin_within_1", "", src, s.within_one);
            push("winner_agrees", "", src, s.same_winner);
        }
        let d = &self.dead;
        push("dead_vs_markup", "", "games", d.games);
        push("dead_vs_markup", "", "exact", d.exact);
        push("dead_vs_markup", "", "stones_both", d.both);
        push(
            "dead_vs_markup",
            "",
            "stones_estimate_only",
            d.estimate_only,
        );
        push("dead_vs_markup", "", "stones_markup_only", d.markup_only);
        push("suspicious", "", "benson", self.suspicious.len() as u64);
        push(
            "not_benson_blocks",
            "",
            "mp95",
            self.not_benson.iter().filter(|b| b.mp95).count() as u64,
        );
        push(
            "not_benson_blocks",
            "",
            "mpfix",
            self.not_benson.iter().filter(|b| b.mpfix).count() as u64,
        );
        let chains: u64 = self.chains.values().map(|v| v.0).sum();
        let grammar: u64 = self
            .chains
            .iter()
            .filter(|(k, _)| k.2)
            .map(|(_, v)| v.0)
            .sum();
        push("chains", "", "all", chains);
        push("chains", "", "grammar", grammar);
        let eyes: u64 = self.big_eyes.values().map(|v| v.0).sum();
        let classified: u64 = self.big_eyes.values().map(|v| v.3).sum();
        push("big_eyes", "", "all", eyes);
        push("big_eyes", "", "classified", classified);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Cells need not be in string order (boards over 26 lines use uppercase letters).
    #[test]
    fn dead_sets_compare_point_by_point_in_any_order() {
        let mut d = DeadSums::default();
        d.add("a.sgf", "0", "ba ab cc", "ba ab cc");
        d.add("b.sgf", "0", "ba ab dd", "ea ba ab");
        d.add("c.sgf", "0", "", "");
        assert_eq!((d.games, d.exact), (3, 2));
        assert_eq!((d.both, d.estimate_only, d.markup_only), (5, 1, 1));
        assert_eq!(d.differing.len(), 1);
        let g = &d.differing[0];
        assert_eq!((g.file.as_str(), g.game.as_str()), ("b.sgf", "0"));
        assert_eq!(
            (g.estimate_only.clone(), g.markup_only.clone()),
            (vec!["dd".to_string()], vec!["ea".to_string()])
        );
    }
}
