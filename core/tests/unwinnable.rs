//! `data/unwinnable/cases.txt`: for each position and each side, `can_mate` never
//! contradicts the label (a "yes" must come with a helpmate that replays to mate, a "no"
//! where the label says the side can mate would be unsound), and the number of answers
//! decided right stays above a floor raised as the procedure improves.

use std::path::Path;
use tempo_core::unwinnable::{can_mate, CanMate, DEFAULT_NODES};
use tempo_core::{CastlingMode, Color, Game, Move, Position, Setup, Termination};

/// Answers decided right, of 600 (300 positions, two sides): raise it as it improves.
const DECIDED_FLOOR: usize = 600;

/// The labelled cases: the position and, for White and Black, whether the side can mate.
fn cases() -> Vec<(Position, [bool; 2], String)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/unwinnable/cases.txt");
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .filter(|l| !l.is_empty())
        .map(|line| {
            let (label, fen) = line.split_once(' ').unwrap();
            let label = label.as_bytes();
            let full = format!("{fen} 0 1");
            let setup = Setup::from_fen(&full, CastlingMode::Standard).unwrap();
            let pos = Position::from_setup(setup, CastlingMode::Standard)
                .or_else(|e| e.into_repaired())
                .unwrap_or_else(|_| panic!("{fen} is not a legal position"));
            (pos, [label[0] == b'W', label[1] == b'B'], line.to_owned())
        })
        .collect()
}

/// Plays `line` from `pos` checking every move, and says whether it ends with `mater`'s
/// opponent checkmated.
fn replays_to_mate(pos: &Position, mater: Color, line: &[Move]) -> bool {
    let mut pos = *pos;
    for &m in line {
        if pos.play(m).is_err() {
            return false;
        }
    }
    pos.turn() == !mater && pos.is_checkmate()
}

#[test]
fn answers_agree_with_the_labels() {
    let mut wrong = Vec::new();
    // [label can mate][answer: yes, no, undecided]
    let mut table = [[0usize; 3]; 2];
    let mut decided_right = 0;
    for (pos, labels, line) in cases() {
        for (mater, can) in [(Color::White, labels[0]), (Color::Black, labels[1])] {
            let answer = can_mate(&pos, mater, DEFAULT_NODES);
            let column = match &answer {
                CanMate::Yes(helpmate) => {
                    if !replays_to_mate(&pos, mater, helpmate) {
                        wrong.push(format!("{line}: {mater:?}'s helpmate {helpmate:?} does not mate"));
                    } else if !can {
                        wrong.push(format!("{line}: {mater:?} mates with {helpmate:?} against the label"));
                    } else {
                        decided_right += 1;
                    }
                    0
                }
                CanMate::No(why) => {
                    if can {
                        wrong.push(format!("{line}: {mater:?} said unable ({why}) against the label"));
                    } else {
                        decided_right += 1;
                    }
                    1
                }
                CanMate::Undecided => 2,
            };
            table[usize::from(can)][column] += 1;
        }
    }
    println!("label \"can mate\":    yes {:4}  no {:4}  undecided {:4}", table[1][0], table[1][1], table[1][2]);
    println!("label \"cannot mate\": yes {:4}  no {:4}  undecided {:4}", table[0][0], table[0][1], table[0][2]);
    println!("decided right: {decided_right} of 600");
    assert!(wrong.is_empty(), "{} wrong answers:\n{}", wrong.len(), wrong.join("\n"));
    assert!(decided_right >= DECIDED_FLOOR, "{decided_right} decided right, below the floor {DECIDED_FLOOR}");
}

/// Dead positions `Game` ends at once (FIDE 5.2.2), of the 127 labelled `--`: raise it as the
/// test after each move finds more. The rest play on until a later move shows them dead.
const GAME_DEAD_FLOOR: usize = 91;

#[test]
fn a_game_ends_at_once_only_positions_labelled_dead() {
    let mut wrong = Vec::new();
    let mut dead = 0;
    for (pos, labels, line) in cases() {
        let outcome = Game::new(pos).outcome();
        let is_dead = matches!(
            outcome.map(|o| o.termination),
            Some(Termination::DeadPosition | Termination::InsufficientMaterial)
        );
        if is_dead && labels != [false, false] {
            wrong.push(format!("{line}: {outcome:?}, but a side can mate"));
        }
        if outcome.is_some_and(|o| o.termination == Termination::DeadPosition) {
            dead += 1;
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(dead >= GAME_DEAD_FLOOR, "{dead} positions ended as dead, below the floor of {GAME_DEAD_FLOOR}");
}
