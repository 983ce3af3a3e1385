//! Snapshots of rendered diagrams and SAN lists.

use tempo_core::CastlingMode;
use tempo_core::Position;
use tempo_notation::{diagram, parse_san, san_line, DiagramStyle};

#[test]
fn diagrams() {
    let kiwipete = Position::from_fen(
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        CastlingMode::Standard,
    )
    .unwrap();
    insta::assert_snapshot!("ascii", diagram(&kiwipete, DiagramStyle::Ascii, false));
    insta::assert_snapshot!("unicode", diagram(&kiwipete, DiagramStyle::Unicode, false));
    insta::assert_snapshot!("flipped", diagram(&kiwipete, DiagramStyle::Ascii, true));
}

#[test]
fn san_list() {
    let start = Position::startpos();
    let mut pos = start;
    let mut moves = Vec::new();
    for text in
        "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6 c1e3 e7e5 d4b3 c8e6 f2f3 f8e7 d1d2 e8g8 e1c1".split(' ')
    {
        let m = parse_san(&pos, text).unwrap();
        moves.push(m);
        pos.play_unchecked(m);
    }
    insta::assert_snapshot!("najdorf", san_line(&start, &moves).join(" "));
}
