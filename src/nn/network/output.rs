//! KataGo's post-processing of the heads' raw outputs (its `NNEvaluator::evaluate`): policy
//! logits to probabilities over the legal moves, value logits to probabilities, the score
//! outputs scaled by the model's multipliers, and everything turned from the side to move's
//! view to White's.
//!
//! The analysis engine reports these at one visit as they are, from Black's side when asked
//! to (`reportAnalysisWinratesAs = BLACK`): `scoreLead = -white_lead`, `scoreSelfplay =
//! -white_score_mean`, `winrate = 0.5 - 0.5 · (white_win - white_loss)`, `scoreStdev =
//! white_score_stdev`, `ownership = -ownership_white`.

use crate::nn::forward::RawOutput;
use crate::nn::model::Model;

/// A position's evaluation from White's side, as KataGo's `NNOutput` holds it.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    pub white_win: f32,
    pub white_loss: f32,
    pub no_result: f32,
    /// Expected final score (White minus Black), counting no result as 0.
    pub white_score_mean: f32,
    /// Standard deviation of the final score, as the analysis engine reports it.
    pub white_score_stdev: f32,
    /// How many points White leads by: the komi change that would make the game even.
    pub white_lead: f32,
    /// Expected variance of the time left in the game; −1 before version 9.
    pub var_time_left: f32,
    /// Expected short-term errors of the value and of the score; −1 before version 9.
    pub shortterm_winloss_error: f32,
    pub shortterm_score_error: f32,
    /// From −1 (Black's) to 1 (White's), `size·size` points row by row from the top left.
    pub ownership_white: Vec<f32>,
    /// Probabilities of `size·size` moves row by row from the top left, then pass; −1 for an
    /// illegal move, as KataGo marks them.
    pub policy: Vec<f32>,
}

/// What KataGo's search tells the evaluator besides the net's outputs.
#[derive(Clone, Copy, Debug)]
pub struct PostOptions<'a> {
    pub white_to_move: bool,
    /// Whether the rules let a game end without a result. KataGo drops the no-result
    /// probability unless the ko rule is simple or the scoring is by territory (so it is
    /// kept for Japanese and Chinese rules, dropped for Tromp-Taylor, AGA, New Zealand).
    pub no_result_possible: bool,
    /// The legal moves (`size·size + 1`, pass last); `None` when all are legal.
    pub legal: Option<&'a [bool]>,
    /// How far the policy moves towards the optimistic policy channel: the analysis engine
    /// uses its `rootPolicyOptimism`, 0.2 unless configured.
    pub policy_optimism: f32,
    /// `nnPolicyTemperature`, 1 unless configured.
    pub policy_temperature: f32,
    /// `enablePassingHacks` (on in the analysis engine): the pass probability is capped at
    /// 19 times the other moves' total.
    pub passing_hacks: bool,
}

impl Default for PostOptions<'_> {
    /// The analysis engine's defaults, Black to move, every move legal.
    fn default() -> Self {
        PostOptions {
            white_to_move: false,
            no_result_possible: true,
            legal: None,
            policy_optimism: 0.2,
            policy_temperature: 1.0,
            passing_hacks: true,
        }
    }
}

/// Post-processes as KataGo's analysis engine does with its default settings, every move
/// taken as legal and rules that allow a game without result (see [`PostOptions`]).
pub fn postprocess(model: &Model, raw: &RawOutput, white_to_move: bool) -> Answer {
    postprocess_with(
        model,
        raw,
        &PostOptions {
            white_to_move,
            ..PostOptions::default()
        },
    )
}

