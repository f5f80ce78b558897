//! The data of the report's charts, from the tally; `plot` draws them. Kept apart so that what
//! a chart shows can be tested without drawing, and the drawing changed without the data.

use std::collections::{BTreeMap, BTreeSet};

use super::facts::Ending;
use super::tally::{calibration_bin, LifeSums, Tally};
use crate::life::Method;
use crate::sgf::result::{How, Winner};

/// One chart, ready to draw.
#[derive(Clone, Debug, PartialEq)]
pub enum Chart {
    /// Grouped bars: one group per category, one bar per series; values in `0..=y_max`.
    /// `log` draws the axis in powers of ten, for counts that span orders of magnitude;
    /// `counts` labels it in whole numbers.
    Bars {
        title: &'static str,
        y_desc: &'static str,
        categories: Vec<String>,
        series: Vec<(String, Vec<f64>)>,
        y_max: f64,
        log: bool,
        counts: bool,
    },
    /// Histograms side by side, one panel per series, on a shared integer x range; the bins
    /// counted already.
    Histograms {
        title: &'static str,
        x_desc: &'static str,
        range: (i32, i32),
        panels: Vec<(String, Vec<(i32, u32)>)>,
    },
}

pub(super) fn share(a: u64, b: u64) -> f64 {
    if b == 0 {
        0.0
    } else {
        100.0 * a as f64 / b as f64
    }
}

/// A round axis end a little above `top`: 1, 2, 2.5 or 5 times a power of ten.
pub(super) fn nice_max(top: f64) -> f64 {
    if top <= 0.0 {
        return 1.0;
    }
    let target = top * 1.1;
    let mut p = 10f64.powf(target.log10().floor());
    loop {
        for m in [1.0, 2.0, 2.5, 5.0] {
            if m * p >= target {
                return m * p;
            }
        }
        p *= 10.0;
    }
}

/// Bars of counts: a log axis when the nonzero counts span more than a factor of 50.
fn count_bars(
    title: &'static str,
    y_desc: &'static str,
    categories: Vec<String>,
    series: Vec<(String, Vec<f64>)>,
) -> Chart {
    let values = || series.iter().flat_map(|(_, v)| v.iter().copied());
    let top = values().fold(0.0f64, f64::max);
    let low = values().filter(|&v| v > 0.0).fold(f64::INFINITY, f64::min);
    let log = top > 50.0 * low;
    Chart::Bars {
        title,
        y_desc,
        categories,
        series,
        y_max: if log {
            10f64.powf((top * 1.5).log10().ceil())
        } else {
            nice_max(top)
        },
        log,
        counts: true,
    }
}

/// The share of blocks (or stones) each method proves alive, per ending with games.
fn life_by_ending(t: &Tally, stones: bool) -> Vec<(String, Vec<f64>)> {
    let alive = |l: &LifeSums, m: Method| {
        if stones {
            share(
                l.alive_stones[m][0] + l.alive_stones[m][1],
                l.stones[0] + l.stones[1],
            )
        } else {
            share(
                l.alive_blocks[m][0] + l.alive_blocks[m][1],
                l.blocks[0] + l.blocks[1],
            )
        }
    };
    Ending::ALL
        .into_iter()
        .filter(|&e| t.life.get(e).games > 0)
        .map(|e| {
            let l = t.life.get(e);
            let values = Method::ALL.into_iter().map(|m| alive(l, m)).collect();
            (e.label().to_string(), values)
        })
        .collect()
}

fn life_chart(t: &Tally, stones: bool) -> Chart {
    let series = life_by_ending(t, stones);
    let top = series
        .iter()
        .flat_map(|(_, v)| v.iter().copied())
        .fold(0.0f64, f64::max);
    let (title, y_desc) = if stones {
        (
            "What share of the stones does each method prove alive?",
            "% of stones",
        )
    } else {
        (
            "What share of the blocks does each method prove alive?",
            "% of blocks",
        )
    };
    Chart::Bars {
        title,
        y_desc,
        categories: Method::ALL.iter().map(|m| m.name().to_string()).collect(),
        series,
        y_max: nice_max(top).min(100.0),
        log: false,
        counts: false,
    }
}

/// Left out when every row has one status: a single bar says nothing the table does not.
fn statuses(t: &Tally) -> Option<Chart> {
    (t.status.len() > 1).then(|| {
        count_bars(
            "How many rows got each status?",
            "rows",
            t.status.keys().map(|s| s.as_str().to_string()).collect(),
            vec![(
                "rows".to_string(),
                t.status.values().map(|&v| v as f64).collect(),
            )],
        )
    })
}

fn endings(t: &Tally) -> Chart {
    let hows: Vec<How> = t
        .endings
        .keys()
        .map(|&(h, _)| h)
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let series = Winner::ALL
        .into_iter()
        .filter(|w| t.endings.keys().any(|(_, x)| x == w))
        .map(|w| {
            let v = hows
                .iter()
                .map(|&h| t.endings.get(&(h, w)).copied().unwrap_or(0) as f64)
                .collect();
            (format!("winner {}", w.as_str()), v)
        })
        .collect();
    let names = hows.iter().map(|h| h.as_str().to_string()).collect();
    count_bars("How did the games end, by RE?", "games", names, series)
}

