//! The streaming PGN reader: tags, movetext, variations, and recovery after broken games.
//!
//! The reader holds one game's state at a time (a position per open variation) and a fixed
//! input buffer, so a file of any size is read in constant memory. Every SAN move is resolved
//! and played; a game with an error is reported with its number, line and column, the rest of
//! it is skipped (to its termination marker or the next tag section), and reading goes on.

use super::source::{is_line_end, Source};
use super::visitor::Visitor;
use super::PgnResult;
use crate::san::{parse_san_in, resolve_fast, SanError, SanMove};
use std::io::Read;
use std::ops::Range;
use tempo_core::{CastlingMode, FenError, Move, Position, PositionError, Setup};

/// Variations nested deeper than this are refused (keeps memory and recursion bounded).
pub const MAX_VARIATION_DEPTH: usize = 128;

/// Longest comment or tag value accepted (keeps memory bounded on hostile input).
pub const MAX_TEXT: usize = 1 << 20;

/// Longest token accepted (a SAN move is at most 7 characters plus annotations).
const MAX_TOKEN: usize = 64;

/// What is wrong with a game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PgnErrorKind {
    /// Reading the input failed. The stream ends after it. (The `std::io::Error` itself is
    /// neither `Clone` nor `Eq`, so its kind and message are kept.)
    #[error("read error: {message}")]
    Io {
        /// What kind of failure the operating system or the reader reported.
        kind: std::io::ErrorKind,
        /// The error's message.
        message: String,
    },
    /// A tag pair is malformed: no name or one longer than 64 bytes, a value that is not a
    /// quoted string, is not closed on its line or is longer than 1 MiB, or no closing
    /// `]`; carries what is wrong.
    #[error("malformed tag pair: {0}")]
    Tag(String),
    /// The `[FEN]` tag gives no legal position, even read leniently (clocks added, any castling
    /// notation, unbacked castling rights and en passant square dropped).
    #[error("invalid fen {fen:?}: {error}")]
    Fen {
        /// The tag's value.
        fen: String,
        /// Why the strict reading refused it.
        error: FenError,
    },
    /// The `[Variant]` tag names a game other than standard chess or Chess960; carries the tag's
    /// value.
    #[error("unsupported variant {0:?}")]
    UnsupportedVariant(String),
    /// A move of the movetext is not a legal move where it stands (or is a null move in check).
    #[error("{0}")]
    Move(SanError),
    /// The movetext holds something that is no move, move number, result, comment or
    /// annotation: a `$` without a number from 0 to 255, a stray `[`, `]`, `}` or `"`, or a
    /// run of `!` and `?` after a move that is no suffix annotation; carries it.
    #[error("unexpected {0:?} in movetext")]
    UnexpectedToken(String),
    /// A movetext symbol is longer than 64 bytes (no SAN move comes close).
    #[error("token longer than {MAX_TOKEN} bytes")]
    TokenTooLong,
    /// A `{` comment has no `}` before the end of input or before a blank line followed by a
    /// tag pair, or is longer than 1 MiB.
    #[error("comment not closed (before the end of input or the next game's tags)")]
    UnclosedComment,
    /// A variation's `(` has no matching `)` before the end of input or the next game's tags.
    #[error("variation not closed before the end of the game")]
    UnclosedVariation,
    /// A `)` with no variation open.
    #[error("')' without an open variation")]
    UnmatchedParenthesis,
    /// A `(` where no move precedes it on its line, so the variation has no move to replace.
    #[error("variation before any move")]
    VariationWithoutMove,
    /// Variations nested more than [`MAX_VARIATION_DEPTH`] deep.
    #[error("variations nested deeper than {MAX_VARIATION_DEPTH}")]
    TooDeep,
    /// A game result (`1-0`, `0-1`, `1/2-1/2`, `*`) while a variation is open; carries it.
    #[error("result {0:?} inside a variation")]
    ResultInVariation(String),
}

impl PgnErrorKind {
    fn io(error: &std::io::Error) -> PgnErrorKind {
        PgnErrorKind::Io { kind: error.kind(), message: error.to_string() }
    }
}

/// A broken game: which one, where, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("game {game}, line {line}, column {column}: {kind}")]
pub struct PgnError {
    /// 1-based number of the game in the input (broken games count).
    pub game: u64,
    /// 1-based line of the offending token.
    pub line: u64,
    /// 1-based column (in bytes) of the offending token.
    pub column: u64,
    /// What is wrong.
    pub kind: PgnErrorKind,
}

