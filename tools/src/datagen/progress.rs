//! The record of how far a data generation run is: `<out>.progress`, rewritten after every
//! chunk of games, so that `--resume` can continue an interrupted run exactly.

use super::selfplay::Rules;
use super::{DatagenArgs, Format};
use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fs::OpenOptions;
use std::path::{Path, PathBuf};
use tempo_core::GameResult;

/// Everything that decides which games a run writes; a resumed run must have the same. The
/// rules are flattened, so the record reads as one flat list of settings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    pub format: Format,
    pub seed: u64,
    #[serde(flatten)]
    pub rules: Rules,
    pub openings: Option<PathBuf>,
    pub options: Vec<String>,
}

impl Settings {
    pub fn of(args: &DatagenArgs, format: Format, rules: &Rules) -> Settings {
        Settings {
            format,
            seed: args.seed,
            rules: rules.clone(),
            openings: args.openings.clone(),
            options: args.options.clone(),
        }
    }
}

/// The state of a run: its settings and what the output file holds so far.
#[derive(Debug, Serialize, Deserialize)]
pub struct Progress {
    pub settings: Settings,
    /// Game indices done (written or discarded): the next run starts at this index.
    pub games_done: u64,
    /// Games written.
    pub games_written: u64,
    /// Training positions written.
    pub positions: u64,
    /// Bytes of the output file that are complete.
    pub bytes: u64,
    /// Results of the written games for White: wins, draws, losses.
    pub tally: [u64; 3],
}

/// The settings that differ, by their names in the progress record: `seed 2074 (given 1),
/// nodes 10000 (given 5000)`.
fn differences(recorded: &Settings, given: &Settings) -> String {
    let (Ok(Value::Object(recorded)), Ok(Value::Object(given))) =
        (serde_json::to_value(recorded), serde_json::to_value(given))
    else {
        return "(they cannot be listed)".to_owned();
    };
    recorded
        .iter()
        .filter_map(|(name, was)| {
            let now = given.get(name).unwrap_or(&Value::Null);
            (was != now).then(|| format!("{name} {was} (given {now})"))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn progress_path(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".progress");
    PathBuf::from(name)
}

impl Progress {
    /// A new run: creates the output file. A file that already holds data is refused (hours
    /// of games are continued with `--resume`, never overwritten by forgetting it).
    pub fn start(out: &Path, settings: Settings) -> Result<Progress> {
        match std::fs::metadata(out) {
            Ok(meta) if meta.is_file() && meta.len() > 0 => bail!(
                "{} already holds {} bytes of data: continue that run with --resume, or name a new --out",
                out.display(),
                meta.len()
            ),
            _ => {}
        }
        std::fs::File::create(out).with_context(|| format!("cannot create {}", out.display()))?;
        let progress = Progress { settings, games_done: 0, games_written: 0, positions: 0, bytes: 0, tally: [0; 3] };
        progress.save(out)?;
        Ok(progress)
    }

    /// Continues the run recorded beside `out`, cutting off anything written after the last
    /// complete chunk.
    pub fn resume(out: &Path, settings: &Settings) -> Result<Progress> {
        let path = progress_path(out);
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("--resume: cannot read {} (no run to resume?)", path.display()))?;
        let progress: Progress = serde_json::from_str(&text)
            .with_context(|| format!("--resume: {} is not a progress record", path.display()))?;
        if &progress.settings != settings {
            bail!(
                "--resume: the run in {} was made with other settings: {}; resume it with the same ones",
                path.display(),
                differences(&progress.settings, settings)
            );
        }
        let file =
            OpenOptions::new().write(true).open(out).with_context(|| format!("cannot open {}", out.display()))?;
        let len = file.metadata()?.len();
        if len < progress.bytes {
            bail!("--resume: {} holds {len} bytes, fewer than the {} recorded", out.display(), progress.bytes);
        }
        file.set_len(progress.bytes).with_context(|| format!("cannot truncate {}", out.display()))?;
        Ok(progress)
    }

    /// Counts one written game.
    pub fn record(&mut self, bytes: u64, positions: u64, result: GameResult) {
        self.games_written += 1;
        self.positions += positions;
        self.bytes += bytes;
        self.tally[match result {
            GameResult::WhiteWins => 0,
            GameResult::Draw => 1,
            GameResult::BlackWins => 2,
        }] += 1;
    }

    /// Writes the record atomically, so that it is never half-written.
    pub fn save(&self, out: &Path) -> Result<()> {
        let path = progress_path(out);
        tempo_output::write_atomically(&path, serde_json::to_string_pretty(self)?.as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))
    }
}
