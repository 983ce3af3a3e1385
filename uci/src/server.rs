//! The UCI server: reads commands, drives the engine facade, writes the answers.
//!
//! The input loop never blocks on a search: `go` starts the engine's own threads, whose
//! events are written by a callback as they come, so `isready`, `stop` and `ponderhit`
//! are answered while the engine thinks. Every line is written whole under a lock so that
//! search output and command answers never interleave within a line.

use crate::command::{parse_command, Command, CommandError, GoParams, StartPosition};
use crate::format::{diagram, eval_table, info_line, nnue_eval_table, option_line};
use crate::genfens::{generate, parse_genfens};
use crate::move_list::read_move_list;
use crate::spsa::engine_spsa_input;
use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex, PoisonError};
use tempo_core::{perft::divide, CastlingMode, Move, Position};
use tempo_engine::{
    nnue_evaluate, run_bench_with, tunable_option_specs, Engine, EngineOption, Evaluator, Event, Limits, Network,
    BENCH_DEPTH, EMBEDDED_NETWORK, HIDDEN, OPTION_SPECS, TUNABLE,
};
use tempo_notation::{divide_lines, parse_uci_move, uci_move, MoveNotation};
use tempo_syzygy::Tablebase;

/// Engine name announced by `uci`.
pub const ENGINE_NAME: &str = concat!("Tempo ", env!("CARGO_PKG_VERSION"));
/// Author announced by `uci`.
pub const ENGINE_AUTHOR: &str = "the Tempo developers";

/// What the caller should do after a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Keep reading.
    Continue,
    /// `quit` was received: the search is stopped and its best move written.
    Quit,
}

/// A shared, line-atomic output.
struct Output<W: Write + Send + 'static>(Arc<Mutex<W>>);

impl<W: Write + Send + 'static> Clone for Output<W> {
    fn clone(&self) -> Self {
        Output(Arc::clone(&self.0))
    }
}

impl<W: Write + Send + 'static> Output<W> {
    fn line(&self, text: &str) {
        let mut out = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        // A closed output (GUI gone) is not an error worth dying for: the next read sees EOF.
        let _ = writeln!(out, "{text}");
        let _ = out.flush();
    }
}

/// The protocol server over any output.
pub struct Server<W: Write + Send + 'static> {
    engine: Engine,
    out: Output<W>,
    /// Why no position is known: set when a `position` command yielded none (a bad FEN, a
    /// malformed command), cleared by the next valid one. While set, the engine's position
    /// is an older one the GUI has left, so nothing may answer for it. A server that never
    /// saw `position` searches the start position.
    no_position: Option<String>,
    /// A valid `position` that arrived while an open-ended search was running (the engine
    /// cannot change its root then): set as soon as that search has ended, before the next
    /// command is handled, as Stockfish takes a position at any time.
    pending_position: Option<(Position, Vec<Move>)>,
    chess960: bool,
    /// The running search waits for `stop` or `ponderhit` (infinite, ponder, or no limit).
    open_ended: bool,
    /// The running search is `go infinite` (still open-ended after `ponderhit`).
    infinite: bool,
}