/// Reads games one after another from any byte stream.
///
/// ```
/// use tempo_notation::{PgnReader, PgnGame};
///
/// let pgn = "[Event \"?\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";
/// let games: Vec<_> = PgnReader::new(pgn.as_bytes()).games().collect();
/// let game: &PgnGame = games[0].as_ref().unwrap();
/// assert_eq!(game.mainline().len(), 7);
/// assert!(game.final_position().is_checkmate());
/// ```
pub struct PgnReader<R> {
    src: Source<R>,
    games: u64,
    done: bool,
    token: Vec<u8>,
    text: String,
    /// The current game's `[FEN]` and `[Variant]` values, with the line and column of their
    /// tag pairs (where an error in them is reported).
    fen: Option<(String, u64, u64)>,
    variant: Option<(String, u64, u64)>,
    /// The current game has a tag, a move or a result (comments alone do not make a game).
    substance: bool,
    /// Where the game last read starts and ends in the input (see [`PgnReader::game_span`]).
    span: Range<u64>,
}

fn result_of(token: &[u8]) -> Option<PgnResult> {
    match token {
        b"1-0" => Some(PgnResult::WhiteWins),
        b"0-1" => Some(PgnResult::BlackWins),
        b"1/2-1/2" | b"\xc2\xbd-\xc2\xbd" => Some(PgnResult::Draw),
        b"*" => Some(PgnResult::Ongoing),
        _ => None,
    }
}

fn suffix_nag(token: &[u8]) -> Option<u8> {
    match token {
        b"!" => Some(1),
        b"?" => Some(2),
        b"!!" => Some(3),
        b"??" => Some(4),
        b"!?" => Some(5),
        b"?!" => Some(6),
        _ => None,
    }
}

/// Bytes that end a symbol token.
#[inline]
fn is_delimiter(b: u8) -> bool {
    matches!(
        b,
        b' ' | b'\t' | b'\r' | b'\n' | b'{' | b'}' | b'(' | b')' | b'[' | b']' | b';' | b'$' | b'"' | 0x0b | 0x0c
    )
}

/// The castling mode a `[Variant]` tag asks for; `Err` for variants with other rules.
fn variant_mode(variant: &str) -> Result<CastlingMode, ()> {
    let v = variant.trim().to_ascii_lowercase();
    match v.as_str() {
        "" | "standard" | "chess" | "normal" | "from position" | "fromposition" => Ok(CastlingMode::Standard),
        "chess960" | "chess 960" | "fischerandom" | "fischerrandom" | "fischer random" | "960" | "frc" => {
            Ok(CastlingMode::Chess960)
        }
        _ => Err(()),
    }
}

/// Reads a `[FEN]` tag as leniently as PGN writers require, as python-chess does:
/// - whitespace runs and a missing clock pair (`0 1`) are taken, as by every lenient FEN
///   reader ([`tempo_core::fen::lenient_fields`]);
/// - the castling field may be in any notation (`KQkq`, X-FEN, Shredder-FEN `HAha`), and the
///   game is Chess960 when its castling rights are not standard ones (a king off the e-file or
///   a rook off the a- and h-files), with or without a `[Variant]` tag: such a FEN describes
///   a Chess960 position whatever the tags say, and reading it as standard would lose the
///   rights (`O-O` would then be "no such move");
/// - castling rights or an en passant square the position cannot back are dropped.
///
/// A FEN that reads strictly in `mode` keeps `mode`, so standard games stay standard. The
/// error of the strict reading is reported if nothing works.
fn lenient_fen(fen: &str, mode: CastlingMode) -> Result<Position, FenError> {
    let strict = Position::from_fen(fen, mode);
    let Err(error) = strict else { return strict };
    // Chess960 mode reads every castling notation (`K`/`Q` are the outermost rooks, which
    // for a standard setup are the corner rooks); the validator's repaired position drops
    // the rights and the en passant square the board cannot back. The mode is decided
    // afterwards from the rights that survive.
    let repaired = Setup::from_fen(fen, CastlingMode::Chess960).ok().and_then(|setup| {
        Position::from_setup(setup, CastlingMode::Chess960).or_else(PositionError::into_repaired).ok()
    });
    Ok(with_inferred_mode(repaired.ok_or(error)?, mode))
}

/// `pos` (read in Chess960 mode) in the `wanted` mode if its castling rights fit that mode:
/// a standard game stays standard unless its rights need Chess960 (python-chess's
/// `has_chess960_castling_rights`).
fn with_inferred_mode(pos: Position, wanted: CastlingMode) -> Position {
    let mut narrowed = pos;
    match narrowed.set_castling_mode(wanted) {
        Ok(()) => narrowed,
        Err(_) => pos,
    }
}

/// How a brace comment ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CommentEnd {
    /// At its `}`.
    Closed,
    /// Without a `}`: at the end of the input, at the next game's tags, or too long.
    Unclosed,
}

struct Lines {
    /// Position before the last move of the current line (for a variation to branch from).
    before: Option<Position>,
    current: Position,
    stack: Vec<(Option<Position>, Position)>,
}

impl<R: Read> PgnReader<R> {
    /// A reader over `inner` (a leading UTF-8 byte-order mark is skipped). The reader
    /// reads `inner` in large blocks into a buffer of its own, so a `File` needs no
    /// `BufReader` around it.
    pub fn new(inner: R) -> PgnReader<R> {
        PgnReader {
            src: Source::new(inner),
            games: 0,
            done: false,
            token: Vec::with_capacity(MAX_TOKEN),
            text: String::new(),
            fen: None,
            variant: None,
            substance: false,
            span: 0..0,
        }
    }

