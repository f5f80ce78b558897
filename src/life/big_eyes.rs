//! Big own eyes (chapter 4 of the paper; life-spec §7): empty areas of two or more points
//! enclosed by one block away from the edge, classified by shape type and worth a number of
//! virtual own eyes by Tab. 2. They give the `+eyes` verdicts: "alive with correct answers",
//! not unconditional life.

use super::benson::Regions;
use super::net::{BlockId, Net};
use crate::go::{Board, Color};

/// A big own eye of a block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BigEye {
    pub block: BlockId,
    pub size: usize,
    /// `(a, b, c, d)`: points with 4, 3, 2, 1 neighbours inside, written `abcd`.
    pub shape: String,
    /// Virtual own eyes it is worth with the owner to move, and with the opponent to move.
    pub worth: (usize, usize),
    /// Whether Tab. 2 lists the shape (sizes over 6 are worth 1, unclassified).
    pub classified: bool,
}

/// Tab. 2: shape type → (worth with the owner to move ↓, with the opponent to move ↑).
const TABLE: &[(&str, usize, usize)] = &[
    ("0002", 1, 1),
    ("0012", 2, 1),
    ("0022", 2, 2),
    ("0103", 3, 1),
    ("0040", 1, 1),
    ("0032", 2, 2),
    ("0113", 2, 2),
    ("1004", 4, 1),
    ("0131", 2, 1),
    ("0042", 2, 2),
    ("0123", 2, 2),
    ("0222", 2, 2),
    ("0141", 2, 2),
    ("0204", 2, 2),
    ("1014", 2, 2),
    ("0240", 2, 2),
    ("1032", 2, 1),
];

/// The virtual own eyes an enclosed empty area of `points` is worth by Tab. 2, with the
/// owner to move and with the opponent to move; `None` for a shape the table does not list
/// or an area over six points.
pub fn shape_worth(board: &Board, points: &[usize]) -> Option<(usize, usize)> {
    table_worth(&shape_counts(board, points), points.len())
}

/// Per number of neighbours inside the area (0 to 4), its points.
fn shape_counts(board: &Board, points: &[usize]) -> [usize; 5] {
    let mut counts = [0usize; 5];
    for &p in points {
        let inside = board
            .neighbours(p)
            .iter()
            .filter(|n| points.contains(n))
            .count();
        counts[inside] += 1;
    }
    counts
}

/// Tab. 2's entry for a shape of `size` points with these counts (sizes over 6 unlisted).
fn table_worth(counts: &[usize; 5], size: usize) -> Option<(usize, usize)> {
    let key = format!("{}{}{}{}", counts[4], counts[3], counts[2], counts[1]);
    TABLE
        .iter()
        .find(|(s, _, _)| *s == key)
        .filter(|_| size <= 6)
        .map(|&(_, down, up)| (down, up))
}

/// Big own eyes of one colour, and how many enclosed areas were not credited (they hold
/// opponent stones or touch the edge).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BigEyes {
    pub eyes: Vec<BigEye>,
    pub uncredited: usize,
}

impl BigEyes {
    /// Virtual own eyes per block of the net, for the given side to move.
    pub fn virtual_eyes(&self, net: &Net, owner_to_move: impl Fn(Color) -> bool) -> Vec<usize> {
        let mut v = vec![0; net.blocks.len()];
        for e in &self.eyes {
            let c = net.blocks[e.block].color;
            v[e.block] += if owner_to_move(c) {
                e.worth.0
            } else {
                e.worth.1
            };
        }
        v
    }
}

/// Finds the big own eyes of colour `regions.color`.
pub fn find_big_eyes(board: &Board, regions: &Regions) -> BigEyes {
    let mut out = BigEyes::default();
    for r in &regions.regions {
        if r.size < 2 || r.blocks.len() != 1 {
            continue;
        }
        if r.has_opponent || r.touches_edge {
            out.uncredited += 1;
            continue;
        }
        let counts = shape_counts(board, &r.points);
        // Written `a-b-c-d`: a count can pass 9 (b = 11 in a long eye), and the digits
        // alone would read back ambiguously and lose their leading zeros in spreadsheets.
        let shape = format!("{}-{}-{}-{}", counts[4], counts[3], counts[2], counts[1]);
        let size = r.size;
        let (worth, classified) = match table_worth(&counts, size) {
            Some(w) => (w, true),
            None => ((1, 1), false),
        };
        out.eyes.push(BigEye {
            block: r.blocks[0],
            size,
            shape,
            worth,
            classified,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eyes(s: &str) -> BigEyes {
        let b = Board::from_ascii(s);
        let net = Net::build(&b);
        find_big_eyes(&b, &Regions::find(&net, Color::Black))
    }

    #[test]
    fn shapes_and_worth() {
        let e = eyes(
            ".......
             .XXXXX.
             .X...X.
             .XXXXX.
             .......
             .......
             .......",
        );
        assert_eq!(e.eyes.len(), 1);
        assert_eq!(e.eyes[0].shape, "0-0-1-2");
        assert_eq!(e.eyes[0].worth, (2, 1));
        let e = eyes(
            ".......
             .XXXXX.
             .XX.XX.
             .X...X.
             .XXXXX.
             .......
             .......",
        );
        assert_eq!(e.eyes[0].shape, "0-1-0-3");
        assert_eq!(e.eyes[0].worth, (3, 1));
    }

    #[test]
    fn edge_and_occupied_areas_are_not_credited() {
        let e = eyes(
            "X..X...
             XXXX...
             .......
             ..XXXX.
             ..XO.X.
             ..XXXX.
             .......",
        );
        assert!(e.eyes.is_empty());
        assert_eq!(e.uncredited, 2);
    }
}
