//! UCI transcripts: the deterministic parts are snapshots; the rest is checked by rule.

mod common;

use common::{bestmoves, redact, server, transcript};
use tempo_core::Position;
use tempo_notation::parse_uci_move;

#[test]
fn handshake_and_options() {
    // A tune build also lists every search parameter (tests/tune.rs checks those lines).
    let parameter = |line: &str| {
        tempo_engine::PARAMETERS.iter().any(|p| line.starts_with(&format!("option name {} type spin", p.name)))
    };
    let text: String =
        transcript(&["uci", "isready"]).lines().filter(|l| !parameter(l)).map(|l| format!("{l}\n")).collect();
    insta::assert_snapshot!(text);
}

#[test]
fn display_position_and_perft() {
    insta::assert_snapshot!(transcript(&[
        "position startpos moves e2e4 e7e5 g1f3",
        "d",
        "go perft 2",
        "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "go perft 1",
    ]));
}

#[test]
fn eval_breakdown() {
    insta::assert_snapshot!(transcript(&["position startpos moves d2d4 g8f6 c2c4", "eval"]));
}

#[test]
fn fixed_depth_search_is_deterministic() {
    let lines = ["setoption name Hash value 1", "position startpos moves e2e4", "go depth 6"];
    let first = redact(&transcript(&lines));
    assert_eq!(first, redact(&transcript(&lines)));
    insta::assert_snapshot!(first);
}

#[test]
fn malformed_input_is_reported_and_ignored() {
    let text = transcript(&[
        "hello world",
        "go depth banana nodes 500",
        "go sideways depth 1",
        "position",
        "position fen not a fen",
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
        "position startpos moves e2e5",
        "position startpos moves e2e4 e2e4",
        "setoption name NoSuchOption value 3",
        "setoption name Hash value -1",
        "setoption name Threads value many",
        "setoption name UCI_ShowWDL value maybe",
        "setoption Hash",
        "debug sometimes",
        "\u{1b}[A\t\t  ",
        "position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 zz",
        "d",
        "position startpos",
        "go depth 2 searchmoves e2e4 a1a8",
        "isready",
    ]);
    insta::assert_snapshot!(redact(&text));
}

#[test]
fn go_with_an_empty_line_list_still_answers_once() {
    let text = transcript(&["position startpos", "go depth 1", "go depth 1"]);
    assert_eq!(bestmoves(&text).len(), 2);
}

#[test]
fn mate_and_stalemate_answer_bestmove_0000() {
    // Fool's mate (White is mated) and a stalemate.
    let cases = [
        ("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", "info depth 0 score mate 0"),
        ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "info depth 0 score cp 0"),
    ];
    for (fen, score) in cases {
        let text = transcript(&[&format!("position fen {fen}"), "go depth 5"]);
        assert_eq!(bestmoves(&text), vec!["bestmove 0000"], "{fen}");
        assert!(text.contains(&format!("{score}\nbestmove 0000")), "{text}");
        let text = transcript(&[&format!("position fen {fen}"), "go wtime 1000 btime 1000"]);
        assert_eq!(bestmoves(&text), vec!["bestmove 0000"], "{fen}");
    }
}

#[test]
fn every_bestmove_is_legal() {
    let fens = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        "8/P7/8/8/8/8/7k/K7 w - - 0 1",
        "4k3/8/8/8/8/8/4p3/4K3 w - - 0 1",
        "3k4/8/8/2Pp4/8/8/8/4K3 w - d6 0 2",
    ];
    for fen in fens {
        for go in ["go depth 5", "go nodes 3000", "go movetime 30", "go wtime 300 btime 300 winc 10 binc 10"] {
            let text = transcript(&["setoption name Ponder value true", &format!("position fen {fen}"), go]);
            let moves = bestmoves(&text);
            assert_eq!(moves.len(), 1, "{fen} {go}: {text}");
            let words: Vec<&str> = moves[0].split(' ').collect();
            let pos: Position = fen.parse().unwrap();
            let best = parse_uci_move(&pos, words[1]).unwrap_or_else(|e| panic!("{fen} {go}: {e}"));
            if words.len() == 4 {
                assert_eq!(words[2], "ponder");
                let mut after = pos;
                after.play_unchecked(best);
                parse_uci_move(&after, words[3]).unwrap_or_else(|e| panic!("{fen} {go}: ponder {e}"));
            }
        }
    }
}

