//! What a player typed: a command or a move, read forgivingly, and the reason when it is
//! neither.

use tempo_core::{Move, Position};
use tempo_notation::{parse_san, parse_uci_move, san, SanError};

/// A command typed during the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Help,
    Moves,
    Undo,
    Hint,
    /// Offer a draw, or accept the opponent's offer.
    Draw,
    Accept,
    Decline,
    /// Claim a draw now, or by announcing a move (`claim Nf3`).
    Claim(Option<String>),
    Resign,
    Flip,
    Fen,
    Pgn,
    Save(Option<String>),
    Analyze,
    Quit,
}

/// One line of input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    Empty,
    Command(Command),
    Move(Move),
    /// Neither: the message says why.
    Invalid(String),
}

/// The help text: every command, in two columns so that it fits an 80x24 terminal under
/// the board.
pub const HELP: &str = "\
Moves: SAN (e4, Nf3, nf3, exd5, O-O, 0-0, e8=Q, e8Q), or e2e4, e2-e4, e7e8q.
Commands (help shows this list; at a terminal Tab completes, Up recalls):
  moves            the legal moves          hint      the engine's suggestion
  undo, takeback   take back your move and  analyze   the engine's best lines
                   the reply; clocks too    flip      turn the board around
  draw             offer or accept a draw   fen, pgn  the position, the game
  accept, decline  answer a draw offer      save [F]  write the game as PGN
  claim [MOVE]     claim threefold repeti-  resign    give up the game
                   tion or fifty moves      quit      leave (asks to save)";

/// The commands by their main names, as Tab completes them (`command` also takes aliases).
pub const COMMANDS: [&str; 15] = [
    "help", "moves", "undo", "hint", "draw", "accept", "decline", "claim", "resign", "flip", "fen", "pgn", "save",
    "analyze", "quit",
];

fn command(word: &str, rest: &str) -> Option<Command> {
    let arg = (!rest.is_empty()).then(|| rest.to_owned());
    Some(match word {
        "help" | "?" | "h" => Command::Help,
        "moves" | "legal" => Command::Moves,
        "undo" | "takeback" | "take" | "back" => Command::Undo,
        "hint" => Command::Hint,
        "draw" | "offer" => Command::Draw,
        "accept" | "yes" => Command::Accept,
        "decline" | "no" => Command::Decline,
        "claim" => Command::Claim(arg),
        "resign" => Command::Resign,
        "flip" => Command::Flip,
        "fen" => Command::Fen,
        "pgn" => Command::Pgn,
        "save" => Command::Save(arg),
        "analyze" | "analyse" | "eval" => Command::Analyze,
        "quit" | "exit" | "q" => Command::Quit,
        _ => return None,
    })
}

/// Reads a line typed in `pos`.
pub fn read(pos: &Position, line: &str) -> Input {
    let line = line.trim();
    if line.is_empty() {
        return Input::Empty;
    }
    let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    if let Some(cmd) = command(&word.to_ascii_lowercase(), rest.trim()) {
        return Input::Command(cmd);
    }
    if !rest.trim().is_empty() {
        // `e2 e4`: coordinates typed with a space.
        let joined: String = line.split_whitespace().collect();
        if line.split_whitespace().count() == 2 {
            if let Ok(m) = read_move(pos, &joined) {
                return Input::Move(m);
            }
        }
        return Input::Invalid(format!("\"{line}\" is not a move or a command (type help for the list)"));
    }
    match read_move(pos, word) {
        Ok(m) => Input::Move(m),
        Err(why) => Input::Invalid(why),
    }
}

/// Reads a move in SAN (leniently) or coordinates; the error explains what is wrong with it.
pub fn read_move(pos: &Position, text: &str) -> Result<Move, String> {
    let san_error = match parse_san(pos, text) {
        Ok(m) => return Ok(m),
        Err(e) => e,
    };
    // Coordinates the SAN reader does not take (Chess960 king-takes-rook castling, say).
    if let Ok(m) = parse_uci_move(pos, &text.to_ascii_lowercase()) {
        if !m.is_null() {
            return Ok(m);
        }
    }
    // People type piece letters in either case: retry with an upper-case piece letter.
    let mut chars = text.chars();
    if let Some(first @ ('n' | 'b' | 'r' | 'q' | 'k')) = chars.next() {
        let upper: String = std::iter::once(first.to_ascii_uppercase()).chain(chars).collect();
        if let Ok(m) = parse_san(pos, &upper) {
            return Ok(m);
        }
    }
    Err(explain(pos, text, &san_error))
}

