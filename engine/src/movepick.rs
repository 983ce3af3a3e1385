//! Move ordering: every legal move gets a score, and the picker hands them out best first.
//!
//! Order: the hash move; captures and queen promotions that do not lose material (SEE),
//! most valuable victim first, refined by capture history; the two killers and the
//! countermove; the other quiet moves by butterfly and continuation history, raised for a
//! piece that leaves a lesser piece's attack for a square out of it; then losing captures
//! and underpromotions.
//!
//! The main search's picker works in stages so that a cutoff pays only for what was
//! handed out before it: the hash move, checked with `Position::is_legal`, is handed out
//! before the other moves are even generated, quiet moves are scored only once the good
//! captures are exhausted, and a node that prunes its remaining quiet
//! moves skips straight to the losing captures. Within a stage the best move is selected
//! one at a time, and once a stage has handed out a few moves (a node that is not going to
//! cut off soon) its remainder is sorted in one go rather than scanned again per move.

use crate::history::{move_context, piece_index, History};
use crate::parameters as param;
use crate::see::{see_ge, SEE_VALUE};
use arrayvec::ArrayVec;
use tempo_core::{
    attacks::{aligned, attacks, bishop_attacks, knight_attacks, pawn_attacks, rook_attacks},
    Bitboard, Move, MoveFilter, MoveList, Piece, Position, Role, Square, MAX_MOVES,
};

const HASH_MOVE: i32 = 100_000_000;
const GOOD_CAPTURE: i32 = 50_000_000;
const KILLER_1: i32 = 20_000_002;
const KILLER_2: i32 = 20_000_001;
const COUNTERMOVE: i32 = 20_000_000;
const BAD_CAPTURE: i32 = -50_000_000;
const UNDERPROMOTION: i32 = -60_000_000;

/// Moves a stage hands out by selection before it sorts the rest.
const SELECTIONS_BEFORE_SORT: usize = 3;

/// What ordering knows about the node besides the position and the history tables.
#[derive(Clone, Copy)]
pub struct OrderingContext {
    /// Transposition-table move.
    pub tt_move: Option<Move>,
    /// Killer moves of this ply.
    pub killers: [Option<Move>; 2],
    /// Countermove to the previous move.
    pub countermove: Option<Move>,
    /// Continuation contexts of the moves 1 and 2 plies ago.
    pub prev_contexts: [usize; 2],
}

impl OrderingContext {
    /// Nothing known: no hash move, killers, countermove or continuation.
    pub const NONE: OrderingContext = OrderingContext {
        tt_move: None,
        killers: [None; 2],
        countermove: None,
        prev_contexts: [crate::history::NO_CONTEXT; 2],
    };
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stage {
    /// The hash move, checked legal and handed out before any other move is generated.
    HashMove,
    /// The hash move is out: generate the others.
    Generate,
    /// Captures and promotions that do not lose material.
    GoodNoisy,
    /// Quiet moves (killers and countermove first, by their scores).
    Quiet,
    /// Captures that lose material, and underpromotions.
    BadNoisy,
    /// Every move was scored at creation: one selection over the whole list.
    Scored,
}

/// Orders a list of moves.
///
/// A picker is built where the search keeps it: the moves are generated straight into it
/// and the scores are pushed in the moves' order as their stage is reached, so a node pays
/// neither for copying a full-sized list nor for clearing a full-sized score array (both
/// showed in profiles of the search).
pub struct MovePicker {
    moves: MoveList,
    /// `scores[i]` is the score of `moves[i]`; only the scored prefix exists (quiet moves
    /// are scored when their stage begins, never if the search skips them).
    scores: ArrayVec<i32, MAX_MOVES>,
    stage: Stage,
    /// The next move to hand out in the current stage.
    cursor: usize,
    /// Noisy moves (captures, promotions) fill `start..noisy_end`, quiet moves the rest.
    noisy_end: usize,
    /// Where the losing noisy moves begin, once the good ones are handed out.
    bad_cursor: usize,
    /// Moves handed out by selection in the current stage; the stage is sorted after a few.
    selections: usize,
    /// The opponent's attacks, computed when first needed (quiet moves' history).
    threats: Option<Threats>,
    /// What the moves need to give check, computed when first asked.
    checks: Option<CheckSquares>,
    sorted: bool,
    skip_quiets: bool,
    ctx: OrderingContext,
}

/// `true` for a move that neither captures nor promotes.
#[inline]
pub fn is_quiet(pos: &Position, m: Move) -> bool {
    !m.is_promotion() && !pos.is_capture(m)
}

impl MovePicker {
    /// A picker without moves that will order with `ctx`; [`MovePicker::start`],
    /// [`MovePicker::generate_quiescence`] or [`MovePicker::push_in_order`] fills it.
    ///
    /// Why two steps: a picker is a few kilobytes, and filling the search's own variable in
    /// place keeps it from being copied from a constructor's frame into the search's (a
    /// copy that showed in profiles).
    #[inline]
    pub fn new(ctx: OrderingContext) -> MovePicker {
        MovePicker {
            moves: MoveList::new(),
            scores: ArrayVec::new(),
            stage: Stage::Scored,
            cursor: 0,
            noisy_end: 0,
            bad_cursor: 0,
            selections: 0,
            threats: None,
            checks: None,
            sorted: false,
            skip_quiets: false,
            ctx,
        }
    }

