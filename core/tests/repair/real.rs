//! The repair on real-world mojibake: the development set in
//! `../shared/data/repair-dev/cases.jsonl` (text that real software garbled,
//! with the text it should be, and correct text that must come back
//! unchanged; see its README).
//!
//! `cargo test -p mojiscope-core --test repair real_world -- --nocapture`
//! prints the results by kind of damage and asserts that no correct text is
//! changed and that the exact repairs do not fall below the recorded floor.
//! `REPAIR_SHOW_MISSES=1` lists every case not repaired exactly. The set is
//! found at `MOJISCOPE_REPAIR_DEV` (a `cases.jsonl`), else beside the
//! workspace; where it is absent the test says so loudly and checks
//! nothing, unless `MOJISCOPE_REQUIRE_SHARED` is set, which makes it fail.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;

use mojiscope_core::repair;

/// The exact repairs of the positive cases must not fall below this.
const EXACT_FLOOR: usize = 116;

/// One case of the set.
struct RealCase {
    id: String,
    garbled: String,
    expected: String,
    chain: String,
}

impl RealCase {
    fn is_negative(&self) -> bool {
        self.chain == "negative"
    }

    /// The kind of damage, from the chain's description.
    fn kind(&self) -> &'static str {
        kind(&self.chain)
    }
}

/// Groups the set's chain descriptions into the kinds its README counts.
fn kind(chain: &str) -> &'static str {
    let first = chain.split(';').next().unwrap_or_default();
    let starts = |prefixes: &[&str]| prefixes.iter().any(|prefix| first.starts_with(prefix));
    if chain == "negative" {
        "correct text"
    } else if first.contains("CESU-8") {
        "CESU-8 emoji"
    } else if first.contains("twice")
        || first.contains("times")
        || first.contains("then UTF-8")
        || first.contains("re-encoded")
        || first.contains("then UTF-8 read as")
    {
        "two or more rounds"
    } else if first.contains("U+FFFD")
        || first.contains("unmappable")
        || first.contains("read as UTF-8")
        || first.contains("converted to")
        || first.starts_with("windows-1258")
    {
        "lossy (U+FFFD, ?)"
    } else if first.contains("mixed") || first.contains("one field") || first.contains("one word") {
        "partial or mixed"
    } else if starts(&["UTF-8 read as cp437", "UTF-8 read as cp850"]) {
        "UTF-8 read as cp437/cp850"
    } else if starts(&["UTF-8 read as windows-1252", "UTF-8 read as ISO-8859-1"]) {
        "UTF-8 read as windows-1252/ISO-8859-1"
    } else if starts(&[
        "UTF-8 read as Shift_JIS",
        "UTF-8 read as GB",
        "UTF-8 read as EUC",
    ]) {
        "UTF-8 read as a CJK encoding"
    } else if first.starts_with("UTF-8 read as") {
        "UTF-8 read as another single-byte page"
    } else if starts(&["GBK", "Big5", "Shift_JIS", "EUC-KR", "EUC-JP"]) {
        "CJK read as a single-byte page"
    } else {
        "single-byte page read as another"
    }
}

fn dev_set_path() -> PathBuf {
    std::env::var_os("MOJISCOPE_REPAIR_DEV").map_or_else(
        || {
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("../../shared/data/repair-dev/cases.jsonl")
        },
        PathBuf::from,
    )
}

