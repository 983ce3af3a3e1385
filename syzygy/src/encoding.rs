//! How a placement of men becomes an index into a table: the format's constant maps and the
//! two encoders, for pawnless tables (symmetry folds the leading men into the a1-d1-d4
//! triangle) and for tables with pawns (the leading pawn folded onto files a-d).
//!
//! Every function here is pure and total: indices are computed with wrapping arithmetic, so
//! a placement that a corrupt header makes meaningless yields a wrong index (which the
//! bounds-checked reader then refuses), never a panic.

/// The most men in any Syzygy table.
pub(crate) const MAX_MEN: usize = 7;

/// The leading man's square folded into the a1-d1-d4 triangle: the six squares below the
/// diagonal are 0 to 5, the four on it 6 to 9.
pub(crate) const TRIANGLE: [u8; 64] = [
    6, 0, 1, 2, 2, 1, 0, 6, //
    0, 7, 3, 4, 4, 3, 7, 0, //
    1, 3, 8, 5, 5, 8, 3, 1, //
    2, 4, 5, 9, 9, 5, 4, 2, //
    2, 4, 5, 9, 9, 5, 4, 2, //
    1, 3, 8, 5, 5, 8, 3, 1, //
    0, 7, 3, 4, 4, 3, 7, 0, //
    6, 0, 1, 2, 2, 1, 0, 6, //
];

/// Squares under the a1-h8 diagonal numbered 0 to 27 rank by rank, the diagonal 28 to 35;
/// squares above it take their mirror image's number.
const LOWER: [u8; 64] = lower();

const fn lower() -> [u8; 64] {
    let mut table = [0; 64];
    let mut code = 0;
    let mut rank = 0;
    while rank < 8 {
        let mut file = rank + 1;
        while file < 8 {
            table[rank * 8 + file] = code;
            table[file * 8 + rank] = code;
            code += 1;
            file += 1;
        }
        table[rank * 9] = 28 + rank as u8;
        rank += 1;
    }
    table
}

/// Squares of the two long diagonals: a1-h8 numbered 0 to 7, h1-a8 8 to 15.
const DIAG: [u8; 64] = diag();

const fn diag() -> [u8; 64] {
    let mut table = [0; 64];
    let mut i = 0;
    while i < 8 {
        table[i * 9] = i as u8;
        table[(i + 1) * 7] = 8 + i as u8;
        i += 1;
    }
    table
}

/// A pawn's square (ranks 2 to 7) folded onto files a-d, numbered file by file: the pawn
/// with the smallest number leads and picks the table's file section.
pub(crate) const FLAP: [u8; 64] = flap();

const fn flap() -> [u8; 64] {
    let mut table = [0; 64];
    let mut sq = 8;
    while sq < 56 {
        let (file, rank) = (sq % 8, sq / 8);
        let folded = if file < 4 { file } else { 7 - file };
        table[sq] = (6 * folded + rank - 1) as u8;
        sq += 1;
    }
    table
}

/// The order of pawn squares within a file section (higher is earlier).
const PTWIST: [u8; 64] = ptwist();

const fn ptwist() -> [u8; 64] {
    let mut table = [0; 64];
    let mut sq = 8;
    while sq < 56 {
        let (file, rank) = (sq % 8, sq / 8);
        let (folded, right) = if file < 4 { (file, 0) } else { (7 - file, 1) };
        table[sq] = (47 - 12 * folded - 2 * (rank - 1) - right) as u8;
        sq += 1;
    }
    table
}

/// The square of each `FLAP` number on files a-d.
const fn inverse_flap(code: usize) -> usize {
    8 * (code % 6 + 1) + code / 6
}

/// The square of each `TRIANGLE` number.
const INV_TRIANGLE: [usize; 10] = [1, 2, 3, 10, 11, 19, 0, 9, 18, 27];

/// `rank - file`: zero on the a1-h8 diagonal, positive above it.
const fn offdiag(sq: u8) -> i8 {
    (sq >> 3) as i8 - (sq & 7) as i8
}

/// Mirrors a square in the a1-h8 diagonal.
const fn flipdiag(sq: u8) -> u8 {
    ((sq >> 3) | (sq << 3)) & 63
}

/// The pairs of king squares, the first in the triangle: 462 legal ones (not touching, and
/// with the first on the diagonal the second not above it), both-on-diagonal pairs last;
/// -1 for the others.
const KK_IDX: [[i16; 64]; 10] = kk_idx();

