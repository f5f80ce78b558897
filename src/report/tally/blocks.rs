//! The report's life sums: blocks per method and colour, blocks against their status at the
//! end of the game, chains and big eyes.

use super::*;

summable! {
    /// Life totals of one group of games, per colour (index: Black 0, White 1).
    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct LifeSums {
        pub games: u64,
        pub blocks: [u64; 2],
        pub stones: [u64; 2],
        pub alive_blocks: PerMethod<[u64; 2]>,
        pub alive_stones: PerMethod<[u64; 2]>,
        pub benson_territory: [u64; 2],
    }
}

summable! {
    /// Blocks against their status at the end of the game (blocks.csv `final`).
    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct FinalSums {
        /// Blocks and stones by final status, in `FinalStatus::ALL` order.
        pub blocks: [u64; 3],
        pub stones: [u64; 3],
        /// Per method: blocks and stones that lived to the end (alive or seki) and that the
        /// method proves alive.
        pub proven_blocks: PerMethod<u64>,
        pub proven_stones: PerMethod<u64>,
        /// Per method: blocks it calls alive that died, and their stones.
        pub died: PerMethod<u64>,
        pub died_stones: PerMethod<u64>,
    }
}

impl FinalSums {
    fn add(&mut self, b: &BlockFacts, status: FinalStatus) {
        let k = status as usize;
        self.blocks[k] += 1;
        self.stones[k] += b.stones;
        for m in Method::ALL {
            if b.alive[m] && status.lives() {
                self.proven_blocks[m] += 1;
                self.proven_stones[m] += b.stones;
            }
            let died = b.alive[m] && !status.lives();
            self.died[m] += u64::from(died);
            self.died_stones[m] += if died { b.stones } else { 0 };
        }
    }

    /// Blocks and stones that lived to the end.
    pub fn living(&self) -> (u64, u64) {
        (
            self.blocks[0] + self.blocks[1],
            self.stones[0] + self.stones[1],
        )
    }
}

/// A block a method calls alive that died by the end of the game.
#[derive(Clone, Debug, PartialEq)]
pub struct Died {
    pub file: String,
    pub game: String,
    pub colour: String,
    pub anchor: String,
    pub stones: u64,
    pub alive: PerMethod<bool>,
}

impl Tally {
    /// Adds one block of a game that ended as `ending`, played in `era`.
    pub fn add_block(&mut self, ending: Ending, era: Era, b: &BlockFacts) {
        if let (Some(share), Some(status)) = (b.dead_share, b.final_status) {
            let i = usize::from(share / 100).min(CALIBRATION_BINS - 1);
            let dead = !status.lives();
            self.calibration[i].0 += 1;
            self.calibration[i].1 += u64::from(dead);
            self.calibration_stated[i] += u64::from(share);
            let miss = i64::from(share) - if dead { 1000 } else { 0 };
            self.brier += (miss * miss) as u64;
        }
        if let Some(status) = b.final_status {
            self.finals.add(b, status);
            self.finals_by_ending
                .entry(ending)
                .or_default()
                .add(b, status);
            self.finals_by_era.entry(era).or_default().add(b, status);
            if !status.lives() && Method::ALL.into_iter().any(|m| b.alive[m]) {
                self.died.push(Died {
                    file: b.file.to_string(),
                    game: b.game.to_string(),
                    colour: if b.white { "W" } else { "B" }.to_string(),
                    anchor: b.anchor.to_string(),
                    stones: b.stones,
                    alive: b.alive,
                });
            }
        }
        let colour = usize::from(b.white);
        for l in self.life.both(ending) {
            l.blocks[colour] += 1;
            l.stones[colour] += b.stones;
            for m in Method::ALL {
                if b.alive[m] {
                    l.alive_blocks[m][colour] += 1;
                    l.alive_stones[m][colour] += b.stones;
                }
            }
        }
        for a in Method::ALL {
            for c in Method::ALL {
                self.agreement[a][c] += u64::from(b.alive[a] && b.alive[c]);
            }
        }
        let (mp95, mpfix) = (b.alive[Method::Mp95], b.alive[Method::Mpfix]);
        if (mp95 || mpfix) && !b.alive[Method::Benson] {
            self.not_benson.push(NotBenson {
                file: b.file.to_string(),
                game: b.game.to_string(),
                colour: if b.white { "W" } else { "B" }.to_string(),
                anchor: b.anchor.to_string(),
                stones: b.stones,
                mp95,
                mpfix,
            });
        }
    }

    pub fn add_chain(&mut self, c: &ChainFacts) {
        let e = self
            .chains
            .entry((c.word.clone(), c.closed, c.grammar))
            .or_default();
        e.chains += 1;
        e.mp95_all += u64::from(c.mp95_all);
        e.mpfix_all += u64::from(c.mpfix_all);
    }

    pub fn add_big_eye(&mut self, e: &BigEyeFacts) {
        let s = self
            .big_eyes
            .entry((e.size, e.shape.clone()))
            .or_insert_with(|| EyeSums {
                worth: Same(e.worth),
                ..EyeSums::default()
            });
        s.eyes += 1;
        s.classified += u64::from(e.classified);
    }

    /// Blocks on the not-Benson list that `m` (mp95 or mpfix) calls alive.
    pub fn not_benson_by(&self, m: Method) -> u64 {
        self.not_benson
            .iter()
            .filter(|b| match m {
                Method::Mp95 => b.mp95,
                Method::Mpfix => b.mpfix,
                _ => false,
            })
            .count() as u64
    }
}
