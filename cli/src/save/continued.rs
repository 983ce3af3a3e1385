//! A game continued from a file, written back with everything the file held: its tags,
//! comments, NAGs and variations, plus the moves played since (with their clock comments)
//! and its new result.

use tempo_core::Game;
use tempo_notation::{PgnGame, PgnNode, PgnResult, PgnTermination};

/// `original` (the game as read from the file) continued to `game`, whose moves start with
/// `original`'s main line unless moves were taken back. `played` is the game as this
/// session would write it new (from [`super::pgn_text`]'s PGN game): the moves, clock
/// comments and ending comment of the moves played here come from it.
///
/// Where moves of the file were taken back and others played instead, the file's moves stay
/// as a variation of the move played in their place; moves taken back with nothing played
/// instead leave the main line, as the player asked.
pub fn continued(original: &PgnGame, game: &Game, played: &PgnGame) -> PgnGame {
    let mut out = original.clone();
    let kept = original.moves.iter().zip(game.moves()).take_while(|(node, &m)| node.mv == m).count();
    let mut tail: Vec<PgnNode> = out.moves.split_off(kept);
    out.moves.extend(played.moves[kept..].iter().cloned());
    if let (Some(first), Some(new)) = (tail.first_mut(), out.moves.get_mut(kept)) {
        // The file's alternatives to its move stay alternatives to the move played instead,
        // and the file's line itself becomes one of them.
        let alternatives = std::mem::take(&mut first.variations);
        new.variations.insert(0, tail);
        new.variations.extend(alternatives);
    }
    if let Some(outcome) = game.outcome() {
        // The words on how the game ended go after its last move, as for a new game.
        let reason = tempo_notation::termination_comment(game, outcome);
        let comments = out.moves.last_mut().map_or(&mut out.comments, |last| &mut last.comments);
        if !comments.contains(&reason) {
            comments.push(reason);
        }
    }

    let result = PgnResult::from(game.outcome().map(|o| o.result));
    out.result = Some(result);
    out.set_tag("Result", result.as_str());
    if game.outcome().is_some() || original.tag("Termination").is_some() {
        let termination = played.tag("Termination").unwrap_or(PgnTermination::Unterminated.as_str());
        out.set_tag("Termination", termination);
    }
    // Clock comments need their time control to be read back.
    if let (None, Some(tc)) = (original.tag("TimeControl"), played.tag("TimeControl")) {
        if tc != "-" {
            out.set_tag("TimeControl", tc);
        }
    }
    for name in ["White", "Black"] {
        let unknown = original.tag(name).is_none_or(|v| v.is_empty() || v == "?");
        if let (true, Some(player)) = (unknown, played.tag(name)) {
            out.set_tag(name, player);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use tempo_notation::{parse_san, pgn_string, PgnReader};

    fn read(text: &str) -> PgnGame {
        PgnReader::new(text.as_bytes()).games().next().unwrap().unwrap()
    }

    fn play(game: &mut Game, sans: &[&str]) {
        for san in sans {
            let m = parse_san(game.position(), san).unwrap();
            game.play(m).unwrap();
        }
    }

    const CLUB: &str = "[Event \"Club championship\"]\n[Site \"Hall\"]\n[Date \"2026.01.03\"]\n[Round \"4\"]\n\
        [White \"Ann\"]\n[Black \"Bo\"]\n[Result \"*\"]\n[ECO \"C20\"]\n\n\
        {Adjourned} 1. e4 $1 {best by test} (1. d4 d5) 1... e5 2. Nf3 *\n";

    #[test]
    fn new_moves_are_added_and_nothing_is_lost() {
        let original = read(CLUB);
        let mut game = original.to_game().unwrap();
        play(&mut game, &["Nc6", "Bb5"]);
        let played = PgnGame::from_game(&game);
        let text = pgn_string(&continued(&original, &game, &played));
        for kept in ["[Event \"Club championship\"]", "[Site \"Hall\"]", "[Round \"4\"]", "[ECO \"C20\"]"] {
            assert!(text.contains(kept), "{kept} in {text}");
        }
        assert!(text.contains("{Adjourned} 1. e4 $1 {best by test} (1. d4 d5) 1... e5 2. Nf3 Nc6 3. Bb5 *"), "{text}");
    }

    #[test]
    fn a_replaced_line_stays_as_a_variation_and_the_ending_is_recorded() {
        let original = read(CLUB);
        let mut game = Game::new(original.start);
        play(&mut game, &["e4", "c5"]);
        game.resign(tempo_core::Color::White).unwrap();
        let played = PgnGame::from_game(&game);
        let out = continued(&original, &game, &played);
        let text = pgn_string(&out).split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(text.contains("1... c5 {White resigns} (1... e5 2. Nf3) 0-1"), "{text}");
        assert!(text.contains("(1. d4 d5)"), "{text}");
        assert_eq!(out.tag("Result"), Some("0-1"));
        assert_eq!(out.tag("Termination"), Some("normal"), "a game that ended here says how");
    }
}
