//! Whether a side can still checkmate "by any possible series of legal moves" (FIDE Laws
//! 5.2.2, the dead position, and 6.9, the flag fall against a side that cannot mate).
//!
//! [`can_mate`] answers for a position and a side with a [`CanMate`]:
//! - [`CanMate::Yes`] with a helpmate, a legal move sequence from the position that ends
//!   with the other side checkmated: anyone can replay it;
//! - [`CanMate::No`] only with a proof ([`Impossibility`] names which): a wrong "no" would
//!   turn a game someone can still win into a draw, so nothing here guesses;
//! - [`CanMate::Undecided`] when the node budget ran out first.
//!
//! The decision runs cheapest first: the static proofs of [`statics`] (material, and
//! structures of pawns and pieces that can never change again), then the searches of
//! `search`, which share the node budget: playouts guided towards mates (`guided`: they find
//! the helpmates of open positions, often at once), an exhaustive walk over every reachable
//! position (the shortest helpmate, or a proof that there is none when the reachable
//! positions are few), a depth-first search along a mating plan (`plan`: the long helpmates
//! of bare endgames; where a pawn of the mater's is stopped by a defender's pawn, the same
//! search along a plan that first opens a file for one of them), an iterative deepening,
//! more playouts, more walk, and more plan.
//!
//! [`helpmate_after`] carries a helpmate across a move without searching (the move was its
//! first, or can be taken back), for callers that ask after every move of a game.
//!
//! The seventy-five-move and fivefold-repetition rules are not applied: like the Chess
//! Unwinnability Analyzer, the question is whether any series of legal moves mates.

mod extend;
mod guided;
mod hash;
mod plan;
mod search;
pub mod statics;

pub use extend::helpmate_after;

use crate::{Color, Move, Position};

/// The node budget [`can_mate`] callers use when they have no reason to choose another: a
/// node is one move played by a search. On `data/unwinnable/cases.txt`, in a release build,
/// it decides all 600 questions (`tempo-tools unwinnable` prints the score and the times),
/// with at most about 0.5 s of wall time on a loaded machine and 100 MB a call (the walk
/// keeps every position it has seen).
pub const DEFAULT_NODES: u64 = 3_000_000;

/// Why a side can never checkmate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Impossibility {
    /// The game is over: the position has no legal move and is not the other side's
    /// checkmate.
    GameOver,
    /// The side's material can never mate, whatever the other side has or will have (see
    /// [`statics::material_cannot_mate`]).
    Material,
    /// Every pawn is locked for ever, or can only run into a locked one, with the pieces
    /// that can never move beside them, and no capture can change that; and none of the side's pieces can ever attack a square
    /// the other king can reach, or only bishops of one colour that can never mate there
    /// (see [`statics::frozen_pawns_prevent_mate`]).
    FrozenPawns,
    /// Every position reachable from this one was visited: none is the other side's
    /// checkmate.
    Exhausted,
}

impl std::fmt::Display for Impossibility {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Impossibility::GameOver => "the game is over",
            Impossibility::Material => "insufficient material",
            Impossibility::FrozenPawns => "the pawns are locked and no piece can reach the other king",
            Impossibility::Exhausted => "no position reachable by legal moves is a checkmate",
        })
    }
}

/// Whether a side can still checkmate: the answer of [`can_mate`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CanMate {
    /// Yes: these moves, played from the position, are legal and end with the other side
    /// checkmated (empty when it already is).
    Yes(Vec<Move>),
    /// No, for the reason given, which is a proof.
    No(Impossibility),
    /// The node budget ran out before either was shown.
    Undecided,
}

impl CanMate {
    /// `Some(true)` for yes, `Some(false)` for no, `None` when undecided: the three values
    /// of a JSON `true|false|null`.
    pub fn decided(&self) -> Option<bool> {
        match self {
            CanMate::Yes(_) => Some(true),
            CanMate::No(_) => Some(false),
            CanMate::Undecided => None,
        }
    }
}

/// Whether `mater` can checkmate its opponent from `pos` by some series of legal moves of
/// both sides (the opponent cooperating), searching at most `nodes` moves (and half as
/// many more where a pawn of the mater's is stopped by a defender's pawn and a search tries
/// to open a file for one of them).
///
/// Deterministic: the same position, side and budget give the same answer. Never panics
/// on a legal position.
///
/// ```
/// use tempo_core::unwinnable::{can_mate, CanMate, Impossibility, DEFAULT_NODES};
/// use tempo_core::{Color, Position};
///
/// // Locked pawns the kings can never get past: dead, though material alone says not.
/// let locked: Position = "4k3/8/8/p1p1p1p1/P1P1P1P1/8/8/4K3 w - - 0 1".parse()?;
/// assert_eq!(can_mate(&locked, Color::White, DEFAULT_NODES), CanMate::No(Impossibility::FrozenPawns));
///
/// // From the start, Black can mate with White's help: a line anyone can replay.
/// let start = Position::startpos();
/// let CanMate::Yes(helpmate) = can_mate(&start, Color::Black, DEFAULT_NODES) else { panic!() };
/// let mut pos = start;
/// for m in helpmate {
///     pos.play(m)?;
/// }
/// assert!(pos.is_checkmate() && pos.turn() == Color::White);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn can_mate(pos: &Position, mater: Color, nodes: u64) -> CanMate {
    let defender = !mater;
    if !pos.has_legal_moves() {
        return if pos.turn() == defender && pos.is_check() {
            CanMate::Yes(Vec::new())
        } else {
            CanMate::No(Impossibility::GameOver)
        };
    }
    if statics::material_cannot_mate(pos, mater) {
        return CanMate::No(Impossibility::Material);
    }
    if statics::frozen_pawns_prevent_mate(pos, mater) {
        return CanMate::No(Impossibility::FrozenPawns);
    }
    search::decide(pos, mater, nodes)
}
