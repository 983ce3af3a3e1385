//! A byte source over any `Read` with its own fixed buffer, tracking line and column.
//!
//! The PGN reader pulls bytes one at a time; owning the buffer (instead of going through
//! `BufRead::fill_buf` per byte) keeps that loop tight, and a fixed buffer keeps memory
//! constant however large the input.

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
        };
        // A UTF-8 byte-order mark at the very start is not part of the text.
        if source.peek() == Some(0xef) && source.len - source.pos >= 3 && source.buf[..3] == [0xef, 0xbb, 0xbf] {
            source.pos = 3;
            source.offset = 3;
        }
        source
    }

    /// `true` if reading failed (the input then looks truncated).
    pub(crate) fn has_error(&self) -> bool {
        self.error.is_some()
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
        if self.pos + 1 >= self.len && !self.eof {
            self.buf.copy_within(self.pos..self.len, 0);
            self.len -= self.pos;
            self.pos = 0;
            while self.len < 2 {
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
        self.buf[..self.len].get(self.pos + 1).copied()
    }

    /// Consumes the byte returned by the last `peek` (a no-op at the end of the input).
    #[inline]
    pub(crate) fn advance(&mut self) {
        let Some(&b) = self.buf[..self.len].get(self.pos) else { return };
        self.pos += 1;
        self.offset += 1;
        if b == b'\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
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

    /// Skips to just past the next line feed.
    pub(crate) fn skip_line(&mut self) {
        while let Some(b) = self.next_byte() {
            if b == b'\n' {
                break;
            }
        }
    }
}
