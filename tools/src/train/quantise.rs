//! The quantised network file, format version 3 (version 2 for plain inputs and one output
//! quantisation): what the engine loads.
//!
//! Quantisation (`QA = 255`, `QB` chosen per output bucket by [`output_scales`], rounding
//! half away from zero):
//!
//! ```text
//! W1q = round(W1 * QA) as i16,  b1q = round(b1 * QA) as i16
//! W2q = round(W2 * QB) as i16,  b2q = round(b2 * QA * QB) as i32
//! ```
//!
//! and the engine computes, in integers,
//!
//! ```text
//! acc_p[j] = b1q[j] + sum W1q[f][j]                                   (i16)
//! v_p[j]   = clamp(acc_p[j], 0, QA)                                   (i32)
//! b        = output_bucket(pieces on the board, B)
//! sum      = sum_j v_stm[j]^2 * W2q[b][j] + sum_j v_other[j]^2 * W2q[b][H + j]
//! out      = sum / QA + b2q[b]              (division truncating toward zero)
//! eval_cp  = out * 400 / (QA * QB)          (truncating)
//! ```
//!
//! File layout, every integer little-endian:
//!
//! ```text
//! offset  type            field
//! 0       [u8; 8]         magic b"TEMPONNU"
//! 8       u32             format version = 3
//! 12      u32             input features = 768
//! 16      u32             hidden size H
//! 20      u32             activation: 1 = SCReLU (the only one supported)
//! 24      i32             QA = 255
//! 28      i32             0 (each bucket's QB follows the weights)
//! 32      i32             SCALE = 400
//! 36      u32             output buckets B: 1, 2, 4 or 8
//! 40      u32             input mapping: 0 = plain, 1 = mirrored by the own king's file
//! 44      i16[768 * H]    W1q, feature-major: the H weights of feature f at [f*H .. f*H + H)
//!         i16[H]          b1q
//!         i16[B * 2 * H]  W2q, bucket by bucket: H for the side to move's accumulator, then
//!                         H for the other's
//!         i32[B]          b2q
//!         i32[B]          QB of each bucket: a power of two from 64 to 4096
//! ```
//!
//! The weights were clipped to `[-1.98, 1.98]` in training, so at `QB = 64` every `|W2q| <=
//! 127` and the engine's `v * W2q` fits `i16`. Trained output weights stay far inside the
//! clip (a tenth of it in the many-piece buckets), and at 64 they would keep only a few
//! steps of resolution each: rounding them alone moved the start position's evaluation by
//! 23 cp in a 256-neuron network. So each bucket's `QB` is the largest power of two up to
//! 4096 at which its weights still round into `-127..=127`. A network with plain inputs and
//! one `QB` for all buckets is written as version 2: without the input mapping field (the
//! weights at offset 40), with that `QB` at offset 28 and no list at the end, which every
//! engine since the format's second version loads.

use super::data::{Dataset, Inputs, INPUTS};
use super::model::{Activation, Network, Shape, SCALE};
use anyhow::{bail, Result};
use rayon::prelude::*;
use tempo_engine::output_bucket;

/// The file's first eight bytes.
pub const MAGIC: &[u8; 8] = b"TEMPONNU";
/// The newest format version (mirrored inputs need it).
pub const VERSION: u32 = 3;
/// Quantisation of the first layer (and of the activations).
pub const QA: i32 = 255;
/// The output weights' quantisation ranges from this (always enough, given the clip) ...
pub const QB_MIN: i32 = 64;
/// ... to this.
pub const QB_MAX: i32 = 4096;
/// Bytes before the weights in version 2; version 3 adds the input mapping.
pub const HEADER_SIZE: usize = 40;

/// The format version `net` is written in: the oldest that holds it.
pub fn version(net: &Network) -> u32 {
    let scales = output_scales(net);
    if net.shape().inputs == Inputs::Plain && scales.iter().all(|&qb| qb == scales[0]) {
        2
    } else {
        VERSION
    }
}

