//! The engine facade: position, options and searches on background threads, without any
//! text protocol (in the spirit of Stockfish's `Engine` class).

use crate::error::EngineError;
use crate::evaluator::Evaluator;
use crate::events::{Event, SearchInfo};
use crate::hce::{trace, EvalTrace};
use crate::limits::Limits;
use crate::nnue::embedded_network;
use crate::nnue::Network;
use crate::options::{EngineOption, Options};
use crate::score::{is_mate_score, to_score, wdl_material, Value, Wdl, INFINITE};
use crate::search::{Control, NodeCounter, Progress, RootMove, Shared, Worker};
use crate::skill::Skill;
use crate::tablebase::{self, Probing};
use crate::time::TimeBudget;
use crate::tt::{Bound, TranspositionTable};
use crate::Instant;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;
use tempo_core::{book::Book, Move, Position};
use tempo_syzygy::Tablebase;

/// Stack size of search threads, in bytes: the recursion keeps a move list per ply. A
/// thread calling [`Engine::search`] needs this much.
pub const SEARCH_STACK_SIZE: usize = 64 * 1024 * 1024;

/// The engine: owns the position to search, the options, the hash table and the search
/// threads.
///
/// ```
/// use tempo_engine::{Engine, Event, Limits};
/// use std::sync::mpsc;
///
/// let mut engine = Engine::new();
/// let (tx, rx) = mpsc::channel();
/// engine.go(Limits::depth(4), move |event| { let _ = tx.send(event); })?;
/// engine.wait();
/// let best = rx.iter().find_map(|e| match e {
///     Event::BestMove { best, .. } => Some(best),
///     _ => None,
/// });
/// assert!(best.flatten().is_some());
/// # Ok::<(), tempo_engine::EngineError>(())
/// ```
pub struct Engine {
    options: Options,
    tt: Arc<TranspositionTable>,
    workers: Arc<Mutex<Vec<Worker>>>,
    root: Position,
    game_keys: Vec<u64>,
    control: Arc<Control>,
    handle: Option<JoinHandle<()>>,
    book: Option<Arc<Book>>,
    /// The neural network, used when `UseNNUE` is on: the built-in one or a loaded one.
    network: Arc<Network>,
    /// What the last search evaluated with (hand-crafted before the first search).
    /// The hash table stores static evaluations, so it is cleared when this changes.
    searched_with: Evaluator,
    /// [`xorshift`] state for weighted book picks: varied from move to move, reproducible.
    book_rng: u64,
    /// Syzygy tables (`SyzygyPath`), probed by searches within `SyzygyProbeLimit` men.
    tablebase: Option<Arc<Tablebase>>,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new()
    }
}

/// The engine's state as a program sees it: the position, the options, whether it searches,
/// and what it evaluates and probes with (not the hash table's contents).
impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("position", &self.root)
            .field("moves_before", &self.game_keys.len())
            .field("options", &self.options)
            .field("searching", &self.is_searching())
            .field("embedded_network", &self.network_is_embedded())
            .field("book", &self.book.is_some())
            .field("tablebase", &self.tablebase.is_some())
            .finish_non_exhaustive()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
        self.wait();
    }
}

impl Engine {
    /// An engine with default options, set to the starting position.
    ///
    /// # Panics
    /// If the default 16 MiB hash table cannot be allocated.
    pub fn new() -> Engine {
        let options = Options::default();
        let tt = TranspositionTable::new(options.hash_mb).expect("the default hash table fits in memory");
        Engine {
            tt: Arc::new(tt),
            workers: Arc::new(Mutex::new(vec![Worker::new(0)])),
            root: Position::startpos(),
            game_keys: Vec::new(),
            control: Arc::new(Control::new(false, Instant::now())),
            handle: None,
            book: None,
            network: embedded_network(),
            searched_with: Evaluator::HandCrafted,
            book_rng: 0x9e37_79b9_7f4a_7c15,
            tablebase: None,
            options,
        }
    }

    /// The current options.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The position the next search starts from.
    pub fn position(&self) -> &Position {
        &self.root
    }

    /// `true` while a search is running (its best move not yet reported).
    pub fn is_searching(&self) -> bool {
        self.handle.as_ref().is_some_and(|h| !h.is_finished()) && !self.control.done.load(Ordering::Acquire)
    }

