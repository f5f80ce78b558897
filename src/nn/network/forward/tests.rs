use super::*;
use crate::nn::model::testnet::{real_net, tiny_net, Spec, B10, B15, GLOBAL, SPATIAL};
use crate::nn::model::Rope;
use crate::nn::output::postprocess;

/// Reproducible numbers in [-1, 1).
fn noise(len: usize, seed: u32) -> Vec<f32> {
    let mut s = seed.wrapping_mul(2_654_435_761).max(1);
    (0..len)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            (s >> 8) as f32 / (1u32 << 23) as f32 - 1.0
        })
        .collect()
}

fn close(got: f32, want: f64, tol: f64) -> bool {
    (f64::from(got) - want).abs() <= tol * (1.0 + want.abs())
}

fn tiny_model() -> Model {
    Model::parse(&tiny_net(&Spec::default())).unwrap()
}

/// The tiny net's nested block's attention and feed-forward blocks.
fn transformer_blocks(m: &Model) -> (&AttentionBlock, &FfnBlock) {
    let Block::NestedBottleneck(n) = &m.trunk.blocks[2] else {
        unreachable!()
    };
    match (&n.blocks[0], &n.blocks[1]) {
        (Block::Attention(a), Block::Ffn(f)) => (a, f),
        _ => unreachable!(),
    }
}

#[test]
fn convolutions_match_a_naive_loop() {
    let size = 5;
    let n = size * size;
    for (k, accumulate) in [(1, false), (3, false), (3, true), (5, false)] {
        let (cin, cout) = (3, 4);
        let conv = Conv {
            name: "c".into(),
            ky: k,
            kx: k,
            cin,
            cout,
            weights: Packed::new(Mat::rows(
                &noise(k * k * cin * cout, k as u32),
                k * k * cin,
                cout,
                cout,
            )),
        };
        let x = noise(n * cin, 99);
        let start = noise(n * cout, 7);
        let mut out = start.clone();
        Eval { size, n }.conv(&conv, &x, &mut out, accumulate, &mut Scratch::new());
        let r = (k / 2) as isize;
        for y in 0..size as isize {
            for xx in 0..size as isize {
                for oc in 0..cout {
                    let mut want = if accumulate {
                        f64::from(start[(y as usize * size + xx as usize) * cout + oc])
                    } else {
                        0.0
                    };
                    for dy in 0..k as isize {
                        for dx in 0..k as isize {
                            let (sy, sx) = (y + dy - r, xx + dx - r);
                            if sy < 0 || sx < 0 || sy >= size as isize || sx >= size as isize {
                                continue;
                            }
                            for ic in 0..cin {
                                let w = conv
                                    .weights
                                    .get((dy as usize * k + dx as usize) * cin + ic, oc);
                                let v = x[(sy as usize * size + sx as usize) * cin + ic];
                                want += f64::from(w) * f64::from(v);
                            }
                        }
                    }
                    let got = out[(y as usize * size + xx as usize) * cout + oc];
                    assert!(close(got, want, 1e-5), "{k}×{k} at ({xx},{y}) oc {oc}");
                }
            }
        }
    }
}

#[test]
fn pooling_divides_by_the_board_and_scales_by_its_width() {
    let size = 4;
    let (n, c) = (16, 3);
    let x = noise(n * c, 5);
    let mut out = vec![0.0; 3 * c];
    let ev = Eval { size, n };
    ev.pool(&x, c, &mut out);
    let mut vout = vec![0.0; 3 * c];
    ev.value_pool(&x, c, &mut vout);
    let width = 4.0 - 14.0;
    for ch in 0..c {
        let col: Vec<f64> = (0..n).map(|p| f64::from(x[p * c + ch])).collect();
        let mean = col.iter().sum::<f64>() / n as f64;
        let max = col.iter().cloned().fold(f64::MIN, f64::max);
        assert!(close(out[ch], mean, 1e-6));
        assert!(close(out[c + ch], mean * width * 0.1, 1e-6));
        assert_eq!(f64::from(out[2 * c + ch]), max);
        assert!(close(vout[ch], mean, 1e-6));
        assert!(close(vout[c + ch], mean * width * 0.1, 1e-6));
        assert!(close(
            vout[2 * c + ch],
            mean * (width * width * 0.01 - 0.1),
            1e-6
        ));
    }
}