/// Bytes before the weights in a file of `version`.
fn header_size(version: u32) -> usize {
    if version >= 3 {
        HEADER_SIZE + 4
    } else {
        HEADER_SIZE
    }
}

/// The size of a file of `version` for `hidden` neurons and `buckets` output buckets.
pub fn file_size(version: u32, hidden: usize, buckets: usize) -> usize {
    let scales = if version >= 3 { 4 * buckets } else { 0 };
    header_size(version) + 2 * INPUTS * hidden + 2 * hidden + buckets * (4 * hidden + 4) + scales
}

fn q16(x: f32, factor: i32) -> i16 {
    (x * factor as f32).round() as i16
}

/// The output quantisation `QB` of each of `net`'s buckets: the largest power of two from
/// [`QB_MIN`] to [`QB_MAX`] at which every output weight of the bucket rounds into
/// `-127..=127`.
pub fn output_scales(net: &Network) -> Vec<i32> {
    let (_, _, w2, _) = net.parts();
    w2.chunks(2 * net.hidden())
        .map(|bucket| {
            let largest = bucket.iter().fold(0.0f32, |m, w| m.max(w.abs()));
            let mut qb = QB_MAX;
            while qb > QB_MIN && (largest * qb as f32).round() > 127.0 {
                qb /= 2;
            }
            qb
        })
        .collect()
}

/// A network's integer weights, rounded as the file stores them: what the engine computes
/// with.
pub struct Quantised {
    shape: Shape,
    /// `W1q` then `b1q`, feature-major.
    w1: Vec<i16>,
    /// `W2q`, bucket-major.
    w2: Vec<i16>,
    /// `b2q` per bucket.
    b2: Vec<i32>,
    /// `QB` per bucket.
    scales: Vec<i32>,
}

impl Quantised {
    /// `net` rounded to the format's integers.
    pub fn of(net: &Network) -> Quantised {
        let scales = output_scales(net);
        let (w1, b1, w2, b2) = net.parts();
        let w2 =
            w2.chunks(2 * net.hidden()).zip(&scales).flat_map(|(bucket, &qb)| bucket.iter().map(move |&w| q16(w, qb)));
        Quantised {
            shape: net.shape(),
            w1: w1.iter().chain(b1).map(|&w| q16(w, QA)).collect(),
            w2: w2.collect(),
            b2: b2.iter().zip(&scales).map(|(&b, &qb)| (b * (QA * qb) as f32).round() as i32).collect(),
            scales,
        }
    }

    /// The engine's evaluation in centipawns, side to move, of the position whose active
    /// features (under the network's input mapping) are `stm` and `other`: the integer
    /// formula of the module documentation.
    pub fn eval_cp(&self, stm: &[u16], other: &[u16]) -> i32 {
        let h = self.shape.hidden;
        let bias = &self.w1[INPUTS * h..];
        let accumulator = |features: &[u16]| -> Vec<i16> {
            let mut acc = bias.to_vec();
            for &f in features {
                let row = &self.w1[usize::from(f) * h..(usize::from(f) + 1) * h];
                acc.iter_mut().zip(row).for_each(|(a, &w)| *a = a.wrapping_add(w));
            }
            acc
        };
        let bucket = output_bucket(stm.len(), self.shape.buckets);
        let w2 = &self.w2[2 * h * bucket..2 * h * (bucket + 1)];
        let activated = |acc: Vec<i16>, weights: &[i16]| -> i64 {
            acc.iter()
                .zip(weights)
                .map(|(&a, &w)| {
                    let v = i64::from(a).clamp(0, i64::from(QA));
                    v * v * i64::from(w)
                })
                .sum()
        };
        let sum = activated(accumulator(stm), &w2[..h]) + activated(accumulator(other), &w2[h..]);
        let out = sum / i64::from(QA) + i64::from(self.b2[bucket]);
        (out * SCALE as i64 / i64::from(QA * self.scales[bucket])) as i32
    }
}

