//! # tempo-engine
//!
//! Search and evaluation behind a text-free facade. Not implemented yet: this crate is
//! reserved by the workspace layout (see `ARCHITECTURE.md`) and deliberately exports
//! nothing until the engine lands.
