//! The cactus plot: for each tool, its correctly solved tasks sorted by time;
//! the n-th point is (n, time of the n-th fastest correct answer). A curve
//! further right solves more, a lower curve solves them faster.

use plotters::prelude::*;
use std::path::Path;

/// One tool's curve.
pub struct CactusSeries<'a> {
    pub name: &'a str,
    /// Wall times of the correctly solved tasks, in any order.
    pub times: Vec<f64>,
}

const COLOURS: [RGBColor; 3] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
];

/// Writes `cactus.svg`-style plot to `path`. `time_limit` bounds the y axis.
pub fn write_cactus(
    path: &Path,
    title: &str,
    series: &[CactusSeries],
    time_limit: f64,
) -> Result<(), String> {
    let sorted: Vec<Vec<f64>> = series
        .iter()
        .map(|s| {
            let mut t = s.times.clone();
            t.sort_by(f64::total_cmp);
            t
        })
        .collect();
    let most = sorted.iter().map(Vec::len).max().unwrap_or(0).max(1);
    let slowest = sorted.iter().flatten().copied().fold(time_limit, f64::max);
    let err =
        |e: &dyn std::fmt::Display| format!("{}: cannot draw the cactus plot: {e}", path.display());

    let root = SVGBackend::new(path, (900, 560)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(60)
        .build_cartesian_2d(0f64..most as f64 + 0.5, 0f64..slowest * 1.05)
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .light_line_style(TRANSPARENT)
        .x_labels((most + 1).min(12))
        .x_label_formatter(&|x| format!("{}", x.round() as i64))
        .x_desc("tasks solved correctly")
        .y_desc("wall time per task (s)")
        .draw()
        .map_err(|e| err(&e))?;
    for (k, (s, times)) in series.iter().zip(&sorted).enumerate() {
        let colour = COLOURS[k % COLOURS.len()];
        let points: Vec<(f64, f64)> = times
            .iter()
            .enumerate()
            .map(|(i, &t)| ((i + 1) as f64, t))
            .collect();
        chart
            .draw_series(LineSeries::new(points.clone(), colour.stroke_width(2)))
            .map_err(|e| err(&e))?
            .label(format!("{} ({} solved)", s.name, times.len()))
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
            });
        chart
            .draw_series(
                points
                    .into_iter()
                    .map(|p| Circle::new(p, 2, colour.filled())),
            )
            .map_err(|e| err(&e))?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_an_svg_with_both_curves() {
        let path = std::env::temp_dir().join(format!("tessera-cactus-{}.svg", std::process::id()));
        let series = [
            CactusSeries {
                name: "tessera",
                times: vec![3.0, 1.0, 2.0],
            },
            CactusSeries {
                name: "z3",
                times: vec![],
            },
        ];
        write_cactus(&path, "test", &series, 10.0).unwrap();
        let svg = std::fs::read_to_string(&path).unwrap();
        let _ = std::fs::remove_file(&path);
        assert!(svg.starts_with("<svg"));
        assert!(svg.contains("tessera (3 solved)"));
        assert!(svg.contains("z3 (0 solved)"));
        assert!(svg.contains("tasks solved correctly"));
    }
}
