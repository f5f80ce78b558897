//! Command-line arguments (clap derive), turned into validated configs for the library: no
//! clap type goes past `to_config`. Every default is written here once, in the attributes.

use std::path::PathBuf;

use clap::builder::{ArgPredicate, PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand};

use livingblocks::analyze::{EstimateFor, Options};
use livingblocks::app::AnalyzeConfig;
use livingblocks::engine::{KatagoSpec, NetSource};
use livingblocks::sink::TableFormat;
use livingblocks::source::{Root, Shard};

/// Where `analyze` and `merge` write unless told otherwise.
const DEFAULT_OUT: &str = "reports";
/// The most worker threads `-j` takes.
const MAX_THREADS: usize = 1024;

/// What `analyze` reads unless told otherwise: the repository's embedded corpus.
pub const DEFAULT_PATH: &str = "corpus";

#[derive(Parser, Debug)]
#[command(
    name = "livingblocks",
    version,
    about = "Replays SGF game records, decides which blocks live, writes CSV statistics",
    long_about = "Replays SGF game records to their final positions, decides which blocks of \
                  stones live, and writes CSV statistics.\n\nWith no command, runs \
                  `analyze corpus --out reports`."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

impl Cli {
    /// `analyze` with every argument at its default: what the binary runs with no command.
    pub fn analyze_defaults() -> AnalyzeArgs {
        match Cli::parse_from(["livingblocks", "analyze"]).command {
            Some(Command::Analyze(a)) => a,
            _ => unreachable!("`analyze` parses as the analyze command"),
        }
    }
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Walk files, folders, archives and compressed collections of SGF records and write the
    /// tables and the report to DIR.
    #[command(after_help = "Examples:\n  \
        livingblocks analyze games/ --out out/           # every .sgf under games/\n  \
        livingblocks analyze kgs-2017.zip dump.sgf.xz -j 8\n  \
        find games -name '*.sgf' | livingblocks analyze --files-from - --out out/")]
    Analyze(AnalyzeArgs),
    /// Join the outputs of `analyze --shard K/N` runs into the tables of one run.
    #[command(after_help = "Example:\n  \
        livingblocks analyze games/ --shard 0/2 --out shards/0\n  \
        livingblocks analyze games/ --shard 1/2 --out shards/1\n  \
        livingblocks merge shards/0 shards/1 --out reports")]
    Merge(MergeArgs),
    /// Rebuild report.md, summary.csv, not_benson.csv and plots/ from the tables in DIR.
    #[command(after_help = "Examples:\n  \
        livingblocks report reports/ --diagrams 20     # the report again, more diagrams\n  \
        livingblocks report reports/ --edited          # after filtering games.csv and blocks.csv alike")]
    Report(ReportArgs),
    /// Draw one position with every method's verdict and the dead stones marked: the way to
    /// look at a row of games.csv or blocks.csv.
    #[command(
        after_help = "Examples:\n  \
            livingblocks show corpus/Shusaku/240.sgf                # the final position, as text\n  \
            livingblocks show 'games.zip!a/b.sgf' --game 1 --move 120 --out b.svg  # quoted: a shell expands !",
        mut_arg("katago", |a| a.help(SHOW_KATAGO)),
        mut_arg("net", |a| a.help(SHOW_NET))
    )]
    Show(ShowArgs),
    /// Write a man page or shell completions to standard output.
    #[command(after_help = "Examples:\n  \
        livingblocks generate man > livingblocks.1\n  \
        livingblocks generate complete-bash > /etc/bash_completion.d/livingblocks")]
    Generate(GenerateArgs),
}

#[derive(Args, Debug)]
pub struct ReportArgs {
    /// An output folder of `analyze` or `merge`.
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// Take the tables as they are, though they differ from what manifest.tsv recorded (after
    /// filtering or editing them); the report names the tables that changed.
    #[arg(long)]
    pub edited: bool,
    /// How many games of each list in report.md get a board diagram (0: none).
    #[arg(
        long,
        value_name = "N",
        default_value_t = livingblocks::report::DIAGRAMS,
        allow_negative_numbers = true,
        value_parser = at_least::<usize>(0)
    )]
    pub diagrams: usize,
    /// Print nothing but errors.
    #[arg(short, long)]
    pub quiet: bool,
}

