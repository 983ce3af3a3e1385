//! `tempo-tools train`: Tempo's CPU trainer for NNUE networks.
//!
//! # The network
//! `(768 K -> H) x 2 -> B`, a "perspective" network: one accumulator of H neurons for the side
//! to move and one for the other side, computed by the same first layer from each side's 768
//! piece-square features (in one of K king buckets) (the engine's `tempo_engine::nnue::format::InputMapping` gives the
//! feature index, for the engine and the trainer alike), then SCReLU (`clamp(x, 0, 1)^2`)
//! and one output neuron over both accumulators, side to move's first, out of `B` output
//! buckets (`--output-buckets`) chosen by the number of pieces on the board. The output
//! times 400 is the evaluation in centipawns from the side to move's view. With `--inputs
//! mirrored` each side's features also flip the files while its own king stands on files e
//! to h, so that every view has its king on files a to d. [`model`] has the float network,
//! [`quantise`] its rounding into the integer network the engine runs; the file format
//! (v3; v2 for plain inputs) is the engine's `nnue::format`, which reads and writes it.
//!
//! # Training
//! - Data: `FEN | score | result` lines from `tempo-tools datagen` or viriformat games, both
//!   labelled from White's view and turned to the side to move's ([`data`]).
//! - Target: `wdl * result + (1 - wdl) * sigmoid(K * score / 400)` (`--wdl`, `--score-scale
//!   K`, [`data::Target`]); prediction `sigmoid(out)`;
//!   loss the mean squared error (the formulation of bullet and Viridithas, with the network's
//!   400 centipawns per unit as the sigmoid's scale).
//! - AdamW (beta1 0.9, beta2 0.999, decoupled weight decay `--wd`) on mini-batches of
//!   `--batch` positions, every weight clipped to `[-1.98, 1.98]` after each step so that the
//!   quantised network cannot overflow.
//! - Learning rate: step decay, `--lr` times `--lr-gamma` every `--lr-drop` epochs
//!   (`lr * gamma^((epoch - 1) / drop)`; `--lr-drop 0` keeps it constant).
//! - Validation: about `--val` of the games (whole games: positions of one game share a
//!   result, so splitting them would leak it) are held out by a fixed hash of the game's
//!   number, the same for every seed; the network after the epoch with the best validation
//!   loss is the one written.
//! - `--mirror`: chess is symmetric under swapping the a- and h-files, except castling (the
//!   king and rooks start asymmetrically, so a mirrored position with castling rights is not
//!   a position of the same game). A position without castling rights, mirrored, is a
//!   legal position with the same value and the same game result; each epoch, every such
//!   position is mirrored with probability 1/2 (a coin seeded by the epoch and the position).
//!   Mirrored inputs see a position and its mirror alike, so `--mirror` is refused with them.
//! - Parallelism: each batch is cut into one chunk per thread (`--threads`), each chunk's
//!   gradient accumulated into its own buffer (only the rows of active features of the first
//!   layer are touched), then the buffers are summed in a fixed order.
//! - Determinism: initialisation, shuffles and mirror coins come from `--seed` and the epoch
//!   number, so a run is a function of its data, its options and its number of threads
//!   (which fixes how the float sums are grouped). A run resumed from a checkpoint continues
//!   exactly as if it had not stopped.
//!
//! # Files
//! - `--out net.nnue`: the quantised network (format v3, or v2 for plain inputs), written at the end from the best
//!   epoch; its SHA-256 is printed with the suggested lineage name
//!   `tempo-<first 12 hex digits>.nnue`.
//! - `net.nnue.json`: a summary (settings, data, positions, losses per epoch, best epoch,
//!   hash; `summary::Summary`) for the lineage record.
//! - `--checkpoint-dir` (default: the output's directory): `<out stem>-epoch<N>.ckpt` after
//!   every epoch, float weights and optimiser state ([`checkpoint`]). `--resume FILE` goes on
//!   from one (same data and options); `--init FILE` starts a new run (fresh optimiser) from
//!   a network file (the shipped `.nnue`, dequantised by [`quantise::read`]) or a
//!   checkpoint's best network, to fine-tune a previous generation. A network of plain
//!   inputs may start a run of mirrored ones: its weights, read through the mirrored
//!   mapping, judge each position as the plain network judges its file mirror (the same
//!   position for the game without castling rights, and for a network trained with
//!   `--mirror` about the same value). A network of one king bucket (plain or mirrored)
//!   may start a run of king buckets: its first layer is copied into each bucket
//!   (`model::Network::with_inputs`), so that a mirrored parent's child starts at exactly
//!   the parent's evaluation and each bucket then learns its own weights. A network may
//!   start a wider run (`--hidden` above its own): its neurons are kept and the new ones
//!   start with zero output weights (`model::Network::widened`), so the child again starts
//!   at exactly the parent's evaluation.

mod checkpoint;
pub mod data;
pub mod model;
pub mod optim;
pub mod quantise;
pub mod scale;
mod summary;

use crate::rng::{mix, Rng};
use anyhow::{bail, Context, Result};
use checkpoint::{Checkpoint, EpochRecord};
use clap::Args;
use data::{Dataset, Format, InputMapping, Target};
use indicatif::{ProgressBar, ProgressStyle};
use model::{Activation, Batch, Flat, Network, Shape};
use optim::AdamW;
use rayon::prelude::*;
use sha2::{Digest, Sha256};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Instant;
use summary::{Summary, Written};