    fn ensure_idle(&mut self) -> Result<(), EngineError> {
        if self.is_searching() {
            return Err(EngineError::Busy);
        }
        self.wait();
        Ok(())
    }

    fn lock_workers(&self) -> std::sync::MutexGuard<'_, Vec<Worker>> {
        // A panicking search thread cannot leave the tables inconsistent in a way that
        // matters (they are heuristics), so a poisoned lock is simply taken over.
        self.workers.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Changes an option.
    ///
    /// # Errors
    /// [`EngineError::Busy`] for `Hash`, `Threads` and `Clear Hash` while searching;
    /// [`EngineError::HashAllocation`] if the table cannot be allocated (the old one stays).
    pub fn set_option(&mut self, option: EngineOption) -> Result<(), EngineError> {
        match option {
            EngineOption::Hash(mb) => {
                self.ensure_idle()?;
                if mb != self.options.hash_mb {
                    // Drop the old table first so that both never need to fit at once.
                    self.tt = Arc::new(TranspositionTable::new(1).ok_or(EngineError::HashAllocation(1))?);
                    match TranspositionTable::new(mb) {
                        Some(tt) => {
                            self.tt = Arc::new(tt);
                            self.options.hash_mb = mb;
                        }
                        None => {
                            self.tt = Arc::new(
                                TranspositionTable::new(self.options.hash_mb)
                                    .ok_or(EngineError::HashAllocation(self.options.hash_mb))?,
                            );
                            return Err(EngineError::HashAllocation(mb));
                        }
                    }
                }
            }
            EngineOption::Threads(n) => {
                self.ensure_idle()?;
                let mut workers = self.lock_workers();
                workers.truncate(n.max(1));
                while workers.len() < n {
                    let id = workers.len();
                    workers.push(Worker::new(id));
                }
                drop(workers);
                self.options.threads = n.max(1);
            }
            EngineOption::MultiPv(n) => self.options.multipv = n.max(1),
            EngineOption::SyzygyProbeDepth(d) => self.options.syzygy_probe_depth = d,
            EngineOption::SyzygyProbeLimit(n) => self.options.syzygy_probe_limit = n,
            EngineOption::Syzygy50MoveRule(on) => self.options.syzygy_50_move_rule = on,
            EngineOption::Ponder(on) => self.options.ponder = on,
            EngineOption::MoveOverhead(d) => self.options.move_overhead = d,
            EngineOption::Chess960(on) => self.options.chess960 = on,
            EngineOption::ClearHash => {
                self.ensure_idle()?;
                self.tt.clear();
            }
            EngineOption::ShowWdl(on) => self.options.show_wdl = on,
            EngineOption::LimitStrength(on) => self.options.limit_strength = on,
            EngineOption::Elo(elo) => self.options.elo = elo,
            EngineOption::OwnBook(on) => self.options.own_book = on,
            EngineOption::UseNnue(on) => self.options.use_nnue = on,
            #[cfg(feature = "tune")]
            EngineOption::Parameter { index, value } => {
                // The search reads the parameters as it goes: change none under its feet.
                self.ensure_idle()?;
                crate::PARAMETERS[index].set(value);
            }
        }
        Ok(())
    }

    /// Sets the position to search: `start` followed by `moves` (the moves are kept for
    /// repetition detection).
    ///
    /// # Errors
    /// [`EngineError::IllegalMove`] naming the first illegal move (the previous position is
    /// kept); [`EngineError::Busy`] while searching.
    pub fn set_position(&mut self, start: Position, moves: &[Move]) -> Result<(), EngineError> {
        self.ensure_idle()?;
        let mut pos = start;
        let mut keys = Vec::with_capacity(moves.len());
        for (index, &mv) in moves.iter().enumerate() {
            keys.push(pos.key());
            pos.play(mv).map_err(|_| EngineError::IllegalMove { mv, index })?;
        }
        self.root = pos;
        self.game_keys = keys;
        Ok(())
    }

    /// Sets (or with `None` removes) the Polyglot opening book used when `OwnBook` is on.
    /// Reading the file is the caller's business: the engine does no I/O.
    pub fn set_book(&mut self, book: Option<Book>) {
        self.book = book.map(Arc::new);
    }

