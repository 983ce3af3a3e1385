//! NNUE: an efficiently updatable neural network evaluation.
//!
//! The network lives here, at the top of the engine beside the hand-crafted evaluation. Its
//! contract with the trainer (`tempo-tools train`, which writes network files) is stated
//! below in full and implemented once, in [`format`](mod@format): the feature mapping, the output
//! buckets, the constants, the file's reader and writer and the integer evaluation. The
//! trainer calls that module; nothing of the contract is written twice.
//!
//! # Architecture: `(768 K -> H) x 2 -> B`, perspective network, SCReLU, output buckets
//!
//! `K` is the input mapping's number of king buckets: 1 for plain and mirrored inputs, 4 for
//! king buckets (below).
//!
//! `H` is a compile-time constant of the engine, [`HIDDEN`]: the embedded network's (256 for
//! the shipped one). The trainer may train any `H` and writes it in the file header
//! ([`QuantisedNet`] reads any); the engine rejects a file whose `H` differs from its own,
//! saying so. `B`, the number of output buckets, is 1, 2, 4 or 8
//! ([`OUTPUT_BUCKET_COUNTS`]) and read from the file.
//!
//! ## Features (768 per perspective)
//!
//! The network keeps one accumulator per *perspective* `p` (a colour). A piece of colour `c`
//! and role `r` (the [`tempo_core::Role`] order: Pawn = 0, Knight = 1, Bishop = 2, Rook = 3,
//! Queen = 4, King = 5) on square `s` (a1 = 0 .. h8 = 63) activates, in `p`'s accumulator,
//! feature
//!
//! ```text
//! index(p, c, r, s) = ((if c == p { 0 } else { 6 }) + r) * 64 + (if p == White { s } else { s ^ 56 })
//! ```
//!
//! that is "own pieces first, board seen from `p`'s side" (Black's view flips the ranks). At
//! most 32 features are active per perspective. Because each perspective sees the board from
//! its own side, one set of weights serves both colours, and the output layer only needs to
//! know which accumulator belongs to the side to move.
//!
//! A network with *mirrored inputs* (version 3, input mapping 1) also flips the files in
//! `p`'s view while `p`'s own king stands on files e to h:
//!
//! ```text
//! index(p, c, r, s) = ((if c == p { 0 } else { 6 }) + r) * 64 + (s ^ (if p == White { 0 } else { 56 }) ^ m_p)
//! m_p = 7 if the file of p's king is e, f, g or h (square index & 7 >= 4), else 0
//! ```
//!
//! so each perspective sees its king on files a to d, and the weights need not learn every
//! pattern on both wings. A king move between files d and e changes every feature of its
//! side's view: that accumulator is computed from scratch.
//!
//! A network with *king buckets* (version 3, input mapping 2, 4 x 768 = 3072 inputs) has
//! the mirrored features of the previous paragraph once per bucket of the rank of `p`'s own
//! king, counted from `p`'s side:
//!
//! ```text
//! index(p, c, r, s) = k_p * 768 + mirrored index(p, c, r, s)
//! k_p = [0, 1, 2, 2, 3, 3, 3, 3][rank of p's king from p's side, 0 = its first rank]
//!     = [0, 1, 2, 2, 3, 3, 3, 3][(king square ^ (if p == White { 0 } else { 56 })) >> 3]
//! ```
//!
//! so the weights of a piece can depend on whether its side's king is at home, one step up,
//! or out in the open. A king move into another bucket (or between files d and e) changes
//! every feature of its side's view, and that accumulator is computed from scratch.
//!
//! ## Output buckets
//!
//! The output layer has `B` sets of weights and biases; a position uses set
//! `b = output_bucket(n, B) = min((n - 2) / (32 / B), B - 1)` where `n` is the number of
//! pieces on the board, kings included ([`output_bucket`]). With `B = 8`: 2 to 5 pieces use
//! set 0, 6 to 9 set 1, ..., 30 to 32 set 7. The accumulators are shared, so buckets cost
//! nothing in the incremental updates.
//!
//! ## Float model (what the trainer optimises)
//!
//! ```text
//! acc_p[j]  = b1[j] + sum over active features f of W1[f][j]          (j in 0..H)
//! screlu(x) = clamp(x, 0, 1)^2
//! out       = sum_j screlu(acc_stm[j]) * W2[b][j] + sum_j screlu(acc_other[j]) * W2[b][H + j] + b2[b]
//! eval_cp   = out * 400                    (side-to-move centipawns; SCALE = 400)
//! ```
//!
//! The trainer clips every `W1`, `b1` and `W2` entry to `[-1.98, 1.98]` after each step, so
//! the quantised SIMD product below cannot overflow `i16`.
//!
//! ## Quantised model (what the engine computes), `QA = 255`, `QB` from the file
//!
//! ```text
//! W1q = round(W1 * QA) as i16,  b1q = round(b1 * QA) as i16
//! W2q = round(W2 * QB) as i16,  b2q = round(b2 * QA * QB) as i32
//! acc_p[j] = b1q[j] + sum W1q[f][j]           (i16 arithmetic)
//! v_p[j]   = clamp(acc_p[j], 0, QA)           (i32)
//! sum      = sum_j v_stm[j]*v_stm[j]*W2q[b][j] + sum_j v_other[j]*v_other[j]*W2q[b][H+j]   (i64)
//! out      = sum / QA + b2q[b]                (i64, integer division truncating toward zero)
//! eval_cp  = out * 400 / (QA * QB)            (i64, truncating)
//! ```
//!
//! `QB`, the output layer's quantisation, is chosen per bucket by the trainer and written
//! after the weights: the largest power of two from 64 to 4096 that keeps every `|W2q| <=
//! 127` of the bucket (64 always does, given the clipping). Output weights are small (a
//! tenth of the clip in the many-piece buckets), so 64 would leave them a few steps of
//! resolution each, and the rounding alone moved evaluations by a fifth of a pawn; the
//! engine reads any `QB` from 64 to 4096. In the formulas, `QB` is the position's bucket's.
//!
//! The SIMD form computes `v * W2q` in `i16` first, which fits since `|W2q| <= 127` and
//! `v <= 255`, then multiplies by `v` and adds pairs into eight `i32` lanes, which it sums in
//! `i64`: the same integer result as the formula. The engine enforces `|W2q| <= 127` when it
//! reads a file (the trainer's clipping guarantees it), so no lane can overflow for any `H`
//! up to 512 and a corrupt file cannot make the vector and scalar kernels disagree. The `i16` accumulator
//! arithmetic wraps (as the vector instructions do), so the incremental and from-scratch
//! accumulators agree even for a network whose weights could overflow.
//!
//! ## File format, version 3 (all integers little-endian)
//!
//! `I` is the input mapping's number of input features: 768 for plain and mirrored inputs,
//! 3072 for king buckets.
//!
//! ```text
//! offset  type            field
//! 0       [u8; 8]         magic b"TEMPONNU"
//! 8       u32             format version = 3
//! 12      u32             input features I = 768 x king buckets
//! 16      u32             hidden size H
//! 20      u32             activation: 1 = SCReLU (the only one supported)
//! 24      i32             QA = 255
//! 28      i32             0 (each bucket's QB follows the weights)
//! 32      i32             SCALE = 400
//! 36      u32             output buckets B: 1, 2, 4 or 8
//! 40      u32             input mapping: 0 = plain, 1 = mirrored by the own king's file,
//!                         2 = mirrored and 4 king buckets by the own king's rank
//! 44      i16[I * H]      W1q, feature-major: the H weights of feature f at [f*H .. f*H + H)
//!         i16[H]          b1q
//!         i16[B * 2 * H]  W2q, bucket by bucket: H for the side to move's accumulator, then
//!                         H for the other's
//!         i32[B]          b2q
//!         i32[B]          QB of each bucket, 64 to 4096
//! total size = 44 + 2*I*H + 2*H + B*(4*H + 8) bytes; any other size is an error.
//! ```
//!
//! An input count other than the mapping's is an error. Version 2 is the same without the
//! input mapping (plain inputs, I = 768, the weights at offset 40)
//! and with one `QB` for every bucket at offset 28 instead of the list; version 1 is version
//! 2 with one bucket and the field at offset 36 reserved (0). Both are still read, and a
//! network with plain inputs and one `QB` is written as version 2.
//!
//! [`QuantisedNet::from_bytes`] (and so [`Network::from_bytes`]) checks every header field,
//! the exact size and the `W2q` range, and names what is wrong ([`NetworkError`]).
//!
//! # How the engine uses it
//!
//! The accumulators are the expensive part (768 x H weights per king bucket) and change little from move
//! to move: a quiet move lifts one piece and puts it down elsewhere, so the child's
//! accumulator is the parent's minus one weight row plus another. The search keeps one pair
//! of accumulators per ply (`stack`) and updates the next ply's by the move's feature
//! changes whenever it makes a move (measured faster than deferring the update until an
//! evaluation is needed; `engine/nets/README.md` has the measurement). Only the root is computed from scratch (and, with
//! mirrored inputs, the view of a king that crosses between files d and e or, with king
//! buckets, changes bucket); a null move
//! copies. The output layer (2 x H multiply-adds) runs at every evaluation.
//!
//! Layout, one job per module: [`format`](mod@format) (the contract: features, buckets, constants, the
//! file, [`QuantisedNet`] and its reference evaluation), `network` (the weights laid out for
//! the kernels), `features` (a move's changes and a position's views), `accumulator` (a pair
//! of accumulators, from scratch or by a move's changes, and the output layer), `cache` (each
//! view's last accumulator, from which a king move that changes its side's view is computed
//! by the pieces that differ), `simd` (the vector kernels, AVX2
//! chosen at run time with a portable fallback), `stack` (the search's per-ply
//! accumulators).
//!
//! The engine embeds its current network ([`EMBEDDED_NETWORK`], a file of `engine/nets/`
//! whose lineage `engine/nets/README.md` records) and evaluates with it by default; UCI
//! `EvalFile` ([`crate::Engine::set_network`]) loads another, and `UseNNUE` off goes back to
//! the hand-crafted evaluation, which remains as the source of the first generation's games.

