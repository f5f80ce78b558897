//! The per-position tables: blocks.csv (every block with every verdict), chains.csv (every
//! chain with the grammar's verdict and the methods' readings), big_eyes.csv (every credited
//! big own eye with its shape and worth).

use std::io;

use super::games::fixed;
use super::schema::{float, int, text, Field};
use super::table::Table;
use crate::row::FileAnalysis;

/// The columns of blocks.csv, in order, with their types.
pub const BLOCK_COLUMNS: &[Field] = &[
    text("file"),
    int("game"),
    text("colour"),
    text("anchor"),
    int("stones"),
    int("liberties"),
    int("own_eyes"),
    int("shared_eyes"),
    int("virtual_eyes"),
    int("benson"),
    int("mp95"),
    int("mpfix"),
    int("mp95_eyes"),
    int("mpfix_eyes"),
    text("chain"),
    text("final"),
    float("katago_own"),
    float("dead_share"),
];

/// The columns of chains.csv, in order, with their types.
pub const CHAIN_COLUMNS: &[Field] = &[
    text("file"),
    int("game"),
    text("colour"),
    text("blocks"),
    int("closed"),
    text("word"),
    int("grammar"),
    int("mp95"),
    int("mpfix"),
];

/// The columns of big_eyes.csv, in order, with their types.
pub const BIG_EYE_COLUMNS: &[Field] = &[
    text("file"),
    int("game"),
    text("colour"),
    text("block"),
    int("eye_size"),
    text("eye_shape"),
    int("worth_owner_to_move"),
    int("worth_opponent_to_move"),
    int("classified"),
];

/// Writes the blocks.csv rows of one file.
pub fn write_blocks(t: &mut Table, file: &str, a: &FileAnalysis) -> io::Result<()> {
    let quote_file = t.needs_quotes(file);
    for g in &a.games {
        let Some(game) = g.game else { continue };
        for b in &g.blocks {
            let v = &b.verdict;
            t.checked(file, quote_file)
                .num(game)
                .plain(b.colour.letter().as_bytes())
                .plain(&b.anchor.sgf_bytes())
                .num(b.stones)
                .num(b.liberties)
                .num(b.own_eyes)
                .num(b.shared_eyes)
                .num(v.virtual_eyes)
                .flag(v.benson)
                .flag(v.mp95)
                .flag(v.mpfix)
                .flag(v.mp95_eyes)
                .flag(v.mpfix_eyes)
                .plain(
                    v.chain
                        .as_deref()
                        .map_or_else(String::new, word_cell)
                        .as_bytes(),
                )
                .plain(b.final_status.map_or("", |f| f.as_str()).as_bytes())
                .plain(
                    b.katago_own
                        .map_or_else(String::new, |o| fixed(o, 3))
                        .as_bytes(),
                )
                .plain(
                    b.dead_share
                        .map_or_else(String::new, |s| fixed(s, 3))
                        .as_bytes(),
                );
            t.end_row()?;
        }
    }
    Ok(())
}

/// Marks a chain word as text (`00` → `w00`): read as a number, by pandas or a spreadsheet,
/// `00` and `010` would lose their leading zeros.
pub const WORD_MARK: &str = "w";

fn word_cell(word: &str) -> String {
    format!("{WORD_MARK}{word}")
}

/// Writes the chains.csv rows of one file.
pub fn write_chains(t: &mut Table, file: &str, a: &FileAnalysis) -> io::Result<()> {
    for g in &a.games {
        let Some(game) = g.game else { continue };
        for c in &g.chains {
            let anchors: Vec<String> = c.anchors.iter().map(|p| p.to_string()).collect();
            t.text(file)
                .num(game)
                .text(c.colour.letter())
                .text(&anchors.join(" "))
                .flag(c.closed)
                .text(&word_cell(&c.word))
                .flag(c.grammar)
                .flag(c.mp95_all)
                .flag(c.mpfix_all);
            t.end_row()?;
        }
    }
    Ok(())
}

/// Writes the big_eyes.csv rows of one file.
pub fn write_big_eyes(t: &mut Table, file: &str, a: &FileAnalysis) -> io::Result<()> {
    for g in &a.games {
        let Some(game) = g.game else { continue };
        for e in &g.big_eyes {
            t.text(file)
                .num(game)
                .text(e.colour.letter())
                .bytes(&e.block.sgf_bytes())
                .num(e.size)
                .text(&e.shape)
                .num(e.worth.0)
                .num(e.worth.1)
                .flag(e.classified);
            t.end_row()?;
        }
    }
    Ok(())
}
