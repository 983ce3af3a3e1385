//! Legal move generation, directly (no pseudo-legal generation followed by make-and-test).
//!
//! One generic generator serves every use: the full legal list, the captures-only and
//! quiets-only subsets for the search, and bulk counting for perft, which adds population
//! counts instead of building moves. The generator computes the checkers and the pinned
//! pieces once, then restricts every piece's targets:
//! - in double check only the king moves;
//! - in single check other pieces must capture the checker or block its line;
//! - a pinned piece moves only along the line through its king and pinner;
//! - the king never steps onto an attacked square (attacks computed with the king removed,
//!   so it cannot retreat along the checking ray);
//! - en passant is verified by recomputing the king's attackers with both pawns moved, which
//!   also covers the pawn pair pinned along the rank and checks unrelated to the pushed pawn;
//! - castling requires every square the king crosses, its destination included, to be safe
//!   with king and castling rook lifted off the board (this catches a Chess960 castling rook
//!   that shields its king from a slider behind it).

use crate::attacks::{
    between, bishop_attacks, bishop_rays, king_attacks, knight_attacks, line, pawn_attacks, rook_attacks, rook_rays,
};
use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::Position;
use crate::types::{Color, Rank, Role, Square};

/// Which subset of the legal moves to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveFilter {
    /// Every legal move.
    All,
    /// Captures (en passant included) and all promotions, capturing or not.
    Captures,
    /// Every other legal move: non-capturing, non-promoting moves and castling.
    Quiets,
}

/// The side to move as a type: the generator is compiled once for each colour, so that
/// every choice that depends on the colour (pawn direction, promotion rank, which pieces are
/// ours) is a constant, and its branch is gone from the generated code.
pub(crate) trait Side {
    const US: Color;
    /// The other side, to move next.
    type Them: Side;
}

pub(crate) struct WhiteToMove;
pub(crate) struct BlackToMove;

impl Side for WhiteToMove {
    const US: Color = Color::White;
    type Them = BlackToMove;
}

impl Side for BlackToMove {
    const US: Color = Color::Black;
    type Them = WhiteToMove;
}

/// Receives generated moves, as moves or as counts (or, in perft, by playing them).
pub(crate) trait Sink {
    /// Normal moves of the piece on `from`, a `role`, to each of `targets`. Sinks that do
    /// not read `role` pay nothing for it: the generator is inlined into each sink's use.
    fn piece_moves(&mut self, role: Role, from: Square, targets: Bitboard);
    /// Non-promoting pawn moves to each of `targets`, each from `to - delta`.
    fn pawn_moves(&mut self, targets: Bitboard, delta: i32);
    /// Promotions (four each) to each of `targets`, each from `to - delta`.
    fn promotions(&mut self, targets: Bitboard, delta: i32);
    /// A single special move (en passant, castling: the mover's role follows from the kind).
    fn special(&mut self, m: Move);
}

impl Sink for MoveList {
    #[inline]
    fn piece_moves(&mut self, _: Role, from: Square, targets: Bitboard) {
        for to in targets {
            self.push(Move::normal(from, to));
        }
    }
    #[inline]
    fn pawn_moves(&mut self, targets: Bitboard, delta: i32) {
        for to in targets {
            self.push(Move::normal(Square::new_unchecked((to.index() as i32 - delta) as u32), to));
        }
    }
    #[inline]
    fn promotions(&mut self, targets: Bitboard, delta: i32) {
        for to in targets {
            let from = Square::new_unchecked((to.index() as i32 - delta) as u32);
            for role in Role::PROMOTIONS {
                self.push(Move::promotion(from, to, role));
            }
        }
    }
    #[inline]
    fn special(&mut self, m: Move) {
        self.push(m);
    }
}

struct Counter(u64);

impl Sink for Counter {
    #[inline]
    fn piece_moves(&mut self, _: Role, _: Square, targets: Bitboard) {
        self.0 += u64::from(targets.count());
    }
    #[inline]
    fn pawn_moves(&mut self, targets: Bitboard, _: i32) {
        self.0 += u64::from(targets.count());
    }
    #[inline]
    fn promotions(&mut self, targets: Bitboard, _: i32) {
        self.0 += 4 * u64::from(targets.count());
    }
    #[inline]
    fn special(&mut self, _: Move) {
        self.0 += 1;
    }
}

/// A sink that stops caring after the first move (for "has any legal move").
struct AnyMove(bool);

