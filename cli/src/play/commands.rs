//! The commands a player types during the game: help, moves, take-backs, hints, analysis,
//! draw offers and claims, resignation, saving and leaving.

use anyhow::{Context, Result};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Duration;
use tempo_core::{
    game::{ClaimResult, GameError},
    Color,
};
use tempo_notation::san;

use super::draw_offer::{self, DrawFacts};
use super::{Flow, Session};
use crate::args::MAX_LEVEL;
use crate::describe::{claim_rule, claims_with_move, either, format_line, numbered_from};
use crate::input::{self, Command};
use crate::material::Material;
use crate::players::EnginePlayer;
use crate::players::PlayerSpec;
use crate::screen::{max_scroll, move_columns, move_rows, print_flush, MOVE_ROWS};
use tempo_engine::Limits;

impl Session {
    /// Answers a command; `Some(flow)` when the turn is over.
    pub(super) fn command(&mut self, cmd: Command, me: Color) -> Result<Option<Flow>> {
        match cmd {
            Command::Help => self.say(input::HELP),
            Command::Moves => {
                let moves = input::legal_moves_san(self.game.position());
                self.say(format!("Legal moves ({}): {}", moves.len(), moves.join(" ")));
            }
            Command::Fen => self.say(self.game.position().fen()),
            Command::Pgn => self.say(self.pgn().trim_end().to_owned()),
            Command::Flip => {
                self.flipped = !self.flipped;
                self.dirty = true;
            }
            Command::Save(None) => {
                if let Some(saved) = self.save_in_its_file() {
                    self.say(format!("{}.", saved.sentence()));
                }
            }
            Command::Save(Some(path)) => match self.save_copy(PathBuf::from(path)) {
                Ok(path) => self.say(format!("Saved in {}.", path.display())),
                Err(e) => self.say(format!("Not saved: {e:#}")),
            },
            Command::Undo => self.undo()?,
            Command::Hint => self.hint()?,
            Command::Analyze => self.analyze()?,
            Command::Draw => self.offer_draw(me)?,
            Command::Accept => match self.game.accept_draw(me) {
                Ok(_) => return Ok(Some(Flow::Continue)),
                Err(_) => self.say("There is no draw offer to accept."),
            },
            Command::Decline => match self.game.decline_draw(me) {
                Ok(()) => self.say("Draw offer declined."),
                Err(_) => self.say("There is no draw offer to decline."),
            },
            Command::Claim(with_move) => return self.claim(with_move),
            Command::Resign => {
                // A flag that fell before the resignation decides the game instead.
                if self.charge_time().is_none() {
                    self.game.resign(me).context("resigning")?;
                }
                return Ok(Some(Flow::Continue));
            }
            Command::MoveList => self.say_move_list(),
            Command::PageUp => self.page_moves(true),
            Command::PageDown => self.page_moves(false),
            Command::Quit => return self.quit().map(Some),
        }
        self.update_snapshot();
        Ok(None)
    }

    /// The whole game, numbered: the panel beside the board shows only its latest moves.
    fn say_move_list(&mut self) {
        if self.game.moves().is_empty() {
            self.say("No moves have been played yet.");
        } else {
            self.say(format!("Moves: {}", numbered_from(&self.game, 0)));
        }
    }

    /// Pages the move list beside the board a page back (`older`) or forward.
    fn page_moves(&mut self, older: bool) {
        let width = self.width();
        let rows = move_rows(&self.san_moves(), 1, self.game.initial_position().turn() == Color::Black).len();
        let page = MOVE_ROWS * move_columns(width);
        let last = max_scroll(rows, width);
        let scroll = if older { (self.scroll + page).min(last) } else { self.scroll.saturating_sub(page) };
        match (scroll == self.scroll, older) {
            (true, true) => self.say("The move list already shows the first moves (list shows them all)."),
            (true, false) => self.say("The move list already shows the latest moves."),
            (false, _) => {
                self.scroll = scroll;
                self.dirty = true;
                if scroll > 0 {
                    self.say("Earlier moves shown beside the board: down pages back to the latest.");
                }
            }
        }
    }

