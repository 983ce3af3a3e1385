//! EPD: the four position fields of FEN plus operations (`bm Qg6; id "WAC.001";`).
//!
//! Operands are kept as written (quoted strings and plain tokens), so a record writes back
//! exactly; typed accessors interpret the common opcodes: `bm`/`am` (SAN moves), `id`,
//! `c0`..`c9`, `ce` (centipawns), `pv` (a SAN line), `acd` (depth), `hmvc`/`fmvn` (clocks) and
//! the perft counts `D1`..`Dn` of perft suites. Perft suites also put the two FEN clock fields
//! before the operations (`FEN ;D1 20 ;D2 400`); the reader accepts that form.

use crate::san::{parse_san, SanError};
use std::fmt::{self, Write};
use tempo_core::{CastlingMode, FenError, Move, Position};

/// Why an EPD line cannot be read, or an operation cannot be interpreted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EpdError {
    /// The line (carried, trimmed) has fewer than the four position fields.
    #[error("epd {0:?} has fewer than four position fields")]
    MissingFields(String),
    /// The four position fields, completed with the clocks, are not a legal position in either
    /// castling mode; carries the error of the standard reading.
    #[error("invalid position in epd: {0}")]
    Fen(#[from] FenError),
    /// A quoted operand has no closing `"`; carries the text from its opening quote on.
    #[error("unterminated string in epd operation {0:?}")]
    UnterminatedString(String),
    /// A token in an opcode's place (first in an operation) does not start with an ASCII letter
    /// or holds characters other than ASCII letters, digits and `_`; carries the token.
    #[error("epd opcode {0:?} must start with a letter and contain letters, digits and '_'")]
    Opcode(String),
    /// An operand of a move opcode (`bm`, `am`, `pv`) is not a legal SAN move where it stands.
    #[error("operand {operand:?} of {opcode}: {error}")]
    Move {
        /// The opcode, `bm`, `am` or `pv`.
        opcode: String,
        /// The operand as written.
        operand: String,
        /// Why it is not a legal move where it stands.
        error: SanError,
    },
    /// The operand of a numeric opcode does not parse as a number of the type it needs (`ce`
    /// an `i32`, `acd` a `u32`, a perft count a `u64`).
    #[error("operand {operand:?} of {opcode} is not a number")]
    Number {
        /// The opcode: `ce`, `acd` or a perft count `D1`..`Dn`.
        opcode: String,
        /// The operand as written (empty for a perft count without one).
        operand: String,
    },
}

/// One operand as written.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum EpdOperand {
    /// A double-quoted string (quotes removed).
    Quoted(String),
    /// Any other token: a SAN move, a number, a symbol.
    Plain(String),
}

impl EpdOperand {
    /// The operand text without quotes.
    pub fn as_str(&self) -> &str {
        match self {
            EpdOperand::Quoted(s) | EpdOperand::Plain(s) => s,
        }
    }
}

/// An opcode and its operands.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct EpdOperation {
    /// The opcode (`bm`, `id`, `D5`...).
    pub opcode: String,
    /// The operands, in order.
    pub operands: Vec<EpdOperand>,
}

/// An EPD record: a position and its operations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Epd {
    /// The position (clocks from `hmvc`/`fmvn` or the FEN clock fields, else 0 and 1).
    pub position: Position,
    /// The operations, in order.
    pub operations: Vec<EpdOperation>,
}

