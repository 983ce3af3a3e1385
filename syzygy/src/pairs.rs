//! The compressed value stream of one table section: a canonical Huffman code over symbols
//! that a pair grammar expands into runs of values ("RE-PAIR"), cut into blocks with an
//! index every 2^idxbits values. `Pairs::read` parses a section's header and checks that
//! every table it refers to lies inside the file; `Pairs::value` finds one value.

use crate::bytes::{u16_le, u32_be, u32_le, u64_be, u8_at};
use crate::error::{FormatError, FormatResult};

/// One section's decoder.
#[derive(Debug)]
pub(crate) enum Pairs {
    /// The whole section holds one value.
    Constant(u16),
    Huffman(Huffman),
}

#[derive(Debug)]
pub(crate) struct Huffman {
    /// log2 of a block's size in bytes.
    block_size: u32,
    idx_bits: u32,
    /// Blocks in the size table (stored blocks plus the extra ones the index may name).
    blocks: u64,
    min_len: u32,
    /// The first symbol of each code length, from `min_len` up.
    lowest: Vec<u16>,
    /// Offset of the symbol table: three bytes per symbol, two 12-bit halves.
    symbols: usize,
    /// The number of values each symbol expands to, minus one.
    symbol_lengths: Vec<u32>,
    /// The smallest left-aligned 64-bit code of each length, from `min_len` up.
    base: Vec<u64>,
    /// Filled in by the table once the section's place in the file is known.
    pub(crate) index_table: usize,
    pub(crate) size_table: usize,
    pub(crate) data: usize,
}

/// Byte sizes of the index table, the size table and the data of a section.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Sizes {
    pub(crate) index: usize,
    pub(crate) size: usize,
    pub(crate) data: usize,
}

/// A section's header: the decoder, its flags byte and the sizes of its tables.
pub(crate) struct Header {
    pub(crate) pairs: Pairs,
    pub(crate) flags: u8,
    pub(crate) sizes: Sizes,
    /// The offset after the header.
    pub(crate) next: usize,
}

const NO_CHILD: u16 = 0x0fff;

/// A symbol's two halves: the left and right symbols it stands for (or the value and
/// `NO_CHILD` for a leaf).
fn symbol(data: &[u8], symbols: usize, sym: usize) -> FormatResult<(u16, u16)> {
    let at = symbols + 3 * sym;
    let (b0, b1, b2) = (u8_at(data, at)?, u8_at(data, at + 1)?, u8_at(data, at + 2)?);
    let left = (u16::from(b1 & 0x0f) << 8) | u16::from(b0);
    let right = (u16::from(b2) << 4) | u16::from(b1 >> 4);
    Ok((left, right))
}

fn usize_of(n: u64) -> FormatResult<usize> {
    usize::try_from(n).map_err(|_| FormatError::new("section size does not fit in memory"))
}

impl Pairs {
    /// Reads the header at `at` of a section of `entries` values. `wdl`: a constant WDL
    /// section stores its value, a constant DTZ section is zero.
    pub(crate) fn read(data: &[u8], at: usize, entries: u64, wdl: bool) -> FormatResult<Header> {
        let flags = u8_at(data, at)?;
        if flags & 0x80 != 0 {
            let value = if wdl { u16::from(u8_at(data, at + 1)?) } else { 0 };
            return Ok(Header { pairs: Pairs::Constant(value), flags, sizes: Sizes::default(), next: at + 2 });
        }
        let block_size = u32::from(u8_at(data, at + 1)?);
        let idx_bits = u32::from(u8_at(data, at + 2)?);
        let real_blocks = u64::from(u32_le(data, at + 4)?);
        let blocks = real_blocks + u64::from(u8_at(data, at + 3)?);
        let max_len = u32::from(u8_at(data, at + 8)?);
        let min_len = u32::from(u8_at(data, at + 9)?);
        if !(1..=32).contains(&idx_bits) || block_size > 32 {
            return Err(FormatError::new(format!("block size 2^{block_size} or index step 2^{idx_bits} out of range")));
        }
        if min_len == 0 || min_len > max_len || max_len > 32 {
            return Err(FormatError::new(format!("code lengths {min_len} to {max_len} out of range")));
        }
        let lengths = (max_len - min_len + 1) as usize;
        let lowest_symbols = at + 10;
        let symbol_count = usize::from(u16_le(data, lowest_symbols + 2 * lengths)?);
        let symbols = lowest_symbols + 2 * lengths + 2;
        let next = symbols + 3 * symbol_count + (symbol_count & 1);

        let symbol_lengths = symbol_lengths(data, symbols, symbol_count)?;

        // base[i]: the first code of length min_len + i, from the count of symbols of each
        // length (the difference of successive lowest symbols), left-aligned in 64 bits.
        let mut base = vec![0u64; lengths];
        for i in (0..lengths - 1).rev() {
            let here = i64::from(u16_le(data, lowest_symbols + 2 * i)?);
            let above = i64::from(u16_le(data, lowest_symbols + 2 * i + 2)?);
            let sum = base[i + 1] as i64 + here - above;
            if sum < 0 {
                return Err(FormatError::new("Huffman code lengths are inconsistent"));
            }
            base[i] = (sum / 2) as u64;
        }
        for (i, b) in base.iter_mut().enumerate() {
            *b <<= 64 - (min_len + i as u32);
        }

        let entries_per_index = 1u64 << idx_bits;
        let indices = entries.div_ceil(entries_per_index);
        let sizes = Sizes {
            index: usize_of(indices.saturating_mul(6))?,
            size: usize_of(blocks.saturating_mul(2))?,
            data: usize_of(
                real_blocks.checked_shl(block_size).filter(|d| d >> block_size == real_blocks).unwrap_or(u64::MAX),
            )?,
        };
        let pairs = Pairs::Huffman(Huffman {
            block_size,
            idx_bits,
            blocks,
            min_len,
            lowest: (0..lengths).map(|i| u16_le(data, lowest_symbols + 2 * i)).collect::<FormatResult<_>>()?,
            symbols,
            symbol_lengths,
            base,
            index_table: 0,
            size_table: 0,
            data: 0,
        });
        Ok(Header { pairs, flags, sizes, next })
    }

