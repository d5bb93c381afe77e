//! The committed files in `src/generated/` must be exactly what the generator
//! makes from the WHATWG data.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use mojiscope_indexes::generate;

#[test]
fn generated_files_are_fresh() {
    let from_env = std::env::var_os("MOJISCOPE_WHATWG_DIR").map(PathBuf::from);
    let whatwg_dir = from_env
        .clone()
        .unwrap_or_else(generate::default_whatwg_dir);
    if !whatwg_dir.is_dir() {
        assert!(
            std::env::var_os("MOJISCOPE_REQUIRE_WHATWG").is_none(),
            "MOJISCOPE_REQUIRE_WHATWG is set but the WHATWG directory is missing: {}",
            whatwg_dir.display()
        );
        // Written to the stderr handle, not with eprintln!, so that libtest's
        // output capture does not hide the warning when the test passes.
        writeln!(
            std::io::stderr(),
            "\n**********\nWARNING: not checking that src/generated/ is fresh: the WHATWG \
             directory is missing: {}\n(set MOJISCOPE_WHATWG_DIR to its location, or \
             MOJISCOPE_REQUIRE_WHATWG=1 to make this an error)\n**********\n",
            whatwg_dir.display()
        )
        .ok(); // Nothing better to do if stderr is gone.
        return;
    }
    let files = generate::render_all(&whatwg_dir)
        .unwrap_or_else(|error| panic!("the generator failed: {error}"));
    let generated_dir = generate::generated_dir();
    let regenerate = match &from_env {
        Some(dir) => format!(
            "regenerate with `{} {}`",
            generate::REGENERATE_COMMAND,
            dir.display()
        ),
        None => format!("regenerate with `{}`", generate::REGENERATE_COMMAND),
    };

    let mut stale = Vec::new();
    for (name, contents) in &files {
        let path = generated_dir.join(name);
        match std::fs::read(&path) {
            Ok(committed) if committed == contents.as_bytes() => {}
            Ok(_) => stale.push(format!(
                "{} differs from the generator's output",
                path.display()
            )),
            Err(error) => stale.push(format!("{} cannot be read: {error}", path.display())),
        }
    }
    for entry in std::fs::read_dir(&generated_dir).unwrap() {
        let path = entry.unwrap().path();
        if !files
            .iter()
            .any(|(name, _)| Path::new(name) == path.strip_prefix(&generated_dir).unwrap())
        {
            stale.push(format!(
                "{} is not produced by the generator: delete it",
                path.display()
            ));
        }
    }
    assert!(
        stale.is_empty(),
        "stale generated files:\n  {}\n{regenerate}",
        stale.join("\n  ")
    );
}