#[derive(Args, Debug)]
pub struct TrainArgs {
    /// Training data: `FEN | score | result` files (from `datagen`) or viriformat games.
    #[arg(required = true)]
    data: Vec<PathBuf>,
    /// How the data files are written (auto: text if a file starts with printable text,
    /// viriformat otherwise).
    #[arg(long, value_enum, default_value_t = Format::Auto)]
    format: Format,
    /// The network file to write (quantised, format v3, or v2 for plain inputs); a summary
    /// goes to FILE.json.
    #[arg(long)]
    out: PathBuf,
    /// Hidden neurons per accumulator (H, a multiple of 8).
    #[arg(long, default_value_t = 128)]
    hidden: usize,
    /// Output buckets (1, 2, 4 or 8), chosen by the number of pieces on the board.
    #[arg(long, default_value_t = 8)]
    output_buckets: usize,
    /// How each side's features see the board: from its own side (plain), also with the
    /// files flipped while its king stands on files e to h (mirrored), or mirrored in 4
    /// buckets by the rank of its king (king-buckets4: 1, 2, 3-4, 5-8 from its own side).
    #[arg(long, default_value_t = InputMapping::Plain)]
    inputs: InputMapping,
    /// Hidden activation; the file format supports only SCReLU (CReLU runs write checkpoints
    /// only).
    #[arg(long, value_enum, default_value_t = Activation::Screlu)]
    activation: Activation,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 30)]
    epochs: u32,
    /// Positions per optimiser step.
    #[arg(long, default_value_t = 32768)]
    batch: usize,
    /// AdamW learning rate.
    #[arg(long, default_value_t = 0.002)]
    lr: f64,
    /// AdamW weight decay (decoupled: each step multiplies the weights by 1 - lr * wd).
    #[arg(long, default_value_t = 0.5)]
    wd: f64,
    /// Multiply the learning rate by --lr-gamma every this many epochs (0: never).
    #[arg(long, default_value_t = 10)]
    lr_drop: u32,
    /// Learning-rate factor at each drop.
    #[arg(long, default_value_t = 0.3)]
    lr_gamma: f64,
    /// Weight of the game result in the target; the rest is the score's win probability.
    #[arg(long, default_value_t = 0.3)]
    wdl: f64,
    /// Factor on the recorded score in the target (`sigmoid(K * score / 400)`). Below 1 a
    /// fine-tune learns about its parent's scale from searched scores, which run larger than
    /// the static evaluation, instead of having its output shrunk after training
    /// (`--match-scale`).
    #[arg(long, default_value_t = 1.0, value_name = "K")]
    score_scale: f64,
    /// Fraction of the games held out for validation.
    #[arg(long, default_value_t = 0.05)]
    val: f64,
    /// Mirror positions without castling rights across the centre files, at random each epoch
    /// (plain inputs only: mirrored inputs see both alike).
    #[arg(long)]
    mirror: bool,
    /// Seed of the initial weights, shuffles and mirror coins.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: all cores). Results depend on it (float summation order).
    #[arg(long)]
    threads: Option<usize>,
    /// Where to write a checkpoint after every epoch (default: the output's directory).
    #[arg(long)]
    checkpoint_dir: Option<PathBuf>,
    /// Continue the run that wrote this checkpoint (same data and options).
    #[arg(long, conflicts_with = "init")]
    resume: Option<PathBuf>,
    /// Start from this network (fine-tuning) with a fresh optimiser: a network file, such as
    /// the shipped one, or a checkpoint (its best network).
    #[arg(long)]
    init: Option<PathBuf>,
    /// Put the written network on this network's evaluation scale (a network file or a
    /// checkpoint, usually the parent): its output is multiplied by the ratio of the two
    /// networks' root-mean-square evaluations on the validation positions ([`scale`]).
    #[arg(long, value_name = "PARENT")]
    match_scale: Option<PathBuf>,
    /// Multiply the written network's output (every output weight and bias) by this factor,
    /// after `--match-scale` if both are given: with `--init NET --epochs 0`, NET at a flatter
    /// (below 1) or steeper scale, to find by games the scale the search plays best with.
    #[arg(long, value_name = "FACTOR")]
    output_scale: Option<f64>,
}

impl TrainArgs {
    /// The network's shape.
    fn shape(&self) -> Shape {
        Shape { hidden: self.hidden, buckets: self.output_buckets, inputs: self.inputs }
    }

    /// What the positions are trained toward.
    fn target(&self) -> Target {
        Target { wdl: self.wdl as f32, score_scale: self.score_scale as f32 }
    }
}

/// The learning rate of `epoch` (from 1): step decay.
fn learning_rate(args: &TrainArgs, epoch: u32) -> f64 {
    let rate = match args.lr_drop {
        0 => args.lr,
        drop => args.lr * args.lr_gamma.powi(((epoch - 1) / drop) as i32),
    };
    // Nine significant digits: 0.0003, not 0.00030000000000000003, in the summary.
    format!("{rate:.8e}").parse().unwrap_or(rate)
}

