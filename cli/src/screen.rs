//! The game screen: title, board with the players' clocks and the move list beside it, then
//! messages. Composition is pure (tested with snapshots); [`Terminal`] puts it on screen.

use crate::board_view::{render_board, visible_width, BoardStyle, Colours, Highlights, BOARD_WIDTH};
use crate::clock_view::format_time;
use std::io::Write;
use std::time::Duration;
use tempo_core::{Color, Position, Role};
use tempo_notation::{piece_symbol, DiagramStyle};

use crate::material::Material;

/// One player as the screen shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerView {
    pub name: String,
    /// Time left; `None` without a clock.
    pub time: Option<Duration>,
}

/// Everything the screen shows.
#[derive(Clone, Debug)]
pub struct View<'a> {
    pub title: &'a str,
    pub position: &'a Position,
    pub highlights: Highlights,
    pub style: BoardStyle,
    /// Black at the bottom.
    pub flipped: bool,
    pub players: [&'a PlayerView; 2],
    /// The moves in SAN, with the number of the first move and whether Black made it.
    pub moves: &'a [String],
    pub first_move_number: u32,
    pub black_first: bool,
    /// Rows of the move list scrolled back from its end (0: the latest moves show).
    pub scroll: usize,
}

const PANEL_GAP: usize = 3;
/// Columns needed for the board with the panel beside it.
pub const FULL_WIDTH: usize = BOARD_WIDTH + PANEL_GAP + 38;
const NAME_WIDTH: usize = 18;
/// Board rows used for the move list: those between each player's line and material line.
pub const MOVE_ROWS: usize = 5;
/// Width of one column of the move list (`123. exd8=Q+ exd8=Q+`) and the gap after it.
const MOVE_COLUMN: usize = 22;
const MOVE_COLUMN_GAP: usize = 2;
/// Most columns of moves beside the board, however wide the terminal.
const MAX_MOVE_COLUMNS: usize = 3;

fn side_name(color: Color) -> &'static str {
    if color == Color::White {
        "White"
    } else {
        "Black"
    }
}

/// A piece as the board draws it (the king names the side's glyphs: outline or filled
/// symbols read either way round on dark and light terminals, so the screen says which).
fn piece_glyph(view: &View<'_>, color: Color, role: Role) -> char {
    let style = if view.style.unicode { DiagramStyle::Unicode } else { DiagramStyle::Ascii };
    piece_symbol(color, role, style)
}

fn player_line(view: &View<'_>, color: Color) -> String {
    let p = view.players[color.index()];
    let to_move = view.position.turn() == color;
    let marker = match (to_move, view.style.unicode) {
        (false, _) => ' ',
        (true, true) => '▶',
        (true, false) => '>',
    };
    let mut name: String = p.name.chars().take(NAME_WIDTH).collect();
    let pad = NAME_WIDTH - name.chars().count();
    name.extend(std::iter::repeat_n(' ', pad));
    let king = piece_glyph(view, color, Role::King);
    let time = p.time.map_or(String::new(), format_time);
    let line = format!("{marker} {} {king} {name} {time:>8}", side_name(color));
    if to_move && view.style.colour.is_on() {
        format!("\x1b[1m{line}\x1b[0m")
    } else {
        line
    }
}

/// What `color` is up in material: its extra pieces, most valuable first, and the balance
/// when positive (`♘♙♙ +5`); empty when it is up nothing.
fn material_line(view: &View<'_>, material: &Material, color: Color) -> String {
    let mut line: String = material.extra(color).into_iter().map(|role| piece_glyph(view, color, role)).collect();
    let balance = material.balance(color);
    if balance > 0 {
        line.push_str(&format!(" +{balance}"));
    }
    if line.is_empty() {
        line
    } else {
        // Under the name, past the marker, the side and its king.
        format!("{:10}{line}", "")
    }
}