    /// Bytes consumed so far (for progress reports).
    pub fn bytes_read(&self) -> u64 {
        self.src.offset
    }

    /// Number of games started so far.
    pub fn games_read(&self) -> u64 {
        self.games
    }

    /// The bytes of the input that the game last returned by [`PgnReader::read_game`] (a
    /// game or a broken game's error) occupies: from its first byte after the whitespace
    /// before it to the byte after the last one the reader consumed for it. A game ended by
    /// its termination marker ends right after the marker; one ended by the next game's tags
    /// or the end of the input may include the whitespace before them. Offsets count the
    /// input's bytes from its start (a byte-order mark included), so that a program can
    /// replace one game of a file and keep every other byte as it was.
    pub fn game_span(&self) -> Range<u64> {
        self.span.clone()
    }

    /// An iterator over the games as [`super::PgnGame`] trees.
    pub fn games(self) -> Games<R> {
        Games { reader: self, builder: super::GameBuilder::default() }
    }

    fn error(&self, line: u64, column: u64, kind: PgnErrorKind) -> PgnError {
        PgnError { game: self.games, line, column, kind }
    }

    /// Skips whitespace, `%` escape lines and byte-order marks (files joined by `cat` keep
    /// theirs) between and inside games.
    fn skip_space(&mut self) {
        loop {
            self.src.skip_whitespace();
            if self.src.column == 1 && self.src.peek() == Some(b'%') {
                self.src.skip_line();
            } else if !self.src.skip_byte_order_mark() {
                return;
            }
        }
    }

    /// Reads the next game into `visitor`. `None` at the end of the input.
    ///
    /// # Errors
    /// `Some(Err(PgnError))` for a broken game, with its number, line and column; the reader
    /// has then skipped the rest of it and is ready for the next game. A read error ends the
    /// stream after being reported once.
    pub fn read_game<V: Visitor>(&mut self, visitor: &mut V) -> Option<Result<V::Output, PgnError>> {
        loop {
            if self.done {
                return None;
            }
            self.skip_space();
            if self.src.peek().is_none() {
                self.done = true;
                let (line, column) = (self.src.line, self.src.column);
                return self.src.take_error().map(|e| Err(self.error(line, column, PgnErrorKind::io(&e))));
            }
            self.games += 1;
            self.substance = false;
            let start = self.src.offset;
            visitor.begin_game();
            let result = self.read_tags(visitor).and_then(|start| self.read_movetext(visitor, start));
            if let Some(error) = self.src.take_error() {
                // The game was cut short by a read error, not by its end.
                self.done = true;
                let (line, column) = (self.src.line, self.src.column);
                return Some(Err(self.error(line, column, PgnErrorKind::io(&error))));
            }
            match result {
                Ok(()) if !self.substance => {
                    // Only comments (e.g. after the last game's result): not a game.
                    self.games -= 1;
                }
                Ok(()) => {
                    self.span = start..self.src.offset;
                    return Some(Ok(visitor.end_game()));
                }
                Err((err, in_tags)) => {
                    self.skip_game(in_tags);
                    self.span = start..self.src.offset;
                    return Some(Err(err));
                }
            }
        }
    }

    fn read_tags<V: Visitor>(&mut self, visitor: &mut V) -> Result<Position, (PgnError, bool)> {
        self.fen = None;
        self.variant = None;
        loop {
            self.skip_space();
            if self.src.peek() != Some(b'[') {
                break;
            }
            let (line, column) = (self.src.line, self.src.column);
            self.src.advance();
            let tag_error =
                |this: &Self, what: &str| (this.error(line, column, PgnErrorKind::Tag(what.to_owned())), true);
            self.src.skip_whitespace();
            self.token.clear();
            while let Some(b) = self.src.peek() {
                if b.is_ascii_alphanumeric()
                    || b == b'_'
                    || b == b'+'
                    || b == b'#'
                    || b == b'='
                    || b == b':'
                    || b == b'-'
                {
                    if self.token.len() >= MAX_TOKEN {
                        return Err(tag_error(self, "tag name too long"));
                    }
                    self.token.push(b);
                    self.src.advance();
                } else {
                    break;
                }
            }
            if self.token.is_empty() {
                return Err(tag_error(self, "missing tag name"));
            }
            self.src.skip_whitespace();
            if self.src.next_byte() != Some(b'"') {
                return Err(tag_error(self, "tag value must be a quoted string"));
            }
            let value = self.read_tag_value().map_err(|what| tag_error(self, what))?;
            self.src.skip_whitespace();
            if self.src.next_byte() != Some(b']') {
                return Err(tag_error(self, "missing ']'"));
            }
            let name = String::from_utf8_lossy(&self.token).into_owned();
            let value = String::from_utf8_lossy(&value).into_owned();
            self.substance = true;
            visitor.tag(&name, &value);
            if name.eq_ignore_ascii_case("FEN") {
                self.fen = Some((value, line, column));
            } else if name.eq_ignore_ascii_case("Variant") {
                self.variant = Some((value, line, column));
            }
        }
        let mode = match &self.variant {
            Some((v, line, column)) => variant_mode(v)
                .map_err(|()| (self.error(*line, *column, PgnErrorKind::UnsupportedVariant(v.clone())), false))?,
            None => CastlingMode::Standard,
        };
        let start = match &self.fen {
            None => {
                let mut pos = Position::startpos();
                // Standard start squares are always valid in Chess960 mode.
                let _ = pos.set_castling_mode(mode);
                pos
            }
            Some((fen, line, column)) => lenient_fen(fen, mode)
                .map_err(|error| (self.error(*line, *column, PgnErrorKind::Fen { fen: fen.clone(), error }), false))?,
        };
        visitor.begin_movetext(&start);
        Ok(start)
    }

