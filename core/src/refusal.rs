//! Why a move is not legal, in the terms a player thinks in: the piece that cannot go there,
//! the piece in the way, the attacker of the king's square, the pinning piece, the check
//! left unanswered. [`Position::refusal`] judges a (from, to) pair, [`Position::castling_refusal`]
//! a castle; the notations find the squares a move's text names and ask here, so the rules
//! behind an explanation live in one place.

use crate::attacks::{attacks, between, pawn_attacks};
use crate::bitboard::Bitboard;
use crate::castling::CastlingSide;
use crate::position::Position;
use crate::types::{Color, Piece, Rank, Role, Square};
use std::fmt;

/// A piece on its square, as an explanation names it: "the bishop on b4".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PlacedPiece {
    /// The piece.
    pub piece: Piece,
    /// Where it stands.
    pub square: Square,
}

impl fmt::Display for PlacedPiece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the {} on {}", self.piece.role, self.square)
    }
}

/// Why the side to move cannot play a move. `Display` is a sentence for the player:
/// "the pawn on e2 cannot move to e5", "the queen on d1 is blocked by the pawn on e2".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Refusal {
    /// There is no piece on the square the move starts from.
    NoPiece {
        /// The empty square.
        from: Square,
    },
    /// The piece on the starting square belongs to the side not to move.
    NotYours {
        /// That piece.
        piece: PlacedPiece,
    },
    /// The side to move has no piece of this kind.
    NoSuchPiece {
        /// The side to move.
        color: Color,
        /// The kind it lacks.
        role: Role,
    },
    /// The piece does not move that way, whatever stands around it.
    CannotMoveThere {
        /// The piece.
        piece: PlacedPiece,
        /// Where it was asked to go.
        to: Square,
    },
    /// A piece stands on the way (for a pawn moving straight, also on the target square).
    Blocked {
        /// The moving piece.
        piece: PlacedPiece,
        /// The nearest piece in its way.
        by: PlacedPiece,
    },
    /// The target square holds a piece of the mover's own side.
    OwnPieceOnTarget {
        /// The moving piece.
        piece: PlacedPiece,
        /// The piece on the target square.
        target: PlacedPiece,
    },
    /// A pawn moves diagonally only to capture, and there is nothing to capture there.
    NothingToCapture {
        /// The pawn.
        piece: PlacedPiece,
        /// The empty square it was asked to go to.
        to: Square,
    },
    /// The king would stand on a square an enemy piece attacks.
    KingAttacked {
        /// The king's target square.
        to: Square,
        /// An enemy piece attacking it.
        attacker: PlacedPiece,
    },
    /// The side to move is in check and the move neither captures the checking piece nor
    /// blocks it.
    InCheck {
        /// The checking piece.
        checker: PlacedPiece,
    },
    /// The side to move is in double check, which only a king move answers.
    DoubleCheck {
        /// The two checking pieces.
        checkers: [PlacedPiece; 2],
    },
    /// The piece is pinned against its king: moving it off the line exposes the king.
    Pinned {
        /// The pinned piece.
        piece: PlacedPiece,
        /// The enemy piece pinning it.
        pinner: PlacedPiece,
    },
    /// The move would expose the king to an attack some other way (an en passant capture
    /// that empties a rank between the king and an enemy rook or queen).
    ExposesKing {
        /// The enemy piece that would then attack the king.
        attacker: PlacedPiece,
    },
    /// The side to move has no castling right on that side (its king or that rook has moved).
    NoCastlingRight {
        /// The side to move.
        color: Color,
        /// The side castled towards.
        side: CastlingSide,
    },
    /// Castling is not allowed while in check.
    CastlingOutOfCheck,
    /// A piece stands between the king or the rook and the square it castles to.
    CastlingBlocked {
        /// That piece.
        by: PlacedPiece,
    },
    /// The king would cross or land on a square an enemy piece attacks.
    CastlingThroughCheck {
        /// The attacked square.
        square: Square,
        /// An enemy piece attacking it.
        attacker: PlacedPiece,
    },
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::NoPiece { from } => write!(f, "there is no piece on {from}"),
            Refusal::NotYours { piece } => write!(f, "{piece} is not yours"),
            // The players are White and Black, capitalised as a name.
            Refusal::NoSuchPiece { color, role } => {
                let player = if *color == crate::Color::White { "White" } else { "Black" };
                write!(f, "{player} has no {role}")
            }
            Refusal::CannotMoveThere { piece, to } => write!(f, "{piece} cannot move to {to}"),
            Refusal::Blocked { piece, by } => write!(f, "{piece} is blocked by {by}"),
            Refusal::OwnPieceOnTarget { piece, target } => {
                write!(f, "{piece} cannot move onto its own {} on {}", target.piece.role, target.square)
            }
            Refusal::NothingToCapture { piece, to } => {
                write!(f, "{piece} moves diagonally only to capture, and there is nothing to capture on {to}")
            }
            Refusal::KingAttacked { to, attacker } => write!(f, "{to} is attacked by {attacker}"),
            Refusal::InCheck { checker } => {
                write!(f, "the king is in check from {checker}, and this move does not answer it")
            }
            Refusal::DoubleCheck { checkers: [a, b] } => {
                write!(f, "the king is in check from {a} and {b}: only a king move answers a double check")
            }
            Refusal::Pinned { piece, pinner } => write!(f, "{piece} is pinned against the king by {pinner}"),
            Refusal::ExposesKing { attacker } => write!(f, "the move would expose the king to {attacker}"),
            Refusal::NoCastlingRight { color, side } => {
                let side = match side {
                    CastlingSide::KingSide => "kingside",
                    CastlingSide::QueenSide => "queenside",
                };
                write!(f, "{color} may no longer castle {side} (the king or that rook has moved)")
            }
            Refusal::CastlingOutOfCheck => f.write_str("the king may not castle out of check"),
            Refusal::CastlingBlocked { by } => write!(f, "castling is blocked by {by}"),
            Refusal::CastlingThroughCheck { square, attacker } => {
                write!(f, "the king may not castle through or into check: {square} is attacked by {attacker}")
            }
        }
    }
}