#[test]
fn rotary_encoding_turns_pairs_by_their_angle() {
    // One head of two pairs: turned by 90° and by 180°.
    let mut x = [1.0f32, 2.0, 3.0, 4.0];
    rotate(&mut x, 1, 1, 4, &[0.0, -1.0], &[1.0, 0.0]);
    assert_eq!(x, [-2.0, 1.0, -3.0, -4.0]);
}

#[test]
fn learnt_rotary_angles_are_x_fx_plus_y_fy_and_only_offsets_matter() {
    let m = tiny_model();
    let (a, _) = transformer_blocks(&m);
    let Rope::Learnt(f) = &a.rope else {
        unreachable!()
    };
    let size = 5;
    let t = a.rope_tables(size).unwrap();
    let pairs = a.q_dim / 2;
    let per_point = a.kv_heads * pairs;
    // kv head 1, pair 0, at (x, y) = (3, 2).
    let i = (2 * size + 3) * per_point + pairs;
    let angle = 3.0 * f[2 * pairs] + 2.0 * f[2 * pairs + 1];
    assert_eq!((t.cos[i], t.sin[i]), (angle.cos(), angle.sin()));
    // A query and a key turned at two pairs of points with the same offset meet at the same
    // angle: their dot product does not change.
    let (q, k) = (noise(8, 1), noise(8, 2));
    let dot_at = |pq: usize, pk: usize| {
        let mut qq = q.clone();
        let mut kk = k.clone();
        let tab = |p: usize| (p * per_point, (p + 1) * per_point);
        let (s, e) = tab(pq);
        rotate(&mut qq, 2, 2, 4, &t.cos[s..e], &t.sin[s..e]);
        let (s, e) = tab(pk);
        rotate(&mut kk, 2, 2, 4, &t.cos[s..e], &t.sin[s..e]);
        qq.iter().zip(&kk).map(|(a, b)| a * b).sum::<f32>()
    };
    let d1 = dot_at(0, size + 2);
    let d2 = dot_at(2 * size + 1, 3 * size + 3);
    assert!((d1 - d2).abs() < 1e-5, "{d1} {d2}");
    assert!((d1 - dot_at(0, 0)).abs() > 1e-3, "the offset does matter");
}

