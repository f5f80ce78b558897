//! games.csv: one row per game, and one per file that yielded no game.

use std::io;
use std::path::Path;

use csv::ByteRecord;

use super::AtomicFile;
use crate::record::{FileAnalysis, GameRecord};

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
    "RE",
    "KM",
    "RU",
    "HA",
    "DT",
    "PB",
    "PW",
];

/// Writes games.csv row by row.
pub struct GamesWriter {
    csv: csv::Writer<AtomicFile>,
    row: ByteRecord,
    num: itoa::Buffer,
}

impl GamesWriter {
    pub fn create(path: &Path) -> io::Result<GamesWriter> {
        let mut csv = csv::Writer::from_writer(AtomicFile::create(path)?);
        csv.write_record(GAME_COLUMNS)?;
        Ok(GamesWriter {
            csv,
            row: ByteRecord::new(),
            num: itoa::Buffer::new(),
        })
    }

    /// Writes the rows of one file.
    pub fn write_file(
        &mut self,
        file: &str,
        bytes: Option<u64>,
        a: &FileAnalysis,
    ) -> io::Result<()> {
        for g in &a.games {
            self.write_game(file, bytes, a, g)?;
        }
        Ok(())
    }

    fn write_game(
        &mut self,
        file: &str,
        bytes: Option<u64>,
        a: &FileAnalysis,
        g: &GameRecord,
    ) -> io::Result<()> {
        let r = &mut self.row;
        let num = &mut self.num;
        r.clear();
        let mut n = |r: &mut ByteRecord, v: Option<u64>| match v {
            Some(v) => r.push_field(num.format(v).as_bytes()),
            None => r.push_field(b""),
        };
        r.push_field(file.as_bytes());
        n(r, g.game.map(|v| v as u64));
        r.push_field(g.status.as_str().as_bytes());
        r.push_field(g.detail.as_bytes());
        let (enc, src) = a.encoding.map_or(("", ""), |(e, s)| (e, s.as_str()));
        r.push_field(enc.as_bytes());
        r.push_field(src.as_bytes());
        n(r, bytes);
        n(r, g.size.map(u64::from));
        let p = g.position.as_ref();
        let pf = |f: fn(&crate::record::PositionStats) -> u32| p.map(|p| u64::from(f(p)));
        n(r, pf(|p| p.moves));
        n(r, pf(|p| p.passes));
        r.push_field(
            p.and_then(|p| p.to_move)
                .map_or("", |c| c.letter())
                .as_bytes(),
        );
        n(r, pf(|p| p.captures[0]));
        n(r, pf(|p| p.captures[1]));
        n(r, pf(|p| p.suicides));
        n(r, pf(|p| p.ko_retakes));
        n(r, pf(|p| p.setup_stones));
        n(r, pf(|p| p.stones[0]));
        n(r, pf(|p| p.stones[1]));
        n(r, pf(|p| p.net[0].blocks));
        n(r, pf(|p| p.net[1].blocks));
        n(r, pf(|p| p.net[0].own_eyes));
        n(r, pf(|p| p.net[1].own_eyes));
        n(r, pf(|p| p.net[0].shared_eyes));
        n(r, pf(|p| p.net[1].shared_eyes));
        type Lt = crate::life::LifeTotals;
        let per_colour: [fn(&Lt) -> u32; 9] = [
            |t| t.benson_blocks,
            |t| t.benson_stones,
            |t| t.mp95_blocks,
            |t| t.mpfix_blocks,
            |t| t.mp95_eyes_blocks,
            |t| t.mpfix_eyes_blocks,
            |t| t.mp95_not_benson,
            |t| t.mpfix_not_benson,
            |t| t.benson_territory,
        ];
        for f in per_colour {
            n(r, p.map(|p| u64::from(f(&p.life[0]))));
            n(r, p.map(|p| u64::from(f(&p.life[1]))));
        }
        let both: [fn(&Lt) -> u32; 4] = [
            |t| t.chains,
            |t| t.chain_disagreements,
            |t| t.big_eyes,
            |t| t.big_eyes_uncredited,
        ];
        for f in both {
            n(r, p.map(|p| u64::from(f(&p.life[0]) + f(&p.life[1]))));
        }
        let i = &g.info;
        for v in [&i.re, &i.km, &i.ru, &i.ha, &i.dt, &i.pb, &i.pw] {
            r.push_field(v.as_bytes());
        }
        self.csv.write_byte_record(r)?;
        Ok(())
    }

    /// Flushes and moves the table into place.
    pub fn finish(self) -> io::Result<()> {
        let file = self.csv.into_inner().map_err(|e| e.into_error())?;
        file.commit()
    }
}
