//! The network's weights and the version 1 file format that carries them (see the module
//! documentation of `eval::nnue` for the layout).

use super::simd::Row;
use super::{HIDDEN, INPUTS, QA, QB, SCALE};
use std::fmt;

/// The file's first 8 bytes.
const MAGIC: [u8; 8] = *b"TEMPONNU";
/// The only format version this build reads.
const VERSION: u32 = 1;
/// Activation code of SCReLU, the only activation of version 1.
const SCRELU: u32 = 1;
/// Bytes before the weights.
const HEADER_BYTES: usize = 40;
/// Largest output weight magnitude: `round(1.98 * QB)`. The AVX2 output kernel multiplies
/// a weight by an activation (at most 255) in 16 bits, which this bound keeps exact.
const MAX_OUTPUT_WEIGHT: i16 = 127;

/// The size of a version 1 file for a network of `hidden` neurons.
const fn file_size(hidden: usize) -> usize {
    HEADER_BYTES + 2 * INPUTS * hidden + 2 * hidden + 4 * hidden + 4
}

/// Why bytes are not a network this build can use. Each message says what was found and
/// what was expected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NetworkError {
    /// Fewer bytes than the header.
    #[error("file is {} bytes, too short for the {HEADER_BYTES}-byte header of a network file", grouped(*.0))]
    TooShort(usize),
    /// The first 8 bytes are not `TEMPONNU`.
    #[error("not a Tempo network: the file starts with {}, not \"TEMPONNU\"", escaped(.0))]
    Magic([u8; 8]),
    /// A format version other than 1.
    #[error("network format version {0} is not supported; this build reads version {VERSION}")]
    Version(u32),
    /// An input count other than 768.
    #[error("network has {0} input features; the format has {INPUTS}")]
    Inputs(u32),
    /// A hidden layer of another size than [`HIDDEN`].
    #[error("network has {0} hidden neurons; this build expects {HIDDEN}")]
    Hidden(u32),
    /// An activation other than SCReLU (1).
    #[error("network activation {0} is not supported; version {VERSION} knows only {SCRELU} (SCReLU)")]
    Activation(u32),
    /// A quantisation or scale constant other than the format's.
    #[error("network {name} is {found}; the format requires {expected}")]
    Constant {
        /// `QA`, `QB` or `SCALE`.
        name: &'static str,
        /// The value in the file.
        found: i32,
        /// The value the format fixes.
        expected: i32,
    },
    /// The reserved header field is not zero.
    #[error("network header's reserved field is {0}; it must be 0")]
    Reserved(u32),
    /// The file is not exactly the size its header implies.
    #[error("file is {} bytes; a {HIDDEN}-neuron network is {} bytes", grouped(*.0), grouped(file_size(HIDDEN)))]
    Size(usize),
    /// An output weight outside `-127..=127` (the trainer clips `W2` to 1.98, i.e. 127 after
    /// quantisation; larger values would overflow the 16-bit product of the output layer).
    #[error("output weight {index} is {value}; the format allows -{MAX_OUTPUT_WEIGHT} to {MAX_OUTPUT_WEIGHT}")]
    OutputWeight {
        /// Its index in `W2q` (0 to `2 * HIDDEN - 1`).
        index: usize,
        /// Its value.
        value: i16,
    },
}

/// `197420` as `197,420`.
fn grouped(n: usize) -> String {
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
    /// `W2q`: `[0]` for the side to move's accumulator, `[1]` for the other's.
    w2: [Row; 2],
    /// `b2q`.
    b2: i32,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Two hundred thousand weights help nobody; the shape and the output bias identify it.
        f.debug_struct("Network").field("inputs", &INPUTS).field("hidden", &HIDDEN).field("b2", &self.b2).finish()
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
    /// Size in bytes of a network file for this build (40-byte header, then the weights).
    pub const FILE_SIZE: usize = file_size(HIDDEN);

    /// Parses a version 1 network file (the format is described in the documentation of
    /// the `eval::nnue` module).
    ///
    /// # Errors
    /// A [`NetworkError`] naming the first problem: a file shorter than the header, a wrong
    /// magic, version, input count, hidden size (it must be [`HIDDEN`]), activation, `QA`,
    /// `QB` or `SCALE`, a non-zero reserved field, a size other than
    /// [`Network::FILE_SIZE`], or an output weight outside `-127..=127`.
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
        if version != VERSION {
            return Err(NetworkError::Version(version));
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
        for (name, expected) in [("QA", QA), ("QB", QB), ("SCALE", SCALE)] {
            let found = r.i32();
            if found != expected {
                return Err(NetworkError::Constant { name, found, expected });
            }
        }
        let reserved = r.u32();
        if reserved != 0 {
            return Err(NetworkError::Reserved(reserved));
        }
        if bytes.len() != Network::FILE_SIZE {
            return Err(NetworkError::Size(bytes.len()));
        }

        // Built in a vector, not on the stack: the rows take 192 KiB.
        let w1: Vec<Row> = (0..INPUTS).map(|_| r.row()).collect();
        let w1: Box<[Row; INPUTS]> = w1.into_boxed_slice().try_into().expect("exactly INPUTS rows");
        let b1 = r.row();
        let w2 = [r.row(), r.row()];
        let b2 = r.i32();
        debug_assert!(r.bytes.is_empty());
        let outputs = w2.iter().flat_map(|row| row.0);
        if let Some((index, value)) =
            outputs.enumerate().find(|(_, w)| !(-MAX_OUTPUT_WEIGHT..=MAX_OUTPUT_WEIGHT).contains(w))
        {
            return Err(NetworkError::OutputWeight { index, value });
        }
        Ok(Network { w1, b1, w2, b2 })
    }

    /// The network as a version 1 file: [`Network::from_bytes`] of the result gives it back.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(Network::FILE_SIZE);
        out.extend_from_slice(&MAGIC);
        for field in [VERSION, INPUTS as u32, HIDDEN as u32, SCRELU] {
            out.extend_from_slice(&field.to_le_bytes());
        }
        for constant in [QA, QB, SCALE] {
            out.extend_from_slice(&constant.to_le_bytes());
        }
        out.extend_from_slice(&0u32.to_le_bytes());
        for row in self.w1.iter().chain([&self.b1]).chain(&self.w2) {
            for w in row.0 {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        out.extend_from_slice(&self.b2.to_le_bytes());
        debug_assert_eq!(out.len(), Network::FILE_SIZE);
        out
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

    /// The output weights for the side to move's accumulator (`[0]`) and the other's (`[1]`).
    #[inline]
    pub(crate) fn output_weights(&self) -> &[Row; 2] {
        &self.w2
    }

    /// The output bias, `b2q`.
    #[inline]
    pub(crate) fn output_bias(&self) -> i32 {
        self.b2
    }
}
