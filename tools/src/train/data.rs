//! Training positions in a compact in-memory form, and the readers that fill it.
//!
//! A position is kept as its pieces (one `u16` per piece, at most 32) plus a stm-relative
//! label: the search score in centipawns and the game result, both from the side to move's
//! view, so each position costs about 60 bytes: its pieces and one packed `u64` entry.
//!
//! Each piece is stored in the network format's `packed` form, `(colour * 6 + role) * 64 +
//! square`, and both sides' features are computed from it when a batch is gathered, by the
//! format's own view of the board
//! ([`View::index_packed`](tempo_engine::nnue::format::View::index_packed), tested equal to
//! [`InputMapping::feature`](tempo_engine::nnue::format::InputMapping::feature)), so the
//! trainer cannot see a position otherwise than the engine does. The file mirror used to
//! augment the data is the format's `mirror_packed`.
//!
//! Inputs, both labelled from White's view:
//! - viriformat game files (`tempo-tools datagen`'s default), one record per game, of which
//!   the positions `tempo_notation::TrainingFilter::default()` accepts are kept (not in
//!   check, no capture or promotion to play, no mate score);
//! - `FEN | score | result` lines (`datagen --format text`), already filtered, whose games
//!   are told apart by the ply going back or the result changing.

use crate::rng::mix;
use crate::text_data::TextLine;
use anyhow::{bail, Context, Result};
use rayon::prelude::*;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use tempo_core::{Color, GameResult, Piece, Position, Role, Square};
use tempo_notation::{TrainingFilter, ViriReader};

use tempo_engine::nnue::format::{mirror_packed, packed};
pub use tempo_engine::nnue::format::{InputMapping, INPUTS, MAX_ACTIVE};

/// A position's entry packs, in one `u64` (one memory access per position when the training
/// order jumps around the set): where its features start (bits 0..36), how many there are
/// (36..42), its flags (42..48: the result from the side to move's view, 0 loss 1 draw 2 win,
/// in two bits; Black to move; no castling right left, so that the file mirror is a legal
/// position of the same value; two bits unused) and its score (48..64, an `i16`).
const START_BITS: u32 = 36;
const COUNT_SHIFT: u32 = START_BITS;
const FLAGS_SHIFT: u32 = COUNT_SHIFT + 6;
const SCORE_SHIFT: u32 = 48;
const RESULT_MASK: u64 = 0b11;
const BLACK_TO_MOVE: u64 = 0b100;
const MIRRORABLE: u64 = 0b1000;

/// Labelled positions, stored compactly (see the module docs).
#[derive(Default)]
pub struct Dataset {
    /// The pieces of every position (the format's `packed` form), back to back.
    features: Vec<u16>,
    /// One packed entry per position (see [`START_BITS`]).
    entries: Vec<u64>,
}

