//! Helpmate searches guided towards mates, for positions too open to walk exhaustively: they
//! can only answer "yes" (with the line found), never "no".
//! - `Dives`: many playouts from the position, each move chosen by how much closer it
//!   brings a mate ([`promise`]), with some chosen at random so that dives differ; at each of
//!   the mater's turns every move is tried for mate, so a dive finds any mate in one on its way.
//! - `Deepening`: iterative deepening over every line, moves ordered by [`move_order`], for
//!   short helpmates the dives walk past.

use super::hash::{FastMap, FastSet};
use crate::attacks::king_attacks;
use crate::{Bitboard, Color, Move, MoveList, Position, Role, Square};

/// The deepest helpmate, in plies, the iterative deepening tries.
const MAX_PLIES: u32 = 120;

/// The longest dive, in plies.
const DIVE_PLIES: usize = 360;

/// Iterative deepening over helpmates, moves ordered so that the first lines tried are the
/// likely mates: the mater brings its men towards the other king, promotes and opens the
/// position; the defender walks its king towards the mater's men and to the edge, and gives
/// its men away rather than taking the mater's.
pub(super) struct Deepening {
    mater: Color,
    budget: u64,
    spent: u64,
    /// The deepest remaining depth each position was searched to without finding a mate,
    /// by Zobrist key (a collision can only hide a helpmate, never make a wrong "yes": every
    /// line found is a real one).
    searched: FastMap<u64, u32>,
    line: Vec<Move>,
}

impl Deepening {
    pub(super) fn new(mater: Color, budget: u64) -> Deepening {
        Deepening { mater, budget, spent: 0, searched: FastMap::default(), line: Vec::new() }
    }

    /// The moves the search played.
    pub(super) fn spent(&self) -> u64 {
        self.spent
    }

