//! Standard Algebraic Notation: a canonical writer and a lenient reader.
//!
//! The writer follows the PGN standard (section 8.2.3): piece letter, minimal disambiguation
//! (file, else rank, else both), `x` for captures, `=Q` for promotions, `O-O`/`O-O-O`, and a
//! `+` or `#` suffix. The reader accepts what people and programs actually write: `0-0`,
//! `e8Q` and `e8=Q`, over-disambiguated moves (`Ngf3`, `Ng1f3`), missing or superfluous check
//! marks, suffix annotations (`!`, `?`, `!?`...), lower-case piece letters where unambiguous
//! (`nf3`; `b` is a pawn first and a bishop only if no pawn move fits), and the long forms
//! `e2-e4`/`e2e4`/`Ng1-f3`. Null moves are `--`, `Z0` or `0000`.

use std::fmt;
use tempo_core::{
    attacks::attacks, Bitboard, CastlingSide, File, Move, MoveList, Piece, Position, Rank, Refusal, Role, Square,
};

/// Why a SAN move cannot be read in a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SanError {
    /// The text is not SAN at all.
    #[error("malformed san {0:?}")]
    Syntax(String),
    /// No piece of the side to move can make this move, even ignoring checks.
    #[error("no such move {0:?}")]
    NoSuchMove(String),
    /// More than one legal move fits; `candidates` are their canonical SAN.
    #[error("ambiguous san {san:?} (candidates: {})", candidates.join(", "))]
    Ambiguous {
        /// The SAN as given.
        san: String,
        /// The canonical SAN of every legal move that fits, in move generation order.
        candidates: Vec<String>,
    },
    /// A piece could make the move, but it would leave or put its own king in check (or
    /// castle through check).
    #[error("illegal move {0:?}: it would leave the king in check")]
    Illegal(String),
    /// A null move while in check.
    #[error("null move {0:?} while in check")]
    NullInCheck(String),
}

/// A SAN move read without a position: what it says, not yet what it means.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SanMove {
    /// A piece or pawn move.
    Normal {
        /// The moving piece; `None` for a pawn.
        role: Option<Role>,
        /// Disambiguating file, if written.
        file: Option<File>,
        /// Disambiguating rank, if written.
        rank: Option<Rank>,
        /// `x` was written.
        capture: bool,
        /// The target square.
        to: Square,
        /// The promotion piece, if written.
        promotion: Option<Role>,
    },
    /// `O-O` or `O-O-O`.
    Castle(CastlingSide),
    /// `--`, `Z0` or `0000`.
    Null,
}

fn role_from_upper(b: u8) -> Option<Role> {
    match b {
        b'N' => Some(Role::Knight),
        b'B' => Some(Role::Bishop),
        b'R' => Some(Role::Rook),
        b'Q' => Some(Role::Queen),
        b'K' => Some(Role::King),
        _ => None,
    }
}

fn promotion_role(b: u8) -> Option<Role> {
    match b.to_ascii_uppercase() {
        b'N' => Some(Role::Knight),
        b'B' => Some(Role::Bishop),
        b'R' => Some(Role::Rook),
        b'Q' => Some(Role::Queen),
        _ => None,
    }
}

fn file_of(b: u8) -> Option<File> {
    (b'a'..=b'h').contains(&b).then(|| File::new(u32::from(b - b'a'))).flatten()
}

fn rank_of(b: u8) -> Option<Rank> {
    (b'1'..=b'8').contains(&b).then(|| Rank::new(u32::from(b - b'1'))).flatten()
}

impl SanMove {
    /// Reads SAN text (leniently, see the module docs).
    ///
    /// # Errors
    /// [`SanError::Syntax`] if the text is not a move.
    pub fn parse(text: &str) -> Result<SanMove, SanError> {
        SanMove::parse_bytes(text.as_bytes()).ok_or_else(|| SanError::Syntax(text.to_owned()))
    }

