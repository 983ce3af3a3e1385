//! The line editor at the prompt on a terminal: history (Up, Down), cursor keys and the usual
//! Emacs keys, and Tab completion of the legal moves and the commands. It reads on a thread of
//! its own, one line per prompt, so that the game loop keeps the clock ticking meanwhile; the
//! loop can end a pending read (the flag fell, the engine moved) and the text typed so far
//! stays for the next prompt.
//!
//! The editor puts the terminal in raw mode while it reads, so Ctrl-C arrives as a key: it
//! runs the same handler as the signal (which saves the game). Ctrl-D on an empty line is the
//! end of input, as it is without the editor.

use nu_ansi_term::Style;
use reedline::{
    default_emacs_keybindings, Color, ColumnarMenu, Completer, Editor, Emacs, FileBackedHistory, Highlighter, KeyCode,
    KeyModifiers, Menu, MenuBuilder, MenuEvent, Painter, Prompt, PromptEditMode, PromptHistorySearch, Reedline,
    ReedlineEvent, ReedlineMenu, Signal, Span, StyledText, Suggestion,
};
use std::borrow::Cow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use tempo_core::Position;

use crate::completion::complete;

/// The name under which Tab opens the completion menu.
const MENU: &str = "completion";
/// What Tab shows when nothing completes the word typed.
const NOTHING_TO_COMPLETE: &str = "No legal move or command starts like that.";
/// Why the editor is not reading when its thread has gone.
const STOPPED: &str = "the line editor has stopped";
/// Lines kept in the session's history.
const HISTORY_LINES: usize = 500;

/// A read the game loop asks for.
struct Request {
    prompt: String,
    /// The position whose moves Tab completes; `None` for a question that is not a move.
    position: Option<Position>,
}

/// How a read ended.
enum Reply {
    Line(String),
    /// Ctrl-D on an empty line.
    End,
    /// The editor could not read (a terminal that does not answer its queries, say): the
    /// terminal is as it was found, and the editor's thread has ended.
    Failed(String),
    /// The game loop ended the read ([`LineEditor::cancel`]); the text stays in the editor.
    Cancelled,
}

/// The editor's thread, and the read in progress.
pub(super) struct LineEditor {
    requests: Option<Sender<Request>>,
    replies: Receiver<Reply>,
    /// Set to end the read in progress; the editor clears it when it stops.
    stop: Arc<AtomicBool>,
    /// The prompt of the read in progress, if any.
    reading: Option<String>,
    /// Why the editor could not read, and the prompt it was reading at.
    failure: Option<(String, String)>,
}

impl LineEditor {
    /// Starts the editor's thread; `on_interrupt` runs when Ctrl-C is typed (and leaves the
    /// program).
    pub(super) fn spawn(on_interrupt: impl Fn() + Send + 'static) -> LineEditor {
        let (requests, requests_rx) = mpsc::channel::<Request>();
        let (replies_tx, replies) = mpsc::channel();
        let stop = Arc::new(AtomicBool::new(false));
        let position = Arc::new(Mutex::new(None));
        let mut editor = editor(Arc::clone(&stop), Arc::clone(&position));
        std::thread::spawn(move || {
            for request in requests_rx {
                *position.lock().unwrap_or_else(PoisonError::into_inner) = request.position;
                let reply = match editor.read_line(&TextPrompt(request.prompt)) {
                    Ok(Signal::Success(line)) => Reply::Line(line),
                    Ok(Signal::ExternalBreak(_)) => Reply::Cancelled,
                    Ok(Signal::CtrlC) => {
                        // It leaves the program; were it to come back, the input would end.
                        on_interrupt();
                        Reply::End
                    }
                    // Ctrl-D on an empty line (the editor's other signals are not bound).
                    Ok(_) => Reply::End,
                    Err(e) => Reply::Failed(e.to_string()),
                };
                let failed = matches!(reply, Reply::Failed(_));
                if replies_tx.send(reply).is_err() || failed {
                    return;
                }
            }
        });
        LineEditor { requests: Some(requests), replies, stop, reading: None, failure: None }
    }

    /// Reads a line at `prompt`, Tab completing the moves of `position`, unless that read is
    /// already under way. A read at another prompt is ended first (its text carries over).
    /// Returns a line or the end of input if one came in meanwhile.
    pub(super) fn ask(&mut self, prompt: &str, position: Option<&Position>) -> Option<Option<String>> {
        if self.reading.as_deref() == Some(prompt) {
            return None;
        }
        if let Some(line) = self.cancel() {
            return Some(line);
        }
        let request = Request { prompt: prompt.to_owned(), position: position.copied() };
        if self.requests.as_ref().is_some_and(|r| r.send(request).is_ok()) {
            self.reading = Some(prompt.to_owned());
        } else {
            self.failure = Some((STOPPED.to_owned(), prompt.to_owned()));
        }
        None
    }

