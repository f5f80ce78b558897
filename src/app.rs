//! Orchestration only: inputs → parallel analysis → writers in input order → run totals.

use std::path::PathBuf;
use std::sync::atomic::{AtomicI32, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::analyze::{analyze_file_with, prepare, EstimateFor, Options, Prepared};
use crate::duplicates::Duplicates;
use crate::engine::{Judge, KatagoSpec, NetSource, Ticket};
use crate::report::{self, Tally};
use crate::row::{FileAnalysis, GameRow, Status};
use crate::sink::{
    stage, Cleanup, CommitError, FolderError, Manifest, OutputLock, Outputs, RunStats, Stage,
    TableFormat,
};
use crate::source::{self, Input, Member, Root, Shard, Unit};
use crate::sum::Summable;

mod error;

pub use error::{exit, signal_name, AppError};

/// A validated `analyze` request: no CLI types past this point.
#[derive(Clone, Debug)]
pub struct AnalyzeConfig {
    /// Where inputs come from: PATH arguments, then `--files-from` entries.
    pub roots: Vec<Root>,
    /// The PATH arguments and the `--files-from` list as given, for the manifest.
    pub paths_given: String,
    pub files_from: Option<String>,
    /// Only the inputs of this shard.
    pub shard: Option<Shard>,
    pub out: PathBuf,
    pub threads: usize,
    /// Files larger than this many bytes are not read (`too_large` rows).
    pub max_file_size: u64,
    /// Games per list that get a board diagram in report.md.
    pub diagrams: usize,
    /// Plain or compressed tables (`--compress`).
    pub tables: TableFormat,
    pub options: Options,
    /// KataGo, asked about every position the estimate selects (`--katago`).
    pub katago: Option<KatagoSpec>,
    /// A KataGo net evaluated in-process on the same positions instead: the carried one (the
    /// default judge) or `--net FILE`.
    pub net: Option<NetSource>,
}

impl AnalyzeConfig {
    /// Who judges the final positions, as the manifest names it: KataGo's engine, a net (the
    /// carried one or a file), the estimate alone, or no one (`--estimate never`).
    pub fn judge(&self) -> &'static str {
        match (&self.katago, &self.net, self.options.estimate) {
            (Some(_), _, _) => "katago",
            (None, Some(_), _) => "net",
            (None, None, EstimateFor::Never) => "none",
            (None, None, _) => "estimate",
        }
    }
}

/// Hears how a run goes; the binary draws it, tests ignore it.
pub trait Progress {
    fn start(&self, files: u64);
    /// Called after each batch with the totals so far.
    fn advance(&self, so_far: &RunStats);
    /// A row that is not `ok`: the input's path, its status and why.
    fn warn(&self, path: &std::path::Path, game: Option<usize>, status: Status, detail: &str);
    fn done(&self);
}

/// What a finished run did.
#[derive(Clone, Debug)]
pub struct RunReport {
    pub stats: RunStats,
    pub elapsed: Duration,
    pub threads: usize,
    pub outputs: Vec<PathBuf>,
    /// What a killed run had left in the output folder, cleared.
    pub stale: Cleanup,
    /// What the engine did, with `--katago`.
    pub engine: Option<EngineReport>,
    /// The net that judged, with `--net`.
    pub net: Option<NetReport>,
}

/// The net of a `--net` run.
#[derive(Clone, Debug)]
pub struct NetReport {
    pub model: String,
    pub model_version: i32,
    pub sha256: String,
    /// Positions it judged.
    pub asked: u64,
}

/// The engine of a run: what it is, and how busy the run kept it.
#[derive(Clone, Debug)]
pub struct EngineReport {
    pub version: String,
    pub model: String,
    pub visits: u32,
    pub asked: u64,
    pub restarts: u32,
    /// Time with at least one question unanswered.
    pub busy: Duration,
}

/// Worker threads are named with this prefix, so a panic hook can tell a per-file panic (caught,
/// and reported as an `internal_error` row) from a panic of the run itself.
pub const WORKER_PREFIX: &str = "livingblocks-worker-";

/// Files analysed in parallel between two writes: large enough to keep every thread busy,
/// small enough that memory does not grow with the corpus.
const BATCH: usize = 512;

