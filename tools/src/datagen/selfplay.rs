//! One self-play game of data generation: the opening, the random plies, the engine's moves
//! under a node limit, and adjudication.

use super::RandomPlies;
use crate::matches::openings::Opening;
use crate::rng::Rng;
use anyhow::{Context, Result};
use tempo_core::opening::play_random_plies;
use tempo_core::{Game, GameResult, Move, Position};
use tempo_engine::{Engine, Event, Limits, Score};
use tempo_notation::mate_score;
use tempo_syzygy::Tablebase;

/// How the engine plays and when a game is adjudicated: everything besides the seed and the
/// openings that decides a game (recorded as is in the run's progress file).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Rules {
    /// No new iteration once this many nodes are searched, if set.
    pub soft_nodes: Option<u64>,
    /// Nodes per move at most.
    pub nodes: u64,
    pub random_plies: RandomPlies,
    /// A game whose first searched position scores beyond this (centipawns) is discarded.
    pub max_start_score: i32,
    /// Win adjudication: the score stays at or beyond `win_score` for the same side for
    /// `win_plies` plies in a row.
    pub win_score: i32,
    pub win_plies: u32,
    /// Draw adjudication: from ply `draw_after` on, the score stays within `draw_score` of
    /// zero for `draw_plies` plies in a row.
    pub draw_score: i32,
    pub draw_plies: u32,
    pub draw_after: usize,
    /// A game still going after this many plies is a draw.
    pub max_plies: usize,
    /// Syzygy folders (`--tb`, `:`-separated): a position in the tables' reach ends the game
    /// with their result. Absent from the progress records of runs without them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tb: Option<String>,
}

impl Rules {
    /// The search limits of one move.
    pub fn limits(&self) -> Limits {
        match self.soft_nodes {
            Some(soft) => Limits::soft_nodes(soft, self.nodes),
            None => Limits::nodes(self.nodes),
        }
    }
}

/// A finished game: the position the engine started from, each engine move with its score
/// (centipawns from White's point of view, mates as [`mate_score`]), and the result.
pub struct PlayedGame {
    pub start: Position,
    pub moves: Vec<(Move, i16)>,
    pub result: GameResult,
}

/// The score as stored: White's point of view, in `i16`, mates as `±mate_score(plies)`.
pub fn white_score(score: Score, white_to_move: bool) -> i16 {
    let stm = match score {
        Score::Cp(cp) => cp.clamp(-20_000, 20_000) as i16,
        Score::Mate(n) if n > 0 => mate_score(2 * n.unsigned_abs() - 1),
        Score::Mate(n) => -mate_score(2 * n.unsigned_abs()),
    };
    if white_to_move {
        stm
    } else {
        -stm
    }
}

/// Tracks the runs of scores that adjudicate a game.
#[derive(Default)]
struct Adjudicator {
    win_sign: i32,
    win_run: u32,
    draw_run: u32,
}

impl Adjudicator {
    fn update(&mut self, rules: &Rules, white: i32, ply: usize) -> Option<GameResult> {
        let sign = if white >= rules.win_score {
            1
        } else if white <= -rules.win_score {
            -1
        } else {
            0
        };
        self.win_run = if sign != 0 && sign == self.win_sign { self.win_run + 1 } else { u32::from(sign != 0) };
        self.win_sign = sign;
        if self.win_run >= rules.win_plies {
            return Some(if sign > 0 { GameResult::WhiteWins } else { GameResult::BlackWins });
        }
        self.draw_run = if ply >= rules.draw_after && white.abs() <= rules.draw_score { self.draw_run + 1 } else { 0 };
        (self.draw_run >= rules.draw_plies).then_some(GameResult::Draw)
    }
}

