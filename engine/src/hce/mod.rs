//! The hand-crafted evaluation (HCE), the search's evaluation with `UseNNUE` off
//! ([`crate::Evaluator::HandCrafted`]): generation 0 of the network lineage and a reference
//! opponent. It is a tapered (middlegame/endgame) sum of material, piece-square tables,
//! mobility, pawn structure, passed pawns, piece bonuses, threats and king safety, with
//! endgame scaling for drawish material.
//!
//! Every weight lives in [`weights::WEIGHTS`] and the evaluation is linear in them: each
//! feature it counts goes through `Terms::add`, which adds the weighted count and tells a
//! `Tracer`. Search uses the no-op tracer `()`, which compiles away; [`linear_eval`] uses
//! one that records the counts, which is how the tuner sees the evaluation as the engine
//! computes it, term for term, without a second copy of the evaluation code.

mod pawns;
mod scale;
mod weights;

pub use pawns::PawnTable;

pub use weights::{WeightSection, MAX_PHASE, PHASE_WEIGHT, WEIGHTS, WEIGHT_COUNT, WEIGHT_SECTIONS};

use crate::score::Value;
use scale::scale_factor;
use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};
use tempo_core::{
    attacks::{bishop_attacks, king_attacks, knight_attacks, queen_attacks, rook_attacks},
    Bitboard, Color, File, Position, Rank, Role, Square,
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
    /// Passed pawns by rank, king proximity and whether they can advance.
    PassedPawns,
    /// Bishop pair, rooks on open files, outposts, bishops hemmed in by their own pawns,
    /// minor pieces sheltered by a pawn.
    Pieces,
    /// Pieces attacked by pawns, minors, rooks or the king; hanging pieces; pawn pushes
    /// that would attack a piece.
    Threats,
    /// Attacks on the king zone, safe checks and pawn shelter.
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
    /// Whether the tracer records features: then every term is computed afresh, none taken
    /// from the pawn cache.
    const RECORDS: bool;
    fn feature(&mut self, color: Color, param: usize, count: i32);
}

/// Search's tracer: records nothing, and compiles away.
impl Tracer for () {
    const RECORDS: bool = false;
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
    side_to_move_view(pos, compute(pos, &mut (), None).white_value)
}

/// [`evaluate`], taking the pawn-only terms from `pawns` when it has them (search keeps one
/// table per thread). The result is the same as without the table.
#[inline]
pub fn evaluate_with(pos: &Position, pawns: &mut PawnTable) -> Value {
    side_to_move_view(pos, compute(pos, &mut (), Some(pawns)).white_value)
}

#[inline]
fn side_to_move_view(pos: &Position, white: Value) -> Value {
    if pos.turn() == Color::White {
        white
    } else {
        -white
    }
}

/// The evaluation with its breakdown (for the `eval` developer command).
pub fn trace(pos: &Position) -> EvalTrace {
    compute(pos, &mut (), None)
}

/// The evaluation with the net count of every weighted feature: `white_value` equals the
/// sum over `features` of count times weight, tapered by `phase` and scaled by `scale`
/// (up to integer rounding), except in dead positions, which are 0 whatever the terms say.
pub fn linear_eval(pos: &Position) -> LinearEval {
    struct Counts(Vec<i32>);
    impl Tracer for Counts {
        const RECORDS: bool = true;
        fn feature(&mut self, color: Color, param: usize, count: i32) {
            self.0[param] += if color == Color::White { count } else { -count };
        }
    }
    let mut counts = Counts(vec![0; WEIGHT_COUNT]);
    let t = compute(pos, &mut counts, None);
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

/// Squares attacked by `color`'s pawns, and those attacked by two of them.
#[inline]
fn pawn_attack_maps(color: Color, pawns: Bitboard) -> (Bitboard, Bitboard) {
    let not_a = pawns & !Bitboard::file(File::A);
    let not_h = pawns & !Bitboard::file(File::H);
    let (east, west) = match color {
        Color::White => (not_h.0 << 9, not_a.0 << 7),
        Color::Black => (not_h.0 >> 7, not_a.0 >> 9),
    };
    (Bitboard(east | west), Bitboard(east & west))
}

/// Where one side's pieces attack, gathered while counting mobility and read by the terms
/// that weigh one side's attacks against the other's (threats, safe checks, free passers).
#[derive(Clone, Copy, Default)]
struct AttackMaps {
    by_role: [Bitboard; 6],
    all: Bitboard,
    twice: Bitboard,
}

impl AttackMaps {
    #[inline(always)]
    fn add(&mut self, role: Role, attacks: Bitboard) {
        self.twice |= self.all & attacks;
        self.all |= attacks;
        self.by_role[role.index()] |= attacks;
    }

    #[inline(always)]
    fn of(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }
}

/// Pawn structure and passed pawns by rank, the terms that depend on the pawns alone;
/// returns each side's passed pawns.
fn pawn_terms<T: Tracer>(pos: &Position, terms: &mut Terms<'_, T>, pawn_attacks_by: &[Bitboard; 2]) -> [Bitboard; 2] {
    let mut passers = [Bitboard::EMPTY; 2];
    for us in Color::ALL {
        let them = !us;
        let our_pawns = pos.pieces(us, Role::Pawn);
        let their_pawns = pos.pieces(them, Role::Pawn);
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
                passers[us.index()] = passers[us.index()].with(sq);
            }
        }
    }
    passers
}

