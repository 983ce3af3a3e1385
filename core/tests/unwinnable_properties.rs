//! Property tests of `can_mate` on positions from random games, from the start position and
//! from positions with locked pawns and few pieces (where "no" is common):
//! - every "yes" comes with a helpmate that replays, move by move, to the other side's mate;
//! - every "no" survives playouts that look for a mate by the side said unable: random
//!   playouts in which every one of that side's moves is first tried for mate, from the
//!   position and from each of its positions two plies on;
//! - a helpmate carried across a move by `helpmate_after` still replays to mate.

use proptest::prelude::*;
use tempo_core::unwinnable::{can_mate, helpmate_after, CanMate, Impossibility, DEFAULT_NODES};
use tempo_core::Move;
use tempo_core::{Color, MoveList, Position};

/// The node budget of the answers under test: small, so that many positions are tried.
const NODES: u64 = 20_000;

const STARTS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "4k3/8/8/p1p1p1p1/P1P1P1P1/8/8/4K3 w - - 0 1",
    "2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - - 0 1",
    "4k3/8/8/p1p1p1p1/P1P1P1P1/8/8/1N2K3 b - - 0 1",
    "3bk3/8/1p1p1p2/pPpPpPp1/P1P1P1P1/8/8/2B1K3 w - - 0 1",
    "8/3k4/8/p1p1p1p1/P1P1P1P1/3K4/8/R7 w - - 0 1",
    "8/4k3/8/8/8/8/4K3/4N3 w - - 0 1",
    "8/2k5/8/8/8/8/2K5/2B1B3 w - - 0 1",
    "k7/p1p5/P1P5/8/8/8/2b5/K7 w - - 0 1",
    // Pawns held by kings that can never move, bishops of one colour on each side.
    "k6B/1b4B1/5B2/4B3/3B4/1pB5/pP6/K7 w - - 0 1",
    "k1b5/Pp1b4/1P6/8/8/1p6/pP1B4/K1B5 w - - 0 1",
    // Pieces that can never move wall the board: a king held by pawns and bishops, knights
    // and a bishop behind the chains, bishops caged by their own pawns.
    "B1Bk4/p1pPp3/P1P1P3/8/3b4/2b5/8/5K2 w - - 0 1",
    "N1b1N1N1/1pPpPpPp/1P1P1P1P/2K5/8/8/8/4B2k w - - 0 1",
    "k7/3B4/K2p1p2/3PbP2/3pBp2/3P1P2/8/8 w - - 0 1",
    // A knight that can never move, and a lone knight against a queen.
    "8/5k1B/7b/8/1p1p1p1p/1PpP1P1P/2P3K1/N3b3 b - - 0 1",
    "7k/8/7K/8/5N2/1q6/8/8 w - - 0 1",
    // White can move only its king, between h3 and h4; Black's king takes h5 or g2 only by
    // a step that leaves White without a move.
    "1k6/b1b5/7p/5p1P/5p2/5PpK/6P1/8 w - - 0 1",
    // Pawns that can still move, but only into blocked ones.
    "2k5/2p1p1p1/p1P1P1P1/P6K/2P5/8/8/8 w - - 0 1",
    "4k3/8/8/p1p1p1p1/P1P1P1P1/8/P5P1/4K3 w - - 0 1",
    // Pawns that run towards each other on their files, a locked pawn a king can take, and
    // a lone bishop against a rook and a queen.
    "4k3/p1p1p1p1/P1P1P1P1/p1p1p3/4P3/8/P1P5/3K4 w - - 0 1",
    "4k3/8/8/2rq4/8/8/8/4KB2 w - - 0 1",
];

/// A tiny deterministic generator for the playouts.
struct Random(u64);

