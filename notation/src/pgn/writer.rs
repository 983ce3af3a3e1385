//! The PGN export format writer (PGN standard, section 8): the Seven Tag Roster first in
//! order, then the other tags; movetext with move numbers, SAN, `$n` NAGs, brace comments and
//! parenthesised variations, wrapped at 80 columns; the termination marker last.

use super::game::{play, PgnGame, PgnNode};
use crate::san::write_san;
use std::fmt::{self, Write};
use std::io;
use tempo_core::{Color, Position};

/// Longest movetext line.
pub const LINE_WIDTH: usize = 80;

const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

fn write_tag(out: &mut impl Write, name: &str, value: &str) -> fmt::Result {
    write!(out, "[{name} \"")?;
    for c in value.chars() {
        match c {
            '"' => out.write_str("\\\"")?,
            '\\' => out.write_str("\\\\")?,
            // A tag pair lives on one line.
            '\n' | '\r' => out.write_char(' ')?,
            c => out.write_char(c)?,
        }
    }
    out.write_str("\"]\n")
}

/// Movetext tokens, joined by spaces and wrapped at [`LINE_WIDTH`].
struct Tokens {
    lines: String,
    line_len: usize,
    /// `(` waiting to be glued to the next token.
    open: usize,
    /// The next token must start a new line (after a `;` comment).
    break_next: bool,
}

impl Tokens {
    fn push(&mut self, token: &str) {
        let mut token = std::borrow::Cow::Borrowed(token);
        if self.open > 0 {
            token = std::borrow::Cow::Owned(format!("{}{}", "(".repeat(self.open), token));
            self.open = 0;
        }
        let len = token.chars().count();
        if self.line_len > 0 && (self.break_next || self.line_len + 1 + len > LINE_WIDTH) {
            self.lines.push('\n');
            self.line_len = 0;
        } else if self.line_len > 0 {
            self.lines.push(' ');
            self.line_len += 1;
        }
        self.break_next = false;
        self.lines.push_str(&token);
        self.line_len += len;
    }

    /// Appends `)` to the previous token (a line never starts with `)`).
    fn close(&mut self) {
        if self.break_next {
            self.lines.push('\n');
            self.line_len = 0;
            self.break_next = false;
        }
        if self.line_len + 1 > LINE_WIDTH {
            // Move the last token (which the parenthesis sticks to) onto a new line.
            let line_start = self.lines.rfind('\n').map_or(0, |i| i + 1);
            if let Some(space) = self.lines[line_start..].rfind(' ') {
                let at = line_start + space;
                self.lines.replace_range(at..=at, "\n");
                self.line_len = self.lines[at + 1..].chars().count();
            }
        }
        self.lines.push(')');
        self.line_len += 1;
    }

    fn comment(&mut self, text: &str) {
        if text.contains('}') {
            // Only a rest-of-line comment can hold a closing brace.
            self.push(&format!(";{text}"));
            self.break_next = true;
        } else {
            // Words are separate tokens so that long comments wrap (the reader turns the line
            // break back into a space). A run of spaces stays with the word before it, so
            // that re-reading gives the same text even where the line breaks.
            let mut words: Vec<String> = Vec::new();
            let mut leading = String::new();
            for piece in text.split(' ') {
                match (piece.is_empty(), words.last_mut()) {
                    (true, Some(last)) => last.push(' '),
                    (true, None) => leading.push(' '),
                    (false, _) => words.push(std::mem::take(&mut leading) + piece),
                }
            }
            match words.len() {
                0 => self.push(&format!("{{{text}}}")),
                1 => self.push(&format!("{{{}}}", words[0])),
                n => {
                    self.push(&format!("{{{}", words[0]));
                    for word in &words[1..n - 1] {
                        self.push(word);
                    }
                    self.push(&format!("{}}}", words[n - 1]));
                }
            }
        }
    }
}

fn write_line(tokens: &mut Tokens, start: &Position, line: &[PgnNode]) {
    let mut pos = *start;
    let mut need_number = true;
    let mut san = String::with_capacity(8);
    for node in line {
        for c in &node.starting_comments {
            tokens.comment(c);
            need_number = true;
        }
        if pos.turn() == Color::White {
            tokens.push(&format!("{}.", pos.fullmove_number()));
        } else if need_number {
            tokens.push(&format!("{}...", pos.fullmove_number()));
        }
        need_number = false;
        san.clear();
        let _ = write_san(&mut san, &pos, node.mv);
        tokens.push(&san);
        // A move's NAGs are a set: a repeat in a node built by hand is written once.
        for (i, nag) in node.nags.iter().enumerate() {
            if !node.nags[..i].contains(nag) {
                tokens.push(&format!("${nag}"));
            }
        }
        for c in &node.comments {
            tokens.comment(c);
            need_number = true;
        }
        for variation in &node.variations {
            tokens.open += 1;
            write_line(tokens, &pos, variation);
            tokens.close();
            need_number = true;
        }
        play(&mut pos, node.mv);
    }
}

