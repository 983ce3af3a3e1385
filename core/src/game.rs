//! `Game`: a start position, the moves played and everything that ends a game of chess.
//!
//! The game is the arbiter of the FIDE Laws of Chess (articles 5, 6 and 9):
//! - automatic endings, checked after every move: checkmate, stalemate, dead position
//!   (article 5.2.2: by insufficient material, or, where no pawn can move or pawns can only
//!   run into blocked ones, by a proof of [`can_mate`] that neither side can mate), fivefold repetition, the seventy-five-move rule
//!   (checkmate on the last move takes precedence, article 9.6.2);
//! - draws the player to move may claim: threefold repetition and the fifty-move rule, either
//!   in the current position or by announcing the move that produces it (article 9.2/9.3);
//! - draw offers (an offer lapses when the opponent moves instead of answering), resignation,
//!   and flag fall, which loses unless the opponent cannot checkmate by any legal sequence of
//!   moves (article 6.9, decided by [`can_mate`]: a draw needs its proof, which
//!   [`Game::cannot_mate`] gives).
//!
//! Every method that fails returns a [`GameError`] and leaves the game exactly as it was.

use crate::attacks::pawn_attacks;
use crate::bitboard::Bitboard;
use crate::clock::{Clock, TimeControl};
use crate::error::MoveError;
use crate::moves::Move;
use crate::outcome::{GameResult, Outcome, Termination};
use crate::position::Position;
use crate::types::{Color, Role};
use crate::unwinnable::{can_mate, helpmate_after, statics, CanMate, Impossibility, DEFAULT_NODES};
use crate::zobrist;
use std::time::Duration;

/// What an incorrect draw claim adds to the opponent's time in a timed game (article 9.5.3).
pub const INCORRECT_CLAIM_BONUS: Duration = Duration::from_secs(120);
/// The rule a draw claim rests on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawClaim {
    /// The position (the current one, or the one after the announced move) occurs for at
    /// least the third time (article 9.2).
    ThreefoldRepetition,
    /// At least 50 moves by each side without a capture or pawn move, counted in the current
    /// position or after the announced move (article 9.3).
    FiftyMoves,
}

impl DrawClaim {
    /// A stable snake-case name: `"threefold_repetition"` or `"fifty_moves"`.
    pub fn as_str(self) -> &'static str {
        self.termination().as_str()
    }

    /// The termination a successful claim gives.
    pub fn termination(self) -> Termination {
        match self {
            DrawClaim::ThreefoldRepetition => Termination::ThreefoldRepetition,
            DrawClaim::FiftyMoves => Termination::FiftyMoves,
        }
    }
}

/// One way the player to move may claim a draw: an entry of [`Game::claimable`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ClaimableDraw {
    /// The current position qualifies: [`Game::claim_draw`] grants it.
    Now(DrawClaim),
    /// Announcing any of `moves` (legal moves, in generation order, never empty) makes the
    /// claim, which [`Game::claim_draw_with_move`] grants (article 9.2.1.1 / 9.3.1).
    WithMove {
        /// The rule the claim rests on.
        claim: DrawClaim,
        /// The moves whose announcement completes it.
        moves: Vec<Move>,
    },
}

impl ClaimableDraw {
    /// The rule the claim rests on.
    pub fn claim(&self) -> DrawClaim {
        match self {
            ClaimableDraw::Now(claim) | ClaimableDraw::WithMove { claim, .. } => *claim,
        }
    }
}

/// What became of a draw claim made by announcing a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClaimResult {
    /// The claim was correct: the move is recorded and the game is drawn.
    Granted(DrawClaim),
    /// The claim was incorrect: as article 9.5 requires, the announced move stands and the
    /// game goes on (or ended by the move itself, e.g. checkmate).
    Rejected,
}

/// Why a game operation was refused. The game is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The game has ended (with this outcome): no move, claim, offer or flag counts now.
    #[error("the game is over: {0}")]
    GameOver(Outcome),
    /// The move is not legal in the current position (the error says why, and names the
    /// legal move meant where the move is castling or en passant written as a normal one).
    #[error(transparent)]
    IllegalMove(MoveError),
    /// A draw claim that no rule supports, now or with the announced move.
    #[error("no draw can be claimed in {fen}")]
    NoDrawToClaim {
        /// The FEN of the position the claim was made in.
        fen: String,
    },
    /// Accepting or declining a draw that this side was not offered.
    #[error("{0} has no draw offer to answer")]
    NoDrawOffer(Color),
    /// A clock operation (flag fall, time) on a game played without a clock.
    #[error("the game has no clock")]
    NoClock,
    /// Taking back a move when none has been played.
    #[error("no move to take back")]
    NothingToUndo,
}

/// What undo restores for one move.
#[derive(Clone, Debug)]
struct Ply {
    before: Position,
    draw_offer: Option<Color>,
}

/// A game of chess: start position, moves, key history, clock, and how it ended.
///
/// ```
/// use tempo_core::{Game, GameResult, Move, Position, Square, Termination};
///
/// let mut game = Game::new(Position::startpos());
/// // Fool's mate: f3 e5 g4 Qh4#.
/// let fools_mate = [
///     (Square::F2, Square::F3),
///     (Square::E7, Square::E5),
///     (Square::G2, Square::G4),
///     (Square::D8, Square::H4),
/// ];
/// for (from, to) in fools_mate {
///     game.play(Move::normal(from, to))?;
/// }
/// let outcome = game.outcome().unwrap();
/// assert_eq!(outcome.result, GameResult::BlackWins);
/// assert_eq!(outcome.termination, Termination::Checkmate);
/// assert_eq!(outcome.to_string(), "0-1 (checkmate)");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Game {
    initial: Position,
    position: Position,
    moves: Vec<Move>,
    plies: Vec<Ply>,
    /// Repetition keys of every position from the start, the current one last.
    rep_keys: Vec<u64>,
    draw_offer: Option<Color>,
    outcome: Option<Outcome>,
    clock: Option<Clock>,
    /// For each side (by [`Color::index`]), the proof that it can never mate, recorded when
    /// the game ended on one: see [`Game::cannot_mate`].
    cannot_mate: [Option<Impossibility>; 2],
    /// What the dead-position test knows of the current position, so that it need not
    /// search again after the next move.
    liveness: Liveness,
}

/// What the dead-position test found in the current position, when no pawn can move.
#[derive(Clone, Debug, Default)]
enum Liveness {
    /// Nothing: the pawns can move, or no test has run.
    #[default]
    Unknown,
    /// A helpmate for this side (by [`Color::index`]): the position is not dead, and while the
    /// helpmate carries over a move ([`helpmate_after`]) the next one is not either.
    Helpmate(Color, Vec<Move>),
    /// The search ran out of nodes. It is not run again until a capture (the only way locked
    /// pawns change) resets the halfmove clock: the pieces' moves in between change neither
    /// the static proofs nor, much, what a search of the same budget finds. Skipping a search
    /// can only miss a dead position (the game plays on), never call one dead.
    Undecided,
}

/// The key under which a position counts for repetition: the Zobrist key without the en
/// passant file when no en passant capture is actually legal.
///
/// The Polyglot key hashes the en passant file whenever an enemy pawn stands beside the pawn
/// that double-stepped, even if that pawn is pinned; FIDE article 9.2.3 counts positions as
/// different only if the capture is *possible*, so such a phantom square is removed here.
pub fn repetition_key(pos: &Position) -> u64 {
    let key = pos.key();
    let Some(ep) = pos.ep_square() else { return key };
    let hashed = (pawn_attacks(!pos.turn(), ep) & pos.pieces(pos.turn(), Role::Pawn)).any();
    if hashed && pos.legal_ep_square().is_none() {
        key ^ zobrist::en_passant_key(ep.file())
    } else {
        key
    }
}