    /// Reads a tag value after its opening quote, unescaping `\"` and `\\`, through its
    /// closing quote.
    ///
    /// # Errors
    /// What is wrong, for [`PgnErrorKind::Tag`]. A value is never continued on the next
    /// line: the line end is left unread, so that recovery skips the rest of this line only.
    fn read_tag_value(&mut self) -> Result<Vec<u8>, &'static str> {
        let mut value = Vec::new();
        loop {
            let Some(b) = self.src.peek().filter(|&b| !is_line_end(b)) else { return Err("unterminated tag value") };
            if value.len() > MAX_TEXT {
                return Err("tag value too long");
            }
            self.src.advance();
            match b {
                b'"' => return Ok(value),
                // Any other backslash is kept as written.
                b'\\' => match self.src.peek() {
                    Some(c @ (b'"' | b'\\')) => {
                        self.src.advance();
                        value.push(c);
                    }
                    _ => value.push(b'\\'),
                },
                _ => value.push(b),
            }
        }
    }

    fn read_movetext<V: Visitor>(&mut self, visitor: &mut V, start: Position) -> Result<(), (PgnError, bool)> {
        let mut lines = Lines { before: None, current: start, stack: Vec::new() };
        let result = self.movetext_loop(visitor, &mut lines).map_err(|e| (e, false))?;
        self.substance |= result.is_some();
        visitor.result(result);
        Ok(())
    }

    fn movetext_loop<V: Visitor>(&mut self, visitor: &mut V, lines: &mut Lines) -> Result<Option<PgnResult>, PgnError> {
        let mut moves = tempo_core::MoveList::new();
        loop {
            self.skip_space();
            let (line, column) = (self.src.line, self.src.column);
            let Some(b) = self.src.peek() else {
                if !lines.stack.is_empty() {
                    return Err(self.error(line, column, PgnErrorKind::UnclosedVariation));
                }
                return Ok(None);
            };
            match b {
                b'[' if column == 1 => {
                    // The next game's tags: this one ended without a termination marker.
                    if !lines.stack.is_empty() {
                        return Err(self.error(line, column, PgnErrorKind::UnclosedVariation));
                    }
                    return Ok(None);
                }
                b'{' => {
                    self.src.advance();
                    self.read_brace_comment(line, column)?;
                    visitor.comment(&self.text);
                }
                b';' => {
                    self.src.advance();
                    self.read_line_comment();
                    visitor.comment(&self.text);
                }
                b'(' => {
                    self.src.advance();
                    let Some(before) = lines.before else {
                        return Err(self.error(line, column, PgnErrorKind::VariationWithoutMove));
                    };
                    if lines.stack.len() >= MAX_VARIATION_DEPTH {
                        return Err(self.error(line, column, PgnErrorKind::TooDeep));
                    }
                    lines.stack.push((lines.before, lines.current));
                    lines.current = before;
                    lines.before = None;
                    visitor.begin_variation();
                }
                b')' => {
                    self.src.advance();
                    let Some((before, current)) = lines.stack.pop() else {
                        return Err(self.error(line, column, PgnErrorKind::UnmatchedParenthesis));
                    };
                    lines.before = before;
                    lines.current = current;
                    visitor.end_variation();
                }
                b'$' => {
                    self.src.advance();
                    let mut n: u32 = 0;
                    let mut digits = 0;
                    while let Some(d @ b'0'..=b'9') = self.src.peek() {
                        self.src.advance();
                        n = (n * 10 + u32::from(d - b'0')).min(1000);
                        digits += 1;
                    }
                    match u8::try_from(n) {
                        Ok(nag) if digits > 0 => visitor.nag(nag),
                        _ => return Err(self.error(line, column, PgnErrorKind::UnexpectedToken(format!("${n}")))),
                    }
                }
                _ => {
                    let before = self.src.offset;
                    self.read_symbol(line, column)?;
                    if self.token.is_empty() && self.src.offset != before {
                        continue; // stray dots
                    }
                    if self.token.is_empty() {
                        // A lone delimiter that cannot start anything (`]`, `}`, `"`).
                        self.src.advance();
                        return Err(self.error(line, column, PgnErrorKind::UnexpectedToken(char::from(b).to_string())));
                    }
                    if let Some(result) = result_of(&self.token) {
                        if !lines.stack.is_empty() {
                            let text = String::from_utf8_lossy(&self.token).into_owned();
                            return Err(self.error(line, column, PgnErrorKind::ResultInVariation(text)));
                        }
                        return Ok(Some(result));
                    }
                    if self.token.iter().all(u8::is_ascii_digit) {
                        // A move number: digits then dots (dots already consumed).
                        continue;
                    }
                    if self.token == b"e" && self.src.peek() == Some(b'.') || self.token == b"ep" {
                        // `e.p.` (or `ep`) after an en passant capture, as old sources write.
                        for expected in [b'.', b'p', b'.'] {
                            if self.src.peek() == Some(expected) {
                                self.src.advance();
                            }
                        }
                        continue;
                    }
                    if let Some(nag) = suffix_nag(&self.token) {
                        visitor.nag(nag);
                        continue;
                    }
                    self.play_token(visitor, lines, &mut moves, line, column)?;
                }
            }
        }
    }

    /// Reads a symbol into `self.token`. A leading move number (`12.`, `12...`) is returned
    /// alone as its digits, its dots consumed, so that `1.e4` is two tokens.
    #[inline]
    fn read_symbol(&mut self, line: u64, column: u64) -> Result<(), PgnError> {
        self.token.clear();
        let mut digits_only = true;
        while let Some(b) = self.src.peek() {
            if is_delimiter(b) {
                break;
            }
            if b == b'.' {
                if digits_only && !self.token.is_empty() {
                    while self.src.peek() == Some(b'.') {
                        self.src.advance();
                    }
                    return Ok(());
                }
                if self.token.is_empty() {
                    // Stray dots (`...` after a comment): skip them.
                    self.src.advance();
                    continue;
                }
                break;
            }
            digits_only &= b.is_ascii_digit();
            if self.token.len() >= MAX_TOKEN {
                return Err(self.error(line, column, PgnErrorKind::TokenTooLong));
            }
            self.token.push(b);
            self.src.advance();
        }
        Ok(())
    }

    fn play_token<V: Visitor>(
        &mut self,
        visitor: &mut V,
        lines: &mut Lines,
        moves: &mut tempo_core::MoveList,
        line: u64,
        column: u64,
    ) -> Result<(), PgnError> {
        // Suffix annotations glued to the move (`Nd4?!`) become NAGs after it.
        let mut end = self.token.len();
        while end > 0 && matches!(self.token[end - 1], b'!' | b'?') {
            end -= 1;
        }
        let nag = suffix_nag(&self.token[end..]);
        let pos = lines.current;
        let san = &self.token[..end];
        let m = match SanMove::parse_bytes(san) {
            Some(SanMove::Null) => {
                if pos.is_check() {
                    let text = String::from_utf8_lossy(san).into_owned();
                    return Err(self.error(line, column, PgnErrorKind::Move(SanError::NullInCheck(text))));
                }
                Move::NULL
            }
            parsed => {
                moves.clear();
                // A normal move needs only the moves onto its square; castling the full list.
                match parsed {
                    Some(SanMove::Normal { to, .. }) => pos.legal_moves_onto(to, moves),
                    _ => pos.legal_moves_into(moves),
                }
                match parsed.map(|p| resolve_fast(p, &pos, moves)) {
                    Some(Some(m)) => m,
                    _ => {
                        // Slow path: the full lenient reader, with its precise error.
                        moves.clear();
                        pos.legal_moves_into(moves);
                        let text = String::from_utf8_lossy(san).into_owned();
                        parse_san_in(&pos, moves, &text).map_err(|e| self.error(line, column, PgnErrorKind::Move(e)))?
                    }
                }
            }
        };
        self.substance = true;
        visitor.play(&pos, m);
        lines.before = Some(pos);
        if m.is_null() {
            lines.current.play_null();
        } else {
            lines.current.play_unchecked(m);
        }
        if let Some(nag) = nag {
            visitor.nag(nag);
        } else if end < self.token.len() {
            let text = String::from_utf8_lossy(&self.token[end..]).into_owned();
            return Err(self.error(line, column, PgnErrorKind::UnexpectedToken(text)));
        }
        Ok(())
    }

    /// `true` at the start of a line that opens a tag pair (`[Event "`, not `[%clk`).
    fn at_tag_line(&mut self) -> bool {
        self.src.column == 1
            && self.src.peek() == Some(b'[')
            && self.src.peek2().is_some_and(|b| b.is_ascii_alphabetic())
    }

    /// Consumes a brace comment after its `{`, handing each byte of its text to `keep` (a
    /// line end as one space) and stopping as unclosed when `keep` refuses one.
    ///
    /// Inside a comment everything up to `}` is text, lines that look like tag pairs included
    /// (`{see game\n[Event "Foo"] for details}` quotes a header). Yet a comment whose `}` is
    /// missing must not swallow the games after it, and a streaming reader cannot look ahead
    /// for a `}` that may never come. The rule: a line that opens a tag pair ends the comment,
    /// unclosed, only when the line before it is blank (whitespace only). Games are separated
    /// by a blank line (export format requires it, and writers emit it), while a header quoted
    /// in a comment continues the comment's text. The price is a comment that itself holds a
    /// blank line followed by a tag-like line: it reads as a missing `}`, which is reported,
    /// and reading resumes at that line. An unclosed comment followed by tags with no blank
    /// line before them runs on to the next blank line followed by tags, so at worst one more
    /// game is lost.
    fn scan_brace_comment(&mut self, mut keep: impl FnMut(u8) -> bool) -> CommentEnd {
        // The line of the `{` is not blank.
        let (mut line_blank, mut previous_blank) = (false, false);
        let mut line = self.src.line;
        loop {
            if previous_blank && self.at_tag_line() {
                return CommentEnd::Unclosed;
            }
            match self.src.next_byte() {
                None => return CommentEnd::Unclosed,
                Some(b'}') => return CommentEnd::Closed,
                Some(b) if is_line_end(b) => {
                    // The source counts a CR LF pair as one line end: so does the comment.
                    if self.src.line != line {
                        line = self.src.line;
                        previous_blank = std::mem::replace(&mut line_blank, true);
                        // A line break in a comment is whitespace; a space keeps comments on
                        // one line and makes writing and re-reading them exact.
                        if !keep(b' ') {
                            return CommentEnd::Unclosed;
                        }
                    }
                }
                Some(b) => {
                    line_blank &= matches!(b, b' ' | b'\t' | 0x0b | 0x0c);
                    if !keep(b) {
                        return CommentEnd::Unclosed;
                    }
                }
            }
        }
    }

    fn read_brace_comment(&mut self, line: u64, column: u64) -> Result<(), PgnError> {
        let mut bytes = Vec::new();
        let end = self.scan_brace_comment(|b| {
            bytes.push(b);
            bytes.len() <= MAX_TEXT
        });
        if end == CommentEnd::Unclosed {
            return Err(self.error(line, column, PgnErrorKind::UnclosedComment));
        }
        self.text = String::from_utf8_lossy(&bytes).trim().to_owned();
        Ok(())
    }

    fn read_line_comment(&mut self) {
        let mut bytes = Vec::new();
        while let Some(b) = self.src.peek() {
            if is_line_end(b) {
                break;
            }
            self.src.advance();
            bytes.push(b);
        }
        self.text = String::from_utf8_lossy(&bytes).trim().to_owned();
    }

    /// Skips the rest of a broken game: its tag section (if the error was there), then its
    /// movetext up to a termination marker or the next tag section.
    fn skip_game(&mut self, in_tags: bool) {
        if in_tags {
            self.src.skip_line();
            loop {
                self.skip_space();
                if self.src.peek() == Some(b'[') {
                    self.src.skip_line();
                } else {
                    break;
                }
            }
        }
        loop {
            self.skip_space();
            let Some(b) = self.src.peek() else { return };
            match b {
                b'[' if self.src.column == 1 => return,
                b'{' => {
                    self.src.advance();
                    // Closed or not, what follows is the rest of the game or the next one.
                    let _ = self.scan_brace_comment(|_| true);
                }
                b';' => self.src.skip_line(),
                _ => {
                    let (line, column) = (self.src.line, self.src.column);
                    let before = self.src.offset;
                    if self.read_symbol(line, column).is_err() {
                        // Overlong garbage: drop the rest of it.
                        while self.src.peek().is_some_and(|c| !is_delimiter(c)) {
                            self.src.advance();
                        }
                    }
                    if self.token.is_empty() && self.src.offset == before {
                        self.src.advance();
                    } else if result_of(&self.token).is_some() {
                        return;
                    }
                }
            }
        }
    }
}

