//! The sample files built into the binary, offered when no file is open:
//! each shows one thing the app is for. Their texts and licences are in
//! `app/samples/SOURCES.md`; `tools/make-samples.py` writes them.

use std::io::{self, Write as _};
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
    /// Writes the sample to the user's cache directory (the app opens files
    /// by path) and returns where. A file already there with the same bytes
    /// is left as it is, so that another window that has it open sees no
    /// change; a new one appears whole (written beside it, then renamed).
    ///
    /// # Errors
    ///
    /// When the directory or the file cannot be written.
    pub fn write_out(&self) -> io::Result<PathBuf> {
        let directory = samples_directory();
        std::fs::create_dir_all(&directory)?;
        let path = directory.join(self.name);
        if std::fs::read(&path).is_ok_and(|bytes| bytes == self.bytes) {
            return Ok(path);
        }
        let mut file = tempfile::NamedTempFile::new_in(&directory)?;
        file.write_all(self.bytes)?;
        file.persist(&path).map_err(|error| error.error)?;
        Ok(path)
    }
}

/// Where the samples are written: `$XDG_CACHE_HOME/mojiscope/samples`
/// (`~/.cache` by default), a directory of the user's own; without a home,
/// a directory of this process's own in the system's temporary directory.
fn samples_directory() -> PathBuf {
    let set = |name| std::env::var_os(name).filter(|value| !value.is_empty());
    let cache = set("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| set("HOME").map(|home| PathBuf::from(home).join(".cache")));
    cache.map_or_else(
        || std::env::temp_dir().join(format!("mojiscope-samples-{}", std::process::id())),
        |cache| cache.join("mojiscope").join("samples"),
    )
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

    #[test]
    fn a_sample_written_again_is_left_as_it_is() {
        use std::os::unix::fs::MetadataExt as _;

        let sample = &SAMPLES[0];
        let path = sample.write_out().expect("written");
        assert_eq!(std::fs::read(&path).expect("read"), sample.bytes);
        let inode = std::fs::metadata(&path).expect("there").ino();
        assert_eq!(sample.write_out().expect("written"), path);
        assert_eq!(std::fs::metadata(&path).expect("there").ino(), inode);
    }
}
