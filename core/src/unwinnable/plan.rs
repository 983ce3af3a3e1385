//! A depth-first helpmate search that follows a mating plan: every line is searched to a
//! depth, but a move that follows the plan costs no depth and a move against it costs
//! three plies instead of one, so the search looks far along the plan and little
//! elsewhere. The idea is the `find_mate` of the Chess Unwinnability Analyzer (Ambrona): it
//! finds the helpmates of bare endgames (king and minor pieces against blockers) and of
//! positions where a king must walk a long way, which the dives miss.
//!
//! The plan is a mate in a corner of the defender's side: the defender's king goes to the
//! corner, the mater's king two squares in front of it, the defender's other men next to the
//! corner (to block its king's flight), and the mater's men towards the corner; the mater
//! captures and pushes its pawns, the defender pushes its pawns when the mater needs it to
//! promote (a lone knight or bishops of one colour mate only against blockers), and gives
//! nothing away otherwise. The corner's colour is that of the mater's bishops, so that they
//! can give the check.
//!
//! The unblocking plan ([`Goal::Unblock`]) comes before it where the mater's pawns are all
//! stopped (by a pawn ahead on the file, or a man right in front) and it has no rook or
//! queen, so that nothing can mate before a pawn gets through: the defender's king eats the mater's pawns that stop its own, its
//! pawns run and promote, its pieces give themselves up to the mater's pawns, and the pawn
//! that takes runs on a file of its own; once the mater has a free pawn, a rook or a queen,
//! the corner plan takes over in the same search.
//!
//! Only a "yes" comes out of it, with the line it found: a search that ends without one
//! proves nothing (its depths are bounded).

use super::hash::FastMap;
use super::statics;
use crate::attacks::{king_attacks, knight_attacks, pawn_attacks};
use crate::{Bitboard, Color, Move, MoveList, Position, Role, Square};
use std::sync::OnceLock;

/// The nodes one iteration may spend before the next, deeper one starts: the iterations
/// that matter are the deep ones along the plan, which the budget of the shallow ones must
/// not starve.
const ITERATION_NODES: u64 = 300_000;

/// Past this many plies from the root no move is rewarded, so every line ends.
const REWARD_PLIES: usize = 400;

/// The deepest iteration.
const MAX_DEPTH: i32 = 1_000;

/// How a move relates to the plan.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Variation {
    Normal,
    Reward,
    Punish,
}

/// Which plan the search follows.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Goal {
    /// The mate in a corner, from the start.
    Corner,
    /// First a promotion through locked pawns (see `Unblocking`), then the mate in a corner.
    Unblock,
}

/// The search, with its budget and transposition table.
pub(super) struct Plan {
    mater: Color,
    goal: Goal,
    budget: u64,
    spent: u64,
    /// Nodes of the current iteration, and its cap.
    iteration_spent: u64,
    max_depth: i32,
    /// The most plies left each position was searched with, by Zobrist key (a collision can
    /// only hide a helpmate, never make a wrong "yes": every line found is played).
    searched: FastMap<u64, i32>,
    line: Vec<Move>,
}

impl Plan {
    pub(super) fn new(mater: Color, goal: Goal) -> Plan {
        Plan {
            mater,
            goal,
            budget: 0,
            spent: 0,
            iteration_spent: 0,
            max_depth: 1,
            searched: FastMap::default(),
            line: Vec::new(),
        }
    }

    /// The nodes the search has played in all.
    pub(super) fn spent(&self) -> u64 {
        self.spent
    }

    /// Iterative deepening until a helpmate is found, the nodes played in all reach
    /// `budget`, or the deepest iteration ends; resumable with a larger budget.
    pub(super) fn run(&mut self, root: &Position, budget: u64) -> Option<Vec<Move>> {
        self.budget = budget;
        while self.max_depth <= MAX_DEPTH && self.spent < self.budget {
            self.max_depth += 1;
            self.searched.clear();
            self.iteration_spent = 0;
            self.line.clear();
            if self.search(root, 0, false) {
                return Some(std::mem::take(&mut self.line));
            }
        }
        None
    }