/// `true` if `color` has enough material to checkmate its opponent, decided by material alone
/// the way python-chess decides `has_insufficient_material`, the rule most arbiters' software
/// applies to a flag fall (FIDE article 6.9). [`Game`] no longer applies it: it asks
/// [`can_mate`], which accepts this test's "cannot" only where it is a proof (see
/// [`statics::material_cannot_mate`]). The rule:
/// - a bare king cannot mate; pawns, rooks and queens can (a pawn may promote);
/// - a lone knight can only if the opponent has a pawn, knight, bishop or rook, which can
///   block its own king's last flight square (Ka8, Bb8 v Kb6, Nc7#); an opposing queen
///   does not count, since it can always capture or interpose;
/// - bishops alone, all on one square colour, cannot mate unless the board has a knight, a
///   pawn, or a bishop on the other colour (anything able to block a flight square of the
///   colour the bishops never reach; rooks and queens are not counted, as python-chess);
/// - any other two minor pieces can.
///
/// Helpmates with exotic blockers can make this test call a position drawn that is not
/// dead in the strictest reading; it never calls a lost position drawn in the usual cases.
pub fn can_ever_checkmate(pos: &Position, color: Color) -> bool {
    let kings = pos.by_role(Role::King);
    let ours = pos.by_color(color) - kings;
    let theirs = pos.by_color(!color) - kings;
    if ours.is_empty() {
        return false;
    }
    if (ours & (pos.by_role(Role::Pawn) | pos.by_role(Role::Rook) | pos.by_role(Role::Queen))).any() {
        return true;
    }
    let knights = ours & pos.by_role(Role::Knight);
    if knights.any() {
        // A knight with any other piece of ours mates with help; a lone knight needs a
        // blocker that is not a queen.
        return ours.has_more_than_one() || (theirs - pos.by_role(Role::Queen)).any();
    }
    // Only bishops: they mate when the board has something that can cover the other colour.
    let bishops = pos.by_role(Role::Bishop);
    let one_colour = (bishops & Bitboard::LIGHT_SQUARES).is_empty() || (bishops & Bitboard::DARK_SQUARES).is_empty();
    !one_colour || (pos.by_role(Role::Pawn) | pos.by_role(Role::Knight)).any()
}

/// The node budget of the dead-position test after a move, for a side without a static proof
/// when the other side has one (a tenth of it when neither has): small, since it runs only
/// on positions whose pawns cannot move, where the static proofs settle most questions and
/// a short search finds a helpmate where there is one; past it the game plays on.
const DEAD_POSITION_NODES: u64 = 20_000;

impl Game {
    /// A new game from `start` (any legal position, Chess960 included), untimed.
    pub fn new(start: Position) -> Game {
        let mut game = Game {
            initial: start,
            position: start,
            moves: Vec::new(),
            plies: Vec::new(),
            rep_keys: vec![repetition_key(&start)],
            draw_offer: None,
            outcome: None,
            clock: None,
            cannot_mate: [None, None],
            liveness: Liveness::Unknown,
        };
        game.outcome = game.automatic_ending(None);
        game
    }

    /// A new game from `start` played under `control`.
    pub fn with_time_control(start: Position, control: TimeControl) -> Game {
        let mut game = Game::new(start);
        game.clock = Some(Clock::new(control, start.turn()));
        game
    }

