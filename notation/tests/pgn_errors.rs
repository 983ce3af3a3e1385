//! Broken games are reported with game number, line and column, and reading goes on.

use tempo_notation::{PgnErrorKind, PgnReader, PgnResult, SanError};

#[test]
fn recovers_after_broken_games() {
    let pgn = "\u{feff}[Event \"one\"]\r\n\r\n1. e4 e5 2. Nf3 Nc6 1-0\r\n\r\n\
               [Event \"two\"]\n\n1. e4 e5 2. Ke3 Nc6 3. d4 0-1\n\n\
               [Event \"three\"]\n\n1. d4 d5 *\n\n\
               [Event \"four\"]\n\n1. e4 (1. d4 d5 2. Nf3 ( e5 ) 1-0\n\n\
               [Event \"five\" bad]\n[Site \"?\"]\n\n1. e4 *\n\n\
               [Event \"six\"]\n\n1. Nf3 {unterminated";
    let results: Vec<_> = PgnReader::new(pgn.as_bytes()).games().collect();
    assert_eq!(results.len(), 6);
    let one = results[0].as_ref().unwrap();
    assert_eq!(one.tag("Event"), Some("one"));
    assert_eq!(one.moves.len(), 4);
    assert_eq!(one.result, Some(PgnResult::WhiteWins));

    let two = results[1].as_ref().unwrap_err();
    assert_eq!((two.game, two.line, two.column), (2, 7, 13));
    assert_eq!(two.kind, PgnErrorKind::Move(SanError::NoSuchMove("Ke3".into())));
    assert_eq!(two.to_string(), "game 2, line 7, column 13: no such move \"Ke3\"");

    let three = results[2].as_ref().unwrap();
    assert_eq!(three.tag("Event"), Some("three"));
    assert_eq!(three.moves.len(), 2);

    let four = results[3].as_ref().unwrap_err();
    assert_eq!(four.game, 4);
    assert_eq!(four.kind, PgnErrorKind::Move(SanError::NoSuchMove("e5".into())));

    let five = results[4].as_ref().unwrap_err();
    assert_eq!((five.game, five.line), (5, 17));
    assert!(matches!(five.kind, PgnErrorKind::Tag(_)));

    let six = results[5].as_ref().unwrap_err();
    assert_eq!(six.kind, PgnErrorKind::UnclosedComment);
}

#[test]
fn variation_and_result_errors() {
    let cases = [
        ("( e4 ) *", PgnErrorKind::VariationWithoutMove),
        ("e4 ) *", PgnErrorKind::UnmatchedParenthesis),
        ("e4 (d4 *", PgnErrorKind::ResultInVariation("*".into())),
        ("e4 (d4", PgnErrorKind::UnclosedVariation),
        ("e4 ] *", PgnErrorKind::UnexpectedToken("]".into())),
        ("e4 $999 *", PgnErrorKind::UnexpectedToken("$999".into())),
        ("e4 e5 Ke2 Ke7 Ke3 Ke6 Kd3?!? *", PgnErrorKind::UnexpectedToken("?!?".into())),
    ];
    for (text, kind) in cases {
        let results: Vec<_> = PgnReader::new(text.as_bytes()).games().collect();
        assert_eq!(results[0].as_ref().unwrap_err().kind, kind, "{text}");
    }
}

#[test]
fn nothing_is_no_game() {
    for text in ["", "   \n\n", "% only an escape line\n"] {
        assert_eq!(PgnReader::new(text.as_bytes()).games().count(), 0, "{text:?}");
    }
}

#[test]
fn unsupported_variant_and_bad_fen() {
    let pgn = "[Variant \"crazyhouse\"]\n\n1. e4 *\n\n[FEN \"not a fen\"]\n\n1. e4 *\n\n[Event \"ok\"]\n\n1. e4 *\n";
    let results: Vec<_> = PgnReader::new(pgn.as_bytes()).games().collect();
    assert_eq!(results.len(), 3);
    assert!(matches!(results[0].as_ref().unwrap_err().kind, PgnErrorKind::UnsupportedVariant(_)));
    assert!(matches!(results[1].as_ref().unwrap_err().kind, PgnErrorKind::Fen { .. }));
    assert!(results[2].is_ok());
}

#[test]
fn stray_dots_and_large_inputs() {
    let games: Vec<_> = PgnReader::new("1. e4 ... e5 2. Nf3 . *".as_bytes()).games().collect();
    assert_eq!(games[0].as_ref().unwrap().moves.len(), 3);
    // Inputs far larger than the reader's buffer, ending in odd places, never panic.
    let mut big = "[Event \"x\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n".repeat(5000);
    big.push_str("1. e4 .");
    let results: Vec<_> = PgnReader::new(big.as_bytes()).games().collect();
    assert_eq!(results.len(), 5001);
    assert!(results[..5000].iter().all(Result::is_ok));
    let junk = ".".repeat(200_000);
    assert!(PgnReader::new(junk.as_bytes()).games().count() <= 1);
}

