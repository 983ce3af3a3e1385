//! Static evaluation: a tapered (middlegame/endgame) sum of material, piece-square tables,
//! mobility, pawn structure, passed pawns, piece bonuses, threats and king safety, with
//! endgame scaling for drawish material.
//!
//! Every weight lives in [`weights::WEIGHTS`] and the evaluation is linear in them: each
//! feature it counts goes through [`Terms::add`], which adds the weighted count and tells a
//! [`Tracer`]. Search uses the no-op tracer `()`, which compiles away; [`linear_eval`] uses
//! one that records the counts, which is how the tuner sees the evaluation as the engine
//! computes it, term for term, without a second copy of the evaluation code.

mod scale;
mod weights;

pub use weights::{WeightSection, MAX_PHASE, PHASE_WEIGHT, WEIGHTS, WEIGHT_COUNT, WEIGHT_SECTIONS};

use crate::score::Value;
use scale::scale_factor;
use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};
use tempo_core::{
    bishop_attacks, king_attacks, knight_attacks, pawn_attacks, queen_attacks, rook_attacks, Bitboard, Color, File,
    Position, Rank, Role, Square,
};
use weights::*;

/// A (middlegame, endgame) pair of centipawn values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct S(pub i32, pub i32);

impl Add for S {
    type Output = S;
    #[inline]
    fn add(self, o: S) -> S {
        S(self.0 + o.0, self.1 + o.1)
    }
}
impl Sub for S {
    type Output = S;
    #[inline]
    fn sub(self, o: S) -> S {
        S(self.0 - o.0, self.1 - o.1)
    }
}
impl Neg for S {
    type Output = S;
    #[inline]
    fn neg(self) -> S {
        S(-self.0, -self.1)
    }
}
impl Mul<i32> for S {
    type Output = S;
    #[inline]
    fn mul(self, k: i32) -> S {
        S(self.0 * k, self.1 * k)
    }
}
impl AddAssign for S {
    #[inline]
    fn add_assign(&mut self, o: S) {
        *self = *self + o;
    }
}
impl SubAssign for S {
    #[inline]
    fn sub_assign(&mut self, o: S) {
        *self = *self - o;
    }
}

/// The evaluation terms, as reported by [`trace`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Term {
    /// Material and piece-square tables.
    Psqt,
    /// Squares reachable by knights, bishops, rooks and queens.
    Mobility,
    /// Doubled, isolated and backward pawns.
    PawnStructure,
    /// Passed pawns by rank and king proximity.
    PassedPawns,
    /// Bishop pair, rooks on open files.
    Pieces,
    /// Pieces attacked by pawns.
    Threats,
    /// Attacks on the king zone and pawn shelter.
    KingSafety,
    /// The side to move's initiative.
    Tempo,
}

impl Term {
    /// Every term, in report order.
    pub const ALL: [Term; 8] = [
        Term::Psqt,
        Term::Mobility,
        Term::PawnStructure,
        Term::PassedPawns,
        Term::Pieces,
        Term::Threats,
        Term::KingSafety,
        Term::Tempo,
    ];

    /// A short name for reports.
    pub const fn name(self) -> &'static str {
        match self {
            Term::Psqt => "Material+PSQT",
            Term::Mobility => "Mobility",
            Term::PawnStructure => "Pawn structure",
            Term::PassedPawns => "Passed pawns",
            Term::Pieces => "Pieces",
            Term::Threats => "Threats",
            Term::KingSafety => "King safety",
            Term::Tempo => "Tempo",
        }
    }
}

const TERMS: usize = Term::ALL.len();

/// An evaluation broken down by term and side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalTrace {
    /// `terms[color][term]`: each side's (mg, eg) contribution, from that side's view.
    pub terms: [[S; TERMS]; 2],
    /// Game phase, 24 (all pieces) to 0 (pawns and kings only).
    pub phase: i32,
    /// Endgame scale factor in 64ths applied to the endgame part.
    pub scale: i32,
    /// The final evaluation from White's point of view, in centipawns.
    pub white_value: Value,
}

/// Receives every weighted feature the evaluation counts: `count` occurrences of weight
/// `param` for `color`.
pub(crate) trait Tracer {
    fn feature(&mut self, color: Color, param: usize, count: i32);
}

/// Search's tracer: records nothing, and compiles away.
impl Tracer for () {
    #[inline(always)]
    fn feature(&mut self, _: Color, _: usize, _: i32) {}
}

/// The evaluation as a linear function of [`WEIGHTS`], for tuning.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinearEval {
    /// `(weight index, White's count minus Black's)` for every weight with a non-zero net count.
    pub features: Vec<(u16, i16)>,
    /// Game phase, 24 (all pieces) to 0 (pawns and kings only).
    pub phase: i32,
    /// Endgame scale factor in 64ths applied to the endgame part.
    pub scale: i32,
    /// The final evaluation from White's point of view, in centipawns.
    pub white_value: Value,
}

