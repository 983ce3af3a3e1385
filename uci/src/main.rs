//! `tempo-uci`: the Tempo engine speaking UCI on stdin/stdout. Command-line arguments are
//! run as commands (e.g. `tempo-uci bench`), then the program exits.

use anyhow::Context as _;
use std::io::{stdin, stdout, Write as _};
use tempo_uci::Server;

const USAGE: &str = "\
tempo-uci: the Tempo chess engine, speaking the UCI protocol on stdin and stdout.

Usage:
  tempo-uci                      start a UCI session (for GUIs and tournament managers)
  tempo-uci COMMAND...           run UCI commands and exit, e.g.
  tempo-uci bench                the fixed benchmark; last line `Bench: N nodes M nps`
  tempo-uci bench 13             the benchmark to depth 13
  tempo-uci \"position startpos\" \"go depth 12\"   one command per quoted argument
  tempo-uci \"genfens 8 seed 1 book None\" quit   OpenBench's openings, 8 lines
                                 `info string genfens FEN` (book: None or an EPD file)

Besides the UCI commands, the session understands `d` (board, FEN and key), `eval`
(evaluation breakdown), `go perft D` (move counts), `bench [DEPTH]` and `genfens`.
";

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if matches!(args.first().map(String::as_str), Some("-h" | "--help" | "help")) {
        // A closed stdout (`tempo-uci --help | head -1`) ends the program quietly.
        let _ = write!(stdout(), "{USAGE}");
        return Ok(());
    }
    if matches!(args.first().map(String::as_str), Some("-V" | "--version")) {
        let _ = writeln!(stdout(), "tempo-uci {}", env!("CARGO_PKG_VERSION"));
        return Ok(());
    }
    let mut server = Server::new(stdout());
    if args.is_empty() {
        server.run(stdin().lock()).context("reading stdin")?;
        return Ok(());
    }
    // `tempo-uci bench 13` is one command split by the shell; `tempo-uci "position startpos"
    // "go depth 5"` is one command per (quoted) argument.
    let commands = if args.iter().any(|a| a.contains(' ')) { args } else { vec![args.join(" ")] };
    // On the command line a command that cannot be understood is an error (exit status 2),
    // not a line to skip as in a session.
    if let Some(Err(e)) = commands.iter().map(|c| tempo_uci::parse_command(c)).find(Result::is_err) {
        let _ = writeln!(std::io::stderr(), "tempo-uci: {e} (try tempo-uci --help)");
        std::process::exit(2);
    }
    for command in &commands {
        server.handle_line(command);
        // A search started from the command line runs to its own end before the next command.
        server.wait();
    }
    server.finish();
    Ok(())
}
