//! Reading scenario files.

use super::literal::{Lexer, LiteralError};
use super::ParseError;
use crate::case::{Step, Stmt, TestCase};
use crate::expect::TableExpect;
use crate::isolation::Isolation;

/// Parses a scenario; `file` is only used in error messages.
pub fn parse(text: &str, file: &str) -> Result<TestCase, ParseError> {
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

    fn starts_with(&self, s: &str) -> bool {
        s.chars()
            .enumerate()
            .all(|(i, c)| self.chars.get(self.pos + i) == Some(&c))
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
                return Ok(());
            }
            if self.starts_with("--") {
                self.comment_line()?;
            } else if self.starts_with("/*") {
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
        let lead = raw.chars().take_while(|c| c.is_whitespace()).count();
        (raw.trim().to_string(), start + lead)
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
                    let lead = item.len() - item.trim_start().len();
                    let level: Isolation = item
                        .parse()
                        .map_err(|e| self.error_at(at + offset + lead, format!("{e}")))?;
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

    /// `/* init */` or `/* tN */`.
    fn block_tag(&mut self) -> Result<Tag, ParseError> {
        let start = self.pos;
        let Some(close) = (self.pos + 2..self.chars.len().saturating_sub(1))
            .find(|&i| self.chars[i] == '*' && self.chars[i + 1] == '/')
        else {
            return Err(self.error_at(start, "unterminated /* tag"));
        };
        let tag = self.text(start + 2, close).trim().to_string();
        self.pos = close + 2;
        if tag.eq_ignore_ascii_case("init") {
            return Ok(Tag::Init);
        }
        let is_session =
            tag.len() > 1 && tag.starts_with('t') && tag[1..].chars().all(|c| c.is_ascii_digit());
        if is_session {
            Ok(Tag::Session(tag))
        } else {
            Err(self.error_at(
                start,
                format!("unknown tag '{tag}': expected /* init */ or /* tN */ (t1, t2, …)"),
            ))
        }
    }

    /// `conn_N>` at the cursor: consumes it and returns `conn_N`.
    fn conn_prefix(&mut self) -> Option<String> {
        if !self.starts_with("conn_") {
            return None;
        }
        let digits_from = self.pos + 5;
        let digits_to = (digits_from..self.chars.len())
            .find(|&i| !self.chars[i].is_ascii_digit())
            .unwrap_or(self.chars.len());
        if digits_to == digits_from || self.chars.get(digits_to) != Some(&'>') {
            return None;
        }
        let label = self.text(self.pos, digits_to);
        self.pos = digits_to + 1;
        Some(label)
    }

    /// The statement text up to its `;`, then what trails it on the same line.
    fn statement(&mut self, tag: Tag) -> Result<(), ParseError> {
        while self
            .chars
            .get(self.pos)
            .is_some_and(|c| c.is_whitespace() && *c != '\n')
        {
            self.pos += 1;
        }
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

    /// The `;` ending a statement that starts at `start`, skipping quotes and comments.
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
                    match (i + 2..self.chars.len().saturating_sub(1))
                        .find(|&j| self.chars[j] == '*' && self.chars[j + 1] == '/')
                    {
                        Some(close) => i = close + 2,
                        None => return Err(self.error_at(i, "unterminated /* comment")),
                    }
                }
                _ => i += 1,
            }
        }
        Err(self.error_at(start, "statement never ends: missing ';'"))
    }

    /// What follows a statement's `;` on its line: an expectation, a note, or another statement.
    fn trailer(&mut self, stmt: &mut Stmt) -> Result<(), ParseError> {
        while self
            .chars
            .get(self.pos)
            .is_some_and(|c| c.is_whitespace() && *c != '\n')
        {
            self.pos += 1;
        }
        if self.pos >= self.chars.len()
            || self.chars[self.pos] == '\n'
            || self.starts_with("/*")
            || self.starts_with("conn_")
        {
            return Ok(());
        }
        if !self.starts_with("--") {
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
