//! The searches behind [`can_mate`](super::can_mate): an exhaustive walk over the reachable
//! positions (a proof of "no" when it finishes), and the helpmate searches of `guided` and
//! `plan`, which share the budget in the order `decide` gives.

use super::guided::{Deepening, Dives};
use super::hash::FastSet;
use super::plan::{pawns_need_unblocking, Goal, Plan};
use super::{statics, CanMate, Impossibility};
use crate::{Color, Move, MoveKind, MoveList, Position, Role, MAX_MOVES};
use std::collections::VecDeque;

/// Decides by search, after the static proofs said nothing. Each stage runs until the nodes
/// spent in all reach its share of the budget: a few dives first (a sixty-fourth: most
/// positions of real games have a helpmate they find at once), the walk (an eighth:
/// positions with few reachable positions finish there), the plan search (three eighths:
/// the long helpmates of bare endgames), the iterative deepening (a half: short helpmates
/// off the plan), more dives (five eighths), the walk again (seven eighths: a "no" needs a
/// finished walk), and the plan search with the rest.
///
/// Where one of the mater's pawns is stopped by a defender's pawn (see [`Goal::Unblock`]),
/// the plan through them runs last with a budget of its own, half of `nodes`: the positions the
/// other stages decide get the same answer at the same cost (`Game` asks after moves in
/// blocked positions), and its nodes are cheap (no static proof but material at each), so
/// an undecided question plays about one and a half times `nodes` moves.
pub(super) fn decide(pos: &Position, mater: Color, nodes: u64) -> CanMate {
    let mut dives = Dives::new(pos, mater);
    if let Some(line) = dives.run(pos, nodes / 64) {
        return CanMate::Yes(line);
    }
    let mut walk = Walk::new(pos, mater);
    let walk_end = |walk: Walked| match walk {
        Walked::Mate(line) => Some(CanMate::Yes(line)),
        Walked::NoMate => Some(CanMate::No(Impossibility::Exhausted)),
        Walked::OutOfBudget => None,
    };
    if let Some(answer) = walk_end(walk.run(nodes / 8)) {
        return answer;
    }
    let mut plan = Plan::new(mater, Goal::Corner);
    let spent = |walk: &Walk, dives: &Dives, plan: &Plan| walk.spent + dives.spent() + plan.spent();
    let share = (nodes * 3 / 8).saturating_sub(spent(&walk, &dives, &plan));
    if let Some(line) = plan.run(pos, plan.spent() + share) {
        return CanMate::Yes(line);
    }
    let share = (nodes / 2).saturating_sub(spent(&walk, &dives, &plan));
    let mut deepening = Deepening::new(mater, share);
    if let Some(line) = deepening.run(pos) {
        return CanMate::Yes(line);
    }
    let spent = |walk: &Walk, dives: &Dives, plan: &Plan| spent(walk, dives, plan) + deepening.spent();
    let share = (nodes * 5 / 8).saturating_sub(spent(&walk, &dives, &plan));
    if let Some(line) = dives.run(pos, dives.spent() + share) {
        return CanMate::Yes(line);
    }
    let share = (nodes * 7 / 8).saturating_sub(spent(&walk, &dives, &plan));
    if let Some(answer) = walk_end(walk.run(walk.spent + share)) {
        return answer;
    }
    let share = nodes.saturating_sub(spent(&walk, &dives, &plan));
    if let Some(line) = plan.run(pos, plan.spent() + share) {
        return CanMate::Yes(line);
    }
    if pawns_need_unblocking(pos, mater) {
        if let Some(line) = Plan::new(mater, Goal::Unblock).run(pos, nodes / 2) {
            return CanMate::Yes(line);
        }
    }
    CanMate::Undecided
}

/// A position exactly, without the move counters (which change no legal move): two
/// positions with equal keys have the same continuations. Forty bytes: the walk keeps
/// millions, and their size was much of its time.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct ExactKey {
    /// Each man's role as a number from 1 to 6 (pawn 1, knight 2, bishop 3, rook 4, queen
    /// 5, king 6), one bitboard per binary digit: an empty square is 0 in all three.
    role_bits: [u64; 3],
    white: u64,
    /// The side to move, the castling rooks and the en passant square, packed.
    state: u64,
}