/// Runs `analyze`: every input becomes one or more rows of games.csv, and every block, chain
/// and big eye of a replayed position a row of blocks.csv, chains.csv, big_eyes.csv, in input
/// order.
///
/// `cancel` holds the number of the signal that asks the run to stop (0: none). It is polled
/// between files: once set, the run stops, removes its temporary files and returns
/// `Interrupted` with that signal.
pub fn analyze(
    config: &AnalyzeConfig,
    progress: &dyn Progress,
    cancel: &AtomicI32,
) -> Result<RunReport, AppError> {
    in_out_folder(&config.out, || run(config, progress, cancel))
}

/// Runs `work`, which writes its outputs into `out`. Where the work made `out` (`create_out`)
/// and fails (stopped by a signal, say) with nothing written, the empty folder goes too; a
/// folder that was there before, or that holds anything, stays.
pub fn in_out_folder<T>(
    out: &std::path::Path,
    work: impl FnOnce() -> Result<T, AppError>,
) -> Result<T, AppError> {
    let result = work();
    let mut made = made();
    if made.as_deref() == Some(out) {
        if result.is_err() {
            let _ = std::fs::remove_dir(out);
        }
        *made = None;
    }
    result
}

/// The output folder this process made, for `remove_made`.
fn made() -> std::sync::MutexGuard<'static, Option<PathBuf>> {
    static MADE: std::sync::Mutex<Option<PathBuf>> = std::sync::Mutex::new(None);
    MADE.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Removes the output folder this process made, if it is still empty: when a second signal
/// ends the process at once (after its stage and lock are removed).
pub fn remove_made() {
    if let Some(out) = made().as_ref() {
        let _ = std::fs::remove_dir(out);
    }
}

