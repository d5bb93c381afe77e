//! The build script does something only for the Windows bundle (feature
//! `windows-bundle`, target Windows): it makes a `.ico` from the icon's PNGs
//! and embeds it, with the version information, in the executables
//! (winresource runs the resource compiler: `rc.exe` from the Windows SDK, or
//! `windres` / `llvm-rc` when cross-compiling). Every other build skips it.

#[cfg_attr(
    not(feature = "windows-bundle"),
    expect(
        clippy::unnecessary_wraps,
        reason = "only the Windows bundle's resources can fail"
    )
)]
fn main() -> Result<(), Box<dyn std::error::Error>> {
    cargo("rerun-if-changed=build.rs");
    #[cfg(feature = "windows-bundle")]
    windows::embed_resources()?;
    Ok(())
}

/// One instruction to Cargo (a build script talks to it on standard output).
fn cargo(instruction: &str) {
    println!("cargo::{instruction}");
}

#[cfg(feature = "windows-bundle")]
mod windows {
    use std::error::Error;
    use std::path::{Path, PathBuf};

    use super::cargo;

    /// The icon's sizes, in pixels, that go into the `.ico` (Explorer and the
    /// taskbar pick among them).
    const ICON_SIZES: [u32; 7] = [16, 24, 32, 48, 64, 128, 256];

    pub fn embed_resources() -> Result<(), Box<dyn Error>> {
        // Elsewhere the feature only builds mojiscopew, which CI compiles
        // and lints on Linux.
        if std::env::var_os("CARGO_CFG_TARGET_OS").is_none_or(|os| os != "windows") {
            return Ok(());
        }
        let icons = Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets/icons");
        let mut pngs = Vec::new();
        for size in ICON_SIZES {
            let path = icons.join(format!("mojiscope-{size}.png"));
            cargo(&format!("rerun-if-changed={}", path.display()));
            let png = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            pngs.push((size, png));
        }
        let ico = PathBuf::from(std::env::var("OUT_DIR")?).join("mojiscope.ico");
        std::fs::write(&ico, ico_from_pngs(&pngs)?)?;

        let mut resource = winresource::WindowsResource::new();
        resource
            .set_icon(ico.to_str().ok_or("OUT_DIR is not UTF-8")?)
            .set("ProductName", "mojiscope")
            .set("FileDescription", "mojiscope")
            .set(
                "Comments",
                "Look inside text files byte by byte (WHATWG Encoding Standard)",
            )
            .set(
                "LegalCopyright",
                "© 2026 the mojiscope developers, MIT licence",
            );
        // Into every executable of the package: mojiscope.exe and mojiscopew.exe.
        resource.compile()?;
        Ok(())
    }

    /// An icon file holding the PNGs as they are (PNG-compressed entries,
    /// which Windows reads since Vista): a 6-byte header, a 16-byte
    /// directory entry per image, then the images.
    fn ico_from_pngs(pngs: &[(u32, Vec<u8>)]) -> Result<Vec<u8>, Box<dyn Error>> {
        let count = u16::try_from(pngs.len())?;
        let mut ico = Vec::new();
        ico.extend_from_slice(&0u16.to_le_bytes()); // reserved
        ico.extend_from_slice(&1u16.to_le_bytes()); // type: icon
        ico.extend_from_slice(&count.to_le_bytes());
        let mut offset = 6 + 16 * u32::from(count);
        for (size, png) in pngs {
            // Width and height are one byte each; 0 stands for 256.
            let side = u8::try_from(*size).unwrap_or(0);
            let length = u32::try_from(png.len())?;
            ico.extend_from_slice(&[side, side, 0, 0]); // size, no palette, reserved
            ico.extend_from_slice(&1u16.to_le_bytes()); // colour planes
            ico.extend_from_slice(&32u16.to_le_bytes()); // bits per pixel
            ico.extend_from_slice(&length.to_le_bytes());
            ico.extend_from_slice(&offset.to_le_bytes());
            offset += length;
        }
        for (_, png) in pngs {
            ico.extend_from_slice(png);
        }
        Ok(ico)
    }
}
