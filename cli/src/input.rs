//! What a player typed: a command or a move, read forgivingly, and the reason when it is
//! neither.

use tempo_core::{Move, Position};
use tempo_notation::{read_typed_move, san, shown_input, TypedMoveError};

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
    /// Every move of the game.
    MoveList,
    /// Page the move list beside the board back (`up`) or forward (`down`).
    PageUp,
    PageDown,
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
Moves: SAN (e4, Nf3, O-O, e8=Q) or e2e4. Commands (help; Tab completes them):
  moves            the legal moves          hint      the engine's suggestion
  undo, takeback   take back your move and  analyze   the engine's best lines
                   the reply; clocks too    flip      turn the board around
  draw             offer or accept a draw   list      every move of the game
  accept, decline  answer a draw offer      up, down  page the moves shown
  claim [MOVE]     claim threefold repeti-  fen, pgn  the position, the game
                   tion or fifty moves      save [F]  write the game as PGN
  resign           give up the game         quit      leave (asks to save)";

/// The commands by their main names, as Tab completes them (`command` also takes aliases).
pub const COMMANDS: [&str; 18] = [
    "help", "moves", "undo", "hint", "draw", "accept", "decline", "claim", "resign", "flip", "fen", "pgn", "save",
    "analyze", "list", "up", "down", "quit",
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
        "list" | "history" => Command::MoveList,
        "up" | "older" | "pageup" | "pgup" => Command::PageUp,
        "down" | "newer" | "pagedown" | "pgdn" => Command::PageDown,
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
        return Input::Invalid(format!(
            "\"{}\" is not a move or a command (type help for the list)",
            shown_input(line)
        ));
    }
    match read_move(pos, word) {
        Ok(m) => Input::Move(m),
        Err(why) => Input::Invalid(why),
    }
}

/// Reads a move in SAN (leniently) or coordinates ([`read_typed_move`]); the error explains
/// what is wrong with it, and where the text is no move at all, where the commands are.
pub fn read_move(pos: &Position, text: &str) -> Result<Move, String> {
    read_typed_move(pos, text).map_err(|error| match error {
        TypedMoveError::NotAMove { .. } => format!("{error} (help lists the commands)"),
        _ => error.to_string(),
    })
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
        for command in ["flip", "fen", "pgn", "save", "analyze", "quit", "help", "list", "up", "down"] {
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
        insta::assert_snapshot!(invalid(&start, "e5"), @"Illegal move e5: the pawn on e2 cannot move to e5");
        insta::assert_snapshot!(invalid(&start, "hello"), @r#""hello" is not a move: try e4, Nf3, O-O or e2e4 (help lists the commands)"#);
        let knights: Position = "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1".parse().unwrap();
        insta::assert_snapshot!(invalid(&knights, "Nd2"), @"Ambiguous move Nd2: it could be Nbd2 or Nfd2");
        let pinned: Position = "4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1".parse().unwrap();
        insta::assert_snapshot!(invalid(&pinned, "Bd3"), @"Illegal move Bd3: the bishop on e2 is pinned against the king by the rook on e7");
        assert_eq!(read(&start, "  "), Input::Empty);
        assert_eq!(read(&start, "SAVE My Game.pgn"), Input::Command(Command::Save(Some("My Game.pgn".into()))));
        assert_eq!(read(&start, "claim Nf3"), Input::Command(Command::Claim(Some("Nf3".into()))));
    }

    #[test]
    fn illegal_moves_say_what_is_wrong() {
        let start = Position::startpos();
        insta::assert_snapshot!(invalid(&start, "e2e5"), @"Illegal move e2e5: the pawn on e2 cannot move to e5");
        insta::assert_snapshot!(invalid(&start, "Qh5"), @"Illegal move Qh5: the queen on d1 is blocked by the pawn on e2");
        insta::assert_snapshot!(invalid(&start, "Qxf7"), @"Illegal move Qxf7: the queen on d1 cannot move to f7");
        insta::assert_snapshot!(invalid(&start, "bc4"), @"Illegal move bc4: the bishop on f1 is blocked by the pawn on e2");
        insta::assert_snapshot!(invalid(&start, "Ke2"), @"Illegal move Ke2: the king on e1 cannot move onto its own pawn on e2");
        insta::assert_snapshot!(invalid(&start, "O-O"), @"Illegal move O-O: castling is blocked by the bishop on f1");
        // 1. e4 e5 2. Ke2 Bc5: the king may not step onto e3.
        let king: Position = "rnbqk1nr/pppp1ppp/8/2b1p3/4P3/8/PPPPKPPP/RNBQ1BNR w kq - 2 3".parse().unwrap();
        insta::assert_snapshot!(invalid(&king, "Ke3"), @"Illegal move Ke3: e3 is attacked by the bishop on c5");
        let pinned: Position = "rnbqk1nr/pppp1ppp/8/4p3/1b2P3/2N5/PPP2PPP/R1BQKBNR w KQkq - 0 4".parse().unwrap();
        insta::assert_snapshot!(invalid(&pinned, "Nd5"), @"Illegal move Nd5: the knight on c3 is pinned against the king by the bishop on b4");
        let check: Position = "rnbqk1nr/pppp1ppp/8/4p3/1b2P3/8/PPP2PPP/RNBQKBNR w KQkq - 0 4".parse().unwrap();
        insta::assert_snapshot!(invalid(&check, "Nf3"), @"Illegal move Nf3: the king is in check from the bishop on b4, and this move does not answer it");
        // Two knights, neither can go there: no single piece to explain.
        let knights: Position = "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1".parse().unwrap();
        insta::assert_snapshot!(invalid(&knights, "Ne5"), @"Illegal move Ne5: no piece of yours can make it");
        insta::assert_snapshot!(invalid(&knights, "Qd2"), @"Illegal move Qd2: White has no queen");
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