#[test]
fn chess960_castling_is_written_king_takes_rook() {
    let text = transcript(&[
        "setoption name UCI_Chess960 value true",
        "position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1 moves e1h1",
        "d",
    ]);
    assert!(text.contains("Fen: 4k3/8/8/8/8/8/8/5RK1 b - - 1 1"), "{text}");
}

#[test]
fn multipv_reports_distinct_lines() {
    let text = transcript(&["setoption name MultiPV value 3", "position startpos", "go depth 5"]);
    let last: Vec<&str> = text.lines().filter(|l| l.starts_with("info depth 5 ")).collect();
    assert_eq!(last.len(), 3, "{text}");
    let firsts: Vec<&str> = last.iter().map(|l| l.split(" pv ").nth(1).unwrap().split(' ').next().unwrap()).collect();
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
    assert!(last[0].contains("multipv 1") && last[2].contains("multipv 3"));
}

#[test]
fn commands_sent_before_bestmove_wait_for_a_search_that_ends_by_itself() {
    // A script piping commands without waiting: each go still gets its own answer.
    let (mut server, buffer) = server();
    for line in ["position startpos", "go depth 4", "position startpos moves e2e4", "go depth 4"] {
        server.handle_line(line);
    }
    server.wait();
    let text = buffer.text();
    assert_eq!(bestmoves(&text).len(), 2, "{text}");
    assert!(!text.contains("ignored"), "{text}");
}

#[test]
fn tiny_limits_and_odd_fens_still_give_a_searched_move() {
    // Even one node or an immediate stop completes the first iteration.
    let text = transcript(&["position startpos", "go nodes 1"]);
    assert!(text.contains("info depth 1 "), "{text}");
    let (mut server, buffer) = server();
    server.handle_line("position startpos");
    server.handle_line("go infinite");
    server.handle_line("stop");
    server.wait();
    assert!(buffer.text().contains("info depth 1 "), "{}", buffer.text());
    // The other side's clock only: our time counts as zero, the move comes at once.
    let text = transcript(&["position startpos", "go btime 60000"]);
    assert_eq!(bestmoves(&text).len(), 1, "{text}");
    // FENs without clocks, or with move number 0, as GUIs and puzzle files send them.
    let text = transcript(&["position fen 4k3/8/8/8/8/8/8/4K2R w K -", "d"]);
    assert!(text.contains("4k3/8/8/8/8/8/8/4K2R w K - 0 1"), "{text}");
    let text = transcript(&["position fen 4k3/8/8/8/8/8/8/4K2R w K - 3 0", "d"]);
    assert!(text.contains("4k3/8/8/8/8/8/8/4K2R w K - 3 1"), "{text}");
}

#[test]
fn go_perft_counts_like_perft() {
    let text = transcript(&["position startpos", "go perft 0", "go perft 2", "go perft"]);
    assert!(text.starts_with("\nNodes searched: 1\n"), "{text}");
    assert!(text.contains("Nodes searched: 400"), "{text}");
    assert!(text.contains("info string malformed go: perft needs a value"), "{text}");
    assert!(bestmoves(&text).is_empty(), "{text}");
}

#[test]
fn stop_ends_an_infinite_search_with_one_bestmove() {
    let (mut server, buffer) = server();
    server.handle_line("position startpos");
    server.handle_line("go infinite");
    server.handle_line("isready");
    server.handle_line("stop");
    server.wait();
    let text = buffer.text();
    assert!(text.contains("readyok"));
    assert_eq!(bestmoves(&text).len(), 1, "{text}");
}