impl Position {
    /// Why the side to move cannot move the piece on `from` to `to`, or `None` when it can
    /// (with any promotion; castling is recognised both as the king's two-square step and as
    /// "king takes own rook").
    ///
    /// ```
    /// use tempo_core::{Position, Square};
    ///
    /// let start = Position::startpos();
    /// let [e2, e4, e5, h5]: [Square; 4] = ["e2", "e4", "e5", "h5"].map(|s| s.parse().unwrap());
    /// assert_eq!(start.refusal(e2, e5).unwrap().to_string(), "the pawn on e2 cannot move to e5");
    /// assert_eq!(start.refusal(Square::D1, h5).unwrap().to_string(), "the queen on d1 is blocked by the pawn on e2");
    /// assert_eq!(start.refusal(e2, e4), None);
    /// ```
    pub fn refusal(&self, from: Square, to: Square) -> Option<Refusal> {
        let legal = self.legal_moves();
        if legal.iter().any(|m| m.from() == from && (m.to() == to || (m.is_castle() && m.castling_king_to() == to))) {
            return None;
        }
        let us = self.turn();
        let Some(piece) = self.piece_at(from) else { return Some(Refusal::NoPiece { from }) };
        let mover = PlacedPiece { piece, square: from };
        if piece.color != us {
            return Some(Refusal::NotYours { piece: mover });
        }
        if piece.role == Role::King {
            if let Some(side) = self.castling_side_of(from, to) {
                return self.castling_refusal(side);
            }
        }
        if let Some(refusal) = self.geometric_refusal(mover, to) {
            return Some(refusal);
        }
        Some(self.king_safety_refusal(mover, to))
    }

