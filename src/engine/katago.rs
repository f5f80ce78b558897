//! The client of KataGo's JSON analysis engine (`katago analysis -model NET -config CFG`, its
//! docs/Analysis_Engine.md): one process for the run, queries written as soon as their
//! positions are known so that the engine always has work queued, answers read back by id.
//!
//! A game goes as its moves where the record is a plain move list; a move list the engine
//! refuses (a suicide its rules forbid, a superko) is asked again as the final position's
//! stones.
//!
//! Faults lose nothing: an engine that dies is started again (at most `MAX_RESTARTS` times)
//! and its unanswered queries are sent again; a position it refuses gets its words as the
//! answer. The process dies with the run: it is killed when the client is dropped, and asked
//! to be killed by the kernel if the run itself is killed (Linux's parent-death signal).
//!
//! Determinism: the net evaluates a position under one of eight symmetries, chosen at random
//! unless `nnRandomize` is off. The query's `rootNumSymmetriesToSample = 8` would average all
//! eight at eight times the cost, so the command line gets `-override-config
//! nnRandomize=false` instead (merged into an `-override-config` it already has), and more
//! than one visit is searched with one thread per query.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::go::Color;
use crate::score::judgement::{katago_rules, EngineAnswer, EngineQuery, EngineView, NoAnswer};

/// How many times a dead engine is started again in one run.
pub const MAX_RESTARTS: u32 = 3;
/// Lines of the engine's stderr kept for error messages.
const STDERR_LINES: usize = 12;
/// How often a wait looks at the cancel flag.
const POLL: Duration = Duration::from_millis(100);

/// How to run the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KatagoSpec {
    /// The command line, split as a POSIX shell splits words.
    pub command: String,
    /// Visits per position (1: the raw net).
    pub visits: u32,
    /// How long the first answer may take (the net is loaded and compiled before it).
    pub startup: Duration,
}

/// Why the engine cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The command cannot be run, does not speak the protocol, or died too often; the
    /// message names it.
    #[error("{0}")]
    Failed(String),
    /// A signal asked the run to stop (its number).
    #[error("stopped by signal {0}")]
    Stopped(i32),
}

/// A running engine and the queries it owes answers to.
pub struct Katago {
    spec: KatagoSpec,
    argv: Vec<String>,
    process: Process,
    /// `query_version`'s version, e.g. `1.18.1`.
    pub version: String,
    /// The net's name as `query_models` gives it, e.g. `b10c384h6nbttflrs`.
    pub model: String,
    next: u64,
    /// Queries written and not answered, by id, with the stones-only form to ask if the
    /// engine refuses the moves: sent again after a restart.
    unanswered: BTreeMap<u64, (String, Option<String>)>,
    answers: HashMap<u64, EngineAnswer>,
    pub restarts: u32,
    /// Time spent with at least one query unanswered: the engine's busy time.
    busy: Duration,
    busy_since: Option<Instant>,
}

/// One engine process: its stdin, a thread reading its stdout into `lines` (`None` at the
/// end), a thread keeping the tail of its stderr.
struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Option<String>>,
    stderr: Arc<Mutex<VecDeque<String>>>,
}

