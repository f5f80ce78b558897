//! f32 matrix products, `C = A·B` or `C += A·B`, in which every element of `C` is summed in
//! one fixed order: `c ← fma(a[i][0], b[0][j], c)`, then `k = 1`, and so on to the last `k`,
//! starting from 0 (or from `C` when accumulating). Each fused multiply-add rounds once, so
//! the result is the same bit for bit
//!
//! - on every CPU: the AVX-512 and AVX2 kernels and the portable one (`f32::mul_add`)
//!   perform the same operations on each element, only more of them at once;
//! - in every product a row is part of: row `i` of `C` depends on row `i` of `A` and on `B`
//!   alone, so stacking the rows of several inputs into one product changes nothing.
//!
//! Blocked BLAS libraries (the `gemm` crate, OpenBLAS, MKL) instead split `k` into blocks
//! whose size follows the CPU's caches and add partial sums per block and per vector lane,
//! so their last bits change with the machine a product runs on.
//!
//! `B` is packed once into panels of [`NR`] columns ([`Packed`]); a weight matrix is packed
//! when a net is prepared and reused for every product.

#[cfg(target_arch = "x86_64")]
mod x86;

use std::cell::RefCell;

/// Columns of `B` per packed panel.
pub const NR: usize = 32;

/// The code that computes a product. Every kernel gives the same bits; they differ in speed
/// and in the CPUs that have them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kernel {
    /// Scalar `f32::mul_add`: any CPU.
    Portable,
    /// 256-bit vectors with FMA (x86-64 from Haswell and Zen 1 on).
    Avx2,
    /// 512-bit vectors (x86-64 with AVX-512F).
    Avx512,
}

impl Kernel {
    /// Every kernel, the most portable first.
    pub const ALL: [Kernel; 3] = [Kernel::Portable, Kernel::Avx2, Kernel::Avx512];

    /// The fastest kernel this CPU runs.
    pub fn fastest() -> Kernel {
        Kernel::ALL
            .into_iter()
            .rev()
            .find(|k| k.available())
            .unwrap_or(Kernel::Portable)
    }

    /// Whether this CPU runs the kernel.
    pub fn available(self) -> bool {
        match self {
            Kernel::Portable => true,
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => {
                std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma")
            }
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512 => std::is_x86_feature_detected!("avx512f"),
            #[cfg(not(target_arch = "x86_64"))]
            _ => false,
        }
    }

    /// The kernel's name, as options and messages spell it.
    pub fn name(self) -> &'static str {
        match self {
            Kernel::Portable => "portable",
            Kernel::Avx2 => "avx2",
            Kernel::Avx512 => "avx512",
        }
    }

    /// The kernel a name spells, if any.
    pub fn from_name(name: &str) -> Option<Kernel> {
        Kernel::ALL.into_iter().find(|k| k.name() == name)
    }

    /// Rows of `C` a tile computes at once.
    fn rows(self) -> usize {
        match self {
            Kernel::Portable => 4,
            Kernel::Avx2 => 6,
            Kernel::Avx512 => 12,
        }
    }

    /// Computes one `rows()`×`NR` tile: `k` steps over `a` (`rows()` rows of `k` floats,
    /// `lda` apart) and `b` (a panel, `NR` values per step), into `c` (rows `ldc` apart).
    ///
    /// # Safety
    /// `a` is valid for `rows()` rows of `k` floats `lda` apart, `b` holds `k·NR` floats,
    /// `c` is valid for `rows()` rows of `NR` floats `ldc` apart, and the kernel is available.
    #[allow(clippy::too_many_arguments)]
    unsafe fn tile(
        self,
        k: usize,
        a: *const f32,
        lda: usize,
        b: *const f32,
        c: *mut f32,
        ldc: usize,
        acc: bool,
    ) {
        match self {
            Kernel::Portable => tile_portable(k, a, lda, b, c, ldc, acc),
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => x86::tile_avx2(k, a, lda, b, c, ldc, acc),
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512 => x86::tile_avx512(k, a, lda, b, c, ldc, acc),
            #[cfg(not(target_arch = "x86_64"))]
            _ => unreachable!("kernel not available"),
        }
    }
}

const PORTABLE_ROWS: usize = 4;

