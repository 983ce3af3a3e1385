//! The run's record, `<out>.json` beside the network: what was trained, on what, with which
//! settings, and how each epoch went (the network lineage in `engine/nets/README.md` quotes
//! it).

use super::checkpoint::Checkpoint;
use super::data::{Format, Split};
use super::model::Activation;
use super::quantise;
use super::scale::ScaleFit;
use super::TrainArgs;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// The record of a training run.
#[derive(Debug, Serialize)]
pub struct Summary {
    /// The network file written.
    pub network: String,
    /// Its SHA-256 (none for activations the file format lacks).
    pub sha256: Option<String>,
    /// `tempo-<first 12 hex digits>.nnue`.
    pub suggested_name: Option<String>,
    /// The file's format version.
    pub format_version: u32,
    /// `(I -> H)x2 -> B`, I the input mapping's features (768, or 3072 with king buckets).
    pub architecture: String,
    pub hidden: usize,
    pub output_buckets: usize,
    /// The input mapping's name.
    pub inputs: &'static str,
    /// Each output bucket's quantisation.
    pub qb: Vec<i32>,
    pub activation: Activation,
    pub data: Vec<String>,
    pub data_format: Format,
    pub games: usize,
    pub train_positions: usize,
    pub val_positions: usize,
    pub skipped_positions: usize,
    pub broken_games: usize,
    pub settings: Settings,
    pub best_epoch: u32,
    pub best_loss: f64,
    pub epochs: Vec<EpochSummary>,
    /// The best network's float evaluation of the start position, centipawns.
    pub startpos_cp: f32,
    /// The mean |float - integer| evaluation over the judged positions.
    pub rounding_error_cp: Option<f64>,
    /// `--match-scale`'s fit, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scale: Option<ScaleSummary>,
    /// `--output-scale`, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output_scale: Option<OutputScaleSummary>,
}

/// The options that shaped the run.
#[derive(Debug, Serialize)]
pub struct Settings {
    pub epochs: u32,
    pub batch: usize,
    pub lr: f64,
    pub wd: f64,
    pub lr_schedule: &'static str,
    pub lr_drop: u32,
    pub lr_gamma: f64,
    pub wdl: f64,
    pub score_scale: f64,
    pub val: f64,
    pub mirror: bool,
    pub seed: u64,
    pub threads: usize,
    pub init: Option<String>,
    pub resume: Option<String>,
}

/// One epoch's losses and speed.
#[derive(Debug, Serialize)]
pub struct EpochSummary {
    pub epoch: usize,
    pub train_loss: f64,
    pub val_loss: Option<f64>,
    pub lr: f64,
    pub positions_per_second: f64,
}

/// `--match-scale`'s result.
#[derive(Debug, Serialize)]
pub struct ScaleSummary {
    /// The parent network the scale was matched to.
    pub parent: String,
    pub factor: f64,
    pub positions: usize,
    /// The loss after scaling.
    pub loss_after: f64,
}

/// `--output-scale`'s factor and what it did to the loss.
#[derive(Debug, Serialize)]
pub struct OutputScaleSummary {
    pub factor: f64,
    /// The loss after scaling.
    pub loss_after: f64,
}

/// What writing the network file gave.
pub struct Written {
    pub sha256: String,
    pub suggested_name: String,
    pub rounding_error_cp: f64,
}

fn name(path: &Path) -> String {
    path.display().to_string()
}

impl Summary {
    /// The summary of a finished run.
    pub fn new(
        args: &TrainArgs,
        threads: usize,
        split: &Split,
        state: &Checkpoint,
        written: Option<Written>,
        scale: Option<(ScaleFit, f64)>,
        output_scaled: Option<f64>,
    ) -> Summary {
        let epochs = state
            .history
            .iter()
            .enumerate()
            .map(|(i, r)| EpochSummary {
                epoch: i + 1,
                train_loss: r.train,
                val_loss: r.val,
                lr: r.lr,
                positions_per_second: r.speed.round(),
            })
            .collect();
        let (sha256, suggested_name, rounding_error_cp) = match written {
            Some(w) => (Some(w.sha256), Some(w.suggested_name), Some(w.rounding_error_cp)),
            None => (None, None, None),
        };
        Summary {
            network: name(&args.out),
            sha256,
            suggested_name,
            format_version: quantise::quantise(&state.best).header().version,
            architecture: format!("({} -> {})x2 -> {}", args.inputs.inputs(), args.hidden, args.output_buckets),
            hidden: args.hidden,
            output_buckets: args.output_buckets,
            inputs: args.inputs.name(),
            qb: quantise::output_scales(&state.best),
            activation: args.activation,
            data: args.data.iter().map(|p| name(p)).collect(),
            data_format: args.format,
            games: split.games,
            train_positions: split.train.len(),
            val_positions: split.val.len(),
            skipped_positions: split.skipped,
            broken_games: split.broken,
            settings: Settings {
                epochs: args.epochs,
                batch: args.batch,
                lr: args.lr,
                wd: args.wd,
                lr_schedule: "step",
                lr_drop: args.lr_drop,
                lr_gamma: args.lr_gamma,
                wdl: args.wdl,
                score_scale: args.score_scale,
                val: args.val,
                mirror: args.mirror,
                seed: args.seed,
                threads,
                init: args.init.as_deref().map(name),
                resume: args.resume.as_deref().map(name),
            },
            best_epoch: state.best_epoch,
            best_loss: state.best_loss,
            epochs,
            startpos_cp: state.best.float_eval_cp(&tempo_core::Position::startpos()),
            rounding_error_cp,
            scale: scale.map(|(fit, loss_after)| ScaleSummary {
                parent: args.match_scale.as_deref().map(name).unwrap_or_default(),
                factor: fit.factor,
                positions: fit.positions,
                loss_after,
            }),
            output_scale: args
                .output_scale
                .zip(output_scaled)
                .map(|(factor, loss_after)| OutputScaleSummary { factor, loss_after }),
        }
    }

    /// Where the summary of a network written to `out` goes: `<out>.json`.
    pub fn path(out: &Path) -> PathBuf {
        let mut name = out.as_os_str().to_owned();
        name.push(".json");
        PathBuf::from(name)
    }
}