/// The set, or `None` (with a loud warning) when it is not there.
fn load() -> Option<Vec<RealCase>> {
    let path = dev_set_path();
    let Ok(text) = std::fs::read_to_string(&path) else {
        assert!(
            std::env::var_os("MOJISCOPE_REQUIRE_SHARED").is_none(),
            "MOJISCOPE_REQUIRE_SHARED is set but the repair development set is missing: {}",
            path.display()
        );
        writeln!(
            std::io::stderr(),
            "WARNING: the repair development set is not at {}; skipping the real-world \
             evaluation (set MOJISCOPE_REPAIR_DEV, or MOJISCOPE_REQUIRE_SHARED to fail)",
            path.display()
        )
        .ok(); // Nothing better to do if stderr is gone.
        return None;
    };
    let cases = text
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let value: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
            let field = |name: &str| {
                value[name]
                    .as_str()
                    .unwrap_or_else(|| panic!("no {name} in {line}"))
                    .to_owned()
            };
            RealCase {
                id: field("id"),
                garbled: field("garbled"),
                expected: field("expected"),
                chain: field("chain"),
            }
        })
        .collect();
    Some(cases)
}

/// The edit distance between two texts, in characters.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = if ca == cb {
                diagonal
            } else {
                1 + diagonal.min(above).min(row[j])
            };
            diagonal = above;
        }
    }
    row[b.len()]
}

#[derive(Default)]
struct Tally {
    cases: usize,
    exact: usize,
    /// Changed, closer to the expected text than before, not exact.
    partial: usize,
    unchanged: usize,
    /// Changed, and no closer (for correct text: any change).
    damaged: usize,
}

#[test]
fn real_world() {
    let Some(cases) = load() else {
        return;
    };
    let mut rows: BTreeMap<&'static str, Tally> = BTreeMap::new();
    let mut misses = Vec::new();
    let mut changed_negatives = Vec::new();
    for case in &cases {
        let repair = repair::repair(&case.garbled);
        let output = repair.apply(&case.garbled);
        let row = rows.entry(case.kind()).or_default();
        row.cases += 1;
        if output == case.expected {
            row.exact += 1;
            continue;
        }
        if output == case.garbled {
            row.unchanged += 1;
        } else if !case.is_negative()
            && distance(&output, &case.expected) < distance(&case.garbled, &case.expected)
        {
            row.partial += 1;
        } else {
            row.damaged += 1;
        }
        let line = format!(
            "{} [{}]\n    input:    {:?}\n    output:   {:?}\n    expected: {:?}",
            case.id, case.chain, case.garbled, output, case.expected
        );
        if case.is_negative() {
            changed_negatives.push(line);
        } else {
            misses.push(line);
        }
    }
    let mut table = String::new();
    writeln!(
        table,
        "| kind | cases | exact | partial | unchanged | damaged |\n|---|---:|---:|---:|---:|---:|"
    )
    .ok();
    let mut total = Tally::default();
    for (kind, row) in &rows {
        if *kind == "correct text" {
            continue;
        }
        writeln!(
            table,
            "| {kind} | {} | {} | {} | {} | {} |",
            row.cases, row.exact, row.partial, row.unchanged, row.damaged
        )
        .ok();
        total.cases += row.cases;
        total.exact += row.exact;
        total.partial += row.partial;
        total.unchanged += row.unchanged;
        total.damaged += row.damaged;
    }
    writeln!(
        table,
        "| **all damaged** | **{}** | **{}** | **{}** | **{}** | **{}** |",
        total.cases, total.exact, total.partial, total.unchanged, total.damaged
    )
    .ok();
    let negatives = rows.get("correct text");
    writeln!(
        table,
        "| correct text | {} | {} | | | {} |",
        negatives.map_or(0, |row| row.cases),
        negatives.map_or(0, |row| row.exact),
        negatives.map_or(0, |row| row.cases - row.exact),
    )
    .ok();
    println!("{table}");
    if std::env::var_os("REPAIR_SHOW_MISSES").is_some() {
        for miss in &misses {
            println!("{miss}");
        }
    }
    assert!(
        changed_negatives.is_empty(),
        "{} correct texts changed:\n{}",
        changed_negatives.len(),
        changed_negatives.join("\n")
    );
    assert!(
        total.exact >= EXACT_FLOOR,
        "{} of {} repaired exactly, below the floor of {EXACT_FLOOR}",
        total.exact,
        total.cases
    );
}
