//! The search: iterative deepening with aspiration windows over a principal variation
//! search, quiescence search at the leaves, and the usual selectivity (null move, reverse
//! futility, futility, late move pruning and reductions, SEE and history pruning; singular
//! (single and double), check and negative extensions, multi-cut). One [`Worker`] runs
//! per thread; threads share only the transposition table and the stop flag (Lazy SMP).

use crate::correction::{CorrectionHistory, CorrectionKeys};
use crate::evaluator::Evaluator;
use crate::hce::{evaluate_with, PawnTable};
use crate::history::{move_context, piece_index, stat_bonus, stat_malus, History, NO_CONTEXT};
use crate::limits::Limits;
use crate::movepick::{is_quiet, MovePicker, OrderingContext};
use crate::nnue::stack::AccumulatorStack;
use crate::parameters as param;
use crate::score::{is_mate_score, mate_in, mated_in, Value, DRAW, INFINITE, MATE_BOUND, MAX_PLY};
use crate::see::see_ge;
use crate::tablebase::{Probing, TB_WIN};
use crate::time::{effort_scale, TimeBudget};
use crate::tt::{Bound, TranspositionTable};
use crate::Instant;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tempo_core::{Move, MoveFilter, Position, Role};

/// A node counter on its own cache line, so threads publishing counts do not contend.
#[derive(Default)]
#[repr(align(64))]
pub struct NodeCounter(pub AtomicU64);

/// Flags shared by the threads of one search and the facade.
pub struct Control {
    /// Set to make every thread return as soon as possible.
    pub stop: AtomicBool,
    /// `true` while `go ponder` has not been followed by `ponderhit`.
    pub pondering: AtomicBool,
    /// Microseconds from the search start to `ponderhit` (time management counts from there).
    pub ponderhit_us: AtomicU64,
    /// When the `go` command arrived.
    pub start: Instant,
    /// Set just before the best move is reported: from then on the search thread only
    /// exits, and a new command may wait for it instead of being refused.
    pub done: AtomicBool,
}

impl Control {
    /// Fresh flags.
    pub fn new(pondering: bool, start: Instant) -> Control {
        Control {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(pondering),
            ponderhit_us: AtomicU64::new(0),
            start,
            done: AtomicBool::new(false),
        }
    }

    /// `true` once the search must end.
    #[inline]
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// Everything the threads of one search share.
pub struct Shared<'a> {
    /// The transposition table.
    pub tt: &'a TranspositionTable,
    /// Stop and ponder flags.
    pub control: &'a Control,
    /// One node counter per thread.
    pub nodes: &'a [NodeCounter],
    /// The search limits.
    pub limits: &'a Limits,
    /// The time budget.
    pub budget: TimeBudget,
    /// When the search started.
    pub start: Instant,
    /// Number of principal variations to search.
    pub multipv: usize,
    /// The Syzygy tables, when some are configured and in reach.
    pub tablebase: Option<Probing<'a>>,
}

impl<'a> Shared<'a> {
    /// A one-thread, one-line search without a clock or tablebases (the bench's and the
    /// tests' searches), started now.
    pub fn untimed(
        tt: &'a TranspositionTable,
        control: &'a Control,
        nodes: &'a [NodeCounter],
        limits: &'a Limits,
    ) -> Shared<'a> {
        Shared {
            tt,
            control,
            nodes,
            limits,
            budget: TimeBudget::default(),
            start: Instant::now(),
            multipv: 1,
            tablebase: None,
        }
    }

    /// Total nodes of all threads.
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.0.load(Ordering::Relaxed)).sum()
    }

    /// Time since the search started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Time counted against the clock: since `ponderhit` when pondering was involved.
    pub fn clock_elapsed(&self) -> Duration {
        let offset = Duration::from_micros(self.control.ponderhit_us.load(Ordering::Relaxed));
        self.start.elapsed().saturating_sub(offset)
    }
}

/// A root move with the results of the latest iterations.
#[derive(Clone, Debug)]
pub struct RootMove {
    /// The move.
    pub mv: Move,
    /// Score of the current iteration (`-INFINITE` if not searched to completion yet).
    pub score: Value,
    /// Score of the previous iteration.
    pub previous_score: Value,
    /// What `score` bounds when it came from an aspiration window failure.
    pub bound: Bound,
    /// The principal variation, starting with `mv`.
    pub pv: Vec<Move>,
    /// Selective depth reached below it.
    pub seldepth: usize,
    /// Nodes this worker searched below it in the current search, all iterations together.
    pub nodes: u64,
}

impl RootMove {
    fn new(mv: Move) -> RootMove {
        RootMove {
            mv,
            score: -INFINITE,
            previous_score: -INFINITE,
            bound: Bound::Exact,
            pv: vec![mv],
            seldepth: 0,
            nodes: 0,
        }
    }
}

/// Progress the main thread reports while searching.
pub enum Progress<'a> {
    /// An iteration (or an aspiration re-search) finished for PV line `pv_index`.
    Iteration {
        /// Nominal depth.
        depth: i32,
        /// The root moves, best first; lines `0..lines` are the reported PVs.
        root_moves: &'a [RootMove],
        /// Number of valid PV lines.
        lines: usize,
    },
    /// The root move being searched (sent only on long searches).
    CurrMove {
        /// Nominal depth.
        depth: i32,
        /// The move.
        mv: Move,
        /// Its number in the root move list, from 1.
        number: usize,
    },
}

