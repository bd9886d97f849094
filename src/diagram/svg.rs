//! A small SVG writer for boards: squares, coordinates, markers, pieces and path lines. Integer
//! coordinates only, so the text is stable for snapshot tests.

use std::fmt::Write;

/// Square size in SVG units.
pub const SQ: i32 = 40;
/// Room for rank numbers on the left and file letters below.
pub const MARGIN: i32 = 24;

pub const LIGHT: &str = "#f0d9b5";
pub const DARK: &str = "#b58863";
pub const MOVE: &str = "#2e7d32";
pub const CAPTURE: &str = "#c62828";
pub const INITIAL: &str = "#1565c0";
pub const PATH: &str = "#37474f";

/// The marks a movement diagram puts on a square.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    /// Move or capture: filled disc.
    Both,
    /// Move only (to an empty square): ring.
    Move,
    /// Capture only: cross.
    Capture,
}

pub struct Canvas {
    pub files: u8,
    pub ranks: u8,
    /// Height of the title band above the board.
    pub top: i32,
    /// Height of the band below the coordinates (legend).
    pub bottom: i32,
    body: String,
    defs: String,
}

impl Canvas {
    pub fn new(files: u8, ranks: u8, top: i32, bottom: i32) -> Canvas {
        Canvas {
            files,
            ranks,
            top,
            bottom,
            body: String::new(),
            defs: String::new(),
        }
    }

    pub fn width(&self) -> i32 {
        MARGIN + i32::from(self.files) * SQ + MARGIN / 2
    }

    pub fn height(&self) -> i32 {
        self.top + i32::from(self.ranks) * SQ + MARGIN + self.bottom
    }

    /// Centre of a square (file and rank from 0, White at the bottom).
    pub fn centre(&self, file: i32, rank: i32) -> (i32, i32) {
        (
            MARGIN + file * SQ + SQ / 2,
            self.top + (i32::from(self.ranks) - 1 - rank) * SQ + SQ / 2,
        )
    }

    pub fn raw(&mut self, text: &str) {
        self.body += text;
        self.body.push('\n');
    }

    pub fn text(&mut self, x: i32, y: i32, size: i32, anchor: &str, extra: &str, content: &str) {
        let _ = writeln!(
            self.body,
            r#"<text x="{x}" y="{y}" font-size="{size}" text-anchor="{anchor}"{extra}>{}</text>"#,
            escape(content)
        );
    }

