//! Keeping a helpmate up to date as a game goes on, without a search: the cheap path for a
//! caller (such as an arbiter) that asks the same question after every move.

use crate::{Move, MoveKind, Position, Role};

/// A helpmate from the position after `played`, given `helpmate`, one from `before` (for the
/// same side), or `None` when this cheap argument does not give one (then ask
/// [`can_mate`](super::can_mate) again).
///
/// Two arguments, each a proof that replays:
/// - `played` is the helpmate's first move: the rest is a helpmate;
/// - `played` can be taken back: it moved a piece (not a pawn) without capturing, castling
///   or promoting, and the other side has a move of the same kind after which `played`
///   reversed is legal and then its own move reversed: those three moves lead back to
///   `before`'s placement with `before`'s side to move, from where the old helpmate plays
///   on. It is only used when `before` had no en passant square, and when the castling
///   rights come back as they were or the helpmate does not castle (no other move's
///   legality, and no checkmate, depends on castling rights).
///
/// Returns at once in the first case, and after at most a few dozen moves tried in the
/// second: small enough to run after every move of a game.
pub fn helpmate_after(before: &Position, played: Move, helpmate: &[Move]) -> Option<Vec<Move>> {
    if helpmate.first() == Some(&played) {
        return Some(helpmate[1..].to_vec());
    }
    if !before.is_legal(played) || !reversible(before, played) || before.ep_square().is_some() {
        return None;
    }
    let mut after = *before;
    after.play_unchecked(played);
    let back = Move::normal(played.to(), played.from());
    let castles = helpmate.iter().any(|m| m.is_castle());
    for &reply in after.legal_moves().iter() {
        if !reversible(&after, reply) {
            continue;
        }
        let mut there = after;
        there.play_unchecked(reply);
        if !there.is_legal(back) {
            continue;
        }
        there.play_unchecked(back);
        let reply_back = Move::normal(reply.to(), reply.from());
        if !there.is_legal(reply_back) {
            continue;
        }
        there.play_unchecked(reply_back);
        let same_rights = there.castling_rights() == before.castling_rights();
        if same_placement(&there, before) && (same_rights || !castles) {
            let mut line = vec![reply, back, reply_back];
            line.extend_from_slice(helpmate);
            return Some(line);
        }
    }
    None
}

/// `true` for a move a piece can undo by moving back: no pawn, capture, castling or
/// promotion.
fn reversible(pos: &Position, m: Move) -> bool {
    m.kind() == MoveKind::Normal && pos.role_at(m.from()) != Some(Role::Pawn) && !pos.is_capture(m)
}

/// The same men on the same squares, the same side to move.
fn same_placement(a: &Position, b: &Position) -> bool {
    a.turn() == b.turn()
        && a.by_color(crate::Color::White) == b.by_color(crate::Color::White)
        && Role::ALL.iter().all(|&role| a.by_role(role) == b.by_role(role))
}
