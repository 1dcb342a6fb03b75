//! The parser of the anomaly-pattern text of APTrans's Definition 2.1 (paper 004 in
//! ../shared/reference/papers/, §2.2), e.g. `R1[x0]W2[x1]C2W1[x2]C1`.
//!
//! An operation is a letter (`R` read, `W` write, `C` commit, `A` abort), the number of its
//! transaction (1–255), and, for `R` and `W` only, a bracketed item (one letter `a`–`z`) and
//! version (0–255, 0 being the initial state). Operations follow one another without
//! separators; blanks are not allowed. A transaction has no operation after its `C` or `A`.

use super::{Op, OpKind};

/// A malformed pattern text: the byte offset where the problem starts and what the parser
/// expected there.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad anomaly pattern at byte {pos}: {message}")]
pub struct PatternError {
    /// Byte offset into the text.
    pub pos: usize,
    /// What was expected, and what was found instead.
    pub message: String,
}

/// Parses a pattern text into its operations, in order.
pub fn parse(text: &str) -> Result<Vec<Op>, PatternError> {
    let mut cur = Cursor { text, pos: 0 };
    if text.is_empty() {
        return Err(cur.error("expected an operation (R, W, C or A)".to_string()));
    }
    let mut ops = Vec::new();
    // Each ended transaction with the position of its `C` or `A`.
    let mut ended: Vec<(u8, usize, char)> = Vec::new();
    while let Some(letter) = cur.peek() {
        let start = cur.pos;
        let kind = match letter {
            'R' => OpKind::Read,
            'W' => OpKind::Write,
            'C' => OpKind::Commit,
            'A' => OpKind::Abort,
            _ => return Err(cur.error("expected an operation (R, W, C or A)".to_string())),
        };
        cur.bump();
        let txn = cur.transaction(letter)?;
        if let Some((_, at, end)) = ended.iter().find(|(t, _, _)| *t == txn) {
            return Err(PatternError {
                pos: start,
                message: format!(
                    "expected no operation of T{txn} after its {end}{txn} at byte {at}, \
                     found {letter}{txn}"
                ),
            });
        }
        let op = match kind {
            OpKind::Read | OpKind::Write => {
                let (item, version) = cur.item_version(letter, txn)?;
                Op {
                    kind,
                    txn,
                    item: Some(item),
                    version: Some(version),
                }
            }
            OpKind::Commit | OpKind::Abort => {
                if cur.peek() == Some('[') {
                    return Err(cur.error(format!(
                        "expected the next operation after {letter}{txn} (a commit or abort \
                         names no item)"
                    )));
                }
                ended.push((txn, start, letter));
                Op {
                    kind,
                    txn,
                    item: None,
                    version: None,
                }
            }
        };
        ops.push(op);
    }
    Ok(ops)
}