mod accumulator;
mod cache;
mod features;
pub mod format;
mod network;
mod simd;
pub(crate) mod stack;
#[cfg(test)]
mod tests;
#[cfg(test)]
pub(crate) use tests::random_network;

pub use format::{output_bucket, InputMapping, NetworkError, QuantisedNet, OUTPUT_BUCKET_COUNTS};
pub use network::{Network, NetworkOf};

use accumulator::Accumulator;
use format::QA;
use simd::Simd;
use std::sync::{Arc, OnceLock};
use tempo_core::Position;

/// Neurons in the hidden layer (per perspective): the `H` a network file must have for the
/// engine (the format and the trainer allow any). It is the embedded network's, read from
/// its header at compile time, so that a build embedding a wider network (`make
/// EVALFILE=<path>`, or another `SHIPPED`) is a build of that width with nothing else to
/// change. A file that is no network, or of a width the kernels do not support, stops the
/// build with a message.
pub const HIDDEN: usize = embedded_hidden(EMBEDDED);

/// The `H` field of a network file's header (bytes 16 to 19, little-endian, after the
/// magic, the version and the input count), checked as far as a build can check it.
const fn embedded_hidden(bytes: &[u8]) -> usize {
    assert!(bytes.len() >= 20, "the embedded network (EVALFILE) is too short to be a Tempo network");
    let mut i = 0;
    while i < format::MAGIC.len() {
        assert!(bytes[i] == format::MAGIC[i], "the embedded network (EVALFILE) is not a Tempo network file");
        i += 1;
    }
    let hidden = u32::from_le_bytes([bytes[16], bytes[17], bytes[18], bytes[19]]) as usize;
    assert!(
        hidden > 0 && hidden % 16 == 0 && hidden <= 512,
        "the engine's kernels take networks of 16 to 512 hidden neurons, a multiple of 16"
    );
    hidden
}

