//! How a game ends: the score ([`GameResult`]), the reason by the rules ([`Termination`]),
//! and the two together ([`Outcome`]), which [`Position::outcome`](crate::Position::outcome)
//! and [`Game::outcome`](crate::Game::outcome) report.
//!
//! Each type has one job: `GameResult` is the score (`1-0`, `0-1`, `1/2-1/2` in `Display`,
//! as PGN writes it); `Termination` is why the game ended by the FIDE Laws (words in
//! `Display`, a stable snake-case name in `as_str` for JSON); `Outcome` is both. PGN's own
//! vocabularies, the `*` marker of a game without a result and the `Termination` tag's values,
//! are `tempo-notation`'s `PgnResult` and `PgnTermination`.

use crate::types::Color;
use std::fmt;

/// The score of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// `1-0`
    WhiteWins,
    /// `0-1`
    BlackWins,
    /// `1/2-1/2`
    Draw,
}

impl GameResult {
    /// The result in which `color` wins.
    pub fn win_for(color: Color) -> GameResult {
        color.fold(GameResult::WhiteWins, GameResult::BlackWins)
    }

    /// The winner, `None` for a draw.
    pub fn winner(self) -> Option<Color> {
        match self {
            GameResult::WhiteWins => Some(Color::White),
            GameResult::BlackWins => Some(Color::Black),
            GameResult::Draw => None,
        }
    }

    /// The PGN text: `1-0`, `0-1` or `1/2-1/2`.
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    /// The side to move is checkmated.
    Checkmate,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// Dead position: neither side has material to checkmate with.
    InsufficientMaterial,
    /// Dead position (FIDE 5.2.2) for a reason other than material alone: neither side can
    /// checkmate by any series of legal moves, as [`crate::unwinnable::can_mate`] proves
    /// (locked pawns, say). [`Game::cannot_mate`](crate::Game::cannot_mate) gives the proofs.
    DeadPosition,
    /// The same position for the fifth time (automatic).
    FivefoldRepetition,
    /// 75 moves by each side without capture or pawn move (automatic).
    SeventyFiveMoves,
    /// The same position for the third time, claimed.
    ThreefoldRepetition,
    /// 50 moves by each side without capture or pawn move, claimed.
    FiftyMoves,
    /// The players agreed to a draw.
    Agreement,
    /// A player resigned.
    Resignation,
    /// A player's flag fell and the opponent could still checkmate.
    TimeForfeit,
    /// A player's flag fell but the opponent could not checkmate by any legal sequence.
    TimeoutVsInsufficientMaterial,
}

impl Termination {
    /// A stable snake-case name (`"checkmate"`, `"fivefold_repetition"`, ...): the value of
    /// the `termination` field in JSON output, which programs read. Both kinds of flag fall
    /// are `"time_forfeit"`: the result tells a loss from a draw. People read `Display`.
    pub fn as_str(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::InsufficientMaterial => "insufficient_material",
            Termination::DeadPosition => "dead_position",
            Termination::FivefoldRepetition => "fivefold_repetition",
            Termination::SeventyFiveMoves => "seventyfive_moves",
            Termination::ThreefoldRepetition => "threefold_repetition",
            Termination::FiftyMoves => "fifty_moves",
            Termination::Agreement => "agreement",
            Termination::Resignation => "resignation",
            Termination::TimeForfeit => "time_forfeit",
            Termination::TimeoutVsInsufficientMaterial => "time_forfeit",
        }
    }

    /// The reason in words, lower case so that it fits in a sentence: `insufficient
    /// material`, `the seventy-five-move rule`. This is `Display`.
    pub fn words(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::InsufficientMaterial => "insufficient material",
            Termination::DeadPosition => "dead position",
            Termination::FivefoldRepetition => "fivefold repetition",
            Termination::SeventyFiveMoves => "the seventy-five-move rule",
            Termination::ThreefoldRepetition => "threefold repetition",
            Termination::FiftyMoves => "the fifty-move rule",
            Termination::Agreement => "agreement",
            Termination::Resignation => "resignation",
            Termination::TimeForfeit => "time forfeit",
            Termination::TimeoutVsInsufficientMaterial => "time forfeit against insufficient material",
        }
    }
}

impl fmt::Display for Termination {
    /// [`Termination::words`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.words())
    }
}

/// How and why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The score.
    pub result: GameResult,
    /// The reason.
    pub termination: Termination,
}

impl Outcome {
    /// A draw for this reason.
    pub(crate) fn draw(termination: Termination) -> Outcome {
        Outcome { result: GameResult::Draw, termination }
    }
}

impl fmt::Display for Outcome {
    /// The result and the reason in words: `0-1 (checkmate)`, `1/2-1/2 (insufficient
    /// material)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.result, self.termination)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: [Termination; 12] = [
        Termination::Checkmate,
        Termination::Stalemate,
        Termination::InsufficientMaterial,
        Termination::DeadPosition,
        Termination::FivefoldRepetition,
        Termination::SeventyFiveMoves,
        Termination::ThreefoldRepetition,
        Termination::FiftyMoves,
        Termination::Agreement,
        Termination::Resignation,
        Termination::TimeForfeit,
        Termination::TimeoutVsInsufficientMaterial,
    ];

    #[test]
    fn terminations_read_as_words_for_people_and_snake_case_for_programs() {
        for termination in ALL {
            let words = termination.to_string();
            assert!(!words.contains('_'), "{words}");
            assert!(!termination.as_str().contains(' '), "{}", termination.as_str());
        }
        assert_eq!(Termination::SeventyFiveMoves.to_string(), "the seventy-five-move rule");
        assert_eq!(Termination::SeventyFiveMoves.as_str(), "seventyfive_moves");
        let dead = Outcome::draw(Termination::InsufficientMaterial);
        assert_eq!(dead.to_string(), "1/2-1/2 (insufficient material)");
        let dead = Outcome::draw(Termination::DeadPosition);
        assert_eq!(
            (dead.to_string().as_str(), dead.termination.as_str()),
            ("1/2-1/2 (dead position)", "dead_position")
        );
        let flag = Outcome { result: GameResult::win_for(Color::Black), termination: Termination::TimeForfeit };
        assert_eq!(flag.to_string(), "0-1 (time forfeit)");
    }
}
