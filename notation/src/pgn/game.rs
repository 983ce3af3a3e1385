//! `PgnGame`: one game as a tree of moves with tags, comments, NAGs and variations, and the
//! visitor that builds it.

use super::annotations::Annotations;
use super::visitor::Visitor;
use super::PgnResult;
use tempo_core::{
    clock::{TimeControl, TimeControlError},
    game::GameError,
    unwinnable::Impossibility,
    Color, Game, Move, Outcome, Position, Termination,
};

/// A move of the tree with everything written around it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnNode {
    /// The move (`Move::NULL` for a null move).
    pub mv: Move,
    /// Comments written before the move (only at the start of a variation).
    pub starting_comments: Vec<String>,
    /// NAGs of the move: a set, kept in first-seen order with no repeats (`e4! $1` holds
    /// one `$1`). The reader adds them with [`PgnNode::add_nag`], and the writer writes a
    /// repeat in a node built by hand once.
    pub nags: Vec<u8>,
    /// Comments after the move, in order.
    pub comments: Vec<String>,
    /// Alternatives to this move, each a line starting from the position before it.
    pub variations: Vec<Vec<PgnNode>>,
}

impl PgnNode {
    /// The `[%clk]`, `[%emt]` and `[%eval]` commands of the comments after the move (the first
    /// of each kind wins).
    pub fn annotations(&self) -> Annotations {
        let mut out = Annotations::default();
        for comment in &self.comments {
            let a = Annotations::parse(comment);
            out.clock = out.clock.or(a.clock);
            out.elapsed = out.elapsed.or(a.elapsed);
            out.eval = out.eval.or(a.eval);
            out.depth = out.depth.or(a.depth);
        }
        out
    }

    /// Adds `nag` to the move's NAGs unless it is there already; `true` if it was added.
    pub fn add_nag(&mut self, nag: u8) -> bool {
        let new = !self.nags.contains(&nag);
        if new {
            self.nags.push(nag);
        }
        new
    }

    /// A bare move.
    pub fn new(mv: Move) -> PgnNode {
        PgnNode { mv, starting_comments: Vec::new(), nags: Vec::new(), comments: Vec::new(), variations: Vec::new() }
    }
}

/// A game read from PGN (or to be written as PGN).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnGame {
    /// Tag pairs in file order, values unescaped.
    pub tags: Vec<(String, String)>,
    /// The start position (from `[FEN]`, else the standard one).
    pub start: Position,
    /// Comments before the first move (or of a game without moves).
    pub comments: Vec<String>,
    /// The main line.
    pub moves: Vec<PgnNode>,
    /// The termination marker; `None` if the movetext had none.
    pub result: Option<PgnResult>,
}

impl Default for PgnGame {
    fn default() -> PgnGame {
        PgnGame { tags: Vec::new(), start: Position::startpos(), comments: Vec::new(), moves: Vec::new(), result: None }
    }
}