/// The pawn-only terms as the pawn cache stores them.
fn pawn_info(pos: &Position, pawn_attacks_by: &[Bitboard; 2]) -> pawns::PawnInfo {
    let mut local = Terms { by_color: [[S::default(); TERMS]; 2], tracer: &mut () };
    let passers = pawn_terms(pos, &mut local, pawn_attacks_by);
    pawns::PawnInfo {
        structure: [0, 1].map(|c| local.by_color[c][Term::PawnStructure as usize]),
        passed: [0, 1].map(|c| local.by_color[c][Term::PassedPawns as usize]),
        passers,
    }
}

fn compute<T: Tracer>(pos: &Position, tracer: &mut T, pawn_table: Option<&mut PawnTable>) -> EvalTrace {
    let mut terms = Terms { by_color: [[S::default(); TERMS]; 2], tracer };
    let mut maps = pawn_and_king_attacks(pos);
    let pawn_attacks_by = [maps[0].of(Role::Pawn), maps[1].of(Role::Pawn)];
    let passers = match pawn_table {
        Some(table) if !T::RECORDS => cached_pawn_terms(pos, &mut terms, &pawn_attacks_by, table),
        _ => pawn_terms(pos, &mut terms, &pawn_attacks_by),
    };
    // Pass 1: what each side's own pieces and pawns are worth, and its attack maps.
    let mut phase = 0;
    for us in Color::ALL {
        phase += material(pos, us, &mut terms);
        pieces(pos, us, &mut terms, &mut maps[us.index()], &pawn_attacks_by);
        king_shelter(pos, us, &mut terms);
        passer_race(pos, us, &mut terms, passers[us.index()]);
    }
    // Pass 2: each side's attacks weighed against the other's defence.
    for us in Color::ALL {
        let (ours, theirs) = (&maps[us.index()], &maps[(!us).index()]);
        threats(pos, us, &mut terms, ours, theirs);
        safe_checks(pos, us, &mut terms, ours, theirs);
        passer_path(pos, us, &mut terms, theirs, passers[us.index()]);
    }
    terms.add(pos.turn(), Term::Tempo, TEMPO, 1);
    blend(pos, terms.by_color, phase)
}

/// Both sides' pawn and king attacks, the start of their attack maps.
fn pawn_and_king_attacks(pos: &Position) -> [AttackMaps; 2] {
    let mut maps = [AttackMaps::default(); 2];
    for color in Color::ALL {
        let (single, double) = pawn_attack_maps(color, pos.pieces(color, Role::Pawn));
        let m = &mut maps[color.index()];
        m.by_role[Role::Pawn.index()] = single;
        m.all = single;
        m.twice = double;
        m.add(Role::King, king_attacks(pos.king_of(color)));
    }
    maps
}

/// [`pawn_terms`] through the search thread's pawn table; returns each side's passed pawns.
#[inline]
fn cached_pawn_terms<T: Tracer>(
    pos: &Position,
    terms: &mut Terms<'_, T>,
    pawn_attacks_by: &[Bitboard; 2],
    table: &mut PawnTable,
) -> [Bitboard; 2] {
    let (white, black) = (pos.pieces(Color::White, Role::Pawn), pos.pieces(Color::Black, Role::Pawn));
    let info = table.probe(white, black).unwrap_or_else(|| {
        let info = pawn_info(pos, pawn_attacks_by);
        table.store(white, black, info);
        info
    });
    for c in 0..2 {
        terms.by_color[c][Term::PawnStructure as usize] += info.structure[c];
        terms.by_color[c][Term::PassedPawns as usize] += info.passed[c];
    }
    info.passers
}

