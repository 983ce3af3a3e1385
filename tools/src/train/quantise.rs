//! The float network rounded to the network file's integers: the trainer's half of the
//! format, which is written once, in the engine's `nnue::format` (the layout, the reader,
//! the writer and the integer evaluation of [`QuantisedNet`]).
//!
//! Quantisation (`QA = 255`, `QB` chosen per output bucket by [`output_scales`], rounding
//! half away from zero):
//!
//! ```text
//! W1q = round(W1 * QA) as i16,  b1q = round(b1 * QA) as i16
//! W2q = round(W2 * QB) as i16,  b2q = round(b2 * QA * QB) as i32
//! ```
//!
//! The weights were clipped to `[-CLIP, CLIP]` in training, so at the smallest `QB` every
//! `|W2q|` is at most the format's largest output weight. Trained output weights stay far
//! inside the clip, and at the smallest `QB` they would keep only a few steps of resolution
//! each, so each bucket's `QB` is the largest power of two in the format's range at which
//! its weights still round into the allowed range (`engine/nets/README.md` has the
//! measurement).

use super::data::{Dataset, Target};
use super::model::{Activation, Network, Shape, CLIP};
use anyhow::{bail, Result};
use rayon::prelude::*;
use tempo_engine::nnue::format::{QuantisedNet, MAX_OUTPUT_WEIGHT, QA, QB_RANGE, SCALE};

// The clip keeps every output weight within the format's range at the coarsest QB.
const _: () = assert!((CLIP * *QB_RANGE.start() as f32) < MAX_OUTPUT_WEIGHT as f32 + 0.5);

fn q16(x: f32, factor: i32) -> i16 {
    (x * factor as f32).round() as i16
}

/// The output quantisation `QB` of each of `net`'s buckets: the largest power of two in the
/// format's range at which every output weight of the bucket rounds into
/// `-MAX_OUTPUT_WEIGHT..=MAX_OUTPUT_WEIGHT`.
pub fn output_scales(net: &Network) -> Vec<i32> {
    let (_, _, w2, _) = net.parts();
    w2.chunks(2 * net.hidden())
        .map(|bucket| {
            let largest = bucket.iter().fold(0.0f32, |m, w| m.max(w.abs()));
            let mut qb = *QB_RANGE.end();
            while qb > *QB_RANGE.start() && (largest * qb as f32).round() > f32::from(MAX_OUTPUT_WEIGHT) {
                qb /= 2;
            }
            qb
        })
        .collect()
}

/// `net` rounded to the format's integers: what the engine computes with.
pub fn quantise(net: &Network) -> QuantisedNet {
    let scales = output_scales(net);
    let (w1, b1, w2, b2) = net.parts();
    let w2 = w2.chunks(2 * net.hidden()).zip(&scales).flat_map(|(bucket, &qb)| bucket.iter().map(move |&w| q16(w, qb)));
    QuantisedNet {
        hidden: net.hidden(),
        mapping: net.shape().inputs,
        w1: w1.iter().map(|&w| q16(w, QA)).collect(),
        b1: b1.iter().map(|&w| q16(w, QA)).collect(),
        w2: w2.collect(),
        b2: b2.iter().zip(&scales).map(|(&b, &qb)| (b * (QA * qb) as f32).round() as i32).collect(),
        qb: scales,
    }
}

/// At most this many positions, evenly spaced through the set, measure the rounding.
const ROUNDING_SAMPLE: usize = 100_000;

/// What rounding to the file's integers costs: the mean absolute difference in centipawns
/// between the float network's evaluation and the engine's of the written file, over up
/// to 100,000 positions of `data` spread through it, and how many were measured.
pub fn rounding_error(net: &Network, data: &Dataset) -> (f64, usize) {
    let quantised = quantise(net);
    let step = data.len().div_ceil(ROUNDING_SAMPLE).max(1);
    let indices: Vec<u32> = (0..data.len() as u32).step_by(step).collect();
    let total: f64 = indices
        .par_chunks(4096)
        .map(|chunk| {
            let gathered = data.gather(chunk, None, net.shape().inputs, Target::new(0.0));
            gathered
                .positions()
                .map(|(stm, other, _)| {
                    let integer = quantised.evaluate_features(stm, other);
                    f64::from((net.output(stm, other) * SCALE as f32 - integer as f32).abs())
                })
                .sum::<f64>()
        })
        .sum();
    (total / indices.len().max(1) as f64, indices.len())
}

