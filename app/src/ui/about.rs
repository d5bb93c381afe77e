//! Help ▸ About mojiscope: the version, the licence, the credits (the
//! Encoding Standard, the fonts built into the binary) and where the project
//! lives.

use eframe::egui::{
    self, Button, ColorImage, Id, Modal, RichText, TextureHandle, TextureOptions, Ui,
};

use crate::icon;

/// The version, from `Cargo.toml`.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Where the project lives, from `Cargo.toml`.
pub const REPOSITORY: &str = env!("CARGO_PKG_REPOSITORY");

/// The About window: closed until [`About::open`]; Close, Escape or a click
/// outside it closes it.
#[derive(Default)]
pub struct About {
    is_open: bool,
    /// The icon's texture, made the first time the window shows.
    icon: Option<TextureHandle>,
    /// Whether making the texture was tried (it is not retried each frame).
    icon_tried: bool,
    /// Whether Copy link was pressed since the window opened.
    copied: bool,
}

impl About {
    /// Opens the window (next frame).
    pub fn open(&mut self) {
        self.is_open = true;
        self.copied = false;
    }

    /// Whether the window is open.
    pub fn is_open(&self) -> bool {
        self.is_open
    }

    /// Shows the window, if it is open, over everything else.
    pub fn ui(&mut self, ui: &mut Ui) {
        if !self.is_open {
            return;
        }
        if !self.icon_tried {
            self.icon_tried = true;
            // Without the picture the window says the same.
            self.icon = icon::icon_data().ok().map(|icon| {
                ui.ctx().load_texture(
                    "mojiscope icon",
                    ColorImage::from(&icon),
                    TextureOptions::LINEAR,
                )
            });
        }
        let mut close = false;
        let modal = Modal::new(Id::unique("about mojiscope")).show(ui.ctx(), |ui| {
            ui.set_width(480.0);
            crate::ui::name_dialog(ui, "About mojiscope");
            ui.vertical_centered(|ui| {
                if let Some(icon) = &self.icon {
                    ui.add(egui::Image::new((icon.id(), egui::vec2(96.0, 96.0))));
                }
                ui.heading("mojiscope");
                ui.label(format!("Version {VERSION}"));
                ui.add_space(4.0);
                ui.label("Look inside text files byte by byte, decoded exactly as the WHATWG Encoding Standard says.");
            });
            ui.add_space(8.0);
            ui.label("mojiscope is free software under the MIT licence.");
            ui.horizontal_wrapped(|ui| {
                ui.label("Source code:");
                ui.label(RichText::new(REPOSITORY).monospace());
                // eframe's `links` feature (which would open a browser)
                // brings a URL parser and about twenty crates with it; a
                // copy of the address does the job.
                let label = if self.copied { "Copied" } else { "Copy link" };
                if ui.add(Button::new(label)).clicked() {
                    ui.ctx().copy_text(REPOSITORY.to_owned());
                    self.copied = true;
                }
            });
            ui.separator();
            ui.strong("Credits");
            ui.label(
                "The WHATWG Encoding Standard, © WHATWG (Apple, Google, Mozilla, Microsoft), \
                 licensed under CC BY 4.0 (creativecommons.org/licenses/by/4.0). \
                 mojiscope's decoders and encoders follow its algorithms step by step, \
                 and its encoding names, labels and index tables are generated from the \
                 standard's data.",
            );
            ui.add_space(4.0);
            ui.label(
                "Fonts built in (by egui): Ubuntu Light, © Canonical Ltd., Ubuntu Font \
                 Licence 1.0; Hack, © Source Foundry Authors, MIT licence, derived from \
                 Bitstream Vera, © Bitstream, Inc., Bitstream Vera licence; five icons \
                 from emoji-icon-font, © John Slegers, MIT licence. Every other script \
                 is drawn with the fonts installed on this computer.",
            );
            ui.add_space(4.0);
            ui.label(
                "Built with egui, eframe, clap and other open-source Rust crates, each \
                 under its own licence.",
            );
            ui.add_space(8.0);
            ui.vertical_centered(|ui| {
                if ui.button("Close").clicked() {
                    close = true;
                }
            });
        });
        if close || modal.should_close() {
            self.is_open = false;
        }
    }
}
