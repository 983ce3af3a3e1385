//! Move ordering: every legal move gets a score, and the picker hands them out best first
//! (selection sort, so a cutoff after the first moves never pays for a full sort).
//!
//! Order: the hash move; captures and queen promotions that do not lose material (SEE),
//! most valuable victim first, refined by capture history; the two killers and the
//! countermove; the other quiet moves by butterfly and continuation history; then losing
//! captures and underpromotions.

use crate::history::{move_context, piece_index, History};
use crate::see::{see_ge, SEE_VALUE};
use tempo_core::{attacks, pawn_attacks, Move, MoveList, Piece, Position, Role, MAX_MOVES};

const HASH_MOVE: i32 = 100_000_000;
const GOOD_CAPTURE: i32 = 50_000_000;
const KILLER_1: i32 = 20_000_002;
const KILLER_2: i32 = 20_000_001;
const COUNTERMOVE: i32 = 20_000_000;
const BAD_CAPTURE: i32 = -50_000_000;
const UNDERPROMOTION: i32 = -60_000_000;

/// What ordering knows about the node besides the position.
pub struct OrderingContext<'a> {
    /// Transposition-table move.
    pub tt_move: Option<Move>,
    /// Killer moves of this ply.
    pub killers: [Option<Move>; 2],
    /// Countermove to the previous move.
    pub countermove: Option<Move>,
    /// Continuation contexts of the moves 1 and 2 plies ago.
    pub prev_contexts: [usize; 2],
    /// History tables.
    pub history: &'a History,
}

/// Orders a list of moves.
pub struct MovePicker {
    moves: MoveList,
    scores: [i32; MAX_MOVES],
    next: usize,
}

/// `true` for a move that neither captures nor promotes.
#[inline]
pub fn is_quiet(pos: &Position, m: Move) -> bool {
    !m.is_promotion() && !pos.is_capture(m)
}

impl MovePicker {
    /// A picker for the main search, scoring every move.
    pub fn new(pos: &Position, moves: MoveList, ctx: &OrderingContext<'_>) -> MovePicker {
        let mut scores = [0; MAX_MOVES];
        let us = pos.turn();
        for (i, &m) in moves.iter().enumerate() {
            scores[i] = if Some(m) == ctx.tt_move {
                HASH_MOVE
            } else if let Some(victim) = pos.captured_piece(m) {
                let piece = piece_index(pos.piece_at(m.from()).unwrap_or(Piece::new(us, Role::Pawn)));
                let base = SEE_VALUE[victim.role.index()] * 16 + ctx.history.capture(piece, m.to(), victim.role) / 8;
                match m.promotion_role() {
                    Some(role) if role != Role::Queen => UNDERPROMOTION + base,
                    _ if see_ge(pos, m, 0) => GOOD_CAPTURE + base,
                    _ => BAD_CAPTURE + base,
                }
            } else if let Some(role) = m.promotion_role() {
                if role == Role::Queen && see_ge(pos, m, 0) {
                    GOOD_CAPTURE + SEE_VALUE[Role::Queen.index()] * 16
                } else {
                    UNDERPROMOTION + SEE_VALUE[role.index()]
                }
            } else if Some(m) == ctx.killers[0] {
                KILLER_1
            } else if Some(m) == ctx.killers[1] {
                KILLER_2
            } else if Some(m) == ctx.countermove {
                COUNTERMOVE
            } else {
                let this = move_context(pos, m);
                ctx.history.butterfly(us, m)
                    + ctx.history.continuation(ctx.prev_contexts[0], this)
                    + ctx.history.continuation(ctx.prev_contexts[1], this)
            };
        }
        MovePicker { moves, scores, next: 0 }
    }

