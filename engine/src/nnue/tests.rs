//! Tests of the network format, the kernels and the incremental accumulators, against an
//! independent, naive implementation of the contract written here.

use super::accumulator::Accumulator;
use super::cache::RefreshCache;
use super::features::Delta;
use super::format::{grouped, InputMapping, QuantisedNet, INPUTS, QA, SCALE};
use super::simd::Simd;
use super::stack::AccumulatorStack;
use super::{
    embedded_network, nnue_evaluate, output_bucket, Network, NetworkError, EMBEDDED, EMBEDDED_NETWORK, HIDDEN,
};
use crate::score::MATE_BOUND;
use std::sync::Arc;
use tempo_core::opening::SplitMix;
use tempo_core::{CastlingMode, Color, Move, Piece, Position, Role};

/// Any piece: its feature's king bucket is the view's.
const PAWN: Piece = Piece::new(Color::White, Role::Pawn);

/// Uniform in `lo..=hi`.
fn range(rng: &mut SplitMix, lo: i32, hi: i32) -> i32 {
    lo + (rng.next_u64() % (hi - lo + 1) as u64) as i32
}

/// Networks for the tests: [`QuantisedNet`]s built here, with the contract's formula
/// computed naively beside the format's reference.
struct Weights;

impl Weights {
    /// All zero, one output bucket.
    fn zero() -> QuantisedNet {
        QuantisedNet {
            hidden: HIDDEN,
            mapping: InputMapping::Plain,
            w1: vec![0; INPUTS * HIDDEN],
            b1: vec![0; HIDDEN],
            w2: vec![0; 2 * HIDDEN],
            b2: vec![0],
            qb: vec![64],
        }
    }

    /// Weights within the trainer's clipping (`|W| <= 1.98`), spread so that accumulators
    /// fall on both sides of the clamps, with eight output buckets.
    fn random(seed: u64) -> QuantisedNet {
        Weights::random_of(HIDDEN, 8, seed)
    }

    /// [`Weights::random`] of `hidden` neurons and `buckets` output buckets.
    fn random_of(hidden: usize, buckets: usize, seed: u64) -> QuantisedNet {
        Weights::random_mapped(InputMapping::Plain, hidden, buckets, seed)
    }

    /// [`Weights::random_of`] under `mapping` (which sizes the first layer).
    fn random_mapped(mapping: InputMapping, hidden: usize, buckets: usize, seed: u64) -> QuantisedNet {
        let mut rng = SplitMix::new(seed);
        QuantisedNet {
            hidden,
            mapping,
            w1: (0..mapping.inputs() * hidden).map(|_| range(&mut rng, -90, 90) as i16).collect(),
            b1: (0..hidden).map(|_| range(&mut rng, -100, 300) as i16).collect(),
            w2: (0..buckets * 2 * hidden).map(|_| range(&mut rng, -127, 127) as i16).collect(),
            b2: (0..buckets).map(|_| range(&mut rng, -200_000, 200_000)).collect(),
            qb: vec![64; buckets],
        }
    }

    /// [`Weights::random`] with mirrored inputs.
    fn random_mirrored(seed: u64) -> QuantisedNet {
        QuantisedNet { mapping: InputMapping::Mirrored, ..Weights::random(seed) }
    }

    /// [`Weights::random`] with 4 king buckets (4 x 768 inputs).
    fn random_king_buckets(seed: u64) -> QuantisedNet {
        Weights::random_mapped(InputMapping::KingBuckets4, HIDDEN, 8, seed)
    }
}

/// What the tests ask of a [`QuantisedNet`] beyond the format's API.
trait TestNet {
    /// The weights after a version 2 header (40 bytes).
    fn body(&self) -> Vec<u8>;
    /// The engine's network of these weights.
    fn network(&self) -> Network;
    /// The contract's formula computed naively, independently of the format module:
    /// features by the documented index formula, `i32` up to the output sum, `i64` from
    /// there.
    fn naive_evaluate(&self, pos: &Position) -> i32;
}

impl TestNet for QuantisedNet {
    fn body(&self) -> Vec<u8> {
        let mut out = Vec::new();
        for w in self.w1.iter().chain(&self.b1).chain(&self.w2) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for b in &self.b2 {
            out.extend_from_slice(&b.to_le_bytes());
        }
        out
    }

    fn network(&self) -> Network {
        Network::from_bytes(&self.to_bytes()).expect("a valid network")
    }

    #[allow(clippy::needless_range_loop)] // indexed like the formula
    fn naive_evaluate(&self, pos: &Position) -> i32 {
        let mut acc = [[0i32; HIDDEN]; 2];
        for (p, perspective) in [Color::White, Color::Black].into_iter().enumerate() {
            for j in 0..HIDDEN {
                acc[p][j] = i32::from(self.b1[j]);
            }
            let king = pos.king_of(perspective).index();
            let mirrored = matches!(self.mapping, InputMapping::Mirrored | InputMapping::KingBuckets4);
            let files = if mirrored && king % 8 >= 4 { 7 } else { 0 };
            // King buckets: the king's rank counted from its own side, 1 | 2 | 3-4 | 5-8.
            let own_rank = if perspective == Color::White { king / 8 } else { 7 - king / 8 };
            let bucket = match (self.mapping, own_rank) {
                (InputMapping::KingBuckets4, 0) => 0,
                (InputMapping::KingBuckets4, 1) => 1,
                (InputMapping::KingBuckets4, 2 | 3) => 2,
                (InputMapping::KingBuckets4, _) => 3,
                _ => 0,
            };
            for sq in pos.occupied() {
                let piece = pos.piece_at(sq).unwrap();
                let own = if piece.color == perspective { 0 } else { 6 };
                let s = if perspective == Color::White { sq.index() } else { sq.index() ^ 56 } ^ files;
                let f = bucket * 768 + (own + piece.role as usize) * 64 + s;
                for j in 0..HIDDEN {
                    acc[p][j] += i32::from(self.w1[f * HIDDEN + j]);
                }
            }
        }
        let stm = pos.turn().index();
        // The bucket by the documented formula, not by the engine's function.
        let pieces = pos.occupied().count() as usize;
        let bucket = ((pieces - 2) / (32 / self.buckets())).min(self.buckets() - 1);
        let w2 = &self.w2[bucket * 2 * HIDDEN..(bucket + 1) * 2 * HIDDEN];
        let mut sum = 0i64;
        for j in 0..HIDDEN {
            let us = acc[stm][j].clamp(0, QA);
            let them = acc[1 - stm][j].clamp(0, QA);
            sum += i64::from(us * us * i32::from(w2[j])) + i64::from(them * them * i32::from(w2[HIDDEN + j]));
        }
        let out = sum / i64::from(QA) + i64::from(self.b2[bucket]);
        (out * i64::from(SCALE) / i64::from(QA * self.qb[bucket])) as i32
    }
}

