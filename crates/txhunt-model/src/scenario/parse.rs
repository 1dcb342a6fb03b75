//! Reading scenario files.

use super::literal::{Lexer, LiteralError};
use super::ParseError;
use crate::case::{Step, Stmt, TestCase};
use crate::expect::TableExpect;
use crate::isolation::Isolation;

/// Parses a scenario; `file` is only used in error messages. A leading byte order mark is
/// skipped, and columns are counted without it.
pub fn parse(text: &str, file: &str) -> Result<TestCase, ParseError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut parser = Parser::new(text, file);
    parser.run()?;
    Ok(parser.case)
}

/// Where a statement goes: setup or a session.
enum Tag {
    Init,
    Session(String),
}

struct Parser<'a> {
    file: &'a str,
    chars: Vec<char>,
    pos: usize,
    line_starts: Vec<usize>,
    case: TestCase,
    seen_statement: bool,
}

impl<'a> Parser<'a> {
    fn new(text: &str, file: &'a str) -> Self {
        let chars: Vec<char> = text.chars().collect();
        let mut line_starts = vec![0];
        line_starts.extend(
            chars
                .iter()
                .enumerate()
                .filter(|(_, c)| **c == '\n')
                .map(|(i, _)| i + 1),
        );
        Parser {
            file,
            chars,
            pos: 0,
            line_starts,
            case: TestCase::default(),
            seen_statement: false,
        }
    }

    fn line_of(&self, pos: usize) -> u32 {
        (self.line_starts.partition_point(|&s| s <= pos)) as u32
    }

    fn error_at(&self, pos: usize, message: impl Into<String>) -> ParseError {
        let line = self.line_of(pos);
        let col = pos - self.line_starts[line as usize - 1] + 1;
        ParseError {
            file: self.file.to_string(),
            line,
            col: col as u32,
            message: message.into(),
        }
    }

    fn literal_error(&self, base: usize, e: LiteralError) -> ParseError {
        self.error_at(base + e.offset, e.message)
    }

    fn starts_with(&self, at: usize, s: &str) -> bool {
        s.chars()
            .enumerate()
            .all(|(i, c)| self.chars.get(at + i) == Some(&c))
    }

    /// The first position from `from` that is not whitespace, or is a newline.
    fn skip_blanks(&self, from: usize) -> usize {
        (from..self.chars.len())
            .find(|&i| !self.chars[i].is_whitespace() || self.chars[i] == '\n')
            .unwrap_or(self.chars.len())
    }

    /// The `*` of the `*/` closing the block comment that opens at `open`.
    fn comment_close(&self, open: usize) -> Option<usize> {
        (open + 2..self.chars.len().saturating_sub(1))
            .find(|&i| self.chars[i] == '*' && self.chars[i + 1] == '/')
    }

    fn line_end(&self, from: usize) -> usize {
        (from..self.chars.len())
            .find(|&i| self.chars[i] == '\n')
            .unwrap_or(self.chars.len())
    }

    fn text(&self, from: usize, to: usize) -> String {
        self.chars[from..to].iter().collect()
    }

    fn run(&mut self) -> Result<(), ParseError> {
        loop {
            while self.chars.get(self.pos).is_some_and(|c| c.is_whitespace()) {
                self.pos += 1;
            }
            if self.pos >= self.chars.len() {
                if !self.seen_statement {
                    return Err(self.error_at(
                        self.pos,
                        "no statement: expected at least one statement tagged /* init */, /* tN */ or conn_N>",
                    ));
                }
                return Ok(());
            }
            if self.starts_with(self.pos, "--") {
                self.comment_line()?;
            } else if self.starts_with(self.pos, "/*") {
                let tag = self.block_tag()?;
                self.statement(tag)?;
            } else if let Some(label) = self.conn_prefix() {
                self.statement(Tag::Session(label))?;
            } else {
                let end = self.line_end(self.pos);
                return Err(self.error_at(
                    self.pos,
                    format!(
                        "expected a statement tagged /* init */, /* tN */ or conn_N>, found '{}'",
                        self.text(self.pos, end).trim()
                    ),
                ));
            }
        }
    }

    /// The text of the `--` comment at the cursor, trimmed, and the offset where it starts;
    /// moves the cursor to the end of the line.
    fn comment_to_line_end(&mut self) -> (String, usize) {
        let start = self.pos + 2;
        let end = self.line_end(start);
        self.pos = end;
        let raw = self.text(start, end);
        (raw.trim().to_string(), start + leading_spaces(&raw))
    }

    /// A whole-line comment: header, final-state expectation, or free comment.
    fn comment_line(&mut self) -> Result<(), ParseError> {
        let (content, base) = self.comment_to_line_end();
        let content = content.as_str();
        let lower = content.to_ascii_lowercase();
        if let Some(rest) = strip_key(&lower, "expect final") {
            let offset = content.chars().count() - rest.chars().count();
            return self.final_expect(&content[content.len() - rest.len()..], base + offset);
        }
        if strip_key(&lower, "expect").is_some() {
            return Err(self.error_at(
                base,
                "an expectation must follow its statement on the same line: /* t1 */ SQL;  -- expect: E",
            ));
        }
        if self.seen_statement {
            return Ok(());
        }
        if let Some((key, value)) = header_pair(content) {
            let value_at = base + content.chars().count() - value.chars().count();
            self.header(&key, value, value_at)?;
        }
        Ok(())
    }

