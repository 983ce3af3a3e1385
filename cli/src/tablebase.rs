//! `--tb DIR` of `tempo show` and `tempo analyze`: the Syzygy tables' verdict on a position.

use anyhow::{bail, Result};
use serde_json::{json, Value};
use tempo_core::{Color, Position};
use tempo_notation::{san, uci_move};
use tempo_syzygy::{ProbeError, Tablebase, Wdl};

/// What the tables say about a position, or why they cannot say.
pub struct Verdict {
    pos: Position,
    answer: Result<(Wdl, i32, Option<tempo_core::Move>), ProbeError>,
}

/// Probes `pos` in the tables of `folders` (`:`-separated).
///
/// # Errors
/// A folder that cannot be read, or folders without any table.
pub fn probe(folders: &str, pos: &Position) -> Result<Verdict> {
    let mut tables = Tablebase::new();
    for folder in folders.split(':').filter(|f| !f.is_empty()) {
        tables.add_directory(folder)?;
    }
    if tables.table_count() == 0 {
        bail!("--tb {folders}: no Syzygy tables there");
    }
    let answer = (|| {
        let wdl = tables.probe_wdl(pos)?;
        let dtz = tables.probe_dtz(pos)?;
        let best = tables.best_moves(pos, true)?.first().map(|m| m.mv);
        Ok((wdl, dtz, best))
    })();
    Ok(Verdict { pos: *pos, answer })
}

impl Verdict {
    /// One sentence: `Tablebase: White wins (WDL 2, DTZ 23); best move Rd7.`
    pub fn sentence(&self) -> String {
        let (wdl, dtz, best) = match &self.answer {
            Ok(answer) => answer,
            Err(e) => return format!("Tablebase: no verdict ({e})."),
        };
        let mover = if self.pos.turn() == Color::White { "White" } else { "Black" };
        let other = if self.pos.turn() == Color::White { "Black" } else { "White" };
        let result = match wdl {
            Wdl::Win => format!("{mover} wins"),
            Wdl::CursedWin => format!("{mover} wins, but not within the fifty-move rule: a draw"),
            Wdl::Draw => "a draw".to_owned(),
            Wdl::BlessedLoss => format!("{other} wins, but not within the fifty-move rule: a draw"),
            Wdl::Loss => format!("{other} wins"),
        };
        let best = best.map(|m| format!("; best move {}", san(&self.pos, m))).unwrap_or_default();
        format!("Tablebase: {result} (WDL {}, DTZ {dtz}){best}.", wdl.to_i8())
    }

    /// `{"wdl", "dtz", "best_move", "best_move_uci"}` with python-chess's values and signs,
    /// or `{"error"}`.
    pub fn json(&self) -> Value {
        match &self.answer {
            Ok((wdl, dtz, best)) => json!({
                "wdl": wdl.to_i8(),
                "dtz": dtz,
                "best_move": best.map(|m| san(&self.pos, m)),
                "best_move_uci": best.map(|m| uci_move(&self.pos, m)),
            }),
            Err(e) => json!({ "error": e.to_string() }),
        }
    }
}