    /// `true` with the helpmate in `self.line` (root first) when one is found below `pos`,
    /// reached at `depth` (plan moves do not count).
    fn search(&mut self, pos: &Position, depth: i32, past_progress: bool) -> bool {
        let mater = self.mater;
        let left = self.max_depth - depth;
        if self.searched.get(&pos.key()).is_some_and(|&done| done >= left) {
            return false;
        }
        if statics::material_cannot_mate(pos, mater) {
            return false;
        }
        if depth >= self.max_depth || self.iteration_spent >= ITERATION_NODES || self.spent >= self.budget {
            return false;
        }
        self.searched.insert(pos.key(), left);
        let mut moves = MoveList::new();
        pos.legal_moves_into(&mut moves);
        let needs_promotion = needs_defender_promotion(pos, mater);
        let winners_turn = pos.turn() == mater;
        let plies = self.line.len();
        let unblock = (self.goal == Goal::Unblock).then(|| Unblocking::of(pos, mater)).flatten();
        for &m in moves.iter() {
            let mut variation = match &unblock {
                Some(unblocking) => unblocking.classify(pos, m, winners_turn),
                None => classify(pos, mater, m, winners_turn, needs_promotion),
            };
            if plies > REWARD_PLIES && variation == Variation::Reward {
                variation = Variation::Normal;
            }
            let next = match variation {
                Variation::Reward => depth,
                Variation::Punish => (depth + 3).min(self.max_depth),
                Variation::Normal if past_progress => depth,
                Variation::Normal => depth + 1,
            };
            self.spent += 1;
            self.iteration_spent += 1;
            let mut child = *pos;
            child.play_unchecked(m);
            self.line.push(m);
            if child.turn() != mater && child.is_checkmate() {
                return true;
            }
            if self.search(&child, next, variation == Variation::Reward) {
                return true;
            }
            self.line.pop();
        }
        false
    }
}

/// Whether `m` follows the plan, goes against it, or neither.
fn classify(pos: &Position, mater: Color, m: Move, winners_turn: bool, needs_promotion: bool) -> Variation {
    let role = pos.role_at(m.from()).unwrap_or(Role::Pawn);
    let target = target(pos, role, mater);
    let closer = closer_to(m, target, role);
    if winners_turn {
        let advanced_push = role == Role::Pawn && m.to().relative_to(mater).rank().index() >= 4;
        if advanced_push || pos.is_capture(m) || closer {
            return Variation::Reward;
        }
        return Variation::Normal;
    }
    let closer = closer || (role == Role::Bishop && bishop_to_corner(pos, m, target));
    let mut variation = Variation::Normal;
    if needs_promotion {
        let heavy = matches!(m.promotion_role(), Some(Role::Queen | Role::Rook));
        variation = if role == Role::Pawn && !heavy { Variation::Reward } else { Variation::Punish };
    }
    if closer {
        Variation::Reward
    } else if pos.is_capture(m) {
        Variation::Punish
    } else {
        variation
    }
}

/// `true` if the defender's bishop moved by `m` comes closer (in king steps) to a square
/// next to `corner`, the defender's king's goal, that it can stand on and no other of the
/// defender's men holds: there the bishops block the king's flight, as a mate by bishops of
/// one colour or a mater whose king cannot come near needs. Only with two bishops or more,
/// as the Chess Unwinnability Analyzer does: with one the plan's other moves suffice.
fn bishop_to_corner(pos: &Position, m: Move, corner: Square) -> bool {
    let defender = pos.turn();
    if !pos.pieces(defender, Role::Bishop).has_more_than_one() {
        return false;
    }
    let colour =
        if Bitboard::DARK_SQUARES.contains(m.from()) { Bitboard::DARK_SQUARES } else { Bitboard::LIGHT_SQUARES };
    let others = pos.by_color(defender).without(m.from());
    let flights = king_attacks(corner) & colour & !others;
    let nearest = |square: Square| flights.into_iter().map(|f| chebyshev(square, f)).min();
    matches!((nearest(m.from()), nearest(m.to())), (Some(before), Some(after)) if after < before)
}

/// The plan through locked pawns, for a mater whose pawns are all stopped (by a pawn ahead
/// on the file, or a man right in front) and who has no rook or queen: the defender's king eats the mater's pawns that
/// stand in front of its own, the defender's pawns run and promote, the pieces they become
/// (and the defender's other pieces) give themselves up to the mater's pawns, and the pawn
/// that takes, on a file of its own, runs to promote in turn; then the corner plan mates.
struct Unblocking {
    mater: Color,
    /// The mater's pawns with a defender's pawn ahead on the same file (in its way, so that
    /// it promotes once they are gone): the defender's king's goals.
    blockers: Bitboard,
    /// The squares the mater's pawns attack: where the defender's pieces give themselves up.
    sacrifice: Bitboard,
}