    /// A book move for the current position when `OwnBook` is on, the search is a game move
    /// (clock or move time, not analysis, pondering or a mate search) and the book has a move
    /// among `allowed`.
    fn book_move(&mut self, limits: &Limits, allowed: &[Move]) -> Option<Move> {
        if !self.options.own_book || !limits.uses_clock() || limits.ponder || limits.infinite || limits.mate.is_some() {
            return None;
        }
        let book = self.book.as_ref()?;
        book.pick(&self.root, xorshift(&mut self.book_rng)).filter(|m| allowed.contains(m))
    }

    /// Sets the neural network searches evaluate with when `UseNNUE` is on
    /// ([`Engine::use_embedded_network`] goes back to the built-in one). A search already
    /// running keeps the network it started with. A search whose evaluation (this network,
    /// another, or hand-crafted terms, as `UseNNUE` says) differs from the previous search's
    /// starts with a cleared hash table, whose stored evaluations belong to the other one.
    /// Reading and parsing a file is the caller's business ([`Network::from_bytes`]): the
    /// engine does no I/O.
    pub fn set_network(&mut self, network: Arc<Network>) {
        self.network = network;
    }

    /// Goes back to the network built into the engine ([`crate::EMBEDDED_NETWORK`]) for
    /// `UseNNUE`, as [`Engine::set_network`] with it.
    pub fn use_embedded_network(&mut self) {
        self.network = embedded_network();
    }

    /// The network `UseNNUE` uses, loaded or built in.
    pub fn network(&self) -> &Arc<Network> {
        &self.network
    }

    /// Whether [`Engine::network`] is the one built into the engine.
    pub fn network_is_embedded(&self) -> bool {
        Arc::ptr_eq(&self.network, &embedded_network())
    }

    /// What searches evaluate with: the engine's network if `UseNNUE` is on, the
    /// hand-crafted evaluation when it is off.
    pub fn evaluator(&self) -> Evaluator {
        if self.options.use_nnue {
            Evaluator::Network(Arc::clone(&self.network))
        } else {
            Evaluator::HandCrafted
        }
    }

    /// Sets the Syzygy tables searches probe (`None`: none, the default). With tables, a
    /// root in their reach plays the moves they recommend (see
    /// [`Tablebase::best_moves`]) and reports their result as the score, and the search
    /// takes their verdict on positions after captures and pawn moves; a failed probe
    /// counts as no probe.
    pub fn set_tablebase(&mut self, tables: Option<Arc<Tablebase>>) {
        self.tablebase = tables;
    }

    /// The Syzygy tables searches probe.
    pub fn tablebase(&self) -> Option<&Arc<Tablebase>> {
        self.tablebase.as_ref()
    }

    /// Starts a new game: clears the hash table and every learnt statistic.
    ///
    /// # Errors
    /// [`EngineError::Busy`] while searching.
    pub fn new_game(&mut self) -> Result<(), EngineError> {
        self.ensure_idle()?;
        self.tt.clear();
        for worker in self.lock_workers().iter_mut() {
            worker.clear();
        }
        Ok(())
    }

    /// The static evaluation of the current position (side to move, centipawns) by what
    /// searches evaluate with ([`Engine::evaluator`]).
    pub fn evaluate(&self) -> Value {
        self.evaluator().evaluate(&self.root)
    }

    /// The hand-crafted evaluation of the current position, term by term (whichever
    /// evaluation the search uses).
    pub fn hand_crafted_trace(&self) -> EvalTrace {
        trace(&self.root)
    }

    /// Starts searching the current position on background threads and returns at once.
    /// `on_event` receives progress and, exactly once and last, [`Event::BestMove`].
    ///
    /// # Errors
    /// [`EngineError::Busy`] if a search is already running; [`EngineError::IllegalSearchMove`]
    /// if `searchmoves` names a move that is not legal (no search starts then);
    /// [`EngineError::ThreadStart`] if the operating system would not start the thread.
    pub fn go(&mut self, limits: Limits, on_event: impl FnMut(Event) + Send + 'static) -> Result<(), EngineError> {
        let handle = match self.prepare(limits, Box::new(on_event))? {
            // Answered from the book on a thread of its own, so that events arrive exactly
            // as after a search: asynchronously, `BestMove` once and last.
            Prepared::Book(book) => std::thread::Builder::new().name("tempo-book".into()).spawn(move || book.answer()),
            Prepared::Search(job) => std::thread::Builder::new()
                .name("tempo-search".into())
                .stack_size(SEARCH_STACK_SIZE)
                .spawn(move || job.run()),
        };
        self.handle = Some(handle.map_err(|e| EngineError::ThreadStart(e.to_string()))?);
        Ok(())
    }