#[derive(Clone, Copy)]
struct StackEntry {
    static_eval: Value,
    killers: [Option<Move>; 2],
    context: usize,
    current: Option<Move>,
    /// The move a singular-extension search leaves out at this ply.
    excluded: Option<Move>,
    /// Double extensions on the path to this ply (bounded: each one deepens the whole line).
    double_extensions: u8,
}

const NO_EVAL: Value = -INFINITE;

impl Default for StackEntry {
    fn default() -> StackEntry {
        StackEntry {
            static_eval: NO_EVAL,
            killers: [None; 2],
            context: NO_CONTEXT,
            current: None,
            excluded: None,
            double_extensions: 0,
        }
    }
}

/// Offset of ply 0 in the stack, so that `ply - 2` and similar are always valid.
const STACK_OFFSET: usize = 4;

/// Late move reduction table, indexed by depth and move number, in 1024ths of a ply, so
/// that the adjustments (history above all) add up before the total is rounded to whole plies.
struct Reductions([[i32; 64]; 64]);

/// One ply in [`Reductions`]' unit.
const PLY: i32 = 1024;

impl Reductions {
    fn new() -> Reductions {
        let base = f64::from(param::lmr_base()) / 100.0;
        let divisor = f64::from(param::lmr_divisor()) / 100.0;
        let mut table = [[0; 64]; 64];
        for (d, row) in table.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = ((base + (d as f64).ln() * (m as f64).ln() / divisor) * f64::from(PLY)) as i32;
            }
        }
        Reductions(table)
    }

    #[inline]
    fn get(&self, depth: i32, move_count: usize) -> i32 {
        self.0[(depth as usize).min(63)][move_count.min(63)]
    }
}

/// The per-thread search state.
pub struct Worker {
    /// Thread index (0 is the main thread, which alone reports and manages time).
    pub id: usize,
    history: History,
    /// What searches have shown about the static evaluation's errors.
    correction: CorrectionHistory,
    pawns: PawnTable,
    /// The NNUE accumulators when the search evaluates with a network; `None` for the
    /// hand-crafted evaluation.
    nnue: Option<AccumulatorStack>,
    stack: Vec<StackEntry>,
    /// Keys of the game before the root, then of the current search path (excluding the
    /// current node): repetition detection looks back through it.
    keys: Vec<u64>,
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    /// The root moves of the current search.
    pub root_moves: Vec<RootMove>,
    nodes: u64,
    seldepth: usize,
    pv_index: usize,
    root_depth: i32,
    nmp_min_ply: usize,
    best_move_changes: f64,
    /// The last fully completed depth.
    pub completed_depth: i32,
    reductions: Reductions,
}

