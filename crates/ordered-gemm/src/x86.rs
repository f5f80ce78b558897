//! The vector kernels. Each lane of an accumulator is one element of `C`, and each step is
//! one fused multiply-add per lane: the same operations as the portable kernel.

use std::arch::x86_64::*;

use crate::NR;

const ROWS_AVX2: usize = 6;
const ROWS_AVX512: usize = 12;

/// A 6×32 tile, as two 6×16 halves (6 rows × 2 vectors of accumulators fill 12 of the 16
/// registers).
///
/// # Safety
/// As `Kernel::tile`, on a CPU with AVX2 and FMA.
#[target_feature(enable = "avx2,fma")]
pub(crate) unsafe fn tile_avx2(
    k: usize,
    a: *const f32,
    lda: usize,
    b: *const f32,
    c: *mut f32,
    ldc: usize,
    accumulate: bool,
) {
    for half in 0..2 {
        let (b, c) = (b.add(half * 16), c.add(half * 16));
        let mut acc = [[_mm256_setzero_ps(); 2]; ROWS_AVX2];
        if accumulate {
            for (r, v) in acc.iter_mut().enumerate() {
                v[0] = _mm256_loadu_ps(c.add(r * ldc));
                v[1] = _mm256_loadu_ps(c.add(r * ldc + 8));
            }
        }
        for l in 0..k {
            let b0 = _mm256_loadu_ps(b.add(l * NR));
            let b1 = _mm256_loadu_ps(b.add(l * NR + 8));
            for (r, v) in acc.iter_mut().enumerate() {
                let x = _mm256_broadcast_ss(&*a.add(r * lda + l));
                v[0] = _mm256_fmadd_ps(x, b0, v[0]);
                v[1] = _mm256_fmadd_ps(x, b1, v[1]);
            }
        }
        for (r, v) in acc.iter().enumerate() {
            _mm256_storeu_ps(c.add(r * ldc), v[0]);
            _mm256_storeu_ps(c.add(r * ldc + 8), v[1]);
        }
    }
}

/// A 12×32 tile (12 rows × 2 vectors of accumulators use 24 of the 32 registers).
///
/// # Safety
/// As `Kernel::tile`, on a CPU with AVX-512F.
#[target_feature(enable = "avx512f")]
pub(crate) unsafe fn tile_avx512(
    k: usize,
    a: *const f32,
    lda: usize,
    b: *const f32,
    c: *mut f32,
    ldc: usize,
    accumulate: bool,
) {
    let mut acc = [[_mm512_setzero_ps(); 2]; ROWS_AVX512];
    if accumulate {
        for (r, v) in acc.iter_mut().enumerate() {
            v[0] = _mm512_loadu_ps(c.add(r * ldc));
            v[1] = _mm512_loadu_ps(c.add(r * ldc + 16));
        }
    }
    for l in 0..k {
        let b0 = _mm512_loadu_ps(b.add(l * NR));
        let b1 = _mm512_loadu_ps(b.add(l * NR + 16));
        for (r, v) in acc.iter_mut().enumerate() {
            let x = _mm512_set1_ps(*a.add(r * lda + l));
            v[0] = _mm512_fmadd_ps(x, b0, v[0]);
            v[1] = _mm512_fmadd_ps(x, b1, v[1]);
        }
    }
    for (r, v) in acc.iter().enumerate() {
        _mm512_storeu_ps(c.add(r * ldc), v[0]);
        _mm512_storeu_ps(c.add(r * ldc + 16), v[1]);
    }
}
