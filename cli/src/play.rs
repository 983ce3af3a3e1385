//! The game loop: players take turns, the clock runs for the side to move, commands are
//! answered, every ending is announced, and the game is saved.

use anyhow::{bail, Context, Result};
use std::collections::VecDeque;
use std::io::{BufRead, IsTerminal};
use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};
use tempo_core::{ClaimResult, Color, DrawClaim, Game, GameError, Move, Outcome, Position, Termination, TimeControl};
use tempo_notation::{san, san_line};

use crate::args::PlayArgs;
use crate::board_view::{BoardStyle, Highlights};
use crate::clock_view::{describe_tc, increment_for, parse_movetime, parse_tc, shown_time};
use crate::input::{self, Command, Input};
use crate::players::{EnginePlayer, Line, PlayerSpec, ThinkLimits, Thought};
use crate::save::{self, Record};
use crate::screen::{compose, print_flush, PlayerView, Terminal, View, FULL_WIDTH};

/// How often the clocks on screen are refreshed (and a flag fall noticed).
const TICK: Duration = Duration::from_millis(100);
/// Smallest terminal for the full screen; below it the game scrolls like a transcript.
const MIN_HEIGHT: usize = 20;

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

/// Lines typed by the user, read on a thread so that the clock keeps running while waiting.
struct Keyboard {
    rx: Receiver<Option<String>>,
    queued: VecDeque<Option<String>>,
}

impl Keyboard {
    fn spawn() -> Keyboard {
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let stdin = std::io::stdin();
            for line in stdin.lock().lines() {
                let Ok(line) = line else { break };
                if tx.send(Some(line)).is_err() {
                    return;
                }
            }
            let _ = tx.send(None);
        });
        Keyboard { rx, queued: VecDeque::new() }
    }

    /// The next line (`Some(None)` at end of input), waiting at most `wait`.
    fn next(&mut self, wait: Duration) -> Option<Option<String>> {
        if let Some(line) = self.queued.pop_front() {
            return Some(line);
        }
        match self.rx.recv_timeout(wait) {
            Ok(line) => Some(line),
            Err(RecvTimeoutError::Timeout) => None,
            // The reader thread only ends after sending `None`; treat a lost thread as EOF.
            Err(RecvTimeoutError::Disconnected) => Some(None),
        }
    }
}

/// Time spent on the move in progress: the wall clock, or a fixed charge per move (testing).
struct Timer {
    fake: Option<Duration>,
    last: Instant,
}

impl Timer {
    fn restart(&mut self) {
        self.last = Instant::now();
    }

    /// Time since the last charge, now charged.
    fn take(&mut self) -> Duration {
        let now = Instant::now();
        let elapsed = now - self.last;
        self.last = now;
        if self.fake.is_some() {
            Duration::ZERO
        } else {
            elapsed
        }
    }
}

/// The whole state of a game being played.
struct Session {
    game: Game,
    sides: [Side; 2],
    record: Record,
    save_path: PathBuf,
    title: String,
    style: BoardStyle,
    flipped: bool,
    terminal: Option<Terminal>,
    messages: Vec<String>,
    keyboard: Keyboard,
    timer: Timer,
    think: Duration,
    depth: Option<u32>,
    chess960: bool,
    /// The built-in engine for hints, analysis and draw decisions, started on first use.
    analyst: Option<EnginePlayer>,
    /// The PGN of the game so far, for the Ctrl-C handler.
    snapshot: Arc<Mutex<Snapshot>>,
    /// Whether this session saved the game already (so that EOF does not save it twice).
    saved: bool,
    /// The board changed without a move (take-back, flip): a transcript shows it again.
    dirty: bool,
}

/// What the Ctrl-C handler saves.
#[derive(Default)]
pub struct Snapshot {
    pub path: PathBuf,
    /// The PGN of an unfinished game with at least one move; `None` otherwise.
    pub unfinished: Option<String>,
}

fn player_name(spec: &PlayerSpec, engine: Option<&EnginePlayer>, color: Color, humans: usize) -> String {
    match spec {
        PlayerSpec::Human if humans == 2 => format!("Player {}", color.fold(1, 2)),
        PlayerSpec::Human => "You".to_owned(),
        _ => engine.map_or_else(|| "Engine".to_owned(), |e| e.name.clone()),
    }
}

