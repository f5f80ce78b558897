//! Text → game trees, with sgf-parse. Every game tree of a collection is a game.

use sgf_parse::{go, GameTree, SgfNode, SgfParseError, SgfProp};

/// Why a file's text is not an SGF collection.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    #[error("not SGF: {0}")]
    Parse(String),
    #[error("game trees nested {0} deep; more than {MAX_DEPTH} is not supported")]
    TooDeep(usize),
    #[error("a game tree of {0} nodes; more than {MAX_NODES} is not supported")]
    TooManyNodes(usize),
}

/// The deepest nesting of game trees accepted. Editors that open a variation for every move
/// nest a game a few hundred deep; sgf-parse frees its tree recursively, so a hostile file
/// nested a million deep would overflow any stack.
pub const MAX_DEPTH: usize = 10_000;

/// The most nodes one game tree may have. sgf-parse drops a tree recursively when parsing fails
/// half-way, one stack frame per node along a line; this keeps that within a worker's stack.
pub const MAX_NODES: usize = 500_000;

/// One game tree of a collection: a Go game, or a tree of another game (GM other than 1).
#[derive(Debug)]
pub enum Tree {
    Go(SgfNode<go::Prop>),
    OtherGame(String),
}

/// sgf-parse stores a line of play as nested children and frees them recursively: a long game
/// would overflow the stack when dropped. Trees are taken apart with a loop instead.
impl Drop for Tree {
    fn drop(&mut self) {
        if let Tree::Go(root) = self {
            dismantle(std::mem::take(&mut root.children));
        }
    }
}

fn dismantle<P: SgfProp>(mut stack: Vec<SgfNode<P>>) {
    while let Some(mut node) = stack.pop() {
        if stack.is_empty() {
            // Along a line of play: take the children's list itself, not a copy of it.
            stack = std::mem::take(&mut node.children);
        } else {
            stack.append(&mut node.children);
        }
    }
}

/// A parsed collection, with a note when text around it was ignored. Each top-level game
/// tree is parsed on its own, so one broken game does not take the others with it.
#[derive(Debug)]
pub struct Loaded {
    pub trees: Vec<Result<Tree, LoadError>>,
    pub note: Option<String>,
}

/// Parses a collection. Mixed-case FF[3] identifiers are converted (`White` → `W`), as
/// sgf-parse does by default. Text before the first `(;` (mail headers, web pages) and after
/// the collection's last balanced `)` (a stray `)`, a signature) is ignored and noted, as most
/// SGF readers do.
pub fn load(text: &str) -> Result<Loaded, LoadError> {
    let span = collection_span(text);
    if span.depth > MAX_DEPTH {
        return Err(LoadError::TooDeep(span.depth));
    }
    if span.max_nodes > MAX_NODES {
        return Err(LoadError::TooManyNodes(span.max_nodes));
    }
    let last = span.trees.len().saturating_sub(1);
    let parse_tree = |(i, &(from, to)): (usize, &(usize, usize))| {
        let unclosed = if i == last { span.unclosed } else { None };
        parse_one(&text[from..to], unclosed)
    };
    let trees: Vec<Result<Tree, LoadError>> = if span.trees.is_empty() {
        // No `(` at all: let the parser say what the text is.
        vec![parse_one(span.body, span.unclosed)]
    } else {
        span.trees.iter().enumerate().map(parse_tree).collect()
    };
    if trees.iter().all(Result::is_err) {
        // Nothing readable: the file fails as a whole, with its first error.
        return Err(trees
            .into_iter()
            .find_map(Result::err)
            .expect("one tree at least"));
    }
    Ok(Loaded {
        trees,
        note: span.note,
    })
}

/// Parses one top-level game tree.
fn parse_one(text: &str, unclosed: Option<&'static str>) -> Result<Tree, LoadError> {
    let mut trees = sgf_parse::parse(text).map_err(|e| {
        LoadError::Parse(match unclosed {
            Some(what) => format!("truncated: the file ends inside {what} ({})", describe(e)),
            None => describe(e),
        })
    })?;
    let tree = trees
        .pop()
        .ok_or_else(|| LoadError::Parse("no game tree found".into()))?;
    dismantle_all(trees);
    Ok(match tree {
        GameTree::GoGame(node) => Tree::Go(node),
        GameTree::Unknown(node) => {
            let gm = node
                .get_property("GM")
                .map_or_else(|| "GM[?]".to_string(), |p| p.to_string());
            dismantle(vec![node]);
            Tree::OtherGame(gm)
        }
    })
}

