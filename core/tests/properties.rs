//! Property tests over random legal games:
//! - copy-make leaves the original untouched, and the incremental key equals the key
//!   computed from scratch;
//! - FEN round-trips (text and position), and a FEN as people paste it (whitespace runs
//!   around and between the fields, the move counters dropped) reads as the same position;
//! - the legal moves are exactly those of an independent generator (shakmaty, a
//!   dev-dependency oracle), compared as UCI strings, and the subsets partition them;
//! - `find_move` finds every legal move from its squares, castling also by the king's
//!   destination, and `play` names the legal move meant when it refuses one;
//! - the parser never panics on arbitrary input.

use proptest::prelude::*;
use shakmaty::{fen::Fen, uci::UciMove, CastlingMode as ShCastling, Chess, Position as _};
use std::collections::BTreeSet;
use tempo_core::{CastlingMode, Move, MoveError, MoveFilter, MoveList, Position, Setup};

fn uci(m: Move) -> String {
    // Chess960-style (king takes rook) for castling, as shakmaty's Chess960 UCI writes it.
    m.to_uci(CastlingMode::Chess960)
}

fn oracle_moves(fen: &str) -> BTreeSet<String> {
    let pos: Chess = fen.parse::<Fen>().unwrap().into_position(ShCastling::Chess960).unwrap();
    pos.legal_moves().iter().map(|m| UciMove::from_move(m, ShCastling::Chess960).to_string()).collect()
}

/// Plays `choices` as indices into the legal move lists, checking invariants on the way.
fn random_game(start: Position, choices: &[usize]) -> Result<(), TestCaseError> {
    let mut pos = start;
    for &choice in choices {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        // The generator agrees with the oracle.
        let ours: BTreeSet<String> = moves.iter().map(|&m| uci(m)).collect();
        prop_assert_eq!(&ours, &oracle_moves(&pos.shredder_fen()), "{}", pos.shredder_fen());
        prop_assert_eq!(pos.count_legal_moves(), moves.len() as u64);

        // Captures and quiets partition the legal moves.
        let mut captures = MoveList::new();
        let mut quiets = MoveList::new();
        pos.generate_moves(MoveFilter::Captures, &mut captures);
        pos.generate_moves(MoveFilter::Quiets, &mut quiets);
        prop_assert_eq!(captures.len() + quiets.len(), moves.len());
        for m in captures.iter() {
            prop_assert!(pos.is_capture(*m) || m.is_promotion());
            prop_assert!(!quiets.contains(*m));
        }
        for m in quiets.iter() {
            prop_assert!(!pos.is_capture(*m) && !m.is_promotion());
        }

        // The moves onto each square are exactly the legal non-castling moves landing there.
        for to in tempo_core::Square::all() {
            let mut onto = MoveList::new();
            pos.legal_moves_onto(to, &mut onto);
            let expected: Vec<Move> = moves.iter().copied().filter(|m| m.to() == to && !m.is_castle()).collect();
            prop_assert_eq!(onto.iter().copied().collect::<Vec<_>>(), expected, "{} onto {:?}", pos.fen(), to);
        }

        // Every legal move is found from its squares; castling also from the king's
        // destination, unless a king step lands there too (that step is the move then).
        for &m in moves.iter() {
            prop_assert_eq!(pos.find_move(m.from(), m.to(), m.promotion_role()), Ok(m));
            if m.is_castle() {
                let king_to = m.castling_king_to();
                let step = moves.iter().copied().find(|s| s.from() == m.from() && s.to() == king_to);
                prop_assert_eq!(pos.find_move(m.from(), king_to, None), Ok(step.unwrap_or(m)), "{}", pos.fen());
            }
        }

        // FEN round trip.
        let reparsed = Position::from_fen(&pos.fen(), pos.castling_mode()).unwrap();
        prop_assert_eq!(reparsed, pos);
        prop_assert_eq!(reparsed.fen(), pos.fen());

        // Copy-make: the original is untouched, the child's key is consistent.
        let before = pos;
        let m = moves[choice % moves.len()];
        let mut child = pos;
        child.play_unchecked(m);
        prop_assert_eq!(pos, before);
        prop_assert_eq!(child.key(), child.compute_key());
        pos = child;
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn random_standard_games(choices in prop::collection::vec(any::<usize>(), 1..120)) {
        random_game(Position::startpos(), &choices)?;
    }

    #[test]
    fn random_chess960_games(start in 0usize..960, choices in prop::collection::vec(any::<usize>(), 1..80)) {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../data/perft/fischer.epd")).unwrap();
        let fens: Vec<&str> = text.lines().filter(|l| !l.starts_with('#') && !l.is_empty())
            .map(|l| l.split(';').next().unwrap().trim()).collect();
        let pos = Position::from_fen(fens[start % fens.len()], CastlingMode::Chess960).unwrap();
        random_game(pos, &choices)?;
    }

    #[test]
    fn fen_parser_never_panics(s in "\\PC{0,100}") {
        let _ = Position::from_fen(&s, CastlingMode::Standard);
        let _ = Position::from_fen(&s, CastlingMode::Chess960);
        let _ = Setup::from_fen_strict(&s, CastlingMode::Standard);
    }

    /// Any FEN with whitespace runs added around and between its fields, or its move counters
    /// dropped, reads as the same position (with clocks 0 1 when dropped); the strict reader
    /// takes only the text exactly as written.
    #[test]
    fn pasted_fens_read_as_the_same_position(
        choices in prop::collection::vec(any::<usize>(), 0..80),
        gaps in prop::collection::vec("[ \t\r\n]{1,3}", 5),
        before in "[ \t\r\n]{0,2}",
        after in "[ \t\r\n]{0,2}",
        drop_clocks in any::<bool>(),
    ) {
        let mut pos = Position::startpos();
        for choice in choices {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[choice % moves.len()]);
        }
        let fen = pos.fen();
        let mut fields: Vec<&str> = fen.split(' ').collect();
        if drop_clocks {
            fields.truncate(4);
        }
        let mut pasted = before.clone();
        for (i, field) in fields.iter().enumerate() {
            if i > 0 {
                pasted.push_str(&gaps[i - 1]);
            }
            pasted.push_str(field);
        }
        pasted.push_str(&after);
        let expected_fen = if drop_clocks { format!("{} 0 1", fields.join(" ")) } else { fen.clone() };
        let expected = Position::from_fen(&expected_fen, CastlingMode::Standard).unwrap();
        prop_assert_eq!(Position::from_fen(&pasted, CastlingMode::Standard), Ok(expected), "{:?}", pasted);
        prop_assert_eq!(pasted.parse::<Position>(), Ok(expected));
        let canonical = pasted == fen;
        prop_assert_eq!(Setup::from_fen_strict(&pasted, CastlingMode::Standard).is_ok(), canonical, "{:?}", pasted);
    }

    #[test]
    fn fen_parser_never_panics_on_fen_like_input(
        s in "[pnbrqkPNBRQK1-9/]{1,70} [wb-] [KQkqA-Ha-h-]{1,5} [a-h1-8-]{1,2} [0-9-]{1,3} [0-9]{1,3}"
    ) {
        if let Ok(pos) = Position::from_fen(&s, CastlingMode::Standard) {
            prop_assert_eq!(Position::from_fen(&pos.fen(), CastlingMode::Standard).unwrap(), pos);
        }
        let _ = Position::from_fen(&s, CastlingMode::Chess960);
    }
}

