//! A play session built from the command line: the players and their engines, the time
//! control, the start position or the saved game to continue, the names, and the screen.

use anyhow::{bail, Context, Result};
use std::io::IsTerminal;
use std::sync::{Arc, Mutex};
use std::time::Instant;
use tempo_core::{clock::TimeControl, CastlingMode, Color, Game, Position};
use tempo_notation::PgnGame;

use super::keyboard::{Keyboard, Timer};
use super::{interrupt, Session, Side, Snapshot};
use crate::args::{PlayArgs, DEFAULT_BLACK, DEFAULT_LEVEL, DEFAULT_WHITE};
use crate::board_view::BoardStyle;
use crate::clock_view::{describe_tc, parse_tc};
use crate::describe::describe_outcome;
use crate::players::{EnginePlayer, PlayerSpec};
use crate::save::{self, GameSlot, Pick, Record};
use crate::screen::{capabilities, print_flush, PlayerView, Terminal, FULL_WIDTH};
use crate::start::{chess960_position, parse_fen_arg, random_below, Source};

/// Smallest terminal for the full screen; below it the game scrolls like a transcript.
const MIN_HEIGHT: usize = 20;

/// The session `args` ask for, its engines started; `None` when the saved game to continue
/// is already over by the rules (which has been said: there is nothing to play).
pub(super) fn session_from_args(args: &PlayArgs) -> Result<Option<Session>> {
    let white = PlayerSpec::parse(&args.white, args.level).context("--white")?;
    let black = PlayerSpec::parse(&args.black, args.level).context("--black")?;
    let control = match (&args.tc, args.movetime) {
        (Some(tc), _) => Some(parse_tc(tc)?),
        (None, Some(time)) => Some(TimeControl::MoveTime(time)),
        (None, None) => None,
    };

    let (date, time, stamp) = save::now_stamp();
    let Some(Start { game, names: [white_name, black_name], original, slot }) = game_from_args(args, control)? else {
        return Ok(None);
    };
    let chess960 = game.initial_position().castling_mode() == CastlingMode::Chess960;
    let humans = [&white, &black].into_iter().filter(|s| **s == PlayerSpec::Human).count();
    let white_side = side(white, Color::White, humans, chess960, white_name)?;
    let black_side = side(black, Color::Black, humans, chess960, black_name)?;
    let record = Record { white: white_side.view.name.clone(), black: black_side.view.name.clone(), date, time };

    let caps = capabilities();
    let colour = caps.colour.unless(args.no_color);
    let (terminal, transcript_width, mut messages) = screen(caps.screen, colour.is_on());
    let style = BoardStyle { unicode: !args.ascii && caps.unicode, colour };
    // The human's side at the bottom; Black's side when Black is the only human.
    let flipped = (white_side.spec != PlayerSpec::Human && black_side.spec == PlayerSpec::Human) ^ args.flip;
    let tc_text = game.clock().map_or_else(|| "no clock".to_owned(), |c| describe_tc(c.control()));
    let variant = if chess960 {
        chess960_number(game.initial_position()).map_or_else(|| "  Chess960".to_owned(), |n| format!("  Chess960 #{n}"))
    } else {
        String::new()
    };
    let title =
        format!("Tempo  {} (White) v {} (Black)  {tc_text}{variant}", white_side.view.name, black_side.view.name);
    // A continued game stays in its file unless --save names another, to which it is added.
    if let Some(path) = args.save.as_ref().filter(|p| p.is_dir()) {
        bail!("--save {}: that is a folder; name a PGN file (in it or elsewhere)", path.display());
    }
    let slot = match (&args.save, slot) {
        (Some(path), _) => GameSlot::append_to(path.clone()),
        (None, Some(slot)) => slot,
        (None, None) => save::default_slot(&stamp)?,
    }
    .resumed_with(resume_options(args));
    if white_side.is_human() || black_side.is_human() {
        messages.push("Type your move (e4, Nf3, O-O...) or help for the commands.".to_owned());
    }
    let snapshot = Arc::new(Mutex::new(Snapshot { slot, unsaved: None }));
    // The line editor serves people at a terminal; the editor draws on stderr.
    let editing = (white_side.is_human() || black_side.is_human())
        && caps.screen
        && std::io::stdin().is_terminal()
        && std::io::stderr().is_terminal();
    let keyboard =
        if editing { Keyboard::editor(interrupt(Arc::clone(&snapshot), colour.is_on())) } else { Keyboard::plain() };

    let mut session = Session {
        game,
        sides: [white_side, black_side],
        record,
        saved_pgn: None,
        original,
        snapshot,
        copies: Vec::new(),
        title,
        style,
        flipped,
        terminal,
        transcript_width,
        messages,
        keyboard,
        timer: Timer { fake: args.fake_move_time, last: Instant::now() },
        think: args.think,
        depth: args.depth,
        chess960,
        analyst: None,
        dirty: false,
        hint: None,
        show_eval: !args.no_eval,
        scroll: 0,
    };
    if session.original.is_some() && args.save.is_none() {
        // The file holds the game as it was read: nothing to save until a move is played.
        session.saved_pgn = Some(session.pgn());
    }
    session.update_snapshot();
    Ok(Some(session))
}

