//! KataGo's networks evaluated in-process, along KataGo's own seams: the network
//! (`network`: the model format, the forward pass, the post-processing of its outputs) and
//! the game (`game`: KataGo's rules, board, ladder reader, pass-alive areas and history, and
//! the input features read from them). Pure computation on the game's types (`go`)
//! alone: the file is read, and a scoring question put to the net, at the edge
//! (`crate::engine::nn`).

pub mod game;
pub mod network;

pub use game::{features, rules};
pub use network::{forward, model, output};

pub use features::{encode, NetInput, RefusedMove};
pub use forward::{RawOutput, Scratch};
pub use model::{Model, ModelError};
pub use ordered_gemm::Kernel;
pub use output::{postprocess_with, Answer, PostOptions};
pub use rules::KataRules;

use crate::go::rules::{KoRule, Scoring};
use crate::go::Color;

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
        no_result_possible: rules.game.ko == KoRule::Simple
            || rules.scoring() == Scoring::Territory,
        legal: Some(&input.legal),
        ..PostOptions::default()
    };
    postprocess_with(model, &raw, &options)
}