    /// Prepares an empty picker for the main search at `pos`; `false` if `pos` has no legal
    /// move (checkmate or stalemate).
    ///
    /// A legal hash move is handed out first, before the other moves are generated: when it
    /// cuts off, as it mostly does, generating and scoring the rest is saved. Without one,
    /// every move is generated now.
    pub fn start(&mut self, pos: &Position, history: &History) -> bool {
        debug_assert!(self.moves.is_empty());
        if self.ctx.tt_move.is_some_and(|m| pos.is_legal(m)) {
            self.stage = Stage::HashMove;
            return true;
        }
        self.ctx.tt_move = None;
        self.generate(pos, history);
        !self.moves.is_empty()
    }

    /// Generates every legal move of `pos` except the hash move, if it was handed out, and
    /// scores the noisy ones (capture history from `history`); quiet moves are scored when
    /// they are reached.
    fn generate(&mut self, pos: &Position, history: &History) {
        pos.generate_moves(MoveFilter::All, &mut self.moves);
        let moves = &mut self.moves;
        let mut start = 0;
        if let Some(tt) = self.ctx.tt_move {
            if let Some(i) = moves.iter().position(|&m| m == tt) {
                moves.swap(0, i);
                start = 1;
                // The hash move went out before; its slot holds the score it reported.
                self.scores.push(HASH_MOVE);
            }
        }
        // Noisy moves to the front.
        let mut noisy_end = start;
        for i in start..moves.len() {
            if !is_quiet(pos, moves[i]) {
                moves.swap(noisy_end, i);
                noisy_end += 1;
            }
        }
        for i in start..noisy_end {
            self.scores.push(noisy_score(pos, self.moves[i], history));
        }
        self.stage = Stage::GoodNoisy;
        self.cursor = start;
        self.noisy_end = noisy_end;
        self.bad_cursor = noisy_end;
    }

    /// Fills an empty picker with the moves of `pos` that `filter` selects, for quiescence:
    /// hash move first, then most valuable victim / least valuable attacker (evasions, when
    /// in check, by the same rule with quiet moves last).
    pub fn generate_quiescence(&mut self, pos: &Position, filter: MoveFilter, tt_move: Option<Move>) {
        debug_assert!(self.moves.is_empty());
        pos.generate_moves(filter, &mut self.moves);
        for &m in self.moves.iter() {
            let attacker = pos.role_at(m.from()).map_or(0, |r| r.index() as i32);
            let victim = pos.captured_piece(m).map_or(0, |p| SEE_VALUE[p.role.index()]);
            let promotion = m.promotion_role().map_or(0, |r| SEE_VALUE[r.index()]);
            self.scores.push(if Some(m) == tt_move { HASH_MOVE } else { (victim + promotion) * 8 - attacker });
        }
        self.noisy_end = self.moves.len();
        self.bad_cursor = self.noisy_end;
    }

    /// Appends `m` to a picker that hands out its moves in the order they were pushed (the
    /// root, ordered by the previous iteration).
    pub fn push_in_order(&mut self, m: Move) {
        debug_assert_eq!(self.stage, Stage::Scored);
        self.scores.push(-(self.moves.len() as i32));
        self.moves.push(m);
        self.noisy_end = self.moves.len();
        self.bad_cursor = self.noisy_end;
    }