/// The mean loss over `data`, in parallel (fixed chunks summed in order).
fn mean_loss(net: &Network, data: &Dataset, target: Target) -> f64 {
    if data.is_empty() {
        return f64::NAN;
    }
    let indices: Vec<u32> = (0..data.len() as u32).collect();
    let sums: Vec<f64> =
        indices.par_chunks(4096).map(|chunk| net.loss(Batch { data, indices: chunk, mirror: None, target })).collect();
    sums.iter().sum::<f64>() / data.len() as f64
}

/// One thread's gradient buffer per chunk of a batch, reused from batch to batch.
struct Gradients(Vec<Flat>);

impl Gradients {
    fn new(threads: usize, params: usize) -> Gradients {
        Gradients((0..threads).map(|_| Flat::zeros(params)).collect())
    }

    /// Accumulates the mean gradient of `batch` (one chunk per buffer, in parallel), sums
    /// the buffers into the first and zeroes the others; returns the summed loss.
    fn compute(&mut self, net: &Network, batch: Batch<'_>) -> f64 {
        const BLOCK: usize = 1 << 14;
        let chunk = batch.indices.len().div_ceil(self.0.len()).max(1);
        let scale = 1.0 / batch.indices.len() as f32;
        let losses: Vec<f64> = batch
            .indices
            .par_chunks(chunk)
            .zip(self.0.par_iter_mut())
            .map(|(indices, grad)| net.add_gradient(Batch { indices, ..batch }, scale, grad))
            .collect();
        let (first, rest) = self.0.split_first_mut().expect("one thread at least");
        first.as_mut_slice().par_chunks_mut(BLOCK).enumerate().for_each(|(b, sum)| {
            for other in rest.iter() {
                for (s, o) in sum.iter_mut().zip(&other.as_slice()[b * BLOCK..]) {
                    *s += o;
                }
            }
        });
        rest.par_iter_mut().for_each(|g| g.as_mut_slice().fill(0.0));
        losses.iter().sum()
    }
}

/// The epoch's shuffled order of the training positions.
fn epoch_order(len: usize, seed: u64, epoch: u32) -> Vec<u32> {
    let mut order: Vec<u32> = (0..len as u32).collect();
    Rng::new(mix(seed ^ mix(u64::from(epoch)))).shuffle(&mut order);
    order
}

/// The epoch's mirror coin salt, if mirroring.
fn mirror_salt(args: &TrainArgs, epoch: u32) -> Option<u64> {
    args.mirror.then(|| mix(args.seed.wrapping_add(0x6d69_7272_6f72) ^ mix(u64::from(epoch) << 1)))
}

/// Trains one epoch; returns the mean training loss and the positions per second.
fn train_epoch(
    args: &TrainArgs,
    train: &Dataset,
    state: &mut Checkpoint,
    grads: &mut Gradients,
    epoch: u32,
    bar: &ProgressBar,
) -> (f64, f64) {
    let lr = learning_rate(args, epoch);
    let order = epoch_order(train.len(), args.seed, epoch);
    let mirror = mirror_salt(args, epoch);
    let start = Instant::now();
    let mut loss = 0.0;
    let mut done = 0usize;
    for indices in order.chunks(args.batch.max(1)) {
        let batch = Batch { data: train, indices, mirror, target: args.target() };
        loss += grads.compute(&state.net, batch);
        state.opt.step(state.net.params_mut(), grads.0[0].as_mut_slice(), lr as f32, args.wd as f32);
        done += indices.len();
        bar.set_position(done as u64);
        bar.set_message(format!(
            "{epoch}/{}, loss {:.5}, {:.0} pos/s",
            args.epochs,
            loss / done as f64,
            done as f64 / start.elapsed().as_secs_f64()
        ));
    }
    let speed = train.len() as f64 / start.elapsed().as_secs_f64().max(1e-9);
    (loss / train.len().max(1) as f64, speed)
}

/// The starting state: a checkpoint to resume, a network to fine-tune, or random weights.
fn initial_state(args: &TrainArgs, train: &Dataset, val: &Dataset) -> Result<Checkpoint> {
    if let Some(path) = &args.resume {
        let checkpoint = Checkpoint::load(path)?;
        if checkpoint.net.shape() != args.shape() || checkpoint.net.activation() != args.activation {
            bail!(
                "{} has {:?} and {:?}; this run asks for {:?} and {:?}",
                path.display(),
                checkpoint.net.shape(),
                checkpoint.net.activation(),
                args.shape(),
                args.activation
            );
        }
        return Ok(checkpoint);
    }
    let net = match &args.init {
        Some(path) => {
            let best = initial_network(path)?;
            // The input mapping may change and the hidden layer may widen (see the module
            // documentation); nothing else may.
            let Some(net) = best
                .with_inputs(args.inputs)
                .and_then(|net| net.widened(args.hidden, args.seed))
                .filter(|net| net.shape() == args.shape())
            else {
                bail!("{} has {:?}; this run asks for {:?}", path.display(), best.shape(), args.shape());
            };
            Network::from_params(args.shape(), args.activation, net.params().to_vec())
        }
        None => Network::random(args.shape(), args.activation, args.seed),
    };
    let judged = if val.is_empty() { train } else { val };
    Ok(Checkpoint {
        epoch: 0,
        opt: AdamW::new(net.params().len()),
        best: net.clone(),
        best_loss: mean_loss(&net, judged, args.target()),
        best_epoch: 0,
        net,
        history: Vec::new(),
    })
}

