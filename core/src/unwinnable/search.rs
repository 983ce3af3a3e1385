//! The searches behind [`can_mate`](super::can_mate), in the order they run: an exhaustive
//! walk over the reachable positions (a proof of "no" when it finishes), then the helpmate
//! searches of `guided`.

use super::guided::{Deepening, Dives};
use super::{CanMate, Impossibility};
use crate::{Color, Move, MoveList, Position, Role};
use std::collections::{HashSet, VecDeque};

/// The share of the budget the exhaustive walk may spend before the guided search takes
/// over: positions whose reachable set is small (locked pawns, few men) finish within it.
const EXHAUSTIVE_SHARE: u64 = 4;

/// The share of what the walk left that the iterative deepening gets after the dives: short
/// helpmates the dives missed.
const DEEPENING_SHARE: u64 = 3;

/// Decides by search, after the static proofs said nothing.
pub(super) fn decide(pos: &Position, mater: Color, nodes: u64) -> CanMate {
    let walk_budget = nodes / EXHAUSTIVE_SHARE;
    match exhaustive(pos, mater, walk_budget) {
        Walk::Mate(line) => return CanMate::Yes(line),
        Walk::NoMate => return CanMate::No(Impossibility::Exhausted),
        Walk::OutOfBudget(spent) => {
            let left = nodes.saturating_sub(spent);
            let mut dives = Dives::new(pos, mater, left - left / DEEPENING_SHARE);
            if let Some(line) = dives.run(pos) {
                return CanMate::Yes(line);
            }
            let mut guided = Deepening::new(mater, left / DEEPENING_SHARE + dives.unspent());
            if let Some(line) = guided.run(pos) {
                return CanMate::Yes(line);
            }
        }
    }
    CanMate::Undecided
}

/// A position exactly, without the move counters (which change no legal move): two
/// positions with equal keys have the same continuations.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct ExactKey {
    roles: [u64; 6],
    white: u64,
    /// The side to move, the castling rooks and the en passant square, packed.
    state: u64,
}

impl ExactKey {
    fn of(pos: &Position) -> ExactKey {
        let mut roles = [0; 6];
        for (i, role) in Role::ALL.iter().enumerate() {
            roles[i] = pos.by_role(*role).0;
        }
        let rights = pos.castling_rights();
        let castling = rights.rooks().0;
        let ep = pos.ep_square().map_or(64, |s| s.index() as u64);
        // Castling rooks stand on the back ranks: fold the two ranks into 16 bits.
        let castling = (castling & 0xff) | ((castling >> 48) & 0xff00);
        let state = (pos.turn().index() as u64) | (ep << 1) | (castling << 8);
        ExactKey { roles, white: pos.by_color(Color::White).0, state }
    }
}

enum Walk {
    Mate(Vec<Move>),
    NoMate,
    OutOfBudget(u64),
}

/// Breadth-first over every position reachable from `pos`, each visited once. A position
/// where the defender is checkmated ends the walk with the shortest helpmate; a walk that
/// runs out of positions has visited them all, so none is a mate: a proof of "no".
fn exhaustive(pos: &Position, mater: Color, budget: u64) -> Walk {
    // Each visited position's parent (an index here) and the move that reached it.
    let mut parents: Vec<(u32, Move)> = vec![(u32::MAX, Move::NULL)];
    let mut seen: HashSet<ExactKey> = HashSet::new();
    seen.insert(ExactKey::of(pos));
    let mut queue = VecDeque::from([(*pos, 0u32)]);
    let mut spent = 0u64;
    let mut moves = MoveList::new();
    while let Some((position, index)) = queue.pop_front() {
        moves.clear();
        position.legal_moves_into(&mut moves);
        for &m in moves.iter() {
            if spent >= budget || parents.len() >= u32::MAX as usize {
                return Walk::OutOfBudget(spent);
            }
            spent += 1;
            let mut child = position;
            child.play_unchecked(m);
            if !seen.insert(ExactKey::of(&child)) {
                continue;
            }
            parents.push((index, m));
            if child.turn() != mater && child.is_checkmate() {
                return Walk::Mate(line_to(&parents, parents.len() - 1));
            }
            queue.push_back((child, (parents.len() - 1) as u32));
        }
    }
    Walk::NoMate
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
