//! `Position`: the full FEN-equivalent state of a game at one moment, always legal.
//!
//! A `Position` can only be built through [`Position::from_setup`] (or FEN parsing, which
//! uses it), so every value of the type has passed validation: one king per side, no pawns
//! on the back ranks, the side not to move not in check, castling rights backed by king and
//! rook, a plausible en passant square. Moves are applied in place by [`Position::play`] or
//! [`Position::play_unchecked`]; the type is `Copy`, and copying it is how a caller undoes a
//! move (copy-make measured faster than make/unmake for this layout).

use crate::attacks::{
    between, bishop_attacks, bishop_rays, king_attacks, knight_attacks, line, pawn_attacks, rook_attacks, rook_rays,
};
use crate::bitboard::Bitboard;
use crate::castling::{CastlingMode, CastlingRights, CastlingSide};
use crate::error::{Defect, MoveError, PositionError};
use crate::movegen::Side;
use crate::moves::{Move, MoveKind, MoveList};
use crate::outcome::{GameResult, Outcome, Termination};
use crate::types::{Color, File, Piece, Rank, Role, Square};
use crate::zobrist;

/// The parts a position is made of, unvalidated: the input of [`Position::from_setup`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The piece on each square, indexed by [`Square::index`].
    pub board: [Option<Piece>; 64],
    /// The side to move.
    pub turn: Color,
    /// Squares of the rooks that may still castle (both colours).
    pub castling_rooks: Bitboard,
    /// The square a pawn skipped with a double step on the last move, if any.
    pub ep_square: Option<Square>,
    /// Half-moves since the last capture or pawn move.
    pub halfmove_clock: u32,
    /// Starts at 1 and is incremented after each Black move.
    pub fullmove_number: u32,
}

impl Setup {
    /// An empty board, White to move, no rights, clocks 0 and 1.
    pub fn empty() -> Setup {
        Setup {
            board: [None; 64],
            turn: Color::White,
            castling_rooks: Bitboard::EMPTY,
            ep_square: None,
            halfmove_clock: 0,
            fullmove_number: 1,
        }
    }
}

/// A legal chess position (standard or Chess960).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Position {
    by_role: [Bitboard; 6],
    by_color: [Bitboard; 2],
    castling: CastlingRights,
    key: u64,
    halfmove_clock: u32,
    fullmove_number: u32,
    ep_square: Option<Square>,
    turn: Color,
    mode: CastlingMode,
}

impl std::hash::Hash for Position {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.key.hash(state);
    }
}

impl Default for Position {
    fn default() -> Position {
        Position::startpos()
    }
}

impl Position {
    /// The standard starting position.
    pub fn startpos() -> Position {
        let back =
            [Role::Rook, Role::Knight, Role::Bishop, Role::Queen, Role::King, Role::Bishop, Role::Knight, Role::Rook];
        Position::from_back_rank(back, CastlingMode::Standard)
    }

