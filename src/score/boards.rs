//! Positions more than one module's tests are about.

/// A bent four on the edge with two shared liberties (eb, gb): a seki, since neither side can
/// fill one without putting its own block in atari.
pub const EDGE_SEKI: &str = "O.OXOOOXO
                             OOOX.X.XO
                             O.OXXXXXO
                             OOOXOXOXO
                             O.OOOOOOO
                             OOOOOOOOO
                             .O.O.O.O.
                             OOOOOOOOO
                             .O.O.O.O.";

/// Two walls, Black's and White's, with a column of dame between them.
pub const TWO_WALLS: &str = ".X.O.
                             .X.O.
                             .X.O.
                             .X.O.
                             .X.O.";