impl Dataset {
    /// An empty set.
    pub fn new() -> Dataset {
        Dataset::default()
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there is no position.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Adds a position with its score (centipawns) and result (1, 0.5 or 0), both from
    /// White's view. Returns `false` (and adds nothing) for a position with more than 32
    /// pieces, or when the set is full (2^36 features).
    pub fn push(&mut self, pos: &Position, white_score: i16, white_result: f32) -> bool {
        let mut features = [0u16; MAX_ACTIVE];
        if pos.occupied().count() as usize > MAX_ACTIVE || self.features.len() + MAX_ACTIVE >= 1 << START_BITS {
            return false;
        }
        let mut n = 0;
        for color in Color::ALL {
            for role in Role::ALL {
                for square in pos.pieces(color, role) {
                    features[n] = packed(Piece::new(color, role), square);
                    n += 1;
                }
            }
        }
        let white = pos.turn() == Color::White;
        let score = if white { white_score } else { white_score.saturating_neg() };
        let white_result = u64::from((white_result * 2.0).round().clamp(0.0, 2.0) as u8);
        let mut flags = if white { white_result } else { 2 - white_result };
        if !white {
            flags |= BLACK_TO_MOVE;
        }
        if pos.castling_rights().is_empty() {
            flags |= MIRRORABLE;
        }
        self.entries.push(
            self.features.len() as u64
                | (n as u64) << COUNT_SHIFT
                | flags << FLAGS_SHIFT
                | u64::from(score as u16) << SCORE_SHIFT,
        );
        self.features.extend_from_slice(&features[..n]);
        true
    }

    /// Adds every position of `other`.
    pub fn append(&mut self, other: &Dataset) {
        let base = self.features.len() as u64;
        assert!(base + (other.features.len() as u64) < 1 << START_BITS, "data set too large");
        self.features.extend_from_slice(&other.features);
        // The start is the low field: adding the base moves it alone (no carry, as asserted).
        self.entries.extend(other.entries.iter().map(|e| e + base));
    }

    #[inline(always)]
    fn fill_entry(&self, entry: u64, mirror: bool, inputs: InputMapping, stm: &mut [u16], other: &mut [u16]) -> usize {
        let start = (entry & ((1 << START_BITS) - 1)) as usize;
        let n = (entry >> COUNT_SHIFT & 63) as usize;
        let pieces = &self.features[start..start + n];
        let flags = entry >> FLAGS_SHIFT;
        // Pieces are stored White's first, each side's by role, so each king closes its side's.
        let whites = pieces.partition_point(|&code| code < 6 * 64);
        let king = |last: usize| {
            let code = if mirror { mirror_packed(pieces[last]) } else { pieces[last] };
            debug_assert_eq!(code / 64 % 6, Role::King.index() as u16);
            Square::new(u32::from(code % 64)).expect("a square below 64")
        };
        let (white, black) = (inputs.view(Color::White, king(whites - 1)), inputs.view(Color::Black, king(n - 1)));
        let (us, them) = if flags & BLACK_TO_MOVE != 0 { (other, stm) } else { (stm, other) };
        for ((&code, us), them) in pieces.iter().zip(us).zip(them) {
            let code = if mirror { mirror_packed(code) } else { code };
            *us = white.index_packed(code) as u16;
            *them = black.index_packed(code) as u16;
        }
        n
    }

    /// Copies the positions `indices` out of the set for a batch: features per side under
    /// `inputs` (mirrored where the epoch's coin says so) and targets. Their entries are read
    /// first in a pass of their own, then their features, so that the scattered memory
    /// accesses overlap.
    pub fn gather(&self, indices: &[u32], mirror: Option<u64>, inputs: InputMapping, target: Target) -> Gathered {
        let entries: Vec<u64> = indices.iter().map(|&i| self.entries[i as usize]).collect();
        let mut gathered = Gathered {
            features: vec![0; indices.len() * 2 * MAX_ACTIVE],
            counts: Vec::with_capacity(indices.len()),
            targets: Vec::with_capacity(indices.len()),
        };
        let mut at = 0;
        for (&i, &entry) in indices.iter().zip(&entries) {
            let mirror =
                mirror.is_some_and(|salt| entry >> FLAGS_SHIFT & MIRRORABLE != 0 && mix(salt ^ u64::from(i)) & 1 == 1);
            let (stm, other) = gathered.features[at..at + 2 * MAX_ACTIVE].split_at_mut(MAX_ACTIVE);
            let n = self.fill_entry(entry, mirror, inputs, stm, other);
            // The other side's features follow the side to move's directly.
            gathered.features.copy_within(at + MAX_ACTIVE..at + MAX_ACTIVE + n, at + n);
            at += 2 * n;
            gathered.counts.push(n as u8);
            gathered.targets.push(target.of(entry));
        }
        gathered.features.truncate(at);
        gathered
    }
}

/// Single positions, for tests (training reads whole batches through [`Dataset::gather`]).
#[cfg(test)]
impl Dataset {
    /// Whether position `i` may be mirrored (no castling right).
    #[inline]
    pub fn mirrorable(&self, i: usize) -> bool {
        self.entries[i] >> FLAGS_SHIFT & MIRRORABLE != 0
    }

    /// Writes position `i`'s features under `inputs` for the side to move and for the other
    /// side (of the position with mirrored files if `mirror`); returns their number (the same
    /// for both).
    #[inline]
    pub fn fill(
        &self,
        i: usize,
        mirror: bool,
        inputs: InputMapping,
        stm: &mut [u16; MAX_ACTIVE],
        other: &mut [u16; MAX_ACTIVE],
    ) -> usize {
        self.fill_entry(self.entries[i], mirror, inputs, stm, other)
    }

    /// Position `i`'s score (centipawns) from the side to move's view.
    #[inline]
    pub fn score(&self, i: usize) -> i16 {
        score(self.entries[i])
    }

