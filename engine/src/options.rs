//! The engine's options: their typed values, and the table of names, kinds and ranges a
//! protocol layer advertises (UCI `option name ... type ...`).

use crate::error::OptionError;
use std::time::Duration;

/// The kind and range of an option, as a protocol announces it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// An integer in `min..=max`.
    Spin {
        /// Default value.
        default: i64,
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// A boolean.
    Check {
        /// Default value.
        default: bool,
    },
    /// An action without a value.
    Button,
}

/// One advertised option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    /// Its name (matched case-insensitively).
    pub name: &'static str,
    /// Its kind and range.
    pub kind: OptionKind,
}

/// Largest hash table, in MiB.
pub const MAX_HASH_MB: usize = 65_536;
/// Most search threads.
pub const MAX_THREADS: usize = 256;
/// Most principal variations.
pub const MAX_MULTIPV: usize = 256;
/// The `UCI_Elo` range of the strength limiter.
pub const MIN_ELO: u32 = 1000;
/// See [`MIN_ELO`].
pub const MAX_ELO: u32 = 2600;

/// Every option, in the order a protocol should list them.
pub const OPTION_SPECS: &[OptionSpec] = &[
    OptionSpec { name: "Hash", kind: OptionKind::Spin { default: 16, min: 1, max: MAX_HASH_MB as i64 } },
    OptionSpec { name: "Threads", kind: OptionKind::Spin { default: 1, min: 1, max: MAX_THREADS as i64 } },
    OptionSpec { name: "MultiPV", kind: OptionKind::Spin { default: 1, min: 1, max: MAX_MULTIPV as i64 } },
    OptionSpec { name: "Ponder", kind: OptionKind::Check { default: false } },
    OptionSpec { name: "Move Overhead", kind: OptionKind::Spin { default: 20, min: 0, max: 5000 } },
    OptionSpec { name: "UCI_Chess960", kind: OptionKind::Check { default: false } },
    OptionSpec { name: "Clear Hash", kind: OptionKind::Button },
    OptionSpec { name: "UCI_ShowWDL", kind: OptionKind::Check { default: false } },
    OptionSpec { name: "UCI_LimitStrength", kind: OptionKind::Check { default: false } },
    OptionSpec {
        name: "UCI_Elo",
        kind: OptionKind::Spin { default: MAX_ELO as i64, min: MIN_ELO as i64, max: MAX_ELO as i64 },
    },
    OptionSpec { name: "OwnBook", kind: OptionKind::Check { default: false } },
    OptionSpec { name: "UseNNUE", kind: OptionKind::Check { default: DEFAULT_USE_NNUE } },
    OptionSpec { name: "SyzygyProbeDepth", kind: OptionKind::Spin { default: 1, min: 1, max: 100 } },
    OptionSpec { name: "SyzygyProbeLimit", kind: OptionKind::Spin { default: 7, min: 0, max: 7 } },
    OptionSpec { name: "Syzygy50MoveRule", kind: OptionKind::Check { default: true } },
];

/// The engine evaluates with its built-in network unless `UseNNUE` is turned off.
const DEFAULT_USE_NNUE: bool = true;

/// One option assignment, typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineOption {
    /// Transposition table size in MiB.
    Hash(usize),
    /// Number of search threads (Lazy SMP).
    Threads(usize),
    /// Number of principal variations to search and report.
    MultiPv(usize),
    /// Whether the GUI may ask for pondering (affects time use only through `go ponder`).
    Ponder(bool),
    /// Time kept in reserve per move for communication delays.
    MoveOverhead(Duration),
    /// Chess960 castling (handled by the protocol layer when reading positions and moves).
    Chess960(bool),
    /// Empty the transposition table and all history tables.
    ClearHash,
    /// Report win/draw/loss estimates with each score.
    ShowWdl(bool),
    /// Play weaker, at about `UCI_Elo`.
    LimitStrength(bool),
    /// Target strength when `UCI_LimitStrength` is on.
    Elo(u32),
    /// Play from the opening book (see [`crate::Engine::set_book`]) while it has a move.
    OwnBook(bool),
    /// Evaluate with the neural network (the built-in one, or another through
    /// [`crate::Engine::set_network`]); off, with the hand-crafted evaluation
    /// ([`crate::Evaluator::HandCrafted`]).
    UseNnue(bool),
    /// The least remaining depth at which the search probes the tablebases (positions with
    /// fewer men than the largest tables are probed at any depth).
    SyzygyProbeDepth(u32),
    /// The most men a position may have to be probed (0: never probe).
    SyzygyProbeLimit(u32),
    /// Whether the tables' verdicts count the fifty-move rule (cursed wins and blessed
    /// losses are draws).
    Syzygy50MoveRule(bool),
    /// A search parameter (only in builds with the feature `tune`): the one at `index` in
    /// [`crate::PARAMETERS`], set to `value` (within its range).
    #[cfg(feature = "tune")]
    Parameter {
        /// Its position in [`crate::PARAMETERS`].
        index: usize,
        /// The new value.
        value: i32,
    },
}

