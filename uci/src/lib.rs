//! # tempo-uci
//!
//! The UCI protocol: server (binary `tempo-uci`) and client. Not implemented yet: this
//! crate is reserved by the workspace layout (see `ARCHITECTURE.md`) and deliberately has no
//! binary until the engine exists, so that nothing pretends to speak UCI.