/// Left out when no game could be compared; a source without games gets no panel, and
/// KataGo's lead and score get one each where the run asked KataGo.
fn margin_error(t: &Tally) -> Option<Chart> {
    let panels: Vec<_> = t
        .margins()
        .filter(|(_, s)| s.compared > 0)
        .map(|(name, s)| {
            // The exact games would dwarf every other bar: they are in the caption instead.
            let mut clamped = BTreeMap::new();
            for (&e, &n) in s.error.iter().filter(|(&e, _)| e != 0) {
                *clamped.entry(e.clamp(-30, 30)).or_insert(0u32) += n;
            }
            (
                format!(
                    "{}: {} of {} exact; {} below",
                    name,
                    s.exact,
                    s.compared,
                    s.compared - s.exact
                ),
                clamped.into_iter().collect(),
            )
        })
        .collect();
    (!panels.is_empty()).then_some(Chart::Histograms {
        title:
            "How far is the computed margin from RE where it is not exact? (points, ends at ±30)",
        x_desc: "computed − recorded margin",
        range: (-30, 30),
        panels,
    })
}

fn big_eyes(t: &Tally) -> Option<Chart> {
    let mut sizes = BTreeMap::<u32, (u64, u64)>::new();
    for ((size, _), v) in &t.big_eyes {
        let e = sizes.entry(*size).or_default();
        e.0 += v.eyes;
        e.1 += v.classified;
    }
    if sizes.is_empty() {
        return None;
    }
    let mut series = vec![(
        "shape in Tab. 2".to_string(),
        sizes.values().map(|v| v.1 as f64).collect(),
    )];
    // The second series only when some shape is missing from the table.
    if sizes.values().any(|v| v.0 > v.1) {
        series.push((
            "shape not in Tab. 2".to_string(),
            sizes.values().map(|v| (v.0 - v.1) as f64).collect(),
        ));
    }
    Some(count_bars(
        "How big are the big own eyes, and does Tab. 2 know their shape?",
        "eyes",
        sizes.keys().map(|s| format!("{s} points")).collect(),
        series,
    ))
}

/// The estimate's `dead_share` against a reference's verdict; left out without blocks a
/// reference judged.
fn calibration(t: &Tally) -> Option<Chart> {
    let bins: Vec<(usize, (u64, u64))> = t
        .calibration
        .iter()
        .copied()
        .enumerate()
        .filter(|(_, (blocks, _))| *blocks > 0)
        .collect();
    (!bins.is_empty()).then(|| Chart::Bars {
        title: "When the playouts kill a block in a given share, how often is it dead?",
        y_desc: "% of blocks",
        categories: bins
            .iter()
            .map(|&(i, (n, _))| format!("{} ({n})", calibration_bin(i)))
            .collect(),
        series: vec![
            (
                "dead by the reference (markup, KataGo)".to_string(),
                bins.iter().map(|&(_, (n, d))| share(d, n)).collect(),
            ),
            (
                "the bin's middle: a calibrated share".to_string(),
                bins.iter().map(|&(i, _)| 10.0 * i as f64 + 5.0).collect(),
            ),
        ],
        y_max: 100.0,
        log: false,
        counts: false,
    })
}

/// Every chart of the report that has something to show, with its file name under `plots/`.
pub fn charts(t: &Tally) -> Vec<(&'static str, Chart)> {
    [
        ("statuses.svg", statuses(t)),
        ("endings.svg", (!t.endings.is_empty()).then(|| endings(t))),
        ("life_blocks.svg", has_life(t).then(|| life_chart(t, false))),
        ("life_stones.svg", has_life(t).then(|| life_chart(t, true))),
        ("margin_error.svg", margin_error(t)),
        ("calibration.svg", calibration(t)),
        ("big_eyes.svg", big_eyes(t)),
    ]
    .into_iter()
    .filter_map(|(name, c)| c.map(|c| (name, c)))
    .collect()
}

fn has_life(t: &Tally) -> bool {
    t.life.all.blocks.iter().sum::<u64>() > 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::tally::SourceSums;
    use crate::score::DeadSource;

    fn sums(compared: u64, exact: u64, off: i32) -> SourceSums {
        SourceSums {
            compared,
            exact,
            error: [(0, exact as u32), (off, (compared - exact) as u32)].into(),
            ..SourceSums::default()
        }
    }

    fn captions(t: &Tally) -> Vec<String> {
        match margin_error(t) {
            Some(Chart::Histograms { panels, .. }) => panels.into_iter().map(|p| p.0).collect(),
            _ => Vec::new(),
        }
    }

    #[test]
    fn margin_errors_have_a_panel_per_compared_source_and_katago_margin() {
        let mut t = Tally::default();
        assert!(margin_error(&t).is_none());
        t.sources[DeadSource::Estimate] = sums(10, 7, 1);
        t.sources[DeadSource::None] = sums(10, 1, -40);
        assert_eq!(
            captions(&t),
            [
                "estimate: 7 of 10 exact; 3 below",
                "none: 1 of 10 exact; 9 below"
            ]
        );
        t.katago_score = sums(10, 9, -1);
        assert_eq!(captions(&t).len(), 3);
        assert_eq!(captions(&t)[2], "katago score: 9 of 10 exact; 1 below");
        // Exact games are in the caption, not among the bars; far misses at the edge.
        let Some(Chart::Histograms { panels, .. }) = margin_error(&t) else {
            panic!("margin_error left the chart out")
        };
        assert_eq!(panels[1].1, [(-30, 9)]);
        assert_eq!(panels[2].1, [(-1, 1)]);
    }
}