impl PgnGame {
    /// The value of tag `name` (first occurrence, exact name).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// Sets tag `name` to `value`: replaces the first occurrence in place (keeping the tag
    /// order), or appends the tag.
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some(tag) => tag.1 = value,
            None => self.tags.push((name.to_owned(), value)),
        }
    }

    /// The game's result as export format writes it: its termination marker, else its
    /// `Result` tag (when that holds one of the four markers), else `*` (unknown). Every
    /// output form of a game reads the result here, so that they agree.
    pub fn export_result(&self) -> PgnResult {
        self.result.or_else(|| self.tag("Result").and_then(|r| r.parse().ok())).unwrap_or(PgnResult::Ongoing)
    }

    /// The `[TimeControl]` tag, parsed.
    ///
    /// # Errors
    /// [`TimeControlError`] if the tag is present but malformed.
    pub fn time_control(&self) -> Result<Option<TimeControl>, TimeControlError> {
        self.tag("TimeControl").map(str::parse).transpose()
    }

    /// The main line's moves.
    pub fn mainline(&self) -> Vec<Move> {
        self.moves.iter().map(|n| n.mv).collect()
    }

    /// The positions before each main-line move, then the final one.
    pub fn mainline_positions(&self) -> Vec<Position> {
        let mut pos = self.start;
        let mut out = Vec::with_capacity(self.moves.len() + 1);
        out.push(pos);
        for node in &self.moves {
            play(&mut pos, node.mv);
            out.push(pos);
        }
        out
    }

    /// The position at the end of the main line.
    ///
    /// The reader only builds games whose moves are legal. In a game built or edited by hand,
    /// a move the position does not allow is skipped here and in
    /// [`mainline_positions`](Self::mainline_positions); [`to_game`](Self::to_game) reports it
    /// as an error instead.
    pub fn final_position(&self) -> Position {
        let mut pos = self.start;
        for node in &self.moves {
            play(&mut pos, node.mv);
        }
        pos
    }

    /// A PGN game recording `game`'s moves, with the Seven Tag Roster (`?` where unknown),
    /// `SetUp`/`FEN` for a non-standard start, `Termination` and the result of its outcome;
    /// for a timed game also `TimeControl` and a `[%clk]` comment after every move.
    pub fn from_game(game: &Game) -> PgnGame {
        let result = super::PgnResult::from(game.outcome().map(|o| o.result));
        let mut tags: Vec<(String, String)> = [
            ("Event", "?"),
            ("Site", "?"),
            ("Date", "????.??.??"),
            ("Round", "?"),
            ("White", "?"),
            ("Black", "?"),
            ("Result", result.as_str()),
        ]
        .iter()
        .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
        .collect();
        let start = *game.initial_position();
        if start != Position::startpos() {
            tags.push(("SetUp".to_owned(), "1".to_owned()));
            if start.castling_mode() == tempo_core::CastlingMode::Chess960 {
                tags.push(("Variant".to_owned(), "Chess960".to_owned()));
            }
            tags.push(("FEN".to_owned(), start.fen()));
        }
        if let Some(outcome) = game.outcome() {
            tags.push(("Termination".to_owned(), termination_tag(outcome.termination).to_string()));
        }
        let clock = game.clock().filter(|c| c.control().is_timed());
        if let Some(clock) = clock {
            tags.push(("TimeControl".to_owned(), clock.control().to_string()));
        }
        let mut moves: Vec<PgnNode> = game
            .moves()
            .iter()
            .enumerate()
            .map(|(i, &m)| {
                let mut node = PgnNode::new(m);
                if let Some(left) = clock.and_then(|c| c.remaining_after(i)) {
                    node.comments.push(format!("[%clk {}]", super::annotations::format_clock(left)));
                }
                node
            })
            .collect();
        // The tag only says "normal" or "time forfeit"; the reason goes in words after the
        // last move (or before the moves when the game ended without one), as GUIs do.
        let mut comments = Vec::new();
        if let Some(outcome) = game.outcome() {
            let reason = termination_comment(game, outcome);
            match moves.last_mut() {
                Some(last) => last.comments.push(reason),
                None => comments.push(reason),
            }
        }
        PgnGame { tags, start, comments, moves, result: Some(result) }
    }

    /// Replays the main line through the arbiter: the [`Game`] knows the endings the rules
    /// decide on the board (checkmate, stalemate, dead positions, fivefold repetition, the
    /// seventy-five-move rule). A result the file records for another reason (resignation,
    /// agreement, time, a claimed draw) is not the arbiter's to know: it stays in
    /// [`PgnGame::result`] and [`PgnGame::export_result`].
    ///
    /// ```
    /// use tempo_core::{GameResult, Termination};
    /// use tempo_notation::{PgnReader, PgnResult};
    ///
    /// let pgn = "1. f3 e5 2. g4 Qh4# 0-1\n\n1. e4 e5 2. Nf3 1-0\n";
    /// let mut games = PgnReader::new(pgn.as_bytes()).games();
    /// let mate = games.next().unwrap()?.to_game()?;
    /// let outcome = mate.outcome().expect("checkmate ends the game");
    /// assert_eq!((outcome.result, outcome.termination), (GameResult::BlackWins, Termination::Checkmate));
    /// // Black resigned: the file says so, the board does not.
    /// let resigned = games.next().unwrap()?;
    /// assert_eq!(resigned.export_result(), PgnResult::WhiteWins);
    /// assert_eq!(resigned.to_game()?.outcome(), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`GameError`] if the main line holds a null move, a move the position does not allow
    /// (only in a game built or edited by hand), or continues after the game ended (e.g.
    /// moves after a fivefold repetition).
    pub fn to_game(&self) -> Result<Game, GameError> {
        let mut game = Game::new(self.start);
        for node in &self.moves {
            game.play(node.mv)?;
        }
        Ok(game)
    }

    /// Number of moves in the whole tree, variations included.
    pub fn node_count(&self) -> usize {
        fn count(line: &[PgnNode]) -> usize {
            line.iter().map(|n| 1 + n.variations.iter().map(|v| count(v)).sum::<usize>()).sum()
        }
        count(&self.moves)
    }
}

