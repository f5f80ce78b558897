//! The per-position tables: blocks.csv (every block with every verdict), chains.csv (every
//! chain with the grammar's verdict and the methods' readings), big_eyes.csv (every credited
//! big own eye with its shape and worth).

use std::io;

use super::games::fixed;
use super::schema::{col, write_row, Column, Lines};
use super::table::Table;
use crate::row::{BigEyeRow, BlockRow, ChainRow, FileAnalysis, GameRow};

/// Where a row of a per-position table belongs: its input's name (with whether it needs
/// quotes, asked once per file) and its game.
pub struct At<'a> {
    file: &'a str,
    quote_file: bool,
    game: usize,
}

/// One row of a per-position table: where it belongs, and the item it describes.
pub struct Line<'a, T> {
    at: &'a At<'a>,
    item: &'a T,
}

/// The lines of a per-position table, whose items are `T`s.
pub struct Items<T>(std::marker::PhantomData<T>);

impl<T: 'static> Lines for Items<T> {
    type Line<'a> = Line<'a, T>;
}

/// The two columns every per-position table starts with.
macro_rules! at_columns {
    ($t:ty) => {
        [
            col!(Items<$t>, Line<'_, $t>; "file": Text, |t, l| t.checked(l.at.file, l.at.quote_file)),
            col!(Items<$t>, Line<'_, $t>; "game": Int, |t, l| t.num(l.at.game)),
        ]
    };
}

/// A blocks.csv column.
macro_rules! block {
    ($($x:tt)*) => { col!(Items<BlockRow>, Line<'_, BlockRow>; $($x)*) };
}

/// The columns of blocks.csv, in order: the table's one declaration.
pub const BLOCK_COLUMNS: &[Column<Items<BlockRow>>] = &{
    let [file, game] = at_columns!(BlockRow);
    [
        file,
        game,
        block!("colour": Text, |t, l| t.plain(l.item.colour.letter().as_bytes())),
        block!("anchor": Text, |t, l| t.plain(&l.item.anchor.sgf_bytes())),
        block!("stones": Int, |t, l| t.num(l.item.stones)),
        block!("liberties": Int, |t, l| t.num(l.item.liberties)),
        block!("own_eyes": Int, |t, l| t.num(l.item.own_eyes)),
        block!("shared_eyes": Int, |t, l| t.num(l.item.shared_eyes)),
        block!("virtual_eyes": Int, |t, l| t.num(l.item.verdict.virtual_eyes)),
        block!("benson": Int, |t, l| t.flag(l.item.verdict.benson)),
        block!("mp95": Int, |t, l| t.flag(l.item.verdict.mp95)),
        block!("mpfix": Int, |t, l| t.flag(l.item.verdict.mpfix)),
        block!("mp95_eyes": Int, |t, l| t.flag(l.item.verdict.mp95_eyes)),
        block!("mpfix_eyes": Int, |t, l| t.flag(l.item.verdict.mpfix_eyes)),
        block!("chain": Text, |t, l| t.plain(
            l.item
                .verdict
                .chain
                .as_deref()
                .map_or_else(String::new, word_cell)
                .as_bytes()
        )),
        block!("final": Text, |t, l| t.plain(
            l.item.final_status.map_or("", |f| f.as_str()).as_bytes()
        )),
        block!("katago_own": Float, |t, l| t.plain(
            l.item.katago_own.map_or_else(String::new, |o| fixed(o, 3)).as_bytes()
        )),
        block!("dead_share": Float, |t, l| t.plain(
            l.item.dead_share.map_or_else(String::new, |s| fixed(s, 3)).as_bytes()
        )),
    ]
};

/// A chains.csv column.
macro_rules! chain {
    ($($x:tt)*) => { col!(Items<ChainRow>, Line<'_, ChainRow>; $($x)*) };
}

/// The columns of chains.csv, in order: the table's one declaration.
pub const CHAIN_COLUMNS: &[Column<Items<ChainRow>>] = &{
    let [file, game] = at_columns!(ChainRow);
    [
        file,
        game,
        chain!("colour": Text, |t, l| t.text(l.item.colour.letter())),
        chain!("blocks": Text, |t, l| {
            let anchors: Vec<String> = l.item.anchors.iter().map(|p| p.to_string()).collect();
            t.text(&anchors.join(" "))
        }),
        chain!("closed": Int, |t, l| t.flag(l.item.closed)),
        chain!("word": Text, |t, l| t.text(&word_cell(&l.item.word))),
        chain!("grammar": Int, |t, l| t.flag(l.item.grammar)),
        chain!("mp95": Int, |t, l| t.flag(l.item.mp95_all)),
        chain!("mpfix": Int, |t, l| t.flag(l.item.mpfix_all)),
    ]
};

/// A big_eyes.csv column.
macro_rules! eye {
    ($($x:tt)*) => { col!(Items<BigEyeRow>, Line<'_, BigEyeRow>; $($x)*) };
}

/// The columns of big_eyes.csv, in order: the table's one declaration.
pub const BIG_EYE_COLUMNS: &[Column<Items<BigEyeRow>>] = &{
    let [file, game] = at_columns!(BigEyeRow);
    [
        file,
        game,
        eye!("colour": Text, |t, l| t.text(l.item.colour.letter())),
        eye!("block": Text, |t, l| t.bytes(&l.item.block.sgf_bytes())),
        eye!("eye_size": Int, |t, l| t.num(l.item.size)),
        eye!("eye_shape": Text, |t, l| t.text(&l.item.shape)),
        eye!("worth_owner_to_move": Int, |t, l| t.num(l.item.worth.0)),
        eye!("worth_opponent_to_move": Int, |t, l| t.num(l.item.worth.1)),
        eye!("classified": Int, |t, l| t.flag(l.item.classified)),
    ]
};

/// Writes one row per item `items` gives each game of a file, through `columns`.
fn write_items<T: 'static>(
    t: &mut Table,
    columns: &[Column<Items<T>>],
    file: &str,
    a: &FileAnalysis,
    items: fn(&GameRow) -> &[T],
) -> io::Result<()> {
    let quote_file = t.needs_quotes(file);
    for g in &a.games {
        let Some(game) = g.game else { continue };
        let at = At {
            file,
            quote_file,
            game,
        };
        for item in items(g) {
            write_row(t, columns, &Line { at: &at, item })?;
        }
    }
    Ok(())
}

/// Writes the blocks.csv rows of one file.
pub fn write_blocks(t: &mut Table, file: &str, a: &FileAnalysis) -> io::Result<()> {
    write_items(t, BLOCK_COLUMNS, file, a, |g| &g.blocks)
}

/// Writes the chains.csv rows of one file.
pub fn write_chains(t: &mut Table, file: &str, a: &FileAnalysis) -> io::Result<()> {
    write_items(t, CHAIN_COLUMNS, file, a, |g| &g.chains)
}

/// Writes the big_eyes.csv rows of one file.
pub fn write_big_eyes(t: &mut Table, file: &str, a: &FileAnalysis) -> io::Result<()> {
    write_items(t, BIG_EYE_COLUMNS, file, a, |g| &g.big_eyes)
}

/// Marks a chain word as text (`00` → `w00`): read as a number, by pandas or a spreadsheet,
/// `00` and `010` would lose their leading zeros.
pub const WORD_MARK: &str = "w";

fn word_cell(word: &str) -> String {
    format!("{WORD_MARK}{word}")
}
