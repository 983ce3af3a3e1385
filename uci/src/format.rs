//! Text the server writes: info lines, the option list, diagrams and the evaluation table.

use std::fmt::Write as _;
use tempo_core::{Color, File, Position, Rank, Square};
use tempo_engine::hce::{EvalTrace, Term, S};
use tempo_engine::{Bound, Limits, OptionKind, OptionSpec, Score, SearchInfo};
use tempo_notation::uci_move;

/// The parameters of a `go` command for `limits` (what follows `go `), with `searchmoves`
/// written for `root`. Drivers of external engines (the CLI, the match runner) use it so that
/// every program sends the same limits the same way.
pub fn go_params(root: &Position, limits: &Limits) -> String {
    let mut out = Vec::new();
    let ms = |d: std::time::Duration| d.as_millis().to_string();
    let fields = [
        ("wtime", limits.wtime.map(ms)),
        ("btime", limits.btime.map(ms)),
        ("winc", limits.winc.map(ms)),
        ("binc", limits.binc.map(ms)),
        ("movestogo", limits.movestogo.map(|n| n.to_string())),
        ("movetime", limits.movetime.map(ms)),
        ("depth", limits.depth.map(|n| n.to_string())),
        ("nodes", limits.nodes.map(|n| n.to_string())),
        ("mate", limits.mate.map(|n| n.to_string())),
    ];
    for (name, value) in fields {
        if let Some(value) = value {
            out.push(format!("{name} {value}"));
        }
    }
    if limits.infinite {
        out.push("infinite".to_owned());
    }
    if limits.ponder {
        out.push("ponder".to_owned());
    }
    if !limits.searchmoves.is_empty() {
        out.push("searchmoves".to_owned());
        out.extend(limits.searchmoves.iter().map(|&m| uci_move(root, m)));
    }
    out.join(" ")
}

/// `option name ... type ...` for one option.
pub fn option_line(spec: &OptionSpec) -> String {
    match spec.kind {
        OptionKind::Spin { default, min, max } => {
            format!("option name {} type spin default {default} min {min} max {max}", spec.name)
        }
        OptionKind::Check { default } => format!("option name {} type check default {default}", spec.name),
        OptionKind::Button => format!("option name {} type button", spec.name),
    }
}

/// An `info` line for a search report; moves are written for `root`.
pub fn info_line(root: &Position, info: &SearchInfo) -> String {
    let mut s = format!("info depth {} seldepth {} multipv {} score ", info.depth, info.seldepth, info.multipv);
    match info.score {
        Score::Cp(cp) => {
            let _ = write!(s, "cp {cp}");
        }
        Score::Mate(n) => {
            let _ = write!(s, "mate {n}");
        }
    }
    match info.bound {
        Some(Bound::Lower) => s.push_str(" lowerbound"),
        Some(Bound::Upper) => s.push_str(" upperbound"),
        _ => {}
    }
    if let Some(wdl) = info.wdl {
        let _ = write!(s, " wdl {} {} {}", wdl.win, wdl.draw, wdl.loss);
    }
    let _ = write!(
        s,
        " nodes {} nps {} hashfull {} tbhits {} time {}",
        info.nodes,
        info.nps,
        info.hashfull,
        info.tbhits,
        info.time.as_millis()
    );
    if !info.pv.is_empty() {
        s.push_str(" pv");
        // Each move is written in the position it is played from (castling notation
        // depends only on the variant, but promotions and validity are per position).
        let mut pos = *root;
        for &m in &info.pv {
            // The search only puts legal moves in its PV; checking costs little here and
            // guarantees that no output can ever name an illegal move.
            if !pos.is_legal(m) {
                break;
            }
            let _ = write!(s, " {}", uci_move(&pos, m));
            pos.play_unchecked(m);
        }
    }
    s
}

