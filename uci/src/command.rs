//! Parsing of the lines a GUI sends: the UCI commands plus the developer commands.

use std::time::Duration;
use tempo_engine::Limits;

/// Why a line could not be understood.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// The first word is no known command.
    #[error("unknown command {0:?}")]
    Unknown(String),
    /// A command's arguments are malformed.
    #[error("malformed {command}: {reason}")]
    Malformed {
        /// The command.
        command: &'static str,
        /// What is wrong.
        reason: String,
    },
}

/// Where `position` starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartPosition {
    /// `startpos`.
    Startpos,
    /// `fen <six fields>`.
    Fen(String),
}

/// The parameters of `go`: the search limits, with the moves still as text, since a
/// position is needed to read them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    /// Every limit but `searchmoves` (left empty): `wtime` (negative values, which some GUIs
    /// send when late, read as zero), `btime`, `winc`, `binc`, `movestogo` (as sent, 0
    /// included), `movetime`, `depth`, `nodes`, `mate`, `infinite`, `ponder`.
    pub limits: Limits,
    /// `searchmoves`, in UCI notation.
    pub searchmoves: Vec<String>,
    /// `perft <depth>` (developer extension).
    pub perft: Option<u32>,
    /// Parameters that were skipped because they were malformed. A `go` always starts a
    /// search (a GUI waits for its `bestmove`), so bad parts are reported, not fatal.
    pub warnings: Vec<String>,
}

/// One input line, understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `uci`
    Uci,
    /// `debug on|off`
    Debug(bool),
    /// `isready`
    IsReady,
    /// `setoption name <name> [value <value>]`
    SetOption {
        /// Option name (may contain spaces).
        name: String,
        /// Value text, empty when missing.
        value: String,
    },
    /// `register ...` (accepted and ignored: Tempo needs no registration).
    Register,
    /// `ucinewgame`
    UciNewGame,
    /// `position startpos|fen ... [moves ...]`
    Position {
        /// The start.
        start: StartPosition,
        /// The moves, in UCI notation.
        moves: Vec<String>,
    },
    /// `go ...`
    Go(GoParams),
    /// `stop`
    Stop,
    /// `ponderhit`
    PonderHit,
    /// `quit`
    Quit,
    /// `d`: show the position.
    Display,
    /// `eval`: show the evaluation breakdown.
    Eval,
    /// `bench [depth]`
    Bench {
        /// Depth override.
        depth: Option<u32>,
    },
    /// `genfens N seed S book <None|PATH>` (OpenBench's DATAGEN openings): the words after
    /// `genfens`, read by the server, which answers bad ones with an `info string`.
    Genfens(Vec<String>),
    /// `spsa`: the search parameters as OpenBench's SPSA input (builds with the feature
    /// `tune`).
    Spsa,
}

const GO_KEYWORDS: &[&str] = &[
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
];

fn malformed(command: &'static str, reason: impl Into<String>) -> CommandError {
    CommandError::Malformed { command, reason: reason.into() }
}

fn number<T: std::str::FromStr>(command: &'static str, key: &str, value: Option<&str>) -> Result<T, CommandError> {
    let text = value.ok_or_else(|| malformed(command, format!("{key} needs a value")))?;
    text.parse().map_err(|_| malformed(command, format!("{key} value {text:?} is not a valid number")))
}

fn millis(key: &str, value: Option<&str>) -> Result<Duration, CommandError> {
    let v: i64 = number("go", key, value)?;
    Ok(Duration::from_millis(v.max(0) as u64))
}

/// Parses one line. Empty lines yield `Ok(None)`.
///
/// # Errors
/// [`CommandError`] naming the unknown command or what is malformed.
pub fn parse_command(line: &str) -> Result<Option<Command>, CommandError> {
    let mut words = line.split_whitespace();
    let Some(first) = words.next() else { return Ok(None) };
    let rest: Vec<&str> = words.collect();
    let command = match first {
        "uci" => Command::Uci,
        "isready" => Command::IsReady,
        "ucinewgame" => Command::UciNewGame,
        "stop" => Command::Stop,
        "ponderhit" => Command::PonderHit,
        "quit" => Command::Quit,
        "register" => Command::Register,
        "d" => Command::Display,
        "eval" => Command::Eval,
        "debug" => match rest.first() {
            Some(&"on") => Command::Debug(true),
            Some(&"off") => Command::Debug(false),
            _ => return Err(malformed("debug", "expected on or off")),
        },
        "bench" => Command::Bench {
            depth: match rest.first() {
                None => None,
                Some(d) => Some(number("bench", "depth", Some(d))?),
            },
        },
        "spsa" => Command::Spsa,
        "genfens" => Command::Genfens(rest.iter().map(|w| (*w).to_owned()).collect()),
        "setoption" => parse_setoption(&rest)?,
        "position" => parse_position(&rest)?,
        "go" => Command::Go(parse_go(&rest)?),
        other => return Err(CommandError::Unknown(other.to_owned())),
    };
    Ok(Some(command))
}

fn parse_setoption(rest: &[&str]) -> Result<Command, CommandError> {
    if rest.first() != Some(&"name") {
        return Err(malformed("setoption", "expected 'name'"));
    }
    let value_at = rest.iter().position(|w| *w == "value");
    let name_words = &rest[1..value_at.unwrap_or(rest.len())];
    if name_words.is_empty() {
        return Err(malformed("setoption", "the option name is missing"));
    }
    let value = value_at.map(|i| rest[i + 1..].join(" ")).unwrap_or_default();
    Ok(Command::SetOption { name: name_words.join(" "), value })
}