/// `--match-scale`: multiplies the best network's output so that its evaluations have the
/// parent's scale on `judged`; returns the fit and the loss after scaling.
fn match_scale(
    args: &TrainArgs,
    parent: &Path,
    state: &mut Checkpoint,
    judged: &Dataset,
) -> Result<(scale::ScaleFit, f64)> {
    let parent_net = initial_network(parent)?;
    let Some(fit) = scale::fit(&parent_net, &state.best, judged) else {
        bail!("--match-scale: no position that both networks judge undecided");
    };
    let clipped = scale::apply(&mut state.best, fit.factor as f32);
    let loss = mean_loss(&state.best, judged, args.target());
    outln!(
        "scale matched to {}: output x{:.4} (from {} positions, {clipped} weights clipped), loss {:.6} -> {loss:.6}",
        parent.display(),
        fit.factor,
        fit.positions,
        state.best_loss
    )?;
    Ok((fit, loss))
}

/// `--output-scale`: multiplies the best network's output by `factor`; returns the loss after.
fn output_scale(args: &TrainArgs, factor: f64, state: &mut Checkpoint, judged: &Dataset) -> Result<f64> {
    let before = mean_loss(&state.best, judged, args.target());
    let clipped = scale::apply(&mut state.best, factor as f32);
    let loss = mean_loss(&state.best, judged, args.target());
    outln!("output x{factor} ({clipped} weights clipped), loss {before:.6} -> {loss:.6}")?;
    Ok(loss)
}

/// The network `--init` names: a network file (`.nnue`, dequantised) or a checkpoint's best.
fn initial_network(path: &Path) -> Result<Network> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    if bytes.starts_with(&tempo_engine::nnue::format::MAGIC) {
        quantise::read(&bytes).with_context(|| format!("{}", path.display()))
    } else {
        Ok(Checkpoint::from_bytes(&bytes).with_context(|| format!("{}", path.display()))?.best)
    }
}

fn checkpoint_path(args: &TrainArgs, epoch: u32) -> PathBuf {
    let dir = match &args.checkpoint_dir {
        Some(dir) => dir.clone(),
        None => args.out.parent().map(Path::to_path_buf).unwrap_or_default(),
    };
    let stem = args.out.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "net".into());
    dir.join(format!("{stem}-epoch{epoch}.ckpt"))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Runs the trainer.
pub fn run(args: &TrainArgs) -> Result<bool> {
    if args.hidden == 0 || args.hidden % 8 != 0 {
        bail!("--hidden must be a positive multiple of 8");
    }
    if !args.shape().is_valid() {
        bail!("--output-buckets must be 1, 2, 4 or 8");
    }
    if args.batch == 0 || !(0.0..=1.0).contains(&args.wdl) || !(0.0..1.0).contains(&args.val) {
        bail!("--batch must be positive, --wdl in [0, 1], --val in [0, 1)");
    }
    if !(args.score_scale > 0.0 && args.score_scale.is_finite()) {
        bail!("--score-scale must be a positive number");
    }
    if args.output_scale.is_some_and(|f| !(f > 0.0 && f.is_finite())) {
        bail!("--output-scale must be a positive number");
    }
    if args.mirror && args.inputs.mirrors_files() {
        bail!(
            "--mirror changes nothing with --inputs {} (a position and its mirror have the same features)",
            args.inputs
        );
    }
    let threads = args.threads.unwrap_or_else(num_threads).max(1);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().context("starting threads")?;
    pool.install(|| train(args, threads))
}

fn num_threads() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

fn train(args: &TrainArgs, threads: usize) -> Result<bool> {
    let split = load_data(args)?;
    let (train, val) = (&split.train, &split.val);
    // The set that judges the network: the validation games, or the training set without them.
    let judged = if val.is_empty() { train } else { val };
    if let Some(dir) = &args.checkpoint_dir {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let mut state = initial_state(args, train, val)?;
    run_epochs(args, threads, &split, &mut state)?;
    let scaled = match &args.match_scale {
        Some(parent) => Some(match_scale(args, parent, &mut state, judged)?),
        None => None,
    };
    let output_scaled = match args.output_scale {
        Some(factor) => Some(output_scale(args, factor, &mut state, judged)?),
        None => None,
    };
    let startpos_cp = state.best.float_eval_cp(&tempo_core::Position::startpos());
    outln!("best epoch {} (loss {:.6}); start position {startpos_cp:+.0} cp", state.best_epoch, state.best_loss)?;
    let written = if args.activation == Activation::Screlu { Some(write_network(args, &state, judged)?) } else { None };
    let summary = Summary::new(args, threads, &split, &state, written, scaled, output_scaled);
    let path = Summary::path(&args.out);
    tempo_output::write_atomically(&path, (serde_json::to_string_pretty(&summary)? + "\n").as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))?;
    outln!("summary written to {}", path.display())?;
    Ok(true)
}

