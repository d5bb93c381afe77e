//! The segment strip beside the hex view, for a file in several
//! encodings: one block per part, top to bottom in file order, its height
//! after its share of the bytes, named by its encoding and its lines, and
//! in the colour of the pane that shows that encoding (a colour no pane
//! has when none does). A click on a block (or Enter on it) selects the part's
//! first byte and scrolls every view there. Each block is a button for
//! assistive technology, named "Segment 2 of 3: windows-1252, lines
//! 31–42".

use eframe::egui::{
    self, Align2, Color32, FontId, Id, Rect, Role, Sense, Stroke, StrokeKind, Ui, WidgetInfo, pos2,
    vec2,
};
use mojiscope_core::Encoding;

use crate::model::analysis::lines::LineIndex;
use crate::model::analysis::mixed::Part;
use crate::model::command::Command;
use crate::model::session::Pane;
use crate::model::verdict::place_text;
use crate::theme::Palette;
use crate::ui::readings::pane_colour;

/// The strip's width.
pub const STRIP_WIDTH: f32 = 104.0;

/// How many pane colours the palette has.
const PANE_COLOURS: usize = 4;

/// The least height of a block, so that every part can be seen and
/// clicked however small its share of the file.
const MIN_BLOCK: f32 = 34.0;

/// One block of the strip: what it shows and says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// The part's first byte.
    pub start: u64,
    /// Its encoding.
    pub encoding: &'static Encoding,
    /// Where it is: "lines 31–42", or its bytes.
    pub place: String,
    /// The accessible name: "Segment 2 of 3: windows-1252, lines 31–42".
    pub name: String,
    /// Its colour: that of the pane with this index (the first pane that
    /// shows its encoding, or a pane colour no pane has); `None` when every
    /// pane colour is taken.
    pub colour: Option<usize>,
}

/// The strip's blocks for `parts`, with line numbers from `lines` once
/// the index is complete; `panes` are the encodings the panes show (`None`
/// for a pane with the Mixed reading).
pub fn blocks(
    parts: &[Part],
    lines: Option<&LineIndex>,
    panes: &[Option<&'static Encoding>],
) -> Vec<Block> {
    // The encodings no pane shows take the colours of panes not open.
    let mut unshown: Vec<&'static Encoding> = Vec::new();
    parts
        .iter()
        .enumerate()
        .map(|(index, part)| {
            let colour = panes
                .iter()
                .position(|&pane| pane == Some(part.encoding))
                .or_else(|| {
                    let k = unshown
                        .iter()
                        .position(|&e| e == part.encoding)
                        .unwrap_or_else(|| {
                            unshown.push(part.encoding);
                            unshown.len() - 1
                        });
                    Some(panes.len() + k).filter(|&c| c < PANE_COLOURS)
                });
            let place = place_text(part.span, lines);
            let name = format!(
                "Segment {} of {}: {}, {place}",
                index + 1,
                parts.len(),
                part.encoding.name()
            );
            Block {
                start: part.span.start,
                encoding: part.encoding,
                place,
                name,
                colour,
            }
        })
        .collect()
}

/// The heights of blocks whose parts are `sizes` bytes long, filling
/// `height`: each after its share, none below [`MIN_BLOCK`] while they all
/// fit.
fn heights(sizes: &[u64], height: f32) -> Vec<f32> {
    let count = sizes.len().max(1);
    let floor = MIN_BLOCK.min(height / f32::from(u16::try_from(count).unwrap_or(u16::MAX)));
    let spare = (height - floor * f32::from(u16::try_from(count).unwrap_or(u16::MAX))).max(0.0);
    let total: u64 = sizes.iter().sum::<u64>().max(1);
    sizes
        .iter()
        .map(|&size| {
            #[expect(
                clippy::cast_precision_loss,
                reason = "a share of the height, to the pixel"
            )]
            let share = size as f64 / total as f64;
            #[expect(
                clippy::cast_possible_truncation,
                reason = "a share of the height, to the pixel"
            )]
            let extra = (f64::from(spare) * share) as f32;
            floor + extra
        })
        .collect()
}

/// The strip as a panel of its own, at the left of what is left of the
/// window (beside the hex view, which is laid out before it).
pub fn strip_panel(
    ui: &mut Ui,
    parts: &[Part],
    lines: Option<&LineIndex>,
    panes: &[Pane],
    palette: &Palette,
    commands: &mut Vec<Command>,
) {
    let shown: Vec<Option<&'static Encoding>> = panes
        .iter()
        .map(|pane| pane.parts.is_none().then_some(pane.encoding))
        .collect();
    egui::Panel::left("segment strip")
        .resizable(false)
        .exact_size(STRIP_WIDTH)
        .show(ui, |ui| {
            strip_ui(ui, parts, lines, &shown, palette, commands);
        });
}

