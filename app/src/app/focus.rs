//! The keyboard focus goes back where it came from when a popup, a dialog
//! or a window over the panes closes ([`FocusReturn`]).
//!
//! egui gives a closed box's focus to nobody: the focused widget went with
//! it, so the next Tab starts from the top of the window and a screen
//! reader hears nothing. The app notes what had the focus before anything
//! opened over the panes, and gives it back when everything has closed and
//! the focus was lost with it. A focus the user moved elsewhere meanwhile
//! (a click in a pane while the Repair window stays open) is left alone.

use eframe::egui::Id;

/// Frames after a close in which a lost focus is still given back (the
/// focus of a widget that went is dropped at the end of the next frame).
const GRACE_FRAMES: u8 = 3;

/// What had the focus before a popup, dialog or window opened.
#[derive(Debug, Default)]
pub struct FocusReturn {
    /// Whether something was open over the panes at the last frame.
    was_open: bool,
    /// The focus at the start of the last frame with nothing open.
    last: Option<Id>,
    /// Where the focus goes back to, once everything closed.
    before: Option<Id>,
    /// Frames left to give it back in.
    pending: u8,
}

impl FocusReturn {
    /// Called at the start of each frame with whether anything is open
    /// over the panes and what has the focus now; returns the widget to
    /// give the focus to, when it is time.
    pub fn frame(&mut self, open: bool, focused: Option<Id>) -> Option<Id> {
        let mut give = None;
        match (self.was_open, open) {
            (false, true) => {
                self.before = self.last;
                self.pending = 0;
            }
            (true, false) => self.pending = GRACE_FRAMES,
            _ => {}
        }
        if !open && self.pending > 0 {
            self.pending -= 1;
            match focused {
                // Lost with what closed: back where it came from.
                None => {
                    give = self.before.take();
                    self.pending = 0;
                }
                // Moved on purpose: left there.
                Some(id) if Some(id) != self.before && self.pending + 1 < GRACE_FRAMES => {
                    self.before = None;
                    self.pending = 0;
                }
                Some(_) => {}
            }
        }
        if !open {
            self.last = focused.or(give);
        }
        self.was_open = open;
        give
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lost_focus_goes_back_and_a_moved_one_stays() {
        let pane = Id::unique("pane");
        let field = Id::unique("field");
        let other = Id::unique("other pane");
        let mut focus = FocusReturn::default();
        assert_eq!(focus.frame(false, Some(pane)), None);
        // A dialog opens and takes the focus; it closes and its field goes.
        assert_eq!(focus.frame(true, Some(field)), None);
        assert_eq!(focus.frame(false, Some(field)), None);
        assert_eq!(focus.frame(false, None), Some(pane));
        assert_eq!(focus.frame(false, None), None, "once");

        // Nothing was focused before: nothing to give back.
        let mut focus = FocusReturn::default();
        focus.frame(false, None);
        focus.frame(true, Some(field));
        assert_eq!(focus.frame(false, None), None);

        // The user focused another pane while a window stayed open.
        let mut focus = FocusReturn::default();
        focus.frame(false, Some(pane));
        focus.frame(true, Some(other));
        assert_eq!(focus.frame(false, Some(other)), None);
        assert_eq!(focus.frame(false, Some(other)), None);
        assert_eq!(focus.frame(false, None), None, "left alone");
    }
}
