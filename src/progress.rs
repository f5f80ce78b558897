//! The only module that writes to the terminal: the progress bar (indicatif) when stderr is
//! a terminal, a plain line every few seconds when it is not, and the closing summary.

use std::cell::RefCell;
use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

use livingblocks::app::{AppError, Progress, RunReport};
use livingblocks::row::Status;
use livingblocks::sink::stage::{Recovery, STAGE_PREFIX};
use livingblocks::sink::{Cleanup, RunStats};

/// How often the plain log line is written when stderr is not a terminal.
const LOG_EVERY: Duration = Duration::from_secs(5);

/// Progress on stderr.
pub struct Terminal {
    mode: Mode,
    started: Instant,
    total: RefCell<u64>,
    last_log: RefCell<Instant>,
}

enum Mode {
    Quiet,
    Bar(ProgressBar),
    Log,
}

impl Terminal {
    pub fn new(quiet: bool) -> Terminal {
        let mode = if quiet {
            Mode::Quiet
        } else if std::io::stderr().is_terminal() {
            let bar = ProgressBar::new(0);
            bar.set_style(
                ProgressStyle::with_template(
                    "{spinner} [{elapsed_precise}] {wide_bar} {pos}/{len} inputs  {msg}  ETA {eta}",
                )
                .expect("valid template"),
            );
            bar.enable_steady_tick(Duration::from_millis(200));
            Mode::Bar(bar)
        } else {
            Mode::Log
        };
        Terminal {
            mode,
            started: Instant::now(),
            total: RefCell::new(0),
            last_log: RefCell::new(Instant::now()),
        }
    }
}

impl Progress for Terminal {
    fn start(&self, files: u64) {
        *self.total.borrow_mut() = files;
        if let Mode::Bar(bar) = &self.mode {
            bar.set_length(files);
        }
    }

    fn advance(&self, s: &RunStats) {
        let rate = per_second(s.games, self.started.elapsed());
        match &self.mode {
            Mode::Quiet => {}
            Mode::Bar(bar) => {
                bar.set_position(s.inputs);
                bar.set_message(format!("{} games  {} games/s", s.games, rate_text(rate)));
            }
            Mode::Log => {
                let mut last = self.last_log.borrow_mut();
                if last.elapsed() >= LOG_EVERY {
                    *last = Instant::now();
                    say(&format!(
                        "livingblocks: {}",
                        log_line(s, *self.total.borrow(), self.started.elapsed())
                    ));
                }
            }
        }
    }

    fn warn(&self, path: &std::path::Path, game: Option<usize>, status: Status, detail: &str) {
        let game = game.map_or(String::new(), |g| format!(" (game {g})"));
        let line = escape_controls(&format!(
            "{}{game}: {}: {}",
            path.display(),
            status.as_str(),
            livingblocks::row::bounded_detail(detail)
        ));
        match &self.mode {
            Mode::Quiet => {}
            Mode::Bar(bar) => bar.println(line),
            Mode::Log => say(&line),
        }
    }

    fn done(&self) {
        if let Mode::Bar(bar) = &self.mode {
            bar.finish_and_clear();
        }
    }
}