/// The reference every other kernel equals.
///
/// # Safety
/// As [`Kernel::tile`].
#[allow(clippy::too_many_arguments)]
unsafe fn tile_portable(
    k: usize,
    a: *const f32,
    lda: usize,
    b: *const f32,
    c: *mut f32,
    ldc: usize,
    acc: bool,
) {
    let b = std::slice::from_raw_parts(b, k * NR);
    let mut t = [[0.0f32; NR]; PORTABLE_ROWS];
    if acc {
        for (r, row) in t.iter_mut().enumerate() {
            row.copy_from_slice(std::slice::from_raw_parts(c.add(r * ldc), NR));
        }
    }
    for (l, bv) in b.chunks_exact(NR).enumerate() {
        for (r, row) in t.iter_mut().enumerate() {
            let x = *a.add(r * lda + l);
            for (v, &y) in row.iter_mut().zip(bv) {
                *v = x.mul_add(y, *v);
            }
        }
    }
    for (r, row) in t.iter().enumerate() {
        std::slice::from_raw_parts_mut(c.add(r * ldc), NR).copy_from_slice(row);
    }
}

/// A read-only matrix view: element (i, j) is `data[i * rs + j * cs]`.
#[derive(Clone, Copy, Debug)]
pub struct Mat<'a> {
    data: &'a [f32],
    rows: usize,
    cols: usize,
    rs: usize,
    cs: usize,
}

impl<'a> Mat<'a> {
    /// Row-major, `ld` floats from one row to the next.
    pub fn rows(data: &'a [f32], rows: usize, cols: usize, ld: usize) -> Self {
        Mat::strided(data, rows, cols, ld, 1)
    }

    /// The transpose of a row-major `cols`×`rows` matrix whose rows are `ld` floats apart.
    pub fn transposed(data: &'a [f32], rows: usize, cols: usize, ld: usize) -> Self {
        Mat::strided(data, rows, cols, 1, ld)
    }

    fn strided(data: &'a [f32], rows: usize, cols: usize, rs: usize, cs: usize) -> Self {
        let m = Mat {
            data,
            rows,
            cols,
            rs,
            cs,
        };
        assert!(
            rows == 0 || cols == 0 || (rows - 1) * rs + (cols - 1) * cs < data.len(),
            "matrix view outside its slice"
        );
        m
    }

    #[inline(always)]
    fn at(&self, i: usize, j: usize) -> f32 {
        self.data[i * self.rs + j * self.cs]
    }
}

/// `B` in panels of [`NR`] columns, each panel `k` rows of `NR` floats, the last panel
/// padded with zeros.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Packed {
    k: usize,
    n: usize,
    data: Vec<f32>,
}

impl Packed {
    /// Packs `b`.
    pub fn new(b: Mat) -> Packed {
        let mut p = Packed::default();
        p.pack(b);
        p
    }

    /// Packs `b` into this buffer, reusing its memory.
    pub fn pack(&mut self, b: Mat) {
        let (k, n) = (b.rows, b.cols);
        self.k = k;
        self.n = n;
        let len = n.div_ceil(NR) * k * NR;
        if self.data.len() != len {
            self.data.clear();
            self.data.resize(len, 0.0);
        }
        for (p, panel) in self.data.chunks_exact_mut((k * NR).max(1)).enumerate() {
            let j0 = p * NR;
            let cols = NR.min(n - j0);
            if b.rs == 1 && k > 0 {
                // A transpose: read each column where it is contiguous.
                for j in 0..NR {
                    if j < cols {
                        let col = &b.data[(j0 + j) * b.cs..][..k];
                        for (row, &v) in panel.chunks_exact_mut(NR).zip(col) {
                            row[j] = v;
                        }
                    } else {
                        panel.chunks_exact_mut(NR).for_each(|row| row[j] = 0.0);
                    }
                }
                continue;
            }
            for (l, row) in panel.chunks_exact_mut(NR).enumerate() {
                if b.cs == 1 {
                    row[..cols].copy_from_slice(&b.data[l * b.rs + j0..][..cols]);
                } else {
                    for (j, v) in row[..cols].iter_mut().enumerate() {
                        *v = b.at(l, j0 + j);
                    }
                }
                row[cols..].fill(0.0);
            }
        }
    }

