//! The game loop: players take turns, the clock runs for the side to move, commands are
//! answered, every ending is announced, and the game is saved. `setup` builds the session
//! from the command line.

mod commands;
mod draw_offer;
mod editor;
mod keyboard;
mod setup;

use anyhow::{Context, Result};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use tempo_core::{clock::TimeControl, game::GameError, Color, Game, Move, Outcome, Position};
use tempo_notation::{san, san_line, PgnGame};

use crate::args::PlayArgs;
use crate::board_view::{BoardStyle, Highlights};
use crate::clock_view::shown_time;
use crate::describe::{
    claim_rule, claims_with_move, describe_outcome, either, eval_after_move, format_line, numbered_from,
};
use crate::input::{self, Input};
use crate::players::{EnginePlayer, Line, PlayerSpec, Thought};
use crate::save::{self, GameSlot, Record};
use crate::screen::{self, print_flush, wrap, PlayerView, Terminal, View};
use keyboard::{Keyboard, Timer};
use tempo_engine::Limits;

/// How often the clocks on screen are refreshed (and a flag fall noticed).
const TICK: Duration = Duration::from_millis(100);

/// What the game loop should do next.
enum Flow {
    Continue,
    Quit,
    /// Input ended (EOF): save what there is and leave quietly.
    Eof,
}

/// One side of the board.
struct Side {
    spec: PlayerSpec,
    engine: Option<EnginePlayer>,
    view: PlayerView,
}

impl Side {
    fn is_human(&self) -> bool {
        self.spec == PlayerSpec::Human
    }
}

/// The whole state of a game being played.
struct Session {
    game: Game,
    sides: [Side; 2],
    record: Record,
    /// The game as the file it was continued from holds it, written back with the moves
    /// played since; `None` for a new game.
    original: Option<PgnGame>,
    title: String,
    style: BoardStyle,
    flipped: bool,
    terminal: Option<Terminal>,
    /// Width of the scrolling transcript when there is no full-screen view: that of a small
    /// terminal (which then gets the narrow layout), else the full layout's.
    transcript_width: usize,
    messages: Vec<String>,
    keyboard: Keyboard,
    timer: Timer,
    think: Duration,
    depth: Option<u32>,
    chess960: bool,
    /// The built-in engine for hints, analysis and draw decisions, started on first use.
    analyst: Option<EnginePlayer>,
    /// The game's place in its file, and its unsaved PGN for the Ctrl-C handler; one lock,
    /// so that the handler never writes while a save is under way.
    snapshot: Arc<Mutex<Snapshot>>,
    /// Other files the game was saved in with `save FILE`, each holding it in one place.
    copies: Vec<GameSlot>,
    /// The PGN this session last wrote to (or read from) its file, so that EOF does not save
    /// the same game twice, yet does save moves played (or taken back) since.
    saved_pgn: Option<String>,
    /// The board changed without a move (take-back, flip): a transcript shows it again.
    dirty: bool,
    /// The last hint and the number of moves the game had when it was given: it is marked
    /// on the board until the position changes.
    hint: Option<(usize, Move)>,
    /// Engines' moves are announced with their evaluation (not with `--no-eval`).
    show_eval: bool,
    /// Rows the move list beside the board is scrolled back (`up`, `down`); a move brings
    /// the latest moves back.
    scroll: usize,
}

/// What the Ctrl-C handler saves, and where.
pub struct Snapshot {
    pub slot: GameSlot,
    /// The PGN of an unfinished game with at least one move that its file does not hold
    /// yet; `None` otherwise.
    pub unsaved: Option<String>,
}

/// Plays one game as `args` say. Returns the process exit code.
pub fn run(args: &PlayArgs) -> Result<i32> {
    let Some(mut session) = setup::session_from_args(args)? else {
        return Ok(0);
    };
    install_ctrl_c(interrupt(Arc::clone(&session.snapshot), session.style.colour.is_on()));
    let code = session.play();
    if code.is_err() {
        // Whatever went wrong (main reports it), the moves played so far are not lost.
        session.save_unfinished();
    }
    session.close_engines();
    code
}