    /// Chess960 starting position number `number` (0 to 959) in the Scharnagl numbering
    /// that FIDE's Laws (Appendix III) and lichess use; 518 is the standard setup. Castling
    /// is in Chess960 form (king takes rook). `None` above 959.
    ///
    /// ```
    /// use tempo_core::Position;
    ///
    /// assert_eq!(Position::chess960(0).unwrap().fen(), "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1");
    /// assert_eq!(Position::chess960(518).unwrap().fen(), Position::startpos().fen());
    /// assert!(Position::chess960(960).is_none());
    /// ```
    pub fn chess960(number: u32) -> Option<Position> {
        if number > 959 {
            return None;
        }
        let mut back: [Option<Role>; 8] = [None; 8];
        let mut n = number as usize;
        // Light-squared bishop on b, d, f or h; dark-squared on a, c, e or g.
        back[(n % 4) * 2 + 1] = Some(Role::Bishop);
        n /= 4;
        back[(n % 4) * 2] = Some(Role::Bishop);
        n /= 4;
        let free = |back: &[Option<Role>; 8]| (0..8).filter(|&i| back[i].is_none()).collect::<Vec<_>>();
        back[free(&back)[n % 6]] = Some(Role::Queen);
        n /= 6;
        // The two knights among the five squares left, in the order of the numbering.
        let knights = [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)][n];
        let empty = free(&back);
        back[empty[knights.0]] = Some(Role::Knight);
        back[empty[knights.1]] = Some(Role::Knight);
        // Rook, king, rook on the three squares left, from the a-file.
        for (slot, role) in free(&back).into_iter().zip([Role::Rook, Role::King, Role::Rook]) {
            back[slot] = Some(role);
        }
        Some(Position::from_back_rank(back.map(|r| r.expect("every square is filled")), CastlingMode::Chess960))
    }

    /// The starting position with this back rank (mirrored for Black), both sides able to
    /// castle with both rooks.
    fn from_back_rank(back: [Role; 8], mode: CastlingMode) -> Position {
        let mut setup = Setup::empty();
        for (file, role) in File::ALL.into_iter().zip(back) {
            setup.board[Square::from_coords(file, Rank::First).index()] = Some(Piece::new(Color::White, role));
            setup.board[Square::from_coords(file, Rank::Second).index()] = Some(Piece::new(Color::White, Role::Pawn));
            setup.board[Square::from_coords(file, Rank::Seventh).index()] = Some(Piece::new(Color::Black, Role::Pawn));
            setup.board[Square::from_coords(file, Rank::Eighth).index()] = Some(Piece::new(Color::Black, role));
            if role == Role::Rook {
                setup.castling_rooks |= Square::from_coords(file, Rank::First);
                setup.castling_rooks |= Square::from_coords(file, Rank::Eighth);
            }
        }
        Position::from_setup(setup, mode).expect("a start position is legal")
    }

    /// Builds a position from its parts, checking that it is legal.
    ///
    /// # Errors
    /// A [`PositionError`] listing every [`Defect`] found: missing or extra kings, pawns on
    /// the first or last rank, too many pieces or pawns, the side not to move in check, more
    /// than two checkers, a fullmove number of 0, castling rights without king and rook in
    /// place (in `Standard` mode the king must be on e1/e8 and the rooks in the corners), an
    /// en passant square that no double step can have produced, or a check that no last move
    /// can have given. When every defect is fixable (the last three), the error carries the
    /// best legal position: see [`PositionError::into_repaired`] and
    /// [`PositionError::ignore_impossible_check`].
    pub fn from_setup(setup: Setup, mode: CastlingMode) -> Result<Position, PositionError> {
        let mut pos = Position {
            by_role: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
            castling: CastlingRights::NONE,
            key: 0,
            halfmove_clock: setup.halfmove_clock,
            fullmove_number: setup.fullmove_number,
            ep_square: None,
            turn: setup.turn,
            mode,
        };
        for square in Square::all() {
            if let Some(piece) = setup.board[square.index()] {
                pos.put::<true>(square, piece);
            }
        }

        // Defects that leave no position to speak of, found together.
        let mut fatal = Vec::new();
        if pos.fullmove_number == 0 {
            fatal.push(Defect::FullmoveNumberZero);
        }
        for color in Color::ALL {
            match pos.pieces(color, Role::King).count() {
                0 => fatal.push(Defect::MissingKing(color)),
                1 => {}
                _ => fatal.push(Defect::TooManyKings(color)),
            }
            if pos.by_color[color.index()].count() > 16 {
                fatal.push(Defect::TooManyPieces(color));
            }
            if pos.pieces(color, Role::Pawn).count() > 8 {
                fatal.push(Defect::TooManyPawns(color));
            }
        }
        fatal.extend((pos.by_role[Role::Pawn.index()] & Bitboard::BACK_RANKS).into_iter().map(Defect::PawnOnBackRank));
        if !fatal.is_empty() {
            // Checks need one king a side.
            return Err(PositionError::fatal(fatal));
        }
        let them = !pos.turn;
        if (pos.attackers_to(pos.king_of(them), pos.occupied()) & pos.by_color[pos.turn.index()]).any() {
            fatal.push(Defect::OpponentInCheck);
        }
        if pos.checkers().count() > 2 {
            fatal.push(Defect::TooManyCheckers);
        }
        if !fatal.is_empty() {
            return Err(PositionError::fatal(fatal));
        }

        // Defects fixed by dropping what cannot stand, or by accepting the position as is.
        let mut fixable = Vec::new();
        let kings = Color::ALL.map(|color| pos.king_of(color));
        let rooks = Color::ALL.map(|color| pos.pieces(color, Role::Rook));
        let (rights, refused) = CastlingRights::from_rooks(setup.castling_rooks, kings, rooks, mode);
        pos.castling = rights;
        fixable.extend(refused.into_iter().map(Defect::InvalidCastling));
        if let Some(ep) = setup.ep_square {
            if pos.is_valid_ep_square(ep) {
                pos.ep_square = Some(ep);
            } else {
                fixable.push(Defect::InvalidEnPassant(ep));
            }
        }
        if !pos.is_check_possible() {
            fixable.push(Defect::ImpossibleCheck);
        }
        pos.key = pos.compute_key();
        if fixable.is_empty() {
            Ok(pos)
        } else {
            Err(PositionError::fixable(fixable, pos))
        }
    }

    /// Whether the checks on the side to move could have come from the opponent's last move
    /// (python-chess's `STATUS_IMPOSSIBLE_CHECK`). Two checkers on one line through the king
    /// cannot both have been uncovered by one move. After a double step (an en passant
    /// square), the check must come from the pushed pawn alone, or from a piece the pawn had
    /// been blocking.
    ///
    /// [`Position::from_setup`] reports such a position as [`Defect::ImpossibleCheck`], a
    /// fixable defect: it plays by the rules (perft suites use such positions), so FEN
    /// parsing for play accepts it, while strict validators such as `tempo-tools fen check`
    /// do not.
    pub fn is_check_possible(&self) -> bool {
        let checkers = self.checkers();
        let king = self.king_of(self.turn);
        let (Some(first), Some(last)) = (checkers.first(), checkers.last()) else { return true };
        match self.ep_square {
            Some(ep) => {
                let us = self.turn;
                let pushed = ep.offset(us.fold(-8, 8)).expect("validated en passant square");
                let origin = ep.offset(us.fold(8, -8)).expect("validated en passant square");
                let before = self.occupied().without(pushed).with(origin);
                checkers.count() == 1 && (first == pushed || !self.is_attacked(king, !us, before))
            }
            None => !(checkers.count() == 2 && line(first, last).contains(king)),
        }
    }

    /// `true` if a double step of the opponent's can have left `ep` behind: the square is
    /// on our sixth rank, the pawn stands in front of it, and the square it skipped and the
    /// one it came from are empty.
    fn is_valid_ep_square(&self, ep: Square) -> bool {
        let us = self.turn;
        if ep.rank() != Rank::Sixth.relative_to(us) {
            return false;
        }
        let pushed = ep.offset(us.fold(-8, 8)).expect("rank 6 has a square below");
        let origin = ep.offset(us.fold(8, -8)).expect("rank 6 has a square above");
        self.piece_at(pushed) == Some(Piece::new(!us, Role::Pawn))
            && !self.occupied().contains(ep)
            && !self.occupied().contains(origin)
    }

    // ---------------------------------------------------------------- accessors

    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The piece on `square`, if any.
    #[inline]
    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        let role = self.role_at(square)?;
        let color = if self.by_color[0].contains(square) { Color::White } else { Color::Black };
        Some(Piece::new(color, role))
    }

    /// The role of the piece on `square`, if any.
    #[inline]
    pub fn role_at(&self, square: Square) -> Option<Role> {
        // No mailbox: the position stays small (104 bytes) so copy-make copies it inline.
        if !self.occupied().contains(square) {
            return None;
        }
        Role::ALL.into_iter().find(|role| self.by_role[role.index()].contains(square))
    }

    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The squares of `color`'s pieces.
    #[inline]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// The squares of pieces of `role`, both colours.
    #[inline]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }

    /// The squares of `color`'s pieces of `role`.
    #[inline]
    pub fn pieces(&self, color: Color, role: Role) -> Bitboard {
        self.by_color[color.index()] & self.by_role[role.index()]
    }

    /// Bishops and queens of `color`.
    #[inline]
    pub(crate) fn diagonal_sliders(&self, color: Color) -> Bitboard {
        (self.by_role[Role::Bishop.index()] | self.by_role[Role::Queen.index()]) & self.by_color[color.index()]
    }

    /// Rooks and queens of `color`.
    #[inline]
    pub(crate) fn straight_sliders(&self, color: Color) -> Bitboard {
        (self.by_role[Role::Rook.index()] | self.by_role[Role::Queen.index()]) & self.by_color[color.index()]
    }

    /// The square of `color`'s king.
    #[inline]
    pub fn king_of(&self, color: Color) -> Square {
        self.pieces(color, Role::King).lsb()
    }

    /// The rooks that keep castling rights.
    #[inline]
    pub fn castling_rights(&self) -> CastlingRights {
        self.castling
    }

    /// Standard chess or Chess960 castling notation (the rules of play are the same).
    #[inline]
    pub fn castling_mode(&self) -> CastlingMode {
        self.mode
    }

    /// Switches between standard and Chess960 notation for castling.
    ///
    /// # Errors
    /// [`Defect::InvalidCastling`] for each castling right that belongs to a rook or king off
    /// the standard squares when switching to `Standard`; the position is then unchanged,
    /// and the error's repaired position is this one without those rights.
    pub fn set_castling_mode(&mut self, mode: CastlingMode) -> Result<(), PositionError> {
        let kings = Color::ALL.map(|color| self.king_of(color));
        let rooks = Color::ALL.map(|color| self.pieces(color, Role::Rook));
        let (rights, refused) = CastlingRights::from_rooks(self.castling.rooks(), kings, rooks, mode);
        let mut changed = *self;
        changed.castling = rights;
        changed.mode = mode;
        changed.key = changed.compute_key();
        if refused.any() {
            return Err(PositionError::fixable(refused.into_iter().map(Defect::InvalidCastling).collect(), changed));
        }
        *self = changed;
        Ok(())
    }

    /// The en passant square as FEN records it (after every double step), if any.
    #[inline]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    /// The en passant square only if an en passant capture is actually legal.
    pub fn legal_ep_square(&self) -> Option<Square> {
        let ep = self.ep_square?;
        let mut moves = MoveList::new();
        self.legal_moves_into(&mut moves);
        moves.iter().any(|m| m.is_en_passant()).then_some(ep)
    }

    /// Half-moves since the last capture or pawn move (for the fifty-move rule).
    #[inline]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove_clock
    }

    /// The move number, starting at 1, incremented after each Black move.
    #[inline]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove_number
    }

    /// The number of half-moves played since move 1 with White to move (from the FEN counters).
    #[inline]
    pub fn ply(&self) -> u32 {
        // Saturating: a FEN may give any move number, up to u32::MAX.
        (self.fullmove_number - 1).saturating_mul(2).saturating_add(u32::from(self.turn == Color::Black))
    }

    /// The Zobrist key (Polyglot key set), updated incrementally.
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Changes the move counters (they take no part in legality).
    ///
    /// # Errors
    /// [`Defect::FullmoveNumberZero`] if `fullmove_number` is 0.
    pub fn set_counters(&mut self, halfmove_clock: u32, fullmove_number: u32) -> Result<(), PositionError> {
        if fullmove_number == 0 {
            return Err(PositionError::fatal(vec![Defect::FullmoveNumberZero]));
        }
        self.halfmove_clock = halfmove_clock;
        self.fullmove_number = fullmove_number;
        Ok(())
    }

    /// The parts of this position (the inverse of [`Position::from_setup`]).
    pub fn to_setup(&self) -> Setup {
        let mut board = [None; 64];
        for square in Square::all() {
            board[square.index()] = self.piece_at(square);
        }
        Setup {
            board,
            turn: self.turn,
            castling_rooks: self.castling.rooks(),
            ep_square: self.ep_square,
            halfmove_clock: self.halfmove_clock,
            fullmove_number: self.fullmove_number,
        }
    }

    // ---------------------------------------------------------------- attacks

    /// Pieces of both colours that attack `square`, given `occupied` as the blockers.
    #[inline]
    pub fn attackers_to(&self, square: Square, occupied: Bitboard) -> Bitboard {
        (pawn_attacks(Color::White, square) & self.pieces(Color::Black, Role::Pawn))
            | (pawn_attacks(Color::Black, square) & self.pieces(Color::White, Role::Pawn))
            | (knight_attacks(square) & self.by_role[Role::Knight.index()])
            | (king_attacks(square) & self.by_role[Role::King.index()])
            | (bishop_attacks(square, occupied)
                & (self.by_role[Role::Bishop.index()] | self.by_role[Role::Queen.index()]))
            | (rook_attacks(square, occupied) & (self.by_role[Role::Rook.index()] | self.by_role[Role::Queen.index()]))
    }

    /// `true` if a piece of `by` attacks `square` with `occupied` as the blockers.
    #[inline]
    pub fn is_attacked(&self, square: Square, by: Color, occupied: Bitboard) -> bool {
        if (pawn_attacks(!by, square) & self.pieces(by, Role::Pawn)).any()
            || (knight_attacks(square) & self.pieces(by, Role::Knight)).any()
            || (king_attacks(square) & self.pieces(by, Role::King)).any()
        {
            return true;
        }
        // Sliders: a magic lookup only when one stands on an empty-board ray.
        let diagonal = self.diagonal_sliders(by);
        let straight = self.straight_sliders(by);
        ((bishop_rays(square) & diagonal).any() && (bishop_attacks(square, occupied) & diagonal).any())
            || ((rook_rays(square) & straight).any() && (rook_attacks(square, occupied) & straight).any())
    }

    /// The enemy pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.attackers_to(self.king_of(self.turn), self.occupied()) & self.by_color[(!self.turn).index()]
    }

    /// `true` if the side to move is in check.
    #[inline]
    pub fn is_check(&self) -> bool {
        self.checkers().any()
    }

    /// Pieces of either colour standing alone between `color`'s king and an enemy slider
    /// aimed at it (moving such a piece of `color` off the line exposes the king).
    #[inline]
    pub fn blockers_for_king(&self, color: Color) -> Bitboard {
        let king = self.king_of(color);
        let them = !color;
        let occupied = self.occupied();
        let snipers =
            (rook_rays(king) & self.straight_sliders(them)) | (bishop_rays(king) & self.diagonal_sliders(them));
        let mut blockers = Bitboard::EMPTY;
        for sniper in snipers {
            let b = between(king, sniper) & occupied;
            if b.any() && !b.has_more_than_one() {
                blockers |= b;
            }
        }
        blockers
    }

    // ---------------------------------------------------------------- endings

    /// `true` if the side to move is checkmated.
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_moves()
    }

    /// `true` if the side to move is stalemated.
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && !self.has_legal_moves()
    }

    /// `true` if neither side can checkmate by any sequence of legal moves, in the cases FIDE
    /// recognises by material alone: K v K, K+B v K, K+N v K, and kings with any number of
    /// bishops all standing on squares of one colour.
    pub fn is_insufficient_material(&self) -> bool {
        let kings = self.by_role[Role::King.index()];
        let others = self.occupied() - kings;
        if others.is_empty() {
            return true;
        }
        if (self.by_role[Role::Pawn.index()] | self.by_role[Role::Rook.index()] | self.by_role[Role::Queen.index()])
            .any()
        {
            return false;
        }
        if others.count() == 1 {
            return true; // a lone knight or bishop
        }
        let bishops = self.by_role[Role::Bishop.index()];
        others == bishops
            && ((bishops & Bitboard::LIGHT_SQUARES).is_empty() || (bishops & Bitboard::DARK_SQUARES).is_empty())
    }

    /// How the rules end the game in this position alone, if they do: checkmate (the side
    /// that gave it wins), stalemate or insufficient material (draws). Endings that need the
    /// game's history (repetitions, the seventy-five-move rule) or the players (claims,
    /// resignation, the clock) are [`Game`](crate::Game)'s.
    pub fn outcome(&self) -> Option<Outcome> {
        if !self.has_legal_moves() {
            Some(if self.is_check() {
                Outcome { result: GameResult::win_for(!self.turn), termination: Termination::Checkmate }
            } else {
                Outcome::draw(Termination::Stalemate)
            })
        } else if self.is_insufficient_material() {
            Some(Outcome::draw(Termination::InsufficientMaterial))
        } else {
            None
        }
    }

    // ---------------------------------------------------------------- making moves

    /// Plays `m` after checking that it is legal.
    ///
    /// Castling is king takes own rook (`Move::castle(e1, h1)`) and an en passant capture is
    /// `Move::en_passant`: [`Position::find_move`] finds the legal move from its squares.
    ///
    /// # Errors
    /// [`MoveError::Illegal`] if `m` is not a legal move here; the position is unchanged.
    /// When `m` names castling or en passant as another kind of move (`Move::normal(e1, g1)`),
    /// the error carries the legal move meant.
    pub fn play(&mut self, m: Move) -> Result<(), MoveError> {
        self.check_legal(m)?;
        self.play_unchecked(m);
        Ok(())
    }

    /// `Ok` if `m` is legal here, else the error [`Position::play`] returns.
    pub(crate) fn check_legal(&self, m: Move) -> Result<(), MoveError> {
        if self.is_legal(m) {
            return Ok(());
        }
        let legal = self.find_move(m.from(), m.castling_king_to(), m.promotion_role()).ok().filter(|&legal| legal != m);
        Err(MoveError::Illegal { mv: m, fen: crate::fen::write_fen(self), legal })
    }

    /// The legal move from `from` to `to` (promoting to `promotion`), as people name moves:
    /// castling by the king's destination (`e1g1`) or as king takes own rook (`e1h1`, the
    /// Chess960 form), en passant by the pawn's squares. Where one pair of squares names both
    /// a king move and castling (Chess960), the move whose `to` is `to` wins: king takes rook
    /// names castling exactly.
    ///
    /// ```
    /// use tempo_core::{Move, Position, Square};
    ///
    /// let mut pos: Position = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1".parse()?;
    /// let castle = pos.find_move(Square::E1, Square::G1, None)?;
    /// assert_eq!(castle, Move::castle(Square::E1, Square::H1));
    /// assert_eq!(pos.find_move(Square::E1, Square::H1, None)?, castle);
    /// // Played as a normal move, castling is refused with a pointer to the legal move.
    /// let error = pos.play(Move::normal(Square::E1, Square::G1)).unwrap_err();
    /// assert!(error.to_string().contains("the legal move from e1 to g1 is e1h1 (castling"));
    /// pos.play(castle)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`MoveError::NoSuchMove`] if no legal move matches (a missing or unneeded promotion
    /// included).
    pub fn find_move(&self, from: Square, to: Square, promotion: Option<Role>) -> Result<Move, MoveError> {
        let moves = self.legal_moves();
        let from_here = || moves.iter().copied().filter(|m| m.from() == from && m.promotion_role() == promotion);
        from_here()
            .find(|m| m.to() == to)
            .or_else(|| from_here().find(|m| m.is_castle() && m.castling_king_to() == to))
            .ok_or_else(|| MoveError::NoSuchMove { from, to, promotion, fen: crate::fen::write_fen(self) })
    }

    /// Plays a legal move without checking it.
    ///
    /// `m` must come from this position's legal move generator (a pseudo-legal move leaves
    /// an invalid position behind, which debug builds catch). For a move from elsewhere (a
    /// user, a file), [`Position::play`] checks it first.
    ///
    /// # Panics
    /// If no piece stands on `m`'s from-square.
    pub fn play_unchecked(&mut self, m: Move) {
        let moved = self.role_at(m.from()).expect("a piece on the from-square of a legal move");
        self.make::<true>(m, self.turn, moved);
    }

    /// [`Position::play_unchecked`] for perft, which knows the side to move `C`, without
    /// updating the Zobrist key, which is left stale.
    ///
    /// For perft only, whose positions never escape it: a stale key breaks the invariant
    /// that [`Position::key`] matches the position, so nothing else may see such a position.
    ///
    /// `moved` is the role of the piece on the from-square, which the generator knows: no
    /// search of the role bitboards for it.
    #[inline]
    pub(crate) fn play_unhashed<C: Side>(&mut self, m: Move, moved: Role) {
        debug_assert_eq!(self.turn, C::US);
        debug_assert_eq!(self.role_at(m.from()), Some(moved));
        self.make::<false>(m, C::US, moved);
    }

    /// Plays a legal move for `us`, the side to move (a constant when inlined into perft);
    /// `HASH` says whether to keep the Zobrist key up to date; `moved` is the moving piece's
    /// role.
    #[inline(always)]
    fn make<const HASH: bool>(&mut self, m: Move, us: Color, moved: Role) {
        let them = !us;
        let from = m.from();
        let to = m.to();
        let moved = Piece::new(us, moved);
        debug_assert!(self.by_color[us.index()].contains(from));

        if let Some(ep) = self.ep_square.take() {
            if HASH && self.ep_is_hashed(ep) {
                self.key ^= zobrist::en_passant_key(ep.file());
            }
        }
        if HASH {
            self.key ^= zobrist::WHITE_TO_MOVE;
        }
        let old_castling = self.castling;
        self.halfmove_clock = self.halfmove_clock.saturating_add(1);

        match m.kind() {
            MoveKind::Normal => {
                if self.capture::<HASH>(to, them) {
                    self.halfmove_clock = 0;
                }
                self.shift::<HASH>(from, to, moved);
                if moved.role == Role::Pawn {
                    self.halfmove_clock = 0;
                    if from.index() ^ to.index() == 16 {
                        let ep = Square::new_unchecked(((from.index() + to.index()) / 2) as u32);
                        self.ep_square = Some(ep);
                        // `turn` is still `us`: the key includes the square only if one of
                        // their pawns can capture (pawns beside `to`).
                        if HASH && (pawn_attacks(us, ep) & self.pieces(them, Role::Pawn)).any() {
                            self.key ^= zobrist::en_passant_key(ep.file());
                        }
                    }
                }
            }
            MoveKind::Promotion(role) => {
                self.capture::<HASH>(to, them);
                self.remove::<HASH>(from, moved);
                self.put::<HASH>(to, Piece::new(us, role));
                self.halfmove_clock = 0;
            }
            MoveKind::EnPassant => {
                let captured = Square::new_unchecked(((to.index() as i32) + us.fold(-8, 8)) as u32);
                self.remove::<HASH>(captured, Piece::new(them, Role::Pawn));
                self.shift::<HASH>(from, to, moved);
                self.halfmove_clock = 0;
            }
            MoveKind::Castle => {
                let rook = Piece::new(us, Role::Rook);
                self.remove::<HASH>(from, moved);
                self.remove::<HASH>(to, rook);
                self.put::<HASH>(m.castling_king_to(), moved);
                self.put::<HASH>(m.castling_rook_to(), rook);
            }
        }

        if !old_castling.is_empty() {
            self.castling.discard_square(from);
            self.castling.discard_square(to);
            if moved.role == Role::King {
                self.castling.discard_color(us);
            }
        }
        if HASH && self.castling != old_castling {
            self.key ^= old_castling.zobrist() ^ self.castling.zobrist();
        }

        if us == Color::Black {
            self.fullmove_number = self.fullmove_number.saturating_add(1);
        }
        self.turn = them;
        debug_assert!(!HASH || self.key == self.compute_key(), "incremental key diverged after {m:?}");
    }

    /// Passes the move to the opponent without moving (for null-move search).
    ///
    /// # Panics
    /// In debug builds, if the side to move is in check (a null move would then be illegal).
    pub fn play_null(&mut self) {
        debug_assert!(!self.is_check());
        if let Some(ep) = self.ep_square.take() {
            if self.ep_is_hashed(ep) {
                self.key ^= zobrist::en_passant_key(ep.file());
            }
        }
        self.key ^= zobrist::WHITE_TO_MOVE;
        self.halfmove_clock = self.halfmove_clock.saturating_add(1);
        if self.turn == Color::Black {
            self.fullmove_number = self.fullmove_number.saturating_add(1);
        }
        self.turn = !self.turn;
    }

    /// The Polyglot rule: the en passant file is hashed only if a pawn of the side to move
    /// stands beside the pawn that just made the double step.
    #[inline]
    fn ep_is_hashed(&self, ep: Square) -> bool {
        (pawn_attacks(!self.turn, ep) & self.pieces(self.turn, Role::Pawn)).any()
    }

    /// The key computed from scratch (the incremental key must always equal it).
    pub fn compute_key(&self) -> u64 {
        let mut key = 0;
        for square in self.occupied() {
            key ^= zobrist::piece_key(self.piece_at(square).expect("occupied"), square);
        }
        key ^= self.castling.zobrist();
        if let Some(ep) = self.ep_square {
            if self.ep_is_hashed(ep) {
                key ^= zobrist::en_passant_key(ep.file());
            }
        }
        if self.turn == Color::White {
            key ^= zobrist::WHITE_TO_MOVE;
        }
        key
    }

    /// Removes `them`'s piece on `square`, if any; `true` if there was one. Without a key to
    /// update its role need not be known: the square leaves every role's set, no search.
    #[inline(always)]
    fn capture<const HASH: bool>(&mut self, square: Square, them: Color) -> bool {
        if !self.by_color[them.index()].contains(square) {
            return false;
        }
        if HASH {
            let role = self.role_at(square).expect("an occupied square");
            self.remove::<true>(square, Piece::new(them, role));
        } else {
            for set in &mut self.by_role {
                *set = set.without(square);
            }
            self.by_color[them.index()] = self.by_color[them.index()].without(square);
        }
        true
    }

    /// Moves `piece` from `from` to the empty square `to`.
    #[inline]
    fn shift<const HASH: bool>(&mut self, from: Square, to: Square, piece: Piece) {
        debug_assert!(!self.occupied().contains(to));
        let both = Bitboard::from_square(from) | to;
        self.by_role[piece.role.index()] ^= both;
        self.by_color[piece.color.index()] ^= both;
        if HASH {
            self.key ^= zobrist::piece_key(piece, from) ^ zobrist::piece_key(piece, to);
        }
    }

    #[inline]
    fn put<const HASH: bool>(&mut self, square: Square, piece: Piece) {
        debug_assert!(!self.occupied().contains(square));
        self.by_role[piece.role.index()].toggle(square);
        self.by_color[piece.color.index()].toggle(square);
        if HASH {
            self.key ^= zobrist::piece_key(piece, square);
        }
    }

    #[inline]
    fn remove<const HASH: bool>(&mut self, square: Square, piece: Piece) {
        debug_assert_eq!(self.piece_at(square), Some(piece));
        self.by_role[piece.role.index()].toggle(square);
        self.by_color[piece.color.index()].toggle(square);
        if HASH {
            self.key ^= zobrist::piece_key(piece, square);
        }
    }

    /// The piece that would be captured by `m` (the pawn for en passant), if any.
    #[inline]
    pub fn captured_piece(&self, m: Move) -> Option<Piece> {
        match m.kind() {
            MoveKind::Castle => None,
            MoveKind::EnPassant => Some(Piece::new(!self.turn, Role::Pawn)),
            _ => self.piece_at(m.to()),
        }
    }

    /// `true` if `m` captures (including en passant).
    #[inline]
    pub fn is_capture(&self, m: Move) -> bool {
        self.captured_piece(m).is_some()
    }

    /// The castling move of `color` towards `side`, if the right exists (legality aside).
    pub fn castling_move(&self, side: CastlingSide) -> Option<Move> {
        self.castling.rook(self.turn, side).map(|rook| Move::castle(self.king_of(self.turn), rook))
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", crate::fen::write_fen(self))
    }
}