    fn undo(&mut self) -> Result<()> {
        // Take back until a human's move is undone, so that a human is to move again (against
        // an engine: its reply and your move).
        let mut plies = 0u32;
        let mut probe = self.game.initial_position().turn();
        let mut human_plies = Vec::new();
        for (i, _) in self.game.moves().iter().enumerate() {
            if self.side(probe).is_human() {
                human_plies.push(i);
            }
            probe = !probe;
        }
        let Some(&last_human) = human_plies.last() else {
            self.say("There is no move to take back.");
            return Ok(());
        };
        let taken = numbered_from(&self.game, last_human);
        while self.game.moves().len() > last_human {
            self.game.undo().context("taking back")?;
            plies += 1;
        }
        self.timer.restart();
        self.dirty = true;
        self.messages.clear();
        let what = if plies == 1 { "move" } else { "moves" };
        self.say(format!("Took back {plies} {what}: {taken}"));
        self.update_snapshot();
        Ok(())
    }

    /// Limits for hints, analysis and draw decisions: quick, and reproducible with --depth.
    fn helper_limits(&self, scale: u32) -> Limits {
        match self.depth {
            Some(d) => Limits { depth: Some(d), ..Limits::default() },
            None => Limits { movetime: Some(self.think.min(Duration::from_secs(2)) * scale), ..Limits::default() },
        }
    }

    fn analyst(&mut self, lines: u32) -> Result<&mut EnginePlayer> {
        if self.analyst.is_none() {
            self.analyst = Some(EnginePlayer::analyst(lines, 1, self.chess960)?);
        }
        self.analyst.as_mut().context("the analysis engine")
    }

    fn hint(&mut self) -> Result<()> {
        let limits = self.helper_limits(1);
        let game = self.game.clone();
        let (lines, best) = self.analyst(1)?.search(&game, &limits)?;
        let pos = game.position();
        match best {
            Some(m) => {
                // The analyst searches for the side to move: its score is the player's.
                let eval = lines.first().map_or(String::new(), |l| format!(" ({} for you)", l.eval));
                let marked = if self.style.colour.is_on() { "in blue" } else { "with < >" };
                self.say(format!("Hint: {}{eval}, marked {marked} on the board; type it to play it.", san(pos, m)));
                self.hint = Some((game.moves().len(), m));
                self.dirty = true;
            }
            None => self.say("No hint: there is no legal move."),
        }
        Ok(())
    }

    fn analyze(&mut self) -> Result<()> {
        let limits = self.helper_limits(2);
        let game = self.game.clone();
        // A dedicated three-line analyst: the hint engine searches one line.
        let mut analyst = EnginePlayer::analyst(3, 1, self.chess960)?;
        let (lines, _) = analyst.search(&game, &limits)?;
        let pos = *game.position();
        if lines.is_empty() {
            self.say("Nothing to analyse: there is no legal move.");
        } else {
            let side = if pos.turn() == Color::White { "White" } else { "Black" };
            self.say(format!("Analysis (scores are {side}'s):"));
        }
        for line in lines {
            self.say(format_line(&pos, &line, 10));
        }
        Ok(())
    }

    fn offer_draw(&mut self, me: Color) -> Result<()> {
        if self.game.draw_offer() == Some(!me) {
            self.game.accept_draw(me).context("accepting the draw")?;
            return Ok(());
        }
        self.game.offer_draw(me).context("offering a draw")?;
        if !self.opponent_is_engine(me) {
            self.say(format!("Draw offered; {} may accept it or play on.", self.side(!me).view.name));
            return Ok(());
        }
        let answer = self.engine_answers_draw(!me)?;
        let name = self.side(!me).view.name.clone();
        if answer.accept {
            self.say(format!("{name} accepts the draw offer: {}.", answer.reason));
            self.game.accept_draw(!me).context("accepting the draw")?;
        } else {
            self.game.decline_draw(!me).context("declining the draw")?;
            self.say(format!("{name} declines the draw offer: {}.", answer.reason));
        }
        Ok(())
    }