/// A network of random weights within the trainer's clipping (for tests elsewhere in the
/// crate).
pub(crate) fn random_network(seed: u64) -> Network {
    Weights::random(seed).network()
}

/// A version 2 header for `hidden` neurons and `buckets` output buckets, changed by `edit`
/// (which gets the 40 bytes).
fn header(hidden: u32, buckets: u32, edit: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
    let mut h = b"TEMPONNU".to_vec();
    for v in [2u32, 768, hidden, 1] {
        h.extend_from_slice(&v.to_le_bytes());
    }
    for v in [255i32, 64, 400] {
        h.extend_from_slice(&v.to_le_bytes());
    }
    h.extend_from_slice(&buckets.to_le_bytes());
    edit(&mut h);
    h
}

fn put_u32(bytes: &mut [u8], offset: usize, v: u32) {
    bytes[offset..offset + 4].copy_from_slice(&v.to_le_bytes());
}

fn pos(fen: &str) -> Position {
    fen.parse().unwrap()
}

fn pos960(fen: &str) -> Position {
    Position::from_fen(fen, CastlingMode::Chess960).unwrap()
}

/// Start positions with castling (standard and Chess960), en passant and promotions close.
fn start_positions() -> Vec<Position> {
    vec![
        Position::startpos(),
        pos("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
        pos("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1"),
        pos("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"),
        pos("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
        pos("4k3/8/8/2pP4/8/8/8/4K3 w - c6 0 1"),
        pos("r3k2r/8/8/8/3pP3/8/8/R3K2R b KQkq e3 0 1"),
        pos960("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"),
        pos960("r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w EAea - 0 1"),
        pos960("r1k2r1q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K2R1Q w FAfa - 0 1"),
        pos960("2r5/8/8/8/8/8/6PP/k2KR3 w E - 0 1"),
        pos960("4r3/3k4/8/8/8/8/6PP/qR1K1R2 w FB - 0 1"),
        pos960("1rqbkrbn/1ppppp1p/1n6/p1N3p1/8/2P4P/PP1PPPP1/1RQBKRBN w FBfb - 0 9"),
    ]
}

/// Counts of the special moves a random walk played.
#[derive(Default, Debug)]
struct Played {
    castles: usize,
    castles960: usize,
    en_passant: usize,
    promotions: usize,
    captures: usize,
    nulls: usize,
    /// King moves between files d and e (which change a mirrored network's view).
    crossings: usize,
    /// King moves into another king bucket (which change a king-bucketed network's view).
    bucket_changes: usize,
}

/// A random move of `pos`, preferring castling, en passant and promotions when there are any.
fn pick(rng: &mut SplitMix, pos: &Position) -> Option<Move> {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return None;
    }
    let special: Vec<Move> =
        moves.iter().copied().filter(|m| m.is_castle() || m.is_en_passant() || m.is_promotion()).collect();
    if !special.is_empty() && rng.below(2) == 0 {
        return Some(special[rng.below(special.len())]);
    }
    Some(moves.as_slice()[rng.below(moves.len())])
}

/// Random games from every start position, calling `visit(ply, parent, move, child)` for
/// each move (`None` for a null move).
fn random_walks(seed: u64, games_per_start: usize, mut visit: impl FnMut(usize, &Position, Option<Move>, &Position)) {
    let mut rng = SplitMix::new(seed);
    for start in start_positions() {
        for _ in 0..games_per_start {
            let mut pos = start;
            for ply in 0..100 {
                let mut child = pos;
                let m = if !pos.is_check() && rng.below(12) == 0 {
                    child.play_null();
                    None
                } else {
                    let Some(m) = pick(&mut rng, &pos) else { break };
                    child.play_unchecked(m);
                    Some(m)
                };
                visit(ply, &pos, m, &child);
                pos = child;
            }
        }
    }
}

/// The size of a version 2 network file, counted from the format (independently of
/// `file_size`): header, W1 and B1 as i16, then per bucket W2 (2 x hidden i16) and B2 (one
/// i32). Version 3 has 4 bytes more.
fn bytes_of_format(hidden: usize, buckets: usize) -> usize {
    40 + 2 * 768 * hidden + 2 * hidden + buckets * (4 * hidden + 4)
}

/// The size of a file of `version` for a network of this build's size and `buckets` output
/// buckets: version 3 adds the input mapping and each bucket's `QB`.
fn file_size(version: u32, buckets: usize) -> usize {
    bytes_of_format(HIDDEN, buckets) + if version >= 3 { 4 + 4 * buckets } else { 0 }
}

/// The error of a file of `found` bytes whose header says `version`, `buckets` and `mapping`.
fn size_error(found: usize, version: u32, buckets: usize, mapping: InputMapping) -> NetworkError {
    NetworkError::Size { found, expected: file_size(version, buckets), version, hidden: HIDDEN, buckets, mapping }
}

#[test]
fn a_written_network_reads_back() {
    let weights = Weights::random(1);
    let bytes = weights.to_bytes();
    assert_eq!(bytes.len(), bytes_of_format(HIDDEN, 8));
    assert_eq!(file_size(2, 8), bytes.len());
    assert_eq!(file_size(2, 1), bytes_of_format(HIDDEN, 1));
    let network = Network::from_bytes(&bytes).unwrap();
    assert_eq!((network.output_buckets(), network.input_mapping()), (8, InputMapping::Plain));
    assert_eq!(network.to_bytes(), bytes);
    let one = Weights::zero().to_bytes();
    assert_eq!(one.len(), file_size(2, 1));
    assert_eq!(Network::from_bytes(&one).unwrap().to_bytes(), one);
}

#[test]
fn a_mirrored_network_is_a_version_3_file() {
    let weights = Weights::random_mirrored(1);
    let bytes = weights.to_bytes();
    assert_eq!(bytes.len(), bytes_of_format(HIDDEN, 8) + 4 + 8 * 4);
    assert_eq!(file_size(3, 8), bytes.len());
    let network = Network::from_bytes(&bytes).unwrap();
    assert_eq!((network.output_buckets(), network.input_mapping()), (8, InputMapping::Mirrored));
    assert_eq!(network.to_bytes(), bytes);
    // The same weights with plain inputs are another network.
    assert_ne!(network, Weights::random(1).network());

    // Version 3 with plain inputs reads as the version 2 network, which writes as version 2.
    let mut plain = bytes.clone();
    put_u32(&mut plain, 40, 0);
    assert_eq!(Network::from_bytes(&plain).unwrap().to_bytes(), Weights::random(1).to_bytes());
    for mapping in [3, 7, u32::MAX] {
        put_u32(&mut plain, 40, mapping);
        let err = Network::from_bytes(&plain).unwrap_err();
        assert_eq!(err, NetworkError::InputMapping(mapping));
    }
    assert_eq!(
        NetworkError::InputMapping(3).to_string(),
        "network input mapping 3 is not supported; the format knows 0 (plain), 1 (mirrored by the king's file) and 2 (mirrored, 4 buckets by the king's rank)"
    );
    // King buckets (code 2) with the 768 inputs of one bucket.
    put_u32(&mut plain, 40, 2);
    let err = Network::from_bytes(&plain).unwrap_err();
    assert_eq!(err, NetworkError::Inputs { found: 768, mapping: InputMapping::KingBuckets4 });
    // A version 3 file cut inside its longer header.
    for len in [40, 43] {
        assert_eq!(Network::from_bytes(&bytes[..len]).unwrap_err(), NetworkError::TooShort(len));
    }
    // The body of a version 2 file under a version 3 header: its bucket scales missing.
    let mut v2_body = Weights::random(1).to_bytes();
    put_u32(&mut v2_body, 8, 3);
    assert_eq!(Network::from_bytes(&v2_body).unwrap_err(), NetworkError::OutputScale(64));
    put_u32(&mut v2_body, 28, 0);
    put_u32(&mut v2_body, 40, 1);
    let found = v2_body.len();
    assert_eq!(Network::from_bytes(&v2_body).unwrap_err(), size_error(found, 3, 8, InputMapping::Mirrored));
}

/// A network with king buckets is a version 3 file with input mapping 2 and 4 x 768 inputs:
/// its first layer four times as large, read and written back byte for byte; a file cut
/// short, grown, or with a header that does not match its first layer is a typed error.
#[test]
fn a_king_bucket_network_is_a_version_3_file_of_four_times_the_inputs() {
    let weights = Weights::random_king_buckets(34);
    let bytes = weights.to_bytes();
    // Counted from the format: the header, W1 of 4 x 768 rows, b1, per bucket W2, b2 and QB.
    let expected = 44 + 2 * 4 * 768 * HIDDEN + 2 * HIDDEN + 8 * (4 * HIDDEN + 4 + 4);
    assert_eq!(bytes.len(), expected);
    let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    assert_eq!((word(8), word(12), word(40)), (3, 3072, 2));
    let network = Network::from_bytes(&bytes).unwrap();
    assert_eq!(network.input_mapping(), InputMapping::KingBuckets4);
    assert_eq!(network.to_bytes(), bytes);
    assert_eq!(QuantisedNet::from_bytes(&bytes).unwrap(), weights);

    let size = |found| NetworkError::Size {
        found,
        expected,
        version: 3,
        hidden: HIDDEN,
        buckets: 8,
        mapping: InputMapping::KingBuckets4,
    };
    for len in [44, 2 * 768 * HIDDEN + 44, expected - 1] {
        assert_eq!(Network::from_bytes(&bytes[..len]).unwrap_err(), size(len));
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert_eq!(Network::from_bytes(&longer).unwrap_err(), size(expected + 1));
    // The header's input count must be the mapping's, whichever is wrong.
    for (inputs, code, mapping) in
        [(768, 2, InputMapping::KingBuckets4), (3072, 1, InputMapping::Mirrored), (3072, 0, InputMapping::Plain)]
    {
        let mut damaged = bytes.clone();
        put_u32(&mut damaged, 12, inputs);
        put_u32(&mut damaged, 40, code);
        assert_eq!(Network::from_bytes(&damaged).unwrap_err(), NetworkError::Inputs { found: inputs, mapping });
    }
    assert_eq!(
        NetworkError::Inputs { found: 768, mapping: InputMapping::KingBuckets4 }.to_string(),
        "network has 768 input features; its input mapping (king-buckets4) has 3072"
    );
    // A mirrored file's body under a king-bucket header: too short for its first layer.
    let mut mirrored = Weights::random_mirrored(34).to_bytes();
    put_u32(&mut mirrored, 12, 3072);
    put_u32(&mut mirrored, 40, 2);
    let found = mirrored.len();
    assert_eq!(Network::from_bytes(&mirrored).unwrap_err(), size(found));
}

/// A king-bucket network whose four buckets hold the same weights is the mirrored network of
/// those weights, position by position (what the trainer's `--init` from a mirrored parent
/// relies on); different weights per bucket make it another network.
#[test]
fn king_buckets_of_one_mirrored_layer_evaluate_as_the_mirrored_network() {
    let parent = Weights::random_mirrored(35);
    let copied = QuantisedNet { mapping: InputMapping::KingBuckets4, w1: parent.w1.repeat(4), ..parent.clone() };
    let (parent_net, copied_net) = (parent.network(), copied.network());
    let other = Weights::random_king_buckets(35).network();
    let (mut count, mut differ) = (0, 0);
    random_walks(36, 1, |_, _, _, child| {
        let value = nnue_evaluate(&parent_net, child);
        assert_eq!(nnue_evaluate(&copied_net, child), value, "{}", child.fen());
        assert_eq!(copied.evaluate(child), value, "{}", child.fen());
        differ += usize::from(nnue_evaluate(&other, child) != value);
        count += 1;
    });
    assert!(count > 500 && differ > count / 2, "{count} positions, {differ} differ");
}

/// Each bucket's output quantisation follows the weights in version 3; every one is checked.
#[test]
fn each_bucket_has_its_own_output_scale() {
    let weights = QuantisedNet { qb: vec![64, 128, 256, 512, 1024, 2048, 4096, 100], ..Weights::random(22) };
    let bytes = weights.to_bytes();
    assert_eq!(bytes.len(), file_size(3, 8));
    let network = Network::from_bytes(&bytes).unwrap();
    assert_eq!((0..8).map(|b| network.output_scale(b)).collect::<Vec<_>>(), weights.qb);
    assert_eq!(network.input_mapping(), InputMapping::Plain);
    assert_eq!(network.to_bytes(), bytes);
    for (bucket, qb) in [(0, 63), (3, 0), (7, 4097), (5, -512)] {
        let mut damaged = bytes.clone();
        put_u32(&mut damaged, bytes.len() - 4 * (8 - bucket), qb as u32);
        assert_eq!(Network::from_bytes(&damaged).unwrap_err(), NetworkError::OutputScale(qb));
    }
    // Version 3 keeps the header's field at 0.
    let mut damaged = bytes.clone();
    put_u32(&mut damaged, 28, 64);
    assert_eq!(Network::from_bytes(&damaged).unwrap_err(), NetworkError::OutputScale(64));
}

#[test]
fn a_version_1_file_is_a_network_of_one_bucket() {
    let mut weights = Weights::random(21);
    weights.w2.truncate(2 * HIDDEN);
    weights.b2.truncate(1);
    weights.qb.truncate(1);
    let v2 = weights.to_bytes();
    let mut v1 = v2.clone();
    put_u32(&mut v1, 8, 1);
    put_u32(&mut v1, 36, 0);
    let network = Network::from_bytes(&v1).unwrap();
    assert_eq!(network.output_buckets(), 1);
    assert_eq!(network.to_bytes(), v2);
    let start = Position::startpos();
    assert_eq!(nnue_evaluate(&network, &start), weights.naive_evaluate(&start));
    put_u32(&mut v1, 36, 7);
    let err = Network::from_bytes(&v1).unwrap_err();
    assert_eq!(err, NetworkError::Reserved(7));
    assert_eq!(err.to_string(), "network header's reserved field is 7; it must be 0 in version 1");
}

#[test]
fn output_buckets_follow_the_piece_count() {
    let eight: Vec<usize> = (2..=32).map(|n| output_bucket(n, 8)).collect();
    let expected: Vec<usize> = (2..=32usize).map(|n| ((n - 2) / 4).min(7)).collect();
    assert_eq!(eight, expected);
    assert_eq!((output_bucket(2, 8), output_bucket(5, 8), output_bucket(6, 8)), (0, 0, 1));
    assert_eq!((output_bucket(29, 8), output_bucket(30, 8), output_bucket(32, 8)), (6, 7, 7));
    assert!((2..=32).all(|n| output_bucket(n, 1) == 0));
    assert_eq!((output_bucket(17, 2), output_bucket(18, 2), output_bucket(32, 2)), (0, 1, 1));
    assert_eq!((output_bucket(9, 4), output_bucket(10, 4), output_bucket(32, 4)), (0, 1, 3));

    // A network whose buckets differ only in their bias: the start position (32 pieces)
    // uses bucket 7, a king and pawn ending (3 pieces) bucket 0.
    let mut weights = Weights::zero();
    weights.w2 = vec![0; 8 * 2 * HIDDEN];
    weights.b2 = (0..8).map(|b| b * 16_320).collect();
    weights.qb = vec![64; 8];
    let network = weights.network();
    assert_eq!(nnue_evaluate(&network, &Position::startpos()), 7 * 400);
    assert_eq!(nnue_evaluate(&network, &pos("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")), 0);
    assert_eq!(nnue_evaluate(&network, &pos("4k3/pppp4/8/8/8/8/4P3/4K3 w - - 0 1")), 400);
}

#[test]
fn every_header_field_is_checked() {
    let body = Weights::random(2).body();
    let with_header = |edit: &dyn Fn(&mut Vec<u8>)| -> Result<Network, NetworkError> {
        let mut bytes = header(HIDDEN as u32, 8, |h| edit(h));
        bytes.extend_from_slice(&body);
        Network::from_bytes(&bytes)
    };
    assert!(with_header(&|_| {}).is_ok());

    let err = with_header(&|h| h[..8].copy_from_slice(b"TEMPONNV")).unwrap_err();
    assert_eq!(err, NetworkError::Magic(*b"TEMPONNV"));
    assert_eq!(err.to_string(), "not a Tempo network: the file starts with \"TEMPONNV\", not \"TEMPONNU\"");
    let err = with_header(&|h| h[..8].copy_from_slice(b"PK\x03\x04\0\0\0\0")).unwrap_err();
    assert!(err.to_string().contains(r#""PK\x03\x04\x00\x00\x00\x00""#), "{err}");

    for version in [0, 4, u32::MAX] {
        let err = with_header(&|h| put_u32(h, 8, version)).unwrap_err();
        assert_eq!(err, NetworkError::Version(version));
    }
    let err = NetworkError::Version(4);
    assert_eq!(err.to_string(), "network format version 4 is not supported; this build reads versions 1 to 3");

    for inputs in [769, 3072] {
        let err = with_header(&|h| put_u32(h, 12, inputs)).unwrap_err();
        assert_eq!(err, NetworkError::Inputs { found: inputs, mapping: InputMapping::Plain });
    }
    let err = NetworkError::Inputs { found: 769, mapping: InputMapping::Plain };
    assert_eq!(err.to_string(), "network has 769 input features; its input mapping (plain) has 768");

    let wide = 2 * HIDDEN;
    let err = with_header(&|h| put_u32(h, 16, wide as u32)).unwrap_err();
    assert_eq!(err, NetworkError::Hidden { found: wide, expected: HIDDEN });
    assert_eq!(err.to_string(), format!("network has {wide} hidden neurons; this build expects {HIDDEN}"));

    let err = with_header(&|h| put_u32(h, 20, 0)).unwrap_err();
    assert_eq!(err, NetworkError::Activation(0));
    assert_eq!(err.to_string(), "network activation 0 is not supported; the format knows only 1 (SCReLU)");

    for (offset, name, expected) in [(24, "QA", 255), (32, "SCALE", 400)] {
        let err = with_header(&|h| put_u32(h, offset, (expected + 1) as u32)).unwrap_err();
        assert_eq!(err, NetworkError::Constant { name, found: expected + 1, expected });
        assert_eq!(err.to_string(), format!("network {name} is {}; the format requires {expected}", expected + 1));
    }
    for qb in [0, 1, 63, 4097, -64, i32::MIN] {
        let err = with_header(&|h| put_u32(h, 28, qb as u32)).unwrap_err();
        assert_eq!(err, NetworkError::OutputScale(qb));
    }
    assert_eq!(NetworkError::OutputScale(63).to_string(), "network QB is 63; the format allows 64 to 4096");
    for qb in [64, 65, 512, 4096] {
        assert_eq!(with_header(&|h| put_u32(h, 28, qb)).unwrap().output_scale(7), qb as i32);
    }

    for buckets in [0, 3, 7, 16] {
        let err = with_header(&|h| put_u32(h, 36, buckets)).unwrap_err();
        assert_eq!(err, NetworkError::OutputBuckets(buckets));
    }
    let err = NetworkError::OutputBuckets(7);
    assert_eq!(err.to_string(), "network has 7 output buckets; the format allows 1, 2, 4 or 8");
    // A header claiming fewer buckets than the body holds: a size error naming the buckets.
    let err = with_header(&|h| put_u32(h, 36, 4)).unwrap_err();
    assert_eq!(err, size_error(file_size(2, 8), 2, 4, InputMapping::Plain));
}

#[test]
fn the_size_must_be_exact() {
    let bytes = Weights::random(3).to_bytes();
    for len in [0, 7, 39] {
        let err = Network::from_bytes(&bytes[..len]).unwrap_err();
        assert_eq!(err, NetworkError::TooShort(len));
    }
    assert_eq!(NetworkError::TooShort(39).to_string(), "file is 39 bytes, too short for the header of a network file");
    for len in [40, 1234, bytes.len() - 4, bytes.len() - 1] {
        let err = Network::from_bytes(&bytes[..len]).unwrap_err();
        assert_eq!(err, size_error(len, 2, 8, InputMapping::Plain));
    }
    let mut longer = bytes.clone();
    longer.push(0);
    let err = Network::from_bytes(&longer).unwrap_err();
    assert_eq!(err, size_error(bytes.len() + 1, 2, 8, InputMapping::Plain));
    assert_eq!(
        size_error(1234, 2, 1, InputMapping::Plain).to_string(),
        format!(
            "file is 1,234 bytes; a version 2 file of a {HIDDEN}-neuron network with plain inputs and 1 output bucket is {} bytes",
            grouped(file_size(2, 1))
        )
    );
    assert_eq!(
        size_error(1_234_567, 3, 8, InputMapping::Mirrored).to_string(),
        format!(
            "file is 1,234,567 bytes; a version 3 file of a {HIDDEN}-neuron network with mirrored inputs and 8 output buckets is {} bytes",
            grouped(file_size(3, 8))
        )
    );
    // A network of another size is reported as such, not as a size mismatch.
    let other = 2 * HIDDEN;
    let mut wide = header(other as u32, 1, |_| {});
    wide.resize(bytes_of_format(other, 1), 0);
    assert_eq!(Network::from_bytes(&wide).unwrap_err(), NetworkError::Hidden { found: other, expected: HIDDEN });
}

#[test]
fn output_weights_beyond_the_clipping_are_rejected() {
    for (index, value) in
        [(0, 128), (HIDDEN + 5, -128), (2 * HIDDEN - 1, i16::MIN), (17, i16::MAX), (7 * 2 * HIDDEN + 3, -200)]
    {
        let mut weights = Weights::random(4);
        weights.w2[index] = value;
        let err = Network::from_bytes(&weights.to_bytes()).unwrap_err();
        assert_eq!(err, NetworkError::OutputWeight { index, value });
    }
    let err = NetworkError::OutputWeight { index: 3, value: 300 };
    assert_eq!(err.to_string(), "output weight 3 is 300; the format allows -127 to 127");
    let mut weights = Weights::random(4);
    weights.w2[0] = 127;
    weights.w2[1] = -127;
    assert!(Network::from_bytes(&weights.to_bytes()).is_ok());
}

#[test]
fn the_embedded_network_is_valid_and_named_after_its_hash() {
    use sha2::{Digest, Sha256};
    let network = embedded_network();
    assert!(Arc::ptr_eq(&network, &embedded_network()), "parsed once");
    let hash: String = Sha256::digest(EMBEDDED).iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(EMBEDDED_NETWORK, format!("tempo-{}.nnue", &hash[..12]));
    // The build's width is the one its header states.
    assert_eq!(QuantisedNet::from_bytes(EMBEDDED).unwrap().hidden, HIDDEN);
}

/// Every network of the lineage in `engine/nets/` reads through the format, writes back
/// byte for byte, and the kernels of its width evaluate it as the format's reference does.
#[test]
fn every_shipped_network_reads_back_and_evaluates_as_the_reference() {
    fn check<const H: usize>(bytes: &[u8], name: &str) {
        let reference = QuantisedNet::from_bytes(bytes).unwrap();
        let network = super::NetworkOf::<H>::from_bytes(bytes).unwrap();
        let mut count = 0;
        random_walks(7, 1, |_, _, _, child| {
            if count % 7 == 0 {
                assert_eq!(nnue_evaluate(&network, child), reference.evaluate(child), "{name}: {}", child.fen());
            }
            count += 1;
        });
    }
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("nets");
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "nnue") {
            continue;
        }
        let (bytes, name) = (std::fs::read(&path).unwrap(), path.display().to_string());
        let net = QuantisedNet::from_bytes(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(net.to_bytes(), bytes, "{name}");
        match net.hidden {
            128 => check::<128>(&bytes, &name),
            256 => check::<256>(&bytes, &name),
            hidden => panic!("{name}: {hidden} neurons, a width this test does not know"),
        }
        seen += 1;
    }
    assert!(seen >= 5, "{seen} networks");
}

#[test]
fn the_embedded_network_knows_material() {
    let network = embedded_network();
    let eval = |fen: &str| nnue_evaluate(&network, &fen.parse().unwrap());
    // The start position is about level; a queen up is decisive for whoever has it.
    let start = eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert!(start.abs() < 60, "{start}");
    let queen_up = eval("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert!(queen_up > 500, "{queen_up}");
    let queen_down = eval("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
    assert!(queen_down < -500, "{queen_down}");
}

/// A crafted network evaluated by hand on the start position.
///
/// Own pieces weigh `role + 1` on every neuron, the opponent's nothing, and neuron `j` has
/// bias `j - 64`. Each side has 8 pawns (1), 2 knights (2), 2 bishops (3), 2 rooks (4), a
/// queen (5) and a king (6): 8 + 4 + 6 + 8 + 5 + 6 = 37, so in both perspectives
/// `acc[j] = j - 27` and `v[j] = max(0, j - 27)`: 0 for j <= 27, then 1 ..= 100 for
/// j = 28 ..= 127. With output weights 1 for the side to move and -2 for the other,
/// `sum = (1 - 2) * (1^2 + ... + 100^2) = -338350`; `out = -338350 / 255 + 0 = -1326`
/// (-1326.86 truncated toward zero); `eval = -1326 * 400 / 16320 = -32` (-32.5 truncated
/// toward zero). Neurons from 128 on (when `HIDDEN` is larger) have no output weight.
#[test]
fn the_start_position_evaluates_as_computed_by_hand() {
    const USED: usize = 128;
    const { assert!(HIDDEN >= USED, "the calculation below uses 128 neurons") };
    let mut weights = Weights::zero();
    for role in 0..6 {
        for sq in 0..64 {
            let f = role * 64 + sq;
            weights.w1[f * HIDDEN..(f + 1) * HIDDEN].fill(role as i16 + 1);
        }
    }
    for (j, b) in weights.b1.iter_mut().enumerate() {
        *b = j as i16 - 64;
    }
    weights.w2[..USED].fill(1);
    weights.w2[HIDDEN..HIDDEN + USED].fill(-2);
    let network = weights.network();
    let start = Position::startpos();
    assert_eq!(nnue_evaluate(&network, &start), -32);
    assert_eq!(weights.naive_evaluate(&start), -32);
    // Black to move, by symmetry the same.
    let black = pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
    assert_eq!(nnue_evaluate(&network, &black), -32);

    // A positive output bias: out = -1326 + 20000 = 18674, eval = 18674 * 400 / 16320 = 457.
    weights.b2[0] = 20_000;
    assert_eq!(nnue_evaluate(&weights.network(), &start), 457);
}

/// The side to move's accumulator is the one weighted by the first half of `W2`.
#[test]
fn the_side_to_move_owns_the_first_output_half() {
    // One neuron counting White's pawns from White's perspective only (own pawns) and
    // Black's pawns from Black's: acc = 10 per own pawn.
    let mut weights = Weights::zero();
    for sq in 0..64 {
        weights.w1[sq * HIDDEN] = 10;
    }
    weights.w2[0] = 64; // side to move
    weights.w2[HIDDEN] = -32; // the other side
    let network = weights.network();
    // White has 3 pawns (v = 30), Black 1 (v = 10).
    let white = pos("4k3/p7/8/8/8/8/PPP5/4K3 w - - 0 1");
    let black = pos("4k3/p7/8/8/8/8/PPP5/4K3 b - - 0 1");
    // White to move: (900 * 64 - 100 * 32) / 255 = 212; 212 * 400 / 16320 = 5.
    assert_eq!(nnue_evaluate(&network, &white), 5);
    // Black to move: (100 * 64 - 900 * 32) / 255 = -87; -87 * 400 / 16320 = -2.
    assert_eq!(nnue_evaluate(&network, &black), -2);
    assert_eq!(weights.naive_evaluate(&white), 5);
    assert_eq!(weights.naive_evaluate(&black), -2);
}

#[test]
fn evaluation_matches_the_naive_formula_and_colour_symmetry() {
    let per_bucket = QuantisedNet { qb: vec![64, 128, 256, 512, 1024, 2048, 4096, 100], ..Weights::random(5) };
    for weights in [
        Weights::random(5),
        Weights::random_mirrored(5),
        Weights::random_king_buckets(5),
        QuantisedNet { qb: vec![1024; 8], ..Weights::random(5) },
        per_bucket,
    ] {
        let network = weights.network();
        let mut count = 0;
        random_walks(6, 2, |_, _, _, child| {
            let value = nnue_evaluate(&network, child);
            assert_eq!(value, weights.naive_evaluate(child), "{}", child.fen());
            // The mirrored position (colours swapped, ranks flipped) is the same for the network.
            let mirrored = mirror(child);
            assert_eq!(nnue_evaluate(&network, &mirrored), value, "{} / {}", child.fen(), mirrored.fen());
            count += 1;
        });
        assert!(count > 1000);
    }
}

/// With mirrored inputs, a position and its reflection across the d/e file line (no
/// castling rights, which would not reflect to rights of a legal position) have exactly the
/// same features, so the same value; with plain inputs, random weights tell them apart.
#[test]
fn mirrored_inputs_make_the_wings_alike() {
    let (mirrored, plain) = (Weights::random_mirrored(15).network(), Weights::random(15).network());
    let (mut count, mut differ) = (0, 0);
    random_walks(16, 2, |_, _, _, child| {
        if !child.castling_rights().is_empty() {
            return;
        }
        let reflected = reflect_files(child);
        assert_eq!(nnue_evaluate(&mirrored, &reflected), nnue_evaluate(&mirrored, child), "{}", child.fen());
        differ += usize::from(nnue_evaluate(&plain, &reflected) != nnue_evaluate(&plain, child));
        count += 1;
    });
    assert!(count > 200 && differ > count / 2, "{count} positions, {differ} told apart by plain inputs");
}

/// `pos` reflected across the line between files d and e (a position without castling
/// rights; the en passant square follows).
fn reflect_files(pos: &Position) -> Position {
    let fen = pos.fen();
    let fields: Vec<&str> = fen.split(' ').collect();
    assert_eq!(fields[2], "-", "{fen}: castling rights do not reflect");
    let board: Vec<String> = fields[0].split('/').map(|rank| rank.chars().rev().collect()).collect();
    let ep = match fields[3] {
        "-" => "-".to_owned(),
        ep => format!("{}{}", (b'a' + b'h' - ep.as_bytes()[0]) as char, &ep[1..]),
    };
    let fen = format!("{} {} - {ep} {} {}", board.join("/"), fields[1], fields[4], fields[5]);
    Position::from_fen(&fen, pos.castling_mode()).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// `pos` with the colours swapped and the board flipped top to bottom (castling rights and
/// the en passant square follow; the clocks stay).
fn mirror(pos: &Position) -> Position {
    let fen = pos.fen();
    let fields: Vec<&str> = fen.split(' ').collect();
    let board: Vec<String> = fields[0].split('/').rev().map(swap_case).collect();
    let turn = if fields[1] == "w" { "b" } else { "w" };
    // White's rights come first in a FEN.
    let swapped = swap_case(fields[2]);
    let castling: String = swapped
        .chars()
        .filter(char::is_ascii_uppercase)
        .chain(swapped.chars().filter(|c| !c.is_ascii_uppercase()))
        .collect();
    let ep = match fields[3] {
        "-" => "-".to_owned(),
        ep => format!("{}{}", &ep[..1], if &ep[1..] == "3" { "6" } else { "3" }),
    };
    let fen = format!("{} {turn} {castling} {ep} {} {}", board.join("/"), fields[4], fields[5]);
    Position::from_fen(&fen, pos.castling_mode()).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn swap_case(s: &str) -> String {
    s.chars().map(|c| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() }).collect()
}

/// Follows random games (with null moves) with an accumulator stack, as the search does,
/// and checks every ply's accumulators and evaluation against from-scratch ones.
fn check_incremental(weights: &QuantisedNet, simd_label: &str) -> Played {
    let network = Arc::new(weights.network());
    let mut stack = AccumulatorStack::new(Arc::clone(&network));
    let mut played = Played::default();
    random_walks(8, 6, |ply, parent, m, child| {
        if ply == 0 {
            stack.set_root(parent);
        }
        match m {
            Some(m) => {
                played.castles += usize::from(m.is_castle());
                played.castles960 += usize::from(m.is_castle() && parent.castling_mode() == CastlingMode::Chess960);
                played.en_passant += usize::from(m.is_en_passant());
                played.promotions += usize::from(m.is_promotion());
                played.captures += usize::from(parent.is_capture(m));
                let king = |pos: &Position| pos.king_of(parent.turn()).index() % 8 >= 4;
                played.crossings += usize::from(king(parent) != king(child));
                let (from, to) = (parent.king_of(parent.turn()), child.king_of(parent.turn()));
                played.bucket_changes += usize::from(
                    InputMapping::KingBuckets4.view(parent.turn(), from).index(PAWN, from) / INPUTS
                        != InputMapping::KingBuckets4.view(parent.turn(), to).index(PAWN, from) / INPUTS,
                );
                stack.push_move(ply, parent, m, child);
            }
            None => {
                played.nulls += 1;
                stack.push_null(ply);
            }
        }
        assert_eq!(
            *stack.accumulator(ply + 1),
            Accumulator::refresh(&network, child, Simd::SCALAR),
            "{simd_label}: {}",
            child.fen()
        );
        let expected = nnue_evaluate(&network, child).clamp(-MATE_BOUND + 1, MATE_BOUND - 1);
        assert_eq!(stack.evaluate(ply + 1, child), expected, "{simd_label}: {}", child.fen());
    });
    played
}

#[test]
fn incremental_accumulators_equal_from_scratch_ones() {
    for (label, weights) in [
        ("random", Weights::random(9)),
        ("mirrored", Weights::random_mirrored(9)),
        ("king buckets", Weights::random_king_buckets(9)),
    ] {
        let played = check_incremental(&weights, label);
        assert!(
            played.castles > 20
                && played.castles960 > 10
                && played.en_passant > 10
                && played.promotions > 20
                && played.captures > 100
                && played.nulls > 50
                && played.crossings > 50
                && played.bucket_changes > 50,
            "{label}: {played:?}"
        );
    }
}

/// The refresh cache gives the from-scratch accumulator of any position in any view, from
/// whatever position it last held for that view: here every position of random games (one
/// cache across all of them, so that an entry often comes from another game), both
/// perspectives, with each kernel; wrapping weights included.
#[test]
fn the_refresh_cache_gives_the_from_scratch_accumulator() {
    let kernels: Vec<Simd> = [Some(Simd::SCALAR), Simd::avx2()].into_iter().flatten().collect();
    for (label, weights) in [
        ("random", Weights::random(17)),
        ("mirrored", Weights::random_mirrored(17)),
        ("king buckets", Weights::random_king_buckets(17)),
        (
            "extreme king buckets",
            QuantisedNet {
                mapping: InputMapping::KingBuckets4,
                w1: (17..21).flat_map(|seed| extreme_weights(seed).w1).collect(),
                ..extreme_weights(17)
            },
        ),
    ] {
        let network = weights.network();
        for &simd in &kernels {
            let mut cache = RefreshCache::new();
            let mut positions = 0;
            random_walks(18, 1, |_, _, _, child| {
                let expected = Accumulator::refresh(&network, child, simd);
                for perspective in Color::ALL {
                    let view = network.input_mapping().view(perspective, child.king_of(perspective));
                    let mut row = *expected.perspective(!perspective);
                    cache.refresh(&mut row, &network, child, perspective, view, simd);
                    assert_eq!(&row, expected.perspective(perspective), "{label} {simd:?}: {}", child.fen());
                }
                positions += 1;
            });
            assert!(positions > 500, "{positions}");
        }
    }
}

/// Weights at the extremes of i16: accumulators overflow and wrap, identically whichever
/// way they are computed.
#[test]
fn incremental_accumulators_agree_even_when_they_wrap() {
    let mut rng = SplitMix::new(10);
    let mut weights = Weights::random(11);
    for w in &mut weights.w1 {
        *w = if rng.below(2) == 0 {
            i16::MAX - range(&mut rng, 0, 100) as i16
        } else {
            i16::MIN + range(&mut rng, 0, 100) as i16
        };
    }
    check_incremental(&weights, "wrapping");
}

#[test]
fn the_delta_of_each_move_kind() {
    let placed = |d: &Delta| (d.removed().len(), d.added().len());
    let start = Position::startpos();
    let e4 = start.legal_moves().iter().copied().find(|m| format!("{m:?}") == "e2e4").unwrap();
    assert_eq!(placed(&Delta::of_move(&start, e4)), (1, 1));
    let kiwipete = pos("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    for m in kiwipete.legal_moves().iter().copied() {
        let (removed, added) = placed(&Delta::of_move(&kiwipete, m));
        if m.is_castle() {
            assert_eq!((removed, added), (2, 2));
        } else if kiwipete.is_capture(m) {
            assert_eq!((removed, added), (2, 1));
        } else {
            assert_eq!((removed, added), (1, 1));
        }
    }
    let ep = pos("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
    let exf6 = ep.legal_moves().iter().copied().find(|m| m.is_en_passant()).unwrap();
    let delta = Delta::of_move(&ep, exf6);
    let removed: Vec<String> = delta.removed().iter().map(|(p, s)| format!("{}{s}", p.char())).collect();
    assert_eq!(removed, ["Pe5", "pf5"]);
    let promo = pos("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1");
    let gxh1 = promo.legal_moves().iter().copied().find(|m| format!("{m:?}") == "g2h1q").unwrap();
    let delta = Delta::of_move(&promo, gxh1);
    let removed: Vec<String> = delta.removed().iter().map(|(p, s)| format!("{}{s}", p.char())).collect();
    let added: Vec<String> = delta.added().iter().map(|(p, s)| format!("{}{s}", p.char())).collect();
    assert_eq!((removed, added), (vec!["pg2".to_owned(), "Nh1".to_owned()], vec!["qh1".to_owned()]));
    assert_eq!(placed(&Delta::default()), (0, 0));
}

#[test]
fn avx2_and_scalar_kernels_agree() {
    let Some(avx2) = Simd::avx2() else {
        eprintln!("skipped: this CPU has no AVX2");
        return;
    };
    for (label, weights) in [
        ("random", Weights::random(12)),
        ("extreme", extreme_weights(13)),
        ("mirrored", Weights::random_mirrored(12)),
        ("king buckets", Weights::random_king_buckets(12)),
    ] {
        let network = weights.network();
        let mut positions = 0;
        let (mut scalar_cache, mut vector_cache) = (RefreshCache::new(), RefreshCache::new());
        random_walks(14, 2, |_, parent, m, child| {
            let scalar = Accumulator::refresh(&network, child, Simd::SCALAR);
            let vector = Accumulator::refresh(&network, child, avx2);
            for color in [Color::White, Color::Black] {
                assert_eq!(scalar.perspective(color), vector.perspective(color), "{label}: {}", child.fen());
            }
            assert_eq!(
                scalar.evaluate(&network, child, Simd::SCALAR),
                vector.evaluate(&network, child, avx2),
                "{label}: {}",
                child.fen()
            );
            if let Some(m) = m {
                let parent_acc = Accumulator::refresh(&network, parent, Simd::SCALAR);
                let delta = Delta::of_move(parent, m);
                let mut by_scalar = Accumulator::ZERO;
                let mut by_vector = Accumulator::ZERO;
                by_scalar.update_from(&parent_acc, &delta, child, &network, Simd::SCALAR, &mut scalar_cache);
                by_vector.update_from(&parent_acc, &delta, child, &network, avx2, &mut vector_cache);
                assert_eq!(by_scalar, by_vector, "{label}: {}", child.fen());
                assert_eq!(by_scalar, scalar, "{label}: {}", child.fen());
            }
            positions += 1;
        });
        assert!(positions > 500, "{positions}");
    }
    assert_eq!(Simd::detect(), avx2);
}

/// A network of `H` neurons (`mapping`, four buckets of their own `QB`) as the kernels
/// compute it, scalar and AVX2, from scratch and move by move, equals the format's reference
/// on random games: the kernels are not tied to the search's width.
fn check_width<const H: usize>(mapping: InputMapping, seed: u64) {
    let reference = QuantisedNet { qb: vec![64, 128, 512, 4096], ..Weights::random_mapped(mapping, H, 4, seed) };
    let network = super::NetworkOf::<H>::from_bytes(&reference.to_bytes()).unwrap();
    let kernels: Vec<Simd> = [Some(Simd::SCALAR), Simd::avx2()].into_iter().flatten().collect();
    let mut positions = 0;
    let mut caches = vec![RefreshCache::new(); kernels.len()];
    random_walks(seed, 1, |_, parent, m, child| {
        let expected = reference.evaluate(child);
        for (&simd, cache) in kernels.iter().zip(&mut caches) {
            let scratch = Accumulator::refresh(&network, child, simd);
            assert_eq!(scratch.evaluate(&network, child, simd), expected, "H {H} {simd:?}: {}", child.fen());
            if let Some(m) = m {
                let mut updated = Accumulator::ZERO;
                let parent_acc = Accumulator::refresh(&network, parent, simd);
                updated.update_from(&parent_acc, &Delta::of_move(parent, m), child, &network, simd, cache);
                assert_eq!(updated, scratch, "H {H} {simd:?}: {}", child.fen());
            }
        }
        positions += 1;
    });
    assert!(positions > 300, "{positions}");
}

#[test]
fn the_kernels_equal_the_reference_at_other_widths() {
    check_width::<16>(InputMapping::Mirrored, 41);
    check_width::<128>(InputMapping::Mirrored, 42);
    check_width::<16>(InputMapping::KingBuckets4, 43);
}

/// Weights at the edges of what the format allows: every output weight is -127 or 127 and
/// the first layer pushes accumulators far past both clamps (and past i16, wrapping).
fn extreme_weights(seed: u64) -> QuantisedNet {
    let mut rng = SplitMix::new(seed);
    let mut weights = Weights::random(seed);
    for w in &mut weights.w1 {
        *w = [i16::MIN, i16::MAX, 255, -255, 0, 1][rng.below(6)];
    }
    for b in &mut weights.b1 {
        *b = [255, 256, 0, -1, 128][rng.below(5)];
    }
    for w in &mut weights.w2 {
        *w = if rng.below(2) == 0 { 127 } else { -127 };
    }
    weights
}

#[test]
fn values_are_bounded_for_the_search() {
    // An output bias far beyond any evaluation: the network says about +52,600,000 cp and
    // the search sees the largest non-mate value.
    let mut weights = Weights::zero();
    weights.b2[0] = i32::MAX;
    let network = Arc::new(weights.network());
    let start = Position::startpos();
    assert_eq!(nnue_evaluate(&network, &start), (i64::from(i32::MAX) * 400 / 16320) as i32);
    let mut stack = AccumulatorStack::new(Arc::clone(&network));
    stack.set_root(&start);
    assert_eq!(stack.evaluate(0, &start), MATE_BOUND - 1);
    weights.b2[0] = i32::MIN;
    let mut stack = AccumulatorStack::new(Arc::new(weights.network()));
    stack.set_root(&start);
    assert_eq!(stack.evaluate(0, &start), -MATE_BOUND + 1);
}

#[test]
fn roles_are_in_contract_order() {
    // The contract numbers roles Pawn = 0 .. King = 5, as tempo_core does.
    assert_eq!(Role::ALL.map(Role::index), [0, 1, 2, 3, 4, 5]);
}

/// Valid files of one and eight buckets, of mirrored inputs and of king buckets, to damage:
/// made once (the king buckets' first layer is 1.5 MB of random weights).
fn valid_files() -> &'static [Vec<u8>; 4] {
    static FILES: std::sync::OnceLock<[Vec<u8>; 4]> = std::sync::OnceLock::new();
    FILES.get_or_init(|| {
        let mut one = Weights::random(31);
        one.w2.truncate(2 * HIDDEN);
        one.b2.truncate(1);
        one.qb.truncate(1);
        let mut scaled = Weights::random_mirrored(33);
        scaled.qb[2] = 512;
        [one.to_bytes(), Weights::random(32).to_bytes(), scaled.to_bytes(), Weights::random_king_buckets(34).to_bytes()]
    })
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]

    /// Arbitrary bytes, and valid files with a header word replaced, bytes overwritten or cut
    /// short: the reader returns an error or a network, never panics, and a network it
    /// accepts writes out as a file it reads back the same.
    #[test]
    fn network_files_never_panic(
        noise in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..200),
        which in 0usize..4,
        word in 0usize..11,
        value in proptest::prelude::any::<u32>(),
        at in proptest::prelude::any::<usize>(),
        cut in proptest::prelude::any::<usize>(),
    ) {
        let mut prefixed = b"TEMPONNU".to_vec();
        prefixed.extend_from_slice(&noise);
        let mut damaged = valid_files()[which].clone();
        if word < 9 {
            put_u32(&mut damaged, 8 + 4 * word, value);
        } else {
            let at = at % damaged.len();
            damaged[at] = value as u8;
        }
        let len = damaged.len();
        let cut = if word == 10 { cut % (len + 1) } else { len };
        for bytes in [&noise[..], &prefixed[..], &damaged[..cut]] {
            if let Ok(network) = Network::from_bytes(bytes) {
                let written = network.to_bytes();
                proptest::prop_assert_eq!(Network::from_bytes(&written).unwrap(), network);
            }
        }
    }
}
