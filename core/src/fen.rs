//! FEN (Forsyth-Edwards Notation): parsing with field-specific errors, and writing.
//!
//! Two readers share one field parser and differ only in how they split the text into
//! fields. The strict one ([`Setup::from_fen_strict`], behind `tempo-tools fen check`)
//! follows the policy of `data/fen/README.md`: exactly six fields separated by single
//! spaces, nothing before or after. The lenient one ([`Setup::from_fen`], behind
//! [`Position::from_fen`] and every reader meant for people and files) takes the text as
//! people paste it: any runs of whitespace around and between the fields (a trailing
//! newline, a leading space, double spaces), and the four-field form without the move
//! counters (as EPD files, many sites and books write it), read as clocks `0 1`, as
//! shakmaty and python-chess do. [`lenient_fields`] is that tokenisation, the one place for
//! it. Either way the fields are then: eight ranks of eight squares, never two digits in a
//! row; `w`/`b`; a castling field in order (`KQkq` subsequence, or in Chess960 mode Shredder
//! `HAha` and X-FEN letters); an en passant square on the right rank behind a double-stepped
//! pawn; decimal clocks. The position must then pass [`Position::from_setup`].

use crate::bitboard::Bitboard;
use crate::castling::{CastlingMode, CastlingSide};
use crate::error::{FenError, PositionError};
use crate::position::{Position, Setup};
use crate::types::{Color, File, Piece, Rank, Role, Square};
use std::fmt::Write as _;

/// The FEN of the standard start position.
pub const STARTING_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

impl Position {
    /// Reads a FEN as people paste it: [`Setup::from_fen`] (whitespace runs around and
    /// between the fields, and the four-field form without the move counters, are taken),
    /// then [`Position::from_setup`], accepting a check no last move can have given
    /// ([`PositionError::ignore_impossible_check`]: the position plays by the rules, and
    /// perft suites use such positions). `FromStr` is this in `Standard` mode.
    ///
    /// ```
    /// use tempo_core::{CastlingMode, Position};
    ///
    /// let standard: Position = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1".parse()?;
    /// let shredder = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1", CastlingMode::Chess960)?;
    /// assert_eq!(standard.castling_rights(), shredder.castling_rights());
    /// // Without the move counters, and with the newline `read_line` leaves: clocks 0 1.
    /// let pasted: Position = "r3k2r/8/8/8/8/8/8/R3K2R  w KQkq -\n".parse()?;
    /// assert_eq!(pasted, standard);
    /// # Ok::<(), tempo_core::FenError>(())
    /// ```
    ///
    /// # Errors
    /// A [`FenError`] naming the malformed field, or wrapping the [`PositionError`] if the
    /// fields are well formed but describe an illegal position.
    pub fn from_fen(fen: &str, mode: CastlingMode) -> Result<Position, FenError> {
        let setup = Setup::from_fen(fen, mode)?;
        Ok(Position::from_setup(setup, mode).or_else(PositionError::ignore_impossible_check)?)
    }

    /// The FEN of this position: `KQkq` castling in standard mode, X-FEN in Chess960 mode
    /// (`K`/`Q` for the outermost rook, the rook's file letter otherwise).
    pub fn fen(&self) -> String {
        write_fen(self)
    }

    /// The FEN as python-chess, lichess and Stockfish print it: like [`Position::fen`], but
    /// with an en passant square only when an en passant capture is legal. The FEN standard
    /// records the square after every double step ([`Position::fen`] keeps it, so that
    /// parsing and writing is lossless); this form is the one to show and compare, since
    /// positions differing only by an unusable square are the same position.
    pub fn fen_with_legal_ep(&self) -> String {
        let fen = self.fen();
        if self.ep_square().is_none() || self.legal_ep_square().is_some() {
            return fen;
        }
        let mut fields: Vec<&str> = fen.split(' ').collect();
        fields[3] = "-";
        fields.join(" ")
    }

    /// The FEN with a Shredder-FEN castling field (rook file letters, e.g. `HAha`).
    pub fn shredder_fen(&self) -> String {
        write_fen_with(self, true)
    }

