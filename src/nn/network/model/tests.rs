use super::testnet::{
    nested_net, real_net, tiny_net, tiny_net_and_text, Spec, B10, B15, GLOBAL, SPATIAL, TRUNK,
};
use super::*;

fn parse(spec: &Spec) -> Result<Model, ModelError> {
    Model::parse(&tiny_net(spec))
}

#[test]
fn reads_every_kind_of_layer() {
    let m = parse(&Spec::default()).unwrap();
    assert_eq!(m.name(), "tiny-test-net");
    assert_eq!(m.version(), 15);
    assert_eq!(m.num_spatial_inputs(), SPATIAL);
    assert_eq!(m.num_global_inputs(), GLOBAL);
    assert_eq!(m.post.shortterm_score_error_multiplier, 150.0);
    assert_eq!(m.trunk.channels, TRUNK);
    let kinds: Vec<&str> = m
        .trunk
        .blocks
        .iter()
        .map(|b| match b {
            Block::Residual(_) => "ordinary",
            Block::GlobalPooling(_) => "gpool",
            Block::NestedBottleneck(_) => "nested",
            Block::Attention(_) => "attention",
            Block::Ffn(_) => "ffn",
        })
        .collect();
    assert_eq!(kinds, ["ordinary", "gpool", "nested"]);
    let Block::NestedBottleneck(nested) = &m.trunk.blocks[2] else {
        unreachable!()
    };
    let Block::Attention(a) = &nested.blocks[0] else {
        panic!("attention first")
    };
    assert_eq!((a.heads, a.kv_heads, a.q_dim, a.v_dim), (2, 2, 4, 3));
    assert!(matches!(&a.rope, Rope::Learnt(f) if f.len() == 8));
    // q, k and v side by side: row 1 starts with q's row 1.
    assert_eq!((a.qkv.rows(), a.qkv.cols()), (6, 8 + 8 + 6));
    assert!(matches!(&m.trunk.tip, TrunkTip::RmsNorm(r) if r.spatial && r.act == Activation::Silu));
    assert_eq!(m.policy.channels, 2);
    assert!(matches!(m.policy.pass, PassHead::Mlp { .. }));
    let Block::GlobalPooling(g) = &m.trunk.blocks[1] else {
        unreachable!()
    };
    assert_eq!(g.mid.act, Activation::Mish);
    assert_eq!(g.conv2.ky, 5);
}

#[test]
fn reads_older_versions() {
    let m = parse(&Spec {
        version: 8,
        transformer: false,
        ..Spec::default()
    })
    .unwrap();
    assert_eq!(m.version(), 8);
    assert_eq!(m.post, PostProcessParams::default());
    assert_eq!(m.policy.channels, 1);
    assert!(matches!(m.policy.pass, PassHead::Linear(_)));
    assert!(matches!(&m.trunk.tip, TrunkTip::BatchNorm(n) if n.act == Activation::Relu));
    assert_eq!(m.value.sv3_mul.cout, 4);
    for version in [9, 10, 11, 12, 13, 14, 16] {
        let m = parse(&Spec {
            version,
            ..Spec::default()
        })
        .unwrap();
        assert_eq!(m.version(), version);
    }
}

#[test]
fn folds_batch_norm_into_a_scale_and_an_offset() {
    let m = parse(&Spec::default()).unwrap();
    let Block::Residual(b) = &m.trunk.blocks[0] else {
        unreachable!()
    };
    // The file's mean, variance, scale and bias of channel 0, after conv1 and norm2's
    // weights... are easier to recompute from the bytes than to restate: check the identity
    // instead, scale · (x − mean) / √(var + ε) + bias, on two points.
    let bytes = tiny_net(&Spec::default());
    let at = find(&bytes, b"b0.norm1\n") + b"b0.norm1\n8\n1e-05\n1\n1\n".len();
    let c = TRUNK;
    let block = |i: usize| -> Vec<f32> {
        let start = at + i * (5 + 4 * c + 1) + 5;
        bytes[start..start + 4 * c]
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect()
    };
    let (mean, var, scale, bias) = (block(0), block(1), block(2), block(3));
    for ch in 0..c {
        let f = |x: f32| scale[ch] * (x - mean[ch]) / (var[ch] + 1e-5).sqrt() + bias[ch];
        let g = |x: f32| x * b.pre.scale[ch] + b.pre.bias[ch];
        for x in [-1.5f32, 2.0] {
            assert!((f(x) - g(x)).abs() < 1e-5);
        }
    }
}

