//! A fast hasher for the searches' tables, whose keys are already well mixed (Zobrist keys,
//! bitboards): the standard library's SipHash, built to resist chosen keys, was a tenth of
//! the searches' time.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// A map keyed through [`FastHasher`].
pub(super) type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FastHasher>>;

/// A set keyed through [`FastHasher`].
pub(super) type FastSet<K> = HashSet<K, BuildHasherDefault<FastHasher>>;

/// The multiply-and-rotate hash of rustc's `FxHasher`: one multiplication a word.
#[derive(Clone, Copy, Default)]
pub(super) struct FastHasher {
    state: u64,
}

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FastHasher {
    fn add(&mut self, word: u64) {
        self.state = (self.state.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for FastHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0; 8];
            word.copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(word));
        }
    }

    fn write_u64(&mut self, word: u64) {
        self.add(word);
    }

    fn write_usize(&mut self, word: usize) {
        self.add(word as u64);
    }

    fn finish(&self) -> u64 {
        self.state
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_keys_hash_alike_and_others_apart() {
        let hash = |words: &[u64]| {
            let mut hasher = FastHasher::default();
            for &w in words {
                hasher.write_u64(w);
            }
            hasher.finish()
        };
        assert_eq!(hash(&[1, 2, 3]), hash(&[1, 2, 3]));
        assert_ne!(hash(&[1, 2, 3]), hash(&[1, 3, 2]));
        let mut set = FastSet::default();
        assert!(set.insert([1u64, 2]) && !set.insert([1u64, 2]) && set.insert([2u64, 1]));
    }
}