/// The file name of the network built into the engine: the shipped one in `engine/nets/`
/// (named in `engine/build.rs`), or the file of `EVALFILE` at build time.
pub const EMBEDDED_NETWORK: &str = env!("TEMPO_NETWORK_NAME");

/// The bytes of [`EMBEDDED_NETWORK`], chosen by `engine/build.rs`. A test checks that the
/// bytes parse and match the name.
pub(crate) const EMBEDDED: &[u8] = include_bytes!(env!("TEMPO_NETWORK_PATH"));

/// The parsed [`EMBEDDED`] network, parsed once.
///
/// # Panics
/// If the embedded bytes are not a valid network for this build (a test catches that).
pub(crate) fn embedded_network() -> Arc<Network> {
    static PARSED: OnceLock<Arc<Network>> = OnceLock::new();
    PARSED.get_or_init(|| Arc::new(Network::from_bytes(EMBEDDED).expect("the embedded network is valid"))).clone()
}

/// The network's evaluation of `pos`, in centipawns from the side to move's point of view,
/// computed from scratch exactly as the quantised model above says.
///
/// This is the reference the search's incremental evaluation must equal. It is not clamped:
/// the search bounds the value into its non-mate range itself.
pub fn nnue_evaluate<const H: usize>(network: &NetworkOf<H>, pos: &Position) -> i32 {
    let simd = Simd::detect();
    Accumulator::refresh(network, pos, simd).evaluate(network, pos, simd)
}
