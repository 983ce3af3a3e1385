//! Generates the attack tables of `tempo-core` at build time, so that the library has no
//! start-up cost and no lazy-initialisation check on the hot path.
//!
//! Output (`$OUT_DIR/tables.rs`): leaper attacks, `BETWEEN`/`LINE` tables, and slider
//! attacks indexed by fancy magic multiplication (default) or by PEXT (feature `pext`).

use std::fmt::Write as _;
use std::{env, fs, path::Path};

const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

fn sq(file: i32, rank: i32) -> Option<u32> {
    ((0..8).contains(&file) && (0..8).contains(&rank)).then(|| (rank * 8 + file) as u32)
}

fn slide(square: u32, occupied: u64, dirs: &[(i32, i32)]) -> u64 {
    let (f, r) = ((square % 8) as i32, (square / 8) as i32);
    let mut attacks = 0;
    for &(df, dr) in dirs {
        let (mut x, mut y) = (f + df, r + dr);
        while let Some(s) = sq(x, y) {
            attacks |= 1u64 << s;
            if occupied & (1u64 << s) != 0 {
                break;
            }
            x += df;
            y += dr;
        }
    }
    attacks
}

/// Relevant occupancy: the rays without their last square (edges never block further).
fn relevant_mask(square: u32, dirs: &[(i32, i32)]) -> u64 {
    let (f, r) = ((square % 8) as i32, (square / 8) as i32);
    let mut mask = 0;
    for &(df, dr) in dirs {
        let (mut x, mut y) = (f + df, r + dr);
        while sq(x + df, y + dr).is_some() {
            mask |= 1u64 << sq(x, y).unwrap();
            x += df;
            y += dr;
        }
    }
    mask
}

fn leaper(square: u32, deltas: &[(i32, i32)]) -> u64 {
    let (f, r) = ((square % 8) as i32, (square / 8) as i32);
    deltas.iter().filter_map(|&(df, dr)| sq(f + df, r + dr)).fold(0, |bb, s| bb | 1u64 << s)
}

fn subsets(mask: u64) -> Vec<u64> {
    // Carry-Rippler enumeration of every subset of `mask`.
    let mut out = Vec::with_capacity(1 << mask.count_ones());
    let mut sub = 0u64;
    loop {
        out.push(sub);
        sub = sub.wrapping_sub(mask) & mask;
        if sub == 0 {
            break;
        }
    }
    out
}

fn pext(value: u64, mut mask: u64) -> u64 {
    let mut result = 0;
    let mut bit = 1;
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        if value & low != 0 {
            result |= bit;
        }
        bit <<= 1;
        mask &= mask - 1;
    }
    result
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*: deterministic, so every build finds the same magics.
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

struct Entry {
    mask: u64,
    factor: u64,
    shift: u32,
    offset: usize,
}

fn build_slider(dirs: &[(i32, i32)], use_pext: bool, table: &mut Vec<u64>, rng: &mut Rng) -> Vec<Entry> {
    let mut entries = Vec::with_capacity(64);
    for square in 0..64 {
        let mask = relevant_mask(square, dirs);
        let bits = mask.count_ones();
        let occupancies = subsets(mask);
        let attacks: Vec<u64> = occupancies.iter().map(|&o| slide(square, o, dirs)).collect();
        let offset = table.len();
        let size = 1usize << bits;
        table.resize(offset + size, 0);
        if use_pext {
            for (o, a) in occupancies.iter().zip(&attacks) {
                table[offset + pext(*o, mask) as usize] = *a;
            }
            entries.push(Entry { mask, factor: 0, shift: 0, offset });
            continue;
        }
        let shift = 64 - bits;
        let mut used = vec![0u64; size];
        let mut epoch = vec![0u32; size];
        let mut attempt = 0u32;
        let factor = loop {
            attempt += 1;
            let factor = rng.sparse();
            if (mask.wrapping_mul(factor) >> 56).count_ones() < 6 {
                continue;
            }
            let ok = occupancies.iter().zip(&attacks).all(|(&o, &a)| {
                let idx = (o.wrapping_mul(factor) >> shift) as usize;
                if epoch[idx] != attempt {
                    epoch[idx] = attempt;
                    used[idx] = a;
                    true
                } else {
                    used[idx] == a
                }
            });
            if ok {
                break factor;
            }
        };
        for (idx, &a) in used.iter().enumerate() {
            if epoch[idx] == attempt {
                table[offset + idx] = a;
            }
        }
        entries.push(Entry { mask, factor, shift, offset });
    }
    entries
}

