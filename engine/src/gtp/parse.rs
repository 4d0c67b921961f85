//! GTP version 2 command-line parsing and response formatting (no engine state).
//!
//! Preprocessing follows GTP 2 §2.2: control characters other than HT and LF
//! are removed, HT becomes a space, everything after `#` is a comment, and
//! lines holding only white space are ignored.

use std::fmt;

/// Longest command line accepted, in bytes; longer lines are answered with an error.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// One parsed command: optional numeric id, lower-cased name, arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    pub id: Option<u64>,
    pub name: String,
    pub args: Vec<String>,
}

/// A line that is not a well-formed command. It is still answered (with the
/// id when one could be read) and the engine keeps running.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub id: Option<u64>,
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// Removes comments and control characters (GTP 2 §2.2).
pub fn preprocess(line: &str) -> String {
    let line = match line.find('#') {
        Some(i) => &line[..i],
        None => line,
    };
    line.chars()
        .filter_map(|c| match c {
            '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect()
}

/// Parses one input line. `Ok(None)` for an empty or comment-only line.
pub fn parse_line(line: &str) -> Result<Option<Command>, ParseError> {
    if line.len() > MAX_LINE_BYTES {
        return Err(ParseError { id: None, message: "command line too long".into() });
    }
    let clean = preprocess(line);
    let mut words = clean.split_whitespace();
    let first = match words.next() {
        Some(w) => w,
        None => return Ok(None),
    };
    let (id, name) = if first.starts_with(|c: char| c.is_ascii_digit()) {
        let id: u64 = first
            .parse()
            .map_err(|_| ParseError { id: None, message: format!("invalid command id '{}'", clip(first)) })?;
        match words.next() {
            Some(name) => (Some(id), name),
            None => return Err(ParseError { id: Some(id), message: "missing command name".into() }),
        }
    } else {
        (None, first)
    };
    if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
        return Err(ParseError { id, message: format!("invalid command name '{}'", clip(name)) });
    }
    Ok(Some(Command { id, name: name.to_ascii_lowercase(), args: words.map(str::to_string).collect() }))
}

/// Shortens user text quoted in error messages.
pub fn clip(s: &str) -> String {
    let mut out: String = s.chars().take(40).collect();
    if s.chars().count() > 40 {
        out.push_str("...");
    }
    out
}

/// Removes empty lines inside a response body (an empty line would end the response).
fn body_lines(body: &str) -> String {
    let lines: Vec<&str> = body.lines().map(|l| l.trim_end()).filter(|l| !l.is_empty()).collect();
    lines.join("\n")
}

/// `=[id] body` followed by an empty line.
pub fn format_success(id: Option<u64>, body: &str) -> String {
    let mut s = String::from("=");
    if let Some(id) = id {
        s.push_str(&id.to_string());
    }
    let body = body_lines(body);
    if body.contains('\n') {
        // Multi-line answers start on the line after "=" (as GNU Go does).
        s.push('\n');
    } else {
        s.push(' ');
    }
    s.push_str(&body);
    s.push_str("\n\n");
    s
}

/// `?[id] message` followed by an empty line.
pub fn format_failure(id: Option<u64>, message: &str) -> String {
    let mut s = String::from("?");
    if let Some(id) = id {
        s.push_str(&id.to_string());
    }
    s.push(' ');
    s.push_str(&body_lines(message).replace('\n', " "));
    s.push_str("\n\n");
    s
}

/// A GTP colour argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GtpColor {
    Black,
    White,
}

/// `b`, `black`, `w`, `white` (any case).
pub fn parse_color(s: &str) -> Option<GtpColor> {
    match s.to_ascii_lowercase().as_str() {
        "b" | "black" => Some(GtpColor::Black),
        "w" | "white" => Some(GtpColor::White),
        _ => None,
    }
}

/// A vertex as written, before it is checked against a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RawVertex {
    Pass,
    /// Letter+row form: `col` 0-based from the left (I skipped), `row` 1-based from the bottom.
    Letter {
        col: usize,
        row: usize,
    },
    /// `x,y,z` actual coordinates.
    Xyz(i64, i64, i64),
}

/// Column letters of the classic notation: A–Z without I (000 §3).
pub const COLUMN_LETTERS: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// Parses `pass`, `D4`/`d4`, or `-2,0,7`.
pub fn parse_vertex(s: &str) -> Option<RawVertex> {
    if s.eq_ignore_ascii_case("pass") {
        return Some(RawVertex::Pass);
    }
    if s.contains(',') {
        let parts: Vec<&str> = s.split(',').collect();
        if parts.len() != 3 {
            return None;
        }
        let mut v = [0i64; 3];
        for (slot, part) in v.iter_mut().zip(&parts) {
            if part.is_empty() || part.len() > 12 {
                return None;
            }
            *slot = part.parse().ok()?;
        }
        return Some(RawVertex::Xyz(v[0], v[1], v[2]));
    }
    let mut chars = s.chars();
    let letter = chars.next()?.to_ascii_uppercase();
    let col = COLUMN_LETTERS.iter().position(|&b| b as char == letter)?;
    let digits = chars.as_str();
    if digits.is_empty() || digits.len() > 3 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let row: usize = digits.parse().ok()?;
    if row == 0 {
        return None;
    }
    Some(RawVertex::Letter { col, row })
}

