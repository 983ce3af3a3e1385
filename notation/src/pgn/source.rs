//! A byte source over any `Read` with its own fixed buffer, tracking line and column.
//!
//! The PGN reader pulls bytes one at a time; owning the buffer (instead of going through
//! `BufRead::fill_buf` per byte) keeps that loop tight, and a fixed buffer keeps memory
//! constant however large the input.
//!
//! A line ends at a line feed, at a carriage return, or at the pair CR LF (counted once):
//! Unix, old Mac OS and Windows files then report the same line numbers, and everything that
//! looks at line starts (tags, `%` escapes, `;` comments) works on all three.

use std::io::{self, Read};

const BUFFER_SIZE: usize = 64 * 1024;

pub(crate) struct Source<R> {
    inner: R,
    buf: Box<[u8]>,
    pos: usize,
    len: usize,
    eof: bool,
    /// The first read error; the source reports end of input after it.
    error: Option<io::Error>,
    /// 1-based line of the next byte.
    pub(crate) line: u64,
    /// 1-based column (in bytes) of the next byte.
    pub(crate) column: u64,
    /// Total bytes consumed.
    pub(crate) offset: u64,
    /// Offset just past the last carriage return: a line feed there completes a CR LF pair
    /// whose line end was already counted at the CR (`u64::MAX` before any CR).
    after_cr: u64,
}

impl<R: Read> Source<R> {
    pub(crate) fn new(inner: R) -> Source<R> {
        let mut source = Source {
            inner,
            buf: vec![0; BUFFER_SIZE].into_boxed_slice(),
            pos: 0,
            len: 0,
            eof: false,
            error: None,
            line: 1,
            column: 1,
            offset: 0,
            after_cr: u64::MAX,
        };
        // A UTF-8 byte-order mark at the very start is not part of the text.
        source.skip_byte_order_mark();
        source
    }

    /// Skips a UTF-8 byte-order mark at the read position, if there is one: at the start of
    /// the input, and between games, where concatenated files leave one. It takes no column.
    pub(crate) fn skip_byte_order_mark(&mut self) -> bool {
        const BOM: [u8; 3] = [0xef, 0xbb, 0xbf];
        if self.peek() != Some(BOM[0]) || self.fill(BOM.len()) < BOM.len() {
            return false;
        }
        if self.buf[self.pos..self.pos + BOM.len()] != BOM {
            return false;
        }
        self.pos += BOM.len();
        self.offset += BOM.len() as u64;
        true
    }

    /// Takes the pending read error, if any.
    pub(crate) fn take_error(&mut self) -> Option<io::Error> {
        self.error.take()
    }

    #[cold]
    fn refill(&mut self) -> bool {
        if self.eof {
            return false;
        }
        loop {
            match self.inner.read(&mut self.buf) {
                Ok(0) => {
                    self.eof = true;
                    return false;
                }
                Ok(n) => {
                    self.pos = 0;
                    self.len = n;
                    return true;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    self.error = Some(e);
                    self.eof = true;
                    return false;
                }
            }
        }
    }

    /// The next byte without consuming it.
    #[inline]
    pub(crate) fn peek(&mut self) -> Option<u8> {
        if self.pos < self.len || self.refill() {
            Some(self.buf[self.pos])
        } else {
            None
        }
    }

    /// The byte after the next one, without consuming anything (the buffer is compacted and
    /// topped up when the two straddle its end).
    pub(crate) fn peek2(&mut self) -> Option<u8> {
        self.fill(2);
        self.buf[..self.len].get(self.pos + 1).copied()
    }

    /// Makes at least `n` bytes (at most the buffer's size) readable from the read position,
    /// unless the input ends first, compacting the buffer when they straddle its end; returns
    /// how many are readable.
    fn fill(&mut self, n: usize) -> usize {
        if self.pos + n > self.len && !self.eof {
            self.buf.copy_within(self.pos..self.len, 0);
            self.len -= self.pos;
            self.pos = 0;
            while self.len < n {
                match self.inner.read(&mut self.buf[self.len..]) {
                    Ok(0) => {
                        self.eof = true;
                        break;
                    }
                    Ok(n) => self.len += n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => {
                        self.error = Some(e);
                        self.eof = true;
                        break;
                    }
                }
            }
        }
        self.len - self.pos
    }