/// The `legals_are_legal` fuzz target as a property over arbitrary bytes (for toolchains
/// without cargo-fuzz): a game driven by the bytes, where every generated move leaves the
/// mover's king safe and the key consistent, the list matches bulk counting, and an arbitrary
/// from/to pair is accepted by `play` exactly when it is in the list, and refused with a
/// reason ([`Position::refusal`]) exactly when no legal move joins the two squares.
fn legals_are_legal(data: &[u8]) -> Result<(), TestCaseError> {
    let mut pos = Position::startpos();
    for chunk in data.chunks(3) {
        let moves = pos.legal_moves();
        prop_assert_eq!(moves.len() as u64, pos.count_legal_moves());
        let mover = pos.turn();
        for &m in moves.iter() {
            let mut child = pos;
            child.play_unchecked(m);
            prop_assert!(!child.is_attacked(child.king_of(mover), !mover, child.occupied()), "{:?}", m);
            prop_assert_eq!(child.key(), child.compute_key());
        }
        if let [_, from, to] = *chunk {
            let from = tempo_core::Square::new(u32::from(from % 64)).unwrap();
            let to = tempo_core::Square::new(u32::from(to % 64)).unwrap();
            let m = Move::normal(from, to);
            let mut copy = pos;
            let played = copy.play(m);
            prop_assert_eq!(played.is_ok(), moves.contains(m));
            // find_move gives a legal move with these squares, or none exists; play's refusal
            // names it when it is not the move tried.
            let found = pos.find_move(from, to, None);
            let matching =
                |l: &Move| l.from() == from && !l.is_promotion() && (l.to() == to || l.castling_king_to() == to);
            match found {
                Ok(f) => prop_assert!(moves.contains(f) && matching(&f)),
                Err(_) => prop_assert!(!moves.iter().any(matching)),
            }
            if let Err(MoveError::Illegal { legal, .. }) = played {
                prop_assert_eq!(legal, found.ok());
            }
            // A refusal comes exactly when no legal move goes from `from` to `to`.
            let legal = moves
                .iter()
                .any(|m| m.from() == from && (m.to() == to || (m.is_castle() && m.castling_king_to() == to)));
            prop_assert_eq!(pos.refusal(from, to).is_none(), legal, "{} {}{}", pos.fen(), from, to);
        }
        if moves.is_empty() {
            break;
        }
        pos.play_unchecked(moves[usize::from(chunk[0]) % moves.len()]);
    }
    Ok(())
}

proptest! {
    #[test]
    fn legals_are_legal_on_bytes(data in prop::collection::vec(any::<u8>(), 0..450)) {
        legals_are_legal(&data)?;
    }
}