/// KataGo's attention block, computed the plain way in f64.
fn naive_attention(a: &AttentionBlock, x: &[f32], size: usize) -> Vec<f64> {
    let n = size * size;
    let c = a.qkv.rows();
    let (h, dq, dv) = (a.heads, a.q_dim, a.v_dim);
    let Rope::Learnt(freqs) = &a.rope else {
        unreachable!()
    };
    let normed: Vec<f64> = x
        .chunks(c)
        .flat_map(|row| {
            let ms = row.iter().map(|&v| f64::from(v).powi(2)).sum::<f64>() / c as f64;
            let inv = 1.0 / (ms + f64::from(a.norm.epsilon)).sqrt();
            row.iter()
                .zip(&a.norm.weight)
                .map(move |(&v, &w)| f64::from(v) * inv * f64::from(w))
                .collect::<Vec<_>>()
        })
        .collect();
    // The projection whose outputs are columns `first..first + cout` of the fused weights.
    let project = |first: usize, cout: usize| -> Vec<f64> {
        let mut out = vec![0.0; n * cout];
        for p in 0..n {
            for o in 0..cout {
                out[p * cout + o] = (0..c)
                    .map(|i| normed[p * c + i] * f64::from(a.qkv.get(i, first + o)))
                    .sum();
            }
        }
        out
    };
    let (wq, wk) = (h * dq, a.kv_heads * dq);
    let (mut q, mut k, v) = (
        project(0, wq),
        project(wq, wk),
        project(wq + wk, a.kv_heads * dv),
    );
    for buf in [&mut q, &mut k] {
        for p in 0..n {
            let (px, py) = ((p % size) as f64, (p / size) as f64);
            for head in 0..h {
                for i in 0..dq / 2 {
                    let fi = (head * dq / 2 + i) * 2;
                    let angle = px * f64::from(freqs[fi]) + py * f64::from(freqs[fi + 1]);
                    let j = p * h * dq + head * dq + 2 * i;
                    let (x0, x1) = (buf[j], buf[j + 1]);
                    buf[j] = x0 * angle.cos() - x1 * angle.sin();
                    buf[j + 1] = x0 * angle.sin() + x1 * angle.cos();
                }
            }
        }
    }
    let mut att = vec![0.0; n * h * dv];
    for head in 0..h {
        for p in 0..n {
            let s: Vec<f64> = (0..n)
                .map(|p2| {
                    (0..dq)
                        .map(|d| q[p * h * dq + head * dq + d] * k[p2 * h * dq + head * dq + d])
                        .sum::<f64>()
                        / (dq as f64).sqrt()
                })
                .collect();
            let max = s.iter().cloned().fold(f64::MIN, f64::max);
            let e: Vec<f64> = s.iter().map(|v| (v - max).exp()).collect();
            let total: f64 = e.iter().sum();
            for d in 0..dv {
                att[p * h * dv + head * dv + d] = (0..n)
                    .map(|p2| e[p2] / total * v[p2 * h * dv + head * dv + d])
                    .sum();
            }
        }
    }
    (0..n * c)
        .map(|i| {
            let (p, o) = (i / c, i % c);
            f64::from(x[i])
                + (0..h * dv)
                    .map(|j| att[p * h * dv + j] * f64::from(a.out.get(j, o)))
                    .sum::<f64>()
        })
        .collect()
}

#[test]
fn attention_matches_a_naive_computation() {
    let m = tiny_model();
    let (a, _) = transformer_blocks(&m);
    for size in [1, 3, 4] {
        let n = size * size;
        let c = a.qkv.rows();
        let x0 = noise(n * c, size as u32);
        let mut x = x0.clone();
        Eval { size, n }.attention(a, &mut x, c, &mut Scratch::new());
        let want = naive_attention(a, &x0, size);
        for (i, (&g, &w)) in x.iter().zip(&want).enumerate() {
            assert!(close(g, w, 1e-5), "size {size} element {i}: {g} vs {w}");
        }
    }
}

#[test]
fn feed_forward_matches_a_naive_computation() {
    let m = tiny_model();
    let (_, f) = transformer_blocks(&m);
    let (size, n, c, hidden) = (3, 9, f.linear1_gate.rows(), f.hidden);
    let x0 = noise(n * c, 11);
    let mut x = x0.clone();
    Eval { size, n }.ffn(f, &mut x, c, &mut Scratch::new());
    for p in 0..n {
        let row: Vec<f64> = x0[p * c..(p + 1) * c]
            .iter()
            .map(|&v| f64::from(v))
            .collect();
        let ms = row.iter().map(|v| v * v).sum::<f64>() / c as f64;
        let inv = 1.0 / (ms + f64::from(f.norm.epsilon)).sqrt();
        let normed: Vec<f64> = (0..c)
            .map(|i| row[i] * inv * f64::from(f.norm.weight[i]))
            .collect();
        let dense = |j: usize| -> f64 {
            (0..c)
                .map(|i| normed[i] * f64::from(f.linear1_gate.get(i, j)))
                .sum()
        };
        let h: Vec<f64> = (0..hidden)
            .map(|j| {
                let a = dense(j);
                a / (1.0 + (-a).exp()) * dense(hidden + j)
            })
            .collect();
        for o in 0..c {
            let want = row[o]
                + (0..hidden)
                    .map(|j| h[j] * f64::from(f.linear2.get(j, o)))
                    .sum::<f64>();
            assert!(close(x[p * c + o], want, 1e-5), "point {p} channel {o}");
        }
    }
}