#[derive(Args, Debug)]
pub struct GenerateArgs {
    /// What to write.
    #[arg(value_enum)]
    pub what: Generate,
    /// Print nothing but errors (what is generated still goes to standard output).
    #[arg(short, long)]
    pub quiet: bool,
}

/// What `generate` writes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Generate {
    /// The man page (roff), for `man -l` or a man folder.
    Man,
    /// The type of every column of every table (int, float or text), as JSON: the map a
    /// loader gives pandas or polars so that every run loads with the same types.
    Dtypes,
    CompleteBash,
    CompleteZsh,
    CompleteFish,
    CompletePowershell,
    CompleteElvish,
}

#[derive(Args, Debug)]
pub struct AnalyzeArgs {
    /// What to read: SGF files; folders, walked for files ending in .sgf (any case; symbolic
    /// links not followed); archives (.zip, .tar, .tar.gz/.tgz, .tar.bz2, .tar.xz), whose
    /// .sgf members are read in place; compressed collections (.sgf.gz, .sgf.bz2, .sgf.xz),
    /// split into their game trees as they stream [default: corpus, unless --files-from is
    /// given].
    #[arg(
        default_value = DEFAULT_PATH,
        default_value_if("files_from", ArgPredicate::IsPresent, None),
        hide_default_value = true
    )]
    pub paths: Vec<PathBuf>,
    /// Folder for the outputs.
    #[arg(short, long, value_name = "DIR", default_value = DEFAULT_OUT)]
    pub out: PathBuf,
    /// Worker threads [default: the number of cores].
    #[arg(
        short = 'j',
        long,
        value_name = "N",
        allow_negative_numbers = true,
        value_parser = at_least::<usize>(1)
    )]
    pub threads: Option<usize>,
    /// Print nothing but errors: no progress, no per-file warnings, no summary.
    #[arg(short, long)]
    pub quiet: bool,
    /// Also read the paths listed in FILE, one per line (`-` for standard input); their
    /// rows are named by the path as listed.
    #[arg(long, value_name = "FILE")]
    pub files_from: Option<String>,
    /// The --files-from entries end with NUL, not newline (`find -print0`): any file name.
    #[arg(short = '0', long = "null", requires = "files_from")]
    pub null: bool,
    /// Only the inputs of shard K of N (K from 0), chosen by a stable hash of their names;
    /// `livingblocks merge` joins the shards' outputs.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// Exit with status 3 when any row is not `ok` (the outputs are written all the same).
    #[arg(long)]
    pub strict: bool,
    /// Which games get the dead-stone estimate.
    #[arg(long, value_name = "WHICH", default_value = "counted", value_parser = estimate_for())]
    pub estimate: EstimateFor,
    /// Skip files larger than this (a `too_large` row); suffixes K, M, G (powers of 1024).
    #[arg(long, value_name = "SIZE", default_value = "16M", value_parser = parse_size)]
    pub max_file_size: u64,
    /// How many games of each list in report.md get a board diagram (0: none).
    #[arg(
        long,
        value_name = "N",
        default_value_t = livingblocks::report::DIAGRAMS,
        allow_negative_numbers = true,
        value_parser = at_least::<usize>(0)
    )]
    pub diagrams: usize,
    /// Write the four tables zstd-compressed (games.csv.zst, ...): the same CSV at a fifth of
    /// the size, which pandas and polars read directly, and merge and report too.
    #[arg(long)]
    pub compress: bool,
    #[command(flatten)]
    pub katago: KatagoArgs,
}