    pub(crate) fn parse_bytes(text: &[u8]) -> Option<SanMove> {
        // Check marks and suffix annotations carry no move information.
        let mut end = text.len();
        while end > 0 && matches!(text[end - 1], b'+' | b'#' | b'!' | b'?') {
            end -= 1;
        }
        let s = &text[..end];
        match s {
            b"--" | b"Z0" | b"0000" => return Some(SanMove::Null),
            b"O-O" | b"0-0" | b"o-o" | b"OO" | b"00" => return Some(SanMove::Castle(CastlingSide::KingSide)),
            b"O-O-O" | b"0-0-0" | b"o-o-o" | b"OOO" | b"000" => return Some(SanMove::Castle(CastlingSide::QueenSide)),
            _ => {}
        }
        let (&first, _) = s.split_first()?;
        // A lower-case `b` is read as the b-file here; `parse_san` retries it as a bishop.
        let (role, mut rest) = match first {
            b'P' => (None, &s[1..]),
            b'n' | b'r' | b'q' | b'k' => (role_from_upper(first.to_ascii_uppercase()), &s[1..]),
            _ => match role_from_upper(first) {
                Some(role) => (Some(role), &s[1..]),
                None => (None, s),
            },
        };
        // Promotion suffix: `=Q`, `(Q)`, `/Q`, or a bare letter after the target rank (`e8Q`,
        // `e7e8q`).
        let mut promotion = None;
        if let [head @ .., b'(', p, b')'] | [head @ .., b'=' | b'/', p] = rest {
            promotion = Some(promotion_role(*p)?);
            rest = head;
        } else if let [head @ .., r, p] = rest {
            if rank_of(*r).is_some() {
                if let Some(role) = promotion_role(*p) {
                    promotion = Some(role);
                    rest = &rest[..head.len() + 1];
                }
            }
        }
        let [head @ .., f, r] = rest else { return None };
        let to = Square::from_coords(file_of(*f)?, rank_of(*r)?);
        let mut capture = false;
        let mut head = head;
        if let [h @ .., sep] = head {
            match sep {
                b'x' | b':' => {
                    capture = true;
                    head = h;
                }
                b'-' => head = h,
                _ => {}
            }
        }
        let (file, rank) = match head {
            [] => (None, None),
            [c] => match (file_of(*c), rank_of(*c)) {
                (Some(f), _) => (Some(f), None),
                (None, Some(r)) => (None, Some(r)),
                _ => return None,
            },
            [f, r] => (Some(file_of(*f)?), Some(rank_of(*r)?)),
            _ => return None,
        };
        if role.is_some() && promotion.is_some() {
            return None;
        }
        Some(SanMove::Normal { role, file, rank, capture, to, promotion })
    }
}

impl std::str::FromStr for SanMove {
    type Err = SanError;

    fn from_str(text: &str) -> Result<SanMove, SanError> {
        SanMove::parse(text)
    }
}

impl SanMove {
    /// The legal move this SAN denotes in `pos` (`Move::NULL` for a null move).
    ///
    /// # Errors
    /// [`SanError::NoSuchMove`], [`SanError::Ambiguous`] or [`SanError::Illegal`], with
    /// `text` as the offending input; [`SanError::NullInCheck`] for a null move in check.
    pub fn resolve(self, pos: &Position, text: &str) -> Result<Move, SanError> {
        let moves = pos.legal_moves();
        self.resolve_in(pos, &moves, text)
    }

