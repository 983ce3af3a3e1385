//! The `tempo-uci` binary driven over UCI, as a GUI would: a `position` whose moves cannot
//! all be played answers for its valid prefix, and one that yields no position leaves no
//! position to answer for (never the previous one).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use tempo_core::Position;
use tempo_notation::parse_uci_move;

/// A running `tempo-uci` session.
struct Session {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Session {
    fn start() -> Session {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tempo-uci"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        Session { child, input, output }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").unwrap();
        self.input.flush().unwrap();
    }

    /// Sends `line`, then `isready`, and returns every line answered before `readyok`, so
    /// the answers to a command that is not a search are complete.
    fn ask(&mut self, line: &str) -> Vec<String> {
        self.send(line);
        self.send("isready");
        self.read_until(|l| l == "readyok")
    }

    /// Sends a `go` and returns every line up to and including its `bestmove`.
    fn go(&mut self, line: &str) -> Vec<String> {
        self.send(line);
        self.read_until(|l| l.starts_with("bestmove"))
    }

    fn read_until(&mut self, last: impl Fn(&str) -> bool) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let mut line = String::new();
            assert_ne!(self.output.read_line(&mut line).unwrap(), 0, "the engine ended; it wrote {lines:?}");
            let line = line.trim_end().to_owned();
            let done = last(&line);
            lines.push(line);
            if done {
                return lines;
            }
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.child.wait();
    }
}

fn after(moves: &str) -> Position {
    let mut pos = Position::startpos();
    for text in moves.split_whitespace() {
        pos.play_unchecked(parse_uci_move(&pos, text).unwrap());
    }
    pos
}

/// The move of the last line, a `bestmove`.
fn best(lines: &[String]) -> &str {
    lines.last().unwrap().strip_prefix("bestmove ").unwrap().split(' ').next().unwrap()
}

fn info_strings(lines: &[String]) -> Vec<&str> {
    lines.iter().filter_map(|l| l.strip_prefix("info string ")).collect()
}

#[test]
fn a_malformed_move_keeps_the_moves_before_it() {
    let mut session = Session::start();
    // An earlier position the GUI has left: Black to move, so that its moves are illegal in
    // the new one.
    session.ask("position startpos moves e2e4");
    let said = session.ask("position startpos moves d2d4 e7e5 e2e9");
    assert_eq!(
        info_strings(&said),
        ["position: move 3 of 3 (\"e2e9\") is malformed, not a UCI move; dropped it, kept the position after the first 2 \
          moves"],
        "{said:?}"
    );
    let answer = session.go("go depth 3");
    let prefix = after("d2d4 e7e5");
    parse_uci_move(&prefix, best(&answer)).unwrap_or_else(|e| panic!("{e}: {answer:?}"));
    let shown = session.ask("d");
    assert!(shown.contains(&format!("Fen: {}", prefix.fen())), "{shown:?}");
}

#[test]
fn an_illegal_move_and_those_after_it_are_dropped() {
    let mut session = Session::start();
    session.ask("position startpos moves e2e4");
    let said = session.ask("position startpos moves d2d4 e7e5 e2e5 g1f3 b8c6");
    let prefix = after("d2d4 e7e5");
    assert_eq!(
        info_strings(&said),
        [format!(
            "position: move 3 of 5 (\"e2e5\") is illegal in {}; dropped it and the 2 moves after it, kept the position \
             after the first 2 moves",
            prefix.fen()
        )],
        "{said:?}"
    );
    for go in ["go depth 3", "go nodes 500", "go wtime 200 btime 200"] {
        let answer = session.go(go);
        parse_uci_move(&prefix, best(&answer)).unwrap_or_else(|e| panic!("{go}: {e}: {answer:?}"));
    }
}

#[test]
fn after_a_failed_position_no_move_is_answered_until_a_valid_one() {
    let mut session = Session::start();
    session.ask("position startpos moves e2e4");
    let answer = session.go("go depth 2");
    parse_uci_move(&after("e2e4"), best(&answer)).unwrap();

    for failed in
        ["position fen garbage", "position fen 8/8/8/8/8/8/8/8 w - - 0 1", "position", "position startpos e2e4"]
    {
        let said = session.ask(failed);
        let said = info_strings(&said);
        assert!(
            said.len() == 1 && said[0].starts_with("position ignored: ") && said[0].contains("no position is set"),
            "{failed}: {said:?}"
        );
        for go in ["go depth 3", "go movetime 50", "go infinite", "go ponder wtime 1000 btime 1000"] {
            let answer = session.go(go);
            assert_eq!(answer.len(), 2, "{failed}, {go}: {answer:?}");
            assert!(answer[0].starts_with("info string go: no position is set"), "{failed}, {go}: {answer:?}");
            assert_eq!(answer[1], "bestmove 0000", "{failed}, {go}: {answer:?}");
        }
        // A ponderhit after the answered ponder has nothing to do.
        let after_ponderhit = session.ask("ponderhit");
        assert_eq!(after_ponderhit, ["readyok"]);
        // Nothing else shows or counts the position the GUI left either.
        for command in ["d", "eval", "go perft 2"] {
            let said = session.ask(command);
            assert_eq!(said.len(), 2, "{failed}, {command}: {said:?}");
            let name = command.split(' ').next().unwrap();
            assert!(said[0].starts_with(&format!("info string {name}: no position is set")), "{command}: {said:?}");
        }
    }

    // The bench searches its own positions and forgets nothing the GUI set.
    let bench = session.ask("bench 1");
    assert!(bench.iter().any(|l| l.starts_with("Bench: ")), "{bench:?}");
    assert!(session.go("go depth 1").ends_with(&["bestmove 0000".to_owned()]));

    // A valid position is searched again.
    session.ask("position startpos moves d2d4");
    let answer = session.go("go depth 3");
    parse_uci_move(&after("d2d4"), best(&answer)).unwrap_or_else(|e| panic!("{e}: {answer:?}"));
}

#[test]
fn a_session_without_position_searches_the_start_position() {
    let mut session = Session::start();
    let answer = session.go("go depth 2");
    parse_uci_move(&Position::startpos(), best(&answer)).unwrap_or_else(|e| panic!("{e}: {answer:?}"));
    let shown = session.ask("d");
    assert!(shown.contains(&format!("Fen: {}", Position::startpos().fen())), "{shown:?}");
}

#[test]
fn a_position_sent_during_an_open_ended_search_is_set_when_it_ends() {
    let mut session = Session::start();
    session.ask("position startpos");
    session.send("go infinite");
    // The running search keeps its root; the new position waits for its end, as in Stockfish.
    let said = session.ask("position startpos moves e2e4");
    assert!(info_strings(&said).iter().any(|s| s.contains("set when the search ends")), "{said:?}");
    session.send("stop");
    let answer = session.read_until(|l| l.starts_with("bestmove"));
    parse_uci_move(&Position::startpos(), best(&answer)).unwrap_or_else(|e| panic!("{e}: {answer:?}"));
    let answer = session.go("go depth 2");
    parse_uci_move(&after("e2e4"), best(&answer)).unwrap_or_else(|e| panic!("{e}: {answer:?}"));
}