impl EngineOption {
    /// Parses `setoption name <name> value <value>` (a missing value is the empty string).
    ///
    /// # Errors
    /// [`OptionError::Unknown`] for an unknown name; [`OptionError::OutOfRange`] or
    /// [`OptionError::NotBoolean`] for a value the option cannot take.
    pub fn parse(name: &str, value: &str) -> Result<EngineOption, OptionError> {
        #[cfg(feature = "tune")]
        if let Some(parameter) = crate::parameters::find_parameter(name) {
            return Self::parse_parameter(parameter, value);
        }
        let spec = OPTION_SPECS
            .iter()
            .find(|s| s.name.eq_ignore_ascii_case(name.trim()))
            .ok_or_else(|| OptionError::Unknown(name.to_owned()))?;
        let value = value.trim();
        let int = || match spec.kind {
            OptionKind::Spin { min, max, .. } => value
                .parse::<i64>()
                .ok()
                .filter(|v| (min..=max).contains(v))
                .ok_or(OptionError::OutOfRange { name: spec.name.to_owned(), value: value.to_owned(), min, max }),
            _ => unreachable!("only spin options are parsed as integers"),
        };
        let flag = || match value.to_ascii_lowercase().as_str() {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(OptionError::NotBoolean { name: spec.name.to_owned(), value: value.to_owned() }),
        };
        Ok(match spec.name {
            "Hash" => EngineOption::Hash(int()? as usize),
            "Threads" => EngineOption::Threads(int()? as usize),
            "MultiPV" => EngineOption::MultiPv(int()? as usize),
            "Ponder" => EngineOption::Ponder(flag()?),
            "Move Overhead" => EngineOption::MoveOverhead(Duration::from_millis(int()? as u64)),
            "UCI_Chess960" => EngineOption::Chess960(flag()?),
            "Clear Hash" => EngineOption::ClearHash,
            "UCI_ShowWDL" => EngineOption::ShowWdl(flag()?),
            "UCI_LimitStrength" => EngineOption::LimitStrength(flag()?),
            "UCI_Elo" => EngineOption::Elo(int()? as u32),
            "OwnBook" => EngineOption::OwnBook(flag()?),
            "UseNNUE" => EngineOption::UseNnue(flag()?),
            "SyzygyProbeDepth" => EngineOption::SyzygyProbeDepth(int()? as u32),
            "SyzygyProbeLimit" => EngineOption::SyzygyProbeLimit(int()? as u32),
            "Syzygy50MoveRule" => EngineOption::Syzygy50MoveRule(flag()?),
            _ => unreachable!("every spec name is handled"),
        })
    }

    /// Parses the value of a search parameter's option.
    #[cfg(feature = "tune")]
    fn parse_parameter(parameter: &crate::Parameter, value: &str) -> Result<EngineOption, OptionError> {
        let value = value.trim();
        let (min, max) = (parameter.min, parameter.max);
        value.parse::<i32>().ok().filter(|v| (min..=max).contains(v)).map_or_else(
            || {
                Err(OptionError::OutOfRange {
                    name: parameter.name.to_owned(),
                    value: value.to_owned(),
                    min: i64::from(min),
                    max: i64::from(max),
                })
            },
            |v| Ok(EngineOption::Parameter { index: parameter.index(), value: v }),
        )
    }
}

/// The current value of every option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// Principal variations.
    pub multipv: usize,
    /// Pondering allowed.
    pub ponder: bool,
    /// Reserve per move.
    pub move_overhead: Duration,
    /// Chess960 castling.
    pub chess960: bool,
    /// Report WDL.
    pub show_wdl: bool,
    /// Strength limiter on.
    pub limit_strength: bool,
    /// Strength limiter target.
    pub elo: u32,
    /// Book moves first.
    pub own_book: bool,
    /// Evaluate with the network when one is loaded.
    pub use_nnue: bool,
    /// Tablebase probes at this remaining depth and deeper.
    pub syzygy_probe_depth: u32,
    /// Tablebase probes with at most this many men.
    pub syzygy_probe_limit: u32,
    /// Tablebase verdicts under the fifty-move rule.
    pub syzygy_50_move_rule: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hash_mb: 16,
            threads: 1,
            multipv: 1,
            ponder: false,
            move_overhead: Duration::from_millis(20),
            chess960: false,
            show_wdl: false,
            limit_strength: false,
            elo: MAX_ELO,
            own_book: false,
            use_nnue: DEFAULT_USE_NNUE,
            syzygy_probe_depth: 1,
            syzygy_probe_limit: 7,
            syzygy_50_move_rule: true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parsing() {
        assert_eq!(EngineOption::parse("hash", "64"), Ok(EngineOption::Hash(64)));
        assert_eq!(EngineOption::parse("Move Overhead", "0"), Ok(EngineOption::MoveOverhead(Duration::ZERO)));
        assert_eq!(EngineOption::parse("clear hash", ""), Ok(EngineOption::ClearHash));
        assert_eq!(EngineOption::parse("UCI_ShowWDL", "TRUE"), Ok(EngineOption::ShowWdl(true)));
        assert_eq!(EngineOption::parse("usennue", "true"), Ok(EngineOption::UseNnue(true)));
        // On by default exactly when a network is built in (none is yet).
        assert!(Options::default().use_nnue);
        assert!(matches!(EngineOption::parse("Hash", "0"), Err(OptionError::OutOfRange { .. })));
        assert!(matches!(EngineOption::parse("Hash", "x"), Err(OptionError::OutOfRange { .. })));
        assert!(matches!(EngineOption::parse("Ponder", "yes"), Err(OptionError::NotBoolean { .. })));
        assert!(matches!(EngineOption::parse("Nope", "1"), Err(OptionError::Unknown(_))));
        assert_eq!(EngineOption::parse("SyzygyProbeLimit", "5"), Ok(EngineOption::SyzygyProbeLimit(5)));
        assert!(matches!(EngineOption::parse("SyzygyProbeLimit", "8"), Err(OptionError::OutOfRange { .. })));
        assert_eq!(EngineOption::parse("syzygy50moverule", "false"), Ok(EngineOption::Syzygy50MoveRule(false)));
    }
}
