//! Where a game or an analysis starts: a FEN given on the command line, or a Chess960 setup.

use anyhow::{bail, Context, Result};
use tempo_core::CastlingMode;
use tempo_core::Position;

/// Reads a FEN argument: standard chess, or Chess960 castling (Shredder-FEN or X-FEN) when the
/// standard reading fails; the error is the standard reader's, which names the broken field.
pub fn parse_fen_arg(fen: &str) -> Result<Position> {
    let fen = fen.trim();
    Position::from_fen(fen, CastlingMode::Standard)
        .or_else(|e| Position::from_fen(fen, CastlingMode::Chess960).map_err(|_| e))
        .with_context(|| format!("invalid FEN {fen:?}"))
}

/// A Chess960 start position by its number (0..959), as Scharnagl numbered them.
pub fn chess960_position(number: u32) -> Result<Position> {
    if number > 959 {
        bail!("Chess960 positions are numbered 0 to 959, not {number}");
    }
    let mut rank: [Option<char>; 8] = [None; 8];
    let mut n = number as usize;
    let (b1, rest) = (n % 4, n / 4);
    rank[b1 * 2 + 1] = Some('b');
    n = rest;
    let (b2, rest) = (n % 4, n / 4);
    rank[b2 * 2] = Some('b');
    n = rest;
    let (q, rest) = (n % 6, n / 6);
    let free = |rank: &[Option<char>; 8]| (0..8).filter(|&i| rank[i].is_none()).collect::<Vec<_>>();
    rank[free(&rank)[q]] = Some('q');
    let knights = [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)][rest];
    let empty = free(&rank);
    rank[empty[knights.0]] = Some('n');
    rank[empty[knights.1]] = Some('n');
    for (slot, piece) in free(&rank).into_iter().zip(['r', 'k', 'r']) {
        rank[slot] = Some(piece);
    }
    let black: String = rank.iter().map(|c| c.unwrap_or('?')).collect();
    let fen = format!("{black}/pppppppp/8/8/8/8/PPPPPPPP/{} w KQkq - 0 1", black.to_ascii_uppercase());
    Position::from_fen(&fen, CastlingMode::Chess960).with_context(|| format!("Chess960 position {number} ({fen})"))
}

pub fn random_below(n: u32) -> u32 {
    // Enough randomness to pick an opening setup; no need for a random-number crate.
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
    let mixed = u64::from(nanos).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ u64::from(std::process::id());
    (mixed % u64::from(n)) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chess960_numbering() {
        assert_eq!(chess960_position(518).unwrap().fen(), Position::startpos().fen());
        let fen = chess960_position(0).unwrap().fen();
        assert_eq!(fen.split(' ').next().unwrap(), "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR");
        assert!(chess960_position(960).is_err());
        assert!(random_below(960) < 960);
    }

    #[test]
    fn fen_arguments() {
        assert!(parse_fen_arg(" 4k3/8/8/8/8/8/8/4K3 w - - 0 1 ").is_ok());
        let err = parse_fen_arg("nonsense").unwrap_err();
        assert!(format!("{err:#}").starts_with("invalid FEN \"nonsense\""), "{err:#}");
    }
}