/// Shows the strip in the rest of `ui`.
pub fn strip_ui(
    ui: &mut Ui,
    parts: &[Part],
    lines: Option<&LineIndex>,
    panes: &[Option<&'static Encoding>],
    palette: &Palette,
    commands: &mut Vec<Command>,
) {
    ui.label(egui::RichText::new("Segments").small().strong());
    let area = ui.available_rect_before_wrap();
    let blocks = blocks(parts, lines, panes);
    let sizes: Vec<u64> = parts.iter().map(|part| part.span.len()).collect();
    let heights = heights(&sizes, area.height().max(0.0));
    let mut top = area.top();
    let small = FontId::proportional(11.0);
    for (index, (block, height)) in blocks.iter().zip(heights).enumerate() {
        let rect = Rect::from_min_size(pos2(area.left(), top), vec2(area.width(), height));
        top += height;
        let id = Id::unique(("segment strip block", index));
        let response = ui.interact(rect.shrink2(vec2(0.0, 1.0)), id, Sense::click());
        let name = block.name.clone();
        response.widget_info(|| WidgetInfo::labeled(Role::Button, true, &name));
        let fill = block
            .colour
            .map_or(palette.scroll_thumb, |colour| pane_colour(palette, colour));
        let fill = if response.hovered() {
            fill.gamma_multiply(0.85)
        } else {
            fill
        };
        let painter = ui.painter_at(rect);
        painter.rect_filled(rect.shrink2(vec2(0.0, 1.0)), 3.0, fill);
        if response.has_focus() {
            painter.rect_stroke(
                rect.shrink(1.5),
                3.0,
                Stroke::new(1.5, palette.focus_stroke),
                StrokeKind::Inside,
            );
        }
        let text = if height >= 30.0 {
            format!("{}\n{}", block.encoding.name(), block.place)
        } else {
            block.encoding.name().to_owned()
        };
        paint_label(&painter, rect, &text, small.clone(), palette.pane_tag_fg);
        let enter = response.has_focus()
            && ui.input(|input| {
                input.key_pressed(egui::Key::Enter) || input.key_pressed(egui::Key::Space)
            });
        if response.clicked() || enter {
            commands.push(Command::GoTo(block.start));
        }
        response.on_hover_text(&block.name);
    }
    ui.allocate_rect(area, Sense::hover());
}

/// The block's words, left-aligned at its top, clipped to it.
fn paint_label(painter: &egui::Painter, rect: Rect, text: &str, font: FontId, colour: Color32) {
    painter.text(
        rect.left_top() + vec2(4.0, 3.0),
        Align2::LEFT_TOP,
        text,
        font,
        colour,
    );
}

#[cfg(test)]
mod tests {
    use mojiscope_core::{ByteSpan, UTF_8, WINDOWS_1252};

    use super::*;

    fn part(start: u64, end: u64, encoding: &'static Encoding) -> Part {
        Part {
            span: ByteSpan::new(start, end),
            encoding,
        }
    }

    #[test]
    fn blocks_are_named_and_coloured_by_encoding() {
        let parts = [
            part(0, 100, UTF_8),
            part(100, 150, WINDOWS_1252),
            part(150, 400, UTF_8),
        ];
        // Pane 2 shows windows-1252; no pane shows UTF-8.
        let blocks = blocks(&parts, None, &[None, Some(WINDOWS_1252)]);
        let names: Vec<&str> = blocks.iter().map(|b| b.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "Segment 1 of 3: UTF-8, bytes 0–99",
                "Segment 2 of 3: windows-1252, bytes 100–149",
                "Segment 3 of 3: UTF-8, bytes 150–399",
            ]
        );
        let colours: Vec<Option<usize>> = blocks.iter().map(|b| b.colour).collect();
        assert_eq!(colours, [Some(2), Some(1), Some(2)]);
        // Four panes, none showing UTF-8: no pane colour is left for it.
        let four = [Some(WINDOWS_1252), None, None, None];
        let blocks = super::blocks(&parts, None, &four);
        let colours: Vec<Option<usize>> = blocks.iter().map(|b| b.colour).collect();
        assert_eq!(colours, [None, Some(0), None]);
    }

    #[test]
    fn heights_fill_the_strip_and_keep_small_parts_visible() {
        let three = heights(&[1_000_000, 10, 1_000_000], 400.0);
        let total: f32 = three.iter().sum();
        assert!((total - 400.0).abs() < 1.0, "{three:?}");
        assert!(three[1] >= MIN_BLOCK, "{three:?}");
        assert!(three[0] > three[1] * 3.0, "{three:?}");
        // Too many parts for the least height: they share the strip.
        let many = heights(&[1; 40], 400.0);
        assert!((many.iter().sum::<f32>() - 400.0).abs() < 1.0);
    }
}
