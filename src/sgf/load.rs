//! Text → game trees, with sgf-parse. Every game tree of a collection is a game.

use sgf_parse::{go, GameTree, SgfNode, SgfParseError};

use crate::record::Status;

/// Why a file's text is not an SGF collection.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    #[error("not SGF: {0}")]
    Parse(String),
}

impl LoadError {
    pub fn status(&self) -> Status {
        Status::ParseError
    }
}

/// One game tree of a collection: a Go game, or a tree of another game (GM other than 1).
#[derive(Debug)]
pub enum Tree {
    Go(SgfNode<go::Prop>),
    OtherGame(String),
}

/// A parsed collection, with a note when text around it was ignored.
#[derive(Debug)]
pub struct Loaded {
    pub trees: Vec<Tree>,
    pub note: Option<String>,
}

/// Parses a collection. Mixed-case FF[3] identifiers are converted (`White` → `W`), as
/// sgf-parse does by default. Text before the first `(;` (mail headers, web pages) and after
/// the collection's last balanced `)` (a stray `)`, a signature) is ignored and noted, as most
/// SGF readers do.
pub fn load(text: &str) -> Result<Loaded, LoadError> {
    let span = collection_span(text);
    let trees = sgf_parse::parse(span.body).map_err(|e| {
        LoadError::Parse(match span.unclosed {
            Some(what) => format!("truncated: the file ends inside {what} ({})", describe(e)),
            None => describe(e),
        })
    })?;
    let trees = trees
        .into_iter()
        .map(|t| match t {
            GameTree::GoGame(node) => Tree::Go(node),
            GameTree::Unknown(node) => Tree::OtherGame(
                node.get_property("GM")
                    .map(|p| p.to_string())
                    .unwrap_or_else(|| "GM[?]".to_string()),
            ),
        })
        .collect();
    Ok(Loaded {
        trees,
        note: span.note,
    })
}

/// Where the collection lies in a file's text.
struct Span<'a> {
    body: &'a str,
    note: Option<String>,
    /// Set when the text ends inside a value or a game tree.
    unclosed: Option<&'static str>,
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
        };
    };
    let (mut depth, mut end, mut i) = (0usize, None, start);
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
            b'(' => depth += 1,
            b')' if depth == 0 => break,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    end = Some(i + 1);
                }
            }
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
        b.len()
    } else {
        end.unwrap_or(b.len())
    };
    let ignored = |s: &str| !s.trim().is_empty();
    let note = match (ignored(&text[..start]), ignored(&text[end..])) {
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
        assert_eq!(e.status(), Status::ParseError);
        assert!(e.to_string().contains("inside a property value"), "{e}");
        let e = load("(;GM[1];B[aa];W[bb]").unwrap_err();
        assert!(e.to_string().contains("inside a game tree"), "{e}");
        assert!(load("hello").is_err());
        assert!(load("").is_err());
    }

    #[test]
    fn other_games_are_kept_apart() {
        let trees = load("(;GM[2]SZ[8])").unwrap().trees;
        assert!(matches!(&trees[0], Tree::OtherGame(gm) if gm == "GM[2]"));
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
    fn an_unbalanced_collection_is_still_an_error() {
        assert!(load("(;GM[1];B[aa](;W[bb])").is_err());
        assert!(load("(;C[unterminated").is_err());
    }
}
