//! The network's weights and the file format that carries them, version 3 (and versions 2
//! and 1, its predecessors without mirrored inputs and with one bucket); see the module
//! documentation of `eval::nnue` for the layout.

use super::simd::Row;
use super::{HIDDEN, INPUTS, OUTPUT_BUCKET_COUNTS, QA, QB_RANGE, SCALE};
use std::fmt;

/// The file's first 8 bytes.
const MAGIC: [u8; 8] = *b"TEMPONNU";
/// The newest format version: the input mapping after the header's version 2 fields, and an
/// output quantisation per bucket after the weights. This build reads versions 1 to 3 and
/// writes the oldest one that holds a network (version 2 for plain inputs and one `QB`), so
/// that a file read and written again is unchanged.
const VERSION: u32 = 3;
/// Input mapping codes of version 3: plain (as versions 1 and 2), or mirrored by the own
/// king's file.
const PLAIN: u32 = 0;
const MIRRORED: u32 = 1;
/// Activation code of SCReLU, the only activation of the format.
const SCRELU: u32 = 1;
/// Bytes before the weights in versions 1 and 2; version 3 adds a 4-byte field.
const HEADER_BYTES: usize = 40;
/// Largest output weight magnitude (`round(1.98 * 64)`, the trainer's clip at the coarsest
/// `QB`). The AVX2 output kernel multiplies a weight by an activation (at most 255) in 16
/// bits, which this bound keeps exact.
const MAX_OUTPUT_WEIGHT: i16 = 127;

/// Bytes before the weights in a file of `version`.
const fn header_bytes(version: u32) -> usize {
    if version >= 3 {
        HEADER_BYTES + 4
    } else {
        HEADER_BYTES
    }
}

/// The size of a file of `version` for a network of `hidden` neurons and `buckets` output
/// buckets.
const fn file_size(version: u32, hidden: usize, buckets: usize) -> usize {
    let scales = if version >= 3 { 4 * buckets } else { 0 };
    header_bytes(version) + 2 * INPUTS * hidden + 2 * hidden + buckets * (4 * hidden + 4) + scales
}

/// Why bytes are not a network this build can use. Each message says what was found and
/// what was expected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NetworkError {
    /// Fewer bytes than the header (40 bytes, 44 in version 3).
    #[error("file is {} bytes, too short for the header of a network file", grouped(*.0))]
    TooShort(usize),
    /// The first 8 bytes are not `TEMPONNU`.
    #[error("not a Tempo network: the file starts with {}, not \"TEMPONNU\"", escaped(.0))]
    Magic([u8; 8]),
    /// A format version other than 1, 2 and 3.
    #[error("network format version {0} is not supported; this build reads versions 1 to {VERSION}")]
    Version(u32),
    /// An input count other than 768.
    #[error("network has {0} input features; the format has {INPUTS}")]
    Inputs(u32),
    /// A hidden layer of another size than [`HIDDEN`].
    #[error("network has {0} hidden neurons; this build expects {HIDDEN}")]
    Hidden(u32),
    /// An activation other than SCReLU (1).
    #[error("network activation {0} is not supported; the format knows only {SCRELU} (SCReLU)")]
    Activation(u32),
    /// A quantisation or scale constant other than the format's.
    #[error("network {name} is {found}; the format requires {expected}")]
    Constant {
        /// `QA` or `SCALE`.
        name: &'static str,
        /// The value in the file.
        found: i32,
        /// The value the format fixes.
        expected: i32,
    },
    /// An output quantisation `QB` outside 64 to 4096 (versions 1 and 2: the header's; version
    /// 3: a bucket's), or a version 3 header whose `QB` field is not 0.
    #[error("network QB is {0}; the format allows {low} to {high}", low = QB_RANGE.start(), high = QB_RANGE.end())]
    OutputScale(i32),
    /// A version 1 header whose reserved field is not zero.
    #[error("network header's reserved field is {0}; it must be 0 in version 1")]
    Reserved(u32),
    /// An input mapping other than 0 (plain) and 1 (mirrored), version 3.
    #[error("network input mapping {0} is not supported; the format knows {PLAIN} (plain) and {MIRRORED} (mirrored by the king's file)")]
    InputMapping(u32),
    /// An output bucket count other than 1, 2, 4 and 8 (versions 2 and 3).
    #[error("network has {0} output buckets; the format allows 1, 2, 4 or 8")]
    OutputBuckets(u32),
    /// The file is not exactly the size its header implies.
    #[error(
        "file is {} bytes; a version {version} file of a {HIDDEN}-neuron network with {buckets} output bucket{} is {} bytes",
        grouped(*found),
        if *buckets == 1 { "" } else { "s" },
        grouped(file_size(*version, HIDDEN, *buckets))
    )]
    Size {
        /// The file's size.
        found: usize,
        /// The format version its header declares.
        version: u32,
        /// The output buckets its header declares.
        buckets: usize,
    },
    /// An output weight outside `-127..=127` (the trainer clips `W2` to 1.98, i.e. 127 after
    /// quantisation; larger values would overflow the 16-bit product of the output layer).
    #[error("output weight {index} is {value}; the format allows -{MAX_OUTPUT_WEIGHT} to {MAX_OUTPUT_WEIGHT}")]
    OutputWeight {
        /// Its index in `W2q` (0 to `B * 2 * HIDDEN - 1`).
        index: usize,
        /// Its value.
        value: i16,
    },
}

