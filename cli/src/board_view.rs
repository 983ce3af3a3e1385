//! The board as text lines: Unicode or ASCII pieces, optional ANSI colours, coordinates, the
//! last move, a hint and a king in check highlighted.
//!
//! Each square is three columns wide (` N `): wide enough to read in any font, and it leaves
//! room to mark squares without colour (`[N]` last move, `<N>` hint, `(K)` king in check), so
//! that the highlights survive `NO_COLOR`, pipes and monochrome terminals.
//!
//! Colours come from one [`PALETTE`], written as 24-bit colour where the terminal says it
//! takes it (`COLORTERM`) and as the identical entry of the xterm 256-colour cube elsewhere.
//! Both sides' pieces are drawn in the same dark ink, White's as outline glyphs and Black's
//! filled, as printed diagrams do: white ink on a light square cannot be read (about 2:1),
//! and no pair of a light and a dark ink reaches 4.5:1 on both squares of a board whose
//! squares differ in lightness, so the glyph's shape, not its colour, tells the sides apart.
//! The `palette_contrast` test holds every ink-on-square pair to WCAG's 4.5:1.

use tempo_core::{Color, File, Move, Piece, Position, Rank, Square};
use tempo_notation::{piece_symbol, DiagramStyle};

/// How a terminal takes colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Colours {
    /// None at all (`NO_COLOR`, `--no-color`, a pipe).
    Off,
    /// The xterm 256-colour palette.
    Indexed,
    /// 24-bit colour (`COLORTERM=truecolor`).
    TrueColour,
}

impl Colours {
    /// Whether any colour is drawn.
    pub fn is_on(self) -> bool {
        self != Colours::Off
    }

    /// These colours, or none when `no_color` (the `--no-color` flag) is set.
    pub fn unless(self, no_color: bool) -> Colours {
        if no_color {
            Colours::Off
        } else {
            self
        }
    }
}

/// How to draw the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardStyle {
    /// Unicode chess symbols (else FEN letters).
    pub unicode: bool,
    /// ANSI colours (square backgrounds, piece ink).
    pub colour: Colours,
}

/// Squares to mark.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Highlights {
    /// Origin and destination of the last move.
    pub last_move: Option<(Square, Square)>,
    /// Origin and destination of the move the engine suggested (`hint`).
    pub hint: Option<(Square, Square)>,
    /// The king in check.
    pub check: Option<Square>,
}

/// The squares people see a move use: castling is stored king-takes-rook, but the king lands
/// on its own square.
fn shown_squares(m: Move) -> (Square, Square) {
    let to = if m.is_castle() { m.castling_king_to() } else { m.to() };
    (m.from(), to)
}

impl Highlights {
    /// The highlights after `last` was played and led to `pos`.
    pub fn of(pos: &Position, last: Option<Move>) -> Highlights {
        let last_move = last.filter(|m| !m.is_null()).map(shown_squares);
        let check = pos.is_check().then(|| pos.king_of(pos.turn()));
        Highlights { last_move, hint: None, check }
    }

    /// These highlights with `hint` (a move of the position shown) marked as well.
    pub fn with_hint(self, hint: Option<Move>) -> Highlights {
        Highlights { hint: hint.filter(|m| !m.is_null()).map(shown_squares), ..self }
    }
}

/// Width of a rendered board line in terminal columns.
pub const BOARD_WIDTH: usize = 2 + 8 * 3;

/// A colour as its red, green and blue components.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rgb(pub u8, pub u8, pub u8);

/// The intensities of the xterm 256-colour cube (colours 16 to 231), per component.
const CUBE_LEVELS: [u8; 6] = [0, 95, 135, 175, 215, 255];

impl Rgb {
    /// The xterm 256-colour cube entry nearest to this colour; the palette's colours all lie on
    /// the cube (a test checks it), so both colour modes draw the same colour.
    pub fn xterm_index(self) -> u8 {
        let level = |c: u8| (0..CUBE_LEVELS.len()).min_by_key(|&i| CUBE_LEVELS[i].abs_diff(c)).unwrap_or(0) as u8;
        16 + 36 * level(self.0) + 6 * level(self.1) + level(self.2)
    }

    /// The escape sequence selecting this colour as the background (`background`) or the
    /// foreground.
    fn escape(self, colours: Colours, background: bool) -> String {
        let layer = if background { 48 } else { 38 };
        match colours {
            Colours::Off => String::new(),
            Colours::Indexed => format!("\x1b[{layer};5;{}m", self.xterm_index()),
            Colours::TrueColour => format!("\x1b[{layer};2;{};{};{}m", self.0, self.1, self.2),
        }
    }
}