/// `true` if the unblocking plan may help from `pos`: one of `mater`'s pawns has a
/// defender's pawn in front of it on its file. (The plan itself applies only where all of
/// them have, but a pawn with none may be stuck all the same, behind its own king or
/// pawns, until the others get through.)
pub(super) fn pawns_need_unblocking(pos: &Position, mater: Color) -> bool {
    let theirs = pos.pieces(!mater, Role::Pawn);
    pos.pieces(mater, Role::Pawn).into_iter().map(|pawn| front_span(pawn, mater) & theirs).any(|ahead| ahead.any())
}

impl Unblocking {
    /// The plan's state in `pos`, or `None` when the corner plan applies: the mater has a rook,
    /// a queen, or a free pawn (no pawn ahead on its file, the square in front empty).
    fn of(pos: &Position, mater: Color) -> Option<Unblocking> {
        let defender = !mater;
        let ours = pos.by_color(mater);
        if (ours & (pos.by_role(Role::Rook) | pos.by_role(Role::Queen))).any() {
            return None;
        }
        let our_pawns = pos.pieces(mater, Role::Pawn);
        let their_pawns = pos.pieces(defender, Role::Pawn);
        if our_pawns.is_empty() {
            return None;
        }
        let mut blockers = Bitboard::EMPTY;
        let mut sacrifice = Bitboard::EMPTY;
        let occupied = pos.occupied();
        for pawn in our_pawns {
            // A pawn with no pawn ahead on its file is free, unless a man stands right in
            // front of it (its own king, boxed in, as often as not).
            let ahead = front_span(pawn, mater);
            let in_front = ahead & Bitboard::from_square(pawn).shift_forward(mater);
            if (ahead & pos.by_role(Role::Pawn)).is_empty() && (in_front & occupied).is_empty() {
                return None;
            }
            if (ahead & their_pawns).any() {
                blockers = blockers.with(pawn);
            }
            sacrifice |= pawn_attacks(mater, pawn);
        }
        Some(Unblocking { mater, blockers, sacrifice })
    }

    fn classify(&self, pos: &Position, m: Move, winners_turn: bool) -> Variation {
        let role = pos.role_at(m.from()).unwrap_or(Role::Pawn);
        let free_push =
            |color: Color| role == Role::Pawn && (front_span(m.from(), color) & pos.by_role(Role::Pawn)).is_empty();
        if winners_turn {
            return if pos.is_capture(m) || free_push(self.mater) { Variation::Reward } else { Variation::Normal };
        }
        match role {
            Role::King => {
                if pos.is_capture(m) {
                    return if self.blockers.contains(m.to()) { Variation::Reward } else { Variation::Punish };
                }
                let nearest = |square: Square| self.blockers.into_iter().map(|b| chebyshev(square, b)).min();
                match (nearest(m.from()), nearest(m.to())) {
                    (Some(before), Some(after)) if after < before => Variation::Reward,
                    _ => Variation::Normal,
                }
            }
            Role::Pawn if m.promotion_role().is_some() || free_push(!self.mater) => Variation::Reward,
            _ if pos.is_capture(m) => Variation::Punish,
            Role::Pawn => Variation::Normal,
            Role::Knight => {
                let nearest = |square: Square| self.sacrifice.into_iter().map(|s| knight_distance(square, s)).min();
                match (nearest(m.from()), nearest(m.to())) {
                    (Some(before), Some(after)) if after < before => Variation::Reward,
                    _ => Variation::Normal,
                }
            }
            _ if self.sacrifice.contains(m.to()) => Variation::Reward,
            _ => Variation::Normal,
        }
    }
}

/// The squares in front of a pawn of `color` on `square`, on its file, to the last rank.
fn front_span(square: Square, color: Color) -> Bitboard {
    let file = Bitboard::file(square.file());
    let rank = square.rank().index();
    let ahead = match color {
        Color::White if rank < 7 => !0u64 << (8 * (rank + 1)),
        Color::Black => (1u64 << (8 * rank)) - 1,
        _ => 0,
    };
    file & Bitboard(ahead)
}