fn is_number(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

impl Epd {
    /// Reads one EPD line.
    ///
    /// # Errors
    /// [`EpdError`] for missing fields, an invalid position, an unterminated string or a
    /// malformed opcode.
    pub fn parse(line: &str) -> Result<Epd, EpdError> {
        let line = line.trim();
        let mut rest = line;
        let mut fields = Vec::with_capacity(4);
        for _ in 0..4 {
            rest = rest.trim_start();
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            if end == 0 {
                return Err(EpdError::MissingFields(line.to_owned()));
            }
            fields.push(&rest[..end]);
            rest = &rest[end..];
        }
        // Optional FEN clock fields (perft suites).
        let mut clocks = ("0", "1");
        let mut probe = rest.split_whitespace();
        if let (Some(h), Some(f)) = (probe.next(), probe.next()) {
            if is_number(h) && is_number(f.trim_end_matches(';')) && !f.ends_with(';') {
                clocks = (h, f);
                let skip = rest.find(h).unwrap_or(0) + h.len();
                rest = &rest[skip..];
                let skip = rest.find(f).unwrap_or(0) + f.len();
                rest = &rest[skip..];
            }
        }
        let operations = parse_operations(rest)?;
        for op in &operations {
            let value = op.operands.first().map(EpdOperand::as_str);
            match (op.opcode.as_str(), value) {
                ("hmvc", Some(v)) if is_number(v) => clocks.0 = v,
                ("fmvn", Some(v)) if is_number(v) => clocks.1 = v,
                _ => {}
            }
        }
        let fen = format!("{} {} {} {} {} {}", fields[0], fields[1], fields[2], fields[3], clocks.0, clocks.1);
        let position = match Position::from_fen(&fen, CastlingMode::Standard) {
            Ok(pos) => pos,
            Err(err) => Position::from_fen(&fen, CastlingMode::Chess960).map_err(|_| err)?,
        };
        Ok(Epd { position, operations })
    }

    /// The first operation with `opcode`.
    pub fn operation(&self, opcode: &str) -> Option<&EpdOperation> {
        self.operations.iter().find(|op| op.opcode == opcode)
    }

    /// The first operand of `opcode`, as text.
    pub fn value(&self, opcode: &str) -> Option<&str> {
        self.operation(opcode).and_then(|op| op.operands.first()).map(EpdOperand::as_str)
    }

    /// `id`.
    pub fn id(&self) -> Option<&str> {
        self.value("id")
    }

    /// Comment `c0`..`c9`.
    pub fn comment(&self, n: u8) -> Option<&str> {
        self.value(&format!("c{n}"))
    }

    fn moves(&self, opcode: &str) -> Result<Vec<Move>, EpdError> {
        let Some(op) = self.operation(opcode) else { return Ok(Vec::new()) };
        op.operands
            .iter()
            .map(|operand| {
                parse_san(&self.position, operand.as_str()).map_err(|error| EpdError::Move {
                    opcode: opcode.to_owned(),
                    operand: operand.as_str().to_owned(),
                    error,
                })
            })
            .collect()
    }

    /// The best moves (`bm`), resolved in the position; empty if there is no `bm`.
    ///
    /// # Errors
    /// [`EpdError::Move`] for an operand that is not a legal move.
    pub fn best_moves(&self) -> Result<Vec<Move>, EpdError> {
        self.moves("bm")
    }

    /// The moves to avoid (`am`).
    ///
    /// # Errors
    /// [`EpdError::Move`] for an operand that is not a legal move.
    pub fn avoid_moves(&self) -> Result<Vec<Move>, EpdError> {
        self.moves("am")
    }

    /// The predicted variation (`pv`), each move resolved after the previous ones.
    ///
    /// # Errors
    /// [`EpdError::Move`] at the first operand that is not legal where it stands.
    pub fn pv(&self) -> Result<Vec<Move>, EpdError> {
        let Some(op) = self.operation("pv") else { return Ok(Vec::new()) };
        let mut pos = self.position;
        let mut out = Vec::with_capacity(op.operands.len());
        for operand in &op.operands {
            let m = parse_san(&pos, operand.as_str()).map_err(|error| EpdError::Move {
                opcode: "pv".to_owned(),
                operand: operand.as_str().to_owned(),
                error,
            })?;
            if m.is_null() {
                pos.play_null();
            } else {
                pos.play_unchecked(m);
            }
            out.push(m);
        }
        Ok(out)
    }

    fn number<T: std::str::FromStr>(&self, opcode: &str) -> Result<Option<T>, EpdError> {
        match self.value(opcode) {
            None => Ok(None),
            Some(v) => {
                v.parse().map(Some).map_err(|_| EpdError::Number { opcode: opcode.to_owned(), operand: v.to_owned() })
            }
        }
    }

    /// Centipawn evaluation (`ce`).
    ///
    /// # Errors
    /// [`EpdError::Number`] if the operand is not an integer.
    pub fn centipawns(&self) -> Result<Option<i32>, EpdError> {
        self.number("ce")
    }

    /// Analysis depth (`acd`).
    ///
    /// # Errors
    /// [`EpdError::Number`] if the operand is not a non-negative integer.
    pub fn depth(&self) -> Result<Option<u32>, EpdError> {
        self.number("acd")
    }

    /// The perft counts `D1`..`Dn` as (depth, nodes), in file order.
    ///
    /// # Errors
    /// [`EpdError::Number`] for a count that is not a non-negative integer.
    pub fn perft_counts(&self) -> Result<Vec<(u32, u64)>, EpdError> {
        let mut out = Vec::new();
        for op in &self.operations {
            let Some(depth) = op.opcode.strip_prefix('D').and_then(|d| d.parse::<u32>().ok()) else { continue };
            let text = op.operands.first().map_or("", EpdOperand::as_str);
            let nodes =
                text.parse().map_err(|_| EpdError::Number { opcode: op.opcode.clone(), operand: text.to_owned() })?;
            out.push((depth, nodes));
        }
        Ok(out)
    }
}

fn parse_operations(text: &str) -> Result<Vec<EpdOperation>, EpdError> {
    let mut ops = Vec::new();
    let mut chars = text.char_indices().peekable();
    let mut current: Option<EpdOperation> = None;
    let mut token = String::new();
    let finish_token = |token: &mut String, current: &mut Option<EpdOperation>| -> Result<(), EpdError> {
        if token.is_empty() {
            return Ok(());
        }
        let t = std::mem::take(token);
        match current {
            Some(op) => op.operands.push(EpdOperand::Plain(t)),
            None => {
                let valid = t.starts_with(|c: char| c.is_ascii_alphabetic())
                    && t.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
                if !valid {
                    return Err(EpdError::Opcode(t));
                }
                *current = Some(EpdOperation { opcode: t, operands: Vec::new() });
            }
        }
        Ok(())
    };
    while let Some((i, c)) = chars.next() {
        match c {
            ';' => {
                finish_token(&mut token, &mut current)?;
                if let Some(op) = current.take() {
                    ops.push(op);
                }
            }
            '"' if token.is_empty() && current.is_some() => {
                let mut s = String::new();
                let mut closed = false;
                for (_, c) in chars.by_ref() {
                    if c == '"' {
                        closed = true;
                        break;
                    }
                    s.push(c);
                }
                if !closed {
                    return Err(EpdError::UnterminatedString(text[i..].to_owned()));
                }
                if let Some(op) = current.as_mut() {
                    op.operands.push(EpdOperand::Quoted(s));
                }
            }
            c if c.is_whitespace() => finish_token(&mut token, &mut current)?,
            c => token.push(c),
        }
    }
    finish_token(&mut token, &mut current)?;
    // The last operation may lack its ';'.
    if let Some(op) = current {
        ops.push(op);
    }
    Ok(ops)
}

impl fmt::Display for Epd {
    /// The EPD line: four position fields, then ` opcode operands;` per operation. Clocks
    /// other than 0 and 1 that no `hmvc`/`fmvn` operation records (they came from FEN clock
    /// fields) are written as those operations, so that reading the line back restores them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.position.epd())?;
        for op in &self.operations {
            write!(f, " {}", op.opcode)?;
            for operand in &op.operands {
                match operand {
                    EpdOperand::Quoted(s) => write!(f, " \"{s}\"")?,
                    EpdOperand::Plain(s) => {
                        f.write_char(' ')?;
                        f.write_str(s)?;
                    }
                }
            }
            f.write_char(';')?;
        }
        let has = |opcode: &str| self.operations.iter().any(|op| op.opcode == opcode);
        if self.position.halfmove_clock() != 0 && !has("hmvc") {
            write!(f, " hmvc {};", self.position.halfmove_clock())?;
        }
        if self.position.fullmove_number() != 1 && !has("fmvn") {
            write!(f, " fmvn {};", self.position.fullmove_number())?;
        }
        Ok(())
    }
}

