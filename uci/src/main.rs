//! `tempo-uci`: the Tempo engine speaking UCI on stdin/stdout. Command-line arguments are
//! run as commands (e.g. `tempo-uci bench`), then the program exits.

use anyhow::Context as _;
use std::io::{stdin, stdout};
use tempo_uci::Server;

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut server = Server::new(stdout());
    if args.is_empty() {
        server.run(stdin().lock()).context("reading stdin")?;
        return Ok(());
    }
    // `tempo-uci bench 13` is one command split by the shell; `tempo-uci "position startpos"
    // "go depth 5"` is one command per (quoted) argument.
    let commands = if args.iter().any(|a| a.contains(' ')) { args } else { vec![args.join(" ")] };
    for command in &commands {
        server.handle_line(command);
        // A search started from the command line runs to its own end before the next command.
        server.wait();
    }
    server.finish();
    Ok(())
}
