//! Text → game trees, with sgf-parse. Every game tree of a collection is a game.

use sgf_parse::{go, GameTree, SgfNode, SgfParseError};

/// Why a file's text is not an SGF collection.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    #[error("not SGF: {0}")]
    Parse(String),
}

impl LoadError {
    pub fn code(&self) -> &'static str {
        "parse_error"
    }
}

/// One game tree of a collection: a Go game, or a tree of another game (GM other than 1).
#[derive(Debug)]
pub enum Tree {
    Go(SgfNode<go::Prop>),
    OtherGame(String),
}

/// Parses a collection. Mixed-case FF[3] identifiers are converted (`White` → `W`), as
/// sgf-parse does by default.
pub fn load(text: &str) -> Result<Vec<Tree>, LoadError> {
    let trees = sgf_parse::parse(text).map_err(|e| LoadError::Parse(describe(e)))?;
    Ok(trees
        .into_iter()
        .map(|t| match t {
            GameTree::GoGame(node) => Tree::Go(node),
            GameTree::Unknown(node) => Tree::OtherGame(
                node.get_property("GM")
                    .map(|p| p.to_string())
                    .unwrap_or_else(|| "GM[?]".to_string()),
            ),
        })
        .collect())
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
        let trees = load("(;GM[1];B[aa])(;GM[1];B[bb])(;GM[1])").unwrap();
        assert_eq!(trees.len(), 3);
    }

    #[test]
    fn truncated_text_is_a_parse_error() {
        let e = load("(;GM[1];B[aa];W[").unwrap_err();
        assert_eq!(e.code(), "parse_error");
        assert!(load("hello").is_err());
        assert!(load("").is_err());
    }

    #[test]
    fn other_games_are_kept_apart() {
        let trees = load("(;GM[2]SZ[8])").unwrap();
        assert!(matches!(&trees[0], Tree::OtherGame(gm) if gm == "GM[2]"));
    }
}