impl Random {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Random playouts from `pos`, each of `mater`'s turns trying every move for mate: `true` if
/// one mates.
fn playouts_find_mate(pos: &Position, mater: Color, playouts: usize, plies: usize, random: &mut Random) -> bool {
    let mut moves = MoveList::new();
    for _ in 0..playouts {
        let mut pos = *pos;
        for _ in 0..plies {
            moves.clear();
            pos.legal_moves_into(&mut moves);
            if moves.is_empty() {
                break;
            }
            if pos.turn() == mater {
                for &m in moves.iter() {
                    let mut child = pos;
                    child.play_unchecked(m);
                    if child.is_checkmate() {
                        return true;
                    }
                }
            }
            pos.play_unchecked(moves[random.below(moves.len())]);
        }
    }
    false
}

/// The positions two plies on from `pos` (every pair of moves).
fn two_plies_on(pos: &Position) -> Vec<Position> {
    let mut out = Vec::new();
    for &first in pos.legal_moves().iter() {
        let mut once = *pos;
        once.play_unchecked(first);
        for &second in once.legal_moves().iter() {
            let mut twice = once;
            twice.play_unchecked(second);
            out.push(twice);
        }
    }
    out
}

fn check_answers(start: usize, choices: &[usize], seed: u64) -> Result<(), TestCaseError> {
    let mut pos: Position = STARTS[start].parse().unwrap();
    for &choice in choices {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.play_unchecked(moves[choice % moves.len()]);
    }
    let mut random = Random(seed | 1);
    for mater in [Color::White, Color::Black] {
        match can_mate(&pos, mater, NODES) {
            CanMate::Yes(line) => {
                let mut replay = pos;
                for &m in &line {
                    prop_assert!(replay.play(m).is_ok(), "{}: illegal {m:?} in {line:?}", pos.fen());
                }
                prop_assert!(replay.turn() == !mater && replay.is_checkmate(), "{}: {line:?} does not mate", pos.fen());
            }
            CanMate::No(why) => {
                prop_assert!(
                    !playouts_find_mate(&pos, mater, 40, 200, &mut random),
                    "{}: {mater:?} said unable ({why}), a playout mates",
                    pos.fen()
                );
                for next in two_plies_on(&pos).into_iter().take(200) {
                    prop_assert!(
                        !playouts_find_mate(&next, mater, 1, 100, &mut random),
                        "{}: {mater:?} said unable ({why}), a playout from {} mates",
                        pos.fen(),
                        next.fen()
                    );
                }
            }
            CanMate::Undecided => {}
        }
    }
    Ok(())
}

/// `true` if `line` from `pos` is legal and ends with `mater`'s opponent checkmated.
fn mates(pos: &Position, mater: Color, line: &[Move]) -> bool {
    let mut pos = *pos;
    line.iter().all(|&m| pos.play(m).is_ok()) && pos.turn() == !mater && pos.is_checkmate()
}

/// Plays a random game from `start`, carrying each side's helpmate across every move with
/// `helpmate_after` (asking `can_mate` again when it gives none): every helpmate mates.
/// Returns how many moves the helpmates were carried across.
fn carried_helpmates(start: &Position, choices: &[usize]) -> Result<usize, TestCaseError> {
    let mut pos = *start;
    let mut carried = 0;
    let mut lines: Vec<Option<Vec<Move>>> = [Color::White, Color::Black]
        .iter()
        .map(|&mater| match can_mate(&pos, mater, NODES) {
            CanMate::Yes(line) => Some(line),
            _ => None,
        })
        .collect();
    for &choice in choices {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[choice % moves.len()];
        for (mater, line) in [Color::White, Color::Black].into_iter().zip(lines.iter_mut()) {
            *line = match line.as_deref().and_then(|old| helpmate_after(&pos, m, old)) {
                Some(new) => {
                    carried += 1;
                    Some(new)
                }
                None => {
                    let mut next = pos;
                    next.play_unchecked(m);
                    match can_mate(&next, mater, NODES) {
                        CanMate::Yes(line) => Some(line),
                        _ => None,
                    }
                }
            };
        }
        pos.play_unchecked(m);
        for (mater, line) in [Color::White, Color::Black].into_iter().zip(lines.iter()) {
            if let Some(line) = line {
                prop_assert!(mates(&pos, mater, line), "{}: {mater:?}'s {line:?} does not mate", pos.fen());
            }
        }
    }
    Ok(carried)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn carried_helpmates_mate(start in 0..STARTS.len(), choices in prop::collection::vec(any::<usize>(), 0..40)) {
        carried_helpmates(&STARTS[start].parse().unwrap(), &choices)?;
    }

    #[test]
    fn every_answer_holds(
        start in 0..STARTS.len(),
        choices in prop::collection::vec(any::<usize>(), 0..160),
        seed in any::<u64>(),
    ) {
        check_answers(start, &choices, seed)?;
    }
}

/// Every starting position itself, so the locked structures are checked even when the
/// random games leave them; and the answers the starts were chosen for, so that the "no"
/// checks above do run.
#[test]
fn starting_positions_hold() {
    for start in 0..STARTS.len() {
        check_answers(start, &[], 0x1234_5678).unwrap();
    }
    let answer = |start: usize, mater: Color| can_mate(&STARTS[start].parse().unwrap(), mater, NODES);
    assert_eq!(answer(1, Color::White), CanMate::No(Impossibility::FrozenPawns));
    assert_eq!(answer(1, Color::Black), CanMate::No(Impossibility::FrozenPawns));
    assert_eq!(answer(6, Color::White), CanMate::No(Impossibility::Material));
    assert_eq!(answer(7, Color::White), CanMate::No(Impossibility::Material));
    assert_eq!(answer(9, Color::White), CanMate::No(Impossibility::FrozenPawns));
    assert_eq!(answer(9, Color::Black), CanMate::No(Impossibility::FrozenPawns));
    assert_eq!(answer(10, Color::White), CanMate::No(Impossibility::FrozenPawns));
    for (start, fen) in STARTS.iter().enumerate().take(15).skip(11) {
        for mater in [Color::White, Color::Black] {
            assert_eq!(answer(start, mater), CanMate::No(Impossibility::FrozenPawns), "{fen}");
        }
    }
    assert_eq!(answer(15, Color::White), CanMate::No(Impossibility::Material));
    assert_eq!(answer(16, Color::White), CanMate::No(Impossibility::FrozenPawns));
    assert_eq!(answer(16, Color::Black), CanMate::No(Impossibility::FrozenPawns));
    for (start, fen) in STARTS.iter().enumerate().take(20).skip(17) {
        for mater in [Color::White, Color::Black] {
            assert_eq!(answer(start, mater), CanMate::No(Impossibility::FrozenPawns), "{fen}");
        }
    }
    assert_eq!(answer(20, Color::White), CanMate::No(Impossibility::Material));
    assert!(matches!(answer(0, Color::White), CanMate::Yes(_)));
    let rook = STARTS[5].parse().unwrap();
    assert!(matches!(can_mate(&rook, Color::White, DEFAULT_NODES), CanMate::Yes(_)));
}

/// From the start position, a helpmate survives most of a quiet game's moves without a
/// search.
#[test]
fn helpmates_carry_across_quiet_moves() {
    let start = Position::startpos();
    // 1.Nf3 Nc6 2.Ng1 Nb8 3.Nc3 Nf6 by the indices of the moves in each position.
    let mut choices = Vec::new();
    let mut pos = start;
    for uci in ["g1f3", "b8c6", "f3g1", "c6b8", "b1c3", "g8f6"] {
        let moves = pos.legal_moves();
        let index = moves.iter().position(|m| format!("{m:?}") == uci).unwrap();
        choices.push(index);
        pos.play_unchecked(moves[index]);
    }
    let carried = carried_helpmates(&start, &choices).unwrap();
    assert!(carried >= 6, "carried {carried} of 12");
}