/// The move list as rows `12. Nf3  Nc6`, all of them.
pub fn move_rows(moves: &[String], first: u32, black_first: bool) -> Vec<String> {
    let mut out = Vec::new();
    let mut number = first;
    let mut rest = moves;
    if black_first && !rest.is_empty() {
        out.push(format!("{number:>3}. {:<8} {}", "...", rest[0]));
        rest = &rest[1..];
        number += 1;
    }
    for pair in rest.chunks(2) {
        let black = pair.get(1).map_or("", String::as_str);
        out.push(format!("{number:>3}. {:<8} {black}", pair[0]).trim_end().to_owned());
        number += 1;
    }
    out
}

/// Columns of moves that fit beside the board in `width` terminal columns.
pub fn move_columns(width: usize) -> usize {
    let room = width.saturating_sub(BOARD_WIDTH + PANEL_GAP) + MOVE_COLUMN_GAP;
    (room / (MOVE_COLUMN + MOVE_COLUMN_GAP)).clamp(1, MAX_MOVE_COLUMNS)
}

/// The part of the move list shown: `rows` lines of `columns` columns, read down each column
/// as on a score sheet, ending `scroll` rows before the last (clamped to the list); each line
/// without trailing spaces.
pub fn move_page(all: &[String], rows: usize, columns: usize, scroll: usize) -> Vec<String> {
    let shown = rows * columns;
    let end = all.len().saturating_sub(scroll).max(shown.min(all.len()));
    let page = &all[end.saturating_sub(shown)..end];
    (0..rows)
        .map(|r| {
            let mut line = String::new();
            for c in 0..columns {
                if let Some(text) = page.get(c * rows + r) {
                    let col = c * (MOVE_COLUMN + MOVE_COLUMN_GAP);
                    let pad = col.saturating_sub(line.chars().count());
                    line.extend(std::iter::repeat_n(' ', pad));
                    line.push_str(text);
                }
            }
            line
        })
        .collect()
}

/// The furthest the move list can scroll back at `width` columns: a page short of its start.
pub fn max_scroll(rows_of_moves: usize, width: usize) -> usize {
    rows_of_moves.saturating_sub(MOVE_ROWS * move_columns(width))
}

/// The screen lines: title, a blank line, the board with the panel (top player and clock,
/// what they are up in material, the move list, the same for the bottom player), or without
/// room for the panel, players, clocks and material above and below the board.
pub fn compose(view: &View<'_>, width: usize) -> Vec<String> {
    let board = render_board(view.position, view.style, view.flipped, &view.highlights);
    let material = Material::of(view.position);
    let (top, bottom) = if view.flipped { (Color::White, Color::Black) } else { (Color::Black, Color::White) };
    let title: String = view.title.chars().take(width).collect();
    let mut lines = vec![title, String::new()];
    if width >= FULL_WIDTH {
        let all = move_rows(view.moves, view.first_move_number, view.black_first);
        let mut panel = vec![player_line(view, top), material_line(view, &material, top)];
        panel.extend(move_page(&all, MOVE_ROWS, move_columns(width), view.scroll));
        panel.push(material_line(view, &material, bottom));
        panel.push(player_line(view, bottom));
        for (row, text) in board.iter().zip(panel) {
            let pad = BOARD_WIDTH + PANEL_GAP - visible_width(row);
            let line = format!("{row}{}{text}", " ".repeat(pad));
            lines.push(line.trim_end().to_owned());
        }
    } else {
        let material_lines = |color: Color| {
            let line = material_line(view, &material, color);
            (!line.is_empty()).then_some(line)
        };
        lines.push(player_line(view, top).trim_end().to_owned());
        lines.extend(material_lines(top));
        lines.extend(board);
        lines.extend(material_lines(bottom));
        lines.push(player_line(view, bottom).trim_end().to_owned());
    }
    lines
}

/// The whole screen: [`compose`]'s lines for `width` columns, a blank line, the status lines
/// and the messages, wrapped to `wrap_width` columns.
pub fn screen_lines(
    view: &View<'_>,
    width: usize,
    wrap_width: usize,
    status: &[String],
    messages: &[String],
) -> Vec<String> {
    let mut lines = compose(view, width);
    lines.push(String::new());
    lines.extend(status.iter().cloned());
    for message in messages {
        lines.extend(wrap(message, wrap_width));
    }
    lines
}

