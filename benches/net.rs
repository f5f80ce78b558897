//! Positions a second of `--net` on one core: the final positions of the first counted games
//! of the embedded corpus, judged one after the other by the carried net and by each other net
//! `scripts/get-net.sh` fetches (absent nets are skipped, saying so). Run with
//! `cargo bench -p livingblocks-benches --bench net`.

use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use livingblocks::analyze::{prepare, EstimateFor, Options};
use livingblocks::engine::NetJudge;
use livingblocks::score::judgement::EngineQuery;
use livingblocks::source;

#[global_allocator]
static GLOBAL: livingblocks::alloc::Mimalloc = livingblocks::alloc::Mimalloc;

/// The nets, by file name (without `.bin.gz`).
const NETS: [&str; 2] = ["b10c384h6nbttflrs", "g170e-b15c192-s1672170752-d466197061"];

/// Positions per measurement: enough to mix game lengths, few enough for a quick sample.
const POSITIONS: usize = 8;

/// The questions a run asks of the first counted games of the corpus, in path order.
fn positions() -> Vec<EngineQuery> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
    let inputs = source::collect(&[source::Root::arg(root)], None)
        .expect("corpus/ is part of the repository");
    let options = Options {
        estimate: EstimateFor::Counted,
    };
    inputs
        .iter()
        .filter_map(|i| source::read_input(&i, u64::MAX).ok())
        .flat_map(|b| prepare(&b).queries(options))
        .filter_map(|q| q.and_then(Result::ok))
        .take(POSITIONS)
        .collect()
}

fn net(c: &mut Criterion) {
    let queries = positions();
    let mut g = c.benchmark_group("net");
    g.sample_size(10);
    g.throughput(Throughput::Elements(queries.len() as u64));
    for name in NETS {
        let file = livingblocks::engine::nn::nets_dir().join(format!("{name}.bin.gz"));
        let judge = if name == livingblocks::engine::nn::CARRIED_NAME {
            NetJudge::carried()
        } else {
            NetJudge::load(&file)
        };
        let Ok(judge) = judge else {
            eprintln!(
                "SKIPPED net/{name}: {} is absent (scripts/get-net.sh fetches it)",
                file.display()
            );
            continue;
        };
        g.bench_function(name, |b| {
            b.iter(|| {
                queries
                    .iter()
                    .map(|q| judge.judge(q).map_or(0.0, |v| v.lead))
                    .sum::<f32>()
            })
        });
    }
    g.finish();
}

criterion_group!(benches, net);
criterion_main!(benches);
