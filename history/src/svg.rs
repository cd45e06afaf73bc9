//! The timeline picture of a history, as SVG (plotters' SVG backend).
//!
//! - x: seconds since the history's first event; y: one lane per client
//!   (lanes sorted by client number), plus a `deleter` lane on top when the
//!   history has deletes.
//! - Each op is a bar from its invocation to its completion, coloured by
//!   outcome: green `ok`, red `fail`, orange `info`. Consecutive ops of a
//!   client with one outcome and less than a pixel between them are one bar.
//! - Each fault is a shaded band over every lane, labelled with its kind
//!   and target.
//! - Each violation draws a magenta line between the two ops it links (for
//!   real-time order: from A's completion to B's invocation) and rings the
//!   ops it names; violations about rows alone (no time) ring the op that
//!   wrote the row, if any.

use std::collections::{BTreeSet, HashMap};

use plotters::prelude::*;

use crate::check::Report;
use crate::history::{History, Outcome};

const OK: RGBColor = RGBColor(46, 160, 67);
const FAIL: RGBColor = RGBColor(215, 48, 39);
const INFO: RGBColor = RGBColor(245, 150, 20);
const DELETE: RGBColor = RGBColor(90, 90, 200);
const FAULT: RGBColor = RGBColor(120, 120, 120);
const VIOLATION: RGBColor = RGBColor(200, 0, 160);

/// Draws `h` (with the violations of `r`) as an SVG document.
///
/// # Errors
/// A drawing error from plotters (not expected for an in-memory SVG).
pub fn render(h: &History, r: &Report, title: &str) -> Result<String, String> {
    let mut out = String::new();
    draw(h, r, title, &mut out).map_err(|e| e.to_string())?;
    Ok(out)
}

type DrawResult = Result<(), Box<dyn std::error::Error>>;