    pub(super) fn run(&mut self, pos: &Position) -> Option<Vec<Move>> {
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
        let mut scored: Vec<(i32, Move)> = moves.iter().map(|&m| (move_order(pos, self.mater, m), m)).collect();
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
}

/// A move's promise for the helpmate, from the position before it (cheap: nothing is
/// played): higher first.
fn move_order(pos: &Position, mater: Color, m: Move) -> i32 {
    let us = pos.turn();
    let them = !us;
    let (from, to) = (m.from(), m.to());
    let role = pos.role_at(from).unwrap_or(Role::Pawn);
    let captured = pos.captured_piece(m).map(|p| p.role);
    let mut score = 0;
    if us == mater {
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
        let mater_men = pos.by_color(mater) - pos.by_role(Role::King);
        if role == Role::King {
            let goal = mater_men.first().unwrap_or_else(|| pos.king_of(mater));
            score += 20 * (distance(from, goal) - distance(to, goal));
            score += 10 * (edge_distance(from) - edge_distance(to));
        }
        if captured.is_some() {
            score -= 400;
        }
        if role != Role::King && pos.is_attacked(to, mater, pos.occupied() - Bitboard::from_square(from)) {
            score += 100;
        }
        if role == Role::Pawn {
            score += 30;
        }
    }
    score
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

/// Playouts guided by [`promise`], each from the root.
pub(super) struct Dives {
    mater: Color,
    /// The moves the dives may play in all: `run` raises it.
    budget: u64,
    spent: u64,
    /// Dives begun, over every `run`.
    dives: u64,
    /// xorshift64 state: deterministic, so the same question gets the same answer.
    random: u64,
}

impl Dives {
    pub(super) fn new(pos: &Position, mater: Color) -> Dives {
        let seed = pos.key() ^ (mater.index() as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        Dives { mater, budget: 0, spent: 0, dives: 0, random: seed | 1 }
    }

    /// The moves the dives played.
    pub(super) fn spent(&self) -> u64 {
        self.spent
    }

    fn next_random(&mut self) -> u64 {
        self.random ^= self.random << 13;
        self.random ^= self.random >> 7;
        self.random ^= self.random << 17;
        self.random
    }

    /// Dives until a mate is found or the moves played in all reach `budget`.
    pub(super) fn run(&mut self, root: &Position, budget: u64) -> Option<Vec<Move>> {
        self.budget = budget;
        while self.spent < self.budget {
            self.dives += 1;
            if let Some(line) = self.dive(root, self.dives - 1) {
                return Some(without_cycles(root, line));
            }
        }
        None
    }

    /// One playout. The share of random moves grows with the dive number: the first dives
    /// follow the heuristic closely, later ones explore.
    fn dive(&mut self, root: &Position, dive: u64) -> Option<Vec<Move>> {
        let mut pos = *root;
        let mut line = Vec::new();
        let mut visited = FastSet::default();
        let mut moves = MoveList::new();
        let random_in_16 = 1 + (dive % 8);
        for _ in 0..DIVE_PLIES {
            visited.insert(pos.key());
            moves.clear();
            pos.legal_moves_into(&mut moves);
            if moves.is_empty() {
                return None;
            }
            let random_pick = self.next_random() % 16 < random_in_16;
            if random_pick && pos.turn() != self.mater {
                let m = moves[(self.next_random() % moves.len() as u64) as usize];
                self.spent += 1;
                pos.play_unchecked(m);
                line.push(m);
                continue;
            }
            // The mater's every move is tried for mate, even when the pick is random.
            let pick = random_pick.then(|| (self.next_random() % moves.len() as u64) as usize);
            let mut best = (i32::MIN, Move::NULL, pos);
            for (index, &m) in moves.iter().enumerate() {
                if self.spent >= self.budget {
                    return None;
                }
                self.spent += 1;
                let mut child = pos;
                child.play_unchecked(m);
                if child.turn() != self.mater && child.is_checkmate() {
                    line.push(m);
                    return Some(line);
                }
                if pick.is_some() {
                    if pick == Some(index) {
                        best = (0, m, child);
                    }
                    continue;
                }
                let jitter = (self.next_random() % 24) as i32;
                let repeat = if visited.contains(&child.key()) { 200 } else { 0 };
                let value = promise(&child, self.mater) + jitter - repeat;
                if value > best.0 {
                    best = (value, m, child);
                }
            }
            line.push(best.1);
            pos = best.2;
        }
        None
    }
}

/// How close a position looks to the mater's mate, to choose between moves by the positions
/// they lead to: higher is closer. The defender's king near a corner with few flight squares,
/// the mater's men near it, the mater's pawns advanced (promotion brings mating material), a
/// check given.
fn promise(pos: &Position, mater: Color) -> i32 {
    let defender = !mater;
    let king = pos.king_of(defender);
    let mut value = 0;
    value -= 12 * corner_distance(king);
    value -= 6 * edge_distance(king);
    let occupied = pos.occupied();
    let own = pos.by_color(defender);
    for flight in king_attacks(king) - own {
        if !pos.is_attacked(flight, mater, occupied) {
            value -= 10;
        }
    }
    if pos.turn() == defender && pos.is_check() {
        value += 25;
    }
    if lacks_mating_force(pos, mater) {
        // A lone minor piece mates only against blockers: the defender's men should gather
        // around their king, and its pawns promote into more of them.
        for square in own - pos.by_role(Role::King) {
            value -= 4 * distance(square, king);
            if pos.role_at(square) == Some(Role::Pawn) {
                value += 4 * square.relative_to(defender).rank().index() as i32;
            }
        }
    }
    for square in pos.by_color(mater) {
        let role = pos.role_at(square).unwrap_or(Role::Pawn);
        value += match role {
            Role::King => -3 * distance(square, king),
            Role::Pawn => 4 * square.relative_to(mater).rank().index() as i32,
            Role::Queen => 60 - 6 * distance(square, king),
            Role::Rook => 40 - 5 * distance(square, king),
            _ => 30 - 6 * distance(square, king),
        };
    }
    value
}

/// King steps from a square to the nearest corner.
fn corner_distance(s: Square) -> i32 {
    let file = s.file().index() as i32;
    let rank = s.rank().index() as i32;
    file.min(7 - file).max(rank.min(7 - rank))
}

/// `true` if `mater`'s men could not mate a bare king: no pawn, rook or queen, and a lone
/// minor piece or bishops of one colour.
fn lacks_mating_force(pos: &Position, mater: Color) -> bool {
    let men = pos.by_color(mater) - pos.by_role(Role::King);
    if (men & (pos.by_role(Role::Pawn) | pos.by_role(Role::Rook) | pos.by_role(Role::Queen))).any() {
        return false;
    }
    let bishops = men & pos.by_role(Role::Bishop);
    men.count() <= 1
        || (men == bishops
            && ((bishops & Bitboard::LIGHT_SQUARES).is_empty() || (bishops & Bitboard::DARK_SQUARES).is_empty()))
}

/// `line` with every stretch that returns to a position already reached cut out: shorter,
/// still legal (the same position has the same moves) and still ending in the same mate.
fn without_cycles(root: &Position, line: Vec<Move>) -> Vec<Move> {
    // The positions along the line, compared by their FEN without the move counters: equal
    // text is an equal position, so the cut cannot make a move illegal.
    let mut kept: Vec<Move> = Vec::with_capacity(line.len());
    let mut reached: Vec<String> = vec![root.epd()];
    let mut pos = *root;
    for m in line {
        pos.play_unchecked(m);
        let here = pos.epd();
        if let Some(first) = reached.iter().position(|seen| *seen == here) {
            kept.truncate(first);
            reached.truncate(first + 1);
        } else {
            kept.push(m);
            reached.push(here);
        }
    }
    kept
}
