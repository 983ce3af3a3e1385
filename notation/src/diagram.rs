//! Board diagrams as plain text (ASCII or Unicode chess symbols), without colours: colouring
//! belongs to the terminal front end.

use std::fmt::Write;
use tempo_core::{Color, File, Piece, Position, Rank, Role, Square};

/// The character set of a diagram.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DiagramStyle {
    /// FEN letters (`K` white king, `k` black king), `.` for an empty square.
    #[default]
    Ascii,
    /// Unicode chess symbols (`♔` white king, `♚` black king), `·` for an empty square.
    Unicode,
}

fn symbol(piece: Piece, style: DiagramStyle) -> char {
    match style {
        DiagramStyle::Ascii => piece.char(),
        DiagramStyle::Unicode => {
            let white = ['♙', '♘', '♗', '♖', '♕', '♔'];
            let black = ['♟', '♞', '♝', '♜', '♛', '♚'];
            let set = if piece.color == Color::White { white } else { black };
            set[piece.role.index()]
        }
    }
}

/// A diagram of `pos`: ranks with their numbers, files lettered below, and a line saying who
/// is to move. `flipped` shows the board from Black's side.
///
/// ```
/// use tempo_core::Position;
/// use tempo_notation::{diagram, DiagramStyle};
///
/// let text = diagram(&Position::startpos(), DiagramStyle::Ascii, false);
/// assert!(text.starts_with("8 r n b q k b n r\n"));
/// ```
pub fn diagram(pos: &Position, style: DiagramStyle, flipped: bool) -> String {
    let empty = match style {
        DiagramStyle::Ascii => '.',
        DiagramStyle::Unicode => '·',
    };
    let mut ranks: Vec<Rank> = Rank::ALL.into_iter().rev().collect();
    let mut files: Vec<File> = File::ALL.to_vec();
    if flipped {
        ranks.reverse();
        files.reverse();
    }
    let mut out = String::with_capacity(200);
    for &rank in &ranks {
        out.push(rank.char());
        for &file in &files {
            out.push(' ');
            out.push(pos.piece_at(Square::from_coords(file, rank)).map_or(empty, |p| symbol(p, style)));
        }
        out.push('\n');
    }
    out.push(' ');
    for &file in &files {
        out.push(' ');
        out.push(file.char());
    }
    out.push('\n');
    let _ = writeln!(out, "{} to move", if pos.turn() == Color::White { "White" } else { "Black" });
    out
}

/// The symbol of a piece in `style` (for front ends that draw their own board).
pub fn piece_symbol(color: Color, role: Role, style: DiagramStyle) -> char {
    symbol(Piece::new(color, role), style)
}
