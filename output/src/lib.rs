//! Standard output of the command-line programs (`tempo`, `tempo-tools`), what a closed
//! stdout means, and the one way they replace a user's file ([`write_atomically`]).
//!
//! `println!` panics when stdout is gone (`tempo-tools perft --epd suite.epd | head -1`).
//! Commands write with [`outln!`] instead, which returns the `io::Error`; they pass it up with
//! `?`, and `main` ends the program quietly when [`is_broken_pipe`] says the reader has gone:
//! it asked for no more output, which is not a failure of the command.
//!
//! Shared by both binaries (one home for the job), and free of `anyhow`, which only binaries
//! use: [`is_broken_pipe`] walks any error's `source` chain, which is what `anyhow`'s
//! contexts form.

mod file;

pub use file::{write_atomically, write_atomically_with};

/// `println!` that returns the write error instead of panicking (see the crate docs).
#[macro_export]
macro_rules! outln {
    ($($arg:tt)*) => {{
        use ::std::io::Write as _;
        writeln!(::std::io::stdout().lock(), $($arg)*)
    }};
}

/// Whether `error`, or an error in its `source` chain, is a write to a pipe whose reader has
/// gone. For an `anyhow::Error`, pass `error.as_ref()`.
pub fn is_broken_pipe(error: &(dyn std::error::Error + 'static)) -> bool {
    std::iter::successors(Some(error), |e| e.source())
        .any(|cause| cause.downcast_ref::<std::io::Error>().is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe))
}

#[cfg(test)]
mod tests {
    use super::is_broken_pipe;
    use anyhow::Context as _;
    use std::io;

    #[test]
    fn broken_pipe_is_found_under_context() {
        let closed: anyhow::Result<()> = Err(io::Error::from(io::ErrorKind::BrokenPipe)).context("writing a line");
        assert!(is_broken_pipe(closed.unwrap_err().as_ref()));
        let other: anyhow::Result<()> = Err(io::Error::from(io::ErrorKind::NotFound)).context("reading a file");
        assert!(!is_broken_pipe(other.unwrap_err().as_ref()));
        assert!(!is_broken_pipe(anyhow::anyhow!("no such move").as_ref()));
        assert!(is_broken_pipe(&io::Error::from(io::ErrorKind::BrokenPipe)));
    }
}