    /// Searches the current position on the calling thread and returns when the search is
    /// over, after `on_event` has received [`Event::BestMove`] (exactly once and last).
    ///
    /// For programs that search many positions one after another, such as data generation:
    /// no thread is started per search (with `Threads` above 1 the helpers still are). The
    /// calling thread needs a stack of [`SEARCH_STACK_SIZE`] bytes; the main thread's 8 MiB
    /// is not always enough. Nothing can call [`Engine::stop`] meanwhile, so the limits
    /// must end the search by themselves (depth, nodes, time).
    ///
    /// ```
    /// use tempo_engine::{Engine, EngineError, Event, Limits, Move, Position, SEARCH_STACK_SIZE};
    ///
    /// // Scholar's mate: White mates with Qxf7.
    /// let pos: Position = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4".parse()?;
    /// let searcher = std::thread::Builder::new().stack_size(SEARCH_STACK_SIZE).spawn(move || {
    ///     let mut engine = Engine::new();
    ///     engine.set_position(pos, &[])?;
    ///     let mut best: Option<Move> = None;
    ///     engine.search(Limits::depth(3), |event| {
    ///         if let Event::BestMove { best: b, .. } = event {
    ///             best = b;
    ///         }
    ///     })?;
    ///     Ok::<_, EngineError>(best)
    /// })?;
    /// let best = searcher.join().expect("the search thread ends")?;
    /// assert_eq!(best, Some(Move::normal("h5".parse()?, "f7".parse()?)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// As [`Engine::go`], and [`EngineError::NeedsStop`] for `infinite` or `ponder` limits,
    /// which only `stop` or `ponderhit` would end.
    pub fn search(&mut self, limits: Limits, on_event: impl FnMut(Event) + Send) -> Result<(), EngineError> {
        if limits.infinite || limits.ponder {
            return Err(EngineError::NeedsStop);
        }
        match self.prepare(limits, Box::new(on_event))? {
            Prepared::Book(book) => book.answer(),
            Prepared::Search(job) => job.run(),
        }
        Ok(())
    }

    /// Everything a search of the current position needs, or the book's answer instead.
    fn prepare<'a>(
        &mut self,
        limits: Limits,
        on_event: Box<dyn FnMut(Event) + Send + 'a>,
    ) -> Result<Prepared<'a>, EngineError> {
        let start = Instant::now();
        self.ensure_idle()?;
        let legal = self.root.legal_moves();
        if let Some(&bad) = limits.searchmoves.iter().find(|m| !legal.contains(**m)) {
            return Err(EngineError::IllegalSearchMove(bad));
        }
        let mut moves: Vec<Move> =
            legal.iter().copied().filter(|m| limits.searchmoves.is_empty() || limits.searchmoves.contains(m)).collect();
        // In the tables' reach the search chooses among the moves that keep their result.
        let mut root_wdl = None;
        let mut root_probe_error = None;
        if let Some(tables) = &self.tablebase {
            match tablebase::root_moves(tables, &self.root, &moves, &self.options) {
                Ok(Some((kept, wdl))) => {
                    moves = kept;
                    root_wdl = Some(wdl);
                }
                Ok(None) => {}
                Err(error) => root_probe_error = Some(error),
            }
        }
        self.control = Arc::new(Control::new(limits.ponder, start));
        let evaluator = self.evaluation_for_search();
        if let Some(book_move) = self.book_move(&limits, &moves) {
            return Ok(Prepared::Book(BookAnswer { control: Arc::clone(&self.control), mv: book_move, on_event }));
        }
        Ok(Prepared::Search(Box::new(Job {
            tt: Arc::clone(&self.tt),
            workers: Arc::clone(&self.workers),
            control: Arc::clone(&self.control),
            root: self.root,
            game_keys: self.game_keys.clone(),
            moves,
            limits,
            options: self.options.clone(),
            evaluator,
            tablebase: self.tablebase.clone(),
            root_wdl,
            root_probe_error,
            start,
            on_event,
        })))
    }

    /// What the next search evaluates with ([`Engine::evaluator`]). When that
    /// is not the evaluation of the previous search, the hash table is cleared: its stored
    /// static evaluations, and the scores built on them, are another evaluation's.
    fn evaluation_for_search(&mut self) -> Evaluator {
        let evaluator = self.evaluator();
        if !evaluator.same_as(&self.searched_with) {
            self.tt.clear();
            self.searched_with = evaluator.clone();
        }
        evaluator
    }

    /// Asks the running search (if any) to stop; its best move follows promptly.
    pub fn stop(&self) {
        self.control.stop.store(true, Ordering::Relaxed);
    }

    /// The opponent played the expected move: the ponder search becomes a normal search
    /// whose clock starts now.
    pub fn ponderhit(&self) {
        if self.control.pondering.load(Ordering::Relaxed) {
            // The clock has been running for us only since this moment.
            let since_start = self.control.start.elapsed().as_micros() as u64;
            self.control.ponderhit_us.store(since_start, Ordering::Relaxed);
            self.control.pondering.store(false, Ordering::Relaxed);
        }
    }

    /// Blocks until the running search (if any) has reported its best move.
    pub fn wait(&mut self) {
        if let Some(handle) = self.handle.take() {
            // A panic in the search thread has already been reported by the runtime; the
            // engine stays usable.
            let _ = handle.join();
        }
    }
}