impl Worker {
    /// A worker with empty histories.
    pub fn new(id: usize) -> Worker {
        Worker {
            id,
            history: History::new(),
            correction: CorrectionHistory::new(),
            pawns: PawnTable::new(),
            nnue: None,
            stack: vec![StackEntry::default(); MAX_PLY + STACK_OFFSET + 4],
            keys: Vec::with_capacity(1024),
            pv: vec![[Move::NULL; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            root_moves: Vec::new(),
            nodes: 0,
            seldepth: 0,
            pv_index: 0,
            root_depth: 0,
            nmp_min_ply: 0,
            best_move_changes: 0.0,
            completed_depth: 0,
            reductions: Reductions::new(),
        }
    }

    /// Forgets all learnt statistics (new game).
    pub fn clear(&mut self) {
        self.history.clear();
        self.correction.clear();
    }

    /// Chooses the evaluation of the following searches.
    pub fn set_evaluator(&mut self, evaluator: &Evaluator) {
        match evaluator {
            Evaluator::Network(network) if self.nnue.as_ref().is_some_and(|s| Arc::ptr_eq(s.network(), network)) => {}
            Evaluator::Network(network) => self.nnue = Some(AccumulatorStack::new(Arc::clone(network))),
            Evaluator::HandCrafted => self.nnue = None,
        }
    }

    /// The static evaluation of `pos`, the position at `ply`, for the side to move: the
    /// network's (incrementally, bounded to the non-mate range) or the hand-crafted one.
    #[inline(always)]
    fn evaluate(&mut self, pos: &Position, ply: usize) -> Value {
        match &mut self.nnue {
            Some(nnue) => nnue.evaluate(ply, pos),
            None => evaluate_with(pos, &mut self.pawns),
        }
    }

    /// The static evaluation `raw` of the position with keys `keys`, shifted by the
    /// correction history and kept out of the mate range.
    #[inline]
    fn corrected(&self, raw: Value, keys: &CorrectionKeys) -> Value {
        (raw + self.correction.correction(keys)).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// Nodes searched by this worker in the current search.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Prepares a search of `root` (legal moves `moves`, already filtered by `searchmoves`),
    /// reached through the positions with keys `game_keys`.
    pub fn prepare(&mut self, game_keys: &[u64], moves: &[Move]) {
        self.keys.clear();
        self.keys.extend_from_slice(game_keys);
        self.root_moves = moves.iter().map(|&m| RootMove::new(m)).collect();
        self.nodes = 0;
        self.seldepth = 0;
        self.completed_depth = 0;
        self.best_move_changes = 0.0;
        self.nmp_min_ply = 0;
        // A tuner may have changed the parameters the table is computed from.
        #[cfg(feature = "tune")]
        {
            self.reductions = Reductions::new();
        }
        for entry in &mut self.stack {
            *entry = StackEntry::default();
        }
    }

    #[inline]
    fn st(&self, ply: usize) -> &StackEntry {
        &self.stack[ply + STACK_OFFSET]
    }

    #[inline]
    fn st_mut(&mut self, ply: usize) -> &mut StackEntry {
        &mut self.stack[ply + STACK_OFFSET]
    }

    /// Iterative deepening. The main thread (id 0) reports through `report` and decides
    /// when to stop; helpers run until the stop flag is set.
    pub fn iterative_deepening(&mut self, sh: &Shared<'_>, root: &Position, report: &mut dyn FnMut(Progress<'_>)) {
        if self.root_moves.is_empty() {
            return;
        }
        let main = self.id == 0;
        let max_depth = sh.limits.depth.map_or(MAX_PLY as i32 - 4, |d| (d as i32).clamp(1, MAX_PLY as i32 - 4));
        let multipv = sh.multipv.min(self.root_moves.len()).max(1);
        let mut last_best: Option<Move> = None;
        let mut stable_iterations = 0;
        if let Some(nnue) = &mut self.nnue {
            // The only accumulators computed from scratch: every other ply updates its parent's.
            nnue.set_root(root);
        }

        for depth in 1..=max_depth {
            if self.stopped(sh) {
                break;
            }
            // Lazy SMP diversity: odd helpers skip every other depth, so the threads are
            // spread over two iterations and fill the shared table with different work.
            if !main && self.id % 2 == 1 && depth > 1 && depth % 2 == 0 && depth < max_depth {
                continue;
            }
            self.root_depth = depth;
            self.best_move_changes *= f64::from(param::tm_instability_decay()) / 100.0;
            for rm in &mut self.root_moves {
                rm.previous_score = rm.score;
            }
            for pv_index in 0..multipv {
                self.pv_index = pv_index;
                self.seldepth = 0;
                self.aspiration(sh, root, depth, report);
                // Stable sort keeps the previous order among equal (unsearched) moves.
                self.root_moves[pv_index..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                if self.stopped(sh) {
                    break;
                }
            }
            self.root_moves.sort_by_key(|rm| std::cmp::Reverse(rm.score));
            if main {
                report(Progress::Iteration { depth, root_moves: &self.root_moves, lines: multipv });
            }
            if self.stopped(sh) {
                break;
            }
            self.completed_depth = depth;
            if !main {
                continue;
            }

            // Mate limit: stop once a mate at most that many moves away is proven.
            let best = &self.root_moves[0];
            if let Some(mate) = sh.limits.mate {
                if best.score >= MATE_BOUND && mate_in(2 * mate as usize) <= best.score {
                    break;
                }
            }
            if sh.limits.nodes.is_some_and(|n| sh.total_nodes() >= n) {
                break;
            }
            // Soft node limit: no new iteration once it is reached (data generation's fixed
            // effort per move, which ends on a completed iteration rather than mid-search).
            if sh.limits.soft_nodes.is_some_and(|n| sh.total_nodes() >= n) {
                break;
            }
            // Soft time limit, stretched while the best move keeps changing.
            if Some(best.mv) == last_best {
                stable_iterations += 1;
            } else {
                stable_iterations = 0;
            }
            last_best = Some(best.mv);
            if let Some(soft) = sh.budget.soft {
                if !sh.control.pondering.load(Ordering::Relaxed) && sh.limits.movetime.is_none() {
                    let hundredths = |v: i32| f64::from(v) / 100.0;
                    let stability = hundredths(param::tm_stability_base())
                        - hundredths(param::tm_stability_step()) * f64::from(stable_iterations.min(6));
                    let instability = 1.0 + self.best_move_changes.min(3.0) * hundredths(param::tm_instability());
                    let single = if self.root_moves.len() == 1 { hundredths(param::tm_single_move()) } else { 1.0 };
                    let effort = effort_scale(best.nodes, self.nodes);
                    let scaled = soft.as_secs_f64() * stability * instability * single * effort;
                    if sh.clock_elapsed().as_secs_f64() >= scaled {
                        break;
                    }
                }
            }
        }
    }

    fn aspiration(&mut self, sh: &Shared<'_>, root: &Position, depth: i32, report: &mut dyn FnMut(Progress<'_>)) {
        let previous = self.root_moves[self.pv_index].previous_score;
        let mut delta: Value = param::aspiration_window();
        let (mut alpha, mut beta) = if depth >= 4 && previous.abs() < MATE_BOUND {
            ((previous - delta).max(-INFINITE), (previous + delta).min(INFINITE))
        } else {
            (-INFINITE, INFINITE)
        };
        loop {
            let value = self.search::<true>(sh, root, alpha, beta, depth, 0, false, report);
            let pv_index = self.pv_index;
            self.root_moves[pv_index..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            if self.stopped(sh) {
                return;
            }
            if value <= alpha {
                // Fail low: widen downwards, pull beta in (the old best move is in doubt).
                beta = (alpha + beta) / 2;
                alpha = (value - delta).max(-INFINITE);
                self.root_moves[pv_index].bound = Bound::Upper;
            } else if value >= beta {
                beta = (value + delta).min(INFINITE);
                self.root_moves[pv_index].bound = Bound::Lower;
            } else {
                self.root_moves[pv_index].bound = Bound::Exact;
                return;
            }
            if self.id == 0 && sh.elapsed() > Duration::from_secs(2) {
                report(Progress::Iteration { depth, root_moves: &self.root_moves, lines: pv_index + 1 });
            }
            delta += delta * param::aspiration_growth() / 100;
            if delta > 1000 {
                alpha = -INFINITE;
                beta = INFINITE;
            }
        }
    }

    /// `true` once the search must end. The first iteration always completes (it takes
    /// microseconds), so that a `stop` right after `go` still gets a searched move.
    #[inline]
    fn stopped(&self, sh: &Shared<'_>) -> bool {
        self.completed_depth >= 1 && sh.control.stopped()
    }

    /// Enters a node at `ply`: `false` when the search must stop instead, otherwise the node
    /// is counted and, in a PV node, its line reset and the selective depth raised.
    #[inline]
    fn enter<const PV: bool>(&mut self, sh: &Shared<'_>, ply: usize) -> bool {
        if self.stopped(sh) {
            return false;
        }
        self.visit(sh);
        if PV {
            self.pv_len[ply] = ply;
            self.seldepth = self.seldepth.max(ply + 1);
        }
        true
    }

    /// Counts a node and, on the main thread, checks the node and time limits.
    #[inline]
    fn visit(&mut self, sh: &Shared<'_>) {
        self.nodes += 1;
        sh.nodes[self.id].0.store(self.nodes, Ordering::Relaxed);
        if self.id != 0 {
            return;
        }
        if let Some(limit) = sh.limits.nodes {
            // Exact for a single thread: this thread's own count is checked every node. The
            // first iteration always completes, so that even `go nodes 1` plays a searched
            // move rather than the first one generated.
            let total = if sh.nodes.len() == 1 { self.nodes } else { sh.total_nodes() };
            if total >= limit && self.completed_depth >= 1 {
                sh.control.stop.store(true, Ordering::Relaxed);
            }
        }
        if self.nodes % 1024 == 0 && self.completed_depth >= 1 && !sh.control.pondering.load(Ordering::Relaxed) {
            if let Some(hard) = sh.budget.hard {
                if sh.clock_elapsed() >= hard {
                    sh.control.stop.store(true, Ordering::Relaxed);
                }
            }
        }
    }

    /// Draw by the fifty-move rule, insufficient material or repetition within the search
    /// path or the game (any repetition counts: the side that can repeat can also claim).
    fn is_draw(&self, pos: &Position) -> bool {
        if pos.halfmove_clock() >= 100 {
            return !pos.is_check() || pos.has_legal_moves();
        }
        if pos.is_insufficient_material() {
            return true;
        }
        let key = pos.key();
        let reach = (pos.halfmove_clock() as usize).min(self.keys.len());
        let mut distance = 4;
        while distance <= reach {
            if self.keys[self.keys.len() - distance] == key {
                return true;
            }
            distance += 2;
        }
        false
    }

    #[inline]
    fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][ply] = m;
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    #[inline]
    fn has_non_pawn_material(pos: &Position) -> bool {
        let us = pos.by_color(pos.turn());
        (us & !(pos.by_role(Role::Pawn) | pos.by_role(Role::King))).any()
    }

    #[allow(clippy::too_many_arguments)]
    #[allow(clippy::too_many_lines)]
    fn search<const PV: bool>(
        &mut self,
        sh: &Shared<'_>,
        pos: &Position,
        mut alpha: Value,
        mut beta: Value,
        mut depth: i32,
        ply: usize,
        cut_node: bool,
        report: &mut dyn FnMut(Progress<'_>),
    ) -> Value {
        let root = ply == 0;

        // Step 1. At the horizon, resolve captures with the quiescence search.
        if depth <= 0 {
            return self.qsearch::<PV>(sh, pos, alpha, beta, ply);
        }

        // Step 2. Check the stop flag, count the node, check the limits.
        if !self.enter::<PV>(sh, ply) {
            return DRAW;
        }
        let in_check = pos.is_check();

        if !root {
            // Step 3. Draws and the maximum ply.
            if self.is_draw(pos) {
                return DRAW;
            }
            if ply >= MAX_PLY - 1 {
                return if in_check { DRAW } else { self.evaluate(pos, ply) };
            }
            // Step 4. Mate distance pruning: no line can be better than mating right here.
            alpha = alpha.max(mated_in(ply));
            beta = beta.min(mate_in(ply + 1));
            if alpha >= beta {
                return alpha;
            }
        }

        // Step 5. Transposition table lookup. A search that leaves out a move (for a
        // singular extension) is about a different question than the stored entry.
        let key = pos.key();
        let excluded = self.st(ply).excluded;
        let tt_entry = if excluded.is_some() { None } else { sh.tt.probe(key, ply) };
        let tt_move = if root { Some(self.root_moves[self.pv_index].mv) } else { tt_entry.and_then(|e| e.mv) };
        if !PV {
            if let Some(e) = tt_entry {
                // Near the fifty-move horizon stored scores ignore the coming draw.
                if e.depth >= depth && e.cuts_off(alpha, beta) && pos.halfmove_clock() < 90 {
                    return e.value;
                }
            }
        }

        // Step 5b. Tablebases: after a capture or pawn move, a position within the tables'
        // reach has its exact result.
        if !root && excluded.is_none() {
            if let Some((v, bound)) = sh.tablebase.as_ref().and_then(|tb| tb.probe(pos, depth, ply)) {
                let cuts = match bound {
                    Bound::Exact => true,
                    Bound::Lower => v >= beta,
                    Bound::Upper => v <= alpha,
                };
                if cuts {
                    sh.tt.store(key, ply, None, v, NO_EVAL, (depth + 6).min(MAX_PLY as i32 - 1), bound);
                    return v;
                }
            }
        }

        // Step 6. Static evaluation, shifted by the correction history, then refined by the
        // stored score when its bound allows. The table keeps the network's own value.
        let (raw_eval, static_eval, eval, corr_keys) = if in_check {
            (NO_EVAL, NO_EVAL, NO_EVAL, None)
        } else {
            let keys = CorrectionKeys::of(pos);
            let raw = match tt_entry {
                Some(e) if e.eval.abs() < MATE_BOUND => e.eval,
                _ => self.evaluate(pos, ply),
            };
            let corrected = self.corrected(raw, &keys);
            (raw, corrected, tt_entry.map_or(corrected, |e| e.refine(corrected)), Some(keys))
        };
        self.st_mut(ply).static_eval = static_eval;
        self.st_mut(ply + 2).killers = [None; 2];
        // Improving: better than two plies ago (four if we were in check then). Entries
        // below the root hold no evaluation, which counts as improving.
        let improving = !in_check && {
            let two = self.stack[ply + STACK_OFFSET - 2].static_eval;
            let four = self.stack[ply + STACK_OFFSET - 4].static_eval;
            if two != NO_EVAL {
                static_eval > two
            } else if four != NO_EVAL {
                static_eval > four
            } else {
                true
            }
        };

        if !PV && !in_check && !root && excluded.is_none() {
            // Step 7. Razoring: far below alpha at low depth, only captures can help.
            if depth <= param::razor_max_depth()
                && eval + param::razor_depth_margin() * depth + param::razor_base() < alpha
            {
                let v = self.qsearch::<false>(sh, pos, alpha, alpha + 1, ply);
                if v <= alpha {
                    return v;
                }
            }

            // Step 8. Reverse futility pruning: far above beta, the opponent will not catch up.
            if depth <= param::rfp_max_depth()
                && eval < MATE_BOUND
                && eval - param::rfp_margin() * (depth - i32::from(improving)) >= beta
            {
                return eval;
            }

            // Step 9. Null move pruning, verified at high depth against zugzwang.
            if depth >= param::nmp_min_depth()
                && eval >= beta
                && static_eval >= beta - param::nmp_eval_depth() * depth + param::nmp_eval_base()
                && self.stack[ply + STACK_OFFSET - 1].current.is_some()
                && ply >= self.nmp_min_ply
                && Self::has_non_pawn_material(pos)
                && beta > -MATE_BOUND
            {
                let r = param::nmp_base_reduction()
                    + depth / param::nmp_depth_divisor()
                    + ((eval - beta) / param::nmp_eval_divisor()).min(param::nmp_eval_max_reduction());
                let mut child = *pos;
                child.play_null();
                if let Some(nnue) = &mut self.nnue {
                    nnue.push_null(ply);
                }
                self.st_mut(ply).current = None;
                self.st_mut(ply).context = NO_CONTEXT;
                self.st_mut(ply + 1).double_extensions = self.st(ply).double_extensions;
                self.keys.push(key);
                let v = -self.search::<false>(sh, &child, -beta, -beta + 1, depth - r, ply + 1, !cut_node, report);
                self.keys.pop();
                if self.stopped(sh) {
                    return DRAW;
                }
                if v >= beta {
                    let v = if v >= MATE_BOUND { beta } else { v };
                    if self.nmp_min_ply != 0 || depth < param::nmp_verify_depth() {
                        return v;
                    }
                    // Verification: search without null moves for our side near this ply.
                    self.nmp_min_ply = ply + (3 * (depth - r) / 4) as usize;
                    let w = self.search::<false>(sh, pos, beta - 1, beta, depth - r, ply, false, report);
                    self.nmp_min_ply = 0;
                    if w >= beta {
                        return v;
                    }
                }
            }
        }

        // Step 10. Internal iterative reduction: without a hash move ordering is poor, so a
        // shallower search is a better use of the time.
        if !root && depth >= param::iir_min_depth() && tt_move.is_none() && excluded.is_none() {
            depth -= 1;
        }

        // Step 11. Generate and order the moves.
        let prev_contexts = [self.stack[ply + STACK_OFFSET - 1].context, self.stack[ply + STACK_OFFSET - 2].context];
        let mut picker = MovePicker::new(OrderingContext {
            tt_move,
            killers: self.st(ply).killers,
            countermove: self.history.countermove(prev_contexts[0]),
            prev_contexts,
        });
        if root {
            for rm in &self.root_moves[self.pv_index..] {
                picker.push_in_order(rm.mv);
            }
        } else {
            if !picker.start(pos, &self.history) {
                // Step 12. Checkmate or stalemate.
                return if in_check { mated_in(ply) } else { DRAW };
            }
        }

        let us = pos.turn();
        let mut best_value = -INFINITE;
        let mut best_move: Option<Move> = None;
        let mut move_count = 0;
        let mut quiets_tried: [Move; 64] = [Move::NULL; 64];
        let mut quiet_count = 0;
        let mut captures_tried: [Move; 32] = [Move::NULL; 32];
        let mut capture_count = 0;
        let mut skip_quiets = false;
        let non_pawn = Self::has_non_pawn_material(pos);
        let original_alpha = alpha;

        // Step 13. Loop through the moves.
        while let Some((m, order_score)) = picker.next(pos, &self.history) {
            if Some(m) == excluded {
                continue;
            }
            let quiet = is_quiet(pos, m);
            if quiet && skip_quiets {
                continue;
            }
            move_count += 1;
            let check = picker.gives_check(pos, m);

            if root && self.id == 0 && sh.elapsed() > Duration::from_secs(3) {
                report(Progress::CurrMove { depth: self.root_depth, mv: m, number: move_count + self.pv_index });
            }

            // Step 14. Pruning at shallow depth.
            if !root && best_value > -MATE_BOUND && non_pawn {
                let lmr_depth = (depth - 1 - self.reductions.get(depth, move_count) / PLY).max(0);
                if quiet && !check {
                    // Late move pruning: enough quiet moves have failed here.
                    let limit = (param::lmp_base() + depth * depth) / (2 - i32::from(improving));
                    if move_count as i32 > limit {
                        skip_quiets = true;
                        picker.skip_quiets();
                        continue;
                    }
                    // Futility pruning: this quiet move will not lift the score to alpha.
                    if !in_check
                        && lmr_depth <= param::futility_max_depth()
                        && eval + param::futility_base() + param::futility_depth_margin() * lmr_depth <= alpha
                    {
                        continue;
                    }
                    // History pruning: a quiet move that has failed again and again in
                    // similar positions (its ordering score is its history).
                    if lmr_depth <= param::history_prune_max_depth()
                        && order_score < -param::history_prune_margin() * depth
                    {
                        continue;
                    }
                    // SEE pruning: the move hangs material.
                    if lmr_depth <= param::see_quiet_max_depth()
                        && !see_ge(pos, m, -param::see_quiet_margin() * lmr_depth * lmr_depth)
                    {
                        continue;
                    }
                } else if depth <= param::see_noisy_max_depth() && !see_ge(pos, m, -param::see_noisy_margin() * depth) {
                    continue;
                }
            }

            // Step 15. Extensions, bounded so that extended lines cannot blow up the tree.
            let mut extension = 0;
            if ply < 2 * self.root_depth as usize {
                // Singular extension: when every alternative to the hash move fails well
                // below its stored score, the hash move is the only good one and deserves a
                // deeper look. When even the alternatives beat beta, several moves refute
                // the opponent's last move (multi-cut) and the node fails high at once.
                let singular_candidate = tt_entry.filter(|e| {
                    !root
                        && depth >= param::singular_min_depth()
                        && Some(m) == tt_move
                        && excluded.is_none()
                        && e.depth >= depth - param::singular_tt_depth_margin()
                        && e.bound != Bound::Upper
                        && !is_mate_score(e.value)
                });
                if let Some(e) = singular_candidate {
                    let singular_beta = e.value - param::singular_beta_margin() * depth;
                    self.st_mut(ply).excluded = Some(m);
                    let value = self.search::<false>(
                        sh,
                        pos,
                        singular_beta - 1,
                        singular_beta,
                        (depth - 1) / 2,
                        ply,
                        cut_node,
                        report,
                    );
                    self.st_mut(ply).excluded = None;
                    if self.stopped(sh) {
                        return DRAW;
                    }
                    if value < singular_beta {
                        // Far below: the hash move is the only move at all, worth two plies.
                        let doubles = self.st(ply).double_extensions;
                        let double = !PV
                            && value < singular_beta - param::double_extension_margin()
                            && i32::from(doubles) < param::double_extension_limit();
                        extension = if double { 2 } else { 1 };
                    } else if singular_beta >= beta {
                        return singular_beta;
                    } else if e.value >= beta {
                        // Another move holds beta too: the hash move matters less.
                        extension = -1;
                    }
                }
                if check && extension < 1 {
                    extension = 1;
                }
            }
            let mut new_depth = depth - 1 + extension;

            // Step 16. Make the move.
            let nodes_before = self.nodes;
            let mut child = *pos;
            child.play_unchecked(m);
            sh.tt.prefetch(child.key());
            if let Some(nnue) = &mut self.nnue {
                nnue.push_move(ply, pos, m, &child);
            }
            let context = move_context(pos, m);
            let doubles = self.st(ply).double_extensions + u8::from(extension >= 2);
            self.st_mut(ply + 1).double_extensions = doubles;
            self.st_mut(ply).current = Some(m);
            self.st_mut(ply).context = context;
            self.keys.push(key);

            // Step 17. Late move reductions, then the principal variation search.
            let mut value = -INFINITE;
            let full_window_needed;
            if depth >= param::lmr_min_depth() && move_count > 1 + usize::from(root) && (quiet || order_score < 0) {
                let mut r = self.reductions.get(depth, move_count);
                r -= PLY * i32::from(PV);
                r += PLY * i32::from(!improving);
                r += PLY * i32::from(cut_node);
                if order_score >= 20_000_000 {
                    r -= PLY; // killers and the countermove
                }
                if quiet {
                    let h = self.history.butterfly(us, m, picker.threatened(pos))
                        + self.history.continuation(prev_contexts[0], context)
                        + self.history.continuation(prev_contexts[1], context);
                    r -= h * PLY / param::lmr_history_divisor();
                }
                if check {
                    r -= PLY;
                }
                let reduced = (new_depth - r.max(0) / PLY).clamp(1, new_depth.max(1));
                value = -self.search::<false>(sh, &child, -alpha - 1, -alpha, reduced, ply + 1, true, report);
                if value > alpha && reduced < new_depth {
                    // The reduced search beat alpha, so the move is searched again at full
                    // depth: a ply deeper if it won by a wide margin, a ply shallower if it
                    // barely beat the best move so far.
                    let deeper = value > best_value + param::lmr_deeper_margin() + 2 * new_depth;
                    let shallower = value < best_value + new_depth;
                    new_depth += i32::from(deeper) - i32::from(shallower);
                    full_window_needed = reduced < new_depth;
                } else {
                    full_window_needed = false;
                }
            } else {
                full_window_needed = !PV || move_count > 1;
            }
            if full_window_needed {
                value = -self.search::<false>(sh, &child, -alpha - 1, -alpha, new_depth, ply + 1, !cut_node, report);
            }
            if PV && (move_count == 1 || value > alpha) {
                self.pv_len[ply + 1] = ply + 1;
                value = -self.search::<true>(sh, &child, -beta, -alpha, new_depth, ply + 1, false, report);
            }
            self.keys.pop();

            // Step 18. Abandon the node once stopped: its values are incomplete.
            if self.stopped(sh) {
                return DRAW;
            }

            if root {
                let seldepth = self.seldepth;
                let pv_len = self.pv_len[1].max(1);
                let child_pv: Vec<Move> = self.pv[1][1..pv_len].to_vec();
                let index = self.root_moves.iter().position(|rm| rm.mv == m).unwrap_or(0);
                let rm = &mut self.root_moves[index];
                rm.nodes += self.nodes - nodes_before;
                if move_count == 1 || value > alpha {
                    rm.score = value;
                    rm.seldepth = seldepth;
                    rm.pv.clear();
                    rm.pv.push(m);
                    rm.pv.extend_from_slice(&child_pv);
                    if move_count > 1 {
                        self.best_move_changes += 1.0;
                    }
                } else {
                    rm.score = -INFINITE;
                }
            }

            // Step 19. A new best move?
            if value > best_value {
                best_value = value;
                if value > alpha {
                    best_move = Some(m);
                    if PV && !root {
                        self.update_pv(ply, m);
                    }
                    if value >= beta {
                        break;
                    }
                    alpha = value;
                }
            }
            if Some(m) != best_move {
                if quiet && quiet_count < quiets_tried.len() {
                    quiets_tried[quiet_count] = m;
                    quiet_count += 1;
                } else if !quiet && capture_count < captures_tried.len() {
                    captures_tried[capture_count] = m;
                    capture_count += 1;
                }
            }
        }

        if move_count == 0 {
            // Every move was pruned or filtered out (only possible with searchmoves at the
            // root or pruning below it): fail low without storing anything misleading.
            return if root { alpha } else { best_value.max(alpha) };
        }

        // Step 20. Learn from a cutoff: reward the move, punish the ones tried before it.
        if best_value >= beta {
            if let Some(bm) = best_move {
                let bonus = stat_bonus(depth);
                let malus = stat_malus(depth);
                if is_quiet(pos, bm) {
                    let st = self.st_mut(ply);
                    if st.killers[0] != Some(bm) {
                        st.killers[1] = st.killers[0];
                        st.killers[0] = Some(bm);
                    }
                    if ply >= 1 {
                        self.history.set_countermove(prev_contexts[0], bm);
                    }
                    let ctx = move_context(pos, bm);
                    let threatened = picker.threatened(pos);
                    self.history.update_quiet(us, bm, threatened, ctx, &prev_contexts, bonus);
                    for &q in &quiets_tried[..quiet_count] {
                        let qctx = move_context(pos, q);
                        self.history.update_quiet(us, q, threatened, qctx, &prev_contexts, -malus);
                    }
                } else if let Some(captured) = pos.captured_piece(bm) {
                    let piece = piece_index(pos.piece_at(bm.from()).unwrap_or(captured));
                    self.history.update_capture(piece, bm.to(), captured.role, bonus);
                }
                for &c in &captures_tried[..capture_count] {
                    if let (Some(captured), Some(piece)) = (pos.captured_piece(c), pos.piece_at(c.from())) {
                        self.history.update_capture(piece_index(piece), c.to(), captured.role, -malus);
                    }
                }
            }
        }

        // Step 21. Store the result (not of a search that left a move out: it is incomplete).
        if excluded.is_none() && (!root || self.pv_index == 0) {
            let bound = Bound::of_result(best_value, original_alpha, beta, PV);
            sh.tt.store(key, ply, best_move, best_value, raw_eval, depth, bound);

            // Step 22. Learn the static evaluation's error where the result proves it: a
            // fail-low below it, a fail-high above it, an exact score. Not after a capture
            // (the evaluation of the quiet position says nothing about it) nor in check.
            let proven = if best_value < static_eval { best_value < beta } else { best_move.is_some() };
            if let Some(keys) = &corr_keys {
                if best_move.is_none_or(|m| is_quiet(pos, m)) && best_value.abs() < TB_WIN - MAX_PLY as Value && proven
                {
                    self.correction.update(keys, best_value - static_eval, depth);
                }
            }
        }
        best_value
    }

    fn qsearch<const PV: bool>(
        &mut self,
        sh: &Shared<'_>,
        pos: &Position,
        mut alpha: Value,
        beta: Value,
        ply: usize,
    ) -> Value {
        // Step 1. Check the stop flag, count the node, then draws and the maximum ply.
        if !self.enter::<PV>(sh, ply) {
            return DRAW;
        }
        if self.is_draw(pos) {
            return DRAW;
        }
        let in_check = pos.is_check();
        if ply >= MAX_PLY - 1 {
            return if in_check { DRAW } else { self.evaluate(pos, ply) };
        }

        // Step 2. Transposition table lookup (any stored depth is enough here).
        let key = pos.key();
        let tt_entry = sh.tt.probe(key, ply);
        if !PV {
            if let Some(e) = tt_entry {
                if e.cuts_off(alpha, beta) {
                    return e.value;
                }
            }
        }

        // Step 3. Stand pat: the side to move may decline every capture (not in check).
        let mut best_value;
        let raw_eval;
        let static_eval;
        if in_check {
            best_value = -INFINITE;
            raw_eval = NO_EVAL;
            static_eval = NO_EVAL;
        } else {
            raw_eval = match tt_entry {
                Some(e) if e.eval.abs() < MATE_BOUND => e.eval,
                _ => self.evaluate(pos, ply),
            };
            static_eval = self.corrected(raw_eval, &CorrectionKeys::of(pos));
            best_value = tt_entry.map_or(static_eval, |e| e.refine(static_eval));
            if best_value >= beta {
                return best_value;
            }
            alpha = alpha.max(best_value);
        }

        // Step 4. Captures and promotions (every evasion when in check).
        let filter = if in_check { MoveFilter::All } else { MoveFilter::Captures };
        let mut picker = MovePicker::new(OrderingContext::NONE);
        picker.generate_quiescence(pos, filter, tt_entry.and_then(|e| e.mv));
        if in_check && picker.is_empty() {
            return mated_in(ply);
        }
        let futility_base = static_eval + param::qs_futility_margin();
        let mut best_move = None;
        let original_alpha = alpha;

        while let Some((m, _)) = picker.next(pos, &self.history) {
            // Step 5. Pruning: futile and losing captures (never while escaping check).
            if !in_check {
                if m.promotion_role().is_some_and(|r| r != Role::Queen) {
                    continue;
                }
                if let Some(captured) = pos.captured_piece(m) {
                    let gain = crate::see::SEE_VALUE[captured.role.index()];
                    if !m.is_promotion() && futility_base + gain <= alpha && !picker.gives_check(pos, m) {
                        best_value = best_value.max(futility_base + gain);
                        continue;
                    }
                }
                if !see_ge(pos, m, param::qs_see_threshold()) {
                    continue;
                }
            }

            // Step 6. Make the move and search it.
            let mut child = *pos;
            child.play_unchecked(m);
            sh.tt.prefetch(child.key());
            if let Some(nnue) = &mut self.nnue {
                nnue.push_move(ply, pos, m, &child);
            }
            self.st_mut(ply).current = Some(m);
            self.st_mut(ply).context = move_context(pos, m);
            self.keys.push(key);
            let value = -self.qsearch::<PV>(sh, &child, -beta, -alpha, ply + 1);
            self.keys.pop();
            if self.stopped(sh) {
                return DRAW;
            }

            // Step 7. A new best move?
            if value > best_value {
                best_value = value;
                if value > alpha {
                    best_move = Some(m);
                    if PV {
                        self.update_pv(ply, m);
                    }
                    if value >= beta {
                        break;
                    }
                    alpha = value;
                }
            }
        }

        // Step 8. Store the result.
        let bound = Bound::of_result(best_value, original_alpha, beta, PV);
        sh.tt.store(key, ply, best_move, best_value, raw_eval, 0, bound);
        best_value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn root_moves_count_the_nodes_searched_below_them() {
        let pos: Position = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1".parse().unwrap();
        let tt = TranspositionTable::new(16).unwrap();
        let limits = Limits::depth(8);
        let control = Control::new(false, Instant::now());
        let counters = [NodeCounter::default()];
        let shared = Shared::untimed(&tt, &control, &counters, &limits);
        let mut worker = Worker::new(0);
        worker.set_evaluator(&Evaluator::embedded());
        worker.prepare(&[], &pos.legal_moves());
        std::thread::scope(|scope| {
            std::thread::Builder::new()
                .stack_size(crate::SEARCH_STACK_SIZE)
                .spawn_scoped(scope, || worker.iterative_deepening(&shared, &pos, &mut |_| {}))
                .unwrap()
                .join()
                .unwrap();
        });
        let below: u64 = worker.root_moves.iter().map(|rm| rm.nodes).sum();
        // Every node is below some root move except the root's own visits: one per
        // iteration and aspiration re-search.
        assert!(below < worker.nodes(), "{below} of {}", worker.nodes());
        assert!(below + 100 > worker.nodes(), "{below} of {}", worker.nodes());
        let best = &worker.root_moves[0];
        assert!(best.nodes > 0 && worker.root_moves.iter().all(|rm| rm.nodes <= best.nodes * 20), "{best:?}");
    }
}