    fn resolve_in(self, pos: &Position, moves: &MoveList, text: &str) -> Result<Move, SanError> {
        match self {
            SanMove::Null => {
                if pos.is_check() {
                    Err(SanError::NullInCheck(text.to_owned()))
                } else {
                    Ok(Move::NULL)
                }
            }
            SanMove::Castle(side) => {
                let wanted = pos.castling_move(side).ok_or_else(|| SanError::NoSuchMove(text.to_owned()))?;
                if moves.contains(wanted) {
                    Ok(wanted)
                } else {
                    Err(SanError::Illegal(text.to_owned()))
                }
            }
            SanMove::Normal { role, file, rank, to, promotion, .. } => {
                if let Some(m) = resolve_fast(self, pos, moves) {
                    return Ok(m);
                }
                let role = match (role, file, rank) {
                    (Some(role), _, _) => Some(role),
                    (None, Some(f), Some(r)) => pos.role_at(Square::from_coords(f, r)),
                    _ => None,
                };
                let wanted = Wanted { role: role.unwrap_or(Role::Pawn), file, rank, to, promotion };
                let role = wanted.role;
                let mut found: Option<Move> = None;
                let mut ambiguous = false;
                for &m in moves.iter() {
                    if m.is_castle()
                        || m.to() != to
                        || m.promotion_role() != promotion
                        || file.is_some_and(|f| m.from().file() != f)
                        || rank.is_some_and(|r| m.from().rank() != r)
                        || pos.role_at(m.from()) != Some(role)
                    {
                        continue;
                    }
                    if found.is_some() {
                        ambiguous = true;
                    }
                    found = Some(m);
                }
                match found {
                    Some(m) if !ambiguous => Ok(m),
                    Some(_) => Err(wanted.ambiguity(pos, moves, text)),
                    None => Err(wanted.why_not(pos, moves, text)),
                }
            }
        }
    }
}

impl SanMove {
    /// Why the side to move cannot play this move in `pos`, when the text names one piece
    /// (the only piece of its kind that fits the disambiguation, or the only one of them
    /// that could reach the target on an empty board; the pawn a pawn move means,
    /// or the piece on a long form's square) or a castle: "the pawn on e2 cannot move to e5",
    /// "the queen on d1 is blocked by the pawn on e2" ([`Position::refusal`]). `None` when
    /// the move is legal, when several pieces fit (each would have its own reason), or for a
    /// null move.
    pub fn refusal(self, pos: &Position) -> Option<Refusal> {
        let us = pos.turn();
        match self {
            SanMove::Null => None,
            SanMove::Castle(side) => pos.castling_refusal(side),
            SanMove::Normal { role, file, rank, capture, to, .. } => {
                let from = match (role, file, rank) {
                    // The long form names the square, whatever stands on it.
                    (None, Some(f), Some(r)) => Square::from_coords(f, r),
                    (None, file, _) => {
                        // A pawn move: the pawn of the named file (a capture) or of the target's
                        // file, the one nearest behind the target.
                        let file = if capture { file? } else { file.unwrap_or(to.file()) };
                        let pawns = pos.pieces(us, Role::Pawn) & Bitboard::file(file);
                        let behind = |sq: &Square| us.fold(sq.rank() < to.rank(), sq.rank() > to.rank());
                        pawns.filter(behind).min_by_key(|sq| sq.rank().index().abs_diff(to.rank().index()))?
                    }
                    (Some(role), file, rank) => {
                        let pieces = pos.pieces(us, role);
                        if pieces.is_empty() {
                            return Some(Refusal::NoSuchPiece { color: us, role });
                        }
                        let fitting: Bitboard = pieces
                            .filter(|sq| file.is_none_or(|f| sq.file() == f) && rank.is_none_or(|r| sq.rank() == r))
                            .collect();
                        // Of two bishops, the one whose diagonals lead there is meant.
                        let heading_there: Bitboard = fitting
                            .filter(|&sq| attacks(Piece::new(us, role), sq, Bitboard::EMPTY).contains(to))
                            .collect();
                        heading_there.single_square().or(fitting.single_square())?
                    }
                };
                pos.refusal(from, to)
            }
        }
    }
}

/// The fields of a piece or pawn move, for error reports.
#[derive(Clone, Copy)]
struct Wanted {
    role: Role,
    file: Option<File>,
    rank: Option<Rank>,
    to: Square,
    promotion: Option<Role>,
}