    /// Position `i`'s game result from the side to move's view: 1, 0.5 or 0.
    #[inline]
    pub fn result(&self, i: usize) -> f32 {
        result(self.entries[i])
    }

    /// Position `i`'s training target.
    #[inline]
    pub fn target(&self, i: usize, target: Target) -> f32 {
        target.of(self.entries[i])
    }
}

#[inline(always)]
fn score(entry: u64) -> i16 {
    (entry >> SCORE_SHIFT) as u16 as i16
}

#[inline(always)]
fn result(entry: u64) -> f32 {
    (entry >> FLAGS_SHIFT & RESULT_MASK) as f32 * 0.5
}

/// What the network learns to predict for a position: a blend of the game's result and the
/// win probability of the recorded search score, `wdl * result + (1 - wdl) *
/// sigmoid(score_scale * score / 400)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Target {
    /// Weight of the game result; the rest is the score's win probability.
    pub wdl: f32,
    /// Factor on the recorded score. Below 1 it asks for a flatter evaluation than the
    /// search that labelled the data: the searched scores of a network's own games are larger
    /// than its static evaluation, so a fine-tune on them learns a steeper scale than its
    /// parent's unless the scores are shrunk (see `engine/nets/README.md`, generation 6).
    pub score_scale: f32,
}

impl Target {
    /// The plain target: the recorded score as it is.
    pub fn new(wdl: f32) -> Target {
        Target { wdl, score_scale: 1.0 }
    }

    #[inline(always)]
    fn of(self, entry: u64) -> f32 {
        let expected = 1.0 / (1.0 + (-self.score_scale * f32::from(score(entry)) / 400.0).exp());
        self.wdl * result(entry) + (1.0 - self.wdl) * expected
    }
}

/// A batch's positions copied out of a [`Dataset`] (see [`Dataset::gather`]).
pub struct Gathered {
    /// Per position: its side to move's features, then the other side's.
    features: Vec<u16>,
    /// Features per side of each position.
    counts: Vec<u8>,
    /// Training target of each position.
    targets: Vec<f32>,
}

impl Gathered {
    /// Each position's `(side to move's features, other side's features, target)`.
    #[inline(always)]
    pub fn positions(&self) -> impl Iterator<Item = (&[u16], &[u16], f32)> + '_ {
        let mut at = 0;
        self.counts.iter().zip(&self.targets).map(move |(&n, &target)| {
            let n = usize::from(n);
            let (stm, other) = self.features[at..at + 2 * n].split_at(n);
            at += 2 * n;
            (stm, other, target)
        })
    }
}

/// How the training files are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// Text for a file that starts with printable characters (which must be `FEN | score |
    /// result` lines), viriformat otherwise.
    Auto,
    /// `FEN | score | result` lines, score and result from White's view.
    Text,
    /// Viriformat binary games.
    Viri,
}

/// The positions read, split into training and held-out validation games.
pub struct Split {
    /// Training positions.
    pub train: Dataset,
    /// Validation positions (whole games).
    pub val: Dataset,
    /// Games read (in both sets).
    pub games: usize,
    /// Positions left out: filtered (viriformat) or over 32 pieces.
    pub skipped: usize,
    /// Broken games skipped (viriformat).
    pub broken: usize,
}

/// Whether game number `game` (counted over every file) is held out: a fixed hash, the same
/// for every seed, so runs with different seeds are judged on the same games.
pub fn is_validation(game: u64, fraction: f64) -> bool {
    let unit = (mix(game ^ 0x7e57_5e70_f9a3_e5d1) >> 11) as f64 / (1u64 << 53) as f64;
    unit < fraction
}

/// Whether the file at `path` is text (`FEN | score | result` lines) rather than viriformat,
/// judged by its first 512 bytes; other text is an error (viriformat is binary).
pub fn sniff_text(path: &Path) -> Result<bool> {
    let mut head = Vec::with_capacity(512);
    std::fs::File::open(path)
        .with_context(|| format!("cannot open {}", path.display()))?
        .take(512)
        .read_to_end(&mut head)?;
    let printable = head.iter().all(|&b| b.is_ascii_graphic() || b.is_ascii_whitespace());
    if printable && !head.is_empty() && !head.contains(&b'|') {
        bail!("{}: text, but not `FEN | score | result` lines (--format forces a format)", path.display());
    }
    Ok(printable && !head.is_empty())
}