/// Screen rows (from 0) of the two clock lines in the full layout, for ticking in place.
pub const CLOCK_ROWS: [usize; 2] = [2, 10];

/// Output to a real terminal: whole-screen redraws, and clocks updated in place while the
/// player types (the cursor is saved and restored around the update, so the line being typed,
/// which the terminal itself echoes, is not disturbed).
pub struct Terminal {
    pub width: usize,
    pub height: usize,
    /// Lines drawn by the last redraw; when they overflow the screen the clock rows have
    /// scrolled away and must not be updated in place.
    drawn: usize,
    /// The clock rows as last written, so that only a change is sent to the terminal.
    clock_rows: Vec<String>,
    /// The text after each line: a colour reset when lines may carry colours, nothing under
    /// `NO_COLOR` or `--no-color` (which promise no colour escapes at all).
    line_end: &'static str,
}

impl Terminal {
    /// A terminal of `width` x `height`; `colour` says whether lines may carry colours.
    pub fn new(width: usize, height: usize, colour: bool) -> Terminal {
        Terminal { width, height, drawn: 0, clock_rows: Vec::new(), line_end: if colour { "\x1b[0m" } else { "" } }
    }

    /// Clears the screen and draws `lines`, leaving the cursor after them.
    pub fn redraw(&mut self, lines: &[String]) {
        let text = self.redraw_text(lines);
        print_flush(&text);
    }

    /// What [`Terminal::redraw`] sends.
    fn redraw_text(&mut self, lines: &[String]) -> String {
        let mut out = String::from("\x1b[H\x1b[2J");
        for line in lines {
            out.push_str(line);
            out.push_str(self.line_end);
            out.push('\n');
        }
        self.drawn = lines.len();
        self.clock_rows = CLOCK_ROWS.iter().filter_map(|&r| lines.get(r).cloned()).collect();
        out
    }

    /// Rewrites the two clock rows of the full layout with `lines` (the freshly composed screen).
    pub fn update_clocks(&mut self, lines: &[String]) {
        if let Some(text) = self.clock_update_text(lines) {
            print_flush(&text);
        }
    }

    /// What [`Terminal::update_clocks`] sends: nothing when the clocks show the same text or
    /// when the last redraw scrolled them off the screen.
    fn clock_update_text(&mut self, lines: &[String]) -> Option<String> {
        // +1 for the prompt line below the drawn lines.
        if self.width < FULL_WIDTH || self.drawn + 1 >= self.height {
            return None;
        }
        let rows: Vec<String> = CLOCK_ROWS.iter().filter_map(|&r| lines.get(r).cloned()).collect();
        if rows == self.clock_rows {
            return None;
        }
        self.clock_rows = rows;
        // Save the cursor (the player may be typing), rewrite the rows, restore it.
        let mut out = String::from("\x1b7");
        for row in CLOCK_ROWS {
            if let Some(line) = lines.get(row) {
                out.push_str(&format!("\x1b[{};1H\x1b[2K{line}{}", row + 1, self.line_end));
            }
        }
        out.push_str("\x1b8");
        Some(out)
    }
}

/// What the terminal on stdout can do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Capabilities {
    /// A terminal that understands cursor movement (not a pipe, a file or `TERM=dumb`).
    pub screen: bool,
    /// The colours welcome (a capable terminal, and `NO_COLOR` unset or empty): 24-bit when
    /// `COLORTERM` says so, else the 256-colour palette.
    pub colour: Colours,
    /// The locale can show the chess symbols.
    pub unicode: bool,
}