fn parse_position(rest: &[&str]) -> Result<Command, CommandError> {
    let moves_at = rest.iter().position(|w| *w == "moves");
    let head = &rest[..moves_at.unwrap_or(rest.len())];
    let start = match head.first() {
        Some(&"startpos") if head.len() == 1 => StartPosition::Startpos,
        Some(&"startpos") => return Err(malformed("position", "unexpected words after startpos")),
        Some(&"fen") if head.len() > 1 => StartPosition::Fen(head[1..].join(" ")),
        Some(&"fen") => return Err(malformed("position", "fen is missing")),
        _ => return Err(malformed("position", "expected startpos or fen")),
    };
    let moves = moves_at.map(|i| rest[i + 1..].iter().map(|s| (*s).to_owned()).collect()).unwrap_or_default();
    Ok(Command::Position { start, moves })
}

fn parse_go(rest: &[&str]) -> Result<GoParams, CommandError> {
    let mut p = GoParams::default();
    let mut i = 0;
    while i < rest.len() {
        let key = rest[i];
        let value = rest.get(i + 1).copied();
        let mut consumed = 2;
        let parsed: Result<(), CommandError> = (|| {
            match key {
                "wtime" => p.limits.wtime = Some(millis(key, value)?),
                "btime" => p.limits.btime = Some(millis(key, value)?),
                "winc" => p.limits.winc = Some(millis(key, value)?),
                "binc" => p.limits.binc = Some(millis(key, value)?),
                "movetime" => p.limits.movetime = Some(millis(key, value)?),
                "movestogo" => p.limits.movestogo = Some(number("go", key, value)?),
                "depth" => p.limits.depth = Some(number("go", key, value)?),
                "nodes" => p.limits.nodes = Some(number("go", key, value)?),
                "mate" => p.limits.mate = Some(number("go", key, value)?),
                "perft" => p.perft = Some(number("go", key, value)?),
                "infinite" => {
                    p.limits.infinite = true;
                    consumed = 1;
                }
                "ponder" => {
                    p.limits.ponder = true;
                    consumed = 1;
                }
                "searchmoves" => {
                    consumed = 1;
                    while let Some(m) = rest.get(i + consumed).filter(|w| !GO_KEYWORDS.contains(w)) {
                        p.searchmoves.push((*m).to_owned());
                        consumed += 1;
                    }
                }
                other => {
                    consumed = 1;
                    return Err(malformed("go", format!("unknown parameter {other:?} ignored")));
                }
            }
            Ok(())
        })();
        if let Err(e) = parsed {
            // `go perft` is a developer command, not a search: without a depth it is refused
            // rather than turned into a search nobody asked for.
            if key == "perft" {
                return Err(e);
            }
            // Otherwise, as Stockfish does, a go searches with what it understood (a plain
            // `go` searches until `stop`, which always gets its bestmove).
            p.warnings.push(e.to_string());
            // A keyword with a bad value: skip the value only if it is not the next keyword.
            if consumed == 2 && value.is_some_and(|v| GO_KEYWORDS.contains(&v)) {
                consumed = 1;
            }
        }
        i += consumed;
    }
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_protocol() {
        assert_eq!(parse_command("  "), Ok(None));
        assert_eq!(parse_command("uci"), Ok(Some(Command::Uci)));
        assert_eq!(
            parse_command("setoption name Move Overhead value 30"),
            Ok(Some(Command::SetOption { name: "Move Overhead".into(), value: "30".into() }))
        );
        assert_eq!(
            parse_command("setoption name Clear Hash"),
            Ok(Some(Command::SetOption { name: "Clear Hash".into(), value: String::new() }))
        );
        assert_eq!(
            parse_command("position startpos moves e2e4 e7e5"),
            Ok(Some(Command::Position { start: StartPosition::Startpos, moves: vec!["e2e4".into(), "e7e5".into()] }))
        );
        let Ok(Some(Command::Go(go))) =
            parse_command("go wtime -5 btime 1000 winc 10 binc 10 searchmoves e2e4 d2d4 movestogo 5")
        else {
            panic!("go did not parse");
        };
        assert_eq!(go.limits.wtime, Some(Duration::ZERO));
        assert_eq!(go.searchmoves, vec!["e2e4", "d2d4"]);
        assert_eq!(go.limits.movestogo, Some(5));
    }

    #[test]
    fn rejects_garbage() {
        assert!(matches!(parse_command("hello"), Err(CommandError::Unknown(_))));
        // A go always searches; its bad parts become warnings.
        for line in ["go depth x", "go depth", "go sideways", "go depth infinite"] {
            let Ok(Some(Command::Go(go))) = parse_command(line) else { panic!("{line} did not parse") };
            assert_eq!(go.warnings.len(), 1, "{line}");
        }
        let Ok(Some(Command::Go(go))) = parse_command("go depth nodes 5") else { panic!("go did not parse") };
        assert_eq!(go.limits.nodes, Some(5));
        assert!(matches!(parse_command("go perft"), Err(CommandError::Malformed { .. })));
        assert!(matches!(parse_command("go perft x"), Err(CommandError::Malformed { .. })));
        assert!(matches!(parse_command("position"), Err(CommandError::Malformed { .. })));
        assert!(matches!(parse_command("position fen"), Err(CommandError::Malformed { .. })));
        assert!(matches!(parse_command("setoption Hash 3"), Err(CommandError::Malformed { .. })));
    }
}
