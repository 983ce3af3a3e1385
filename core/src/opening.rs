//! Random openings: uniformly random legal plies from a start, the variety that self-play
//! data generation (`tempo-tools datagen`) and OpenBench's `genfens` command both need. A
//! function of the seed alone, so a run can be replayed.

use crate::Game;

/// SplitMix64: a tiny, well-distributed, seedable generator.
#[derive(Clone, Debug)]
pub struct SplitMix(pub u64);

impl SplitMix {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A uniform index below `n`.
    ///
    /// # Panics
    /// If `n` is 0.
    pub fn below(&mut self, n: usize) -> usize {
        assert!(n > 0, "SplitMix::below(0)");
        (self.next_u64() % n as u64) as usize
    }
}

/// Plays `plies` uniformly random legal moves on `game`. Returns whether the game can still
/// be played from there: `false` when it ended (mate, stalemate, a draw by rule) on the way
/// or at the end, which leaves no opening.
pub fn play_random_plies(game: &mut Game, rng: &mut SplitMix, plies: usize) -> bool {
    for _ in 0..plies {
        let moves = game.position().legal_moves();
        if moves.is_empty() || game.outcome().is_some() {
            return false;
        }
        if game.play(moves.as_slice()[rng.below(moves.len())]).is_err() {
            return false;
        }
    }
    game.outcome().is_none() && game.position().has_legal_moves()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Position;

    #[test]
    fn random_plies_are_legal_and_a_function_of_the_seed() {
        let walk = |seed| {
            let mut game = Game::new(Position::startpos());
            let playable = play_random_plies(&mut game, &mut SplitMix(seed), 10);
            (playable, game.moves().to_vec(), game.position().fen())
        };
        let (playable, moves, fen) = walk(7);
        assert!(playable);
        assert_eq!(moves.len(), 10);
        assert_eq!(walk(7).2, fen);
        assert_ne!(walk(8).2, fen, "another seed, another opening");
    }

    #[test]
    fn a_finished_game_is_no_opening() {
        // Fool's mate: White is mated, no ply can follow.
        let mut game = Game::new(Position::startpos());
        for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
            let m = game.position().legal_moves().as_slice().iter().copied().find(|x| x.to_string() == m).unwrap();
            game.play(m).unwrap();
        }
        assert!(!play_random_plies(&mut game, &mut SplitMix(1), 0));
        assert!(!play_random_plies(&mut game, &mut SplitMix(1), 3));
    }
}