/// What [`Engine::prepare`] leaves to run: a search, or a move from the book.
enum Prepared<'a> {
    Search(Box<Job<'a>>),
    Book(BookAnswer<'a>),
}

/// A book move to report as a search's result.
struct BookAnswer<'a> {
    control: Arc<Control>,
    mv: Move,
    on_event: Box<dyn FnMut(Event) + Send + 'a>,
}

impl BookAnswer<'_> {
    fn answer(mut self) {
        self.control.done.store(true, Ordering::Release);
        (self.on_event)(Event::BestMove { best: Some(self.mv), ponder: None });
    }
}

/// One search, ready to run on whichever thread `run` is called.
struct Job<'a> {
    tt: Arc<TranspositionTable>,
    workers: Arc<Mutex<Vec<Worker>>>,
    control: Arc<Control>,
    root: Position,
    game_keys: Vec<u64>,
    moves: Vec<Move>,
    limits: Limits,
    options: Options,
    /// What the search evaluates with.
    evaluator: Evaluator,
    tablebase: Option<Arc<Tablebase>>,
    /// The tables' result at the root, reported as the score.
    root_wdl: Option<tempo_syzygy::Wdl>,
    /// Why the tables could not rank the root moves, reported after the search.
    root_probe_error: Option<tempo_syzygy::ProbeError>,
    start: Instant,
    on_event: Box<dyn FnMut(Event) + Send + 'a>,
}

