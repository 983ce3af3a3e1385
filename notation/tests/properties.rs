//! Properties: SAN and PGN round-trip over random games; a typed move is refused with a
//! reason exactly when it cannot be played; no reader panics on any bytes.

use proptest::prelude::*;
use tempo_core::{CastlingMode, Move, Position};
use tempo_notation::{
    parse_move, parse_san, parse_uci_move, pgn_string, refusal, san, uci_move, Epd, PgnGame, PgnNode, PgnReader,
    PgnResult, SanError, SanMove,
};

const STARTS: [(&str, CastlingMode); 5] = [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", CastlingMode::Standard),
    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", CastlingMode::Standard),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", CastlingMode::Standard),
    ("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", CastlingMode::Chess960),
    ("n1q1kb1r/2P1pppp/8/8/8/8/PP1PPP1P/RNBQKBNR w KQk - 0 1", CastlingMode::Chess960),
];

/// Plays `choices` as indices into the legal move lists, from one of the start positions.
fn random_line(start: usize, choices: &[usize]) -> (Position, Vec<Move>) {
    let (fen, mode) = STARTS[start % STARTS.len()];
    let start = Position::from_fen(fen, mode).unwrap();
    let mut pos = start;
    let mut moves = Vec::new();
    for &c in choices {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[c % legal.len()];
        moves.push(m);
        pos.play_unchecked(m);
    }
    (start, moves)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn san_and_uci_round_trip(start in 0usize..5, choices in prop::collection::vec(any::<usize>(), 0..80)) {
        let (mut pos, moves) = random_line(start, &choices);
        for m in moves {
            for &any in pos.legal_moves().iter() {
                let text = san(&pos, any);
                prop_assert_eq!(parse_san(&pos, &text), Ok(any), "{} in {}", text, pos);
                prop_assert_eq!(parse_uci_move(&pos, &uci_move(&pos, any)), Ok(any));
            }
            pos.play_unchecked(m);
        }
    }

    /// Over random positions: a move the reader takes is never refused, and a move named by
    /// its squares whose starting square holds a piece is, when it cannot be played, always
    /// refused with a reason.
    #[test]
    fn typed_moves_are_refused_with_a_reason_exactly_when_illegal(
        start in 0usize..5,
        choices in prop::collection::vec(any::<usize>(), 0..60),
        tries in prop::collection::vec((0u32..64, 0u32..64, 0usize..5), 8),
    ) {
        let (mut pos, moves) = random_line(start, &choices);
        for m in moves {
            for &(from, to, letter) in &tries {
                let from = tempo_core::Square::new(from).unwrap();
                let to = tempo_core::Square::new(to).unwrap();
                for text in [format!("{from}{to}"), format!("{}{to}", ["N", "B", "R", "Q", "K"][letter])] {
                    let read = parse_move(&pos, &text);
                    let why = refusal(&pos, &text);
                    prop_assert!(read.is_err() || why.is_none(), "{} in {}: read and refused ({:?})", text, pos, why);
                    let names_a_piece = text.len() == 4 && pos.piece_at(from).is_some();
                    if names_a_piece && matches!(read, Err(SanError::NoSuchMove(_) | SanError::Illegal(_))) {
                        prop_assert!(why.is_some(), "{} in {}: no reason", text, pos);
                    }
                }
            }
            pos.play_unchecked(m);
        }
    }

    #[test]
    fn pgn_round_trip(
        start in 0usize..5,
        choices in prop::collection::vec(any::<usize>(), 0..60),
        extras in prop::collection::vec((any::<u8>(), 0u8..4, "[ -|~a-z]{0,30}|[ a]{0,90}"), 60),
        branch in prop::collection::vec(any::<usize>(), 0..8),
    ) {
        let (start_pos, moves) = random_line(start, &choices);
        let mut nodes: Vec<PgnNode> = Vec::new();
        let mut pos = start_pos;
        for (i, &m) in moves.iter().enumerate() {
            let mut node = PgnNode::new(m);
            let (nag, kind, comment) = &extras[i];
            match kind {
                1 => node.nags.push(*nag),
                // The reader trims a comment; runs of spaces inside it survive.
                2 if !comment.trim().is_empty() => node.comments.push(comment.trim().to_owned()),
                3 => {
                    // A variation: another legal move from the same position, then one reply.
                    let legal = pos.legal_moves();
                    let alt = legal[branch.first().copied().unwrap_or(0) % legal.len()];
                    let mut after = pos;
                    after.play_unchecked(alt);
                    let mut line = vec![PgnNode::new(alt)];
                    let replies = after.legal_moves();
                    if !replies.is_empty() {
                        line.push(PgnNode::new(replies[0]));
                    }
                    node.variations.push(line);
                }
                _ => {}
            }
            nodes.push(node);
            pos.play_unchecked(m);
        }
        let mut tags = vec![
            ("Event".to_owned(), "Random \"quoted\" \\ event".to_owned()),
            ("Site".to_owned(), "?".to_owned()),
            ("Date".to_owned(), "????.??.??".to_owned()),
            ("Round".to_owned(), "-".to_owned()),
            ("White".to_owned(), "A".to_owned()),
            ("Black".to_owned(), "B".to_owned()),
            ("Result".to_owned(), "*".to_owned()),
        ];
        if start_pos != Position::startpos() {
            tags.push(("SetUp".to_owned(), "1".to_owned()));
            if start_pos.castling_mode() == CastlingMode::Chess960 {
                tags.push(("Variant".to_owned(), "Chess960".to_owned()));
            }
            tags.push(("FEN".to_owned(), start_pos.fen()));
        }
        let game = PgnGame { tags, start: start_pos, comments: Vec::new(), moves: nodes, result: Some(PgnResult::Ongoing) };
        let text = pgn_string(&game);
        let again: Vec<_> = PgnReader::new(text.as_bytes()).games().collect();
        prop_assert_eq!(again.len(), 1);
        let again = again.into_iter().next().unwrap();
        prop_assert!(again.is_ok(), "{:?}\n{}", again, text);
        prop_assert_eq!(again.unwrap(), game, "{}", text);
        for line in text.lines() {
            prop_assert!(line.starts_with('[') || line.chars().count() <= 80, "{}", line);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn readers_never_panic_on_bytes(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = Position::from_fen(&text, CastlingMode::Standard);
        let _ = Position::from_fen(&text, CastlingMode::Chess960);
        let _ = SanMove::parse(&text);
        let _ = parse_san(&Position::startpos(), &text);
        let _ = refusal(&Position::startpos(), &text);
        let _ = Epd::parse(&text);
        for game in PgnReader::new(&bytes[..]).games().take(1000) {
            let _ = game.map(|g| pgn_string(&g));
        }
    }

    #[test]
    fn readers_never_panic_on_chess_like_text(text in "[\\[\\]{}();$%!?*+#=\"\\\\ \\n\\r.0-9a-hKQRBNOxPZ/-]{0,200}") {
        let _ = Position::from_fen(&text, CastlingMode::Standard);
        let _ = Epd::parse(&text);
        let kiwipete = Position::from_fen(STARTS[1].0, CastlingMode::Standard).unwrap();
        for token in text.split_whitespace() {
            let _ = parse_san(&kiwipete, token);
        }
        for game in PgnReader::new(text.as_bytes()).games().take(1000) {
            let _ = game.map(|g| pgn_string(&g));
        }
        let with_tags = format!("[Event \"x\"]\n[FEN \"{}\"]\n\n{text}", STARTS[1].0);
        for game in PgnReader::new(with_tags.as_bytes()).games().take(1000) {
            let _ = game.map(|g| pgn_string(&g));
        }
    }
}

/// The annotations a PGN may write after a move: suffixes glued to it or standing alone,
/// and `$n` glyphs, with the suffixes' own numbers among them so that repeats occur.
const ANNOTATIONS: [&str; 13] = ["!", "?", "!!", "??", "!?", "?!", "$1", "$2", "$3", "$4", "$6", "$0", "$255"];

/// Movetext of `moves` with the chosen annotations after each move: `(index, glued)` picks
/// one and, for the first suffix after a move, writes it against the move (`e4!`) or apart
/// from it (`e4 !`); a `$n` is always apart.
fn annotated_movetext(start: &Position, moves: &[Move], annotations: &[Vec<(usize, bool)>]) -> String {
    let mut pos = *start;
    let mut text = String::new();
    for (i, &m) in moves.iter().enumerate() {
        if pos.turn() == tempo_core::Color::White || i == 0 {
            let dots = if pos.turn() == tempo_core::Color::White { "." } else { "..." };
            text.push_str(&format!("{}{dots} ", pos.fullmove_number()));
        }
        text.push_str(&san(&pos, m));
        for (k, &(which, glued)) in annotations.get(i).map_or(&[][..], Vec::as_slice).iter().enumerate() {
            let annotation = ANNOTATIONS[which % ANNOTATIONS.len()];
            // Only the first may touch the move: two suffixes together are another token.
            if !(k == 0 && glued && !annotation.starts_with('$')) {
                text.push(' ');
            }
            text.push_str(annotation);
        }
        text.push(' ');
        pos.play_unchecked(m);
    }
    text.push('*');
    text
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// A move's NAGs are a set: however the file repeats one (`e4! $1`, `e4 $4 ??`), read,
    /// write, read gives the same moves and NAGs, the second write the same text, and no
    /// move holds a NAG twice.
    #[test]
    fn nags_read_write_read_is_stable(
        start in 0usize..5,
        choices in prop::collection::vec(any::<usize>(), 1..30),
        annotations in prop::collection::vec(prop::collection::vec((any::<usize>(), any::<bool>()), 0..4), 30),
    ) {
        let (start_pos, moves) = random_line(start, &choices);
        let tags = if start_pos == Position::startpos() {
            String::new()
        } else {
            format!("[SetUp \"1\"]\n[FEN \"{}\"]\n\n", start_pos.fen())
        };
        let text = tags + &annotated_movetext(&start_pos, &moves, &annotations);
        let read = |text: &str| PgnReader::new(text.as_bytes()).games().next().unwrap();
        let first = read(&text);
        prop_assert!(first.is_ok(), "{:?}\n{}", first, text);
        let first = first.unwrap();
        for node in &first.moves {
            let mut seen = node.nags.clone();
            seen.sort_unstable();
            seen.dedup();
            prop_assert_eq!(seen.len(), node.nags.len(), "{:?} in {}", node.nags, text);
        }
        let written = pgn_string(&first);
        let second = read(&written);
        prop_assert!(second.is_ok(), "{:?}\n{}", second, written);
        let second = second.unwrap();
        // The writer adds the Seven Tag Roster; the moves and their NAGs are the file's.
        prop_assert_eq!(&second.moves, &first.moves, "{}\n{}", text, written);
        prop_assert_eq!(pgn_string(&second), written);
    }
}

#[test]
fn suffix_annotations_and_their_glyphs_are_one_nag() {
    let game = PgnReader::new(&b"1. e4! $1 e5?? $4 2. Nf3 !? $5 $5 Nc6 $2 ? $1 *"[..]).games().next().unwrap().unwrap();
    let nags: Vec<&[u8]> = game.moves.iter().map(|n| n.nags.as_slice()).collect();
    assert_eq!(nags, [&[1][..], &[4], &[5], &[2, 1]]);
    assert!(pgn_string(&game).contains("1. e4 $1 e5 $4 2. Nf3 $5 Nc6 $2 $1 *"), "{}", pgn_string(&game));
    // A node built by hand with a repeat is written with each NAG once.
    let mut by_hand = game.clone();
    by_hand.moves[0].nags = vec![1, 1, 3, 1];
    assert!(pgn_string(&by_hand).contains("1. e4 $1 $3 e5"), "{}", pgn_string(&by_hand));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Unix (LF), Windows (CR LF) and old Mac OS (CR) line ends read the same: the same
    /// games, and broken games reported at the same line and column.
    #[test]
    fn line_end_conventions_read_the_same(
        body in "[\\[\\]{}();$%!?*+#=\"\\\\ \\n.0-9a-hKQRBNOxPZ/-]{0,200}",
        tagged in any::<bool>(),
    ) {
        let text = if tagged { format!("[Event \"x\"]\n[FEN \"{}\"]\n\n{body}", STARTS[1].0) } else { body };
        let read = |ending: &str| -> Vec<_> {
            PgnReader::new(text.replace('\n', ending).as_bytes()).games().take(1000).collect()
        };
        let unix = read("\n");
        prop_assert_eq!(&read("\r\n"), &unix, "{:?}", text);
        prop_assert_eq!(&read("\r"), &unix, "{:?}", text);
    }
}
