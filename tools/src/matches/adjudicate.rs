//! Adjudication: the game-ending rules a match runner applies beyond the Laws of Chess, so
//! that lost or dead-drawn games between engines do not run on to mate or the move limit.

use super::ending::GameEnd;
use std::time::Duration;
use tempo_core::GameResult;
use tempo_core::{Color, Position, Score};
use tempo_syzygy::Tablebase;

/// Game-ending rules the runner applies beyond the Laws of Chess.
#[derive(Clone, Copy, Debug)]
pub struct Adjudication {
    /// Resign when both engines agree a side is this many centipawns down...
    pub resign_score: Option<i32>,
    /// ...for this many consecutive moves each.
    pub resign_moves: u32,
    /// Draw when both scores stay within this many centipawns of zero...
    pub draw_score: Option<i32>,
    /// ...for this many consecutive moves each...
    pub draw_moves: u32,
    /// ...after this full-move number.
    pub draw_after: u32,
    /// Draw after this many full moves in any case.
    pub max_moves: Option<u32>,
    /// Time an engine may overstep its clock without forfeiting (the overstep is counted).
    pub time_margin: Duration,
    /// How long to wait for a move without a clock, and for start-up.
    pub hang_timeout: Duration,
    /// Syzygy tables (`--tb`): a position in their reach ends the game with their result.
    /// Loaded once and kept for the whole run, hence `'static`.
    pub tablebase: Option<&'static Tablebase>,
}

/// Applies [`Adjudication`]'s score and move-count rules to one game as it is played.
#[derive(Clone, Debug)]
pub struct Adjudicator {
    rules: Adjudication,
    /// Per colour: consecutive moves whose own score supported resigning, winning, a draw.
    losing: [u32; 2],
    winning: [u32; 2],
    drawn: [u32; 2],
}

impl Adjudicator {
    pub fn new(rules: Adjudication) -> Adjudicator {
        Adjudicator { rules, losing: [0; 2], winning: [0; 2], drawn: [0; 2] }
    }

    /// The draw by move count, before a move from a position with this full-move number.
    pub fn move_limit(&self, fullmove: u32) -> Option<GameEnd> {
        self.rules.max_moves.filter(|&max| fullmove > max).map(GameEnd::MoveLimit)
    }

    /// The tables' verdict on a position in their reach: the result with best play from
    /// here under the fifty-move rule, counting the position's half-move clock. `None` out
    /// of reach, or when a probe fails (a broken or missing table): the game plays on.
    pub fn tablebase(&self, pos: &Position) -> Option<GameEnd> {
        let winner = match crate::tb::result(self.rules.tablebase?, pos)? {
            GameResult::WhiteWins => Some(Color::White),
            GameResult::BlackWins => Some(Color::Black),
            GameResult::Draw => None,
        };
        Some(GameEnd::Tablebase { winner })
    }

