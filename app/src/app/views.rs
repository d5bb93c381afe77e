//! The view state of the open document's panels: where each view is
//! scrolled, its layout caches, what its windows are showing. The model
//! ([`Session`](crate::model::session::Session)) knows nothing of it; the
//! app keeps the two in step (a pane moved or replaced in the model moves
//! or resets its view here).

use mojiscope_core::Encoding;

use crate::ui::decode_view::DecodeView;
use crate::ui::hex_view::HexView;
use crate::ui::inspector::Inspector;
use crate::ui::readings::Readings;
use crate::ui::rows::RowPosition;

/// The find bar's state.
#[derive(Clone, Debug, Default)]
pub struct FindBar {
    /// What is typed.
    pub text: String,
    /// Whether it is bytes in hex (else text in the focused pane).
    pub hex: bool,
    /// Whether its field still has to take the focus.
    pub focus: bool,
}

/// The panels' state for one load of a document: a new load starts afresh
/// (a reload then restores the places it kept).
#[derive(Default)]
pub struct DocumentViews {
    /// The hex view's state.
    pub hex: HexView,
    /// Each decode pane's view (its header's state), as the session's panes.
    pub panes: Vec<DecodeView>,
    /// Every pane's text, drawn together.
    pub readings: Readings,
    /// Where the panes are scrolled to (they scroll together).
    pub pane_position: RowPosition,
    /// How many bytes a hex row shows now (the setting, or as many as fit).
    pub hex_width: usize,
    /// After a reload: the byte offset whose row the panes scroll to once
    /// the new rows reach it.
    pub pending_pane_top: Option<u64>,
    /// The inspector's state.
    pub inspector: Inspector,
    /// A step taller (`true`) or shorter the inspector is to take, at the
    /// next frame (View ▸ Grow the inspector).
    pub inspector_resize: Option<bool>,
    /// The inspector's height at the last frame.
    pub inspector_height: f32,
    /// The Go to offset box's text, while it is open.
    pub goto: Option<String>,
    /// Whether the Go to offset box was drawn since it opened (its field
    /// takes the focus once, so that Tab can leave it).
    pub goto_shown: bool,
    /// What had the keyboard focus when the Go to offset box opened: it
    /// goes back there when the box closes.
    pub goto_return: Option<eframe::egui::Id>,
    /// Where the keyboard focus goes at the next frame.
    pub focus_next: Option<eframe::egui::Id>,
    /// The find bar, while it is open.
    pub find: Option<FindBar>,
    /// The encoding whose "why?" window is open.
    pub why: Option<&'static Encoding>,
}

impl DocumentViews {
    /// Follows the session's panes after they changed: `kept[i]` is the
    /// index pane `i` had before, if it is a pane kept; the others start
    /// with a fresh view.
    pub fn panes_changed(&mut self, kept: &[Option<usize>]) {
        let mut old: Vec<Option<DecodeView>> = std::mem::take(&mut self.panes)
            .into_iter()
            .map(Some)
            .collect();
        self.panes = kept
            .iter()
            .map(|from| {
                from.and_then(|from| old.get_mut(from).and_then(Option::take))
                    .unwrap_or_default()
            })
            .collect();
        self.readings.reset();
        self.inspector.reset();
    }

    /// Opens the Go to offset box, remembering where the focus was.
    pub fn open_goto(&mut self, ctx: Option<&eframe::egui::Context>) {
        self.goto = Some(String::new());
        self.goto_shown = false;
        self.goto_return = ctx.and_then(|ctx| ctx.memory(eframe::egui::Memory::focused));
    }

    /// Closes the Go to offset box; the focus goes back where it was, the
    /// next frame (a modal box keeps the focus to itself while shown).
    pub fn close_goto(&mut self) {
        self.goto = None;
        self.focus_next = self.goto_return.take();
    }

    /// Forgets every pane's cached rows (the rows or an analysis changed).
    pub fn reset_panes(&mut self) {
        for view in &mut self.panes {
            view.reset();
        }
        self.readings.reset();
    }
}
