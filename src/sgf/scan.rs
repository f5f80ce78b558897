//! The one scanner that finds the top-level game trees of a collection, for a file's text
//! (`load`) and for a compressed stream cut into trees as it arrives (`source::archive`), so
//! the same bytes give the same games either way.
//!
//! A game tree starts at a `(` whose next byte other than white space is `;`, and ends at the
//! `)` that brings the bracket depth back to zero. Inside a tree, property values (`[...]`,
//! with `\` escapes) are skipped, so brackets in comments do not count. Everything outside the
//! trees (mail headers, a stray `)`, signatures) is ignored, and counted so that it can be
//! noted: a stray `)` no longer ends the collection.

/// One top-level game tree: its byte range, what was ignored before it, and its shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeSpan {
    pub start: usize,
    /// One past the closing `)`, or the end of the input for a tree left open.
    pub end: usize,
    /// Bytes other than white space ignored between the previous tree (or the start) and
    /// this one.
    pub ignored_before: usize,
    /// Set when the input ends inside the tree: what it ends inside.
    pub unclosed: Option<&'static str>,
    /// The deepest nesting of game trees in it.
    pub depth: usize,
    /// The most nodes (`;` outside values) along its trees.
    pub nodes: usize,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum State {
    /// Between trees.
    Outside,
    /// A `(` at this offset, followed by white space only so far.
    Opening(usize),
    Inside,
}

/// Finds game trees in bytes fed in pieces of any size.
#[derive(Clone, Debug)]
pub struct TreeScanner {
    /// The offset of the next byte fed.
    pos: usize,
    state: State,
    start: usize,
    depth: usize,
    max_depth: usize,
    nodes: usize,
    in_value: bool,
    escaped: bool,
    ignored: usize,
}

impl Default for TreeScanner {
    fn default() -> Self {
        TreeScanner::new()
    }
}

impl TreeScanner {
    pub fn new() -> TreeScanner {
        TreeScanner {
            pos: 0,
            state: State::Outside,
            start: 0,
            depth: 0,
            max_depth: 0,
            nodes: 0,
            in_value: false,
            escaped: false,
            ignored: 0,
        }
    }

    /// Scans `bytes`, the input's next piece, and pushes every tree that closes in it. One
    /// tight loop: every byte of every file passes through it.
    pub fn feed(&mut self, bytes: &[u8], trees: &mut Vec<TreeSpan>) {
        let base = self.pos;
        let n = bytes.len();
        let mut i = 0;
        if self.escaped && n > 0 {
            self.escaped = false;
            i = 1;
        }
        while i < n {
            if self.in_value {
                // Skip the value to its closing `]`, over `\` escapes.
                while i < n && bytes[i] != b']' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                if i >= n {
                    // An escape as the piece's last byte escapes the next piece's first.
                    self.escaped = i > n;
                    break;
                }
                self.in_value = false;
            } else if self.state == State::Inside {
                match bytes[i] {
                    b'[' => self.in_value = true,
                    b'(' => {
                        self.depth += 1;
                        self.max_depth = self.max_depth.max(self.depth);
                    }
                    b';' => self.nodes += 1,
                    b')' => {
                        self.depth -= 1;
                        if self.depth == 0 {
                            trees.push(self.span(base + i + 1, None));
                            self.state = State::Outside;
                        }
                    }
                    _ => {}
                }
            } else {
                self.pos = base + i;
                self.between(bytes[i]);
            }
            i += 1;
        }
        self.pos = base + n;
    }

    /// A byte between trees, at offset `self.pos`.
    fn between(&mut self, b: u8) {
        match self.state {
            State::Outside => {
                if b == b'(' {
                    self.state = State::Opening(self.pos);
                } else if !b.is_ascii_whitespace() {
                    self.ignored += 1;
                }
            }
            State::Opening(at) => {
                if b == b';' {
                    self.state = State::Inside;
                    self.start = at;
                    self.depth = 1;
                    self.max_depth = 1;
                    self.nodes = 1;
                } else if !b.is_ascii_whitespace() {
                    // Not a tree: the `(` was junk; look at this byte afresh.
                    self.ignored += 1;
                    self.state = State::Outside;
                    self.between(b);
                }
            }
            State::Inside => unreachable!("bytes inside a tree are scanned by feed"),
        }
    }