fn run(
    config: &AnalyzeConfig,
    progress: &dyn Progress,
    cancel: &AtomicI32,
) -> Result<RunReport, AppError> {
    let start = Instant::now();
    check_out_path(&config.out)?;
    let mut inputs = source::collect(&config.roots, Some(&config.out)).map_err(AppError::Usage)?;
    // The whole list, before any split: shards of one run name the same inputs alike.
    let input_set = crate::sink::manifest::input_set(inputs.iter().map(|i| i.name));
    if let Some(shard) = config.shard {
        inputs.retain(|name| shard.holds(name));
    }
    let stopped = || cancel.load(Ordering::SeqCst);
    // Loaded or started before any work: a judge that cannot be used is a configuration
    // error.
    let mut judge = Judge::open(config.katago.as_ref(), config.net.as_ref(), &stopped)?;
    create_out(&config.out)?;
    // Held until the run returns, after its outputs are committed or removed.
    let lock = OutputLock::acquire(&config.out)?;
    let stale = crate::sink::remove_stale(&lock)?;
    stage::check_out(&config.out)?;
    let staged = Stage::new(&config.out).map_err(|source| FolderError::CannotWrite {
        dir: config.out.clone(),
        source,
    })?;
    let mut outputs = Outputs::create(staged.path(), config.tables)
        .map_err(|(dir, source)| FolderError::CannotWrite { dir, source })?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(config.threads)
        // Deeply nested game trees are dropped recursively: give workers room.
        .stack_size(256 << 20)
        .thread_name(|i| format!("{WORKER_PREFIX}{i}"))
        .build()
        .map_err(|e| AppError::Usage(format!("cannot start {} threads: {e}", config.threads)))?;

    progress.start(inputs.len() as u64);
    let mut run = Batcher {
        pool: &pool,
        outputs: &mut outputs,
        stats: RunStats::default(),
        tally: Tally::default(),
        duplicates: Duplicates::in_folder(staged.path()),
        progress,
        cancel,
        cap: config.max_file_size,
        options: config.options,
        out: &config.out,
        work: Vec::new(),
        work_bytes: 0,
        pending: None,
        judge: &mut judge,
    };
    for input in inputs.iter() {
        source::for_each_unit(&input, run.cap, &mut |unit| {
            run.push(match unit {
                Unit::File(input) => Work::Read(input.clone()),
                Unit::Member(m) => Work::Member(input.path.clone(), m),
            })
        })?;
        run.stats.inputs += 1;
    }
    run.drain()?;
    let (stats, mut tally, duplicates) = (run.stats, run.tally, run.duplicates);
    let asked = judge.asked();
    let engine_report = judge.engine().map(|e| EngineReport {
        version: e.version.clone(),
        model: e.model.clone(),
        visits: config.katago.as_ref().map_or(0, |k| k.visits),
        asked,
        restarts: e.restarts,
        busy: e.busy(),
    });
    let net_report = judge.net().map(|n| {
        let (model, model_version, sha256) = n.describe();
        NetReport {
            model,
            model_version,
            sha256,
            asked,
        }
    });
    // The engine's process ends here, before the outputs are committed.
    drop(judge);
    let engine_entry =
        |f: fn(&EngineReport) -> String| engine_report.as_ref().map_or(String::new(), f);
    let write_err = AppError::write(&config.out);
    let mut manifest = Manifest::of_run(
        &[
            ("max_file_size", config.max_file_size.to_string()),
            ("estimate", config.options.estimate.name().to_string()),
            ("judge", config.judge().to_string()),
            ("paths", config.paths_given.clone()),
            ("files_from", config.files_from.clone().unwrap_or_default()),
            ("input_set", input_set),
        ]
        .into_iter()
        .chain(match &net_report {
            // The net judges as KataGo's engine does at one visit.
            Some(n) => vec![
                (
                    "katago_version",
                    match config.net {
                        Some(NetSource::File(_)) => {
                            format!("livingblocks {} --net", env!("CARGO_PKG_VERSION"))
                        }
                        _ => format!("livingblocks {} (carried net)", env!("CARGO_PKG_VERSION")),
                    },
                ),
                ("katago_model", n.model.clone()),
                ("katago_visits", "1".to_string()),
                ("net_model_version", n.model_version.to_string()),
                ("net_sha256", n.sha256.clone()),
            ],
            None => vec![
                ("katago_version", engine_entry(|e| e.version.clone())),
                ("katago_model", engine_entry(|e| e.model.clone())),
                ("katago_visits", engine_entry(|e| e.visits.to_string())),
            ],
        })
        .collect::<Vec<_>>(),
        config.shard.map(|s| s.to_string()),
        &stats,
    );
    // So that `report DIR` and `merge` find relative inputs from any folder they are run in.
    // A list's entries may be relative whatever the list's own path.
    let relative = config.roots.iter().any(|r| match r {
        Root::Path(p) => p.is_relative(),
        Root::List { .. } => true,
    });
    if let (true, Ok(cwd)) = (relative, std::env::current_dir()) {
        manifest.set_base(&config.out, &cwd);
    }
    outputs.complete().map_err(write_err)?;
    // The run's own inputs, not a second walk: the diagrams' games are among them.
    let finder = source::Finder::of_inputs(inputs, config.max_file_size);
    // A game's most complete copy came after a copy that counted: the rows written before
    // name that copy, and the tally counted it. The rows are named again, and the copies that
    // no longer count are read again and taken out of the tally, as they were counted: cheaper
    // than reading the tables back, which an engine's answers (not asked again) require.
    if duplicates.moved() {
        let games = staged.path().join(config.tables.file("games.csv"));
        crate::sink::games::name_copies(&games, duplicates.resolve())
            .map_err(AppError::write(&config.out))?;
        let engine_used = net_report.is_some() || engine_report.is_some();
        let recounted = recount(&mut tally, &duplicates, &finder, config.options)
            .map_err(AppError::write(&config.out))?;
        if engine_used || !recounted {
            tally = Tally::read(staged.path())?;
        }
    }
    // With an engine, the diagrams count with its dead stones, read back from games.csv.
    let judged = net_report.is_some() || engine_report.is_some();
    report::write(
        staged.path(),
        &tally,
        Some(&manifest),
        Some(&finder),
        judged.then(|| staged.path()),
        config.diagrams,
    )?;
    let paths = commit(staged, manifest, false, cancel)?;
    progress.done();
    Ok(RunReport {
        stats,
        elapsed: start.elapsed(),
        threads: config.threads,
        outputs: paths,
        stale,
        engine: engine_report,
        net: net_report,
    })
}

