//! # tempo-uci
//!
//! The UCI protocol for Tempo: a [`Server`] that adapts a text stream to the engine
//! facade (the `tempo-uci` binary is a thin wrapper around it), a [`UciClient`] that
//! drives any external UCI engine, and [`ExternalEngine`], one interface for a game with an
//! external engine that speaks UCI or xboard.
//!
//! ```
//! use tempo_uci::{Server, Flow};
//!
//! let mut server = Server::new(std::io::sink());
//! assert_eq!(server.handle_line("position startpos moves e2e4"), Flow::Continue);
//! assert_eq!(server.handle_line("go depth 3"), Flow::Continue);
//! server.wait();
//! assert_eq!(server.handle_line("quit"), Flow::Quit);
//! ```

mod client;
mod command;
mod engine;
mod format;
mod genfens;
mod move_list;
mod process;
mod server;
mod spsa;
mod xboard;

pub use client::{position_command, ClientError, EngineSpec, InfoMessage, StartError, UciClient, UciMessage};
pub use command::{parse_command, Command, CommandError, GoParams, StartPosition};
pub use engine::{Answer, Evaluation, ExternalEngine, GameSetup, MoveLimit, ParseProtocolError, Protocol, DETECT_WAIT};
pub use format::{diagram, eval_table, go_params, info_line, option_line};
pub use genfens::{generate as generate_genfens, parse_genfens, GenfensError, GenfensRequest};
pub use server::{Flow, Server, ENGINE_AUTHOR, ENGINE_NAME};
pub use spsa::{engine_spsa_input, parse_spsa_input, SpsaError, SpsaKind, SpsaParam};