impl Sink for AnyMove {
    #[inline]
    fn piece_moves(&mut self, _: Role, _: Square, targets: Bitboard) {
        self.0 |= targets.any();
    }
    #[inline]
    fn pawn_moves(&mut self, targets: Bitboard, _: i32) {
        self.0 |= targets.any();
    }
    #[inline]
    fn promotions(&mut self, targets: Bitboard, _: i32) {
        self.0 |= targets.any();
    }
    #[inline]
    fn special(&mut self, _: Move) {
        self.0 = true;
    }
}

/// A sink that watches for one special move (castling or en passant): the generator hands
/// those over one by one, and every other kind of move can be ignored.
struct FindSpecial {
    wanted: Move,
    found: bool,
}

impl Sink for FindSpecial {
    #[inline]
    fn piece_moves(&mut self, _: Role, _: Square, _: Bitboard) {}
    #[inline]
    fn pawn_moves(&mut self, _: Bitboard, _: i32) {}
    #[inline]
    fn promotions(&mut self, _: Bitboard, _: i32) {}
    #[inline]
    fn special(&mut self, m: Move) {
        self.found |= m == self.wanted;
    }
}

/// The squares `pawns` of `color` attack towards the a-file and towards the h-file (from
/// White's point of view: shifts by 7 and 9; the file masks stop wrap-around).
#[inline(always)]
fn pawn_captures(color: Color, pawns: Bitboard) -> (Bitboard, Bitboard) {
    let not_a = pawns & !Bitboard::file(crate::File::A);
    let not_h = pawns & !Bitboard::file(crate::File::H);
    match color {
        Color::White => (Bitboard(not_a.0 << 7), Bitboard(not_h.0 << 9)),
        Color::Black => (Bitboard(not_a.0 >> 9), Bitboard(not_h.0 >> 7)),
    }
}

impl Position {
    /// Every legal move.
    pub fn legal_moves(&self) -> MoveList {
        let mut moves = MoveList::new();
        self.legal_moves_into(&mut moves);
        moves
    }

    /// Appends every legal move to `moves`.
    pub fn legal_moves_into(&self, moves: &mut MoveList) {
        self.generate(MoveFilter::All, Bitboard::FULL, moves);
    }

    /// Appends the legal moves of one subset (see [`MoveFilter`]) to `moves`.
    pub fn generate_moves(&self, filter: MoveFilter, moves: &mut MoveList) {
        self.generate(filter, Bitboard::FULL, moves);
    }

    /// Appends the legal moves that land on `to` to `moves`, castling excepted (castling is
    /// "king takes own rook" and has its own lookup, [`Position::castling_move`]). Cheaper
    /// than the full list when only one destination matters, as in reading SAN.
    pub fn legal_moves_onto(&self, to: Square, moves: &mut MoveList) {
        self.generate(MoveFilter::All, Bitboard::from_square(to), moves);
    }

    /// The number of legal moves, counted without building them (bulk counting).
    pub fn count_legal_moves(&self) -> u64 {
        let mut counter = Counter(0);
        self.generate(MoveFilter::All, Bitboard::FULL, &mut counter);
        counter.0
    }

    /// [`Position::count_legal_moves`] for perft, which knows the side to move `C`.
    #[inline]
    pub(crate) fn count_legal_moves_for<C: Side>(&self) -> u64 {
        debug_assert_eq!(self.turn(), C::US);
        let mut counter = Counter(0);
        self.generate_for::<C, _>(MoveFilter::All, Bitboard::FULL, &mut counter);
        counter.0
    }

    /// Every legal move into `sink`, for perft, which knows the side to move `C`.
    #[inline]
    pub(crate) fn legal_moves_to_sink_for<C: Side, S: Sink>(&self, sink: &mut S) {
        debug_assert_eq!(self.turn(), C::US);
        self.generate_for::<C, _>(MoveFilter::All, Bitboard::FULL, sink);
    }