/// The game to play and where it came from.
struct Start {
    game: Game,
    /// The players' names a saved game recorded.
    names: [Option<String>; 2],
    /// A continued game as its file holds it, and its place there.
    original: Option<PgnGame>,
    slot: Option<GameSlot>,
}

/// The game to play: the saved game `--pgn` or a PGN file as the position (and `--game`)
/// names, or a new one from a FEN (`--fen` or the position), an EPD file's record,
/// `--chess960` or the start position. `None` when the saved game is over by the
/// rules.
fn game_from_args(args: &PlayArgs, control: Option<TimeControl>) -> Result<Option<Start>> {
    let source = args.source()?;
    if let Source::Pgn(path) = &source {
        let pick = args.game.map_or(Pick::Unfinished, Pick::Number);
        let loaded = save::load(path, pick, control)?;
        let which = if loaded.games_in_file > 1 {
            format!("game {} of {}", loaded.number, path.display())
        } else {
            format!("the game in {}", path.display())
        };
        if let Some(result) = loaded.result {
            print_flush(&format!("{}\n", crate::show::describe_loaded(&loaded.game, result)));
            bail!("{which} is already over ({result}); nothing to continue");
        }
        if !loaded.utf8 {
            bail!(
                "{which} is not UTF-8 text (a Latin-1 file?): continuing it would change the letters its \
                 tags and comments do not spell in UTF-8. Convert the file first, e.g. `iconv -f latin1 -t utf-8 {} \
                 > converted.pgn`",
                path.display()
            );
        }
        if let Some(outcome) = loaded.game.outcome() {
            let mut which = which;
            which[..1].make_ascii_uppercase();
            print_flush(&format!("{which} is over: {}\n", describe_outcome(&loaded.game, outcome)));
            return Ok(None);
        }
        return Ok(Some(Start {
            game: loaded.game,
            names: [loaded.white, loaded.black],
            original: Some(loaded.original),
            slot: Some(loaded.slot),
        }));
    }
    let start = if let Source::Fen(fen) = &source {
        let what = if args.fen.is_some() { "--fen" } else { "the position" };
        parse_fen_arg(fen).context(what)?
    } else if let Source::Epd(_) = &source {
        source.position(args.game)?
    } else if let Some(n) = &args.chess960 {
        let number = if n == "random" {
            random_below(960)
        } else {
            n.parse().ok().with_context(|| format!("--chess960 takes a number from 0 to 959, not {n:?}"))?
        };
        chess960_position(number)?
    } else {
        Position::startpos()
    };
    let game = match control {
        Some(tc) => Game::with_time_control(start, tc),
        None => Game::new(start),
    };
    Ok(Some(Start { game, names: [None, None], original: None, slot: None }))
}