/// At most this many positions, evenly spaced through the set, measure the rounding.
const ROUNDING_SAMPLE: usize = 100_000;

/// What rounding to the file's integers costs: the mean absolute difference in centipawns
/// between the float network's evaluation and the engine's of the written file, over up
/// to 100,000 positions of `data` spread through it, and how many were measured.
pub fn rounding_error(net: &Network, data: &Dataset) -> (f64, usize) {
    let quantised = Quantised::of(net);
    let step = data.len().div_ceil(ROUNDING_SAMPLE).max(1);
    let indices: Vec<u32> = (0..data.len() as u32).step_by(step).collect();
    let total: f64 = indices
        .par_chunks(4096)
        .map(|chunk| {
            let gathered = data.gather(chunk, None, net.shape().inputs, 0.0);
            gathered
                .positions()
                .map(|(stm, other, _)| {
                    f64::from(
                        (net.output(stm, other) * super::model::SCALE - quantised.eval_cp(stm, other) as f32).abs(),
                    )
                })
                .sum::<f64>()
        })
        .sum();
    (total / indices.len().max(1) as f64, indices.len())
}

/// The network quantised into a file, version 3 for mirrored inputs and 2 for plain ones.
/// Only SCReLU networks can be written.
pub fn write(net: &Network) -> Result<Vec<u8>> {
    if net.activation() != Activation::Screlu {
        bail!("the network file format supports only the SCReLU activation, not {:?}", net.activation());
    }
    let Shape { hidden: h, buckets, inputs } = net.shape();
    let version = version(net);
    let quantised = Quantised::of(net);
    let mut out = Vec::with_capacity(file_size(version, h, buckets));
    out.extend_from_slice(MAGIC);
    for word in [version, INPUTS as u32, h as u32, Activation::Screlu.code()] {
        out.extend_from_slice(&word.to_le_bytes());
    }
    let header_qb = if version >= 3 { 0 } else { quantised.scales[0] };
    for word in [QA, header_qb, SCALE as i32] {
        out.extend_from_slice(&word.to_le_bytes());
    }
    out.extend_from_slice(&(buckets as u32).to_le_bytes());
    if version >= 3 {
        out.extend_from_slice(&inputs.code().to_le_bytes());
    }
    for w in quantised.w1.iter().chain(&quantised.w2) {
        out.extend_from_slice(&w.to_le_bytes());
    }
    for b in &quantised.b2 {
        out.extend_from_slice(&b.to_le_bytes());
    }
    if version >= 3 {
        for qb in &quantised.scales {
            out.extend_from_slice(&qb.to_le_bytes());
        }
    }
    debug_assert_eq!(out.len(), file_size(version, h, buckets));
    Ok(out)
}

