#!/usr/bin/env python3
"""Differential test of mojiscope's mojibake repair against ftfy: real
correct text, garbled here the ways real software garbles it, repaired by
both; lists the cases where ftfy gives back the original text and
mojiscope does not (and the reverse), grouped by kind of damage, and the
correct lines either fixer changes.

    pip install ftfy
    python3 tools/repair-diff-ftfy.py [--out DIR] [--examples N] [--limit N]

Run from anywhere in the repository; it builds the engine's example
program `repair_lines` (cargo build --release -p mojiscope-core --example
repair_lines) and feeds it the texts as tools/repair-vs-ftfy.py does. ftfy
runs with its encoding fixes only (the configuration of
tools/repair-vs-ftfy.py). It is not part of `cargo test`: a run takes a
few minutes.

The correct text is the 12,093 lines of
core/tests/repair/data/negatives.txt (CLDR names, Faker names and
addresses, formulas, emoji; see SOURCES.md there) and the expected texts
of the real-world development set (../shared/data/repair-dev/cases.jsonl
beside the workspace, or MOJISCOPE_REPAIR_DEV). The garbling is ours
(Python's codecs, a fixed seed), so its figures are for development, not
results.

Kinds of damage (each applied to every line it changes):
- UTF-8 read as windows-1252 (sloppy: the five undefined bytes kept as C1
  controls), ISO-8859-1, windows-1250, windows-1251, ISO-8859-2,
  macintosh, cp437;
- windows-1252 twice and three times; windows-1252 then windows-1251
  ("Г‚ВЈ" for "£");
- one word, or one comma-separated field, of a line garbled;
- partly repaired: each non-ASCII character garbled or left right at
  random;
- a no-break space of the mojibake turned into a plain space;
- the line in curly quotes with an emoji (and variation selector) after
  it, then garbled;
- the line in capitals, then garbled;
- the garbled line followed by another, correct, line;
- windows-1252 text read as ISO-8859-1 (C1 controls for "…", "’").

Writes DIR/summary.md (the table) and DIR/<kind>.txt (every case where
the fixers disagree on exactness, input, expected, both outputs), and
prints the table and a few examples of each kind. DIR defaults to
target/repair-diff-ftfy.
"""

import argparse
import importlib.util
import json
import os
import random
import subprocess
import sys

import ftfy

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
DEV = os.environ.get(
    "MOJISCOPE_REPAIR_DEV",
    os.path.join(ROOT, "..", "shared", "data", "repair-dev", "cases.jsonl"),
)
NEGATIVES = os.path.join(ROOT, "core", "tests", "repair", "data", "negatives.txt")

# ftfy with only its encoding fixes, building the engine's example program
# and running it: as the comparison on the development set does.
_spec = importlib.util.spec_from_file_location(
    "repair_vs_ftfy", os.path.join(os.path.dirname(__file__), "repair-vs-ftfy.py"))
_shared = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_shared)
ENCODING_ONLY = _shared.ENCODING_ONLY
build = _shared.build
ours = _shared.ours


def sloppy(data, encoding):
    """Bytes decoded one by one as a single-byte encoding, a byte it leaves
    undefined kept as the code point of the same number (as Python's
    'latin-1' reads it, and as many real decoders do)."""
    out = []
    for byte in data:
        try:
            out.append(bytes([byte]).decode(encoding))
        except UnicodeDecodeError:
            out.append(chr(byte))
    return "".join(out)


def misread(encoding):
    def damage(text):
        return sloppy(text.encode("utf-8"), encoding)
    return damage


def twice(first, second):
    def damage(text):
        return second(first(text))
    return damage


CP1252 = misread("cp1252")
LATIN1 = misread("latin-1")
CP1251 = misread("cp1251")


def partial_word(rng):
    def damage(text):
        words = text.split(" ")
        candidates = [i for i, word in enumerate(words) if not word.isascii()]
        if not candidates:
            return None
        i = rng.choice(candidates)
        words[i] = CP1252(words[i])
        return " ".join(words)
    return damage


def partial_field(rng):
    def damage(text):
        fields = text.split(", ")
        candidates = [i for i, field in enumerate(fields) if not field.isascii()]
        if len(fields) < 2 or not candidates:
            return None
        i = rng.choice(candidates)
        fields[i] = CP1252(fields[i])
        return ", ".join(fields)
    return damage


def partly_repaired(rng):
    """Each non-ASCII character garbled or left right at random, as text
    that earlier software repaired in part: at least one of each."""
    def damage(text):
        chars = [c for c in text if not c.isascii()]
        if len(chars) < 2:
            return None
        while True:
            flags = [rng.random() < 0.5 for _ in chars]
            if any(flags) and not all(flags):
                break
        flags = iter(flags)
        return "".join(CP1252(c) if not c.isascii() and next(flags) else c
                       for c in text)
    return damage


def nbsp_to_space(text):
    garbled = CP1252(text)
    return garbled.replace("\u00a0", " ")


def decorated(rng):
    emoji = ["👍", "❤️", "😂", "☺️", "🇫🇷", "👩‍💻", "✔️", "🙏🏽"]

    def damage(text):
        original = f"“{text}” {rng.choice(emoji)}"
        return CP1252(original), original
    return damage