/// Reads every file into a training/validation split, holding out about `val_fraction` of
/// the games.
pub fn load(paths: &[PathBuf], format: Format, val_fraction: f64) -> Result<Split> {
    let mut split = Split { train: Dataset::new(), val: Dataset::new(), games: 0, skipped: 0, broken: 0 };
    for path in paths {
        let text = match format {
            Format::Text => true,
            Format::Viri => false,
            Format::Auto => sniff_text(path)?,
        };
        if text {
            load_text(path, val_fraction, &mut split)?;
        } else {
            load_viri(path, val_fraction, &mut split)?;
        }
    }
    Ok(split)
}

/// One parsed text line.
struct Line {
    pos: Position,
    score: i16,
    result: f32,
}

fn parse_line(line: &str) -> Result<Line> {
    let TextLine { pos, score, result } = crate::text_data::parse_line(line)?;
    Ok(Line { pos, score: score.round().clamp(-32767.0, 32767.0) as i16, result: result as f32 })
}

/// Reads `FEN | score | result` lines in blocks, parsing each block in parallel.
fn load_text(path: &Path, val_fraction: f64, split: &mut Split) -> Result<()> {
    const BLOCK: usize = 1 << 16;
    let file = std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let mut lines = BufReader::with_capacity(1 << 20, file).lines();
    let mut number = 0usize;
    // The previous position's (ply, result): a game goes on while the ply grows and the result stays.
    let mut previous: Option<(u32, f32)> = None;
    let mut game_is_val = false;
    loop {
        let mut block = Vec::with_capacity(BLOCK);
        for line in lines.by_ref().take(BLOCK) {
            number += 1;
            let line = line.with_context(|| format!("cannot read {}", path.display()))?;
            if !line.trim().is_empty() {
                block.push((number, line));
            }
        }
        if block.is_empty() {
            return Ok(());
        }
        let parsed: Vec<Line> = block
            .par_iter()
            .map(|(n, line)| parse_line(line).with_context(|| format!("{}:{n}", path.display())))
            .collect::<Result<_>>()?;
        for line in parsed {
            let ply = line.pos.ply();
            let same_game = previous.is_some_and(|(p, r)| ply > p && r == line.result);
            if !same_game {
                game_is_val = is_validation(split.games as u64, val_fraction);
                split.games += 1;
            }
            previous = Some((ply, line.result));
            let set = if game_is_val { &mut split.val } else { &mut split.train };
            if !set.push(&line.pos, line.score, line.result) {
                split.skipped += 1;
            }
        }
    }
}