const fn kk_idx() -> [[i16; 64]; 10] {
    let mut table = [[-1; 64]; 10];
    let mut code = 0;
    let mut pass = 0;
    while pass < 2 {
        let mut idx = 0;
        while idx < 10 {
            let s1 = INV_TRIANGLE[idx] as u8;
            let mut s2 = 0u8;
            while s2 < 64 {
                let touching =
                    ((s1 & 7) as i8 - (s2 & 7) as i8).abs() <= 1 && ((s1 >> 3) as i8 - (s2 >> 3) as i8).abs() <= 1;
                let first_on_diagonal = offdiag(s1) == 0;
                let allowed = !(touching || first_on_diagonal && offdiag(s2) > 0);
                let both_on_diagonal = first_on_diagonal && offdiag(s2) == 0;
                if allowed && both_on_diagonal == (pass == 1) {
                    table[idx][s2 as usize] = code;
                    code += 1;
                }
                s2 += 1;
            }
            idx += 1;
        }
        pass += 1;
    }
    table
}

/// `n` choose `k`, zero when `k > n` or `n < 0`.
pub(crate) const fn binomial(n: i64, k: i64) -> u64 {
    if n < 0 || k < 0 || k > n {
        return 0;
    }
    let mut result: u64 = 1;
    let mut i = 0;
    while i < k {
        result = result * (n - i) as u64 / (i + 1) as u64;
        i += 1;
    }
    result
}

/// Index bases of the leading pawns' placements (one to five leading pawns) per `FLAP`
/// number, restarting in each of the four file sections.
const PAWN_IDX: [[u64; 24]; 5] = pawn_tables().0;

/// The number of leading-pawn placements in each file section.
pub(crate) const PAWN_FACTOR: [[u64; 4]; 5] = pawn_tables().1;

const fn pawn_tables() -> ([[u64; 24]; 5], [[u64; 4]; 5]) {
    let mut idx = [[0; 24]; 5];
    let mut factor = [[0; 4]; 5];
    let mut leading = 0;
    while leading < 5 {
        let mut file = 0;
        while file < 4 {
            let mut sum = 0;
            let mut j = 6 * file;
            while j < 6 * file + 6 {
                idx[leading][j] = sum;
                sum += if leading == 0 { 1 } else { binomial(PTWIST[inverse_flap(j)] as i64, leading as i64) };
                j += 1;
            }
            factor[leading][file] = sum;
            file += 1;
        }
        leading += 1;
    }
    (idx, factor)
}

/// The placements of the leading group of a pawnless table: three unique men (`Three`) or
/// the two kings (`Kings`) when no other man is alone of its kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Leading {
    Three,
    Kings,
}

impl Leading {
    /// Men in the leading group.
    pub(crate) const fn len(self) -> usize {
        match self {
            Leading::Three => 3,
            Leading::Kings => 2,
        }
    }

    /// The number of placements of the leading group.
    pub(crate) const fn placements(self) -> u64 {
        match self {
            Leading::Three => 31332,
            Leading::Kings => 462,
        }
    }
}

