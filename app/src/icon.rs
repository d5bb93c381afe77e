//! The app's icon, embedded in the binary: the window's icon and the About
//! window's picture. The source is `assets/icons/mojiscope.svg`; the PNGs
//! beside it are rendered from it by `assets/icons/render.sh`.

use eframe::egui::IconData;

/// The icon as a 256 × 256 PNG: large enough for any window icon (the
/// desktop scales it down), small enough (12 KB) to embed.
pub const PNG_256: &[u8] = include_bytes!("../../assets/icons/mojiscope-256.png");

/// The icon decoded for the window (RGBA pixels).
///
/// # Errors
/// Only if the embedded PNG does not decode, which the tests rule out; the
/// caller shows no icon rather than failing to start.
pub fn icon_data() -> Result<IconData, String> {
    eframe::icon_data::from_png_bytes(PNG_256).map_err(|error| error.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_icon_decodes_at_its_size() {
        let icon = icon_data().unwrap();
        assert_eq!((icon.width, icon.height), (256, 256));
        assert_eq!(icon.rgba.len(), 256 * 256 * 4);
        // The corners are transparent (rounded square), the middle is not.
        assert_eq!(icon.rgba[3], 0);
        let middle = (128 * 256 + 128) * 4;
        assert_eq!(icon.rgba[middle + 3], 255);
    }
}
