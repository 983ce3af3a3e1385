//! The float network, `(I -> H) x 2 -> B`, and its forward and backward passes (`I` the
//! input mapping's number of features: 768, or 768 per king bucket).
//!
//! ```text
//! acc_p[j] = b1[j] + sum over active features f of W1[f][j]          (j in 0..H, p = stm, other)
//! b        = output_bucket(pieces on the board, B)
//! out      = sum_j act(acc_stm[j]) * W2[b][j] + sum_j act(acc_other[j]) * W2[b][H + j] + b2[b]
//! eval_cp  = out * 400
//! ```
//!
//! with `act` SCReLU (`clamp(x, 0, 1)^2`, what the file format supports) or CReLU
//! (`clamp(x, 0, 1)`). Both accumulators share `W1` and `b1`; the `B` output buckets (1 to 8,
//! chosen by the number of pieces, [`tempo_engine::output_bucket`]) each have their own
//! output weights, so that the opening and the endgame are judged by different sums of the
//! same features. The loss of one position is `(sigmoid(out) - target)^2`.
//!
//! Parameters live in one flat `f32` vector, `[W1 (I x H, feature-major) | b1 (H) | W2 (B x
//! 2H, bucket-major) | b2 (B)]`, and so do gradients and optimiser moments. Only the rows of `W1` of active
//! features are read in the forward pass and written in the backward pass. The H-length loops
//! work on 32-byte-aligned eights of floats (H must be a multiple of 8) that the compiler
//! vectorises; on x86-64 with AVX2 the batch functions are compiled a second time for it and
//! chosen at run time.

use super::data::{Dataset, InputMapping, Target, INPUTS, MAX_ACTIVE};
use crate::rng::Rng;
use tempo_core::Position;
use tempo_engine::output_bucket;

/// Centipawns per unit of network output.
pub const SCALE: f32 = tempo_engine::nnue::format::SCALE as f32;
/// Every weight is clipped to `[-CLIP, CLIP]` after each step, so that the quantised network's
/// products cannot overflow `i16`.
pub const CLIP: f32 = 1.98;

/// The hidden layer's activation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Activation {
    /// Squared clipped ReLU, `clamp(x, 0, 1)^2` (the file format's activation).
    Screlu,
    /// Clipped ReLU, `clamp(x, 0, 1)` (float experiments only: the file format has no code for it).
    Crelu,
}

impl Activation {
    /// The activation's code in checkpoints and network files (1 = SCReLU).
    pub fn code(self) -> u32 {
        match self {
            Activation::Screlu => tempo_engine::nnue::format::SCRELU,
            Activation::Crelu => 2,
        }
    }

    /// The activation with this code.
    pub fn from_code(code: u32) -> Option<Activation> {
        match code {
            tempo_engine::nnue::format::SCRELU => Some(Activation::Screlu),
            2 => Some(Activation::Crelu),
            _ => None,
        }
    }
}

/// An activation function and its derivative, for monomorphised inner loops.
trait Act {
    fn f(x: f32) -> f32;
    fn df(x: f32) -> f32;
}

struct Screlu;
impl Act for Screlu {
    #[inline(always)]
    fn f(x: f32) -> f32 {
        let c = x.clamp(0.0, 1.0);
        c * c
    }
    #[inline(always)]
    fn df(x: f32) -> f32 {
        if x > 0.0 && x < 1.0 {
            2.0 * x
        } else {
            0.0
        }
    }
}

struct Crelu;
impl Act for Crelu {
    #[inline(always)]
    fn f(x: f32) -> f32 {
        x.clamp(0.0, 1.0)
    }
    #[inline(always)]
    fn df(x: f32) -> f32 {
        if x > 0.0 && x < 1.0 {
            1.0
        } else {
            0.0
        }
    }
}

/// The architecture of a network: hidden neurons per accumulator (a positive multiple of
/// 8), output buckets (1, 2, 4 or 8: see [`tempo_engine::output_bucket`]) and the input
/// mapping (which weights a position uses, and with its king buckets how many rows the
/// first layer has).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Hidden neurons per accumulator, H.
    pub hidden: usize,
    /// Output buckets, B.
    pub buckets: usize,
    /// How each perspective's features see the board.
    pub inputs: InputMapping,
}

