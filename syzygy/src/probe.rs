//! Probing positions: the tables store each position as if no capture were possible (and
//! DTZ tables only one side to move), so a probe resolves captures and en passant with a
//! small search over the tables, in the manner of python-chess's `chess.syzygy`, whose
//! values and signs these are.

use crate::error::ProbeError;
use crate::tablebase::Tablebase;
use std::fmt;
use tempo_core::{Move, MoveFilter, MoveList, Position, Role};

/// A position's value with best play, from the side to move's view, assuming the last move
/// was a capture or a pawn move (the fifty-move counter at zero).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Wdl {
    /// Lost, within the fifty-move rule.
    Loss,
    /// Lost without the fifty-move rule, drawn with it.
    BlessedLoss,
    /// Drawn.
    Draw,
    /// Won without the fifty-move rule, drawn with it.
    CursedWin,
    /// Won, within the fifty-move rule.
    Win,
}

impl Wdl {
    /// python-chess's number: -2 loss, -1 blessed loss, 0 draw, 1 cursed win, 2 win.
    pub const fn to_i8(self) -> i8 {
        match self {
            Wdl::Loss => -2,
            Wdl::BlessedLoss => -1,
            Wdl::Draw => 0,
            Wdl::CursedWin => 1,
            Wdl::Win => 2,
        }
    }

    /// The value of python-chess's number, `None` outside -2 to 2.
    pub const fn from_i8(value: i8) -> Option<Wdl> {
        Some(match value {
            -2 => Wdl::Loss,
            -1 => Wdl::BlessedLoss,
            0 => Wdl::Draw,
            1 => Wdl::CursedWin,
            2 => Wdl::Win,
            _ => return None,
        })
    }

    /// The value for the other side.
    #[must_use]
    pub const fn negate(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::BlessedLoss => Wdl::CursedWin,
            Wdl::Draw => Wdl::Draw,
            Wdl::CursedWin => Wdl::BlessedLoss,
            Wdl::Win => Wdl::Loss,
        }
    }
}

impl fmt::Display for Wdl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Wdl::Loss => "loss",
            Wdl::BlessedLoss => "blessed loss",
            Wdl::Draw => "draw",
            Wdl::CursedWin => "cursed win",
            Wdl::Win => "win",
        })
    }
}

/// A legal move at the root with the table's verdict on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootMove {
    /// The move.
    pub mv: Move,
    /// The mover's result after it, under the fifty-move rule from the position's
    /// half-move clock (see [`Tablebase::root_moves`]).
    pub wdl: Wdl,
    /// The mover's distance to zeroing counting this move, in plies, with `probe_dtz`'s
    /// signs: 1 for a mate or a winning capture or pawn move, 0 for a draw.
    pub dtz: i32,
}

/// The DTZ of a position whose next move zeroes with this WDL.
const fn dtz_before_zeroing(wdl: i8) -> i32 {
    match wdl {
        2 => 1,
        1 => 101,
        -1 => -101,
        -2 => -1,
        _ => 0,
    }
}

/// Plays a move on a copy.
fn after(pos: &Position, m: Move) -> Position {
    let mut child = *pos;
    child.play_unchecked(m);
    child
}

impl Tablebase {
    fn check(&self, pos: &Position) -> Result<(), ProbeError> {
        if !pos.castling_rights().is_empty() {
            return Err(ProbeError::CastlingRights);
        }
        let men = pos.occupied().count();
        if men > self.max_pieces() {
            return Err(ProbeError::TooManyPieces { pieces: men, max: self.max_pieces() });
        }
        Ok(())
    }

    /// The WDL value of a position.
    ///
    /// # Errors
    /// Castling rights, more men than the largest table, a table missing (of the position
    /// or one a capture reaches) or corrupt.
    pub fn probe_wdl(&self, pos: &Position) -> Result<Wdl, ProbeError> {
        self.check(pos)?;
        let value = self.wdl(pos)?;
        Ok(Wdl::from_i8(value).unwrap_or(Wdl::Draw))
    }