    /// `true` if the picker holds no moves (after [`MovePicker::generate_quiescence`] in
    /// check: checkmate).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// Every square the opponent of the side to move attacks in `pos`, the position the
    /// picker was made for (the key of quiet moves' butterfly history).
    #[inline]
    pub fn threatened(&mut self, pos: &Position) -> Bitboard {
        self.threats_of(pos).all
    }

    fn threats_of(&mut self, pos: &Position) -> &Threats {
        self.threats.get_or_insert_with(|| Threats::of(pos))
    }

    /// `true` if the legal move `m` gives check in `pos`, the position the picker was made
    /// for.
    #[inline]
    pub fn gives_check(&mut self, pos: &Position, m: Move) -> bool {
        self.checks.get_or_insert_with(|| CheckSquares::of(pos)).gives_check(pos, m)
    }

    /// Hands out no more quiet moves (the search prunes them all from here on).
    #[inline]
    pub fn skip_quiets(&mut self) {
        self.skip_quiets = true;
    }

    /// The best remaining move and its ordering score. `pos` and `history` must be those
    /// the picker was made with (quiet moves are scored from them when first reached).
    #[inline]
    pub fn next(&mut self, pos: &Position, history: &History) -> Option<(Move, i32)> {
        loop {
            match self.stage {
                Stage::HashMove => {
                    self.stage = Stage::Generate;
                    if let Some(m) = self.ctx.tt_move {
                        return Some((m, HASH_MOVE));
                    }
                }
                Stage::Generate => self.generate(pos, history),
                Stage::GoodNoisy => {
                    if self.cursor < self.noisy_end {
                        let best = self.best_in(self.cursor, self.noisy_end);
                        if self.scores[best] > 0 {
                            return Some(self.take(best));
                        }
                    }
                    // What is left of the noisy moves loses material.
                    self.bad_cursor = self.cursor;
                    self.enter(Stage::Quiet, self.noisy_end);
                    if !self.skip_quiets {
                        debug_assert_eq!(self.scores.len(), self.noisy_end);
                        let threats = *self.threats_of(pos);
                        for i in self.noisy_end..self.moves.len() {
                            let score = self.quiet_score(pos, self.moves[i], history, &threats);
                            self.scores.push(score);
                        }
                    }
                }
                Stage::Quiet => {
                    if self.skip_quiets || self.cursor >= self.moves.len() {
                        self.enter(Stage::BadNoisy, self.bad_cursor);
                        continue;
                    }
                    return Some(self.pick(self.moves.len()));
                }
                Stage::BadNoisy => {
                    if self.cursor >= self.noisy_end {
                        return None;
                    }
                    return Some(self.pick(self.noisy_end));
                }
                Stage::Scored => {
                    if self.cursor >= self.moves.len() {
                        return None;
                    }
                    return Some(self.pick(self.moves.len()));
                }
            }
        }
    }

    fn enter(&mut self, stage: Stage, cursor: usize) {
        self.stage = stage;
        self.cursor = cursor;
        self.selections = 0;
        self.sorted = false;
    }

    /// The best of `cursor..end`: selected for the first few, then from the sorted rest.
    #[inline]
    fn pick(&mut self, end: usize) -> (Move, i32) {
        if !self.sorted {
            if self.selections < SELECTIONS_BEFORE_SORT {
                self.selections += 1;
                let best = self.best_in(self.cursor, end);
                return self.take(best);
            }
            self.sort(self.cursor, end);
            self.sorted = true;
        }
        self.take(self.cursor)
    }

    /// Index of the highest score in `from..end` (the first of equals).
    #[inline]
    fn best_in(&self, from: usize, end: usize) -> usize {
        // Over a slice, with the best score held apart: no bounds check and no reload per
        // move (this scan is among the search's hottest loops).
        let scores = &self.scores[from..end];
        let mut best = 0;
        let mut best_score = i32::MIN;
        for (i, &score) in scores.iter().enumerate() {
            if score > best_score {
                best = i;
                best_score = score;
            }
        }
        from + best
    }

    /// Hands out the move at `index`, swapping it to the cursor.
    #[inline]
    fn take(&mut self, index: usize) -> (Move, i32) {
        let at = self.cursor;
        self.moves.swap(at, index);
        self.scores.swap(at, index);
        self.cursor += 1;
        (self.moves[at], self.scores[at])
    }

