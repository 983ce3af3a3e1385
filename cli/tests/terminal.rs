//! The real `tempo` binary at a terminal: a pseudo-terminal that this test reads as a terminal
//! emulator would (answering the line editor's cursor-position query). The move prompt edits
//! the line (cursor keys, BackSpace, history), Tab completes the legal moves and the commands,
//! the clock keeps running while the player types, and Ctrl-C, a key to the editor, saves the
//! game and gives the terminal back as it was.
#![cfg(unix)]

use rustix::pty::{grantpt, openpt, ptsname, unlockpt, OpenptFlags};
use rustix::termios::{tcgetattr, tcsetwinsize, LocalModes, Winsize};
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::os::fd::BorrowedFd;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, ExitStatus};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use tempfile::TempDir;

/// The line editor's question "where is the cursor?", and the answer a terminal would give.
const CURSOR_QUERY: &[u8] = b"\x1b[6n";
const CURSOR_ANSWER: &[u8] = b"\x1b[20;1R";
/// Keys as a terminal sends them.
const LEFT: &str = "\x1b[D";
const UP: &str = "\x1b[A";
const BACKSPACE: &str = "\x7f";
const TAB: &str = "\t";
const ENTER: &str = "\r";
const CTRL_C: &str = "\x03";
/// Long enough for a slow, busy machine; the waits end as soon as the text shows.
const PATIENCE: Duration = Duration::from_secs(30);

/// `tempo` running at a pseudo-terminal.
struct Terminal {
    master: File,
    /// Everything the program wrote, escape codes included.
    shown: Arc<Mutex<Vec<u8>>>,
    reader: Option<JoinHandle<()>>,
    child: Child,
}

impl Terminal {
    /// Starts `tempo ARGS` in `dir` at a terminal of `columns` x `rows`, without colours.
    fn start(dir: &Path, args: &[&str], columns: u16, rows: u16) -> Terminal {
        let master = openpt(OpenptFlags::RDWR | OpenptFlags::NOCTTY).unwrap();
        grantpt(&master).unwrap();
        unlockpt(&master).unwrap();
        tcsetwinsize(&master, Winsize { ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0 }).unwrap();
        let name = ptsname(&master, Vec::new()).unwrap();
        let slave = OpenOptions::new().read(true).write(true).open(name.to_str().unwrap()).unwrap();
        let mut command = Command::new(env!("CARGO_BIN_EXE_tempo"));
        command
            .args(args)
            .current_dir(dir)
            .env("XDG_DATA_HOME", dir.join("data"))
            .env("TERM", "xterm-256color")
            .env("NO_COLOR", "1")
            .env("LC_ALL", "C.UTF-8")
            .stdin(slave.try_clone().unwrap())
            .stdout(slave.try_clone().unwrap())
            .stderr(slave);
        // SAFETY: between fork and exec the child makes two system calls and allocates
        // nothing, as `pre_exec` requires: a session of its own, whose controlling terminal is
        // the pseudo-terminal (as a shell's job has), not the terminal running the tests. File
        // descriptor 0 is the pseudo-terminal by then, open until exec.
        unsafe {
            command.pre_exec(|| {
                rustix::process::setsid()?;
                rustix::process::ioctl_tiocsctty(BorrowedFd::borrow_raw(0))?;
                Ok(())
            });
        }
        let child = command.spawn().unwrap();
        drop(command);
        let master = File::from(master);
        let shown = Arc::new(Mutex::new(Vec::new()));
        let reader = {
            let mut output = master.try_clone().unwrap();
            let mut answers = master.try_clone().unwrap();
            let shown = Arc::clone(&shown);
            std::thread::spawn(move || {
                let mut buf = [0u8; 4096];
                let mut answered = 0;
                // Ends with an error once the program has exited and closed the terminal.
                while let Ok(n @ 1..) = output.read(&mut buf) {
                    let mut shown = shown.lock().unwrap();
                    shown.extend_from_slice(&buf[..n]);
                    let queries = shown.windows(CURSOR_QUERY.len()).filter(|w| *w == CURSOR_QUERY).count();
                    while answered < queries {
                        answers.write_all(CURSOR_ANSWER).unwrap();
                        answered += 1;
                    }
                }
            })
        };
        Terminal { master, shown, reader: Some(reader), child }
    }

    /// What the program wrote since `from` (a byte offset of everything it wrote), without
    /// its text styles (the completion menu underlines the part typed).
    fn shown_since(&self, from: usize) -> String {
        without_styles(&String::from_utf8_lossy(&self.shown.lock().unwrap()[from..]))
    }

