//! `tempo-tools tb probe`: Syzygy tablebase verdicts of positions, one line each.

use anyhow::bail;
use anyhow::{Context, Result};
use clap::{Args, Subcommand};
use serde::Serialize;
use std::path::PathBuf;
use tempo_core::{CastlingMode, GameResult, Position};
use tempo_notation::{san, Epd};
use tempo_syzygy::{ProbeError, Tablebase, Wdl};

#[derive(Subcommand)]
pub enum TbCommand {
    /// The WDL and DTZ of positions (python-chess's values and signs: WDL -2 loss, -1
    /// blessed loss, 0 draw, 1 cursed win, 2 win; DTZ plies to the next capture or pawn move,
    /// negative when losing) and the tables' best move under the fifty-move rule.
    ///
    /// One line per position: text, or with `--json` one object a line (`fen`, `wdl`,
    /// `dtz`, `best_move` in UCI and `best_move_san`, null when the game is over; `error`
    /// instead when the position cannot be probed). Exit status 1 when some position could
    /// not be probed.
    Probe(ProbeArgs),
}

#[derive(Args)]
pub struct ProbeArgs {
    /// A folder of `.rtbw`/`.rtbz` files; repeat, or separate folders with `:`.
    #[arg(long, required = true)]
    path: Vec<String>,
    /// The position (one quoted argument, or its fields as separate arguments).
    #[arg(num_args = 0.., allow_negative_numbers = true, conflicts_with = "epd", required_unless_present = "epd")]
    fen: Vec<String>,
    /// Probe every position of an EPD file instead (operations are ignored).
    #[arg(long)]
    epd: Option<PathBuf>,
    /// One JSON object per line.
    #[arg(long)]
    json: bool,
}

/// Runs a `tb` subcommand; `Ok(false)` when some position could not be probed.
pub fn run(command: &TbCommand) -> Result<bool> {
    match command {
        TbCommand::Probe(args) => probe(args),
    }
}

fn probe(args: &ProbeArgs) -> Result<bool> {
    let mut tables = Tablebase::new();
    for folder in args.path.iter().flat_map(|p| p.split(':')).filter(|p| !p.is_empty()) {
        tables.add_directory(folder)?;
    }
    let positions: Vec<Position> = match &args.epd {
        Some(file) => {
            let text = std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
            text.lines()
                .enumerate()
                .filter(|(_, line)| !line.trim().is_empty() && !line.trim_start().starts_with('#'))
                .map(|(i, line)| {
                    Epd::parse(line).map(|epd| epd.position).with_context(|| format!("{}:{}", file.display(), i + 1))
                })
                .collect::<Result<_>>()?
        }
        None => {
            let fen = args.fen.join(" ");
            vec![Position::from_fen(&fen, CastlingMode::Standard).with_context(|| format!("reading the FEN {fen:?}"))?]
        }
    };
    let mut all_probed = true;
    for pos in &positions {
        let fen = pos.to_string();
        match verdict(&tables, pos) {
            Ok(v) => {
                let (uci, san) = match v.best {
                    Some((uci, san)) => (Some(uci), Some(san)),
                    None => (None, None),
                };
                if args.json {
                    let line = JsonLine {
                        fen: &fen,
                        wdl: v.wdl,
                        dtz: v.dtz,
                        best_move: uci.as_deref(),
                        best_move_san: san.as_deref(),
                    };
                    outln!("{}", serde_json::to_string(&line)?)?;
                } else {
                    let best = match (uci, san) {
                        (Some(uci), Some(san)) => format!("{uci} ({san})"),
                        _ => "none (game over)".to_owned(),
                    };
                    outln!("{fen}: wdl {} ({}), dtz {}, best {best}", v.wdl, v.wdl_name, v.dtz)?;
                }
            }
            Err(e) => {
                all_probed = false;
                if args.json {
                    outln!("{}", serde_json::to_string(&ErrorLine { fen: &fen, error: e.to_string() })?)?;
                } else {
                    outln!("{fen}: error: {e}")?;
                }
            }
        }
    }
    Ok(all_probed)
}

/// A `--json` line, fields in this order.
#[derive(Serialize)]
struct JsonLine<'a> {
    fen: &'a str,
    wdl: i8,
    dtz: i32,
    best_move: Option<&'a str>,
    best_move_san: Option<&'a str>,
}

/// A `--json` line for a position that cannot be probed.
#[derive(Serialize)]
struct ErrorLine<'a> {
    fen: &'a str,
    error: String,
}

struct Verdict {
    wdl: i8,
    wdl_name: String,
    dtz: i32,
    /// The best move in UCI and SAN.
    best: Option<(String, String)>,
}

fn verdict(tables: &Tablebase, pos: &Position) -> Result<Verdict, ProbeError> {
    let wdl = tables.probe_wdl(pos)?;
    let dtz = tables.probe_dtz(pos)?;
    let best = tables.best_moves(pos, true)?.first().map(|m| (m.mv.to_string(), san(pos, m.mv)));
    Ok(Verdict { wdl: wdl.to_i8(), wdl_name: wdl.to_string(), dtz, best })
}

/// The tables of `:`-separated folders, for the commands that adjudicate with them
/// (`match --tb`, `datagen --tb`).
///
/// # Errors
/// A folder that cannot be read, or folders without any table.
pub fn load(folders: &str) -> Result<Tablebase> {
    let mut tables = Tablebase::new();
    for folder in folders.split(':').filter(|f| !f.is_empty()) {
        tables.add_directory(folder)?;
    }
    if tables.table_count() == 0 {
        bail!("--tb {folders}: no Syzygy tables there");
    }
    Ok(tables)
}

/// The result of a game from `pos` with best play, under the fifty-move rule from the
/// position's half-move clock (cursed wins and blessed losses are draws), when the position
/// is in the tables' reach. `None` out of reach or when a probe fails (a broken or missing
/// table): the game plays on.
pub fn result(tables: &Tablebase, pos: &Position) -> Option<GameResult> {
    if pos.occupied().count() > tables.max_pieces() || !pos.castling_rights().is_empty() {
        return None;
    }
    let best = tables.best_moves(pos, true).ok()?.into_iter().next()?;
    Some(match best.wdl {
        Wdl::Win => GameResult::win_for(pos.turn()),
        Wdl::Loss => GameResult::win_for(!pos.turn()),
        Wdl::CursedWin | Wdl::Draw | Wdl::BlessedLoss => GameResult::Draw,
    })
}