/// Creates an output folder (and its parents) where there is none (`check_out_path` first);
/// a folder this call made is remembered, for `in_out_folder` to remove if the work fails.
pub fn create_out(out: &std::path::Path) -> Result<(), FolderError> {
    check_out_path(out)?;
    let cannot = |source| FolderError::CannotCreate {
        dir: out.to_path_buf(),
        source,
    };
    if let Some(parent) = out.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(cannot)?;
    }
    match std::fs::create_dir(out) {
        Ok(()) => {
            *made() = Some(out.to_path_buf());
            Ok(())
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && out.is_dir() => Ok(()),
        Err(e) => Err(cannot(e)),
    }
}

/// Refuses, before any work, an `--out` that is a file or lies under one, by name, not with
/// the system's bare "File exists".
pub fn check_out_path(out: &std::path::Path) -> Result<(), FolderError> {
    for p in out.ancestors().filter(|p| !p.as_os_str().is_empty()) {
        match std::fs::metadata(p) {
            Ok(m) if m.is_dir() => break,
            Ok(_) if p == out => return Err(FolderError::NotAnOutputFolder(out.to_path_buf())),
            Ok(_) => {
                return Err(FolderError::UnderAFile {
                    out: out.to_path_buf(),
                    file: p.to_path_buf(),
                })
            }
            // Not there yet: created with its parents.
            Err(_) => {}
        }
    }
    Ok(())
}

/// What `report DIR` wrote, and what a killed run had left there that it cleared first.
pub struct Rebuilt {
    pub outputs: Vec<PathBuf>,
    pub stale: Cleanup,
}

/// `livingblocks report DIR`: the report of a complete output folder rebuilt from its
/// tables, staged and committed like a run's. With `edited`, tables that differ from the
/// manifest are taken as they are, and the manifest says which.
pub fn rebuild_report(
    dir: &std::path::Path,
    diagrams: usize,
    edited: bool,
    cancel: &AtomicI32,
) -> Result<Rebuilt, AppError> {
    // Taken before the folder is read: a commit a killed run left half done is finished or
    // undone first, and no run changes the tables while they are read.
    let lock = OutputLock::acquire(dir)?;
    let stale = crate::sink::remove_stale(&lock)?;
    // The tables must be the run's (unless edited on purpose); the report's own files are
    // what this rebuilds.
    let tables = |f: &str| !edited && stage::TABLE_FILES.contains(&f);
    let mut manifest = stage::verify(dir, &tables).map_err(|e| match e {
        FolderError::Mismatch { .. } if !edited => AppError::Usage(format!(
            "{e}; after filtering or editing the tables, give --edited"
        )),
        e => AppError::Folder(e),
    })?;
    stage::names_every_table(dir, &manifest)?;
    stage::check_out(dir)?;
    if edited {
        let changed = stage::changed(dir, &manifest, &stage::TABLE_FILES);
        if changed.is_empty() {
            manifest.entries.remove("edited");
        } else {
            manifest.entries.insert("edited".into(), changed.join(" "));
        }
    }
    let staged = Stage::new(dir).map_err(|source| FolderError::CannotWrite {
        dir: dir.to_path_buf(),
        source,
    })?;
    report::write_from_tables(dir, staged.path(), dir, &manifest, diagrams)?;
    let outputs = commit(staged, manifest, true, cancel)?;
    Ok(Rebuilt { outputs, stale })
}

/// Commits a run's staged outputs (see `sink::stage`); a signal before the manifest lands
/// leaves the folder as it was.
pub fn commit(
    staged: Stage,
    manifest: Manifest,
    keep_tables: bool,
    cancel: &AtomicI32,
) -> Result<Vec<PathBuf>, AppError> {
    let stopped = || cancel.load(Ordering::SeqCst);
    if stopped() != 0 {
        return Err(AppError::Interrupted(stopped()));
    }
    staged
        .commit(manifest, keep_tables, &stopped)
        .map_err(|e| match e {
            CommitError::Stopped(signal) => AppError::Interrupted(signal),
            CommitError::Io(path, source) => AppError::Commit { path, source },
            CommitError::Halted => AppError::Halted,
        })
}

/// A unit of work, in output order.
enum Work {
    /// A plain file, read by the worker that analyses it.
    Read(Input),
    /// Bytes already taken out of an archive or a compressed stream (with the container's
    /// path, for warnings).
    Member(PathBuf, Member),
}

