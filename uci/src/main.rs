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
    } else {
        // Each argument is one command, or all of them form one command when none is a
        // command by itself (`tempo-uci go depth 5` as well as `tempo-uci "go depth 5"`).
        let line = args.join(" ");
        server.handle_line(&line);
        server.wait();
    }
    Ok(())
}