/// Writes `game` in PGN export format, followed by a blank line, to text (a `String`, a
/// `Formatter`); [`write_pgn_io`] writes to a file or any other [`io::Write`].
///
/// Missing Seven Tag Roster tags are written as `?` (`????.??.??` for the date); `Result`
/// is always the termination marker ([`PgnGame::export_result`]), as export format requires
/// the two to agree; a non-standard start position without a `FEN` tag gets
/// `SetUp` and `FEN` tags.
///
/// # Errors
/// Only those of `out`.
pub fn write_pgn(out: &mut impl Write, game: &PgnGame) -> fmt::Result {
    let result = game.export_result();
    for name in ROSTER {
        let value = match name {
            // Export format: the tag is the termination marker, whatever the tag said.
            "Result" => result.as_str(),
            "Date" => game.tag(name).unwrap_or("????.??.??"),
            _ => game.tag(name).unwrap_or("?"),
        };
        write_tag(out, name, value)?;
    }
    let has_fen = game.tags.iter().any(|(n, _)| n == "FEN");
    if !has_fen && game.start != Position::startpos() {
        if game.tag("SetUp").is_none() {
            write_tag(out, "SetUp", "1")?;
        }
        write_tag(out, "FEN", &game.start.fen())?;
    }
    for (name, value) in &game.tags {
        if !ROSTER.contains(&name.as_str()) {
            write_tag(out, name, value)?;
        }
    }
    out.write_char('\n')?;
    let mut tokens = Tokens { lines: String::new(), line_len: 0, open: 0, break_next: false };
    for c in &game.comments {
        tokens.comment(c);
    }
    write_line(&mut tokens, &game.start, &game.moves);
    tokens.push(result.as_str());
    out.write_str(&tokens.lines)?;
    out.write_str("\n\n")
}

/// Writes `game` as [`write_pgn`] does to a file, a socket, stdout or any other
/// [`io::Write`] (UTF-8). Wrap a file in a [`std::io::BufWriter`] when writing many games.
///
/// ```no_run
/// use std::fs::File;
/// use tempo_core::{Game, Position};
/// use tempo_notation::{write_pgn_io, PgnGame};
///
/// let game = PgnGame::from_game(&Game::new(Position::startpos()));
/// write_pgn_io(&mut File::create("game.pgn")?, &game)?;
/// # Ok::<(), std::io::Error>(())
/// ```
///
/// # Errors
/// Only those of `out`; what was written before the error stays written.
pub fn write_pgn_io(out: &mut impl io::Write, game: &PgnGame) -> io::Result<()> {
    let mut text = IoText { out, error: None };
    match write_pgn(&mut text, game) {
        Ok(()) => Ok(()),
        // `write_pgn` fails only when its output does, which kept the reason.
        Err(fmt::Error) => Err(text.error.unwrap_or_else(|| io::Error::other("formatting the game failed"))),
    }
}

/// An [`io::Write`] as a [`fmt::Write`] that keeps the I/O error `fmt::Error` cannot carry.
struct IoText<'a, W: io::Write> {
    out: &'a mut W,
    error: Option<io::Error>,
}

impl<W: io::Write> Write for IoText<'_, W> {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        self.out.write_all(text.as_bytes()).map_err(|e| {
            self.error = Some(e);
            fmt::Error
        })
    }
}

/// `game` in PGN export format, as a string.
pub fn pgn_string(game: &PgnGame) -> String {
    let mut out = String::new();
    // Writing to a String cannot fail.
    let _ = write_pgn(&mut out, game);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use tempo_core::{Game, Move, Square};

    fn game() -> PgnGame {
        let mut game = Game::new(Position::startpos());
        for (from, to) in [(Square::F2, Square::F3), (Square::E7, Square::E5), (Square::G2, Square::G4)] {
            game.play(Move::normal(from, to)).unwrap();
        }
        game.play(Move::normal(Square::D8, Square::H4)).unwrap();
        PgnGame::from_game(&game)
    }

    #[test]
    fn io_writer_writes_what_the_text_writer_writes() {
        let game = game();
        let mut bytes = Vec::new();
        write_pgn_io(&mut bytes, &game).unwrap();
        assert_eq!(String::from_utf8(bytes).unwrap(), pgn_string(&game));
        assert!(pgn_string(&game).ends_with("1. f3 e5 2. g4 Qh4# {Black mates} 0-1\n\n"));
    }

    /// Accepts `room` bytes, then fails as a full disk does.
    struct FullDisk {
        room: usize,
    }

    impl io::Write for FullDisk {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if self.room == 0 {
                return Err(io::Error::new(io::ErrorKind::StorageFull, "no space left"));
            }
            let n = buf.len().min(self.room);
            self.room -= n;
            Ok(n)
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn io_writer_reports_the_output_error() {
        let error = write_pgn_io(&mut FullDisk { room: 40 }, &game()).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::StorageFull);
        assert_eq!(error.to_string(), "no space left");
    }
}