/// What Ctrl-C does, whether the signal comes or the line editor reads the key: the unfinished
/// game is saved and the program leaves.
fn interrupt(snapshot: Arc<Mutex<Snapshot>>, colour: bool) -> impl Fn() + Send + 'static {
    move || {
        // The terminal as it was found: a signal may come while the line editor has it in raw
        // mode (nothing happens when it does not), and the handler exits the process.
        let _ = crossterm::terminal::disable_raw_mode();
        print_flush(if colour { "\x1b[0m\n" } else { "\n" });
        let mut snap = snapshot.lock().unwrap_or_else(PoisonError::into_inner);
        let Snapshot { slot, unsaved } = &mut *snap;
        match unsaved {
            Some(text) => match save::save_or_rescue(slot, text) {
                Ok(saved) => print_flush(&format!(
                    "Interrupted. The unfinished game is {}; continue it with: {}\n",
                    saved.describe(),
                    saved.resume
                )),
                Err(e) => last_resort(text, &e),
            },
            None => print_flush("Interrupted.\n"),
        }
        std::process::exit(130);
    }
}

fn install_ctrl_c(handler: impl Fn() + Send + 'static) {
    // Without a handler (e.g. another one is installed) Ctrl-C simply ends the process;
    // games are saved on every other way out.
    let _ = ctrlc::set_handler(handler);
}

/// The game could be saved nowhere: its PGN goes to the standard error, so that it is
/// still not lost.
fn last_resort(text: &str, error: &anyhow::Error) {
    eprintln!("The game could not be saved anywhere: {error:#}\nHere it is; copy it into a file:\n\n{text}");
}

impl Session {
    fn side(&self, color: Color) -> &Side {
        &self.sides[color.index()]
    }

    fn opponent_is_engine(&self, me: Color) -> bool {
        !self.side(!me).is_human()
    }

    fn pgn(&self) -> String {
        save::game_text(&self.game, &self.record, self.original.as_ref())
    }

    fn snapshot(&self) -> std::sync::MutexGuard<'_, Snapshot> {
        self.snapshot.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The file the game belongs in.
    fn save_path(&self) -> PathBuf {
        self.snapshot().slot.path().to_owned()
    }

    /// Whether the game has moves its file does not hold yet.
    fn unsaved(&self) -> Option<String> {
        let pgn = self.pgn();
        (!self.game.moves().is_empty() && self.saved_pgn.as_deref() != Some(pgn.as_str())).then_some(pgn)
    }

    fn update_snapshot(&self) {
        let unsaved = self.unsaved().filter(|_| self.game.outcome().is_none());
        self.snapshot().unsaved = unsaved;
    }

    /// Saves an unfinished game with moves in it, and says where.
    fn save_unfinished(&mut self) {
        if self.game.outcome().is_none() && self.unsaved().is_some() {
            if let Some(saved) = self.save_in_its_file() {
                eprintln!("The unfinished game is {}; continue it with: {}", saved.describe(), saved.resume);
            }
        }
    }

    fn close_engines(self) {
        for side in self.sides {
            if let Some(engine) = side.engine {
                engine.close();
            }
        }
    }

    /// Saves the game in its file, or elsewhere when that fails (see [`save::save_or_rescue`]);
    /// `None` when it could be saved nowhere, which has been said with the game's PGN.
    fn save_in_its_file(&mut self) -> Option<save::Saved> {
        let pgn = self.pgn();
        let result = save::save_or_rescue(&mut self.snapshot().slot, &pgn);
        match result {
            Ok(saved) => {
                self.saved_pgn = Some(pgn);
                self.update_snapshot();
                Some(saved)
            }
            Err(error) => {
                last_resort(&pgn, &error);
                None
            }
        }
    }