impl Job<'_> {
    fn run(mut self) {
        let mut workers = self.workers.lock().unwrap_or_else(PoisonError::into_inner);
        if self.moves.is_empty() {
            // Mate or stalemate: nothing to search, but `go ponder`/`infinite` still wait
            // for the GUI before answering, as the protocol requires.
            wait_for_release(&self.control, self.limits.infinite);
            self.control.done.store(true, Ordering::Release);
            (self.on_event)(Event::BestMove { best: None, ponder: None });
            return;
        }

        self.tt.new_search();
        let (skill, limits, multipv) = self.strength();
        let budget = TimeBudget::new(&limits, self.root.turn(), self.root.ply(), self.options.move_overhead);
        let counters: Vec<NodeCounter> = (0..workers.len()).map(|_| NodeCounter::default()).collect();
        let shared = Shared {
            tt: &self.tt,
            control: &self.control,
            nodes: &counters,
            limits: &limits,
            budget,
            start: self.start,
            multipv,
            tablebase: self.tablebase.as_deref().and_then(|tables| Probing::new(tables, &self.options)),
        };
        for worker in workers.iter_mut() {
            worker.prepare(&self.game_keys, &self.moves);
            worker.set_evaluator(&self.evaluator);
        }
        let shown_lines = self.options.multipv;
        let wdl_root = self.options.show_wdl.then_some(&self.root);
        let root_value = self.root_wdl.map(|wdl| tablebase::value(wdl, 0, self.options.syzygy_50_move_rule));
        let on_event = &mut self.on_event;
        let control = &self.control;
        let infinite = limits.infinite;
        let (main, helpers) = workers.split_first_mut().expect("at least one worker");
        std::thread::scope(|scope| {
            for helper in helpers.iter_mut() {
                let shared = &shared;
                let root = &self.root;
                let spawned = std::thread::Builder::new()
                    .stack_size(SEARCH_STACK_SIZE)
                    .spawn_scoped(scope, move || helper.iterative_deepening(shared, root, &mut |_| {}));
                // Without the thread the search is merely narrower; nothing else depends on it.
                drop(spawned);
            }
            main.iterative_deepening(&shared, &self.root, &mut |progress| match progress {
                Progress::Iteration { depth, root_moves, lines } => {
                    for (i, rm) in root_moves.iter().take(lines.min(shown_lines)).enumerate() {
                        if let Some(info) = info_line(&shared, rm, depth, i, wdl_root, root_value) {
                            on_event(Event::Info(info));
                        }
                    }
                }
                Progress::CurrMove { depth, mv, number } => {
                    on_event(Event::CurrMove { depth: depth as u32, mv, number: number as u32 })
                }
            });
            // The protocol forbids answering `go ponder` or `go infinite` before `stop` (or,
            // when pondering, `ponderhit`), even when the search itself is finished.
            wait_for_release(control, infinite);
            control.stop.store(true, Ordering::Relaxed);
        });

        let probe_error = self.root_probe_error.take().or_else(|| shared.tablebase.as_ref()?.failure().cloned());
        if let Some(error) = probe_error {
            (self.on_event)(Event::TablebaseError(error));
        }
        let chosen = self.chosen(main, skill, multipv);
        let best = chosen.mv;
        let ponder = chosen.pv.get(1).copied().or_else(|| self.ponder_from_table(best));
        drop(workers);
        // A GUI may answer the best move at once: from here on the engine counts as idle
        // and the next command joins this thread (which only returns) instead of failing.
        self.control.done.store(true, Ordering::Release);
        (self.on_event)(Event::BestMove { best: Some(best), ponder });
    }

    /// The skill level (`UCI_LimitStrength`), and the limits and number of lines it makes
    /// the search use: a capped depth and at least [`Skill::LINES`] lines to pick from.
    fn strength(&self) -> (Option<Skill>, Limits, usize) {
        let skill = self.options.limit_strength.then(|| Skill::from_elo(self.options.elo));
        let mut limits = self.limits.clone();
        let mut multipv = self.options.multipv;
        if let Some(skill) = skill {
            let cap = skill.depth_limit();
            limits.depth = Some(limits.depth.map_or(cap, |d| d.min(cap)));
            multipv = multipv.max(Skill::LINES);
        }
        (skill, limits, multipv)
    }

    /// The root move to play: the best, or the skill level's pick among the searched lines.
    fn chosen<'w>(&self, main: &'w Worker, skill: Option<Skill>, multipv: usize) -> &'w RootMove {
        match skill {
            Some(skill) => {
                let mut seed = self.root.key() ^ self.start.elapsed().as_nanos() as u64 ^ 0x9e37_79b9_7f4a_7c15;
                let lines = multipv.min(main.root_moves.len());
                let index = skill.pick(&main.root_moves, lines, || xorshift(&mut seed));
                &main.root_moves[index]
            }
            None => &main.root_moves[0],
        }
    }

    /// A move to ponder on after `best` when its line ends there: the hash table's move for
    /// the position after it, if legal.
    fn ponder_from_table(&self, best: Move) -> Option<Move> {
        let mut child = self.root;
        child.play_unchecked(best);
        self.tt.probe(child.key(), 0).and_then(|e| e.mv).filter(|&m| child.is_legal(m))
    }
}