/// The board, FEN, key and checkers (`d`).
pub fn diagram(pos: &Position) -> String {
    let mut s = String::from("\n +---+---+---+---+---+---+---+---+\n");
    for rank in Rank::ALL.iter().rev() {
        for file in File::ALL {
            let c = pos.piece_at(Square::from_coords(file, *rank)).map_or(' ', |p| p.char());
            let _ = write!(s, " | {c}");
        }
        let _ = writeln!(s, " | {}", rank.char());
        s.push_str(" +---+---+---+---+---+---+---+---+\n");
    }
    s.push_str("   a   b   c   d   e   f   g   h\n\n");
    let _ = writeln!(s, "Fen: {}", pos.fen());
    let _ = writeln!(s, "Key: {:016X}", pos.key());
    let checkers: Vec<String> = pos.checkers().map(|sq| sq.to_string()).collect();
    let _ = write!(s, "Checkers: {}", checkers.join(" "));
    s
}

fn pawns(v: i32) -> String {
    format!("{:6.2}", f64::from(v) / 100.0)
}

fn pair(v: S) -> String {
    format!("{} {}", pawns(v.0), pawns(v.1))
}

/// The evaluation table (`eval`) of the hand-crafted evaluation, White's point of view.
pub fn eval_table(pos: &Position, t: &EvalTrace) -> String {
    let mut s = hand_crafted_table(t);
    let stm = if pos.turn() == Color::White { t.white_value } else { -t.white_value };
    let _ = write!(
        s,
        "Final evaluation: {} (white side), {} (side to move)",
        pawns(t.white_value).trim(),
        pawns(stm).trim()
    );
    s
}

/// `eval` when the search evaluates with the network: the hand-crafted table for reference,
/// then the network's evaluation `nnue` (centipawns, side to move), which is the final one.
pub fn nnue_eval_table(pos: &Position, t: &EvalTrace, nnue: i32) -> String {
    let mut s = hand_crafted_table(t);
    let view = |stm: i32| if pos.turn() == Color::White { stm } else { -stm };
    let hce_stm = view(t.white_value);
    let _ = writeln!(
        s,
        "Hand-crafted evaluation: {} (white side), {} (side to move) (not used: UseNNUE is on)",
        pawns(t.white_value).trim(),
        pawns(hce_stm).trim()
    );
    let _ = writeln!(s, "NNUE evaluation: {} (white side), {} (side to move)", signed(view(nnue)), signed(nnue));
    let _ = write!(s, "Final evaluation: {} (white side) [NNUE]", signed(view(nnue)));
    s
}

/// Pawns with a sign: `+0.34`, `-1.20`.
fn signed(v: i32) -> String {
    format!("{:+.2}", f64::from(v) / 100.0)
}

/// The hand-crafted evaluation's terms, phase and scale, one line each.
fn hand_crafted_table(t: &EvalTrace) -> String {
    let mut s = String::new();
    s.push_str("      Term      |     White     |     Black     |     Total\n");
    s.push_str("                |   MG     EG   |   MG     EG   |   MG     EG\n");
    s.push_str("----------------+---------------+---------------+--------------\n");
    for term in Term::ALL {
        let w = t.terms[Color::White.index()][term as usize];
        let b = t.terms[Color::Black.index()][term as usize];
        let _ = writeln!(s, "{:>15} | {} | {} | {}", term.name(), pair(w), pair(b), pair(w - b));
    }
    s.push_str("----------------+---------------+---------------+--------------\n");
    let _ = writeln!(s, "Phase: {}/24, endgame scale: {}/64", t.phase, t.scale);
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn go_params_write_every_limit() {
        let pos = Position::startpos();
        let limits = Limits {
            wtime: Some(Duration::from_millis(60_000)),
            btime: Some(Duration::from_millis(59_500)),
            winc: Some(Duration::from_secs(1)),
            binc: Some(Duration::from_secs(1)),
            movestogo: Some(12),
            ..Limits::default()
        };
        assert_eq!(go_params(&pos, &limits), "wtime 60000 btime 59500 winc 1000 binc 1000 movestogo 12");
        assert_eq!(go_params(&pos, &Limits::depth(3)), "depth 3");
        let e4 = tempo_notation::parse_uci_move(&pos, "e2e4").unwrap();
        let analysis = Limits { infinite: true, searchmoves: vec![e4], ..Limits::default() };
        assert_eq!(go_params(&pos, &analysis), "infinite searchmoves e2e4");
        // The server reads back what the writer produced.
        let line = format!("go {}", go_params(&pos, &limits));
        assert!(matches!(crate::parse_command(&line), Ok(Some(crate::Command::Go(_)))));
    }
}
