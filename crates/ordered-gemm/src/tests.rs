use super::*;
use proptest::prelude::*;

/// Values with full mantissas and mixed signs and magnitudes, so that any change in the order
/// of the sums shows in the last bits.
fn values(len: usize, seed: u32) -> Vec<f32> {
    (0..len)
        .map(|i| {
            let x = (i as f32 * 0.618_034 + seed as f32 * 0.414_213).sin();
            x * (1.0 + (i % 7) as f32 * 3.7)
        })
        .collect()
}

fn product(kernel: Kernel, m: usize, k: usize, n: usize, seed: u32, accumulate: bool) -> Vec<f32> {
    let a = values(m * k, seed);
    let b = values(k * n, seed + 1);
    let mut c = values(m * (n + 3), seed + 2);
    gemm(
        kernel,
        Mat::rows(&a, m, k, k),
        &Packed::new(Mat::rows(&b, k, n, n)),
        &mut c,
        n + 3,
        accumulate,
    );
    c
}

fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

#[test]
fn the_portable_kernel_sums_each_element_in_k_order_with_one_rounding_a_step() {
    let (m, k, n) = (5, 37, 33);
    let a = values(m * k, 3);
    let b = values(k * n, 4);
    let mut c = vec![0.0f32; m * n];
    gemm(
        Kernel::Portable,
        Mat::rows(&a, m, k, k),
        &Packed::new(Mat::rows(&b, k, n, n)),
        &mut c,
        n,
        false,
    );
    for i in 0..m {
        for j in 0..n {
            let want = (0..k).fold(0.0f32, |s, l| a[i * k + l].mul_add(b[l * n + j], s));
            assert_eq!(c[i * n + j].to_bits(), want.to_bits(), "({i}, {j})");
        }
    }
}

#[test]
fn every_kernel_this_cpu_has_gives_the_portable_bits() {
    let shapes = [
        (1, 1, 1),
        (12, 64, 32),
        (13, 65, 33),
        (361, 22, 384),
        (7, 361, 64),
        (24, 5, 95),
    ];
    for kernel in Kernel::ALL.into_iter().filter(|k| k.available()) {
        for &(m, k, n) in &shapes {
            for accumulate in [false, true] {
                let want = product(Kernel::Portable, m, k, n, 9, accumulate);
                let got = product(kernel, m, k, n, 9, accumulate);
                assert_eq!(
                    bits(&got),
                    bits(&want),
                    "{kernel:?} {m}×{k}×{n} {accumulate}"
                );
            }
        }
    }
}

#[test]
fn products_are_near_the_exact_ones_and_leave_padding_alone() {
    let (m, k, n, ldc) = (14, 50, 35, 40);
    let a = values(m * k, 1);
    let bt = values(n * 60, 2);
    let mut c = vec![7.0f32; m * ldc];
    gemm(
        Kernel::fastest(),
        Mat::rows(&a, m, k, k),
        &Packed::new(Mat::transposed(&bt, k, n, 60)),
        &mut c,
        ldc,
        true,
    );
    for i in 0..m {
        for j in 0..ldc {
            let got = f64::from(c[i * ldc + j]);
            if j >= n {
                assert_eq!(got, 7.0, "padding column {j}");
                continue;
            }
            let want = 7.0
                + (0..k)
                    .map(|l| f64::from(a[i * k + l]) * f64::from(bt[j * 60 + l]))
                    .sum::<f64>();
            assert!(
                (got - want).abs() < 1e-4 * want.abs().max(1.0),
                "({i}, {j}): {got} {want}"
            );
        }
    }
}

#[test]
fn packing_keeps_every_element_and_reuses_its_buffer() {
    let b = values(9 * 70, 5);
    let mut p = Packed::new(Mat::rows(&b, 9, 70, 70));
    assert_eq!((p.rows(), p.cols()), (9, 70));
    for i in 0..9 {
        for j in 0..70 {
            assert_eq!(p.get(i, j), b[i * 70 + j]);
        }
    }
    p.pack(Mat::rows(&b, 3, 5, 70));
    assert_eq!((p.rows(), p.cols(), p.get(2, 4)), (3, 5, b[2 * 70 + 4]));
}

#[test]
fn kernels_are_named_both_ways() {
    for k in Kernel::ALL {
        assert_eq!(Kernel::from_name(k.name()), Some(k));
    }
    assert_eq!(Kernel::from_name("sse"), None);
    assert!(Kernel::fastest().available());
}

