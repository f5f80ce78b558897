//! Draws the report's charts as SVG (plotters' SVG backend: no fonts needed, text stays
//! text). What a chart shows is decided in `charts`.

use std::path::Path;

use plotters::prelude::*;

use super::charts::Chart;

/// Series colours, told apart in print as well as on screen.
const PALETTE: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
];

type PlotResult = Result<(), String>;

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// Draws `chart` into the SVG file `path`.
pub fn draw(path: &Path, chart: &Chart) -> PlotResult {
    match chart {
        Chart::Bars {
            title,
            y_desc,
            categories,
            series,
            y_max,
            log,
            counts,
        } => {
            let bars = Bars {
                title,
                y_desc,
                categories,
                series,
                counts: *counts,
            };
            if *log {
                // Bars of a log axis start at its floor; a count of 0 draws no bar.
                bars.draw(path, (0.7..*y_max).log_scale(), 0.7)
            } else {
                bars.draw(path, 0.0..*y_max, 0.0)
            }
        }
        Chart::Histograms {
            title,
            x_desc,
            range,
            panels,
        } => histogram_panels(path, title, x_desc, *range, panels),
    }
}

struct Bars<'a> {
    title: &'a str,
    y_desc: &'a str,
    categories: &'a [String],
    series: &'a [(String, Vec<f64>)],
    counts: bool,
}