/// The number (0..959) of the Chess960 start position `pos` is, whatever way the game began
/// (`--chess960`, `--fen`, a saved game); `None` for any other position.
fn chess960_number(pos: &Position) -> Option<u32> {
    let fen = pos.fen();
    (0..960).find(|&n| chess960_position(n).is_ok_and(|start| start.fen() == fen))
}

/// One side of the board, its engine started; `previous` is the name a resumed game gave it.
fn side(spec: PlayerSpec, color: Color, humans: usize, chess960: bool, previous: Option<String>) -> Result<Side> {
    let engine = match &spec {
        PlayerSpec::Human => None,
        PlayerSpec::Builtin(level) => Some(EnginePlayer::builtin(*level, chess960)?),
        PlayerSpec::Uci(cmd) => Some(EnginePlayer::uci(cmd, chess960).with_context(|| format!("--{color}"))?),
    };
    let name = match (&spec, previous) {
        // A resumed game keeps the names of the humans who started it.
        (PlayerSpec::Human, Some(previous)) if !previous.is_empty() && previous != "?" => previous,
        _ => player_name(&spec, engine.as_ref(), color, humans),
    };
    Ok(Side { spec, engine, view: PlayerView { name, time: None } })
}

fn player_name(spec: &PlayerSpec, engine: Option<&EnginePlayer>, color: Color, humans: usize) -> String {
    match spec {
        PlayerSpec::Human if humans == 2 => format!("Player {}", color.fold(1, 2)),
        PlayerSpec::Human => "You".to_owned(),
        _ => engine.map_or_else(|| "Engine".to_owned(), |e| e.name.clone()),
    }
}

/// The full-screen view if this is a terminal big enough for it, the width of the scrolling
/// transcript otherwise (that of a small terminal, which then gets the narrow layout), and a
/// note for a terminal too small.
fn screen(is_terminal: bool, colour: bool) -> (Option<Terminal>, usize, Vec<String>) {
    let size = terminal_size::terminal_size().map(|(w, h)| (w.0 as usize, h.0 as usize));
    let transcript_width = size.map_or(FULL_WIDTH, |(w, _)| w.clamp(1, FULL_WIDTH));
    match (is_terminal, size) {
        (true, Some((w, h))) if w >= FULL_WIDTH && h >= MIN_HEIGHT => {
            (Some(Terminal::new(w, h, colour)), transcript_width, Vec::new())
        }
        (true, Some((w, h))) => (
            None,
            transcript_width,
            vec![format!(
                "This terminal is {w}x{h}; the full board view needs {FULL_WIDTH}x{MIN_HEIGHT}, so the game scrolls instead."
            )],
        ),
        _ => (None, transcript_width, Vec::new()),
    }
}

/// The options that continue a game with the players it had: `--white`, `--black` and
/// `--level` where they are not the defaults (a resumed game's players are not in its file).
fn resume_options(args: &PlayArgs) -> String {
    let quote = |value: &str| {
        if value.chars().all(|c| c.is_ascii_alphanumeric() || "-_:./=+".contains(c)) {
            value.to_owned()
        } else {
            format!("'{}'", value.replace('\'', r"'\''"))
        }
    };
    let mut options = String::new();
    if args.white != DEFAULT_WHITE {
        options.push_str(&format!(" --white {}", quote(&args.white)));
    }
    if args.black != DEFAULT_BLACK {
        options.push_str(&format!(" --black {}", quote(&args.black)));
    }
    if args.level != DEFAULT_LEVEL {
        options.push_str(&format!(" --level {}", args.level));
    }
    options
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chess960_positions_are_known_by_number() {
        for n in [0, 518, 959] {
            assert_eq!(chess960_number(&chess960_position(n).unwrap()), Some(n));
        }
        let fen = "bbqnnrkr/pppppppp/8/8/4P3/8/PPPP1PPP/BBQNNRKR b HFhf - 0 1";
        let moved = Position::from_fen(fen, CastlingMode::Chess960).unwrap();
        assert_eq!(chess960_number(&moved), None);
    }
}
