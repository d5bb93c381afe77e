//! Test helpers: find the WHATWG data and read index files independently of
//! the generator's parser, so a bug there cannot hide in both.

use std::collections::HashMap;
use std::io::Write as _;
use std::path::PathBuf;
use std::sync::OnceLock;

/// The WHATWG directory (`MOJISCOPE_WHATWG_DIR`, else `../shared/whatwg` next
/// to the workspace), or `None` with a loud warning if it is absent. Panics
/// instead if `MOJISCOPE_REQUIRE_WHATWG` is set. Warns once per test binary.
pub(crate) fn whatwg_dir() -> Option<PathBuf> {
    static DIR: OnceLock<Option<PathBuf>> = OnceLock::new();
    DIR.get_or_init(find_whatwg_dir).clone()
}

fn find_whatwg_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("MOJISCOPE_WHATWG_DIR")
        .map_or_else(crate::generate::default_whatwg_dir, PathBuf::from);
    if dir.join("encodings.json").is_file() {
        return Some(dir);
    }
    assert!(
        std::env::var_os("MOJISCOPE_REQUIRE_WHATWG").is_none(),
        "MOJISCOPE_REQUIRE_WHATWG is set but the WHATWG data is missing: {}",
        dir.display()
    );
    // Written to the stderr handle, not with eprintln!, so that libtest's
    // output capture does not hide the warning when the tests pass.
    writeln!(
        std::io::stderr(),
        "WARNING: WHATWG data not found at {}; skipping the tests that compare with \
         the index files (set MOJISCOPE_WHATWG_DIR, or MOJISCOPE_REQUIRE_WHATWG to fail)",
        dir.display()
    )
    .ok(); // Nothing better to do if stderr is gone.
    None
}

/// The (pointer, code point) entries of `index-{name}.txt`, in file order.
pub(crate) fn read_index(dir: &std::path::Path, name: &str) -> Vec<(usize, u32)> {
    let text = std::fs::read_to_string(dir.join(format!("index-{name}.txt"))).unwrap();
    text.split('\n')
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            let pointer = fields[0].trim().parse().unwrap();
            let code_point = u32::from_str_radix(&fields[1][2..], 16).unwrap();
            (pointer, code_point)
        })
        .collect()
}

/// For each code point, its first pointer among the entries `keep` accepts.
pub(crate) fn first_pointers(
    entries: &[(usize, u32)],
    keep: impl Fn(usize) -> bool,
) -> HashMap<u32, usize> {
    let mut first = HashMap::new();
    for &(pointer, code_point) in entries {
        if keep(pointer) {
            first.entry(code_point).or_insert(pointer);
        }
    }
    first
}

/// Every Unicode scalar value.
pub(crate) fn all_chars() -> impl Iterator<Item = char> {
    ('\0'..='\u{D7FF}').chain('\u{E000}'..=char::MAX)
}

/// Checks a forward lookup against the file: every pointer up to well past the
/// table's end gives the file's code point or `None`.
pub(crate) fn check_code_points(
    entries: &[(usize, u32)],
    table_len: usize,
    code_point: impl Fn(usize) -> Option<char>,
) {
    let expected: HashMap<usize, u32> = entries.iter().copied().collect();
    assert_eq!(
        table_len,
        entries
            .iter()
            .map(|&(pointer, _)| pointer + 1)
            .max()
            .unwrap()
    );
    for pointer in 0..table_len + 1000 {
        assert_eq!(
            code_point(pointer),
            expected.get(&pointer).map(|&c| char::from_u32(c).unwrap()),
            "pointer {pointer}"
        );
    }
    assert_eq!(code_point(usize::MAX), None);
}

/// Checks a reverse lookup for every scalar value against `expected`.
pub(crate) fn check_pointers(
    expected: &HashMap<u32, usize>,
    pointer: impl Fn(char) -> Option<u16>,
) {
    for c in all_chars() {
        assert_eq!(
            pointer(c).map(usize::from),
            expected.get(&u32::from(c)).copied(),
            "{c:?} (U+{:04X})",
            u32::from(c)
        );
    }
}