/// The per-term sums being built, and the tracer told of each feature.
struct Terms<'t, T: Tracer> {
    by_color: [[S; TERMS]; 2],
    tracer: &'t mut T,
}

impl<T: Tracer> Terms<'_, T> {
    /// Adds `count` times weight `param` to `color`'s `term`.
    #[inline(always)]
    fn add(&mut self, color: Color, term: Term, param: usize, count: i32) {
        self.by_color[color.index()][term as usize] += WEIGHTS[param] * count;
        self.tracer.feature(color, param, count);
    }

    /// Adds a piece's material and square value.
    #[inline(always)]
    fn add_piece(&mut self, color: Color, role: Role, square: Square) {
        self.by_color[color.index()][Term::Psqt as usize] += weights::piece_square(color, role, square);
        self.tracer.feature(color, MATERIAL + role.index(), 1);
        self.tracer.feature(color, psqt_index(color, role, square), 1);
    }
}

/// King-zone attack units per attacked zone square, by attacker role. Not tuned: the
/// danger table indexed by their sum is.
const KING_ATTACK_WEIGHT: [i32; 6] = [0, 2, 2, 3, 5, 0];

/// The static evaluation from the side to move's point of view.
#[inline]
pub fn evaluate(pos: &Position) -> Value {
    let white = compute(pos, &mut ()).white_value;
    if pos.turn() == Color::White {
        white
    } else {
        -white
    }
}

/// The evaluation with its breakdown (for the `eval` developer command).
pub fn trace(pos: &Position) -> EvalTrace {
    compute(pos, &mut ())
}

/// The evaluation with the net count of every weighted feature: `white_value` equals the
/// sum over `features` of count times weight, tapered by `phase` and scaled by `scale`
/// (up to integer rounding), except in dead positions, which are 0 whatever the terms say.
pub fn linear_eval(pos: &Position) -> LinearEval {
    struct Counts(Vec<i32>);
    impl Tracer for Counts {
        fn feature(&mut self, color: Color, param: usize, count: i32) {
            self.0[param] += if color == Color::White { count } else { -count };
        }
    }
    let mut counts = Counts(vec![0; WEIGHT_COUNT]);
    let t = compute(pos, &mut counts);
    let features = counts
        .0
        .iter()
        .enumerate()
        .filter(|&(_, &c)| c != 0)
        .map(|(i, &c)| (i as u16, c.clamp(i16::MIN.into(), i16::MAX.into()) as i16))
        .collect();
    LinearEval { features, phase: t.phase, scale: t.scale, white_value: t.white_value }
}

#[inline]
fn distance(a: Square, b: Square) -> i32 {
    let df = (a.file().index() as i32 - b.file().index() as i32).abs();
    let dr = (a.rank().index() as i32 - b.rank().index() as i32).abs();
    df.max(dr)
}

/// Squares strictly in front of `sq` (from `color`'s view), on every file.
#[inline]
fn ranks_ahead(color: Color, sq: Square) -> Bitboard {
    let rank = sq.rank().index() as u32;
    match color {
        Color::White => Bitboard(if rank == 7 { 0 } else { !0u64 << (8 * (rank + 1)) }),
        Color::Black => Bitboard((1u64 << (8 * rank)) - 1),
    }
}

#[inline]
fn adjacent_files(file: File) -> Bitboard {
    let f = file.index();
    let mut bb = Bitboard::EMPTY;
    if f > 0 {
        bb |= Bitboard::file(File::ALL[f - 1]);
    }
    if f < 7 {
        bb |= Bitboard::file(File::ALL[f + 1]);
    }
    bb
}

fn pawn_attack_span(color: Color, pawns: Bitboard) -> Bitboard {
    pawns.fold(Bitboard::EMPTY, |acc, sq| acc | pawn_attacks(color, sq))
}