#[test]
fn commands_right_after_stop_wait_for_the_stopped_search() {
    // A GUI sends its next position and go at once after stop (a ponder miss): both must
    // wait for the stopped search's bestmove, never be refused while it winds down.
    let after_e4 = {
        let mut pos = Position::startpos();
        pos.play(parse_uci_move(&pos, "e2e4").unwrap()).unwrap();
        pos
    };
    for _ in 0..20 {
        let (mut server, buffer) = server();
        for line in ["position startpos", "go infinite", "stop", "position startpos moves e2e4", "go depth 3"] {
            server.handle_line(line);
        }
        server.wait();
        let text = buffer.text();
        let moves = bestmoves(&text);
        assert_eq!(moves.len(), 2, "{text}");
        assert!(!text.contains("ignored"), "{text}");
        parse_uci_move(&Position::startpos(), moves[0].split(' ').nth(1).unwrap()).unwrap();
        parse_uci_move(&after_e4, moves[1].split(' ').nth(1).unwrap()).unwrap();
    }
}

#[test]
fn a_position_sent_during_an_open_ended_search_is_set_when_it_ends() {
    let (mut server, buffer) = server();
    server.handle_line("position startpos");
    server.handle_line("go infinite");
    server.handle_line("position startpos moves e2e4 e7e5");
    server.handle_line("stop");
    server.handle_line("go depth 3");
    server.handle_line("d");
    server.wait();
    let text = buffer.text();
    let moves = bestmoves(&text);
    assert_eq!(moves.len(), 2, "{text}");
    let mut after = Position::startpos();
    for m in ["e2e4", "e7e5"] {
        after.play(parse_uci_move(&after, m).unwrap()).unwrap();
    }
    parse_uci_move(&after, moves[1].split(' ').nth(1).unwrap()).unwrap();
    assert!(text.contains(&after.fen()), "{text}");
}

#[test]
fn ponder_waits_for_ponderhit() {
    let (mut server, buffer) = server();
    server.handle_line("setoption name Ponder value true");
    server.handle_line("position startpos moves e2e4");
    server.handle_line("go ponder depth 3 wtime 1000 btime 1000");
    // However soon the depth is reached, no bestmove may come before ponderhit or stop.
    std::thread::sleep(std::time::Duration::from_millis(200));
    assert!(bestmoves(&buffer.text()).is_empty());
    server.handle_line("ponderhit");
    server.wait();
    let moves = bestmoves(&buffer.text());
    assert_eq!(moves.len(), 1);
    assert!(moves[0].contains(" ponder "), "{moves:?}");
}

#[test]
fn show_wdl_and_limit_strength() {
    let text = transcript(&["setoption name UCI_ShowWDL value true", "position startpos", "go depth 3"]);
    assert!(text.lines().any(|l| l.contains(" wdl ")), "{text}");
    // Where neither side can mate, the draw is certain.
    for fen in ["4k3/8/8/8/8/8/8/4K3 w - - 0 1", "4k3/8/8/8/8/8/8/4KN2 b - - 0 1"] {
        let text = transcript(&["setoption name UCI_ShowWDL value true", &format!("position fen {fen}"), "go depth 3"]);
        let infos: Vec<&str> = text.lines().filter(|l| l.contains(" wdl ")).collect();
        assert!(!infos.is_empty() && infos.iter().all(|l| l.contains(" wdl 0 1000 0 ")), "{text}");
    }
    let text = transcript(&[
        "setoption name UCI_LimitStrength value true",
        "setoption name UCI_Elo value 1200",
        "position startpos",
        "go wtime 10000 btime 10000",
    ]);
    let moves = bestmoves(&text);
    assert_eq!(moves.len(), 1);
    parse_uci_move(&Position::startpos(), moves[0].split(' ').nth(1).unwrap()).unwrap();
}

#[test]
fn quit_and_eof_end_the_session() {
    let (mut server, buffer) = server();
    let input = "position startpos\ngo infinite\n";
    server.run(std::io::Cursor::new(input)).unwrap();
    assert_eq!(bestmoves(&buffer.text()).len(), 1);
    let (mut server, _) = server_pair();
    assert_eq!(server.handle_line("quit"), tempo_uci::Flow::Quit);
}

fn server_pair() -> (tempo_uci::Server<common::Buffer>, common::Buffer) {
    server()
}