/// Reads the training data, says what it holds, and refuses data the trainer cannot use.
fn load_data(args: &TrainArgs) -> Result<data::Split> {
    let loading = Instant::now();
    let split = data::load(&args.data, args.format, args.val)?;
    let (train, val) = (&split.train, &split.val);
    outln!(
        "{} positions from {} games: {} training, {} validation ({} skipped), read in {:.1} s",
        train.len() + val.len(),
        split.games,
        train.len(),
        val.len(),
        split.skipped,
        loading.elapsed().as_secs_f64()
    )?;
    if split.broken > 0 {
        outln!("{} broken games skipped", split.broken)?;
    }
    if train.is_empty() {
        bail!("no training positions");
    }
    if train.len() > u32::MAX as usize || val.len() > u32::MAX as usize {
        bail!("more than 2^32 positions in one set: split the data");
    }
    if args.activation != Activation::Screlu {
        outln!(
            "--activation {:?}: the network file format has only SCReLU, so only checkpoints are written",
            args.activation
        )?;
    }
    Ok(split)
}

/// The epochs from the state's to `--epochs`: each trains, judges, keeps the best network and
/// saves a checkpoint.
fn run_epochs(args: &TrainArgs, threads: usize, split: &data::Split, state: &mut Checkpoint) -> Result<()> {
    let (train, val) = (&split.train, &split.val);
    let mut grads = Gradients::new(threads, state.net.params().len());
    let bar =
        if std::io::stderr().is_terminal() { ProgressBar::new(train.len() as u64) } else { ProgressBar::hidden() };
    bar.set_style(ProgressStyle::with_template("epoch {msg} {bar:30} {pos}/{len}, eta {eta}").expect("valid template"));
    for epoch in state.epoch + 1..=args.epochs {
        bar.reset();
        let (train_loss, speed) = train_epoch(args, train, state, &mut grads, epoch, &bar);
        let val_loss = (!val.is_empty()).then(|| mean_loss(&state.net, val, args.target()));
        let judged = val_loss.unwrap_or(train_loss);
        if judged < state.best_loss {
            state.best = state.net.clone();
            state.best_loss = judged;
            state.best_epoch = epoch;
        }
        state.epoch = epoch;
        let lr = learning_rate(args, epoch);
        state.history.push(EpochRecord { train: train_loss, val: val_loss, speed, lr });
        let path = checkpoint_path(args, epoch);
        state.save(&path)?;
        let val_text = val_loss.map_or("-".to_owned(), |v| format!("{v:.6}"));
        bar.suspend(|| outln!("epoch {epoch}: train {train_loss:.6} val {val_text}, {speed:.0} pos/s"))?;
    }
    bar.finish_and_clear();
    Ok(())
}