/// The square the plan sends a man of `role` to, for the side to move: the corner of the
/// defender's back rank of the colour of the mater's bishops (or, with none, the colour the
/// defender's bishops do not control), for the defender's king and the mater's men; two
/// squares in front of it for the mater's king; next to it for the defender's men.
fn target(pos: &Position, role: Role, mater: Color) -> Square {
    let mater_bishops = pos.pieces(mater, Role::Bishop);
    let dark_corner = (mater_bishops & Bitboard::DARK_SQUARES).any()
        || (mater_bishops.is_empty() && (pos.pieces(!mater, Role::Bishop) & Bitboard::LIGHT_SQUARES).any());
    let king = role == Role::King;
    // Seen from White mating on h8 (a dark corner).
    let square = match (pos.turn() == mater, king) {
        (true, true) => Square::H6,
        (true, false) | (false, true) => Square::H8,
        (false, false) => Square::G8,
    };
    let index = square.index() as u32;
    let index = if dark_corner { index } else { index ^ 7 };
    // For Black, the corner is the point-mirrored one: a1 for h8, h1 for a8.
    let index = if mater == Color::Black { index ^ 63 } else { index };
    Square::new(index).unwrap_or(square)
}

/// `true` if `m` brings a king or a knight closer to `target` (in its own steps); other men
/// move too fast for the distance to mean progress.
fn closer_to(m: Move, target: Square, role: Role) -> bool {
    match role {
        Role::King => chebyshev(m.to(), target) < chebyshev(m.from(), target),
        Role::Knight => knight_distance(m.to(), target) < knight_distance(m.from(), target),
        _ => false,
    }
}

/// `true` if `mater` can only mate with blockers the defender does not have yet, so the
/// defender's pawns should promote: a lone knight against no rook or minor piece, or
/// bishops of one colour against no knight and no bishop of the other colour.
fn needs_defender_promotion(pos: &Position, mater: Color) -> bool {
    let ours = pos.by_color(mater) - pos.by_role(Role::King);
    let theirs = pos.by_color(!mater) - pos.by_role(Role::King);
    let minors = pos.by_role(Role::Knight) | pos.by_role(Role::Bishop);
    if ours.count() == 1 && (ours & pos.by_role(Role::Knight)).any() {
        return (theirs & (minors | pos.by_role(Role::Rook))).is_empty();
    }
    let bishops = ours & pos.by_role(Role::Bishop);
    if bishops != ours || ours.is_empty() {
        return false;
    }
    let colour =
        if (bishops & Bitboard::DARK_SQUARES).any() { Bitboard::DARK_SQUARES } else { Bitboard::LIGHT_SQUARES };
    (pos.by_role(Role::Bishop) - colour).is_empty() && (theirs & pos.by_role(Role::Knight)).is_empty()
}

/// King steps between two squares.
fn chebyshev(a: Square, b: Square) -> u32 {
    let files = a.file().index().abs_diff(b.file().index());
    let ranks = a.rank().index().abs_diff(b.rank().index());
    files.max(ranks) as u32
}