    /// Why the side to move cannot castle towards `side`, or `None` when it can.
    pub fn castling_refusal(&self, side: CastlingSide) -> Option<Refusal> {
        let us = self.turn();
        let Some(castle) = self.castling_move(side) else {
            return Some(Refusal::NoCastlingRight { color: us, side });
        };
        if self.legal_moves().contains(castle) {
            return None;
        }
        if self.is_check() {
            return Some(Refusal::CastlingOutOfCheck);
        }
        let (king, rook) = (castle.from(), castle.to());
        let (king_to, rook_to) = (castle.castling_king_to(), castle.castling_rook_to());
        let must_be_empty =
            (between(king, king_to) | between(rook, rook_to) | king_to | rook_to).without(king).without(rook);
        if let Some(by) = self.nearest(king, must_be_empty & self.occupied()) {
            return Some(Refusal::CastlingBlocked { by });
        }
        let occupied = self.occupied().without(king).without(rook);
        let crossed = between(king, king_to).with(king_to);
        // The king's path from its square outwards, so the first attacked square is named.
        let mut path: Vec<Square> = crossed.collect();
        path.sort_by_key(|&sq| between(king, sq).count());
        for square in path {
            if let Some(attacker) = self.enemy_attacker(square, occupied) {
                return Some(Refusal::CastlingThroughCheck { square, attacker });
            }
        }
        // Not reached for a position from `from_setup`: the generator refuses a castle for
        // one of the reasons above.
        None
    }

    /// The side of a castle that a king's move from `from` to `to` means: onto its own
    /// castling rook, or two files along its back rank onto the castled king's file (`e1g1`).
    /// In Chess960 a king on g8 going to e8 moves two files but is no castle: the long castle
    /// takes it to c8.
    fn castling_side_of(&self, from: Square, to: Square) -> Option<CastlingSide> {
        let us = self.turn();
        if let Some(side) =
            CastlingSide::ALL.into_iter().find(|&side| self.castling_rights().rook(us, side) == Some(to))
        {
            return Some(side);
        }
        let on_back_rank = from.rank() == us.back_rank() && to.rank() == from.rank();
        let side = match (to.file() as i32) - (from.file() as i32) {
            2 => CastlingSide::KingSide,
            -2 => CastlingSide::QueenSide,
            _ => return None,
        };
        (on_back_rank && to.file() == side.king_to_file()).then_some(side)
    }

    /// The refusals that the board's geometry explains: the piece does not move that way, or
    /// something is in its way or on its target.
    fn geometric_refusal(&self, mover: PlacedPiece, to: Square) -> Option<Refusal> {
        let (from, us) = (mover.square, mover.piece.color);
        let occupied = self.occupied();
        let blocked = |square: Square| {
            self.piece_at(square).map(|piece| Refusal::Blocked { piece: mover, by: PlacedPiece { piece, square } })
        };
        if mover.piece.role == Role::Pawn {
            let forward = us.fold(8, -8);
            let single = from.offset(forward);
            if single == Some(to) {
                return blocked(to);
            }
            if from.rank() == Rank::Second.relative_to(us) && from.offset(2 * forward) == Some(to) {
                return single.and_then(blocked).or_else(|| blocked(to));
            }
            if pawn_attacks(us, from).contains(to) {
                return match self.piece_at(to) {
                    Some(piece) if piece.color == us => {
                        Some(Refusal::OwnPieceOnTarget { piece: mover, target: PlacedPiece { piece, square: to } })
                    }
                    Some(_) => None,
                    None if self.ep_square() == Some(to) => None,
                    None => Some(Refusal::NothingToCapture { piece: mover, to }),
                };
            }
            return Some(Refusal::CannotMoveThere { piece: mover, to });
        }
        if from == to || !attacks(mover.piece, from, Bitboard::EMPTY).contains(to) {
            return Some(Refusal::CannotMoveThere { piece: mover, to });
        }
        if let Some(by) = self.nearest(from, between(from, to) & occupied) {
            return Some(Refusal::Blocked { piece: mover, by });
        }
        match self.piece_at(to) {
            Some(piece) if piece.color == us => {
                Some(Refusal::OwnPieceOnTarget { piece: mover, target: PlacedPiece { piece, square: to } })
            }
            _ => None,
        }
    }