    /// A picker for quiescence: hash move first, then most valuable victim / least valuable
    /// attacker (evasions, when in check, by the same rule with quiet moves last).
    pub fn new_quiescence(pos: &Position, moves: MoveList, tt_move: Option<Move>) -> MovePicker {
        let mut scores = [0; MAX_MOVES];
        for (i, &m) in moves.iter().enumerate() {
            let attacker = pos.role_at(m.from()).map_or(0, |r| r.index() as i32);
            let victim = pos.captured_piece(m).map_or(0, |p| SEE_VALUE[p.role.index()]);
            let promotion = m.promotion_role().map_or(0, |r| SEE_VALUE[r.index()]);
            scores[i] = if Some(m) == tt_move { HASH_MOVE } else { (victim + promotion) * 8 - attacker };
        }
        MovePicker { moves, scores, next: 0 }
    }

    /// A picker that keeps the given order (the root, ordered by the previous iteration).
    pub fn in_order(moves: MoveList) -> MovePicker {
        let mut scores = [0; MAX_MOVES];
        for (i, score) in scores.iter_mut().enumerate().take(moves.len()) {
            *score = -(i as i32);
        }
        MovePicker { moves, scores, next: 0 }
    }

    /// The best remaining move and its ordering score.
    #[inline]
    pub fn next(&mut self) -> Option<(Move, i32)> {
        let n = self.moves.len();
        if self.next >= n {
            return None;
        }
        let mut best = self.next;
        for i in self.next + 1..n {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        self.moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        let picked = (self.moves[self.next], self.scores[self.next]);
        self.next += 1;
        Some(picked)
    }
}

/// `true` if playing the legal move `m` gives check.
///
/// Direct checks and discovered checks by normal moves are found from attack tables; the
/// rare special moves (castling, en passant, promotion) are played on a copy and tested.
pub fn gives_check(pos: &Position, m: Move) -> bool {
    if m.is_castle() || m.is_en_passant() || m.is_promotion() {
        let mut child = *pos;
        child.play_unchecked(m);
        return child.is_check();
    }
    let us = pos.turn();
    let their_king = pos.king_of(!us);
    let from = m.from();
    let to = m.to();
    let Some(piece) = pos.piece_at(from) else { return false };
    let occupied = pos.occupied().without(from).with(to);
    let direct = match piece.role {
        Role::Pawn => pawn_attacks(us, to).contains(their_king),
        Role::King => false,
        _ => attacks(piece, to, occupied).contains(their_king),
    };
    if direct {
        return true;
    }
    // Discovered check: the moved piece was the only blocker between one of our sliders and
    // their king, and it leaves the line.
    let blockers = pos.blockers_for_king(!us) & pos.by_color(us);
    blockers.contains(from) && !tempo_core::aligned(from, to, their_king)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gives_check_agrees_with_playing_the_move() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
            "3k4/8/8/2Pp4/8/8/8/B3K3 w - d6 0 2",
        ];
        for fen in fens {
            let pos: Position = fen.parse().unwrap();
            for &m in pos.legal_moves().iter() {
                let mut child = pos;
                child.play_unchecked(m);
                assert_eq!(gives_check(&pos, m), child.is_check(), "{fen} {m:?}");
            }
        }
    }

    #[test]
    fn picker_yields_every_move_once_hash_move_first() {
        let pos: Position = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1".parse().unwrap();
        let moves = pos.legal_moves();
        let history = History::new();
        let tt_move = moves[7];
        let ctx = OrderingContext {
            tt_move: Some(tt_move),
            killers: [None, None],
            countermove: None,
            prev_contexts: [crate::history::NO_CONTEXT; 2],
            history: &history,
        };
        let mut picker = MovePicker::new(&pos, moves.clone(), &ctx);
        let mut seen = Vec::new();
        while let Some((m, _)) = picker.next() {
            seen.push(m);
        }
        assert_eq!(seen[0], tt_move);
        assert_eq!(seen.len(), moves.len());
        seen.sort_by_key(|m| m.to_u16());
        seen.dedup();
        assert_eq!(seen.len(), moves.len());
    }
}
