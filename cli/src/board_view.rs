//! The board as text lines: Unicode or ASCII pieces, optional ANSI colours, coordinates, the
//! last move and a king in check highlighted.
//!
//! Each square is three columns wide (` N `): wide enough to read in any font, and it leaves
//! room to mark squares without colour (`[N]` last move, `(K)` king in check), so that the
//! highlights survive `NO_COLOR`, pipes and monochrome terminals.

use tempo_core::{Color, File, Move, Piece, Position, Rank, Square};
use tempo_notation::{piece_symbol, DiagramStyle};

/// How to draw the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardStyle {
    /// Unicode chess symbols (else FEN letters).
    pub unicode: bool,
    /// ANSI colours (square backgrounds, piece foregrounds).
    pub colour: bool,
}

/// Squares to mark.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Highlights {
    /// Origin and destination of the last move.
    pub last_move: Option<(Square, Square)>,
    /// The king in check.
    pub check: Option<Square>,
}

impl Highlights {
    /// The highlights after `last` was played and led to `pos`.
    pub fn of(pos: &Position, last: Option<Move>) -> Highlights {
        let last_move = last.filter(|m| !m.is_null()).map(|m| {
            // Castling is stored king-takes-rook; people see the king land on its square.
            let to = if m.is_castle() { m.castling_king_to() } else { m.to() };
            (m.from(), to)
        });
        let check = pos.is_check().then(|| pos.king_of(pos.turn()));
        Highlights { last_move, check }
    }
}

/// Width of a rendered board line in terminal columns.
pub const BOARD_WIDTH: usize = 2 + 8 * 3;

// 256-colour palette: warm wood squares, a yellow tint for the last move, red for check.
const LIGHT: u8 = 180;
const DARK: u8 = 137;
const LIGHT_MOVED: u8 = 186;
const DARK_MOVED: u8 = 143;
const CHECK: u8 = 167;
const WHITE_PIECE: u8 = 231;
const BLACK_PIECE: u8 = 16;
const RESET: &str = "\x1b[0m";

fn glyph(piece: Piece, style: BoardStyle) -> char {
    if !style.unicode {
        return piece.char();
    }
    // With colours the piece colour comes from the foreground, and the filled glyphs read far
    // better on a coloured square than the hollow "white" ones.
    let shown = if style.colour { Color::Black } else { piece.color };
    piece_symbol(shown, piece.role, DiagramStyle::Unicode)
}

fn empty_glyph(style: BoardStyle) -> char {
    match (style.colour, style.unicode) {
        (true, _) => ' ',
        (false, true) => '·',
        (false, false) => '.',
    }
}

fn cell(pos: &Position, sq: Square, style: BoardStyle, hl: &Highlights) -> String {
    let piece = pos.piece_at(sq);
    let symbol = piece.map_or(empty_glyph(style), |p| glyph(p, style));
    let moved = hl.last_move.is_some_and(|(from, to)| sq == from || sq == to);
    let checked = hl.check == Some(sq);
    if style.colour {
        let bg = match (checked, moved, sq.is_light()) {
            (true, _, _) => CHECK,
            (false, true, true) => LIGHT_MOVED,
            (false, true, false) => DARK_MOVED,
            (false, false, true) => LIGHT,
            (false, false, false) => DARK,
        };
        let fg = match piece.map(|p| p.color) {
            Some(Color::Black) => BLACK_PIECE,
            _ => WHITE_PIECE,
        };
        let bold = if piece.is_some_and(|p| p.color == Color::White) { "\x1b[1m" } else { "" };
        format!("\x1b[48;5;{bg}m\x1b[38;5;{fg}m{bold} {symbol} {RESET}")
    } else if checked {
        format!("({symbol})")
    } else if moved {
        format!("[{symbol}]")
    } else {
        format!(" {symbol} ")
    }
}

/// The board as 9 lines (ranks 8 to 1, or 1 to 8 when `flipped`, then the file letters),
/// each [`BOARD_WIDTH`] columns wide on screen. Colour codes, if any, are reset at the end of
/// every square, so that the lines can be placed beside other text.
pub fn render_board(pos: &Position, style: BoardStyle, flipped: bool, hl: &Highlights) -> Vec<String> {
    let mut ranks: Vec<Rank> = Rank::ALL.into_iter().rev().collect();
    let mut files: Vec<File> = File::ALL.to_vec();
    if flipped {
        ranks.reverse();
        files.reverse();
    }
    let mut lines = Vec::with_capacity(9);
    for &rank in &ranks {
        let mut line = format!("{} ", rank.char());
        for &file in &files {
            line.push_str(&cell(pos, Square::from_coords(file, rank), style, hl));
        }
        lines.push(line);
    }
    let mut letters = String::from("  ");
    for &file in &files {
        letters.push(' ');
        letters.push(file.char());
        letters.push(' ');
    }
    lines.push(letters);
    lines
}

/// Display width of a line: counts characters, skipping ANSI escape sequences. Every glyph
/// the board uses is one column wide.
pub fn visible_width(line: &str) -> usize {
    let mut width = 0;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            // CSI: ESC [ parameters final-byte (0x40..=0x7e).
            for c in chars.by_ref() {
                if ('@'..='~').contains(&c) && c != '[' {
                    break;
                }
            }
        } else {
            width += 1;
        }
    }
    width
}

#[cfg(test)]
mod tests {
    use super::*;
    use tempo_notation::parse_san;

    /// After 1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7+: the last move and the king in check.
    fn scholar() -> (Position, Highlights) {
        let mut pos = Position::startpos();
        let mut last = None;
        for san in ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"] {
            let m = parse_san(&pos, san).unwrap();
            pos.play(m).unwrap();
            last = Some(m);
        }
        let hl = Highlights::of(&pos, last);
        (pos, hl)
    }

    fn show(style: BoardStyle, flipped: bool) -> String {
        let (pos, hl) = scholar();
        let lines = render_board(&pos, style, flipped, &hl);
        for line in &lines {
            assert_eq!(visible_width(line), BOARD_WIDTH, "{line:?}");
        }
        // Escape codes made visible so that the snapshot shows the colours chosen.
        lines.join("\n").replace('\x1b', "\\e")
    }

    #[test]
    fn ascii_plain() {
        insta::assert_snapshot!(show(BoardStyle { unicode: false, colour: false }, false));
    }

    #[test]
    fn unicode_plain() {
        insta::assert_snapshot!(show(BoardStyle { unicode: true, colour: false }, false));
    }

    #[test]
    fn ascii_colour() {
        insta::assert_snapshot!(show(BoardStyle { unicode: false, colour: true }, false));
    }

    #[test]
    fn unicode_colour_flipped() {
        insta::assert_snapshot!(show(BoardStyle { unicode: true, colour: true }, true));
    }

    #[test]
    fn castling_highlights_the_king_destination() {
        let pos: Position = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1".parse().unwrap();
        let m = parse_san(&pos, "O-O").unwrap();
        let mut after = pos;
        after.play(m).unwrap();
        let hl = Highlights::of(&after, Some(m));
        assert_eq!(hl.last_move, Some((Square::E1, Square::G1)));
        assert_eq!(hl.check, None);
    }

    #[test]
    fn width_skips_escape_codes() {
        assert_eq!(visible_width("\x1b[48;5;180m\x1b[38;5;16m ♚ \x1b[0m"), 3);
    }
}
