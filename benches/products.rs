//! The net's matrix products on their own: the transformer's shapes for one position (361
//! rows) and for two stacked (722 rows), on the fastest kernel this CPU has. Equal rows a
//! second in both say that stacking positions of several games into one product (batching)
//! would gain nothing. Run with `cargo bench -p livingblocks-benches --bench products`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use ordered_gemm::{gemm, Kernel, Mat, Packed};

/// (inner dimension, columns): b10's query/key/value projection, output projection and the
/// feed-forward layers' shapes.
const SHAPES: [(usize, usize); 4] = [(384, 1152), (384, 384), (384, 2048), (1024, 384)];

fn products(c: &mut Criterion) {
    let kernel = Kernel::fastest();
    let mut g = c.benchmark_group(format!("products_{}", kernel.name()));
    g.sample_size(20);
    for (k, n) in SHAPES {
        let b: Vec<f32> = (0..k * n).map(|i| (i as f32 * 0.37).sin()).collect();
        let packed = Packed::new(Mat::rows(&b, k, n, n));
        for rows in [361, 722] {
            let a: Vec<f32> = (0..rows * k).map(|i| (i as f32 * 0.11).cos()).collect();
            let mut out = vec![0.0f32; rows * n];
            g.throughput(Throughput::Elements(rows as u64));
            g.bench_with_input(
                BenchmarkId::new(format!("{k}x{n}"), rows),
                &rows,
                |bench, _| {
                    bench.iter(|| {
                        gemm(
                            kernel,
                            Mat::rows(&a, rows, k, k),
                            &packed,
                            &mut out,
                            n,
                            false,
                        )
                    })
                },
            );
        }
    }
    g.finish();
}

criterion_group!(benches, products);
criterion_main!(benches);
