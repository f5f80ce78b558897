//! Who judges a final position, behind one interface: a query in, an answer out. `analyze`
//! asks about every position its options select, `show` about the one it draws.
//!
//! The judges answer at different times. The estimate is asked nothing: the analysis itself
//! plays it out. A net answers at once, in the thread that asks, so a run's workers judge
//! their own files in parallel. KataGo's engine answers later: a question is sent in the
//! order the run asks (`send`) and its answer waited for (`answer`), so that a run can send a
//! batch while the batch before is answered.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use super::nn::RunNet;
use super::{EngineError, Katago, KatagoSpec, NetSource};
use crate::score::judgement::{EngineAnswer, EngineQuery, NoAnswer};

/// Who judges.
enum Who {
    /// The estimate alone: nobody is asked, and the analysis judges with its playouts.
    Estimate,
    /// A KataGo net evaluated in-process: the carried one or `--net FILE`.
    Net(Box<RunNet>),
    /// KataGo's engine, a process talked to over pipes (`--katago`); only the thread that
    /// sends and waits uses it (`&mut`), the lock only lets workers hold the judge.
    Katago(Box<Mutex<Katago>>),
}

/// What asking gave: the answer, or the question on its way to the engine.
pub enum Ticket {
    /// The answer at hand: a net's, or why the position cannot be asked.
    Answered(EngineAnswer),
    /// A question for the engine, not yet sent (`Judge::send`).
    Unsent(EngineQuery),
    /// Sent to the engine under this id; `Judge::answer` waits for it.
    Sent(u64),
}

impl Ticket {
    /// The answer, where it is at hand.
    pub fn answered(self) -> Result<EngineAnswer, Ticket> {
        match self {
            Ticket::Answered(a) => Ok(a),
            t => Err(t),
        }
    }
}

/// A run's judge, and the count of the positions it was asked about.
pub struct Judge {
    who: Who,
    asked: AtomicU64,
}

impl Judge {
    /// The judge a request names: KataGo's engine (started, its net loaded), else a net (a
    /// file read and checked; the carried one read when first asked), else the estimate.
    /// `cancel` returns the number of a signal that asks the run to stop (0: none).
    pub fn open(
        katago: Option<&KatagoSpec>,
        net: Option<&NetSource>,
        cancel: &dyn Fn() -> i32,
    ) -> Result<Judge, EngineError> {
        let who = match (katago, net) {
            (Some(spec), _) => Who::Katago(Box::new(Mutex::new(Katago::start(spec, cancel)?))),
            (None, Some(source)) => Who::Net(Box::new(RunNet::open(source)?)),
            (None, None) => Who::Estimate,
        };
        Ok(Judge {
            who,
            asked: AtomicU64::new(0),
        })
    }

    /// Whether anybody is asked (not the estimate alone).
    pub fn asks(&self) -> bool {
        !matches!(self.who, Who::Estimate)
    }

    /// Asks about one position: `q` is its query, or why it cannot be put. `None` for the
    /// estimate, which is not asked. Any thread may ask; a net answers here.
    pub fn ask(&self, q: Result<EngineQuery, NoAnswer>) -> Option<Ticket> {
        match (&self.who, q) {
            (Who::Estimate, _) => None,
            (_, Err(why)) => Some(Ticket::Answered(Err(why))),
            (Who::Net(net), Ok(q)) => {
                self.asked.fetch_add(1, Ordering::Relaxed);
                Some(Ticket::Answered(net.judge(&q)))
            }
            (Who::Katago(_), Ok(q)) => Some(Ticket::Unsent(q)),
        }
    }

    /// Sends an unsent question to the engine. Called in the order the run wants its
    /// questions asked, so that the engine's ids follow the input.
    pub fn send(&mut self, t: &mut Ticket) {
        if let (Ticket::Unsent(q), Who::Katago(engine)) = (&*t, &mut self.who) {
            let id = engine_of(engine).submit(q);
            self.asked.fetch_add(1, Ordering::Relaxed);
            *t = Ticket::Sent(id);
        }
    }

    /// The answer of a ticket, sent first and waited for where the engine owes it.
    pub fn answer(
        &mut self,
        mut t: Ticket,
        cancel: &dyn Fn() -> i32,
    ) -> Result<EngineAnswer, EngineError> {
        self.send(&mut t);
        match (t, &mut self.who) {
            (Ticket::Answered(a), _) => Ok(a),
            (Ticket::Sent(id), Who::Katago(engine)) => engine_of(engine).wait(id, cancel),
            // Only an engine's own `ask` gives these.
            (Ticket::Sent(_) | Ticket::Unsent(_), _) => Err(EngineError::Failed(
                "a question for an engine, put to a judge without one".to_string(),
            )),
        }
    }

    /// Positions asked about so far (one that could not be put is not counted).
    pub fn asked(&self) -> u64 {
        self.asked.load(Ordering::Relaxed)
    }

    /// KataGo's engine, where it judges.
    pub fn engine(&mut self) -> Option<&Katago> {
        match &mut self.who {
            Who::Katago(k) => Some(engine_of(k)),
            _ => None,
        }
    }

    /// The net, where one judges.
    pub fn net(&self) -> Option<&RunNet> {
        match &self.who {
            Who::Net(n) => Some(n),
            _ => None,
        }
    }
}

/// The engine behind its lock, which no one else holds: a thread that panicked with it is
/// gone, and the engine's state is whole between calls.
fn engine_of(m: &mut Mutex<Katago>) -> &mut Katago {
    m.get_mut()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::rules::Ruleset;
    use crate::go::{Color, Point};

    fn query() -> EngineQuery {
        EngineQuery {
            size: 9,
            stones: vec![
                (Color::Black, Point::new(2, 6)),
                (Color::White, Point::new(6, 2)),
            ],
            to_move: Color::Black,
            rules: Ruleset::Chinese.rules(),
            komi: 7.5,
            history: None,
        }
    }

    #[test]
    fn the_estimate_is_asked_nothing() {
        let judge = Judge::open(None, None, &|| 0).unwrap();
        assert!(!judge.asks());
        assert!(judge.ask(Ok(query())).is_none());
        assert!(judge.ask(Err(NoAnswer::TooLarge(25))).is_none());
        assert_eq!(judge.asked(), 0);
    }

    #[test]
    fn a_net_answers_where_it_is_asked() {
        let mut judge = Judge::open(None, Some(&NetSource::Carried), &|| 0).unwrap();
        assert!(judge.asks());
        let Some(Ticket::Answered(Ok(view))) = judge.ask(Ok(query())) else {
            panic!("the net did not answer at once");
        };
        assert_eq!(Ok(view.clone()), judge.net().unwrap().judge(&query()));
        assert_eq!(view.ownership.len(), 81);
        assert_eq!(judge.asked(), 1);
        // A position that cannot be put is answered with why, and not counted.
        let t = judge.ask(Err(NoAnswer::TooLarge(25))).unwrap();
        assert_eq!(judge.answer(t, &|| 0).unwrap(), Err(NoAnswer::TooLarge(25)));
        assert_eq!(judge.asked(), 1);
        // Only an engine gives an id; another judge refuses one rather than wait forever.
        assert!(judge.answer(Ticket::Sent(0), &|| 0).is_err());
        assert!(judge.engine().is_none());
    }
}