    /// Insertion sort of `from..end`, highest score first, keeping equals in order.
    fn sort(&mut self, from: usize, end: usize) {
        sort_descending(&mut self.moves[from..end], &mut self.scores[from..end]);
    }

    fn quiet_score(&self, pos: &Position, m: Move, history: &History, threats: &Threats) -> i32 {
        if Some(m) == self.ctx.killers[0] {
            KILLER_1
        } else if Some(m) == self.ctx.killers[1] {
            KILLER_2
        } else if Some(m) == self.ctx.countermove {
            COUNTERMOVE
        } else {
            let this = move_context(pos, m);
            history.butterfly(pos.turn(), m, threats.all)
                + history.continuation(self.ctx.prev_contexts[0], this)
                + history.continuation(self.ctx.prev_contexts[1], this)
                + threats.escape_bonus(pos, m)
        }
    }
}

/// The squares the opponent attacks with pieces of rising value, for ordering quiet moves
/// that take a piece out of danger first, and with every piece, the key of quiet moves'
/// butterfly history.
#[derive(Clone, Copy)]
struct Threats {
    by_pawn: Bitboard,
    by_minor: Bitboard,
    by_rook: Bitboard,
    /// By any piece.
    all: Bitboard,
}

impl Threats {
    /// The side not to move's attacks: by pawns, by pawns or minor pieces, by pawns, minor
    /// pieces or rooks.
    fn of(pos: &Position) -> Threats {
        let them = !pos.turn();
        let occupied = pos.occupied();
        let attacked_by = |role: Role| -> Bitboard {
            let piece = Piece::new(them, role);
            pos.pieces(them, role).fold(Bitboard::EMPTY, |bb, sq| bb | attacks(piece, sq, occupied))
        };
        let by_pawn = attacked_by(Role::Pawn);
        let by_minor = by_pawn | attacked_by(Role::Knight) | attacked_by(Role::Bishop);
        let by_rook = by_minor | attacked_by(Role::Rook);
        let all = by_rook | attacked_by(Role::Queen) | attacked_by(Role::King);
        Threats { by_pawn, by_minor, by_rook, all }
    }

    /// A bonus for a quiet move of a piece attacked by a lesser piece to a square no lesser
    /// piece attacks, the larger the more valuable the piece.
    fn escape_bonus(&self, pos: &Position, m: Move) -> i32 {
        let (from, to) = (m.from(), m.to());
        match pos.piece_at(from).map(|p| p.role) {
            Some(Role::Queen) if self.by_rook.contains(from) && !self.by_rook.contains(to) => {
                param::escape_bonus_queen()
            }
            Some(Role::Rook) if self.by_minor.contains(from) && !self.by_minor.contains(to) => {
                param::escape_bonus_rook()
            }
            Some(Role::Knight | Role::Bishop) if self.by_pawn.contains(from) && !self.by_pawn.contains(to) => {
                param::escape_bonus_minor()
            }
            _ => 0,
        }
    }
}

/// Insertion sort of `moves` by `scores`, highest first, keeping equals in order (a stage
/// holds a few dozen moves at most, where insertion beats the library's sorts).
fn sort_descending(moves: &mut [Move], scores: &mut [i32]) {
    let len = moves.len().min(scores.len());
    let (moves, scores) = (&mut moves[..len], &mut scores[..len]);
    for i in 1..len {
        let (m, score) = (moves[i], scores[i]);
        let mut j = i;
        while j > 0 && scores[j - 1] < score {
            moves[j] = moves[j - 1];
            scores[j] = scores[j - 1];
            j -= 1;
        }
        moves[j] = m;
        scores[j] = score;
    }
}

/// The score of a capture or promotion: positive when it does not lose material.
fn noisy_score(pos: &Position, m: Move, history: &History) -> i32 {
    if let Some(victim) = pos.captured_piece(m) {
        let piece = piece_index(pos.piece_at(m.from()).unwrap_or(Piece::new(pos.turn(), Role::Pawn)));
        let base = SEE_VALUE[victim.role.index()] * 16 + history.capture(piece, m.to(), victim.role) / 8;
        match m.promotion_role() {
            Some(role) if role != Role::Queen => UNDERPROMOTION + base,
            _ if see_ge(pos, m, 0) => GOOD_CAPTURE + base,
            _ => BAD_CAPTURE + base,
        }
    } else {
        match m.promotion_role() {
            Some(Role::Queen) if see_ge(pos, m, 0) => GOOD_CAPTURE + SEE_VALUE[Role::Queen.index()] * 16,
            Some(role) => UNDERPROMOTION + SEE_VALUE[role.index()],
            None => 0,
        }
    }
}

/// What a move needs to give check at one node, computed once for all its moves: the
/// squares from which each of our roles would attack their king, and our pieces that block
/// one of our sliders' lines to it.
///
/// Why once per node: every move the search tries asks whether it checks, and answering
/// from scratch (a slider's attacks with the mover lifted, the pins to their king) cost
/// about 5% of the search in profiles.
#[derive(Clone, Copy)]
pub struct CheckSquares {
    their_king: Square,
    /// Indexed by [`Role::index`]; a king never checks directly.
    by_role: [Bitboard; 6],
    /// Our pieces whose leaving the line uncovers a check.
    discoverers: Bitboard,
}

impl CheckSquares {
    /// The check squares of the side to move in `pos`.
    pub fn of(pos: &Position) -> CheckSquares {
        let us = pos.turn();
        let their_king = pos.king_of(!us);
        let occupied = pos.occupied();
        let diagonal = bishop_attacks(their_king, occupied);
        let straight = rook_attacks(their_king, occupied);
        CheckSquares {
            their_king,
            by_role: [
                pawn_attacks(!us, their_king),
                knight_attacks(their_king),
                diagonal,
                straight,
                diagonal | straight,
                Bitboard::EMPTY,
            ],
            discoverers: pos.blockers_for_king(!us) & pos.by_color(us),
        }
    }

