//! Waiting for the player: typed lines arrive from a reader thread, so that the clock keeps
//! running (and is shown running) while nobody types; the time each move took. On a terminal
//! the reader is a line editor (`editor`); from a pipe or a file, lines are read as they come.

use std::collections::VecDeque;
use std::io::BufRead;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};
use tempo_core::Position;

use super::editor::LineEditor;
use crate::screen::print_flush;

/// Lines typed by the user, read on a thread so that the clock keeps running while waiting.
pub(super) struct Keyboard {
    source: Source,
    queued: VecDeque<Option<String>>,
    /// The end of input has been received (and handed out or queued).
    ended: bool,
}

/// Where lines come from.
enum Source {
    /// Every line of stdin as it comes, whatever the program is doing; the program prints its
    /// prompts itself.
    Plain(Receiver<Option<String>>),
    /// The line editor, reading one line per prompt.
    Editor(LineEditor),
}

/// Every line of stdin, read on a thread as it comes; `None` at the end (or a read error).
/// A line that is not UTF-8 comes with its bad bytes replaced, to be answered as a line the
/// program does not understand: it is no end of the input.
fn plain_lines() -> Receiver<Option<String>> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let stdin = std::io::stdin();
        let mut stdin = stdin.lock();
        let mut bytes = Vec::new();
        loop {
            bytes.clear();
            match stdin.read_until(b'\n', &mut bytes) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            let line = String::from_utf8_lossy(&bytes);
            let line = line.strip_suffix('\n').unwrap_or(&line);
            let line = line.strip_suffix('\r').unwrap_or(line);
            if tx.send(Some(line.to_owned())).is_err() {
                return;
            }
        }
        let _ = tx.send(None);
    });
    rx
}

impl Keyboard {
    /// Plain lines from stdin.
    pub(super) fn plain() -> Keyboard {
        Keyboard::with_source(Source::Plain(plain_lines()))
    }

    /// The line editor on the terminal; `on_interrupt` is what Ctrl-C does.
    pub(super) fn editor(on_interrupt: impl Fn() + Send + 'static) -> Keyboard {
        Keyboard::with_source(Source::Editor(LineEditor::spawn(on_interrupt)))
    }

    fn with_source(source: Source) -> Keyboard {
        Keyboard { source, queued: VecDeque::new(), ended: false }
    }

    /// When the line editor could not read, says so and reads plain lines from then on, the
    /// prompt shown again.
    fn fall_back_if_the_editor_failed(&mut self) {
        let Source::Editor(editor) = &self.source else { return };
        let Some((why, prompt)) = editor.failure().cloned() else { return };
        print_flush(&format!("\nLine editing is off ({why}).\n{prompt}"));
        self.source = Source::Plain(plain_lines());
    }

    /// Shows `prompt` for the next line: printed, or the line editor's prompt (with the moves
    /// of `position` for Tab). The editor does not start reading while a line typed earlier
    /// waits to be answered.
    pub(super) fn ask(&mut self, prompt: &str, position: Option<&Position>) {
        match &mut self.source {
            Source::Plain(_) => print_flush(prompt),
            Source::Editor(editor) => {
                if self.queued.is_empty() && !self.ended {
                    if let Some(line) = editor.ask(prompt, position) {
                        self.ended |= line.is_none();
                        self.queued.push_back(line);
                    }
                }
            }
        }
        self.fall_back_if_the_editor_failed();
    }

    /// Ends the line editor's read under way, keeping what was typed for the next prompt, so
    /// that the screen can be redrawn (or the program leave) with the terminal as it was.
    pub(super) fn cancel(&mut self) {
        if let Source::Editor(editor) = &mut self.source {
            if let Some(line) = editor.cancel() {
                self.ended |= line.is_none();
                self.queued.push_back(line);
            }
        }
        self.fall_back_if_the_editor_failed();
    }

    /// The next line (`Some(None)` at end of input), waiting at most `wait`.
    pub(super) fn next(&mut self, wait: Duration) -> Option<Option<String>> {
        if let Some(line) = self.queued.pop_front() {
            return Some(line);
        }
        if self.ended {
            return Some(None);
        }
        let line = match &mut self.source {
            Source::Plain(rx) => match rx.recv_timeout(wait) {
                Ok(line) => line,
                Err(RecvTimeoutError::Timeout) => return None,
                // The reader thread only ends after sending `None`; treat a lost thread as EOF.
                Err(RecvTimeoutError::Disconnected) => None,
            },
            Source::Editor(editor) => {
                let line = editor.next(wait);
                self.fall_back_if_the_editor_failed();
                line?
            }
        };
        self.ended |= line.is_none();
        Some(line)
    }
}

impl Keyboard {
    /// A line typed meanwhile, without waiting; lines taken here and not consumed go back with
    /// [`Keyboard::requeue`] so that they are answered in order later.
    pub(super) fn try_next(&mut self) -> Option<Option<String>> {
        if self.ended {
            return None;
        }
        let line = match &mut self.source {
            Source::Plain(rx) => match rx.try_recv() {
                Ok(line) => line,
                Err(mpsc::TryRecvError::Empty) => return None,
                Err(mpsc::TryRecvError::Disconnected) => None,
            },
            Source::Editor(editor) => {
                let line = editor.try_next();
                self.fall_back_if_the_editor_failed();
                line?
            }
        };
        self.ended |= line.is_none();
        Some(line)
    }

    /// Puts a line back for the next [`Keyboard::next`].
    pub(super) fn requeue(&mut self, line: Option<String>) {
        self.queued.push_back(line);
    }
}

/// Time spent on the move in progress: the wall clock, or a fixed charge per move (testing).
pub(super) struct Timer {
    pub(super) fake: Option<Duration>,
    pub(super) last: Instant,
}

impl Timer {
    pub(super) fn restart(&mut self) {
        self.last = Instant::now();
    }

    /// Time since the last charge, now charged.
    pub(super) fn take(&mut self) -> Duration {
        let now = Instant::now();
        let elapsed = now - self.last;
        self.last = now;
        if self.fake.is_some() {
            Duration::ZERO
        } else {
            elapsed
        }
    }
}