/// The float network a version 2 or 3 file holds: every weight divided by its quantisation
/// factor, the exact inverse of [`write()`] on the quantisation grid. This is how a shipped
/// network (only its quantised file is kept in the repository) is fine-tuned by a later
/// generation (`train --init net.nnue`).
///
/// # Errors
/// If the bytes are not a version 2 or 3 file of 768 inputs, SCReLU and this trainer's `QA`,
/// scale and a `QB` from 64 to 4096, if its shape or input mapping is one the trainer cannot have, or if its
/// size is not the one its header implies.
pub fn read(bytes: &[u8]) -> Result<Network> {
    if bytes.len() < HEADER_SIZE || &bytes[..8] != MAGIC {
        bail!("not a Tempo network file (no {:?} header)", String::from_utf8_lossy(MAGIC));
    }
    let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("four bytes"));
    let (version, inputs, hidden, activation) = (word(8), word(12), word(16) as usize, word(20));
    let (qa, qb, scale, buckets) = (word(24) as i32, word(28) as i32, word(32) as i32, word(36) as usize);
    if !(2..=VERSION).contains(&version) {
        bail!("network format version {version}; this trainer reads versions 2 and {VERSION}");
    }
    if bytes.len() < header_size(version) {
        bail!("the network file has {} bytes, too few for a version {version} header", bytes.len());
    }
    if inputs as usize != INPUTS || Activation::from_code(activation) != Some(Activation::Screlu) {
        bail!("the network has {inputs} inputs and activation code {activation}; the trainer has {INPUTS} and SCReLU");
    }
    let header_qb_valid = if version >= 3 { qb == 0 } else { (QB_MIN..=QB_MAX).contains(&qb) };
    if (qa, scale) != (QA, SCALE as i32) || !header_qb_valid {
        bail!(
            "the network is quantised with QA {qa}, QB {qb}, scale {scale}; the trainer uses QA {QA}, QB {QB_MIN} to {QB_MAX}, scale {SCALE}"
        );
    }
    let mapping = if version >= 3 { word(40) } else { Inputs::Plain.code() };
    let Some(inputs) = Inputs::from_code(mapping) else {
        bail!("the network has input mapping {mapping}; the trainer knows 0 (plain) and 1 (mirrored)");
    };
    let shape = Shape { hidden, buckets, inputs };
    if !shape.is_valid() {
        bail!("the network has {hidden} hidden neurons and {buckets} output buckets, a shape the trainer cannot have");
    }
    let size = file_size(version, hidden, buckets);
    if bytes.len() != size {
        bail!("the network file has {} bytes; its header implies {size}", bytes.len());
    }
    let body = &bytes[header_size(version)..];
    let i16_count = shape.output_start() + 2 * hidden * buckets;
    let (weights, rest) = body.split_at(2 * i16_count);
    let (biases, listed) = rest.split_at(4 * buckets);
    let int = |quad: &[u8]| i32::from_le_bytes(quad.try_into().expect("four bytes"));
    let scales: Vec<i32> = if version >= 3 { listed.chunks_exact(4).map(int).collect() } else { vec![qb; buckets] };
    if let Some(qb) = scales.iter().find(|qb| !(QB_MIN..=QB_MAX).contains(qb)) {
        bail!("the network has an output bucket quantised with QB {qb}; the trainer uses {QB_MIN} to {QB_MAX}");
    }
    let mut params = Vec::with_capacity(shape.param_count());
    for (k, pair) in weights.chunks_exact(2).enumerate() {
        let factor = match k.checked_sub(shape.output_start()) {
            None => QA,
            Some(output) => scales[output / (2 * hidden)],
        };
        params.push(f32::from(i16::from_le_bytes([pair[0], pair[1]])) / factor as f32);
    }
    for (quad, qb) in biases.chunks_exact(4).zip(&scales) {
        params.push(int(quad) as f32 / (QA * qb) as f32);
    }
    Ok(Network::from_params(shape, Activation::Screlu, params))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::data::{position_features, MAX_ACTIVE};
    use crate::train::rng::Rng;
    use tempo_core::Position;

    fn u32_at(bytes: &[u8], at: usize) -> u32 {
        u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
    }

    fn i32_at(bytes: &[u8], at: usize) -> i32 {
        i32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
    }

    fn i16_at(bytes: &[u8], at: usize) -> i16 {
        i16::from_le_bytes(bytes[at..at + 2].try_into().unwrap())
    }

    /// The engine's integer evaluation, written from the format description: reads the file
    /// and computes with `i16` accumulators and `i64` sums, truncating divisions.
    fn reference_eval(file: &[u8], pos: &Position) -> i32 {
        let h = u32_at(file, 16) as usize;
        let (qa, scale) = (i32_at(file, 24), i32_at(file, 32));
        let buckets = u32_at(file, 36) as usize;
        let v3 = u32_at(file, 8) == 3;
        let (start, mirrored) = if v3 { (44, u32_at(file, 40) == 1) } else { (40, false) };
        let pieces = pos.occupied().count() as usize;
        let bucket = ((pieces - 2) / (32 / buckets)).min(buckets - 1);
        // Version 3 lists each bucket's QB at the end; version 2 has one in the header.
        let qb = if v3 { i32_at(file, file.len() - 4 * (buckets - bucket)) } else { i32_at(file, 28) };
        let w1 = |f: usize, j: usize| i16_at(file, start + 2 * (f * h + j));
        let b1 = |j: usize| i16_at(file, start + 2 * (768 * h + j));
        let w2 = |j: usize| i32::from(i16_at(file, start + 2 * (769 * h + bucket * 2 * h + j)));
        let b2 = i32_at(file, start + 2 * 769 * h + 4 * buckets * h + 4 * bucket);
        let accumulator = |perspective| {
            let mut features = [0u16; MAX_ACTIVE];
            let n = position_features(pos, perspective, Inputs::Plain, &mut features);
            // The format's file flip, by hand: the perspective's king on files e to h.
            if mirrored && pos.king_of(perspective).index() % 8 >= 4 {
                features.iter_mut().for_each(|f| *f ^= 7);
            }
            (0..h)
                .map(|j| features[..n].iter().fold(b1(j), |acc, &f| acc.wrapping_add(w1(usize::from(f), j))))
                .collect::<Vec<i16>>()
        };
        let (stm, other) = (accumulator(pos.turn()), accumulator(!pos.turn()));
        let mut sum = 0i64;
        for j in 0..h {
            let v = i32::from(stm[j]).clamp(0, qa);
            sum += i64::from(v * v * w2(j));
            let v = i32::from(other[j]).clamp(0, qa);
            sum += i64::from(v * v * w2(h + j));
        }
        let out = sum / i64::from(qa) + i64::from(b2);
        (out * i64::from(scale) / i64::from(qa * qb)) as i32
    }

    /// Positions from random games (uniform legal moves), a few hundred.
    fn random_positions(count: usize, seed: u64) -> Vec<Position> {
        let mut rng = Rng::new(seed);
        let mut positions = Vec::new();
        while positions.len() < count {
            let mut pos = Position::startpos();
            for _ in 0..rng.below(120) {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[rng.below(moves.len())]);
            }
            positions.push(pos);
        }
        positions
    }

    /// A network whose first-layer weights are uniform in `±w1` and output weights in `±w2`.
    fn network(shape: Shape, seed: u64, w1: f32, w2: f32) -> Network {
        let mut net = Network::random(shape, Activation::Screlu, seed);
        let mut rng = Rng::new(seed ^ 1);
        let params = net.params_mut();
        let w2_start = shape.output_start();
        for (k, p) in params.iter_mut().enumerate() {
            let bound = if k < w2_start { w1 } else { w2 };
            *p = (rng.unit() * 2.0 - 1.0) * bound;
        }
        net
    }

    /// The network with every weight moved to the nearest value the file can represent.
    fn snapped(net: &Network) -> Network {
        let shape = net.shape();
        let scales = output_scales(net);
        let outputs = shape.output_start() + 2 * shape.hidden * shape.buckets;
        let mut snapped = net.clone();
        for (k, p) in snapped.params_mut().iter_mut().enumerate() {
            let factor = if k < shape.output_start() {
                QA as f32
            } else if k < outputs {
                scales[(k - shape.output_start()) / (2 * shape.hidden)] as f32
            } else {
                (QA * scales[k - outputs]) as f32
            };
            *p = (*p * factor).round() / factor;
        }
        snapped
    }

    #[test]
    fn the_file_has_the_exact_header_and_size() {
        for (hidden, buckets, inputs) in
            [(16, 1, Inputs::Plain), (128, 1, Inputs::Plain), (16, 8, Inputs::Plain), (16, 8, Inputs::Mirrored)]
        {
            let net = network(Shape { hidden, buckets, inputs }, 3, 0.25, 1.98);
            let file = write(&net).unwrap();
            let (version, start, listed) = if inputs == Inputs::Mirrored { (3, 44, 4 * buckets) } else { (2, 40, 0) };
            assert_eq!(file.len(), start + 2 * 768 * hidden + 2 * hidden + buckets * (4 * hidden + 4) + listed);
            assert_eq!(file.len(), file_size(version, hidden, buckets));
            assert_eq!(&file[..8], b"TEMPONNU");
            let header: Vec<u32> = (8..start).step_by(4).map(|at| u32_at(&file, at)).collect();
            let qb = if version == 3 { 0 } else { 64 };
            let mut expected = vec![version, 768, hidden as u32, 1, 255, qb, 400, buckets as u32];
            if version == 3 {
                expected.push(1);
                let scales: Vec<u32> =
                    (file.len() - listed..file.len()).step_by(4).map(|at| u32_at(&file, at)).collect();
                assert_eq!(scales, vec![64; buckets]);
            }
            assert_eq!(header, expected);
            // First weights and last field at their offsets.
            let (w1, b1, w2, b2) = net.parts();
            assert_eq!(i16_at(&file, start), (w1[0] * 255.0).round() as i16);
            assert_eq!(i16_at(&file, start + 2 * 768 * hidden), (b1[0] * 255.0).round() as i16);
            assert_eq!(i16_at(&file, start + 2 * 769 * hidden + 2), (w2[1] * 64.0).round() as i16);
            assert_eq!(i32_at(&file, file.len() - 4 - listed), (b2[buckets - 1] * 255.0 * 64.0).round() as i32);
        }
        let crelu = Network::random(Shape { hidden: 8, buckets: 1, inputs: Inputs::Plain }, Activation::Crelu, 1);
        assert!(write(&crelu).unwrap_err().to_string().contains("SCReLU"));
    }

    #[test]
    fn the_float_model_the_format_and_the_engine_agree() {
        // The engine's own size (where it can load the file too) and a smaller one.
        let engine_hidden = tempo_engine::HIDDEN;
        for (hidden, buckets, inputs, seed) in [
            (engine_hidden, 8, Inputs::Plain, 11),
            (engine_hidden, 1, Inputs::Plain, 13),
            (engine_hidden, 8, Inputs::Mirrored, 14),
            (32, 4, Inputs::Plain, 12),
            (32, 4, Inputs::Mirrored, 15),
        ] {
            let shape = Shape { hidden, buckets, inputs };
            let positions = random_positions(300, seed);
            // On the quantisation grid, only the integer divisions' truncations separate them.
            let net = snapped(&network(shape, seed, 0.25, 1.98));
            let file = write(&net).unwrap();
            // The engine loads what the trainer writes (at the engine's hidden size) and
            // computes exactly the integer formula of the format.
            let engine = (hidden == tempo_engine::HIDDEN).then(|| tempo_engine::Network::from_bytes(&file).unwrap());
            for pos in &positions {
                let (float, quantised) = (net.float_eval_cp(pos), reference_eval(&file, pos));
                assert!((float - quantised as f32).abs() <= 1.5, "H {hidden}: {float} {quantised} {}", pos.fen());
                if let Some(engine) = &engine {
                    assert_eq!(tempo_engine::nnue_evaluate(engine, pos), quantised, "{}", pos.fen());
                }
            }
            // Off the grid, rounding the weights costs a few cp more: each accumulator is off by
            // about sqrt(30) * 0.5 / 255 (30 pieces), and 2 x H such independent errors add up in
            // the output, so the allowance grows as sqrt(H): 5 cp on average at 128 neurons. The
            // worst of 300 positions lies in the tail (the many-piece positions), and its bound is
            // there to catch what is systematic (an overflow, a wrong rounding), which costs
            // hundreds of cp, not to measure the tail.
            let net = network(shape, seed, 0.1, 0.5);
            let file = write(&net).unwrap();
            let engine = (hidden == tempo_engine::HIDDEN).then(|| tempo_engine::Network::from_bytes(&file).unwrap());
            let (mut worst, mut total) = (0.0f32, 0.0f32);
            for pos in &positions {
                let quantised = reference_eval(&file, pos);
                if let Some(engine) = &engine {
                    assert_eq!(tempo_engine::nnue_evaluate(engine, pos), quantised, "{}", pos.fen());
                }
                let difference = (net.float_eval_cp(pos) - quantised as f32).abs();
                worst = worst.max(difference);
                total += difference;
            }
            let mean = total / positions.len() as f32;
            let allowance = (hidden as f32 / 128.0).sqrt().max(1.0);
            assert!(
                mean <= 5.0 * allowance && worst <= 40.0 * allowance,
                "H {hidden}: difference mean {mean} cp, worst {worst} cp"
            );
        }
    }

    /// The trainer's integer evaluation is the engine's, and what `rounding_error` reports is
    /// the mean of the float-to-integer differences.
    #[test]
    fn the_integer_network_is_the_engines_and_its_rounding_is_measured() {
        let shape = Shape { hidden: tempo_engine::HIDDEN, buckets: 8, inputs: Inputs::Mirrored };
        let mut net = network(shape, 17, 0.05, 1.5);
        let start = shape.output_start();
        let per_bucket = 2 * shape.hidden;
        for (k, w) in net.params_mut()[start..start + 8 * per_bucket].iter_mut().enumerate() {
            *w /= (1 << (k / per_bucket)) as f32;
        }
        let quantised = Quantised::of(&net);
        let engine = tempo_engine::Network::from_bytes(&write(&net).unwrap()).unwrap();
        let positions = random_positions(100, 17);
        let mut data = Dataset::new();
        let mut total = 0.0;
        for pos in &positions {
            let (mut stm, mut other) = ([0u16; MAX_ACTIVE], [0u16; MAX_ACTIVE]);
            let n = position_features(pos, pos.turn(), Inputs::Mirrored, &mut stm);
            position_features(pos, !pos.turn(), Inputs::Mirrored, &mut other);
            let integer = quantised.eval_cp(&stm[..n], &other[..n]);
            assert_eq!(integer, tempo_engine::nnue_evaluate(&engine, pos), "{}", pos.fen());
            total += f64::from((net.float_eval_cp(pos) - integer as f32).abs());
            data.push(pos, 0, 0.5);
        }
        let (error, count) = rounding_error(&net, &data);
        assert_eq!(count, positions.len());
        assert!((error - total / positions.len() as f64).abs() < 1e-6 && error > 0.0, "{error}");
    }

    /// Output weights as small as trained ones get a finer `QB`, bucket by bucket, which the
    /// engine reads, and the rounding costs a fraction of what it costs at 64.
    #[test]
    fn small_output_weights_get_a_finer_output_scale() {
        let shape = Shape { hidden: tempo_engine::HIDDEN, buckets: 8, inputs: Inputs::Plain };
        assert_eq!(output_scales(&network(shape, 16, 0.05, 1.98)), [64; 8]);
        // Bucket b's output weights within 1.5 / 2^b: QB 64 for bucket 0, 4096 from bucket 6.
        let mut net = network(shape, 16, 0.05, 1.5);
        let start = shape.output_start();
        let per_bucket = 2 * shape.hidden;
        for (k, w) in net.params_mut()[start..start + 8 * per_bucket].iter_mut().enumerate() {
            *w /= (1 << (k / per_bucket)) as f32;
        }
        assert_eq!(output_scales(&net), [64, 128, 256, 512, 1024, 2048, 4096, 4096]);
        let file = write(&net).unwrap();
        assert_eq!((u32_at(&file, 8), i32_at(&file, 28)), (3, 0));
        assert_eq!(write(&read(&file).unwrap()).unwrap(), file);
        let engine = tempo_engine::Network::from_bytes(&file).unwrap();
        assert_eq!((0..8).map(|b| engine.output_scale(b)).collect::<Vec<_>>(), output_scales(&net));
        // The same weights' output layer rounded at 64 instead, by hand.
        let mut coarse = net.clone();
        for w in &mut coarse.params_mut()[start..start + 8 * per_bucket] {
            *w = (*w * 64.0).round() / 64.0;
        }
        let positions = random_positions(200, 16);
        let mean_error = |reference: &Network| {
            let total: f32 = positions
                .iter()
                .map(|p| {
                    let quantised = tempo_engine::nnue_evaluate(&engine, p);
                    assert_eq!(quantised, reference_eval(&file, p), "{}", p.fen());
                    (reference.float_eval_cp(p) - quantised as f32).abs()
                })
                .sum();
            total / positions.len() as f32
        };
        let (fine, rounded_at_64) = (mean_error(&net), mean_error(&coarse));
        assert!(fine < 5.0 && rounded_at_64 > 1.5 * fine, "mean error {fine} cp; at QB 64 {rounded_at_64} cp");
    }

    #[test]
    fn reading_a_file_gives_back_the_network_on_the_quantisation_grid() {
        for (hidden, buckets, inputs, seed) in
            [(16, 8, Inputs::Plain, 21), (32, 1, Inputs::Plain, 22), (16, 4, Inputs::Mirrored, 23)]
        {
            let net = snapped(&network(Shape { hidden, buckets, inputs }, seed, 0.25, 1.98));
            let file = write(&net).unwrap();
            assert_eq!(read(&file).unwrap(), net);
            assert_eq!(write(&read(&file).unwrap()).unwrap(), file);
        }
    }

    #[test]
    fn a_damaged_file_is_an_error() {
        let file = write(&network(Shape { hidden: 16, buckets: 2, inputs: Inputs::Plain }, 5, 0.25, 1.98)).unwrap();
        for cut in [0, 7, 39, 40, file.len() - 1] {
            assert!(read(&file[..cut]).is_err(), "{cut} bytes");
        }
        let mut longer = file.clone();
        longer.push(0);
        assert!(read(&longer).unwrap_err().to_string().contains("header implies"));
        for (at, value, words) in [(8, 1, "version"), (12, 769, "inputs"), (20, 2, "activation"), (24, 256, "QA")] {
            let mut damaged = file.clone();
            damaged[at..at + 4].copy_from_slice(&(value as u32).to_le_bytes());
            assert!(read(&damaged).unwrap_err().to_string().contains(words), "{words}");
        }
        let mut odd = file.clone();
        odd[16..20].copy_from_slice(&12u32.to_le_bytes());
        assert!(read(&odd).unwrap_err().to_string().contains("shape"));
        let mirrored =
            write(&network(Shape { hidden: 16, buckets: 2, inputs: Inputs::Mirrored }, 5, 0.25, 1.98)).unwrap();
        for cut in [40, 43, mirrored.len() - 1] {
            assert!(read(&mirrored[..cut]).is_err(), "{cut} bytes");
        }
        let mut damaged = mirrored.clone();
        damaged[40..44].copy_from_slice(&2u32.to_le_bytes());
        assert!(read(&damaged).unwrap_err().to_string().contains("input mapping 2"));
    }

    proptest::proptest! {
        #[test]
        fn network_files_never_panic_the_reader(
            noise in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..300),
            word in 0usize..9,
            value in proptest::prelude::any::<u32>(),
            cut in proptest::prelude::any::<usize>(),
        ) {
            let mut prefixed = MAGIC.to_vec();
            prefixed.extend_from_slice(&noise);
            let _ = read(&prefixed);
            let inputs = if word % 2 == 0 { Inputs::Plain } else { Inputs::Mirrored };
            let mut file = write(&network(Shape { hidden: 8, buckets: 2, inputs }, 7, 0.25, 1.98)).unwrap();
            file[8 + 4 * word..12 + 4 * word].copy_from_slice(&value.to_le_bytes());
            let cut = cut % (file.len() + 1);
            let _ = read(&file[..cut]);
            let _ = read(&file);
        }
    }
}