    /// Saves the game in `path` as well (the `save FILE` command): added to the file the
    /// first time, replaced in it after that.
    fn save_copy(&mut self, path: PathBuf) -> Result<PathBuf> {
        // `./game.pgn` and `game.pgn` are one file: the game is not added to it twice.
        let same_file = |a: &std::path::Path, b: &std::path::Path| {
            a == b || matches!((a.canonicalize(), b.canonicalize()), (Ok(a), Ok(b)) if a == b)
        };
        if same_file(&path, &self.save_path()) {
            return self.save_in_its_file().map(|saved| saved.path).context("the game could not be saved");
        }
        let pgn = self.pgn();
        let index = match self.copies.iter().position(|slot| same_file(slot.path(), &path)) {
            Some(index) => index,
            None => {
                self.copies.push(GameSlot::append_to(path.clone()));
                self.copies.len() - 1
            }
        };
        self.copies[index].save(&pgn)?;
        Ok(path)
    }

    // ---- output ----

    pub(super) fn san_moves(&self) -> Vec<String> {
        san_line(self.game.initial_position(), self.game.moves())
    }

    /// The screen: board, players, move list, then `status` and `messages` under it.
    fn screen_lines(&mut self, status: &[String], messages: &[String]) -> Vec<String> {
        for color in [Color::White, Color::Black] {
            let time = shown_time(self.game.clock(), color);
            self.sides[color.index()].view.time = time;
        }
        let pos = *self.game.position();
        let moves = self.san_moves();
        let start = self.game.initial_position();
        let view = View {
            title: &self.title,
            position: &pos,
            highlights: Highlights::of(&pos, self.game.moves().last().copied()).with_hint(self.current_hint()),
            style: self.style,
            flipped: self.flipped,
            players: [&self.sides[0].view, &self.sides[1].view],
            moves: &moves,
            first_move_number: start.fullmove_number(),
            black_first: start.turn() == Color::Black,
            scroll: self.scroll,
        };
        // A terminal wraps messages short of its last column (the cursor's); a transcript
        // leaves them to whatever shows it.
        let wrap_width = self.terminal.as_ref().map_or(usize::MAX, |t| t.width.saturating_sub(1));
        screen::screen_lines(&view, self.width(), wrap_width, status, messages)
    }

    /// The width the screen is laid out for.
    pub(super) fn width(&self) -> usize {
        self.terminal.as_ref().map_or(self.transcript_width, |t| t.width)
    }

    /// The hint for the position on the board, if one was asked for since it arose.
    fn current_hint(&self) -> Option<Move> {
        self.hint.filter(|&(plies, _)| plies == self.game.moves().len()).map(|(_, m)| m)
    }

    /// Shows the board and pending messages (the whole screen on a terminal; appended to the
    /// transcript otherwise).
    fn show(&mut self) {
        // The line editor gives the terminal back first: the screen is about to change under it.
        self.keyboard.cancel();
        if let Some(t) = &mut self.terminal {
            // Follow window resizes.
            if let Some((w, h)) = terminal_size::terminal_size() {
                t.width = w.0 as usize;
                t.height = h.0 as usize;
            }
        }
        let status = self.status_lines();
        let messages = std::mem::take(&mut self.messages);
        let lines = self.screen_lines(&status, &messages);
        match &mut self.terminal {
            Some(t) => t.redraw(&lines),
            None => {
                let mut text = lines.join("\n");
                text.push('\n');
                print_flush(&text);
            }
        }
    }

    /// A message: printed at once in a transcript; on a terminal, shown under the board at the
    /// next redraw (which clears the screen).
    fn say(&mut self, text: impl Into<String>) {
        let text = text.into();
        if self.terminal.is_some() {
            self.messages.push(text);
        } else {
            print_flush(&format!("{text}\n"));
        }
    }

    fn status_lines(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.game.outcome().is_some() {
            return out;
        }
        let pos = self.game.position();
        let turn = pos.turn();
        if pos.is_check() {
            out.push(format!("{} is in check.", if turn == Color::White { "White" } else { "Black" }));
        }
        if self.game.draw_offer() == Some(!turn) && self.side(turn).is_human() {
            out.push(format!(
                "{} offers a draw: type draw (or accept) to accept, decline, or just move.",
                self.side(!turn).view.name
            ));
        }
        if self.side(turn).is_human() {
            for claim in self.game.claimable_now() {
                out.push(format!("You may claim a draw by {}: type claim.", claim_rule(claim)));
            }
            for (claim, sans) in claims_with_move(&self.game) {
                let how = if let [one] = sans.as_slice() { format!("claim {one}") } else { "claim MOVE".to_owned() };
                out.push(format!(
                    "You may claim a draw by {} by announcing {}: type {how}.",
                    claim_rule(claim),
                    either(&sans)
                ));
            }
        }
        out
    }