fn find(hay: &[u8], needle: &[u8]) -> usize {
    hay.windows(needle.len())
        .position(|w| w == needle)
        .expect("present")
}

fn replace(bytes: &[u8], from: &str, to: &str) -> Vec<u8> {
    let at = find(bytes, from.as_bytes());
    let mut out = bytes[..at].to_vec();
    out.extend_from_slice(to.as_bytes());
    out.extend_from_slice(&bytes[at + from.len()..]);
    out
}

#[test]
fn rejects_versions_it_does_not_know() {
    for version in [1, 5, 7, 18, 99] {
        let err = parse(&Spec {
            version,
            transformer: false,
            ..Spec::default()
        })
        .unwrap_err();
        assert_eq!(err, ModelError::UnsupportedVersion(version));
        assert!(err.to_string().contains(&format!("version {version} ")));
    }
}

#[test]
fn a_truncated_file_is_an_error_wherever_it_stops() {
    let bytes = tiny_net(&Spec::default());
    // The last byte is the newline after the last weights, which nothing needs.
    let whole = bytes.len() - 1;
    for len in (0..whole).step_by(7).chain(whole - 3..whole) {
        let Err(err) = Model::parse(&bytes[..len]) else {
            panic!("a file cut to {len} of {whole} bytes was read")
        };
        if len > whole - 4 {
            assert_eq!(
                err,
                ModelError::Truncated {
                    at: "vownership".into()
                }
            );
        }
    }
    assert!(matches!(
        Model::parse(b"").unwrap_err(),
        ModelError::Truncated { .. }
    ));
}

#[test]
fn garbage_is_an_error_not_a_panic() {
    let err = Model::parse(b"hello world").unwrap_err();
    assert!(
        matches!(
            err,
            ModelError::Syntax {
                expected: "an integer",
                ..
            }
        ),
        "{err}"
    );
    let mut state = 7u32;
    for len in [10, 100, 1000] {
        let noise: Vec<u8> = (0..len)
            .map(|_| {
                state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                (state >> 16) as u8
            })
            .collect();
        assert!(Model::parse(&noise).is_err());
    }
    // A text model (.txt.gz) in place of a binary one.
    let text = replace(&tiny_net(&Spec::default()), "@BIN@", "0.5 0.25 ");
    let err = Model::parse(&text).unwrap_err();
    assert!(err.to_string().contains("@BIN@"), "{err}");
}

#[test]
fn unknown_kinds_are_named() {
    let bytes = tiny_net(&Spec::default());
    let err = Model::parse(&replace(&bytes, "gpool_block", "fancy_block")).unwrap_err();
    assert_eq!(
        err,
        ModelError::UnknownBlockKind {
            at: "trunk".into(),
            kind: "fancy_block".into()
        }
    );
    let err = Model::parse(&replace(&bytes, "ACTIVATION_MISH", "ACTIVATION_GELU")).unwrap_err();
    assert_eq!(
        err,
        ModelError::UnknownActivation {
            at: "b1.act2".into(),
            kind: "ACTIVATION_GELU".into()
        }
    );
}

#[test]
fn wrong_sizes_are_named() {
    let err = parse(&Spec {
        value_outputs: 4,
        ..Spec::default()
    })
    .unwrap_err();
    assert_eq!(
        err,
        ModelError::Shape {
            at: "valuehead".into(),
            detail: "value outputs is 4, expected 3".into()
        }
    );
    assert!(err.to_string().contains("valuehead: wrong size"));
}

/// The loader, not the evaluation, holds the net to the inputs the features write: a net
/// that reads other inputs is refused when read.
#[test]
fn a_net_reading_other_inputs_than_the_features_write_is_refused_when_read() {
    let bytes = tiny_net(&Spec::default());
    let err = Model::parse(&replace(
        &bytes,
        "tiny-test-net\n15\n22\n",
        "tiny-test-net\n15\n23\n",
    ))
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "the model header: not supported: 23 spatial and 19 global inputs (the features are \
         KataGo's input version 7: 22 and 19)"
    );
}

