//! Bounds-checked reads of little- and big-endian integers from a table's bytes: every read
//! of the file goes through here, so a truncated or corrupt file yields a `FormatError`
//! instead of a panic or a read outside the mapping.

use crate::error::{FormatError, FormatResult};

/// `N` bytes at `at`, or an error naming what was being read.
#[inline]
fn array<const N: usize>(data: &[u8], at: usize) -> FormatResult<[u8; N]> {
    at.checked_add(N).and_then(|end| data.get(at..end)).and_then(|bytes| bytes.try_into().ok()).ok_or_else(|| {
        FormatError::new(format!("read of {N} bytes at offset {at} past the end ({} bytes)", data.len()))
    })
}

#[inline]
pub(crate) fn u8_at(data: &[u8], at: usize) -> FormatResult<u8> {
    array::<1>(data, at).map(|[b]| b)
}

#[inline]
pub(crate) fn u16_le(data: &[u8], at: usize) -> FormatResult<u16> {
    array(data, at).map(u16::from_le_bytes)
}

#[inline]
pub(crate) fn u32_le(data: &[u8], at: usize) -> FormatResult<u32> {
    array(data, at).map(u32::from_le_bytes)
}

#[inline]
pub(crate) fn u32_be(data: &[u8], at: usize) -> FormatResult<u32> {
    array(data, at).map(u32::from_be_bytes)
}

#[inline]
pub(crate) fn u64_be(data: &[u8], at: usize) -> FormatResult<u64> {
    array(data, at).map(u64::from_be_bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_inside_and_refuses_past_the_end() {
        let data = [1, 2, 3, 4, 5, 6, 7, 8];
        assert_eq!(u16_le(&data, 0), Ok(0x0201));
        assert_eq!(u32_be(&data, 4), Ok(0x0506_0708));
        assert_eq!(u64_be(&data, 0), Ok(0x0102_0304_0506_0708));
        assert!(u64_be(&data, 1).is_err());
        assert!(u8_at(&data, 8).is_err());
        assert!(u32_le(&data, usize::MAX - 1).is_err());
    }
}