    /// The four FEN fields without the clocks (the EPD position part).
    pub fn epd(&self) -> String {
        let fen = self.fen();
        fen.rsplitn(3, ' ').nth(2).unwrap_or_default().to_owned()
    }
}

impl std::str::FromStr for Position {
    type Err = FenError;

    /// [`Position::from_fen`] in `Standard` mode.
    fn from_str(s: &str) -> Result<Position, FenError> {
        Position::from_fen(s, CastlingMode::Standard)
    }
}

/// Splits a FEN into its six fields as people and files write it: any runs of whitespace
/// (spaces, tabs, newlines) separate the fields and may come before and after them, and
/// four fields (the position without its move counters, as in EPD) get the counters `0 1`.
/// The one lenient tokenisation: [`Setup::from_fen`] (and so [`Position::from_fen`]) and the
/// PGN reader's `[FEN]` tags use it.
///
/// # Errors
/// [`FenError::FieldCount`] if there are neither six fields nor four.
pub fn lenient_fields(fen: &str) -> Result<[&str; 6], FenError> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    match fields[..] {
        [placement, turn, castling, ep, halfmoves, fullmoves] => {
            Ok([placement, turn, castling, ep, halfmoves, fullmoves])
        }
        [placement, turn, castling, ep] => Ok([placement, turn, castling, ep, "0", "1"]),
        _ => Err(FenError::FieldCount { found: fields.len(), fen: fen.to_owned(), strict: false }),
    }
}

/// The six fields of a FEN written exactly as the standard says: single spaces between
/// them, nothing before or after.
fn strict_fields(fen: &str) -> Result<[&str; 6], FenError> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.join(" ") != fen {
        return Err(FenError::Spacing(fen.to_owned()));
    }
    match fields[..] {
        [placement, turn, castling, ep, halfmoves, fullmoves] => {
            Ok([placement, turn, castling, ep, halfmoves, fullmoves])
        }
        _ => Err(FenError::FieldCount { found: fields.len(), fen: fen.to_owned(), strict: true }),
    }
}

impl Setup {
    /// Reads the fields of a FEN as people paste it ([`lenient_fields`]: whitespace runs
    /// around and between the fields, and the four-field form read as clocks `0 1`) without
    /// judging the position they describe: the input of [`Position::from_setup`], for readers
    /// that decide themselves what to accept (a strict validator reports every
    /// [`crate::Defect`]; a lenient reader takes [`PositionError::into_repaired`]).
    ///
    /// `mode` says how to read the castling field: in `Standard` mode a subsequence of
    /// `KQkq` (the corner rooks); in `Chess960` mode also Shredder-FEN file letters and
    /// X-FEN, where `K`/`Q` name the outermost rook (the corner when there is none, which
    /// [`Position::from_setup`] then refuses).
    ///
    /// # Errors
    /// A [`FenError`] naming the malformed field.
    pub fn from_fen(fen: &str, mode: CastlingMode) -> Result<Setup, FenError> {
        Setup::from_fields(lenient_fields(fen)?, mode)
    }

    /// [`Setup::from_fen`] for a validator: the six fields exactly as the FEN standard writes
    /// them, separated by single spaces with nothing before or after (`tempo-tools fen
    /// check`, the policy of `data/fen/README.md`).
    ///
    /// # Errors
    /// [`FenError::Spacing`] for any other whitespace, [`FenError::FieldCount`] for other
    /// than six fields, else as [`Setup::from_fen`].
    pub fn from_fen_strict(fen: &str, mode: CastlingMode) -> Result<Setup, FenError> {
        Setup::from_fields(strict_fields(fen)?, mode)
    }