    /// The engine's answer to a draw offer (see [`draw_offer::answer`]), judged on a fresh
    /// search of the position by the built-in engine: the engine's own last evaluation is of
    /// the position before the offerer's move.
    fn engine_answers_draw(&mut self, engine_color: Color) -> Result<draw_offer::Answer> {
        let game = self.game.clone();
        let limits = self.helper_limits(1);
        let (lines, _) = self.analyst(1)?.search(&game, &limits)?;
        let pos = game.position();
        // The search is from the side to move (the offerer); the engine sees the negation.
        let Some(line) = lines.first() else {
            // Only a position without moves has no line, and there the game is already over.
            return Ok(draw_offer::Answer {
                accept: false,
                reason: "it found no move to judge the position by".into(),
            });
        };
        let eval = if pos.turn() == engine_color { line.eval } else { -line.eval };
        let material = Material::of(pos);
        let level = match self.side(engine_color).spec {
            PlayerSpec::Builtin(level) => level,
            _ => MAX_LEVEL,
        };
        Ok(draw_offer::answer(&DrawFacts {
            eval,
            material: material.balance(engine_color),
            pawns: material.pawns(),
            fullmove: pos.fullmove_number(),
            quiet_plies: pos.halfmove_clock(),
            level,
            claimable: game.claimable_now().first().copied(),
        }))
    }

    fn claim(&mut self, with_move: Option<String>) -> Result<Option<Flow>> {
        let Some(text) = with_move else {
            return match self.game.claim_draw() {
                Ok(_) => Ok(Some(Flow::Continue)),
                Err(GameError::NoDrawToClaim { .. }) => {
                    let count = self.game.repetition_count();
                    let halfmoves = self.game.position().halfmove_clock();
                    let mut text = format!(
                        "No draw to claim: this position has occurred {count} time{} (3 needed), and {halfmoves} \
                         half-move{} have been played without a capture or pawn move (100 needed). To claim with the \
                         move that produces it, type claim MOVE.",
                        if count == 1 { "" } else { "s" },
                        if halfmoves == 1 { "" } else { "s" },
                    );
                    for (claim, sans) in claims_with_move(&self.game) {
                        text.push_str(&format!(
                            " Announcing {} would claim a draw by {}.",
                            either(&sans),
                            claim_rule(claim)
                        ));
                    }
                    self.say(text);
                    Ok(None)
                }
                Err(e) => Err(e).context("claiming a draw"),
            };
        };
        let pos = *self.game.position();
        let m = match input::read_move(&pos, &text) {
            Ok(m) => m,
            Err(why) => {
                self.say(why);
                return Ok(None);
            }
        };
        if self.charge_time().is_some() {
            return Ok(Some(Flow::Continue));
        }
        self.announce_move(&pos, m);
        // The move is played whether or not the claim holds (FIDE 9.5.2); the game decides.
        let verdict = self.game.claim_draw_with_move(m).context("claiming a draw")?;
        self.timer.restart();
        if verdict == ClaimResult::Rejected && self.game.outcome().is_none() {
            let bonus = if self.game.clock().is_some_and(|c| c.control().is_timed()) {
                " and the opponent gets two more minutes (FIDE article 9.5.3)"
            } else {
                " (FIDE article 9.5.2)"
            };
            self.say(format!(
                "Claim refused: that move repeats no position a third time and the fifty-move rule does not apply. \
                 The move stands{bonus}."
            ));
        }
        self.update_snapshot();
        Ok(Some(Flow::Continue))
    }

    pub(super) fn quit(&mut self) -> Result<Flow> {
        if self.unsaved().is_none() {
            return Ok(Flow::Quit);
        }
        let path = self.save_path();
        self.keyboard.ask(&format!("Save the unfinished game in {}? [Y/n] ", path.display()), None);
        let answer = loop {
            match self.keyboard.next(Duration::from_secs(3600)) {
                Some(Some(line)) => break Some(line),
                Some(None) => break None,
                None => {}
            }
        };
        let save = answer.as_deref().is_none_or(|a| !a.trim().to_ascii_lowercase().starts_with('n'));
        if answer.is_some() && self.terminal.is_none() && !std::io::stdin().is_terminal() {
            print_flush(&format!("{}\n", answer.as_deref().unwrap_or("")));
        }
        if save {
            if let Some(saved) = self.save_in_its_file() {
                print_flush(&format!("{}; continue it with: {}\n", saved.sentence(), saved.resume));
            }
        } else {
            print_flush("Not saved.\n");
        }
        Ok(Flow::Quit)
    }
}
