//! `cargo xtask chart`: the engine's strength by network generation, drawn as an SVG from
//! the match results in `docs/strength.csv` (every row a recorded match), for the README.
//!
//! Three series: the self-play gain over generation 0, chained from each generation's SPRT
//! against its parent (a sum of point estimates, so drawn without intervals), and the
//! matches against two fixed opponents, with their 95% intervals.

use anyhow::{bail, Context, Result};
use std::fmt::Write as _;
use std::path::Path;

/// One match of the data file.
#[derive(Clone, Debug, PartialEq)]
struct Row {
    series: String,
    generation: u32,
    elo: f64,
    low: f64,
    high: f64,
}

/// A point of a line: generation, Elo, and the 95% interval when it has one.
type Point = (u32, f64, Option<(f64, f64)>);

/// A line of the chart.
struct Line {
    label: &'static str,
    colour: &'static str,
    points: Vec<Point>,
}

const WIDTH: f64 = 840.0;
const HEIGHT: f64 = 440.0;
const LEFT: f64 = 64.0;
const RIGHT: f64 = 310.0;
const TOP: f64 = 48.0;
const BOTTOM: f64 = 56.0;

/// Reads `csv` (see `docs/strength.csv`): `#` lines are comments, the first other line names
/// the columns.
fn parse(csv: &str) -> Result<Vec<Row>> {
    let mut lines = csv.lines().enumerate().filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'));
    let (_, header) = lines.next().context("no header line")?;
    if !header.starts_with("series,generation,elo,low,high,games") {
        bail!("unexpected columns: {header}");
    }
    lines
        .map(|(i, line)| {
            let fields: Vec<&str> = line.split(',').collect();
            let number = |k: usize| -> Result<f64> {
                let text = fields.get(k).with_context(|| format!("line {}: too few fields", i + 1))?;
                text.trim().parse().with_context(|| format!("line {}: {text:?} is not a number", i + 1))
            };
            Ok(Row {
                series: fields[0].trim().to_owned(),
                generation: number(1)? as u32,
                elo: number(2)?,
                low: number(3)?,
                high: number(4)?,
            })
        })
        .collect()
}

fn lines_of(rows: &[Row]) -> Vec<Line> {
    let mut chained = vec![(0, 0.0, None)];
    let mut parents: Vec<&Row> = rows.iter().filter(|r| r.series == "parent").collect();
    parents.sort_by_key(|r| r.generation);
    for row in parents {
        let before = chained.last().map_or(0.0, |p| p.1);
        chained.push((row.generation, before + row.elo, None));
    }
    let series = |name: &str| -> Vec<Point> {
        let mut points: Vec<_> =
            rows.iter().filter(|r| r.series == name).map(|r| (r.generation, r.elo, Some((r.low, r.high)))).collect();
        points.sort_by_key(|p| p.0);
        points
    };
    vec![
        Line { label: "self-play gain over generation 0", colour: "#1f6fb2", points: chained },
        Line { label: "against Ethereal 12", colour: "#c0392b", points: series("ethereal") },
        Line { label: "against Stockfish 15.1 at Elo 2850", colour: "#1e8449", points: series("stockfish2850") },
    ]
}