fn compute<T: Tracer>(pos: &Position, tracer: &mut T) -> EvalTrace {
    let mut terms = Terms { by_color: [[S::default(); TERMS]; 2], tracer };
    let occupied = pos.occupied();
    let mut phase = 0;
    let pawn_attacks_by = [
        pawn_attack_span(Color::White, pos.pieces(Color::White, Role::Pawn)),
        pawn_attack_span(Color::Black, pos.pieces(Color::Black, Role::Pawn)),
    ];

    for us in Color::ALL {
        let them = !us;
        let ours = pos.by_color(us);
        let our_pawns = pos.pieces(us, Role::Pawn);
        let their_pawns = pos.pieces(them, Role::Pawn);
        let our_king = pos.king_of(us);
        let their_king = pos.king_of(them);

        // Material and piece-square tables, and the game phase.
        for sq in ours {
            let role = pos.role_at(sq).unwrap_or(Role::Pawn);
            terms.add_piece(us, role, sq);
            phase += PHASE_WEIGHT[role.index()];
        }

        // Mobility, counted on squares not occupied by our pawns or king and not attacked by
        // their pawns; king-zone attacks against them are gathered on the way.
        let area = !(our_pawns | pos.pieces(us, Role::King) | pawn_attacks_by[them.index()]);
        let their_zone = {
            let z = king_attacks(their_king).with(their_king);
            z | z.shift_forward(them)
        };
        let mut attack_units = 0;
        let mut attackers = 0;
        for (role, mobility) in [
            (Role::Knight, MOBILITY_KNIGHT),
            (Role::Bishop, MOBILITY_BISHOP),
            (Role::Rook, MOBILITY_ROOK),
            (Role::Queen, MOBILITY_QUEEN),
        ] {
            let pieces = pos.pieces(us, role);
            let threatened = (pieces & pawn_attacks_by[them.index()]).count() as i32;
            if threatened > 0 {
                terms.add(us, Term::Threats, THREAT_BY_PAWN + role.index(), threatened);
            }
            for sq in pieces {
                let attacks = match role {
                    Role::Knight => knight_attacks(sq),
                    Role::Bishop => bishop_attacks(sq, occupied),
                    Role::Rook => rook_attacks(sq, occupied),
                    _ => queen_attacks(sq, occupied),
                };
                terms.add(us, Term::Mobility, mobility + (attacks & area).count() as usize, 1);
                let zone_hits = (attacks & their_zone).count() as i32;
                if zone_hits > 0 {
                    attackers += 1;
                    attack_units += zone_hits * KING_ATTACK_WEIGHT[role.index()];
                }
                if role == Role::Rook {
                    let file = Bitboard::file(sq.file());
                    if (file & our_pawns).is_empty() {
                        let param = if (file & their_pawns).is_empty() { ROOK_OPEN_FILE } else { ROOK_SEMI_OPEN_FILE };
                        terms.add(us, Term::Pieces, param, 1);
                    }
                }
            }
        }
        // One attacker is rarely dangerous; the danger grows with the attack and needs the
        // queen, as in the classical "attack units" schemes.
        if attackers >= 2 && pos.pieces(us, Role::Queen).any() {
            let units = (attack_units as usize).min(KING_DANGER_UNITS - 1);
            terms.add(them, Term::KingSafety, KING_DANGER + units, 1);
        }

        if pos.pieces(us, Role::Bishop).has_more_than_one() {
            terms.add(us, Term::Pieces, BISHOP_PAIR, 1);
        }

        // Pawn shelter in front of our king, on its file and the neighbouring ones.
        let king_file = our_king.file();
        // One square per file (on the first rank) stands for each shelter file.
        for file_sq in (Bitboard::file(king_file) | adjacent_files(king_file)) & Bitboard::rank(Rank::First) {
            let file_bb = Bitboard::file(file_sq.file());
            let shield = file_bb & our_pawns & ranks_ahead(us, our_king);
            if (shield & Bitboard::relative_rank(us, Rank::Second)).any() {
                terms.add(us, Term::KingSafety, SHELTER_RANK2, 1);
            } else if (shield & Bitboard::relative_rank(us, Rank::Third)).any() {
                terms.add(us, Term::KingSafety, SHELTER_RANK3, 1);
            } else {
                terms.add(us, Term::KingSafety, SHELTER_MISSING, 1);
                if (file_bb & their_pawns).is_empty() {
                    terms.add(us, Term::KingSafety, SHELTER_OPEN_FILE, 1);
                }
            }
        }

        // Pawn structure and passed pawns.
        let our_pawn_attacks = pawn_attacks_by[us.index()];
        for sq in our_pawns {
            let file = sq.file();
            let file_bb = Bitboard::file(file);
            let neighbours = adjacent_files(file);
            let ahead = ranks_ahead(us, sq);
            let rank = sq.rank().relative_to(us).index();
            if (our_pawns & file_bb & ahead).any() {
                terms.add(us, Term::PawnStructure, PAWN_DOUBLED, 1);
            }
            if (our_pawns & neighbours).is_empty() {
                terms.add(us, Term::PawnStructure, PAWN_ISOLATED, 1);
            } else if (our_pawns & neighbours & !ahead).is_empty() {
                // No neighbour level or behind can ever support it; backward if the stop
                // square is controlled by an enemy pawn.
                if let Some(stop) = sq.offset(us.fold(8, -8)) {
                    if pawn_attacks_by[them.index()].contains(stop) {
                        terms.add(us, Term::PawnStructure, PAWN_BACKWARD, 1);
                    }
                }
            }
            let phalanx = (our_pawns & neighbours & Bitboard::rank(sq.rank())).any();
            if phalanx || our_pawn_attacks.contains(sq) {
                terms.add(us, Term::PawnStructure, PAWN_CONNECTED + rank, 1);
            }
            if (their_pawns & (file_bb | neighbours) & ahead).is_empty() && (our_pawns & file_bb & ahead).is_empty() {
                terms.add(us, Term::PassedPawns, PASSED + rank, 1);
                if let Some(stop) = sq.offset(us.fold(8, -8)) {
                    // In the endgame a passer is as strong as the kings' race to its path.
                    let advance = (rank as i32 - 2).max(0);
                    if advance > 0 {
                        terms.add(us, Term::PassedPawns, PASSED_THEIR_KING, distance(their_king, stop) * advance);
                        terms.add(us, Term::PassedPawns, PASSED_OUR_KING, distance(our_king, stop) * advance);
                    }
                }
            }
        }
    }
    terms.add(pos.turn(), Term::Tempo, TEMPO, 1);

    let mut total = S::default();
    for (white, black) in terms.by_color[0].iter().zip(&terms.by_color[1]) {
        total += *white - *black;
    }
    let phase = phase.min(MAX_PHASE);
    let scale = scale_factor(pos, total.1);
    let eg = total.1 * scale / 64;
    // A dead position is a draw whatever the middlegame terms say.
    let white_value = if scale == 0 && pos.is_insufficient_material() {
        0
    } else {
        (total.0 * phase + eg * (MAX_PHASE - phase)) / MAX_PHASE
    };
    EvalTrace { terms: terms.by_color, phase, scale, white_value }
}
#[cfg(test)]
mod tests {
    use super::*;

