//! Run totals. They add up (`Summable`), so per-chunk or per-shard figures merge into run totals.

use std::collections::BTreeMap;

use crate::row::{FileAnalysis, Status};
use crate::sum::summable;

summable! {
    /// Counts of a run.
    #[derive(Clone, Debug, Default, PartialEq, Eq)]
    pub struct RunStats {
        /// Inputs finished: files, archives and compressed collections, each counted once.
        pub inputs: u64,
        /// Files analysed: plain files, archive members, and each compressed collection once.
        pub files: u64,
        /// Rows written: games, plus one per file that yielded none.
        pub rows: u64,
        /// Game trees found in files that parsed.
        pub games: u64,
        pub bytes: u64,
        pub by_status: BTreeMap<Status, u64>,
    }
}

impl RunStats {
    /// The figures of one file.
    pub fn of_file(bytes: Option<u64>, a: &FileAnalysis) -> RunStats {
        let mut s = RunStats {
            files: 1,
            bytes: bytes.unwrap_or(0),
            ..RunStats::default()
        };
        for g in &a.games {
            s.rows += 1;
            s.games += u64::from(g.game.is_some());
            *s.by_status.entry(g.status).or_default() += 1;
        }
        s
    }

    pub fn count(&self, status: Status) -> u64 {
        self.by_status.get(&status).copied().unwrap_or(0)
    }

    /// Rows whose status is not `ok`.
    pub fn failed(&self) -> u64 {
        self.rows - self.count(Status::Ok)
    }
}
