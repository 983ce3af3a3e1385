//! Endgame knowledge: how much of the endgame score the stronger side can realise.

use tempo_core::{Bitboard, Color, Position, Role};

fn non_pawn_material(pos: &Position, color: Color) -> i32 {
    pos.pieces(color, Role::Knight).count() as i32 * 3
        + pos.pieces(color, Role::Bishop).count() as i32 * 3
        + pos.pieces(color, Role::Rook).count() as i32 * 5
        + pos.pieces(color, Role::Queen).count() as i32 * 9
}

/// Endgame knowledge: how much of the endgame score the stronger side can realise (64 =
/// all of it).
pub(super) fn scale_factor(pos: &Position, eg: i32) -> i32 {
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