    /// `true` if `m` is legal here: exactly when the legal move list would contain it.
    ///
    /// Decided for the one move, without generating the others (an engine checks every move
    /// it reads from its hash table this way before playing it): the piece on the from
    /// square must be ours and reach the target by its own rules, then the move must not
    /// leave our king in check. Castling and en passant, rare and with subtle rules of their
    /// own, are asked of the generator.
    pub fn is_legal(&self, m: Move) -> bool {
        let us = self.turn();
        let (from, to) = (m.from(), m.to());
        let Some(piece) = self.piece_at(from).filter(|p| p.color == us) else { return false };
        match m.kind() {
            MoveKind::Castle | MoveKind::EnPassant => {
                let mut found = FindSpecial { wanted: m, found: false };
                // Castling is generated only with every destination allowed.
                let only = if m.is_castle() { Bitboard::FULL } else { Bitboard::from_square(to) };
                self.generate(MoveFilter::All, only, &mut found);
                return found.found;
            }
            MoveKind::Normal | MoveKind::Promotion(_) => {}
        }
        let occupied = self.occupied();
        if self.by_color(us).contains(to) {
            return false;
        }
        // Pseudo-legal: the piece reaches `to`, and a pawn promotes exactly on the last rank.
        let reaches = match piece.role {
            Role::Pawn => {
                if Bitboard::relative_rank(us, Rank::Eighth).contains(to) != m.is_promotion() {
                    return false;
                }
                let up = us.fold(8, -8);
                let one = from.offset(up).filter(|&sq| !occupied.contains(sq));
                let push = one == Some(to);
                let double = one.is_some()
                    && Bitboard::relative_rank(us, Rank::Second).contains(from)
                    && from.offset(2 * up) == Some(to)
                    && !occupied.contains(to);
                let capture = (pawn_attacks(us, from) & self.by_color(!us)).contains(to);
                push || double || capture
            }
            _ => !m.is_promotion() && crate::attacks::attacks(piece, from, occupied).contains(to),
        };
        if !reaches {
            return false;
        }
        // Legal: the king steps onto a safe square (judged with it lifted off its square);
        // another piece answers a single check by capturing or blocking, and a pinned one
        // stays on its pin line.
        let king = self.king_of(us);
        if piece.role == Role::King {
            return !self.is_attacked(to, !us, occupied.without(from));
        }
        let checkers = self.checkers();
        if checkers.has_more_than_one() {
            return false;
        }
        if let Some(checker) = checkers.first() {
            if !between(king, checker).with(checker).contains(to) {
                return false;
            }
        }
        !self.blockers_for_king(us).contains(from) || line(king, from).contains(to)
    }

    /// `true` if the side to move has at least one legal move.
    pub fn has_legal_moves(&self) -> bool {
        let mut any = AnyMove(false);
        self.generate(MoveFilter::All, Bitboard::FULL, &mut any);
        any.0
    }

    /// The generator: moves of the `filter` subset landing on `only` (`FULL` for all; anything
    /// else leaves castling out). Inlined, so a constant `FULL` costs nothing.
    #[inline(always)]
    fn generate<S: Sink>(&self, filter: MoveFilter, only: Bitboard, sink: &mut S) {
        match self.turn() {
            Color::White => self.generate_for::<WhiteToMove, S>(filter, only, sink),
            Color::Black => self.generate_for::<BlackToMove, S>(filter, only, sink),
        }
    }

    /// [`Position::generate`] with the side to move `C` known at compile time.
    #[inline(always)]
    fn generate_for<C: Side, S: Sink>(&self, filter: MoveFilter, only: Bitboard, sink: &mut S) {
        let us = C::US;
        let them = !us;
        let ours = self.by_color(us);
        let theirs = self.by_color(them);
        let occupied = ours | theirs;
        let king = self.king_of(us);
        let (checkers, pinned) = self.checkers_and_pinned(us, king, occupied);

        let filter_mask = only
            & match filter {
                MoveFilter::All => !ours,
                MoveFilter::Captures => theirs,
                MoveFilter::Quiets => !occupied,
            };

        // Step 1. King moves, with the king lifted off the board: one or two squares to test
        // are tested alone; for more, one map of every square the enemy attacks is cheaper
        // (measured with the perft benches: +35% on position 3's open kings; testing two
        // squares alone instead of mapping gains 4-8% on Kiwipete and positions 4-5). A
        // possible castling counts as one more square, since castling reuses the verdicts.
        let without_king = occupied.without(king);
        let candidates = king_attacks(king) & filter_mask;
        // `known` holds the squares whose safety (with the king lifted) is now known, and
        // `safe` those of them that are safe; castling reuses both.
        let may_castle = checkers.is_empty() && (self.castling_rights().rooks() & Bitboard::rank(us.back_rank())).any();
        let (known, safe) = if candidates.count() + u32::from(may_castle) >= 3 {
            (Bitboard::FULL, !self.attacked_by(them, without_king))
        } else {
            let mut safe = Bitboard::EMPTY;
            for to in candidates {
                if !self.is_attacked(to, them, without_king) {
                    safe = safe.with(to);
                }
            }
            (candidates, safe)
        };
        sink.piece_moves(Role::King, king, candidates & safe);
        if checkers.has_more_than_one() {
            return;
        }

        // Step 2. Where the other pieces may go: anywhere, or onto the checking line.
        let check_mask = only
            & match checkers.first() {
                Some(checker) => between(king, checker).with(checker),
                None => Bitboard::FULL,
            };
        let target = filter_mask & check_mask;

        // Step 3. Knights (a pinned knight can never move).
        for from in self.pieces(us, Role::Knight) - pinned {
            sink.piece_moves(Role::Knight, from, knight_attacks(from) & target);
        }

        // Step 4. Sliders; pinned ones only along their pin line (never when in check).
        let queens = self.pieces(us, Role::Queen);
        // A queen moves in both passes: each tells the sink which of the two roles it has.
        let diagonal = |from| if queens.contains(from) { Role::Queen } else { Role::Bishop };
        let straight = |from| if queens.contains(from) { Role::Queen } else { Role::Rook };
        for from in (self.pieces(us, Role::Bishop) | queens) - pinned {
            sink.piece_moves(diagonal(from), from, bishop_attacks(from, occupied) & target);
        }
        for from in (self.pieces(us, Role::Rook) | queens) - pinned {
            sink.piece_moves(straight(from), from, rook_attacks(from, occupied) & target);
        }
        if checkers.is_empty() {
            for from in (self.pieces(us, Role::Bishop) | queens) & pinned {
                sink.piece_moves(diagonal(from), from, bishop_attacks(from, occupied) & target & line(king, from));
            }
            for from in (self.pieces(us, Role::Rook) | queens) & pinned {
                sink.piece_moves(straight(from), from, rook_attacks(from, occupied) & target & line(king, from));
            }
        }

        // Step 5. Pawns.
        self.generate_pawn_moves::<C, S>(filter, sink, pinned, check_mask, king, checkers.is_empty());

        // Step 6. En passant.
        if filter != MoveFilter::Quiets {
            if let Some(ep) = self.ep_square().filter(|&ep| only.contains(ep)) {
                self.generate_en_passant::<C, S>(sink, ep, king);
            }
        }

        // Step 7. Castling.
        if filter != MoveFilter::Captures && checkers.is_empty() && only == Bitboard::FULL {
            self.generate_castling::<C, S>(sink, king, occupied, known, safe);
        }
    }

