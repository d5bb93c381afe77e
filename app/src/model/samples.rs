//! The sample files built into the binary, offered when no file is open:
//! each shows one thing the app is for. Their texts and licences are in
//! `app/samples/SOURCES.md`; `tools/make-samples.py` writes them.

use std::io;
use std::path::PathBuf;

/// One sample file.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// Its file name.
    pub name: &'static str,
    /// What it shows, for the button.
    pub title: &'static str,
    /// Its bytes.
    pub bytes: &'static [u8],
}

/// Every sample, in the order the window offers them.
pub const SAMPLES: [Sample; 6] = [
    Sample {
        name: "shift-jis.txt",
        title: "Japanese in Shift_JIS",
        bytes: include_bytes!("../../samples/shift-jis.txt"),
    },
    Sample {
        name: "utf-8-with-errors.txt",
        title: "UTF-8 with a few errors",
        bytes: include_bytes!("../../samples/utf-8-with-errors.txt"),
    },
    Sample {
        name: "double-encoded.txt",
        title: "Double-encoded mojibake (Ã©)",
        bytes: include_bytes!("../../samples/double-encoded.txt"),
    },
    Sample {
        name: "two-encodings.txt",
        title: "A file in two encodings",
        bytes: include_bytes!("../../samples/two-encodings.txt"),
    },
    Sample {
        name: "utf-16le-without-bom.txt",
        title: "UTF-16 without a byte order mark",
        bytes: include_bytes!("../../samples/utf-16le-without-bom.txt"),
    },
    Sample {
        name: "wrong-declaration.html",
        title: "A page that declares the wrong encoding",
        bytes: include_bytes!("../../samples/wrong-declaration.html"),
    },
];

impl Sample {
    /// Writes the sample to the system's temporary directory (the app opens
    /// files by path) and returns where.
    ///
    /// # Errors
    ///
    /// When the directory or the file cannot be written.
    pub fn write_out(&self) -> io::Result<PathBuf> {
        let directory = std::env::temp_dir().join("mojiscope-samples");
        std::fs::create_dir_all(&directory)?;
        let path = directory.join(self.name);
        std::fs::write(&path, self.bytes)?;
        Ok(path)
    }
}

#[cfg(test)]
mod tests {
    use mojiscope_core::{SHIFT_JIS, UTF_8, UTF_16LE, WINDOWS_1251, detect};

    use super::*;

    fn sample(name: &str) -> &'static [u8] {
        SAMPLES
            .iter()
            .find(|s| s.name == name)
            .map(|s| s.bytes)
            .expect("a sample")
    }

    #[test]
    fn each_sample_is_what_it_says() {
        assert_eq!(detect(sample("shift-jis.txt")).best(), SHIFT_JIS);
        let errors = UTF_8.decode(sample("utf-8-with-errors.txt")).text;
        assert_eq!(errors.matches('\u{FFFD}').count(), 3, "{errors}");
        assert!(
            UTF_8
                .decode(sample("double-encoded.txt"))
                .text
                .contains("Ã©")
        );
        let utf16 = detect(sample("utf-16le-without-bom.txt"));
        assert_eq!(utf16.utf16_without_bom(), Some(UTF_16LE));
        let page = detect(sample("wrong-declaration.html"));
        assert_eq!(page.best(), WINDOWS_1251);
        assert_eq!(page.declaration.as_ref().map(|d| d.encoding), Some(UTF_8));
    }
}
