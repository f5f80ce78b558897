//! Throughput of each stage on the embedded corpus (games played before 1900), and of the
//! whole per-file function. Run with `cargo bench -p livingblocks-benches`; figures are games (or positions) per second.

use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use livingblocks::alloc::scoped;
use livingblocks::analyze::{analyze_file_with, EstimateFor, Options};
use livingblocks::go::replay;
use livingblocks::go::Color;
use livingblocks::life::{analyze_life, benson, mp95, mpfix, ColourNet, Net, Regions};
use livingblocks::row::FileAnalysis;
use livingblocks::score::{count_as_is, estimate_dead};
use livingblocks::sgf::{self, load::Tree};
use livingblocks::source;

/// The binary's allocator, so that the baseline and the pipeline are measured alike.
#[global_allocator]
static GLOBAL: livingblocks::alloc::Mimalloc = livingblocks::alloc::Mimalloc;

/// The first files of the embedded corpus, in path order.
fn sample(n: usize) -> Vec<Vec<u8>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
    let inputs = source::collect(&[source::Root::arg(root)], None)
        .expect("corpus/ is part of the repository");
    inputs
        .iter()
        .take(n)
        .map(|i| source::read_input(&i, u64::MAX).expect("readable corpus file"))
        .collect()
}

fn trees(files: &[Vec<u8>]) -> Vec<Tree> {
    files
        .iter()
        .flat_map(|b| sgf::load(&sgf::decode(b).unwrap().text).unwrap().trees)
        .map(|t| t.tree.expect("the embedded corpus parses"))
        .collect()
}

fn stages(c: &mut Criterion) {
    let files = sample(300);
    let games = trees(&files);
    let roots: Vec<_> = games
        .iter()
        .filter_map(|t| match t {
            Tree::Go(root) => Some(root),
            Tree::OtherGame(_) => None,
        })
        .collect();
    let finals: Vec<_> = roots.iter().map(|r| replay(r).unwrap().board).collect();

    let mut g = c.benchmark_group("stages");
    g.throughput(Throughput::Elements(files.len() as u64));
    g.bench_function("decode_parse", |b| {
        b.iter(|| {
            files
                .iter()
                .map(|f| {
                    sgf::load(&sgf::decode(f).unwrap().text)
                        .unwrap()
                        .trees
                        .len()
                })
                .sum::<usize>()
        })
    });
    g.throughput(Throughput::Elements(roots.len() as u64));
    g.bench_function("replay", |b| {
        b.iter(|| roots.iter().map(|r| replay(r).unwrap().moves).sum::<u32>())
    });
    g.throughput(Throughput::Elements(finals.len() as u64));
    g.bench_function("net_per_position", |b| {
        b.iter(|| {
            finals
                .iter()
                .map(|f| Net::build(f).blocks.len())
                .sum::<usize>()
        })
    });
    let nets: Vec<_> = finals.iter().map(Net::build).collect();
    let colour_nets: Vec<_> = nets
        .iter()
        .flat_map(|n| {
            [
                ColourNet::of(n, Color::Black).0,
                ColourNet::of(n, Color::White).0,
            ]
        })
        .collect();
    g.bench_function("mp95_per_position", |b| {
        b.iter(|| colour_nets.iter().map(|n| mp95(n).len()).sum::<usize>() / 2)
    });
    g.bench_function("mpfix_per_position", |b| {
        b.iter(|| colour_nets.iter().map(|n| mpfix(n).len()).sum::<usize>() / 2)
    });
    g.bench_function("benson_per_position", |b| {
        b.iter(|| {
            nets.iter()
                .map(|n| {
                    [Color::Black, Color::White]
                        .map(|c| benson(n, &Regions::find(n, c)).territory)
                        .iter()
                        .sum::<usize>()
                })
                .sum::<usize>()
        })
    });
    g.bench_function("life_pass_per_position", |b| {
        b.iter(|| {
            finals
                .iter()
                .zip(&nets)
                .map(|(f, n)| analyze_life(f, n, Color::Black).blocks.len())
                .sum::<usize>()
        })
    });
    // The estimate on every final position, with Benson's living stones protected, as the
    // pipeline runs it (there only on the games the record says were counted).
    let to_move: Vec<_> = roots.iter().map(|r| replay(r).unwrap().to_move).collect();
    let protected: Vec<_> = finals
        .iter()
        .zip(&nets)
        .map(|(f, n)| analyze_life(f, n, Color::Black).benson_alive_points(n, f.cell_count()))
        .collect();
    g.throughput(Throughput::Elements(finals.len() as u64));
    g.bench_function("estimate_per_position", |b| {
        b.iter(|| {
            finals
                .iter()
                .zip(&to_move)
                .zip(&protected)
                .map(|((f, &c), p)| estimate_dead(f, c, p).len())
                .sum::<usize>()
        })
    });
    // The count with nothing dead, which every game gets (the `none` source), with the
    // position's net as the pipeline runs it.
    g.bench_function("count_per_position", |b| {
        b.iter(|| {
            finals
                .iter()
                .zip(&nets)
                .map(|(f, n)| count_as_is(f, n).territory[0])
                .sum::<u32>()
        })
    });
    g.throughput(Throughput::Elements(files.len() as u64));
    g.bench_function("analyze_file_no_estimate", |b| {
        b.iter(|| analyze_all(&files, NO_ESTIMATE))
    });
    g.bench_function("analyze_file_with_estimate", |b| {
        b.iter(|| analyze_all(&files, Options::default()))
    });
    g.finish();
}