impl Shape {
    /// Whether the trainer and the file format can have this shape.
    pub fn is_valid(self) -> bool {
        self.hidden > 0 && self.hidden % 8 == 0 && tempo_engine::OUTPUT_BUCKET_COUNTS.contains(&self.buckets)
    }

    /// Number of parameters.
    pub fn param_count(self) -> usize {
        self.inputs.inputs() * self.hidden + self.hidden + self.buckets * (2 * self.hidden + 1)
    }

    /// Index in the flat parameters of the first output weight.
    pub fn output_start(self) -> usize {
        (self.inputs.inputs() + 1) * self.hidden
    }
}

/// Eight floats aligned to 32 bytes: one AVX register. Parameters and gradients are stored
/// in these, so that the compiler knows every row of the first layer to be aligned (H is a
/// multiple of 8) and moves whole registers: with the workspace's `x86-64-v2` tuning it
/// splits every unaligned 32-byte access in two, which costs a third of the speed.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C, align(32))]
pub struct F32x8(pub [f32; 8]);

/// A flat `f32` vector stored as aligned eights (zero-padded to a multiple of 8).
#[derive(Clone, Debug)]
pub struct Flat {
    lanes: Vec<F32x8>,
    len: usize,
}

impl Flat {
    /// `len` zeros.
    pub fn zeros(len: usize) -> Flat {
        Flat { lanes: vec![F32x8::default(); len.div_ceil(8)], len }
    }

    /// A copy of `values`.
    pub fn from_slice(values: &[f32]) -> Flat {
        let mut flat = Flat::zeros(values.len());
        flat.as_mut_slice().copy_from_slice(values);
        flat
    }

    /// The values.
    pub fn as_slice(&self) -> &[f32] {
        // SAFETY: `F32x8` is `repr(C)` over `[f32; 8]` without padding (size 32 = 8 * 4), so
        // the lanes are `8 * lanes.len() >= len` initialised floats, suitably aligned.
        unsafe { std::slice::from_raw_parts(self.lanes.as_ptr().cast::<f32>(), self.len) }
    }

    /// The values, to change.
    pub fn as_mut_slice(&mut self) -> &mut [f32] {
        // SAFETY: as in `as_slice`, and the borrow of `self` is exclusive.
        unsafe { std::slice::from_raw_parts_mut(self.lanes.as_mut_ptr().cast::<f32>(), self.len) }
    }
}

impl PartialEq for Flat {
    fn eq(&self, other: &Flat) -> bool {
        self.as_slice() == other.as_slice()
    }
}

/// `(W1, b1, W2, b2)` of a flat parameter vector (`W2` all buckets' weights, `b2` all
/// buckets' biases).
fn split_flat(params: &[f32], shape: Shape) -> (&[f32], &[f32], &[f32], &[f32]) {
    let h = shape.hidden;
    let (w1, rest) = params.split_at(shape.inputs.inputs() * h);
    let (b1, rest) = rest.split_at(h);
    let (w2, b2) = rest.split_at(2 * h * shape.buckets);
    (w1, b1, w2, b2)
}

/// `(W1, b1, W2, b2)` of a parameter vector in eights, `hv = H / 8` of them per row and
/// `inputs` rows in `W1`: `W2` is every bucket's `2 * hv` eights, `b2` one eight holding the
/// (at most 8) buckets' biases.
#[inline(always)]
fn split(params: &[F32x8], (hv, buckets, inputs): Dims) -> (&[F32x8], &[F32x8], &[F32x8], &F32x8) {
    let (w1, rest) = params.split_at(inputs.inputs() * hv);
    let (b1, rest) = rest.split_at(hv);
    let (w2, b2) = rest.split_at(2 * hv * buckets);
    (w1, b1, w2, &b2[0])
}

#[inline(always)]
fn split_mut(
    params: &mut [F32x8],
    (hv, buckets, inputs): Dims,
) -> (&mut [F32x8], &mut [F32x8], &mut [F32x8], &mut F32x8) {
    let (w1, rest) = params.split_at_mut(inputs.inputs() * hv);
    let (b1, rest) = rest.split_at_mut(hv);
    let (w2, b2) = rest.split_at_mut(2 * hv * buckets);
    (w1, b1, w2, &mut b2[0])
}

/// What the inner loops need of a [`Shape`]: `H / 8` (eights per row), the output buckets and
/// the input mapping.
type Dims = (usize, usize, InputMapping);