impl std::str::FromStr for Epd {
    type Err = EpdError;

    fn from_str(s: &str) -> Result<Epd, EpdError> {
        Epd::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_writes_wac() {
        let line = "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id \"WAC.001\";";
        let epd: Epd = line.parse().unwrap();
        assert_eq!(epd.id(), Some("WAC.001"));
        assert_eq!(epd.best_moves().unwrap().len(), 1);
        assert_eq!(epd.to_string(), line);
    }

    #[test]
    fn clocks_from_fen_fields_are_written_as_operations() {
        let epd: Epd = "4k3/8/8/8/8/8/4P3/4K3 w - - 5 20 ;D1 6".parse().unwrap();
        let again: Epd = epd.to_string().parse().unwrap();
        assert_eq!(again.position, epd.position);
        assert_eq!(epd.to_string(), "4k3/8/8/8/8/8/4P3/4K3 w - - D1 6; hmvc 5; fmvn 20;");
        let start: Epd = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 ;D1 6".parse().unwrap();
        assert_eq!(start.to_string(), "4k3/8/8/8/8/8/4P3/4K3 w - - D1 6;");
    }

    #[test]
    fn perft_suite_lines() {
        let line = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400 ;D3 8902";
        let epd = Epd::parse(line).unwrap();
        assert_eq!(epd.perft_counts().unwrap(), vec![(1, 20), (2, 400), (3, 8902)]);
        assert_eq!(epd.position, Position::startpos());
    }

    #[test]
    fn typed_operations() {
        let epd = Epd::parse(
            "4k3/8/8/8/8/8/4P3/4K3 w - - bm e4 e3; am Kd1; ce -35; acd 12; pv e4 Kd7 e5; c0 \"a comment\"; hmvc 7; fmvn 30;",
        )
        .unwrap();
        assert_eq!(epd.best_moves().unwrap().len(), 2);
        assert_eq!(epd.avoid_moves().unwrap().len(), 1);
        assert_eq!(epd.centipawns(), Ok(Some(-35)));
        assert_eq!(epd.depth(), Ok(Some(12)));
        assert_eq!(epd.pv().unwrap().len(), 3);
        assert_eq!(epd.comment(0), Some("a comment"));
        assert_eq!((epd.position.halfmove_clock(), epd.position.fullmove_number()), (7, 30));
        let bad = Epd::parse("4k3/8/8/8/8/8/4P3/4K3 w - - bm e5;").unwrap();
        assert!(matches!(bad.best_moves(), Err(EpdError::Move { .. })));
    }

    #[test]
    fn errors() {
        assert!(matches!(Epd::parse("8/8/8 w"), Err(EpdError::MissingFields(_))));
        assert!(matches!(Epd::parse("8/8/8/8/8/8/8/8 w - -"), Err(EpdError::Fen(_))));
        assert!(matches!(Epd::parse("4k3/8/8/8/8/8/8/4K3 w - - id \"open"), Err(EpdError::UnterminatedString(_))));
        assert!(matches!(Epd::parse("4k3/8/8/8/8/8/8/4K3 w - - 9x 1;"), Err(EpdError::Opcode(_))));
    }
}