/// The per-file function as a run's worker calls it: in the per-file arena.
fn in_arena(f: &[u8], options: Options) -> FileAnalysis {
    scoped(|| analyze_file_with(f, options))
}

/// Games found in `files` by the per-file function.
fn analyze_all(files: &[Vec<u8>], options: Options) -> usize {
    files.iter().map(|f| in_arena(f, options).games.len()).sum()
}

/// The pipeline the speed target is about: the estimate is a flag with its cost of its own.
const NO_ESTIMATE: Options = Options {
    estimate: EstimateFor::Never,
};

/// The baseline the full pipeline is measured against: sgf-parse alone parsing the same files
/// and walking their main lines (what any tool built on it must do at least).
fn parse_only(text: &str) -> usize {
    let trees = sgf_parse::parse(text).expect("corpus parses");
    trees
        .iter()
        .filter_map(|t| t.as_go_node().ok())
        .map(|root| {
            root.main_variation()
                .filter(|n| n.get_move().is_some())
                .count()
        })
        .sum()
}

fn baseline_vs_pipeline(c: &mut Criterion) {
    let files = sample(1000);
    let texts: Vec<String> = files
        .iter()
        .map(|b| String::from_utf8(b.clone()).expect("the embedded corpus is UTF-8"))
        .collect();
    let mut g = c.benchmark_group("one_thread");
    g.throughput(Throughput::Elements(files.len() as u64));
    g.bench_function("baseline_sgf_parse_main_line", |b| {
        b.iter(|| texts.iter().map(|t| parse_only(t)).sum::<usize>())
    });
    g.bench_function("pipeline_analyze_file", |b| {
        b.iter(|| analyze_all(&files, NO_ESTIMATE))
    });
    g.bench_function("pipeline_analyze_and_write_csv", |b| {
        let dir = tempfile::tempdir().unwrap();
        b.iter(|| {
            let mut out = livingblocks::sink::Outputs::create(
                dir.path(),
                livingblocks::sink::TableFormat::Csv,
            )
            .unwrap();
            for f in &files {
                out.write_file("x.sgf", Some(f.len() as u64), &in_arena(f, NO_ESTIMATE))
                    .unwrap();
            }
            out.complete().unwrap()
        })
    });
    g.finish();
}

criterion_group!(benches, stages, baseline_vs_pipeline);
criterion_main!(benches);