/// Waits while the GUI still owes a `stop` (after `go infinite`) or a `ponderhit` or `stop`
/// (after `go ponder`): the protocol forbids answering before, even when the search is over.
fn wait_for_release(control: &Control, infinite: bool) {
    while !control.stopped() && (control.pondering.load(Ordering::Relaxed) || infinite) {
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// xorshift64*, the facade's generator: plenty for picking a book move or a skill level's
/// move among a handful (`state` must not be 0).
fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    state.wrapping_mul(0x2545_f491_4f6c_dd1d)
}

/// The report of one PV line; lines not yet searched in this iteration show the previous
/// iteration's result, as GUIs expect a complete MultiPV block.
///
/// `wdl_root`: the root, when the line shows a win/draw/loss estimate. `root_value`: the
/// tables' value of the root, which replaces the search's score unless that is a mate (the
/// tables keep the result; the search may see the mate itself).
fn info_line(
    shared: &Shared<'_>,
    rm: &RootMove,
    depth: i32,
    index: usize,
    wdl_root: Option<&Position>,
    root_value: Option<Value>,
) -> Option<SearchInfo> {
    let updated = rm.score != -INFINITE;
    let value = if updated { rm.score } else { rm.previous_score };
    if value == -INFINITE {
        return None;
    }
    let value = match root_value {
        Some(tb) if !is_mate_score(value) => tb,
        _ => value,
    };
    let depth = if updated { depth } else { (depth - 1).max(1) };
    let time = shared.elapsed();
    let nodes = shared.total_nodes();
    let micros = time.as_micros().max(1) as u64;
    Some(SearchInfo {
        depth: depth as u32,
        seldepth: rm.seldepth.max(1) as u32,
        multipv: index as u32 + 1,
        score: to_score(value),
        bound: if updated && rm.bound != Bound::Exact { Some(rm.bound) } else { None },
        wdl: wdl_root.map(|root| root_wdl(value, root)),
        nodes,
        nps: nodes.saturating_mul(1_000_000) / micros,
        hashfull: shared.tt.hashfull(),
        tbhits: shared.tablebase.as_ref().map_or(0, Probing::hits),
        time,
        pv: rm.pv.clone(),
    })
}

/// The estimate shown for a root value: the model's, except where neither side has the
/// material to mate, a certain draw whatever the score.
fn root_wdl(value: Value, root: &Position) -> Wdl {
    if root.is_insufficient_material() && !is_mate_score(value) {
        return Wdl { win: 0, draw: 1000, loss: 0 };
    }
    Wdl::from_value(value, wdl_material(root))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::random_network;

    /// Runs a depth-4 search and tells whether the root is in the hash table afterwards.
    fn search_and_probe(engine: &mut Engine) -> bool {
        engine.go(Limits::depth(4), |_| {}).unwrap();
        engine.wait();
        engine.tt.probe(engine.root.key(), 0).is_some()
    }

    #[test]
    fn the_hash_table_is_cleared_when_the_evaluation_changes() {
        let mut engine = Engine::new();
        // Start from the hand-crafted evaluation (the default is the built-in network).
        engine.set_option(EngineOption::UseNnue(false)).unwrap();
        let key = engine.root.key();
        assert!(search_and_probe(&mut engine));
        // Same evaluation: the table is kept.
        engine.evaluation_for_search();
        assert!(engine.tt.probe(key, 0).is_some());
        // A network loaded but not in use changes nothing.
        let network = Arc::new(random_network(1));
        engine.set_network(Arc::clone(&network));
        engine.evaluation_for_search();
        assert!(engine.tt.probe(key, 0).is_some());
        // UseNNUE on: hand-crafted entries go.
        engine.set_option(EngineOption::UseNnue(true)).unwrap();
        assert!(engine.evaluation_for_search().network().is_some_and(|n| Arc::ptr_eq(n, &network)));
        assert!(engine.tt.probe(key, 0).is_none());
        assert!(search_and_probe(&mut engine));
        // Another network: cleared again; the same one again: kept.
        engine.set_network(Arc::new(random_network(2)));
        engine.evaluation_for_search();
        assert!(engine.tt.probe(key, 0).is_none());
        assert!(search_and_probe(&mut engine));
        engine.evaluation_for_search();
        assert!(engine.tt.probe(key, 0).is_some());
        // Back to hand-crafted terms: cleared.
        engine.set_option(EngineOption::UseNnue(false)).unwrap();
        assert!(matches!(engine.evaluation_for_search(), Evaluator::HandCrafted));
        assert!(engine.tt.probe(key, 0).is_none());
        // The built-in network: cleared again.
        assert!(search_and_probe(&mut engine));
        engine.use_embedded_network();
        engine.set_option(EngineOption::UseNnue(true)).unwrap();
        assert!(engine.evaluation_for_search().same_as(&Evaluator::embedded()));
        assert!(engine.tt.probe(key, 0).is_none());
    }
}