    /// The refusal of a move the piece can make on the board that leaves or puts its own
    /// king in check.
    fn king_safety_refusal(&self, mover: PlacedPiece, to: Square) -> Refusal {
        let from = mover.square;
        let king = self.king_of(self.turn());
        if mover.piece.role == Role::King {
            let occupied = self.occupied().without(from);
            let attacker = self.enemy_attacker(to, occupied);
            // A king move the board allows is refused only because its square is attacked.
            return attacker.map_or(Refusal::CannotMoveThere { piece: mover, to }, |attacker| Refusal::KingAttacked {
                to,
                attacker,
            });
        }
        let checkers: Vec<PlacedPiece> = self.checkers().map(|square| self.placed(square)).collect();
        let en_passant = self.ep_square() == Some(to) && self.piece_at(to).is_none();
        let captured = if en_passant { to.offset(self.turn().fold(-8, 8)) } else { Some(to) };
        match checkers[..] {
            [a, b, ..] => return Refusal::DoubleCheck { checkers: [a, b] },
            [checker] if Some(checker.square) != captured && !between(king, checker.square).contains(to) => {
                return Refusal::InCheck { checker }
            }
            _ => {}
        }
        // The move answers any check, so what it uncovers is the reason.
        let mut occupied = self.occupied().without(from).with(to);
        if let Some(captured) = captured {
            if captured != to {
                occupied = occupied.without(captured);
            }
        }
        let attacker = self
            .attackers_to(king, occupied)
            .find(|&sq| Some(sq) != captured && self.by_color(!self.turn()).contains(sq))
            .map(|square| self.placed(square));
        match attacker {
            Some(pinner) if self.blockers_for_king(self.turn()).contains(from) => {
                Refusal::Pinned { piece: mover, pinner }
            }
            Some(attacker) => Refusal::ExposesKing { attacker },
            // Not reached for a position from `from_setup`: a move the board allows that keeps
            // the king safe is legal.
            None => Refusal::CannotMoveThere { piece: mover, to },
        }
    }

    /// An enemy piece attacking `square` with `occupied` as the blockers.
    fn enemy_attacker(&self, square: Square, occupied: Bitboard) -> Option<PlacedPiece> {
        let enemies = self.attackers_to(square, occupied) & self.by_color(!self.turn());
        enemies.first().map(|sq| self.placed(sq))
    }

    /// The piece of `among` nearest to `from`.
    fn nearest(&self, from: Square, among: Bitboard) -> Option<PlacedPiece> {
        among.min_by_key(|&sq| between(from, sq).count()).map(|sq| self.placed(sq))
    }

