//! Sentences and move lines for people: how a game ended, numbered SAN, engine lines.

use tempo_core::{
    game::{ClaimableDraw, DrawClaim},
    Color, Game, Move, Outcome, Position, Score, Termination,
};
use tempo_notation::{san, san_line, termination_comment};

use crate::players::Line;

/// The sentence announcing how the game ended, with its result: the PGN comment's words
/// (`Draw by agreement`), with the winner named where there is one.
pub fn describe_outcome(game: &Game, outcome: Outcome) -> String {
    let name = |c: Color| if c == Color::White { "White" } else { "Black" };
    let text = match (outcome.termination, outcome.result.winner()) {
        (Termination::Checkmate, Some(w)) => format!("Checkmate: {} wins", name(w)),
        (Termination::Resignation, Some(w)) => format!("{} resigns: {} wins", name(!w), name(w)),
        (Termination::TimeForfeit, Some(w)) => format!("{} lost on time: {} wins", name(!w), name(w)),
        _ => termination_comment(game, outcome),
    };
    format!("{text} ({})", outcome.result)
}

/// A player's evaluation of its move, for the line announcing it: the side it favours named
/// (`+0.35 for White`, `0.00`), a mate counted from the position the move leads to
/// (`White mates in 2`); `None` when the move mates, which the move itself says. `score` is
/// the mover's, from its search of the position before the move.
pub fn eval_after_move(score: Score, mover: Color) -> Option<String> {
    let name = |c: Color| if c == Color::White { "White" } else { "Black" };
    match score {
        Score::Cp(0) => Some("0.00".to_owned()),
        Score::Cp(cp) => {
            let (side, cp) = if cp > 0 { (mover, cp) } else { (!mover, -cp) };
            Some(format!("{} for {}", Score::Cp(cp), name(side)))
        }
        // The mover's mate in n counts the move just played.
        Score::Mate(n) if n > 1 => Some(format!("{} mates in {}", name(mover), n - 1)),
        Score::Mate(n) if n > 0 => None,
        Score::Mate(n) => Some(format!("{} mates in {}", name(!mover), -n)),
    }
}

/// The rule of a draw claim in words: `threefold repetition`, `the fifty-move rule`.
pub fn claim_rule(claim: DrawClaim) -> &'static str {
    match claim {
        DrawClaim::ThreefoldRepetition => "threefold repetition",
        DrawClaim::FiftyMoves => "the fifty-move rule",
    }
}

/// The draws the player to move could claim only by announcing a move, each rule with its
/// moves in SAN. A rule already claimable in the position is left out: announcing a move
/// would add nothing to a claim the player can make at once.
pub fn claims_with_move(game: &Game) -> Vec<(DrawClaim, Vec<String>)> {
    let now = game.claimable_now();
    let pos = game.position();
    game.claimable()
        .into_iter()
        .filter_map(|c| match c {
            ClaimableDraw::WithMove { claim, moves } if !now.contains(&claim) => {
                Some((claim, moves.iter().map(|&m| san(pos, m)).collect()))
            }
            _ => None,
        })
        .collect()
}

/// Moves for a sentence: `Ng8`, `Ng8 or Nf3`, `Ra2, Kd1 or Kf1`, and past five
/// `Ra2, Rb1, Kd1, Kf1, Kf2 or 12 other moves`, since a fifty-move claim can have dozens.
pub fn either(sans: &[String]) -> String {
    const SHOWN: usize = 5;
    match sans {
        [] => String::new(),
        [one] => one.clone(),
        _ if sans.len() <= SHOWN => format!("{} or {}", sans[..sans.len() - 1].join(", "), sans[sans.len() - 1]),
        _ => format!("{} or {} other moves", sans[..SHOWN].join(", "), sans.len() - SHOWN),
    }
}

/// The moves of `game` from index `from` on, numbered (`12... Nc6 13. Nf3`).
pub fn numbered_from(game: &Game, from: usize) -> String {
    let mut pos = *game.initial_position();
    for &m in &game.moves()[..from] {
        pos.play_unchecked(m);
    }
    numbered(&pos, &san_line(&pos, &game.moves()[from..]))
}