    /// Why the editor could not read, and the prompt it was asked to read at: the keyboard then
    /// reads plain lines instead.
    pub(super) fn failure(&self) -> Option<&(String, String)> {
        self.failure.as_ref()
    }

    /// The line typed at the prompt (`Some(None)` at the end of input), waiting at most
    /// `wait`; `None` when nothing came (or no read is under way).
    pub(super) fn next(&mut self, wait: Duration) -> Option<Option<String>> {
        if self.reading.is_none() {
            std::thread::sleep(wait);
            return None;
        }
        match self.replies.recv_timeout(wait) {
            Ok(reply) => self.finished(reply),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => self.finished(Reply::Failed(STOPPED.to_owned())),
        }
    }

    /// [`LineEditor::next`] without waiting.
    pub(super) fn try_next(&mut self) -> Option<Option<String>> {
        self.reading.as_ref()?;
        match self.replies.try_recv() {
            Ok(reply) => self.finished(reply),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => self.finished(Reply::Failed(STOPPED.to_owned())),
        }
    }

    /// Ends the read under way, if any, and waits until the editor has given the terminal
    /// back (before the screen is redrawn, or the program leaves). Returns the line or end of
    /// input that came in as it was ended.
    pub(super) fn cancel(&mut self) -> Option<Option<String>> {
        self.reading.as_ref()?;
        self.stop.store(true, Ordering::SeqCst);
        let reply = self.replies.recv().unwrap_or_else(|_| Reply::Failed(STOPPED.to_owned()));
        // A read that ended by itself has not seen the flag: clear it for the next one.
        self.stop.store(false, Ordering::SeqCst);
        self.finished(reply)
    }

    fn finished(&mut self, reply: Reply) -> Option<Option<String>> {
        let prompt = self.reading.take().unwrap_or_default();
        match reply {
            Reply::Line(line) => Some(Some(line)),
            Reply::End => Some(None),
            Reply::Cancelled => None,
            Reply::Failed(why) => {
                self.failure = Some((why, prompt));
                None
            }
        }
    }
}

impl Drop for LineEditor {
    /// The terminal is given back in the mode it was found in.
    fn drop(&mut self) {
        self.cancel();
        self.requests = None;
    }
}

/// The editor: Emacs keys, Tab for the completion menu, the session's history.
fn editor(stop: Arc<AtomicBool>, position: Arc<Mutex<Option<Position>>>) -> Reedline {
    let mut keys = default_emacs_keybindings();
    keys.add_binding(
        KeyModifiers::NONE,
        KeyCode::Tab,
        ReedlineEvent::UntilFound(vec![ReedlineEvent::Menu(MENU.to_owned()), ReedlineEvent::MenuNext]),
    );
    // No marker before the typed text while the menu is open: the prompt stays as it was. No
    // colours either (the menu's own grey and green fade on some backgrounds, and NO_COLOR asks
    // for none): the part typed is underlined and the selection in reverse video, which every
    // terminal shows (without any styles the editor would write the selection in capitals,
    // and BXA3 reads as a bishop's move).
    let menu = ColumnarMenu::default()
        .with_name(MENU)
        .with_marker("")
        .with_text_style(Style::new())
        .with_description_text_style(Style::new())
        .with_match_text_style(Style::new().underline())
        .with_selected_text_style(Style::new().reverse())
        .with_selected_match_text_style(Style::new().reverse().underline());
    let mut editor = Reedline::create()
        .with_edit_mode(Box::new(Emacs::new(keys)))
        .with_highlighter(Box::new(PlainText))
        .with_completer(Box::new(MoveCompleter { position }))
        .with_menu(ReedlineMenu::EngineCompleter(Box::new(FittingMenu { menu, room: u16::MAX })))
        .with_quick_completions(true)
        .with_partial_completions(true)
        .with_break_signal(stop);
    // An in-memory history cannot fail to open; without one, Up and Down do nothing.
    if let Ok(history) = FileBackedHistory::new(HISTORY_LINES) {
        editor = editor.with_history(Box::new(history));
    }
    editor
}