/// Material and piece-square tables of `us`; returns the phase its pieces count for.
#[inline]
fn material<T: Tracer>(pos: &Position, us: Color, terms: &mut Terms<'_, T>) -> i32 {
    let mut phase = 0;
    for sq in pos.by_color(us) {
        let role = pos.role_at(sq).unwrap_or(Role::Pawn);
        terms.add_piece(us, role, sq);
        phase += PHASE_WEIGHT[role.index()];
    }
    phase
}

/// `us`'s knights, bishops, rooks and queens: mobility, threats from pawns, outposts, bishop
/// and rook terms, king attack and the bishop pair; their attacks go into `maps`.
#[inline]
fn pieces<T: Tracer>(
    pos: &Position,
    us: Color,
    terms: &mut Terms<'_, T>,
    maps: &mut AttackMaps,
    pawn_attacks_by: &[Bitboard; 2],
) {
    let them = !us;
    let occupied = pos.occupied();
    let our_pawns = pos.pieces(us, Role::Pawn);
    let their_pawns = pos.pieces(them, Role::Pawn);
    let their_king = pos.king_of(them);
    // Mobility, counted on squares not occupied by our pawns or king and not attacked by
    // their pawns; king-zone attacks against them are gathered on the way.
    let area = !(our_pawns | pos.pieces(us, Role::King) | pawn_attacks_by[them.index()]);
    let their_zone = {
        let z = king_attacks(their_king).with(their_king);
        z | z.shift_forward(them)
    };
    // Squares of our half's ranks 4 to 6 that our pawns defend and theirs can never attack.
    let outpost_ranks = Bitboard::relative_rank(us, Rank::Fourth)
        | Bitboard::relative_rank(us, Rank::Fifth)
        | Bitboard::relative_rank(us, Rank::Sixth);
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
            maps.add(role, attacks);
            terms.add(us, Term::Mobility, mobility + (attacks & area).count() as usize, 1);
            let zone_hits = (attacks & their_zone).count() as i32;
            if zone_hits > 0 {
                attackers += 1;
                attack_units += zone_hits * KING_ATTACK_WEIGHT[role.index()];
            }
            match role {
                Role::Knight | Role::Bishop => {
                    if outpost_ranks.contains(sq)
                        && pawn_attacks_by[us.index()].contains(sq)
                        && (their_pawns & adjacent_files(sq.file()) & ranks_ahead(us, sq)).is_empty()
                    {
                        terms.add(us, Term::Pieces, OUTPOST + usize::from(role == Role::Bishop), 1);
                    }
                    if role == Role::Bishop {
                        let colour = if sq.is_light() { Bitboard::LIGHT_SQUARES } else { Bitboard::DARK_SQUARES };
                        let same = (our_pawns & colour).count() as i32;
                        if same > 0 {
                            terms.add(us, Term::Pieces, BISHOP_PAWNS, same);
                        }
                    }
                }
                Role::Rook => {
                    let file = Bitboard::file(sq.file());
                    if (file & our_pawns).is_empty() {
                        let param = if (file & their_pawns).is_empty() { ROOK_OPEN_FILE } else { ROOK_SEMI_OPEN_FILE };
                        terms.add(us, Term::Pieces, param, 1);
                    }
                }
                _ => {}
            }
        }
    }
    let minors = pos.pieces(us, Role::Knight) | pos.pieces(us, Role::Bishop);
    let shielded = (minors.shift_forward(us) & pos.by_role(Role::Pawn)).count() as i32;
    if shielded > 0 {
        terms.add(us, Term::Pieces, MINOR_BEHIND_PAWN, shielded);
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
}

/// Pawn shelter in front of `us`'s king, on its file and the neighbouring ones.
#[inline]
fn king_shelter<T: Tracer>(pos: &Position, us: Color, terms: &mut Terms<'_, T>) {
    let our_pawns = pos.pieces(us, Role::Pawn);
    let their_pawns = pos.pieces(!us, Role::Pawn);
    let our_king = pos.king_of(us);
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
}

/// Passed pawns: in the endgame a passer is as strong as the kings' race to its path.
#[inline]
fn passer_race<T: Tracer>(pos: &Position, us: Color, terms: &mut Terms<'_, T>, passers: Bitboard) {
    let (our_king, their_king) = (pos.king_of(us), pos.king_of(!us));
    for sq in passers {
        let advance = (sq.rank().relative_to(us).index() as i32 - 2).max(0);
        if let Some(stop) = sq.offset(us.fold(8, -8)).filter(|_| advance > 0) {
            terms.add(us, Term::PassedPawns, PASSED_THEIR_KING, distance(their_king, stop) * advance);
            terms.add(us, Term::PassedPawns, PASSED_OUR_KING, distance(our_king, stop) * advance);
        }
    }
}