/// The float network.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    shape: Shape,
    activation: Activation,
    params: Flat,
}

impl Network {
    /// A network with random weights: every parameter of a layer uniform in
    /// `±1/sqrt(fan-in)` (768 for the first layer, 2H for the output). The first layer's
    /// bound is 768's under every mapping: king buckets add rows, of which a position
    /// activates as many as without them.
    ///
    /// # Panics
    /// If the shape is not valid ([`Shape::is_valid`]).
    pub fn random(shape: Shape, activation: Activation, seed: u64) -> Network {
        assert!(shape.is_valid(), "invalid shape {shape:?}");
        let mut rng = Rng::new(seed);
        let mut params = vec![0.0; shape.param_count()];
        let first = 1.0 / (INPUTS as f32).sqrt();
        let second = 1.0 / ((2 * shape.hidden) as f32).sqrt();
        for (k, p) in params.iter_mut().enumerate() {
            let bound = if k < shape.output_start() { first } else { second };
            *p = (rng.unit() * 2.0 - 1.0) * bound;
        }
        Network::from_params(shape, activation, params)
    }

    /// A network from its flat parameters (`shape.param_count()` of them).
    ///
    /// # Panics
    /// If the shape is not valid ([`Shape::is_valid`]), or the count is wrong.
    pub fn from_params(shape: Shape, activation: Activation, params: Vec<f32>) -> Network {
        assert!(shape.is_valid(), "invalid shape {shape:?}");
        assert_eq!(params.len(), shape.param_count(), "parameter count");
        Network { shape, activation, params: Flat::from_slice(&params) }
    }

    /// The same weights under the input mapping `inputs`, to start a run of other inputs
    /// (`train --init`): a mapping of as many king buckets keeps every weight where it is; a
    /// mapping of more, from a network of one, gets the parent's first layer copied into each
    /// of its buckets, so that under the same view (a mirrored parent, king-bucketed child)
    /// every position activates the parent's weights and evaluates exactly as before. `None`
    /// for any other change (fewer buckets: no copy of the layer would be right).
    pub fn with_inputs(&self, inputs: InputMapping) -> Option<Network> {
        let (from, to) = (self.shape.inputs.king_buckets(), inputs.king_buckets());
        let shape = Shape { inputs, ..self.shape };
        if from == to {
            return Some(Network { shape, ..self.clone() });
        }
        if from != 1 {
            return None;
        }
        let (w1, b1, w2, b2) = self.parts();
        let mut params = Vec::with_capacity(shape.param_count());
        for _ in 0..to {
            params.extend_from_slice(w1);
        }
        params.extend(b1.iter().chain(w2).chain(b2));
        Some(Network::from_params(shape, self.activation, params))
    }

    /// The same network with `hidden` neurons per accumulator, to start a wider run from a
    /// narrower parent (`train --init`): the parent's neurons keep their weights, and each new
    /// one gets random input weights (as [`Network::random`] draws them, from `seed`), a zero
    /// bias and zero output weights. It adds nothing to the output, so the child starts at
    /// exactly the parent's evaluation; the output weights' gradient (the new neuron's
    /// activation) is not zero, so training puts the new neurons to work from the first step.
    /// `None` if `hidden` is narrower than this network or not a valid width.
    pub fn widened(&self, hidden: usize, seed: u64) -> Option<Network> {
        let shape = Shape { hidden, ..self.shape };
        if hidden < self.shape.hidden || !shape.is_valid() {
            return None;
        }
        let old = self.shape.hidden;
        let mut rng = Rng::new(seed);
        let bound = 1.0 / (INPUTS as f32).sqrt();
        let (w1, b1, w2, b2) = self.parts();
        let mut params = Vec::with_capacity(shape.param_count());
        for row in w1.chunks_exact(old) {
            params.extend_from_slice(row);
            params.extend((old..hidden).map(|_| (rng.unit() * 2.0 - 1.0) * bound));
        }
        params.extend_from_slice(b1);
        params.resize(params.len() + hidden - old, 0.0);
        // Each bucket's output row is the side to move's H weights, then the other side's.
        for half in w2.chunks_exact(old) {
            params.extend_from_slice(half);
            params.resize(params.len() + hidden - old, 0.0);
        }
        params.extend_from_slice(b2);
        Some(Network::from_params(shape, self.activation, params))
    }