    /// `true` if playing the legal move `m` in `pos` (the position these squares were
    /// computed for) gives check.
    ///
    /// Direct and discovered checks by normal moves come from the squares; the rare special
    /// moves (castling, en passant, promotion) are played on a copy and tested.
    ///
    /// The squares are the attacks from their king on the board before the move. They hold
    /// after it too: a slider whose line to the king runs through its own origin already
    /// gave check from there, which cannot be with us to move.
    pub fn gives_check(&self, pos: &Position, m: Move) -> bool {
        if m.is_castle() || m.is_en_passant() || m.is_promotion() {
            let mut child = *pos;
            child.play_unchecked(m);
            return child.is_check();
        }
        let (from, to) = (m.from(), m.to());
        let Some(role) = pos.role_at(from) else { return false };
        self.by_role[role.index()].contains(to)
            || (self.discoverers.contains(from) && !aligned(from, to, self.their_king))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A crowded middlegame: castling both ways, captures for both sides, pins and checks.
    const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

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
        // Every move of every position along pseudo-random games from each start.
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        for fen in fens {
            for _ in 0..20 {
                let mut pos: Position = fen.parse().unwrap();
                for _ in 0..80 {
                    let checks = CheckSquares::of(&pos);
                    let moves = pos.legal_moves();
                    for &m in moves.iter() {
                        let mut child = pos;
                        child.play_unchecked(m);
                        assert_eq!(checks.gives_check(&pos, m), child.is_check(), "{pos} {m:?}");
                    }
                    if moves.is_empty() {
                        break;
                    }
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    pos.play_unchecked(moves[(seed % moves.len() as u64) as usize]);
                }
            }
        }
    }

    #[test]
    fn quiet_moves_out_of_a_lesser_attackers_reach_are_ordered_first() {
        // The knight stands in the d5 pawn's attack, the queen on the h8 rook's file.
        let pos: Position = "4k2r/8/1p6/3p4/4N2Q/8/8/R3K3 w - - 0 1".parse().unwrap();
        let threats = Threats::of(&pos);
        let square = |s: &str| s.parse::<tempo_core::Square>().unwrap();
        let bonus = |from: &str, to: &str| {
            let m = Move::normal(square(from), square(to));
            assert!(pos.legal_moves().contains(m), "{from}{to}");
            threats.escape_bonus(&pos, m)
        };
        assert_eq!(bonus("e4", "c3"), param::escape_bonus_minor());
        assert_eq!(bonus("e4", "c5"), 0, "into the b6 pawn's attack");
        assert_eq!(bonus("h4", "g4"), param::escape_bonus_queen());
        assert_eq!(bonus("h4", "h6"), 0, "still on the rook's file");
        assert_eq!(bonus("a1", "a2"), 0, "the rook was not attacked");
        assert!(param::escape_bonus_queen() > param::escape_bonus_rook());
        assert!(param::escape_bonus_rook() > param::escape_bonus_minor());
    }

