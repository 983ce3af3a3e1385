//! The engine's network: a [`QuantisedNet`] of a fixed hidden size (this build's [`HIDDEN`]
//! in the search), laid out for the vector kernels.

use super::format::{InputMapping, NetworkError, QuantisedNet};
use super::simd::Row;
use super::HIDDEN;
use std::fmt;

/// The network the search uses: this build's [`HIDDEN`] size.
pub type Network = NetworkOf<HIDDEN>;

/// A quantised network of `H` hidden neurons, ready for inference. The search uses
/// [`Network`]; other widths serve the tests that hold the kernels to the format.
///
/// The first layer's weights (768 x `H` per king bucket of the input mapping, about 200 KB
/// per bucket at 256 neurons) live on the heap, one 64-byte aligned row per input feature,
/// so that adding a feature's weights to an accumulator is a run of aligned vector
/// additions. Share a network between threads with an `Arc`.
#[derive(Clone, PartialEq, Eq)]
pub struct NetworkOf<const H: usize> {
    /// `W1q`: the weights of feature `f` are row `f`, one per input of the mapping.
    w1: Box<[Row<H>]>,
    /// `b1q`.
    b1: Row<H>,
    /// `W2q` of each output bucket: `[0]` for the side to move's accumulator, `[1]` for the
    /// other's.
    w2: Box<[[Row<H>; 2]]>,
    /// `b2q` of each output bucket.
    b2: Box<[i32]>,
    /// How each perspective sees the board.
    mapping: InputMapping,
    /// The output weights' quantisation of each bucket: 1.0 is stored as `qb[bucket]`.
    qb: Box<[i32]>,
}

impl<const H: usize> fmt::Debug for NetworkOf<H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Two hundred thousand weights help nobody; the shape and the output bias identify it.
        f.debug_struct("Network")
            .field("inputs", &self.w1.len())
            .field("hidden", &H)
            .field("buckets", &self.b2.len())
            .field("mapping", &self.mapping)
            .field("qb", &self.qb)
            .field("b2", &self.b2)
            .finish()
    }
}

impl<const H: usize> NetworkOf<H> {
    /// Parses a network file, version 3, 2 or 1 (the format is described in the
    /// documentation of the `nnue` module), through [`QuantisedNet::from_bytes`].
    ///
    /// # Errors
    /// A [`NetworkError`] naming the first problem: one of [`QuantisedNet::from_bytes`]'s, or a
    /// hidden size other than `H` (reported before the size is checked).
    pub fn from_bytes(bytes: &[u8]) -> Result<NetworkOf<H>, NetworkError> {
        let header = super::format::Header::parse(bytes)?;
        if header.hidden != H {
            return Err(NetworkError::Hidden { found: header.hidden, expected: H });
        }
        NetworkOf::from_quantised(&QuantisedNet::from_bytes(bytes)?)
    }

    /// The network of `net`'s weights, laid out for the kernels.
    ///
    /// # Errors
    /// [`NetworkError::Hidden`] if `net` does not have `H` neurons.
    ///
    /// # Panics
    /// If `net`'s vectors do not match its shape (it was not built by
    /// [`QuantisedNet::from_bytes`] or by hand consistently).
    pub fn from_quantised(net: &QuantisedNet) -> Result<NetworkOf<H>, NetworkError> {
        let () = Row::<H>::VALID;
        if net.hidden != H {
            return Err(NetworkError::Hidden { found: net.hidden, expected: H });
        }
        let row = |weights: &[i16]| Row(weights.try_into().expect("H weights"));
        // Built in a vector, not on the stack: the rows take 768 x 2 x H bytes per bucket.
        let w1: Box<[Row<H>]> = net.w1.chunks_exact(H).map(row).collect();
        assert_eq!(w1.len(), net.mapping.inputs(), "a row per input feature");
        let w2 = net.w2.chunks_exact(2 * H).map(|bucket| [row(&bucket[..H]), row(&bucket[H..])]);
        Ok(NetworkOf {
            w1,
            b1: row(&net.b1),
            w2: w2.collect(),
            b2: net.b2.clone().into_boxed_slice(),
            mapping: net.mapping,
            qb: net.qb.clone().into_boxed_slice(),
        })
    }

    /// The network's weights in file order.
    pub fn to_quantised(&self) -> QuantisedNet {
        QuantisedNet {
            hidden: H,
            mapping: self.mapping,
            w1: self.w1.iter().flat_map(|row| row.0).collect(),
            b1: self.b1.0.to_vec(),
            w2: self.w2.iter().flatten().flat_map(|row| row.0).collect(),
            b2: self.b2.to_vec(),
            qb: self.qb.to_vec(),
        }
    }

    /// The network as a file ([`QuantisedNet::to_bytes`]): [`Network::from_bytes`] of the
    /// result gives it back.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.to_quantised().to_bytes()
    }

    /// The number of output buckets, B.
    #[inline]
    pub fn output_buckets(&self) -> usize {
        self.b2.len()
    }

    /// How each perspective sees the board.
    #[inline]
    pub fn input_mapping(&self) -> InputMapping {
        self.mapping
    }

    /// The first layer's weights for input feature `feature` (below the mapping's
    /// [`InputMapping::inputs`]).
    #[inline]
    pub(crate) fn feature_weights(&self, feature: usize) -> &Row<H> {
        &self.w1[feature]
    }

    /// The first layer's biases.
    #[inline]
    pub(crate) fn biases(&self) -> &Row<H> {
        &self.b1
    }

    /// The output weights of `bucket` for the side to move's accumulator (`[0]`) and the
    /// other's (`[1]`).
    #[inline]
    pub(crate) fn output_weights(&self, bucket: usize) -> &[Row<H>; 2] {
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