/// Reads viriformat games in blocks, filtering and encoding each block's games in
/// parallel. The positions kept are those `TrainingFilter::default()` accepts (not in check,
/// no capture or promotion to play, no mate score). A broken game is reported on standard
/// error and skipped (the reader resumes at the next one).
fn load_viri(path: &Path, val_fraction: f64, split: &mut Split) -> Result<()> {
    const BLOCK: usize = 4096;
    let file = std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let filter = TrainingFilter::default();
    let mut games = ViriReader::new(file).enumerate();
    loop {
        let mut block = Vec::with_capacity(BLOCK);
        for (number, game) in games.by_ref().take(BLOCK) {
            match game {
                Ok(game) => block.push(game),
                Err(e) => {
                    eprintln!("{}: game {}: {e}; skipped", path.display(), number + 1);
                    split.broken += 1;
                }
            }
        }
        if block.is_empty() {
            return Ok(());
        }
        let encoded: Vec<(Dataset, usize)> = block
            .par_iter()
            .map(|game| {
                let white_result = match game.result {
                    GameResult::WhiteWins => 1.0,
                    GameResult::Draw => 0.5,
                    GameResult::BlackWins => 0.0,
                };
                let mut set = Dataset::new();
                let mut skipped = 0;
                for (pos, played) in game.positions() {
                    if !(filter.accepts(&pos, played) && set.push(&pos, played.score, white_result)) {
                        skipped += 1;
                    }
                }
                (set, skipped)
            })
            .collect();
        for (set, skipped) in encoded {
            let target =
                if is_validation(split.games as u64, val_fraction) { &mut split.val } else { &mut split.train };
            target.append(&set);
            split.games += 1;
            split.skipped += skipped;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_follow_the_format() {
        let pos: Position = "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1".parse().unwrap();
        let (mut w, mut b) = ([0u16; MAX_ACTIVE], [0u16; MAX_ACTIVE]);
        assert_eq!(InputMapping::Plain.position_features(&pos, Color::White, &mut w), 3);
        assert_eq!(InputMapping::Plain.position_features(&pos, Color::Black, &mut b), 3);
        // White rook a1, White king e1, Black king e8, from White's view ...
        assert_eq!(&w[..3], &[3 * 64, 5 * 64 + 4, (6 + 5) * 64 + 60]);
        // ... and from Black's: White's pieces are the opponent's, ranks flipped.
        assert_eq!(&b[..3], &[(6 + 3) * 64 + 56, (6 + 5) * 64 + 60, 5 * 64 + 4]);
        // Mirrored inputs: both kings on the e-file, so both views flip the files too.
        assert_eq!(InputMapping::Mirrored.position_features(&pos, Color::White, &mut w), 3);
        assert_eq!(&w[..3], &[3 * 64 + 7, 5 * 64 + 3, (6 + 5) * 64 + 59]);
        assert_eq!(InputMapping::Mirrored.position_features(&pos, Color::Black, &mut b), 3);
        assert_eq!(&b[..3], &[(6 + 3) * 64 + 63, (6 + 5) * 64 + 59, 5 * 64 + 3]);
        // With White's king on d1, only Black's view flips.
        let pos: Position = "4k3/8/8/8/8/8/8/R2K4 w - - 0 1".parse().unwrap();
        InputMapping::Mirrored.position_features(&pos, Color::White, &mut w);
        assert_eq!(&w[..3], &[3 * 64, 5 * 64 + 3, (6 + 5) * 64 + 60]);
        InputMapping::Mirrored.position_features(&pos, Color::Black, &mut b);
        assert_eq!(&b[..3], &[(6 + 3) * 64 + 63, (6 + 5) * 64 + 60, 5 * 64 + 3]);
    }

    #[test]
    fn stored_positions_give_their_features_under_every_mapping() {
        // Kings on every rank, on both wings (every king bucket of both sides), either side
        // to move.
        let fens = [
            "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1",
            "2k5/1p6/8/3q4/8/5N2/6P1/6K1 b - - 3 40",
            "7k/8/8/8/8/8/8/K7 w - - 0 1",
            "k7/8/8/8/8/8/8/7K b - - 0 1",
            "8/5k2/8/8/8/8/1K6/8 w - - 0 1",
            "8/8/2k5/8/8/6K1/8/8 b - - 0 1",
            "8/8/8/1p2k3/8/8/8/K7 w - - 0 1",
            "8/8/8/3K4/5k2/8/8/8 b - - 0 1",
            "8/6K1/8/8/8/8/2k5/8 w - - 0 1",
            "3K4/8/8/8/8/8/8/6k1 b - - 0 1",
        ];
        let mut set = Dataset::new();
        for fen in fens {
            set.push(&fen.parse().unwrap(), 0, 0.5);
        }
        let mut buckets = std::collections::HashSet::new();
        for inputs in InputMapping::ALL {
            let indices: Vec<u32> = (0..set.len() as u32).collect();
            let gathered = set.gather(&indices, None, inputs, Target::new(0.0));
            for ((i, fen), (gathered_stm, gathered_other, _)) in fens.iter().enumerate().zip(gathered.positions()) {
                let pos: Position = fen.parse().unwrap();
                let (mut stm, mut other) = ([0u16; MAX_ACTIVE], [0u16; MAX_ACTIVE]);
                let (mut expect_stm, mut expect_other) = ([0u16; MAX_ACTIVE], [0u16; MAX_ACTIVE]);
                let n = set.fill(i, false, inputs, &mut stm, &mut other);
                inputs.position_features(&pos, pos.turn(), &mut expect_stm);
                inputs.position_features(&pos, !pos.turn(), &mut expect_other);
                assert_eq!((&stm[..n], &other[..n]), (&expect_stm[..n], &expect_other[..n]), "{fen} {inputs:?}");
                assert_eq!((gathered_stm, gathered_other), (&stm[..n], &other[..n]), "{fen} {inputs:?}");
                if inputs == InputMapping::KingBuckets4 {
                    buckets.insert((pos.turn(), stm[0] / INPUTS as u16));
                    buckets.insert((!pos.turn(), other[0] / INPUTS as u16));
                }
                // The file mirror of a position changes no mirrored feature.
                if inputs.mirrors_files() && set.mirrorable(i) {
                    let (mut stm2, mut other2) = ([0u16; MAX_ACTIVE], [0u16; MAX_ACTIVE]);
                    set.fill(i, true, inputs, &mut stm2, &mut other2);
                    assert_eq!((stm, other), (stm2, other2), "{fen}");
                }
            }
        }
        assert_eq!(buckets.len(), 8, "{buckets:?}");
    }

    #[test]
    fn labels_are_stored_from_the_side_to_move() {
        let mut set = Dataset::new();
        let white: Position = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1".parse().unwrap();
        let black: Position = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1".parse().unwrap();
        assert!(set.push(&white, 120, 1.0));
        assert!(set.push(&black, 120, 1.0));
        assert_eq!((set.score(0), set.result(0)), (120, 1.0));
        assert_eq!((set.score(1), set.result(1)), (-120, 0.0));
        assert!((set.target(0, Target::new(0.0)) - 1.0 / (1.0 + (-0.3f32).exp())).abs() < 1e-6);
        assert_eq!(set.target(1, Target::new(1.0)), 0.0);
        // The score scale multiplies the score inside the win probability, and only there.
        let flatter = Target { wdl: 0.0, score_scale: 0.5 };
        assert!((set.target(0, flatter) - 1.0 / (1.0 + (-0.15f32).exp())).abs() < 1e-6);
        assert!((set.target(1, flatter) - 1.0 / (1.0 + 0.15f32.exp())).abs() < 1e-6);
        let blended = Target { wdl: 0.25, score_scale: 0.5 };
        assert!((set.target(0, blended) - (0.25 + 0.75 / (1.0 + (-0.15f32).exp()))).abs() < 1e-6);
        assert_eq!(set.target(1, Target { wdl: 1.0, score_scale: 0.5 }), 0.0);

        let (mut stm, mut other) = ([0u16; MAX_ACTIVE], [0u16; MAX_ACTIVE]);
        let (mut expect_stm, mut expect_other) = ([0u16; MAX_ACTIVE], [0u16; MAX_ACTIVE]);
        assert_eq!(set.fill(1, false, InputMapping::Plain, &mut stm, &mut other), 3);
        InputMapping::Plain.position_features(&black, Color::Black, &mut expect_stm);
        InputMapping::Plain.position_features(&black, Color::White, &mut expect_other);
        assert_eq!((stm, other), (expect_stm, expect_other));
    }

    #[test]
    fn mirroring_maps_every_piece_to_the_other_wing() {
        let pos: Position = "2k5/1p6/8/3q4/8/5N2/6P1/6K1 b - - 3 40".parse().unwrap();
        let mirrored: Position = "5k2/6p1/8/4q3/8/2N5/1P6/1K6 b - - 3 40".parse().unwrap();
        let mut set = Dataset::new();
        set.push(&pos, 0, 0.5);
        assert!(set.mirrorable(0));
        let (mut stm, mut other) = ([0u16; MAX_ACTIVE], [0u16; MAX_ACTIVE]);
        let n = set.fill(0, true, InputMapping::Plain, &mut stm, &mut other);
        let (mut expect_stm, mut expect_other) = ([0u16; MAX_ACTIVE], [0u16; MAX_ACTIVE]);
        InputMapping::Plain.position_features(&mirrored, Color::Black, &mut expect_stm);
        InputMapping::Plain.position_features(&mirrored, Color::White, &mut expect_other);
        let sorted = |s: &[u16]| {
            let mut v = s.to_vec();
            v.sort_unstable();
            v
        };
        assert_eq!(sorted(&stm[..n]), sorted(&expect_stm[..n]));
        assert_eq!(sorted(&other[..n]), sorted(&expect_other[..n]));

        let castling: Position = "r3k3/8/8/8/8/8/8/4K3 w q - 0 1".parse().unwrap();
        set.push(&castling, 0, 0.5);
        assert!(!set.mirrorable(1));

        // In a batch, about half the mirrorable positions are mirrored, the others never.
        for _ in 0..199 {
            set.push(&pos, 0, 0.5);
            set.push(&castling, 0, 0.5);
        }
        let indices: Vec<u32> = (0..set.len() as u32).collect();
        let gathered = set.gather(&indices, Some(12345), InputMapping::Plain, Target::new(0.0));
        let (mut plain, mut flipped) = ([0u16; MAX_ACTIVE], [0u16; MAX_ACTIVE]);
        let mut mirrored = [0, 0];
        for (k, (stm, _, _)) in gathered.positions().enumerate() {
            set.fill(k, false, InputMapping::Plain, &mut plain, &mut other);
            set.fill(k, true, InputMapping::Plain, &mut flipped, &mut other);
            if stm == &flipped[..stm.len()] {
                mirrored[k % 2] += 1;
            } else {
                assert_eq!(stm, &plain[..stm.len()]);
            }
        }
        assert!((70..=130).contains(&mirrored[0]) && mirrored[1] == 0, "{mirrored:?}");
        let same = set.gather(&indices, Some(12345), InputMapping::Plain, Target::new(0.0));
        assert_eq!(gathered.positions().collect::<Vec<_>>(), same.positions().collect::<Vec<_>>());
    }

    #[test]
    fn text_games_are_split_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("data.txt");
        let mut text = String::new();
        // 200 games of 3 positions each: plies 10, 11, 12 with alternating results.
        for g in 0..200 {
            let result = ["1.0", "0.5", "0.0"][g % 3];
            text += &format!("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 6 | 10 | {result}\n");
            text += &format!("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 7 | 12 | {result}\n");
            text += &format!("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 7 | 14 | {result}\n");
        }
        std::fs::write(&path, text).unwrap();
        assert!(sniff_text(&path).unwrap());
        let split = load(&[path], Format::Auto, 0.2).unwrap();
        assert_eq!(split.games, 200);
        assert_eq!(split.train.len() + split.val.len(), 600);
        assert_eq!(split.val.len() % 3, 0);
        assert!((60..=180).contains(&split.val.len()), "{}", split.val.len());
    }

    #[test]
    fn viriformat_games_are_read_through_the_training_filter() {
        use tempo_notation::{parse_uci_move, PackedGame, TrainingFilter};
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.vf");
        let mut bytes = Vec::new();
        let mut expected = (0, 0);
        for g in 0..50 {
            let mut game = PackedGame::new(Position::startpos(), GameResult::WhiteWins);
            // e4 d5 exd5 (a capture: filtered) Qxd5 (a capture) Nc3 (fine) ...
            for (ply, m) in ["e2e4", "d7d5", "e4d5", "d8d5", "b1c3", "d5a5"].iter().enumerate() {
                let mv = parse_uci_move(&game.final_position(), m).unwrap();
                game.push(mv, 10 * ply as i16 + g).unwrap();
            }
            for (pos, played) in game.positions() {
                if TrainingFilter::default().accepts(&pos, played) {
                    expected.0 += 1;
                } else {
                    expected.1 += 1;
                }
            }
            game.write_to(&mut bytes).unwrap();
        }
        std::fs::write(&path, &bytes).unwrap();
        assert!(!sniff_text(&path).unwrap());
        let split = load(&[path], Format::Auto, 0.1).unwrap();
        assert_eq!(split.games, 50);
        assert_eq!((split.train.len() + split.val.len(), split.skipped), expected);
        assert_eq!(expected, (4 * 50, 2 * 50));
        assert!(!split.val.is_empty() && split.val.len() % 4 == 0);
        // The first kept position of a game: the start position, White to move, score g.
        let first = &split.train;
        assert_eq!((first.result(0), first.score(0)), (1.0, 0));
        // The second: Black to move after e4, so the labels turn.
        assert_eq!((first.result(1), first.score(1)), (0.0, -10));
    }

    #[test]
    fn a_bad_line_is_reported_with_its_number() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bad.txt");
        std::fs::write(&path, "8/8/8/8/8/8/8/K1k5 w - - 0 1 | 0 | 0.5\n\nnot a fen | 0 | 1.0\n").unwrap();
        let err = format!("{:#}", load(std::slice::from_ref(&path), Format::Text, 0.0).err().unwrap());
        assert!(err.contains("bad.txt:3"), "{err}");
        std::fs::write(&path, "[Event \"a PGN file\"]\n").unwrap();
        let err = format!("{:#}", load(&[path], Format::Auto, 0.0).err().unwrap());
        assert!(err.contains("not `FEN | score | result`"), "{err}");
    }
}
