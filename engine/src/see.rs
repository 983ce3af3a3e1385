//! Static exchange evaluation: the material balance of the capture sequence on one square,
//! each side recapturing with its least valuable attacker and free to stop.

use crate::score::Value;
use tempo_core::{
    attacks::{bishop_attacks, rook_attacks},
    Move, MoveKind, Position, Role,
};

/// Piece values for exchange arithmetic (simpler than the evaluation's, as is customary).
pub const SEE_VALUE: [Value; 6] = [100, 320, 330, 500, 950, 20_000];

/// `true` if the exchange started by `m` gains at least `threshold` centipawns for the side
/// making it (the swap algorithm with x-rays; pins are ignored).
pub fn see_ge(pos: &Position, m: Move, threshold: Value) -> bool {
    // Castling never loses material; its "capture" of our own rook is an encoding detail.
    if m.is_castle() {
        return threshold <= 0;
    }
    let from = m.from();
    let to = m.to();
    let mut swap = match m.kind() {
        MoveKind::EnPassant => SEE_VALUE[Role::Pawn.index()],
        _ => pos.role_at(to).map_or(0, |r| SEE_VALUE[r.index()]),
    } - threshold;
    if let Some(role) = m.promotion_role() {
        swap += SEE_VALUE[role.index()] - SEE_VALUE[Role::Pawn.index()];
    }
    if swap < 0 {
        return false;
    }
    let moved = m.promotion_role().or_else(|| pos.role_at(from)).unwrap_or(Role::Pawn);
    swap = SEE_VALUE[moved.index()] - swap;
    if swap <= 0 {
        return true;
    }

    let mut occupied = pos.occupied().without(from).with(to);
    if m.is_en_passant() {
        if let Some(captured) = to.offset(pos.turn().fold(-8, 8)) {
            occupied = occupied.without(captured);
        }
    }
    let diagonal = pos.by_role(Role::Bishop) | pos.by_role(Role::Queen);
    let straight = pos.by_role(Role::Rook) | pos.by_role(Role::Queen);
    let mut attackers = pos.attackers_to(to, occupied) & occupied;
    let mut stm = pos.turn();
    let mut result = true;

    loop {
        stm = !stm;
        attackers &= occupied;
        let ours = attackers & pos.by_color(stm);
        if ours.is_empty() {
            break;
        }
        result = !result;
        // The least valuable attacker recaptures; removing it may uncover a slider behind.
        let mut next = None;
        for role in Role::ALL {
            if let Some(sq) = (ours & pos.by_role(role)).first() {
                next = Some((role, sq));
                break;
            }
        }
        let Some((role, sq)) = next else { break };
        if role == Role::King {
            // The king may only recapture if the other side has nothing left to take back.
            return if (attackers & !pos.by_color(stm)).any() { !result } else { result };
        }
        swap = SEE_VALUE[role.index()] - swap;
        if swap < i32::from(result) {
            break;
        }
        occupied = occupied.without(sq);
        if matches!(role, Role::Pawn | Role::Bishop | Role::Queen) {
            attackers |= bishop_attacks(to, occupied) & diagonal;
        }
        if matches!(role, Role::Rook | Role::Queen) {
            attackers |= rook_attacks(to, occupied) & straight;
        }
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use tempo_core::{Position, Square};

    /// SEE of the legal move from `uci[0..2]` to `uci[2..4]` (the engine reads no move text).
    fn check(fen: &str, uci: &str, threshold: Value) -> bool {
        let pos: Position = fen.parse().unwrap();
        let (from, to): (Square, Square) = (uci[0..2].parse().unwrap(), uci[2..4].parse().unwrap());
        let m = pos.legal_moves().iter().copied().find(|m| m.from() == from && m.to() == to).expect("legal move");
        see_ge(&pos, m, threshold)
    }

    #[test]
    fn simple_exchanges() {
        // Pawn takes an undefended knight.
        assert!(check("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5", 320));
        assert!(!check("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5", 321));
        // Queen takes a pawn defended by a pawn: loses the queen for a pawn.
        assert!(!check("4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1", "d1d5", 0));
        // Rook takes a defended rook: even trade.
        assert!(check("3rk3/8/8/8/8/8/8/3RK3 w - - 0 1", "d1d8", 0));
        // X-ray: doubled rooks win the d5 pawn defended once.
        assert!(check("3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5", 0));
    }
}