fn tiny_inputs(size: usize, seed: u32) -> (Vec<f32>, Vec<f32>) {
    let n = size * size;
    let mut spatial: Vec<f32> = noise(SPATIAL * n, seed)
        .into_iter()
        .map(|v| if v > 0.3 { 1.0 } else { 0.0 })
        .collect();
    spatial[..n].fill(1.0);
    (spatial, noise(GLOBAL, seed + 1))
}

#[test]
fn outputs_have_the_board_s_shape_and_are_finite() {
    let m = tiny_model();
    let mut scratch = Scratch::new();
    for size in 1..=7 {
        let (spatial, global) = tiny_inputs(size, 3);
        let raw = m.evaluate(&spatial, &global, size, &mut scratch);
        let n = size * size;
        assert_eq!(raw.size, size);
        assert_eq!(raw.policy.len(), 2 * n);
        assert_eq!(raw.policy_pass.len(), 2);
        assert_eq!(raw.ownership.len(), n);
        assert_eq!(raw.score.len(), 6);
        let all = raw.policy.iter().chain(&raw.policy_pass).chain(&raw.value);
        assert!(all
            .chain(&raw.score)
            .chain(&raw.ownership)
            .all(|v| v.is_finite()));
        let a = postprocess(&m, &raw, size % 2 == 0);
        assert_eq!(a.policy.len(), n + 1);
        assert!((a.policy.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        assert!(a.ownership_white.iter().all(|o| o.abs() <= 1.0));
    }
    let v8 = Model::parse(&tiny_net(&Spec {
        version: 8,
        transformer: false,
        ..Spec::default()
    }))
    .unwrap();
    let (spatial, global) = tiny_inputs(5, 4);
    let raw = v8.evaluate(&spatial, &global, 5, &mut scratch);
    assert_eq!(
        (raw.policy.len(), raw.policy_pass.len(), raw.score.len()),
        (25, 1, 4)
    );
}

#[test]
fn a_position_gives_the_same_bits_on_any_thread_after_any_other() {
    let m = tiny_model();
    let (spatial, global) = tiny_inputs(6, 9);
    let alone = m.evaluate(&spatial, &global, 6, &mut Scratch::new());
    std::thread::scope(|s| {
        for t in 0..3u32 {
            let (m, spatial, global, alone) = (&m, &spatial, &global, &alone);
            s.spawn(move || {
                // Buffers left over from other sizes and positions first.
                let mut scratch = Scratch::new();
                for size in [9, 2, 6 + t as usize] {
                    let (sp, gl) = tiny_inputs(size, t + 20);
                    m.evaluate(&sp, &gl, size, &mut scratch);
                }
                assert_eq!(&m.evaluate(spatial, global, 6, &mut scratch), alone);
            });
        }
    });
}

#[test]
#[should_panic(expected = "channel 0 must be 1")]
fn a_board_inside_a_bigger_grid_is_refused() {
    let m = tiny_model();
    let (mut spatial, global) = tiny_inputs(4, 1);
    spatial[15] = 0.0;
    m.evaluate(&spatial, &global, 4, &mut Scratch::new());
}

/// KataGo 1.18.1's answers (analysis engine, one visit, Black's view) for empty boards
/// under Japanese rules, komi 6.5: size, player, winrate, lead, self-play score, score
/// stdev, and the ownership and policy of the top-left corner, the centre and pass.
type Expected = (usize, bool, [f64; 4], [f64; 2], [f64; 3]);

const B10_EMPTY: [Expected; 4] = [
    (
        19,
        false,
        [0.475868493, -0.393556565, -0.596667588, 15.762612],
        [-0.008544, 0.012276],
        [6.2760937e-06, 5.67389725e-05, 1.14102568e-05],
    ),
    (
        9,
        false,
        [0.260774463, -0.61024785, -0.943925202, 6.57309008],
        [0.011839, 0.538039],
        [3.92306902e-05, 0.660884142, 0.000136978197],
    ),
    (
        19,
        true,
        [0.0107811457, -13.5584965, -15.2172737, 14.9059115],
        [-0.02433, -0.006607],
        [2.86792852e-06, 0.00170416944, 7.35428648e-06],
    ),
    (
        13,
        false,
        [0.402611494, -0.943056107, -1.07835281, 10.0564575],
        [0.03471, 0.004557],
        [5.1017505e-06, 2.35416428e-05, 4.06706531e-05],
    ),
];

const B15_EMPTY: [Expected; 4] = [
    (
        19,
        false,
        [0.482499033, -0.213267192, -0.108301528, 21.8970596],
        [0.027472, 0.004408],
        [6.46411536e-06, 6.3518266e-05, 4.34704016e-05],
    ),
    (
        9,
        false,
        [0.458980337, 0.0268754382, 0.0224671457, 11.5268817],
        [0.052856, 0.327465],
        [4.02752221e-06, 0.444216996, 5.21787979e-06],
    ),
    (
        19,
        true,
        [0.0716644526, -11.9340134, -15.7024689, 24.6255039],
        [-0.007893, 0.009071],
        [7.33727393e-06, 7.71481573e-05, 5.73331163e-05],
    ),
    (
        13,
        false,
        [0.489533186, -0.465259373, -0.233968213, 15.9348039],
        [0.032826, 0.056736],
        [2.85618421e-06, 2.14129068e-05, 2.47907483e-05],
    ),
];

#[test]
fn real_nets_answer_empty_boards_as_katago_does() {
    for (file, expected) in [(B10, &B10_EMPTY), (B15, &B15_EMPTY)] {
        let Some(bytes) = real_net(file) else {
            continue;
        };
        let m = Model::parse(&bytes).unwrap();
        let mut scratch = Scratch::new();
        for &(size, white, values, own, pol) in expected {
            let n = size * size;
            let mut spatial = vec![0.0; m.num_spatial_inputs() * n];
            spatial[..n].fill(1.0);
            // Japanese rules: komi for the side to move, territory scoring, seki tax.
            let mut global = vec![0.0; m.num_global_inputs()];
            global[5] = if white { 6.5 } else { -6.5 } / 20.0;
            global[9] = 1.0;
            global[10] = 1.0;
            let raw = m.evaluate(&spatial, &global, size, &mut scratch);
            let a = postprocess(&m, &raw, white);
            let winrate = 0.5 - 0.5 * (f64::from(a.white_win) - f64::from(a.white_loss));
            let ours = [
                winrate,
                -f64::from(a.white_lead),
                -f64::from(a.white_score_mean),
            ];
            let what = format!("{file} {size}×{size} {}", if white { "W" } else { "B" });
            for (i, name) in ["winrate", "lead", "score"].iter().enumerate() {
                assert!(
                    (ours[i] - values[i]).abs() < 1e-4,
                    "{what} {name}: {}",
                    ours[i]
                );
            }
            assert!(
                (f64::from(a.white_score_stdev) - values[3]).abs() < 1e-3,
                "{what}"
            );
            let centre = (size / 2) * size + size / 2;
            for (i, p) in [0, centre].into_iter().enumerate() {
                let o = -f64::from(a.ownership_white[p]);
                assert!((o - own[i]).abs() < 1e-4, "{what} ownership {p}: {o}");
            }
            for (i, p) in [0, centre, n].into_iter().enumerate() {
                let got = f64::from(a.policy[p]);
                assert!(
                    (got - pol[i]).abs() < 1e-5 + 1e-3 * pol[i],
                    "{what} policy {p}"
                );
            }
        }
    }
}

#[test]
fn real_nets_give_the_same_bits_across_threads() {
    let Some(bytes) = real_net(B10) else {
        return;
    };
    let m = Model::parse(&bytes).unwrap();
    let size = 9;
    let n = size * size;
    let mut spatial = vec![0.0; m.num_spatial_inputs() * n];
    spatial[..n].fill(1.0);
    for p in 0..n {
        spatial[(1 + p % 2) * n + p] = f32::from(p % 5 == 0);
    }
    let global = vec![0.0; m.num_global_inputs()];
    let alone = m.evaluate(&spatial, &global, size, &mut Scratch::new());
    std::thread::scope(|s| {
        let other = s.spawn(|| {
            let mut scratch = Scratch::new();
            let empty = vec![1.0; m.num_spatial_inputs() * 169];
            m.evaluate(&empty, &global, 13, &mut scratch);
            m.evaluate(&spatial, &global, size, &mut scratch)
        });
        assert_eq!(other.join().unwrap(), alone);
    });
}

#[test]
fn real_nets_agree_with_katago_on_an_uneven_position() {
    // Black D4, Q16, K10, White Q4, C10, Black to move, Japanese rules, komi 6.5: KataGo
    // gives White one point for Black's extra stone under territory scoring. An uneven
    // position shows whether rows and columns are the right way round.
    let black = [(3, 15), (15, 3), (9, 9)];
    let white = [(15, 15), (2, 9)];
    // Winrate, lead, self-play score; ownership at D4, Q16, Q4; policy at D16, R4, pass.
    let expected = [
        (
            B10,
            [0.99301757, 12.6956129, 15.1787891],
            [0.817061, 0.842609, -0.739562],
            [0.361283481, 0.00359335146, 3.19675928e-06],
        ),
        (
            B15,
            [0.937807271, 11.8419342, 16.072422],
            [0.821056, 0.832652, -0.695958],
            [0.390499383, 0.000925347849, 2.18207606e-06],
        ),
    ];
    for (file, values, own, pol) in expected {
        let Some(bytes) = real_net(file) else {
            continue;
        };
        let m = Model::parse(&bytes).unwrap();
        let (size, n) = (19, 361);
        let mut spatial = vec![0.0; m.num_spatial_inputs() * n];
        spatial[..n].fill(1.0);
        let mut legal = vec![true; n + 1];
        for (channel, stones) in [(1, &black[..]), (2, &white[..])] {
            for &(x, y) in stones {
                spatial[channel * n + y * size + x] = 1.0;
                legal[y * size + x] = false;
            }
        }
        let mut global = vec![0.0; m.num_global_inputs()];
        global[5] = -7.5 / 20.0;
        global[9] = 1.0;
        global[10] = 1.0;
        let raw = m.evaluate(&spatial, &global, size, &mut Scratch::new());
        let opts = crate::nn::output::PostOptions {
            legal: Some(&legal),
            ..Default::default()
        };
        let a = crate::nn::output::postprocess_with(&m, &raw, &opts);
        let winrate = 0.5 - 0.5 * (f64::from(a.white_win) - f64::from(a.white_loss));
        let ours = [
            winrate,
            -f64::from(a.white_lead),
            -f64::from(a.white_score_mean),
        ];
        for i in 0..3 {
            assert!(
                (ours[i] - values[i]).abs() < 1e-4,
                "{file} value {i}: {}",
                ours[i]
            );
        }
        for (i, p) in [15 * 19 + 3, 3 * 19 + 15, 15 * 19 + 15]
            .into_iter()
            .enumerate()
        {
            let o = -f64::from(a.ownership_white[p]);
            assert!((o - own[i]).abs() < 1e-4, "{file} ownership {p}: {o}");
        }
        assert_eq!(a.policy[15 * 19 + 3], -1.0, "occupied");
        for (i, p) in [3 * 19 + 3, 15 * 19 + 16, n].into_iter().enumerate() {
            let got = f64::from(a.policy[p]);
            assert!(
                (got - pol[i]).abs() < 1e-5 + 1e-3 * pol[i],
                "{file} policy {p}: {got}"
            );
        }
    }
}