/// KataGo as a source of dead stones and scores (`analyze`, `show`).
#[derive(Args, Debug, Default)]
pub struct KatagoArgs {
    /// Ask KataGo's analysis engine about every position the estimate selects: CMD is its
    /// command line, e.g. "katago analysis -model NET.bin.gz -config analysis.cfg". It is run
    /// with nnRandomize=false, so that the same inputs, engine, net and visits give the same
    /// tables.
    #[arg(long, value_name = "CMD", conflicts_with = "net")]
    pub katago: Option<String>,
    /// Evaluate a KataGo network in-process instead: FILE is the net as KataGo and KaTrain
    /// distribute it (.bin.gz or .bin). Its answers fill the same columns as --katago's at
    /// one visit; no engine, no GPU.
    #[arg(long, value_name = "FILE")]
    pub net: Option<PathBuf>,
    /// Who judges the final positions when neither --katago nor --net is given.
    #[arg(
        long,
        value_name = "JUDGE",
        value_enum,
        default_value = "b10",
        conflicts_with_all = ["katago", "net"]
    )]
    pub judge: JudgeArg,
    /// Visits per position (1: the net's own judgement, no search).
    #[arg(
        long,
        value_name = "N",
        default_value_t = 1,
        requires = "katago",
        allow_negative_numbers = true,
        value_parser = at_least::<u32>(1)
    )]
    pub katago_visits: u32,
    /// Seconds the engine may take for its first answer (it loads and compiles its net).
    #[arg(long, value_name = "SECS", default_value_t = 120, requires = "katago")]
    pub katago_startup: u64,
}

/// `--judge`'s values.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum JudgeArg {
    /// KataGo's net b10c384h6nbttflrs, carried in the binary and evaluated in-process
    /// (KataGo's answers at one visit)
    #[default]
    B10,
    /// The built-in playout estimate alone: no net, about a millisecond a game, for
    /// throughput runs
    Estimate,
}

impl KatagoArgs {
    /// The net that judges, if any: `--net FILE`, else the carried one unless `--katago` or
    /// `--judge estimate` is given.
    pub fn net(&self) -> Option<NetSource> {
        match (&self.katago, &self.net) {
            (Some(_), _) => None,
            (None, Some(file)) => Some(NetSource::File(file.clone())),
            (None, None) => (self.judge == JudgeArg::B10).then_some(NetSource::Carried),
        }
    }

    /// The engine to run, if any.
    pub fn to_spec(&self) -> Result<Option<KatagoSpec>, String> {
        let Some(command) = &self.katago else {
            return Ok(None);
        };
        if self.katago_visits == 0 {
            return Err("--katago-visits must be at least 1".to_string());
        }
        Ok(Some(KatagoSpec {
            command: command.clone(),
            visits: self.katago_visits,
            startup: std::time::Duration::from_secs(self.katago_startup),
        }))
    }
}

