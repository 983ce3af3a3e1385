//! Generates the attack tables of `tempo-core` at build time, so that the library has no
//! start-up cost and no lazy-initialisation check on the hot path.
//!
//! Output (`$OUT_DIR/tables.rs`): leaper attacks, `BETWEEN`/`LINE` tables, and slider
//! attacks indexed by fancy magic multiplication or by BMI2 PEXT. PEXT is chosen (and the
//! `tempo_pext` cfg set) only when the build targets a CPU known to run it fast: see
//! [`pext_is_fast`].

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

/// Whether the compiled code may use PEXT and the target CPU runs it fast.
///
/// PEXT needs BMI2 enabled at compile time (`-C target-cpu=...` or `target-feature`), and
/// then it is fast on Intel since Haswell and on AMD since Zen 3, but microcoded on Zen 1
/// and 2 and on the older AMD cores with BMI2 (hundreds of cycles instead of three, far
/// slower than a magic multiplication). So BMI2 alone is not enough: the target CPU must be
/// named and not one of those. `native` is resolved by asking the build machine's CPU, which
/// is the target when nothing is cross-compiled. Generic levels (`x86-64-v3`, `-v4`) run on
/// Zen 2 as well, so they keep magic bitboards.
///
/// `TEMPO_PEXT=0` or `TEMPO_PEXT=1` overrides the choice (1 still needs BMI2).
fn pext_is_fast() -> bool {
    let bmi2 = env::var("CARGO_CFG_TARGET_FEATURE").is_ok_and(|features| features.split(',').any(|f| f == "bmi2"));
    if !bmi2 || env::var("CARGO_CFG_TARGET_ARCH").as_deref() != Ok("x86_64") {
        return false;
    }
    match env::var("TEMPO_PEXT").as_deref() {
        Ok("1") => return true,
        Ok("0") => return false,
        _ => {}
    }
    match target_cpu().as_deref() {
        None | Some("x86-64-v3" | "x86-64-v4") => false,
        Some("native") => env::var("HOST") == env::var("TARGET") && host_pext_is_fast(),
        Some(cpu) => !(cpu.starts_with("znver1") || cpu.starts_with("znver2") || cpu.starts_with("bdver")),
    }
}

/// The last `target-cpu=` of the flags cargo passes to rustc for this package, if any.
fn target_cpu() -> Option<String> {
    let flags = env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default();
    let flags: Vec<&str> = flags.split('\x1f').collect();
    let mut cpu = None;
    for (i, flag) in flags.iter().enumerate() {
        let codegen = if *flag == "-C" { flags.get(i + 1).copied() } else { flag.strip_prefix("-C") };
        if let Some(name) = codegen.and_then(|option| option.strip_prefix("target-cpu=")) {
            cpu = Some(name.to_owned());
        }
    }
    cpu
}

/// `false` on AMD CPUs before Zen 3 (family 0x19), whose PEXT is microcoded.
#[cfg(target_arch = "x86_64")]
fn host_pext_is_fast() -> bool {
    use std::arch::x86_64::__cpuid;
    let vendor = __cpuid(0);
    let amd = [vendor.ebx, vendor.edx, vendor.ecx] == [0x6874_7541, 0x6974_6e65, 0x444d_4163]; // "AuthenticAMD"
    let signature = __cpuid(1).eax;
    let base_family = (signature >> 8) & 0xf;
    let family = if base_family == 0xf { base_family + ((signature >> 20) & 0xff) } else { base_family };
    !amd || family >= 0x19
}

#[cfg(not(target_arch = "x86_64"))]
fn host_pext_is_fast() -> bool {
    false
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=TEMPO_PEXT");
    println!("cargo::rustc-check-cfg=cfg(tempo_pext)");
    let use_pext = pext_is_fast();
    if use_pext {
        println!("cargo::rustc-cfg=tempo_pext");
    }
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