    fn header(&mut self, key: &str, value: &str, at: usize) -> Result<(), ParseError> {
        let text = Some(value.to_string());
        let header = &mut self.case.header;
        match key {
            "id" => header.id = text,
            "title" => header.title = text,
            "link" => header.link = text,
            "dbms" => header.dbms = text,
            "mode" => match value.parse() {
                Ok(mode) => header.mode = Some(mode),
                Err(e) => return Err(self.error_at(at, e)),
            },
            "isolation" => {
                let mut levels = Vec::new();
                let mut offset = 0;
                for item in value.split(',') {
                    let level: Isolation = item.parse().map_err(|e| {
                        self.error_at(at + offset + leading_spaces(item), format!("{e}"))
                    })?;
                    if !levels.contains(&level) {
                        levels.push(level);
                    }
                    offset += item.chars().count() + 1;
                }
                self.case.header.isolation = levels;
            }
            _ => header.extra.push((key.to_string(), value.to_string())),
        }
        Ok(())
    }

    fn final_expect(&mut self, text: &str, base: usize) -> Result<(), ParseError> {
        let Some((name, rows)) = text.split_once('=') else {
            return Err(self.error_at(base, "expected 'table = [rows]' after 'expect final:'"));
        };
        let table = name.trim();
        if table.is_empty() || table.contains(char::is_whitespace) {
            return Err(self.error_at(base, format!("expected a table name, found '{table}'")));
        }
        let rows_at = base + name.chars().count() + 1;
        let mut lexer = Lexer::new(rows);
        let rows = lexer.rows().map_err(|e| self.literal_error(rows_at, e))?;
        if !lexer.at_end() {
            let off = lexer.offset();
            return Err(self.error_at(rows_at + off, "unexpected text after the rows"));
        }
        self.case.final_expect.push(TableExpect {
            table: table.to_string(),
            rows,
            line: Some(self.line_of(base)),
        });
        Ok(())
    }

    /// `/* init */` or `/* tN */`, N from 1 and without leading zeros (so that `t1` and `t01`
    /// cannot name two sessions that read alike).
    fn block_tag(&mut self) -> Result<Tag, ParseError> {
        let start = self.pos;
        let Some(close) = self.comment_close(start) else {
            return Err(self.error_at(start, "unterminated /* tag"));
        };
        let tag = self.text(start + 2, close).trim().to_string();
        self.pos = close + 2;
        if tag.eq_ignore_ascii_case("init") {
            return Ok(Tag::Init);
        }
        let message = match session_number(&tag) {
            Some(n) if !n.starts_with('0') => return Ok(Tag::Session(tag)),
            Some(_) => format!(
                "bad session tag '{tag}': sessions are numbered from 1, without leading zeros (t1, t2, …)"
            ),
            None => format!("unknown tag '{tag}': expected /* init */ or /* tN */ (t1, t2, …)"),
        };
        Err(self.error_at(start, message))
    }

    /// The `>` ending the ReplBug prefix `conn_N>` that starts at `at`, if one does.
    fn conn_end(&self, at: usize) -> Option<usize> {
        if !self.starts_with(at, "conn_") {
            return None;
        }
        let digits_from = at + 5;
        let digits_to = (digits_from..self.chars.len())
            .find(|&i| !self.chars[i].is_ascii_digit())
            .unwrap_or(self.chars.len());
        (digits_to > digits_from && self.chars.get(digits_to) == Some(&'>')).then_some(digits_to)
    }

    /// `conn_N>` at the cursor: consumes it and returns `conn_N`.
    fn conn_prefix(&mut self) -> Option<String> {
        let end = self.conn_end(self.pos)?;
        let label = self.text(self.pos, end);
        self.pos = end + 1;
        Some(label)
    }

    /// The error for a statement tag `tag` at `at` inside a statement's text.
    fn tag_inside_statement(&self, at: usize, tag: &str) -> ParseError {
        self.error_at(
            at,
            format!("tag {tag} inside a statement: a ';' is probably missing before it"),
        )
    }

    /// The statement text up to its `;`, then what trails it on the same line.
    fn statement(&mut self, tag: Tag) -> Result<(), ParseError> {
        self.pos = self.skip_blanks(self.pos);
        let start = self.pos;
        let semi = self.find_semicolon(start)?;
        let sql = self.text(start, semi).trim().to_string();
        if sql.is_empty() {
            return Err(self.error_at(start, "empty statement"));
        }
        let mut stmt = Stmt::new(sql);
        stmt.line = Some(self.line_of(start));
        self.pos = semi + 1;
        self.trailer(&mut stmt)?;
        self.seen_statement = true;
        match tag {
            Tag::Init => self.case.init.push(stmt),
            Tag::Session(session) => self.case.steps.push(Step { session, stmt }),
        }
        Ok(())
    }