/// The network quantised into a file, in the oldest format version that holds it (version 2
/// for plain inputs and one `QB`, version 3 otherwise). Only SCReLU networks can be written.
///
/// # Errors
/// If the network's activation is not SCReLU.
pub fn write(net: &Network) -> Result<Vec<u8>> {
    if net.activation() != Activation::Screlu {
        bail!("the network file format supports only the SCReLU activation, not {:?}", net.activation());
    }
    Ok(quantise(net).to_bytes())
}

/// The float network a network file holds: every weight divided by its quantisation
/// factor, the exact inverse of [`write()`] on the quantisation grid. This is how a shipped
/// network (only its quantised file is kept in the repository) is fine-tuned by a later
/// generation (`train --init net.nnue`).
///
/// # Errors
/// If the bytes are not a network file (the format's reader says why), or if its shape is
/// one the trainer cannot have.
pub fn read(bytes: &[u8]) -> Result<Network> {
    let file = QuantisedNet::from_bytes(bytes)?;
    let (hidden, buckets) = (file.hidden, file.buckets());
    let shape = Shape { hidden, buckets, inputs: file.mapping };
    if !shape.is_valid() {
        bail!("the network has {hidden} hidden neurons and {buckets} output buckets, a shape the trainer cannot have");
    }
    let mut params = Vec::with_capacity(shape.param_count());
    params.extend(file.w1.iter().chain(&file.b1).map(|&w| f32::from(w) / QA as f32));
    for (bucket, &qb) in file.w2.chunks(2 * hidden).zip(&file.qb) {
        params.extend(bucket.iter().map(|&w| f32::from(w) / qb as f32));
    }
    params.extend(file.b2.iter().zip(&file.qb).map(|(&b, &qb)| b as f32 / (QA * qb) as f32));
    Ok(Network::from_params(shape, Activation::Screlu, params))
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::rng::Rng;
    use crate::train::data::{InputMapping, MAX_ACTIVE};
    use tempo_core::Position;
    use tempo_engine::nnue::format::Header;

    fn u32_at(bytes: &[u8], at: usize) -> u32 {
        u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
    }

    fn i32_at(bytes: &[u8], at: usize) -> i32 {
        i32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
    }

    fn i16_at(bytes: &[u8], at: usize) -> i16 {
        i16::from_le_bytes(bytes[at..at + 2].try_into().unwrap())
    }

    /// Positions from random games (uniform legal moves), a few hundred.
    pub(in crate::train) fn random_positions(count: usize, seed: u64) -> Vec<Position> {
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
        for (hidden, buckets, inputs) in [
            (16, 1, InputMapping::Plain),
            (128, 1, InputMapping::Plain),
            (16, 8, InputMapping::Plain),
            (16, 8, InputMapping::Mirrored),
            (16, 4, InputMapping::KingBuckets4),
        ] {
            let net = network(Shape { hidden, buckets, inputs }, 3, 0.25, 1.98);
            let file = write(&net).unwrap();
            let (version, start, listed) =
                if inputs == InputMapping::Plain { (2, 40, 0) } else { (3, 44, 4 * buckets) };
            let features = if inputs == InputMapping::KingBuckets4 { 4 * 768 } else { 768 };
            assert_eq!(file.len(), start + 2 * features * hidden + 2 * hidden + buckets * (4 * hidden + 4) + listed);
            assert_eq!(Header::parse(&file).unwrap().file_size(), Some(file.len()));
            assert_eq!(&file[..8], b"TEMPONNU");
            let header: Vec<u32> = (8..start).step_by(4).map(|at| u32_at(&file, at)).collect();
            let qb = if version == 3 { 0 } else { 64 };
            let mut expected = vec![version, features as u32, hidden as u32, 1, 255, qb, 400, buckets as u32];
            if version == 3 {
                expected.push(inputs.code());
                let scales: Vec<u32> =
                    (file.len() - listed..file.len()).step_by(4).map(|at| u32_at(&file, at)).collect();
                assert_eq!(scales, vec![64; buckets]);
            }
            assert_eq!(header, expected);
            // First weights and last field at their offsets.
            let (w1, b1, w2, b2) = net.parts();
            assert_eq!(i16_at(&file, start), (w1[0] * 255.0).round() as i16);
            assert_eq!(i16_at(&file, start + 2 * features * hidden), (b1[0] * 255.0).round() as i16);
            assert_eq!(i16_at(&file, start + 2 * (features + 1) * hidden + 2), (w2[1] * 64.0).round() as i16);
            assert_eq!(i32_at(&file, file.len() - 4 - listed), (b2[buckets - 1] * 255.0 * 64.0).round() as i32);
        }
        let crelu = Network::random(Shape { hidden: 8, buckets: 1, inputs: InputMapping::Plain }, Activation::Crelu, 1);
        assert!(write(&crelu).unwrap_err().to_string().contains("SCReLU"));
    }

    /// The engine's evaluation (its vector kernels, as the search runs them) of a network
    /// file of 32, 128 or 256 hidden neurons.
    fn engine_evaluation(file: &[u8]) -> Box<dyn Fn(&Position) -> i32> {
        fn of<const H: usize>(file: &[u8]) -> Box<dyn Fn(&Position) -> i32> {
            let network = tempo_engine::NetworkOf::<H>::from_bytes(file).unwrap();
            Box::new(move |pos| tempo_engine::nnue_evaluate(&network, pos))
        }
        match Header::parse(file).unwrap().hidden {
            32 => of::<32>(file),
            128 => of::<128>(file),
            256 => of::<256>(file),
            hidden => panic!("no engine network of {hidden} neurons in these tests"),
        }
    }

    /// The engine and the trainer cannot disagree: at three widths (the engine's own and two
    /// others) the trainer's float model, the format's integer reference and the engine's
    /// vector kernels give the same evaluations, to the integer divisions' truncations for
    /// the float model on the quantisation grid, exactly for the other two.
    #[test]
    fn the_float_model_the_format_and_the_engine_agree() {
        for (hidden, buckets, inputs, seed) in [
            (tempo_engine::HIDDEN, 8, InputMapping::Plain, 11),
            (tempo_engine::HIDDEN, 1, InputMapping::Plain, 13),
            (tempo_engine::HIDDEN, 8, InputMapping::Mirrored, 14),
            (128, 4, InputMapping::Mirrored, 16),
            (32, 4, InputMapping::Plain, 12),
            (32, 4, InputMapping::Mirrored, 15),
            (tempo_engine::HIDDEN, 8, InputMapping::KingBuckets4, 18),
            (32, 4, InputMapping::KingBuckets4, 19),
        ] {
            let shape = Shape { hidden, buckets, inputs };
            let positions = random_positions(300, seed);
            // On the quantisation grid, only the integer divisions' truncations separate them.
            let net = snapped(&network(shape, seed, 0.25, 1.98));
            let file = write(&net).unwrap();
            let (reference, engine) = (QuantisedNet::from_bytes(&file).unwrap(), engine_evaluation(&file));
            for pos in &positions {
                let (float, integer) = (net.float_eval_cp(pos), reference.evaluate(pos));
                assert!((float - integer as f32).abs() <= 1.5, "H {hidden}: {float} {integer} {}", pos.fen());
                assert_eq!(engine(pos), integer, "H {hidden}: {}", pos.fen());
            }
            // Off the grid, rounding the weights costs a few cp more: each accumulator is off by
            // about sqrt(30) * 0.5 / 255 (30 pieces), and 2 x H such independent errors add up in
            // the output, so the allowance grows as sqrt(H): 5 cp on average at 128 neurons. The
            // worst of 300 positions lies in the tail (the many-piece positions), and its bound is
            // there to catch what is systematic (an overflow, a wrong rounding), which costs
            // hundreds of cp, not to measure the tail.
            let net = network(shape, seed, 0.1, 0.5);
            let file = write(&net).unwrap();
            let (reference, engine) = (QuantisedNet::from_bytes(&file).unwrap(), engine_evaluation(&file));
            let (mut worst, mut total) = (0.0f32, 0.0f32);
            for pos in &positions {
                let integer = reference.evaluate(pos);
                assert_eq!(engine(pos), integer, "H {hidden}: {}", pos.fen());
                let difference = (net.float_eval_cp(pos) - integer as f32).abs();
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

    /// Every mirrored network of the lineage, read, copied into king buckets
    /// ([`Network::with_inputs`], what `train --init` does) and written again, keeps each
    /// bucket's `QB` and evaluates every position exactly as the network itself.
    #[test]
    fn shipped_mirrored_networks_copied_into_king_buckets_evaluate_as_themselves() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../engine/nets");
        let positions = random_positions(300, 31);
        let mut checked = 0;
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "nnue") {
                continue;
            }
            let bytes = std::fs::read(&path).unwrap();
            let parent = QuantisedNet::from_bytes(&bytes).unwrap();
            if parent.mapping != InputMapping::Mirrored {
                continue;
            }
            let child = read(&bytes).unwrap().with_inputs(InputMapping::KingBuckets4).unwrap();
            let child = QuantisedNet::from_bytes(&write(&child).unwrap()).unwrap();
            assert_eq!(
                (child.mapping, &child.qb, &child.w2, &child.b2),
                (InputMapping::KingBuckets4, &parent.qb, &parent.w2, &parent.b2)
            );
            for pos in &positions {
                assert_eq!(child.evaluate(pos), parent.evaluate(pos), "{}: {}", path.display(), pos.fen());
            }
            checked += 1;
        }
        assert!(checked >= 1, "no mirrored network in engine/nets");
    }

    /// The trainer's integer evaluation is the engine's, and what `rounding_error` reports is
    /// the mean of the float-to-integer differences.
    #[test]
    fn the_integer_network_is_the_engines_and_its_rounding_is_measured() {
        let shape = Shape { hidden: tempo_engine::HIDDEN, buckets: 8, inputs: InputMapping::Mirrored };
        let mut net = network(shape, 17, 0.05, 1.5);
        let start = shape.output_start();
        let per_bucket = 2 * shape.hidden;
        for (k, w) in net.params_mut()[start..start + 8 * per_bucket].iter_mut().enumerate() {
            *w /= (1 << (k / per_bucket)) as f32;
        }
        let quantised = quantise(&net);
        let engine = tempo_engine::Network::from_bytes(&write(&net).unwrap()).unwrap();
        let positions = random_positions(100, 17);
        let mut data = Dataset::new();
        let mut total = 0.0;
        for pos in &positions {
            let (mut stm, mut other) = ([0u16; MAX_ACTIVE], [0u16; MAX_ACTIVE]);
            let n = InputMapping::Mirrored.position_features(pos, pos.turn(), &mut stm);
            InputMapping::Mirrored.position_features(pos, !pos.turn(), &mut other);
            let integer = quantised.evaluate_features(&stm[..n], &other[..n]);
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
        let shape = Shape { hidden: tempo_engine::HIDDEN, buckets: 8, inputs: InputMapping::Plain };
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
        let integer = QuantisedNet::from_bytes(&file).unwrap();
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
                    assert_eq!(quantised, integer.evaluate(p), "{}", p.fen());
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
        for (hidden, buckets, inputs, seed) in [
            (16, 8, InputMapping::Plain, 21),
            (32, 1, InputMapping::Plain, 22),
            (16, 4, InputMapping::Mirrored, 23),
            (16, 2, InputMapping::KingBuckets4, 24),
        ] {
            let net = snapped(&network(Shape { hidden, buckets, inputs }, seed, 0.25, 1.98));
            let file = write(&net).unwrap();
            assert_eq!(read(&file).unwrap(), net);
            assert_eq!(write(&read(&file).unwrap()).unwrap(), file);
        }
    }

    #[test]
    fn a_damaged_file_is_an_error() {
        let file =
            write(&network(Shape { hidden: 16, buckets: 2, inputs: InputMapping::Plain }, 5, 0.25, 1.98)).unwrap();
        for cut in [0, 7, 39, 40, file.len() - 1] {
            assert!(read(&file[..cut]).is_err(), "{cut} bytes");
        }
        let mut longer = file.clone();
        longer.push(0);
        assert!(read(&longer).unwrap_err().to_string().contains("bytes"));
        for (at, value, words) in
            [(8, 4, "version"), (12, 769, "input features"), (20, 2, "activation"), (24, 256, "QA")]
        {
            let mut damaged = file.clone();
            damaged[at..at + 4].copy_from_slice(&(value as u32).to_le_bytes());
            assert!(read(&damaged).unwrap_err().to_string().contains(words), "{words}");
        }
        // A file of a width the format allows but the trainer cannot have.
        let mut odd = tempo_engine::QuantisedNet::from_bytes(&file).unwrap();
        odd.hidden = 12;
        odd.w1.truncate(768 * 12);
        odd.b1.truncate(12);
        odd.w2.truncate(2 * 2 * 12);
        assert!(read(&odd.to_bytes()).unwrap_err().to_string().contains("shape"));
        let mirrored =
            write(&network(Shape { hidden: 16, buckets: 2, inputs: InputMapping::Mirrored }, 5, 0.25, 1.98)).unwrap();
        for cut in [40, 43, mirrored.len() - 1] {
            assert!(read(&mirrored[..cut]).is_err(), "{cut} bytes");
        }
        let mut damaged = mirrored.clone();
        damaged[40..44].copy_from_slice(&3u32.to_le_bytes());
        assert!(read(&damaged).unwrap_err().to_string().contains("input mapping 3"));
        // King buckets under a header of mirrored inputs, and a mirrored file cut to look like
        // the start of a king-bucketed one.
        let buckets =
            write(&network(Shape { hidden: 16, buckets: 2, inputs: InputMapping::KingBuckets4 }, 5, 0.25, 1.98))
                .unwrap();
        for cut in [44, mirrored.len(), buckets.len() - 1] {
            assert!(read(&buckets[..cut]).unwrap_err().to_string().contains("bytes"), "{cut} bytes");
        }
        let mut damaged = buckets.clone();
        damaged[40..44].copy_from_slice(&1u32.to_le_bytes());
        let err = read(&damaged).unwrap_err().to_string();
        assert!(err.contains("3072 input features; its input mapping (mirrored) has 768"), "{err}");
    }

    proptest::proptest! {
        #[test]
        fn network_files_never_panic_the_reader(
            noise in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..300),
            word in 0usize..9,
            value in proptest::prelude::any::<u32>(),
            cut in proptest::prelude::any::<usize>(),
        ) {
            let mut prefixed = tempo_engine::nnue::format::MAGIC.to_vec();
            prefixed.extend_from_slice(&noise);
            let _ = read(&prefixed);
            let inputs = InputMapping::ALL[word % 3];
            let mut file = write(&network(Shape { hidden: 8, buckets: 2, inputs }, 7, 0.25, 1.98)).unwrap();
            file[8 + 4 * word..12 + 4 * word].copy_from_slice(&value.to_le_bytes());
            let cut = cut % (file.len() + 1);
            let _ = read(&file[..cut]);
            let _ = read(&file);
        }
    }
}
