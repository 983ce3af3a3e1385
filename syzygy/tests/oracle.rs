//! Tempo's probes against python-chess's on the same tables: the 200 positions of
//! python-chess's `endgame.epd`, and random legal positions of every 3- and 4-men table.

mod support;

use tempo_core::opening::SplitMix;
use tempo_core::{CastlingMode, Color, Piece, Position, Role, Setup, Square};
use tempo_syzygy::{ProbeError, Tablebase, Wdl};

#[test]
fn endgame_epd_all_right() {
    let Some(tree) = support::python_chess() else { return };
    let tables = Tablebase::open(tree.join("data/syzygy/regular")).expect("the tables");
    let epd = std::fs::read_to_string(tree.join("data/endgame.epd")).expect("endgame.epd");
    let mut checked = 0;
    for line in epd.lines().filter(|l| !l.trim().is_empty()) {
        let fields: Vec<&str> = line.splitn(5, ' ').collect();
        let fen = fields[..4].join(" ");
        let op = |name: &str| -> i32 {
            let at = line.find(&format!("{name} ")).unwrap_or_else(|| panic!("{name} in {line}"));
            line[at + name.len() + 1..].split(';').next().unwrap().trim().parse().unwrap()
        };
        let pos: Position = fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"));
        let wdl = tables.probe_wdl(&pos).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(i32::from(wdl.to_i8()), op("wdl"), "WDL of {fen}");
        assert_eq!(tables.probe_dtz(&pos).unwrap_or_else(|e| panic!("{fen}: {e}")), op("dtz"), "DTZ of {fen}");
        checked += 1;
    }
    assert_eq!(checked, 200);
}

/// The men of a table name, White's then Black's.
fn men(name: &str) -> Vec<Piece> {
    let (white, black) = name.split_once('v').unwrap();
    let mut men = Vec::new();
    for (side, color) in [(white, Color::White), (black, Color::Black)] {
        men.extend(side.chars().map(|c| Piece::new(color, Role::from_char(c.to_ascii_lowercase()).unwrap())));
    }
    men
}

/// A random legal position with these men (either colour order), sometimes with an en
/// passant square when a double step can have led to it.
fn random_position(rng: &mut SplitMix, men: &[Piece]) -> Position {
    loop {
        let swap = rng.below(2) == 1;
        let mut setup = Setup::empty();
        let mut board = [None; 64];
        for &piece in men {
            let piece = if swap { Piece::new(!piece.color, piece.role) } else { piece };
            let square = loop {
                let sq = rng.below(64);
                let rank = sq / 8;
                if board[sq].is_none() && !(piece.role == Role::Pawn && (rank == 0 || rank == 7)) {
                    break sq;
                }
            };
            board[square] = Some(piece);
        }
        setup.board = board;
        setup.turn = if rng.below(2) == 0 { Color::White } else { Color::Black };
        if rng.below(3) == 0 {
            // The square behind a pawn of the side that just moved on its fourth rank.
            let mover = !setup.turn;
            let candidates: Vec<usize> = (0..64)
                .filter(|&sq| {
                    board[sq] == Some(Piece::new(mover, Role::Pawn))
                        && sq / 8 == if mover == Color::White { 3 } else { 4 }
                })
                .collect();
            if let Some(&sq) = candidates.get(rng.below(candidates.len().max(1))) {
                let behind = if mover == Color::White { sq - 8 } else { sq + 8 };
                setup.ep_square = Square::new(behind as u32);
            }
        }
        if let Ok(pos) = Position::from_setup(setup, CastlingMode::Standard) {
            return pos;
        }
    }
}

#[test]
fn random_positions_of_every_table_agree_with_python_chess() {
    let Some(folder) = support::tables() else { return };
    let tables = Tablebase::open(&folder).expect("the tables");
    let mut names: Vec<String> = std::fs::read_dir(&folder)
        .unwrap()
        .filter_map(|e| e.unwrap().file_name().into_string().ok())
        .filter_map(|n| n.strip_suffix(".rtbw").map(str::to_owned))
        .collect();
    names.sort();
    assert_eq!(names.len(), 35, "python-chess ships the 35 tables of 3 and 4 men");
    const PER_TABLE: usize = 120;
    let mut rng = SplitMix::new(0x5eed_0042);
    let mut positions = Vec::new();
    for name in &names {
        let men = men(name);
        for _ in 0..PER_TABLE {
            positions.push(random_position(&mut rng, &men));
        }
    }
    let fens: Vec<String> = positions.iter().map(|p| p.to_string()).collect();
    let expected = support::oracle(&fens).expect("the oracle runs where the tables are");
    let (mut wdl_agree, mut dtz_agree, mut decisive, mut en_passant) = (0, 0, 0, 0);
    for ((pos, fen), (wdl, dtz)) in positions.iter().zip(&fens).zip(expected) {
        let ours = tables.probe_wdl(pos);
        match (wdl, &ours) {
            (Some(w), Ok(o)) => {
                assert_eq!(i32::from(o.to_i8()), w, "WDL of {fen}");
                wdl_agree += 1;
            }
            _ => panic!("{fen}: python-chess {wdl:?}, Tempo {ours:?}"),
        }
        let ours = tables.probe_dtz(pos);
        match (dtz, &ours) {
            (Some(d), Ok(o)) => {
                assert_eq!(*o, d, "DTZ of {fen}");
                dtz_agree += 1;
                decisive += usize::from(d != 0);
                en_passant += usize::from(pos.ep_square().is_some());
            }
            _ => panic!("{fen}: python-chess DTZ {dtz:?}, Tempo {ours:?}"),
        }
    }
    // Every position of a complete 3-4-men set probes, and the sample is not all draws.
    assert_eq!(dtz_agree, positions.len());
    assert!(decisive > positions.len() / 3, "{decisive} decisive of {}", positions.len());
    eprintln!(
        "{wdl_agree} WDL and {dtz_agree} DTZ values equal to python-chess's over {} tables ({decisive} decisive, {en_passant} with an en passant square)",
        names.len()
    );
}