/// Knight moves between two squares on an empty board.
fn knight_distance(a: Square, b: Square) -> u8 {
    static TABLE: OnceLock<Box<[[u8; 64]; 64]>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut table = Box::new([[u8::MAX; 64]; 64]);
        for from in Square::all() {
            let row = &mut table[from.index()];
            row[from.index()] = 0;
            let mut frontier = Bitboard::from_square(from);
            let mut seen = frontier;
            let mut steps = 0;
            while frontier.any() {
                steps += 1;
                let mut next = Bitboard::EMPTY;
                for square in frontier {
                    next |= knight_attacks(square);
                }
                next = next - seen;
                for square in next {
                    row[square.index()] = steps;
                }
                seen |= next;
                frontier = next;
            }
        }
        table
    });
    table[a.index()][b.index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays `line` from `pos`: `true` if every move is legal and `mater`'s opponent ends mated.
    fn mates(pos: &Position, mater: Color, line: &[Move]) -> bool {
        let mut pos = *pos;
        line.iter().all(|&m| pos.play(m).is_ok()) && pos.turn() == !mater && pos.is_checkmate()
    }

    #[test]
    fn a_lone_bishop_mates_against_a_knight_in_the_corner() {
        // Kh8, Nh7 blocking, the white king on f7 and the bishop's check on the long diagonal:
        // the plan's corner is dark, the colour of the bishop.
        let pos: Position = "6nk/8/8/8/4K3/8/3B4/8 w - - 0 1".parse().unwrap();
        let line = Plan::new(Color::White, Goal::Corner).run(&pos, 400_000).expect("a helpmate");
        assert!(mates(&pos, Color::White, &line), "{line:?}");
    }

    #[test]
    fn the_defenders_king_opens_a_file_for_the_maters_pawns() {
        // White's king is shut in on h1 and its pawns stand in front of Black's: Black's
        // king eats one, the Black pawn behind it promotes and gives itself up to a White
        // pawn, which runs on a file of its own and queens.
        let pos: Position = "8/p1p1p3/8/8/8/6p1/P1P1PkPp/7K w - - 0 1".parse().unwrap();
        assert!(pawns_need_unblocking(&pos, Color::White) && Unblocking::of(&pos, Color::White).is_some());
        let line = Plan::new(Color::White, Goal::Unblock).run(&pos, 1_000_000).expect("a helpmate");
        assert!(mates(&pos, Color::White, &line), "{line:?}");
        // Black's h-pawn has no White pawn ahead, but White's king stands in front of it:
        // stopped too, so the plan applies for Black as well.
        assert!(pawns_need_unblocking(&pos, Color::Black) && Unblocking::of(&pos, Color::Black).is_some());
        assert_eq!(Unblocking::of(&pos, Color::White).map(|u| u.blockers), Some(pos.pieces(Color::White, Role::Pawn)));
        // A pawn free to run: the corner plan.
        let one_free: Position = "8/p1p1p3/8/8/7P/6p1/P1P1Pk1p/7K w - - 0 1".parse().unwrap();
        assert!(Unblocking::of(&one_free, Color::White).is_none());
        let free: Position = "4k3/8/8/8/8/8/P7/4K3 w - - 0 1".parse().unwrap();
        assert!(!pawns_need_unblocking(&free, Color::White));
    }

    #[test]
    fn the_defenders_bishops_go_next_to_the_corner() {
        // Black mates with its light bishops in h1, White's dark bishops block g1 and h2.
        let pos: Position = "8/4kb2/8/1p1p1p1p/1P1P1P1P/1bB5/3B1K2/8 w - - 0 1".parse().unwrap();
        let corner = target(&pos, Role::King, Color::Black);
        assert_eq!(corner, Square::H1);
        assert!(bishop_to_corner(&pos, Move::normal(Square::C3, Square::E1), corner));
        assert!(!bishop_to_corner(&pos, Move::normal(Square::D2, Square::C1), corner));
        // With one bishop the reward does not apply.
        let one: Position = "8/4kb2/8/1p1p1p1p/1P1P1P1P/1bB5/5K2/8 w - - 0 1".parse().unwrap();
        assert!(!bishop_to_corner(&one, Move::normal(Square::C3, Square::E1), corner));
    }

    #[test]
    fn front_spans_run_to_the_last_rank() {
        assert_eq!(front_span(Square::E2, Color::White), Bitboard::file(Square::E2.file()) - Bitboard(0xffff));
        assert_eq!(front_span(Square::E2, Color::Black), Bitboard::from_square(Square::E1));
        assert_eq!(front_span(Square::A8, Color::White), Bitboard::EMPTY);
    }

    #[test]
    fn targets_follow_the_mater_and_its_bishops() {
        let pos: Position = "6nk/8/8/8/4K3/8/3B4/8 w - - 0 1".parse().unwrap();
        assert_eq!(target(&pos, Role::King, Color::White), Square::H6, "the mater's king");
        assert_eq!(target(&pos, Role::Bishop, Color::White), Square::H8, "the mater's men");
        let light: Position = "6nk/8/8/8/4K3/8/4B3/8 b - - 0 1".parse().unwrap();
        assert_eq!(target(&light, Role::King, Color::White), Square::A8, "the defender's king, light corner");
        assert_eq!(target(&light, Role::Knight, Color::White), Square::B8, "the defender's blockers");
        // Black, with no bishop, mates in the corner White's dark bishop cannot guard: h1.
        assert_eq!(target(&pos, Role::King, Color::Black), Square::H1, "the defender's king, for Black");
        assert_eq!(knight_distance(Square::A1, Square::B3), 1);
        assert_eq!(knight_distance(Square::A1, Square::H8), 6);
    }
}