#[test]
fn non_finite_weights_are_refused_and_subnormal_ones_read_as_zero() {
    let bytes = tiny_net(&Spec::default());
    let at = find(&bytes, b"vownership\n") + b"vownership\n1\n1\n3\n1\n1\n1\n@BIN@".len();
    let mut nan = bytes.clone();
    nan[at..at + 4].copy_from_slice(&f32::NAN.to_le_bytes());
    assert_eq!(
        Model::parse(&nan).unwrap_err(),
        ModelError::NotFinite {
            at: "vownership".into()
        }
    );
    let mut tiny = bytes;
    tiny[at..at + 4].copy_from_slice(&1e-40f32.to_le_bytes());
    let m = Model::parse(&tiny).unwrap();
    assert_eq!(m.value.ownership_conv.weights.get(0, 0), 0.0);
}

#[test]
fn model_is_shared_across_threads() {
    fn sync_and_send<T: Sync + Send>() {}
    sync_and_send::<Model>();
}

#[test]
fn debug_output_is_a_summary() {
    let m = parse(&Spec::default()).unwrap();
    let text = format!("{m:?}");
    assert!(text.starts_with("Model { name: \"tiny-test-net\", version: 15, blocks: 3"));
    assert!(text.len() < 200);
}

#[test]
fn real_nets_parse_to_their_known_shapes() {
    if let Some(bytes) = real_net(B10) {
        let m = Model::parse(&bytes).unwrap();
        assert_eq!((m.name(), m.version()), ("b10c384h6nbttflrs", 15));
        assert_eq!((m.num_spatial_inputs(), m.num_global_inputs()), (22, 19));
        assert_eq!(m.num_parameters(), 10_545_753, "as KataGo counts them");
        assert_eq!(m.trunk.channels, 384);
        assert_eq!(m.trunk.blocks.len(), 10);
        for b in &m.trunk.blocks {
            let Block::NestedBottleneck(n) = b else {
                panic!("nested blocks only")
            };
            assert_eq!(n.pre_conv.cout, 192);
            assert_eq!(n.blocks.len(), 4);
            for (i, inner) in n.blocks.iter().enumerate() {
                match inner {
                    Block::Attention(a) => {
                        assert_eq!(i % 2, 0);
                        assert_eq!((a.heads, a.kv_heads, a.q_dim, a.v_dim), (6, 6, 32, 32));
                        assert!(matches!(a.rope, Rope::Learnt(_)));
                    }
                    Block::Ffn(f) => {
                        assert_eq!(i % 2, 1);
                        assert_eq!(f.hidden, 512);
                    }
                    _ => panic!("transformer layers only"),
                }
            }
        }
        assert!(matches!(&m.trunk.tip, TrunkTip::RmsNorm(r) if r.spatial));
        assert_eq!(m.policy.channels, 2);
        assert_eq!(m.post.shortterm_score_error_multiplier, 150.0);
    }
    if let Some(bytes) = real_net(B15) {
        let m = Model::parse(&bytes).unwrap();
        assert_eq!(m.version(), 8);
        assert_eq!((m.num_spatial_inputs(), m.num_global_inputs()), (22, 19));
        assert_eq!(m.trunk.channels, 192);
        assert_eq!(m.trunk.blocks.len(), 15);
        let gpool: Vec<usize> = (0..15)
            .filter(|&i| matches!(m.trunk.blocks[i], Block::GlobalPooling(_)))
            .collect();
        assert_eq!(gpool, [6, 11]);
        assert_eq!(m.trunk.initial_conv.ky, 5);
        assert_eq!(m.policy.channels, 1);
        assert_eq!(m.post, PostProcessParams::default());
    }
}

#[test]
fn a_changed_digit_anywhere_in_the_text_never_panics() {
    // Whatever still parses must be consistent enough to evaluate.
    let (bytes, text) = tiny_net_and_text(&Spec::default());
    let digits: Vec<usize> = text
        .into_iter()
        .flatten()
        .filter(|&i| bytes[i].is_ascii_digit())
        .collect();
    assert!(digits.len() > 100);
    let mut parsed = 0;
    for &at in &digits {
        for digit in [b'0', b'2', b'9'] {
            let mut damaged = bytes.clone();
            damaged[at] = digit;
            if let Ok(m) = Model::parse(&damaged) {
                parsed += 1;
                let n = 9;
                let mut spatial = vec![0.0; m.num_spatial_inputs() * n];
                spatial[..n].fill(1.0);
                let global = vec![0.0; m.num_global_inputs()];
                let raw = m.evaluate(&spatial, &global, 3, &mut crate::nn::Scratch::new());
                assert_eq!(raw.ownership.len(), n);
            }
        }
    }
    assert!(
        parsed > 0,
        "some changes are harmless (a multiplier, an epsilon)"
    );
}

