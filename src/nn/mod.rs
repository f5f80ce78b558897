//! KataGo's networks evaluated in-process: the model format (`model`), KataGo's input
//! features for a position (`features`, read from a board with KataGo's own rules, ladder
//! reader, pass-alive areas and replay), the forward pass (`forward`) and the
//! post-processing of its outputs (`output`). Pure computation: the file is read at the
//! edge (`crate::engine::nn`).
//!
//! The position is put to the net as KataGo's analysis engine puts it when `--katago` asks:
//! the game's moves where the record is a plain move list, else (or where KataGo would refuse
//! the moves) the final stones; symmetry 0, as with `nnRandomize=false`. The answers are
//! KataGo's at one visit: its lead, expected score and ownership, Black's side.

mod area;
mod board;
pub mod features;
pub mod forward;
mod ladder;
pub mod model;
pub mod output;
mod replay;
pub mod rules;

pub use features::{encode, IllegalMove, NetInput};
pub use forward::{RawOutput, Scratch};
pub use model::{Model, ModelError};
pub use ordered_gemm::Kernel;
pub use output::{postprocess_with, Answer, PostOptions};
pub use rules::KataRules;

use crate::go::rules::{KoRule, Scoring};
use crate::go::Color;
use crate::score::judgement::{EngineAnswer, EngineQuery, EngineView, NoAnswer};

/// The net's judgement of `q`, in the terms `--katago` answers in.
pub fn judge(model: &Model, q: &EngineQuery, scratch: &mut Scratch) -> EngineAnswer {
    let rules = KataRules::of(q.rules);
    let as_moves = q.history.as_ref().and_then(|h| {
        let first = h.moves.first().map_or(q.to_move, |&(c, _)| c);
        encode(q.size, &h.setup, &h.moves, first, &rules, q.komi).ok()
    });
    let history = as_moves.is_some();
    let input = match as_moves {
        Some(input) => input,
        None => encode(q.size, &q.stones, &[], q.to_move, &rules, q.komi)
            .map_err(|e| NoAnswer::Unencodable(e.to_string()))?,
    };
    let a = evaluate(model, &input, &rules, scratch);
    Ok(EngineView {
        lead: -a.white_lead,
        score: -a.white_score_mean,
        ownership: a.ownership_white.iter().map(|o| -o).collect(),
        history,
    })
}

/// The net's answer for `input`, post-processed as KataGo's analysis engine does under
/// `rules`.
pub fn evaluate(
    model: &Model,
    input: &NetInput,
    rules: &KataRules,
    scratch: &mut Scratch,
) -> Answer {
    let raw = model.evaluate(
        &input.spatial,
        &input.global,
        usize::from(input.size),
        scratch,
    );
    let options = PostOptions {
        white_to_move: input.to_move == Color::White,
        // KataGo lets a game end without a result only where a long cycle can stop it.
        no_result_possible: rules.ko == KoRule::Simple || rules.scoring == Scoring::Territory,
        legal: Some(&input.legal),
        ..PostOptions::default()
    };
    postprocess_with(model, &raw, &options)
}