/// Frees game trees without recursion (there is one per call, but the type allows more).
fn dismantle_all(trees: Vec<GameTree>) {
    for t in trees {
        match t {
            GameTree::GoGame(node) => dismantle(vec![node]),
            GameTree::Unknown(node) => dismantle(vec![node]),
        }
    }
}

/// Where the collection lies in a file's text.
struct Span<'a> {
    body: &'a str,
    note: Option<String>,
    /// Set when the text ends inside a value or a game tree.
    unclosed: Option<&'static str>,
    /// The deepest nesting of game trees seen.
    depth: usize,
    /// The most nodes (`;` outside values) in one top-level game tree.
    max_nodes: usize,
    /// Byte ranges of the top-level game trees in the text; the last may be unclosed.
    trees: Vec<(usize, usize)>,
}

/// The part of `text` that holds the collection: from the first `(` that opens a node to
/// where the bracket depth last returns to zero. Property values (`[...]`, with `\]`
/// escapes) are skipped, so parentheses inside comments do not count.
fn collection_span(text: &str) -> Span<'_> {
    let b = text.as_bytes();
    let Some(start) = (0..b.len()).find(|&i| {
        b[i] == b'(' && b[i + 1..].iter().find(|c| !c.is_ascii_whitespace()) == Some(&b';')
    }) else {
        return Span {
            body: text,
            note: None,
            unclosed: None,
            depth: 0,
            max_nodes: 0,
            trees: Vec::new(),
        };
    };
    let (mut depth, mut max_depth, mut end, mut i) = (0usize, 0usize, None, start);
    let (mut nodes, mut max_nodes) = (0usize, 0usize);
    let (mut trees, mut tree_start, mut between) = (Vec::new(), start, 0usize);
    let mut in_value = false;
    while i < b.len() {
        match b[i] {
            b'[' => {
                i += 1;
                while i < b.len() && b[i] != b']' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                in_value = i >= b.len();
            }
            b'(' => {
                if depth == 0 {
                    nodes = 0;
                    tree_start = i;
                }
                depth += 1;
                max_depth = max_depth.max(depth);
            }
            b';' => {
                nodes += 1;
                max_nodes = max_nodes.max(nodes);
            }
            b')' if depth == 0 => break,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    end = Some(i + 1);
                    trees.push((tree_start, i + 1));
                }
            }
            c if depth == 0 && !c.is_ascii_whitespace() => between += 1,
            _ => {}
        }
        i += 1;
    }
    // Unbalanced to the end: leave the rest in, and let the parser say what is wrong.
    let unclosed = if in_value {
        Some("a property value")
    } else if depth > 0 {
        Some("a game tree")
    } else {
        None
    };
    let end = if depth > 0 {
        trees.push((tree_start, b.len()));
        b.len()
    } else {
        end.unwrap_or(b.len())
    };
    // Text between trees (outside the leading and trailing junk counted below).
    let trailing = text[end..]
        .bytes()
        .filter(|c| !c.is_ascii_whitespace())
        .count();
    let between = between.saturating_sub(trailing);
    let ignored = |s: &str| !s.trim().is_empty();
    let note = match (ignored(&text[..start]), ignored(&text[end..])) {
        (false, false) if between > 0 => {
            Some(format!("ignored {between} bytes between game trees"))
        }
        (false, false) => None,
        (true, false) => Some(format!("ignored {} bytes before the collection", start)),
        (false, true) => Some(format!(
            "ignored {} bytes after the collection",
            text.len() - end
        )),
        (true, true) => Some(format!(
            "ignored {} bytes before and {} after the collection",
            start,
            text.len() - end
        )),
    };
    Span {
        body: &text[start..end],
        note,
        unclosed,
        depth: max_depth,
        max_nodes,
        trees,
    }
}