    /// Hidden neurons per accumulator and output buckets.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Hidden neurons per accumulator (H).
    pub fn hidden(&self) -> usize {
        self.shape.hidden
    }

    /// The hidden layer's activation.
    pub fn activation(&self) -> Activation {
        self.activation
    }

    /// The flat parameters `[W1 | b1 | W2 | b2]`.
    pub fn params(&self) -> &[f32] {
        self.params.as_slice()
    }

    /// The flat parameters, to update.
    pub fn params_mut(&mut self) -> &mut [f32] {
        self.params.as_mut_slice()
    }

    /// `(W1, b1, W2, b2)`, `W2` and `b2` of all buckets (bucket-major).
    pub fn parts(&self) -> (&[f32], &[f32], &[f32], &[f32]) {
        split_flat(self.params(), self.shape)
    }

    /// The raw output for the active features of the side to move and of the other side (one
    /// per piece on the board, which chooses the output bucket), under this network's input
    /// mapping.
    pub fn output(&self, stm: &[u16], other: &[u16]) -> f32 {
        let hv = self.hidden() / 8;
        let (w1, b1, w2, b2) = split(&self.params.lanes, (hv, self.shape.buckets, self.shape.inputs));
        let mut acc = vec![F32x8::default(); 2 * hv];
        let (acc_stm, acc_other) = acc.split_at_mut(hv);
        accumulate(acc_stm, b1, w1, stm);
        accumulate(acc_other, b1, w1, other);
        let bucket = output_bucket(stm.len(), self.shape.buckets);
        let (w2_stm, w2_other) = w2[2 * hv * bucket..2 * hv * (bucket + 1)].split_at(hv);
        b2.0[bucket]
            + match self.activation {
                Activation::Screlu => dot::<Screlu>(acc_stm, w2_stm) + dot::<Screlu>(acc_other, w2_other),
                Activation::Crelu => dot::<Crelu>(acc_stm, w2_stm) + dot::<Crelu>(acc_other, w2_other),
            }
    }

    /// The float network's evaluation of `pos` in centipawns from the side to move's view
    /// (`out * 400`): what the engine's quantised network approximates. This is the helper for
    /// comparing with `tempo_engine`'s NNUE evaluation of the written file; `tempo-tools` is a
    /// binary, so such a test lives beside this module (a unit test can use both this and
    /// `tempo_engine`, a dependency of the crate).
    pub fn float_eval_cp(&self, pos: &Position) -> f32 {
        let (mut stm, mut other) = ([0u16; MAX_ACTIVE], [0u16; MAX_ACTIVE]);
        let n = self.shape.inputs.position_features(pos, pos.turn(), &mut stm);
        self.shape.inputs.position_features(pos, !pos.turn(), &mut other);
        self.output(&stm[..n], &other[..n]) * SCALE
    }
}

/// Registers of an accumulator handled at once: eight, so that a block of the accumulator
/// stays in registers while the feature rows are added to it.
const BLOCK: usize = 8;

#[inline(always)]
fn add(a: &mut F32x8, b: &F32x8) {
    for l in 0..8 {
        a.0[l] += b.0[l];
    }
}

/// `acc = bias + sum of the rows of w1 for features`, a register block at a time.
#[inline(always)]
fn accumulate(acc: &mut [F32x8], bias: &[F32x8], w1: &[F32x8], features: &[u16]) {
    let hv = acc.len();
    let whole = hv / BLOCK * BLOCK;
    for base in (0..whole).step_by(BLOCK) {
        let mut block: [F32x8; BLOCK] = bias[base..base + BLOCK].try_into().expect("block");
        for &f in features {
            let start = usize::from(f) * hv + base;
            let row: &[F32x8; BLOCK] = w1[start..start + BLOCK].try_into().expect("block");
            for k in 0..BLOCK {
                add(&mut block[k], &row[k]);
            }
        }
        acc[base..base + BLOCK].copy_from_slice(&block);
    }
    for v in whole..hv {
        let mut lane = bias[v];
        for &f in features {
            add(&mut lane, &w1[usize::from(f) * hv + v]);
        }
        acc[v] = lane;
    }
}