impl Wanted {
    fn ambiguity(self, pos: &Position, moves: &MoveList, text: &str) -> SanError {
        let Wanted { role, file, rank, to, .. } = self;
        let candidates = moves
            .iter()
            .filter(|m| {
                !m.is_castle()
                    && m.to() == to
                    && file.is_none_or(|f| m.from().file() == f)
                    && rank.is_none_or(|r| m.from().rank() == r)
                    && pos.role_at(m.from()) == Some(role)
            })
            .map(|&m| san(pos, m))
            .collect();
        SanError::Ambiguous { san: text.to_owned(), candidates }
    }

    /// Tells "no piece can go there" from "a piece could, but the move is illegal".
    fn why_not(self, pos: &Position, moves: &MoveList, text: &str) -> SanError {
        let Wanted { role, file, rank, to, promotion } = self;
        let us = pos.turn();
        // A promotion was left out or given where none applies: a fitting move without the
        // promotion rule in the way is ambiguous (missing piece) or impossible (extra piece).
        let geometric = moves.iter().any(|m| {
            !m.is_castle()
                && m.to() == to
                && file.is_none_or(|f| m.from().file() == f)
                && rank.is_none_or(|r| m.from().rank() == r)
                && pos.role_at(m.from()) == Some(role)
        });
        if geometric && promotion.is_none() {
            return self.ambiguity(pos, moves, text);
        }
        if geometric {
            return SanError::NoSuchMove(text.to_owned());
        }
        let occupied = pos.occupied();
        if pos.by_color(us).contains(to) {
            return SanError::NoSuchMove(text.to_owned());
        }
        let pieces = pos
            .pieces(us, role)
            .filter(|&from| file.is_none_or(|f| from.file() == f) && rank.is_none_or(|r| from.rank() == r));
        let mut reachable = false;
        for from in pieces {
            reachable |= if role == Role::Pawn {
                let forward = us.fold(8, -8);
                let start = from.rank() == Rank::Second.relative_to(us);
                let push = from.offset(forward) == Some(to) && !occupied.contains(to);
                let double = start
                    && from.offset(2 * forward) == Some(to)
                    && !occupied.contains(to)
                    && from.offset(forward).is_some_and(|mid| !occupied.contains(mid));
                let capture = tempo_core::attacks::pawn_attacks(us, from).contains(to)
                    && (pos.by_color(!us).contains(to) || pos.ep_square() == Some(to));
                push || double || capture
            } else {
                attacks(Piece::new(us, role), from, occupied).contains(to)
            };
        }
        let promotes = role == Role::Pawn && to.rank() == Rank::Eighth.relative_to(us);
        if reachable && promotes == promotion.is_some() {
            SanError::Illegal(text.to_owned())
        } else {
            SanError::NoSuchMove(text.to_owned())
        }
    }
}

/// The common case of SAN resolution without allocation: a standard move read strictly
/// enough to be unambiguous. `None` sends the caller to the full reader.
#[inline]
pub(crate) fn resolve_fast(san: SanMove, pos: &Position, moves: &MoveList) -> Option<Move> {
    match san {
        SanMove::Normal { role, file, rank, to, promotion, .. } => {
            let role = match role {
                Some(role) => role,
                // Long algebraic without a piece letter (`g1f3`): the piece on the square.
                None => match (file, rank) {
                    (Some(f), Some(r)) => pos.role_at(Square::from_coords(f, r))?,
                    _ => Role::Pawn,
                },
            };
            let mut found = None;
            for &m in moves.iter() {
                if m.to() == to
                    && !m.is_castle()
                    && m.promotion_role() == promotion
                    && file.is_none_or(|f| m.from().file() == f)
                    && rank.is_none_or(|r| m.from().rank() == r)
                    && pos.role_at(m.from()) == Some(role)
                {
                    if found.is_some() {
                        return None;
                    }
                    found = Some(m);
                }
            }
            if found.is_none() && role == Role::King {
                if let (Some(f), Some(r)) = (file, rank) {
                    return uci_castle(moves, Square::from_coords(f, r), to);
                }
            }
            found
        }
        SanMove::Castle(side) => pos.castling_move(side).filter(|&m| moves.contains(m)),
        SanMove::Null => None,
    }
}