/// The text and the byte offset reached.
struct Cursor<'a> {
    text: &'a str,
    pos: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    fn bump(&mut self) {
        if let Some(c) = self.peek() {
            self.pos += c.len_utf8();
        }
    }

    /// An error at the current position: `expected`, then what is there.
    fn error(&self, expected: String) -> PatternError {
        let found = match self.peek() {
            Some(c) => format!("'{c}'"),
            None => "the end of the text".to_string(),
        };
        PatternError {
            pos: self.pos,
            message: format!("{expected}, found {found}"),
        }
    }

    /// A run of decimal digits as a `u8`; `what` names it in errors.
    fn number(&mut self, what: &str) -> Result<u8, PatternError> {
        let start = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.bump();
        }
        let digits = &self.text[start..self.pos];
        if digits.is_empty() {
            return Err(self.error(format!("expected {what}")));
        }
        digits.parse().map_err(|_| PatternError {
            pos: start,
            message: format!("expected {what} (at most 255), found {digits}"),
        })
    }

    /// The transaction number after the operation letter `letter`.
    fn transaction(&mut self, letter: char) -> Result<u8, PatternError> {
        let start = self.pos;
        let txn = self.number(&format!("the transaction number after '{letter}'"))?;
        if txn == 0 {
            return Err(PatternError {
                pos: start,
                message: format!(
                    "expected a transaction number from 1 after '{letter}' (version 0, not a \
                     transaction, is the initial state), found 0"
                ),
            });
        }
        Ok(txn)
    }

    /// `[` item version `]` after a read or write `letter` of `txn`.
    fn item_version(&mut self, letter: char, txn: u8) -> Result<(char, u8), PatternError> {
        if self.peek() != Some('[') {
            return Err(self.error(format!(
                "expected '[' and the item {letter}{txn} accesses (a read or write names an \
                 item and a version)"
            )));
        }
        self.bump();
        let item = match self.peek() {
            Some(c) if c.is_ascii_lowercase() => c,
            _ => return Err(self.error("expected an item (a letter a-z) after '['".to_string())),
        };
        self.bump();
        let version = self.number(&format!("the version of {item}"))?;
        if self.peek() != Some(']') {
            return Err(self.error(format!("expected ']' after {item}{version}")));
        }
        self.bump();
        Ok((item, version))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(text: &str) -> String {
        match parse(text) {
            Ok(ops) => panic!("{text} parsed as {ops:?}"),
            Err(err) => err.to_string(),
        }
    }

    #[test]
    fn reads_writes_commits_and_aborts() {
        let ops = parse("W1[x1]R2[x1]A1C2").unwrap();
        assert_eq!(
            ops,
            vec![
                Op {
                    kind: OpKind::Write,
                    txn: 1,
                    item: Some('x'),
                    version: Some(1)
                },
                Op {
                    kind: OpKind::Read,
                    txn: 2,
                    item: Some('x'),
                    version: Some(1)
                },
                Op {
                    kind: OpKind::Abort,
                    txn: 1,
                    item: None,
                    version: None
                },
                Op {
                    kind: OpKind::Commit,
                    txn: 2,
                    item: None,
                    version: None
                },
            ]
        );
        let ops = parse("R12[y10]C12").unwrap();
        assert_eq!(
            (ops[0].txn, ops[0].item, ops[0].version),
            (12, Some('y'), Some(10))
        );
    }

    #[test]
    fn unknown_letter() {
        assert_eq!(
            message("R1[x0]X2C1"),
            "bad anomaly pattern at byte 6: expected an operation (R, W, C or A), found 'X'"
        );
        assert_eq!(
            message("R1[x0] C1"),
            "bad anomaly pattern at byte 6: expected an operation (R, W, C or A), found ' '"
        );
        assert_eq!(
            message(""),
            "bad anomaly pattern at byte 0: expected an operation (R, W, C or A), found the end \
             of the text"
        );
    }

    #[test]
    fn missing_transaction_number() {
        assert_eq!(
            message("R[x0]C1"),
            "bad anomaly pattern at byte 1: expected the transaction number after 'R', found '['"
        );
        assert_eq!(
            message("W0[x1]"),
            "bad anomaly pattern at byte 1: expected a transaction number from 1 after 'W' \
             (version 0, not a transaction, is the initial state), found 0"
        );
        assert_eq!(
            message("C300"),
            "bad anomaly pattern at byte 1: expected the transaction number after 'C' (at most \
             255), found 300"
        );
    }

    #[test]
    fn read_or_write_without_item() {
        assert_eq!(
            message("W1[x1]R2C2"),
            "bad anomaly pattern at byte 8: expected '[' and the item R2 accesses (a read or \
             write names an item and a version), found 'C'"
        );
        assert_eq!(
            message("W1"),
            "bad anomaly pattern at byte 2: expected '[' and the item W1 accesses (a read or \
             write names an item and a version), found the end of the text"
        );
    }

    #[test]
    fn missing_or_bad_bracket_contents() {
        assert_eq!(
            message("W1[x1C1"),
            "bad anomaly pattern at byte 5: expected ']' after x1, found 'C'"
        );
        assert_eq!(
            message("W1[X1]C1"),
            "bad anomaly pattern at byte 3: expected an item (a letter a-z) after '[', found 'X'"
        );
        assert_eq!(
            message("W1[x]C1"),
            "bad anomaly pattern at byte 4: expected the version of x, found ']'"
        );
    }

    #[test]
    fn commit_or_abort_with_an_item() {
        assert_eq!(
            message("W1[x1]C1[x1]"),
            "bad anomaly pattern at byte 8: expected the next operation after C1 (a commit or \
             abort names no item), found '['"
        );
        assert_eq!(
            message("W1[x1]A1[x0]"),
            "bad anomaly pattern at byte 8: expected the next operation after A1 (a commit or \
             abort names no item), found '['"
        );
    }

    #[test]
    fn operation_after_the_end_of_its_transaction() {
        // APTrans's Table 3 #6 as the paper prints it: T2 writes y after committing.
        let err = parse("W1[x1]W2[x2]C2W2[y2]W1[y2]C1").unwrap_err();
        assert_eq!(err.pos, 14);
        assert_eq!(
            err.to_string(),
            "bad anomaly pattern at byte 14: expected no operation of T2 after its C2 at byte \
             12, found W2"
        );
        assert_eq!(
            message("W1[x1]A1C1"),
            "bad anomaly pattern at byte 8: expected no operation of T1 after its A1 at byte 6, \
             found C1"
        );
    }
}
