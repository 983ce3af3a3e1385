//! Ctrl-C during a match: the first one lets the games in progress end and then reports the
//! games played, as a finished match does; the second one stops at once. Either way no game
//! is scored that did not end on the board, and `--resume` continues the match from its PGN.

use std::sync::atomic::{AtomicUsize, Ordering};

/// Interrupts received since the match started.
static INTERRUPTS: AtomicUsize = AtomicUsize::new(0);

/// Exit status of a process stopped by SIGINT, as shells report it.
const INTERRUPTED_STATUS: i32 = 130;

/// Installs the handler. Engines run in their own process group (`tempo_uci`'s process
/// module), so a terminal's Ctrl-C reaches the runner alone and the games in progress go on.
pub(crate) fn install() {
    // Without a handler (another one is installed) Ctrl-C ends the process, as before; the
    // PGN file then ends in at most one torn game, which --resume cuts off.
    let _ = ctrlc::set_handler(|| {
        if INTERRUPTS.fetch_add(1, Ordering::SeqCst) == 0 {
            eprintln!("\ninterrupted: the games in progress are finished first (Ctrl-C again stops at once)");
        } else {
            std::process::exit(INTERRUPTED_STATUS);
        }
    });
}

/// Whether the user has asked the match to stop.
pub(crate) fn requested() -> bool {
    INTERRUPTS.load(Ordering::SeqCst) > 0
}
