//! The transposition table: a lockless hash table shared by every search thread.
//!
//! Each 64-byte cluster (one cache line) holds four entries of two atomic words: the
//! packed data, and the position key XOR the data. A reader accepts an entry only if the
//! stored key XOR the data it read equals its key, so a torn write by another thread (data
//! and key from different stores) reads as a miss instead of a wrong move or score (the
//! "lockless hashing" of Hyatt and Mann). A move read from the table is still only a hint:
//! the search plays it only if `Position::is_legal` accepts it.

use crate::score::{is_mate_score, Value, MATE_BOUND};
use std::alloc::Layout;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use tempo_core::Move;

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at least the score (a beta cutoff).
    Lower,
    /// The true value is at most the score (no move raised alpha).
    Upper,
    /// The score is exact (a PV node).
    Exact,
}

impl Bound {
    /// What a node's `value` bounds, searched with the window (`alpha`, `beta`): a fail high
    /// is a lower bound, a fail low an upper bound, and a score inside the window is exact in
    /// a PV node only (elsewhere the window is null and no score lands inside it).
    #[must_use]
    pub fn of_result(value: Value, alpha: Value, beta: Value, pv: bool) -> Bound {
        if value >= beta {
            Bound::Lower
        } else if pv && value > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }

    fn bits(self) -> u64 {
        match self {
            Bound::Lower => 1,
            Bound::Upper => 2,
            Bound::Exact => 3,
        }
    }

    fn from_bits(bits: u64) -> Option<Bound> {
        match bits & 3 {
            1 => Some(Bound::Lower),
            2 => Some(Bound::Upper),
            3 => Some(Bound::Exact),
            _ => None,
        }
    }
}

/// A hit in the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    /// The best or refuting move found, if any (unverified: check legality before playing).
    pub mv: Option<Move>,
    /// The score, already converted back to "distance from the probing node" for mates.
    pub value: Value,
    /// The static evaluation of the position.
    pub eval: Value,
    /// The depth the score was searched to.
    pub depth: i32,
    /// What the score bounds.
    pub bound: Bound,
}

impl TtEntry {
    /// Whether the stored score settles a search of the window (`alpha`, `beta`) on its own:
    /// it is exact, or a lower bound at or above `beta`, or an upper bound at or below `alpha`.
    /// The caller checks that the stored depth is enough.
    #[must_use]
    pub fn cuts_off(&self, alpha: Value, beta: Value) -> bool {
        match self.bound {
            Bound::Exact => true,
            Bound::Lower => self.value >= beta,
            Bound::Upper => self.value <= alpha,
        }
    }

    /// `eval` corrected by the stored score where that score says more: when it is exact, or
    /// a bound on the far side of `eval`. Mate scores are no estimate of a position's value,
    /// so they never replace it.
    #[must_use]
    pub fn refine(&self, eval: Value) -> Value {
        let beyond = match self.bound {
            Bound::Exact => true,
            Bound::Lower => self.value > eval,
            Bound::Upper => self.value < eval,
        };
        if beyond && !is_mate_score(self.value) {
            self.value
        } else {
            eval
        }
    }
}

/// Depths are stored with this offset so that quiescence depths (0 and -1) fit in a byte.
const DEPTH_OFFSET: i32 = 8;
const ENTRIES: usize = 4;

#[derive(Default)]
struct Slot {
    key: AtomicU64,
    data: AtomicU64,
}

#[derive(Default)]
#[repr(C, align(64))]
struct Cluster {
    slots: [Slot; ENTRIES],
}

/// The table's clusters, in memory the operating system is asked to back with huge pages.
///
/// Why: every probe lands on a random cache line of a table of many megabytes, and with
/// 4 KiB pages nearly every one also misses the TLB. In profiles of the bench the stall on
/// the table's first touch (the prefetch after a move, the probe) was the largest single
/// cost of the search; with 2 MiB pages its share roughly halved. On Linux the memory is
/// aligned to 2 MiB and marked `MADV_HUGEPAGE` before it is first written (the default
/// transparent-huge-page setting, `madvise`, grants huge pages only to such memory).
/// Elsewhere it is ordinary memory.
struct ClusterMemory {
    ptr: NonNull<Cluster>,
    len: usize,
    layout: Layout,
}

/// Huge page size on x86-64 and most aarch64 Linux systems.
const HUGE_PAGE: usize = 2 * 1024 * 1024;