pub fn postprocess_with(model: &Model, raw: &RawOutput, opts: &PostOptions) -> Answer {
    let policy = policy(model, raw, opts);
    let version = model.version();
    let post = &model.post;
    let s = &raw.score;

    let win_logit = f64::from(raw.value[0]);
    let loss_logit = f64::from(raw.value[1]);
    let mut no_result_logit = f64::from(raw.value[2]);
    if !opts.no_result_possible {
        no_result_logit -= 100_000.0;
    }
    let max = win_logit.max(loss_logit).max(no_result_logit);
    let mut win = (win_logit - max).exp();
    let mut loss = (loss_logit - max).exp();
    let mut no_result = if opts.no_result_possible {
        (no_result_logit - max).exp()
    } else {
        0.0
    };
    let sum = win + loss + no_result;
    win /= sum;
    loss /= sum;
    no_result /= sum;

    let mut score_mean = f64::from(s[0]) * post.score_mean_multiplier;
    let score_stdev = softplus(f64::from(s[1])) * post.score_stdev_multiplier;
    let mut score_mean_sq = score_mean * score_mean + score_stdev * score_stdev;
    let mut lead = f64::from(s[2]) * post.lead_multiplier;
    let var_time_left = softplus(f64::from(s[3])) * post.variance_time_multiplier;
    // The score outputs are conditional on the game having a result, which counts as 0.
    score_mean *= 1.0 - no_result;
    score_mean_sq *= 1.0 - no_result;
    lead *= 1.0 - no_result;

    let (var_time_left, wl_error, score_error) = if version >= 9 {
        let (wl, sc) = (f64::from(s[4]), f64::from(s[5]));
        let (wl_error, score_error) = if version >= 14 {
            let a = softplus(wl * 0.5);
            let b = softplus(sc * 0.5);
            (
                (a * a * post.shortterm_value_error_multiplier).sqrt(),
                (b * b * post.shortterm_score_error_multiplier).sqrt(),
            )
        } else if version >= 10 {
            (
                (softplus(wl) * post.shortterm_value_error_multiplier).sqrt(),
                (softplus(sc) * post.shortterm_score_error_multiplier).sqrt(),
            )
        } else {
            (softplus(wl), softplus(sc) * 10.0)
        };
        (var_time_left as f32, wl_error as f32, score_error as f32)
    } else {
        (-1.0, -1.0, -1.0)
    };

    // The net answers for the side to move.
    let flip = if opts.white_to_move { 1.0 } else { -1.0 };
    let (white_win, white_loss) = if opts.white_to_move {
        (win as f32, loss as f32)
    } else {
        (loss as f32, win as f32)
    };
    let white_score_mean = (flip * score_mean) as f32;
    let white_score_mean_sq = score_mean_sq as f32;
    let white_lead = (flip * lead) as f32;
    // The search keeps these as floats and the analysis engine's stdev comes from them.
    let mean = f64::from(white_score_mean);
    let variance = f64::from(white_score_mean_sq) - mean * mean;
    let white_score_stdev = if variance > 0.0 { variance.sqrt() } else { 0.0 } as f32;

    let ownership_white = raw
        .ownership
        .iter()
        .map(|&v| flip as f32 * v.tanh())
        .collect();

    Answer {
        white_win,
        white_loss,
        no_result: no_result as f32,
        white_score_mean,
        white_score_stdev,
        white_lead,
        var_time_left,
        shortterm_winloss_error: wl_error,
        shortterm_score_error: score_error,
        ownership_white,
        policy,
    }
}

fn policy(model: &Model, raw: &RawOutput, opts: &PostOptions) -> Vec<f32> {
    let n = raw.size * raw.size;
    let channels = raw.policy_channels();
    let optimistic = channels == 2 || (channels == 4 && model.version() >= 16);
    let logit = |plain: f32, opt: f32| {
        if optimistic {
            plain + (opt - plain) * opts.policy_optimism
        } else {
            plain
        }
    };
    let opt_channel = if optimistic { 1 } else { 0 };
    let scaling = 1.0 / opts.policy_temperature;
    let legal = |i: usize| opts.legal.is_none_or(|l| l[i]);
    if let Some(l) = opts.legal {
        assert_eq!(l.len(), n + 1, "one legality per point and one for pass");
    }

    let mut p: Vec<f32> = (0..=n)
        .map(|i| {
            if !legal(i) {
                return -1e30;
            }
            let raw_logit = if i < n {
                logit(raw.policy[i], raw.policy[opt_channel * n + i])
            } else {
                logit(raw.policy_pass[0], raw.policy_pass[opt_channel])
            };
            raw_logit * scaling
        })
        .collect();
    let max = p.iter().fold(-1e25f32, |m, &v| m.max(v));
    let mut sum = 0.0f32;
    if opts.passing_hacks {
        for v in &mut p[..n] {
            *v = (*v - max).exp();
            sum += *v;
        }
        p[n] = ((p[n] - max).exp()).min(sum * 19.0).max(1e-20);
        sum += p[n];
    } else {
        for v in &mut p {
            *v = (*v - max).exp();
            sum += *v;
        }
    }
    let legal_count = (0..=n).filter(|&i| legal(i)).count();
    assert!(legal_count > 0, "no legal move, not even pass");
    for (i, v) in p.iter_mut().enumerate() {
        *v = if !legal(i) {
            -1.0
        } else if sum > 0.0 {
            *v / sum
        } else {
            1.0 / legal_count as f32
        };
    }
    p
}

