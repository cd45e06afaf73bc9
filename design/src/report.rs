//! A [`Lint`] as JSON, as text with a terminal bar chart, and as an SVG
//! chart of the recent writes per region before and after the fix.

use std::fmt::Write as _;

use crate::{Lint, WINDOW_DIVISOR};

/// Appends `s` as a JSON string.
pub(crate) fn json_str(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// A share as JSON: a number with one to 6 decimals.
fn json_share(x: f64) -> String {
    let s = format!("{x:.6}");
    // Always a fraction ("1.0", "0.25"): JSON readers type it as a float.
    let t = s.trim_end_matches('0');
    if t.ends_with('.') {
        format!("{t}0")
    } else {
        t.to_string()
    }
}

fn json_counts(v: &[usize]) -> String {
    let items: Vec<String> = v.iter().map(ToString::to_string).collect();
    format!("[{}]", items.join(","))
}

/// The bar of `count` out of `max`, `width` cells wide.
fn bar(count: usize, max: usize, width: usize) -> String {
    "#".repeat(count * width / max.max(1))
}

fn pct(x: f64) -> String {
    format!("{:.1} %", x * 100.0)
}

impl Lint {
    /// One JSON object (no newline): `rows`, `regions`, `window_rows`,
    /// `hot_spot` (bool), `direction` (`"rising"`, `"falling"` or null),
    /// `busiest_region_share` (0–1), `writes_per_region`,
    /// `suggested_salt_buckets` (int or null), `share_after_salting`,
    /// `writes_per_region_after_salting` (null without a suggestion),
    /// `skew` (`[{prefix, rows, share}]`), `key_bytes` (`{p50, p99, max}`),
    /// `limits` (`[{store, limit, rows_over, first_rows_over}]`).
    pub fn to_json(&self) -> String {
        let mut o = String::from("{");
        let _ = write!(
            o,
            "\"rows\":{},\"regions\":{},\"window_rows\":{},\"hot_spot\":{},\"direction\":{},\
             \"busiest_region_share\":{},\"writes_per_region\":{},\"suggested_salt_buckets\":{},\
             \"share_after_salting\":{},\"writes_per_region_after_salting\":{},\"skew\":[",
            self.rows,
            self.regions,
            self.window_rows,
            self.hot_spot,
            self.direction
                .map_or("null".to_string(), |d| format!("\"{}\"", d.name())),
            json_share(self.busiest_region_share),
            json_counts(&self.writes_per_region),
            self.suggested_salt_buckets
                .map_or("null".to_string(), |b| b.to_string()),
            self.share_after_salting
                .map_or("null".to_string(), json_share),
            self.writes_per_region_after_salting
                .as_deref()
                .map_or("null".to_string(), json_counts),
        );
        for (i, p) in self.skew.iter().enumerate() {
            if i > 0 {
                o.push(',');
            }
            o.push_str("{\"prefix\":");
            json_str(&p.value, &mut o);
            let _ = write!(
                o,
                ",\"rows\":{},\"share\":{}}}",
                p.rows,
                json_share(p.share)
            );
        }
        let _ = write!(
            o,
            "],\"key_bytes\":{{\"p50\":{},\"p99\":{},\"max\":{}}},\"limits\":[",
            self.key_bytes.p50, self.key_bytes.p99, self.key_bytes.max
        );
        for (i, l) in self.limits.iter().enumerate() {
            if i > 0 {
                o.push(',');
            }
            o.push_str("{\"store\":");
            json_str(l.store, &mut o);
            let _ = write!(
                o,
                ",\"limit\":{},\"rows_over\":{},\"first_rows_over\":{}}}",
                l.limit,
                l.rows_over,
                json_counts(&l.first_rows_over)
            );
        }
        o.push_str("]}");
        o
    }

    /// The report as text, with a bar chart of the recent writes per
    /// region (before and after the suggested salting).
    pub fn to_text(&self) -> String {
        let mut o = String::new();
        let _ = writeln!(
            o,
            "{} rows; the recent writes: the last {} (1/{WINDOW_DIVISOR}); {} regions cut at the \
             quantiles of the rows before them",
            self.rows, self.window_rows, self.regions
        );
        let even = 1.0 / self.regions as f64;
        if self.hot_spot {
            let why = match self.direction {
                Some(d) => format!("keys are {} with insertion order", d.name()),
                None => "recent keys crowd together".to_string(),
            };
            let _ = writeln!(
                o,
                "HOT SPOT: {why}: the busiest of {} regions takes {} of the recent writes (even: {})",
                self.regions,
                pct(self.busiest_region_share),
                pct(even)
            );
            if let (Some(b), Some(s)) = (self.suggested_salt_buckets, self.share_after_salting) {
                let _ = writeln!(
                    o,
                    "fix: salt the key over {b} buckets (--salt-buckets {b}): the busiest region \
                     then takes {}; or lead the key with a hashed or reversed component",
                    pct(s)
                );
            }
        } else {
            let _ = writeln!(
                o,
                "no hot spot: the busiest of {} regions takes {} of the recent writes (even: {})",
                self.regions,
                pct(self.busiest_region_share),
                pct(even)
            );
        }
        let after = self.writes_per_region_after_salting.as_deref();
        let _ = writeln!(
            o,
            "recent writes per region{}:",
            if after.is_some() {
                " (before | after salting)"
            } else {
                ""
            }
        );
        let max = self
            .writes_per_region
            .iter()
            .chain(after.unwrap_or_default())
            .copied()
            .max()
            .unwrap_or(0);
        let w = self.window_rows.max(1) as f64;
        let rows = self
            .writes_per_region
            .len()
            .max(after.map_or(0, <[usize]>::len));
        for r in 0..rows {
            let b = self.writes_per_region.get(r).copied().unwrap_or(0);
            let _ = write!(
                o,
                "  {r:>3}  {:>7}  {:<24}",
                pct(b as f64 / w),
                bar(b, max, 24)
            );
            if let Some(a) = after {
                let a = a.get(r).copied().unwrap_or(0);
                let _ = write!(o, " | {:>7}  {}", pct(a as f64 / w), bar(a, max, 24));
            }
            o.truncate(o.trim_end().len());
            o.push('\n');
        }
        let _ = writeln!(o, "skew (leading values with the most rows):");
        for p in &self.skew {
            let _ = writeln!(
                o,
                "  {:>7}  {:>7} rows  {:?}",
                pct(p.share),
                p.rows,
                p.value
            );
        }
        let kb = self.key_bytes;
        let _ = writeln!(
            o,
            "key bytes: p50 {}, p99 {}, max {}",
            kb.p50, kb.p99, kb.max
        );
        for l in &self.limits {
            if l.rows_over == 0 {
                let _ = writeln!(o, "  {} ({} bytes): every key fits", l.store, l.limit);
            } else {
                let rows: Vec<String> = l.first_rows_over.iter().map(ToString::to_string).collect();
                let _ = writeln!(
                    o,
                    "  {} ({} bytes): {} rows over, first: row {}",
                    l.store,
                    l.limit,
                    l.rows_over,
                    rows.join(", ")
                );
            }
        }
        o
    }

    /// An SVG chart (one document) of the recent writes' share per region:
    /// red bars as the key is, blue bars after the suggested salting.
    pub fn to_svg(&self) -> String {
        let after = self.writes_per_region_after_salting.as_deref();
        let n = self
            .writes_per_region
            .len()
            .max(after.map_or(0, <[usize]>::len))
            .max(1);
        let slot = (640.0 / n as f64).clamp(4.0, 40.0);
        let width = 80.0 + slot * n as f64;
        let (top, h) = (40.0, 200.0);
        let w = self.window_rows.max(1) as f64;
        let mut o = String::new();
        let _ = writeln!(
            o,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"280\" \
             viewBox=\"0 0 {width:.0} 280\" font-family=\"sans-serif\" font-size=\"12\">"
        );
        let title = match self.suggested_salt_buckets {
            Some(b) => format!(
                "Recent writes per region: as the key is (red), salted over {b} buckets (blue)"
            ),
            None => "Recent writes per region".to_string(),
        };
        let _ = writeln!(o, "<text x=\"10\" y=\"20\">{title}</text>");
        let _ = writeln!(
            o,
            "<line x1=\"50\" y1=\"{:.0}\" x2=\"{:.0}\" y2=\"{:.0}\" stroke=\"black\"/>",
            top + h,
            width - 20.0,
            top + h
        );
        for (y, label) in [(top, "100 %"), (top + h / 2.0, "50 %"), (top + h, "0 %")] {
            let _ = writeln!(o, "<text x=\"8\" y=\"{:.0}\">{label}</text>", y + 4.0);
        }
        let bars: [(Option<&[usize]>, &str, f64); 2] = [
            (Some(&self.writes_per_region), "#d62728", 0.0),
            (after, "#1f77b4", 0.5),
        ];
        let half = if after.is_some() { slot / 2.0 } else { slot };
        for (counts, color, offset) in bars {
            let Some(counts) = counts else { continue };
            for (r, &c) in counts.iter().enumerate() {
                let bh = h * c as f64 / w;
                let _ = writeln!(
                    o,
                    "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{bh:.1}\" fill=\"{color}\"><title>region {r}: {c} writes</title></rect>",
                    50.0 + slot * r as f64 + offset * slot,
                    top + h - bh,
                    (half - 1.0).max(1.0)
                );
            }
        }
        let _ = writeln!(
            o,
            "<text x=\"50\" y=\"{:.0}\">regions 0 to {} (key order); {} recent writes of {} rows</text>",
            top + h + 24.0,
            n - 1,
            self.window_rows,
            self.rows
        );
        o.push_str("</svg>\n");
        o
    }
}