/// Plays a move that came from a reader or tree (legal by construction), null moves included.
pub(crate) fn play(pos: &mut Position, m: Move) {
    if m.is_null() {
        if !pos.is_check() {
            pos.play_null();
        }
    } else if pos.is_legal(m) {
        pos.play_unchecked(m);
    }
}

/// Builds [`PgnGame`] trees from reader events.
#[derive(Default)]
pub(crate) struct GameBuilder {
    game: PgnGame,
    /// Open lines: the main line at the bottom, the innermost variation on top.
    lines: Vec<Vec<PgnNode>>,
    /// Comments seen at the start of a line, waiting for its first move.
    pending: Vec<String>,
}

impl Visitor for GameBuilder {
    type Output = PgnGame;

    fn begin_game(&mut self) {
        self.game = PgnGame::default();
        self.lines.clear();
        self.lines.push(Vec::new());
        self.pending.clear();
    }

    fn tag(&mut self, name: &str, value: &str) {
        self.game.tags.push((name.to_owned(), value.to_owned()));
    }

    fn begin_movetext(&mut self, start: &Position) {
        self.game.start = *start;
    }

    fn play(&mut self, _before: &Position, m: Move) {
        let mut node = PgnNode::new(m);
        let depth = self.lines.len();
        if let Some(line) = self.lines.last_mut() {
            if line.is_empty() && depth == 1 {
                self.game.comments.append(&mut self.pending);
            } else {
                node.starting_comments.append(&mut self.pending);
            }
            line.push(node);
        }
    }

    fn nag(&mut self, nag: u8) {
        if let Some(node) = self.lines.last_mut().and_then(|l| l.last_mut()) {
            node.add_nag(nag);
        }
    }

    fn comment(&mut self, text: &str) {
        match self.lines.last_mut().and_then(|l| l.last_mut()) {
            Some(node) if self.pending.is_empty() => node.comments.push(text.to_owned()),
            _ => self.pending.push(text.to_owned()),
        }
    }

    fn begin_variation(&mut self) {
        self.pending.clear();
        self.lines.push(Vec::new());
    }

    fn end_variation(&mut self) {
        if self.lines.len() > 1 {
            let variation = self.lines.pop().unwrap_or_default();
            self.pending.clear();
            if let Some(node) = self.lines.last_mut().and_then(|l| l.last_mut()) {
                if !variation.is_empty() {
                    node.variations.push(variation);
                }
            }
        }
    }

    fn result(&mut self, result: Option<PgnResult>) {
        self.game.result = result;
    }

    fn end_game(&mut self) -> PgnGame {
        let mut main = self.lines.drain(..).next().unwrap_or_default();
        if main.is_empty() {
            self.game.comments.append(&mut self.pending);
        } else if let Some(last) = main.last_mut() {
            last.comments.append(&mut self.pending);
        }
        self.game.moves = main;
        std::mem::take(&mut self.game)
    }
}

/// The values of the PGN standard's `Termination` tag (section 9.8.1), as a closed set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PgnTermination {
    /// The game was abandoned.
    Abandoned,
    /// Decided by an adjudicator (a match runner's win or draw adjudication).
    Adjudication,
    /// A player died.
    Death,
    /// The game ended because of an emergency.
    Emergency,
    /// Ended by the rules of play: checkmate, resignation, agreement, a draw by the rules.
    Normal,
    /// A player broke the rules (an engine's illegal move, say).
    RulesInfraction,
    /// A player's flag fell.
    TimeForfeit,
    /// The game has not ended.
    Unterminated,
}

impl PgnTermination {
    /// Every value, in the standard's order.
    pub const ALL: [PgnTermination; 8] = [
        PgnTermination::Abandoned,
        PgnTermination::Adjudication,
        PgnTermination::Death,
        PgnTermination::Emergency,
        PgnTermination::Normal,
        PgnTermination::RulesInfraction,
        PgnTermination::TimeForfeit,
        PgnTermination::Unterminated,
    ];