/// The castling move written in UCI style from the king's square `from`: to its own rook's
/// square (`c8b8`, as Chess960 UCI writes castling) or to the king's destination (`e1g1`, as
/// standard UCI does). Both are read in either mode, as [`crate::parse_uci_move`] reads them.
/// Among legal moves the two forms never name different castles: a square holding one
/// castling rook is occupied, so no other castle can legally bring the king there.
fn uci_castle(moves: &MoveList, from: Square, to: Square) -> Option<Move> {
    moves.iter().copied().find(|m| m.is_castle() && m.from() == from && (m.to() == to || m.castling_king_to() == to))
}

/// Reads a SAN move (leniently, see the module docs) and finds it among the legal moves.
///
/// # Errors
/// [`SanError::Syntax`] for text that is not a move; [`SanError::NoSuchMove`] if no piece of
/// the side to move can make it; [`SanError::Ambiguous`] with the candidates if several can;
/// [`SanError::Illegal`] if a piece can make it but not legally; [`SanError::NullInCheck`].
pub fn parse_san(pos: &Position, text: &str) -> Result<Move, SanError> {
    let moves = pos.legal_moves();
    parse_san_in(pos, &moves, text)
}

/// [`parse_san`] with the legal moves of `pos` already generated (saves a generation when
/// the caller has them).
///
/// # Errors
/// As [`parse_san`].
pub fn parse_san_in(pos: &Position, moves: &MoveList, text: &str) -> Result<Move, SanError> {
    let bytes = text.as_bytes();
    let parsed = SanMove::parse_bytes(bytes);
    // A long form (`b8g7`) names the piece by its square: it is never a bishop.
    let long_form = matches!(parsed, Some(SanMove::Normal { role: None, file: Some(_), rank: Some(_), .. }));
    let first = parsed.map(|san| san.resolve_in(pos, moves, text));
    match first {
        Some(Ok(m)) => Ok(m),
        // Lower-case `b`: the b-pawn reading failed, try the bishop.
        _ if bytes.first() == Some(&b'b') && bytes.len() > 1 && !long_form => {
            let mut bishop = Vec::with_capacity(bytes.len());
            bishop.push(b'B');
            bishop.extend_from_slice(&bytes[1..]);
            match SanMove::parse_bytes(&bishop).map(|san| san.resolve_in(pos, moves, text)) {
                Some(Ok(m)) => Ok(m),
                _ => first.unwrap_or_else(|| Err(SanError::Syntax(text.to_owned()))),
            }
        }
        Some(err) => err,
        None => Err(SanError::Syntax(text.to_owned())),
    }
}

/// Why a check suffix is written.
fn suffix(pos: &Position, m: Move) -> Option<char> {
    let mut child = *pos;
    child.play_unchecked(m);
    if !child.is_check() {
        None
    } else if child.has_legal_moves() {
        Some('+')
    } else {
        Some('#')
    }
}

/// Writes the canonical SAN of the legal move `m` in `pos` (with `+`/`#`) to `out`.
///
/// A move that is not legal in `pos` has no SAN: it is written in UCI form (`e2e5`) so that
/// nothing is lost and any reader rejects it, rather than as a SAN that lies.
///
/// # Errors
/// Only those of `out`.
pub fn write_san(out: &mut impl fmt::Write, pos: &Position, m: Move) -> fmt::Result {
    if m.is_null() {
        return out.write_str("--");
    }
    let legal = pos.legal_moves();
    if !legal.contains(m) {
        return out.write_str(&crate::uci_move(pos, m));
    }
    write_san_plain(out, pos, m, &legal)?;
    match suffix(pos, m) {
        Some(c) => out.write_char(c),
        None => Ok(()),
    }
}

