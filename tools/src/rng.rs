//! The tools' one small generator is core's SplitMix64 (`tempo_core::opening::SplitMix`),
//! seeded explicitly so that a run is a function of its seed: the trainer's weight
//! initialisation, shuffles and mirror coin flips, and data generation's random plies (one
//! generator per game).

pub use tempo_core::opening::{mix, SplitMix as Rng};
