//! Slips other SGF readers accept, put right before sgf-parse sees a game tree, each with a
//! note for the game's `detail` (never dropped silently):
//!
//! - a property repeated in one node: read as sgf-parse reads it (every value of a repeated
//!   `AB`, the first of a repeated `RE` for the game info), and noted; a repeated `GM` in the
//!   root node (`GM[1]GM[1]`, which gnugo wrote), which sgf-parse refuses, is left out;
//! - an identifier without upper-case letters (`sz[9]`): FF[1]–[3] ignore lower-case letters
//!   in identifiers (`SiZe` is `SZ`, as sgf-parse reads it), so this one names nothing and is
//!   left out;
//! - an identifier without a value (`W[bb]XX;B[cc]`): left out, so that what follows is read.
//!
//! Positions are given as line and column within the game tree, the same whether the tree
//! comes from a plain file or a compressed collection. At most `NOTES_MAX` slips are noted
//! (then how many more): a node repeating a property a million times must not cost a million
//! notes, each with a position found by scanning the text before it.

use std::borrow::Cow;
use std::collections::HashSet;

/// The most slips a tree's notes name; the detail cell shows about this many anyway
/// (`row::DETAIL_MAX`).
pub const NOTES_MAX: usize = 16;

/// A tree's text with the slips put right, and a note for each of the first `NOTES_MAX`,
/// then one saying how many more were put right.
pub struct Tidied<'a> {
    pub text: Cow<'a, str>,
    pub notes: Vec<String>,
}

/// Notes kept up to `NOTES_MAX`; past it only counted, and never written (nor their
/// positions found).
#[derive(Default)]
struct Notes {
    kept: Vec<String>,
    more: usize,
}

impl Notes {
    fn push(&mut self, note: impl FnOnce() -> String) {
        if self.kept.len() < NOTES_MAX {
            self.kept.push(note());
        } else {
            self.more += 1;
        }
    }

    fn into_vec(mut self) -> Vec<String> {
        if self.more > 0 {
            let s = if self.more == 1 { "" } else { "s" };
            self.kept
                .push(format!("{} more slip{s} put right, not listed", self.more));
        }
        self.kept
    }
}

/// Identifiers seen in the node being read: a few in a list, as in any real node (a search
/// there costs less than hashing), and the rest in a set, so that a node of a million
/// distinct identifiers is read in linear time.
#[derive(Default)]
struct Seen<'a> {
    few: Vec<Cow<'a, str>>,
    many: HashSet<Cow<'a, str>>,
}

/// How many identifiers `Seen` keeps in its list.
const FEW: usize = 16;

impl<'a> Seen<'a> {
    #[inline]
    fn next_node(&mut self) {
        self.few.clear();
        if !self.many.is_empty() {
            // Dropped rather than cleared: clearing costs its capacity at every node after.
            self.many = HashSet::new();
        }
    }

    #[inline]
    fn contains(&self, id: &str) -> bool {
        self.few.iter().any(|f| f == id) || (!self.many.is_empty() && self.many.contains(id))
    }

    #[inline]
    fn insert(&mut self, id: Cow<'a, str>) {
        if self.few.len() < FEW {
            self.few.push(id);
        } else {
            self.many.insert(id);
        }
    }
}

/// Puts right what `tidy`'s module doc lists in one game tree's text.
pub fn tidy(text: &str) -> Tidied<'_> {
    let b = text.as_bytes();
    let mut drops: Vec<(usize, usize)> = Vec::new();
    let mut notes = Notes::default();
    let mut seen = Seen::default();
    let mut node = 0usize;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'[' => i = skip_value(b, i),
            b';' => {
                node += 1;
                seen.next_node();
                i += 1;
            }
            b'(' | b')' => {
                seen.next_node();
                i += 1;
            }
            c if c.is_ascii_alphabetic() => {
                let start = i;
                while i < b.len() && b[i].is_ascii_alphabetic() {
                    i += 1;
                }
                let raw = &text[start..i];
                let mut end = i;
                while end < b.len() && b[end].is_ascii_whitespace() {
                    end += 1;
                }
                let mut values = 0;
                while end < b.len() && b[end] == b'[' {
                    end = skip_value(b, end);
                    values += 1;
                    let mut k = end;
                    while k < b.len() && b[k].is_ascii_whitespace() {
                        k += 1;
                    }
                    if k < b.len() && b[k] == b'[' {
                        end = k;
                    }
                }
                let at = || position(text, start);
                // Mostly upper case already: then no copy is made.
                let id: Cow<'_, str> = if raw.bytes().all(|c| c.is_ascii_uppercase()) {
                    Cow::Borrowed(raw)
                } else {
                    Cow::Owned(raw.chars().filter(char::is_ascii_uppercase).collect())
                };
                let in_node = node.saturating_sub(1);
                let dropped = if values == 0 {
                    notes.push(|| format!("ignored {raw}, a property without a value ({})", at()));
                    true
                } else if id.is_empty() {
                    notes.push(|| {
                        format!(
                            "ignored {}, an identifier without upper-case letters ({})",
                            &text[start..end],
                            at()
                        )
                    });
                    true
                } else if seen.contains(&id) {
                    let repeated = |id: &str| format!("{id} repeated in node {in_node}");
                    if id == "GM" && node == 1 {
                        notes.push(|| {
                            format!(
                                "ignored {}, {} ({})",
                                &text[start..end],
                                repeated(&id),
                                at()
                            )
                        });
                        true
                    } else {
                        notes.push(|| format!("{} ({})", repeated(&id), at()));
                        false
                    }
                } else {
                    seen.insert(id);
                    false
                };
                if dropped {
                    drops.push((start, if values == 0 { i } else { end }));
                }
                i = if values == 0 { i } else { end };
            }
            _ => i += 1,
        }
    }
    let notes = notes.into_vec();
    if drops.is_empty() {
        return Tidied {
            text: Cow::Borrowed(text),
            notes,
        };
    }
    let mut out = String::with_capacity(text.len());
    let mut from = 0;
    for (start, end) in drops {
        out.push_str(&text[from..start]);
        from = end;
    }
    out.push_str(&text[from..]);
    Tidied {
        text: Cow::Owned(out),
        notes,
    }
}