/// Letter+row text for a 0-based column and 1-based row from the bottom.
pub fn letter_vertex(col: usize, row: usize) -> String {
    match COLUMN_LETTERS.get(col) {
        Some(&c) => format!("{}{}", c as char, row),
        None => format!("?{row}"),
    }
}

/// Parses a GTP float (komi): finite decimal number.
pub fn parse_float(s: &str) -> Option<f64> {
    if s.len() > 32 {
        return None;
    }
    let v: f64 = s.parse().ok()?;
    if v.is_finite() {
        Some(v)
    } else {
        None
    }
}

/// Parses a non-negative GTP int.
pub fn parse_uint(s: &str) -> Option<u64> {
    if s.is_empty() || s.len() > 19 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// Parses a signed integer coordinate (for `space_box`).
pub fn parse_int(s: &str) -> Option<i64> {
    let digits = s.strip_prefix('-').unwrap_or(s);
    if digits.is_empty() || digits.len() > 12 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_ids_names_and_args() {
        assert_eq!(
            parse_line("12 play black D4").unwrap(),
            Some(Command { id: Some(12), name: "play".into(), args: vec!["black".into(), "D4".into()] })
        );
        assert_eq!(
            parse_line("  Name\t# comment").unwrap(),
            Some(Command { id: None, name: "name".into(), args: vec![] })
        );
        assert_eq!(parse_line("").unwrap(), None);
        assert_eq!(parse_line("   # only a comment").unwrap(), None);
        assert_eq!(parse_line("\u{1}\u{7}").unwrap(), None);
        assert_eq!(parse_line("play\u{0} b a1\r").unwrap().unwrap().args, vec!["b".to_string(), "a1".to_string()]);
    }

    #[test]
    fn malformed_lines_are_errors_with_id_when_known() {
        assert_eq!(parse_line("12").unwrap_err().id, Some(12));
        assert_eq!(parse_line("1x play").unwrap_err().id, None);
        assert_eq!(parse_line("99999999999999999999999 name").unwrap_err().id, None);
        assert_eq!(parse_line("3 pl@y").unwrap_err().id, Some(3));
        assert!(parse_line(&"a".repeat(MAX_LINE_BYTES + 1)).is_err());
    }

    #[test]
    fn formats_responses() {
        assert_eq!(format_success(Some(3), "2"), "=3 2\n\n");
        assert_eq!(format_success(None, ""), "= \n\n");
        assert_eq!(format_success(None, "a\n\nb\n"), "=\na\nb\n\n");
        assert_eq!(format_failure(Some(7), "unknown command"), "?7 unknown command\n\n");
        assert_eq!(format_failure(None, "x\n\ny"), "? x y\n\n");
    }

    #[test]
    fn colours() {
        assert_eq!(parse_color("B"), Some(GtpColor::Black));
        assert_eq!(parse_color("white"), Some(GtpColor::White));
        assert_eq!(parse_color("WHITE"), Some(GtpColor::White));
        assert_eq!(parse_color("red"), None);
    }

    #[test]
    fn vertices() {
        assert_eq!(parse_vertex("PASS"), Some(RawVertex::Pass));
        assert_eq!(parse_vertex("a1"), Some(RawVertex::Letter { col: 0, row: 1 }));
        assert_eq!(parse_vertex("J10"), Some(RawVertex::Letter { col: 8, row: 10 }));
        assert_eq!(parse_vertex("Z25"), Some(RawVertex::Letter { col: 24, row: 25 }));
        assert_eq!(parse_vertex("I5"), None);
        assert_eq!(parse_vertex("A0"), None);
        assert_eq!(parse_vertex("A"), None);
        assert_eq!(parse_vertex("A1x"), None);
        assert_eq!(parse_vertex("-2,0,7"), Some(RawVertex::Xyz(-2, 0, 7)));
        assert_eq!(parse_vertex("1,2"), None);
        assert_eq!(parse_vertex("1,,2"), None);
        assert_eq!(parse_vertex("1,2,99999999999999999999"), None);
        assert_eq!(parse_vertex("é1"), None);
        assert_eq!(letter_vertex(8, 10), "J10");
        assert_eq!(letter_vertex(7, 1), "H1");
    }

    #[test]
    fn numbers() {
        assert_eq!(parse_float("6.5"), Some(6.5));
        assert_eq!(parse_float("nan"), None);
        assert_eq!(parse_float("inf"), None);
        assert_eq!(parse_uint("19"), Some(19));
        assert_eq!(parse_uint("-1"), None);
        assert_eq!(parse_uint("+1"), None);
        assert_eq!(parse_int("-12"), Some(-12));
        assert_eq!(parse_int("-"), None);
        assert_eq!(parse_int("1.5"), None);
    }
}