#[test]
fn games_convert_both_ways() {
    use tempo_core::{Game, Position, Termination};
    use tempo_notation::{pgn_string, PgnGame};
    let pgn = "[Event \"x\"]\n[TimeControl \"180+2\"]\n\n1. f3 e5 { [%clk 0:01:00] [%eval #-1] } 2. g4 Qh4# 0-1\n";
    let read = PgnReader::new(pgn.as_bytes()).games().next().unwrap().unwrap();
    assert_eq!(read.moves[1].annotations().clock, Some(std::time::Duration::from_secs(60)));
    assert_eq!(read.time_control().unwrap().unwrap().to_string(), "180+2");
    let game: Game = read.to_game().unwrap();
    assert_eq!(game.outcome().unwrap().termination, Termination::Checkmate);
    let back = PgnGame::from_game(&game);
    assert_eq!(back.mainline(), read.mainline());
    let text = pgn_string(&back);
    assert!(text.contains("[Termination \"normal\"]") && text.ends_with("2. g4 Qh4# {Black mates} 0-1\n\n"), "{text}");
    assert_eq!(back.start, Position::startpos());

    let mut timed = Game::with_time_control(Position::startpos(), "180+2".parse().unwrap());
    let e4 = tempo_notation::parse_san(timed.position(), "e4").unwrap();
    timed.play_timed(e4, std::time::Duration::from_millis(1500)).unwrap();
    let text = pgn_string(&PgnGame::from_game(&timed));
    assert!(text.contains("[TimeControl \"180+2\"]") && text.contains("1. e4 {[%clk 0:03:00.5]} *"), "{text}");
}

#[test]
fn comments_between_games_are_not_games() {
    let pgn = "[Event \"a\"]\n\n1. e4 1-0 {trailing remark}\n\n; a closing note\n\n[Event \"b\"]\n\n1. d4 *\n{ end }\n";
    let games: Vec<_> = PgnReader::new(pgn.as_bytes()).games().map(Result::unwrap).collect();
    assert_eq!(games.len(), 2);
    assert_eq!(games[1].tag("Event"), Some("b"));
    // A game of moves without tags is still a game.
    assert_eq!(PgnReader::new("{intro} 1. e4 e5 *".as_bytes()).games().count(), 1);
}

#[test]
fn unclosed_comment_does_not_swallow_the_next_games() {
    let pgn = "[Event \"a\"]\n\n1. e4 {forgot to close\n1... e5 *\n\n[Event \"b\"]\n\n1. d4 {\n[%clk 0:01:00]} *\n\n[Event \"c\"]\n\n1. c4 *\n";
    let results: Vec<_> = PgnReader::new(pgn.as_bytes()).games().collect();
    assert_eq!(results.len(), 3);
    let a = results[0].as_ref().unwrap_err();
    assert_eq!((a.game, a.line, a.column, &a.kind), (1, 3, 7, &PgnErrorKind::UnclosedComment));
    let b = results[1].as_ref().unwrap();
    assert_eq!(b.moves[0].comments, ["[%clk 0:01:00]"]);
    assert_eq!(results[2].as_ref().unwrap().tag("Event"), Some("c"));
}

/// Hands out at most `chunk` bytes per read, then optionally fails.
struct Trickle<'a> {
    data: &'a [u8],
    chunk: usize,
    fail_at_end: bool,
}

impl std::io::Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.data.is_empty() && self.fail_at_end {
            return Err(std::io::Error::other("disk on fire"));
        }
        let n = self.chunk.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

#[test]
fn short_reads_and_read_errors() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/pgn/edge-cases.pgn");
    let bytes = std::fs::read(path).unwrap();
    let whole: Vec<_> = PgnReader::new(&bytes[..]).games().collect();
    for chunk in [1, 2, 3, 7] {
        let trickled: Vec<_> = PgnReader::new(Trickle { data: &bytes, chunk, fail_at_end: false }).games().collect();
        assert_eq!(trickled, whole, "chunk {chunk}");
    }
    let failing: Vec<_> = PgnReader::new(Trickle { data: &bytes, chunk: 64, fail_at_end: true }).games().collect();
    assert_eq!(failing.len(), whole.len() + 1);
    assert!(
        matches!(&failing.last().unwrap().as_ref().unwrap_err().kind, PgnErrorKind::Io { kind: std::io::ErrorKind::Other, message } if message.contains("disk on fire"))
    );
    // A read error in the middle of a game reports that game as broken, not as truncated.
    let cut = &bytes[..bytes.len() / 2];
    let failing: Vec<_> = PgnReader::new(Trickle { data: cut, chunk: 64, fail_at_end: true }).games().collect();
    let last = failing.last().unwrap().as_ref().unwrap_err();
    assert!(matches!(last.kind, PgnErrorKind::Io { kind: std::io::ErrorKind::Other, .. }));
    assert!(failing[..failing.len() - 1].iter().all(Result::is_ok));
}