    /// The tag value as the standard writes it (`time forfeit`).
    pub fn as_str(self) -> &'static str {
        match self {
            PgnTermination::Abandoned => "abandoned",
            PgnTermination::Adjudication => "adjudication",
            PgnTermination::Death => "death",
            PgnTermination::Emergency => "emergency",
            PgnTermination::Normal => "normal",
            PgnTermination::RulesInfraction => "rules infraction",
            PgnTermination::TimeForfeit => "time forfeit",
            PgnTermination::Unterminated => "unterminated",
        }
    }
}

impl std::fmt::Display for PgnTermination {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A `Termination` tag value outside the standard's set.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown Termination tag value {0:?}")]
pub struct UnknownTermination(pub String);

impl std::str::FromStr for PgnTermination {
    type Err = UnknownTermination;

    /// Reads a tag value, ignoring case and surrounding space (`Time forfeit` is common).
    fn from_str(text: &str) -> Result<PgnTermination, UnknownTermination> {
        let wanted = text.trim();
        PgnTermination::ALL
            .into_iter()
            .find(|t| t.as_str().eq_ignore_ascii_case(wanted))
            .ok_or_else(|| UnknownTermination(text.to_owned()))
    }
}

/// The PGN standard `Termination` tag value of an ending: `normal` for every ending by the
/// rules of play (checkmate, resignation, agreement, draws), `time forfeit` for a flag fall.
pub fn termination_tag(termination: Termination) -> PgnTermination {
    match termination {
        Termination::TimeForfeit | Termination::TimeoutVsInsufficientMaterial => PgnTermination::TimeForfeit,
        _ => PgnTermination::Normal,
    }
}

/// How `game` ended (`outcome`), in words for a comment: `Black mates`, `White resigns`,
/// `Draw by threefold repetition (claimed)`.
pub fn termination_comment(game: &Game, outcome: Outcome) -> String {
    let name = |c: Color| if c == Color::White { "White" } else { "Black" };
    let to_move = game.position().turn();
    match (outcome.termination, outcome.result.winner()) {
        (Termination::Checkmate, _) => format!("{} mates", name(!to_move)),
        (Termination::Resignation, Some(w)) => format!("{} resigns", name(!w)),
        (Termination::TimeForfeit, Some(w)) => format!("{} loses on time", name(!w)),
        (Termination::TimeoutVsInsufficientMaterial, _) => {
            let flagged = game.clock().and_then(|c| c.flagged()).unwrap_or(to_move);
            match game.cannot_mate(!flagged) {
                // The material proof keeps the words players know.
                Some(why) if why != Impossibility::Material => {
                    format!("{}'s flag fell, but {} cannot checkmate ({why}): draw", name(flagged), name(!flagged))
                }
                _ => {
                    format!("{}'s flag fell, but {} has no material to checkmate: draw", name(flagged), name(!flagged))
                }
            }
        }
        (Termination::Stalemate, _) => "Draw by stalemate".to_owned(),
        (Termination::InsufficientMaterial, _) => "Draw by insufficient material".to_owned(),
        (Termination::DeadPosition, _) => match (game.cannot_mate(Color::White), game.cannot_mate(Color::Black)) {
            (Some(white), Some(black)) if white == black => {
                format!("Draw by dead position: neither side can checkmate ({white})")
            }
            (Some(white), Some(black)) => {
                format!("Draw by dead position: neither side can checkmate (White: {white}; Black: {black})")
            }
            _ => "Draw by dead position: neither side can checkmate".to_owned(),
        },
        (Termination::FivefoldRepetition, _) => "Draw by fivefold repetition".to_owned(),
        (Termination::SeventyFiveMoves, _) => "Draw by the seventy-five-move rule".to_owned(),
        (Termination::ThreefoldRepetition, _) => "Draw by threefold repetition (claimed)".to_owned(),
        (Termination::FiftyMoves, _) => "Draw by the fifty-move rule (claimed)".to_owned(),
        (Termination::Agreement, _) => "Draw by agreement".to_owned(),
        (termination, _) => termination.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tempo_core::Square;

    fn game(result_tag: Option<&str>, marker: Option<PgnResult>) -> PgnGame {
        let tags = result_tag.map(|r| ("Result".to_owned(), r.to_owned())).into_iter().collect();
        PgnGame { tags, result: marker, ..PgnGame::default() }
    }

    #[test]
    fn nags_are_a_set_in_first_seen_order() {
        let mut node = PgnNode::new(Move::NULL);
        assert!(node.add_nag(4));
        assert!(node.add_nag(1));
        assert!(!node.add_nag(4));
        assert!(node.add_nag(146));
        assert_eq!(node.nags, [4, 1, 146]);
    }

    #[test]
    fn export_result_is_the_marker_else_the_tag_else_unknown() {
        assert_eq!(game(Some("1-0"), Some(PgnResult::BlackWins)).export_result(), PgnResult::BlackWins);
        assert_eq!(game(Some("0-1"), None).export_result(), PgnResult::BlackWins);
        assert_eq!(game(None, Some(PgnResult::Draw)).export_result(), PgnResult::Draw);
        assert_eq!(game(Some("?"), None).export_result(), PgnResult::Ongoing);
        assert_eq!(game(None, None).export_result(), PgnResult::Ongoing);
    }

    #[test]
    fn termination_tag_values_round_trip_and_unknown_ones_are_errors() {
        for t in PgnTermination::ALL {
            assert_eq!(t.to_string().parse(), Ok(t));
        }
        assert_eq!(" Time Forfeit ".parse(), Ok(PgnTermination::TimeForfeit));
        assert_eq!("won".parse::<PgnTermination>(), Err(UnknownTermination("won".to_owned())));
        assert_eq!(termination_tag(Termination::Checkmate), PgnTermination::Normal);
        assert_eq!(termination_tag(Termination::TimeForfeit), PgnTermination::TimeForfeit);
    }

    #[test]
    fn a_hand_built_illegal_move_is_skipped_by_the_positions_and_refused_by_to_game() {
        let e4 = Move::normal(Square::E2, Square::E4);
        let illegal = Move::normal(Square::E2, Square::E5);
        let game = PgnGame { moves: vec![PgnNode::new(e4), PgnNode::new(illegal)], ..PgnGame::default() };
        let mut after_e4 = Position::startpos();
        after_e4.play_unchecked(e4);
        assert_eq!(game.final_position(), after_e4);
        assert_eq!(game.mainline_positions(), [Position::startpos(), after_e4, after_e4]);
        assert!(matches!(game.to_game(), Err(GameError::IllegalMove(_))));
    }

    #[test]
    fn set_tag_replaces_in_place_or_appends() {
        let mut game = PgnGame::from_game(&Game::new(Position::startpos()));
        let before = game.tags.len();
        game.set_tag("Event", "match");
        game.set_tag("Annotator", "tempo");
        assert_eq!(game.tag("Event"), Some("match"));
        assert_eq!(game.tags.len(), before + 1);
        assert_eq!(game.tags.last().map(|(n, v)| (n.as_str(), v.as_str())), Some(("Annotator", "tempo")));
    }

    #[test]
    fn dead_positions_and_flag_fall_draws_give_the_proof_in_words() {
        // Every pawn locked, Black's bishop shut in: Black can never mate, White can.
        let locked: Position = "kB4b1/7p/4p1pP/1p1pP1P1/1P1P4/6K1/8/8 w - - 0 1".parse().unwrap();
        let mut g = Game::new(locked);
        let outcome = g.flag(Color::White).unwrap();
        assert_eq!(
            termination_comment(&g, outcome),
            "White's flag fell, but Black cannot checkmate (the pawns are locked and no piece can reach the \
             other king): draw"
        );
        // The last white pawn locked: the kings can never cross the chain.
        let open: Position = "8/2k5/6p1/p1p1p3/P1P1P1P1/2K5/6B1/8 b - - 0 1".parse().unwrap();
        let mut g = Game::new(open);
        let outcome = g.play(g.position().find_move(Square::G6, Square::G5, None).unwrap()).unwrap().unwrap();
        assert_eq!(
            termination_comment(&g, outcome),
            "Draw by dead position: neither side can checkmate (the pawns are locked and no piece can reach \
             the other king)"
        );
        let lone: Position = "4k3/8/8/8/8/8/8/4K2Q w - - 0 1".parse().unwrap();
        let mut g = Game::new(lone);
        let outcome = g.flag(Color::White).unwrap();
        assert_eq!(termination_comment(&g, outcome), "White's flag fell, but Black has no material to checkmate: draw");
    }
}
