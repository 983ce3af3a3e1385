//! The searches behind [`can_mate`](super::can_mate): an exhaustive walk over the reachable
//! positions (a proof of "no" when it finishes) and a helpmate search guided towards mates.

use super::{CanMate, Impossibility};
use crate::{Bitboard, Color, Move, MoveList, Position, Role, Square};
use std::collections::{HashMap, HashSet, VecDeque};

/// The share of the budget the exhaustive walk may spend before the guided search takes
/// over: positions whose reachable set is small (locked pawns, few men) finish within it.
const EXHAUSTIVE_SHARE: u64 = 4;

/// The deepest helpmate, in plies, the guided search tries.
const MAX_PLIES: u32 = 120;

/// Decides by search, after the static proofs said nothing.
pub(super) fn decide(pos: &Position, mater: Color, nodes: u64) -> CanMate {
    let walk_budget = nodes / EXHAUSTIVE_SHARE;
    match exhaustive(pos, mater, walk_budget) {
        Walk::Mate(line) => return CanMate::Yes(line),
        Walk::NoMate => return CanMate::No(Impossibility::Exhausted),
        Walk::OutOfBudget(spent) => {
            let mut guided = Guided::new(mater, nodes.saturating_sub(spent));
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

/// Iterative deepening over helpmates, moves ordered so that the first lines tried are the
/// likely mates: the mater brings its men towards the other king, promotes and opens the
/// position; the defender walks its king towards the mater's men and to the edge, and gives
/// its men away rather than taking the mater's.
struct Guided {
    mater: Color,
    budget: u64,
    spent: u64,
    /// The deepest remaining depth each position was searched to without finding a mate,
    /// by Zobrist key (a collision can only hide a helpmate, never make a wrong "yes": every
    /// line found is a real one).
    searched: HashMap<u64, u32>,
    line: Vec<Move>,
}

impl Guided {
    fn new(mater: Color, budget: u64) -> Guided {
        Guided { mater, budget, spent: 0, searched: HashMap::new(), line: Vec::new() }
    }

    fn run(&mut self, pos: &Position) -> Option<Vec<Move>> {
        // The mate falls on a move of the mater: odd depths when it moves first.
        let mut depth = if pos.turn() == self.mater { 1 } else { 2 };
        while depth <= MAX_PLIES && self.spent < self.budget {
            self.searched.clear();
            if self.search(pos, depth) == Some(true) {
                let mut line = std::mem::take(&mut self.line);
                line.reverse();
                return Some(line);
            }
            depth += 2;
        }
        None
    }

    /// `Some(true)` with the helpmate in `self.line`, `Some(false)` when there is none within
    /// `depth` plies, `None` when the budget ran out.
    fn search(&mut self, pos: &Position, depth: u32) -> Option<bool> {
        if depth == 0 {
            return Some(false);
        }
        if let Some(&done) = self.searched.get(&pos.key()) {
            if done >= depth {
                return Some(false);
            }
        }
        let mut moves = pos.legal_moves();
        let mut scored: Vec<(i32, Move)> = moves.iter().map(|&m| (self.score(pos, m), m)).collect();
        scored.sort_by_key(|&(score, _)| std::cmp::Reverse(score));
        moves.clear();
        for (_, m) in scored {
            if self.spent >= self.budget {
                return None;
            }
            self.spent += 1;
            let mut child = *pos;
            child.play_unchecked(m);
            let mated = child.turn() != self.mater && child.is_checkmate();
            // The last ply must mate: only the mater's moves reach depth 1.
            if mated || (depth > 1 && self.search(&child, depth - 1)?) {
                self.line.push(m); // from the mate back to the root: `run` reverses it
                return Some(true);
            }
        }
        self.searched.insert(pos.key(), depth);
        Some(false)
    }

    /// A move's promise for the helpmate: higher first.
    fn score(&self, pos: &Position, m: Move) -> i32 {
        let us = pos.turn();
        let them = !us;
        let (from, to) = (m.from(), m.to());
        let role = pos.role_at(from).unwrap_or(Role::Pawn);
        let captured = pos.captured_piece(m).map(|p| p.role);
        let mut score = 0;
        if us == self.mater {
            let target = pos.king_of(them);
            if let Some(promoted) = m.promotion_role() {
                score += match promoted {
                    Role::Queen => 900,
                    Role::Rook | Role::Knight => 500,
                    _ => 400,
                };
            }
            if captured.is_some() {
                score += 300;
            }
            let weight = if role == Role::King { 5 } else { 20 };
            score += weight * (distance(from, target) - distance(to, target));
            if role == Role::Pawn {
                score += 50 + 5 * to.relative_to(us).rank().index() as i32;
            }
        } else {
            // Cooperation: the defender's king walks towards the mater's men and the edge,
            // its men stand where the mater can take them, and it takes nothing.
            let mater_men = pos.by_color(self.mater) - pos.by_role(Role::King);
            if role == Role::King {
                let goal = mater_men.first().unwrap_or_else(|| pos.king_of(self.mater));
                score += 20 * (distance(from, goal) - distance(to, goal));
                score += 10 * (edge_distance(from) - edge_distance(to));
            }
            if captured.is_some() {
                score -= 400;
            }
            if role != Role::King && pos.is_attacked(to, self.mater, pos.occupied() - Bitboard::from_square(from)) {
                score += 100;
            }
            if role == Role::Pawn {
                score += 30;
            }
        }
        score
    }
}

/// Chebyshev distance: king steps between two squares.
fn distance(a: Square, b: Square) -> i32 {
    let files = (a.file().index() as i32 - b.file().index() as i32).abs();
    let ranks = (a.rank().index() as i32 - b.rank().index() as i32).abs();
    files.max(ranks)
}

/// King steps from a square to the nearest edge.
fn edge_distance(s: Square) -> i32 {
    let file = s.file().index() as i32;
    let rank = s.rank().index() as i32;
    file.min(7 - file).min(rank).min(7 - rank)
}