/// The index just past the value that opens at `b[at] == '['` (with `\` escapes), or the end.
fn skip_value(b: &[u8], at: usize) -> usize {
    let mut i = at + 1;
    while i < b.len() && b[i] != b']' {
        i += if b[i] == b'\\' { 2 } else { 1 };
    }
    (i + 1).min(b.len())
}

/// `line L, column C` (from 1, columns in characters) of byte `at` in `text`.
fn position(text: &str, at: usize) -> String {
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    format!("line {line}, column {col}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tidied(text: &str) -> (String, Vec<String>) {
        let t = tidy(text);
        (t.text.into_owned(), t.notes)
    }

    #[test]
    fn a_clean_tree_is_left_alone() {
        let text = "(;GM[1]FF[4]SZ[9]C[a ;sz(9) GM(1) note\\]];B[aa](;W[bb])(;W[cc]))";
        let t = tidy(text);
        assert!(matches!(t.text, Cow::Borrowed(_)));
        assert!(t.notes.is_empty());
    }

    /// Only the root's repeated GM, which sgf-parse refuses, is left out; other repeats are
    /// read as before, and noted.
    #[test]
    fn repeated_properties_are_noted() {
        assert_eq!(
            tidied("(;GM[1]GM[1]FF[4];AB[aa]AB[bb])"),
            (
                "(;GM[1]FF[4];AB[aa]AB[bb])".to_string(),
                vec![
                    "ignored GM[1], GM repeated in node 0 (line 1, column 8)".to_string(),
                    "AB repeated in node 1 (line 1, column 25)".to_string()
                ]
            )
        );
    }

    #[test]
    fn identifiers_without_upper_case_letters_name_nothing() {
        let (text, notes) = tidied("(;sz[9]SiZe[9]\n;b[aa];AddBlack[aa][bb])");
        assert_eq!(text, "(;SiZe[9]\n;;AddBlack[aa][bb])");
        assert_eq!(
            notes,
            [
                "ignored sz[9], an identifier without upper-case letters (line 1, column 3)",
                "ignored b[aa], an identifier without upper-case letters (line 2, column 2)"
            ]
        );
    }

    #[test]
    fn a_property_without_a_value_is_left_out() {
        let (text, notes) = tidied("(;SZ[9]\n;B[aa]\n;W[bb]XX\n;B[cc])");
        assert_eq!(text, "(;SZ[9]\n;B[aa]\n;W[bb]\n;B[cc])");
        assert_eq!(
            notes,
            ["ignored XX, a property without a value (line 3, column 7)"]
        );
    }

    #[test]
    fn values_may_be_split_by_white_space() {
        let (text, notes) = tidied("(;AB[aa] [bb]\n[cc]XY;B[dd])");
        assert_eq!(text, "(;AB[aa] [bb]\n[cc];B[dd])");
        assert_eq!(notes.len(), 1, "{notes:?}");
    }

    /// Issue 49 item 7: a million repeats in one node were a million notes, each with a
    /// position found by scanning the text before it (minutes, hundreds of MB).
    #[test]
    fn a_node_repeating_a_property_a_million_times() {
        let text = format!("(;GM[1]{};B[aa])", "C[x]".repeat(1_000_000));
        let t = tidy(&text);
        assert!(matches!(t.text, Cow::Borrowed(_)));
        assert_eq!(t.notes.len(), NOTES_MAX + 1);
        assert_eq!(t.notes[0], "C repeated in node 0 (line 1, column 12)");
        assert_eq!(
            t.notes[NOTES_MAX - 1],
            "C repeated in node 0 (line 1, column 72)"
        );
        assert_eq!(
            t.notes[NOTES_MAX],
            format!("{} more slips put right, not listed", 999_999 - NOTES_MAX)
        );
    }

    /// Every kind of slip counts towards the cap, and the text is still put right past it.
    #[test]
    fn slips_past_the_cap_are_put_right_unlisted() {
        let text = format!("(;GM[1]{}B[aa])", "xx[1] YY ".repeat(2 * NOTES_MAX));
        let (out, notes) = tidied(&text);
        assert_eq!(out, format!("(;GM[1]{}B[aa])", "  ".repeat(2 * NOTES_MAX)));
        assert_eq!(notes.len(), NOTES_MAX + 1);
        assert_eq!(
            notes[NOTES_MAX],
            format!("{} more slips put right, not listed", 3 * NOTES_MAX)
        );
    }

    /// A node may hold any number of distinct identifiers: each is looked up once among
    /// those seen, and none is a slip.
    #[test]
    fn a_node_with_a_million_distinct_identifiers() {
        let letters = |mut n: usize| {
            let mut id = String::new();
            for _ in 0..5 {
                id.push(char::from(b'A' + (n % 26) as u8));
                n /= 26;
            }
            id
        };
        let props: String = (0..1_000_000).map(|n| letters(n) + "[]").collect();
        let text = format!("(;{props};{props})");
        let t = tidy(&text);
        assert!(t.notes.is_empty(), "{:?}", &t.notes[..1]);
    }
}