impl std::fmt::Display for Position {
    /// The position's FEN.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&crate::fen::write_fen(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen, CastlingMode::Standard).unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    fn error(fen: &str) -> PositionError {
        let mode = CastlingMode::Standard;
        match Position::from_setup(Setup::from_fen(fen, mode).unwrap(), mode) {
            Err(e) => e,
            Ok(_) => panic!("{fen}: expected a position error"),
        }
    }

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    fn defects(fen: &str) -> Vec<Defect> {
        error(fen).defects().to_vec()
    }

    #[test]
    fn move_counters_stop_at_their_largest_value_instead_of_wrapping() {
        let mut pos: Position = "4k3/8/8/8/8/8/8/4K3 b - - 4294967295 4294967295".parse().unwrap();
        pos.play_unchecked(pos.legal_moves()[0]);
        assert_eq!(pos.fullmove_number(), u32::MAX);
        assert_eq!(pos.halfmove_clock(), u32::MAX);
        assert_eq!(pos.fen().parse::<Position>().map(|p| p.fullmove_number()), Ok(u32::MAX));
        assert_eq!(pos.ply(), u32::MAX);
        pos.play_null();
        assert_eq!(pos.fullmove_number(), u32::MAX);
    }

    #[test]
    fn validation_rejects_impossible_positions() {
        use Defect::*;
        assert_eq!(defects("8/8/8/8/8/8/8/4K3 w - - 0 1"), [MissingKing(Color::Black)]);
        assert_eq!(defects("4k3/8/8/8/8/8/8/3KK3 w - - 0 1"), [TooManyKings(Color::White)]);
        assert_eq!(defects("P3k3/8/8/8/8/8/8/4K3 w - - 0 1"), [PawnOnBackRank(Square::A8)]);
        assert_eq!(defects("4k3/8/8/8/8/8/8/p3K3 w - - 0 1"), [PawnOnBackRank(Square::A1)]);
        assert_eq!(defects("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1"), [OpponentInCheck]);
        assert_eq!(defects("4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1"), [TooManyPawns(Color::White)]);
        assert_eq!(defects("4k3/8/8/8/QQQQQQQQ/QQQQQQQQ/8/4K3 w - - 0 1"), [TooManyPieces(Color::White)]);
        assert_eq!(defects("4k3/8/8/8/8/8/8/4K3 w K - 0 1"), [InvalidCastling(Square::H1)]);
        assert_eq!(defects("4k3/8/8/8/8/8/8/R3K2R w k - 0 1"), [InvalidCastling(Square::H8)]);
        assert_eq!(defects("4k3/8/8/8/8/8/8/R4K1R w K - 0 1"), [InvalidCastling(Square::H1)]);
        // En passant: needs the double-stepped pawn in front and empty squares behind.
        assert_eq!(defects("4k3/8/8/8/8/8/8/4K3 b - e3 0 1"), [InvalidEnPassant(sq("e3"))]);
        assert_eq!(defects("4k3/8/8/8/4P3/4N3/8/4K3 b - e3 0 1"), [InvalidEnPassant(sq("e3"))]);
        // Three checkers cannot arise.
        assert_eq!(defects("4k3/8/3N4/1B6/8/8/4R3/4K3 b - - 0 1"), [TooManyCheckers]);
        // Every defect is reported, not only the first.
        assert_eq!(
            defects("P7/8/8/8/8/8/8/KK6 w - - 0 1"),
            [TooManyKings(Color::White), MissingKing(Color::Black), PawnOnBackRank(Square::A8)]
        );
        assert_eq!(defects("4k3/8/8/8/8/8/8/4K3 b KQkq e3 0 1").len(), 5);
    }

    #[test]
    fn fatal_defects_leave_no_position() {
        for fen in
            ["8/8/8/8/8/8/8/4K3 w K - 0 1", "4k3/4R3/8/8/8/8/8/4K3 w K - 0 1", "4k3/8/3N4/1B6/8/8/4R3/4K3 b - - 0 1"]
        {
            let e = error(fen);
            assert!(e.repaired().is_none(), "{fen}");
            assert!(e.defects().iter().any(|d| !d.is_fixable()), "{fen}");
            assert_eq!(e.clone().into_repaired(), Err(e), "{fen}");
        }
    }

    #[test]
    fn fixable_defects_carry_the_best_legal_position() {
        // Rights without their rooks and a square no double step left: both dropped, the
        // rights that stand are kept.
        let e = error("r3k3/8/8/8/8/8/8/4K2R w KQkq e6 0 1");
        assert_eq!(
            e.defects(),
            [
                Defect::InvalidCastling(Square::A1),
                Defect::InvalidCastling(Square::H8),
                Defect::InvalidEnPassant(sq("e6"))
            ]
        );
        let repaired = e.into_repaired().unwrap();
        assert_eq!(repaired.fen(), "r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1");
        assert_eq!(repaired.key(), repaired.compute_key());
        // A Chess960 setup read in standard mode: its rights are refused, the board kept.
        let e = error("bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1");
        assert_eq!(e.defects().len(), 4);
        assert_eq!(e.repaired().unwrap().fen(), "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w - - 0 1");
    }

    #[test]
    fn an_impossible_check_is_fixable_by_accepting_it() {
        // Rooks on both sides of the king along one file: no single move uncovers both.
        let fen = "4r3/8/8/4K3/8/8/8/k3r3 w - - 0 1";
        let strict = error(fen);
        assert_eq!(strict.defects(), [Defect::ImpossibleCheck]);
        // The lenient readers (FEN for play and perft) take the position as it is.
        let accepted = strict.ignore_impossible_check().unwrap();
        assert_eq!(accepted, pos(fen));
        // Any other defect beside it is not ignored.
        let both = error("4r3/8/8/4K3/8/8/8/k3r3 w K - 0 1");
        assert_eq!(both.defects(), [Defect::InvalidCastling(Square::H1), Defect::ImpossibleCheck]);
        assert!(both.ignore_impossible_check().is_err());
    }

    #[test]
    fn switching_to_standard_castling_refuses_960_rights_and_changes_nothing() {
        let mut pos =
            Position::from_fen("bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1", CastlingMode::Chess960)
                .unwrap();
        let before = pos;
        let e = pos.set_castling_mode(CastlingMode::Standard).unwrap_err();
        assert_eq!(e.defects().len(), 4);
        assert_eq!(pos, before);
        assert!(e.repaired().unwrap().castling_rights().is_empty());
        assert!(pos.set_castling_mode(CastlingMode::Chess960).is_ok());
    }

    #[test]
    fn checks_no_last_move_can_have_given_are_found() {
        for impossible in [
            // Rooks on both sides of the king along one file: no single move uncovers both.
            "4r3/8/8/4K3/8/8/8/k3r3 w - - 0 1",
            // After e2-e4 the rook on h8 cannot be giving check.
            "k6R/8/8/8/4P3/8/8/4K3 b - e3 0 1",
            // After a double step, a double check (the pawn and the rook on a1) is impossible.
            "8/8/8/k7/1P6/8/8/R3K3 b - b3 0 1",
        ] {
            assert!(!pos(impossible).is_check_possible(), "{impossible}");
        }
        for possible in [
            // Knight and rook: a discovered double check.
            "4k3/8/3N4/8/8/8/8/4RK2 b - - 0 1",
            // b2-b4 uncovered the rook on h2.
            "8/8/8/8/1P6/8/k6R/4K3 b - b3 0 1",
            // b2-b4 itself gives check.
            "8/8/8/k7/1P6/8/8/4K3 b - b3 0 1",
            // Two pawns checking (python-chess accepts this as well).
            "4k3/3P1P2/8/8/8/8/8/4K3 b - - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ] {
            assert!(pos(possible).is_check_possible(), "{possible}");
        }
    }

    #[test]
    fn checkmate_and_stalemate() {
        let fools_mate = pos("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
        assert!(fools_mate.is_check());
        assert!(fools_mate.is_checkmate());
        let mate = Outcome { result: GameResult::BlackWins, termination: Termination::Checkmate };
        assert_eq!(fools_mate.outcome(), Some(mate));
        assert_eq!(mate.to_string(), "0-1 (checkmate)");
        let stalemate = pos("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
        assert!(stalemate.is_stalemate());
        assert_eq!(
            stalemate.outcome(),
            Some(Outcome { result: GameResult::Draw, termination: Termination::Stalemate })
        );
        assert_eq!(Position::startpos().outcome(), None);
    }

    #[test]
    fn insufficient_material_follows_the_fide_cases() {
        for fen in [
            "8/8/8/4k3/8/8/8/4K3 w - - 0 1",     // K v K
            "8/8/8/4k3/8/8/8/3BK3 w - - 0 1",    // K+B v K
            "8/8/8/4k3/8/8/8/3NK3 b - - 0 1",    // K+N v K
            "8/8/8/2b1k3/8/8/5B2/4K3 w - - 0 1", // bishops on one colour (c5, f2: both dark)
            "8/8/8/k7/8/8/8/B1B1K3 w - - 0 1",   // two same-coloured bishops
        ] {
            let p = pos(fen);
            assert!(p.is_insufficient_material(), "{fen}");
            let dead = p.outcome().unwrap();
            assert_eq!((dead.result, dead.termination), (GameResult::Draw, Termination::InsufficientMaterial), "{fen}");
            assert_eq!(dead.to_string(), "1/2-1/2 (insufficient material)");
        }
        for fen in [
            "8/8/8/4k3/8/8/8/2B1KB2 w - - 0 1", // bishops on both colours
            "8/8/8/4k3/8/8/8/2N1KN2 w - - 0 1", // two knights (mate is possible with help)
            "8/8/8/4k3/3b4/8/8/4KB2 w - - 0 1", // opposite-coloured bishops
            "8/8/8/4k3/8/8/8/3NKB2 w - - 0 1",  // bishop and knight
            "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1",  // a pawn
            "8/8/8/4k3/8/8/8/3RK3 w - - 0 1",   // a rook
            "8/8/8/2n1k3/8/8/8/4KB2 w - - 0 1", // minor against minor
        ] {
            assert!(!pos(fen).is_insufficient_material(), "{fen}");
        }
    }

    #[test]
    fn play_rejects_illegal_moves_and_keeps_the_position() {
        let mut p = Position::startpos();
        let before = p;
        let illegal = Move::normal(Square::E1, "e2".parse().unwrap());
        assert!(p.play(illegal).is_err());
        assert_eq!(p, before);
        let e4 = Move::normal("e2".parse().unwrap(), "e4".parse().unwrap());
        p.play(e4).unwrap();
        assert_eq!(p.fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
        assert_eq!(p.key(), 0x823c_9b50_fd11_4196);
    }

    #[test]
    fn en_passant_that_exposes_the_king_along_the_rank_is_illegal() {
        // Capturing d6 with e5xd6 would remove both pawns from the fifth rank: the rook on a5
        // would then attack the king on h5.
        let p = pos("8/8/8/r2pP2K/8/8/8/4k3 w - d6 0 1");
        assert!(!p.legal_moves().iter().any(|m| m.is_en_passant()));
        assert_eq!(p.legal_ep_square(), None);
        assert_eq!(p.ep_square(), Some("d6".parse().unwrap()));
        let p = pos("8/8/8/3pP2K/8/8/8/4k3 w - d6 0 1");
        assert_eq!(p.legal_ep_square(), Some("d6".parse().unwrap()));
    }

    #[test]
    fn find_move_reads_both_castling_forms_en_passant_and_promotions() {
        let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        let short = Move::castle(Square::E1, Square::H1);
        assert_eq!(p.find_move(Square::E1, Square::G1, None), Ok(short));
        assert_eq!(p.find_move(Square::E1, Square::H1, None), Ok(short));
        assert_eq!(p.find_move(Square::E1, Square::C1, None), Ok(Move::castle(Square::E1, Square::A1)));
        assert_eq!(p.find_move(Square::E1, Square::F1, None), Ok(Move::normal(Square::E1, Square::F1)));
        let ep = pos("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
        assert_eq!(ep.find_move(Square::E5, Square::D6, None), Ok(Move::en_passant(Square::E5, Square::D6)));
        let promo = pos("4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
        let queen = Move::promotion(Square::A7, Square::A8, Role::Queen);
        assert_eq!(promo.find_move(Square::A7, Square::A8, Some(Role::Queen)), Ok(queen));
        let missing = promo.find_move(Square::A7, Square::A8, None).unwrap_err();
        assert_eq!(missing.to_string(), "no legal move from a7 to a8 in 4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
        let blocked = Position::startpos().find_move(Square::E2, Square::E5, None).unwrap_err();
        assert!(matches!(blocked, MoveError::NoSuchMove { from: Square::E2, to: Square::E5, promotion: None, .. }));
        let wrong_piece = promo.find_move(Square::A7, Square::B8, Some(Role::Knight)).unwrap_err();
        assert!(wrong_piece.to_string().starts_with("no legal move from a7 to b8 promoting to a knight in "));
    }

    #[test]
    fn chess960_start_positions_follow_the_numbering() {
        let back_rank = |n| {
            Position::chess960(n).unwrap().fen().split('/').next_back().unwrap().split(' ').next().unwrap().to_owned()
        };
        // Fixed points of the Scharnagl numbering (FIDE Laws, Appendix III).
        assert_eq!(back_rank(0), "BBQNNRKR");
        assert_eq!(back_rank(518), "RNBQKBNR");
        assert_eq!(back_rank(959), "RKRNNQBB");
        let mut seen = std::collections::HashSet::new();
        for n in 0..960 {
            let pos = Position::chess960(n).unwrap();
            let rank = back_rank(n);
            let (king, rooks) = (rank.find('K').unwrap(), [rank.find('R').unwrap(), rank.rfind('R').unwrap()]);
            assert!(rooks[0] < king && king < rooks[1], "{n}: {rank}");
            let bishops: Vec<usize> = rank.match_indices('B').map(|(i, _)| i).collect();
            assert_eq!(bishops[0] % 2 + bishops[1] % 2, 1, "{n}: bishops on one colour in {rank}");
            assert_eq!(pos.castling_rights().rooks().count(), 4, "{n}: every castling right");
            assert!(seen.insert(rank));
        }
        assert!(Position::chess960(960).is_none());
    }

    #[test]
    fn chess960_king_move_beside_castling_is_the_king_move() {
        // King b1, rook a1: castling puts the king on c1, where a king step also lands.
        let p = Position::from_fen("4k3/8/8/8/8/8/8/RK6 w A - 0 1", CastlingMode::Chess960).unwrap();
        assert_eq!(p.find_move(Square::B1, Square::C1, None), Ok(Move::normal(Square::B1, Square::C1)));
        assert_eq!(p.find_move(Square::B1, Square::A1, None), Ok(Move::castle(Square::B1, Square::A1)));
    }

    #[test]
    fn illegal_castling_or_en_passant_written_as_normal_moves_names_the_legal_move() {
        let mut p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        let before = p;
        let error = p.play(Move::normal(Square::E1, Square::G1)).unwrap_err();
        assert_eq!(
            error,
            MoveError::Illegal {
                mv: Move::normal(Square::E1, Square::G1),
                fen: before.fen(),
                legal: Some(Move::castle(Square::E1, Square::H1)),
            }
        );
        assert_eq!(
            error.to_string(),
            "illegal move e1g1 in r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1; the legal move from e1 to g1 is \
             e1h1 (castling: king to g1, rook to f1), which Position::find_move gives for these squares"
        );
        assert_eq!(p, before);
        let rook_square = p.play(Move::normal(Square::E1, Square::H1)).unwrap_err();
        assert!(matches!(rook_square, MoveError::Illegal { legal: Some(m), .. } if m.is_castle()));
        let mut ep = pos("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
        let error = ep.play(Move::normal(Square::E5, Square::D6)).unwrap_err();
        assert!(
            matches!(error, MoveError::Illegal { legal: Some(m), .. } if m == Move::en_passant(Square::E5, Square::D6))
        );
        assert!(error.to_string().ends_with("is e5d6 (en passant), which Position::find_move gives for these squares"));
        // A plainly illegal move gets no hint.
        let error = Position::startpos().play(Move::normal(Square::E2, Square::E5)).unwrap_err();
        assert_eq!(error.to_string(), format!("illegal move e2e5 in {}", crate::fen::STARTING_FEN));
    }

    #[test]
    fn castling_moves_and_rights() {
        let mut p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        let short = p.castling_move(CastlingSide::KingSide).unwrap();
        assert!(p.is_legal(short));
        p.play(short).unwrap();
        assert_eq!(p.fen(), "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
        assert_eq!(p.key(), p.compute_key());
        // Castling through an attacked square is illegal.
        let p = pos("r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1");
        assert!(!p.is_legal(Move::castle(Square::E1, Square::H1)));
        assert!(p.is_legal(Move::castle(Square::E1, Square::A1)));
        // Out of check is illegal.
        let p = pos("r3k2r/8/8/8/8/8/4r3/R3K2R w KQkq - 0 1");
        assert!(!p.legal_moves().iter().any(|m| m.is_castle()));
    }

    #[test]
    fn null_move_keeps_the_key_consistent() {
        let mut p = pos("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3");
        p.play_null();
        assert_eq!(p.turn(), Color::White);
        assert_eq!(p.ep_square(), None);
        assert_eq!(p.key(), p.compute_key());
    }
}
