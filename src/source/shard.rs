//! `--shard K/N`: a stable hash of an input's name puts it in exactly one of N shards, the
//! same on every machine and in every version, so a job array splits a corpus without a list.

use std::fmt;
use std::str::FromStr;

use crate::go::random::fnv1a;

/// One of N shards, K counted from 0 (as Slurm array and Kubernetes job indexes are).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Shard {
    pub k: u32,
    pub n: u32,
}

impl Shard {
    /// Whether an input of this name belongs to this shard.
    pub fn holds(&self, name: &str) -> bool {
        fnv1a(name.as_bytes()) % u64::from(self.n) == u64::from(self.k)
    }
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("--shard takes K/N with 0 <= K < N, e.g. 0/8; got {s:?}");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let (k, n): (u32, u32) = (
            k.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if n == 0 || k >= n {
            return Err(bad());
        }
        Ok(Shard { k, n })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_is_in_exactly_one_shard() {
        let n = 7;
        for i in 0..1000 {
            let name = format!("Honinbo/{:02}/{i}.sgf", i % 61);
            let holders = (0..n).filter(|&k| Shard { k, n }.holds(&name)).count();
            assert_eq!(holders, 1, "{name}");
        }
    }

    #[test]
    fn the_hash_is_fixed() {
        // FNV-1a test vectors: these values must never change, or old shards would not merge.
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn shards_spread_evenly() {
        let counts: Vec<usize> = (0..4)
            .map(|k| {
                (0..4000)
                    .filter(|i| Shard { k, n: 4 }.holds(&format!("games/{i}.sgf")))
                    .count()
            })
            .collect();
        assert!(
            counts.iter().all(|&c| (800..1200).contains(&c)),
            "{counts:?}"
        );
    }

    #[test]
    fn parsing() {
        assert_eq!("2/8".parse(), Ok(Shard { k: 2, n: 8 }));
        assert!("8/8".parse::<Shard>().is_err());
        assert!("1/0".parse::<Shard>().is_err());
        assert!("x".parse::<Shard>().is_err());
        assert_eq!(Shard { k: 0, n: 3 }.to_string(), "0/3");
    }
}