    /// The start position.
    pub fn initial_position(&self) -> &Position {
        &self.initial
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The moves played, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The repetition keys (see [`repetition_key`]) of every position so far, current last.
    pub fn repetition_keys(&self) -> &[u64] {
        &self.rep_keys
    }

    /// The clock, if the game is timed.
    pub fn clock(&self) -> Option<&Clock> {
        self.clock.as_ref()
    }

    /// How the game ended, `None` while it goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Why `color` can never checkmate, when the game ended as a draw on that proof: a dead
    /// position ([`Termination::DeadPosition`], both sides' proofs), or a flag fall against a
    /// player whose opponent cannot mate ([`Termination::TimeoutVsInsufficientMaterial`], the
    /// opponent's proof). `None` in every other case, a game still going on and a draw by
    /// insufficient material (which needs no search) included.
    pub fn cannot_mate(&self, color: Color) -> Option<Impossibility> {
        self.cannot_mate[color.index()]
    }

    /// The player whose draw offer is pending, if any.
    pub fn draw_offer(&self) -> Option<Color> {
        self.draw_offer
    }

    /// How many times the current position has occurred (1 the first time).
    ///
    /// Only positions since the last capture or pawn move can repeat, and positions before
    /// the start position are unknown, so the search covers the moves of this game since then.
    pub fn repetition_count(&self) -> usize {
        let (&current, earlier) = self.rep_keys.split_last().expect("the start position has a key");
        Game::count_in(earlier, current, self.position.halfmove_clock())
    }

    /// Occurrences of `current` (itself included) among the `earlier` keys it can repeat:
    /// those within `halfmove_clock` plies with the same side to move.
    fn count_in(earlier: &[u64], current: u64, halfmove_clock: u32) -> usize {
        let reach = (halfmove_clock as usize).min(earlier.len());
        1 + earlier[earlier.len() - reach..].iter().rev().skip(1).step_by(2).filter(|&&k| k == current).count()
    }

    /// Every draw the player to move may claim: in the current position
    /// ([`ClaimableDraw::Now`], threefold before fifty moves), then by announcing a move
    /// ([`ClaimableDraw::WithMove`], one entry per rule that some legal move completes, as
    /// python-chess's `can_claim_threefold_repetition` and `can_claim_fifty_moves` count).
    ///
    /// An entry is listed exactly when the claim is granted: [`Game::claim_draw`] grants a
    /// `Now` claim, and [`Game::claim_draw_with_move`] grants a claim for each listed move,
    /// because both read the same rule ([`Game::claimable_with_move`] for announced moves).
    /// Empty once the game is over.
    pub fn claimable(&self) -> Vec<ClaimableDraw> {
        let mut list: Vec<ClaimableDraw> = self.claimable_now().into_iter().map(ClaimableDraw::Now).collect();
        if self.outcome.is_some() {
            return list;
        }
        let mut by_move: [(DrawClaim, Vec<Move>); 2] =
            [(DrawClaim::ThreefoldRepetition, Vec::new()), (DrawClaim::FiftyMoves, Vec::new())];
        for &m in self.position.legal_moves().iter() {
            for claim in self.claims_after(m) {
                if let Some((_, moves)) = by_move.iter_mut().find(|(c, _)| *c == claim) {
                    moves.push(m);
                }
            }
        }
        list.extend(
            by_move
                .into_iter()
                .filter(|(_, moves)| !moves.is_empty())
                .map(|(claim, moves)| ClaimableDraw::WithMove { claim, moves }),
        );
        list
    }

    /// The draws the player to move may claim in the current position, without announcing a
    /// move: what [`Game::claim_draw`] grants (threefold first). Empty once the game is over.
    pub fn claimable_now(&self) -> Vec<DrawClaim> {
        if self.outcome.is_some() {
            return Vec::new();
        }
        let (&current, earlier) = self.rep_keys.split_last().expect("the start position has a key");
        Game::claims_in(earlier, current, &self.position)
    }

    fn claims_in(earlier: &[u64], current: u64, pos: &Position) -> Vec<DrawClaim> {
        let mut claims = Vec::new();
        if Game::count_in(earlier, current, pos.halfmove_clock()) >= 3 {
            claims.push(DrawClaim::ThreefoldRepetition);
        }
        if pos.halfmove_clock() >= 100 {
            claims.push(DrawClaim::FiftyMoves);
        }
        claims
    }

    /// The claims announcing the legal move `m` makes: the position after it, seen against
    /// every position so far. A move that checkmates makes none (it wins).
    fn claims_after(&self, m: Move) -> Vec<DrawClaim> {
        let mut child = self.position;
        child.play_unchecked(m);
        if child.is_checkmate() {
            return Vec::new();
        }
        Game::claims_in(&self.rep_keys, repetition_key(&child), &child)
    }

    /// The draws the player to move could claim by announcing `m` (the position after it);
    /// [`Game::claim_draw_with_move`] grants the first of them.
    ///
    /// # Errors
    /// [`GameError::GameOver`] after the end, [`GameError::IllegalMove`] for an illegal move.
    pub fn claimable_with_move(&self, m: Move) -> Result<Vec<DrawClaim>, GameError> {
        self.check_playable(m)?;
        Ok(self.claims_after(m))
    }

    /// The ending the rules impose in the current position, recording the proofs of a dead
    /// position in `cannot_mate`; `last` is the move just played (the position before it is
    /// the last ply's), when there is one.
    fn automatic_ending(&mut self, last: Option<Move>) -> Option<Outcome> {
        let pos = &self.position;
        if let Some(outcome) = pos.outcome() {
            return Some(outcome);
        }
        if self.repetition_count() >= 5 {
            return Some(Outcome::draw(Termination::FivefoldRepetition));
        }
        if pos.halfmove_clock() >= 150 {
            return Some(Outcome::draw(Termination::SeventyFiveMoves));
        }
        let proofs = self.dead_position(last)?;
        self.cannot_mate = proofs.map(Some);
        Some(Outcome::draw(Termination::DeadPosition))
    }

    /// Why neither side can ever checkmate (by [`Color::index`]), when the current position
    /// is dead (FIDE 5.2.2) and the proofs are found; `None` when it is not, or not shown.
    ///
    /// Run after every move, so it does the least it can: the screen
    /// [`statics::pawns_blocked`] (a few bitboard operations, which most positions of a game
    /// fail; where it fails, the screen [`statics::pawns_run_into_blocked_pawns`] and the
    /// frozen-men proof alone), then what `liveness` knew before the move, then the static
    /// proofs, then
    /// [`can_mate`] with a small budget for each side without one, until one side is shown
    /// able to mate. A search that runs out of budget is not repeated before the next
    /// capture or pawn move, and a helpmate found is carried across the moves that keep it
    /// ([`helpmate_after`]), so a blocked endgame searches only now and then.
    fn dead_position(&mut self, last: Option<Move>) -> Option<[Impossibility; 2]> {
        if !statics::pawns_blocked(&self.position) {
            // The common case, after almost every move: kept to the screen alone.
            if !matches!(self.liveness, Liveness::Unknown) {
                self.liveness = Liveness::Unknown;
            }
            // Pawns that can still move, but only into blocked ones: the static proofs
            // alone, which cost a few microseconds, and no search.
            if !statics::pawns_run_into_blocked_pawns(&self.position) {
                return None;
            }
            let pos = &self.position;
            let proof = |side| statics::frozen_pawns_prevent_mate(pos, side).then_some(Impossibility::FrozenPawns);
            return Some([proof(Color::White)?, proof(Color::Black)?]);
        }
        let known = std::mem::take(&mut self.liveness);
        let before = self.plies.last().map(|ply| &ply.before);
        match (known, last.zip(before)) {
            (Liveness::Helpmate(side, helpmate), Some((played, before))) => {
                if let Some(carried) = helpmate_after(before, played, &helpmate) {
                    self.liveness = Liveness::Helpmate(side, carried);
                    return None;
                }
            }
            (Liveness::Undecided, Some(_)) if self.position.halfmove_clock() > 0 => {
                self.liveness = Liveness::Undecided;
                return None;
            }
            _ => {}
        }
        let pos = &self.position;
        let static_proof = |side| {
            if statics::material_cannot_mate(pos, side) {
                Some(Impossibility::Material)
            } else if statics::frozen_pawns_prevent_mate(pos, side) {
                Some(Impossibility::FrozenPawns)
            } else {
                None
            }
        };
        let mut proofs = [static_proof(Color::White), static_proof(Color::Black)];
        // The side with more pieces first: its helpmate, when there is one, comes at once,
        // and it settles the question.
        let pieces = |side| (pos.by_color(side) - pos.by_role(Role::Pawn)).count();
        let first = if pieces(Color::Black) > pieces(Color::White) { Color::Black } else { Color::White };
        // Where neither side has a static proof the position is rarely dead, and a search
        // would run at every capture of many blocked endgames: a smaller one there, and none
        // where a rook or a queen is left (they mate in all but the rarest fortresses).
        let nodes = if proofs.iter().any(Option::is_some) {
            DEAD_POSITION_NODES
        } else if (pos.by_role(Role::Rook) | pos.by_role(Role::Queen)).is_empty() {
            DEAD_POSITION_NODES / 10
        } else {
            self.liveness = Liveness::Undecided;
            return None;
        };
        for side in [first, !first] {
            if proofs[side.index()].is_some() {
                continue;
            }
            match can_mate(pos, side, nodes) {
                CanMate::No(why) => proofs[side.index()] = Some(why),
                CanMate::Yes(helpmate) => {
                    self.liveness = Liveness::Helpmate(side, helpmate);
                    return None;
                }
                CanMate::Undecided => {
                    self.liveness = Liveness::Undecided;
                    return None;
                }
            }
        }
        let [Some(white), Some(black)] = proofs else { return None };
        Some([white, black])
    }

    fn check_open(&self) -> Result<(), GameError> {
        match self.outcome {
            Some(outcome) => Err(GameError::GameOver(outcome)),
            None => Ok(()),
        }
    }

    fn check_playable(&self, m: Move) -> Result<(), GameError> {
        self.check_open()?;
        self.position.check_legal(m).map_err(GameError::IllegalMove)
    }

    /// Records a legal move (already validated) and applies the automatic endings.
    fn record(&mut self, m: Move) -> Option<Outcome> {
        let mover = self.position.turn();
        self.plies.push(Ply { before: self.position, draw_offer: self.draw_offer });
        self.position.play_unchecked(m);
        self.moves.push(m);
        self.rep_keys.push(repetition_key(&self.position));
        // Moving instead of answering lets the opponent's offer lapse; one's own offer stands
        // (FIDE 9.1.2.2: an offer made before moving remains valid).
        if self.draw_offer == Some(!mover) {
            self.draw_offer = None;
        }
        self.outcome = self.automatic_ending(Some(m));
        self.outcome
    }

    /// Plays `m`; returns the outcome if the move ended the game. On a timed game this moves
    /// without charging time (see [`Game::play_timed`]) and hands the clock over.
    ///
    /// # Errors
    /// [`GameError::GameOver`] if the game has ended, [`GameError::IllegalMove`] if `m` is not
    /// legal in the current position (the null move never is).
    pub fn play(&mut self, m: Move) -> Result<Option<Outcome>, GameError> {
        self.play_timed(m, Duration::ZERO)
    }

    /// Plays `m`, which took `elapsed` on the clock (beyond what [`Game::tick`] already
    /// charged). If the player's time ran out before the move, the move is not recorded and
    /// the game ends on time; the outcome is returned either way when the game ends.
    ///
    /// # Errors
    /// As [`Game::play`]; an illegal move does not touch the clock.
    pub fn play_timed(&mut self, m: Move, elapsed: Duration) -> Result<Option<Outcome>, GameError> {
        self.check_playable(m)?;
        if let Some(clock) = &mut self.clock {
            if let Some(flagged) = clock.press(elapsed) {
                return Ok(Some(self.end_on_time(flagged)));
            }
        }
        Ok(self.record(m))
    }

    /// Charges `elapsed` to the player to move without a move; returns the outcome if that
    /// player's flag fell.
    ///
    /// # Errors
    /// [`GameError::NoClock`] for an untimed game, [`GameError::GameOver`] after the end.
    pub fn tick(&mut self, elapsed: Duration) -> Result<Option<Outcome>, GameError> {
        self.check_open()?;
        let clock = self.clock.as_mut().ok_or(GameError::NoClock)?;
        Ok(clock.tick(elapsed).map(|flagged| self.end_on_time(flagged)))
    }

    /// Records that `color`'s flag fell (noticed outside the clock, e.g. by a GUI or from a
    /// PGN `TimeControl` result). Loses, or draws if the opponent cannot checkmate.
    ///
    /// # Errors
    /// [`GameError::GameOver`] if the game has already ended (a checkmate given before the
    /// flag fell stands).
    pub fn flag(&mut self, color: Color) -> Result<Outcome, GameError> {
        self.check_open()?;
        if let Some(clock) = &mut self.clock {
            clock.set_flagged(color);
        }
        Ok(self.end_on_time(color))
    }

    fn end_on_time(&mut self, flagged: Color) -> Outcome {
        // Article 6.9 draws only when no series of legal moves lets the opponent mate: that
        // takes a proof, so an undecided answer loses on time as before.
        let outcome = match can_mate(&self.position, !flagged, DEFAULT_NODES) {
            CanMate::No(why) => {
                self.cannot_mate[(!flagged).index()] = Some(why);
                Outcome::draw(Termination::TimeoutVsInsufficientMaterial)
            }
            CanMate::Yes(_) | CanMate::Undecided => {
                Outcome { result: GameResult::win_for(!flagged), termination: Termination::TimeForfeit }
            }
        };
        self.outcome = Some(outcome);
        outcome
    }

    /// The player to move claims a draw by threefold repetition or the fifty-move rule
    /// (repetition is preferred when both apply).
    ///
    /// # Errors
    /// [`GameError::NoDrawToClaim`] if neither applies, [`GameError::GameOver`] after the end.
    pub fn claim_draw(&mut self) -> Result<Outcome, GameError> {
        self.check_open()?;
        let claim = self
            .claimable_now()
            .first()
            .copied()
            .ok_or_else(|| GameError::NoDrawToClaim { fen: self.position.fen() })?;
        let outcome = Outcome::draw(claim.termination());
        self.outcome = Some(outcome);
        Ok(outcome)
    }

    /// The player to move announces `m` and claims the draw it produces (article 9.2.1.1 /
    /// 9.3.1). The move is recorded whether or not the claim is correct; an incorrect claim
    /// lets the game go on, as article 9.5.2 rules, and in a timed game adds two minutes to
    /// the opponent's time (article 9.5.3). A move that checkmates wins instead.
    ///
    /// # Errors
    /// [`GameError::GameOver`] or [`GameError::IllegalMove`]; the game is then unchanged.
    pub fn claim_draw_with_move(&mut self, m: Move) -> Result<ClaimResult, GameError> {
        let claimant = self.position.turn();
        let claims = self.claimable_with_move(m)?;
        if let Some(outcome) = self.play(m)? {
            // An automatic ending (checkmate, fivefold...) reached by the move stands.
            let granted = claims.first().filter(|_| outcome.result == GameResult::Draw);
            return Ok(granted.map_or(ClaimResult::Rejected, |&c| ClaimResult::Granted(c)));
        }
        match claims.first() {
            Some(&claim) => {
                self.outcome = Some(Outcome::draw(claim.termination()));
                Ok(ClaimResult::Granted(claim))
            }
            None => {
                if let Some(clock) = self.clock.as_mut().filter(|c| c.control().is_timed()) {
                    let opponent = !claimant;
                    clock.set_remaining(opponent, clock.remaining(opponent) + INCORRECT_CLAIM_BONUS);
                }
                Ok(ClaimResult::Rejected)
            }
        }
    }

    /// `color` offers a draw. If the opponent has an offer pending, this accepts it.
    ///
    /// # Errors
    /// [`GameError::GameOver`] after the end.
    pub fn offer_draw(&mut self, color: Color) -> Result<Option<Outcome>, GameError> {
        self.check_open()?;
        if self.draw_offer == Some(!color) {
            return self.accept_draw(color).map(Some);
        }
        self.draw_offer = Some(color);
        Ok(None)
    }

    /// `color` accepts the opponent's pending offer: a draw by agreement.
    ///
    /// # Errors
    /// [`GameError::NoDrawOffer`] if the opponent has no offer pending, [`GameError::GameOver`]
    /// after the end.
    pub fn accept_draw(&mut self, color: Color) -> Result<Outcome, GameError> {
        self.check_open()?;
        if self.draw_offer != Some(!color) {
            return Err(GameError::NoDrawOffer(color));
        }
        let outcome = Outcome::draw(Termination::Agreement);
        self.draw_offer = None;
        self.outcome = Some(outcome);
        Ok(outcome)
    }

    /// `color` declines the opponent's pending offer.
    ///
    /// # Errors
    /// [`GameError::NoDrawOffer`] if the opponent has no offer pending, [`GameError::GameOver`]
    /// after the end.
    pub fn decline_draw(&mut self, color: Color) -> Result<(), GameError> {
        self.check_open()?;
        if self.draw_offer != Some(!color) {
            return Err(GameError::NoDrawOffer(color));
        }
        self.draw_offer = None;
        Ok(())
    }

    /// `color` resigns.
    ///
    /// # Errors
    /// [`GameError::GameOver`] after the end.
    pub fn resign(&mut self, color: Color) -> Result<Outcome, GameError> {
        self.check_open()?;
        let outcome = Outcome { result: GameResult::win_for(!color), termination: Termination::Resignation };
        self.outcome = Some(outcome);
        Ok(outcome)
    }

    /// Takes back the last move: position, key history, pending draw offer and clock return to
    /// what they were before it, and any ending reached since is lifted (a take-back after
    /// resignation, agreement or flag fall reopens the game at the previous move). Returns the
    /// move taken back.
    ///
    /// # Errors
    /// [`GameError::NothingToUndo`] at the start position.
    pub fn undo(&mut self) -> Result<Move, GameError> {
        let ply = self.plies.pop().ok_or(GameError::NothingToUndo)?;
        let m = self.moves.pop().ok_or(GameError::NothingToUndo)?;
        self.rep_keys.pop();
        self.position = ply.before;
        self.draw_offer = ply.draw_offer;
        if let Some(clock) = &mut self.clock {
            clock.undo();
        }
        self.cannot_mate = [None, None];
        self.liveness = Liveness::Unknown;
        self.outcome = self.automatic_ending(None);
        Ok(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Square;
    use crate::CastlingMode;

    /// Finds a legal move by its from/to squares (castling as king-to-destination).
    fn mv(pos: &Position, uci: &str) -> Move {
        let from: Square = uci[0..2].parse().unwrap();
        let to: Square = uci[2..4].parse().unwrap();
        let promo = uci[4..].chars().next().and_then(Role::from_char);
        pos.legal_moves()
            .iter()
            .copied()
            .find(|m| m.from() == from && (m.to() == to || m.castling_king_to() == to) && m.promotion_role() == promo)
            .unwrap_or_else(|| panic!("{uci} not legal in {pos}"))
    }

    fn play_all(game: &mut Game, moves: &str) -> Option<Outcome> {
        let mut last = None;
        for uci in moves.split_whitespace() {
            let m = mv(game.position(), uci);
            last = game.play(m).unwrap();
        }
        last
    }

    fn game(fen: &str) -> Game {
        Game::new(Position::from_fen(fen, CastlingMode::Standard).unwrap())
    }

    #[test]
    fn fools_mate() {
        let mut g = Game::new(Position::startpos());
        let outcome = play_all(&mut g, "f2f3 e7e5 g2g4 d8h4").unwrap();
        assert_eq!(outcome, Outcome { result: GameResult::BlackWins, termination: Termination::Checkmate });
        let m = g.position().legal_moves().first().copied();
        assert!(m.is_none());
        assert!(matches!(g.play(Move::NULL), Err(GameError::GameOver(_))));
    }

    #[test]
    fn stalemate_and_dead_positions() {
        let mut g = game("7k/8/6K1/8/8/8/8/5Q2 w - - 0 60");
        assert_eq!(play_all(&mut g, "f1f7"), Some(Outcome::draw(Termination::Stalemate)));
        let mut g = game("8/8/8/4k3/8/8/3p4/4K3 w - - 0 1");
        assert_eq!(play_all(&mut g, "e1d2"), Some(Outcome::draw(Termination::InsufficientMaterial)));
        for fen in [
            "8/8/8/4k3/8/8/8/4K3 w - - 0 1",
            "8/8/8/4k3/8/8/8/4KB2 w - - 0 1",
            "8/8/8/4k3/8/8/8/4KN2 b - - 0 1",
            "8/8/8/3bk3/8/8/8/4KB2 w - - 0 1",
        ] {
            assert_eq!(game(fen).outcome(), Some(Outcome::draw(Termination::InsufficientMaterial)), "{fen}");
        }
        // Opposite-coloured bishops can still mate (a helpmate exists).
        assert_eq!(game("8/8/3b4/4k3/8/8/8/4KB2 w - - 0 1").outcome(), None);
    }

    #[test]
    fn locking_the_last_pawn_ends_the_game_in_a_dead_position() {
        // The positions after the moves are in data/unwinnable/cases.txt, labelled `--`.
        // Kings (and a bishop) on their own sides of a chain they can never pass.
        let mut g = game("8/2k5/6p1/p1p1p3/P1P1P1P1/2K5/6B1/8 b - - 0 1");
        assert_eq!(g.outcome(), None, "g4 can still move");
        assert_eq!(play_all(&mut g, "g6g5"), Some(Outcome::draw(Termination::DeadPosition)));
        assert_eq!(g.position().fen(), "8/2k5/8/p1p1p1p1/P1P1P1P1/2K5/6B1/8 w - - 0 2");
        for color in [Color::White, Color::Black] {
            assert_eq!(g.cannot_mate(color), Some(Impossibility::FrozenPawns));
        }
        assert!(matches!(g.play(mv(&Position::startpos(), "e2e4")), Err(GameError::GameOver(_))));
        // Taking the move back reopens the game and forgets the proofs.
        g.undo().unwrap();
        assert_eq!((g.outcome(), g.cannot_mate(Color::White)), (None, None));
        // Bishops of both sides shut in behind the chain.
        let mut g = game("2k5/b7/p7/2p1p1p1/P1P1P1P1/8/B5B1/4K3 b - - 0 1");
        assert_eq!(g.outcome(), None);
        assert_eq!(play_all(&mut g, "a6a5"), Some(Outcome::draw(Termination::DeadPosition)));
        // A game that starts dead is over at once.
        let dead = game("4k3/8/8/p1p1p1p1/P1P1P1P1/8/8/4K3 w - - 0 1");
        assert_eq!(dead.outcome(), Some(Outcome::draw(Termination::DeadPosition)));
        // Locked pawns, but a rook that can take them: not dead, the game goes on.
        assert_eq!(game("4k3/8/8/p1p1p1p1/P1P1P1P1/8/8/R3K3 w - - 0 1").outcome(), None);
        // A rook that could take the pawns is taken: the capture leaves the position dead.
        let mut g = game("4k3/4R3/8/p1p1p1p1/P1P1P1P1/8/8/4K3 b - - 0 1");
        assert_eq!(g.outcome(), None);
        assert_eq!(play_all(&mut g, "e8e7"), Some(Outcome::draw(Termination::DeadPosition)));
        // Only White can mate (Black's bishop is shut in): the game goes on while the kings
        // walk, what the test knew before each move carried over it, until Black takes the
        // bishop, White's last piece, and neither side can mate.
        let mut g = game("kB4b1/7p/4p1pP/1p1pP1P1/1P1P4/6K1/8/8 w - - 0 1");
        for uci in "g3f4 a8b7 f4g3 b7a8 g3f4".split_whitespace() {
            assert_eq!(play_all(&mut g, uci), None, "{uci}");
        }
        assert_eq!(play_all(&mut g, "a8b8"), Some(Outcome::draw(Termination::DeadPosition)));
        assert_eq!(g.cannot_mate(Color::Black), Some(Impossibility::FrozenPawns));
        assert!(g.cannot_mate(Color::White).is_some());
        // Material alone still reads as insufficient material, with no search.
        let bare = game("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
        assert_eq!(
            (bare.outcome(), bare.cannot_mate(Color::White)),
            (Some(Outcome::draw(Termination::InsufficientMaterial)), None)
        );
    }

    const KNIGHT_DANCE: &str = "g1f3 g8f6 f3g1 f6g8";

    #[test]
    fn an_incorrect_claim_gives_the_opponent_two_minutes() {
        let control: TimeControl = "300+2".parse().unwrap();
        let mut g = Game::with_time_control(Position::startpos(), control);
        g.play_timed(mv(g.position(), "e2e4"), Duration::from_secs(3)).unwrap();
        let black_before = g.clock().unwrap().remaining(Color::Black);
        let white_before = g.clock().unwrap().remaining(Color::White);
        // Black announces e5 with a claim that no rule supports (article 9.5.3).
        assert_eq!(g.claim_draw_with_move(mv(g.position(), "e7e5")), Ok(ClaimResult::Rejected));
        assert_eq!(g.outcome(), None);
        assert_eq!(g.clock().unwrap().remaining(Color::White), white_before + INCORRECT_CLAIM_BONUS);
        assert!(g.clock().unwrap().remaining(Color::Black) <= black_before + Duration::from_secs(2));
        // Without a clock there is no time to give.
        let mut untimed = Game::new(Position::startpos());
        assert_eq!(untimed.claim_draw_with_move(mv(untimed.position(), "e2e4")), Ok(ClaimResult::Rejected));
        assert!(untimed.clock().is_none());
    }

    #[test]
    fn threefold_is_claimable_fivefold_automatic() {
        let mut g = Game::new(Position::startpos());
        play_all(&mut g, KNIGHT_DANCE);
        assert_eq!(g.repetition_count(), 2);
        assert!(g.claimable().is_empty());
        assert!(matches!(g.claim_draw(), Err(GameError::NoDrawToClaim { .. })));
        // Announcing the move that repeats a third time.
        let before = g.clone();
        play_all(&mut g, "g1f3 g8f6 f3g1");
        let last = mv(g.position(), "f6g8");
        assert_eq!(g.claimable_with_move(last).unwrap(), vec![DrawClaim::ThreefoldRepetition]);
        let mut claimed = g.clone();
        assert_eq!(claimed.claim_draw_with_move(last), Ok(ClaimResult::Granted(DrawClaim::ThreefoldRepetition)));
        assert_eq!(claimed.outcome(), Some(Outcome::draw(Termination::ThreefoldRepetition)));
        assert_eq!(claimed.moves().len(), 8);

        play_all(&mut g, "f6g8");
        assert_eq!(g.repetition_count(), 3);
        assert_eq!(g.claimable_now(), vec![DrawClaim::ThreefoldRepetition]);
        assert_eq!(g.outcome(), None, "threefold is not automatic");
        play_all(&mut g, KNIGHT_DANCE);
        assert_eq!(g.repetition_count(), 4);
        assert_eq!(play_all(&mut g, KNIGHT_DANCE), Some(Outcome::draw(Termination::FivefoldRepetition)));
        assert_eq!(before.repetition_count(), 2);
    }

    fn with_move(claim: DrawClaim, moves: Vec<Move>) -> ClaimableDraw {
        ClaimableDraw::WithMove { claim, moves }
    }

    /// The list and the arbiter agree: `claim_draw` succeeds exactly when a `Now` entry is
    /// listed, granting the first; announcing a move is granted exactly when the move is listed,
    /// with the first rule listing it.
    fn assert_list_matches_acceptance(g: &Game) {
        let list = g.claimable();
        let now: Vec<DrawClaim> =
            list.iter().filter_map(|c| if let ClaimableDraw::Now(c) = c { Some(*c) } else { None }).collect();
        assert_eq!(now, g.claimable_now());
        let granted_now = g.clone().claim_draw().ok().map(|o| o.termination);
        assert_eq!(granted_now, now.first().map(|c| c.termination()), "{}", g.position());
        for &m in g.position().legal_moves().iter() {
            let listed = list.iter().find_map(|c| match c {
                ClaimableDraw::WithMove { claim, moves } if moves.contains(&m) => Some(*claim),
                _ => None,
            });
            let verdict = g.clone().claim_draw_with_move(m).unwrap();
            let expected = listed.map_or(ClaimResult::Rejected, ClaimResult::Granted);
            assert_eq!(verdict, expected, "{m:?} in {}", g.position());
        }
        for entry in &list {
            if let ClaimableDraw::WithMove { moves, .. } = entry {
                assert!(!moves.is_empty());
            }
        }
    }

    #[test]
    fn threefold_only_by_announcing_a_move() {
        let mut g = Game::new(Position::startpos());
        play_all(&mut g, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1");
        // Only Ng8 recreates the start position a third time; the current position is new.
        assert!(g.claimable_now().is_empty());
        let ng8 = mv(g.position(), "f6g8");
        assert_eq!(g.claimable(), vec![with_move(DrawClaim::ThreefoldRepetition, vec![ng8])]);
        assert!(matches!(g.clone().claim_draw(), Err(GameError::NoDrawToClaim { .. })));
        assert_list_matches_acceptance(&g);

        // Once the repetition is on the board, it is claimable now, and White's Nf3 would be a
        // third occurrence of the position after 1. Nf3 as well.
        play_all(&mut g, "f6g8");
        let nf3 = mv(g.position(), "g1f3");
        assert_eq!(
            g.claimable(),
            vec![
                ClaimableDraw::Now(DrawClaim::ThreefoldRepetition),
                with_move(DrawClaim::ThreefoldRepetition, vec![nf3])
            ]
        );
        assert_list_matches_acceptance(&g);
    }

    #[test]
    fn fifty_moves_by_announcing_a_quiet_piece_move() {
        // 99 half-moves: a move that neither captures nor moves a pawn reaches the 100th.
        let g = game("4k3/8/8/8/8/8/p6P/R3K3 w - - 99 80");
        let pos = *g.position();
        assert!(g.claimable_now().is_empty());
        let expected: Vec<Move> = pos
            .legal_moves()
            .iter()
            .copied()
            .filter(|&m| !pos.is_capture(m) && pos.role_at(m.from()) != Some(Role::Pawn))
            .collect();
        assert!(expected.contains(&mv(&pos, "a1b1")) && expected.contains(&mv(&pos, "e1f2")));
        assert!(!expected.contains(&mv(&pos, "a1a2")) && !expected.contains(&mv(&pos, "h2h3")));
        assert_eq!(g.claimable(), vec![with_move(DrawClaim::FiftyMoves, expected)]);
        assert_list_matches_acceptance(&g);
        let mut claimed = g.clone();
        let rb1 = mv(&pos, "a1b1");
        assert_eq!(claimed.claim_draw_with_move(rb1), Ok(ClaimResult::Granted(DrawClaim::FiftyMoves)));
        assert_eq!(claimed.outcome(), Some(Outcome::draw(Termination::FiftyMoves)));

        // A quiet move that checkmates completes no claim: it wins.
        let g = game("k7/8/1K6/8/8/8/8/7R w - - 99 80");
        let mate = mv(g.position(), "h1h8");
        let ClaimableDraw::WithMove { claim: DrawClaim::FiftyMoves, moves } = &g.claimable()[0] else {
            panic!("{:?}", g.claimable())
        };
        assert!(!moves.contains(&mate) && moves.contains(&mv(g.position(), "h1h2")));
        assert_list_matches_acceptance(&g);
        let mut mated = g.clone();
        assert_eq!(mated.claim_draw_with_move(mate), Ok(ClaimResult::Rejected));
        assert_eq!(mated.outcome().map(|o| o.termination), Some(Termination::Checkmate));
    }

    #[test]
    fn nothing_to_claim() {
        for fen in [
            crate::fen::STARTING_FEN,
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            // 98 half-moves: one more move reaches only 99.
            "4k3/8/8/8/8/8/8/R3K3 w - - 98 80",
        ] {
            let g = game(fen);
            assert_eq!(g.claimable(), Vec::new(), "{fen}");
            assert_list_matches_acceptance(&g);
        }
        // After the end nothing is claimable, whatever the counters say.
        let mut g = game("4k3/8/8/8/8/8/8/R3K3 w - - 99 80");
        g.resign(Color::Black).unwrap();
        assert!(g.claimable().is_empty());
    }

    #[test]
    fn both_rules_at_once() {
        // 99 half-moves and the rook dance: Ra1 would both repeat a third time and reach 100.
        let mut g = game("4k3/8/8/8/8/8/8/R3K3 w - - 91 80");
        play_all(&mut g, "a1a2 e8d8 a2a1 d8e8 a1a2 e8d8 a2a1 d8e8");
        assert_eq!(g.position().halfmove_clock(), 99);
        assert_eq!(g.repetition_count(), 3);
        let list = g.claimable();
        assert_eq!(list[0], ClaimableDraw::Now(DrawClaim::ThreefoldRepetition));
        let ra2 = mv(g.position(), "a1a2");
        let ClaimableDraw::WithMove { claim: DrawClaim::ThreefoldRepetition, moves } = &list[1] else {
            panic!("{list:?}")
        };
        assert_eq!(moves, &vec![ra2]);
        assert!(
            matches!(&list[2], ClaimableDraw::WithMove { claim: DrawClaim::FiftyMoves, moves } if moves.contains(&ra2))
        );
        assert_list_matches_acceptance(&g);
    }

    #[test]
    fn incorrect_claim_keeps_the_move() {
        let mut g = Game::new(Position::startpos());
        let m = mv(g.position(), "e2e4");
        assert_eq!(g.claim_draw_with_move(m), Ok(ClaimResult::Rejected));
        assert_eq!(g.moves(), &[m]);
        assert_eq!(g.outcome(), None);
    }

    #[test]
    fn castling_rights_make_positions_different() {
        // The rooks return, but castling rights are gone: a new position.
        let mut g = game("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        play_all(&mut g, "h1h2 h8h7 h2h1 h7h8");
        assert_eq!(g.repetition_count(), 1);
        play_all(&mut g, "h1h2 h8h7 h2h1 h7h8");
        assert_eq!(g.repetition_count(), 2);
    }

    #[test]
    fn en_passant_counts_only_when_legal() {
        // After e2e4 the d4 pawn could capture e.p.: the position differs from the later one.
        let mut g = game("4k3/8/8/8/3p4/8/4P3/4K2N w - - 0 1");
        play_all(&mut g, "e2e4 e8d7 h1g3 d7e8 g3h1 e8d7 h1g3 d7e8 g3h1");
        assert_eq!(g.repetition_count(), 2, "the first occurrence had a legal en passant capture");

        // Here the black pawn beside the double-stepped pawn is pinned: no legal capture, so
        // the en passant square does not make the position different.
        let mut g = game("8/8/8/8/k2p3R/8/4P3/4K2N w - - 0 1");
        play_all(&mut g, "e2e4");
        assert!(g.position().ep_square().is_some() && g.position().legal_ep_square().is_none());
        play_all(&mut g, "a4b5 h1g3 b5a4 g3h1 a4b5 h1g3 b5a4 g3h1");
        assert_eq!(g.repetition_count(), 3);
        assert_eq!(g.claimable_now(), vec![DrawClaim::ThreefoldRepetition]);
    }

    #[test]
    fn fifty_and_seventy_five_moves() {
        let mut g = game("4k3/8/8/8/8/8/8/R3K3 w - - 99 80");
        assert!(g.claimable_now().is_empty());
        let m = mv(g.position(), "a1a2");
        assert_eq!(g.claimable_with_move(m).unwrap(), vec![DrawClaim::FiftyMoves]);
        play_all(&mut g, "a1a2");
        assert_eq!(g.claimable_now(), vec![DrawClaim::FiftyMoves]);
        assert_eq!(g.claim_draw(), Ok(Outcome::draw(Termination::FiftyMoves)));

        let mut g = game("4k3/8/8/8/8/8/8/R3K3 w - - 149 80");
        assert_eq!(play_all(&mut g, "a1a2"), Some(Outcome::draw(Termination::SeventyFiveMoves)));
        // Checkmate on the 150th half-move takes precedence.
        let mut g = game("4k3/R7/8/8/8/8/8/1R2K3 w - - 149 80");
        assert_eq!(
            play_all(&mut g, "b1b8"),
            Some(Outcome { result: GameResult::WhiteWins, termination: Termination::Checkmate })
        );
    }

    #[test]
    fn draw_offers() {
        let mut g = Game::new(Position::startpos());
        assert_eq!(g.accept_draw(Color::Black), Err(GameError::NoDrawOffer(Color::Black)));
        g.offer_draw(Color::White).unwrap();
        assert_eq!(g.accept_draw(Color::White), Err(GameError::NoDrawOffer(Color::White)));
        play_all(&mut g, "e2e4");
        assert_eq!(g.draw_offer(), Some(Color::White), "the offerer's own move keeps the offer");
        play_all(&mut g, "e7e5");
        assert_eq!(g.draw_offer(), None, "the opponent moved: the offer lapsed");
        g.offer_draw(Color::White).unwrap();
        g.decline_draw(Color::Black).unwrap();
        assert_eq!(g.draw_offer(), None);
        g.offer_draw(Color::White).unwrap();
        assert_eq!(g.accept_draw(Color::Black), Ok(Outcome::draw(Termination::Agreement)));
        assert!(matches!(g.resign(Color::White), Err(GameError::GameOver(_))));
    }

    #[test]
    fn resignation() {
        let mut g = Game::new(Position::startpos());
        assert_eq!(
            g.resign(Color::White),
            Ok(Outcome { result: GameResult::BlackWins, termination: Termination::Resignation })
        );
    }

    #[test]
    fn flag_fall_material_test() {
        let cases = [
            ("4k3/8/8/8/8/8/8/4K2Q w - - 0 1", Color::Black, Termination::TimeForfeit),
            ("4k3/8/8/8/8/8/8/Q3K3 w - - 0 1", Color::White, Termination::TimeoutVsInsufficientMaterial),
            ("4k3/8/8/8/8/8/8/N3K2Q w - - 0 1", Color::Black, Termination::TimeForfeit),
            ("4k3/8/8/8/8/8/8/N3K2Q w - - 0 1", Color::White, Termination::TimeoutVsInsufficientMaterial),
            // Bishops on both colours (one each side) can mate.
            ("4kb2/8/8/8/8/8/8/4KB1Q w - - 0 1", Color::White, Termination::TimeForfeit),
            ("4kb2/8/8/8/8/8/8/4K1B1 w - - 0 1", Color::White, Termination::TimeoutVsInsufficientMaterial),
            // A lone knight against queens: no placement is a mate (the material proof).
            ("4k3/8/8/8/8/8/3q4/4KN2 w - - 0 1", Color::Black, Termination::TimeoutVsInsufficientMaterial),
            ("4kn2/8/8/8/8/8/8/4K2Q w - - 0 1", Color::White, Termination::TimeoutVsInsufficientMaterial),
            // A lone bishop against a rook or a queen (and bishops of its colour): the rook or
            // queen that blocks a flight square could always take the bishop or block its
            // check, so no placement is a mate (the material proof).
            ("4kb2/8/8/8/8/8/8/4K1BQ w - - 0 1", Color::White, Termination::TimeoutVsInsufficientMaterial),
            ("4k3/8/8/8/8/8/3r4/4KB2 w - - 0 1", Color::Black, Termination::TimeoutVsInsufficientMaterial),
            // A knight against a rook, or a bishop against a knight or a pawn: a helpmate exists.
            ("4k3/8/8/8/8/8/3r4/4KN2 w - - 0 1", Color::Black, Termination::TimeForfeit),
            ("4kn2/8/8/8/8/8/8/4KB2 w - - 0 1", Color::Black, Termination::TimeForfeit),
            ("4k3/p7/8/8/8/8/8/4KB2 w - - 0 1", Color::Black, Termination::TimeForfeit),
            ("3nkn2/8/8/8/8/8/8/4K2Q w - - 0 1", Color::White, Termination::TimeForfeit),
            ("4k3/p7/8/8/8/8/8/4K2Q w - - 0 1", Color::White, Termination::TimeForfeit),
            ("4k3/8/8/8/8/8/8/3NKN2 w - - 0 1", Color::Black, Termination::TimeForfeit),
        ];
        for (fen, flagged, termination) in cases {
            let pos = Position::from_fen(fen, CastlingMode::Standard).unwrap();
            if pos.is_insufficient_material() {
                // A dead position has already ended the game; the test still applies.
                assert!(!can_ever_checkmate(&pos, !flagged));
                continue;
            }
            let mut g = Game::new(pos);
            let outcome = g.flag(flagged).unwrap();
            assert_eq!(outcome.termination, termination, "{fen} {flagged:?}");
            let expected =
                if termination == Termination::TimeForfeit { GameResult::win_for(!flagged) } else { GameResult::Draw };
            assert_eq!(outcome.result, expected);
            // A draw carries the opponent's proof; a loss none.
            assert_eq!(g.cannot_mate(!flagged).is_some(), expected == GameResult::Draw, "{fen} {flagged:?}");
            assert_eq!(g.cannot_mate(flagged), None);
        }
    }

    #[test]
    fn flag_fall_against_locked_pawns_is_a_draw_only_with_a_proof() {
        // From data/unwinnable/cases.txt (labelled W-): every pawn is locked, and Black's
        // bishop is shut in on its side of the chain, so Black can never mate (the
        // frozen-pawn proof); White's bishop and king can still help-mate the cornered king.
        // Material alone says both can mate.
        let fen = "kB4b1/7p/4p1pP/1p1pP1P1/1P1P4/6K1/8/8 w - - 0 1";
        let mut g = game(fen);
        assert_eq!(g.outcome(), None);
        let outcome = g.flag(Color::White).unwrap();
        assert_eq!(outcome, Outcome::draw(Termination::TimeoutVsInsufficientMaterial));
        assert_eq!(g.cannot_mate(Color::Black), Some(Impossibility::FrozenPawns));
        let mut g = game(fen);
        let outcome = g.flag(Color::Black).unwrap();
        assert_eq!(outcome, Outcome { result: GameResult::WhiteWins, termination: Termination::TimeForfeit });
        assert_eq!(g.cannot_mate(Color::White), None);
        // Taking back a move reopens the game and forgets the proof.
        let mut g = game(fen);
        play_all(&mut g, "g3f4");
        g.flag(Color::White).unwrap();
        assert_eq!(g.cannot_mate(Color::Black), Some(Impossibility::FrozenPawns));
        g.undo().unwrap();
        assert_eq!((g.outcome(), g.cannot_mate(Color::Black)), (None, None));
    }

    #[test]
    fn timed_game_and_undo() {
        let start = Position::startpos();
        let mut g = Game::with_time_control(start, "60+1".parse().unwrap());
        let e4 = mv(g.position(), "e2e4");
        assert_eq!(g.play_timed(e4, Duration::from_secs(10)), Ok(None));
        let e5 = mv(g.position(), "e7e5");
        g.play_timed(e5, Duration::from_secs(20)).unwrap();
        assert_eq!(g.clock().unwrap().remaining(Color::Black), Duration::from_secs(41));
        g.offer_draw(Color::White).unwrap();
        let nf3 = mv(g.position(), "g1f3");
        let snapshot = (g.position().fen(), g.clock().cloned(), g.draw_offer());
        g.play_timed(nf3, Duration::from_secs(5)).unwrap();
        assert_eq!(g.undo(), Ok(nf3));
        assert_eq!((g.position().fen(), g.clock().cloned(), g.draw_offer()), snapshot);
        g.undo().unwrap();
        g.undo().unwrap();
        assert_eq!(g.undo(), Err(GameError::NothingToUndo));
        assert_eq!(g.clock().unwrap().remaining(Color::White), Duration::from_secs(60));
        assert_eq!(*g.position(), start);

        // A move made after the time ran out does not count.
        let outcome = g.play_timed(e4, Duration::from_secs(61)).unwrap().unwrap();
        assert_eq!(outcome, Outcome { result: GameResult::BlackWins, termination: Termination::TimeForfeit });
        assert!(g.moves().is_empty());
    }

    #[test]
    fn tick_flags_against_lone_king() {
        let mut g = Game::with_time_control(
            Position::from_fen("4k3/8/8/8/8/8/8/4K2Q b - - 0 1", CastlingMode::Standard).unwrap(),
            "5".parse().unwrap(),
        );
        assert_eq!(g.tick(Duration::from_secs(5)), Ok(None));
        assert_eq!(g.tick(Duration::from_millis(1)).unwrap().unwrap().result, GameResult::WhiteWins);
        let mut g = Game::with_time_control(
            Position::from_fen("4k3/8/8/8/8/8/8/4K2Q w - - 0 1", CastlingMode::Standard).unwrap(),
            "5".parse().unwrap(),
        );
        assert_eq!(
            g.tick(Duration::from_secs(6)).unwrap().unwrap(),
            Outcome::draw(Termination::TimeoutVsInsufficientMaterial)
        );
        assert_eq!(Game::new(Position::startpos()).tick(Duration::ZERO), Err(GameError::NoClock));
    }

    #[test]
    fn chess960_castling_and_undo() {
        let start =
            Position::from_fen("1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1", CastlingMode::Chess960)
                .unwrap();
        let mut g = Game::new(start);
        let castle = start.castling_move(crate::CastlingSide::KingSide).unwrap();
        g.play(castle).unwrap();
        assert_eq!(g.position().castling_rights().rooks().count(), 2, "black keeps both rights");
        assert_eq!(g.undo(), Ok(castle));
        assert_eq!(*g.position(), start);
    }

    #[test]
    fn illegal_input_leaves_game_unchanged() {
        let mut g = Game::with_time_control(Position::startpos(), "60".parse().unwrap());
        let before = format!("{g:?}");
        let bad = Move::normal("e2".parse().unwrap(), "e5".parse().unwrap());
        assert!(matches!(g.play_timed(bad, Duration::from_secs(1)), Err(GameError::IllegalMove { .. })));
        assert!(matches!(g.claim_draw_with_move(bad), Err(GameError::IllegalMove { .. })));
        assert!(g.play(Move::NULL).is_err());
        assert_eq!(format!("{g:?}"), before);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(32))]

        /// Random games with few choices (repetitions) from starts near the fifty-move limit:
        /// the claimable list always agrees with what the arbiter grants.
        #[test]
        fn claimable_agrees_with_claims(start in 0usize..3, choices in proptest::collection::vec(0usize..3, 0..40)) {
            let fen = [
                crate::fen::STARTING_FEN,
                "4k3/8/8/8/8/8/p6P/R3K3 w - - 90 80",
                "r3k3/1p6/8/8/8/8/6P1/4K2R b - - 93 60",
            ][start];
            let mut g = game(fen);
            for c in choices {
                // A game that has ended (fivefold, seventy-five moves) lists no claim and
                // takes no claim with a move.
                if g.outcome().is_some() {
                    proptest::prop_assert!(g.claimable().is_empty());
                    let any = g.position().legal_moves().first().copied();
                    if let Some(m) = any {
                        let refused = g.clone().claim_draw_with_move(m);
                        proptest::prop_assert!(matches!(refused, Err(GameError::GameOver(_))));
                    }
                    break;
                }
                assert_list_matches_acceptance(&g);
                let legal = g.position().legal_moves();
                g.play(legal[c % legal.len()]).unwrap();
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

        /// Random games: undo restores every earlier state, and the repetition count equals a
        /// brute-force count over the positions since the last irreversible move.
        #[test]
        fn undo_and_repetition_properties(choices in proptest::collection::vec(0usize..4, 0..120)) {
            // Few choices among the first moves make repetitions likely.
            let mut g = Game::with_time_control(Position::startpos(), "300+2".parse().unwrap());
            let mut snapshots = vec![(g.position().fen(), g.clock().cloned(), g.repetition_keys().to_vec())];
            let mut positions = vec![*g.position()];
            for c in choices {
                if g.outcome().is_some() {
                    break;
                }
                let legal = g.position().legal_moves();
                let m = legal[c % legal.len()];
                g.play_timed(m, Duration::from_millis(10)).unwrap();
                proptest::prop_assert_eq!(g.moves().len(), snapshots.len(), "every move is recorded");
                positions.push(*g.position());
                snapshots.push((g.position().fen(), g.clock().cloned(), g.repetition_keys().to_vec()));
                let current = g.position();
                let reach = current.halfmove_clock() as usize;
                let brute = positions
                    .iter()
                    .rev()
                    .take(reach + 1)
                    .step_by(2)
                    .filter(|p| repetition_key(p) == repetition_key(current))
                    .count();
                proptest::prop_assert_eq!(g.repetition_count(), brute);
            }
            while g.undo().is_ok() {
                snapshots.pop();
                let (fen, clock, keys) = snapshots.last().unwrap();
                proptest::prop_assert_eq!(&g.position().fen(), fen);
                proptest::prop_assert_eq!(&g.clock().cloned(), clock);
                proptest::prop_assert_eq!(&g.repetition_keys().to_vec(), keys);
            }
            proptest::prop_assert_eq!(snapshots.len(), 1);
        }
    }
}
