//! games.csv: one row per game, and one per file that yielded no game.

use std::io;

use super::table::Table;
use crate::life::LifeTotals;
use crate::row::{FileAnalysis, GameRow, PositionStats, ScoreRow, SourceScore};
use crate::sgf::result::komi_looks_like_stones;

/// The columns of games.csv, in order. Names are part of the interface: keep them.
pub const GAME_COLUMNS: &[&str] = &[
    "file",
    "game",
    "status",
    "detail",
    "encoding",
    "encoding_source",
    "bytes",
    "size",
    "moves",
    "passes",
    "to_move",
    "captures_b",
    "captures_w",
    "suicides",
    "ko_retakes",
    "setup_stones",
    "stones_b",
    "stones_w",
    "blocks_b",
    "blocks_w",
    "own_eyes_b",
    "own_eyes_w",
    "shared_eyes_b",
    "shared_eyes_w",
    "benson_blocks_b",
    "benson_blocks_w",
    "benson_stones_b",
    "benson_stones_w",
    "mp95_blocks_b",
    "mp95_blocks_w",
    "mpfix_blocks_b",
    "mpfix_blocks_w",
    "mp95_eyes_blocks_b",
    "mp95_eyes_blocks_w",
    "mpfix_eyes_blocks_b",
    "mpfix_eyes_blocks_w",
    "mp95_not_benson_b",
    "mp95_not_benson_w",
    "mpfix_not_benson_b",
    "mpfix_not_benson_w",
    "benson_territory_b",
    "benson_territory_w",
    "chains",
    "chain_disagreements",
    "big_eyes",
    "big_eyes_uncredited",
    "winner",
    "how",
    "margin",
    "re_parsed",
    "komi",
    "komi_source",
    "komi_stones",
    "rules",
    "handicap",
    "has_markup",
    "dead_markup",
    "margin_markup",
    "margin_markup_territory",
    "margin_markup_area",
    "markup_equals_re",
    "dead_estimate",
    "margin_estimate",
    "margin_estimate_territory",
    "margin_estimate_area",
    "estimate_equals_re",
    "margin_none",
    "margin_none_territory",
    "margin_none_area",
    "benson_margin_low",
    "benson_margin_high",
    "suspicious",
    "score_source",
    "area_b",
    "area_w",
    "RE",
    "KM",
    "RU",
    "HA",
    "DT",
    "PB",
    "PW",
];

/// Position figures written per colour (`_b`, `_w`), from `stones` to `benson_territory`.
const PER_COLOUR: [fn(&PositionStats, usize) -> u32; 13] = [
    |p, c| p.stones[c],
    |p, c| p.net[c].blocks,
    |p, c| p.net[c].own_eyes,
    |p, c| p.net[c].shared_eyes,
    |p, c| p.life[c].benson_blocks,
    |p, c| p.life[c].benson_stones,
    |p, c| p.life[c].mp95_blocks,
    |p, c| p.life[c].mpfix_blocks,
    |p, c| p.life[c].mp95_eyes_blocks,
    |p, c| p.life[c].mpfix_eyes_blocks,
    |p, c| p.life[c].mp95_not_benson,
    |p, c| p.life[c].mpfix_not_benson,
    |p, c| p.life[c].benson_territory,
];

/// Life figures written as the sum of both colours.
const BOTH_COLOURS: [fn(&LifeTotals) -> u32; 4] = [
    |t| t.chains,
    |t| t.chain_disagreements,
    |t| t.big_eyes,
    |t| t.big_eyes_uncredited,
];

/// Writes the games.csv rows of one file.
pub fn write_rows(
    t: &mut Table,
    file: &str,
    bytes: Option<u64>,
    a: &FileAnalysis,
) -> io::Result<()> {
    for g in &a.games {
        write_game(t, file, bytes, a, g)?;
    }
    Ok(())
}