impl ClusterMemory {
    /// `len` (at least one) zeroed clusters, or `None` if the memory cannot be had.
    fn zeroed(len: usize) -> Option<ClusterMemory> {
        let bytes = len.checked_mul(std::mem::size_of::<Cluster>())?;
        // Below one huge page, huge pages cannot help: keep the cluster's own alignment.
        let (align, size) = if bytes >= HUGE_PAGE {
            (HUGE_PAGE, bytes.checked_next_multiple_of(HUGE_PAGE)?)
        } else {
            (std::mem::align_of::<Cluster>(), bytes)
        };
        let layout = Layout::from_size_align(size, align).ok()?;
        // SAFETY: `layout` has a non-zero size (`len >= 1` and a cluster is 64 bytes).
        let ptr = NonNull::new(unsafe { std::alloc::alloc(layout) })?;
        #[cfg(target_os = "linux")]
        if align == HUGE_PAGE {
            // SAFETY: the range is the allocation just made, which nothing else uses. The
            // advice is only a hint: on failure the memory stays ordinary memory.
            unsafe { libc::madvise(ptr.as_ptr().cast(), size, libc::MADV_HUGEPAGE) };
        }
        // SAFETY: the allocation holds `size >= bytes` writable bytes. All-zero bytes are a
        // valid `Cluster` (atomics of zero), so the `len` clusters are initialised after this.
        unsafe { ptr.as_ptr().write_bytes(0, size) };
        Some(ClusterMemory { ptr: ptr.cast(), len, layout })
    }
}

impl std::ops::Deref for ClusterMemory {
    type Target = [Cluster];

    #[inline]
    fn deref(&self) -> &[Cluster] {
        // SAFETY: `ptr` points to `len` initialised clusters (`zeroed`), alive until drop.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for ClusterMemory {
    fn drop(&mut self) {
        // SAFETY: `ptr` was allocated by the global allocator with exactly `layout`.
        unsafe { std::alloc::dealloc(self.ptr.as_ptr().cast(), self.layout) };
    }
}

// SAFETY: `ClusterMemory` owns its clusters like a `Box<[Cluster]>` would, and a cluster is
// made of atomics, which are `Send` and `Sync`.
unsafe impl Send for ClusterMemory {}
// SAFETY: as above: shared access only reads the slice, whose elements are `Sync`.
unsafe impl Sync for ClusterMemory {}

// data layout: move (16) | value (16) | eval (16) | depth+offset (8) | generation (6) bound (2)
fn pack(mv: Option<Move>, value: Value, eval: Value, depth: i32, generation: u8, bound: Bound) -> u64 {
    let mv = mv.map_or(0, Move::to_u16) as u64;
    let value = value as i16 as u16 as u64;
    let eval = eval as i16 as u16 as u64;
    let depth = (depth + DEPTH_OFFSET).clamp(0, 255) as u64;
    let gen_bound = (u64::from(generation) << 2) | bound.bits();
    mv | value << 16 | eval << 32 | depth << 48 | gen_bound << 56
}

fn stored_depth(data: u64) -> i32 {
    ((data >> 48) & 0xff) as i32 - DEPTH_OFFSET
}

fn stored_generation(data: u64) -> u8 {
    (data >> 58) as u8
}

/// The lockless shared transposition table.
pub struct TranspositionTable {
    clusters: ClusterMemory,
    // Atomic so that a table shared through an `Arc` can start a new search without `&mut`.
    generation: AtomicU8,
}

/// Converts a score to "distance from this node" before storing, so that a mate found at
/// one ply reads correctly when the position is reached at another.
fn value_to_tt(v: Value, ply: usize) -> Value {
    if v >= MATE_BOUND {
        v + ply as Value
    } else if v <= -MATE_BOUND {
        v - ply as Value
    } else {
        v
    }
}

/// A stored value as seen from `ply`. A mate stored deep in the tree may lie further from the
/// root than the deepest mate a value can say (`MAX_PLY` plies): it stays the longest mate
/// rather than fall out of the mate range into scores that read as centipawns (or as a
/// tablebase win).
fn value_from_tt(v: Value, ply: usize) -> Value {
    if v >= MATE_BOUND {
        (v - ply as Value).max(MATE_BOUND)
    } else if v <= -MATE_BOUND {
        (v + ply as Value).min(-MATE_BOUND)
    } else {
        v
    }
}

impl TranspositionTable {
    /// A table of `mb` MiB (at least one cluster), or `None` if the memory cannot be
    /// reserved.
    pub fn new(mb: usize) -> Option<TranspositionTable> {
        let count = (mb.saturating_mul(1024 * 1024) / std::mem::size_of::<Cluster>()).max(1);
        let clusters = ClusterMemory::zeroed(count)?;
        Some(TranspositionTable { clusters, generation: AtomicU8::new(0) })
    }