    fn prompt(&self) -> String {
        let turn = self.game.position().turn();
        let side = if turn == Color::White { "White" } else { "Black" };
        let number = self.game.position().fullmove_number();
        let dots = if turn == Color::White { "." } else { "..." };
        format!("{side} to move, {} ({number}{dots}): ", self.side(turn).view.name)
    }

    fn tick_display(&mut self) {
        if self.terminal.is_some() {
            let lines = self.screen_lines(&[], &[]);
            if let Some(t) = &mut self.terminal {
                t.update_clocks(&lines);
            }
        }
    }

    // ---- the game ----

    fn play(&mut self) -> Result<i32> {
        loop {
            if let Some(outcome) = self.game.outcome() {
                return self.finish(outcome);
            }
            let turn = self.game.position().turn();
            let flow = if self.side(turn).is_human() { self.human_turn()? } else { self.engine_turn()? };
            match flow {
                Flow::Continue => {}
                Flow::Quit => return Ok(0),
                Flow::Eof => {
                    self.leave_on_eof()?;
                    return Ok(0);
                }
            }
        }
    }

    fn finish(&mut self, outcome: Outcome) -> Result<i32> {
        self.update_snapshot();
        let mut text = describe_outcome(&self.game, outcome);
        self.show();
        // The whole game once it is over: the panel beside the board showed its latest moves.
        if !self.game.moves().is_empty() {
            let width = self.terminal.as_ref().map_or(usize::MAX, |t| t.width.saturating_sub(1));
            let moves = wrap(&format!("Moves: {}", numbered_from(&self.game, 0)), width);
            text = format!("{}\n{text}", moves.join("\n"));
        }
        match self.save_in_its_file() {
            Some(saved) => print_flush(&format!("{text}\nThe game is {}.\n", saved.describe())),
            None => print_flush(&format!("{text}\n")),
        }
        Ok(0)
    }

    fn leave_on_eof(&mut self) -> Result<()> {
        print_flush("\n");
        if self.unsaved().is_none() {
            print_flush("End of input: leaving the game.\n");
            return Ok(());
        }
        if let Some(saved) = self.save_in_its_file() {
            print_flush(&format!(
                "End of input: the unfinished game is {}; continue it with: {}\n",
                saved.describe(),
                saved.resume
            ));
        }
        Ok(())
    }

    /// Charges the time spent so far to the side to move; the outcome if its flag fell.
    fn charge_time(&mut self) -> Option<Outcome> {
        // The fake timer charges its whole step when a move (or resignation) is made; it is
        // only called then, never on the display ticks.
        let elapsed = self.timer.fake.unwrap_or_else(|| self.timer.take());
        // Untimed games only keep the timer current.
        self.game.clock()?;
        self.game.tick(elapsed).ok().flatten()
    }

    /// Records a move, its time already charged by [`Session::charge_time`].
    fn record_move(&mut self, m: Move) -> Result<Option<Outcome>, GameError> {
        let outcome = self.game.play(m)?;
        self.scroll = 0;
        self.timer.restart();
        self.update_snapshot();
        Ok(outcome)
    }

    /// Says the move `m` made in `before`: numbered SAN, and for an engine its name and, unless
    /// `--no-eval`, its evaluation.
    fn announce_move(&mut self, before: &Position, m: Move) {
        let number = before.fullmove_number();
        let mover = before.turn();
        let dots = if mover == Color::White { "." } else { "..." };
        let text = format!("{}{dots} {}", number, san(before, m));
        let side = self.side(mover);
        let line = match &side.engine {
            None => text,
            Some(engine) => {
                let eval = engine.last_eval.filter(|_| self.show_eval).and_then(|e| eval_after_move(e, mover));
                let eval = eval.map_or(String::new(), |e| format!(" ({e})"));
                format!("{} plays {text}{eval}", side.view.name)
            }
        };
        self.messages.clear();
        self.say(line);
    }

