//! `mp95`: the living-block procedure as Müller-Prove (1995) published it (Programm 2 and the
//! Prolog appendix), literally, as life-spec §4a fixes it: effective eyes capped at 2, a
//! *Vorlauf* over the shared eyes in point order, then `check` (PrüfeVerbindung) with its path
//! set on every eye still undecided. Its answers depend on the order of the eyes and on side
//! effects of failed branches; that is the published algorithm, kept as it is so that its
//! flaws can be measured.

use super::colour_net::ColourNet;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum EyeState {
    Lambda,
    Vital,
    NonVital,
}

/// A step of the procedure, for explaining a verdict.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mp95Event {
    /// A shared eye became vital in the Vorlauf.
    VitalInVorlauf(usize),
    /// A shared eye became vital in the Hauptschleife (possibly inside a nested check).
    Vital(usize),
    /// A shared eye was marked non-vital.
    NonVital(usize),
}

/// The verdicts of one run and the steps that led to them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mp95Trace {
    pub alive: Vec<bool>,
    pub events: Vec<Mp95Event>,
}

struct Run<'a> {
    net: &'a ColourNet,
    eff: Vec<u8>,
    state: Vec<EyeState>,
    in_vorlauf: bool,
    events: Vec<Mp95Event>,
}

/// Which blocks live (`eff(B) == 2` at the end).
pub fn mp95(net: &ColourNet) -> Vec<bool> {
    mp95_traced(net).alive
}

/// `mp95` with the steps it took.
pub fn mp95_traced(net: &ColourNet) -> Mp95Trace {
    let mut run = Run {
        net,
        eff: net.own.iter().map(|&o| o.min(2) as u8).collect(),
        state: vec![EyeState::Lambda; net.eyes.len()],
        in_vorlauf: true,
        events: Vec::new(),
    };
    // Vorlauf: changes are visible to the next eye of the same pass.
    for e in 0..net.eyes.len() {
        if net.eyes[e].iter().all(|&b| run.eff[b] > 0) {
            run.set_vital(e);
        }
    }
    run.in_vorlauf = false;
    // Hauptschleife over the list fixed when it starts.
    let undecided: Vec<usize> = (0..net.eyes.len())
        .filter(|&e| run.state[e] == EyeState::Lambda)
        .collect();
    let mut path = Vec::new();
    for e in undecided {
        run.check(e, &mut path);
    }
    Mp95Trace {
        alive: run.eff.iter().map(|&e| e == 2).collect(),
        events: run.events,
    }
}

impl Run<'_> {
    fn set_vital(&mut self, e: usize) {
        if self.state[e] == EyeState::Vital {
            return;
        }
        self.events.push(if self.in_vorlauf {
            Mp95Event::VitalInVorlauf(e)
        } else {
            Mp95Event::Vital(e)
        });
        self.state[e] = EyeState::Vital;
        for &b in &self.net.eyes[e] {
            self.eff[b] = (self.eff[b] + 1).min(2);
        }
    }

    /// PrüfeVerbindung(α, L). `path` is L; it is restored before returning.
    fn check(&mut self, e: usize, path: &mut Vec<usize>) -> bool {
        if self.state[e] == EyeState::Vital {
            return true;
        }
        let poor: Vec<usize> = self.net.eyes[e]
            .iter()
            .copied()
            .filter(|b| !path.contains(b) && self.eff[*b] == 0)
            .collect();
        let holds = poor.is_empty()
            || (poor.iter().all(|&b| self.net.ngem(b) > 1)
                && poor.iter().all(|&b| {
                    self.net.eyes_of[b].iter().any(|&other| {
                        if other == e {
                            return false;
                        }
                        path.push(b);
                        let ok = self.check(other, path);
                        path.pop();
                        ok
                    })
                }));
        if holds {
            self.set_vital(e);
        } else {
            self.state[e] = EyeState::NonVital;
            self.events.push(Mp95Event::NonVital(e));
        }
        holds
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_eyes_are_capped_at_two() {
        let n = ColourNet::new(vec![5, 1, 0], vec![]);
        assert_eq!(mp95(&n), [true, false, false]);
    }

    #[test]
    fn a_shared_eye_with_a_poor_block_of_one_shared_eye_is_not_vital() {
        // Block 1 has no own eye and only this shared eye: condition J fails.
        let n = ColourNet::new(vec![2, 0], vec![vec![0, 1]]);
        assert_eq!(mp95(&n), [true, false]);
    }
}