    fn from_fields(fields: [&str; 6], mode: CastlingMode) -> Result<Setup, FenError> {
        let mut setup = Setup::empty();
        parse_placement(fields[0], &mut setup)?;
        setup.turn = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(FenError::Turn(other.to_owned())),
        };
        setup.castling_rooks = parse_castling(fields[2], &setup, mode)?;
        setup.ep_square = match fields[3] {
            "-" => None,
            s => {
                let sq: Square = s.parse().map_err(|_| FenError::EnPassant(s.to_owned()))?;
                if sq.rank() != Rank::Sixth.relative_to(setup.turn) {
                    return Err(FenError::EnPassant(s.to_owned()));
                }
                Some(sq)
            }
        };
        setup.halfmove_clock = parse_number(fields[4]).ok_or_else(|| FenError::HalfmoveClock(fields[4].to_owned()))?;
        setup.fullmove_number = parse_number(fields[5])
            .filter(|&n| n >= 1)
            .ok_or_else(|| FenError::FullmoveNumber(fields[5].to_owned()))?;
        Ok(setup)
    }
}

fn parse_number(s: &str) -> Option<u32> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

fn parse_placement(placement: &str, setup: &mut Setup) -> Result<(), FenError> {
    let err = |reason: String| FenError::Placement { placement: placement.to_owned(), reason };
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != 8 {
        return Err(err(format!("expected 8 ranks, found {}", ranks.len())));
    }
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = Rank::ALL[7 - i];
        let mut file = 0u32;
        let mut previous_digit = false;
        for c in rank_text.chars() {
            if let Some(d) = c.to_digit(10) {
                if !(1..=8).contains(&d) {
                    return Err(err(format!("rank {rank}: invalid digit '{c}'")));
                }
                if previous_digit {
                    return Err(err(format!("rank {rank}: two digits in a row")));
                }
                previous_digit = true;
                file += d;
            } else if let Some(piece) = Piece::from_char(c) {
                previous_digit = false;
                if file < 8 {
                    setup.board[Square::from_coords(File::ALL[file as usize], rank).index()] = Some(piece);
                }
                file += 1;
            } else {
                return Err(err(format!("rank {rank}: invalid character '{c}'")));
            }
            if file > 8 {
                return Err(err(format!("rank {rank} describes more than 8 squares")));
            }
        }
        if file != 8 {
            return Err(err(format!("rank {rank} describes {file} squares, not 8")));
        }
    }
    Ok(())
}

fn parse_castling(field: &str, setup: &Setup, mode: CastlingMode) -> Result<Bitboard, FenError> {
    let err = || FenError::Castling(field.to_owned());
    if field == "-" {
        return Ok(Bitboard::EMPTY);
    }
    if field.is_empty() {
        return Err(err());
    }
    let mut rooks = Bitboard::EMPTY;
    match mode {
        CastlingMode::Standard => {
            // A non-empty subsequence of "KQkq", in that order.
            let mut order = "KQkq".chars();
            for c in field.chars() {
                if !order.by_ref().any(|o| o == c) {
                    return Err(err());
                }
                rooks = rooks.with(match c {
                    'K' => Square::H1,
                    'Q' => Square::A1,
                    'k' => Square::H8,
                    _ => Square::A8,
                });
            }
        }
        CastlingMode::Chess960 => {
            for c in field.chars() {
                let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
                let rank = color.back_rank();
                let rook = match c.to_ascii_lowercase() {
                    'k' => outermost_rook(setup, color, CastlingSide::KingSide),
                    'q' => outermost_rook(setup, color, CastlingSide::QueenSide),
                    f @ 'a'..='h' => File::from_char(f).map(|file| Square::from_coords(file, rank)),
                    _ => return Err(err()),
                };
                // A letter with no rook behind it is a position error, reported by validation
                // on the square it names (for X-FEN letters: the corner).
                let rook = rook.unwrap_or_else(|| {
                    let corner = if c.eq_ignore_ascii_case(&'k') { File::H } else { File::A };
                    Square::from_coords(corner, rank)
                });
                if rooks.contains(rook) {
                    return Err(err());
                }
                rooks = rooks.with(rook);
            }
        }
    }
    Ok(rooks)
}

