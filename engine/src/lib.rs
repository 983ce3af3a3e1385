//! # tempo-engine
//!
//! Search and evaluation behind a text-free facade: the [`Engine`] takes a [`Position`]
//! with the moves that led to it, searches on background threads under [`Limits`], and
//! reports [`Event`]s. It knows nothing of UCI: the `tempo-uci` crate adapts it to the
//! protocol.
//!
//! ```
//! use tempo_engine::{Engine, Event, Limits};
//! use tempo_core::{Move, Position};
//! use std::sync::mpsc;
//!
//! let mut engine = Engine::new();
//! // Scholar's mate is on the board: 1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6?? and White mates.
//! let pos: Position = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4".parse()?;
//! engine.set_position(pos, &[])?;
//! let (tx, rx) = mpsc::channel();
//! engine.go(Limits::depth(3), move |e| { let _ = tx.send(e); })?;
//! engine.wait();
//! let best = rx.iter().find_map(|e| match e {
//!     Event::BestMove { best, .. } => best,
//!     _ => None,
//! });
//! let qxf7 = Move::normal("h5".parse()?, "f7".parse()?);
//! assert_eq!(best, Some(qxf7));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

mod bench;
mod correction;
mod error;
mod evaluator;
mod events;
mod facade;
pub mod hce;
mod history;
mod limits;
mod movepick;
pub mod nnue;
mod options;
mod parameters;
mod score;
mod search;
mod see;
mod skill;
mod tablebase;
mod time;
mod tt;

/// The wall clock of searches: `std`'s, except in a browser (wasm32-unknown-unknown), where
/// `std::time::Instant::now` panics and `web-time` reads `performance.now()` instead.
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub(crate) use std::time::Instant;
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub(crate) use web_time::Instant;

pub use bench::{run_bench, run_bench_with, BenchReport, BENCH_DEPTH, BENCH_FENS};
pub use error::{EngineError, OptionError};
pub use evaluator::Evaluator;
pub use events::{Event, SearchInfo};
pub use facade::{Engine, SEARCH_STACK_SIZE};
pub use limits::Limits;
pub use nnue::{
    nnue_evaluate, output_bucket, InputMapping, Network, NetworkError, NetworkOf, QuantisedNet, EMBEDDED_NETWORK,
    HIDDEN, OUTPUT_BUCKET_COUNTS,
};
pub use options::{EngineOption, OptionKind, OptionSpec, Options, MAX_ELO, MIN_ELO, OPTION_SPECS};
pub use parameters::{find_parameter, tunable_option_specs, Parameter, PARAMETERS, R_END, TUNABLE};
pub use score::{to_score, wdl_material, wdl_model, Value, Wdl, WDL_A, WDL_B, WDL_MATERIAL};
pub use see::see_ge;
pub use time::TimeBudget;
pub use tt::Bound;

// The core types the facade's signatures speak, so that a program can name them without
// depending on tempo-core itself.
#[doc(no_inline)]
pub use tempo_core::{Move, Position, Score};
