//! A small xboard (CECP v2) engine for the match tests: it plays legal moves chosen by the
//! position's key (so games are reproducible), prints one thinking line per move, and
//! answers `ping`. It is a test helper, not an engine: built as an example of `tempo-tools`
//! (`cargo build -p tempo-tools --example xboard-test-engine`).
//!
//! Arguments: `--san` (asks for and writes SAN moves), `--no-setboard` (does not offer
//! `setboard`), `--old-form` (writes its moves as `N. ... MOVE`), `--resign-after N` (resigns
//! instead of its Nth move).

use std::io::{BufRead, Write};
use tempo_core::{CastlingMode, Move, Position};
use tempo_notation::{parse_san, parse_uci_move, san, uci_move};

struct Settings {
    san: bool,
    setboard: bool,
    old_form: bool,
    resign_after: Option<u32>,
}

fn settings() -> Settings {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let has = |flag: &str| args.iter().any(|a| a == flag);
    let resign_after =
        args.iter().position(|a| a == "--resign-after").and_then(|i| args.get(i + 1)).and_then(|n| n.parse().ok());
    Settings { san: has("--san"), setboard: !has("--no-setboard"), old_form: has("--old-form"), resign_after }
}

/// The move `text` (coordinates or SAN) in `pos`, if legal.
fn read_move(pos: &Position, text: &str) -> Option<Move> {
    parse_uci_move(pos, text).ok().or_else(|| parse_san(pos, text).ok()).filter(|m| !m.is_null())
}

fn main() {
    let settings = settings();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut pos = Position::startpos();
    let mut moves_made = 0u32;
    let say = |out: &mut std::io::StdoutLock<'_>, line: String| {
        writeln!(out, "{line}").and_then(|()| out.flush()).expect("stdout");
    };
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let line = line.trim();
        let (command, rest) = line.split_once(' ').unwrap_or((line, ""));
        match command {
            "" | "xboard" | "accepted" | "rejected" | "easy" | "post" | "force" | "level" | "st" | "sd" | "time"
            | "otim" | "random" | "computer" | "hard" | "nopost" => {}
            "protover" => {
                say(
                    &mut out,
                    format!(
                        "feature myname=\"xboard test engine\" ping=1 usermove=1 san={} setboard={} \
                         variants=\"normal,fischerandom\" option=\"Style -combo calm /// wild\"",
                        u8::from(settings.san),
                        u8::from(settings.setboard)
                    ),
                );
                say(&mut out, "feature done=1".to_owned());
            }
            "ping" => say(&mut out, format!("pong {rest}")),
            "new" => pos = Position::startpos(),
            "variant" if rest == "fischerandom" => {
                pos = Position::from_fen(&pos.fen(), CastlingMode::Chess960).expect("the start in Chess960 mode");
            }
            "setboard" if settings.setboard => match Position::from_fen(rest, pos.castling_mode()) {
                Ok(p) => pos = p,
                Err(e) => say(&mut out, format!("tellusererror Illegal position: {e}")),
            },
            "option" => {}
            "usermove" => match read_move(&pos, rest) {
                Some(m) => pos.play_unchecked(m),
                None => say(&mut out, format!("Illegal move: {rest}")),
            },
            "go" => {
                moves_made += 1;
                if settings.resign_after == Some(moves_made) {
                    say(&mut out, "resign".to_owned());
                    continue;
                }
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    continue;
                }
                let m = legal[(pos.key() % legal.len() as u64) as usize];
                let text = if settings.san { san(&pos, m) } else { uci_move(&pos, m) };
                say(&mut out, format!("1 {} 0 {} {text}", (moves_made % 7) as i32 - 3, legal.len()));
                if settings.old_form {
                    say(&mut out, format!("{}. ... {text}", pos.fullmove_number()));
                } else {
                    say(&mut out, format!("move {text}"));
                }
                pos.play_unchecked(m);
            }
            "quit" => break,
            _ => say(&mut out, format!("Error (unknown command): {command}")),
        }
    }
}