/// Writes the best network's file to `--out` and measures its rounding on `judged`.
fn write_network(args: &TrainArgs, state: &Checkpoint, judged: &Dataset) -> Result<Written> {
    let file = quantise::write(&state.best)?;
    tempo_output::write_atomically(&args.out, &file).with_context(|| format!("cannot write {}", args.out.display()))?;
    let sha256 = hex(&Sha256::digest(&file));
    let suggested_name = format!("tempo-{}.nnue", &sha256[..12]);
    outln!("network written to {} ({} bytes), sha256 {}", args.out.display(), file.len(), &sha256[..12])?;
    let (rounding_error_cp, positions) = quantise::rounding_error(&state.best, judged);
    outln!(
        "rounding to the file's integers: {rounding_error_cp:.2} cp mean |float - integer| over {positions} positions (output QB {:?})",
        quantise::output_scales(&state.best)
    )?;
    outln!("suggested name: {suggested_name}")?;
    Ok(Written { sha256, suggested_name, rounding_error_cp })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: TrainArgs,
    }

    fn args(line: &str) -> TrainArgs {
        Cli::try_parse_from(std::iter::once("train").chain(line.split_whitespace())).unwrap().args
    }

    /// The `<out>.json` summary a run wrote.
    fn read_summary(out: &Path) -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(Summary::path(out)).unwrap()).unwrap()
    }

    /// Positions of random games labelled by a simple rule (material balance), as text.
    fn synthetic_file(path: &Path, games: usize, seed: u64) {
        use std::fmt::Write as _;
        use tempo_core::{Color, Position, Role};
        let mut rng = Rng::new(seed);
        let mut text = String::new();
        for _ in 0..games {
            let mut pos = Position::startpos();
            let mut lines = Vec::new();
            for _ in 0..60 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[rng.below(moves.len())]);
                let value = |c: Color| {
                    [(Role::Pawn, 100), (Role::Knight, 300), (Role::Bishop, 300), (Role::Rook, 500), (Role::Queen, 900)]
                        .iter()
                        .map(|&(r, v)| pos.pieces(c, r).count() as i32 * v)
                        .sum::<i32>()
                };
                lines.push((pos.fen(), value(Color::White) - value(Color::Black)));
            }
            let last = lines.last().map_or(0, |l| l.1);
            let result = if last > 200 {
                "1.0"
            } else if last < -200 {
                "0.0"
            } else {
                "0.5"
            };
            for (fen, score) in lines {
                let _ = writeln!(text, "{fen} | {score} | {result}");
            }
        }
        std::fs::write(path, text).unwrap();
    }

    #[test]
    fn training_lowers_the_loss_and_writes_the_network_and_summary() {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data.txt");
        synthetic_file(&data, 40, 1);
        let out = dir.path().join("net.nnue");
        let a = args(&format!(
            "{} --out {} --hidden 16 --output-buckets 4 --epochs 6 --batch 64 --lr 0.01 --threads 2 --val 0.1 --mirror",
            data.display(),
            out.display()
        ));
        assert!(run(&a).unwrap());
        let file = std::fs::read(&out).unwrap();
        let net = tempo_engine::QuantisedNet::from_bytes(&file).unwrap();
        assert_eq!((net.hidden, net.buckets()), (16, 4));
        let summary = read_summary(&out);
        let epochs = summary["epochs"].as_array().unwrap();
        assert_eq!(epochs.len(), 6);
        let loss = |i: usize, key: &str| epochs[i][key].as_f64().unwrap();
        assert!(loss(5, "train_loss") < loss(0, "train_loss") * 0.8, "{summary}");
        assert!(loss(5, "val_loss") < loss(0, "val_loss"), "{summary}");
        let sha = summary["sha256"].as_str().unwrap();
        assert_eq!(sha, hex(&Sha256::digest(&file)));
        assert_eq!(summary["suggested_name"], format!("tempo-{}.nnue", &sha[..12]));
        assert!(dir.path().join("net-epoch6.ckpt").exists());
    }

    #[test]
    fn a_resumed_run_continues_identically() {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data.txt");
        synthetic_file(&data, 20, 2);
        let common = "--hidden 8 --batch 50 --threads 2 --mirror --lr-drop 1 --seed 9";
        let straight = dir.path().join("straight.nnue");
        run(&args(&format!("{} --out {} --epochs 3 {common}", data.display(), straight.display()))).unwrap();
        let first = dir.path().join("first");
        run(&args(&format!(
            "{} --out {} --epochs 1 --checkpoint-dir {} {common}",
            data.display(),
            first.join("resumed.nnue").display(),
            first.display()
        )))
        .unwrap();
        let resumed = dir.path().join("resumed.nnue");
        run(&args(&format!(
            "{} --out {} --epochs 3 --resume {} {common}",
            data.display(),
            resumed.display(),
            first.join("resumed-epoch1.ckpt").display()
        )))
        .unwrap();
        let a = Checkpoint::load(&dir.path().join("straight-epoch3.ckpt")).unwrap();
        let b = Checkpoint::load(&dir.path().join("resumed-epoch3.ckpt")).unwrap();
        // Everything but the measured speeds.
        assert_eq!((a.epoch, &a.net, &a.opt, &a.best, a.best_epoch), (b.epoch, &b.net, &b.opt, &b.best, b.best_epoch));
        assert_eq!(a.best_loss, b.best_loss);
        let losses = |c: &Checkpoint| c.history.iter().map(|r| (r.train, r.val, r.lr)).collect::<Vec<_>>();
        assert_eq!(losses(&a), losses(&b));
        assert_eq!(std::fs::read(&straight).unwrap(), std::fs::read(&resumed).unwrap());

        // --init starts a new run from the checkpoint's best network, with a fresh optimiser.
        let init = dir.path().join("straight-epoch3.ckpt");
        let fine = args(&format!("{} --out x --hidden 8 --init {}", data.display(), init.display()));
        let split = data::load(&fine.data, fine.format, fine.val).unwrap();
        let state = initial_state(&fine, &split.train, &split.val).unwrap();
        assert_eq!((state.epoch, &state.net, state.opt.t), (0, &a.best, 0));
        // A wider run starts from it at the same evaluation (the new neurons add nothing yet).
        let wider = args(&format!("{} --out x --hidden 16 --init {}", data.display(), init.display()));
        let state = initial_state(&wider, &split.train, &split.val).unwrap();
        assert_eq!(state.net.hidden(), 16);
        let judged = if split.val.is_empty() { &split.train } else { &split.val };
        assert_eq!(state.best_loss, mean_loss(&a.best, judged, wider.target()));
        let wrong =
            args(&format!("{} --out x --hidden 8 --output-buckets 1 --init {}", data.display(), init.display()));
        assert!(initial_state(&wrong, &split.train, &split.val).is_err());

        // ... or from a network file: the written network, as the engine would run it.
        let fine = args(&format!("{} --out x --hidden 8 --init {}", data.display(), straight.display()));
        let state = initial_state(&fine, &split.train, &split.val).unwrap();
        assert_eq!(quantise::write(&state.net).unwrap(), std::fs::read(&straight).unwrap());
        let wider = args(&format!("{} --out x --hidden 16 --init {}", data.display(), straight.display()));
        assert_eq!(initial_state(&wider, &split.train, &split.val).unwrap().net.hidden(), 16);

        // A plain network starts a mirrored run with its weights as they are.
        let line = format!("{} --out x --hidden 8 --inputs mirrored --init {}", data.display(), straight.display());
        let state = initial_state(&args(&line), &split.train, &split.val).unwrap();
        assert_eq!(state.net.shape().inputs, InputMapping::Mirrored);
        assert_eq!(state.net.params(), quantise::read(&std::fs::read(&straight).unwrap()).unwrap().params());
        // Resuming is stricter: a checkpoint of plain inputs does not go on as mirrored.
        let line = format!("{} --out x --hidden 8 --inputs mirrored --resume {}", data.display(), init.display());
        assert!(initial_state(&args(&line), &split.train, &split.val).is_err());
    }

    #[test]
    fn mirrored_inputs_train_into_a_version_3_file_the_engine_loads() {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data.txt");
        synthetic_file(&data, 30, 4);
        let out = dir.path().join("net.nnue");
        let hidden = tempo_engine::HIDDEN;
        let line = format!(
            "{} --out {} --hidden {hidden} --inputs mirrored --epochs 2 --batch 64 --threads 2",
            data.display(),
            out.display()
        );
        assert!(run(&args(&line)).unwrap());
        let file = std::fs::read(&out).unwrap();
        let header = tempo_engine::nnue::format::Header::parse(&file).unwrap();
        assert_eq!((header.version, header.hidden, header.buckets), (3, hidden, 8));
        let network = tempo_engine::Network::from_bytes(&file).unwrap();
        assert_eq!(network.input_mapping(), InputMapping::Mirrored);
        let summary = read_summary(&out);
        assert_eq!((summary["format_version"].as_u64(), summary["inputs"].as_str()), (Some(3), Some("mirrored")));
        assert!(run(&args(&format!("{line} --mirror"))).unwrap_err().to_string().contains("--mirror"));
    }

    #[test]
    fn king_buckets_train_into_a_file_the_engine_loads() {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data.txt");
        synthetic_file(&data, 30, 5);
        let out = dir.path().join("net.nnue");
        let hidden = tempo_engine::HIDDEN;
        let line = format!(
            "{} --out {} --hidden {hidden} --inputs king-buckets4 --epochs 3 --batch 64 --lr 0.005 --threads 2",
            data.display(),
            out.display()
        );
        assert!(run(&args(&line)).unwrap());
        let file = std::fs::read(&out).unwrap();
        let header = tempo_engine::nnue::format::Header::parse(&file).unwrap();
        assert_eq!((header.version, header.hidden, header.mapping), (3, hidden, InputMapping::KingBuckets4));
        let network = tempo_engine::Network::from_bytes(&file).unwrap();
        assert_eq!(network.input_mapping(), InputMapping::KingBuckets4);
        let summary = read_summary(&out);
        assert_eq!(summary["inputs"].as_str(), Some("king-buckets4"));
        assert_eq!(summary["architecture"].as_str(), Some(format!("(3072 -> {hidden})x2 -> 8").as_str()));
        let epochs = summary["epochs"].as_array().unwrap();
        let loss = |i: usize| epochs[i]["train_loss"].as_f64().unwrap();
        assert!(loss(2) < loss(0), "{summary}");
        let err = run(&args(&format!("{line} --mirror"))).unwrap_err().to_string();
        assert!(err.contains("--mirror") && err.contains("king-buckets4"), "{err}");
    }

    /// `--init` from a mirrored network (its file or its checkpoint) into king buckets starts
    /// exactly at the parent's evaluation: the file written before any training evaluates
    /// every position as the parent's does, in the format's integers and in the engine.
    #[test]
    fn king_buckets_from_a_mirrored_parent_evaluate_as_the_parent() {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data.txt");
        synthetic_file(&data, 20, 6);
        let parent = dir.path().join("parent.nnue");
        let common = "--hidden 32 --batch 64 --lr 0.01 --threads 2";
        let line = format!("{} --out {} --inputs mirrored --epochs 2 {common}", data.display(), parent.display());
        run(&args(&line)).unwrap();
        let parent_net = tempo_engine::QuantisedNet::from_bytes(&std::fs::read(&parent).unwrap()).unwrap();
        let positions = super::quantise::tests::random_positions(300, 6);
        for init in [parent.clone(), dir.path().join("parent-epoch2.ckpt")] {
            let child = dir.path().join("child.nnue");
            let line = format!(
                "{} --out {} --inputs king-buckets4 --epochs 0 --init {} {common}",
                data.display(),
                child.display(),
                init.display()
            );
            run(&args(&line)).unwrap();
            let bytes = std::fs::read(&child).unwrap();
            let child_net = tempo_engine::QuantisedNet::from_bytes(&bytes).unwrap();
            assert_eq!(child_net.mapping, InputMapping::KingBuckets4);
            assert_eq!((&child_net.qb, &child_net.w2, &child_net.b2), (&parent_net.qb, &parent_net.w2, &parent_net.b2));
            let engine = tempo_engine::NetworkOf::<32>::from_bytes(&bytes).unwrap();
            let mut buckets = std::collections::HashSet::new();
            for pos in &positions {
                let expected = parent_net.evaluate(pos);
                assert_eq!(child_net.evaluate(pos), expected, "{}: {}", init.display(), pos.fen());
                assert_eq!(tempo_engine::nnue_evaluate(&engine, pos), expected, "{}: {}", init.display(), pos.fen());
                let mut features = [0; tempo_engine::nnue::format::MAX_ACTIVE];
                InputMapping::KingBuckets4.position_features(pos, pos.turn(), &mut features);
                buckets.insert(usize::from(features[0]) / data::INPUTS);
            }
            assert_eq!(buckets.len(), 4, "the positions put the king in every bucket");
        }
        // Nothing goes from king buckets back to one set of features.
        let line = format!(
            "{} --out {} --inputs mirrored --epochs 0 --init {} {common}",
            data.display(),
            dir.path().join("back.nnue").display(),
            dir.path().join("child.nnue").display()
        );
        assert!(run(&args(&line)).is_err());
    }

    /// A small network trained on synthetic games in `dir`: (its data, its file).
    fn small_parent(dir: &Path, seed: u64) -> (PathBuf, PathBuf) {
        let data = dir.join("data.txt");
        synthetic_file(&data, 20, seed);
        let parent = dir.join("parent.nnue");
        run(&args(&format!("{} --out {} --hidden 8 --epochs 2 --batch 50", data.display(), parent.display()))).unwrap();
        (data, parent)
    }

    /// The network file `written` is `base` with its output layer times `factor` (within the
    /// file's rounding) and its first layer unchanged.
    fn assert_output_scaled(written: &Path, base: &Path, factor: f32) {
        let written = quantise::read(&std::fs::read(written).unwrap()).unwrap();
        let base = quantise::read(&std::fs::read(base).unwrap()).unwrap();
        let start = base.shape().output_start();
        assert_eq!(written.params()[..start], base.params()[..start]);
        for (w, b) in written.params()[start..].iter().zip(&base.params()[start..]) {
            assert!((w - factor * b).abs() <= 1.0 / 64.0, "{w} vs {factor} x {b}");
        }
    }

    #[test]
    fn match_scale_multiplies_the_written_network_and_records_the_factor() {
        let dir = tempfile::tempdir().unwrap();
        let (data, parent) = small_parent(dir.path(), 3);

        // Matched to itself: a factor of one, the same file.
        let same = dir.path().join("same.nnue");
        let line =
            format!("{} --out {} --hidden 8 --epochs 0 --init {}", data.display(), same.display(), parent.display());
        run(&args(&format!("{line} --match-scale {}", parent.display()))).unwrap();
        assert_eq!(std::fs::read(&same).unwrap(), std::fs::read(&parent).unwrap());
        let summary = read_summary(&same);
        assert!((summary["scale"]["factor"].as_f64().unwrap() - 1.0).abs() < 1e-6, "{summary}");

        // Matched to a parent twice as steep: the output weights double.
        let mut steep = quantise::read(&std::fs::read(&parent).unwrap()).unwrap();
        scale::apply(&mut steep, 2.0);
        let steep_file = dir.path().join("steep.nnue");
        std::fs::write(&steep_file, quantise::write(&steep).unwrap()).unwrap();
        run(&args(&format!("{line} --match-scale {}", steep_file.display()))).unwrap();
        assert_output_scaled(&same, &parent, 2.0);
        assert!(run(&args(&format!("{line} --match-scale {}", data.display()))).is_err());
    }

    #[test]
    fn output_scale_multiplies_the_written_network_by_the_factor() {
        let dir = tempfile::tempdir().unwrap();
        let (data, parent) = small_parent(dir.path(), 5);
        let out = dir.path().join("scaled.nnue");
        let line =
            format!("{} --out {} --hidden 8 --epochs 0 --init {}", data.display(), out.display(), parent.display());

        // A factor of one writes the parent byte for byte.
        run(&args(&format!("{line} --output-scale 1"))).unwrap();
        assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&parent).unwrap());

        // Half: every output weight and bias halves (within the file's rounding), and the
        // summary records the factor.
        run(&args(&format!("{line} --output-scale 0.5"))).unwrap();
        assert_output_scaled(&out, &parent, 0.5);
        let summary = read_summary(&out);
        assert_eq!(summary["output_scale"]["factor"].as_f64(), Some(0.5), "{summary}");
        assert!(summary["output_scale"]["loss_after"].as_f64().is_some(), "{summary}");

        for bad in ["0", "-1", "nan", "inf"] {
            assert!(run(&args(&format!("{line} --output-scale={bad}"))).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_smaller_score_scale_trains_a_flatter_network() {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data.txt");
        synthetic_file(&data, 40, 4);
        let train = |k: &str| {
            let out = dir.path().join(format!("k{k}.nnue"));
            let line = format!(
                "{} --out {} --hidden 16 --output-buckets 1 --epochs 8 --batch 64 --lr 0.01 --wdl 0 --val 0 --threads 2 --score-scale {k}",
                data.display(),
                out.display()
            );
            run(&args(&line)).unwrap();
            assert_eq!(read_summary(&out)["settings"]["score_scale"].as_f64(), Some(k.parse().unwrap()));
            quantise::read(&std::fs::read(&out).unwrap()).unwrap()
        };
        let (plain, half) = (train("1"), train("0.5"));
        // Trained toward half the scores, the network's evaluations are about half as large:
        // the factor that puts it on the plain network's scale is about 2.
        let split = data::load(std::slice::from_ref(&data), Format::Text, 0.0).unwrap();
        let fit = scale::fit(&plain, &half, &split.train).unwrap();
        assert!((1.6..2.5).contains(&fit.factor), "factor {}", fit.factor);

        for bad in ["0", "-1", "NaN", "inf"] {
            let line =
                format!("{} --out {} --score-scale={bad}", data.display(), dir.path().join("bad.nnue").display());
            assert!(run(&args(&line)).is_err(), "--score-scale {bad}");
        }
    }

    #[test]
    fn the_learning_rate_drops_in_steps() {
        let a = args("d --out n --lr 0.01 --lr-drop 2 --lr-gamma 0.5");
        let rates: Vec<f64> = (1..=5).map(|e| learning_rate(&a, e)).collect();
        assert_eq!(rates, [0.01, 0.01, 0.005, 0.005, 0.0025]);
        assert_eq!(learning_rate(&args("d --out n --lr-drop 0"), 40), 0.002);
    }
}