#[test]
fn root_moves_keep_the_result_and_the_distance() {
    let Some(folder) = support::tables() else { return };
    let tables = Tablebase::open(&folder).expect("the tables");
    let mut rng = SplitMix::new(0x5eed_0043);
    let names = ["KQvKR", "KRvKB", "KPvKP", "KBNvK", "KRPvK", "KQvKP"];
    let mut checked = 0;
    for name in names {
        let men = men(name);
        for _ in 0..40 {
            let pos = random_position(&mut rng, &men);
            let (wdl, dtz) = (tables.probe_wdl(&pos).unwrap(), tables.probe_dtz(&pos).unwrap());
            let best = tables.best_moves(&pos, false).unwrap();
            let Some(first) = best.first() else {
                assert!(pos.legal_moves().is_empty());
                continue;
            };
            // Every recommended move keeps the result; the distance agrees with the
            // position's to within the one ply that DTZ's rounding allows.
            let fen = pos.to_string();
            for m in &best {
                assert_eq!(m.dtz.signum(), dtz.signum(), "{fen}: {m:?} against DTZ {dtz}");
                assert_eq!(m.dtz, first.dtz, "{fen}");
            }
            assert!((first.dtz - dtz).abs() <= 1, "{fen}: best {first:?}, DTZ {dtz}");
            assert_eq!(wdl == Wdl::Draw, first.wdl == Wdl::Draw, "{fen}");
            checked += 1;
        }
    }
    assert!(checked > 200, "{checked}");

    // The fifty-move rule: KRvK won in 23 plies to zeroing is a win with the clock at 70, a
    // cursed win at 90 (and a win again when the rule is ignored).
    let early: Position = "4k3/8/8/8/8/8/8/3RK3 w - - 70 80".parse().unwrap();
    let late: Position = "4k3/8/8/8/8/8/8/3RK3 w - - 90 90".parse().unwrap();
    assert_eq!(tables.best_moves(&early, true).unwrap()[0].wdl, Wdl::Win);
    assert_eq!(tables.best_moves(&late, true).unwrap()[0].wdl, Wdl::CursedWin);
    assert_eq!(tables.best_moves(&late, false).unwrap()[0].dtz, tables.best_moves(&early, false).unwrap()[0].dtz);
}

#[test]
fn errors_are_typed() {
    let Some(folder) = support::tables() else { return };
    let tables = Tablebase::open(&folder).expect("the tables");
    assert_eq!(tables.max_pieces(), 4);
    let castling: Position = "4k3/8/8/8/8/8/8/4K2R w K - 0 1".parse().unwrap();
    assert_eq!(tables.probe_wdl(&castling), Err(ProbeError::CastlingRights));
    let five: Position = "4k3/8/8/8/8/8/3PP3/4K2R w - - 0 1".parse().unwrap();
    assert_eq!(tables.probe_dtz(&five), Err(ProbeError::TooManyPieces { pieces: 5, max: 4 }));
    let kvk: Position = "4k3/8/8/8/8/8/8/4K3 w - - 0 1".parse().unwrap();
    assert_eq!(tables.probe_wdl(&kvk), Ok(Wdl::Draw));
    assert_eq!(tables.probe_dtz(&kvk), Ok(0));

    // Only KQvK's WDL table present: its DTZ and KRvK are missing.
    let dir = std::env::temp_dir().join(format!("tempo-syzygy-missing-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(folder.join("KQvK.rtbw"), dir.join("KQvK.rtbw")).unwrap();
    let some = Tablebase::open(&dir).unwrap();
    let kqk: Position = "4k3/8/8/8/8/8/8/3QK3 w - - 0 1".parse().unwrap();
    assert_eq!(some.probe_wdl(&kqk), Ok(Wdl::Win));
    assert!(matches!(some.probe_dtz(&kqk), Err(ProbeError::MissingTable { ref name, .. }) if name == "KQvK"));
    let krk: Position = "4k3/8/8/8/8/8/8/3RK3 w - - 0 1".parse().unwrap();
    assert!(matches!(some.probe_wdl(&krk), Err(ProbeError::MissingTable { ref name, .. }) if name == "KRvK"));
    std::fs::remove_dir_all(&dir).unwrap();
}