    /// Consumes the byte returned by the last `peek` (a no-op at the end of the input).
    #[inline]
    pub(crate) fn advance(&mut self) {
        let Some(&b) = self.buf[..self.len].get(self.pos) else { return };
        self.pos += 1;
        self.offset += 1;
        // One comparison keeps printable text on the fast path; only control bytes up to CR
        // need the line-end logic.
        if b > b'\r' {
            self.column += 1;
        } else {
            self.track_control(b);
        }
    }

    /// Line and column after a consumed control byte (`self.offset` is already past it).
    #[inline]
    fn track_control(&mut self, b: u8) {
        match b {
            b'\r' => {
                self.new_line();
                self.after_cr = self.offset;
            }
            // The LF of a CR LF: its line end was counted at the CR.
            b'\n' if self.after_cr == self.offset - 1 => {}
            b'\n' => self.new_line(),
            _ => self.column += 1,
        }
    }

    #[inline]
    fn new_line(&mut self) {
        self.line += 1;
        self.column = 1;
    }

    /// Consumes and returns the next byte.
    #[inline]
    pub(crate) fn next_byte(&mut self) -> Option<u8> {
        let b = self.peek()?;
        self.advance();
        Some(b)
    }

    /// Skips spaces, tabs, carriage returns and line feeds.
    #[inline]
    pub(crate) fn skip_whitespace(&mut self) {
        while let Some(b) = self.peek() {
            if !matches!(b, b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c) {
                break;
            }
            self.advance();
        }
    }

    /// Skips to just past the next line end (LF, CR or CR LF).
    pub(crate) fn skip_line(&mut self) {
        while let Some(b) = self.next_byte() {
            if b == b'\n' {
                break;
            }
            if b == b'\r' {
                if self.peek() == Some(b'\n') {
                    self.advance();
                }
                break;
            }
        }
    }
}

/// `true` for the bytes that end a line (a CR LF pair is one line end; see the module docs).
#[inline]
pub(crate) fn is_line_end(b: u8) -> bool {
    b == b'\n' || b == b'\r'
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The (line, column) of every byte of `text`, as the source reports it before reading it.
    fn positions(text: &[u8]) -> Vec<(u64, u64)> {
        let mut src = Source::new(text);
        let mut out = Vec::new();
        while src.peek().is_some() {
            out.push((src.line, src.column));
            src.advance();
        }
        out
    }

    #[test]
    fn lf_cr_and_crlf_each_end_one_line() {
        // The `b` starts line 2 and the `c` line 3 whatever the line ends are.
        for text in [&b"a\nb\nc"[..], b"a\rb\rc", b"a\r\nb\r\nc"] {
            let pos = positions(text);
            let b = text.iter().position(|&x| x == b'b').unwrap();
            let c = text.iter().position(|&x| x == b'c').unwrap();
            assert_eq!((pos[b], pos[c]), ((2, 1), (3, 1)), "{text:?}");
        }
    }

    #[test]
    fn blank_lines_count_in_every_convention() {
        for text in [&b"a\n\nb"[..], b"a\r\rb", b"a\r\n\r\nb", b"a\n\r\nb", b"a\r\r\nb"] {
            assert_eq!(positions(text).last(), Some(&(3, 1)), "{text:?}");
        }
        // LF CR is two line ends (a Unix line, then a lone CR), not a reversed CR LF.
        assert_eq!(positions(b"a\n\rb").last(), Some(&(3, 1)));
    }

    #[test]
    fn a_leading_lf_is_not_the_end_of_a_crlf() {
        assert_eq!(positions(b"\nx").last(), Some(&(2, 1)));
        assert_eq!(positions(b"\xef\xbb\xbf\nx").last(), Some(&(2, 1)));
    }

    #[test]
    fn skip_line_consumes_one_line_end() {
        for (text, rest) in [(&b"ab\ncd"[..], b'c'), (b"ab\rcd", b'c'), (b"ab\r\ncd", b'c'), (b"ab\r\r\ncd", b'\r')] {
            let mut src = Source::new(text);
            src.skip_line();
            assert_eq!((src.peek(), src.line, src.column), (Some(rest), 2, 1), "{text:?}");
        }
    }

    #[test]
    fn tabs_and_other_controls_are_columns() {
        assert_eq!(positions(b"\t\x0bx").last(), Some(&(1, 3)));
    }
}
