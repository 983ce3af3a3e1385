//! Standard output for every command, and what a closed stdout means.
//!
//! `println!` panics when stdout is gone (`tempo-tools perft --epd suite.epd | head -1`).
//! Commands write with `outln!` instead, which returns the `io::Error`; they pass it up
//! with `?`, and `main` ends the program quietly when [`is_broken_pipe`] says the reader has
//! gone: it asked for no more output, which is not a failure of the command.

/// `println!` that returns the write error instead of panicking (see the module docs).
macro_rules! outln {
    ($($arg:tt)*) => {{
        use ::std::io::Write as _;
        writeln!(::std::io::stdout().lock(), $($arg)*)
    }};
}

/// Whether `error` (or an error it wraps) is a write to a pipe whose reader has gone.
pub fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error
        .chain()
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
        assert!(is_broken_pipe(&closed.unwrap_err()));
        let other: anyhow::Result<()> = Err(io::Error::from(io::ErrorKind::NotFound)).context("reading a file");
        assert!(!is_broken_pipe(&other.unwrap_err()));
        assert!(!is_broken_pipe(&anyhow::anyhow!("no such move")));
    }
}