/// Insertion sort by `key`: the groups sorted here have at most seven men, where a general
/// sort's set-up costs more than the sorting.
fn sort_small(squares: &mut [u8], key: impl Fn(u8) -> u8) {
    for i in 1..squares.len() {
        let mut j = i;
        while j > 0 && key(squares[j - 1]) > key(squares[j]) {
            squares.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// Flips every square with `xor` (7 mirrors files, 56 ranks).
fn flip_all(pos: &mut [u8], xor: u8) {
    for sq in pos {
        *sq ^= xor;
    }
}

/// The index of groups of like men after the leading ones: each group, sorted, as a
/// combination of the squares the earlier men leave free.
fn encode_groups(pos: &mut [u8], norm: &[u8], factor: &[u64], mut i: usize, square_base: u8) -> u64 {
    let mut idx: u64 = 0;
    let n = pos.len();
    while i < n {
        let len = usize::from(norm[i]).max(1);
        let end = (i + len).min(n);
        sort_small(&mut pos[i..end], |sq| sq);
        let mut s: u64 = 0;
        for m in i..end {
            let p = pos[m];
            let below = pos[..i].iter().filter(|&&q| p > q).count() as i64;
            s = s.wrapping_add(binomial(i64::from(p) - below - i64::from(square_base), (m - i + 1) as i64));
        }
        idx = idx.wrapping_add(s.wrapping_mul(factor[i]));
        i = end;
    }
    idx
}

/// The index of a pawnless placement: `pos` lists the men in the table's order.
pub(crate) fn encode_pieces(leading: Leading, pos: &mut [u8], norm: &[u8], factor: &[u64]) -> Option<u64> {
    if pos[0] & 0x04 != 0 {
        flip_all(pos, 0x07);
    }
    if pos[0] & 0x20 != 0 {
        flip_all(pos, 0x38);
    }
    // Mirror in the diagonal when the first leading man off it stands above it.
    if let Some(&first_off) = pos.iter().take(leading.len()).find(|&&sq| offdiag(sq) != 0) {
        if offdiag(first_off) > 0 {
            for sq in pos.iter_mut() {
                *sq = flipdiag(*sq);
            }
        }
    }
    let idx = match leading {
        Leading::Three => {
            let (a, b, c) = (pos[0], pos[1], pos[2]);
            let i = u64::from(b > a);
            let j = u64::from(c > a) + u64::from(c > b);
            let (a, b, c) = (usize::from(a), usize::from(b), usize::from(c));
            if offdiag(pos[0]) != 0 {
                u64::from(TRIANGLE[a]) * 63 * 62 + (b as u64 - i) * 62 + (c as u64 - j)
            } else if offdiag(pos[1]) != 0 {
                6 * 63 * 62 + u64::from(DIAG[a]) * 28 * 62 + u64::from(LOWER[b]) * 62 + c as u64 - j
            } else if offdiag(pos[2]) != 0 {
                6 * 63 * 62
                    + 4 * 28 * 62
                    + u64::from(DIAG[a]) * 7 * 28
                    + (u64::from(DIAG[b]).wrapping_sub(i)) * 28
                    + u64::from(LOWER[c])
            } else {
                6 * 63 * 62
                    + 4 * 28 * 62
                    + 4 * 7 * 28
                    + u64::from(DIAG[a]) * 7 * 6
                    + u64::from(DIAG[b]).wrapping_sub(i) * 6
                    + u64::from(DIAG[c]).wrapping_sub(j)
            }
        }
        Leading::Kings => {
            u64::try_from(KK_IDX[usize::from(TRIANGLE[usize::from(pos[0])])][usize::from(pos[1])]).ok()?
        }
    };
    let idx = idx.wrapping_mul(factor[0]);
    Some(idx.wrapping_add(encode_groups(pos, norm, factor, leading.len(), 0)))
}

/// Moves the leading pawn (smallest `FLAP` among the first `leading` men) to the front and
/// returns its file section, 0 to 3.
pub(crate) fn pawn_file(pos: &mut [u8], leading: usize) -> usize {
    for i in 1..leading.min(pos.len()) {
        if FLAP[usize::from(pos[0])] > FLAP[usize::from(pos[i])] {
            pos.swap(0, i);
        }
    }
    const FILE_TO_SECTION: [usize; 8] = [0, 1, 2, 3, 3, 2, 1, 0];
    FILE_TO_SECTION[usize::from(pos[0] & 7)]
}

/// The index of a placement with pawns: `pos` lists the men in the table's order, the
/// leading pawn first (see [`pawn_file`]), then the other leading pawns, the second pawn
/// group (`second` men) and the pieces.
pub(crate) fn encode_pawns(leading: usize, second: usize, pos: &mut [u8], norm: &[u8], factor: &[u64]) -> u64 {
    if pos[0] & 0x04 != 0 {
        flip_all(pos, 0x07);
    }
    let leading = leading.clamp(1, 5).min(pos.len());
    sort_small(&mut pos[1..leading], |sq| u8::MAX - PTWIST[usize::from(sq)]);
    let t = leading - 1;
    let mut idx = PAWN_IDX[t][usize::from(FLAP[usize::from(pos[0])])];
    for i in (1..=t).rev() {
        idx = idx.wrapping_add(binomial(i64::from(PTWIST[usize::from(pos[i])]), (t - i + 1) as i64));
    }
    idx = idx.wrapping_mul(factor[0]);

    let mut i = leading;
    let end = (leading + second).min(pos.len());
    if end > i {
        sort_small(&mut pos[i..end], |sq| sq);
        let mut s: u64 = 0;
        for m in i..end {
            let p = pos[m];
            let below = pos[..i].iter().filter(|&&q| p > q).count() as i64;
            s = s.wrapping_add(binomial(i64::from(p) - below - 8, (m - i + 1) as i64));
        }
        idx = idx.wrapping_add(s.wrapping_mul(factor[i]));
        i = end;
    }
    idx.wrapping_add(encode_groups(pos, norm, factor, i, 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_king_pairs_number_462() {
        let codes: Vec<i16> = KK_IDX.iter().flatten().copied().filter(|&c| c >= 0).collect();
        assert_eq!(codes.len(), 462);
        let mut sorted = codes.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..462).collect::<Vec<i16>>());
        // b1 and d1: the first pair; a1 with c3: the first both-on-diagonal pair.
        assert_eq!(KK_IDX[0][3], 0);
        assert_eq!(KK_IDX[6][18], 441);
    }

    #[test]
    fn maps_agree_with_their_definitions() {
        assert_eq!(LOWER[1], 0); // b1
        assert_eq!(LOWER[8], 0); // a2, b1's mirror
        assert_eq!(LOWER[63], 35); // h8
        assert_eq!(DIAG[7], 8); // h1
        assert_eq!(DIAG[56], 15); // a8
        assert_eq!(FLAP[9], 6); // b2
        assert_eq!(PTWIST[8], 47); // a2
        assert_eq!(PTWIST[52], 0); // e7
        assert_eq!(binomial(5, 2), 10);
        assert_eq!(binomial(2, 5), 0);
        assert_eq!(binomial(-1, 1), 0);
        // One leading pawn: six squares per file section.
        assert_eq!(PAWN_FACTOR[0], [6, 6, 6, 6]);
    }
}
