//! Text → game trees, with sgf-parse. Every game tree of a collection is a game.

use sgf_parse::{go, GameTree, SgfNode, SgfParseError, SgfProp};

use super::scan::{ignored_note, scan, TreeSpan};
use super::tidy::tidy;

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

/// A parsed collection: every top-level game tree, each parsed on its own so that one broken
/// game does not take the others with it.
#[derive(Debug)]
pub struct Loaded {
    pub trees: Vec<LoadedTree>,
}

/// One game tree of a collection, with a note when text in or around it was ignored.
#[derive(Debug)]
pub struct LoadedTree {
    pub tree: Result<Tree, LoadError>,
    pub note: Option<String>,
}

/// Parses a collection. Mixed-case FF[3] identifiers are converted (`White` → `W`), as
/// sgf-parse does by default. The trees are found by `scan` (the same scanner splits
/// compressed collections); text outside them (mail headers, a stray `)`, a signature) is
/// ignored and noted on the game it precedes or, after the last, follows. A text without a
/// tree is an error of the whole file.
pub fn load(text: &str) -> Result<Loaded, LoadError> {
    let (spans, after) = scan(text.as_bytes());
    if spans.is_empty() {
        return Err(LoadError::Parse("no game tree found".into()));
    }
    let last = spans.len() - 1;
    let trees = spans
        .iter()
        .enumerate()
        .map(|(i, span)| {
            let (tree, mut notes) = load_tree(text, span);
            notes.extend(ignored_note(
                span.ignored_before,
                (i == last).then_some(after),
            ));
            LoadedTree {
                tree,
                note: (!notes.is_empty()).then(|| notes.join("; ")),
            }
        })
        .collect();
    Ok(Loaded { trees })
}

/// Parses the game tree `span` of `text`, within the limits on nesting and nodes, after
/// putting right the slips other readers accept (`tidy`); the notes say what was.
fn load_tree(text: &str, span: &TreeSpan) -> (Result<Tree, LoadError>, Vec<String>) {
    if span.depth > MAX_DEPTH {
        return (Err(LoadError::TooDeep(span.depth)), Vec::new());
    }
    if span.nodes > MAX_NODES {
        return (Err(LoadError::TooManyNodes(span.nodes)), Vec::new());
    }
    let tidied = tidy(&text[span.start..span.end]);
    (parse_one(&tidied.text, span.unclosed), tidied.notes)
}

