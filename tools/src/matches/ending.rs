//! How a match game ended: by the Laws of Chess, by a claim the runner made, or by the
//! runner itself (adjudication, an engine's fault). One type gives the result, the PGN
//! `Termination` tag and the reason in words, so each ending is described in one place.

use tempo_core::{game::DrawClaim, Color, GameResult, Outcome, Termination};
use tempo_notation::{termination_tag, PgnTermination};

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameEnd {
    /// An ending the arbiter declared on the board: checkmate, stalemate, a dead position,
    /// fivefold repetition, the seventy-five-move rule.
    Rules(Outcome),
    /// A draw the runner claimed for the side to move, as the rules allow.
    Claimed(DrawClaim),
    /// `side`'s flag fell; without mating material left to the opponent it is a draw.
    Flagged { side: Color, opponent_can_mate: bool },
    /// Drawn on reaching this many full moves (`--max-moves`).
    MoveLimit(u32),
    /// Both engines' scores agreed that `loser` is lost.
    Resigned { loser: Color },
    /// Both engines' scores stayed near zero.
    AdjudicatedDraw,
    /// The position is in the Syzygy tables (`--tb`): `winner` wins with best play, or
    /// nobody does under the fifty-move rule.
    Tablebase { winner: Option<Color> },
    /// `side`'s engine resigned (or claimed the game for its opponent).
    Resignation { side: Color },
    /// `side`'s engine answered `text`, which is no legal move.
    IllegalMove { side: Color, text: String },
    /// `side`'s engine claimed a result (`claim`, as it wrote it) that the rules do not give.
    FalseClaim { side: Color, claim: String },
    /// `side`'s engine refused a legal move it was sent (`text`, as it answered).
    RefusedMove { side: Color, text: String },
    /// `side`'s engine stopped answering; `error` says how.
    Crash { side: Color, error: String },
}

impl GameEnd {
    /// A flag fall as the arbiter ruled it (`outcome` is a time forfeit or a draw for lack of
    /// mating material).
    pub fn flag_fall(side: Color, outcome: Outcome) -> GameEnd {
        GameEnd::Flagged { side, opponent_can_mate: outcome.termination == Termination::TimeForfeit }
    }

    /// The score it gives.
    pub fn result(&self) -> GameResult {
        match self {
            GameEnd::Rules(outcome) => outcome.result,
            GameEnd::Flagged { side, opponent_can_mate: true } => GameResult::win_for(!*side),
            GameEnd::Flagged { opponent_can_mate: false, .. }
            | GameEnd::Claimed(_)
            | GameEnd::MoveLimit(_)
            | GameEnd::AdjudicatedDraw
            | GameEnd::Tablebase { winner: None } => GameResult::Draw,
            GameEnd::Tablebase { winner: Some(side) } => GameResult::win_for(*side),
            GameEnd::Resigned { loser: side }
            | GameEnd::Resignation { side }
            | GameEnd::IllegalMove { side, .. }
            | GameEnd::FalseClaim { side, .. }
            | GameEnd::RefusedMove { side, .. }
            | GameEnd::Crash { side, .. } => GameResult::win_for(!*side),
        }
    }

    /// The PGN `Termination` tag.
    pub fn pgn_termination(&self) -> PgnTermination {
        match self {
            GameEnd::Rules(outcome) => termination_tag(outcome.termination),
            GameEnd::Claimed(_) | GameEnd::Resignation { .. } => PgnTermination::Normal,
            GameEnd::Flagged { .. } => PgnTermination::TimeForfeit,
            GameEnd::MoveLimit(_) | GameEnd::Resigned { .. } | GameEnd::AdjudicatedDraw | GameEnd::Tablebase { .. } => {
                PgnTermination::Adjudication
            }
            GameEnd::RefusedMove { .. } | GameEnd::Crash { .. } => PgnTermination::Abandoned,
            GameEnd::IllegalMove { .. } | GameEnd::FalseClaim { .. } => PgnTermination::RulesInfraction,
        }
    }