fn describe(e: SgfParseError) -> String {
    match e {
        SgfParseError::NoGameTrees => "no game tree found".to_string(),
        SgfParseError::UnexpectedEndOfData => "unexpected end of data (truncated?)".to_string(),
        other => other.to_string().to_lowercase(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collections_give_one_tree_per_game() {
        let loaded = load("(;GM[1];B[aa])(;GM[1];B[bb])(;GM[1])").unwrap();
        assert_eq!(loaded.trees.len(), 3);
        assert_eq!(loaded.note, None);
    }

    #[test]
    fn truncated_text_is_a_parse_error() {
        let e = load("(;GM[1];B[aa];W[").unwrap_err();
        assert!(matches!(e, LoadError::Parse(_)), "{e:?}");
        assert!(e.to_string().contains("inside a property value"), "{e}");
        let e = load("(;GM[1];B[aa];W[bb]").unwrap_err();
        assert!(e.to_string().contains("inside a game tree"), "{e}");
        assert!(load("hello").is_err());
        assert!(load("").is_err());
    }

    #[test]
    fn other_games_are_kept_apart() {
        let trees = load("(;GM[2]SZ[8])").unwrap().trees;
        assert!(matches!(&trees[0], Ok(Tree::OtherGame(gm)) if gm == "GM[2]"));
    }

    #[test]
    fn a_broken_game_does_not_take_the_collection_with_it() {
        let loaded = load("(;SZ[9];B[aa])(;SZ[9];B[bb]C[x]W)(;SZ[9];W[cc])(;SZ[9];B[").unwrap();
        let ok: Vec<bool> = loaded.trees.iter().map(Result::is_ok).collect();
        assert_eq!(ok, [true, false, true, false]);
        let last = loaded.trees[3].as_ref().unwrap_err().to_string();
        assert!(last.contains("truncated"), "{last}");
        // Junk between trees is skipped and noted.
        let loaded = load("(;B[aa])\n-- next --\n(;B[bb])").unwrap();
        assert_eq!(loaded.trees.len(), 2);
        assert_eq!(
            loaded.note.as_deref(),
            Some("ignored 8 bytes between game trees")
        );
        // When nothing is readable, the file fails as a whole.
        assert!(load("(;B[aa]C)(;W").is_err());
    }

    #[test]
    fn junk_around_the_collection_is_ignored_and_noted() {
        let loaded = load("(;GM[1];B[aa];W[bb])\n)\n").unwrap();
        assert_eq!(loaded.trees.len(), 1);
        assert_eq!(
            loaded.note.as_deref(),
            Some("ignored 3 bytes after the collection")
        );
        let loaded = load("From: someone\n\n(;C[a (note\\] here)];B[aa]) -- sig").unwrap();
        assert_eq!(loaded.trees.len(), 1);
        assert_eq!(
            loaded.note.as_deref(),
            Some("ignored 15 bytes before and 7 after the collection")
        );
    }

    #[test]
    fn nesting_is_bounded_before_parsing() {
        let deep = |n: usize| format!("(;SZ[9]{}{})", "(;B[aa]".repeat(n), ")".repeat(n));
        let e = load(&deep(MAX_DEPTH)).unwrap_err();
        assert!(matches!(e, LoadError::TooDeep(_)), "{e:?}");
        assert!(load(&deep(MAX_DEPTH - 1)).is_ok());
        let long = format!("(;SZ[9]{})", ";B[aa]".repeat(MAX_NODES));
        assert!(matches!(load(&long), Err(LoadError::TooManyNodes(_))));
        // A long line of play within the limit loads, and is freed without recursion.
        let long = format!("(;SZ[9]{})", ";B[aa]".repeat(MAX_NODES - 1));
        assert_eq!(load(&long).unwrap().trees.len(), 1);
        // Parentheses inside values do not count.
        let text = format!("(;C[{}])", "(".repeat(2 * MAX_DEPTH));
        assert!(load(&text).is_ok());
    }

    #[test]
    fn an_unbalanced_collection_is_still_an_error() {
        assert!(load("(;GM[1];B[aa](;W[bb])").is_err());
        assert!(load("(;C[unterminated").is_err());
    }
}