/// Writes a line to stderr. A closed or full stderr (`2>&1 | head -1`, `2>/dev/full`) must
/// never end a run, so failures to write are ignored, unlike `eprintln!`, which panics.
fn say(line: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

/// Control characters (from SGF text or file names) escaped as `\u{..}`, so that a warning
/// cannot move the cursor, clear the screen or ring the bell of the terminal it is read on.
pub fn escape_controls(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c.is_control() {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    out
}

/// The periodic line of a batch log: inputs read of all, percent, games written (the rows of
/// the inputs read so far are written a batch later), rate and ETA.
fn log_line(s: &RunStats, total: u64, elapsed: Duration) -> String {
    let done = s.inputs.min(total);
    let percent = if total == 0 {
        100.0
    } else {
        100.0 * done as f64 / total as f64
    };
    let eta = if done == 0 {
        "unknown".to_string()
    } else {
        let left = elapsed.as_secs_f64() * (total - done) as f64 / done as f64;
        clock(Duration::from_secs_f64(left))
    };
    format!(
        "{done}/{total} inputs read ({percent:.1} %), {} games written, {} games/s, ETA {eta}",
        s.games,
        rate_text(per_second(s.games, elapsed))
    )
}

/// A rate in games per second: whole numbers, one decimal below 10 (a run with an engine
/// goes at about one game a second).
fn rate_text(rate: f64) -> String {
    if rate < 10.0 {
        format!("{rate:.1}")
    } else {
        format!("{rate:.0}")
    }
}

/// A duration as `h:mm:ss`.
fn clock(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

fn per_second(n: u64, d: Duration) -> f64 {
    n as f64 / d.as_secs_f64().max(1e-9)
}

/// Prints the closing summary of `analyze` on stderr.
pub fn summary(r: &RunReport) {
    let s = &r.stats;
    let mut err = std::io::stderr().lock();
    let _ = writeln!(
        err,
        "livingblocks: {} files, {} games in {:.1} s ({} games/s, {} threads)",
        s.files,
        s.games,
        r.elapsed.as_secs_f64(),
        rate_text(per_second(s.games, r.elapsed)),
        r.threads,
    );
    if let Some(e) = &r.engine {
        let _ = writeln!(
            err,
            "  KataGo {} ({}, {} visits): {} positions, busy {:.0} % of the run{}",
            e.version,
            e.model,
            e.visits,
            e.asked,
            100.0 * e.busy.as_secs_f64() / r.elapsed.as_secs_f64().max(1e-9),
            match e.restarts {
                0 => String::new(),
                n => format!(", restarted {n} times"),
            }
        );
    }
    if let Some(n) = &r.net {
        let _ = writeln!(
            err,
            "  KataGo net {} (model version {}) in-process: {} positions, {} a second",
            n.model,
            n.model_version,
            n.asked,
            rate_text(per_second(n.asked, r.elapsed)),
        );
    }
    rows_and_outputs(&mut err, r);
}

/// Prints the closing summary of `merge` on stderr: what the merged tables hold.
pub fn merged(r: &RunReport, shards: usize) {
    let s = &r.stats;
    let mut err = std::io::stderr().lock();
    let _ = writeln!(
        err,
        "livingblocks: merged {shards} shards: {} files, {} games in {:.1} s",
        s.files,
        s.games,
        r.elapsed.as_secs_f64(),
    );
    rows_and_outputs(&mut err, r);
}

fn rows_and_outputs(err: &mut impl Write, r: &RunReport) {
    cleared(&r.stale);
    let s = &r.stats;
    let failed: Vec<String> = Status::ALL
        .iter()
        .filter(|&&st| st != Status::Ok && s.count(st) > 0)
        .map(|&st| format!("{} {}", st.as_str(), s.count(st)))
        .collect();
    let _ = write!(
        err,
        "  rows: {} ok, {} failed",
        s.count(Status::Ok),
        s.failed()
    );
    let _ = if failed.is_empty() {
        writeln!(err)
    } else {
        writeln!(err, " ({})", failed.join(", "))
    };
    wrote(&r.outputs);
}

/// Says what a killed run had left in the output folder, and what became of it.
pub fn cleared(c: &Cleanup) {
    let mut err = std::io::stderr().lock();
    match c.recovered {
        Some(Recovery::Completed) => {
            let _ = writeln!(
                err,
                "  finished the commit a killed run had left half done: its outputs stand"
            );
        }
        Some(Recovery::RolledBack) => {
            let _ = writeln!(
                err,
                "  undid the commit a killed run had left half done: the outputs before it stand"
            );
        }
        Some(Recovery::Dropped) => {
            let _ = writeln!(
                err,
                "  dropped the journal of a commit a killed run had left: its folder is gone, and \
                 the outputs there now stand as they are"
            );
        }
        None => {}
    }
    for p in &c.removed {
        let what = if p
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with(STAGE_PREFIX))
        {
            "the unfinished outputs of a killed run"
        } else {
            "a temporary table a killed run had left"
        };
        let _ = writeln!(err, "  removed {}, {what}", p.display());
    }
}

/// Lists the files a command wrote, under its summary line: the same words for every command.
pub fn wrote(paths: &[std::path::PathBuf]) {
    let mut err = std::io::stderr().lock();
    for p in paths {
        let _ = writeln!(err, "  wrote {}", p.display());
    }
}

/// A message about how the run goes, not about a row.
pub fn note(line: &str) {
    say(&format!("livingblocks: {line}"));
}

/// Reports a command that could not start or finish, and gives its exit code.
pub fn fail(e: &AppError) -> ExitCode {
    say(&escape_controls(&format!("livingblocks: {e}")));
    ExitCode::from(e.exit_code())
}

/// Writes a command's output (not a message) to standard output; a closed pipe (`| head`)
/// ends it quietly.
/// Writes a command's output to standard output, flushed: a full disk or a closed file is a
/// failed write (exit 1); a reader that stopped reading (`| head`) is not.
pub fn print(text: impl AsRef<[u8]>) -> Result<(), AppError> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_ref()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(AppError::Stdout(e)),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_log_line_says_how_far_and_how_long() {
        let s = RunStats {
            inputs: 250,
            games: 300,
            ..RunStats::default()
        };
        assert_eq!(
            log_line(&s, 1000, Duration::from_secs(100)),
            "250/1000 inputs read (25.0 %), 300 games written, 3.0 games/s, ETA 0:05:00"
        );
        let none = RunStats::default();
        assert!(log_line(&none, 10, Duration::from_secs(1)).ends_with("ETA unknown"));
        assert_eq!(clock(Duration::from_secs(3 * 3600 + 61)), "3:01:01");
    }

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(
            escape_controls("a.sgf: parse_error: C[\x1b[2J\x07]\tok é"),
            "a.sgf: parse_error: C[\\u{1b}[2J\\u{7}]\\u{9}ok é"
        );
    }
}