    fn human_turn(&mut self) -> Result<Flow> {
        self.timer.restart();
        self.show();
        self.ask_for_a_move();
        loop {
            let line = match self.keyboard.next(TICK) {
                None => {
                    if self.timer.fake.is_none() {
                        if self.charge_time().is_some() {
                            // The flag fell while the player was typing: end the prompt line.
                            self.keyboard.cancel();
                            print_flush("\n");
                            return Ok(Flow::Continue);
                        }
                        self.tick_display();
                    }
                    continue;
                }
                Some(None) => return Ok(Flow::Eof),
                Some(Some(line)) => line,
            };
            if self.terminal.is_none() && !std::io::stdin().is_terminal() {
                // Echo piped input so that the transcript reads like a session.
                print_flush(&format!("{line}\n"));
            }
            let pos = *self.game.position();
            let me = pos.turn();
            let redraw = match input::read(&pos, &line) {
                Input::Empty => false,
                Input::Invalid(why) => {
                    self.say(why);
                    false
                }
                Input::Move(m) => {
                    if self.charge_time().is_some() {
                        return Ok(Flow::Continue);
                    }
                    self.announce_move(&pos, m);
                    self.record_move(m).context("playing the move")?;
                    return Ok(Flow::Continue);
                }
                Input::Command(cmd) => match self.command(cmd, me)? {
                    Some(flow) => return Ok(flow),
                    None => true,
                },
            };
            if self.game.outcome().is_some() {
                return Ok(Flow::Continue);
            }
            // A terminal gets the whole screen again (messages under the board); a transcript
            // gets the board again only when it changed (take-back, flip).
            if self.terminal.is_some() || (redraw && self.dirty) {
                self.show();
            }
            self.dirty = false;
            self.ask_for_a_move();
        }
    }

    fn ask_for_a_move(&mut self) {
        let prompt = self.prompt();
        self.keyboard.ask(&prompt, Some(self.game.position()));
    }

    fn think_limits(&self) -> Limits {
        let clock = self.game.clock().filter(|c| c.control().is_timed());
        // A fixed depth stays within a real clock, but a fake clock must not make the search
        // depend on how fast this machine is.
        if let Some(depth) = self.depth {
            if clock.is_none() || self.timer.fake.is_some() {
                return Limits { depth: Some(depth), ..Limits::default() };
            }
        }
        let Some(clock) = clock else {
            return Limits { movetime: Some(self.think), ..Limits::default() };
        };
        let mut limits = if let TimeControl::MoveTime(limit) = clock.control() {
            // Leave a margin for the round trip and for a busy machine (a search thread that
            // waits for a core overshoots), or the engine would lose on time by design: a
            // tenth of the limit, at least 50 ms, at most 300 ms, never more than half.
            let margin = (*limit / 10).clamp(Duration::from_millis(50), Duration::from_millis(300)).min(*limit / 2);
            Limits { movetime: Some(limit.saturating_sub(margin)), ..Limits::default() }
        } else {
            Limits::from_clock(clock)
        };
        limits.depth = self.depth;
        limits
    }