fn explain(pos: &Position, text: &str, error: &SanError) -> String {
    match error {
        SanError::Syntax(_) | SanError::NullInCheck(_) => {
            format!("\"{text}\" is not a move: try e4, Nf3, O-O or e2e4 (help lists the commands)")
        }
        SanError::NoSuchMove(_) => {
            if pos.is_check() {
                format!("Illegal move {text}: you are in check")
            } else {
                format!("Illegal move {text}: no piece of yours can make it")
            }
        }
        SanError::Ambiguous { candidates, .. } => {
            format!("Ambiguous move {text}: it could be {}", join_or(candidates))
        }
        SanError::Illegal(_) => {
            if pos.is_check() {
                format!("Illegal move {text}: it does not get your king out of check")
            } else {
                format!("Illegal move {text}: it would leave your king in check")
            }
        }
    }
}

fn join_or(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// The legal moves in SAN, sorted as a player scans them (pieces, then pawns).
pub fn legal_moves_san(pos: &Position) -> Vec<String> {
    let mut moves: Vec<String> = pos.legal_moves().iter().map(|&m| san(pos, m)).collect();
    moves.sort_by_key(|s| (!s.starts_with(|c: char| c.is_ascii_uppercase()), s.clone()));
    moves
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn help_fits_an_80x24_terminal_under_the_board() {
        for line in HELP.lines() {
            assert!(line.chars().count() <= 78, "{line:?}");
        }
        // The board view takes 14 rows; the help and a prompt share the other 10.
        assert!(HELP.lines().count() <= 9);
        for command in ["moves", "undo", "takeback", "hint", "draw", "accept", "decline", "claim", "resign"] {
            assert!(HELP.contains(command), "{command}");
        }
        for command in ["flip", "fen", "pgn", "save", "analyze", "quit", "help"] {
            assert!(HELP.contains(command), "{command}");
        }
    }

    fn mv(pos: &Position, text: &str) -> String {
        match read(pos, text) {
            Input::Move(m) => san(pos, m),
            other => panic!("{text}: {other:?}"),
        }
    }

    fn invalid(pos: &Position, text: &str) -> String {
        match read(pos, text) {
            Input::Invalid(why) => why,
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn forgiving_moves() {
        let start = Position::startpos();
        for (typed, expected) in [
            ("Nf3", "Nf3"),
            ("nf3", "Nf3"),
            ("e2e4", "e4"),
            ("e2-e4", "e4"),
            ("g1f3", "Nf3"),
            ("E2E4", "e4"),
            ("e2 e4", "e4"),
        ] {
            assert_eq!(mv(&start, typed), expected);
        }
        let pos: Position = "r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1".parse().unwrap();
        assert_eq!(mv(&pos, "0-0"), "O-O");
        assert_eq!(mv(&pos, "o-o-o"), "O-O-O");
        assert_eq!(mv(&pos, "b8Q"), "b8=Q+");
        assert_eq!(mv(&pos, "b7b8q"), "b8=Q+");
        assert_eq!(mv(&pos, "bxa8=N"), "bxa8=N");
    }

    #[test]
    fn reasons() {
        let start = Position::startpos();
        insta::assert_snapshot!(invalid(&start, "e5"), @"Illegal move e5: no piece of yours can make it");
        insta::assert_snapshot!(invalid(&start, "hello"), @r#""hello" is not a move: try e4, Nf3, O-O or e2e4 (help lists the commands)"#);
        let knights: Position = "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1".parse().unwrap();
        insta::assert_snapshot!(invalid(&knights, "Nd2"), @"Ambiguous move Nd2: it could be Nbd2 or Nfd2");
        let pinned: Position = "4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1".parse().unwrap();
        insta::assert_snapshot!(invalid(&pinned, "Bd3"), @"Illegal move Bd3: it would leave your king in check");
        assert_eq!(read(&start, "  "), Input::Empty);
        assert_eq!(read(&start, "SAVE My Game.pgn"), Input::Command(Command::Save(Some("My Game.pgn".into()))));
        assert_eq!(read(&start, "claim Nf3"), Input::Command(Command::Claim(Some("Nf3".into()))));
    }

    #[test]
    fn every_completed_command_is_a_command() {
        let start = Position::startpos();
        for name in COMMANDS {
            assert!(matches!(read(&start, name), Input::Command(_)), "{name}");
        }
    }

    #[test]
    fn move_list() {
        let moves = legal_moves_san(&Position::startpos());
        assert_eq!(moves.len(), 20);
        assert_eq!(moves[..4], ["Na3", "Nc3", "Nf3", "Nh3"]);
    }
}