    /// The piece on an occupied square.
    fn placed(&self, square: Square) -> PlacedPiece {
        let piece = self.piece_at(square).expect("an occupied square");
        PlacedPiece { piece, square }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The refusal of `from`-`to` in `fen`, as the player reads it.
    fn why(fen: &str, from: &str, to: &str) -> String {
        let pos: Position = fen.parse().unwrap();
        pos.refusal(from.parse().unwrap(), to.parse().unwrap()).map_or("legal".to_owned(), |r| r.to_string())
    }

    const START: &str = crate::fen::STARTING_FEN;

    #[test]
    fn the_board_explains_moves_a_piece_cannot_make() {
        assert_eq!(why(START, "e2", "e5"), "the pawn on e2 cannot move to e5");
        assert_eq!(why(START, "e2", "e4"), "legal");
        assert_eq!(why(START, "e3", "e4"), "there is no piece on e3");
        assert_eq!(why(START, "e7", "e5"), "the pawn on e7 is not yours");
        assert_eq!(why(START, "d1", "h5"), "the queen on d1 is blocked by the pawn on e2");
        assert_eq!(why(START, "d1", "f7"), "the queen on d1 cannot move to f7");
        assert_eq!(why(START, "g1", "e2"), "the knight on g1 cannot move onto its own pawn on e2");
        assert_eq!(
            why(START, "e2", "d3"),
            "the pawn on e2 moves diagonally only to capture, and there is nothing to capture on d3"
        );
        let blocked_pawn = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
        assert_eq!(why(blocked_pawn, "e4", "e5"), "the pawn on e4 is blocked by the pawn on e5");
        assert_eq!(why(START, "f1", "c4"), "the bishop on f1 is blocked by the pawn on e2");
    }

    #[test]
    fn the_king_may_not_walk_into_check() {
        // 1. e4 e5 2. Ke2 Bc5: e3 is covered by the bishop.
        let pos = "rnbqk1nr/pppp1ppp/8/2b1p3/4P3/8/PPPPKPPP/RNBQ1BNR w kq - 2 3";
        assert_eq!(why(pos, "e2", "e3"), "e3 is attacked by the bishop on c5");
        // Stepping back along the checking line is no escape.
        assert_eq!(why("4k3/8/8/8/8/8/4K3/4r3 w - - 0 1", "e2", "e3"), "e3 is attacked by the rook on e1");
    }

    #[test]
    fn pinned_pieces_and_unanswered_checks_are_named() {
        // 1. e4 e5 2. Nc3 Bb4... with d2 gone: the knight on c3 shields the king.
        let pinned = "rnbqk1nr/pppp1ppp/8/4p3/1b2P3/2N5/PPP2PPP/R1BQKBNR w KQkq - 0 4";
        assert_eq!(why(pinned, "c3", "d5"), "the knight on c3 is pinned against the king by the bishop on b4");
        let check = "rnbqk1nr/pppp1ppp/8/4p3/1b2P3/8/PPP2PPP/RNBQKBNR w KQkq - 0 4";
        assert_eq!(
            why(check, "g1", "f3"),
            "the king is in check from the bishop on b4, and this move does not answer it"
        );
        assert_eq!(why(check, "c2", "c3"), "legal");
        // Double check: rook on e1 and bishop on b5 both check the king on e8.
        let double = "r3k3/8/8/1B6/8/8/8/4R1K1 b q - 0 1";
        assert_eq!(
            why(double, "a8", "a5"),
            "the king is in check from the rook on e1 and the bishop on b5: only a king move answers a double check"
        );
        // En passant that empties the rank between the king and a rook.
        let ep = "8/8/8/KPp4r/8/8/8/7k w - c6 0 2";
        assert_eq!(why(ep, "b5", "c6"), "the move would expose the king to the rook on h5");
    }

    #[test]
    fn castling_says_what_stands_in_its_way() {
        let pos = "r3k2r/8/8/8/8/8/8/R3K1NR w KQkq - 0 1";
        assert_eq!(why(pos, "e1", "g1"), "castling is blocked by the knight on g1");
        assert_eq!(why(pos, "e1", "c1"), "legal");
        let attacked = "r3k2r/8/8/8/2b5/8/8/R3K2R w KQkq - 0 1";
        assert_eq!(
            why(attacked, "e1", "h1"),
            "the king may not castle through or into check: f1 is attacked by the bishop on c4"
        );
        let no_right = "r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1";
        assert_eq!(why(no_right, "e1", "g1"), "white may no longer castle kingside (the king or that rook has moved)");
        let check = "r3k2r/8/8/4r3/8/8/8/R3K2R w KQkq - 0 1";
        assert_eq!(why(check, "e1", "g1"), "the king may not castle out of check");
    }

    #[test]
    fn a_chess960_king_moving_two_files_away_from_its_castled_square_is_no_castle() {
        // The long castle (legal here) takes the king from g8 to c8; g8e8 is a king move
        // that the king cannot make, whatever the castle may do.
        let fen = "bq3rkr/pp3ppp/1n1ppn2/b1p5/4PP2/P2P1B2/NPP3PP/B1Q1NRKR b KQkq - 4 11";
        let pos = Position::from_fen(fen, crate::CastlingMode::Chess960).unwrap();
        let why = |from: &str, to: &str| pos.refusal(from.parse().unwrap(), to.parse().unwrap()).map(|r| r.to_string());
        assert_eq!(why("g8", "e8").as_deref(), Some("the king on g8 cannot move to e8"));
        assert_eq!(why("g8", "c8"), None);
        assert_eq!(why("g8", "f8"), None);
    }
}