/// Parses one top-level game tree.
fn parse_one(text: &str, unclosed: Option<&'static str>) -> Result<Tree, LoadError> {
    let mut trees = sgf_parse::parse(text).map_err(|e| {
        LoadError::Parse(match unclosed {
            Some(what) => format!("truncated: the file ends inside {what} ({})", describe(e)),
            None => match locate(text) {
                Some(at) => format!("{} ({at})", describe(e)),
                None => describe(e),
            },
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

/// Where in a tree sgf-parse gave up: it says not, so the tree is parsed again leniently (up
/// to the error) and its nodes counted; the last node it read is where to look.
fn locate(text: &str) -> Option<String> {
    let lenient = sgf_parse::ParseOptions {
        lenient: true,
        ..sgf_parse::ParseOptions::default()
    };
    let trees = sgf_parse::parse_with_options(text, &lenient).ok()?;
    let mut nodes = 0usize;
    for t in &trees {
        let root = match t {
            GameTree::GoGame(n) => count_nodes(n),
            GameTree::Unknown(n) => count_nodes(n),
        };
        nodes += root;
    }
    dismantle_all(trees);
    let at = node_offset(text, nodes.max(1) - 1)?;
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    // The node's text, its properties named: up to the next line break, 40 characters at most.
    let node: String = text[at..]
        .chars()
        .take_while(|&c| c != '\n' && c != '\r')
        .take(40)
        .collect();
    Some(format!(
        "in or after node {} of the game tree, line {line}, column {column}: {node}",
        nodes.max(1) - 1
    ))
}

fn count_nodes<P: SgfProp>(root: &SgfNode<P>) -> usize {
    let mut stack = vec![root];
    let mut n = 0;
    while let Some(node) = stack.pop() {
        n += 1;
        stack.extend(node.children.iter());
    }
    n
}

/// The byte offset of the `;` that opens node `k` (in text order) of a tree.
fn node_offset(text: &str, k: usize) -> Option<usize> {
    let b = text.as_bytes();
    let (mut i, mut seen) = (0, 0);
    while i < b.len() {
        match b[i] {
            b'[' => {
                i += 1;
                while i < b.len() && b[i] != b']' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b';' => {
                if seen == k {
                    return Some(i);
                }
                seen += 1;
            }
            _ => {}
        }
        i += 1;
    }
    None
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
        assert!(loaded.trees.iter().all(|t| t.note.is_none()));
    }

    #[test]
    fn truncated_text_is_a_parse_error() {
        let e = load("(;SZ[9]\n;B[aa]\n;W[bb]\n;B[cc]((;W[dd])))")
            .unwrap()
            .trees
            .remove(0)
            .tree;
        let e = e.unwrap_err().to_string();
        assert!(
            e.ends_with(
                "(in or after node 3 of the game tree, line 4, column 1: ;B[cc]((;W[dd]))))"
            ),
            "{e}"
        );
        let first = |text: &str| load(text).unwrap().trees.remove(0).tree;
        let e = first("(;GM[1];B[aa];W[").unwrap_err();
        assert!(matches!(e, LoadError::Parse(_)), "{e:?}");
        assert!(e.to_string().contains("inside a property value"), "{e}");
        let e = first("(;GM[1];B[aa];W[bb]").unwrap_err();
        assert!(e.to_string().contains("inside a game tree"), "{e}");
        assert!(load("hello").is_err());
        assert!(load("").is_err());
    }

    #[test]
    fn other_games_are_kept_apart() {
        let trees = load("(;GM[2]SZ[8])").unwrap().trees;
        assert!(matches!(&trees[0].tree, Ok(Tree::OtherGame(gm)) if gm == "GM[2]"));
    }

    #[test]
    fn a_broken_game_does_not_take_the_collection_with_it() {
        let loaded = load("(;SZ[9];B[aa])(;GM[x];B[bb])(;SZ[9];W[cc])(;SZ[9];B[").unwrap();
        let ok: Vec<bool> = loaded.trees.iter().map(|t| t.tree.is_ok()).collect();
        assert_eq!(ok, [true, false, true, false]);
        let last = loaded.trees[3].tree.as_ref().unwrap_err().to_string();
        assert!(last.contains("truncated"), "{last}");
        // Junk between trees is skipped and noted on the game after it.
        let loaded = load("(;B[aa])\n-- next --\n(;B[bb])").unwrap();
        assert_eq!(loaded.trees.len(), 2);
        assert_eq!(loaded.trees[0].note, None);
        assert_eq!(
            loaded.trees[1].note.as_deref(),
            Some("ignored 8 bytes before this game tree")
        );
        // Broken games are games: each its own error.
        assert_eq!(load("(;B[aa]C)(;W").unwrap().trees.len(), 2);
    }

    #[test]
    fn junk_around_the_collection_is_ignored_and_noted() {
        let loaded = load("(;GM[1];B[aa];W[bb])\n)\n").unwrap();
        assert_eq!(loaded.trees.len(), 1);
        assert_eq!(
            loaded.trees[0].note.as_deref(),
            Some("ignored 1 byte after the last game tree")
        );
        let loaded = load("From: someone\n\n(;C[a (note\\] here)];B[aa]) -- sig").unwrap();
        assert_eq!(loaded.trees.len(), 1);
        assert_eq!(
            loaded.trees[0].note.as_deref(),
            Some("ignored 12 bytes before this game tree and 5 bytes after it")
        );
        // A stray `)` does not end the collection: the games after it are read.
        let loaded = load("(;B[aa]))(;W[bb])").unwrap();
        assert_eq!(loaded.trees.len(), 2);
    }

    #[test]
    fn nesting_is_bounded_before_parsing() {
        let deep = |n: usize| format!("(;SZ[9]{}{})", "(;B[aa]".repeat(n), ")".repeat(n));
        let first = |text: &str| load(text).unwrap().trees.remove(0).tree;
        let e = first(&deep(MAX_DEPTH)).unwrap_err();
        assert!(matches!(e, LoadError::TooDeep(_)), "{e:?}");
        assert!(first(&deep(MAX_DEPTH - 1)).is_ok());
        let long = format!("(;SZ[9]{})", ";B[aa]".repeat(MAX_NODES));
        assert!(matches!(first(&long), Err(LoadError::TooManyNodes(_))));
        // A long line of play within the limit loads, and is freed without recursion.
        let long = format!("(;SZ[9]{})", ";B[aa]".repeat(MAX_NODES - 1));
        assert!(first(&long).is_ok());
        // Parentheses inside values do not count.
        let text = format!("(;C[{}])", "(".repeat(2 * MAX_DEPTH));
        assert!(first(&text).is_ok());
    }

    #[test]
    fn an_unbalanced_collection_is_still_an_error() {
        let first = |text: &str| load(text).unwrap().trees.remove(0).tree;
        assert!(first("(;GM[1];B[aa](;W[bb])").is_err());
        assert!(first("(;C[unterminated").is_err());
    }
}