/// One engine line: `+0.35  d12  1. e4 e5 2. Nf3 Nc6` (at most `max_moves` moves).
pub fn format_line(pos: &Position, line: &Line, max_moves: usize) -> String {
    let pv: Vec<Move> = line.pv.iter().copied().take(max_moves).collect();
    let sans = san_line(pos, &pv);
    format!("{:>6}  d{:<2}  {}", line.eval.to_string(), line.depth, numbered(pos, &sans))
}

/// SAN moves with move numbers: `12. Nf3 Nc6 13. O-O` or `12... Nc6 13. O-O`.
pub fn numbered(pos: &Position, sans: &[String]) -> String {
    let mut out = Vec::new();
    let mut number = pos.fullmove_number();
    let mut white = pos.turn() == Color::White;
    for (i, s) in sans.iter().enumerate() {
        if white {
            out.push(format!("{number}. {s}"));
        } else if i == 0 {
            out.push(format!("{number}... {s}"));
        } else {
            out.push(s.clone());
        }
        if !white {
            number += 1;
        }
        white = !white;
    }
    out.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claims_by_announcing_a_move_in_words() {
        let mut game = Game::new(Position::startpos());
        for text in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"] {
            let m = tempo_notation::parse_san(game.position(), text).unwrap();
            game.play(m).unwrap();
        }
        assert_eq!(claims_with_move(&game), vec![(DrawClaim::ThreefoldRepetition, vec!["Ng8".to_owned()])]);
        // Once claimable in the position, the announced-move form of the same rule is not shown.
        game.play(tempo_notation::parse_san(game.position(), "Ng8").unwrap()).unwrap();
        assert!(claims_with_move(&game).is_empty());
        assert_eq!(claim_rule(DrawClaim::FiftyMoves), "the fifty-move rule");

        let sans: Vec<String> = (1..=7).map(|i| format!("K{i}")).collect();
        assert_eq!(either(&sans[..1]), "K1");
        assert_eq!(either(&sans[..2]), "K1 or K2");
        assert_eq!(either(&sans[..5]), "K1, K2, K3, K4 or K5");
        assert_eq!(either(&sans), "K1, K2, K3, K4, K5 or 2 other moves");
    }

    #[test]
    fn evaluations_name_the_side_they_favour() {
        assert_eq!(eval_after_move(Score::Cp(35), Color::White).as_deref(), Some("+0.35 for White"));
        assert_eq!(eval_after_move(Score::Cp(35), Color::Black).as_deref(), Some("+0.35 for Black"));
        assert_eq!(eval_after_move(Score::Cp(-120), Color::Black).as_deref(), Some("+1.20 for White"));
        assert_eq!(eval_after_move(Score::Cp(0), Color::Black).as_deref(), Some("0.00"));
        assert_eq!(eval_after_move(Score::Mate(3), Color::White).as_deref(), Some("White mates in 2"));
        assert_eq!(eval_after_move(Score::Mate(-3), Color::Black).as_deref(), Some("White mates in 3"));
        assert_eq!(eval_after_move(Score::Mate(1), Color::White), None, "the move mates");
    }

    #[test]
    fn numbered_lines() {
        let pos = Position::startpos();
        let sans: Vec<String> = ["e4", "e5", "Nf3"].iter().map(|s| (*s).to_owned()).collect();
        assert_eq!(numbered(&pos, &sans), "1. e4 e5 2. Nf3");
        let black: Position = "4k3/8/8/8/8/8/8/4K3 b - - 0 12".parse().unwrap();
        assert_eq!(numbered(&black, &sans[..2]), "12... e4 13. e5");
    }

    #[test]
    fn outcomes_read_well() {
        let mut game = Game::new(Position::startpos());
        let outcome = game.resign(Color::Black).unwrap();
        assert_eq!(describe_outcome(&game, outcome), "Black resigns: White wins (1-0)");
    }

    #[test]
    fn engine_lines() {
        let pos: Position = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1".parse().unwrap();
        let m = tempo_notation::parse_san(&pos, "Ra8").unwrap();
        let line = Line { multipv: 1, depth: 3, eval: tempo_core::Score::Mate(1), nodes: 10, pv: vec![m] };
        assert_eq!(format_line(&pos, &line, 10), "    #1  d3   1. Ra8#");
    }
}