    /// The reason in words, for the match report and the PGN comment of an ending the runner
    /// decided; `names` are White's and Black's engines.
    pub fn describe(&self, names: [&str; 2]) -> String {
        let name = |side: &Color| names[side.index()];
        match self {
            GameEnd::Rules(outcome) => outcome.termination.to_string(),
            GameEnd::Claimed(claim) => claim.termination().to_string(),
            GameEnd::Flagged { side, opponent_can_mate: true } => format!("{} lost on time", name(side)),
            GameEnd::Flagged { side, opponent_can_mate: false } => {
                format!("{} ran out of time, but the opponent cannot checkmate: draw", name(side))
            }
            GameEnd::MoveLimit(max) => format!("adjudication: {max} moves"),
            GameEnd::Resigned { loser } => format!("adjudication: {} resigns", name(loser)),
            GameEnd::AdjudicatedDraw => "adjudication: draw".to_owned(),
            GameEnd::Tablebase { winner: Some(side) } => format!("adjudication: {} wins by the tablebases", name(side)),
            GameEnd::Tablebase { winner: None } => "adjudication: a tablebase draw".to_owned(),
            GameEnd::Resignation { side } => format!("{} resigns", name(side)),
            GameEnd::IllegalMove { side, text } => format!("{} played an illegal move: {text}", name(side)),
            GameEnd::FalseClaim { side, claim } => format!("{} made a false claim: {claim}", name(side)),
            GameEnd::RefusedMove { side, text } => format!("{} refused a legal move: {text}", name(side)),
            GameEnd::Crash { side, error } => format!("{} crashed or hung: {error}", name(side)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NAMES: [&str; 2] = ["alpha", "beta"];

    fn summary(end: &GameEnd) -> (GameResult, PgnTermination, String) {
        (end.result(), end.pgn_termination(), end.describe(NAMES))
    }

    #[test]
    fn endings_by_the_rules_keep_the_arbiter_s_result_and_name() {
        let mate = GameEnd::Rules(Outcome { result: GameResult::BlackWins, termination: Termination::Checkmate });
        assert_eq!(summary(&mate), (GameResult::BlackWins, PgnTermination::Normal, "checkmate".to_owned()));
        let dead = GameEnd::Rules(Outcome { result: GameResult::Draw, termination: Termination::InsufficientMaterial });
        assert_eq!(summary(&dead), (GameResult::Draw, PgnTermination::Normal, "insufficient material".to_owned()));
        let dead = GameEnd::Rules(Outcome { result: GameResult::Draw, termination: Termination::DeadPosition });
        assert_eq!(summary(&dead), (GameResult::Draw, PgnTermination::Normal, "dead position".to_owned()));
        assert_eq!(
            summary(&GameEnd::Claimed(DrawClaim::ThreefoldRepetition)),
            (GameResult::Draw, PgnTermination::Normal, "threefold repetition".to_owned())
        );
    }

    #[test]
    fn a_flag_fall_loses_unless_the_opponent_cannot_mate() {
        let lost = Outcome { result: GameResult::WhiteWins, termination: Termination::TimeForfeit };
        let end = GameEnd::flag_fall(Color::Black, lost);
        assert_eq!(summary(&end), (GameResult::WhiteWins, PgnTermination::TimeForfeit, "beta lost on time".to_owned()));
        let drawn = Outcome { result: GameResult::Draw, termination: Termination::TimeoutVsInsufficientMaterial };
        let end = GameEnd::flag_fall(Color::White, drawn);
        assert_eq!(
            summary(&end),
            (
                GameResult::Draw,
                PgnTermination::TimeForfeit,
                "alpha ran out of time, but the opponent cannot checkmate: draw".to_owned()
            )
        );
    }

    #[test]
    fn adjudications_are_tagged_as_such() {
        assert_eq!(
            summary(&GameEnd::MoveLimit(80)),
            (GameResult::Draw, PgnTermination::Adjudication, "adjudication: 80 moves".to_owned())
        );
        assert_eq!(
            summary(&GameEnd::Resigned { loser: Color::White }),
            (GameResult::BlackWins, PgnTermination::Adjudication, "adjudication: alpha resigns".to_owned())
        );
        assert_eq!(
            summary(&GameEnd::AdjudicatedDraw),
            (GameResult::Draw, PgnTermination::Adjudication, "adjudication: draw".to_owned())
        );
    }

    #[test]
    fn an_engine_s_fault_loses_the_game_for_it() {
        let resigned = GameEnd::Resignation { side: Color::Black };
        assert_eq!(summary(&resigned), (GameResult::WhiteWins, PgnTermination::Normal, "beta resigns".to_owned()));
        let claim = GameEnd::FalseClaim { side: Color::White, claim: "1-0 {White mates}".to_owned() };
        assert_eq!(
            summary(&claim),
            (
                GameResult::BlackWins,
                PgnTermination::RulesInfraction,
                "alpha made a false claim: 1-0 {White mates}".to_owned()
            )
        );
        let refused = GameEnd::RefusedMove { side: Color::Black, text: "Illegal move: e2e4".to_owned() };
        assert_eq!(
            summary(&refused),
            (
                GameResult::WhiteWins,
                PgnTermination::Abandoned,
                "beta refused a legal move: Illegal move: e2e4".to_owned()
            )
        );
        let illegal = GameEnd::IllegalMove { side: Color::White, text: "e2e5".to_owned() };
        assert_eq!(
            summary(&illegal),
            (GameResult::BlackWins, PgnTermination::RulesInfraction, "alpha played an illegal move: e2e5".to_owned())
        );
        let crash = GameEnd::Crash { side: Color::Black, error: "closed".to_owned() };
        assert_eq!(
            summary(&crash),
            (GameResult::WhiteWins, PgnTermination::Abandoned, "beta crashed or hung: closed".to_owned())
        );
    }
}
