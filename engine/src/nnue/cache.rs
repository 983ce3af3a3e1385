//! The refresh cache (a "finny table"): for each perspective and each view its king has
//! given it (a file side of mirrored inputs, a king bucket), the accumulator of the last
//! position computed in that view and that position's pieces.
//!
//! When a king move changes its side's view, the accumulator in the new view is the cached
//! one changed by the pieces that differ from the cached position, usually a few, instead of
//! the biases plus every piece's row. The `i16` arithmetic wraps, so the result is the
//! from-scratch accumulator exactly, whatever the order of the additions.

use super::format::View;
use super::network::NetworkOf;
use super::simd::{Row, Simd};
use super::HIDDEN;
use tempo_core::{Bitboard, Color, Piece, Position, Role};

/// Rows added or removed per kernel call (a position has at most 32 pieces, so one call
/// nearly always does).
const BATCH: usize = 32;

/// One view's last accumulator and the pieces it was computed for.
#[derive(Clone)]
struct Entry<const H: usize> {
    view: View,
    accumulator: Row<H>,
    /// The squares of each colour's pieces of each role.
    pieces: [[Bitboard; 6]; 2],
}

/// The cached accumulators of one search thread (and one network: the entries hold its
/// weights' sums).
#[derive(Clone, Default)]
pub(crate) struct RefreshCache<const H: usize = HIDDEN> {
    /// Per perspective, an entry for each view met so far (at most 8: two file sides times
    /// four king buckets).
    entries: [Vec<Entry<H>>; 2],
}

impl<const H: usize> RefreshCache<H> {
    /// An empty cache.
    pub(crate) fn new() -> RefreshCache<H> {
        RefreshCache { entries: [Vec::new(), Vec::new()] }
    }

    /// Sets `dst` to `perspective`'s accumulator of `pos` under `view` (the view of its king
    /// in `pos`), from the cached accumulator of that view, and caches the result.
    #[cold]
    #[inline(never)]
    pub(crate) fn refresh(
        &mut self,
        dst: &mut Row<H>,
        network: &NetworkOf<H>,
        pos: &Position,
        perspective: Color,
        view: View,
        simd: Simd,
    ) {
        let entries = &mut self.entries[perspective.index()];
        let at = match entries.iter().position(|e| e.view == view) {
            Some(at) => at,
            None => {
                // A view not met yet: the empty board's accumulator, the biases.
                let empty = [[Bitboard::EMPTY; 6]; 2];
                entries.push(Entry { view, accumulator: *network.biases(), pieces: empty });
                entries.len() - 1
            }
        };
        let entry = &mut entries[at];
        let (mut adds, mut subs) = ([network.biases(); BATCH], [network.biases(); BATCH]);
        let (mut added, mut removed) = (0, 0);
        for color in Color::ALL {
            for role in Role::ALL {
                let piece = Piece::new(color, role);
                let (now, was) = (pos.pieces(color, role), entry.pieces[color.index()][role.index()]);
                for square in now & !was {
                    if added == BATCH {
                        flush(&mut entry.accumulator, &adds[..added], &subs[..removed], simd);
                        (added, removed) = (0, 0);
                    }
                    adds[added] = network.feature_weights(view.index(piece, square));
                    added += 1;
                }
                for square in was & !now {
                    if removed == BATCH {
                        flush(&mut entry.accumulator, &adds[..added], &subs[..removed], simd);
                        (added, removed) = (0, 0);
                    }
                    subs[removed] = network.feature_weights(view.index(piece, square));
                    removed += 1;
                }
                entry.pieces[color.index()][role.index()] = now;
            }
        }
        flush(&mut entry.accumulator, &adds[..added], &subs[..removed], simd);
        *dst = entry.accumulator;
    }
}

/// Adds `adds` to `accumulator` and removes `subs`.
#[inline]
fn flush<const H: usize>(accumulator: &mut Row<H>, adds: &[&Row<H>], subs: &[&Row<H>], simd: Simd) {
    let sum = *accumulator;
    simd.update(accumulator, &sum, adds, subs);
}