/// Where reading has got: games started, bytes consumed, the line and column of the next
/// byte (the input itself is not shown, so that any `R` will do).
impl<R> std::fmt::Debug for PgnReader<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgnReader")
            .field("games_read", &self.games)
            .field("bytes_read", &self.src.offset)
            .field("line", &self.src.line)
            .field("column", &self.src.column)
            .finish_non_exhaustive()
    }
}

/// Iterator over the games of a [`PgnReader`] as [`super::PgnGame`] trees.
pub struct Games<R> {
    reader: PgnReader<R>,
    builder: super::GameBuilder,
}

/// The reader's state (see [`PgnReader`]'s `Debug`).
impl<R> std::fmt::Debug for Games<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Games").field("reader", &self.reader).finish_non_exhaustive()
    }
}

impl<R> Games<R> {
    /// The underlying reader (for progress: bytes and games read).
    pub fn reader(&self) -> &PgnReader<R> {
        &self.reader
    }
}

impl<R: Read> Iterator for Games<R> {
    type Item = Result<super::PgnGame, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.reader.read_game(&mut self.builder)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgn::PgnGame;

    fn lenient(fen: &str) -> Position {
        lenient_fen(fen, CastlingMode::Standard).unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    #[test]
    fn debug_shows_how_far_reading_has_got() {
        let mut games = PgnReader::new(&b"1. e4 e5 *\n\n1. d4 *\n"[..]).games();
        assert_eq!(
            format!("{games:?}"),
            "Games { reader: PgnReader { games_read: 0, bytes_read: 0, line: 1, column: 1, .. }, .. }"
        );
        assert!(games.next().is_some_and(|g| g.is_ok()));
        assert_eq!(
            format!("{:?}", games.reader()),
            "PgnReader { games_read: 1, bytes_read: 10, line: 1, column: 11, .. }"
        );
    }

    #[test]
    fn game_spans_cover_each_game_and_nothing_else() {
        let text = "\u{feff}[Event \"A\"]\n\n1. e4 e5 1-0\n\n{a remark}\n[Event \"B\"]\n1. d4 $1 (1. c4) *\n\
                    \n[FEN \"broken\"]\n\n1. e4 *\n\n[Event \"C\"]\n\n1. Nf3\n";
        let mut reader = PgnReader::new(text.as_bytes());
        let mut spans = Vec::new();
        while let Some(game) = reader.read_game(&mut crate::pgn::GameBuilder::default()) {
            let span = reader.game_span();
            spans.push((game.is_ok(), &text[span.start as usize..span.end as usize]));
        }
        assert_eq!(
            spans,
            [
                (true, "[Event \"A\"]\n\n1. e4 e5 1-0"),
                (true, "[Event \"B\"]\n1. d4 $1 (1. c4) *"),
                (false, "[FEN \"broken\"]\n\n1. e4 *"),
                (true, "[Event \"C\"]\n\n1. Nf3\n"),
            ]
        );
    }

    #[test]
    fn chess960_is_inferred_from_castling_rights() {
        for fen in [
            // Shredder-FEN naming inner rooks.
            "nrk3rn/pppppppp/8/8/8/8/PPPPPPPP/NRK3RN w GBgb - 0 1",
            // X-FEN: `K`/`Q` are the outermost rooks, here on b and g.
            "nrk3rn/pppppppp/8/8/8/8/PPPPPPPP/NRK3RN w KQkq - 0 1",
            // Shredder-FEN of a king on the e-file between rooks off the corners.
            "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1",
        ] {
            let pos = lenient(fen);
            assert_eq!(pos.castling_mode(), CastlingMode::Chess960, "{fen}");
            assert_eq!(pos.castling_rights().rooks().count(), 4, "{fen}");
        }
        // One right off the corners is enough (python-chess agrees): `Q` is the b1 rook.
        let pos = lenient("r3k2r/8/8/8/8/8/8/1R2K2R w KQkq - 0 1");
        assert_eq!(pos.castling_mode(), CastlingMode::Chess960);
        assert_eq!(pos.shredder_fen(), "r3k2r/8/8/8/8/8/8/1R2K2R w HBha - 0 1");
        // Rights dropped for want of a rook do not decide: what is left does.
        let pos = lenient("r3k3/8/8/8/8/8/8/1R2K2R w KQkq - 0 1");
        assert_eq!(pos.castling_mode(), CastlingMode::Chess960);
        assert_eq!(pos.shredder_fen(), "r3k3/8/8/8/8/8/8/1R2K2R w HBa - 0 1");
    }

    #[test]
    fn standard_rights_keep_standard_games_standard() {
        for (fen, expected) in [
            ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"),
            // Clocks left out.
            ("r3k2r/8/8/8/8/8/8/R3K2R b Kq -", "r3k2r/8/8/8/8/8/8/R3K2R b Kq - 0 1"),
            // Standard rights in Shredder letters or out of order are still standard ones.
            ("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"),
            ("r3k2r/8/8/8/8/8/8/R3K2R w qkQK - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"),
            // Rights and an en passant square the position cannot back are dropped.
            ("4k3/8/8/8/8/8/4P3/4K3 w KQkq e6", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"),
            ("r3k3/8/8/8/8/8/8/R3K3 w KQkq - 0 1", "r3k3/8/8/8/8/8/8/R3K3 w Qq - 0 1"),
        ] {
            let pos = lenient(fen);
            assert_eq!(pos.castling_mode(), CastlingMode::Standard, "{fen}");
            assert_eq!(pos.fen(), expected, "{fen}");
        }
        // A `[Variant]` tag asking for Chess960 keeps it, even with standard rights.
        let pos = lenient_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", CastlingMode::Chess960).unwrap();
        assert_eq!(pos.castling_mode(), CastlingMode::Chess960);
    }

    #[test]
    fn unreadable_fens_report_the_strict_error() {
        assert!(matches!(lenient_fen("not a fen", CastlingMode::Standard), Err(FenError::FieldCount { .. })));
        assert!(matches!(lenient_fen("8/8/8/8/8/8/8/8 w - - 0 1", CastlingMode::Standard), Err(FenError::Position(_))));
    }

    /// Every game of `text` with its line ends (all `\n` in `text`) written as `ending`.
    fn read(text: &str, ending: &str) -> Vec<Result<PgnGame, PgnError>> {
        PgnReader::new(text.replace('\n', ending).as_bytes()).games().collect()
    }

    const ENDINGS: [&str; 3] = ["\n", "\r\n", "\r"];

    #[test]
    fn a_tag_line_inside_a_comment_is_comment_text() {
        let text =
            "[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. d4 {see game\n[Event \"Foo\"] for details} d5 *\n";
        for ending in ENDINGS {
            let games: Vec<PgnGame> = read(text, ending).into_iter().map(Result::unwrap).collect();
            assert_eq!(games.len(), 2, "{ending:?}");
            assert_eq!(games[1].tag("Event"), Some("b"));
            assert_eq!(games[1].moves[0].comments, ["see game [Event \"Foo\"] for details"], "{ending:?}");
            assert_eq!(games[1].moves.len(), 2);
        }
    }

    #[test]
    fn a_tag_line_after_a_blank_line_ends_an_unclosed_comment() {
        let text = "[Event \"a\"]\n\n1. e4 {forgot to close\n1... e5 *\n\n[Event \"b\"]\n\n1. d4 *\n";
        for ending in ENDINGS {
            let results = read(text, ending);
            assert_eq!(results.len(), 2, "{ending:?}");
            let error = results[0].as_ref().unwrap_err();
            assert_eq!((error.game, error.line, error.column), (1, 3, 7), "{ending:?}");
            assert_eq!(error.kind, PgnErrorKind::UnclosedComment);
            assert_eq!(results[1].as_ref().unwrap().tag("Event"), Some("b"), "{ending:?}");
        }
    }

    #[test]
    fn a_blank_line_alone_does_not_end_a_comment() {
        // Whitespace-only lines count as blank; the comment goes on past them to its `}`.
        let text = "1. e4 {one\n \t\ntwo\n\n(not a tag)} e5 *\n";
        for ending in ENDINGS {
            let games = read(text, ending);
            let game = games[0].as_ref().unwrap();
            assert_eq!(game.moves[0].comments, ["one  \t two  (not a tag)"], "{ending:?}");
        }
    }

    #[test]
    fn an_unclosed_comment_before_tags_without_a_blank_line_runs_to_the_next_game_break() {
        // The `}` is missing and game b's tags follow at once: game b is read as comment text,
        // up to the blank line before game c, which is read normally.
        let text = "[Event \"a\"]\n\n1. e4 {oops\n[Event \"b\"]\n\n1. d4 *\n\n[Event \"c\"]\n\n1. c4 *\n";
        for ending in ENDINGS {
            let results = read(text, ending);
            assert_eq!(results.len(), 2, "{ending:?}");
            assert_eq!(results[0].as_ref().unwrap_err().kind, PgnErrorKind::UnclosedComment);
            assert_eq!(results[1].as_ref().unwrap().tag("Event"), Some("c"), "{ending:?}");
        }
    }

    #[test]
    fn skipping_a_broken_game_reads_its_comments_the_same_way() {
        let text = "[Event \"a\"]\n\n1. e4 Ke7 {see\n[Event \"Foo\"] here} 2. d4 *\n\n\
                    [Event \"b\"]\n\n1. d4 {open\n\n[Event \"c\"]\n\n1. c4 *\n";
        for ending in ENDINGS {
            let results = read(text, ending);
            assert_eq!(results.len(), 3, "{ending:?}");
            let error = results[0].as_ref().unwrap_err();
            assert_eq!((error.line, error.column), (3, 7), "{ending:?}");
            assert_eq!(results[1].as_ref().unwrap_err().kind, PgnErrorKind::UnclosedComment);
            assert_eq!(results[2].as_ref().unwrap().tag("Event"), Some("c"), "{ending:?}");
        }
    }

    #[test]
    fn line_comments_escapes_and_tag_values_end_at_any_line_end() {
        let text = "% escape line\n[Event \"a\"]\n\n1. e4 ; rest of line\ne5 *\n\n[Event \"b\n\n1. d4 *\n";
        for ending in ENDINGS {
            let results = read(text, ending);
            assert_eq!(results.len(), 2, "{ending:?}");
            let game = results[0].as_ref().unwrap();
            assert_eq!(game.moves.len(), 2, "{ending:?}");
            assert_eq!(game.moves[0].comments, ["rest of line"]);
            let error = results[1].as_ref().unwrap_err();
            assert_eq!((error.game, error.line, error.column), (2, 7, 1), "{ending:?}");
            assert!(matches!(&error.kind, PgnErrorKind::Tag(what) if what == "unterminated tag value"));
        }
    }
}