#[test]
fn writing_a_hand_made_tree_with_illegal_moves_does_not_panic() {
    use tempo_core::Move;
    use tempo_notation::{pgn_string, PgnGame, PgnNode};
    let bogus = Move::normal("e4".parse().unwrap(), "e5".parse().unwrap());
    let mut game = PgnGame { moves: vec![PgnNode::new(bogus), PgnNode::new(Move::NULL)], ..PgnGame::default() };
    game.moves[1].variations.push(vec![PgnNode::new(bogus)]);
    let text = pgn_string(&game);
    assert!(text.contains("1. e4e5"), "{text}");
    // Reading it back reports the bad move instead of inventing one.
    assert!(PgnReader::new(text.as_bytes()).games().next().unwrap().is_err());
}

#[test]
fn lenient_setup_and_en_passant_marks() {
    let pgn = "[FEN \"4k3/8/8/8/8/8/4P3/4K3 w KQkq e6\"]\n\n1. e4 Kd7 *\n\n\
               [FEN \"r3k3/8/8/3pP3/8/8/8/4K3 w q d6 0 1\"]\n\n1. exd6 e.p. O-O-O 2. d7+ ep *\n";
    let games: Vec<_> = PgnReader::new(pgn.as_bytes()).games().collect();
    let first = games[0].as_ref().unwrap();
    assert_eq!(first.start.fen(), "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    let second = games[1].as_ref().unwrap();
    assert_eq!(second.moves.len(), 3, "{second:?}");
    assert!(second.moves[0].mv.is_en_passant());
}

#[test]
fn old_mac_line_ends_report_real_lines() {
    // The audit's file: CR-only line ends, errors in games 2 and 4.
    let lf = "[Event \"g1\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n\
              [Event \"g2 illegal\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke3 Nc6 *\n\n\
              [Event \"g3\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n\
              [Event \"g4 bad san\"]\n[Result \"*\"]\n\n1. e4 Zz9 2. d4 *\n\n\
              [Event \"g5\"]\n[Result \"1/2-1/2\"]\n\n1. d4 d5 1/2-1/2\n";
    for ending in ["\n", "\r", "\r\n"] {
        let text = lf.replace('\n', ending);
        let errors: Vec<_> = PgnReader::new(text.as_bytes())
            .games()
            .filter_map(Result::err)
            .map(|e| (e.game, e.line, e.column))
            .collect();
        assert_eq!(errors, [(2, 9, 13), (4, 19, 7)], "{ending:?}");
    }
}

#[test]
fn byte_order_marks_of_concatenated_files_and_short_first_reads() {
    // Two files with byte-order marks joined by `cat`, and the same through 1- and 2-byte reads.
    let file = "\u{feff}[Event \"x\"]\r\n\r\n1. e4 e5 1-0\r\n";
    let joined = format!("{file}{file}\n{file}");
    for chunk in [1, 2, 3, 4096] {
        let games: Vec<_> =
            PgnReader::new(Trickle { data: joined.as_bytes(), chunk, fail_at_end: false }).games().collect();
        assert_eq!(games.len(), 3, "chunk {chunk}");
        for game in &games {
            let game = game.as_ref().unwrap_or_else(|e| panic!("chunk {chunk}: {e}"));
            assert_eq!((game.tag("Event"), game.moves.len()), (Some("x"), 2), "chunk {chunk}");
        }
    }
    // Between movetext tokens one is whitespace too (U+FEFF is a zero-width space); inside a
    // token it is no part of a move.
    let between = "[Event \"x\"]\n\n1. e4 \u{feff}e5 1-0\n";
    let games: Vec<_> = PgnReader::new(between.as_bytes()).games().collect();
    assert_eq!(games[0].as_ref().unwrap().moves.len(), 2);
    let inside = "[Event \"x\"]\n\n1. e4 e\u{feff}5 1-0\n";
    let games: Vec<_> = PgnReader::new(inside.as_bytes()).games().collect();
    assert!(games[0].is_err());
}

#[test]
fn errors_in_fen_and_variant_tags_point_at_the_tag() {
    let pgn = "[Event \"x\"]\n[FEN \"not a fen\"]\n[Site \"?\"]\n\n1. e4 *\n\n\
               [Event \"y\"]\n  [Variant \"Crazyhouse\"]\n\n1. e4 *\n\n[Event \"z\"]\n\n1. d4 *\n";
    let results: Vec<_> = PgnReader::new(pgn.as_bytes()).games().collect();
    assert_eq!(results.len(), 3);
    let fen = results[0].as_ref().unwrap_err();
    assert_eq!((fen.game, fen.line, fen.column), (1, 2, 1), "{fen}");
    assert!(matches!(fen.kind, PgnErrorKind::Fen { .. }), "{fen}");
    let variant = results[1].as_ref().unwrap_err();
    assert_eq!((variant.game, variant.line, variant.column), (2, 8, 3), "{variant}");
    assert!(matches!(&variant.kind, PgnErrorKind::UnsupportedVariant(v) if v == "Crazyhouse"), "{variant}");
    assert!(results[2].is_ok());
}