    fn eval_fen(fen: &str) -> Value {
        evaluate(&fen.parse().unwrap())
    }

    #[test]
    fn start_position_is_balanced_but_for_the_tempo() {
        let v = eval_fen(tempo_core::STARTING_FEN);
        assert!((0..=30).contains(&v), "{v}");
    }

    #[test]
    fn symmetry_flipping_colours_negates() {
        let pairs = [
            (
                "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
                "rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4",
            ),
            ("8/5pk1/6p1/8/2P5/1P6/P5K1/8 w - - 0 1", "8/p5k1/1p6/2p5/8/6P1/5PK1/8 b - - 0 1"),
        ];
        for (a, b) in pairs {
            assert_eq!(eval_fen(a), eval_fen(b), "{a} vs {b}");
        }
    }

    #[test]
    fn material_matters_and_drawn_material_is_zero() {
        assert!(eval_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1") > 800);
        assert!(eval_fen("4k3/8/8/8/8/8/8/3QK3 b - - 0 1") < -800);
        assert_eq!(eval_fen("4k3/8/8/8/8/8/8/3NK3 w - - 0 1"), 0);
        // KR v KB: scaled far down.
        assert!(eval_fen("4k3/8/8/4b3/8/8/8/3RK3 w - - 0 1") < 100);
    }

    #[test]
    fn linear_eval_is_the_evaluation_as_weighted_counts() {
        for fen in [
            tempo_core::STARTING_FEN,
            "r4rk1/1b3p1p/p3pPpQ/1p2P3/3q4/P2B4/1P4PP/R4R1K w - - 0 1",
            "2k5/8/1P6/8/3n4/4P3/8/4K2R b K - 0 1",
            "8/5pk1/6p1/8/2P5/1P6/P5K1/8 w - - 0 1",
        ] {
            let pos: Position = fen.parse().unwrap();
            let linear = linear_eval(&pos);
            let total = linear.features.iter().fold(S(0, 0), |acc, &(i, n)| acc + WEIGHTS[usize::from(i)] * n.into());
            let eg = total.1 * linear.scale / 64;
            let value = (total.0 * linear.phase + eg * (MAX_PHASE - linear.phase)) / MAX_PHASE;
            assert_eq!(value, linear.white_value, "{fen}");
            assert_eq!(linear.white_value, trace(&pos).white_value, "{fen}");
        }
    }

    #[test]
    fn a_knight_attacked_by_a_pawn_is_a_threat_feature() {
        // The black knight on d4 is attacked by the pawn on e3: Black's threat, net -1.
        let linear = linear_eval(&"2k5/8/1P6/8/3n4/4P3/8/4K2R b K - 0 1".parse().unwrap());
        let threat = THREAT_BY_PAWN + Role::Knight.index();
        assert!(linear.features.contains(&(threat as u16, -1)), "{:?}", linear.features);
    }

    #[test]
    fn trace_sums_to_the_evaluation() {
        let pos: Position = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8".parse().unwrap();
        let t = trace(&pos);
        assert_eq!(t.white_value, evaluate(&pos));
    }
}