/// A whole number of at least `least` (`--diagrams`, `-j`, `--game`, …). Negative numbers
/// reach it (`allow_negative_numbers`), so that `--diagrams -1` is told what the option takes
/// instead of clap's hint to write `-- -1`.
fn at_least<T: TryFrom<u64>>(
    least: u64,
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static {
    move |s: &str| {
        s.trim()
            .parse::<u64>()
            .ok()
            .filter(|&n| n >= least)
            .and_then(|n| T::try_from(n).ok())
            .ok_or_else(|| format!("a whole number of {least} or more is needed"))
    }
}

/// Parses `123`, `64K`, `16M`, `2G`.
fn parse_size(s: &str) -> Result<u64, String> {
    let s = s.trim();
    let (digits, shift) = match s.chars().last() {
        Some('K' | 'k') => (&s[..s.len() - 1], 10),
        Some('M' | 'm') => (&s[..s.len() - 1], 20),
        Some('G' | 'g') => (&s[..s.len() - 1], 30),
        _ => (s, 0),
    };
    let n: u64 = digits
        .parse()
        .map_err(|_| format!("not a size: {s:?} (use e.g. 500K, 16M, 2G)"))?;
    n.checked_mul(1 << shift)
        .ok_or_else(|| format!("size too large: {s}"))
}

/// The cores this process may run on.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

impl AnalyzeArgs {
    /// Checks the arguments and fills in defaults.
    pub fn to_config(&self) -> Result<AnalyzeConfig, String> {
        if self.estimate == EstimateFor::Never
            && (self.katago.katago.is_some() || self.katago.net.is_some())
        {
            return Err(
                "--estimate never selects no position for --katago or --net to judge".to_string(),
            );
        }
        let threads = match self.threads {
            Some(0) => return Err("--threads must be at least 1".to_string()),
            Some(n) if n > MAX_THREADS => {
                return Err(format!(
                    "--threads {n}: at most {MAX_THREADS} (each worker has a 256 MiB stack \
                     reserved; more threads than cores only wait)"
                ))
            }
            // The work is CPU-bound: threads beyond the cores the run may use (its CPU
            // affinity, as Slurm and containers set it) only wait, each holding memory.
            Some(n) => n.min(cores()),
            None => cores(),
        };
        let paths = &self.paths;
        let mut roots: Vec<Root> = paths.iter().map(Root::arg).collect();
        if let Some(list) = &self.files_from {
            roots.push(Root::List {
                from: list.clone(),
                nul: self.null,
            });
        }
        let paths_given = paths
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(" ");
        Ok(AnalyzeConfig {
            roots,
            paths_given,
            files_from: self.files_from.clone(),
            shard: self.shard,
            out: self.out.clone(),
            threads,
            max_file_size: self.max_file_size,
            diagrams: self.diagrams,
            tables: if self.compress {
                TableFormat::CsvZst
            } else {
                TableFormat::Csv
            },
            options: Options {
                estimate: self.estimate,
            },
            katago: self.katago.to_spec()?,
            // `--estimate never` selects no position for the carried net to judge.
            net: self
                .katago
                .net()
                .filter(|n| self.estimate != EstimateFor::Never || *n != NetSource::Carried),
        })
    }
}

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The output folders of every shard, in any order.
    #[arg(required = true)]
    pub shards: Vec<PathBuf>,
    /// Folder for the merged tables.
    #[arg(short, long, value_name = "DIR", default_value = DEFAULT_OUT)]
    pub out: PathBuf,
    /// How many games of each list in report.md get a board diagram (0: none).
    #[arg(
        long,
        value_name = "N",
        default_value_t = livingblocks::report::DIAGRAMS,
        allow_negative_numbers = true,
        value_parser = at_least::<usize>(0)
    )]
    pub diagrams: usize,
    /// Print nothing but errors.
    #[arg(short, long)]
    pub quiet: bool,
}

#[derive(Args, Debug)]
pub struct ShowArgs {
    /// An SGF file, or `ARCHIVE!MEMBER` as games.csv names a member of an archive.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Which game of the file (from 0, as games.csv numbers them).
    #[arg(
        short,
        long,
        default_value_t = 0,
        allow_negative_numbers = true,
        value_parser = at_least::<usize>(0)
    )]
    pub game: usize,
    /// Show the position after this many moves [default: the end of the record].
    #[arg(
        short,
        long = "move",
        value_name = "M",
        allow_negative_numbers = true,
        value_parser = at_least::<u32>(0)
    )]
    pub moves: Option<u32>,
    /// Write the diagram as SVG to this file.
    #[arg(short, long, value_name = "F.svg")]
    pub out: Option<PathBuf>,
    /// Write the game as SGF to this file, for a Go editor to recount: its moves, the
    /// finishing moves as the line that follows, two passes, HA/KM/RU as counted, the count
    /// as TB/TW, each side's points and the verdicts in comments.
    #[arg(long, value_name = "F.sgf")]
    pub sgf: Option<PathBuf>,
    /// Print the board and the verdicts as text (the default without --out or --sgf).
    #[arg(long)]
    pub ascii: bool,
    /// Print nothing but errors: no notes on stderr (what is drawn still goes to standard
    /// output or to --out and --sgf).
    #[arg(short, long)]
    pub quiet: bool,
    // `--katago` and `--net`, with show's own help (SHOW_KATAGO, SHOW_NET).
    #[command(flatten)]
    pub katago: KatagoArgs,
}