impl Bars<'_> {
    fn draw<Y>(&self, path: &Path, y: Y, floor: f64) -> PlotResult
    where
        Y: plotters::coord::ranged1d::AsRangedCoord<Value = f64>,
        Y::CoordDescType: plotters::coord::ranged1d::ValueFormatter<f64>,
    {
        let categories = self.categories;
        let width = (160 + 90 * categories.len() as u32).clamp(480, 1000);
        // The legend goes under the chart, a line per series: inside, it covered the tallest
        // bars (the calibration chart's, near 100%, were under it).
        let legend = if self.series.len() > 1 {
            LEGEND_LINE * self.series.len() as u32 + 8
        } else {
            0
        };
        let root = SVGBackend::new(path, (width, 420 + legend)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let (plot, below) = root.split_vertically(420);
        let n = categories.len().max(1) as f64;
        let mut chart = ChartBuilder::on(&plot)
            .caption(self.title, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(0.0..n, y)
            .map_err(err)?;
        let cats = categories.to_vec();
        let counts = self.counts;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(categories.len() * 2 + 1)
            .x_label_formatter(&|x| {
                let k = x.floor() as usize;
                if (x - k as f64 - 0.5).abs() < 0.01 {
                    cats.get(k).cloned().unwrap_or_default()
                } else {
                    String::new()
                }
            })
            .y_label_formatter(&|v| {
                if counts {
                    // Whole numbers only: a log axis also puts ticks between powers of ten.
                    if (v - v.round()).abs() < 1e-9 {
                        format!("{}", v.round() as u64)
                    } else {
                        String::new()
                    }
                } else {
                    // Shares: no float noise (0.6000000000000001) on the axis.
                    let t = format!("{v:.2}");
                    t.trim_end_matches('0').trim_end_matches('.').to_string()
                }
            })
            .y_desc(self.y_desc)
            .draw()
            .map_err(err)?;
        let m = self.series.len().max(1) as f64;
        let bar = 0.8 / m;
        for (s, (_, values)) in self.series.iter().enumerate() {
            let colour = PALETTE[s % PALETTE.len()];
            chart
                .draw_series(values.iter().enumerate().filter(|(_, &v)| v > floor).map(
                    |(k, &v)| {
                        let x0 = k as f64 + 0.1 + s as f64 * bar;
                        Rectangle::new([(x0, floor), (x0 + bar * 0.95, v)], colour.filled())
                    },
                ))
                .map_err(err)?;
        }
        if self.series.len() > 1 {
            for (s, (name, _)) in self.series.iter().enumerate() {
                let colour = PALETTE[s % PALETTE.len()];
                let y = (LEGEND_LINE * s as u32) as i32 + 4;
                below
                    .draw(&Rectangle::new(
                        [(72, y + 2), (82, y + 12)],
                        colour.filled(),
                    ))
                    .map_err(err)?;
                below
                    .draw(&Text::new(name.as_str(), (90, y), ("sans-serif", 13)))
                    .map_err(err)?;
            }
        }
        root.present().map_err(err)
    }
}

/// The height of a line of a bar chart's legend, in pixels.
const LEGEND_LINE: u32 = 18;

const PANELS_PER_ROW: usize = 3;

fn histogram_panels(
    path: &Path,
    title: &str,
    x_desc: &str,
    range: (i32, i32),
    panels: &[(String, Vec<(i32, u32)>)],
) -> PlotResult {
    // Three panels a row at most, so that KataGo's five stay readable.
    let cols = panels.len().clamp(1, PANELS_PER_ROW);
    let rows = panels.len().div_ceil(PANELS_PER_ROW).max(1);
    let root =
        SVGBackend::new(path, (320 * cols as u32, 30 + 330 * rows as u32)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let root = root.titled(title, ("sans-serif", 18)).map_err(err)?;
    let areas = root.split_evenly((rows, cols));
    for (k, ((name, counts), area)) in panels.iter().zip(&areas).enumerate() {
        let y_max = counts.iter().map(|&(_, c)| c).max().unwrap_or(1).max(1);
        let mut chart = ChartBuilder::on(area)
            .caption(name, ("sans-serif", 14))
            .margin(8)
            .x_label_area_size(36)
            .y_label_area_size(48)
            .build_cartesian_2d(
                f64::from(range.0) - 0.5..f64::from(range.1) + 0.5,
                0u32..y_max + y_max / 10 + 1,
            )
            .map_err(err)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_label_formatter(&|x| format!("{}", x.round() as i64))
            .x_desc(x_desc)
            .y_desc("games")
            .draw()
            .map_err(err)?;
        let colour = PALETTE[k % PALETTE.len()];
        // Bars drawn one by one in x order (plotters' Histogram sums through a HashMap, whose
        // order would make the SVG differ between identical runs).
        chart
            .draw_series(counts.iter().map(|&(x, c)| {
                let x = f64::from(x);
                Rectangle::new([(x - 0.4, 0), (x + 0.4, c)], colour.filled())
            }))
            .map_err(err)?;
    }
    root.present().map_err(err)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::charts::charts;
    use crate::report::tally::Tally;

    /// The rectangle `x, y, width, height` of an SVG element.
    fn rect(n: roxmltree::Node) -> [f64; 4] {
        ["x", "y", "width", "height"].map(|a| n.attribute(a).unwrap().parse().unwrap())
    }

    /// Issue 51: the calibration chart's legend covered the tops of its tallest bars.
    #[test]
    fn the_calibration_legend_is_under_the_bars() {
        let mut t = Tally::default();
        // Every bin's blocks all dead: bars to the top of the axis.
        for bin in t.calibration.iter_mut() {
            *bin = (10, 10);
        }
        let (name, chart) = charts(&t)
            .into_iter()
            .find(|(name, _)| *name == "calibration.svg")
            .expect("a calibration chart");
        let dir = std::env::temp_dir().join(format!("livingblocks-plot-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        draw(&path, &chart).unwrap();
        let svg = std::fs::read_to_string(&path).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let Chart::Bars { series, .. } = &chart else {
            panic!("calibration draws bars")
        };
        let colours: Vec<String> = PALETTE[..series.len()]
            .iter()
            .map(|c| format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2))
            .collect();
        let filled: Vec<[f64; 4]> = doc
            .descendants()
            .filter(|n| n.has_tag_name("rect"))
            .filter(|n| colours.iter().any(|c| n.attribute("fill") == Some(c)))
            .map(rect)
            .collect();
        // The bars are the tall ones; the legend's swatches are 10 px squares.
        let bottom = filled
            .iter()
            .filter(|r| r[3] > 12.0)
            .map(|r| r[1] + r[3])
            .fold(0.0, f64::max);
        assert!(bottom > 0.0, "no bars drawn");
        let labels: Vec<f64> = doc
            .descendants()
            .filter(|n| n.has_tag_name("text"))
            .filter(|n| {
                let t = n.text().unwrap_or("").trim();
                series.iter().any(|(name, _)| name == t)
            })
            .map(|n| n.attribute("y").unwrap().parse().unwrap())
            .collect();
        assert_eq!(labels.len(), series.len(), "a legend line per series");
        for y in labels {
            assert!(
                y > bottom,
                "a legend line at y {y}, over bars reaching {bottom}"
            );
        }
        for r in filled.iter().filter(|r| r[3] <= 12.0) {
            assert!(
                r[1] > bottom,
                "a legend swatch at y {}, over the bars",
                r[1]
            );
        }
    }
}
