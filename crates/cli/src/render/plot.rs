//! The sweep plot: nodes and time against N for each configuration, on log scales, as SVG.

use super::table::Row;
use plotters::prelude::*;
use std::path::Path;

/// Colours for the series, told apart in print as well as on screen.
const PALETTE: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
];

/// Reads one figure of a row for the plot.
type Measure = fn(&Row) -> f64;

/// Draws `rows` (several N per configuration) into an SVG file at `path`.
pub fn draw(path: &Path, rows: &[Row], title: &str) -> Result<(), String> {
    let configs: Vec<&str> = {
        let mut seen: Vec<&str> = Vec::new();
        for r in rows {
            if !seen.contains(&r.config.as_str()) {
                seen.push(&r.config);
            }
        }
        seen
    };
    let ns: Vec<usize> = rows.iter().filter_map(|r| r.n).collect();
    let (Some(&low), Some(&high)) = (ns.iter().min(), ns.iter().max()) else {
        return Err("--plot needs a range of N, such as 4..12".into());
    };
    let root = SVGBackend::new(path, (1100, 520)).into_drawing_area();
    let fail = |e: &dyn std::fmt::Display| format!("cannot draw {}: {e}", path.display());
    root.fill(&WHITE).map_err(|e| fail(&e))?;
    let titled = root
        .titled(title, ("sans-serif", 22))
        .map_err(|e| fail(&e))?;
    let panels = titled.split_evenly((1, 2));
    let measures: [(&str, &str, Measure); 2] = [
        ("nodes", "nodes (log scale)", |r| r.nodes.max(1) as f64),
        ("time", "time in ms (log scale)", |r| {
            (r.time.as_secs_f64() * 1000.0).max(0.001)
        }),
    ];
    for (panel, (caption, axis, value)) in panels.iter().zip(measures) {
        let values: Vec<f64> = rows.iter().map(value).collect();
        let top = values.iter().cloned().fold(1.0, f64::max) * 2.0;
        let bottom = values.iter().cloned().fold(f64::MAX, f64::min).max(1e-3) / 2.0;
        let mut chart = ChartBuilder::on(panel)
            .caption(format!("{caption} against N"), ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(70)
            .build_cartesian_2d(
                low as f64 - 0.2..high as f64 + 0.2,
                (bottom..top).log_scale(),
            )
            .map_err(|e| fail(&e))?;
        chart
            .configure_mesh()
            .x_desc("N")
            .y_desc(axis)
            .x_labels((high - low + 1).min(20))
            .x_label_formatter(&|x| format!("{x:.0}"))
            .draw()
            .map_err(|e| fail(&e))?;
        for (i, config) in configs.iter().enumerate() {
            let color = PALETTE[i % PALETTE.len()];
            let points: Vec<(f64, f64)> = rows
                .iter()
                .filter(|r| r.config == *config && r.outcome != "limit")
                .filter_map(|r| r.n.map(|n| (n as f64, value(r))))
                .collect();
            chart
                .draw_series(LineSeries::new(points.clone(), color.stroke_width(2)))
                .map_err(|e| fail(&e))?
                .label(*config)
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
                });
            chart
                .draw_series(
                    points
                        .into_iter()
                        .map(|p| Circle::new(p, 3, color.filled())),
                )
                .map_err(|e| fail(&e))?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()
            .map_err(|e| fail(&e))?;
    }
    root.present().map_err(|e| fail(&e))
}
