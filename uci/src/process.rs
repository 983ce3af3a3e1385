//! An external engine's process, whatever protocol it speaks: spawned with piped input and
//! output, its output lines read by a thread so that every wait can have a timeout, and
//! always waited for when it ends (no zombie), whether it quit, crashed or had to be killed.

use crate::client::ClientError;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long a process told to quit may take to exit before it is killed.
const QUIT_GRACE: Duration = Duration::from_secs(2);

/// A running engine process. Dropping it kills the process if it still runs and waits for
/// it, so every path out of a client (an error while starting, a crash, a hang) reaps it.
pub(crate) struct EngineProcess {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl EngineProcess {
    /// Starts `program` with `args`. Its stderr is inherited. On Unix it runs in a process
    /// group of its own: a terminal's Ctrl-C goes to the program that started it (a match
    /// runner lets the games in progress end, `tempo` saves the game), which ends the
    /// engine itself, rather than killing the engine in the middle of a move.
    ///
    /// # Errors
    /// [`ClientError::Spawn`] if the program cannot be started.
    pub(crate) fn spawn(program: &str, args: &[String]) -> Result<EngineProcess, ClientError> {
        let mut command = Command::new(program);
        command.args(args).stdin(Stdio::piped()).stdout(Stdio::piped());
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command.spawn().map_err(|source| ClientError::Spawn { program: program.to_owned(), source })?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            // Both were asked for as pipes; without them the process is of no use.
            let _ = child.kill();
            let _ = child.wait();
            return Err(ClientError::Closed);
        };
        let (tx, lines) = mpsc::channel();
        // A reader thread lets every wait have a timeout. It ends when the process closes
        // its output (it exited or was killed) or when the client is gone.
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(EngineProcess { child, stdin, lines })
    }

    /// Sends one command line.
    ///
    /// # Errors
    /// [`ClientError::Write`] if the engine's input is closed.
    pub(crate) fn send(&mut self, line: &str) -> Result<(), ClientError> {
        writeln!(self.stdin, "{line}").and_then(|()| self.stdin.flush()).map_err(ClientError::Write)
    }

    /// The next line, waiting at most `timeout`; `Ok(None)` on timeout.
    ///
    /// # Errors
    /// [`ClientError::Closed`] if the engine has closed its output.
    pub(crate) fn recv(&mut self, timeout: Duration) -> Result<Option<String>, ClientError> {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => Ok(Some(line)),
            Err(RecvTimeoutError::Timeout) => Ok(None),
            Err(RecvTimeoutError::Disconnected) => Err(ClientError::Closed),
        }
    }

    /// Sends `command` (the protocol's way to ask the engine to exit) and waits briefly for
    /// the process to exit; dropping `self` then kills it if it has not.
    pub(crate) fn quit(mut self, command: &str) {
        let _ = self.send(command);
        let deadline = Instant::now() + QUIT_GRACE;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        // `Child` neither kills nor waits when dropped: a process left so runs on, and one
        // that exited stays a zombie until this program ends.
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}
