//! How an engine answers a draw offer, and why: from the position and the game (the
//! evaluation from the engine's side, the material, the move number, the moves since the
//! last capture or pawn move) and its level, never from how long this session has lasted.

use tempo_core::{game::DrawClaim, Score};

use crate::describe::claim_rule;

/// An evaluation within this margin of 0.00 (in centipawns, from the engine's side) is
/// level; above it the engine plays on to win.
const AHEAD_CP: i32 = 50;
/// At or below this evaluation the engine stands clearly worse and takes the draw.
const WORSE_CP: i32 = -150;
/// Moves without a capture or pawn move after which a level position has settled.
const SETTLED_MOVES: u32 = 20;

/// What the engine weighs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawFacts {
    /// The position's evaluation from the engine's side.
    pub eval: Score,
    /// The engine's material less its opponent's, in pawns.
    pub material: i32,
    /// Pawns on the board, both sides together.
    pub pawns: i32,
    /// The game's move number (as the position's FEN counts it).
    pub fullmove: u32,
    /// Plies since the last capture or pawn move.
    pub quiet_plies: u32,
    /// The engine's level, 1 to the maximum (a UCI engine counts as the maximum).
    pub level: u8,
    /// A draw the player to move could claim at once.
    pub claimable: Option<DrawClaim>,
}

/// The engine's answer and its reason, a clause to follow "accepts:" or "declines:".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    pub accept: bool,
    pub reason: String,
}

/// The move from which a level position that still has play in it is drawn by agreement:
/// later for a stronger level, which expects to outplay its opponent for longer.
pub fn patience(level: u8) -> u32 {
    20 + 2 * u32::from(level)
}

/// Decides a draw offer. In order: a mate found decides (play it, or take the draw before
/// it); clearly ahead, the engine plays on; a draw claimable anyway, or clearly worse, it
/// accepts; a level position it accepts when there is nothing left to play for (no pawns and
/// even material, no capture or pawn move for [`SETTLED_MOVES`] moves, or the game past its
/// level's [`patience`]), and declines otherwise.
pub fn answer(f: &DrawFacts) -> Answer {
    let yes = |reason: String| Answer { accept: true, reason };
    let no = |reason: String| Answer { accept: false, reason };
    let eval = f.eval;
    match eval {
        Score::Mate(n) if n > 0 => return no(format!("it sees a mate in {n}")),
        Score::Mate(n) => return yes(format!("it would be mated in {}", -n)),
        Score::Cp(_) => {}
    }
    let cp = eval.centipawns();
    if cp >= AHEAD_CP {
        return no(format!("it is ahead by {eval}"));
    }
    if let Some(claim) = f.claimable {
        return yes(format!("the game is drawn by {} for the asking ({eval})", claim_rule(claim)));
    }
    if cp <= WORSE_CP {
        return yes(format!("it stands worse ({eval})"));
    }
    let level = format!("the position is level ({eval})");
    if f.pawns == 0 && f.material.abs() < 3 {
        return yes(format!("{level} and with no pawns left neither side can win"));
    }
    let quiet_moves = f.quiet_plies / 2;
    if quiet_moves >= SETTLED_MOVES {
        return yes(format!("{level} and nothing has changed for {quiet_moves} moves"));
    }
    let patience = patience(f.level);
    if f.fullmove >= patience {
        return yes(format!("{level} at move {}", f.fullmove));
    }
    no(format!(
        "{level} but there is play left at move {}; it agrees to a level draw from move {patience}, or after \
         {SETTLED_MOVES} moves without a capture or pawn move",
        f.fullmove
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A level middlegame at move 12 for an engine at level 5.
    fn facts() -> DrawFacts {
        DrawFacts {
            eval: Score::Cp(10),
            material: 0,
            pawns: 12,
            fullmove: 12,
            quiet_plies: 3,
            level: 5,
            claimable: None,
        }
    }

    fn says(f: DrawFacts) -> (bool, String) {
        let a = answer(&f);
        (a.accept, a.reason)
    }

    #[test]
    fn rook_against_rook_at_move_40_is_a_draw() {
        // The position: r7/8/4k3/8/8/3K4/8/7R w - - 0 40, evaluated +0.00.
        let f = DrawFacts { eval: Score::Cp(0), pawns: 0, fullmove: 40, quiet_plies: 0, ..facts() };
        assert_eq!(says(f), (true, "the position is level (+0.00) and with no pawns left neither side can win".into()));
    }

    #[test]
    fn a_level_game_with_play_left_goes_on_until_its_level_has_seen_enough() {
        assert_eq!(
            says(facts()),
            (
                false,
                "the position is level (+0.10) but there is play left at move 12; it agrees to a level draw from \
                 move 30, or after 20 moves without a capture or pawn move"
                    .into()
            )
        );
        assert_eq!(
            says(DrawFacts { fullmove: 30, ..facts() }),
            (true, "the position is level (+0.10) at move 30".into())
        );
        // A stronger level plays on for longer.
        assert!(!answer(&DrawFacts { fullmove: 30, level: 10, ..facts() }).accept);
        assert!(answer(&DrawFacts { fullmove: 40, level: 10, ..facts() }).accept);
        assert_eq!(
            says(DrawFacts { quiet_plies: 41, ..facts() }),
            (true, "the position is level (+0.10) and nothing has changed for 20 moves".into())
        );
        // Without pawns but a piece up, there is something to play for.
        assert!(!answer(&DrawFacts { pawns: 0, material: 3, ..facts() }).accept);
    }

    #[test]
    fn the_evaluation_decides_first() {
        let ahead = DrawFacts { eval: Score::Cp(120), fullmove: 80, quiet_plies: 60, ..facts() };
        assert_eq!(says(ahead), (false, "it is ahead by +1.20".into()));
        let claimable = DrawFacts { claimable: Some(DrawClaim::ThreefoldRepetition), ..ahead };
        assert_eq!(says(claimable), (false, "it is ahead by +1.20".into()), "a claim does not stop it winning");
        assert_eq!(says(DrawFacts { eval: Score::Cp(-180), ..facts() }), (true, "it stands worse (-1.80)".into()));
        assert_eq!(says(DrawFacts { eval: Score::Mate(3), ..facts() }), (false, "it sees a mate in 3".into()));
        assert_eq!(says(DrawFacts { eval: Score::Mate(-2), ..facts() }), (true, "it would be mated in 2".into()));
        assert_eq!(
            says(DrawFacts { claimable: Some(DrawClaim::FiftyMoves), ..facts() }),
            (true, "the game is drawn by the fifty-move rule for the asking (+0.10)".into())
        );
    }
}
