//! The picture of an Adya phenomenon: its transactions on a circle, its dependencies as arrows
//! labelled with their kind and row (`rw t:3`), as a standalone SVG document.

use std::fmt::Write;
use txhunt_oracle::Observed;

/// The picture's side, in pixels.
const SIZE: f64 = 420.0;
/// The radius of the circle the transactions sit on.
const RING: f64 = 140.0;
/// A transaction's radius.
const NODE: f64 = 26.0;

/// The SVG picture of `observed`'s cycle (for G1a and G1b: its one read).
pub fn cycle(observed: &Observed) -> String {
    let mut nodes: Vec<&str> = Vec::new();
    for d in &observed.cycle {
        for t in [&d.from, &d.to] {
            if !nodes.contains(&t.as_str()) {
                nodes.push(t);
            }
        }
    }
    let centre = SIZE / 2.0;
    let at = |i: usize| {
        let angle = std::f64::consts::TAU * i as f64 / nodes.len().max(1) as f64
            - std::f64::consts::FRAC_PI_2;
        (centre + RING * angle.cos(), centre + RING * angle.sin())
    };
    let index = |t: &str| nodes.iter().position(|n| *n == t).unwrap_or(0);
    let name = match &observed.refinement {
        Some(r) => format!("{} ({r})", observed.class),
        None => observed.class.to_string(),
    };
    let verdict = if observed.allowed {
        "allowed"
    } else {
        "forbidden"
    };
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{SIZE}" height="{}" font-family="sans-serif" font-size="13">"#,
        SIZE + 14.0 * observed.cycle.len() as f64 + 10.0
    );
    let _ = writeln!(
        svg,
        r#"<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z"/></marker></defs>"#
    );
    let _ = writeln!(
        svg,
        r#"<text x="10" y="20" font-weight="bold">{}, {verdict} at {}</text>"#,
        escape(&name),
        escape(&observed.level)
    );
    for (k, d) in observed.cycle.iter().enumerate() {
        let ((x1, y1), (x2, y2)) = (at(index(&d.from)), at(index(&d.to)));
        // Parallel edges between the same pair bend by different amounts.
        let bend = 70.0 + 30.0 * k as f64;
        let (dx, dy) = (x2 - x1, y2 - y1);
        let length = (dx * dx + dy * dy).sqrt().max(1.0);
        let (ux, uy) = (dx / length, dy / length);
        let (sx, sy) = (x1 + ux * NODE, y1 + uy * NODE);
        let (ex, ey) = (x2 - ux * NODE, y2 - uy * NODE);
        let (cx, cy) = ((sx + ex) / 2.0 - uy * bend, (sy + ey) / 2.0 + ux * bend);
        let colour = match d.kind.as_str() {
            "rw" => "#c0392b",
            "wr" => "#2471a3",
            _ => "#1e8449",
        };
        let dash = if d.kind == "rw" {
            r#" stroke-dasharray="6 4""#
        } else {
            ""
        };
        let _ = writeln!(
            svg,
            r#"<path d="M {sx:.1} {sy:.1} Q {cx:.1} {cy:.1} {ex:.1} {ey:.1}" fill="none" stroke="{colour}" stroke-width="2"{dash} marker-end="url(#arrow)"/>"#
        );
        let label = match &d.predicate {
            Some(p) => format!("{} `{p}`", d.kind),
            None => format!("{} {}", d.kind, d.row),
        };
        // The label sits beside the curve's apex, on its outer side.
        let (lx, ly) = ((sx + ex) / 4.0 + cx / 2.0, (sy + ey) / 4.0 + cy / 2.0);
        let anchor = if cx < (sx + ex) / 2.0 - 1.0 {
            "end"
        } else if cx > (sx + ex) / 2.0 + 1.0 {
            "start"
        } else {
            "middle"
        };
        let _ = writeln!(
            svg,
            r#"<text x="{:.1}" y="{:.1}" fill="{colour}" text-anchor="{anchor}">{}</text>"#,
            lx + (cx - (sx + ex) / 2.0).signum() * 6.0,
            ly + 4.0,
            escape(&label)
        );
    }
    for (i, t) in nodes.iter().enumerate() {
        let (x, y) = at(i);
        let _ = writeln!(
            svg,
            r##"<circle cx="{x:.1}" cy="{y:.1}" r="{NODE}" fill="#fdfefe" stroke="#34495e" stroke-width="2"/><text x="{x:.1}" y="{:.1}" text-anchor="middle">{}</text>"##,
            y + 4.0,
            escape(t)
        );
    }
    for (k, d) in observed.cycle.iter().enumerate() {
        let _ = writeln!(
            svg,
            r#"<text x="10" y="{:.1}" font-size="11">{}</text>"#,
            SIZE + 14.0 * k as f64,
            escape(&d.text)
        );
    }
    svg.push_str("</svg>\n");
    svg
}

/// `text` with XML's special characters escaped.
pub(crate) fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use txhunt_model::adya::Phenomenon;
    use txhunt_oracle::Dependency;

    fn dependency(from: &str, to: &str, kind: &str) -> Dependency {
        Dependency {
            from: from.into(),
            to: to.into(),
            kind: kind.into(),
            row: "t:1".into(),
            version: Some("#2".into()),
            step: 1,
            predicate: (kind == "rw").then(|| "t WHERE v > 5".into()),
            text: format!("{from} -{kind}-> {to} on t:1"),
        }
    }

    #[test]
    fn a_cycle_draws_each_transaction_once_and_every_dependency() {
        let observed = Observed {
            class: Phenomenon::GSingle,
            refinement: None,
            predicate: true,
            within_statement: None,
            level: "PL-SI".into(),
            allowed: false,
            cycle: vec![dependency("t1", "t2", "rw"), dependency("t2", "t1", "wr")],
        };
        let svg = cycle(&observed);
        assert_eq!(svg.matches("<circle").count(), 2);
        assert_eq!(svg.matches("marker-end=").count(), 2);
        assert!(svg.contains("G-single, forbidden at PL-SI"), "{svg}");
        assert!(svg.contains("rw `t WHERE v &gt; 5`"), "{svg}");
        assert!(svg.contains("t2 -wr-&gt; t1 on t:1"), "{svg}");
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
    }
}