impl Drop for Process {
    fn drop(&mut self) {
        drop(self.stdin.take());
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Process {
    fn spawn(argv: &[String], command: &str) -> Result<Process, EngineError> {
        let mut cmd = Command::new(&argv[0]);
        cmd.args(&argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        #[cfg(target_os = "linux")]
        {
            use std::os::unix::process::CommandExt;
            // SAFETY: prctl is async-signal-safe and touches no memory of the parent.
            unsafe {
                cmd.pre_exec(|| {
                    libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                    Ok(())
                });
            }
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| EngineError::Failed(format!("--katago {command:?}: cannot run: {e}")))?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr_pipe = child.stderr.take().expect("piped stderr");
        let (tx, lines) = channel();
        std::thread::Builder::new()
            .name("katago-stdout".into())
            .spawn(move || {
                for line in BufReader::new(stdout).lines() {
                    match line {
                        Ok(l) => {
                            if tx.send(Some(l)).is_err() {
                                return;
                            }
                        }
                        Err(_) => break,
                    }
                }
                let _ = tx.send(None);
            })
            .map_err(|e| EngineError::Failed(format!("cannot start a thread: {e}")))?;
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        let tail = Arc::clone(&stderr);
        std::thread::Builder::new()
            .name("katago-stderr".into())
            .spawn(move || {
                for line in BufReader::new(stderr_pipe).lines().map_while(Result::ok) {
                    let mut t = tail.lock().unwrap_or_else(|e| e.into_inner());
                    if t.len() == STDERR_LINES {
                        t.pop_front();
                    }
                    t.push_back(line);
                }
            })
            .map_err(|e| EngineError::Failed(format!("cannot start a thread: {e}")))?;
        Ok(Process {
            child,
            stdin,
            lines,
            stderr,
        })
    }

    /// Writes one line; a broken pipe is left for the reader to find as the engine's end.
    fn send(&mut self, line: &str) {
        if let Some(stdin) = &mut self.stdin {
            let ok = stdin
                .write_all(line.as_bytes())
                .and_then(|()| stdin.write_all(b"\n"))
                .and_then(|()| stdin.flush());
            if ok.is_err() {
                self.stdin = None;
            }
        }
    }

    fn last_words(&self) -> String {
        let t = self.stderr.lock().unwrap_or_else(|e| e.into_inner());
        if t.is_empty() {
            "nothing on stderr".to_string()
        } else {
            t.iter().cloned().collect::<Vec<_>>().join(" | ")
        }
    }
}

/// The command line as run: CMD's words, with the net's random symmetry turned off.
pub fn argv(command: &str) -> Result<Vec<String>, EngineError> {
    let mut argv = shlex::split(command)
        .filter(|a| !a.is_empty())
        .ok_or_else(|| {
            EngineError::Failed(format!(
                "--katago {command:?}: not a command line (unbalanced quotes?)"
            ))
        })?;
    match argv.iter().position(|a| a == "-override-config") {
        Some(i) if i + 1 < argv.len() => argv[i + 1].push_str(",nnRandomize=false"),
        _ => argv.extend([
            "-override-config".to_string(),
            "nnRandomize=false".to_string(),
        ]),
    }
    Ok(argv)
}

impl Katago {
    /// Starts the engine and waits for its version and net; `cancel` returns the number of a
    /// signal that asks the run to stop (0: none).
    pub fn start(spec: &KatagoSpec, cancel: &dyn Fn() -> i32) -> Result<Katago, EngineError> {
        let argv = argv(&spec.command)?;
        let mut process = Process::spawn(&argv, &spec.command)?;
        let (version, model) = handshake(&mut process, spec, cancel)?;
        Ok(Katago {
            spec: spec.clone(),
            argv,
            process,
            version,
            model,
            next: 0,
            unanswered: BTreeMap::new(),
            answers: HashMap::new(),
            restarts: 0,
            busy: Duration::ZERO,
            busy_since: None,
        })
    }

    /// Writes a query and returns its id; the answer is `wait`'s.
    pub fn submit(&mut self, q: &EngineQuery) -> u64 {
        let id = self.next;
        self.next += 1;
        let stones = query_json(id, q, self.spec.visits, false);
        let (line, fallback) = match q.history {
            Some(_) => (query_json(id, q, self.spec.visits, true), Some(stones)),
            None => (stones, None),
        };
        self.process.send(&line);
        self.unanswered.insert(id, (line, fallback));
        self.busy_since.get_or_insert_with(Instant::now);
        id
    }

    /// The answer to query `id`, waiting for it.
    pub fn wait(&mut self, id: u64, cancel: &dyn Fn() -> i32) -> Result<EngineAnswer, EngineError> {
        loop {
            if let Some(a) = self.answers.remove(&id) {
                return Ok(a);
            }
            if !self.unanswered.contains_key(&id) {
                return Err(EngineError::Failed(format!(
                    "--katago: query {id} was never sent"
                )));
            }
            match self.process.lines.recv_timeout(POLL) {
                Ok(Some(line)) => self.take(&line)?,
                Ok(None) | Err(RecvTimeoutError::Disconnected) => self.restart(cancel)?,
                Err(RecvTimeoutError::Timeout) => {}
            }
            let signal = cancel();
            if signal != 0 {
                return Err(EngineError::Stopped(signal));
            }
        }
    }

    /// The time the engine had work queued, so far.
    pub fn busy(&self) -> Duration {
        self.busy + self.busy_since.map_or(Duration::ZERO, |t| t.elapsed())
    }

    /// Files an answer line.
    fn take(&mut self, line: &str) -> Result<(), EngineError> {
        let v = parse(line, &self.spec.command)?;
        let Some(id) = v.get("id").and_then(Value::as_str) else {
            if let Some(e) = v.get("error") {
                return Err(EngineError::Failed(format!(
                    "--katago {:?}: the engine reports {e}",
                    self.spec.command
                )));
            }
            return Ok(());
        };
        let Ok(id) = id.parse::<u64>() else {
            // The handshake's own ids, answered twice after a restart.
            return Ok(());
        };
        if v.get("warning").is_some() || v.get("isDuringSearch") == Some(&Value::Bool(true)) {
            return Ok(());
        }
        let Some((line_sent, fallback)) = self.unanswered.get_mut(&id) else {
            return Ok(());
        };
        let history = fallback.is_some();
        if let (Some(_), Some(stones)) = (v.get("error"), fallback.take()) {
            *line_sent = stones;
            let line = line_sent.clone();
            self.process.send(&line);
            return Ok(());
        }
        let answer = match v.get("error") {
            Some(e) => Err(NoAnswer::Refused(
                e.as_str().map_or_else(|| e.to_string(), str::to_string),
            )),
            None => view(&v, history).ok_or_else(|| {
                EngineError::Failed(format!(
                    "--katago {:?}: an answer without rootInfo.scoreLead, rootInfo.scoreSelfplay or ownership: {}",
                    self.spec.command,
                    clip(line)
                ))
            })?,
        };
        self.unanswered.remove(&id);
        self.answers.insert(id, answer);
        if self.unanswered.is_empty() {
            if let Some(t) = self.busy_since.take() {
                self.busy += t.elapsed();
            }
        }
        Ok(())
    }

    /// Starts the engine again after it died and sends again what it had not answered.
    fn restart(&mut self, cancel: &dyn Fn() -> i32) -> Result<(), EngineError> {
        let words = self.process.last_words();
        let status = self.process.child.wait().ok();
        if self.restarts >= MAX_RESTARTS {
            return Err(EngineError::Failed(format!(
                "--katago {:?}: the engine ended ({}) {} times; its last words: {words}",
                self.spec.command,
                status.map_or_else(|| "?".to_string(), |s| s.to_string()),
                self.restarts + 1
            )));
        }
        self.restarts += 1;
        self.process = Process::spawn(&self.argv, &self.spec.command)?;
        let (version, model) = handshake(&mut self.process, &self.spec, cancel)?;
        if (version.as_str(), model.as_str()) != (self.version.as_str(), self.model.as_str()) {
            return Err(EngineError::Failed(format!(
                "--katago {:?}: restarted as {version} with {model}, not {} with {}",
                self.spec.command, self.version, self.model
            )));
        }
        for (line, _) in self.unanswered.values() {
            self.process.send(line);
        }
        Ok(())
    }
}

/// Asks a fresh engine for its version and net, within the startup time.
fn handshake(
    p: &mut Process,
    spec: &KatagoSpec,
    cancel: &dyn Fn() -> i32,
) -> Result<(String, String), EngineError> {
    let command = &spec.command;
    p.send(r#"{"id":"version","action":"query_version"}"#);
    p.send(r#"{"id":"models","action":"query_models"}"#);
    let deadline = Instant::now() + spec.startup;
    let (mut version, mut model) = (None, None);
    while version.is_none() || model.is_none() {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(EngineError::Failed(format!(
                "--katago {command:?}: no answer within {} s (--katago-startup); its last words: {}",
                spec.startup.as_secs(),
                p.last_words()
            )));
        }
        match p.lines.recv_timeout(left.min(POLL)) {
            Ok(Some(line)) => {
                let v = parse(&line, command)?;
                match v.get("id").and_then(Value::as_str) {
                    Some("version") => {
                        version = Some(
                            v.get("version")
                                .and_then(Value::as_str)
                                .unwrap_or("unknown")
                                .to_string(),
                        )
                    }
                    Some("models") => {
                        model = Some(
                            v.pointer("/models/0/internalName")
                                .and_then(Value::as_str)
                                .unwrap_or("unknown")
                                .to_string(),
                        )
                    }
                    _ => {}
                }
            }
            Ok(None) | Err(RecvTimeoutError::Disconnected) => {
                // Let the stderr thread catch up with the engine's last words.
                std::thread::sleep(POLL);
                let status = p
                    .child
                    .wait()
                    .map_or_else(|e| e.to_string(), |s| s.to_string());
                return Err(EngineError::Failed(format!(
                    "--katago {command:?}: the engine ended ({status}) before answering; its last words: {}",
                    p.last_words()
                )));
            }
            Err(RecvTimeoutError::Timeout) => {}
        }
        let signal = cancel();
        if signal != 0 {
            return Err(EngineError::Stopped(signal));
        }
    }
    Ok((version.unwrap_or_default(), model.unwrap_or_default()))
}

/// One line of the protocol: a JSON object.
fn parse(line: &str, command: &str) -> Result<Value, EngineError> {
    match serde_json::from_str::<Value>(line) {
        Ok(v) if v.is_object() => Ok(v),
        _ => Err(EngineError::Failed(format!(
            "--katago {command:?}: printed something that is not KataGo's analysis protocol: {}",
            clip(line)
        ))),
    }
}

fn clip(line: &str) -> String {
    let mut s: String = line.chars().take(160).collect();
    if s.len() < line.len() {
        s.push('…');
    }
    s
}

/// An analysis answer's lead, score and ownership, Black's side (the query asks for it);
/// `history`: the query gave the moves.
fn view(v: &Value, history: bool) -> Option<EngineAnswer> {
    let lead = v.pointer("/rootInfo/scoreLead")?.as_f64()? as f32;
    let score = v.pointer("/rootInfo/scoreSelfplay")?.as_f64()? as f32;
    let ownership = v
        .get("ownership")?
        .as_array()?
        .iter()
        .map(|o| o.as_f64().map(|o| o as f32))
        .collect::<Option<Vec<f32>>>()?;
    Some(Ok(EngineView {
        lead,
        score,
        ownership,
        history,
    }))
}

/// A point as GTP writes it: a column letter (no I) and the row counted from the bottom.
fn gtp(size: u8, p: crate::go::Point) -> String {
    const COLUMNS: &[u8] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";
    format!(
        "{}{}",
        COLUMNS[usize::from(p.x)] as char,
        u32::from(size) - u32::from(p.y)
    )
}

fn player(c: Color) -> &'static str {
    c.letter()
}

/// The query for `q`: with `history`, its setup and moves, else its final stones and player
/// to move; White's handicap compensation already in the komi.
pub fn query_json(id: u64, q: &EngineQuery, visits: u32, history: bool) -> String {
    let stones = |s: &[(Color, crate::go::Point)]| -> Vec<Value> {
        s.iter()
            .map(|&(c, p)| json!([player(c), gtp(q.size, p)]))
            .collect()
    };
    let (initial, moves, first) = match q.history.as_ref().filter(|_| history) {
        Some(h) => (
            stones(&h.setup),
            h.moves
                .iter()
                .map(|&(c, p)| {
                    json!([
                        player(c),
                        p.map_or_else(|| "pass".to_string(), |p| gtp(q.size, p))
                    ])
                })
                .collect(),
            h.moves.first().map_or(q.to_move, |&(c, _)| c),
        ),
        None => (stones(&q.stones), Vec::new(), q.to_move),
    };
    let mut settings = json!({"reportAnalysisWinratesAs": "BLACK"});
    if visits > 1 {
        settings["numSearchThreads"] = json!(1);
    }
    json!({
        "id": id.to_string(),
        "initialStones": initial,
        "moves": moves,
        "initialPlayer": player(first),
        "rules": katago_rules(q.rules),
        "komi": q.komi,
        "whiteHandicapBonus": "0",
        "boardXSize": q.size,
        "boardYSize": q.size,
        "maxVisits": visits,
        "includeOwnership": true,
        "overrideSettings": settings,
    })
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::rules::Ruleset;
    use crate::go::Point;

    #[test]
    fn the_command_line_turns_the_random_symmetry_off() {
        assert_eq!(
            argv("katago analysis -model 'my net.gz'").unwrap(),
            [
                "katago",
                "analysis",
                "-model",
                "my net.gz",
                "-override-config",
                "nnRandomize=false"
            ]
        );
        assert_eq!(
            argv("k analysis -override-config maxVisits=2").unwrap()[3],
            "maxVisits=2,nnRandomize=false"
        );
        assert!(argv("k 'unbalanced").is_err());
        assert!(argv("   ").is_err());
    }

    #[test]
    fn points_are_written_as_gtp_writes_them() {
        assert_eq!(gtp(19, Point::new(0, 0)), "A19");
        assert_eq!(gtp(19, Point::new(8, 18)), "J1");
        assert_eq!(gtp(9, Point::new(3, 5)), "D4");
    }

    #[test]
    fn a_query_carries_the_position_rules_and_komi() {
        let q = EngineQuery {
            size: 9,
            stones: vec![
                (Color::Black, Point::new(2, 6)),
                (Color::White, Point::new(6, 2)),
            ],
            to_move: Color::White,
            rules: Ruleset::Japanese.rules(),
            komi: 6.5,
            history: Some(crate::go::MoveList {
                setup: vec![(Color::Black, Point::new(2, 6))],
                moves: vec![(Color::White, Some(Point::new(6, 2))), (Color::Black, None)],
            }),
        };
        let v: Value = serde_json::from_str(&query_json(7, &q, 1, true)).unwrap();
        assert_eq!(v["initialStones"], json!([["B", "C3"]]));
        assert_eq!(v["moves"], json!([["W", "G7"], ["B", "pass"]]));
        assert_eq!(v["initialPlayer"], "W");
        let v: Value = serde_json::from_str(&query_json(7, &q, 1, false)).unwrap();
        assert_eq!(v["moves"], json!([]));
        assert_eq!(v["id"], "7");
        assert_eq!(v["initialStones"], json!([["B", "C3"], ["W", "G7"]]));
        assert_eq!(v["initialPlayer"], "W");
        assert_eq!(v["rules"], "japanese");
        assert_eq!(v["komi"], 6.5);
        assert_eq!(v["maxVisits"], 1);
        assert_eq!(v["overrideSettings"]["reportAnalysisWinratesAs"], "BLACK");
        assert!(v["overrideSettings"].get("numSearchThreads").is_none());
    }

    #[test]
    fn answers_and_refusals_are_read() {
        let a: Value = serde_json::from_str(
            r#"{"id":"3","rootInfo":{"scoreLead":-2.5,"scoreSelfplay":-3.25},"ownership":[0.5,-1]}"#,
        )
        .unwrap();
        assert_eq!(
            view(&a, true),
            Some(Ok(EngineView {
                lead: -2.5,
                score: -3.25,
                ownership: vec![0.5, -1.0],
                history: true,
            }))
        );
        let b: Value = serde_json::from_str(r#"{"id":"3","rootInfo":{}}"#).unwrap();
        assert_eq!(view(&b, false), None);
        let c: Value =
            serde_json::from_str(r#"{"id":"3","rootInfo":{"scoreLead":1},"ownership":[]}"#)
                .unwrap();
        assert_eq!(view(&c, false), None);
        assert!(parse("Loading model", "k").is_err());
    }
}