    #[test]
    fn every_enemy_piece_counts_in_the_attack_map() {
        // Black's queen on a5 and king on e8 are the only attackers of a4 and d7.
        let pos: Position = "4k3/8/8/q7/8/8/8/4K3 w - - 0 1".parse().unwrap();
        let mut picker = MovePicker::new(OrderingContext::NONE);
        let threatened = picker.threatened(&pos);
        let square = |s: &str| s.parse::<tempo_core::Square>().unwrap();
        assert!(threatened.contains(square("a4")), "the queen's file");
        assert!(threatened.contains(square("e1")), "the queen's diagonal");
        assert!(threatened.contains(square("d7")), "the king's neighbour");
        assert!(!threatened.contains(square("h3")));
    }

    #[test]
    fn picker_yields_every_move_once_hash_move_first() {
        let pos: Position = KIWIPETE.parse().unwrap();
        let moves = pos.legal_moves();
        let history = History::new();
        let tt_move = moves[7];
        let mut picker = MovePicker::new(OrderingContext { tt_move: Some(tt_move), ..OrderingContext::NONE });
        assert!(picker.start(&pos, &history));
        let mut seen = Vec::new();
        let mut scores = Vec::new();
        while let Some((m, score)) = picker.next(&pos, &history) {
            seen.push(m);
            scores.push(score);
        }
        // Stage by stage, the scores never rise.
        assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
        assert_eq!(seen[0], tt_move);
        assert_eq!(seen.len(), moves.len());
        seen.sort_by_key(|m| m.to_u16());
        seen.dedup();
        assert_eq!(seen.len(), moves.len());
    }

    #[test]
    fn a_hash_move_that_is_not_legal_here_is_never_handed_out() {
        // After a key collision the table offers a move of another position: a move of the
        // other side, a move from an empty square, a move through a piece.
        let pos: Position = KIWIPETE.parse().unwrap();
        let legal = pos.legal_moves();
        let history = History::new();
        let square = |s: &str| s.parse::<tempo_core::Square>().unwrap();
        let impostors = [
            Move::normal(square("a6"), square("b5")), // Black's bishop
            Move::normal(square("d4"), square("d5")), // an empty square
            Move::normal(square("a1"), square("a3")), // through the a2 pawn
        ];
        let control = Move::castle(square("e1"), square("a1")); // O-O-O, legal here
        for (tt_move, legal_here) in impostors.iter().map(|&m| (m, false)).chain([(control, true)]) {
            let mut picker = MovePicker::new(OrderingContext { tt_move: Some(tt_move), ..OrderingContext::NONE });
            assert!(picker.start(&pos, &history));
            let mut seen = Vec::new();
            while let Some((m, _)) = picker.next(&pos, &history) {
                seen.push(m);
            }
            assert_eq!(seen.len(), legal.len(), "{tt_move:?}");
            assert!(seen.iter().all(|&m| legal.contains(m)), "{tt_move:?}");
            // Only the legal one comes first as the hash move.
            assert_eq!(seen[0] == tt_move, legal_here, "{tt_move:?}");
        }
    }

    #[test]
    fn skipping_quiets_still_hands_out_every_noisy_move() {
        let pos: Position = KIWIPETE.parse().unwrap();
        let moves = pos.legal_moves();
        let history = History::new();
        let mut picker = MovePicker::new(OrderingContext::NONE);
        assert!(picker.start(&pos, &history));
        let mut seen = Vec::new();
        // The first move is the best capture; then the search gives up on quiet moves.
        seen.push(picker.next(&pos, &history).unwrap().0);
        picker.skip_quiets();
        while let Some((m, _)) = picker.next(&pos, &history) {
            seen.push(m);
        }
        assert!(!is_quiet(&pos, seen[0]));
        assert!(seen.iter().all(|&m| !is_quiet(&pos, m)), "{seen:?}");
        let noisy = moves.iter().filter(|&&m| !is_quiet(&pos, m)).count();
        assert_eq!(seen.len(), noisy);
    }
}