/// Plays one game; `None` if the random plies ended the game or left it outside the start
/// score window.
///
/// # Errors
/// If the engine fails (it never should).
/// `tables`: the tables of `rules.tb`, loaded once by the caller.
pub fn play_game(
    rules: &Rules,
    engine: &mut Engine,
    opening: &Opening,
    seed: u64,
    tables: Option<&Tablebase>,
) -> Result<Option<PlayedGame>> {
    let mut rng = Rng::new(seed);
    let mut game = Game::new(opening.start);
    for &m in &opening.moves {
        game.play(m).context("opening move")?;
    }
    let random = rules.random_plies.min + rng.below(rules.random_plies.max - rules.random_plies.min + 1);
    if !play_random_plies(&mut game, &mut rng, random) {
        return Ok(None);
    }
    let start = *game.position();
    let first_engine_ply = game.moves().len();

    // A fresh game for the engine too: the output must not depend on which games the same
    // worker played before.
    engine.new_game().context("new game")?;
    let mut moves = Vec::new();
    let mut adjudicator = Adjudicator::default();
    let result = loop {
        if let Some(outcome) = game.outcome() {
            break outcome.result;
        }
        if !game.claimable_now().is_empty() || game.moves().len() >= rules.max_plies {
            break GameResult::Draw;
        }
        if let Some(result) = tables.and_then(|tables| crate::tb::result(tables, game.position())) {
            break result;
        }
        let pos = *game.position();
        engine.set_position(*game.initial_position(), game.moves()).context("engine position")?;
        let (mut score, mut best) = (None, None);
        engine
            .search(rules.limits(), |event| match event {
                Event::Info(info) if info.multipv == 1 && info.bound.is_none() => score = Some(info.score),
                Event::BestMove { best: m, .. } => best = m,
                _ => {}
            })
            .context("engine search")?;
        let best = best.context("the engine found no move in a position that has one")?;
        let white = white_score(score.unwrap_or(Score::Cp(0)), pos.turn() == tempo_core::Color::White);
        if game.moves().len() == first_engine_ply && i32::from(white).abs() > rules.max_start_score {
            return Ok(None);
        }
        moves.push((best, white));
        game.play(best).context("engine move")?;
        if let Some(result) = adjudicator.update(rules, i32::from(white), game.moves().len()) {
            break result;
        }
    };
    Ok(Some(PlayedGame { start, moves, result }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules() -> Rules {
        Rules {
            soft_nodes: None,
            nodes: 1,
            random_plies: RandomPlies { min: 0, max: 0 },
            max_start_score: 300,
            win_score: 1000,
            win_plies: 4,
            draw_score: 10,
            draw_plies: 6,
            draw_after: 40,
            max_plies: 400,
            tb: None,
        }
    }

    #[test]
    fn a_win_needs_the_same_side_ahead_for_the_whole_run() {
        let rules = rules();
        let mut adj = Adjudicator::default();
        assert_eq!(adj.update(&rules, 1200, 10), None);
        assert_eq!(adj.update(&rules, 1500, 11), None);
        assert_eq!(adj.update(&rules, -1500, 12), None, "the run restarts for the other side");
        for ply in 13..15 {
            assert_eq!(adj.update(&rules, -1500, ply), None);
        }
        assert_eq!(adj.update(&rules, -1001, 15), Some(GameResult::BlackWins));
    }

    #[test]
    fn a_draw_needs_a_long_near_zero_run_after_the_opening() {
        let rules = rules();
        let mut adj = Adjudicator::default();
        for ply in 30..40 {
            assert_eq!(adj.update(&rules, 0, ply), None, "too early at ply {ply}");
        }
        for ply in 40..45 {
            assert_eq!(adj.update(&rules, 5, ply), None);
        }
        assert_eq!(adj.update(&rules, 11, 45), None, "a score outside the window breaks the run");
        for ply in 46..51 {
            assert_eq!(adj.update(&rules, -10, ply), None);
        }
        assert_eq!(adj.update(&rules, 0, 51), Some(GameResult::Draw));
    }

    #[test]
    fn a_dead_position_ends_the_game_in_a_draw() {
        // Kxd2 (the engine will not leave the queen) leaves the kings walled apart by locked
        // pawns: the game is over at once (FIDE 5.2.2), however the engine scored it. Before
        // it, Kf1 keeps the game alive (the queen may yet be taken by a pawn that promotes).
        let start: Position = "4k3/8/8/p1p1p1p1/P1P1P1P1/8/3q4/4K3 w - - 0 1".parse().unwrap();
        assert!(Game::new(start).outcome().is_none());
        let opening = Opening { start, moves: Vec::new() };
        let rules = Rules { max_start_score: i32::MAX, nodes: 2_000, ..rules() };
        let played = play_game(&rules, &mut Engine::new(), &opening, 1, None).unwrap().expect("a game");
        assert_eq!(played.result, GameResult::Draw);
        assert_eq!(played.moves.len(), 1, "the game ends after Kxe2");
    }

    #[test]
    fn scores_are_stored_from_whites_view_with_mates_apart() {
        assert_eq!(white_score(Score::Cp(35), true), 35);
        assert_eq!(white_score(Score::Cp(35), false), -35);
        assert_eq!(white_score(Score::Mate(1), true), mate_score(1));
        assert_eq!(white_score(Score::Mate(-2), true), -mate_score(4));
        assert_eq!(white_score(Score::Mate(3), false), -mate_score(5));
        assert!(white_score(Score::Cp(99_999), true) < tempo_notation::MATE_SCORE_BOUND);
    }
}