/// The SVG for the rows of the data file.
fn svg(rows: &[Row]) -> String {
    let lines = lines_of(rows);
    let last_generation = lines.iter().flat_map(|l| l.points.iter().map(|p| p.0)).max().unwrap_or(1).max(1);
    let values = lines.iter().flat_map(|l| {
        l.points
            .iter()
            .flat_map(|&(_, elo, interval)| [elo, interval.map_or(elo, |i| i.0), interval.map_or(elo, |i| i.1)])
    });
    let (lo, hi) = values.fold((0.0f64, 0.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let (lo, hi) = ((lo / 50.0).floor() * 50.0, (hi / 50.0).ceil() * 50.0);
    let plot_w = WIDTH - LEFT - RIGHT;
    let plot_h = HEIGHT - TOP - BOTTOM;
    let x = |g: u32| LEFT + plot_w * f64::from(g) / f64::from(last_generation);
    let y = |elo: f64| TOP + plot_h * (hi - elo) / (hi - lo);

    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" \
         font-family=\"sans-serif\" font-size=\"13\">"
    );
    let _ = writeln!(out, "<rect width=\"{WIDTH}\" height=\"{HEIGHT}\" fill=\"#ffffff\"/>");
    let _ = writeln!(
        out,
        "<text x=\"{LEFT}\" y=\"26\" font-size=\"16\" font-weight=\"bold\">Tempo's strength by network generation (Elo, 95% intervals)</text>"
    );
    let mut elo = lo;
    while elo <= hi {
        let (gy, colour) = (y(elo), if elo == 0.0 { "#555555" } else { "#dddddd" });
        let _ = writeln!(
            out,
            "<line x1=\"{LEFT}\" y1=\"{gy:.1}\" x2=\"{:.1}\" y2=\"{gy:.1}\" stroke=\"{colour}\"/>",
            LEFT + plot_w
        );
        let label = if elo == 0.0 { "0".to_owned() } else { format!("{elo:+.0}") };
        let _ = writeln!(out, "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{label}</text>", LEFT - 8.0, gy + 4.0);
        elo += 50.0;
    }
    for g in 0..=last_generation {
        let gx = x(g);
        let _ = writeln!(out, "<text x=\"{gx:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{g}</text>", TOP + plot_h + 20.0);
    }
    let _ = writeln!(
        out,
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">generation (0: the hand-crafted evaluation)</text>",
        LEFT + plot_w / 2.0,
        HEIGHT - 12.0
    );
    for (i, line) in lines.iter().enumerate() {
        let path: Vec<String> = line.points.iter().map(|&(g, elo, _)| format!("{:.1},{:.1}", x(g), y(elo))).collect();
        let _ = writeln!(
            out,
            "<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"/>",
            path.join(" "),
            line.colour
        );
        for &(g, elo, interval) in &line.points {
            // Points of one generation side by side, so that their intervals do not hide
            // each other.
            let px = x(g) + (i as f64 - 1.0) * 5.0;
            if let Some((low, high)) = interval {
                let _ = writeln!(
                    out,
                    "<line x1=\"{px:.1}\" y1=\"{:.1}\" x2=\"{px:.1}\" y2=\"{:.1}\" stroke=\"{}\" stroke-width=\"1.5\"/>",
                    y(low),
                    y(high),
                    line.colour
                );
            }
            let _ = writeln!(out, "<circle cx=\"{px:.1}\" cy=\"{:.1}\" r=\"4\" fill=\"{}\"/>", y(elo), line.colour);
        }
        let ly = TOP + 10.0 + 24.0 * i as f64;
        let lx = LEFT + plot_w + 20.0;
        let _ = writeln!(
            out,
            "<line x1=\"{lx:.1}\" y1=\"{ly:.1}\" x2=\"{:.1}\" y2=\"{ly:.1}\" stroke=\"{}\" stroke-width=\"3\"/>",
            lx + 18.0,
            line.colour
        );
        let _ = writeln!(out, "<text x=\"{:.1}\" y=\"{:.1}\">{}</text>", lx + 24.0, ly + 4.0, line.label);
    }
    let note_y = TOP + 10.0 + 24.0 * lines.len() as f64 + 10.0;
    for (k, note) in
        ["5+0.05, 60 to 200 games each;", "self-play: SPRTs against", "the parent, summed"].iter().enumerate()
    {
        let _ = writeln!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\" fill=\"#555555\" font-size=\"12\">{note}</text>",
            LEFT + plot_w + 20.0,
            note_y + 16.0 * k as f64
        );
    }
    out.push_str("</svg>\n");
    out
}

/// Writes `docs/strength.svg` from `docs/strength.csv` under `root`.
pub fn chart(root: &Path) -> Result<()> {
    let csv_path = root.join("docs/strength.csv");
    let csv = std::fs::read_to_string(&csv_path).with_context(|| format!("cannot read {}", csv_path.display()))?;
    let rows = parse(&csv).with_context(|| format!("{}", csv_path.display()))?;
    let out = root.join("docs/strength.svg");
    std::fs::write(&out, svg(&rows)).with_context(|| format!("cannot write {}", out.display()))?;
    println!("{} matches drawn in {}", rows.len(), out.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_chart_is_drawn_from_the_committed_data() {
        let root = crate::root();
        let rows = parse(&std::fs::read_to_string(root.join("docs/strength.csv")).unwrap()).unwrap();
        let committed = std::fs::read_to_string(root.join("docs/strength.svg")).unwrap();
        assert!(committed == svg(&rows), "docs/strength.svg is stale: run `cargo xtask chart`");
    }

    #[test]
    fn the_self_play_line_chains_the_parent_results() {
        let rows = parse("series,generation,elo,low,high,games,conditions\nparent,1,70,40,100,400,x\nparent,2,50.5,20,80,300,y\nethereal,1,-80,-120,-40,200,z\n").unwrap();
        let lines = lines_of(&rows);
        assert_eq!(lines[0].points, [(0, 0.0, None), (1, 70.0, None), (2, 120.5, None)]);
        assert_eq!(lines[1].points, [(1, -80.0, Some((-120.0, -40.0)))]);
        assert!(lines[2].points.is_empty());
        assert!(parse("series,generation\nparent,x").is_err());
    }
}
