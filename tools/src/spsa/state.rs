//! The tuner's state, written after every iteration so that `--resume` continues the run
//! where it stopped: the schedule, the iterations done, the random generator, and each
//! parameter as an SPSA input line at its current value.

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};
use std::path::Path;
use tempo_uci::SpsaParam;

/// The run's constants (OpenBench's SPSA settings).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Schedule {
    /// Iterations of the whole run (`N`).
    pub iterations: u64,
    /// The learning rate's decay exponent.
    pub alpha: f64,
    /// The perturbation's decay exponent.
    pub gamma: f64,
    /// `A` as a share of `N`.
    pub a_ratio: f64,
}

/// Where a run stands.
#[derive(Clone, Debug, PartialEq)]
pub struct TunerState {
    /// The parameters, each at its current value θ.
    pub params: Vec<SpsaParam>,
    /// The values the run started from.
    pub start: Vec<f64>,
    pub schedule: Schedule,
    /// Iterations done.
    pub completed: u64,
    /// The random generator's state (SplitMix64).
    pub rng: u64,
    /// θ+'s wins less its losses, summed over the run.
    pub score_sum: f64,
}

/// The file's form: the parameters as SPSA lines, readable and exact (Rust writes the
/// shortest text that reads back as the same number).
#[derive(Serialize, Deserialize)]
struct File {
    schedule: Schedule,
    completed: u64,
    rng: u64,
    score_sum: f64,
    params: Vec<String>,
    start: Vec<String>,
}

impl TunerState {
    /// A fresh run from `params` (their values are the start).
    pub fn new(params: Vec<SpsaParam>, schedule: Schedule, seed: u64) -> TunerState {
        let start = params.iter().map(|p| p.value).collect();
        TunerState { params, start, schedule, completed: 0, rng: tempo_core::opening::mix(seed), score_sum: 0.0 }
    }

    /// Writes the state to `path` (through a temporary file, so that a crash leaves the
    /// previous state whole).
    ///
    /// # Errors
    /// When the file cannot be written.
    pub fn save(&self, path: &Path) -> Result<()> {
        let file = File {
            schedule: self.schedule,
            completed: self.completed,
            rng: self.rng,
            score_sum: self.score_sum,
            params: self.params.iter().map(ToString::to_string).collect(),
            start: self.start.iter().map(ToString::to_string).collect(),
        };
        let text = serde_json::to_string_pretty(&file)? + "\n";
        // As every file the tools replace: a synced temporary file renamed over it, so that a
        // run stopped mid-write leaves the previous iteration's state whole.
        tempo_output::write_atomically(path, text.as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))
    }

    /// Reads a state [`TunerState::save`] wrote.
    ///
    /// # Errors
    /// When the file cannot be read or is not such a state.
    pub fn load(path: &Path) -> Result<TunerState> {
        let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
        let file: File =
            serde_json::from_str(&text).with_context(|| format!("{} is not an SPSA state", path.display()))?;
        let params = file
            .params
            .iter()
            .map(|line| line.parse::<SpsaParam>().with_context(|| format!("{}: {line:?}", path.display())))
            .collect::<Result<Vec<_>>>()?;
        let start = file
            .start
            .iter()
            .map(|v| v.parse::<f64>().with_context(|| format!("{}: start value {v:?}", path.display())))
            .collect::<Result<Vec<_>>>()?;
        if start.len() != params.len() || params.is_empty() {
            bail!("{}: {} parameters but {} start values", path.display(), params.len(), start.len());
        }
        Ok(TunerState {
            params,
            start,
            schedule: file.schedule,
            completed: file.completed,
            rng: file.rng,
            score_sum: file.score_sum,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tempo_uci::parse_spsa_input;

    #[test]
    fn the_state_file_round_trips() {
        let params = parse_spsa_input("a, int, 75, 0, 200, 10, 0.002\nb, float, 0.5, -1, 1, 0.05, 0.002\n").unwrap();
        let schedule = Schedule { iterations: 50, alpha: 0.602, gamma: 0.101, a_ratio: 0.1 };
        let mut state = TunerState::new(params, schedule, 9);
        state.perturb();
        state.params[0].value = 75.123_456_789_012_34;
        state.params[1].value = -0.1 / 3.0;
        state.completed = 17;
        state.score_sum = -3.0;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("spsa.json");
        state.save(&path).unwrap();
        assert_eq!(TunerState::load(&path).unwrap(), state);
        // Resuming draws the same perturbations as carrying on would have.
        let mut resumed = TunerState::load(&path).unwrap();
        assert_eq!(resumed.perturb(), state.perturb());
    }

    #[test]
    fn saving_replaces_the_file_alone() {
        let params = parse_spsa_input("a, int, 75, 0, 200, 10, 0.002\n").unwrap();
        let schedule = Schedule { iterations: 50, alpha: 0.602, gamma: 0.101, a_ratio: 0.1 };
        let mut state = TunerState::new(params, schedule, 9);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("spsa.json");
        // A file of the user's that an earlier version would have used as its temporary file.
        std::fs::write(dir.path().join("spsa.tmp"), "mine").unwrap();
        state.save(&path).unwrap();
        state.completed = 1;
        state.save(&path).unwrap();
        assert_eq!(TunerState::load(&path).unwrap().completed, 1);
        let mut names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        names.sort();
        assert_eq!(names, ["spsa.json", "spsa.tmp"], "no temporary file is left behind");
        assert_eq!(std::fs::read_to_string(dir.path().join("spsa.tmp")).unwrap(), "mine");
        let error = state.save(&dir.path().join("missing/spsa.json")).unwrap_err();
        assert!(format!("{error:#}").starts_with("cannot write "), "{error:#}");
    }

    #[test]
    fn a_broken_state_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("spsa.json");
        std::fs::write(&path, "{\"schedule\": 1}").unwrap();
        assert!(TunerState::load(&path).is_err());
        assert!(TunerState::load(&dir.path().join("missing.json")).is_err());
    }
}