def capitals(text):
    upper = text.upper()
    return CP1252(upper), upper


def with_correct(pool, rng):
    def damage(text):
        other = rng.choice(pool)
        return CP1252(text) + " — " + other, text + " — " + other
    return damage


def cp1252_undefined_dropped(text):
    """UTF-8 read as windows-1252 by a reader that drops the five bytes
    windows-1252 leaves undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D): only
    lines that lost one are kept. The right answer is the original; a
    character whose byte is gone can only be guessed back."""
    data = text.encode("utf-8")
    if not any(byte in (0x81, 0x8D, 0x8F, 0x90, 0x9D) for byte in data):
        return None
    return "".join(bytes([byte]).decode("cp1252") for byte in data
                   if byte not in (0x81, 0x8D, 0x8F, 0x90, 0x9D))


def cp1252_twice_undefined_dropped(text):
    """UTF-8 read as windows-1252 twice, the first reader keeping the five
    undefined bytes as C1 controls and the second dropping them ("Ã¢â‚¬Â"
    for "”"): only lines that lost one are kept."""
    once = CP1252(text)
    if not any(byte in (0x81, 0x8D, 0x8F, 0x90, 0x9D) for byte in once.encode("utf-8")):
        return None
    return cp1252_undefined_dropped(once), text


def latin1_twice_c1_dropped(text):
    """UTF-8 read as ISO-8859-1 twice, the C1 controls dropped the second
    time ("cafÃÂ©" for "café"), as pages stored through two such readers
    show."""
    garbled = LATIN1(LATIN1(text))
    return "".join(c for c in garbled if not "\x80" <= c <= "\x9f")


def legacy_as_latin1(text):
    try:
        data = text.encode("cp1252")
    except UnicodeEncodeError:
        return None
    return data.decode("latin-1")


def kinds(pool, rng):
    """(name, damage): damage(text) is the garbled text, or (garbled,
    expected) when the expected text is not the input, or None when it
    does not apply."""
    return [
        ("UTF-8 as windows-1252", CP1252),
        ("UTF-8 as ISO-8859-1", LATIN1),
        ("UTF-8 as windows-1250", misread("cp1250")),
        ("UTF-8 as windows-1251", CP1251),
        ("UTF-8 as ISO-8859-2", misread("iso8859-2")),
        ("UTF-8 as macintosh", misread("mac_roman")),
        ("UTF-8 as cp437", misread("cp437")),
        ("windows-1252 twice", twice(CP1252, CP1252)),
        ("windows-1252 three times", twice(twice(CP1252, CP1252), CP1252)),
        ("windows-1252 then windows-1251", twice(CP1252, CP1251)),
        ("one word", partial_word(rng)),
        ("one field", partial_field(rng)),
        ("partly repaired", partly_repaired(rng)),
        ("no-break space to space", nbsp_to_space),
        ("curly quotes and emoji", decorated(rng)),
        ("capitals", capitals),
        ("beside correct text", with_correct(pool, rng)),
        ("windows-1252 text as ISO-8859-1", legacy_as_latin1),
        ("ISO-8859-1 twice, C1 controls dropped", latin1_twice_c1_dropped),
        ("windows-1252, undefined bytes dropped", cp1252_undefined_dropped),
        ("windows-1252 twice, undefined bytes dropped", cp1252_twice_undefined_dropped),
    ]


def load_texts(limit):
    texts = []
    with open(NEGATIVES, encoding="utf-8") as file:
        for line in file:
            line = line.rstrip("\n")
            if line and not line.startswith("#"):
                texts.append(line)
    if os.path.exists(DEV):
        with open(DEV, encoding="utf-8") as file:
            for line in file:
                if line.strip():
                    case = json.loads(line)
                    for text in case["expected"].split("\n"):
                        if text.strip():
                            texts.append(text)
    else:
        print(f"note: {DEV} not found, negatives only", file=sys.stderr)
    texts = list(dict.fromkeys(texts))
    if limit:
        texts = texts[:limit]
    return texts


def build_cases(texts):
    rng = random.Random(20261125)
    pool = [text for text in texts if not text.isascii()]
    cases = []
    for name, damage in kinds(pool, rng):
        for text in texts:
            if text.isascii():
                continue
            try:
                result = damage(text)
            except UnicodeError:
                continue
            if result is None:
                continue
            garbled, expected = result if isinstance(result, tuple) else (result, text)
            if garbled == expected or "\n" in garbled:
                continue
            cases.append({"kind": name, "input": garbled, "expected": expected})
    return cases


