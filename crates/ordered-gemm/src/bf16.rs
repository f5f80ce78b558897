//! Products with both factors rounded to bfloat16 (8 bits of mantissa), summed in f32 as x86's
//! `VDPBF16PS` sums them: for each pair of steps `(2p, 2p + 1)` of the inner dimension,
//! `c ← ftz(fma(a[2p+1], b[2p+1], daz(c)))`, then `c ← ftz(fma(a[2p], b[2p], c))`, where
//! denormal inputs read as zero (`daz`) and denormal results are flushed to zero (`ftz`).
//! That is the instruction's own definition, checked against it bit for bit on random
//! operands of every magnitude (`tests`), so the portable and AVX2 kernels, which compute
//! it with ordinary fused multiply-adds, give the bits CPUs with AVX-512 BF16 give, only
//! slower.

use crate::{Kernel, Mat, NR};

/// `x` rounded to the nearest bfloat16, ties to even; a denormal reads as zero, as the
/// instruction reads it; NaN stays NaN.
pub fn round(x: f32) -> u16 {
    let bits = x.to_bits();
    if x.is_nan() {
        return ((bits >> 16) | 0x40) as u16;
    }
    if x != 0.0 && x.abs() < f32::MIN_POSITIVE {
        return ((bits >> 16) & 0x8000) as u16;
    }
    // A value just below the largest bfloat16 may round to infinity, as it must.
    (bits.wrapping_add(0x7fff + ((bits >> 16) & 1)) >> 16) as u16
}

/// The float a bfloat16 stands for.
pub fn widen(b: u16) -> f32 {
    f32::from_bits(u32::from(b) << 16)
}

/// Denormals (inputs and results) as zero, keeping the sign.
#[inline(always)]
fn flush(x: f32) -> f32 {
    if x.abs() < f32::MIN_POSITIVE {
        0.0f32.copysign(x)
    } else {
        x
    }
}

/// `B` rounded to bfloat16, in panels of [`NR`] columns; each step of a panel holds, for each
/// column, the pair `(b[2p][j], b[2p+1][j])` in one `u32` (the even step in the low half),
/// the layout `VDPBF16PS` multiplies. An odd inner dimension is padded with a zero step.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PackedBf16 {
    k: usize,
    n: usize,
    data: Vec<u32>,
}

impl PackedBf16 {
    pub fn new(b: Mat) -> PackedBf16 {
        let (k, n) = (b.rows, b.cols);
        let pairs = k.div_ceil(2);
        let mut data = vec![0u32; n.div_ceil(NR) * pairs * NR];
        for (p, panel) in data.chunks_exact_mut((pairs * NR).max(1)).enumerate() {
            for (q, step) in panel.chunks_exact_mut(NR).enumerate() {
                for (j, v) in step.iter_mut().enumerate() {
                    let col = p * NR + j;
                    if col >= n {
                        break;
                    }
                    let at = |l: usize| if l < k { round(b.at(l, col)) } else { 0 };
                    *v = u32::from(at(2 * q)) | (u32::from(at(2 * q + 1)) << 16);
                }
            }
        }
        PackedBf16 { k, n, data }
    }

    pub fn rows(&self) -> usize {
        self.k
    }

    pub fn cols(&self) -> usize {
        self.n
    }

