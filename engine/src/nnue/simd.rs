//! The vector kernels of inference: adding and subtracting weight rows to update an
//! accumulator, and the SCReLU output layer.
//!
//! Each kernel has a portable scalar form, on x86-64 an AVX2 form written with `std::arch`
//! intrinsics, and in WebAssembly built with `simd128` (the browser build's fast variant) a
//! 128-bit form, chosen at compile time since a WebAssembly module either validates with
//! SIMD instructions or does not load at all: the page picks the build, not the code. The workspace compiles for x86-64-v2 (SSE4.2, no AVX2), so AVX2 is
//! chosen at run time: a [`Simd`] value says which kernels to run, and the only way to get
//! one that says AVX2 is [`Simd::avx2`], which checks the CPU. Callers detect once (when a
//! search or an evaluation starts) and pass the value down, so the hot loop does not ask the
//! CPU again. Both forms compute exactly the same integers; a test compares them.

#![deny(clippy::undocumented_unsafe_blocks)]

use super::QA;

/// `H` 16-bit lanes, aligned to a 64-byte cache line: a weight row, a bias vector or one
/// perspective's accumulator. The alignment lets the AVX2 kernels use aligned loads and
/// stores, and the type fixes the length, so no kernel needs a length check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub(crate) struct Row<const H: usize>(pub(crate) [i16; H]);

impl<const H: usize> Row<H> {
    /// All lanes zero.
    pub(crate) const ZERO: Row<H> = Row([0; H]);

    /// Checked at compile time for each width the kernels are built for: the AVX2 kernels
    /// work on 16 lanes (32 bytes) at a time, and the AVX2 output layer sums into eight `i32`
    /// lanes, each of `2 * H / 8` terms of at most 255 * 255 * 127 (the format rejects output
    /// weights outside -127..=127), and adds the lanes in `i64`: exact for every network up to
    /// 512 neurons.
    pub(crate) const VALID: () = {
        assert!(H > 0 && H % 16 == 0, "the hidden size must be a multiple of 16 for the AVX2 kernels");
        assert!(H <= 512, "an output lane could overflow i32");
    };
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
// The simd128 build always runs its own kernels: the scalar ones serve the other targets.
#[cfg_attr(all(target_arch = "wasm32", target_feature = "simd128"), allow(dead_code))]
enum Path {
    Scalar,
    #[cfg(target_arch = "x86_64")]
    Avx2,
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    Wasm128,
}

/// Which kernels to run. A value naming AVX2 exists only if the CPU supports AVX2 (the field
/// is private and [`Simd::avx2`] checks), which is what makes calling the AVX2 kernels sound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Simd(Path);

#[cfg_attr(all(target_arch = "wasm32", target_feature = "simd128"), allow(dead_code))]
impl Simd {
    /// The portable kernels, available everywhere.
    pub(crate) const SCALAR: Simd = Simd(Path::Scalar);

    /// The AVX2 kernels, if this CPU has AVX2.
    pub(crate) fn avx2() -> Option<Simd> {
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") {
            return Some(Simd(Path::Avx2));
        }
        None
    }

    /// The `simd128` kernels: this build has them, and a browser without SIMD would not
    /// have loaded it.
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    pub(crate) fn detect() -> Simd {
        Simd(Path::Wasm128)
    }

    /// The fastest kernels this CPU runs (detected on the first call only).
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    pub(crate) fn detect() -> Simd {
        static DETECTED: std::sync::OnceLock<Simd> = std::sync::OnceLock::new();
        *DETECTED.get_or_init(|| Simd::avx2().unwrap_or(Simd::SCALAR))
    }