#[test]
fn absurd_sizes_and_depths_are_refused() {
    let bytes = tiny_net(&Spec::default());
    let huge = replace(
        &bytes,
        "conv_spatial\n3\n3\n22\n8",
        "conv_spatial\n999999\n999999\n999999\n999999",
    );
    assert!(matches!(
        Model::parse(&huge).unwrap_err(),
        ModelError::Shape { .. } | ModelError::Truncated { .. }
    ));
    // Eight levels are read (the file then ends where the trunk's tip should be)...
    assert!(matches!(
        Model::parse(&nested_net(8)).unwrap_err(),
        ModelError::Truncated { .. }
    ));
    // ... nine are not.
    assert_eq!(
        Model::parse(&nested_net(9)).unwrap_err(),
        ModelError::Unsupported {
            at: "n8".into(),
            what: "nesting deeper than 8".into()
        }
    );
}

#[test]
fn a_filter_larger_than_any_katago_uses_is_refused_before_its_weights() {
    let bytes = tiny_net(&Spec::default());
    let err = Model::parse(&replace(
        &bytes,
        "conv_spatial\n3\n3\n",
        "conv_spatial\n1001\n1001\n",
    ))
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "conv_spatial: not supported: filter 1001×1001, larger than 9×9"
    );
}

#[test]
fn a_dimension_beyond_the_bound_is_refused_by_name() {
    let bytes = tiny_net(&Spec::default());
    let err = Model::parse(&replace(&bytes, "trunk\n3\n8\n", "trunk\n3\n20000\n")).unwrap_err();
    assert_eq!(
        err.to_string(),
        "trunk: wrong size: the trunk channels is 20000, not between 1 and 16384"
    );
}

#[test]
fn a_net_whose_buffers_would_not_fit_is_refused_when_read() {
    let mut m = parse(&Spec::default()).unwrap();
    assert!(largest_buffer(&m.trunk, &m.policy, &m.value, 361).is_ok());
    // A 9×9 filter over 600 channels: an image-patch matrix of 361 × 48,600 floats.
    m.trunk.initial_conv.ky = 9;
    m.trunk.initial_conv.kx = 9;
    m.trunk.initial_conv.cin = 600;
    let err = largest_buffer(&m.trunk, &m.policy, &m.value, 361).unwrap_err();
    assert_eq!(
        err,
        ModelError::TooLarge {
            at: "conv_spatial".into(),
            floats: 361 * 81 * 600
        }
    );
    assert!(err.to_string().contains("more than the 16777216"), "{err}");
}

#[test]
fn a_variance_below_minus_epsilon_is_refused_not_read_as_nan() {
    let bytes = tiny_net(&Spec::default());
    let mean =
        find(&bytes, b"b0.norm1\n8\n1e-05\n1\n1\n@BIN@") + b"b0.norm1\n8\n1e-05\n1\n1\n@BIN@".len();
    // The variances follow the 8 means, a newline and their own @BIN@.
    let variance = mean + 8 * 4 + 1 + 5;
    assert_eq!(&bytes[variance - 5..variance], b"@BIN@");
    let mut bad = bytes.clone();
    bad[variance..variance + 4].copy_from_slice(&(-1.0f32).to_le_bytes());
    let err = Model::parse(&bad).unwrap_err();
    assert!(
        matches!(&err, ModelError::Shape { at, detail } if at == "b0.norm1" && detail.contains("variance -1")),
        "{err}"
    );
    // A variance of exactly −ε would divide by zero: refused too.
    bad[variance..variance + 4].copy_from_slice(&(-1e-5f32).to_le_bytes());
    assert!(Model::parse(&bad).is_err());
}

#[test]
fn the_flag_for_pass_alive_inputs_with_suicide_legal_is_refused_by_name() {
    let bytes = tiny_net(&Spec::default());
    let err = Model::parse(&replace(&bytes, "150.0\n0\n0\n", "150.0\n0\n1\n")).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the model header: not supported: pass-alive inputs computed as if suicide were legal"
    );
}

#[test]
fn bytes_that_are_no_model_say_so() {
    for bytes in [
        &b"# livingblocks\n\nReplays large SGF collections"[..],
        b"",
        b"\xff\xfe\x00garbage",
    ] {
        let err = Model::parse(bytes).unwrap_err();
        assert!(err.not_a_model(), "{err}");
    }
    let err = parse(&Spec {
        value_outputs: 4,
        ..Spec::default()
    })
    .unwrap_err();
    assert!(!err.not_a_model(), "{err}");
}