/// Every colour the board uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Palette {
    /// Warm wood squares.
    pub light: Rgb,
    pub dark: Rgb,
    /// The last move's squares: a yellow tint.
    pub light_moved: Rgb,
    pub dark_moved: Rgb,
    /// The hinted move's squares: a blue tint.
    pub light_hint: Rgb,
    pub dark_hint: Rgb,
    /// The king in check.
    pub check: Rgb,
    /// The ink of both sides' pieces (see the module documentation).
    pub white_piece: Rgb,
    pub black_piece: Rgb,
}

/// The board's colours, the ones drawn in both colour modes.
pub const PALETTE: Palette = Palette {
    light: Rgb(0xd7, 0xaf, 0x87),
    dark: Rgb(0xaf, 0x87, 0x5f),
    light_moved: Rgb(0xd7, 0xd7, 0x87),
    dark_moved: Rgb(0xaf, 0xaf, 0x5f),
    light_hint: Rgb(0xaf, 0xd7, 0xff),
    dark_hint: Rgb(0x87, 0xaf, 0xd7),
    check: Rgb(0xd7, 0x5f, 0x5f),
    white_piece: Rgb(0x00, 0x00, 0x00),
    black_piece: Rgb(0x00, 0x00, 0x00),
};

const BOLD: &str = "\x1b[1m";
const RESET: &str = "\x1b[0m";

fn glyph(piece: Piece, style: BoardStyle) -> char {
    if style.unicode {
        piece_symbol(piece.color, piece.role, DiagramStyle::Unicode)
    } else {
        piece.char()
    }
}

fn empty_glyph(style: BoardStyle) -> char {
    match (style.colour.is_on(), style.unicode) {
        (true, _) => ' ',
        (false, true) => '·',
        (false, false) => '.',
    }
}

/// What marks a square: the most urgent of check, the hint and the last move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mark {
    None,
    LastMove,
    Hint,
    Check,
}

fn mark(sq: Square, hl: &Highlights) -> Mark {
    let on = |squares: Option<(Square, Square)>| squares.is_some_and(|(from, to)| sq == from || sq == to);
    if hl.check == Some(sq) {
        Mark::Check
    } else if on(hl.hint) {
        Mark::Hint
    } else if on(hl.last_move) {
        Mark::LastMove
    } else {
        Mark::None
    }
}