    fn span(&mut self, end: usize, unclosed: Option<&'static str>) -> TreeSpan {
        let span = TreeSpan {
            start: self.start,
            end,
            ignored_before: self.ignored,
            unclosed,
            depth: self.max_depth,
            nodes: self.nodes,
        };
        self.ignored = 0;
        span
    }

    /// Where the tree being read began, if one is (or may be) under way: the bytes from here
    /// on are still needed.
    pub fn pending_from(&self) -> Option<usize> {
        match self.state {
            State::Outside => None,
            State::Opening(at) => Some(at),
            State::Inside => Some(self.start),
        }
    }

    /// Ends the input: the tree left open, if any, and the bytes ignored after the last tree.
    pub fn end(mut self) -> (Option<TreeSpan>, usize) {
        match self.state {
            State::Inside => {
                let what = if self.in_value {
                    "a property value"
                } else {
                    "a game tree"
                };
                (Some(self.span(self.pos, Some(what))), 0)
            }
            // A lone `(` at the very end is junk.
            State::Opening(_) => (None, self.ignored + 1),
            State::Outside => (None, self.ignored),
        }
    }
}

/// The note a game's `detail` gets for the text ignored around its tree.
pub fn ignored_note(before: usize, after: Option<usize>) -> Option<String> {
    let bytes = |n: usize| format!("{n} byte{}", if n == 1 { "" } else { "s" });
    match (before, after.unwrap_or(0)) {
        (0, 0) => None,
        (b, 0) => Some(format!("ignored {} before this game tree", bytes(b))),
        (0, a) => Some(format!("ignored {} after the last game tree", bytes(a))),
        (b, a) => Some(format!(
            "ignored {} before this game tree and {} after it",
            bytes(b),
            bytes(a)
        )),
    }
}

/// Every tree of a whole text, and the bytes ignored after the last one.
pub fn scan(text: &[u8]) -> (Vec<TreeSpan>, usize) {
    let mut s = TreeScanner::new();
    let mut trees = Vec::new();
    s.feed(text, &mut trees);
    let (open, after) = s.end();
    trees.extend(open);
    (trees, after)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ranges(text: &str) -> Vec<&str> {
        scan(text.as_bytes())
            .0
            .iter()
            .map(|t| &text[t.start..t.end])
            .collect()
    }

    #[test]
    fn trees_open_with_a_node() {
        assert_eq!(
            ranges("(;B[aa])(\n ;W[bb](;B[cc]))"),
            ["(;B[aa])", "(\n ;W[bb](;B[cc]))"]
        );
        // `(` without a node is not a tree; a stray `)` does not end the collection.
        let text = "From: x (someone)\n(;B[aa]))\n(;W[bb])) -- sig";
        assert_eq!(ranges(text), ["(;B[aa])", "(;W[bb])"]);
        let (trees, after) = scan(text.as_bytes());
        assert_eq!(trees[0].ignored_before, 15);
        assert_eq!(trees[1].ignored_before, 1);
        assert_eq!(after, 6);
    }

    #[test]
    fn brackets_in_values_do_not_count() {
        let text = r"(;C[a (note\] here) ];B[aa])(;C[)])";
        assert_eq!(ranges(text), [r"(;C[a (note\] here) ];B[aa])", "(;C[)])"]);
    }

    #[test]
    fn an_open_tree_says_what_it_ends_inside() {
        let (t, _) = scan(b"(;B[aa];W[");
        assert_eq!(t[0].unclosed, Some("a property value"));
        let (t, _) = scan(b"(;B[aa](;W[bb])");
        assert_eq!((t[0].unclosed, t[0].end), (Some("a game tree"), 15));
    }

    #[test]
    fn shape_is_measured_per_tree() {
        let (t, _) = scan(b"(;B[aa](;W[bb](;B[cc])))(;;;)");
        assert_eq!((t[0].depth, t[0].nodes), (3, 3));
        assert_eq!((t[1].depth, t[1].nodes), (1, 3));
    }

    /// Fed in pieces of any size, the scanner finds what it finds in the whole text.
    #[test]
    fn pieces_give_the_whole() {
        let text = b"junk ( x (\n;B[aa]C[(\\]])) ) (;W[bb](;B[cc]))(;B[";
        let whole = scan(text);
        for size in 1..text.len() {
            let mut s = TreeScanner::new();
            let mut trees = Vec::new();
            for piece in text.chunks(size) {
                s.feed(piece, &mut trees);
            }
            let (open, after) = s.end();
            trees.extend(open);
            assert_eq!((trees, after), whole, "pieces of {size}");
        }
    }
}