    pub fn len(&self) -> usize {
        self.k * self.n
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Element (i, j), as rounded.
    pub fn get(&self, i: usize, j: usize) -> f32 {
        assert!(
            i < self.k && j < self.n,
            "({i}, {j}) outside {}×{}",
            self.k,
            self.n
        );
        let pairs = self.k.div_ceil(2);
        let v = self.data[(j / NR) * pairs * NR + (i / 2) * NR + j % NR];
        widen((v >> (16 * (i % 2))) as u16)
    }

    fn panel(&self, p: usize) -> &[u32] {
        let pairs = self.k.div_ceil(2);
        &self.data[p * pairs * NR..][..pairs * NR]
    }
}

thread_local! {
    /// `A` rounded, a block of rows at a time.
    static ROUNDED_A: std::cell::RefCell<Vec<u32>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Rows of a tile.
const ROWS: usize = 12;

/// `c = a·b` or `c += a·b` with `a` rounded to bfloat16 as it is read, summed as the module
/// says; every kernel gives the same bits.
pub fn gemm(kernel: Kernel, a: Mat, b: &PackedBf16, c: &mut [f32], ldc: usize, accumulate: bool) {
    let (m, k, n) = (a.rows, a.cols, b.n);
    assert!(
        kernel.available(),
        "{} is not available on this CPU",
        kernel.name()
    );
    assert_eq!(b.k, k, "inner dimensions differ");
    assert!(ldc >= n, "output rows overlap");
    if m == 0 || n == 0 {
        return;
    }
    assert!((m - 1) * ldc + n <= c.len(), "output outside its slice");
    let pairs = k.div_ceil(2);
    let tile = Tile::of(kernel);
    ROUNDED_A.with_borrow_mut(|ra| {
        let mut out = [0.0f32; ROWS * NR];
        for i0 in (0..m).step_by(ROWS) {
            let rows = ROWS.min(m - i0);
            // The block's rows as pairs, zero rows below the last.
            ra.clear();
            ra.resize(ROWS * pairs, 0);
            for r in 0..rows {
                let dst = &mut ra[r * pairs..][..pairs];
                for (q, v) in dst.iter_mut().enumerate() {
                    let at = |l: usize| if l < k { round(a.at(i0 + r, l)) } else { 0 };
                    *v = u32::from(at(2 * q)) | (u32::from(at(2 * q + 1)) << 16);
                }
            }
            for p in 0..n.div_ceil(NR) {
                let j0 = p * NR;
                let cols = NR.min(n - j0);
                let panel = b.panel(p);
                if accumulate {
                    for r in 0..rows {
                        out[r * NR..][..cols].copy_from_slice(&c[(i0 + r) * ldc + j0..][..cols]);
                    }
                }
                // SAFETY: `ra` holds ROWS rows of `pairs` pairs, the panel `pairs` steps of
                // NR, `out` ROWS rows of NR; the kernel is available (asserted above).
                unsafe {
                    tile.run(
                        pairs,
                        ra.as_ptr(),
                        panel.as_ptr(),
                        out.as_mut_ptr(),
                        accumulate,
                    )
                };
                for r in 0..rows {
                    c[(i0 + r) * ldc + j0..][..cols].copy_from_slice(&out[r * NR..][..cols]);
                }
            }
        }
    });
}

/// The code a kernel runs a bfloat16 tile with.
#[derive(Clone, Copy)]
enum Tile {
    Portable,
    #[cfg(target_arch = "x86_64")]
    Avx2,
    #[cfg(target_arch = "x86_64")]
    Avx512Bf16,
}

impl Tile {
    fn of(kernel: Kernel) -> Tile {
        match kernel {
            Kernel::Portable => Tile::Portable,
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512 if crate::x86::has_bf16() => Tile::Avx512Bf16,
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 | Kernel::Avx512 => Tile::Avx2,
            #[cfg(not(target_arch = "x86_64"))]
            _ => Tile::Portable,
        }
    }

    /// One ROWS×NR tile: `a` ROWS rows of `pairs` pairs, `b` `pairs` steps of NR pairs, `c`
    /// ROWS rows of NR floats (its start when `accumulate`).
    ///
    /// # Safety
    /// The pointers hold what is said, and the kernel's instructions are available.
    unsafe fn run(self, pairs: usize, a: *const u32, b: *const u32, c: *mut f32, accumulate: bool) {
        match self {
            Tile::Portable => tile_portable(pairs, a, b, c, accumulate),
            #[cfg(target_arch = "x86_64")]
            Tile::Avx2 => crate::x86::bf16_tile_avx2(pairs, a, b, c, accumulate),
            #[cfg(target_arch = "x86_64")]
            Tile::Avx512Bf16 => crate::x86::bf16_tile_avx512(pairs, a, b, c, accumulate),
        }
    }
}

/// # Safety
/// As `Tile::run`.
unsafe fn tile_portable(pairs: usize, a: *const u32, b: *const u32, c: *mut f32, accumulate: bool) {
    let a = std::slice::from_raw_parts(a, ROWS * pairs);
    let b = std::slice::from_raw_parts(b, pairs * NR);
    let c = std::slice::from_raw_parts_mut(c, ROWS * NR);
    if !accumulate {
        c.fill(0.0);
    }
    for (r, row) in c.chunks_exact_mut(NR).enumerate() {
        let ar = &a[r * pairs..][..pairs];
        for (j, v) in row.iter_mut().enumerate() {
            let mut acc = flush(*v);
            for (q, &ap) in ar.iter().enumerate() {
                let bp = b[q * NR + j];
                let (ae, ao) = (widen(ap as u16), widen((ap >> 16) as u16));
                let (be, bo) = (widen(bp as u16), widen((bp >> 16) as u16));
                acc = flush(ao.mul_add(bo, acc));
                acc = flush(ae.mul_add(be, acc));
            }
            *v = acc;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_is_to_nearest_even_and_reads_denormals_as_zero() {
        assert_eq!(round(1.0), 0x3f80);
        // 1 + 2^-8 lies halfway between 1 and 1 + 2^-7: to the even one, 1.
        assert_eq!(round(1.0 + 1.0 / 256.0), 0x3f80);
        assert_eq!(round(1.0 + 3.0 / 256.0), 0x3f82);
        assert_eq!(round(-2.5), 0xc020);
        assert_eq!(round(1e-40), 0);
        assert_eq!(round(-1e-40), 0x8000);
        assert_eq!(round(f32::MAX), 0x7f80, "rounds up to infinity");
        assert!(widen(round(f32::NAN)).is_nan());
        assert_eq!(widen(round(3.0)), 3.0);
    }

    #[test]
    fn packing_rounds_every_element_and_pads_odd_steps() {
        let b: Vec<f32> = (0..5 * 40).map(|i| (i as f32 * 0.37).sin()).collect();
        let p = PackedBf16::new(Mat::rows(&b, 5, 40, 40));
        for i in 0..5 {
            for j in 0..40 {
                assert_eq!(p.get(i, j), widen(round(b[i * 40 + j])));
            }
        }
    }
}