/// The SAN without check suffix.
fn write_san_plain(out: &mut impl fmt::Write, pos: &Position, m: Move, legal: &MoveList) -> fmt::Result {
    if m.is_castle() {
        return out.write_str(if m.is_kingside_castle() { "O-O" } else { "O-O-O" });
    }
    let from = m.from();
    let to = m.to();
    let role = pos.role_at(from).unwrap_or(Role::Pawn);
    let capture = pos.is_capture(m);
    if role == Role::Pawn {
        if capture {
            out.write_char(from.file().char())?;
            out.write_char('x')?;
        }
        write!(out, "{to}")?;
        if let Some(promotion) = m.promotion_role() {
            out.write_char('=')?;
            out.write_char(promotion.upper_char())?;
        }
        return Ok(());
    }
    out.write_char(role.upper_char())?;
    if role != Role::King {
        // Other pieces of the same kind that can legally go to the same square.
        let mut rivals = pos.pieces(pos.turn(), role).without(from);
        rivals = rivals.filter(|&sq| attacks(Piece::new(pos.turn(), role), sq, pos.occupied()).contains(to)).collect();
        if rivals.any() {
            let rivals: Bitboard = legal
                .iter()
                .filter(|r| !r.is_castle() && r.to() == to && rivals.contains(r.from()))
                .map(|r| r.from())
                .collect();
            if rivals.any() {
                if (rivals & Bitboard::file(from.file())).is_empty() {
                    out.write_char(from.file().char())?;
                } else if (rivals & Bitboard::rank(from.rank())).is_empty() {
                    out.write_char(from.rank().char())?;
                } else {
                    write!(out, "{from}")?;
                }
            }
        }
    }
    if capture {
        out.write_char('x')?;
    }
    write!(out, "{to}")
}

/// The canonical SAN of the legal move `m` in `pos`, with `+`/`#`; `--` for the null move.
pub fn san(pos: &Position, m: Move) -> String {
    let mut out = String::with_capacity(8);
    // Writing to a String cannot fail.
    let _ = write_san(&mut out, pos, m);
    out
}

