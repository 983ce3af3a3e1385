//! Every tunable constant of the search and of time management, declared once: its name,
//! default, range and SPSA step (OpenBench's `c_end`, the perturbation at the end of a run).
//!
//! The search reads each one through a function of the same name (`parameters::rfp_margin()`).
//! In a default build that function returns the default, a constant, so the compiled search is
//! the one the literals gave. With the cargo feature `tune` each value lives in an atomic that
//! `setoption` changes (every parameter is then a UCI `spin` option of that name, and the UCI
//! command `spsa` prints the declarations as OpenBench's SPSA input), so that a tuner can move
//! them without rebuilding. The values are process-wide: one engine process, one setting.
//!
//! Values are integers, as tuners perturb them; fractions are written in hundredths or
//! thousandths and named so (`lmr_base` 75 is 0.75).

use crate::options::{OptionKind, OptionSpec};

/// One tunable constant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Parameter {
    /// Its name: the function the search calls, the UCI option, the SPSA input's name.
    pub name: &'static str,
    /// The value a default build compiles in.
    pub default: i32,
    /// Smallest value a tuner may try.
    pub min: i32,
    /// Largest value a tuner may try.
    pub max: i32,
    /// The SPSA perturbation at the end of a tuning run (OpenBench's `c_end`).
    pub c_end: f64,
    /// Its position in [`PARAMETERS`].
    index: usize,
}

/// The SPSA learning rate at the end of a run (OpenBench's `r_end`) for every parameter: the
/// value OpenBench's documentation and most engines use.
pub const R_END: f64 = 0.002;

/// `true` in builds with the feature `tune`, where the parameters are UCI options.
pub const TUNABLE: bool = cfg!(feature = "tune");

impl Parameter {
    /// The value the search uses now: the default, or in a `tune` build the one last set.
    pub fn value(&self) -> i32 {
        #[cfg(feature = "tune")]
        {
            cells::ALL[self.index].load(std::sync::atomic::Ordering::Relaxed)
        }
        #[cfg(not(feature = "tune"))]
        {
            self.default
        }
    }

    /// Sets the value the search uses (the caller has checked the range: see
    /// [`crate::EngineOption::parse`]). Only `tune` builds have this.
    #[cfg(feature = "tune")]
    pub(crate) fn set(&self, value: i32) {
        cells::ALL[self.index].store(value, std::sync::atomic::Ordering::Relaxed);
    }

    /// Its position in [`PARAMETERS`].
    pub fn index(&self) -> usize {
        self.index
    }

    /// The UCI option that sets it.
    pub fn option_spec(&self) -> OptionSpec {
        OptionSpec {
            name: self.name,
            kind: OptionKind::Spin {
                default: i64::from(self.default),
                min: i64::from(self.min),
                max: i64::from(self.max),
            },
        }
    }
}

/// The parameter called `name` (matched case-insensitively, as UCI option names are).
pub fn find_parameter(name: &str) -> Option<&'static Parameter> {
    PARAMETERS.iter().find(|p| p.name.eq_ignore_ascii_case(name.trim()))
}

/// The UCI options of the parameters: one `spin` per parameter in a `tune` build, none
/// otherwise (a default build's values are constants).
pub fn tunable_option_specs() -> impl Iterator<Item = OptionSpec> {
    PARAMETERS.iter().filter(|_| TUNABLE).map(Parameter::option_spec)
}