    fn engine_turn(&mut self) -> Result<Flow> {
        self.timer.restart();
        let color = self.game.position().turn();
        let limits = self.think_limits();
        if self.terminal.is_some() {
            self.show();
            // With the line editor, the player may type meanwhile (a move ahead, or quit).
            let prompt = format!("{} is thinking... ", self.side(color).view.name);
            self.keyboard.ask(&prompt, None);
        }
        let name = self.side(color).view.name.clone();
        // Engines do not claim draws themselves, so the program claims for them as a GUI does:
        // a repetition already on the board when the engine is not better.
        let last_eval = self.side(color).engine.as_ref().and_then(|e| e.last_eval);
        if !self.game.claimable_now().is_empty() && last_eval.is_some_and(|e| e.centipawns() <= 0) {
            self.say(format!("{name} claims a draw."));
            self.game.claim_draw().context("claiming a draw")?;
            return Ok(Flow::Continue);
        }
        let game = self.game.clone();
        let engine = self.sides[color.index()].engine.as_mut().context("an engine plays this side")?;
        let started = engine.start(&game, &limits);
        loop {
            let engine = self.sides[color.index()].engine.as_mut().context("an engine plays this side")?;
            let news = match &started {
                Ok(()) => engine.poll(TICK),
                Err(e) => Err(anyhow::anyhow!("{e:#}")),
            };
            match news {
                Ok(Some(Thought::Done(Some(m)))) => {
                    let pos = *self.game.position();
                    if self.charge_time().is_some() {
                        return Ok(Flow::Continue);
                    }
                    self.announce_move(&pos, m);
                    // A move the engine chose into a claimable draw is a draw it wants: its
                    // search scores repetitions and the fifty-move rule as draws.
                    if !self.game.claimable_with_move(m).unwrap_or_default().is_empty() {
                        self.say(format!("{name} claims a draw with this move."));
                        self.game.claim_draw_with_move(m).context("claiming a draw")?;
                        self.update_snapshot();
                    } else {
                        self.record_move(m).context("playing the engine's move")?;
                    }
                    return Ok(Flow::Continue);
                }
                Ok(Some(Thought::Info(line))) => self.show_thinking(&name, &line),
                Ok(None) => {}
                Ok(Some(Thought::Done(None))) => {
                    return self.forfeit(color, "it answered no move in a position that has one".to_owned())
                }
                Err(e) => return self.forfeit(color, format!("{e:#}")),
            }
            if self.timer.fake.is_none() && self.game.clock().is_some() {
                if self.charge_time().is_some() {
                    if let Some(engine) = self.sides[color.index()].engine.as_mut() {
                        engine.abandon();
                    }
                    return Ok(Flow::Continue);
                }
                self.tick_display();
            }
            if self.wants_to_leave() {
                if let Some(engine) = self.sides[color.index()].engine.as_mut() {
                    engine.abandon();
                }
                // The cursor is still on the "thinking" line.
                print_flush("\n");
                return self.quit();
            }
        }
    }

    /// On a terminal, `quit` typed while an engine thinks is answered at once (the only way
    /// out of an engine-only game besides Ctrl-C); anything else typed meanwhile waits for the
    /// human's turn, so that a move can be typed ahead. A transcript is read strictly in order.
    fn wants_to_leave(&mut self) -> bool {
        if self.terminal.is_none() {
            return false;
        }
        while let Some(line) = self.keyboard.try_next() {
            if let Some(text) = &line {
                if matches!(input::read(self.game.position(), text), Input::Command(input::Command::Quit)) {
                    return true;
                }
            }
            self.keyboard.requeue(line);
        }
        false
    }
}

impl Session {
    /// An engine that crashed, hung or answered nonsense cannot go on. The game is not
    /// decided for it (a broken program is no player who resigned, and the person may want
    /// to finish the game against a working one): it is saved unfinished, and the session
    /// ends saying how to continue it.
    fn forfeit(&mut self, color: Color, why: String) -> Result<Flow> {
        let name = self.side(color).view.name.clone();
        self.say(format!("{name} failed: {why}. The game stops here, unfinished."));
        if self.terminal.is_some() {
            self.show();
        }
        self.save_unfinished();
        Ok(Flow::Quit)
    }

    /// On a terminal where only engines play, the spectator sees the main line as it grows (a
    /// player facing the engine would only be distracted, or helped).
    fn show_thinking(&self, name: &str, line: &Line) {
        let Some(t) = &self.terminal else { return };
        if line.multipv != 1 || self.sides.iter().any(Side::is_human) {
            return;
        }
        let text = format!("{name} thinking: {}", format_line(self.game.position(), line, 8).trim_start());
        let text: String = text.chars().take(t.width.saturating_sub(1)).collect();
        print_flush(&format!("\r\x1b[2K{text}"));
    }
}