/// Looks at stdout and the environment.
pub fn capabilities() -> Capabilities {
    use std::io::IsTerminal;
    let env = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    let screen = std::io::stdout().is_terminal() && env("TERM").is_none_or(|t| t != "dumb");
    let colour = match (screen && env("NO_COLOR").is_none(), env("COLORTERM").as_deref()) {
        (false, _) => Colours::Off,
        (true, Some("truecolor" | "24bit")) => Colours::TrueColour,
        (true, _) => Colours::Indexed,
    };
    // The first locale variable set decides (POSIX precedence); with none set, assume a modern
    // terminal. Output that is not a terminal is text for a program: Unicode is fine there.
    let locale = env("LC_ALL").or_else(|| env("LC_CTYPE")).or_else(|| env("LANG"));
    let unicode = !std::io::stdout().is_terminal()
        || locale.is_none_or(|l| {
            let l = l.to_ascii_lowercase();
            l.contains("utf-8") || l.contains("utf8")
        });
    Capabilities { screen, colour, unicode }
}

/// Splits `text` into lines of at most `width` columns, breaking at spaces (a word longer
/// than the line is cut). Existing line breaks and indentation are kept.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(10);
    let mut out = Vec::new();
    for line in text.lines() {
        let mut rest = line;
        while rest.chars().count() > width {
            let cut = rest.char_indices().nth(width).map_or(rest.len(), |(i, _)| i);
            let at = rest[..cut].rfind(' ').filter(|&i| i > 0).unwrap_or(cut);
            out.push(rest[..at].trim_end().to_owned());
            rest = rest[at..].trim_start();
        }
        out.push(rest.to_owned());
    }
    out
}

/// Prints and flushes (a prompt has no newline to flush it).
pub fn print_flush(text: &str) {
    let mut out = std::io::stdout().lock();
    // Output errors (a closed pipe) leave nothing useful to do; the game still saves.
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}

#[cfg(test)]
mod tests {
    use super::*;
    use tempo_notation::{parse_san, san};

    /// The Opera Game (Morphy v Duke Karl and Count Isouard, Paris 1858) to 14... Qe6: Black
    /// is up a rook and a knight for a bishop and two pawns (+3), and the list is longer than
    /// the panel at 80 columns.
    const OPERA: [&str; 28] = [
        "e4", "e5", "Nf3", "d6", "d4", "Bg4", "dxe5", "Bxf3", "Qxf3", "dxe5", "Bc4", "Nf6", "Qb3", "Qe7", "Nc3", "c6",
        "Bg5", "b5", "Nxb5", "cxb5", "Bxb5+", "Nbd7", "O-O-O", "Rd8", "Rxd7", "Rxd7", "Rd1", "Qe6",
    ];

    /// The screen of a fixed game as a `width` x `height` terminal shows it, prompt included,
    /// escape codes made visible; checks that it fits.
    fn screen(style: BoardStyle, width: usize, height: usize, scroll: usize) -> String {
        let mut pos = Position::startpos();
        let mut moves = Vec::new();
        let mut last = None;
        for text in OPERA {
            let m = parse_san(&pos, text).unwrap();
            moves.push(san(&pos, m));
            pos.play(m).unwrap();
            last = Some(m);
        }
        let white = PlayerView { name: "You".into(), time: Some(Duration::from_millis(283_400)) };
        let black = PlayerView { name: "Tempo level 5".into(), time: Some(Duration::from_millis(12_300)) };
        let view = View {
            title: "Tempo  You (White) v Tempo level 5 (Black)  5+3",
            position: &pos,
            highlights: Highlights::of(&pos, last),
            style,
            flipped: false,
            players: [&white, &black],
            moves: &moves,
            first_move_number: 1,
            black_first: false,
            scroll,
        };
        let messages = ["Tempo level 5 plays 14... Qe6 (+6.20 for White)".to_owned()];
        let mut lines = screen_lines(&view, width, width - 1, &[], &messages);
        lines.push("White to move, You (15.): ".to_owned());
        assert!(lines.len() <= height, "{} lines fit in {height} rows", lines.len());
        assert!(lines.iter().all(|l| visible_width(l) <= width), "fits in {width} columns");
        lines.join("\n").replace('\x1b', "\\e")
    }

    #[test]
    fn screen_80x24() {
        insta::assert_snapshot!(screen(BoardStyle { unicode: true, colour: Colours::Off }, 80, 24, 0));
    }