/// A Chess960 start position by its number (0..959), as Scharnagl numbered them.
fn chess960_position(number: u32) -> Result<Position> {
    if number > 959 {
        bail!("Chess960 positions are numbered 0 to 959, not {number}");
    }
    let mut rank: [Option<char>; 8] = [None; 8];
    let mut n = number as usize;
    let (b1, rest) = (n % 4, n / 4);
    rank[b1 * 2 + 1] = Some('b');
    n = rest;
    let (b2, rest) = (n % 4, n / 4);
    rank[b2 * 2] = Some('b');
    n = rest;
    let (q, rest) = (n % 6, n / 6);
    let free = |rank: &[Option<char>; 8]| (0..8).filter(|&i| rank[i].is_none()).collect::<Vec<_>>();
    rank[free(&rank)[q]] = Some('q');
    let knights = [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)][rest];
    let empty = free(&rank);
    rank[empty[knights.0]] = Some('n');
    rank[empty[knights.1]] = Some('n');
    for (slot, piece) in free(&rank).into_iter().zip(['r', 'k', 'r']) {
        rank[slot] = Some(piece);
    }
    let black: String = rank.iter().map(|c| c.unwrap_or('?')).collect();
    let fen = format!("{black}/pppppppp/8/8/8/8/PPPPPPPP/{} w KQkq - 0 1", black.to_ascii_uppercase());
    Position::from_fen_960(&fen).with_context(|| format!("Chess960 position {number} ({fen})"))
}

fn random_below(n: u32) -> u32 {
    // Enough randomness to pick an opening setup; no need for a random-number crate.
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
    let mixed = u64::from(nanos).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ u64::from(std::process::id());
    (mixed % u64::from(n)) as u32
}