/// For X-FEN `K`/`Q`: the rook of `color` farthest from its king on that side.
fn outermost_rook(setup: &Setup, color: Color, side: CastlingSide) -> Option<Square> {
    let rank = color.back_rank();
    let king_file = File::ALL
        .into_iter()
        .find(|&f| setup.board[Square::from_coords(f, rank).index()] == Some(Piece::new(color, Role::King)))?;
    let rook = Some(Piece::new(color, Role::Rook));
    let files: Vec<File> = match side {
        CastlingSide::KingSide => File::ALL.into_iter().rev().take_while(|&f| f > king_file).collect(),
        CastlingSide::QueenSide => File::ALL.into_iter().take_while(|&f| f < king_file).collect(),
    };
    files.into_iter().map(|f| Square::from_coords(f, rank)).find(|sq| setup.board[sq.index()] == rook)
}

/// Writes the FEN of `pos` (see [`Position::fen`]).
pub fn write_fen(pos: &Position) -> String {
    write_fen_with(pos, false)
}

fn write_fen_with(pos: &Position, shredder: bool) -> String {
    let mut out = String::with_capacity(90);
    for rank in Rank::ALL.iter().rev() {
        let mut empty = 0;
        for file in File::ALL {
            match pos.piece_at(Square::from_coords(file, *rank)) {
                Some(piece) => {
                    if empty > 0 {
                        let _ = write!(out, "{empty}");
                        empty = 0;
                    }
                    out.push(piece.char());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            let _ = write!(out, "{empty}");
        }
        if *rank != Rank::First {
            out.push('/');
        }
    }
    out.push(' ');
    out.push(pos.turn().char());
    out.push(' ');
    let castling_start = out.len();
    let rights = pos.castling_rights();
    let setup = pos.to_setup();
    for color in Color::ALL {
        for side in CastlingSide::ALL {
            let Some(rook) = rights.rook(color, side) else { continue };
            let letter = if !shredder && outermost_rook(&setup, color, side) == Some(rook) {
                match side {
                    CastlingSide::KingSide => 'k',
                    CastlingSide::QueenSide => 'q',
                }
            } else {
                rook.file().char()
            };
            out.push(if color == Color::White { letter.to_ascii_uppercase() } else { letter });
        }
    }
    if out.len() == castling_start {
        out.push('-');
    }
    out.push(' ');
    match pos.ep_square() {
        Some(ep) => {
            let _ = write!(out, "{ep}");
        }
        None => out.push('-'),
    }
    let _ = write!(out, " {} {}", pos.halfmove_clock(), pos.fullmove_number());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn en_passant_square_is_shown_only_when_capturable() {
        // After 1. e4 no black pawn can take en passant; after 1. e4 ... 3. e5 f5 one can.
        let pushed =
            Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", CastlingMode::Standard)
                .unwrap();
        assert_eq!(pushed.fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
        assert_eq!(pushed.fen_with_legal_ep(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
        let capturable = "rnbqkbnr/ppppp1pp/8/4Pp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
        assert_eq!(Position::from_fen(capturable, CastlingMode::Standard).unwrap().fen_with_legal_ep(), capturable);
        // A pinned pawn cannot take: the square is not shown.
        let pinned = Position::from_fen("4k3/8/8/2KPp2r/8/8/8/8 w - e6 0 2", CastlingMode::Standard).unwrap();
        assert_eq!(pinned.fen_with_legal_ep(), "4k3/8/8/2KPp2r/8/8/8/8 w - - 0 2");
    }

    #[test]
    fn start_position_round_trips_and_hashes_to_the_polyglot_key() {
        let pos = Position::from_fen(STARTING_FEN, CastlingMode::Standard).unwrap();
        assert_eq!(pos, Position::startpos());
        assert_eq!(pos.fen(), STARTING_FEN);
        assert_eq!(pos.key(), 0x463b_9618_1691_fc9c);
    }

    #[test]
    fn polyglot_reference_keys() {
        // Expected keys from python-chess's independent Polyglot implementation.
        let cases = [
            ("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", 0x823c_9b50_fd11_4196u64),
            ("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2", 0x0756_b944_61c5_0fb0),
            ("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3", 0x2a0a_96f4_a727_67de),
            ("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", 0x22a4_8b5a_8e47_ff78),
            ("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR b kq - 0 3", 0x652a_607c_a3f2_42c1),
            ("rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR w - - 0 4", 0x00fd_d303_c946_bdd9),
            ("rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3", 0x3c81_23ea_7b06_7637),
            ("rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 0 4", 0x5c3f_9b82_9b27_9560),
        ];
        for (fen, key) in cases {
            let pos = Position::from_fen(fen, CastlingMode::Standard).unwrap();
            assert_eq!(pos.key(), key, "{fen}");
        }
    }

    #[test]
    fn errors_name_the_field() {
        use crate::error::Defect;
        assert!(matches!(Position::from_fen("", CastlingMode::Standard), Err(FenError::FieldCount { found: 0, .. })));
        assert!(matches!(
            Position::from_fen("8/8/8/8/8/8/8/8 w - - 0", CastlingMode::Standard),
            Err(FenError::FieldCount { found: 5, .. })
        ));
        assert!(matches!(
            Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", CastlingMode::Standard),
            Err(FenError::Turn(_))
        ));
        assert!(matches!(
            Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w QK - 0 1", CastlingMode::Standard),
            Err(FenError::Castling(_))
        ));
        assert!(matches!(
            Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e4 0 1", CastlingMode::Standard),
            Err(FenError::EnPassant(_))
        ));
        assert!(matches!(
            Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1", CastlingMode::Standard),
            Err(FenError::HalfmoveClock(_))
        ));
        assert!(matches!(
            Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0", CastlingMode::Standard),
            Err(FenError::FullmoveNumber(_))
        ));
        match Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1", CastlingMode::Standard) {
            Err(FenError::Position(e)) => assert_eq!(e.defects(), [Defect::InvalidCastling(Square::H1)]),
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN11 w KQkq - 0 1", CastlingMode::Standard),
            Err(FenError::Placement { .. })
        ));
    }

    #[test]
    fn chess960_castling_fields() {
        let shredder = "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1";
        let pos = Position::from_fen(shredder, CastlingMode::Chess960).unwrap();
        assert_eq!(pos.shredder_fen(), shredder);
        assert_eq!(pos.fen(), "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1");
        assert_eq!(Position::from_fen(&pos.fen(), CastlingMode::Chess960).unwrap(), pos);
        // Standard mode rejects a 960 setup's rights.
        assert!(Position::from_fen("bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1", CastlingMode::Standard)
            .is_err());
    }

    #[test]
    fn the_lenient_reader_takes_fens_as_people_paste_them() {
        let full =
            Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", CastlingMode::Standard)
                .unwrap();
        for pasted in [
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n",
            " rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR  b\tKQkq   -\r\n",
        ] {
            assert_eq!(pasted.parse::<Position>(), Ok(full), "{pasted:?}");
        }
        // Five fields (one counter) and three are neither form.
        let error = Position::from_fen("8/8/8/8/8/8/8/8 w - - 0", CastlingMode::Standard).unwrap_err();
        assert_eq!(
            error.to_string(),
            "fen must have 6 space-separated fields (or 4, without the move counters), found 5 in \"8/8/8/8/8/8/8/8 w - - 0\""
        );
    }

    #[test]
    fn the_strict_reader_says_what_the_standard_wants() {
        let four = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -";
        assert_eq!(
            Setup::from_fen_strict(four, CastlingMode::Standard).unwrap_err().to_string(),
            format!("fen must have 6 space-separated fields, found 4 in {four:?}")
        );
        for spaced in [" 8/8/8/8/8/8/8/8 w - - 0 1", "8/8/8/8/8/8/8/8 w - - 0 1\n", "8/8/8/8/8/8/8/8  w - - 0 1"] {
            assert_eq!(
                Setup::from_fen_strict(spaced, CastlingMode::Standard),
                Err(FenError::Spacing(spaced.to_owned()))
            );
        }
        assert!(Setup::from_fen_strict(STARTING_FEN, CastlingMode::Standard).is_ok());
    }
}