/// Gathers work into batches, analyses each batch in parallel and writes it in order.
struct Batcher<'a> {
    pool: &'a rayon::ThreadPool,
    outputs: &'a mut Outputs,
    stats: RunStats,
    /// The report's totals, tallied from the rows as they are written.
    tally: Tally,
    /// The games written so far, to name the copy that counts of each game met again.
    duplicates: Duplicates,
    progress: &'a dyn Progress,
    cancel: &'a AtomicI32,
    cap: u64,
    options: Options,
    out: &'a std::path::Path,
    work: Vec<Work>,
    /// Bytes held by the batch's members, bounded so memory stays flat.
    work_bytes: usize,
    /// The last batch staged, not yet written: analysed, or waiting for its judge's answers.
    pending: Option<(Vec<Work>, Batch)>,
    /// Who judges the positions the options select.
    judge: &'a mut Judge,
}

/// A unit of work read and staged: analysed, or prepared with its questions asked.
enum Staged {
    /// Its size (where it could be read) and analysis.
    Done(Option<u64>, FileAnalysis),
    /// Its size, prepared, and each game tree's question (`None`: not asked).
    Asked(Option<u64>, Prepared, Vec<Option<Ticket>>),
}

impl Staged {
    /// Whether every answer the file needs is at hand.
    fn answered(&self) -> bool {
        match self {
            Staged::Done(..) => true,
            Staged::Asked(_, _, tickets) => tickets
                .iter()
                .flatten()
                .all(|t| matches!(t, Ticket::Answered(_))),
        }
    }

    /// The file analysed with its answers; call once `answered`.
    fn analyze(self, w: &Work, options: Options) -> (Option<u64>, FileAnalysis) {
        debug_assert!(self.answered(), "a file analysed before its answers came");
        match self {
            Staged::Done(bytes, a) => (bytes, a),
            Staged::Asked(bytes, p, tickets) => {
                let answers: Vec<_> = tickets
                    .into_iter()
                    .map(|t| t.and_then(|t| t.answered().ok()))
                    .collect();
                (bytes, numbered(w, p.analyze(options, &answers)))
            }
        }
    }
}

/// A batch staged, in order; `None` where the run was cancelled first.
type Batch = Vec<Option<Staged>>;

/// Files per batch with an engine: its questions are queued while the batch before is
/// answered, so the engine always has a batch of work, and the progress moves in steps an
/// engine finishes in about a minute.
const ENGINE_BATCH: usize = 32;

/// Bytes of archive members held in one batch at most.
const BATCH_BYTES: usize = 256 << 20;

