//! The one seam between the search and the evaluations: what a search evaluates positions
//! with, a neural network ([`crate::nnue`]) or the hand-crafted terms ([`crate::hce`]).

use crate::hce;
use crate::nnue::{embedded_network, nnue_evaluate, Network};
use crate::score::Value;
use std::sync::Arc;
use tempo_core::Position;

/// What a search evaluates with.
#[derive(Clone, Debug)]
pub enum Evaluator {
    /// A network: the built-in one ([`Evaluator::embedded`]) or one read from a file.
    Network(Arc<Network>),
    /// The hand-crafted evaluation (`UseNNUE` off): generation 0 of the network lineage,
    /// whose games trained the first network, and a reference opponent.
    HandCrafted,
}

impl Evaluator {
    /// The network built into the engine ([`crate::EMBEDDED_NETWORK`]).
    pub fn embedded() -> Evaluator {
        Evaluator::Network(embedded_network())
    }

    /// The network, if this evaluator is one.
    pub fn network(&self) -> Option<&Arc<Network>> {
        match self {
            Evaluator::Network(network) => Some(network),
            Evaluator::HandCrafted => None,
        }
    }

    /// Whether the two evaluate alike: the same network (the same allocation) or both
    /// hand-crafted. Searches with different evaluators do not share stored evaluations.
    pub fn same_as(&self, other: &Evaluator) -> bool {
        match (self, other) {
            (Evaluator::Network(a), Evaluator::Network(b)) => Arc::ptr_eq(a, b),
            (Evaluator::HandCrafted, Evaluator::HandCrafted) => true,
            _ => false,
        }
    }

    /// The static evaluation of `pos` for the side to move, in centipawns, computed from
    /// scratch: what the search's incremental evaluation starts from (the network's value
    /// unclamped).
    pub fn evaluate(&self, pos: &Position) -> Value {
        match self {
            Evaluator::Network(network) => nnue_evaluate(network, pos),
            Evaluator::HandCrafted => hce::evaluate(pos),
        }
    }
}
