//! What Tab offers at the move prompt: the legal moves in SAN and the commands that begin
//! with the word being typed, and the legal moves after `claim`.

use crate::input::{legal_moves_san, COMMANDS};
use tempo_core::Position;

/// The completions of the word that ends at byte `cursor` of `line`, typed in `pos`: where
/// that word starts and what may replace it (the legal moves first, as the `moves` command
/// lists them, then the commands). Letters match in either case, as the move reader takes
/// them (`nf` offers `Nf3`).
pub fn complete(pos: &Position, line: &str, cursor: usize) -> (usize, Vec<String>) {
    let before = line.get(..cursor).unwrap_or(line);
    let start = before.rfind(char::is_whitespace).map_or(0, |i| i + 1);
    let word = &before[start..];
    let earlier: Vec<&str> = before[..start].split_whitespace().collect();
    let commands: &[&str] = match earlier.as_slice() {
        [] => &COMMANDS,
        // `claim MOVE`: a draw claimed by announcing a move.
        [claim] if claim.eq_ignore_ascii_case("claim") => &[],
        _ => return (start, Vec::new()),
    };
    let starts_with = |candidate: &str| {
        candidate.len() >= word.len()
            && candidate.is_char_boundary(word.len())
            && candidate[..word.len()].eq_ignore_ascii_case(word)
    };
    let mut candidates: Vec<String> = legal_moves_san(pos).into_iter().filter(|m| starts_with(m)).collect();
    candidates.extend(commands.iter().filter(|c| starts_with(c)).map(|c| (*c).to_owned()));
    (start, candidates)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn offers(pos: &Position, line: &str) -> Vec<String> {
        complete(pos, line, line.len()).1
    }

    #[test]
    fn an_empty_line_offers_every_legal_move_then_every_command() {
        let start = Position::startpos();
        let all = offers(&start, "");
        assert_eq!(all.len(), 20 + COMMANDS.len());
        assert_eq!(all[..4], ["Na3", "Nc3", "Nf3", "Nh3"]);
        assert_eq!(all[19], "h4");
        assert_eq!(all[20..], COMMANDS.map(str::to_owned));
    }

    #[test]
    fn a_prefix_narrows_the_moves_in_either_case() {
        let start = Position::startpos();
        assert_eq!(offers(&start, "N"), ["Na3", "Nc3", "Nf3", "Nh3"]);
        assert_eq!(offers(&start, "nf"), ["Nf3"]);
        assert_eq!(offers(&start, "e"), ["e3", "e4"]);
        assert_eq!(offers(&start, "Qh5"), Vec::<String>::new(), "not legal here");
        // Pieces that can move now, and a capture.
        let pos: Position = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2".parse().unwrap();
        assert_eq!(offers(&pos, "ex"), ["exd5"]);
        assert_eq!(offers(&pos, "q"), ["Qe2", "Qf3", "Qg4", "Qh5", "quit"]);
        assert_eq!(offers(&pos, "K"), ["Ke2"]);
    }

    #[test]
    fn commands_complete_by_prefix() {
        let start = Position::startpos();
        assert_eq!(offers(&start, "re"), ["resign"]);
        assert_eq!(offers(&start, "d"), ["d3", "d4", "draw", "decline", "down"]);
        assert_eq!(offers(&start, "AN"), ["analyze"]);
        assert_eq!(offers(&start, "f"), ["f3", "f4", "flip", "fen"]);
    }

    #[test]
    fn a_claim_completes_the_announced_move_and_nothing_else_takes_words() {
        let start = Position::startpos();
        assert_eq!(complete(&start, "claim N", 7), (6, vec!["Na3".into(), "Nc3".into(), "Nf3".into(), "Nh3".into()]));
        assert!(offers(&start, "claim ").iter().all(|m| !COMMANDS.contains(&m.as_str())));
        assert_eq!(offers(&start, "save my"), Vec::<String>::new());
        assert_eq!(offers(&start, "Nf3 N"), Vec::<String>::new());
    }

    #[test]
    fn the_word_under_the_cursor_is_completed() {
        let start = Position::startpos();
        // The cursor after "N" of "Nf3": the word is "N", the rest of the line stays.
        assert_eq!(complete(&start, "Nf3", 1), (0, vec!["Na3".into(), "Nc3".into(), "Nf3".into(), "Nh3".into()]));
        // A castling move once its squares are free.
        let pos: Position = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1".parse().unwrap();
        assert_eq!(offers(&pos, "O"), ["O-O", "O-O-O"]);
        // Multi-byte text is never cut inside a character.
        assert_eq!(offers(&start, "é"), Vec::<String>::new());
    }
}