/// Threats: `us`'s attacks on weak pieces, hanging pieces and safe pawn pushes.
#[inline]
fn threats<T: Tracer>(pos: &Position, us: Color, terms: &mut Terms<'_, T>, ours: &AttackMaps, theirs: &AttackMaps) {
    let them = !us;
    let occupied = pos.occupied();
    let their_king = pos.king_of(them);
    let enemies = pos.by_color(them).without(their_king);
    let non_pawn_enemies = enemies & !pos.by_role(Role::Pawn);
    // Threats: a piece is weak when it is not defended by a pawn and not defended more
    // often than attacked (roughly: twice against once).
    let strongly_protected = theirs.of(Role::Pawn) | (theirs.twice & !ours.twice);
    let weak = enemies & !strongly_protected & ours.all;
    let minor_targets =
        ((non_pawn_enemies & strongly_protected) | weak) & (ours.of(Role::Knight) | ours.of(Role::Bishop));
    for sq in minor_targets {
        let role = pos.role_at(sq).unwrap_or(Role::Pawn);
        terms.add(us, Term::Threats, THREAT_BY_MINOR + role.index(), 1);
    }
    for sq in weak & ours.of(Role::Rook) {
        let role = pos.role_at(sq).unwrap_or(Role::Pawn);
        terms.add(us, Term::Threats, THREAT_BY_ROOK + role.index(), 1);
    }
    if (weak & ours.of(Role::King)).any() {
        terms.add(us, Term::Threats, THREAT_BY_KING, 1);
    }
    let hanging = (weak & (!theirs.all | (non_pawn_enemies & ours.twice))).count() as i32;
    if hanging > 0 {
        terms.add(us, Term::Threats, HANGING, hanging);
    }
    // Pawn pushes (one or two steps) to squares where the pawn would be safe, attacking
    // a piece.
    let our_pawns = pos.pieces(us, Role::Pawn);
    let mut pushes = our_pawns.shift_forward(us) & !occupied;
    pushes |= (pushes & Bitboard::relative_rank(us, Rank::Third)).shift_forward(us) & !occupied;
    pushes &= !theirs.of(Role::Pawn) & (ours.all | !theirs.all);
    let push_threats = (pawn_attack_maps(us, pushes).0 & non_pawn_enemies).count() as i32;
    if push_threats > 0 {
        terms.add(us, Term::Threats, THREAT_BY_PAWN_PUSH, push_threats);
    }
}

/// Safe checks: squares from which a piece of `us` would check their king without being
/// taken for free.
#[inline]
fn safe_checks<T: Tracer>(pos: &Position, us: Color, terms: &mut Terms<'_, T>, ours: &AttackMaps, theirs: &AttackMaps) {
    let occupied = pos.occupied();
    let their_king = pos.king_of(!us);
    let safe = !pos.by_color(us) & (!theirs.all | (ours.twice & !theirs.twice));
    let rook_lines = rook_attacks(their_king, occupied);
    let bishop_lines = bishop_attacks(their_king, occupied);
    let rook_checks = rook_lines & ours.of(Role::Rook) & safe;
    for (role, checks) in [
        (Role::Knight, knight_attacks(their_king) & ours.of(Role::Knight) & safe),
        (Role::Bishop, bishop_lines & ours.of(Role::Bishop) & safe),
        (Role::Rook, rook_checks),
        (Role::Queen, (rook_lines | bishop_lines) & ours.of(Role::Queen) & safe & !rook_checks),
    ] {
        if checks.any() {
            terms.add(us, Term::KingSafety, SAFE_CHECK + role.index(), 1);
        }
    }
}

/// Passed pawns: blocked, or free to advance one more square.
#[inline]
fn passer_path<T: Tracer>(pos: &Position, us: Color, terms: &mut Terms<'_, T>, theirs: &AttackMaps, passers: Bitboard) {
    let occupied = pos.occupied();
    for sq in passers {
        let rank = sq.rank().relative_to(us).index();
        if let Some(stop) = sq.offset(us.fold(8, -8)) {
            if occupied.contains(stop) {
                terms.add(us, Term::PassedPawns, PASSED_BLOCKED + rank, 1);
            } else if !theirs.all.contains(stop) {
                terms.add(us, Term::PassedPawns, PASSED_FREE + rank, 1);
            }
        }
    }
}

