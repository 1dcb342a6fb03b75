//! The small value language of expectations: `rows [(1, 'a')]`, `blocked then error deadlock`.

use crate::error::ErrorClass;
use crate::expect::Expect;
use crate::value::{Row, Value};

/// A failure at a character offset into the parsed text.
pub(super) struct LiteralError {
    pub offset: usize,
    pub message: String,
}

type Res<T> = Result<T, LiteralError>;

/// A cursor over an expectation or a value list.
pub(super) struct Lexer {
    chars: Vec<char>,
    pos: usize,
}

impl Lexer {
    pub fn new(text: &str) -> Self {
        Lexer {
            chars: text.chars().collect(),
            pos: 0,
        }
    }

    /// Character offset of the cursor.
    pub fn offset(&self) -> usize {
        self.pos
    }

    fn fail<T>(&self, message: impl Into<String>) -> Res<T> {
        Err(LiteralError {
            offset: self.pos,
            message: message.into(),
        })
    }

    fn skip_space(&mut self) {
        while self.chars.get(self.pos).is_some_and(|c| c.is_whitespace()) {
            self.pos += 1;
        }
    }

    fn peek(&mut self) -> Option<char> {
        self.skip_space();
        self.chars.get(self.pos).copied()
    }

    /// The rest of the text from the cursor, spaces skipped.
    pub fn rest(&mut self) -> String {
        self.skip_space();
        self.chars[self.pos..].iter().collect()
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect_char(&mut self, c: char) -> Res<()> {
        if self.eat(c) {
            Ok(())
        } else {
            self.fail(format!("expected '{c}'"))
        }
    }

    /// A word of letters, digits, `_` and `-`, lower-cased; empty if none.
    pub fn word(&mut self) -> String {
        self.skip_space();
        let start = self.pos;
        while self
            .chars
            .get(self.pos)
            .is_some_and(|c| c.is_alphanumeric() || *c == '_' || *c == '-')
        {
            self.pos += 1;
        }
        self.chars[start..self.pos]
            .iter()
            .collect::<String>()
            .to_ascii_lowercase()
    }

    /// Whether only spaces are left.
    pub fn at_end(&mut self) -> bool {
        self.peek().is_none()
    }

    /// An expectation: `ok`, `rows [...]`, `affected N`, `error [CLASS]`, `deadlock`,
    /// `blocked [then E]`.
    pub fn expectation(&mut self, allow_blocked: bool) -> Res<Expect> {
        self.skip_space();
        let start = self.pos;
        let word = self.word();
        let expect = match word.as_str() {
            "ok" => Expect::Ok,
            "rows" => Expect::Rows { rows: self.rows()? },
            "affected" => {
                let n = self.word();
                match n.parse() {
                    Ok(count) => Expect::Affected { count },
                    Err(_) => {
                        return self.fail(format!(
                            "expected a row count after 'affected', found '{n}'"
                        ))
                    }
                }
            }
            "deadlock" => Expect::Error {
                class: Some(ErrorClass::Deadlock),
            },
            "error" => {
                let save = self.pos;
                let class = self.word();
                if class.is_empty() || class == "--" {
                    self.pos = save;
                    Expect::Error { class: None }
                } else {
                    match class.parse() {
                        Ok(c) => Expect::Error { class: Some(c) },
                        Err(message) => {
                            self.pos = save;
                            self.skip_space();
                            return self.fail(message);
                        }
                    }
                }
            }
            "blocked" if allow_blocked => {
                let save = self.pos;
                if self.word() == "then" {
                    Expect::Blocked {
                        then: Some(Box::new(self.expectation(false)?)),
                    }
                } else {
                    self.pos = save;
                    Expect::Blocked { then: None }
                }
            }
            _ => {
                self.pos = start;
                let what = if allow_blocked {
                    "ok, rows [...], affected N, error [CLASS], deadlock, blocked or blocked then E"
                } else {
                    "ok, rows [...], affected N, error [CLASS] or deadlock"
                };
                return self.fail(format!("expected {what}, found '{word}'"));
            }
        };
        Ok(expect)
    }

    /// A bag of rows: `[(1, 'a'), (2, NULL)]`; a bare value is a one-column row.
    pub fn rows(&mut self) -> Res<Vec<Row>> {
        self.expect_char('[')?;
        let mut rows = Vec::new();
        if self.eat(']') {
            return Ok(rows);
        }
        loop {
            if self.eat('(') {
                let mut row = Vec::new();
                if !self.eat(')') {
                    loop {
                        row.push(self.value()?);
                        if self.eat(')') {
                            break;
                        }
                        if !self.eat(',') {
                            return self.fail("expected ',' or ')'");
                        }
                    }
                }
                rows.push(row);
            } else {
                rows.push(vec![self.value()?]);
            }
            if self.eat(']') {
                return Ok(rows);
            }
            if !self.eat(',') {
                return self.fail("expected ',' or ']'");
            }
        }
    }

    /// One literal: NULL, TRUE, FALSE, a number, `'text'` or `X'hex'`.
    fn value(&mut self) -> Res<Value> {
        let Some(c) = self.peek() else {
            return self.fail("expected a value, found the end of the line");
        };
        if c == '\'' {
            return Ok(Value::Text(self.quoted()?));
        }
        if c.is_ascii_digit() || c == '-' || c == '+' || c == '.' {
            return self.number();
        }
        let start = self.pos;
        let word = self.word();
        match word.as_str() {
            "null" => Ok(Value::Null),
            "true" => Ok(Value::Bool(true)),
            "false" => Ok(Value::Bool(false)),
            "x" if self.chars.get(self.pos) == Some(&'\'') => {
                let hex = self.quoted()?;
                decode_hex(&hex).map(Value::Bytes).ok_or(LiteralError {
                    offset: start,
                    message: format!("bad hex literal X'{hex}'"),
                })
            }
            _ => {
                self.pos = start;
                self.fail(format!(
                    "expected a value (NULL, TRUE, FALSE, a number, 'text' or X'hex'), found '{word}'"
                ))
            }
        }
    }

    fn quoted(&mut self) -> Res<String> {
        let start = self.pos;
        self.pos += 1;
        let mut text = String::new();
        loop {
            match self.chars.get(self.pos) {
                None => {
                    self.pos = start;
                    return self.fail("unterminated string");
                }
                Some('\'') if self.chars.get(self.pos + 1) == Some(&'\'') => {
                    text.push('\'');
                    self.pos += 2;
                }
                Some('\'') => {
                    self.pos += 1;
                    return Ok(text);
                }
                Some(c) => {
                    text.push(*c);
                    self.pos += 1;
                }
            }
        }
    }

    fn number(&mut self) -> Res<Value> {
        let start = self.pos;
        while self
            .chars
            .get(self.pos)
            .is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '+'))
        {
            self.pos += 1;
        }
        let text: String = self.chars[start..self.pos].iter().collect();
        if let Ok(i) = text.parse::<i64>() {
            return Ok(Value::Int(i));
        }
        let plain = text.trim_start_matches(['-', '+']);
        if !plain.is_empty()
            && plain.chars().all(|c| c.is_ascii_digit() || c == '.')
            && plain.matches('.').count() <= 1
        {
            return Ok(Value::Decimal(text));
        }
        match text.parse::<f64>() {
            Ok(f) if f.is_finite() => Ok(Value::Float(f)),
            _ => {
                self.pos = start;
                self.fail(format!("bad number '{text}'"))
            }
        }
    }
}

fn decode_hex(hex: &str) -> Option<Vec<u8>> {
    if !hex.len().is_multiple_of(2) || !hex.is_ascii() {
        return None;
    }
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).ok())
        .collect()
}
