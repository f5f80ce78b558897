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

/// Whether the CPU has AVX-512 BF16's dot products.
pub(crate) fn has_bf16() -> bool {
    std::is_x86_feature_detected!("avx512bf16") && std::is_x86_feature_detected!("avx512f")
}

const BF16_ROWS: usize = 12;

/// A 12×32 bfloat16 tile on `VDPBF16PS`: `pairs` steps, each one instruction per row and
/// vector of 16 columns.
///
/// # Safety
/// As `bf16::Tile::run`, on a CPU with AVX-512F and AVX-512 BF16.
#[target_feature(enable = "avx512f,avx512bf16")]
pub(crate) unsafe fn bf16_tile_avx512(
    pairs: usize,
    a: *const u32,
    b: *const u32,
    c: *mut f32,
    accumulate: bool,
) {
    let mut acc = [[_mm512_setzero_ps(); 2]; BF16_ROWS];
    if accumulate {
        for (r, v) in acc.iter_mut().enumerate() {
            v[0] = _mm512_loadu_ps(c.add(r * NR));
            v[1] = _mm512_loadu_ps(c.add(r * NR + 16));
        }
    }
    for q in 0..pairs {
        let b0: __m512bh = std::mem::transmute(_mm512_loadu_si512(b.add(q * NR).cast()));
        let b1: __m512bh = std::mem::transmute(_mm512_loadu_si512(b.add(q * NR + 16).cast()));
        for (r, v) in acc.iter_mut().enumerate() {
            let x: __m512bh = std::mem::transmute(_mm512_set1_epi32(*a.add(r * pairs + q) as i32));
            v[0] = _mm512_dpbf16_ps(v[0], x, b0);
            v[1] = _mm512_dpbf16_ps(v[1], x, b1);
        }
    }
    for (r, v) in acc.iter().enumerate() {
        _mm512_storeu_ps(c.add(r * NR), v[0]);
        _mm512_storeu_ps(c.add(r * NR + 16), v[1]);
    }
}

/// The same tile by ordinary fused multiply-adds, odd step then even step of each pair, with
/// the MXCSR's flush-to-zero and denormals-are-zero set for the tile's duration: the bits
/// `VDPBF16PS` gives. Worked 4 rows × 16 columns at a time (8 accumulators, 4 vectors of
/// `b`, one of `a`: 13 of the 16 registers).
///
/// # Safety
/// As `bf16::Tile::run`, on a CPU with AVX2 and FMA.
#[target_feature(enable = "avx2,fma")]
pub(crate) unsafe fn bf16_tile_avx2(
    pairs: usize,
    a: *const u32,
    b: *const u32,
    c: *mut f32,
    accumulate: bool,
) {
    let mut saved: u32 = 0;
    // SAFETY: stmxcsr and ldmxcsr read and write only the 4 bytes given; the flags set
    // (FTZ, bit 15, and DAZ, bit 6) change how the tile's arithmetic treats denormals and
    // nothing else, and the caller's MXCSR is restored before returning.
    std::arch::asm!("stmxcsr [{}]", in(reg) &mut saved, options(nostack, preserves_flags));
    let flushing = saved | 0x8040;
    std::arch::asm!("ldmxcsr [{}]", in(reg) &flushing, options(nostack, preserves_flags));
    let high = _mm256_set1_epi32(0xffff_0000u32 as i32);
    for r0 in (0..BF16_ROWS).step_by(4) {
        for h in 0..2 {
            let c = c.add(r0 * NR + h * 16);
            let mut acc = [[_mm256_setzero_ps(); 2]; 4];
            if accumulate {
                for (r, v) in acc.iter_mut().enumerate() {
                    // An FMA reads a denormal start as zero (DAZ) like the instruction.
                    v[0] = _mm256_loadu_ps(c.add(r * NR));
                    v[1] = _mm256_loadu_ps(c.add(r * NR + 8));
                }
            }
            for q in 0..pairs {
                let raw0 = _mm256_loadu_si256(b.add(q * NR + h * 16).cast());
                let raw1 = _mm256_loadu_si256(b.add(q * NR + h * 16 + 8).cast());
                let (be0, bo0) = (
                    _mm256_castsi256_ps(_mm256_slli_epi32(raw0, 16)),
                    _mm256_castsi256_ps(_mm256_and_si256(raw0, high)),
                );
                let (be1, bo1) = (
                    _mm256_castsi256_ps(_mm256_slli_epi32(raw1, 16)),
                    _mm256_castsi256_ps(_mm256_and_si256(raw1, high)),
                );
                for (r, v) in acc.iter_mut().enumerate() {
                    let pair = _mm256_set1_epi32(*a.add((r0 + r) * pairs + q) as i32);
                    let ao = _mm256_castsi256_ps(_mm256_and_si256(pair, high));
                    v[0] = _mm256_fmadd_ps(ao, bo0, v[0]);
                    v[1] = _mm256_fmadd_ps(ao, bo1, v[1]);
                    let ae = _mm256_castsi256_ps(_mm256_slli_epi32(pair, 16));
                    v[0] = _mm256_fmadd_ps(ae, be0, v[0]);
                    v[1] = _mm256_fmadd_ps(ae, be1, v[1]);
                }
            }
            for (r, v) in acc.iter().enumerate() {
                _mm256_storeu_ps(c.add(r * NR), v[0]);
                _mm256_storeu_ps(c.add(r * NR + 8), v[1]);
            }
        }
    }
    std::arch::asm!("ldmxcsr [{}]", in(reg) &saved, options(nostack, preserves_flags));
}