/// Completes the moves of the position being played (see [`complete`]).
struct MoveCompleter {
    position: Arc<Mutex<Option<Position>>>,
}

impl Completer for MoveCompleter {
    fn complete(&mut self, line: &str, pos: usize) -> Vec<Suggestion> {
        let Some(position) = *self.position.lock().unwrap_or_else(PoisonError::into_inner) else {
            return Vec::new();
        };
        let (start, candidates) = complete(&position, line, pos);
        candidates
            .into_iter()
            .map(|value| Suggestion { value, span: Span::new(start, pos), ..Suggestion::default() })
            .collect()
    }
}

/// The completion menu, in the rows below the prompt and no more: a taller menu would scroll
/// the screen, and the clocks, updated in place at fixed rows, would then be written over
/// other lines. The menu scrolls within the rows it has.
struct FittingMenu {
    menu: ColumnarMenu,
    /// Rows the menu may take: the empty rows below the prompt.
    room: u16,
}

impl Menu for FittingMenu {
    fn name(&self) -> &str {
        self.menu.name()
    }

    fn indicator(&self) -> &str {
        self.menu.indicator()
    }

    fn is_active(&self) -> bool {
        self.menu.is_active()
    }

    fn menu_event(&mut self, event: MenuEvent) {
        self.menu.menu_event(event);
    }

    fn can_quick_complete(&self) -> bool {
        self.menu.can_quick_complete()
    }

    fn can_partially_complete(
        &mut self,
        values_updated: bool,
        editor: &mut Editor,
        completer: &mut dyn Completer,
    ) -> bool {
        self.menu.can_partially_complete(values_updated, editor, completer)
    }

    fn update_values(&mut self, editor: &mut Editor, completer: &mut dyn Completer) {
        self.menu.update_values(editor, completer);
    }

    fn update_working_details(&mut self, editor: &mut Editor, completer: &mut dyn Completer, painter: &Painter) {
        self.room = painter.remaining_lines_real();
        self.menu.update_working_details(editor, completer, painter);
    }

    fn replace_in_buffer(&self, editor: &mut Editor) {
        self.menu.replace_in_buffer(editor);
    }

    fn menu_required_lines(&self, terminal_columns: u16) -> u16 {
        self.menu.menu_required_lines(terminal_columns).min(self.room)
    }

    fn menu_string(&self, available_lines: u16, use_ansi_coloring: bool) -> String {
        if self.menu.get_values().is_empty() {
            // In words, where the menu would say "NO RECORDS FOUND".
            return NOTHING_TO_COMPLETE.to_owned();
        }
        self.menu.menu_string(available_lines, use_ansi_coloring)
    }

    fn min_rows(&self) -> u16 {
        self.menu.min_rows().min(self.room)
    }

    fn get_values(&self) -> &[Suggestion] {
        self.menu.get_values()
    }

    fn set_cursor_pos(&mut self, pos: (u16, u16)) {
        self.menu.set_cursor_pos(pos);
    }
}

/// What is typed shows in the terminal's own colours (the editor's default paints it white,
/// which a light background hides).
struct PlainText;

impl Highlighter for PlainText {
    fn highlight(&self, line: &str, _cursor: usize) -> StyledText {
        let mut text = StyledText::new();
        text.push((Style::new(), line.to_owned()));
        text
    }
}

/// The game's prompt as it is, uncoloured, with no mode indicator.
struct TextPrompt(String);

impl Prompt for TextPrompt {
    fn render_prompt_left(&self) -> Cow<'_, str> {
        Cow::Borrowed(&self.0)
    }

    fn render_prompt_right(&self) -> Cow<'_, str> {
        Cow::Borrowed("")
    }

    fn render_prompt_indicator(&self, _: PromptEditMode) -> Cow<'_, str> {
        Cow::Borrowed("")
    }

    fn render_prompt_multiline_indicator(&self) -> Cow<'_, str> {
        Cow::Borrowed("")
    }

    fn render_prompt_history_search_indicator(&self, search: PromptHistorySearch) -> Cow<'_, str> {
        Cow::Owned(format!("(history search: {}) ", search.term))
    }

    fn get_prompt_color(&self) -> Color {
        Color::Reset
    }

    fn get_indicator_color(&self) -> Color {
        Color::Reset
    }

    fn get_prompt_right_color(&self) -> Color {
        Color::Reset
    }

    fn get_prompt_multiline_color(&self) -> nu_ansi_term::Color {
        nu_ansi_term::Color::Default
    }
}