impl Batcher<'_> {
    fn push(&mut self, w: Work) -> Result<(), AppError> {
        if let Work::Member(_, m) = &w {
            self.work_bytes += m.bytes.as_ref().map_or(0, Vec::len);
        }
        self.work.push(w);
        let batch = if self.judge.asks() {
            ENGINE_BATCH
        } else {
            BATCH
        };
        if self.work.len() >= batch || self.work_bytes >= BATCH_BYTES {
            self.flush()?;
        }
        Ok(())
    }

    /// Stages the gathered batch (each file read, prepared and asked about, and analysed
    /// where its answers are at hand) while the batch before is written, if its answers are
    /// all at hand; then sends this batch's questions to the engine, and only then waits for
    /// the answers the batch before still needs, so that the engine always has a batch of
    /// work. Warnings and totals for a batch follow once it is written.
    fn flush(&mut self) -> Result<(), AppError> {
        let (cap, options, cancel) = (self.cap, self.options, self.cancel);
        let work = std::mem::take(&mut self.work);
        self.work_bytes = 0;
        let (ready, waiting) = match self.pending.take() {
            Some((w, b)) if b.iter().flatten().all(Staged::answered) => (Some((w, b)), None),
            previous => (None, previous),
        };
        let outputs = &mut *self.outputs;
        let tally = &mut self.tally;
        let duplicates = &mut self.duplicates;
        let judge = &*self.judge;
        let (written, mut staged) = self.pool.install(|| {
            rayon::join(
                || {
                    ready.map(|(w, b)| {
                        let mut r: Results = w
                            .iter()
                            .zip(b)
                            .map(|(w, s)| s.map(|s| s.analyze(w, options)))
                            .collect();
                        write_rows(outputs, tally, duplicates, &w, &mut r).map(|()| (w, r))
                    })
                },
                || -> Batch {
                    work.par_iter()
                        .map(|w| {
                            (cancel.load(Ordering::Relaxed) == 0)
                                .then(|| stage(w, cap, options, judge))
                        })
                        .collect()
                },
            )
        });
        if let Some(done) = written {
            let (w, r) = done.map_err(AppError::write(self.out))?;
            self.account(&w, &r)?;
        }
        for s in staged.iter_mut().flatten() {
            if let Staged::Asked(_, _, tickets) = s {
                tickets
                    .iter_mut()
                    .flatten()
                    .for_each(|t| self.judge.send(t));
            }
        }
        if let Some((w, b)) = waiting {
            self.finish(w, b)?;
        }
        let signal = cancel.load(Ordering::Relaxed);
        if signal != 0 {
            return Err(AppError::Interrupted(signal));
        }
        if !work.is_empty() {
            self.pending = Some((work, staged));
        }
        Ok(())
    }

    /// Waits for the answers a staged batch needs, in input order, then analyses and writes
    /// it.
    fn finish(&mut self, work: Vec<Work>, batch: Batch) -> Result<(), AppError> {
        let (options, cancel) = (self.options, self.cancel);
        let stopped = || cancel.load(Ordering::SeqCst);
        let mut answered = Vec::with_capacity(batch.len());
        for s in batch {
            answered.push(match s {
                Some(Staged::Asked(bytes, p, tickets)) => {
                    let mut at_hand = Vec::with_capacity(tickets.len());
                    for t in tickets {
                        at_hand.push(match t {
                            Some(t) => Some(Ticket::Answered(self.judge.answer(t, &stopped)?)),
                            None => None,
                        });
                    }
                    Some(Staged::Asked(bytes, p, at_hand))
                }
                s => s,
            });
        }
        let mut results: Results = self.pool.install(|| {
            work.par_iter()
                .zip(answered)
                .map(|(w, s)| s.filter(|_| stopped() == 0).map(|s| s.analyze(w, options)))
                .collect()
        });
        write_rows(
            self.outputs,
            &mut self.tally,
            &mut self.duplicates,
            &work,
            &mut results,
        )
        .map_err(AppError::write(self.out))?;
        self.account(&work, &results)
    }

    /// Writes what is still pending; call once, after the last `push`.
    fn drain(&mut self) -> Result<(), AppError> {
        self.flush()?;
        self.flush()
    }

    /// Warnings and totals of a written batch.
    fn account(&mut self, work: &[Work], results: &Results) -> Result<(), AppError> {
        for (w, result) in work.iter().zip(results) {
            let (bytes, analysis) = result
                .as_ref()
                .ok_or_else(|| AppError::Interrupted(self.cancel.load(Ordering::Relaxed)))?;
            let (path, first_of_file) = match w {
                Work::Read(input) => (&input.path, true),
                Work::Member(path, m) => (path, m.starts_file()),
            };
            for g in analysis.games.iter().filter(|g| g.status != Status::Ok) {
                self.progress.warn(path, g.game, g.status, &g.detail);
            }
            let mut s = RunStats::of_file(*bytes, analysis);
            s.files = u64::from(first_of_file);
            self.stats.add_all(&s);
        }
        self.progress.advance(&self.stats);
        Ok(())
    }
}

/// The analyses of a batch, in order; `None` where the run was cancelled first.
type Results = Vec<Option<(Option<u64>, FileAnalysis)>>;

/// Writes a batch's rows to every table, in order, and adds them to the report's tally;
/// each game a later copy of one written before names it.
fn write_rows(
    outputs: &mut Outputs,
    tally: &mut Tally,
    duplicates: &mut Duplicates,
    work: &[Work],
    results: &mut Results,
) -> std::io::Result<()> {
    for (w, result) in work.iter().zip(results) {
        let Some((bytes, analysis)) = result else {
            // Cancelled: nothing of this batch is kept (the caller stops the run).
            return Ok(());
        };
        let name = match w {
            Work::Read(input) => input.name.as_str(),
            Work::Member(_, m) => m.name.as_str(),
        };
        for g in &mut analysis.games {
            if let (Some(key), Some(line), Some(game)) = (&g.key, &g.line, g.game) {
                let replayed = g.status != crate::row::Status::IllegalMove;
                g.duplicate = duplicates.meet(name, game, key, line, replayed)?;
            }
        }
        outputs.write_file(name, *bytes, analysis)?;
        tally.add_file(name, analysis);
    }
    Ok(())
}

