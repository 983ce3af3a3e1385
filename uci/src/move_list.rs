//! The move list of a `position` command: the longest playable prefix, and the first move
//! that could not be played with the reason.
//!
//! A GUI that sends a move the engine cannot play still expects an answer for the moves
//! before it: as Stockfish does, the server takes the valid prefix and names what it dropped,
//! rather than ignoring the whole command and answering for a position the GUI left behind.

use std::fmt;
use tempo_core::{Move, Position};
use tempo_notation::{parse_uci_move, UciMoveError};

/// Why a move of the list could not be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DropReason {
    /// The text is not a UCI move at all.
    Malformed,
    /// A well-formed move that is not legal in the position reached; the position's FEN.
    Illegal(String),
    /// `0000`: a null move, which a game's move list cannot contain.
    Null,
}

/// The first move of the list that could not be played: it and every move after it are
/// dropped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DroppedMove {
    /// Its index in the list (0-based): also the number of moves kept.
    pub index: usize,
    /// Its text as sent.
    pub text: String,
    /// Why it could not be played.
    pub reason: DropReason,
    /// How many moves the list had in all.
    pub total: usize,
}

/// A move list read against its start position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveList {
    /// The moves that could be played, in order.
    pub played: Vec<Move>,
    /// The first move that could not be played, if any.
    pub dropped: Option<DroppedMove>,
}

/// Plays `moves` (UCI text) from `start` up to the first one that cannot be played.
pub fn read_move_list(start: &Position, moves: &[String]) -> MoveList {
    let mut pos = *start;
    let mut played = Vec::with_capacity(moves.len());
    for (index, text) in moves.iter().enumerate() {
        let reason = match parse_uci_move(&pos, text) {
            Ok(m) if !m.is_null() => {
                pos.play_unchecked(m);
                played.push(m);
                continue;
            }
            Ok(_) => DropReason::Null,
            Err(UciMoveError::Syntax(_)) => DropReason::Malformed,
            Err(UciMoveError::Illegal(_)) => DropReason::Illegal(pos.fen()),
        };
        let dropped = DroppedMove { index, text: text.clone(), reason, total: moves.len() };
        return MoveList { played, dropped: Some(dropped) };
    }
    MoveList { played, dropped: None }
}

fn moves(n: usize) -> String {
    if n == 1 {
        "1 move".to_owned()
    } else {
        format!("{n} moves")
    }
}

impl fmt::Display for DroppedMove {
    /// One line for an `info string`: which move, why, what was dropped and what was kept.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "position: move {} of {} ({:?}) ", self.index + 1, self.total, self.text)?;
        match &self.reason {
            DropReason::Malformed => f.write_str("is malformed, not a UCI move")?,
            DropReason::Illegal(fen) => write!(f, "is illegal in {fen}")?,
            DropReason::Null => f.write_str("is a null move, which a move list cannot play")?,
        }
        let after = self.total - self.index - 1;
        if after == 0 {
            f.write_str("; dropped it")?;
        } else {
            write!(f, "; dropped it and the {} after it", moves(after))?;
        }
        match self.index {
            0 => f.write_str(", kept the start position"),
            kept => write!(f, ", kept the position after the first {}", moves(kept)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(moves: &str) -> Vec<String> {
        moves.split_whitespace().map(str::to_owned).collect()
    }

    /// The position after the moves the list kept.
    fn end_of(list: &MoveList) -> Position {
        let mut pos = Position::startpos();
        for &m in &list.played {
            pos.play_unchecked(m);
        }
        pos
    }

    fn after(moves: &str) -> Position {
        let mut pos = Position::startpos();
        for text in moves.split_whitespace() {
            pos.play_unchecked(parse_uci_move(&pos, text).unwrap());
        }
        pos
    }

    #[test]
    fn a_valid_list_is_played_whole() {
        let list = read_move_list(&Position::startpos(), &texts("d2d4 e7e5 d4e5"));
        assert_eq!(list.played.len(), 3);
        assert_eq!(end_of(&list), after("d2d4 e7e5 d4e5"));
        assert_eq!(list.dropped, None);
    }

    #[test]
    fn a_malformed_move_ends_the_list() {
        let list = read_move_list(&Position::startpos(), &texts("d2d4 e7e5 e2e9"));
        assert_eq!(list.played.len(), 2);
        assert_eq!(end_of(&list), after("d2d4 e7e5"));
        let dropped = list.dropped.unwrap();
        assert_eq!((dropped.index, dropped.text.as_str(), &dropped.reason), (2, "e2e9", &DropReason::Malformed));
        assert_eq!(
            dropped.to_string(),
            "position: move 3 of 3 (\"e2e9\") is malformed, not a UCI move; dropped it, kept the position after \
             the first 2 moves"
        );
    }

    #[test]
    fn an_illegal_move_drops_the_moves_after_it() {
        let list = read_move_list(&Position::startpos(), &texts("d2d4 e7e5 e2e5 g1f3 b8c6"));
        assert_eq!(end_of(&list), after("d2d4 e7e5"));
        let dropped = list.dropped.unwrap();
        assert_eq!(dropped.reason, DropReason::Illegal(after("d2d4 e7e5").fen()));
        assert!(
            dropped
                .to_string()
                .ends_with("; dropped it and the 2 moves after it, kept the position after the first 2 moves"),
            "{dropped}"
        );
        let first = read_move_list(&Position::startpos(), &texts("e2e5 e7e5")).dropped.unwrap();
        assert!(first.to_string().ends_with("dropped it and the 1 move after it, kept the start position"), "{first}");
    }

    #[test]
    fn a_null_move_is_dropped() {
        let list = read_move_list(&Position::startpos(), &texts("e2e4 0000 e7e5"));
        assert_eq!(end_of(&list), after("e2e4"));
        assert_eq!(list.dropped.unwrap().reason, DropReason::Null);
    }
}