def theirs(texts, folder):
    """ftfy's output for each text, kept in `folder` between runs (ftfy is
    most of a run's time and does not change)."""
    path = os.path.join(folder, f"ftfy-{ftfy.__version__}.jsonl")
    known = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8") as file:
            for line in file:
                text, fixed = json.loads(line)
                known[text] = fixed
    missing = [text for text in dict.fromkeys(texts) if text not in known]
    if missing:
        with open(path, "a", encoding="utf-8") as file:
            for text in missing:
                known[text] = ftfy.fix_text(text, ENCODING_ONLY)
                file.write(json.dumps([text, known[text]]) + "\n")
    return [known[text] for text in texts]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=os.path.join(ROOT, "target", "repair-diff-ftfy"))
    parser.add_argument("--examples", type=int, default=3)
    parser.add_argument("--limit", type=int, default=0,
                        help="use only the first N correct lines")
    parser.add_argument("--program", help="a repair_lines program to run instead of building one")
    parser.add_argument("--baseline", help="another repair_lines program (an earlier build): "
                        "list the cases it repairs exactly and the program does not")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    program = args.program or build()
    texts = load_texts(args.limit)
    cases = build_cases(texts)
    print(f"{len(texts)} correct lines, {len(cases)} garbled cases", file=sys.stderr)

    inputs = [case["input"] for case in cases]
    mine, ftfys = ours(program, inputs), theirs(inputs, args.out)
    clean_mine, clean_ftfy = ours(program, texts), theirs(texts, args.out)

    if args.baseline:
        before = ours(args.baseline, inputs)
        lost = [(c, b, m) for c, b, m in zip(cases, before, mine)
                if b == c["expected"] and m != c["expected"]]
        gained = sum(b != c["expected"] and m == c["expected"]
                     for c, b, m in zip(cases, before, mine))
        print(f"against the baseline: {gained} more exact, {len(lost)} no longer exact",
              file=sys.stderr)
        with open(os.path.join(args.out, "regressions.txt"), "w", encoding="utf-8") as file:
            for case, b, m in lost:
                file.write(json.dumps({"kind": case["kind"], "input": case["input"],
                                       "expected": case["expected"], "mojiscope": m},
                                      ensure_ascii=False) + "\n")

    rows = []
    names = list(dict.fromkeys(case["kind"] for case in cases))
    lines = ["| kind | cases | mojiscope exact | ftfy exact | only ftfy | only mojiscope |",
             "|---|---:|---:|---:|---:|---:|"]
    totals = [0, 0, 0, 0, 0]
    for name in names:
        members = [(case, m, f) for case, m, f in zip(cases, mine, ftfys)
                   if case["kind"] == name]
        ours_exact = sum(m == case["expected"] for case, m, f in members)
        ftfy_exact = sum(f == case["expected"] for case, m, f in members)
        only_ftfy = [(c, m, f) for c, m, f in members
                     if f == c["expected"] and m != c["expected"]]
        only_ours = [(c, m, f) for c, m, f in members
                     if m == c["expected"] and f != c["expected"]]
        counts = [len(members), ours_exact, ftfy_exact, len(only_ftfy), len(only_ours)]
        totals = [a + b for a, b in zip(totals, counts)]
        lines.append(f"| {name} | " + " | ".join(str(n) for n in counts) + " |")
        rows.append((name, only_ftfy, only_ours))
    lines.append("| **all** | " + " | ".join(f"**{n}**" for n in totals) + " |")
    changed_mine = [(t, m) for t, m in zip(texts, clean_mine) if m != t]
    changed_ftfy = [(t, f) for t, f in zip(texts, clean_ftfy) if f != t]
    lines.append("")
    lines.append(f"correct lines changed: mojiscope {len(changed_mine)}/{len(texts)}, "
                 f"ftfy {len(changed_ftfy)}/{len(texts)}")
    table = "\n".join(lines)
    with open(os.path.join(args.out, "summary.md"), "w", encoding="utf-8") as file:
        file.write(table + "\n")
    print(table)

    def slug(name):
        return "".join(c if c.isalnum() else "-" for c in name.lower())

    for name, only_ftfy, only_ours in rows:
        with open(os.path.join(args.out, slug(name) + ".txt"), "w", encoding="utf-8") as file:
            for title, group in [("only ftfy exact", only_ftfy),
                                 ("only mojiscope exact", only_ours)]:
                file.write(f"## {title}: {len(group)}\n")
                for case, m, f in group:
                    file.write(json.dumps({"input": case["input"], "expected": case["expected"],
                                           "mojiscope": m, "ftfy": f},
                                          ensure_ascii=False) + "\n")
        if only_ftfy and args.examples:
            print(f"\n### {name}: only ftfy exact ({len(only_ftfy)})")
            for case, m, f in only_ftfy[:args.examples]:
                print(f"  input    {case['input']!r}\n  expected {case['expected']!r}\n"
                      f"  ours     {m!r}")
    with open(os.path.join(args.out, "correct-changed.txt"), "w", encoding="utf-8") as file:
        for who, group in [("mojiscope", changed_mine), ("ftfy", changed_ftfy)]:
            file.write(f"## {who}: {len(group)}\n")
            for text, out in group:
                file.write(json.dumps({"input": text, "output": out}, ensure_ascii=False) + "\n")
    for who, group in [("mojiscope", changed_mine), ("ftfy", changed_ftfy)]:
        for text, out in group[:args.examples]:
            print(f"\ncorrect line changed by {who}: {text!r} -> {out!r}")


if __name__ == "__main__":
    main()