    /// The DTZ value of a position: plies to the next capture or pawn move (`zeroing`)
    /// with best play, positive when the side to move wins, negative when it loses, 0 for a
    /// draw; beyond ±100 the result is cursed (a win or loss that the fifty-move rule
    /// draws). Values follow python-chess's `probe_dtz` exactly, including its rounding:
    /// where a table stores distances in moves, a value may be one ply more than the
    /// exact distance, never where that would change the result (DTZ50'').
    ///
    /// # Errors
    /// As [`Tablebase::probe_wdl`], and a missing or corrupt DTZ table.
    pub fn probe_dtz(&self, pos: &Position) -> Result<i32, ProbeError> {
        self.check(pos)?;
        self.dtz(pos)
    }

    /// Every legal move with its result and distance, best first: wins (fastest zeroing
    /// first), then cursed wins, draws, blessed losses and losses (slowest first). With
    /// `fifty_move_rule`, a win whose zeroing move would come after the half-move clock
    /// reaches 100 counts as a cursed win (a loss likewise as a blessed loss); without it,
    /// cursed wins rank with wins and blessed losses with losses.
    ///
    /// # Errors
    /// As [`Tablebase::probe_dtz`], for the position or any after a move.
    pub fn root_moves(&self, pos: &Position, fifty_move_rule: bool) -> Result<Vec<RootMove>, ProbeError> {
        self.check(pos)?;
        let clock = pos.halfmove_clock() as i32;
        let mut moves = Vec::new();
        for &mv in pos.legal_moves().iter() {
            let child = after(pos, mv);
            let dtz = if child.is_checkmate() {
                1
            } else if child.halfmove_clock() == 0 {
                dtz_before_zeroing(-self.probe_wdl(&child)?.to_i8())
            } else {
                let d = -self.dtz(&child)?;
                d + d.signum()
            };
            let wdl = match dtz {
                0 => Wdl::Draw,
                d if d > 0 && d + clock <= 100 => Wdl::Win,
                d if d > 0 => Wdl::CursedWin,
                d if -d + clock <= 100 => Wdl::Loss,
                _ => Wdl::BlessedLoss,
            };
            moves.push(RootMove { mv, wdl, dtz });
        }
        let class = |m: &RootMove| match m.wdl {
            Wdl::CursedWin if !fifty_move_rule => Wdl::Win,
            Wdl::BlessedLoss if !fifty_move_rule => Wdl::Loss,
            wdl => wdl,
        };
        moves.sort_by_key(|m| (std::cmp::Reverse(class(m)), m.dtz));
        Ok(moves)
    }

    /// The moves the tables recommend: those of the best result, and for a win the fastest
    /// to zero, for a loss the slowest (every drawing move when the best is a draw). Empty
    /// when the game is over.
    ///
    /// # Errors
    /// As [`Tablebase::root_moves`].
    pub fn best_moves(&self, pos: &Position, fifty_move_rule: bool) -> Result<Vec<RootMove>, ProbeError> {
        let mut moves = self.root_moves(pos, fifty_move_rule)?;
        if let Some(&best) = moves.first() {
            let same = |m: &RootMove| m.wdl == best.wdl && (m.wdl == Wdl::Draw || m.dtz == best.dtz);
            moves.retain(|m| same(m) || (!fifty_move_rule && m.dtz == best.dtz));
        }
        Ok(moves)
    }

    /// The table value, with kings alone a draw.
    fn table_wdl(&self, pos: &Position) -> Result<i8, ProbeError> {
        if pos.occupied() == pos.by_role(Role::King) {
            return Ok(0);
        }
        self.wdl_table(pos)
    }

    /// Alpha-beta over captures (not en passant), then the table; returns the value and
    /// 2 when a capture is the best move (1 otherwise).
    fn probe_ab(&self, pos: &Position, mut alpha: i8, beta: i8) -> Result<(i8, u8), ProbeError> {
        let mut moves = MoveList::new();
        pos.generate_moves(MoveFilter::Captures, &mut moves);
        let theirs = pos.by_color(!pos.turn());
        for &m in moves.iter() {
            if m.is_en_passant() || !theirs.contains(m.to()) {
                continue;
            }
            let (v, _) = self.probe_ab(&after(pos, m), -beta, -alpha)?;
            let v = -v;
            if v > alpha {
                if v >= beta {
                    return Ok((v, 2));
                }
                alpha = v;
            }
        }
        let v = self.table_wdl(pos)?;
        Ok(if alpha >= v { (alpha, 1 + u8::from(alpha > 0)) } else { (v, 1) })
    }

