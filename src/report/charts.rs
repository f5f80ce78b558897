//! The data of the report's charts, from the tally; `plot` draws them. Kept apart so that what
//! a chart shows can be tested without drawing, and the drawing changed without the data.

use std::collections::{BTreeMap, BTreeSet};

use super::facts::Ending;
use super::tally::{LifeSums, Tally};
use crate::life::Method;

/// One chart, ready to draw.
#[derive(Clone, Debug, PartialEq)]
pub enum Chart {
    /// Grouped bars: one group per category, one bar per series; values in `0..=y_max`.
    Bars {
        title: &'static str,
        y_desc: &'static str,
        categories: Vec<String>,
        series: Vec<(String, Vec<f64>)>,
        y_max: f64,
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
            (format!("ended by {}", e.name()), values)
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
            "Stones proven alive, by method and how the game ended",
            "% of stones",
        )
    } else {
        (
            "Blocks proven alive, by method and how the game ended",
            "% of blocks",
        )
    };
    Chart::Bars {
        title,
        y_desc,
        categories: Method::ALL.iter().map(|m| m.name().to_string()).collect(),
        series,
        y_max: ((top * 1.2 / 10.0).ceil() * 10.0).clamp(10.0, 100.0),
    }
}

fn statuses(t: &Tally) -> Chart {
    Chart::Bars {
        title: "Rows by status",
        y_desc: "rows",
        categories: t.status.keys().cloned().collect(),
        series: vec![(
            "games".to_string(),
            t.status.values().map(|&v| v as f64).collect(),
        )],
        y_max: t.status.values().copied().max().unwrap_or(1) as f64,
    }
}

fn endings(t: &Tally) -> Chart {
    let hows: Vec<String> = t
        .endings
        .keys()
        .map(|(h, _)| h.clone())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let series = ["B", "W", "draw", "none", "unknown"]
        .iter()
        .filter(|w| t.endings.keys().any(|(_, x)| x == *w))
        .map(|w| {
            let v = hows
                .iter()
                .map(|h| {
                    t.endings
                        .get(&(h.clone(), w.to_string()))
                        .copied()
                        .unwrap_or(0) as f64
                })
                .collect();
            (format!("winner {w}"), v)
        })
        .collect();
    Chart::Bars {
        title: "How the games ended (RE)",
        y_desc: "games",
        categories: hows,
        series,
        y_max: t.endings.values().copied().max().unwrap_or(1) as f64,
    }
}

fn margin_error(t: &Tally) -> Chart {
    let panels = t
        .sources
        .iter()
        .map(|(src, s)| {
            // The exact games would dwarf every other bar: they are in the caption instead.
            let mut clamped = BTreeMap::new();
            for (&e, &n) in s.error.iter().filter(|(&e, _)| e != 0) {
                *clamped.entry(e.clamp(-30, 30)).or_insert(0u32) += n;
            }
            (
                format!("{}: {} of {} exact, rest:", src.name(), s.exact, s.compared),
                clamped.into_iter().collect(),
            )
        })
        .collect();
    Chart::Histograms {
        title: "Computed minus recorded margin, games not exact (points; ends clamped at ±30)",
        x_desc: "points",
        range: (-30, 30),
        panels,
    }
}

fn big_eyes(t: &Tally) -> Chart {
    let mut sizes = BTreeMap::<u32, (u64, u64)>::new();
    for ((size, _), v) in &t.big_eyes {
        let e = sizes.entry(*size).or_default();
        e.0 += v.eyes;
        e.1 += v.classified;
    }
    Chart::Bars {
        title: "Big own eyes by size",
        y_desc: "eyes",
        categories: sizes.keys().map(|s| format!("{s} points")).collect(),
        series: vec![
            (
                "big eyes".to_string(),
                sizes.values().map(|v| v.0 as f64).collect(),
            ),
            (
                "in Tab. 2".to_string(),
                sizes.values().map(|v| v.1 as f64).collect(),
            ),
        ],
        y_max: sizes.values().map(|v| v.0).max().unwrap_or(1) as f64,
    }
}

/// Every chart of the report, with its file name under `plots/`.
pub fn charts(t: &Tally) -> Vec<(&'static str, Chart)> {
    vec![
        ("statuses.svg", statuses(t)),
        ("endings.svg", endings(t)),
        ("life_blocks.svg", life_chart(t, false)),
        ("life_stones.svg", life_chart(t, true)),
        ("margin_error.svg", margin_error(t)),
        ("big_eyes.svg", big_eyes(t)),
    ]
}
