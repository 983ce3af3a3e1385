//! A position's pair of accumulators (one per perspective): computed from scratch, updated by
//! a move's feature changes, and turned into an evaluation by the output layer.

use super::cache::RefreshCache;
use super::features::{placements, view_of, Delta, Placement};
use super::format::{output_bucket, View, QA, SCALE};
use super::network::NetworkOf;
use super::simd::{Row, Simd};
use super::HIDDEN;
use tempo_core::{Color, Position};

/// The first layer's output for both perspectives: `b1q` plus the weight rows of the active
/// features, `[White's, Black's]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Accumulator<const H: usize = HIDDEN>([Row<H>; 2]);

/// Rows summed per kernel call when computing from scratch (a position has at most 32 pieces).
const BATCH: usize = 32;

impl<const H: usize> Accumulator<H> {
    /// Both accumulators all zero (a placeholder until computed).
    pub(crate) const ZERO: Accumulator<H> = Accumulator([Row::ZERO; 2]);

    /// The accumulators of `pos`, computed from scratch.
    pub(crate) fn refresh(network: &NetworkOf<H>, pos: &Position, simd: Simd) -> Accumulator<H> {
        let mut acc = Accumulator([*network.biases(); 2]);
        for perspective in Color::ALL {
            Accumulator::refresh_view(
                &mut acc.0[perspective.index()],
                network,
                pos,
                view_of(network, pos, perspective),
                simd,
            );
        }
        acc
    }

    /// One perspective's accumulator of `pos`, as `view` sees it, computed from scratch.
    fn refresh_view(dst: &mut Row<H>, network: &NetworkOf<H>, pos: &Position, view: View, simd: Simd) {
        *dst = *network.biases();
        let mut rows = [network.biases(); BATCH];
        let mut count = 0;
        let mut pieces = placements(pos).peekable();
        while let Some((piece, square)) = pieces.next() {
            rows[count] = network.feature_weights(view.index(piece, square));
            count += 1;
            if count == BATCH || pieces.peek().is_none() {
                let sum = *dst;
                simd.update(dst, &sum, &rows[..count], &[]);
                count = 0;
            }
        }
    }

    /// Sets `self` to the accumulators of `child`, the position after the move whose changes
    /// are `delta` in the position of `parent`'s accumulators: each perspective's is
    /// `parent`'s changed by `delta`, except that of a side whose king moved so that its view
    /// changed (crossing between files d and e with mirrored inputs, or into another king
    /// bucket), which sees every piece as another feature: that one is computed from `cache`'s
    /// accumulator of the new view.
    #[inline]
    pub(crate) fn update_from(
        &mut self,
        parent: &Accumulator<H>,
        delta: &Delta,
        child: &Position,
        network: &NetworkOf<H>,
        simd: Simd,
        cache: &mut RefreshCache<H>,
    ) {
        if let Some(perspective) = self.update_unless_refreshed(parent, delta, child, network, simd) {
            let view = view_of(network, child, perspective);
            cache.refresh(&mut self.0[perspective.index()], network, child, perspective, view, simd);
        }
    }

    /// [`Accumulator::update_from`] but for the refresh, which it leaves to the caller: returns
    /// the perspective whose view changed, if one did, without setting its accumulator. (Kept
    /// apart so that the search's common path compiles as it did without the cache.)
    #[inline]
    fn update_unless_refreshed(
        &mut self,
        parent: &Accumulator<H>,
        delta: &Delta,
        child: &Position,
        network: &NetworkOf<H>,
        simd: Simd,
    ) -> Option<Color> {
        let mover = !child.turn();
        let crossed =
            delta.king_move().is_some_and(|(from, to)| network.input_mapping().needs_refresh(mover, from, to));
        for perspective in Color::ALL {
            let i = perspective.index();
            if crossed && perspective == mover {
                continue;
            }
            let view = view_of(network, child, perspective);
            let rows = |placements: &[Placement]| -> [&Row<H>; 2] {
                let mut rows = [network.biases(); 2];
                for (row, &(piece, square)) in rows.iter_mut().zip(placements) {
                    *row = network.feature_weights(view.index(piece, square));
                }
                rows
            };
            let (added, removed) = (delta.added(), delta.removed());
            simd.update(&mut self.0[i], &parent.0[i], &rows(added)[..added.len()], &rows(removed)[..removed.len()]);
        }
        crossed.then_some(mover)
    }

    /// The output layer: the evaluation in centipawns for the side to move of `pos`, the
    /// position of these accumulators (unclamped). The number of pieces chooses the bucket.
    #[inline]
    pub(crate) fn evaluate(&self, network: &NetworkOf<H>, pos: &Position, simd: Simd) -> i32 {
        let bucket = output_bucket(pos.occupied().count() as usize, network.output_buckets());
        let [w_us, w_them] = network.output_weights(bucket);
        let side_to_move = pos.turn();
        let us = &self.0[side_to_move.index()];
        let them = &self.0[(!side_to_move).index()];
        let sum = simd.screlu_dot(us, them, w_us, w_them);
        // `sum / QA` truncates toward zero, as the format says. The rest is exact in i64:
        // |sum / QA| < 2^26 and |b2q| <= 2^31, so |out * SCALE / (QA * QB)| < 2^26 (QB >= 64).
        let out = sum / i64::from(QA) + i64::from(network.output_bias(bucket));
        (out * i64::from(SCALE) / i64::from(QA * network.output_scale(bucket))) as i32
    }

    /// One perspective's accumulator (for tests).
    #[cfg(test)]
    pub(crate) fn perspective(&self, color: Color) -> &Row<H> {
        &self.0[color.index()]
    }
}