    /// Every square `by` attacks with `occupied` blocking its sliders.
    #[inline(always)]
    fn attacked_by(&self, by: Color, occupied: Bitboard) -> Bitboard {
        let (west, east) = pawn_captures(by, self.pieces(by, Role::Pawn));
        let mut attacked = west | east;
        for from in self.pieces(by, Role::Knight) {
            attacked |= knight_attacks(from);
        }
        for from in self.diagonal_sliders(by) {
            attacked |= bishop_attacks(from, occupied);
        }
        for from in self.straight_sliders(by) {
            attacked |= rook_attacks(from, occupied);
        }
        attacked | king_attacks(self.king_of(by))
    }

    /// The enemy pieces checking our king, and our pieces pinned to it, in one pass: an
    /// enemy slider on an empty-board ray from the king checks when nothing stands between,
    /// and pins when exactly one of our pieces does. No magic lookup is needed.
    #[inline(always)]
    fn checkers_and_pinned(&self, us: Color, king: Square, occupied: Bitboard) -> (Bitboard, Bitboard) {
        let them = !us;
        let mut checkers = (pawn_attacks(us, king) & self.pieces(them, Role::Pawn))
            | (knight_attacks(king) & self.pieces(them, Role::Knight));
        let snipers =
            (rook_rays(king) & self.straight_sliders(them)) | (bishop_rays(king) & self.diagonal_sliders(them));
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = between(king, sniper) & occupied;
            if blockers.is_empty() {
                checkers = checkers.with(sniper);
            } else if !blockers.has_more_than_one() {
                pinned |= blockers;
            }
        }
        (checkers, pinned & self.by_color(us))
    }

    #[inline(always)]
    fn generate_pawn_moves<C: Side, S: Sink>(
        &self,
        filter: MoveFilter,
        sink: &mut S,
        pinned: Bitboard,
        check_mask: Bitboard,
        king: Square,
        not_in_check: bool,
    ) {
        let us = C::US;
        let theirs = self.by_color(!us);
        let empty = !self.occupied();
        let last_rank = Bitboard::relative_rank(us, Rank::Eighth);
        let third_rank = Bitboard::relative_rank(us, Rank::Third);
        let up = us.fold(8, -8);
        let pawns = self.pieces(us, Role::Pawn);
        let free = pawns - pinned;

        let (gen_quiet, gen_captures, gen_quiet_promos) = match filter {
            MoveFilter::All => (true, true, true),
            MoveFilter::Captures => (false, true, true),
            MoveFilter::Quiets => (true, false, false),
        };

        // Pushes.
        let single = free.shift_forward(us) & empty;
        let double = (single & third_rank).shift_forward(us) & empty & check_mask;
        let single = single & check_mask;
        if gen_quiet {
            sink.pawn_moves(single - last_rank, up);
            sink.pawn_moves(double, 2 * up);
        }
        if gen_quiet_promos {
            sink.promotions(single & last_rank, up);
        }

        // Captures towards the a-file and the h-file (from White's point of view, shift by
        // 7/9; file masks stop wrap-around).
        if gen_captures {
            let (west, east) = pawn_captures(us, free);
            let (dw, de) = us.fold((7, 9), (-9, -7));
            let west = west & theirs & check_mask;
            let east = east & theirs & check_mask;
            sink.pawn_moves(west - last_rank, dw);
            sink.pawn_moves(east - last_rank, de);
            sink.promotions(west & last_rank, dw);
            sink.promotions(east & last_rank, de);
        }

        // Pinned pawns move only along their pin line, and never while in check.
        if not_in_check {
            for from in pawns & pinned {
                let along = line(king, from);
                let mut pushes = Bitboard::EMPTY;
                let one = Bitboard::from_square(from).shift_forward(us) & empty & along;
                pushes |= one;
                if (Bitboard::from_square(from) & Bitboard::relative_rank(us, Rank::Second)).any() {
                    pushes |= one.shift_forward(us) & empty;
                }
                let captures = pawn_attacks(us, from) & theirs & along;
                // Not in check, the check mask holds only the destinations asked for.
                let targets = check_mask
                    & match filter {
                        MoveFilter::All => pushes | captures,
                        MoveFilter::Captures => captures | (pushes & last_rank),
                        MoveFilter::Quiets => pushes - last_rank,
                    };
                for to in targets {
                    let d = to.index() as i32 - from.index() as i32;
                    if last_rank.contains(to) {
                        sink.promotions(Bitboard::from_square(to), d);
                    } else {
                        sink.pawn_moves(Bitboard::from_square(to), d);
                    }
                }
            }
        }
    }

    #[inline(always)]
    fn generate_en_passant<C: Side, S: Sink>(&self, sink: &mut S, ep: Square, king: Square) {
        let us = C::US;
        let them = !us;
        let captured = Square::new_unchecked((ep.index() as i32 + us.fold(-8, 8)) as u32);
        for from in pawn_attacks(them, ep) & self.pieces(us, Role::Pawn) {
            let occupied = (self.occupied().without(from).without(captured)).with(ep);
            let attackers = self.attackers_to(king, occupied) & self.by_color(them) & !Bitboard::from_square(captured);
            if attackers.is_empty() {
                sink.special(Move::en_passant(from, ep));
            }
        }
    }

    #[inline(always)]
    ///
    /// `known` squares have been found `safe` or not with the king lifted (step 1). Lifting
    /// the castling rook as well changes nothing for them when the rook stands on the a- or
    /// h-file (always in standard chess): it can only uncover a slider on its own rank
    /// beyond it, and there is no square beyond the edge. Elsewhere (Chess960) every square
    /// of the king's path is tested.
    fn generate_castling<C: Side, S: Sink>(
        &self,
        sink: &mut S,
        king: Square,
        occupied: Bitboard,
        known: Bitboard,
        safe: Bitboard,
    ) {
        let us = C::US;
        let rights = self.castling_rights();
        if (rights.rooks() & Bitboard::rank(us.back_rank())).is_empty() {
            return;
        }
        for side in crate::CastlingSide::ALL {
            let Some(rook) = rights.rook(us, side) else { continue };
            // Whatever the start files, every square between king and rook must be empty:
            // one lookup rejects most blocked castlings.
            if (between(king, rook) & occupied).any() {
                continue;
            }
            let king_to = Square::from_coords(side.king_to_file(), king.rank());
            let rook_to = Square::from_coords(side.rook_to_file(), king.rank());
            let lifted = occupied.without(king).without(rook);
            let must_be_empty = between(king, king_to).with(king_to) | between(rook, rook_to).with(rook_to);
            if (must_be_empty & lifted).any() {
                continue;
            }
            let king_path = between(king, king_to).with(king_to);
            let edge = Bitboard::file(crate::File::A) | Bitboard::file(crate::File::H);
            let known = if edge.contains(rook) { known & king_path } else { Bitboard::EMPTY };
            if (known - safe).any() {
                continue;
            }
            if (king_path - known).into_iter().all(|sq| !self.is_attacked(sq, !us, lifted)) {
                sink.special(Move::castle(king, rook));
            }
        }
    }
}