    /// The legal en passant captures.
    fn en_passant_moves(pos: &Position) -> MoveList {
        let mut moves = MoveList::new();
        if pos.ep_square().is_some() {
            pos.generate_moves(MoveFilter::Captures, &mut moves);
            moves.retain(|m| m.is_en_passant());
        }
        moves
    }

    /// The best value of the en passant captures, -3 when there is none.
    fn best_en_passant(&self, pos: &Position, eps: &MoveList) -> Result<i8, ProbeError> {
        let mut best = -3;
        for &m in eps.iter() {
            best = best.max(-self.probe_ab(&after(pos, m), -2, 2)?.0);
        }
        Ok(best)
    }

    /// Whether every legal move is an en passant capture.
    fn only_en_passant(pos: &Position) -> bool {
        pos.legal_moves().iter().all(|m| m.is_en_passant())
    }

    pub(crate) fn wdl(&self, pos: &Position) -> Result<i8, ProbeError> {
        let (mut v, _) = self.probe_ab(pos, -2, 2)?;
        let eps = Self::en_passant_moves(pos);
        if eps.is_empty() {
            return Ok(v);
        }
        let v1 = self.best_en_passant(pos, &eps)?;
        if v1 >= v || (v == 0 && Self::only_en_passant(pos)) {
            v = v1;
        }
        Ok(v)
    }

    fn dtz(&self, pos: &Position) -> Result<i32, ProbeError> {
        let mut v = self.dtz_no_en_passant(pos)?;
        let eps = Self::en_passant_moves(pos);
        if eps.is_empty() {
            return Ok(v);
        }
        let v1 = dtz_before_zeroing(self.best_en_passant(pos, &eps)?);
        // An en passant capture replaces the value when it is better for the mover (or the
        // only move).
        let replace = if v < -100 {
            v1 >= 0
        } else if v < 0 {
            !(-100..0).contains(&v1)
        } else if v > 100 {
            v1 > 0
        } else if v > 0 {
            v1 == 1
        } else if v1 >= 0 {
            true
        } else {
            Self::only_en_passant(pos)
        };
        if replace {
            v = v1;
        }
        Ok(v)
    }

    fn dtz_no_en_passant(&self, pos: &Position) -> Result<i32, ProbeError> {
        let (wdl, success) = self.probe_ab(pos, -2, 2)?;
        if wdl == 0 {
            return Ok(0);
        }
        if success == 2 {
            return Ok(dtz_before_zeroing(wdl));
        }
        let empty = !pos.occupied();
        let pawns = pos.by_role(Role::Pawn);
        if wdl > 0 {
            // A pawn push that keeps the result zeroes at once.
            for &m in pos.legal_moves().iter() {
                if pawns.contains(m.from())
                    && empty.contains(m.to())
                    && !m.is_en_passant()
                    && -self.wdl(&after(pos, m))? == wdl
                {
                    return Ok(if wdl == 2 { 1 } else { 101 });
                }
            }
        }
        if let Some(dtz) = self.dtz_table(pos, wdl)? {
            return Ok(dtz_before_zeroing(wdl) + if wdl > 0 { dtz } else { -dtz });
        }
        // The table stores the other side to move: one ply of search.
        if wdl > 0 {
            let mut best = 0xffff;
            for &m in pos.legal_moves().iter() {
                if pawns.contains(m.from()) || !empty.contains(m.to()) {
                    continue;
                }
                let child = after(pos, m);
                let v = -self.dtz(&child)?;
                if v == 1 && child.is_checkmate() {
                    best = 1;
                } else if v > 0 && v + 1 < best {
                    best = v + 1;
                }
            }
            Ok(best)
        } else {
            let mut best = -1;
            for &m in pos.legal_moves().iter() {
                let child = after(pos, m);
                let v = if child.halfmove_clock() == 0 {
                    if wdl == -2 {
                        -1
                    } else if self.probe_ab(&child, 1, 2)?.0 == 2 {
                        0
                    } else {
                        -101
                    }
                } else {
                    -self.dtz(&child)? - 1
                };
                best = best.min(v);
            }
            Ok(best)
        }
    }
}