/// Adds `delta` to the rows of `grad_w1` for `features`, a register block at a time.
#[inline(always)]
fn scatter(grad_w1: &mut [F32x8], delta: &[F32x8], features: &[u16]) {
    let hv = delta.len();
    let whole = hv / BLOCK * BLOCK;
    for base in (0..whole).step_by(BLOCK) {
        let block: [F32x8; BLOCK] = delta[base..base + BLOCK].try_into().expect("block");
        for &f in features {
            let start = usize::from(f) * hv + base;
            let row: &mut [F32x8; BLOCK] = (&mut grad_w1[start..start + BLOCK]).try_into().expect("block");
            for k in 0..BLOCK {
                add(&mut row[k], &block[k]);
            }
        }
    }
    for &f in features {
        let row = &mut grad_w1[usize::from(f) * hv + whole..usize::from(f) * hv + hv];
        for (g, d) in row.iter_mut().zip(&delta[whole..]) {
            add(g, d);
        }
    }
}

/// `sum_j act(acc[j]) * w[j]`, eight partial sums (one register).
#[inline(always)]
fn dot<A: Act>(acc: &[F32x8], w: &[F32x8]) -> f32 {
    let mut lanes = [0.0f32; 8];
    for (a, w) in acc.iter().zip(w) {
        for ((sum, &a), &w) in lanes.iter_mut().zip(&a.0).zip(&w.0) {
            *sum += A::f(a) * w;
        }
    }
    lanes.iter().sum()
}

#[inline(always)]
fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The output layer's backward pass for one accumulator, given `g`, the loss's derivative
/// with respect to the output: adds to the output weights' gradient and sets `delta`, the
/// derivative with respect to the accumulator.
#[inline(always)]
fn output_backward<A: Act>(g: f32, acc: &[F32x8], w2: &[F32x8], grad_w2: &mut [F32x8], delta: &mut [F32x8]) {
    for (((a, w), gw), d) in acc.iter().zip(w2).zip(grad_w2.iter_mut()).zip(delta.iter_mut()) {
        for l in 0..8 {
            gw.0[l] += g * A::f(a.0[l]);
            d.0[l] = g * w.0[l] * A::df(a.0[l]);
        }
    }
}

/// What a batch function needs besides the network: the positions, which ones, whether each
/// is mirrored this epoch, and what they are trained toward.
#[derive(Clone, Copy)]
pub struct Batch<'a> {
    /// The positions.
    pub data: &'a Dataset,
    /// Indices into `data`.
    pub indices: &'a [u32],
    /// Mirror coin salt of this epoch (`None`: no mirroring).
    pub mirror: Option<u64>,
    /// What the positions are trained toward.
    pub target: Target,
}

/// One position's forward pass: fills both accumulators and returns the output (before the
/// sigmoid) through the output weights `w2` (side to move's then the other's) and bias `b2`
/// of the position's bucket. Shared by the training and the validation loops.
#[inline(always)]
fn forward<A: Act>(
    (w1, b1): (&[F32x8], &[F32x8]),
    (w2, b2): (&[F32x8], f32),
    (acc_stm, acc_other): (&mut [F32x8], &mut [F32x8]),
    stm: &[u16],
    other: &[u16],
) -> f32 {
    accumulate(acc_stm, b1, w1, stm);
    accumulate(acc_other, b1, w1, other);
    let (w2_stm, w2_other) = w2.split_at(acc_stm.len());
    b2 + dot::<A>(acc_stm, w2_stm) + dot::<A>(acc_other, w2_other)
}

/// Adds `scale` times the gradient of the batch's summed loss to `grad`; returns the summed
/// loss.
#[inline(always)]
fn gradient_body<A: Act>(
    (hv, buckets, inputs): Dims,
    params: &[F32x8],
    batch: Batch<'_>,
    scale: f32,
    grad: &mut [F32x8],
) -> f64 {
    let (w1, b1, w2, b2) = split(params, (hv, buckets, inputs));
    let (gw1, gb1, gw2, gb2) = split_mut(grad, (hv, buckets, inputs));
    let mut scratch = vec![F32x8::default(); 4 * hv];
    let (acc, delta) = scratch.split_at_mut(2 * hv);
    let (acc_stm, acc_other) = acc.split_at_mut(hv);
    let (d_stm, d_other) = delta.split_at_mut(hv);
    let gathered = batch.data.gather(batch.indices, batch.mirror, inputs, batch.target);
    let mut loss = 0.0f64;
    for (stm, other, target) in gathered.positions() {
        let bucket = output_bucket(stm.len(), buckets);
        let outputs = 2 * hv * bucket..2 * hv * (bucket + 1);
        let w2 = &w2[outputs.clone()];
        let p = sigmoid(forward::<A>((w1, b1), (w2, b2.0[bucket]), (acc_stm, acc_other), stm, other));
        let error = p - target;
        loss += f64::from(error * error);
        let g = 2.0 * error * p * (1.0 - p) * scale;

        gb2.0[bucket] += g;
        let (w2_stm, w2_other) = w2.split_at(hv);
        let (gw2_stm, gw2_other) = gw2[outputs].split_at_mut(hv);
        output_backward::<A>(g, acc_stm, w2_stm, gw2_stm, d_stm);
        output_backward::<A>(g, acc_other, w2_other, gw2_other, d_other);
        for ((gb, ds), dn) in gb1.iter_mut().zip(d_stm.iter()).zip(d_other.iter()) {
            for l in 0..8 {
                gb.0[l] += ds.0[l] + dn.0[l];
            }
        }
        scatter(gw1, d_stm, stm);
        scatter(gw1, d_other, other);
    }
    loss
}