impl ExactKey {
    fn of(pos: &Position) -> ExactKey {
        let role = |role: Role| pos.by_role(role).0;
        let (pawns, knights, bishops) = (role(Role::Pawn), role(Role::Knight), role(Role::Bishop));
        let (rooks, queens, kings) = (role(Role::Rook), role(Role::Queen), role(Role::King));
        let role_bits = [pawns | bishops | queens, knights | bishops | kings, rooks | queens | kings];
        let rights = pos.castling_rights();
        let castling = rights.rooks().0;
        let ep = pos.ep_square().map_or(64, |s| s.index() as u64);
        // Castling rooks stand on the back ranks: fold the two ranks into 16 bits.
        let castling = (castling & 0xff) | ((castling >> 48) & 0xff00);
        let state = (pos.turn().index() as u64) | (ep << 1) | (castling << 8);
        ExactKey { role_bits, white: pos.by_color(Color::White).0, state }
    }
}

enum Walked {
    Mate(Vec<Move>),
    NoMate,
    OutOfBudget,
}

/// Breadth-first over every position reachable from the root, each visited once. A position
/// where the defender is checkmated ends the walk with the shortest helpmate; a walk that
/// runs out of positions has visited them all, so none is a mate: a proof of "no". Positions
/// a static proof settles are not walked on. It can be resumed with more budget.
struct Walk {
    mater: Color,
    /// Each visited position's parent (an index here) and the move that reached it.
    parents: Vec<(u32, Move)>,
    seen: FastSet<ExactKey>,
    /// Positions whose moves are still to be walked, with their index in `parents`.
    queue: VecDeque<(Position, u32)>,
    /// Moves played so far.
    spent: u64,
}

impl Walk {
    fn new(root: &Position, mater: Color) -> Walk {
        Walk {
            mater,
            parents: vec![(u32::MAX, Move::NULL)],
            seen: FastSet::from_iter([ExactKey::of(root)]),
            queue: VecDeque::from([(*root, 0)]),
            spent: 0,
        }
    }

    /// Walks on until `spent` reaches `budget` (checked between positions, so it may pass
    /// it by one position's moves).
    fn run(&mut self, budget: u64) -> Walked {
        let mut moves = MoveList::new();
        while self.spent < budget {
            let Some((position, index)) = self.queue.pop_front() else { return Walked::NoMate };
            if self.parents.len() + MAX_MOVES >= u32::MAX as usize {
                return Walked::OutOfBudget;
            }
            moves.clear();
            position.legal_moves_into(&mut moves);
            for &m in moves.iter() {
                self.spent += 1;
                // The static proof is tried after the moves that can change its answer
                // most: captures, pawn moves, king moves (the kings' regions and the
                // stalemating squares follow the kings), castling and promotions. After
                // another piece's quiet move, within the region the parent's failed proof
                // gave it, it rarely succeeds, and it was most of the walk's time.
                let structural = position.is_capture(m)
                    || matches!(position.role_at(m.from()), Some(Role::Pawn | Role::King))
                    || m.kind() != MoveKind::Normal;
                let mut child = position;
                child.play_unchecked(m);
                if !self.seen.insert(ExactKey::of(&child)) {
                    continue;
                }
                self.parents.push((index, m));
                let reached = (self.parents.len() - 1) as u32;
                if child.turn() != self.mater && child.is_checkmate() {
                    return Walked::Mate(line_to(&self.parents, reached as usize));
                }
                // A position from which a static proof shows no mate needs no walk: nothing
                // reachable from it mates, which is all the walk has to show.
                if statics::material_cannot_mate(&child, self.mater)
                    || (structural && statics::frozen_pawns_prevent_mate(&child, self.mater))
                {
                    continue;
                }
                self.queue.push_back((child, reached));
            }
        }
        if self.queue.is_empty() {
            Walked::NoMate
        } else {
            Walked::OutOfBudget
        }
    }
}

/// The moves from the root to the visited position at `index`.
fn line_to(parents: &[(u32, Move)], mut index: usize) -> Vec<Move> {
    let mut line = Vec::new();
    while parents[index].0 != u32::MAX {
        line.push(parents[index].1);
        index = parents[index].0 as usize;
    }
    line.reverse();
    line
}