/// `show --katago`'s help: the one position shown is judged, not a run's many.
const SHOW_KATAGO: &str = "Ask KataGo's analysis engine about the final position of the game \
    shown, as a run asks it (not with --move): its lead, the score it expects and its dead \
    stones are printed after the board, with the count they give, as `analyze --katago` writes \
    them in games.csv, and its dead stones are the ones marked (and counted in --sgf's TB/TW) \
    where the record marks none. CMD is its command line, e.g. \"katago analysis -model \
    NET.bin.gz -config analysis.cfg\", run with nnRandomize=false.";

/// `show --net`'s help.
const SHOW_NET: &str = "Judge that final position with a KataGo network evaluated \
    in-process instead, as `analyze --net` does: FILE is the net as KataGo and KaTrain \
    distribute it (.bin.gz or .bin); its answer is --katago's at one visit. No engine, no GPU.";

/// `--estimate`'s values, each with its help, from the library's own names.
fn estimate_for() -> impl TypedValueParser<Value = EstimateFor> {
    PossibleValuesParser::new(EstimateFor::ALL.map(|e| PossibleValue::new(e.name()).help(e.help())))
        .map(|name| {
            EstimateFor::ALL
                .into_iter()
                .find(|e| e.name() == name)
                .expect("clap lets only the possible values through")
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_with_suffixes() {
        assert_eq!(parse_size("123"), Ok(123));
        assert_eq!(parse_size("64K"), Ok(64 << 10));
        assert_eq!(parse_size("16M"), Ok(16 << 20));
        assert_eq!(parse_size("2g"), Ok(2 << 30));
        assert!(parse_size("lots").is_err());
        assert!(parse_size("99999999999G").is_err());
    }

    fn analyze(args: &[&str]) -> AnalyzeConfig {
        let all = ["livingblocks", "analyze"].iter().chain(args);
        match Cli::try_parse_from(all).unwrap().command {
            Some(Command::Analyze(a)) => a.to_config().unwrap(),
            other => panic!("parsed as {other:?}"),
        }
    }

    #[test]
    fn no_command_means_analyze_corpus_into_reports() {
        let cli = Cli::try_parse_from(["livingblocks"]).unwrap();
        assert!(cli.command.is_none());
        let c = Cli::analyze_defaults().to_config().unwrap();
        assert_eq!(c.roots, [Root::arg("corpus")]);
        assert_eq!(c.out, PathBuf::from("reports"));
        assert_eq!(c.max_file_size, 16 << 20);
        assert_eq!(c.options.estimate, EstimateFor::Counted);
        assert_eq!(c.roots, analyze(&[]).roots);
    }

    #[test]
    fn the_carried_net_judges_unless_told_otherwise() {
        assert_eq!(analyze(&[]).net, Some(NetSource::Carried));
        assert_eq!(analyze(&[]).judge(), "net");
        let fast = analyze(&["--judge", "estimate"]);
        assert_eq!((&fast.net, fast.judge()), (&None, "estimate"));
        // No position selected: no net to load.
        let never = analyze(&["--estimate", "never"]);
        assert_eq!((&never.net, never.judge()), (&None, "none"));
        assert_eq!(
            analyze(&["--net", "n.bin.gz"]).net,
            Some(NetSource::File(PathBuf::from("n.bin.gz")))
        );
        let k = analyze(&["--katago", "katago analysis"]);
        assert_eq!((&k.net, k.judge()), (&None, "katago"));
        let both = [
            "livingblocks",
            "analyze",
            "--judge",
            "estimate",
            "--net",
            "n",
        ];
        assert!(Cli::try_parse_from(both).is_err());
    }

    #[test]
    fn a_list_of_files_replaces_the_default_path() {
        let dir = tempfile::tempdir().unwrap();
        let list = dir.path().join("list");
        std::fs::write(&list, "a.sgf\n").unwrap();
        let from = list.to_str().unwrap();
        let c = analyze(&["--files-from", from]);
        assert_eq!(
            c.roots,
            [Root::List {
                from: from.to_string(),
                nul: false
            }]
        );
        assert_eq!(
            analyze(&["--estimate", "never"]).options.estimate,
            EstimateFor::Never
        );
    }
}