/// The summed loss of a batch, forward passes only.
#[inline(always)]
fn loss_body<A: Act>((hv, buckets, inputs): Dims, params: &[F32x8], batch: Batch<'_>) -> f64 {
    let (w1, b1, w2, b2) = split(params, (hv, buckets, inputs));
    let mut acc = vec![F32x8::default(); 2 * hv];
    let (acc_stm, acc_other) = acc.split_at_mut(hv);
    let gathered = batch.data.gather(batch.indices, batch.mirror, inputs, batch.target);
    let mut loss = 0.0f64;
    for (stm, other, target) in gathered.positions() {
        let bucket = output_bucket(stm.len(), buckets);
        let w2 = &w2[2 * hv * bucket..2 * hv * (bucket + 1)];
        let error = sigmoid(forward::<A>((w1, b1), (w2, b2.0[bucket]), (acc_stm, acc_other), stm, other)) - target;
        loss += f64::from(error * error);
    }
    loss
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn gradient_avx2<A: Act>(hv: Dims, params: &[F32x8], batch: Batch<'_>, scale: f32, grad: &mut [F32x8]) -> f64 {
    gradient_body::<A>(hv, params, batch, scale, grad)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn loss_avx2<A: Act>(hv: Dims, params: &[F32x8], batch: Batch<'_>) -> f64 {
    loss_body::<A>(hv, params, batch)
}

fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

fn gradient_with<A: Act>(net: &Network, batch: Batch<'_>, scale: f32, grad: &mut [F32x8]) -> f64 {
    let (hv, params) = ((net.hidden() / 8, net.shape.buckets, net.shape.inputs), &net.params.lanes[..]);
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: the CPU has AVX2 and FMA (checked just above).
        return unsafe { gradient_avx2::<A>(hv, params, batch, scale, grad) };
    }
    gradient_body::<A>(hv, params, batch, scale, grad)
}

fn loss_with<A: Act>(net: &Network, batch: Batch<'_>) -> f64 {
    let (hv, params) = ((net.hidden() / 8, net.shape.buckets, net.shape.inputs), &net.params.lanes[..]);
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: the CPU has AVX2 and FMA (checked just above).
        return unsafe { loss_avx2::<A>(hv, params, batch) };
    }
    loss_body::<A>(hv, params, batch)
}

impl Network {
    /// Adds `scale` times the gradient of the batch's summed loss to `grad` (a flat vector
    /// laid out like the parameters) and returns the summed loss. Single-threaded: the
    /// trainer gives each thread its own part of the batch and its own `grad`.
    pub fn add_gradient(&self, batch: Batch<'_>, scale: f32, grad: &mut Flat) -> f64 {
        assert_eq!(grad.len, self.params.len, "gradient length");
        let grad = &mut grad.lanes[..];
        match self.activation {
            Activation::Screlu => gradient_with::<Screlu>(self, batch, scale, grad),
            Activation::Crelu => gradient_with::<Crelu>(self, batch, scale, grad),
        }
    }