/// `197420` as `197,420`.
pub(super) fn grouped(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Bytes as a quoted string with non-printable bytes escaped (`"MZ\x90\x00..."`).
fn escaped(bytes: &[u8]) -> String {
    format!("\"{}\"", bytes.escape_ascii())
}

/// A quantised network for this build's [`HIDDEN`] size, ready for inference.
///
/// The first layer's 768 x `HIDDEN` weights (about 200 KB) live on the heap, one 64-byte
/// aligned row per input feature, so that adding a feature's weights to an accumulator is a
/// run of aligned vector additions. Share a network between threads with an `Arc`.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// `W1q`: the weights of feature `f` are row `f`.
    w1: Box<[Row; INPUTS]>,
    /// `b1q`.
    b1: Row,
    /// `W2q` of each output bucket: `[0]` for the side to move's accumulator, `[1]` for the
    /// other's.
    w2: Box<[[Row; 2]]>,
    /// `b2q` of each output bucket.
    b2: Box<[i32]>,
    /// Whether each perspective sees the files flipped while its king stands on files e to h.
    mirrored: bool,
    /// The output weights' quantisation of each bucket: 1.0 is stored as `qb[bucket]`.
    qb: Box<[i32]>,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Two hundred thousand weights help nobody; the shape and the output bias identify it.
        f.debug_struct("Network")
            .field("inputs", &INPUTS)
            .field("hidden", &HIDDEN)
            .field("buckets", &self.b2.len())
            .field("mirrored", &self.mirrored)
            .field("qb", &self.qb)
            .field("b2", &self.b2)
            .finish()
    }
}

/// Reads little-endian integers from the bytes in order.
struct Reader<'a> {
    bytes: &'a [u8],
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let (head, tail) = self.bytes.split_at(N);
        self.bytes = tail;
        head.try_into().expect("split_at gives N bytes")
    }

    fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.take())
    }

    fn i32(&mut self) -> i32 {
        i32::from_le_bytes(self.take())
    }

    fn row(&mut self) -> Row {
        let mut row = Row::ZERO;
        for w in &mut row.0 {
            *w = i16::from_le_bytes(self.take());
        }
        row
    }
}

impl Network {
    /// Size in bytes of a file of format `version` (1 to 3) for this build's networks of
    /// `buckets` output buckets.
    pub const fn file_size(version: u32, buckets: usize) -> usize {
        file_size(version, HIDDEN, buckets)
    }