    /// Empties the table.
    pub fn clear(&self) {
        for cluster in self.clusters.iter() {
            for slot in &cluster.slots {
                slot.key.store(0, Ordering::Relaxed);
                slot.data.store(0, Ordering::Relaxed);
            }
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: entries of older searches become preferred victims.
    pub fn new_search(&self) {
        self.generation.store((self.generation() + 1) & 63, Ordering::Relaxed);
    }

    #[inline]
    fn generation(&self) -> u8 {
        self.generation.load(Ordering::Relaxed)
    }

    #[inline]
    fn cluster(&self, key: u64) -> &Cluster {
        // Multiply-shift maps the key onto any table size without a modulo.
        let index = ((u128::from(key) * self.clusters.len() as u128) >> 64) as usize;
        &self.clusters[index]
    }

    /// Hints the CPU to fetch the cluster of `key` (called right after making a move).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let ptr = std::ptr::from_ref(self.cluster(key)).cast::<i8>();
            // SAFETY: prefetching is a hint and never faults; the pointer is a valid reference.
            unsafe { std::arch::x86_64::_mm_prefetch(ptr, std::arch::x86_64::_MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Looks `key` up; `ply` is the probing node's distance from the root (for mate scores).
    #[inline]
    pub fn probe(&self, key: u64, ply: usize) -> Option<TtEntry> {
        for slot in &self.cluster(key).slots {
            let data = slot.data.load(Ordering::Relaxed);
            if slot.key.load(Ordering::Relaxed) ^ data != key {
                continue;
            }
            let bound = Bound::from_bits(data >> 56)?;
            let mv = Move::from_u16(data as u16).filter(|m| !m.is_null());
            return Some(TtEntry {
                mv,
                value: value_from_tt(Value::from((data >> 16) as u16 as i16), ply),
                eval: Value::from((data >> 32) as u16 as i16),
                depth: stored_depth(data),
                bound,
            });
        }
        None
    }

    /// Stores a search result. Replaces the entry of the same position if the new result is
    /// exact, deeper or from a newer search; otherwise the least valuable entry of the
    /// cluster (shallowest, oldest) makes room.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn store(&self, key: u64, ply: usize, mv: Option<Move>, value: Value, eval: Value, depth: i32, bound: Bound) {
        let cluster = self.cluster(key);
        let generation = self.generation();
        let mut victim = &cluster.slots[0];
        let mut victim_worth = i32::MAX;
        for slot in &cluster.slots {
            let data = slot.data.load(Ordering::Relaxed);
            let stored_key = slot.key.load(Ordering::Relaxed) ^ data;
            if stored_key == key && Bound::from_bits(data >> 56).is_some() {
                let same_search = stored_generation(data) == generation;
                if bound != Bound::Exact && same_search && depth + 3 < stored_depth(data) {
                    return;
                }
                // Keep the old move when the new result has none (a fail-low node).
                let mv = mv.or_else(|| Move::from_u16(data as u16).filter(|m| !m.is_null()));
                self.write(slot, key, mv, value_to_tt(value, ply), eval, depth, bound);
                return;
            }
            let age = i32::from((generation.wrapping_sub(stored_generation(data))) & 63);
            let worth = if Bound::from_bits(data >> 56).is_none() { i32::MIN } else { stored_depth(data) - 8 * age };
            if worth < victim_worth {
                victim_worth = worth;
                victim = slot;
            }
        }
        self.write(victim, key, mv, value_to_tt(value, ply), eval, depth, bound);
    }

    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn write(&self, slot: &Slot, key: u64, mv: Option<Move>, value: Value, eval: Value, depth: i32, bound: Bound) {
        let data = pack(mv, value, eval, depth, self.generation(), bound);
        slot.data.store(data, Ordering::Relaxed);
        slot.key.store(key ^ data, Ordering::Relaxed);
    }

    /// Permille of sampled entries written by the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let sample = self.clusters.len().min(250);
        let generation = self.generation();
        let mut used = 0;
        for cluster in &self.clusters[..sample] {
            for slot in &cluster.slots {
                let data = slot.data.load(Ordering::Relaxed);
                if Bound::from_bits(data >> 56).is_some() && stored_generation(data) == generation {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * ENTRIES).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::{mate_in, MATE};
    use tempo_core::Square;

    #[test]
    fn a_mate_too_far_from_the_root_stays_a_mate() {
        // Mate in 10 plies from a node 5 plies deep: mate in 15 from the root.
        assert_eq!(value_from_tt(MATE - 10, 5), MATE - 15);
        assert_eq!(value_from_tt(-(MATE - 10), 5), -(MATE - 15));
        // From a node 125 plies deep it would be 135 plies: beyond what a value can say.
        assert_eq!(value_from_tt(MATE - 10, 125), MATE_BOUND);
        assert_eq!(value_from_tt(-(MATE - 10), 125), -MATE_BOUND);
        assert_eq!(value_from_tt(31_000, 125), 31_000, "no mate, no change");
    }

    #[test]
    fn store_and_probe_round_trip() {
        let tt = TranspositionTable::new(1).unwrap();
        let m = Move::normal(Square::E1, Square::E8);
        tt.store(0x1234_5678_9abc_def0, 3, Some(m), -250, 17, 7, Bound::Lower);
        let e = tt.probe(0x1234_5678_9abc_def0, 3).unwrap();
        assert_eq!(e, TtEntry { mv: Some(m), value: -250, eval: 17, depth: 7, bound: Bound::Lower });
        assert!(tt.probe(0x1234_5678_9abc_def1, 3).is_none());
        // Quiescence depths fit.
        tt.store(42, 0, None, 5, 5, -1, Bound::Upper);
        assert_eq!(tt.probe(42, 0).unwrap().depth, -1);
    }

    #[test]
    fn mate_scores_are_relative_to_the_node() {
        let tt = TranspositionTable::new(1).unwrap();
        // Mate in 5 plies from the root found at ply 2: mate in 3 from this node.
        tt.store(99, 2, None, mate_in(5), 0, 4, Bound::Exact);
        assert_eq!(tt.probe(99, 6).unwrap().value, mate_in(9));
    }

    #[test]
    fn a_table_of_huge_pages_starts_empty_and_keeps_every_cluster() {
        // 3 MiB: over one huge page and not a multiple of one, so the allocation is rounded.
        let tt = TranspositionTable::new(3).unwrap();
        assert_eq!(tt.clusters.len(), 3 * 1024 * 1024 / 64);
        assert_eq!(tt.hashfull(), 0);
        // Keys spread over the whole table, the last cluster included.
        let keys: Vec<u64> = (0..1000u64).map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15)).chain([u64::MAX]).collect();
        for (i, &key) in keys.iter().enumerate() {
            tt.store(key, 0, None, i as Value, 0, 5, Bound::Exact);
        }
        for (i, &key) in keys.iter().enumerate() {
            assert_eq!(tt.probe(key, 0).map(|e| e.value), Some(i as Value), "key {key:#x}");
        }
    }

    #[test]
    fn a_stored_bound_cuts_off_only_on_its_side_of_the_window() {
        let entry = |value, bound| TtEntry { mv: None, value, eval: 0, depth: 5, bound };
        assert!(entry(0, Bound::Exact).cuts_off(-50, 50));
        assert!(entry(50, Bound::Lower).cuts_off(-50, 50));
        assert!(!entry(49, Bound::Lower).cuts_off(-50, 50));
        assert!(entry(-50, Bound::Upper).cuts_off(-50, 50));
        assert!(!entry(-49, Bound::Upper).cuts_off(-50, 50));
    }

    #[test]
    fn a_stored_score_refines_the_evaluation_when_its_bound_points_past_it() {
        let entry = |value, bound| TtEntry { mv: None, value, eval: 0, depth: 5, bound };
        assert_eq!(entry(30, Bound::Exact).refine(10), 30);
        assert_eq!(entry(30, Bound::Lower).refine(10), 30);
        assert_eq!(entry(5, Bound::Lower).refine(10), 10);
        assert_eq!(entry(5, Bound::Upper).refine(10), 5);
        assert_eq!(entry(30, Bound::Upper).refine(10), 10);
        // A mate score is no estimate of the position's value.
        assert_eq!(entry(mate_in(3), Bound::Exact).refine(10), 10);
    }

    #[test]
    fn a_result_bounds_by_where_it_fell_in_the_window() {
        assert_eq!(Bound::of_result(50, -50, 50, true), Bound::Lower);
        assert_eq!(Bound::of_result(0, -50, 50, true), Bound::Exact);
        assert_eq!(Bound::of_result(-50, -50, 50, true), Bound::Upper);
        // Outside PV nodes the window is null: nothing is exact.
        assert_eq!(Bound::of_result(0, -1, 0, false), Bound::Lower);
        assert_eq!(Bound::of_result(-1, -1, 0, false), Bound::Upper);
    }

    #[test]
    fn clearing_empties() {
        let tt = TranspositionTable::new(1).unwrap();
        tt.store(7, 0, None, 1, 1, 1, Bound::Exact);
        assert!(tt.hashfull() > 0 || tt.probe(7, 0).is_some());
        tt.clear();
        assert!(tt.probe(7, 0).is_none());
        assert_eq!(tt.hashfull(), 0);
    }
}
