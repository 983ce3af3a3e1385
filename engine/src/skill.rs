//! `UCI_LimitStrength`: weaker play that still looks natural.
//!
//! Following the scheme of Stockfish's skill levels, the engine searches several lines to a
//! limited depth and then picks among them with a random bonus that grows with weakness:
//! small inaccuracies are common, blunders rare, and the chosen move is always one a
//! shallow search considered. The Elo scale is nominal: it is not yet calibrated by games.

use crate::options::{MAX_ELO, MIN_ELO};
use crate::score::Value;
use crate::search::RootMove;

/// Parameters of the strength limiter for one search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skill {
    /// 0 (weakest) to 20 (full strength).
    pub level: u32,
}

impl Skill {
    /// The skill for a target Elo.
    pub fn from_elo(elo: u32) -> Skill {
        let elo = elo.clamp(MIN_ELO, MAX_ELO);
        Skill { level: (elo - MIN_ELO) * 20 / (MAX_ELO - MIN_ELO) }
    }

    /// Maximum search depth at this level.
    pub fn depth_limit(self) -> u32 {
        1 + self.level / 2 + self.level / 4
    }

    /// Lines to search so that there is something to choose from.
    pub const LINES: usize = 4;

    /// Picks a move among the searched lines (`moves` sorted best first), using `random`
    /// as the source of randomness.
    pub fn pick(self, moves: &[RootMove], lines: usize, mut random: impl FnMut() -> u64) -> usize {
        let lines = lines.min(moves.len()).max(1);
        let top = moves[0].score;
        let delta = (top - moves[lines - 1].score).min(100);
        let weakness = Value::try_from(120 - 2 * self.level.min(20)).unwrap_or(120);
        let mut best = 0;
        let mut best_total = Value::MIN;
        for (i, rm) in moves.iter().take(lines).enumerate() {
            let noise = (random() % weakness as u64) as Value;
            let push = (weakness * (top - rm.score) + delta * noise) / 128;
            let total = rm.score + push;
            if total > best_total {
                best_total = total;
                best = i;
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_span_the_range() {
        assert_eq!(Skill::from_elo(MIN_ELO).level, 0);
        assert_eq!(Skill::from_elo(MAX_ELO).level, 20);
        assert!(Skill::from_elo(MIN_ELO).depth_limit() < Skill::from_elo(MAX_ELO).depth_limit());
    }
}