/// The middlegame and endgame sums blended by the phase, the endgame scaled for drawish
/// material: the evaluation from White's view, with its terms.
fn blend(pos: &Position, by_color: [[S; TERMS]; 2], phase: i32) -> EvalTrace {
    let mut total = S::default();
    for (white, black) in by_color[0].iter().zip(&by_color[1]) {
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
    EvalTrace { terms: by_color, phase, scale, white_value }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval_fen(fen: &str) -> Value {
        evaluate(&fen.parse().unwrap())
    }

    #[test]
    fn start_position_is_balanced_but_for_the_tempo() {
        let v = eval_fen(tempo_core::fen::STARTING_FEN);
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
            tempo_core::fen::STARTING_FEN,
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

    fn net_count(fen: &str, param: usize) -> i16 {
        let linear = linear_eval(&fen.parse().unwrap());
        linear.features.iter().find(|&&(i, _)| usize::from(i) == param).map_or(0, |&(_, n)| n)
    }

    #[test]
    fn an_undefended_knight_attacked_by_a_bishop_hangs() {
        // Black's bishop on c3 attacks the white knight on e5, which nothing defends.
        let fen = "4k3/8/8/4N3/8/2b5/8/4K3 w - - 0 1";
        assert_eq!(net_count(fen, HANGING), -1);
        assert_eq!(net_count(fen, THREAT_BY_MINOR + Role::Knight.index()), -1);
        // Defended by a pawn, it is no longer hanging but still a minor's target.
        let fen = "4k3/8/8/4N3/5P2/2b5/8/4K3 w - - 0 1";
        assert_eq!(net_count(fen, HANGING), 0);
        assert_eq!(net_count(fen, THREAT_BY_MINOR + Role::Knight.index()), -1);
    }

    #[test]
    fn a_knight_that_can_check_safely_counts_once() {
        // The knight on e4 can check from d6 or f6; the black king covers neither.
        assert_eq!(net_count("4k3/8/8/8/4N3/8/P7/4K3 w - - 0 1", SAFE_CHECK + Role::Knight.index()), 1);
        // A pawn on e7 covers both squares.
        assert_eq!(net_count("4k3/4p3/8/8/4N3/8/P7/4K3 w - - 0 1", SAFE_CHECK + Role::Knight.index()), 0);
    }

    #[test]
    fn passers_blocked_or_free() {
        // White's passer on d6: blocked by the king on d7; free with the king away.
        assert_eq!(net_count("8/3k4/3P4/8/8/8/8/4K3 w - - 0 1", PASSED_BLOCKED + 5), 1);
        assert_eq!(net_count("8/k7/3P4/8/8/8/8/4K3 w - - 0 1", PASSED_FREE + 5), 1);
    }

    #[test]
    fn pawn_attack_maps_match_single_pawn_attacks() {
        let pos: Position = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1".parse().unwrap();
        for color in Color::ALL {
            let pawns = pos.pieces(color, Role::Pawn);
            let mut single = Bitboard::EMPTY;
            let mut double = Bitboard::EMPTY;
            for sq in pawns {
                let a = tempo_core::attacks::pawn_attacks(color, sq);
                double |= single & a;
                single |= a;
            }
            assert_eq!(pawn_attack_maps(color, pawns), (single, double));
        }
    }

    #[test]
    fn the_pawn_cache_changes_nothing() {
        // Every position two plies deep from a few starts, each evaluated twice (a miss,
        // then a hit) with one shared table, against the evaluation without it.
        let mut table = PawnTable::new();
        for fen in [
            tempo_core::fen::STARTING_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ] {
            let root: Position = fen.parse().unwrap();
            for &m in root.legal_moves().iter() {
                let mut child = root;
                child.play_unchecked(m);
                for &r in child.legal_moves().iter() {
                    let mut grandchild = child;
                    grandchild.play_unchecked(r);
                    let expected = evaluate(&grandchild);
                    assert_eq!(evaluate_with(&grandchild, &mut table), expected);
                    assert_eq!(evaluate_with(&grandchild, &mut table), expected);
                }
            }
        }
    }

    #[test]
    fn trace_sums_to_the_evaluation() {
        let pos: Position = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8".parse().unwrap();
        let t = trace(&pos);
        assert_eq!(t.white_value, evaluate(&pos));
    }
}