    /// Parses a network file, version 3, 2 or 1 (the format is described in the
    /// documentation of the `eval::nnue` module).
    ///
    /// # Errors
    /// A [`NetworkError`] naming the first problem: a file shorter than the header, a wrong
    /// magic, version, input count, hidden size (it must be [`HIDDEN`]), activation, `QA` or
    /// `SCALE`, a `QB` outside 64 to 4096 (or, in version 3, a header `QB` other than 0), an output bucket count other than 1, 2, 4 or 8 (versions 2 and 3) or
    /// a non-zero reserved field (version 1), an input mapping other than 0 and 1 (version
    /// 3), a size other than the header implies, or an output weight outside `-127..=127`.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        if bytes.len() < HEADER_BYTES {
            return Err(NetworkError::TooShort(bytes.len()));
        }
        let mut r = Reader { bytes };
        let magic = r.take::<8>();
        if magic != MAGIC {
            return Err(NetworkError::Magic(magic));
        }
        let version = r.u32();
        if !(1..=VERSION).contains(&version) {
            return Err(NetworkError::Version(version));
        }
        if bytes.len() < header_bytes(version) {
            return Err(NetworkError::TooShort(bytes.len()));
        }
        let inputs = r.u32();
        if inputs as usize != INPUTS {
            return Err(NetworkError::Inputs(inputs));
        }
        let hidden = r.u32();
        if hidden as usize != HIDDEN {
            return Err(NetworkError::Hidden(hidden));
        }
        let activation = r.u32();
        if activation != SCRELU {
            return Err(NetworkError::Activation(activation));
        }
        let (qa, qb, scale) = (r.i32(), r.i32(), r.i32());
        for (name, found, expected) in [("QA", qa, QA), ("SCALE", scale, SCALE)] {
            if found != expected {
                return Err(NetworkError::Constant { name, found, expected });
            }
        }
        // Version 3 gives each bucket its own, after the weights.
        if (version < 3 && !QB_RANGE.contains(&qb)) || (version >= 3 && qb != 0) {
            return Err(NetworkError::OutputScale(qb));
        }
        let field = r.u32();
        let buckets = match version {
            1 if field != 0 => return Err(NetworkError::Reserved(field)),
            1 => 1,
            _ if !OUTPUT_BUCKET_COUNTS.contains(&(field as usize)) => return Err(NetworkError::OutputBuckets(field)),
            _ => field as usize,
        };
        let mirrored = match (version, if version >= 3 { r.u32() } else { PLAIN }) {
            (_, PLAIN) => false,
            (_, MIRRORED) => true,
            (_, mapping) => return Err(NetworkError::InputMapping(mapping)),
        };
        if bytes.len() != file_size(version, HIDDEN, buckets) {
            return Err(NetworkError::Size { found: bytes.len(), version, buckets });
        }

        // Built in a vector, not on the stack: the rows take 768 x 2 x HIDDEN bytes.
        let w1: Vec<Row> = (0..INPUTS).map(|_| r.row()).collect();
        let w1: Box<[Row; INPUTS]> = w1.into_boxed_slice().try_into().expect("exactly INPUTS rows");
        let b1 = r.row();
        let w2: Box<[[Row; 2]]> = (0..buckets).map(|_| [r.row(), r.row()]).collect();
        let b2: Box<[i32]> = (0..buckets).map(|_| r.i32()).collect();
        let qb: Box<[i32]> = (0..buckets).map(|_| if version >= 3 { r.i32() } else { qb }).collect();
        debug_assert!(r.bytes.is_empty());
        if let Some(&qb) = qb.iter().find(|qb| !QB_RANGE.contains(qb)) {
            return Err(NetworkError::OutputScale(qb));
        }
        let outputs = w2.iter().flatten().flat_map(|row| row.0);
        if let Some((index, value)) =
            outputs.enumerate().find(|(_, w)| !(-MAX_OUTPUT_WEIGHT..=MAX_OUTPUT_WEIGHT).contains(w))
        {
            return Err(NetworkError::OutputWeight { index, value });
        }
        Ok(Network { w1, b1, w2, b2, mirrored, qb })
    }

    /// The network as a file, version 2 if its inputs are plain and its buckets share one
    /// `QB`, version 3 otherwise: [`Network::from_bytes`] of the result gives it back.
    pub fn to_bytes(&self) -> Vec<u8> {
        let buckets = self.output_buckets();
        let one_scale = self.qb.iter().all(|&qb| qb == self.qb[0]);
        let version = if !self.mirrored && one_scale { 2 } else { VERSION };
        let mut out = Vec::with_capacity(Network::file_size(version, buckets));
        out.extend_from_slice(&MAGIC);
        for field in [version, INPUTS as u32, HIDDEN as u32, SCRELU] {
            out.extend_from_slice(&field.to_le_bytes());
        }
        let header_qb = if version >= 3 { 0 } else { self.qb[0] };
        for constant in [QA, header_qb, SCALE] {
            out.extend_from_slice(&constant.to_le_bytes());
        }
        out.extend_from_slice(&(buckets as u32).to_le_bytes());
        if version >= 3 {
            out.extend_from_slice(&if self.mirrored { MIRRORED } else { PLAIN }.to_le_bytes());
        }
        for row in self.w1.iter().chain([&self.b1]).chain(self.w2.iter().flatten()) {
            for w in row.0 {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        for b in &self.b2 {
            out.extend_from_slice(&b.to_le_bytes());
        }
        if version >= 3 {
            for qb in &self.qb {
                out.extend_from_slice(&qb.to_le_bytes());
            }
        }
        debug_assert_eq!(out.len(), Network::file_size(version, buckets));
        out
    }

    /// The number of output buckets, B.
    #[inline]
    pub fn output_buckets(&self) -> usize {
        self.b2.len()
    }

    /// Whether the inputs are mirrored: each perspective sees the files flipped while its own
    /// king stands on files e to h (version 3 files with input mapping 1).
    #[inline]
    pub fn mirrors_inputs(&self) -> bool {
        self.mirrored
    }

    /// The first layer's weights for input feature `feature` (below 768).
    #[inline]
    pub(crate) fn feature_weights(&self, feature: usize) -> &Row {
        &self.w1[feature]
    }

    /// The first layer's biases.
    #[inline]
    pub(crate) fn biases(&self) -> &Row {
        &self.b1
    }

    /// The output weights of `bucket` for the side to move's accumulator (`[0]`) and the
    /// other's (`[1]`).
    #[inline]
    pub(crate) fn output_weights(&self, bucket: usize) -> &[Row; 2] {
        &self.w2[bucket]
    }

    /// The output weights' quantisation `QB` of `bucket`: 1.0 is stored as this.
    ///
    /// # Panics
    /// If `bucket` is not below [`Network::output_buckets`].
    #[inline]
    pub fn output_scale(&self, bucket: usize) -> i32 {
        self.qb[bucket]
    }

    /// The output bias of `bucket`, `b2q[bucket]`.
    #[inline]
    pub(crate) fn output_bias(&self, bucket: usize) -> i32 {
        self.b2[bucket]
    }
}