impl<W: Write + Send + 'static> Server<W> {
    /// A server writing to `out`.
    pub fn new(out: W) -> Server<W> {
        Server {
            engine: Engine::new(),
            out: Output(Arc::new(Mutex::new(out))),
            no_position: None,
            pending_position: None,
            chess960: false,
            open_ended: false,
            infinite: false,
        }
    }

    /// Runs until `quit` or the end of the input; a search still running at EOF is stopped
    /// and its best move written before returning.
    ///
    /// # Errors
    /// A read error of the input.
    pub fn run(&mut self, input: impl BufRead) -> std::io::Result<()> {
        for line in input.lines() {
            let line = match line {
                Ok(line) => line,
                // Invalid UTF-8 is a malformed line, not the end of the session.
                Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                    self.info_string("ignoring a line that is not valid UTF-8");
                    continue;
                }
                Err(e) => return Err(e),
            };
            if self.handle_line(&line) == Flow::Quit {
                return Ok(());
            }
        }
        self.finish();
        Ok(())
    }

    /// Stops any search and waits until its best move is written.
    pub fn finish(&mut self) {
        self.engine.stop();
        self.engine.wait();
    }

    /// Blocks until the running search (if any) ends by itself.
    pub fn wait(&mut self) {
        self.engine.wait();
    }

    fn info_string(&self, text: &str) {
        // `info string` ends at the line end: keep it one line.
        self.out.line(&format!("info string {}", text.replace(['\n', '\r'], " ")));
    }

    /// Handles one input line.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        let command = match parse_command(line) {
            Ok(Some(command)) => command,
            Ok(None) => return Flow::Continue,
            // A `position` the server cannot read still tells that the GUI's position
            // changed: the old one must not be answered for.
            Err(e @ CommandError::Malformed { command: "position", .. }) => {
                self.forget_position(&e.to_string());
                return Flow::Continue;
            }
            Err(e) => {
                self.info_string(&e.to_string());
                return Flow::Continue;
            }
        };
        // A client that sends its next position before the previous bestmove arrived (a
        // script piping commands) gets them in order, as from Stockfish: a search with a
        // limit ends by itself, so such commands wait for it. An open-ended search would never
        // end, so for it they are refused instead (see `go` and `set_position`).
        let changes_state = matches!(
            command,
            Command::Position { .. }
                | Command::Go(_)
                | Command::UciNewGame
                | Command::SetOption { .. }
                | Command::Bench { .. }
                | Command::Genfens(_)
        );
        if changes_state && !self.open_ended {
            self.engine.wait();
        }
        if self.pending_position.is_some() && !self.engine.is_searching() {
            self.set_pending_position();
        }
        match command {
            Command::Uci => {
                self.out.line(&format!("id name {ENGINE_NAME}"));
                self.out.line(&format!("id author {ENGINE_AUTHOR}"));
                self.out.line("");
                for spec in OPTION_SPECS.iter().copied().chain(tunable_option_specs()) {
                    self.out.line(&option_line(&spec));
                }
                // Protocol-level options: the server reads the files, the engine gets the
                // book and the network.
                self.out.line("option name BookFile type string default <empty>");
                self.out.line(&format!("option name EvalFile type string default {EMBEDDED_NETWORK}"));
                self.out.line("option name SyzygyPath type string default <empty>");
                self.out.line("uciok");
            }
            Command::Debug(_) | Command::Register => {}
            Command::IsReady => self.out.line("readyok"),
            Command::SetOption { name, value } => self.set_option(&name, &value),
            Command::UciNewGame => {
                if let Err(e) = self.engine.new_game() {
                    self.info_string(&format!("ucinewgame ignored: {e}"));
                }
            }
            Command::Position { start, moves } => self.set_position(start, &moves),
            Command::Go(params) => self.go(params),
            Command::Stop => {
                self.engine.stop();
                // The search now ends by itself: what comes next (a GUI sends `position` and
                // `go` right after `stop`) waits for its bestmove instead of being refused.
                self.open_ended = false;
            }
            Command::PonderHit => {
                self.open_ended = self.infinite;
                self.engine.ponderhit();
            }
            Command::Quit => {
                self.finish();
                return Flow::Quit;
            }
            Command::Display => {
                if let Some(pos) = self.known_position("d") {
                    self.out.line(&diagram(&pos));
                }
            }
            Command::Eval => {
                if let Some(pos) = self.known_position("eval") {
                    let hand_crafted = self.engine.hand_crafted_trace();
                    let text = match self.engine.evaluator() {
                        Evaluator::Network(network) => {
                            nnue_eval_table(&pos, &hand_crafted, nnue_evaluate(&network, &pos))
                        }
                        Evaluator::HandCrafted => eval_table(&pos, &hand_crafted),
                    };
                    self.out.line(&text);
                }
            }
            Command::Bench { depth } => self.bench(depth.unwrap_or(BENCH_DEPTH)),
            Command::Genfens(words) => self.genfens(&words),
            Command::Spsa => self.spsa(),
        }
        Flow::Continue
    }

    /// `setoption name BookFile value PATH`: loads a Polyglot book (empty or `<empty>`
    /// removes it). A file that cannot be read or is not a book is reported and changes
    /// nothing.
    fn set_book_file(&mut self, path: &str) {
        let path = path.trim();
        if path.is_empty() || path == "<empty>" {
            self.engine.set_book(None);
            return;
        }
        let book = std::fs::read(path)
            .map_err(|e| e.to_string())
            .and_then(|bytes| tempo_core::book::Book::from_bytes(&bytes).map_err(|e| e.to_string()));
        match book {
            Ok(book) => {
                let entries = book.len();
                self.engine.set_book(Some(book));
                self.info_string(&format!("book {path} loaded: {entries} entries"));
            }
            Err(e) => self.info_string(&format!("book {path} not loaded: {e}")),
        }
    }

    /// `setoption name EvalFile value PATH`: loads a network file for `UseNNUE`. The built-in
    /// network's name (the option's default, which GUIs send back), empty or `<empty>` go
    /// back to the built-in network. A file that cannot be read or is not a valid network for
    /// this build is reported and changes nothing: the engine keeps the network it had.
    fn set_eval_file(&mut self, path: &str) {
        let path = path.trim();
        if path.is_empty() || path == "<empty>" || path == EMBEDDED_NETWORK {
            self.engine.use_embedded_network();
            return;
        }
        let network = std::fs::read(path)
            .map_err(|e| e.to_string())
            .and_then(|bytes| Network::from_bytes(&bytes).map_err(|e| e.to_string()));
        match network {
            Ok(network) => {
                self.engine.set_network(Arc::new(network));
                let hint = if self.engine.options().use_nnue { "" } else { "; set UseNNUE to true to search with it" };
                self.info_string(&format!("network {path} loaded: {HIDDEN} hidden neurons{hint}"));
            }
            Err(e) => {
                let kept = if self.engine.network_is_embedded() {
                    format!("the engine keeps its built-in network {EMBEDDED_NETWORK}")
                } else {
                    "the engine keeps the network it had loaded".to_owned()
                };
                self.info_string(&format!("network {path} not loaded: {e}; {kept}"));
            }
        }
    }

    /// `setoption name SyzygyPath value DIR[:DIR...]`: the folders of Syzygy tables (empty
    /// or `<empty>`: none). A folder that cannot be read is reported and skipped; the files
    /// are opened when a search first needs them, and a broken one is reported then (see
    /// `go`).
    fn set_syzygy_path(&mut self, value: &str) {
        let value = value.trim();
        let mut tables = Tablebase::new();
        if !(value.is_empty() || value == "<empty>") {
            for folder in value.split(if cfg!(windows) { ';' } else { ':' }).filter(|f| !f.trim().is_empty()) {
                if let Err(e) = tables.add_directory(folder.trim()) {
                    self.info_string(&format!("SyzygyPath: {e}: {}; skipped", e.source));
                }
            }
            let count = tables.table_count();
            let noun = if count == 1 { "table" } else { "tables" };
            self.info_string(&format!("SyzygyPath: {count} {noun} found, up to {} men", tables.max_pieces()));
        }
        self.engine.set_tablebase((tables.table_count() > 0).then(|| Arc::new(tables)));
    }

    /// `spsa`: one line of OpenBench SPSA input per search parameter, at its current value.
    fn spsa(&self) {
        if !TUNABLE {
            return self.info_string(
                "spsa: this build has no tunable parameters (build with `make TUNE=1` or `--features tune`)",
            );
        }
        for param in engine_spsa_input() {
            self.out.line(&param.to_string());
        }
    }

    fn set_option(&mut self, name: &str, value: &str) {
        if name.trim().eq_ignore_ascii_case("BookFile") {
            return self.set_book_file(value);
        }
        if name.trim().eq_ignore_ascii_case("EvalFile") {
            return self.set_eval_file(value);
        }
        if name.trim().eq_ignore_ascii_case("SyzygyPath") {
            return self.set_syzygy_path(value);
        }
        let option = match EngineOption::parse(name, value) {
            Ok(option) => option,
            Err(e) => return self.info_string(&e.to_string()),
        };
        if let EngineOption::Chess960(on) = option {
            self.chess960 = on;
        }
        if let Err(e) = self.engine.set_option(option) {
            self.info_string(&e.to_string());
        }
    }

    /// Reports that no position is known from now on, until the next valid `position`.
    fn forget_position(&mut self, why: &str) {
        self.info_string(&format!(
            "position ignored: {why}; no position is set, go answers bestmove 0000 until a valid position"
        ));
        self.no_position = Some(why.to_owned());
        // An older position still waiting for the search to end is older than this one.
        self.pending_position = None;
    }

    /// Sets the position that arrived during the search that has now ended.
    fn set_pending_position(&mut self) {
        if let Some((start, moves)) = self.pending_position.take() {
            match self.engine.set_position(start, &moves) {
                Ok(()) => self.no_position = None,
                Err(e) => self.forget_position(&e.to_string()),
            }
        }
    }

    /// The engine's position, or `None` (reported for `command`) when the last `position`
    /// yielded none.
    fn known_position(&self, command: &str) -> Option<Position> {
        match &self.no_position {
            None => Some(*self.engine.position()),
            Some(why) => {
                self.info_string(&format!("{command}: no position is set (the last position command failed: {why})"));
                None
            }
        }
    }

    /// `position`: the start position and the longest playable prefix of the moves (the first
    /// move that cannot be played, and those after it, are dropped and named). A start that
    /// cannot be read leaves no position at all.
    fn set_position(&mut self, start: StartPosition, moves: &[String]) {
        let mode = if self.chess960 { CastlingMode::Chess960 } else { CastlingMode::Standard };
        let parsed = match &start {
            StartPosition::Startpos => {
                let mut pos = Position::startpos();
                pos.set_castling_mode(mode).map(|()| pos).map_err(|e| e.to_string())
            }
            StartPosition::Fen(fen) => {
                tempo_core::Position::from_fen(&complete_fen(fen), mode).map_err(|e| e.to_string())
            }
        };
        let start_pos = match parsed {
            Ok(pos) => pos,
            Err(e) => return self.forget_position(&e),
        };
        let list = read_move_list(&start_pos, moves);
        if let Some(dropped) = &list.dropped {
            self.info_string(&dropped.to_string());
        }
        if self.engine.is_searching() {
            self.info_string("position received during the search: set when the search ends");
            self.no_position = None;
            self.pending_position = Some((start_pos, list.played));
            return;
        }
        self.pending_position = None;
        match self.engine.set_position(start_pos, &list.played) {
            Ok(()) => self.no_position = None,
            Err(e) => self.forget_position(&e.to_string()),
        }
    }

    fn go(&mut self, params: GoParams) {
        if self.engine.is_searching() {
            return self.info_string("go ignored: a search is already running");
        }
        for warning in &params.warnings {
            self.info_string(warning);
        }
        let Some(root) = self.known_position("go") else {
            // Every search gets its bestmove, and a null move is the only one that cannot
            // be mistaken for an answer in the GUI's position; a perft has no bestmove.
            if params.perft.is_none() {
                self.out.line("bestmove 0000");
            }
            return;
        };
        if let Some(depth) = params.perft {
            return self.perft(&root, depth);
        }
        let mut searchmoves = Vec::with_capacity(params.searchmoves.len());
        for text in &params.searchmoves {
            match parse_uci_move(&root, text) {
                Ok(m) if !m.is_null() => searchmoves.push(m),
                _ => self.info_string(&format!("searchmoves: ignoring illegal move {text}")),
            }
        }
        // `movestogo 0` (sent by some GUIs) means no count.
        let movestogo = params.limits.movestogo.filter(|&n| n > 0);
        let limits = Limits { movestogo, searchmoves, ..params.limits };
        let has_limit = [limits.wtime, limits.btime, limits.movetime].iter().any(Option::is_some)
            || limits.depth.is_some()
            || limits.nodes.is_some()
            || limits.mate.is_some();
        self.infinite = limits.infinite || !has_limit;
        self.open_ended = self.infinite || limits.ponder;
        let out = self.out.clone();
        let show_ponder = self.engine.options().ponder;
        let result = self.engine.go(limits, move |event| match event {
            Event::Info(info) => out.line(&info_line(&root, &info)),
            Event::CurrMove { depth, mv, number } => {
                out.line(&format!("info depth {depth} currmove {} currmovenumber {number}", uci_move(&root, mv)));
            }
            Event::TablebaseError(error) => {
                out.line(&format!("info string tablebase probe failed, searched on without the tables there: {error}"));
            }
            Event::BestMove { best: None, .. } => {
                // No legal move: say why (mated or stalemate) before the null move, so that
                // a GUI has a score to show.
                let score = if root.is_check() { "mate 0" } else { "cp 0" };
                out.line(&format!("info depth 0 score {score}"));
                out.line("bestmove 0000");
            }
            Event::BestMove { best: Some(best), ponder } => {
                let mut line = format!("bestmove {}", uci_move(&root, best));
                if let (true, Some(p)) = (show_ponder, ponder) {
                    let mut after = root;
                    after.play_unchecked(best);
                    line.push_str(&format!(" ponder {}", uci_move(&after, p)));
                }
                out.line(&line);
            }
        });
        if let Err(e) = result {
            // Exactly one bestmove per go, even when the go itself is unusable.
            self.info_string(&format!("go failed: {e}"));
            self.out.line("bestmove 0000");
        }
    }

    fn perft(&self, root: &Position, depth: u32) {
        // Depth 0 counts the root itself, with no moves to divide by.
        let mut total = u64::from(depth == 0);
        let moves = if depth == 0 { Vec::new() } else { divide(root, depth) };
        for line in divide_lines(root, &moves, MoveNotation::Uci) {
            self.out.line(&line);
        }
        total += moves.iter().map(|&(_, count)| count).sum::<u64>();
        self.out.line("");
        self.out.line(&format!("Nodes searched: {total}"));
    }

    /// `genfens`: OpenBench's openings, one `info string genfens <FEN>` line each. It
    /// searches, so it leaves the engine as `ucinewgame` and `position startpos` would.
    fn genfens(&mut self, words: &[String]) {
        if self.engine.is_searching() {
            return self.info_string("genfens ignored: a search is running");
        }
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        let out = self.out.clone();
        let result = parse_genfens(&words).and_then(|request| {
            generate(&request, &mut self.engine, |fen| out.line(&format!("info string genfens {fen}")))
        });
        if let Err(e) = result {
            self.info_string(&e.to_string());
        }
        let reset = self.engine.new_game().and_then(|()| self.engine.set_position(Position::startpos(), &[]));
        match reset {
            Ok(()) => self.no_position = None,
            Err(e) => self.forget_position(&e.to_string()),
        }
    }

    fn bench(&mut self, depth: u32) {
        if self.engine.is_searching() {
            return self.info_string("bench ignored: a search is running");
        }
        let count = tempo_engine::BENCH_FENS.len();
        // The bench uses the evaluation a search would: the node count is the signature only
        // with the built-in network (the defaults).
        let report = run_bench_with(depth, 16, &self.engine.evaluator(), |i, fen| {
            // Progress goes to stderr, as in Stockfish, keeping stdout parseable.
            // A closed stderr (`tempo-uci bench 2>&1 | head -1`) is no reason to stop.
            let _ = writeln!(std::io::stderr(), "Position: {}/{count} ({fen})", i + 1);
        });
        self.out.line("");
        self.out.line("===========================");
        self.out.line(&format!("Total time (ms) : {}", report.elapsed.as_millis()));
        self.out.line(&format!("Nodes searched  : {}", report.nodes));
        self.out.line(&format!("Nodes/second    : {}", report.nps()));
        self.out.line(&format!("Bench: {} nodes {} nps", report.nodes, report.nps()));
    }
}

/// GUIs and puzzle files send FENs without the clocks (EPD-style, four fields) or with move
/// number 0; Stockfish accepts both, so the server completes them before the strict parser
/// sees them: missing clocks become `0 1`, move number 0 becomes 1.
fn complete_fen(fen: &str) -> String {
    let mut fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.len() == 4 {
        fields.push("0");
    }
    if fields.len() == 5 {
        fields.push("1");
    }
    if fields.len() == 6 && fields[5] == "0" {
        fields[5] = "1";
    }
    fields.join(" ")
}