    /// The value at `idx`: a WDL value plus 2 (`wide == false`, one byte) or a DTZ value or
    /// map index (`wide`, 12 bits).
    pub(crate) fn value(&self, data: &[u8], idx: u64, wide: bool) -> FormatResult<u16> {
        match self {
            Pairs::Constant(value) => Ok(*value),
            Pairs::Huffman(h) => h.value(data, idx, wide),
        }
    }
}

/// The expansion length (minus one) of every symbol, each symbol's from its two halves'.
/// The halves must form a tree (a symbol built of itself would loop), checked here.
fn symbol_lengths(data: &[u8], symbols: usize, count: usize) -> FormatResult<Vec<u32>> {
    const UNSEEN: u8 = 0;
    const OPEN: u8 = 1;
    const DONE: u8 = 2;
    let mut lengths = vec![0u32; count];
    let mut state = vec![UNSEEN; count];
    let mut stack = Vec::new();
    for start in 0..count {
        if state[start] == DONE {
            continue;
        }
        stack.push(start);
        while let Some(&sym) = stack.last() {
            let (left, right) = symbol(data, symbols, sym)?;
            if right == NO_CHILD {
                state[sym] = DONE;
                stack.pop();
                continue;
            }
            let (left, right) = (usize::from(left), usize::from(right));
            if left >= count || right >= count {
                return Err(FormatError::new(format!("symbol {sym} refers to a symbol past the {count} there are")));
            }
            state[sym] = OPEN;
            let mut pending = false;
            for child in [left, right] {
                match state[child] {
                    UNSEEN => {
                        stack.push(child);
                        pending = true;
                    }
                    OPEN => return Err(FormatError::new(format!("symbol {sym} is defined in terms of itself"))),
                    _ => {}
                }
            }
            if !pending {
                lengths[sym] = lengths[left].saturating_add(lengths[right]).saturating_add(1);
                state[sym] = DONE;
                stack.pop();
            }
        }
    }
    Ok(lengths)
}

impl Huffman {
    /// Where a section's tables start and end, checked against the file.
    pub(crate) fn place(&mut self, index_table: usize, size_table: usize, data: usize) {
        self.index_table = index_table;
        self.size_table = size_table;
        self.data = data;
    }

    fn value(&self, data: &[u8], idx: u64, wide: bool) -> FormatResult<u16> {
        let corrupt = |what: &str| FormatError::new(format!("compressed data: {what}"));
        let main = usize_of(idx >> self.idx_bits)?;
        let half = 1i64 << (self.idx_bits - 1);
        let mut lit = (idx & ((1u64 << self.idx_bits) - 1)) as i64 - half;
        let entry =
            main.checked_mul(6).and_then(|o| o.checked_add(self.index_table)).ok_or_else(|| corrupt("index"))?;
        let mut block = u64::from(u32_le(data, entry)?);
        lit += i64::from(u16_le(data, entry + 4)?);

        let block_len = |block: u64| -> FormatResult<i64> {
            if block >= self.blocks {
                return Err(corrupt("block past the size table"));
            }
            Ok(i64::from(u16_le(data, self.size_table + 2 * block as usize)?))
        };
        if lit < 0 {
            while lit < 0 {
                block = block.checked_sub(1).ok_or_else(|| corrupt("block before the first"))?;
                lit += block_len(block)? + 1;
            }
        } else {
            loop {
                let len = block_len(block)?;
                if lit <= len {
                    break;
                }
                lit -= len + 1;
                block += 1;
            }
        }

        let mut ptr = usize_of(block)?
            .checked_shl(self.block_size)
            .filter(|p| p >> self.block_size == block as usize)
            .and_then(|p| p.checked_add(self.data))
            .ok_or_else(|| corrupt("block offset"))?;
        let mut code = u64_be(data, ptr)?;
        ptr += 8;
        let mut bits = 0; // bits of `code` consumed since the last refill
        let (base, lowest, runs) = (self.base.as_slice(), self.lowest.as_slice(), self.symbol_lengths.as_slice());
        let sym = loop {
            // The code's length: the first whose base it reaches (the last base is 0).
            let l = base.iter().position(|&b| code >= b).unwrap_or(base.len() - 1);
            let len = self.min_len + l as u32;
            let sym = usize::from(lowest[l]) + ((code - base[l]) >> (64 - len)) as usize;
            let run = i64::from(*runs.get(sym).ok_or_else(|| corrupt("symbol out of range"))?) + 1;
            if lit < run {
                break sym;
            }
            lit -= run;
            code <<= len;
            bits += len;
            if bits >= 32 {
                bits -= 32;
                code |= u64::from(u32_be(data, ptr)?) << bits;
                ptr += 4;
            }
        };

        // Walk down the symbol's tree to the value at `lit`.
        let mut sym = sym;
        while self.symbol_lengths[sym] != 0 {
            let (left, right) = symbol(data, self.symbols, sym)?;
            let left_run = i64::from(self.symbol_lengths[usize::from(left)]) + 1;
            if lit < left_run {
                sym = usize::from(left);
            } else {
                lit -= left_run;
                sym = usize::from(right);
            }
        }
        let (left, _) = symbol(data, self.symbols, sym)?;
        Ok(if wide { left } else { left & 0xff })
    }
}