    /// The summed loss of the batch's positions.
    pub fn loss(&self, batch: Batch<'_>) -> f64 {
        match self.activation {
            Activation::Screlu => loss_with::<Screlu>(self, batch),
            Activation::Crelu => loss_with::<Crelu>(self, batch),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn positions() -> Dataset {
        let mut data = Dataset::new();
        for (fen, score, result) in [
            ("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", 30, 0.5),
            ("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4", 40, 1.0),
            ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", -80, 0.0),
            ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1", -450, 0.0),
            ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", 200, 0.5),
        ] {
            data.push(&fen.parse().unwrap(), score, result);
        }
        data
    }

    /// A tiny network whose parameters are spread enough for the activations to be neither
    /// all zero nor all saturated.
    fn tiny(hidden: usize, buckets: usize, inputs: InputMapping, activation: Activation) -> Network {
        let mut net = Network::random(Shape { hidden, buckets, inputs }, activation, 7);
        let mut rng = Rng::new(99);
        for p in net.params_mut() {
            *p = (rng.unit() * 2.0 - 1.0) * 0.3;
        }
        net
    }

    #[test]
    fn the_gradient_matches_finite_differences() {
        let data = positions();
        let indices: Vec<u32> = (0..data.len() as u32).collect();
        // 72 neurons: a register block of 64 and a remainder. With 8 buckets the positions
        // (2 to 32 pieces) fall into different buckets.
        for (hidden, buckets, inputs, activation) in [
            (8, 1, InputMapping::Plain, Activation::Screlu),
            (8, 1, InputMapping::Plain, Activation::Crelu),
            (72, 1, InputMapping::Plain, Activation::Screlu),
            (16, 8, InputMapping::Plain, Activation::Screlu),
            (16, 8, InputMapping::Mirrored, Activation::Screlu),
            (16, 8, InputMapping::KingBuckets4, Activation::Screlu),
        ] {
            for mirror in [None, Some(5)] {
                let net = tiny(hidden, buckets, inputs, activation);
                let batch = Batch { data: &data, indices: &indices, mirror, target: Target::new(0.3) };
                let mut grad = Flat::zeros(net.params().len());
                net.add_gradient(batch, 1.0, &mut grad);
                let mut checked = 0;
                for (k, &analytic) in grad.as_slice().iter().enumerate() {
                    // W1 rows of inactive features have no gradient at all: check a few of
                    // them, and every parameter with one.
                    if analytic == 0.0 && k % 97 != 0 {
                        continue;
                    }
                    let eps = 1e-3f32;
                    let mut plus = net.clone();
                    plus.params_mut()[k] += eps;
                    let mut minus = net.clone();
                    minus.params_mut()[k] -= eps;
                    let numeric = (plus.loss(batch) - minus.loss(batch)) / (2.0 * f64::from(eps));
                    let analytic = f64::from(analytic);
                    let tolerance = 1e-4 + 2e-2 * numeric.abs().max(analytic.abs());
                    assert!(
                        (numeric - analytic).abs() <= tolerance,
                        "{activation:?} param {k}: numeric {numeric} analytic {analytic}"
                    );
                    checked += 1;
                }
                assert!(checked > 100, "{checked}");
            }
        }
    }

    #[test]
    fn the_float_eval_is_the_output_times_the_scale_from_the_side_to_move() {
        for inputs in InputMapping::ALL {
            let net = tiny(72, 8, inputs, Activation::Screlu);
            let white: Position = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1".parse().unwrap();
            // The same position with colours swapped and Black to move: the same for the mover.
            let black: Position = "4k3/4p3/8/8/8/8/8/4K3 b - - 0 1".parse().unwrap();
            let (a, b) = (net.float_eval_cp(&white), net.float_eval_cp(&black));
            assert!((a - b).abs() < 1e-3, "{a} {b}");
            let mut data = Dataset::new();
            data.push(&white, 0, 0.5);
            let (mut stm, mut other) = ([0u16; MAX_ACTIVE], [0u16; MAX_ACTIVE]);
            let n = data.fill(0, false, inputs, &mut stm, &mut other);
            assert!((net.output(&stm[..n], &other[..n]) * SCALE - a).abs() < 1e-3);
        }
        // With mirrored inputs, the wings are alike: the same position a file over.
        let net = tiny(72, 8, InputMapping::Mirrored, Activation::Screlu);
        let (a, b): (Position, Position) =
            ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1".parse().unwrap(), "3k4/8/8/8/8/8/3P4/3K4 w - - 0 1".parse().unwrap());
        assert_eq!(net.float_eval_cp(&a), net.float_eval_cp(&b));
        let plain = tiny(72, 8, InputMapping::Plain, Activation::Screlu);
        assert_ne!(plain.float_eval_cp(&a), plain.float_eval_cp(&b));
    }

    /// A network of one king bucket becomes a king-bucketed one with its first layer in every
    /// bucket: a mirrored parent's evaluation is unchanged everywhere; the shape grows by
    /// the three new buckets' rows only.
    #[test]
    fn king_buckets_start_as_copies_of_the_parents_first_layer() {
        let parent = tiny(16, 8, InputMapping::Mirrored, Activation::Screlu);
        let child = parent.with_inputs(InputMapping::KingBuckets4).unwrap();
        assert_eq!(child.shape(), Shape { inputs: InputMapping::KingBuckets4, ..parent.shape() });
        assert_eq!(child.params().len(), parent.params().len() + 3 * 768 * 16);
        let (w1, b1, w2, b2) = child.parts();
        let (parent_w1, parent_b1, parent_w2, parent_b2) = parent.parts();
        assert!(w1.chunks(parent_w1.len()).all(|bucket| bucket == parent_w1));
        assert_eq!((b1, w2, b2), (parent_b1, parent_w2, parent_b2));
        // Kings on every rank of both sides (every bucket), pieces on both wings.
        for fen in [
            "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
            "8/5k2/2p5/8/8/8/1K4N1/8 b - - 0 1",
            "8/8/2k5/8/3Q4/6K1/8/8 w - - 0 1",
            "8/1r6/8/3K4/5k2/8/8/8 b - - 0 1",
            "3K4/8/8/8/8/8/1B3n2/6k1 w - - 0 1",
        ] {
            let pos: Position = fen.parse().unwrap();
            assert_eq!(child.float_eval_cp(&pos), parent.float_eval_cp(&pos), "{fen}");
        }
        // A plain parent starts king buckets as it starts mirrored inputs; nothing goes back.
        let plain = tiny(16, 8, InputMapping::Plain, Activation::Screlu);
        let from_plain = plain.with_inputs(InputMapping::KingBuckets4).unwrap();
        assert_eq!(from_plain.params(), child.params());
        assert_eq!(plain.with_inputs(InputMapping::Mirrored).unwrap().params(), parent.params());
        assert_eq!(child.with_inputs(InputMapping::KingBuckets4).as_ref(), Some(&child));
        assert!(child.with_inputs(InputMapping::Mirrored).is_none());
        assert!(child.with_inputs(InputMapping::Plain).is_none());
    }

    /// A wider child starts at exactly the parent's evaluation: the parent's neurons are kept,
    /// the new ones add nothing to the output until training moves their output weights.
    #[test]
    fn a_widened_network_starts_at_its_parents_evaluation() {
        for inputs in [InputMapping::Plain, InputMapping::Mirrored, InputMapping::KingBuckets4] {
            let parent = tiny(16, 8, inputs, Activation::Screlu);
            let child = parent.widened(32, 5).unwrap();
            assert_eq!(child.shape(), Shape { hidden: 32, ..parent.shape() });
            let (w1, b1, w2, b2) = child.parts();
            let (parent_w1, parent_b1, parent_w2, parent_b2) = parent.parts();
            for (row, parent_row) in w1.chunks(32).zip(parent_w1.chunks(16)) {
                assert_eq!(&row[..16], parent_row);
                assert!(row[16..].iter().any(|&w| w != 0.0), "new neurons get random input weights");
            }
            assert_eq!((&b1[..16], &b1[16..]), (parent_b1, &[0.0; 16][..]));
            for (half, parent_half) in w2.chunks(16).step_by(2).zip(parent_w2.chunks(16)) {
                assert_eq!(half, parent_half);
            }
            assert!(w2.chunks(16).skip(1).step_by(2).all(|half| half.iter().all(|&w| w == 0.0)));
            assert_eq!(b2, parent_b2);
            for fen in [
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "8/5k2/2p5/8/8/8/1K4N1/8 b - - 0 1",
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            ] {
                let pos: Position = fen.parse().unwrap();
                assert_eq!(child.float_eval_cp(&pos), parent.float_eval_cp(&pos), "{inputs:?} {fen}");
            }
            assert_eq!(parent.widened(16, 5).as_ref(), Some(&parent));
            assert!(child.widened(16, 5).is_none());
            assert!(parent.widened(20, 5).is_none());
        }
    }
}