/// Writes the SAN of every move of a sequence from `pos`, playing them (for SAN lists).
/// Stops at the first move that is not legal and returns the SANs so far.
pub fn san_line(pos: &Position, moves: &[Move]) -> Vec<String> {
    let mut pos = *pos;
    let mut out = Vec::with_capacity(moves.len());
    for &m in moves {
        if m.is_null() {
            if pos.is_check() {
                break;
            }
            out.push("--".to_owned());
            pos.play_null();
            continue;
        }
        if !pos.is_legal(m) {
            break;
        }
        out.push(san(&pos, m));
        pos.play_unchecked(m);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use tempo_core::CastlingMode;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen, CastlingMode::Standard).unwrap()
    }

    #[test]
    fn refusals_name_the_piece_the_text_means() {
        let why = |p: &Position, text: &str| SanMove::parse(text).unwrap().refusal(p).map(|r| r.to_string());
        let start = Position::startpos();
        assert_eq!(why(&start, "e5").as_deref(), Some("the pawn on e2 cannot move to e5"));
        assert_eq!(why(&start, "e2e5").as_deref(), Some("the pawn on e2 cannot move to e5"));
        assert_eq!(why(&start, "Qh5").as_deref(), Some("the queen on d1 is blocked by the pawn on e2"));
        // Of the two bishops only f1's diagonals lead to b5.
        assert_eq!(why(&start, "Bb5").as_deref(), Some("the bishop on f1 is blocked by the pawn on e2"));
        assert_eq!(why(&start, "O-O").as_deref(), Some("castling is blocked by the bishop on f1"));
        assert_eq!(why(&start, "e4"), None, "legal");
        // Two knights, neither of which can go there: no one piece to explain.
        assert_eq!(why(&pos("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1"), "Ne5"), None);
        assert_eq!(
            why(&pos("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1"), "Nbe5").as_deref(),
            Some("the knight on b1 cannot move to e5")
        );
        assert_eq!(why(&pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1"), "Qd2").as_deref(), Some("White has no queen"));
        // A pawn capture names the pawn of its file.
        assert_eq!(
            why(&start, "exd3").as_deref(),
            Some("the pawn on e2 moves diagonally only to capture, and there is nothing to capture on d3")
        );
    }

    fn uci(p: &Position, text: &str) -> Move {
        crate::parse_uci_move(p, text).unwrap()
    }

    #[test]
    fn writes_canonical_san() {
        let p = pos("1r6/P2k2Pp/8/R7/4Q2Q/5N2/7K/RN5Q w - - 0 1");
        assert_eq!(san(&p, uci(&p, "h4e1")), "Qh4e1");
        assert_eq!(san(&p, uci(&p, "a1a3")), "R1a3");
        assert_eq!(san(&p, uci(&p, "b1d2")), "Nbd2");
        assert_eq!(san(&p, uci(&p, "a7b8n")), "axb8=N+");
        assert_eq!(san(&p, uci(&p, "g7g8q")), "g8=Q");
        let start = Position::startpos();
        assert_eq!(san(&start, uci(&start, "g1f3")), "Nf3");
        let castle = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        assert_eq!(san(&castle, uci(&castle, "e1g1")), "O-O");
        assert_eq!(san(&castle, uci(&castle, "e1c1")), "O-O-O");
        let mate = pos("7k/8/6K1/8/8/8/8/R7 w - - 0 1");
        assert_eq!(san(&mate, uci(&mate, "a1a8")), "Ra8#");
        assert_eq!(san(&mate, Move::NULL), "--");
        // A pinned rival does not force disambiguation.
        let pinned = pos("4k3/4r3/8/8/8/2N5/4N3/4K3 w - - 0 1");
        assert_eq!(san(&pinned, uci(&pinned, "c3d5")), "Nd5");
    }

    #[test]
    fn reads_leniently() {
        let start = Position::startpos();
        let e4 = uci(&start, "e2e4");
        let nf3 = uci(&start, "g1f3");
        for text in ["e4", "e2-e4", "e2e4", "e4!", "e4?!", "e4+", "Pe4", "e4!!"] {
            assert_eq!(parse_san(&start, text), Ok(e4), "{text}");
        }
        for text in ["Nf3", "Ngf3", "Ng1f3", "Ng1-f3", "nf3", "Nf3#", "Nf3 "] {
            if text.ends_with(' ') {
                assert!(parse_san(&start, text).is_err());
            } else {
                assert_eq!(parse_san(&start, text), Ok(nf3), "{text}");
            }
        }
        let castle = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        for text in ["O-O", "0-0", "O-O+", "o-o"] {
            assert_eq!(parse_san(&castle, text), Ok(uci(&castle, "e1g1")), "{text}");
        }
        assert_eq!(parse_san(&castle, "0-0-0"), Ok(uci(&castle, "e1c1")));
        let promo = pos("8/4P2k/8/8/8/8/8/K7 w - - 0 1");
        let q = uci(&promo, "e7e8q");
        for text in ["e8=Q", "e8Q", "e8(Q)", "e8/Q", "e8=Q+", "e7e8q", "e8q"] {
            assert_eq!(parse_san(&promo, text), Ok(q), "{text}");
        }
        // Lower-case b: the pawn first, the bishop if no pawn move fits.
        let b = pos("4k3/8/8/8/8/2p5/1P6/4KB2 w - - 0 1");
        assert_eq!(parse_san(&b, "bxc3"), Ok(uci(&b, "b2c3")));
        assert_eq!(parse_san(&b, "bd3"), Ok(uci(&b, "f1d3")));
        assert_eq!(parse_san(&start, "--"), Ok(Move::NULL));
        assert_eq!(parse_san(&start, "Z0"), Ok(Move::NULL));
    }

    #[test]
    fn errors_tell_what_is_wrong() {
        let start = Position::startpos();
        assert_eq!(parse_san(&start, "Nf4"), Err(SanError::NoSuchMove("Nf4".into())));
        assert_eq!(parse_san(&start, "e5"), Err(SanError::NoSuchMove("e5".into())));
        assert_eq!(parse_san(&start, "hello"), Err(SanError::Syntax("hello".into())));
        assert_eq!(parse_san(&start, ""), Err(SanError::Syntax("".into())));
        assert_eq!(parse_san(&start, "O-O"), Err(SanError::Illegal("O-O".into())));
        let two = pos("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1");
        match parse_san(&two, "Nd2") {
            Err(SanError::Ambiguous { candidates, .. }) => assert_eq!(candidates, ["Nbd2", "Nfd2"]),
            other => panic!("{other:?}"),
        }
        let pinned = pos("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1");
        assert_eq!(parse_san(&pinned, "Nc3"), Err(SanError::Illegal("Nc3".into())));
        let promo = pos("8/4P2k/8/8/8/8/8/K7 w - - 0 1");
        assert!(matches!(parse_san(&promo, "e8"), Err(SanError::Ambiguous { .. })));
        let check = pos("4k3/8/8/8/8/8/8/r3K3 w - - 0 1");
        assert_eq!(parse_san(&check, "--"), Err(SanError::NullInCheck("--".into())));
        assert_eq!(
            SanError::Ambiguous { san: "Nd2".into(), candidates: vec!["Nbd2".into(), "Nfd2".into()] }.to_string(),
            "ambiguous san \"Nd2\" (candidates: Nbd2, Nfd2)"
        );
    }

    #[test]
    fn chess960_castling() {
        let p = Position::from_fen("1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1", CastlingMode::Chess960)
            .unwrap();
        let short = parse_san(&p, "O-O").unwrap();
        assert!(short.is_castle() && short.is_kingside_castle());
        assert_eq!(san(&p, short), "O-O");
        assert_eq!(san(&p, parse_san(&p, "O-O-O").unwrap()), "O-O-O");
    }

    #[test]
    fn uci_castling_in_movetext() {
        // Standard: king to its destination (UCI) or onto its rook.
        let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        for (text, king_to) in [("e1g1", "g1"), ("e1h1", "g1"), ("e1c1", "c1"), ("e1a1", "c1")] {
            let m = parse_san(&p, text).unwrap();
            assert!(m.is_castle() && m.castling_king_to() == king_to.parse().unwrap(), "{text}");
        }
        // Chess960, the audit's position: `c1g1` is both forms at once, `c8b8` takes the rook.
        let p =
            Position::from_fen("nrk3rn/pppppppp/8/8/8/8/PPPPPPPP/NRK3RN w GBgb - 0 1", CastlingMode::Chess960).unwrap();
        let short = parse_san(&p, "c1g1").unwrap();
        assert!(short.is_kingside_castle());
        let mut after = p;
        after.play_unchecked(short);
        let long = parse_san(&after, "c8b8").unwrap();
        assert!(long.is_castle() && !long.is_kingside_castle());
        // A plain king move to the destination square is a king move, not castling.
        let p = Position::from_fen("1k6/8/8/8/8/8/8/5K1R w H - 0 1", CastlingMode::Chess960).unwrap();
        assert!(!parse_san(&p, "f1g1").unwrap().is_castle());
        assert!(parse_san(&p, "f1h1").unwrap().is_kingside_castle());
    }

    #[test]
    fn illegal_moves_are_written_as_uci() {
        let start = Position::startpos();
        let e2e5 = Move::normal("e2".parse().unwrap(), "e5".parse().unwrap());
        assert_eq!(san(&start, e2e5), "e2e5");
        let empty = Move::normal("e4".parse().unwrap(), "e5".parse().unwrap());
        assert_eq!(san(&start, empty), "e4e5");
    }

    #[test]
    fn san_lines() {
        let start = Position::startpos();
        let mut p = start;
        let mut moves = Vec::new();
        for text in ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"] {
            let m = parse_san(&p, text).unwrap();
            moves.push(m);
            p.play_unchecked(m);
        }
        assert_eq!(san_line(&start, &moves).join(" "), "e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7#");
    }
}