    /// The number of elements, rows × columns.
    pub fn len(&self) -> usize {
        self.k * self.n
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Rows (the inner dimension of a product).
    pub fn rows(&self) -> usize {
        self.k
    }

    /// Columns.
    pub fn cols(&self) -> usize {
        self.n
    }

    /// Element (i, j).
    pub fn get(&self, i: usize, j: usize) -> f32 {
        assert!(
            i < self.k && j < self.n,
            "({i}, {j}) outside {}×{}",
            self.k,
            self.n
        );
        self.data[(j / NR) * self.k * NR + i * NR + j % NR]
    }

    fn panel(&self, p: usize) -> &[f32] {
        &self.data[p * self.k * NR..][..self.k * NR]
    }
}

thread_local! {
    /// `A` packed in blocks of a tile's rows, kept between products.
    static PACKED_A: RefCell<Vec<f32>> = const { RefCell::new(Vec::new()) };
}

/// `c = a·b`, or `c += a·b` when `accumulate`; `c` is row-major with rows `ldc` apart.
///
/// # Panics
/// When the kernel is not available, the inner dimensions differ, or `c` is too short.
pub fn gemm(kernel: Kernel, a: Mat, b: &Packed, c: &mut [f32], ldc: usize, accumulate: bool) {
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
    let mr = kernel.rows();
    let blocks = m.div_ceil(mr);
    // Rows of `a` are read in place when contiguous; a block that is not (or is short) is
    // copied into `PACKED_A` first, `k` floats a row, padded with zero rows.
    let direct = |blk: usize| a.cs == 1 && (blk + 1) * mr <= m;
    PACKED_A.with_borrow_mut(|pa| {
        let copied = (0..blocks).filter(|&blk| !direct(blk)).count();
        if pa.len() < copied * mr * k {
            pa.resize(copied * mr * k, 0.0);
        }
        let mut next = 0;
        let mut rows_of = Vec::with_capacity(blocks);
        for blk in 0..blocks {
            if direct(blk) {
                rows_of.push(None);
                continue;
            }
            let dst = &mut pa[next * mr * k..][..mr * k];
            for (r, row) in dst.chunks_exact_mut(k.max(1)).enumerate() {
                let i = blk * mr + r;
                for (l, v) in row.iter_mut().enumerate() {
                    *v = if i < m { a.at(i, l) } else { 0.0 };
                }
            }
            rows_of.push(Some(next));
            next += 1;
        }
        let mut tile = [0.0f32; 12 * NR];
        for p in 0..n.div_ceil(NR) {
            let panel = b.panel(p);
            let j0 = p * NR;
            let cols = NR.min(n - j0);
            for (blk, copy) in rows_of.iter().enumerate() {
                let i0 = blk * mr;
                let rows = mr.min(m - i0);
                let (ap, lda) = match copy {
                    Some(at) => (pa[at * mr * k..].as_ptr(), k),
                    None => (a.data[i0 * a.rs..].as_ptr(), a.rs),
                };
                if rows == mr && cols == NR {
                    // SAFETY: `ap` starts mr rows of k floats lda apart: a copy in `pa`, or
                    // rows i0..i0+mr of `a` (inside its slice, as `Mat` checked at
                    // creation); the panel holds k·NR floats; the tile's rows i0..i0+mr and
                    // columns j0..j0+NR lie inside `c`, checked above (i0 + mr ≤ m,
                    // j0 + NR ≤ n ≤ ldc); the kernel is available.
                    unsafe {
                        kernel.tile(
                            k,
                            ap,
                            lda,
                            panel.as_ptr(),
                            c[i0 * ldc + j0..].as_mut_ptr(),
                            ldc,
                            accumulate,
                        )
                    };
                } else {
                    // A tile at an edge runs in `tile` and only its part inside `c` is copied.
                    if accumulate {
                        for r in 0..rows {
                            tile[r * NR..][..cols]
                                .copy_from_slice(&c[(i0 + r) * ldc + j0..][..cols]);
                        }
                    }
                    // SAFETY: as above, with `tile` (12 ≥ mr rows of NR) as the output.
                    unsafe {
                        kernel.tile(
                            k,
                            ap,
                            lda,
                            panel.as_ptr(),
                            tile.as_mut_ptr(),
                            NR,
                            accumulate,
                        )
                    };
                    for r in 0..rows {
                        c[(i0 + r) * ldc + j0..][..cols].copy_from_slice(&tile[r * NR..][..cols]);
                    }
                }
            }
        }
    });
}

#[cfg(test)]
mod tests;