fn write_game(
    t: &mut Table,
    file: &str,
    bytes: Option<u64>,
    a: &FileAnalysis,
    g: &GameRow,
) -> io::Result<()> {
    let (enc, src) = a.encoding.map_or(("", ""), |(e, s)| (e, s.as_str()));
    t.text(file)
        .opt(g.game.map(|v| v as u64))
        .text(g.status.as_str())
        .text(&g.detail)
        .text(enc)
        .text(src)
        .opt(bytes)
        .opt(g.size.map(u64::from));
    let p = g.position.as_ref();
    let field = |f: fn(&PositionStats) -> u32| p.map(|p| u64::from(f(p)));
    t.opt(field(|p| p.moves))
        .opt(field(|p| p.passes))
        .text(p.and_then(|p| p.to_move).map_or("", |c| c.letter()));
    t.opt(field(|p| p.captures[0]))
        .opt(field(|p| p.captures[1]))
        .opt(field(|p| p.suicides))
        .opt(field(|p| p.ko_retakes))
        .opt(field(|p| p.setup_stones));
    for f in PER_COLOUR {
        t.opt(p.map(|p| u64::from(f(p, 0))))
            .opt(p.map(|p| u64::from(f(p, 1))));
    }
    for f in BOTH_COLOURS {
        t.opt(p.map(|p| u64::from(f(&p.life[0]) + f(&p.life[1]))));
    }
    match &g.record {
        None => {
            t.empty(9);
        }
        Some(r) => {
            match r.result {
                Some(res) => {
                    t.text(res.winner.as_str())
                        .text(res.how.as_str())
                        .text(&res.margin.map_or(String::new(), |m| m.to_string()))
                        .flag(res.parsed);
                }
                None => {
                    t.text("unknown").text("unknown").text("").text("");
                }
            }
            t.text(&r.komi.to_string())
                .text(if r.komi_from_km { "KM" } else { "default" })
                .flag(komi_looks_like_stones(r.komi))
                .text(r.rules.as_str())
                .num(r.handicap);
        }
    }
    write_score(t, g.score.as_ref());
    let i = &g.info;
    for v in [&i.re, &i.km, &i.ru, &i.ha, &i.dt, &i.pb, &i.pw] {
        t.text(v);
    }
    t.end_row()
}

/// A margin as the CSV writes it: shortest form, no negative zero.
pub fn margin_text(m: f32) -> String {
    if m == 0.0 {
        "0".to_string()
    } else {
        m.to_string()
    }
}

fn write_score(t: &mut Table, s: Option<&ScoreRow>) {
    let Some(s) = s else {
        t.empty(SCORE_COLUMNS);
        return;
    };
    t.flag(s.has_markup);
    write_source(t, s.markup.as_ref());
    write_source(t, s.estimate.as_ref());
    t.text(&s.none.margin.map_or(String::new(), margin_text))
        .text(&margin_text(s.none.margins.territory))
        .text(&margin_text(s.none.margins.area))
        .text(&margin_text(s.benson_bounds.0))
        .text(&margin_text(s.benson_bounds.1))
        .flag(s.suspicious);
    let (source, best) = match (&s.markup, &s.estimate) {
        (Some(m), _) => ("markup", m),
        (None, Some(e)) => ("estimate", e),
        (None, None) => ("none", &s.none),
    };
    t.text(source).num(best.area[0]).num(best.area[1]);
}

/// Columns `has_markup` to `area_w`.
const SCORE_COLUMNS: usize = 20;

fn write_source(t: &mut Table, s: Option<&SourceScore>) {
    let Some(s) = s else {
        t.empty(5);
        return;
    };
    let mut dead = String::with_capacity(3 * s.dead.len());
    for p in &s.dead {
        if !dead.is_empty() {
            dead.push(' ');
        }
        let [x, y] = p.sgf_bytes();
        dead.push(x as char);
        dead.push(y as char);
    }
    t.text(&dead)
        .text(&s.margin.map_or(String::new(), margin_text))
        .text(&margin_text(s.margins.territory))
        .text(&margin_text(s.margins.area));
    match s.equals_re {
        Some(b) => t.flag(b),
        None => t.text(""),
    };
}
