//! Waiting for the player: typed lines arrive from a reader thread, so that the clock keeps
//! running (and is shown running) while nobody types; the time each move took.

use std::collections::VecDeque;
use std::io::BufRead;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Lines typed by the user, read on a thread so that the clock keeps running while waiting.
pub(super) struct Keyboard {
    rx: Receiver<Option<String>>,
    queued: VecDeque<Option<String>>,
    /// The end of input has been received (and handed out or queued).
    ended: bool,
}

impl Keyboard {
    pub(super) fn spawn() -> Keyboard {
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let stdin = std::io::stdin();
            for line in stdin.lock().lines() {
                let Ok(line) = line else { break };
                if tx.send(Some(line)).is_err() {
                    return;
                }
            }
            let _ = tx.send(None);
        });
        Keyboard { rx, queued: VecDeque::new(), ended: false }
    }

    /// The next line (`Some(None)` at end of input), waiting at most `wait`.
    pub(super) fn next(&mut self, wait: Duration) -> Option<Option<String>> {
        if let Some(line) = self.queued.pop_front() {
            return Some(line);
        }
        if self.ended {
            return Some(None);
        }
        let line = match self.rx.recv_timeout(wait) {
            Ok(line) => line,
            Err(RecvTimeoutError::Timeout) => return None,
            // The reader thread only ends after sending `None`; treat a lost thread as EOF.
            Err(RecvTimeoutError::Disconnected) => None,
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
        let line = match self.rx.try_recv() {
            Ok(line) => line,
            Err(mpsc::TryRecvError::Empty) => return None,
            Err(mpsc::TryRecvError::Disconnected) => None,
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
