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