fn cell(pos: &Position, sq: Square, style: BoardStyle, hl: &Highlights) -> String {
    let piece = pos.piece_at(sq);
    let symbol = piece.map_or(empty_glyph(style), |p| glyph(p, style));
    let mark = mark(sq, hl);
    if style.colour.is_on() {
        let p = &PALETTE;
        let light = sq.is_light();
        let bg = match mark {
            Mark::Check => p.check,
            Mark::Hint if light => p.light_hint,
            Mark::Hint => p.dark_hint,
            Mark::LastMove if light => p.light_moved,
            Mark::LastMove => p.dark_moved,
            Mark::None if light => p.light,
            Mark::None => p.dark,
        };
        let ink = match piece.map(|p| p.color) {
            Some(Color::White) => p.white_piece,
            _ => p.black_piece,
        };
        // Bold tells White's letters from Black's in ASCII beyond their case.
        let bold = if piece.is_some_and(|p| p.color == Color::White) && !style.unicode { BOLD } else { "" };
        let (bg, fg) = (bg.escape(style.colour, true), ink.escape(style.colour, false));
        format!("{bg}{fg}{bold} {symbol} {RESET}")
    } else {
        match mark {
            Mark::Check => format!("({symbol})"),
            Mark::Hint => format!("<{symbol}>"),
            Mark::LastMove => format!("[{symbol}]"),
            Mark::None => format!(" {symbol} "),
        }
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

    /// WCAG 2 contrast: what the palette is held to.
    impl Rgb {
        /// WCAG 2 relative luminance, 0 (black) to 1 (white).
        pub fn luminance(self) -> f64 {
            let linear = |c: u8| {
                let c = f64::from(c) / 255.0;
                if c <= 0.039_28 {
                    c / 12.92
                } else {
                    ((c + 0.055) / 1.055).powf(2.4)
                }
            };
            0.2126 * linear(self.0) + 0.7152 * linear(self.1) + 0.0722 * linear(self.2)
        }

        /// WCAG 2 contrast ratio between two colours, 1 to 21.
        pub fn contrast(self, other: Rgb) -> f64 {
            let (a, b) = (self.luminance(), other.luminance());
            (a.max(b) + 0.05) / (a.min(b) + 0.05)
        }
    }

    impl Palette {
        /// Every square colour, named, for checks over all of them.
        fn squares(&self) -> [(&'static str, Rgb); 7] {
            [
                ("light", self.light),
                ("dark", self.dark),
                ("light, last move", self.light_moved),
                ("dark, last move", self.dark_moved),
                ("light, hint", self.light_hint),
                ("dark, hint", self.dark_hint),
                ("check", self.check),
            ]
        }
    }

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
        insta::assert_snapshot!(show(BoardStyle { unicode: false, colour: Colours::Off }, false));
    }

    #[test]
    fn unicode_plain() {
        insta::assert_snapshot!(show(BoardStyle { unicode: true, colour: Colours::Off }, false));
    }

    #[test]
    fn ascii_colour() {
        insta::assert_snapshot!(show(BoardStyle { unicode: false, colour: Colours::Indexed }, false));
    }

    #[test]
    fn unicode_colour_flipped() {
        insta::assert_snapshot!(show(BoardStyle { unicode: true, colour: Colours::Indexed }, true));
    }

    #[test]
    fn unicode_true_colour() {
        insta::assert_snapshot!(show(BoardStyle { unicode: true, colour: Colours::TrueColour }, false));
    }

    /// WCAG contrast of every piece ink on every square colour the board draws, from the
    /// palette the renderer uses; the plain light and dark squares are the four ratios the
    /// issue asks for.
    #[test]
    fn palette_contrast() {
        let p = PALETTE;
        let ratio = |ink: Rgb, square: Rgb| (ink.contrast(square) * 100.0).round() / 100.0;
        assert_eq!(
            [ratio(p.white_piece, p.light), ratio(p.white_piece, p.dark)],
            [10.37, 6.45],
            "White's pieces on light and dark squares"
        );
        assert_eq!(
            [ratio(p.black_piece, p.light), ratio(p.black_piece, p.dark)],
            [10.37, 6.45],
            "Black's pieces on light and dark squares"
        );
        for (name, square) in p.squares() {
            for (side, ink) in [("White", p.white_piece), ("Black", p.black_piece)] {
                let r = ink.contrast(square);
                assert!(r >= 4.5, "{side}'s pieces on the {name} square: {r:.2}:1");
            }
        }
        // The squares stay a checkerboard: light and dark differ visibly.
        assert!(p.light.luminance() > p.dark.luminance() * 1.5);
        // The old white-on-wood ink, for the record: the reason for the change.
        assert!(Rgb(0xff, 0xff, 0xff).contrast(p.light) < 2.1);
    }

    #[test]
    fn contrast_formula() {
        assert_eq!(Rgb(0, 0, 0).contrast(Rgb(255, 255, 255)), 21.0);
        assert_eq!(Rgb(0x77, 0x77, 0x77).contrast(Rgb(0x77, 0x77, 0x77)), 1.0);
        // WebAIM's checker: #767676 on white is 4.54:1.
        assert_eq!((Rgb(0x76, 0x76, 0x76).contrast(Rgb(255, 255, 255)) * 100.0).round(), 454.0);
    }

    /// 256-colour terminals draw the very colours true-colour ones do.
    #[test]
    fn palette_lies_on_the_xterm_cube() {
        let p = PALETTE;
        let all = p.squares().into_iter().map(|(_, c)| c).chain([p.white_piece, p.black_piece]);
        for colour in all {
            let i = colour.xterm_index() - 16;
            let back = Rgb(
                CUBE_LEVELS[usize::from(i / 36)],
                CUBE_LEVELS[usize::from(i / 6 % 6)],
                CUBE_LEVELS[usize::from(i % 6)],
            );
            assert_eq!(back, colour);
        }
        assert_eq!(p.light.xterm_index(), 180);
        assert_eq!(p.dark.xterm_index(), 137);
        assert_eq!(p.black_piece.xterm_index(), 16);
    }

    #[test]
    fn hint_marks_its_squares() {
        let pos = Position::startpos();
        let m = parse_san(&pos, "Nf3").unwrap();
        let hl = Highlights::of(&pos, None).with_hint(Some(m));
        let plain = render_board(&pos, BoardStyle { unicode: false, colour: Colours::Off }, false, &hl);
        assert_eq!(plain[5], "3  .  .  .  .  . <.> .  . ");
        assert_eq!(plain[7], "1  R  N  B  Q  K  B <N> R ");
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
