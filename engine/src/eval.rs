//! Static evaluation: a tapered (middlegame/endgame) sum of material, piece-square tables,
//! mobility, pawn structure, passed pawns, piece bonuses and king safety, with endgame
//! scaling for drawish material.
//!
//! Material and piece-square tables are PeSTO's (see [`crate::psqt`]). The other weights
//! are conventional hand-set starting values (in the ranges published for classical
//! evaluations such as Stockfish 11's and the chessprogramming.org articles on each term),
//! kept deliberately modest because PeSTO's tables were tuned without them; the tuning tools
//! of the tools issue fit all of them together.

use crate::psqt::{psqt, MAX_PHASE, PHASE_WEIGHT};
use crate::score::Value;
use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};
use tempo_core::{
    bishop_attacks, king_attacks, knight_attacks, pawn_attacks, queen_attacks, rook_attacks, Bitboard, Color, File,
    Position, Rank, Role, Square,
};

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
    /// Attacks on the king zone and pawn shelter.
    KingSafety,
    /// The side to move's initiative.
    Tempo,
}

impl Term {
    /// Every term, in report order.
    pub const ALL: [Term; 7] = [
        Term::Psqt,
        Term::Mobility,
        Term::PawnStructure,
        Term::PassedPawns,
        Term::Pieces,
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

// Mobility: linear in the number of safe reachable squares, centred on a typical count.
const MOBILITY: [(S, i32); 6] = [(S(0, 0), 0), (S(4, 4), 4), (S(5, 5), 6), (S(2, 4), 7), (S(1, 2), 13), (S(0, 0), 0)];
const DOUBLED: S = S(-10, -25);
const ISOLATED: S = S(-6, -14);
const BACKWARD: S = S(-8, -10);
const PASSED: [S; 8] = [S(0, 0), S(0, 5), S(3, 10), S(8, 20), S(15, 35), S(30, 60), S(45, 90), S(0, 0)];
const BISHOP_PAIR: S = S(25, 55);
const ROOK_OPEN_FILE: S = S(25, 8);
const ROOK_SEMI_OPEN_FILE: S = S(12, 6);
const SHELTER_RANK2: S = S(10, 0);
const SHELTER_RANK3: S = S(5, 0);
const SHELTER_MISSING: S = S(-15, 0);
const SHELTER_OPEN_FILE: S = S(-10, 0);
const TEMPO: S = S(15, 10);
// King-zone attack units per attacked zone square, by attacker role.
const KING_ATTACK_WEIGHT: [i32; 6] = [0, 2, 2, 3, 5, 0];

/// The static evaluation from the side to move's point of view.
#[inline]
pub fn evaluate(pos: &Position) -> Value {
    let white = compute(pos).white_value;
    if pos.turn() == Color::White {
        white
    } else {
        -white
    }
}

/// The evaluation with its breakdown (for the `eval` developer command).
pub fn trace(pos: &Position) -> EvalTrace {
    compute(pos)
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

fn compute(pos: &Position) -> EvalTrace {
    let mut terms = [[S::default(); TERMS]; 2];
    let occupied = pos.occupied();
    let mut phase = 0;
    let pawn_attacks_by = [
        pawn_attack_span(Color::White, pos.pieces(Color::White, Role::Pawn)),
        pawn_attack_span(Color::Black, pos.pieces(Color::Black, Role::Pawn)),
    ];

    for us in Color::ALL {
        let them = !us;
        let t = &mut terms[us.index()];
        let ours = pos.by_color(us);
        let our_pawns = pos.pieces(us, Role::Pawn);
        let their_pawns = pos.pieces(them, Role::Pawn);
        let our_king = pos.king_of(us);
        let their_king = pos.king_of(them);

        // Material and piece-square tables, and the game phase.
        for sq in ours {
            let role = pos.role_at(sq).unwrap_or(Role::Pawn);
            t[Term::Psqt as usize] += psqt(us, role, sq);
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
        for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
            let (weight, centre) = MOBILITY[role.index()];
            for sq in pos.pieces(us, role) {
                let attacks = match role {
                    Role::Knight => knight_attacks(sq),
                    Role::Bishop => bishop_attacks(sq, occupied),
                    Role::Rook => rook_attacks(sq, occupied),
                    _ => queen_attacks(sq, occupied),
                };
                t[Term::Mobility as usize] += weight * ((attacks & area).count() as i32 - centre);
                let zone_hits = (attacks & their_zone).count() as i32;
                if zone_hits > 0 {
                    attackers += 1;
                    attack_units += zone_hits * KING_ATTACK_WEIGHT[role.index()];
                }
                if role == Role::Rook {
                    let file = Bitboard::file(sq.file());
                    if (file & our_pawns).is_empty() {
                        t[Term::Pieces as usize] +=
                            if (file & their_pawns).is_empty() { ROOK_OPEN_FILE } else { ROOK_SEMI_OPEN_FILE };
                    }
                }
            }
        }
        // One attacker is rarely dangerous; the penalty grows quadratically with the attack
        // and needs the queen, as in the classical "attack units" schemes.
        if attackers >= 2 && pos.pieces(us, Role::Queen).any() {
            let penalty = (attack_units * attack_units / 5).min(400);
            terms[them.index()][Term::KingSafety as usize] -= S(penalty, 0);
        }
        let t = &mut terms[us.index()];

        if pos.pieces(us, Role::Bishop).has_more_than_one() {
            t[Term::Pieces as usize] += BISHOP_PAIR;
        }

        // Pawn shelter in front of our king, on its file and the neighbouring ones.
        let king_file = our_king.file();
        // One square per file (on the first rank) stands for each shelter file.
        for file_sq in (Bitboard::file(king_file) | adjacent_files(king_file)) & Bitboard::rank(Rank::First) {
            let file_bb = Bitboard::file(file_sq.file());
            let shield = file_bb & our_pawns & ranks_ahead(us, our_king);
            let second = Bitboard::relative_rank(us, Rank::Second);
            let third = Bitboard::relative_rank(us, Rank::Third);
            if (shield & second).any() {
                t[Term::KingSafety as usize] += SHELTER_RANK2;
            } else if (shield & third).any() {
                t[Term::KingSafety as usize] += SHELTER_RANK3;
            } else {
                t[Term::KingSafety as usize] += SHELTER_MISSING;
                if (file_bb & their_pawns).is_empty() {
                    t[Term::KingSafety as usize] += SHELTER_OPEN_FILE;
                }
            }
        }

        // Pawn structure and passed pawns.
        for sq in our_pawns {
            let file = sq.file();
            let file_bb = Bitboard::file(file);
            let neighbours = adjacent_files(file);
            let ahead = ranks_ahead(us, sq);
            if (our_pawns & file_bb & ahead).any() {
                t[Term::PawnStructure as usize] += DOUBLED;
            }
            if (our_pawns & neighbours).is_empty() {
                t[Term::PawnStructure as usize] += ISOLATED;
            } else if (our_pawns & neighbours & !ahead).is_empty() {
                // No neighbour level or behind can ever support it; backward if the stop
                // square is controlled by an enemy pawn.
                if let Some(stop) = sq.offset(us.fold(8, -8)) {
                    if pawn_attacks_by[them.index()].contains(stop) {
                        t[Term::PawnStructure as usize] += BACKWARD;
                    }
                }
            }
            if (their_pawns & (file_bb | neighbours) & ahead).is_empty() && (our_pawns & file_bb & ahead).is_empty() {
                let rank = sq.rank().relative_to(us).index();
                let mut bonus = PASSED[rank];
                if let Some(stop) = sq.offset(us.fold(8, -8)) {
                    // In the endgame a passer is as strong as the kings' race to its path.
                    let weight = (rank as i32 - 2).max(0);
                    bonus += S(0, (distance(their_king, stop) * 5 - distance(our_king, stop) * 2) * weight);
                }
                t[Term::PassedPawns as usize] += bonus;
            }
        }
    }
    terms[pos.turn().index()][Term::Tempo as usize] += TEMPO;

    let mut total = S::default();
    for (white, black) in terms[0].iter().zip(&terms[1]) {
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
    EvalTrace { terms, phase, scale, white_value }
}

fn non_pawn_material(pos: &Position, color: Color) -> i32 {
    pos.pieces(color, Role::Knight).count() as i32 * 3
        + pos.pieces(color, Role::Bishop).count() as i32 * 3
        + pos.pieces(color, Role::Rook).count() as i32 * 5
        + pos.pieces(color, Role::Queen).count() as i32 * 9
}

/// Endgame knowledge: how much of the endgame score the stronger side can realise (64 =
/// all of it).
fn scale_factor(pos: &Position, eg: i32) -> i32 {
    if pos.is_insufficient_material() {
        return 0;
    }
    let strong = if eg >= 0 { Color::White } else { Color::Black };
    let weak = !strong;
    let strong_npm = non_pawn_material(pos, strong);
    let weak_npm = non_pawn_material(pos, weak);
    if pos.pieces(strong, Role::Pawn).is_empty() && strong_npm - weak_npm <= 3 {
        // Without pawns, a minor piece more does not win (KNK, KBK, KRKB, KRKN are draws
        // or nearly so); only a rook or more against bare or thinly defended kings does.
        return if strong_npm < 5 {
            0
        } else if weak_npm <= 3 {
            8
        } else {
            16
        };
    }
    let bishops = pos.by_role(Role::Bishop);
    if strong_npm == 3
        && weak_npm == 3
        && pos.pieces(strong, Role::Bishop).any()
        && pos.pieces(weak, Role::Bishop).any()
    {
        let light = (bishops & Bitboard::LIGHT_SQUARES).count();
        if light == 1 {
            // Opposite-coloured bishops alone: notoriously drawish even pawns up.
            return 24;
        }
    }
    if pos.pieces(strong, Role::Pawn).count() == 1 && strong_npm <= weak_npm && weak_npm > 0 {
        // A single pawn against equal pieces is usually held by sacrificing for it.
        return 32;
    }
    64
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
    fn trace_sums_to_the_evaluation() {
        let pos: Position = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8".parse().unwrap();
        let t = trace(&pos);
        assert_eq!(t.white_value, evaluate(&pos));
    }
}