    #[test]
    fn screen_120x40() {
        insta::assert_snapshot!(screen(BoardStyle { unicode: true, colour: Colours::Off }, 120, 40, 0));
    }

    #[test]
    fn screen_80x24_scrolled_back() {
        insta::assert_snapshot!(screen(BoardStyle { unicode: true, colour: Colours::Off }, 80, 24, 4));
    }

    #[test]
    fn screen_80x24_ascii_colour() {
        insta::assert_snapshot!(screen(BoardStyle { unicode: false, colour: Colours::Indexed }, 80, 24, 0));
    }

    #[test]
    fn narrow_screen() {
        insta::assert_snapshot!(screen(BoardStyle { unicode: false, colour: Colours::Off }, 40, 30, 0));
    }

    #[test]
    fn move_pages_read_down_each_column() {
        let rows: Vec<String> = (1..=7).map(|n| format!("{n}.")).collect();
        assert_eq!(move_page(&rows, 2, 2, 0), ["4.                      6.", "5.                      7."]);
        assert_eq!(move_page(&rows, 2, 2, 1), ["3.                      5.", "4.                      6."]);
        // Scrolling stops at the first page.
        assert_eq!(move_page(&rows, 2, 2, 99), move_page(&rows, 2, 2, 3));
        assert_eq!(move_page(&rows[..1], 2, 2, 0), ["1.", ""]);
        assert_eq!(max_scroll(7, 80), 0, "two columns of five rows hold seven");
        assert_eq!(max_scroll(14, 80), 4);
        assert_eq!((move_columns(FULL_WIDTH), move_columns(80), move_columns(120), move_columns(500)), (1, 2, 3, 3));
    }

    #[test]
    fn clocks_tick_in_place() {
        let screen = |black: &str, white: &str| -> Vec<String> {
            let mut lines: Vec<String> = (0..12).map(|i| format!("line {i}")).collect();
            lines[CLOCK_ROWS[0]] = format!("8 board   Black {black}");
            lines[CLOCK_ROWS[1]] = format!("  files   White {white}");
            lines
        };
        let mut t = Terminal::new(80, 24, true);
        let drawn = t.redraw_text(&screen("5:00", "4:59"));
        assert!(drawn.starts_with("\x1b[H\x1b[2Jline 0\x1b[0m\n"));
        assert_eq!(t.clock_update_text(&screen("5:00", "4:59")), None, "nothing changed");
        let update = t.clock_update_text(&screen("5:00", "4:58")).unwrap();
        assert_eq!(
            update.replace('\x1b', "\\e"),
            "\\e7\\e[3;1H\\e[2K8 board   Black 5:00\\e[0m\\e[11;1H\\e[2K  files   White 4:58\\e[0m\\e8"
        );
        // A screen taller than the terminal scrolled: the rows are no longer where they were.
        let mut small = Terminal::new(80, 12, true);
        small.redraw_text(&screen("5:00", "4:59"));
        assert_eq!(small.clock_update_text(&screen("5:00", "4:58")), None);
        // Without colours, no colour escapes at all (only cursor movement).
        let mut plain = Terminal::new(80, 24, false);
        assert!(plain.redraw_text(&screen("5:00", "4:59")).starts_with("\x1b[H\x1b[2Jline 0\nline 1\n"));
        let update = plain.clock_update_text(&screen("5:00", "4:58")).unwrap();
        assert!(!update.contains("\x1b[0m"), "{update:?}");
    }

    #[test]
    fn long_messages_wrap() {
        assert_eq!(wrap("one two three", 10), ["one two", "three"]);
        assert_eq!(wrap("  indented\nnext", 20), ["  indented", "next"]);
        assert_eq!(wrap("abcdefghijklmnop", 10), ["abcdefghij", "klmnop"]);
    }

    #[test]
    fn move_list_from_black() {
        let moves: Vec<String> = ["e5", "Nf3", "Nc6"].iter().map(|s| (*s).to_owned()).collect();
        assert_eq!(move_rows(&moves, 7, true), ["  7. ...      e5", "  8. Nf3      Nc6"]);
    }
}