/// Declares the parameters: `name = default, min..=max, c_end;` with its documentation. It
/// makes [`PARAMETERS`], one accessor function per parameter, and in a `tune` build one
/// atomic cell per parameter.
macro_rules! parameters {
    ($($(#[doc = $doc:literal])+ $name:ident = $default:literal, $min:literal..=$max:literal, $c_end:literal;)+) => {
        /// Every parameter, in declaration order.
        pub const PARAMETERS: &[Parameter] = &parameters!(@table 0usize; []; $($name $default $min $max $c_end)+);

        $(
            $(#[doc = $doc])+
            #[cfg(not(feature = "tune"))]
            #[inline(always)]
            pub(crate) const fn $name() -> i32 {
                $default
            }

            $(#[doc = $doc])+
            #[cfg(feature = "tune")]
            #[inline(always)]
            pub(crate) fn $name() -> i32 {
                cells::$name.load(std::sync::atomic::Ordering::Relaxed)
            }
        )+

        /// The run-time values of a `tune` build.
        #[cfg(feature = "tune")]
        #[allow(non_upper_case_globals)]
        mod cells {
            use std::sync::atomic::AtomicI32;
            $(pub static $name: AtomicI32 = AtomicI32::new($default);)+
            /// The cells in declaration order, as [`super::PARAMETERS`] indexes them.
            pub static ALL: &[&AtomicI32] = &[$(&$name),+];
        }
    };
    // Builds the table, numbering the entries.
    (@table $index:expr; [$($done:expr,)*]; $name:ident $default:literal $min:literal $max:literal $c_end:literal $($rest:tt)*) => {
        parameters!(@table $index + 1; [$($done,)* Parameter {
            name: stringify!($name),
            default: $default,
            min: $min,
            max: $max,
            c_end: $c_end,
            index: $index,
        },]; $($rest)*)
    };
    (@table $index:expr; [$($done:expr,)*];) => {
        [$($done),*]
    };
}

parameters! {
    // Late move reductions: the table's reduction for depth d and move number m is
    // (lmr_base + ln d · ln m · 100 / lmr_divisor) / 100, rounded down.
    /// Late move reductions: the table's constant term, in hundredths of a ply.
    lmr_base = 75, 0..=200, 10.0;
    /// Late move reductions: the divisor of ln(depth)·ln(move number), in hundredths.
    lmr_divisor = 225, 100..=400, 15.0;
    /// Late move reductions: the combined history of a quiet move that earns one ply less.
    lmr_history_divisor = 8192, 2048..=32768, 800.0;
    /// Late move reductions: the least depth at which moves are reduced.
    lmr_min_depth = 2, 1..=4, 0.5;
    /// Late move reductions: a reduced search that beats the best move so far by this many
    /// centipawns (plus two per ply of depth) is verified a ply deeper.
    lmr_deeper_margin = 50, 0..=200, 8.0;

    /// Aspiration windows: the first half-width around the previous score, in centipawns.
    aspiration_window = 20, 5..=60, 3.0;
    /// Aspiration windows: how much the half-width grows after a failure, in percent.
    aspiration_growth = 50, 10..=200, 8.0;

    /// Razoring: the deepest remaining depth it applies at.
    razor_max_depth = 3, 1..=6, 0.5;
    /// Razoring: the margin's constant term, in centipawns.
    razor_base = 150, 0..=500, 25.0;
    /// Razoring: the margin per ply of depth, in centipawns.
    razor_depth_margin = 250, 50..=500, 25.0;

    /// Reverse futility pruning: the deepest remaining depth it applies at.
    rfp_max_depth = 8, 4..=12, 0.5;
    /// Reverse futility pruning: the margin per ply (less one when improving), in centipawns.
    rfp_margin = 80, 30..=200, 8.0;

    /// Null move pruning: the least depth at which it is tried.
    nmp_min_depth = 3, 1..=6, 0.5;
    /// Null move pruning: the static evaluation must reach beta less this many centipawns...
    nmp_eval_base = 150, 0..=400, 20.0;
    /// ...plus this many per ply of depth.
    nmp_eval_depth = 20, 0..=60, 3.0;
    /// Null move pruning: the reduction's constant term, in plies.
    nmp_base_reduction = 3, 1..=6, 0.5;
    /// Null move pruning: one ply more reduction per this many plies of depth.
    nmp_depth_divisor = 3, 2..=6, 0.5;
    /// Null move pruning: one ply more reduction per this many centipawns above beta...
    nmp_eval_divisor = 200, 50..=600, 20.0;
    /// ...up to this many plies.
    nmp_eval_max_reduction = 3, 1..=6, 0.5;
    /// Null move pruning: from this depth on a fail-high is verified by a search without
    /// null moves.
    nmp_verify_depth = 12, 6..=20, 1.0;

    /// Internal iterative reduction: the least depth at which a node without a hash move is
    /// searched one ply shallower.
    iir_min_depth = 4, 2..=8, 0.5;

    /// Late move pruning: the quiet-move allowance is (lmp_base + depth²), halved when not
    /// improving.
    lmp_base = 3, 0..=10, 0.5;

    /// Futility pruning: the deepest reduced depth it applies at.
    futility_max_depth = 8, 4..=12, 0.5;
    /// Futility pruning: the margin's constant term, in centipawns.
    futility_base = 100, 0..=300, 10.0;
    /// Futility pruning: the margin per ply of reduced depth, in centipawns.
    futility_depth_margin = 100, 30..=250, 10.0;

    /// History pruning: the deepest reduced depth it applies at.
    history_prune_max_depth = 4, 1..=8, 0.5;
    /// History pruning: a quiet move whose history is below minus this times depth is skipped.
    history_prune_margin = 3000, 500..=8000, 250.0;

    /// SEE pruning of quiet moves: the deepest reduced depth it applies at.
    see_quiet_max_depth = 8, 4..=12, 0.5;
    /// SEE pruning of quiet moves: the loss allowed is this times the reduced depth squared.
    see_quiet_margin = 25, 5..=80, 3.0;
    /// SEE pruning of captures: the deepest depth it applies at.
    see_noisy_max_depth = 8, 4..=12, 0.5;
    /// SEE pruning of captures: the loss allowed is this times the depth, in centipawns.
    see_noisy_margin = 90, 20..=200, 8.0;

    /// Singular extensions: the least depth at which the hash move is tested.
    singular_min_depth = 8, 4..=12, 0.5;
    /// Singular extensions: the stored entry may be this many plies shallower than the node.
    singular_tt_depth_margin = 3, 1..=6, 0.5;
    /// Singular extensions: the singular beta is the stored score less this times depth.
    singular_beta_margin = 2, 1..=6, 0.5;
    /// Singular extensions: a double extension needs the search this far below singular beta.
    double_extension_margin = 20, 0..=60, 3.0;
    /// Singular extensions: the most double extensions on one line.
    double_extension_limit = 6, 0..=12, 1.0;

    /// Quiescence search: the futility margin added to a capture's gain, in centipawns.
    qs_futility_margin = 150, 0..=400, 15.0;
    /// Quiescence search: captures that lose more than minus this (by SEE) are skipped.
    qs_see_threshold = 0, -200..=100, 10.0;

    /// History bonus for a cutoff: the depth² coefficient.
    history_bonus_quadratic = 16, 0..=64, 2.0;
    /// History bonus: the depth coefficient.
    history_bonus_linear = 32, 0..=128, 4.0;
    /// History bonus: the constant subtracted.
    history_bonus_offset = 16, 0..=128, 4.0;
    /// History bonus: the largest bonus.
    history_bonus_max = 1600, 400..=4000, 100.0;
    /// History malus for the moves tried before a cutoff: the depth² coefficient.
    history_malus_quadratic = 16, 0..=64, 2.0;
    /// History malus: the depth coefficient.
    history_malus_linear = 32, 0..=128, 4.0;
    /// History malus: the constant subtracted.
    history_malus_offset = 16, 0..=128, 4.0;
    /// History malus: the largest malus.
    history_malus_max = 1600, 400..=4000, 100.0;

    /// Move ordering: the bonus of a quiet queen move out of an attack by a rook or lesser
    /// piece to a square none attacks (history entries reach 16,384 each).
    escape_bonus_queen = 16000, 0..=40000, 1500.0;
    /// Move ordering: the bonus of a quiet rook move out of an attack by a minor piece or pawn.
    escape_bonus_rook = 8000, 0..=30000, 800.0;
    /// Move ordering: the bonus of a quiet knight or bishop move out of an attack by a pawn.
    escape_bonus_minor = 5000, 0..=20000, 500.0;

    /// Correction history: the weight of the pawn-structure entry, in hundredths (at the
    /// entry's limit and weight 100 the correction is 50 centipawns).
    corr_pawn_weight = 100, 0..=300, 10.0;
    /// Correction history: the weight of each side's non-pawn entry, in hundredths.
    corr_non_pawn_weight = 100, 0..=300, 10.0;
    /// Correction history: an entry learns the search's error times depth over this.
    corr_bonus_depth_divisor = 8, 2..=32, 1.0;

    /// Time management: the moves the clock must last when the GUI gives no `movestogo`.
    tm_moves_to_go = 32, 20..=60, 2.0;
    /// Time management: below a clock of this many increments (plus the overheads below),
    /// spend progressively less than the increment, so that the clock climbs back.
    tm_reserve_incs = 10, 0..=40, 2.0;
    /// Time management: the reserve's share of `Move Overhead`s (see `tm_reserve_incs`).
    tm_reserve_overheads = 10, 0..=40, 2.0;
    /// Time management: without `movestogo`, a move's share of the time grows by this many
    /// ten-thousandths per game ply (the middlegame and endgame decide more games than the
    /// opening, and the clock should not end the game unused)...
    tm_ply_growth = 100, 0..=300, 10.0;
    /// ...up to this many hundredths of the share at ply 0.
    tm_ply_growth_cap = 200, 100..=400, 10.0;
    /// Time management: the soft limit's cap, in thousandths of the available time.
    tm_soft_cap = 250, 100..=500, 20.0;
    /// Time management: the hard limit's cap, in thousandths of the available time.
    tm_hard_cap = 400, 200..=700, 25.0;
    /// Time management: the hard limit as a multiple of the soft one, in hundredths.
    tm_hard_ratio = 400, 150..=800, 25.0;
    /// Time management: the soft limit's scale with an unstable best move, in hundredths...
    tm_stability_base = 130, 100..=200, 5.0;
    /// ...less this many hundredths for each iteration the best move stayed (up to six).
    tm_stability_step = 8, 0..=20, 1.0;
    /// Time management: the soft limit grows by this many hundredths per recent best-move
    /// change (up to three).
    tm_instability = 25, 0..=60, 3.0;
    /// Time management: the share of the best-move changes counted so far that the next
    /// iteration keeps, in hundredths.
    tm_instability_decay = 50, 0..=100, 5.0;
    /// Time management: the soft limit's scale with a single legal move, in hundredths.
    tm_single_move = 20, 5..=100, 5.0;
    /// Time management: the soft limit scales by (`tm_node_base` - the best move's share of the
    /// nodes) times `tm_node_scale`, both in hundredths: 0.81 when the best move took 90% of
    /// the search, 1.35 at 50%.
    tm_node_base = 150, 100..=250, 5.0;
    /// Time management: see `tm_node_base`.
    tm_node_scale = 135, 50..=250, 6.0;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_are_consistent() {
        for (i, p) in PARAMETERS.iter().enumerate() {
            assert_eq!(p.index(), i, "{}", p.name);
            assert!(p.min <= p.default && p.default <= p.max, "{} default outside its range", p.name);
            assert!(p.c_end > 0.0 && p.c_end < f64::from(p.max - p.min), "{} step", p.name);
            assert_eq!(find_parameter(&p.name.to_ascii_uppercase()), Some(p));
            assert!(PARAMETERS[..i].iter().all(|q| !q.name.eq_ignore_ascii_case(p.name)), "{} twice", p.name);
        }
    }

    #[test]
    fn accessors_read_the_declared_values() {
        assert_eq!(lmr_base(), find_parameter("lmr_base").map(Parameter::value).unwrap());
        assert_eq!(tm_single_move(), find_parameter("tm_single_move").map(Parameter::value).unwrap());
    }

    #[test]
    fn options_exist_only_where_values_can_change() {
        assert_eq!(tunable_option_specs().count(), if TUNABLE { PARAMETERS.len() } else { 0 });
    }
}