proptest! {
    /// Row i of a product is the product of row i alone: stacking inputs changes no bit.
    #[test]
    fn a_row_gives_the_same_bits_in_any_stack(m in 1usize..40, k in 1usize..80, n in 1usize..70, row in 0usize..40) {
        let row = row % m;
        let a = values(m * k, 11);
        let b = Packed::new(Mat::rows(&values(k * n, 12), k, n, n));
        for kernel in Kernel::ALL.into_iter().filter(|k| k.available()) {
            let mut all = vec![0.0f32; m * n];
            gemm(kernel, Mat::rows(&a, m, k, k), &b, &mut all, n, false);
            let mut one = vec![0.0f32; n];
            gemm(kernel, Mat::rows(&a[row * k..], 1, k, k), &b, &mut one, n, false);
            prop_assert_eq!(bits(&all[row * n..][..n]), bits(&one));
        }
    }
}

/// Floats of every magnitude, denormals included (no infinities or NaNs): random bits.
fn any_magnitude(len: usize, mut s: u64) -> Vec<f32> {
    (0..len)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let bits = s as u32;
            let exp = (bits >> 23) & 0xff;
            f32::from_bits(if exp == 0xff { bits & !(1 << 30) } else { bits })
        })
        .collect()
}

fn same_bits(a: &[f32], b: &[f32]) -> bool {
    a.iter()
        .zip(b)
        .all(|(x, y)| x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan()))
}

fn bf16_product(
    kernel: Kernel,
    a: &[f32],
    b: &[f32],
    (m, k, n): (usize, usize, usize),
    acc: bool,
) -> Vec<f32> {
    let mut c: Vec<f32> = a.iter().chain(b).cycle().take(m * n).copied().collect();
    bf16::gemm(
        kernel,
        Mat::rows(a, m, k, k),
        &bf16::PackedBf16::new(Mat::rows(b, k, n, n)),
        &mut c,
        n,
        acc,
    );
    c
}

/// The bfloat16 kernels agree bit for bit, on this CPU's `VDPBF16PS` where it has one: at
/// ordinary magnitudes, and at every magnitude (denormals flushed, overflows, cancellations).
#[test]
fn every_bf16_kernel_gives_the_same_bits_at_every_magnitude() {
    for (shape, seed) in [
        ((13, 37, 33), 1u64),
        ((12, 64, 64), 2),
        ((25, 3, 70), 3),
        ((1, 1, 1), 4),
    ] {
        let (m, k, n) = shape;
        for wide in [false, true] {
            let (a, b) = if wide {
                (any_magnitude(m * k, seed), any_magnitude(k * n, seed + 100))
            } else {
                (values(m * k, seed as u32), values(k * n, seed as u32 + 1))
            };
            for acc in [false, true] {
                let want = bf16_product(Kernel::Portable, &a, &b, shape, acc);
                for kernel in Kernel::ALL.into_iter().filter(|k| k.available()) {
                    let got = bf16_product(kernel, &a, &b, shape, acc);
                    assert!(
                        same_bits(&got, &want),
                        "{kernel:?} {shape:?} wide {wide} acc {acc}"
                    );
                }
            }
        }
    }
}

/// At ordinary magnitudes a bfloat16 product is the exact product of the rounded factors to
/// within f32's rounding, and within bfloat16's precision of the exact product.
#[test]
fn bf16_products_are_near_the_f32_ones() {
    let (m, k, n) = (9, 200, 40);
    let a = values(m * k, 5);
    let b = values(k * n, 6);
    let got = bf16_product(Kernel::fastest(), &a, &b, (m, k, n), false);
    for i in 0..m {
        for j in 0..n {
            let rounded: f64 = (0..k)
                .map(|l| {
                    f64::from(bf16::widen(bf16::round(a[i * k + l])))
                        * f64::from(bf16::widen(bf16::round(b[l * n + j])))
                })
                .sum();
            let terms = (0..k).map(|l| f64::from(a[i * k + l]) * f64::from(b[l * n + j]));
            let (exact, size) = terms.fold((0.0f64, 0.0f64), |(s, t), x| (s + x, t + x.abs()));
            let g = f64::from(got[i * n + j]);
            assert!((g - rounded).abs() < 1e-5 * size, "({i}, {j})");
            // Each factor within 2^-9 relative: each product within 2^-8.
            assert!((g - exact).abs() <= size / 256.0, "({i}, {j}): {g} {exact}");
        }
    }
}
