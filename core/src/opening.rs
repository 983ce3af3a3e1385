//! Random openings: uniformly random legal plies from a start, the variety that self-play
//! data generation (`tempo-tools datagen`) and OpenBench's `genfens` command both need. A
//! function of the seed alone, so a run can be replayed.

use crate::Game;

/// The SplitMix64 finaliser: a well-mixed 64-bit hash of `x`.
#[inline]
pub fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// SplitMix64: a tiny, well-distributed, seedable generator, the one the workspace uses
/// wherever a run must be a function of its seed (random openings here; the trainer's
/// initialisation and shuffles in `tempo-tools`).
#[derive(Clone, Debug)]
pub struct SplitMix(pub u64);

impl SplitMix {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> SplitMix {
        SplitMix(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let x = self.0;
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        mix(x)
    }

    /// A uniform index below `n` (the modulo bias is negligible for the sizes used).
    ///
    /// # Panics
    /// If `n` is 0.
    pub fn below(&mut self, n: usize) -> usize {
        assert!(n > 0, "SplitMix::below(0)");
        (self.next_u64() % n as u64) as usize
    }

    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }

    /// Shuffles `items` (Fisher-Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
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