fn use_colour(args: &PlayArgs, terminal: bool) -> bool {
    terminal && !args.no_color && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// Plays one game as `args` say. Returns the process exit code.
pub fn run(args: &PlayArgs) -> Result<i32> {
    let white = PlayerSpec::parse(&args.white, args.level).context("--white")?;
    let black = PlayerSpec::parse(&args.black, args.level).context("--black")?;
    let control = match (&args.tc, args.movetime) {
        (Some(tc), _) => Some(parse_tc(tc)?),
        (None, Some(secs)) => Some(parse_movetime(secs)?),
        (None, None) => None,
    };
    if !args.think.is_finite() || args.think <= 0.0 || args.think > 86_400.0 {
        bail!("--think must be a positive number of seconds");
    }

    let (date, time, stamp) = save::now_stamp();
    let mut record = Record { date, time, ..Record::default() };
    let mut resumed_names = (None, None);
    let game = if let Some(path) = &args.pgn {
        let loaded = save::load(path, control.clone())?;
        if let Some(result) = loaded.result {
            println!("{}", crate::show::describe_loaded(&loaded.game, result));
            bail!("the game in {} is already over ({result}); nothing to continue", path.display());
        }
        if let Some(outcome) = loaded.game.outcome() {
            println!("The game in {} is over: {}", path.display(), describe_outcome(&loaded.game, outcome));
            return Ok(0);
        }
        resumed_names = (loaded.white, loaded.black);
        loaded.game
    } else {
        let start = if let Some(fen) = &args.fen {
            let fen = fen.trim();
            Position::from_fen(fen)
                .or_else(|e| Position::from_fen_960(fen).map_err(|_| e))
                .with_context(|| format!("invalid --fen {fen:?}"))?
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
        match control.clone() {
            Some(tc) => Game::with_time_control(start, tc),
            None => Game::new(start),
        }
    };
    let chess960 = game.initial_position().castling_mode() == tempo_core::CastlingMode::Chess960;

    let specs = [white, black];
    let humans = specs.iter().filter(|s| **s == PlayerSpec::Human).count();
    let mut sides = Vec::with_capacity(2);
    for (i, spec) in specs.into_iter().enumerate() {
        let color = if i == 0 { Color::White } else { Color::Black };
        let engine = match &spec {
            PlayerSpec::Human => None,
            PlayerSpec::Builtin(level) => Some(EnginePlayer::builtin(*level, chess960)?),
            PlayerSpec::Uci(cmd) => Some(EnginePlayer::uci(cmd, chess960)?),
        };
        let mut name = player_name(&spec, engine.as_ref(), color, humans);
        // A resumed game keeps the names of the humans who started it.
        let previous = if i == 0 { &resumed_names.0 } else { &resumed_names.1 };
        if let (PlayerSpec::Human, Some(prev)) = (&spec, previous) {
            if !prev.is_empty() && prev != "?" {
                name.clone_from(prev);
            }
        }
        sides.push(Side { spec, engine, view: PlayerView { name, time: None } });
    }
    let black_side = sides.pop().context("two sides")?;
    let white_side = sides.pop().context("two sides")?;
    record.white = white_side.view.name.clone();
    record.black = black_side.view.name.clone();

    let stdout_terminal = std::io::stdout().is_terminal();
    let size = terminal_size::terminal_size().map(|(w, h)| (w.0 as usize, h.0 as usize));
    let mut notes = Vec::new();
    let terminal = match (stdout_terminal, size) {
        (true, Some((w, h))) if w >= FULL_WIDTH && h >= MIN_HEIGHT => Some(Terminal::new(w, h)),
        (true, Some((w, h))) => {
            notes.push(format!(
                "This terminal is {w}x{h}; the full board view needs {FULL_WIDTH}x{MIN_HEIGHT}, so the game scrolls instead."
            ));
            None
        }
        _ => None,
    };
    let style = BoardStyle { unicode: !args.ascii, colour: use_colour(args, stdout_terminal) };
    // The human's side at the bottom; Black's side when Black is the only human.
    let flipped = (white_side.spec != PlayerSpec::Human && black_side.spec == PlayerSpec::Human) ^ args.flip;
    let tc_text = game.clock().map_or_else(|| "no clock".to_owned(), |c| describe_tc(c.control()));
    let title = format!("Tempo  {} (White) v {} (Black)  {tc_text}", white_side.view.name, black_side.view.name);
    let save_path = args.save.clone().or_else(|| args.pgn.clone()).unwrap_or_else(|| save::default_path(&stamp));

    let snapshot = Arc::new(Mutex::new(Snapshot { path: save_path.clone(), unfinished: None }));
    install_ctrl_c(Arc::clone(&snapshot));

    let mut session = Session {
        game,
        sides: [white_side, black_side],
        record,
        save_path,
        title,
        style,
        flipped,
        terminal,
        messages: notes,
        keyboard: Keyboard::spawn(),
        timer: Timer { fake: args.fake_move_time.map(Duration::from_millis), last: Instant::now() },
        think: Duration::from_secs_f64(args.think),
        depth: args.depth,
        chess960,
        analyst: None,
        snapshot,
        saved: false,
        dirty: false,
    };
    if session.sides.iter().any(Side::is_human) {
        session.messages.push("Type your move (e4, Nf3, O-O...) or help for the commands.".to_owned());
    }
    session.update_snapshot();
    let code = session.play();
    if code.is_err() {
        // Whatever went wrong (main reports it), the moves played so far are not lost.
        if session.game.outcome().is_none() && !session.game.moves().is_empty() {
            let path = session.save_path.clone();
            if session.save_to(&path).is_ok() {
                eprintln!(
                    "The unfinished game is saved in {}; continue it with: tempo --pgn {}",
                    path.display(),
                    path.display()
                );
            }
        }
    }
    for side in session.sides {
        if let Some(engine) = side.engine {
            engine.close();
        }
    }
    code
}

fn install_ctrl_c(snapshot: Arc<Mutex<Snapshot>>) {
    let handler = move || {
        // Restore the terminal's colours first: the handler exits the process.
        print_flush("\x1b[0m\n");
        let snap = snapshot.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(text) = &snap.unfinished {
            match save::write_file(&snap.path, text) {
                Ok(()) => println!(
                    "Interrupted. The unfinished game is saved in {}; continue it with: tempo --pgn {}",
                    snap.path.display(),
                    snap.path.display()
                ),
                Err(e) => eprintln!("Interrupted, and the game could not be saved: {e:#}"),
            }
        } else {
            println!("Interrupted.");
        }
        std::process::exit(130);
    };
    // Without a handler (e.g. another one is installed) Ctrl-C simply ends the process;
    // games are saved on every other way out.
    let _ = ctrlc::set_handler(handler);
}

/// The sentence announcing how the game ended, with its result.
pub fn describe_outcome(game: &Game, outcome: Outcome) -> String {
    let name = |c: Color| if c == Color::White { "White" } else { "Black" };
    let winner = outcome.result.winner();
    let text = match (outcome.termination, winner) {
        (Termination::Checkmate, Some(w)) => format!("Checkmate: {} wins", name(w)),
        (Termination::Stalemate, _) => "Stalemate: draw".to_owned(),
        (Termination::InsufficientMaterial, _) => "Draw: neither side has the material to checkmate".to_owned(),
        (Termination::FivefoldRepetition, _) => "Draw by fivefold repetition".to_owned(),
        (Termination::SeventyFiveMoves, _) => "Draw by the seventy-five-move rule".to_owned(),
        (Termination::ThreefoldRepetition, _) => "Draw by threefold repetition (claimed)".to_owned(),
        (Termination::FiftyMoves, _) => "Draw by the fifty-move rule (claimed)".to_owned(),
        (Termination::Agreement, _) => "Draw by agreement".to_owned(),
        (Termination::Resignation, Some(w)) => format!("{} resigns: {} wins", name(!w), name(w)),
        (Termination::TimeForfeit, Some(w)) => format!("{} lost on time: {} wins", name(!w), name(w)),
        (Termination::TimeoutVsInsufficientMaterial, _) => {
            let flagged = game.clock().and_then(|c| c.flagged()).unwrap_or(game.position().turn());
            format!("{}'s flag fell, but {} has no material to checkmate: draw", name(flagged), name(!flagged))
        }
        (termination, _) => format!("Game over: {termination}"),
    };
    format!("{text} ({})", outcome.result)
}

impl Session {
    fn side(&self, color: Color) -> &Side {
        &self.sides[color.index()]
    }

    fn opponent_is_engine(&self, me: Color) -> bool {
        !self.side(!me).is_human()
    }

    fn pgn(&self) -> String {
        save::pgn_text(&self.game, &self.record)
    }

    fn update_snapshot(&self) {
        let unfinished = (self.game.outcome().is_none() && !self.game.moves().is_empty()).then(|| self.pgn());
        self.snapshot.lock().unwrap_or_else(PoisonError::into_inner).unfinished = unfinished;
    }

    fn save_to(&mut self, path: &PathBuf) -> Result<()> {
        save::write_file(path, &self.pgn())?;
        if *path == self.save_path {
            self.saved = true;
        }
        Ok(())
    }

    // ---- output ----

    fn san_moves(&self) -> Vec<String> {
        san_line(self.game.initial_position(), self.game.moves())
    }

    fn screen_lines(&mut self) -> Vec<String> {
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
            highlights: Highlights::of(&pos, self.game.moves().last().copied()),
            style: self.style,
            flipped: self.flipped,
            players: [&self.sides[0].view, &self.sides[1].view],
            moves: &moves,
            first_move_number: start.fullmove_number(),
            black_first: start.turn() == Color::Black,
        };
        let width = self.terminal.as_ref().map_or(FULL_WIDTH, |t| t.width);
        compose(&view, width)
    }

    /// Shows the board and pending messages (the whole screen on a terminal; appended to the
    /// transcript otherwise).
    fn show(&mut self) {
        if let Some(t) = &mut self.terminal {
            // Follow window resizes.
            if let Some((w, h)) = terminal_size::terminal_size() {
                t.width = w.0 as usize;
                t.height = h.0 as usize;
            }
        }
        let mut lines = self.screen_lines();
        lines.push(String::new());
        lines.append(&mut self.status_lines());
        lines.append(&mut self.messages);
        match &mut self.terminal {
            Some(t) => t.redraw(&lines),
            None => {
                let mut text = lines.join("\n");
                text.push('\n');
                print_flush(&text);
            }
        }
    }

    /// Messages that go without saying in the transcript but not on a fresh screen.
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
            for claim in self.game.claimable() {
                let what = match claim {
                    DrawClaim::ThreefoldRepetition => "threefold repetition",
                    DrawClaim::FiftyMoves => "the fifty-move rule",
                };
                out.push(format!("You may claim a draw by {what}: type claim."));
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
            let lines = self.screen_lines();
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
        let text = describe_outcome(&self.game, outcome);
        self.show();
        let path = self.save_path.clone();
        self.save_to(&path)?;
        print_flush(&format!("{text}\nThe game is saved in {}.\n", path.display()));
        Ok(0)
    }

    fn leave_on_eof(&mut self) -> Result<()> {
        print_flush("\n");
        if self.game.moves().is_empty() || self.saved {
            println!("End of input: leaving the game.");
            return Ok(());
        }
        let path = self.save_path.clone();
        self.save_to(&path)?;
        println!(
            "End of input: the unfinished game is saved in {}; continue it with: tempo --pgn {}",
            path.display(),
            path.display()
        );
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
        self.timer.restart();
        self.update_snapshot();
        Ok(outcome)
    }

    fn announce_move(&mut self, before: &Position, m: Move) {
        let number = before.fullmove_number();
        let dots = if before.turn() == Color::White { "." } else { "..." };
        let text = format!("{}{dots} {}", number, san(before, m));
        let name = self.side(before.turn()).view.name.clone();
        let line = if self.side(before.turn()).is_human() { text } else { format!("{name} plays {text}") };
        self.messages.clear();
        self.say(line);
    }

    fn human_turn(&mut self) -> Result<Flow> {
        self.timer.restart();
        self.show();
        print_flush(&self.prompt());
        loop {
            let line = match self.keyboard.next(TICK) {
                None => {
                    if self.timer.fake.is_none() {
                        if let Some(_flagged) = self.charge_time() {
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
            print_flush(&self.prompt());
        }
    }

    /// Answers a command; `Some(flow)` when the turn is over.
    fn command(&mut self, cmd: Command, me: Color) -> Result<Option<Flow>> {
        match cmd {
            Command::Help => self.say(input::HELP),
            Command::Moves => {
                let moves = input::legal_moves_san(self.game.position());
                self.say(format!("Legal moves ({}): {}", moves.len(), moves.join(" ")));
            }
            Command::Fen => self.say(self.game.position().fen()),
            Command::Pgn => self.say(self.pgn().trim_end().to_owned()),
            Command::Flip => {
                self.flipped = !self.flipped;
                self.dirty = true;
            }
            Command::Save(path) => {
                let path = path.map_or_else(|| self.save_path.clone(), PathBuf::from);
                match self.save_to(&path) {
                    Ok(()) => self.say(format!("Saved in {}.", path.display())),
                    Err(e) => self.say(format!("Not saved: {e:#}")),
                }
            }
            Command::Undo => self.undo()?,
            Command::Hint => self.hint()?,
            Command::Analyze => self.analyze()?,
            Command::Draw => self.offer_draw(me)?,
            Command::Accept => match self.game.accept_draw(me) {
                Ok(_) => return Ok(Some(Flow::Continue)),
                Err(_) => self.say("There is no draw offer to accept."),
            },
            Command::Decline => match self.game.decline_draw(me) {
                Ok(()) => self.say("Draw offer declined."),
                Err(_) => self.say("There is no draw offer to decline."),
            },
            Command::Claim(with_move) => return self.claim(with_move),
            Command::Resign => {
                self.charge_time();
                self.game.resign(me).context("resigning")?;
                return Ok(Some(Flow::Continue));
            }
            Command::Quit => return self.quit().map(Some),
        }
        self.update_snapshot();
        Ok(None)
    }

    fn undo(&mut self) -> Result<()> {
        // Take back until a human's move is undone, so that a human is to move again (against
        // an engine: its reply and your move).
        let mut plies = 0u32;
        let mut probe = self.game.initial_position().turn();
        let mut human_plies = Vec::new();
        for (i, _) in self.game.moves().iter().enumerate() {
            if self.side(probe).is_human() {
                human_plies.push(i);
            }
            probe = !probe;
        }
        let Some(&last_human) = human_plies.last() else {
            self.say("There is no move of yours to take back.");
            return Ok(());
        };
        let taken = numbered_from(&self.game, last_human);
        while self.game.moves().len() > last_human {
            self.game.undo().context("taking back")?;
            plies += 1;
        }
        self.timer.restart();
        self.dirty = true;
        self.messages.clear();
        let what = if plies == 1 { "move" } else { "moves" };
        self.say(format!("Took back {plies} {what}: {taken}"));
        self.update_snapshot();
        Ok(())
    }

    fn think_limits(&self, color: Color) -> ThinkLimits {
        let clock = self.game.clock().filter(|c| c.control().is_timed());
        // A fixed depth stays within a real clock, but a fake clock must not make the search
        // depend on how fast this machine is.
        if let Some(depth) = self.depth {
            if clock.is_none() || self.timer.fake.is_some() {
                return ThinkLimits { depth: Some(depth), ..ThinkLimits::default() };
            }
        }
        let Some(clock) = clock else {
            return ThinkLimits { movetime: Some(self.think), ..ThinkLimits::default() };
        };
        let mut limits = if let TimeControl::MoveTime(limit) = clock.control() {
            // Leave a margin for the round trip, or the engine would lose on time by design.
            let margin = (*limit / 20).min(Duration::from_millis(200));
            ThinkLimits { movetime: Some(limit.saturating_sub(margin)), ..ThinkLimits::default() }
        } else {
            ThinkLimits {
                wtime: Some(clock.remaining(Color::White)),
                btime: Some(clock.remaining(Color::Black)),
                winc: Some(increment_for(clock, Color::White)),
                binc: Some(increment_for(clock, Color::Black)),
                movestogo: clock.moves_to_go(color),
                ..ThinkLimits::default()
            }
        };
        limits.depth = self.depth;
        limits
    }

    /// Limits for hints, analysis and draw decisions: quick, and reproducible with --depth.
    fn helper_limits(&self, scale: u32) -> ThinkLimits {
        match self.depth {
            Some(d) => ThinkLimits { depth: Some(d), ..ThinkLimits::default() },
            None => {
                ThinkLimits { movetime: Some(self.think.min(Duration::from_secs(2)) * scale), ..ThinkLimits::default() }
            }
        }
    }

    fn analyst(&mut self, lines: u32) -> Result<&mut EnginePlayer> {
        if self.analyst.is_none() {
            self.analyst = Some(EnginePlayer::analyst(lines, 1, self.chess960)?);
        }
        self.analyst.as_mut().context("the analysis engine")
    }

    fn hint(&mut self) -> Result<()> {
        let limits = self.helper_limits(1);
        let game = self.game.clone();
        let (lines, best) = self.analyst(1)?.search(&game, &limits)?;
        let pos = game.position();
        match best {
            Some(m) => {
                let eval = lines.first().map_or(String::new(), |l| format!(" ({})", l.eval.text()));
                self.say(format!("Hint: {}{eval}", san(pos, m)));
            }
            None => self.say("No hint: there is no legal move."),
        }
        Ok(())
    }

    fn analyze(&mut self) -> Result<()> {
        let limits = self.helper_limits(2);
        let game = self.game.clone();
        // A dedicated three-line analyst: the hint engine searches one line.
        let mut analyst = EnginePlayer::analyst(3, 1, self.chess960)?;
        let (lines, _) = analyst.search(&game, &limits)?;
        let pos = *game.position();
        if lines.is_empty() {
            self.say("Nothing to analyse: there is no legal move.");
        }
        for line in lines {
            self.say(format_line(&pos, &line, 10));
        }
        Ok(())
    }

    fn offer_draw(&mut self, me: Color) -> Result<()> {
        if self.game.draw_offer() == Some(!me) {
            self.game.accept_draw(me).context("accepting the draw")?;
            return Ok(());
        }
        self.game.offer_draw(me).context("offering a draw")?;
        if !self.opponent_is_engine(me) {
            self.say(format!("Draw offered; {} may accept it or play on.", self.side(!me).view.name));
            return Ok(());
        }
        let accept = self.engine_accepts_draw(!me)?;
        let name = self.side(!me).view.name.clone();
        if accept {
            self.game.accept_draw(!me).context("accepting the draw")?;
        } else {
            self.game.decline_draw(!me).context("declining the draw")?;
            self.say(format!("{name} declines the draw offer."));
        }
        Ok(())
    }

    /// The engine's answer to a draw offer: yes when its position is no better than level and
    /// the game has gone on a while, or when it stands clearly worse; never when winning.
    fn engine_accepts_draw(&mut self, engine_color: Color) -> Result<bool> {
        let game = self.game.clone();
        // The engine's own judgement from its last search, when it has made one; otherwise the
        // built-in engine judges the position for it.
        let own = self.side(engine_color).engine.as_ref().and_then(|e| e.last_eval);
        let eval = match own {
            Some(eval) => eval,
            None => {
                let limits = self.helper_limits(1);
                let (lines, _) = self.analyst(1)?.search(&game, &limits)?;
                let Some(eval) = lines.first().map(|l| l.eval) else { return Ok(true) };
                // The search is from the side to move (the offerer); the engine sees the negation.
                if game.position().turn() == engine_color {
                    eval
                } else {
                    eval.negate()
                }
            }
        };
        let cp = eval.centipawns();
        let moves_played = game.moves().len();
        Ok(cp <= -150 || (cp <= 25 && moves_played >= 40) || !game.claimable().is_empty())
    }

    fn claim(&mut self, with_move: Option<String>) -> Result<Option<Flow>> {
        let Some(text) = with_move else {
            return match self.game.claim_draw() {
                Ok(_) => Ok(Some(Flow::Continue)),
                Err(GameError::NoDrawToClaim { .. }) => {
                    let count = self.game.repetition_count();
                    let halfmoves = self.game.position().halfmove_clock();
                    self.say(format!(
                        "No draw to claim: this position has occurred {count} time{} (3 needed), and {halfmoves} \
                         half-move{} have been played without a capture or pawn move (100 needed). To claim with the \
                         move that produces it, type claim MOVE.",
                        if count == 1 { "" } else { "s" },
                        if halfmoves == 1 { "" } else { "s" },
                    ));
                    Ok(None)
                }
                Err(e) => Err(e).context("claiming a draw"),
            };
        };
        let pos = *self.game.position();
        let m = match input::read_move(&pos, &text) {
            Ok(m) => m,
            Err(why) => {
                self.say(why);
                return Ok(None);
            }
        };
        if self.charge_time().is_some() {
            return Ok(Some(Flow::Continue));
        }
        self.announce_move(&pos, m);
        // The move is played whether or not the claim holds (FIDE 9.5.2); the game decides.
        let verdict = self.game.claim_draw_with_move(m).context("claiming a draw")?;
        self.timer.restart();
        if verdict == ClaimResult::Rejected && self.game.outcome().is_none() {
            self.say(
                "Claim refused: that move repeats no position a third time and the fifty-move rule does not apply. \
                 The move stands (FIDE article 9.5).",
            );
        }
        self.update_snapshot();
        Ok(Some(Flow::Continue))
    }

    fn quit(&mut self) -> Result<Flow> {
        if self.game.moves().is_empty() {
            return Ok(Flow::Quit);
        }
        let path = self.save_path.clone();
        print_flush(&format!("Save the unfinished game in {}? [Y/n] ", path.display()));
        let answer = loop {
            match self.keyboard.next(Duration::from_secs(3600)) {
                Some(Some(line)) => break Some(line),
                Some(None) => break None,
                None => {}
            }
        };
        let save = answer.as_deref().is_none_or(|a| !a.trim().to_ascii_lowercase().starts_with('n'));
        if answer.is_some() && self.terminal.is_none() && !std::io::stdin().is_terminal() {
            print_flush(&format!("{}\n", answer.as_deref().unwrap_or("")));
        }
        if save {
            self.save_to(&path)?;
            println!("Saved in {}; continue it with: tempo --pgn {}", path.display(), path.display());
        } else {
            println!("Not saved.");
        }
        Ok(Flow::Quit)
    }

    fn engine_turn(&mut self) -> Result<Flow> {
        self.timer.restart();
        let color = self.game.position().turn();
        let limits = self.think_limits(color);
        if self.terminal.is_some() {
            self.show();
            print_flush(&format!("{} is thinking...", self.side(color).view.name));
        }
        let name = self.side(color).view.name.clone();
        // Engines do not claim draws themselves, so the program claims for them as a GUI does:
        // a repetition already on the board when the engine is not better.
        let last_eval = self.side(color).engine.as_ref().and_then(|e| e.last_eval);
        if !self.game.claimable().is_empty() && last_eval.is_some_and(|e| e.centipawns() <= 0) {
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
                Ok(Some(Thought::Done(None))) => bail!("{name} found no move in a position that has one"),
                Ok(Some(Thought::Info(line))) => self.show_thinking(&name, &line),
                Ok(None) => {}
                Err(e) => {
                    // An external engine that crashed or hung cannot go on: it loses, as a
                    // player who leaves the board would, and the game is saved.
                    self.say(format!("{name} failed: {e:#}. It forfeits the game."));
                    self.game.resign(color).context("recording the forfeit")?;
                    return Ok(Flow::Continue);
                }
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
        }
    }
}

impl Session {
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

/// The moves of `game` from index `from` on, numbered (`12... Nc6 13. Nf3`).
fn numbered_from(game: &Game, from: usize) -> String {
    let mut pos = *game.initial_position();
    for &m in &game.moves()[..from] {
        pos.play_unchecked(m);
    }
    numbered(&pos, &san_line(&pos, &game.moves()[from..]))
}

/// One engine line: `+0.35  d12  1. e4 e5 2. Nf3 Nc6` (at most `max_moves` moves).
pub fn format_line(pos: &Position, line: &Line, max_moves: usize) -> String {
    let pv: Vec<Move> = line.pv.iter().copied().take(max_moves).collect();
    let sans = san_line(pos, &pv);
    format!("{:>6}  d{:<2}  {}", line.eval.text(), line.depth, numbered(pos, &sans))
}

/// SAN moves with move numbers: `12. Nf3 Nc6 13. O-O` or `12... Nc6 13. O-O`.
pub fn numbered(pos: &Position, sans: &[String]) -> String {
    let mut out = Vec::new();
    let mut number = pos.fullmove_number();
    let mut white = pos.turn() == Color::White;
    for (i, s) in sans.iter().enumerate() {
        if white {
            out.push(format!("{number}. {s}"));
        } else if i == 0 {
            out.push(format!("{number}... {s}"));
        } else {
            out.push(s.clone());
        }
        if !white {
            number += 1;
        }
        white = !white;
    }
    out.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::players::Eval;

    #[test]
    fn chess960_numbering() {
        assert_eq!(chess960_position(518).unwrap().fen(), Position::startpos().fen());
        assert_eq!(
            chess960_position(0).unwrap().fen().split(' ').next().unwrap(),
            "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR"
        );
        assert!(chess960_position(960).is_err());
    }

    #[test]
    fn numbered_lines() {
        let pos = Position::startpos();
        let sans: Vec<String> = ["e4", "e5", "Nf3"].iter().map(|s| (*s).to_owned()).collect();
        assert_eq!(numbered(&pos, &sans), "1. e4 e5 2. Nf3");
        let black: Position = "4k3/8/8/8/8/8/8/4K3 b - - 0 12".parse().unwrap();
        assert_eq!(numbered(&black, &sans[..2]), "12... e4 13. e5");
    }

    #[test]
    fn outcomes_read_well() {
        let mut game = Game::new(Position::startpos());
        let outcome = game.resign(Color::Black).unwrap();
        assert_eq!(describe_outcome(&game, outcome), "Black resigns: White wins (1-0)");
    }

    #[test]
    fn eval_text() {
        assert_eq!(Eval::Cp(35).text(), "+0.35");
        assert_eq!(Eval::Cp(-120).text(), "-1.20");
        assert_eq!(Eval::Mate(-2).text(), "#-2");
    }
}