    /// The `;` ending a statement that starts at `start`, skipping quotes and comments. Another
    /// statement's tag on the way (a `/* init */` or `/* tN */` comment, or `conn_N>` first on a
    /// line) means this statement lacks its `;`: that is an error at the tag.
    fn find_semicolon(&self, start: usize) -> Result<usize, ParseError> {
        let mut i = start;
        while i < self.chars.len() {
            match self.chars[i] {
                ';' => return Ok(i),
                q @ ('\'' | '"' | '`') => {
                    let open = i;
                    i += 1;
                    loop {
                        match self.chars.get(i) {
                            None => {
                                return Err(
                                    self.error_at(open, format!("unterminated {q}quoted text"))
                                )
                            }
                            Some('\\') if q == '\'' => i += 2,
                            Some(c) if *c == q && self.chars.get(i + 1) == Some(&q) => i += 2,
                            Some(c) if *c == q => break,
                            Some(_) => i += 1,
                        }
                    }
                    i += 1;
                }
                '-' if self.chars.get(i + 1) == Some(&'-') => i = self.line_end(i),
                '/' if self.chars.get(i + 1) == Some(&'*') => {
                    let Some(close) = self.comment_close(i) else {
                        return Err(self.error_at(i, "unterminated /* comment"));
                    };
                    let comment = self.text(i + 2, close);
                    let word = comment.trim();
                    if is_tag(word) {
                        return Err(self.tag_inside_statement(i, &format!("/* {word} */")));
                    }
                    i = close + 2;
                }
                '\n' => {
                    i = self.skip_blanks(i + 1);
                    if let Some(end) = self.conn_end(i) {
                        return Err(self.tag_inside_statement(i, &self.text(i, end + 1)));
                    }
                }
                _ => i += 1,
            }
        }
        Err(self.error_at(start, "statement never ends: missing ';'"))
    }

    /// What follows a statement's `;` on its line: an expectation, a note, or another statement.
    fn trailer(&mut self, stmt: &mut Stmt) -> Result<(), ParseError> {
        self.pos = self.skip_blanks(self.pos);
        if self.pos >= self.chars.len()
            || self.chars[self.pos] == '\n'
            || self.starts_with(self.pos, "/*")
            || self.starts_with(self.pos, "conn_")
        {
            return Ok(());
        }
        if !self.starts_with(self.pos, "--") {
            return Err(self.error_at(
                self.pos,
                "unexpected text after ';': expected '-- expect: E', a '-- comment' or the end of the line",
            ));
        }
        let (content, base) = self.comment_to_line_end();
        let content = content.as_str();
        let lower = content.to_ascii_lowercase();
        let Some(rest) = strip_key(&lower, "expect") else {
            stmt.note = Some(content.to_string()).filter(|n| !n.is_empty());
            return Ok(());
        };
        let offset = content.chars().count() - rest.chars().count();
        let text = &content[content.len() - rest.len()..];
        let mut lexer = Lexer::new(text);
        let expect = lexer
            .expectation(true)
            .map_err(|e| self.literal_error(base + offset, e))?;
        stmt.expect = Some(expect);
        let tail = lexer.rest();
        if let Some(note) = tail.strip_prefix("--") {
            stmt.note = Some(note.trim().to_string()).filter(|n| !n.is_empty());
        } else if !tail.is_empty() {
            let at = base + offset + lexer.offset();
            return Err(self.error_at(
                at,
                format!("unexpected text after the expectation: '{tail}'"),
            ));
        }
        Ok(())
    }
}

/// `rest` of `text` after `key` and a colon, if `text` starts with them.
fn strip_key<'t>(text: &'t str, key: &str) -> Option<&'t str> {
    Some(
        text.strip_prefix(key)?
            .trim_start()
            .strip_prefix(':')?
            .trim_start(),
    )
}

/// A header line `key: value` (one word for the key), lower-casing the key.
fn header_pair(content: &str) -> Option<(String, &str)> {
    let (key, value) = content.split_once(':')?;
    let key = key.trim();
    let word = key.chars().next()?.is_ascii_alphabetic()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    word.then(|| (key.to_ascii_lowercase(), value.trim()))
}

/// The number of whitespace characters `text` starts with.
fn leading_spaces(text: &str) -> usize {
    text.chars().take_while(|c| c.is_whitespace()).count()
}

/// The digits N of a session tag `tN`, if `tag` is one.
fn session_number(tag: &str) -> Option<&str> {
    tag.strip_prefix('t')
        .filter(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
}

/// Whether a block comment's trimmed text is a statement tag (`init` or `tN`).
fn is_tag(text: &str) -> bool {
    text.eq_ignore_ascii_case("init") || session_number(text).is_some()
}