fn write_array(out: &mut String, name: &str, ty: &str, values: &[u64]) {
    writeln!(out, "pub(crate) static {name}: [{ty}; {}] = [", values.len()).unwrap();
    for chunk in values.chunks(8) {
        out.push_str("   ");
        for v in chunk {
            write!(out, " {v:#x},").unwrap();
        }
        out.push('\n');
    }
    out.push_str("];\n");
}

fn write_entries(out: &mut String, name: &str, entries: &[Entry]) {
    writeln!(out, "pub(crate) static {name}: [SliderEntry; 64] = [").unwrap();
    for e in entries {
        writeln!(
            out,
            "    SliderEntry {{ mask: {:#x}, factor: {:#x}, shift: {}, offset: {} }},",
            e.mask, e.factor, e.shift, e.offset
        )
        .unwrap();
    }
    out.push_str("];\n");
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let use_pext = env::var_os("CARGO_FEATURE_PEXT").is_some();
    let mut out = String::new();

    let knight: Vec<u64> =
        (0..64).map(|s| leaper(s, &[(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)])).collect();
    let king: Vec<u64> =
        (0..64).map(|s| leaper(s, &[(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)])).collect();
    let white_pawn: Vec<u64> = (0..64).map(|s| leaper(s, &[(-1, 1), (1, 1)])).collect();
    let black_pawn: Vec<u64> = (0..64).map(|s| leaper(s, &[(-1, -1), (1, -1)])).collect();
    write_array(&mut out, "KNIGHT_ATTACKS", "u64", &knight);
    write_array(&mut out, "KING_ATTACKS", "u64", &king);
    let pawns: Vec<u64> = white_pawn.iter().chain(&black_pawn).copied().collect();
    write_array(&mut out, "PAWN_ATTACKS", "u64", &pawns);

    // BETWEEN[a][b]: squares strictly between a and b on a shared line (else empty).
    // LINE[a][b]: the whole line through a and b, edge to edge (else empty).
    let mut between = vec![0u64; 64 * 64];
    let mut line = vec![0u64; 64 * 64];
    for a in 0..64u32 {
        for b in 0..64u32 {
            if a == b {
                continue;
            }
            for dirs in [&ROOK_DIRS[..], &BISHOP_DIRS[..]] {
                if slide(a, 0, dirs) & (1u64 << b) != 0 {
                    between[(a * 64 + b) as usize] = slide(a, 1u64 << b, dirs) & slide(b, 1u64 << a, dirs);
                    line[(a * 64 + b) as usize] = (slide(a, 0, dirs) & slide(b, 0, dirs)) | (1u64 << a) | (1u64 << b);
                }
            }
        }
    }
    write_array(&mut out, "BETWEEN", "u64", &between);
    // Slider attacks on an empty board: cheap pre-filters before a magic lookup.
    let rook_rays: Vec<u64> = (0..64).map(|s| slide(s, 0, &ROOK_DIRS)).collect();
    let bishop_rays: Vec<u64> = (0..64).map(|s| slide(s, 0, &BISHOP_DIRS)).collect();
    write_array(&mut out, "ROOK_RAYS", "u64", &rook_rays);
    write_array(&mut out, "BISHOP_RAYS", "u64", &bishop_rays);
    write_array(&mut out, "LINE", "u64", &line);

    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut table = Vec::new();
    let rook = build_slider(&ROOK_DIRS, use_pext, &mut table, &mut rng);
    let bishop = build_slider(&BISHOP_DIRS, use_pext, &mut table, &mut rng);
    write_entries(&mut out, "ROOK_ENTRIES", &rook);
    write_entries(&mut out, "BISHOP_ENTRIES", &bishop);
    write_array(&mut out, "SLIDER_ATTACKS", "u64", &table);

    let path = Path::new(&env::var("OUT_DIR").unwrap()).join("tables.rs");
    fs::write(path, out).unwrap();
}
