//! The game screen: title, board with the players' clocks and the move list beside it, then
//! messages. Composition is pure (tested with snapshots); [`Terminal`] puts it on screen.

use crate::board_view::{render_board, visible_width, BoardStyle, Colours, Highlights, BOARD_WIDTH};
use crate::clock_view::format_time;
use std::io::Write;
use std::time::Duration;
use tempo_core::{Color, Position};

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
}

const PANEL_GAP: usize = 3;
/// Columns needed for the board with the panel beside it.
pub const FULL_WIDTH: usize = BOARD_WIDTH + PANEL_GAP + 38;
const NAME_WIDTH: usize = 18;
/// Board rows between the two clock rows used for the move list.
const MOVE_ROWS: usize = 7;

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
    let side = if color == Color::White { "White" } else { "Black" };
    let time = p.time.map_or(String::new(), format_time);
    let line = format!("{marker} {side}  {name} {time:>8}");
    if to_move && view.style.colour.is_on() {
        format!("\x1b[1m{line}\x1b[0m")
    } else {
        line
    }
}

/// The move list as rows `12. Nf3  Nc6`, the last `rows` of them.
pub fn move_rows(moves: &[String], first: u32, black_first: bool, rows: usize) -> Vec<String> {
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
    let skip = out.len().saturating_sub(rows);
    out.split_off(skip)
}

/// The screen lines: title, a blank line, the board with the panel (top player and clock,
/// move list, bottom player and clock), or without room for the panel, clocks above and below
/// the board.
pub fn compose(view: &View<'_>, width: usize) -> Vec<String> {
    let board = render_board(view.position, view.style, view.flipped, &view.highlights);
    let (top, bottom) = if view.flipped { (Color::White, Color::Black) } else { (Color::Black, Color::White) };
    let title: String = view.title.chars().take(width).collect();
    let mut lines = vec![title, String::new()];
    if width >= FULL_WIDTH {
        let mut panel = vec![player_line(view, top)];
        let mut moves = move_rows(view.moves, view.first_move_number, view.black_first, MOVE_ROWS);
        moves.resize(MOVE_ROWS, String::new());
        panel.extend(moves);
        panel.push(player_line(view, bottom));
        for (row, text) in board.iter().zip(panel) {
            let pad = BOARD_WIDTH + PANEL_GAP - visible_width(row);
            let line = format!("{row}{}{text}", " ".repeat(pad));
            lines.push(line.trim_end().to_owned());
        }
    } else {
        lines.push(player_line(view, top).trim_end().to_owned());
        lines.extend(board);
        lines.push(player_line(view, bottom).trim_end().to_owned());
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

    fn screen(style: BoardStyle, width: usize) -> String {
        let mut pos = Position::startpos();
        let mut moves = Vec::new();
        let mut last = None;
        for text in ["e4", "c5", "Nf3", "d6", "d4", "cxd4", "Nxd4", "Nf6", "Nc3", "a6", "Be3", "e5", "Nb3", "Be6", "f3"]
        {
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
        };
        let lines = compose(&view, width);
        assert!(lines.iter().all(|l| visible_width(l) <= width), "fits in {width} columns");
        lines.join("\n").replace('\x1b', "\\e")
    }

    #[test]
    fn full_screen_unicode() {
        insta::assert_snapshot!(screen(BoardStyle { unicode: true, colour: Colours::Off }, 80));
    }

    #[test]
    fn full_screen_ascii_colour() {
        insta::assert_snapshot!(screen(BoardStyle { unicode: false, colour: Colours::Indexed }, 80));
    }

    #[test]
    fn narrow_screen() {
        insta::assert_snapshot!(screen(BoardStyle { unicode: false, colour: Colours::Off }, 40));
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
        assert_eq!(move_rows(&moves, 7, true, 5), ["  7. ...      e5", "  8. Nf3      Nc6"]);
    }
}