/// Takes each game `duplicates` found a more complete copy of, after it counted, out of
/// `tally` and adds it as the copy it is: its input read and analysed again (the analysis is
/// deterministic). False when an input cannot be found again (then the caller reads the
/// tables back).
fn recount(
    tally: &mut Tally,
    duplicates: &Duplicates,
    finder: &source::Finder,
    options: Options,
) -> std::io::Result<bool> {
    let files = tally.files.clone();
    for (file, game, copy) in duplicates.demoted()? {
        let Some((bytes, at)) = finder.game(&file, game) else {
            return Ok(false);
        };
        let mut a = crate::analyze::analyze_file_with(&bytes, options);
        let Some(row) = a.games.iter().position(|g| g.game == Some(at)) else {
            return Ok(false);
        };
        a.games[row].game = Some(game);
        let mut counted = Tally::default();
        counted.add_row(&file, &a, &a.games[row]);
        a.games[row].duplicate = Some(copy);
        let mut repeat = Tally::default();
        repeat.add_row(&file, &a, &a.games[row]);
        tally.take_away(&counted);
        tally.add_all(&repeat);
    }
    // The kinds named again (a copy that named a demoted one may now be another kind).
    tally.duplicates.clear();
    for resolved in duplicates.resolve() {
        if let (_, _, Some(c)) = resolved? {
            *tally.duplicates.entry(c.kind).or_default() += 1;
        }
    }
    tally.files = files;
    Ok(true)
}

/// Reads one unit of work: its bytes, or the row of why they cannot be had.
fn bytes_of(w: &Work, cap: u64) -> Result<std::borrow::Cow<'_, [u8]>, Box<GameRow>> {
    let failed = |game, e: &source::InputError| Box::new(GameRow::of_error(game, e));
    match w {
        Work::Read(input) => source::read_input(input, cap)
            .map(std::borrow::Cow::Owned)
            .map_err(|e| failed(None, &e)),
        Work::Member(_, m) => match &m.bytes {
            Ok(bytes) => Ok(std::borrow::Cow::Borrowed(&bytes[..])),
            Err(e) => Err(failed(m.game, e)),
        },
    }
}

/// A member's games numbered as in their container, with the member's note; a read
/// failure's row keeps the number it was given.
fn numbered(w: &Work, mut a: FileAnalysis) -> FileAnalysis {
    if let Work::Member(_, m) = w {
        if m.bytes.is_ok() {
            for g in &mut a.games {
                g.game = m.game_number(g.game);
                if let Some(note) = &m.note {
                    g.add_note(note);
                }
            }
        }
    }
    a
}

/// Reads one unit of work and stages it; a read failure is a row like any other. Where the
/// estimate alone judges, the analysis runs in the worker's per-file arena
/// (`alloc::scoped`); otherwise the file is prepared once and its positions asked about,
/// outside the arena, whose chunk a net's buffers would outlive, and analysed at once where
/// the answers are at hand (a net's).
fn stage(w: &Work, cap: u64, options: Options, judge: &Judge) -> Staged {
    let bytes = match bytes_of(w, cap) {
        Ok(b) => b,
        Err(row) => return Staged::Done(None, FileAnalysis::failed(*row)),
    };
    let size = Some(bytes.len() as u64);
    if !judge.asks() {
        let a = crate::alloc::scoped(|| analyze_file_with(&bytes, options));
        return Staged::Done(size, numbered(w, a));
    }
    let p = prepare(&bytes);
    let tickets = p
        .queries(options)
        .into_iter()
        .map(|q| q.and_then(|q| judge.ask(q)))
        .collect();
    let staged = Staged::Asked(size, p, tickets);
    if staged.answered() {
        let (bytes, a) = staged.analyze(w, options);
        Staged::Done(bytes, a)
    } else {
        staged
    }
}