    /// Squares and coordinates.
    pub fn board(&mut self) {
        let (w, h) = (i32::from(self.files) * SQ, i32::from(self.ranks) * SQ);
        self.raw(&format!(
            r#"<rect x="{MARGIN}" y="{}" width="{w}" height="{h}" fill="{LIGHT}"/>"#,
            self.top
        ));
        let mut dark = String::from(r#"<g fill=""#);
        dark += DARK;
        dark += "\">";
        for r in 0..i32::from(self.ranks) {
            for f in 0..i32::from(self.files) {
                // a1 is dark, as on every chessboard.
                if (f + r) % 2 == 0 {
                    let (cx, cy) = self.centre(f, r);
                    let _ = write!(
                        dark,
                        r#"<rect x="{}" y="{}" width="{SQ}" height="{SQ}"/>"#,
                        cx - SQ / 2,
                        cy - SQ / 2
                    );
                }
            }
        }
        dark += "</g>";
        self.raw(&dark);
        self.raw(&format!(
            r##"<rect x="{MARGIN}" y="{}" width="{w}" height="{h}" fill="none" stroke="#5d4037" stroke-width="2"/>"##,
            self.top
        ));
        for r in 0..i32::from(self.ranks) {
            let (_, cy) = self.centre(0, r);
            self.text(MARGIN / 2, cy + 4, 12, "middle", "", &(r + 1).to_string());
        }
        let below = self.top + i32::from(self.ranks) * SQ + 16;
        for f in 0..i32::from(self.files) {
            let (cx, _) = self.centre(f, 0);
            self.text(
                cx,
                below,
                12,
                "middle",
                "",
                &((b'a' + f as u8) as char).to_string(),
            );
        }
    }

    /// Tints a square (last move).
    pub fn tint(&mut self, file: i32, rank: i32, colour: &str, opacity: &str) {
        let (cx, cy) = self.centre(file, rank);
        self.raw(&format!(
            r#"<rect x="{}" y="{}" width="{SQ}" height="{SQ}" fill="{colour}" fill-opacity="{opacity}"/>"#,
            cx - SQ / 2,
            cy - SQ / 2
        ));
    }

    /// A movement mark centred at (x, y); `colour` distinguishes first-move-only marks.
    pub fn mark_at(&mut self, x: i32, y: i32, mark: Mark, colour: &str) {
        let svg = match mark {
            Mark::Both => format!(r#"<circle cx="{x}" cy="{y}" r="10" fill="{colour}"/>"#),
            Mark::Move => format!(
                r#"<circle cx="{x}" cy="{y}" r="9" fill="none" stroke="{colour}" stroke-width="3.5"/>"#
            ),
            Mark::Capture => format!(
                r#"<path d="M{} {}L{} {}M{} {}L{} {}" stroke="{colour}" stroke-width="4" stroke-linecap="round"/>"#,
                x - 9,
                y - 9,
                x + 9,
                y + 9,
                x + 9,
                y - 9,
                x - 9,
                y + 9
            ),
        };
        self.raw(&svg);
    }

    pub fn mark(&mut self, file: i32, rank: i32, mark: Mark, colour: &str) {
        let (x, y) = self.centre(file, rank);
        self.mark_at(x, y, mark, colour);
    }

    /// A piece: its letter in a circle; White a white disc, Black a black one.
    pub fn piece(&mut self, file: i32, rank: i32, letter: &str, white: bool) {
        let (x, y) = self.centre(file, rank);
        self.piece_at(x, y, letter, white);
    }

    pub fn piece_at(&mut self, x: i32, y: i32, letter: &str, white: bool) {
        let (fill, ink) = if white {
            ("#ffffff", "#000000")
        } else {
            ("#000000", "#ffffff")
        };
        self.raw(&format!(r##"<circle cx="{x}" cy="{y}" r="16" fill="{fill}" stroke="#000000" stroke-width="2"/>"##));
        self.text(
            x,
            y + 7,
            20,
            "middle",
            &format!(r#" font-weight="bold" fill="{ink}""#),
            letter,
        );
    }

    /// A path through square centres, with an arrowhead at its end.
    pub fn path(&mut self, points: &[(i32, i32)]) {
        if self.defs.is_empty() {
            self.defs = format!(
                r#"<marker id="arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="4" markerHeight="4" orient="auto"><path d="M0 0L10 5L0 10z" fill="{PATH}"/></marker>"#
            );
        }
        let mut px: Vec<(i32, i32)> = points.iter().map(|&(f, r)| self.centre(f, r)).collect();
        // Carry the last segment past its square's mark, so the arrowhead shows beside the disc.
        if let [.., (x0, y0), (x1, y1)] = px[..] {
            let (dx, dy) = (f64::from(x1 - x0), f64::from(y1 - y0));
            let len = dx.hypot(dy).max(1.0);
            let reach = f64::from(SQ) * 0.4;
            let n = px.len();
            px[n - 1] = (
                x1 + (dx / len * reach).round() as i32,
                y1 + (dy / len * reach).round() as i32,
            );
        }
        let pts: Vec<String> = px.iter().map(|(x, y)| format!("{x},{y}")).collect();
        self.raw(&format!(
            r#"<polyline points="{}" fill="none" stroke="{PATH}" stroke-width="3" stroke-opacity="0.75" stroke-linejoin="round" marker-end="url(#arrow)"/>"#,
            pts.join(" ")
        ));
    }

    /// The finished document.
    pub fn finish(self, title: &str) -> String {
        let (w, h) = (self.width(), self.height());
        let mut out = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="DejaVu Sans, Arial, sans-serif">"#
        );
        out.push('\n');
        let _ = writeln!(out, "<title>{}</title>", escape(title));
        if !self.defs.is_empty() {
            let _ = writeln!(out, "<defs>{}</defs>", self.defs);
        }
        let _ = writeln!(out, r##"<rect width="{w}" height="{h}" fill="#ffffff"/>"##);
        out += &self.body;
        out += "</svg>\n";
        out
    }
}

pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