fn softplus(x: f64) -> f64 {
    if x > 40.0 {
        x
    } else {
        (1.0 + x.exp()).ln()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nn::model::testnet::{tiny_net, Spec};

    fn model(version: i32) -> Model {
        Model::parse(&tiny_net(&Spec {
            version,
            transformer: false,
            ..Spec::default()
        }))
        .unwrap()
    }

    /// A 2×2 board's raw outputs with two policy channels.
    fn raw() -> RawOutput {
        RawOutput {
            size: 2,
            policy: vec![0.0, 1.0, 2.0, 3.0, 4.0, 1.0, 2.0, -2.0],
            policy_pass: vec![-1.0, 1.0],
            value: [1.0, 0.0, -3.0],
            score: vec![0.1, -0.5, 0.05, 0.3, -1.0, 0.4],
            ownership: vec![0.5, -2.0, 0.0, 10.0],
        }
    }

    #[test]
    fn values_are_turned_to_white_s_side() {
        let m = model(15);
        let (b, w) = (
            postprocess(&m, &raw(), false),
            postprocess(&m, &raw(), true),
        );
        let e = [1f64.exp(), 1.0, (-3f64).exp()];
        let total: f64 = e.iter().sum();
        assert!((f64::from(w.white_win) - e[0] / total).abs() < 1e-7);
        assert!((f64::from(w.white_loss) - e[1] / total).abs() < 1e-7);
        assert_eq!((b.white_win, b.white_loss), (w.white_loss, w.white_win));
        assert_eq!(b.no_result, w.no_result);
        let kept = 1.0 - e[2] / total;
        // Scores are ×20, conditional on a result.
        assert!((f64::from(w.white_score_mean) - 2.0 * kept).abs() < 1e-5);
        assert!((f64::from(w.white_lead) - 1.0 * kept).abs() < 1e-5);
        assert_eq!(
            (b.white_score_mean, b.white_lead),
            (-w.white_score_mean, -w.white_lead)
        );
        let stdev = 20.0 * (1.0 + (-0.5f64).exp()).ln();
        let var = (4.0 + stdev * stdev) * kept - 4.0 * kept * kept;
        assert!((f64::from(w.white_score_stdev) - var.sqrt()).abs() < 1e-4);
        assert_eq!(w.ownership_white[1], (-2.0f32).tanh());
        assert_eq!(b.ownership_white[3], -(10.0f32).tanh());
        // Version 14 on: errors from squared softplus of half the output.
        let sp = |x: f64| (1.0 + x.exp()).ln();
        assert!(
            (f64::from(w.shortterm_winloss_error) - (sp(-0.5).powi(2) * 0.25).sqrt()).abs() < 1e-6
        );
        assert!((f64::from(w.var_time_left) - sp(0.3) * 40.0).abs() < 1e-5);
    }

    #[test]
    fn no_result_is_dropped_where_the_rules_have_none() {
        let m = model(15);
        let opts = PostOptions {
            no_result_possible: false,
            ..PostOptions::default()
        };
        let a = postprocess_with(&m, &raw(), &opts);
        assert_eq!(a.no_result, 0.0);
        assert!((f64::from(a.white_loss) - 1.0 / (1.0 + (-1f64).exp())).abs() < 1e-7);
        assert!((f64::from(a.white_score_mean) + 2.0).abs() < 1e-5);
    }

    #[test]
    fn policy_mixes_in_optimism_over_legal_moves_only() {
        let m = model(15);
        let legal = [true, false, true, true, true];
        let opts = PostOptions {
            legal: Some(&legal),
            ..PostOptions::default()
        };
        let p = postprocess_with(&m, &raw(), &opts).policy;
        assert_eq!(p[1], -1.0);
        // plain + 0.2 · (optimistic − plain)
        let logits = [0.8f64, 2.0, 2.0, -0.6];
        let e: Vec<f64> = logits.iter().map(|l| l.exp()).collect();
        let total: f64 = e.iter().sum();
        for (i, want) in [(0, e[0]), (2, e[1]), (3, e[2]), (4, e[3])] {
            assert!((f64::from(p[i]) - want / total).abs() < 1e-6, "move {i}");
        }
        // Version 11 has one channel: the second is ignored.
        let v11 = model(11);
        let one = RawOutput {
            policy: vec![0.0; 4],
            policy_pass: vec![0.0],
            ..raw()
        };
        assert!(postprocess(&v11, &one, true)
            .policy
            .iter()
            .all(|&v| v == 0.2));
    }

    #[test]
    fn passing_is_capped_at_nineteen_times_the_rest() {
        let m = model(15);
        let mut r = raw();
        r.policy_pass = vec![40.0, 40.0];
        let p = postprocess(&m, &r, false).policy;
        assert!((p[4] - 0.95).abs() < 1e-6);
        let off = PostOptions {
            passing_hacks: false,
            ..PostOptions::default()
        };
        assert!(postprocess_with(&m, &r, &off).policy[4] > 0.999);
    }

    #[test]
    fn old_nets_have_no_error_estimates() {
        let m = model(8);
        let r = RawOutput {
            policy: vec![0.0; 4],
            policy_pass: vec![0.0],
            score: vec![0.1, -0.5, 0.05, 0.3],
            ..raw()
        };
        let a = postprocess(&m, &r, true);
        assert_eq!(
            (
                a.var_time_left,
                a.shortterm_winloss_error,
                a.shortterm_score_error
            ),
            (-1.0, -1.0, -1.0)
        );
        assert!((a.white_lead - 1.0 * (1.0 - a.no_result)).abs() < 1e-5);
    }
}