    /// Waits until the program has written `text` (styles aside) after byte `from`; returns
    /// the offset of what it wrote next.
    fn wait_for(&self, from: usize, text: &str) -> usize {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let shown = self.shown_since(from);
            if shown.contains(text) {
                return self.shown.lock().unwrap().len();
            }
            assert!(Instant::now() < deadline, "{text:?} never showed; the terminal showed:\n{shown}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn type_keys(&mut self, keys: &[&str]) {
        for key in keys {
            self.master.write_all(key.as_bytes()).unwrap();
            // Keys one by one, as a person types, so that an escape sequence is not mistaken
            // for a paste.
            std::thread::sleep(Duration::from_millis(30));
        }
    }

    /// Waits for the program to end.
    fn exit_status(&mut self) -> ExitStatus {
        let deadline = Instant::now() + PATIENCE;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(Instant::now() < deadline, "tempo did not end; the terminal showed:\n{}", self.shown_since(0));
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if let Some(reader) = self.reader.take() {
            let _ = reader.join();
        }
    }
}

/// `text` without its SGR sequences (`ESC [ ... m`).
fn without_styles(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("\x1b[") {
        out.push_str(&rest[..at]);
        let sequence = &rest[at + 2..];
        match sequence.find(|c: char| !(c.is_ascii_digit() || c == ';')) {
            Some(end) if sequence[end..].starts_with('m') => rest = &sequence[end + 1..],
            _ => {
                out.push_str("\x1b[");
                rest = sequence;
            }
        }
    }
    out.push_str(rest);
    out
}

fn scratch() -> TempDir {
    tempfile::Builder::new().prefix("tempo-cli-test-terminal-").tempdir().unwrap()
}

#[test]
fn the_move_prompt_edits_completes_and_recalls_while_the_clock_runs() {
    let tmp = scratch();
    let dir = tmp.path();
    let mut term =
        Terminal::start(dir, &["--white", "human", "--black", "human", "--tc", "5+3", "--save", "game.pgn"], 100, 32);
    let at = term.wait_for(0, "White to move, Player 1 (1.): ");

    // The clock runs while the prompt waits: White's time is rewritten in place.
    let at = term.wait_for(at, "White ♔ Player 1               4:59");

    // "Nx3", Left, BackSpace (the x), "f": the line reads Nf3, and no escape code reaches the
    // move reader (which would answer "is not a move").
    term.type_keys(&["N", "x", "3", LEFT, BACKSPACE, "f", ENTER]);
    let at = term.wait_for(at, "Black to move, Player 2 (1...): ");
    assert!(term.shown_since(0).contains("1. Nf3"));
    assert!(!term.shown_since(0).contains("is not a move"), "{}", term.shown_since(0));

    // Tab with "N" lists Black's knight moves; Tab again selects the next one, Enter takes it
    // into the line and Enter plays it.
    term.type_keys(&["N", TAB]);
    term.wait_for(at, "Nh6");
    assert!(term.shown_since(at).contains("Nf6"), "{}", term.shown_since(at));
    term.type_keys(&[TAB, ENTER, ENTER]);
    let at = term.wait_for(at, "White to move, Player 1 (2.): ");
    assert!(term.shown_since(0).contains("1... Nc6"), "{}", term.shown_since(0));

    // A command completes too: "fe" can only be fen.
    term.type_keys(&["f", "e", TAB, ENTER]);
    let at = term.wait_for(at, "r1bqkbnr/pppppppp/2n5/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 2 2");

    // Up recalls the lines typed before, newest first: "fen", then "Nc6"; BackSpace and the
    // cursor keys edit the recalled line: Nc6 becomes Nc3.
    term.type_keys(&[UP, UP, BACKSPACE, "3", ENTER]);
    let at = term.wait_for(at, "Black to move, Player 2 (2...): ");
    assert!(term.shown_since(0).contains("2. Nc3"), "{}", term.shown_since(0));

    // Ctrl-C is a key to the editor: it saves the game, as the signal does, and the terminal
    // is left as it was found (lines, echo).
    term.type_keys(&["e", CTRL_C]);
    term.wait_for(at, "Interrupted. The unfinished game is saved in game.pgn");
    assert_eq!(term.exit_status().code(), Some(130));
    let modes = tcgetattr(&term.master).unwrap().local_modes;
    assert!(modes.contains(LocalModes::ICANON | LocalModes::ECHO), "{modes:?}");
    let saved = std::fs::read_to_string(dir.join("game.pgn")).unwrap();
    for moved in ["1. Nf3 {", "1... Nc6 {", "2. Nc3 {"] {
        assert!(saved.contains(moved), "{saved}");
    }
}

#[test]
fn ctrl_d_ends_the_input_and_the_game_is_saved() {
    let tmp = scratch();
    let dir = tmp.path();
    let mut term = Terminal::start(dir, &["--white", "human", "--black", "human", "--save", "game.pgn"], 80, 24);
    let at = term.wait_for(0, "White to move, Player 1 (1.): ");
    term.type_keys(&["e", "4", ENTER]);
    let at = term.wait_for(at, "Black to move, Player 2 (1...): ");
    // Tab says so when nothing completes the word; Escape closes the menu, Ctrl-U empties
    // the line.
    term.type_keys(&["z", "z", TAB]);
    let at = term.wait_for(at, "No legal move or command starts like that.");
    term.type_keys(&["\x1b", "\x15", "\x04"]);
    term.wait_for(at, "End of input: the unfinished game is saved in game.pgn");
    assert_eq!(term.exit_status().code(), Some(0));
    assert!(std::fs::read_to_string(dir.join("game.pgn")).unwrap().contains("1. e4 *"));
}

#[test]
fn the_flag_falls_while_the_player_types() {
    let tmp = scratch();
    let dir = tmp.path();
    let mut term =
        Terminal::start(dir, &["--white", "human", "--black", "human", "--tc", "2s+0", "--save", "game.pgn"], 100, 32);
    let at = term.wait_for(0, "White to move, Player 1 (1.): ");
    // Half a move typed, never finished: the read ends when the flag falls.
    term.type_keys(&["N", "f"]);
    term.wait_for(at, "White lost on time: Black wins (0-1)");
    assert_eq!(term.exit_status().code(), Some(0));
    let modes = tcgetattr(&term.master).unwrap().local_modes;
    assert!(modes.contains(LocalModes::ICANON | LocalModes::ECHO), "{modes:?}");
}
