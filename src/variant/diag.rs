//! Places in a variant file and the diagnostics that point at them.
//!
//! A [`Span`] keeps a handle on the whole [`Source`] it points into, so a value inherited from a parent
//! file still renders against the parent's text.

use std::fmt;
use std::sync::Arc;

/// A variant file's text and the name it is reported under.
pub struct Source {
    /// File name used in messages (`variants/chess.txt`).
    pub origin: String,
    pub text: String,
}

impl Source {
    pub fn new(origin: &str, text: &str) -> Arc<Source> {
        // An editor's byte-order mark is invisible; dropping it keeps columns as the user sees them.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        Arc::new(Source {
            origin: origin.to_string(),
            text: text.to_string(),
        })
    }

    /// Line `n` (1-based) without its line ending; empty past the end.
    pub fn line(&self, n: u32) -> &str {
        let Some(i) = (n as usize).checked_sub(1) else {
            return "";
        };
        let line = self.text.split('\n').nth(i).unwrap_or("");
        line.strip_suffix('\r').unwrap_or(line)
    }
}

impl fmt::Debug for Source {
    // The text would drown every derived `Debug` of a spec.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Source({:?})", self.origin)
    }
}

/// Where a value was written: 1-based line and column (in characters), and its width in characters.
#[derive(Clone, Debug)]
pub struct Span {
    pub src: Arc<Source>,
    pub line: u32,
    pub col: u32,
    pub len: u32,
}

impl Span {
    /// The part of this span that starts `offset` characters in and is `len` characters wide.
    pub fn sub(&self, offset: usize, len: usize) -> Span {
        Span {
            src: self.src.clone(),
            line: self.line,
            col: self.col.saturating_add(offset as u32),
            len: len.max(1) as u32,
        }
    }

    /// The position just after this span (for "a value is missing here").
    pub fn after(&self) -> Span {
        self.sub(self.len as usize + 1, 1)
    }

    pub fn error(&self, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            origin: self.src.origin.clone(),
            line: self.line.max(1) as usize,
            col: self.col.max(1) as usize,
            width: self.len.max(1) as usize,
            message: message.into(),
            source_line: self.src.line(self.line).to_string(),
        }
    }
}

/// A value with the place it was written.
#[derive(Clone, Debug)]
pub struct Spanned<T> {
    pub value: T,
    pub span: Span,
}

/// One problem in a variant file. `Display` renders it as
///
/// ```text
/// variants/x.txt:4:19: what is wrong, what was expected
///    4 | piece U unicorn t[XB]
///      |                   ^
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub origin: String,
    /// 1-based.
    pub line: usize,
    /// 1-based, in characters.
    pub col: usize,
    /// How many characters the caret line underlines (at least 1).
    pub width: usize,
    pub message: String,
    /// The offending line as written.
    pub source_line: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{}:{}:{}: {}",
            self.origin, self.line, self.col, self.message
        )?;
        let num = self.line.to_string();
        let gutter = " ".repeat(num.len());
        writeln!(f, " {num} | {}", self.source_line)?;
        // Copy tabs so the caret lines up under the same character whatever the tab width.
        let pad: String = self
            .source_line
            .chars()
            .chain(std::iter::repeat(' '))
            .take(self.col.saturating_sub(1))
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        write!(f, " {gutter} | {pad}{}", "^".repeat(self.width))
    }
}

impl std::error::Error for Diagnostic {}

/// Renders diagnostics one after another, separated by blank lines.
pub fn render(diags: &[Diagnostic]) -> String {
    diags
        .iter()
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join("\n\n")
}