    /// `dst = src + sum(adds) - sum(subs)`, lane by lane, wrapping on overflow (as the vector
    /// instructions do, so that every order of updates gives the same result).
    #[inline]
    pub(crate) fn update<const H: usize>(self, dst: &mut Row<H>, src: &Row<H>, adds: &[&Row<H>], subs: &[&Row<H>]) {
        match self.0 {
            Path::Scalar => scalar::update(dst, src, adds, subs),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Path::Avx2` is only constructed by `Simd::avx2`, after
            // `is_x86_feature_detected!("avx2")` returned true, so the CPU runs AVX2 code.
            Path::Avx2 => unsafe { avx2::update(dst, src, adds, subs) },
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Path::Wasm128 => wasm128::update(dst, src, adds, subs),
        }
    }

    /// The output layer's sum before the bias: `sum_j v(us[j])^2 * w_us[j] + sum_j
    /// v(them[j])^2 * w_them[j]` with `v(x) = clamp(x, 0, QA)`, exact.
    #[inline]
    pub(crate) fn screlu_dot<const H: usize>(self, us: &Row<H>, them: &Row<H>, w_us: &Row<H>, w_them: &Row<H>) -> i64 {
        match self.0 {
            Path::Scalar => scalar::screlu_dot(us, w_us) + scalar::screlu_dot(them, w_them),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as in `update`: a `Path::Avx2` value proves AVX2 was detected.
            Path::Avx2 => unsafe { avx2::screlu_dot(us, them, w_us, w_them) },
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Path::Wasm128 => wasm128::screlu_dot(us, w_us) + wasm128::screlu_dot(them, w_them),
        }
    }
}

/// The portable kernels. Written row by row so that the compiler vectorises them with the
/// baseline instruction set (SSE on x86-64-v2).
mod scalar {
    use super::{Row, QA};

    pub(super) fn update<const H: usize>(dst: &mut Row<H>, src: &Row<H>, adds: &[&Row<H>], subs: &[&Row<H>]) {
        dst.0 = src.0;
        for row in adds {
            for (d, &w) in dst.0.iter_mut().zip(&row.0) {
                *d = d.wrapping_add(w);
            }
        }
        for row in subs {
            for (d, &w) in dst.0.iter_mut().zip(&row.0) {
                *d = d.wrapping_sub(w);
            }
        }
    }

    pub(super) fn screlu_dot<const H: usize>(acc: &Row<H>, weights: &Row<H>) -> i64 {
        // Each term fits in i32 (at most 255 * 255 * 127); their sum needs i64.
        acc.0
            .iter()
            .zip(&weights.0)
            .map(|(&a, &w)| {
                let v = i32::from(a).clamp(0, QA);
                i64::from(v * v * i32::from(w))
            })
            .sum()
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{Row, QA};
    use std::arch::x86_64::{
        __m256i, _mm256_add_epi16, _mm256_add_epi32, _mm256_add_epi64, _mm256_castsi256_si128, _mm256_cvtepi32_epi64,
        _mm256_extracti128_si256, _mm256_load_si256, _mm256_madd_epi16, _mm256_max_epi16, _mm256_min_epi16,
        _mm256_mullo_epi16, _mm256_set1_epi16, _mm256_setzero_si256, _mm256_store_si256, _mm256_sub_epi16,
        _mm_add_epi64, _mm_cvtsi128_si64, _mm_unpackhi_epi64,
    };

    /// 16-lane chunks summed in registers at a time: the number of AVX2 registers.
    const GROUP: usize = 16;

    /// The `chunk`-th 32 bytes of `row`.
    #[inline(always)]
    fn lane_ptr<const H: usize>(row: &Row<H>, chunk: usize) -> *const __m256i {
        debug_assert!(chunk < H / 16);
        row.0[chunk * 16..].as_ptr().cast()
    }

    /// See [`super::Simd::update`].
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    #[allow(unused_unsafe)] // the arithmetic intrinsics are safe here since Rust 1.87, not before
    pub(super) unsafe fn update<const H: usize>(dst: &mut Row<H>, src: &Row<H>, adds: &[&Row<H>], subs: &[&Row<H>]) {
        let () = Row::<H>::VALID;
        // Up to 16 chunks (256 lanes) of the row stay in registers while the rows are added,
        // so each weight row costs one pass of loads and adds per 256 lanes.
        // SAFETY: AVX2 is available (the caller's contract). Every `chunk < H / 16`, so each
        // pointer addresses 32 in-bounds bytes of a `Row` (H lanes = 2 * H bytes); a `Row` is
        // 64-byte aligned and the offset `chunk * 32` is a multiple of 32, as
        // `_mm256_load_si256`/`_mm256_store_si256` require. `dst` is a unique borrow, so the
        // stores alias none of the loaded rows.
        unsafe {
            for first in (0..H / 16).step_by(GROUP) {
                let count = GROUP.min(H / 16 - first);
                let mut sums = [_mm256_setzero_si256(); GROUP];
                for (k, sum) in sums[..count].iter_mut().enumerate() {
                    *sum = _mm256_load_si256(lane_ptr(src, first + k));
                }
                for row in adds {
                    for (k, sum) in sums[..count].iter_mut().enumerate() {
                        *sum = _mm256_add_epi16(*sum, _mm256_load_si256(lane_ptr(row, first + k)));
                    }
                }
                for row in subs {
                    for (k, sum) in sums[..count].iter_mut().enumerate() {
                        *sum = _mm256_sub_epi16(*sum, _mm256_load_si256(lane_ptr(row, first + k)));
                    }
                }
                for (k, sum) in sums[..count].iter().enumerate() {
                    _mm256_store_si256(dst.0[(first + k) * 16..].as_mut_ptr().cast(), *sum);
                }
            }
        }
    }

    /// See [`super::Simd::screlu_dot`].
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    #[allow(unused_unsafe)] // the arithmetic intrinsics are safe here since Rust 1.87, not before
    pub(super) unsafe fn screlu_dot<const H: usize>(us: &Row<H>, them: &Row<H>, w_us: &Row<H>, w_them: &Row<H>) -> i64 {
        let () = Row::<H>::VALID;
        // SAFETY: AVX2 is available (the caller's contract); the loads are in bounds and
        // aligned for the reasons given in `update`.
        unsafe {
            let zero = _mm256_setzero_si256();
            let qa = _mm256_set1_epi16(QA as i16);
            let mut sum = _mm256_setzero_si256();
            for (acc, weights) in [(us, w_us), (them, w_them)] {
                for chunk in 0..H / 16 {
                    let v = _mm256_min_epi16(_mm256_max_epi16(_mm256_load_si256(lane_ptr(acc, chunk)), zero), qa);
                    // v <= 255 and |w| <= 127: the product fits in i16.
                    let vw = _mm256_mullo_epi16(v, _mm256_load_si256(lane_ptr(weights, chunk)));
                    // (v * w) * v for pairs of lanes, summed into i32 lanes.
                    sum = _mm256_add_epi32(sum, _mm256_madd_epi16(vw, v));
                }
            }
            // Each lane is exact in i32 (`Row::VALID`); their total needs i64.
            let low = _mm256_cvtepi32_epi64(_mm256_castsi256_si128(sum));
            let high = _mm256_cvtepi32_epi64(_mm256_extracti128_si256::<1>(sum));
            let quads = _mm256_add_epi64(low, high);
            let pair = _mm_add_epi64(_mm256_castsi256_si128(quads), _mm256_extracti128_si256::<1>(quads));
            _mm_cvtsi128_si64(_mm_add_epi64(pair, _mm_unpackhi_epi64(pair, pair)))
        }
    }
}

/// The WebAssembly `simd128` kernels: 8 lanes of `i16` per vector. The whole module is
/// compiled with `simd128`, so the intrinsics need no run-time check; only the loads and
/// stores through pointers are `unsafe`.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod wasm128 {
    use super::{Row, QA};
    use std::arch::wasm32::{
        i16x8_add, i16x8_max, i16x8_min, i16x8_mul, i16x8_splat, i16x8_sub, i32x4_add, i32x4_dot_i16x8, i64x2_add,
        i64x2_extend_high_i32x4, i64x2_extend_low_i32x4, i64x2_extract_lane, i64x2_splat, v128, v128_load, v128_store,
    };

    /// The `chunk`-th 16 bytes of `row`.
    #[inline(always)]
    fn lane_ptr<const H: usize>(row: &Row<H>, chunk: usize) -> *const v128 {
        debug_assert!(chunk < H / 8);
        row.0[chunk * 8..].as_ptr().cast()
    }

    /// See [`super::Simd::update`].
    pub(super) fn update<const H: usize>(dst: &mut Row<H>, src: &Row<H>, adds: &[&Row<H>], subs: &[&Row<H>]) {
        let () = Row::<H>::VALID;
        for chunk in 0..H / 8 {
            // SAFETY: `chunk < H / 8`, so each pointer addresses 16 in-bounds bytes of a
            // `Row` (H lanes = 2 * H bytes); wasm loads and stores need no alignment. `dst`
            // is a unique borrow, so the store aliases none of the loaded rows.
            unsafe {
                let mut sum = v128_load(lane_ptr(src, chunk));
                for row in adds {
                    sum = i16x8_add(sum, v128_load(lane_ptr(row, chunk)));
                }
                for row in subs {
                    sum = i16x8_sub(sum, v128_load(lane_ptr(row, chunk)));
                }
                v128_store(dst.0[chunk * 8..].as_mut_ptr().cast(), sum);
            }
        }
    }

    /// One perspective's share of [`super::Simd::screlu_dot`].
    pub(super) fn screlu_dot<const H: usize>(acc: &Row<H>, weights: &Row<H>) -> i64 {
        let () = Row::<H>::VALID;
        let zero = i16x8_splat(0);
        let qa = i16x8_splat(QA as i16);
        let mut total = i64x2_splat(0);
        // Four i32 lanes, each summing 2 terms per chunk of at most 255 * 255 * 127; moved
        // into i64 every 64 chunks (128 terms, far below i32's range) so any width is exact.
        for block in (0..H / 8).step_by(64) {
            let mut sum = i16x8_splat(0);
            for chunk in block..(block + 64).min(H / 8) {
                // SAFETY: in bounds as in `update`.
                let (a, w) = unsafe { (v128_load(lane_ptr(acc, chunk)), v128_load(lane_ptr(weights, chunk))) };
                let v = i16x8_min(i16x8_max(a, zero), qa);
                // v <= 255 and |w| <= 127: the product fits in i16.
                sum = i32x4_add(sum, i32x4_dot_i16x8(i16x8_mul(v, w), v));
            }
            total = i64x2_add(total, i64x2_add(i64x2_extend_low_i32x4(sum), i64x2_extend_high_i32x4(sum)));
        }
        i64x2_extract_lane::<0>(total) + i64x2_extract_lane::<1>(total)
    }
}