fn draw(h: &History, r: &Report, title: &str, out: &mut String) -> DrawResult {
    let clients: BTreeSet<u64> = h.ops.iter().map(|o| o.client).collect();
    let lane: HashMap<u64, usize> = clients.iter().enumerate().map(|(i, &c)| (c, i)).collect();
    let deleter_lane = clients.len();
    let lanes = clients.len() + usize::from(!h.deletes.is_empty());
    let t0 = h.first_ns();
    let secs = |ns: u64| ns.saturating_sub(t0) as f64 / 1e9;
    let end = secs(h.last_ns()).max(1e-3);
    let height = (120 + 28 * lanes.max(1)) as u32;
    {
        let root = SVGBackend::with_string(out, (1400, height)).into_drawing_area();
        root.fill(&WHITE)?;
        let top = lanes.max(1) as f64 - 0.5;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(70)
            .build_cartesian_2d(0f64..end * 1.01, -0.5f64..top + 0.6)?;
        let names: Vec<String> = clients.iter().map(|c| format!("client {c}")).collect();
        chart
            .configure_mesh()
            .disable_y_mesh()
            .x_desc("seconds")
            .y_labels(2 * lanes.max(1) + 1)
            .y_label_formatter(&|y| {
                let i = y.round();
                if (y - i).abs() > 1e-6 || i < 0.0 {
                    return String::new();
                }
                let i = i as usize;
                if i < names.len() {
                    names[i].clone()
                } else if i == deleter_lane && !h.deletes.is_empty() {
                    "deleter".into()
                } else {
                    String::new()
                }
            })
            .draw()?;
        // Faults: shaded bands, labelled at the top.
        chart.draw_series(h.faults.iter().map(|f| {
            let x1 = secs(f.end_ns).max(secs(f.start_ns) + end / 2000.0);
            Rectangle::new(
                [(secs(f.start_ns), -0.5), (x1, top)],
                FAULT.mix(0.18).filled(),
            )
        }))?;
        chart.draw_series(h.faults.iter().map(|f| {
            Text::new(
                format!("{} {}", f.fault, f.target),
                (secs(f.start_ns), top + 0.45),
                ("sans-serif", 11).into_font(),
            )
        }))?;
        // Ops.
        let bar = |lane: usize, a: u64, b: u64| {
            let y = lane as f64;
            let x1 = secs(b).max(secs(a) + end / 20000.0);
            [(secs(a), y - 0.32), (x1, y + 0.32)]
        };
        // One pixel of time: consecutive ops of a lane with one outcome and
        // gaps below it are drawn as one bar (a long run of a fast store
        // has hundreds of thousands of ops; the picture stays small).
        let pixel_ns = (h.last_ns().saturating_sub(t0) / 1400).max(1);
        chart.draw_series(
            coalesce(h, pixel_ns)
                .into_iter()
                .map(|(client, outcome, a, b)| {
                    let c = match outcome {
                        Outcome::Ok => OK,
                        Outcome::Fail => FAIL,
                        Outcome::Info => INFO,
                    };
                    Rectangle::new(bar(lane[&client], a, b), c.filled())
                }),
        )?;
        chart.draw_series(h.deletes.iter().map(|d| {
            Rectangle::new(
                bar(deleter_lane, d.invoke_ns, d.complete_ns),
                DELETE.filled(),
            )
        }))?;
        // Violations: ring the ops, link the pairs.
        let spans: HashMap<usize, (usize, u64, u64)> = h
            .ops
            .iter()
            .map(|o| (o.line, (lane[&o.client], o.invoke_ns, o.complete_ns)))
            .chain(
                h.deletes
                    .iter()
                    .map(|d| (d.line, (deleter_lane, d.invoke_ns, d.complete_ns))),
            )
            .collect();
        let by_value: HashMap<&[u8], usize> =
            h.ops.iter().map(|o| (o.value.as_slice(), o.line)).collect();
        let row_op: HashMap<usize, usize> = h
            .reads
            .iter()
            .filter_map(|row| by_value.get(row.value.as_slice()).map(|&l| (row.line, l)))
            .collect();
        let span = |line: usize| {
            spans
                .get(&line)
                .or_else(|| row_op.get(&line).and_then(|l| spans.get(l)))
                .copied()
        };
        for v in &r.violations {
            let (a, b) = v.lines();
            let sa = span(a);
            let sb = b.and_then(span);
            for s in [sa, sb].into_iter().flatten() {
                let [p, q] = bar(s.0, s.1, s.2);
                chart.draw_series(std::iter::once(Rectangle::new(
                    [(p.0, p.1 - 0.08), (q.0, q.1 + 0.08)],
                    VIOLATION.stroke_width(2),
                )))?;
            }
            if let (Some(x), Some(y)) = (sa, sb) {
                // From the end of the first to the start of the second.
                let from = (secs(x.2), x.0 as f64);
                let to = (secs(y.1), y.0 as f64);
                chart.draw_series(LineSeries::new([from, to], VIOLATION.stroke_width(2)))?;
            }
        }
        root.present()?;
    }
    Ok(())
}

/// The op bars to draw: (client, outcome, from, to), consecutive ops of one
/// client with one outcome merged when the gap between them is under
/// `pixel_ns`.
fn coalesce(h: &History, pixel_ns: u64) -> Vec<(u64, Outcome, u64, u64)> {
    let mut ops: Vec<_> = h
        .ops
        .iter()
        .map(|o| (o.client, o.outcome, o.invoke_ns, o.complete_ns))
        .collect();
    ops.sort_by_key(|&(c, _, a, _)| (c, a));
    let mut out: Vec<(u64, Outcome, u64, u64)> = Vec::new();
    for op in ops {
        match out.last_mut() {
            Some(last)
                if last.0 == op.0 && last.1 == op.1 && op.2 <= last.3.saturating_add(pixel_ns) =>
            {
                last.3 = last.3.max(op.3);
            }
            _ => out.push(op),
        }
    }
    out
}