    /// Takes in the move `side` just played from a position with full-move number `fullmove`
    /// and the score its engine gave it (from its own point of view; `None` when it gave
    /// none), and ends the game if the rules now say so.
    pub fn observe(&mut self, side: Color, score: Option<Score>, fullmove: u32) -> Option<GameEnd> {
        let rules = self.rules;
        let me = side.index();
        // A move without a score breaks every streak: nothing supported a verdict then.
        let (losing, winning, drawn) = match score.map(Score::centipawns) {
            None => (false, false, false),
            Some(cp) => (
                rules.resign_score.is_some_and(|limit| cp <= -limit),
                rules.resign_score.is_some_and(|limit| cp >= limit),
                rules.draw_score.is_some_and(|limit| cp.abs() <= limit) && fullmove >= rules.draw_after,
            ),
        };
        let step = |streak: u32, holds: bool| if holds { streak + 1 } else { 0 };
        self.losing[me] = step(self.losing[me], losing);
        self.winning[me] = step(self.winning[me], winning);
        self.drawn[me] = step(self.drawn[me], drawn);

        let other = 1 - me;
        // Both engines must agree: the mover sees itself lost, its opponent sees itself won.
        if rules.resign_score.is_some()
            && self.losing[me] >= rules.resign_moves
            && self.winning[other] >= rules.resign_moves
        {
            Some(GameEnd::Resigned { loser: side })
        } else if rules.draw_score.is_some()
            && self.drawn[me] >= rules.draw_moves
            && self.drawn[other] >= rules.draw_moves
        {
            Some(GameEnd::AdjudicatedDraw)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tempo_core::Color::{Black, White};

    fn rules() -> Adjudication {
        Adjudication {
            resign_score: Some(500),
            resign_moves: 2,
            draw_score: Some(10),
            draw_moves: 2,
            draw_after: 30,
            max_moves: Some(100),
            time_margin: Duration::ZERO,
            hang_timeout: Duration::from_secs(1),
            tablebase: None,
        }
    }

    /// Feeds `moves` (side, score, full-move number) in turn; the first ending, with the
    /// index of the move that brought it.
    fn first_end(adjudicator: &mut Adjudicator, moves: &[(Color, Option<Score>, u32)]) -> Option<(usize, GameEnd)> {
        moves
            .iter()
            .enumerate()
            .find_map(|(i, &(side, score, fullmove))| adjudicator.observe(side, score, fullmove).map(|end| (i, end)))
    }

    #[test]
    fn resignation_needs_both_engines_to_agree_for_long_enough() {
        let lost = Some(Score::Cp(-600));
        let won = Some(Score::Cp(600));
        let mut a = Adjudicator::new(rules());
        let moves = [(White, won, 20), (Black, lost, 20), (White, won, 21), (Black, lost, 21)];
        assert_eq!(first_end(&mut a, &moves), Some((3, GameEnd::Resigned { loser: Black })));

        // The loser alone thinking it is lost is not enough.
        let mut a = Adjudicator::new(rules());
        let moves = [
            (White, Some(Score::Cp(100)), 20),
            (Black, lost, 20),
            (White, Some(Score::Cp(100)), 21),
            (Black, lost, 21),
        ];
        assert_eq!(first_end(&mut a, &moves), None);

        // A mate score counts as far beyond any threshold; the verdict comes on the loser's
        // move.
        let mut a = Adjudicator::new(rules());
        let mate = |n| Some(Score::Mate(n));
        let moves = [(Black, mate(3), 20), (White, lost, 21), (Black, mate(2), 21), (White, lost, 22)];
        assert_eq!(first_end(&mut a, &moves), Some((3, GameEnd::Resigned { loser: White })));
    }

    #[test]
    fn a_move_without_a_score_restarts_the_streaks() {
        let lost = Some(Score::Cp(-600));
        let won = Some(Score::Cp(600));
        let mut a = Adjudicator::new(rules());
        let moves = [
            (White, won, 20),
            (Black, lost, 20),
            (White, None, 21),
            (Black, lost, 21),
            (White, won, 22),
            (Black, lost, 22),
        ];
        assert_eq!(first_end(&mut a, &moves), None);
        assert_eq!(a.observe(White, won, 23), None);
        assert_eq!(a.observe(Black, lost, 23), Some(GameEnd::Resigned { loser: Black }));
    }

    #[test]
    fn a_draw_is_adjudicated_only_from_draw_after_on() {
        let level = Some(Score::Cp(-5));
        let mut a = Adjudicator::new(rules());
        let early = [(White, level, 28), (Black, level, 28), (White, level, 29), (Black, level, 29)];
        assert_eq!(first_end(&mut a, &early), None);
        let late = [(White, level, 30), (Black, level, 30), (White, level, 31)];
        assert_eq!(first_end(&mut a, &late), None);
        assert_eq!(a.observe(Black, level, 31), Some(GameEnd::AdjudicatedDraw));
    }

    #[test]
    fn no_score_rule_no_adjudication() {
        let mut a = Adjudicator::new(Adjudication { resign_score: None, draw_score: None, ..rules() });
        let moves: Vec<_> = (0..20).map(|i| (if i % 2 == 0 { White } else { Black }, Some(Score::Cp(0)), 50)).collect();
        assert_eq!(first_end(&mut a, &moves), None);
    }

    #[test]
    fn the_move_limit_draws_once_passed() {
        let a = Adjudicator::new(rules());
        assert_eq!(a.move_limit(100), None);
        assert_eq!(a.move_limit(101), Some(GameEnd::MoveLimit(100)));
        assert_eq!(Adjudicator::new(Adjudication { max_moves: None, ..rules() }).move_limit(1000), None);
    }
}
