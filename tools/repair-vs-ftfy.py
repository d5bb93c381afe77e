#!/usr/bin/env python3
"""Compares mojiscope's mojibake repair with ftfy, side by side, on the same
inputs: accuracy on the real-world development set and on the generated
test set, and speed on the repair benchmark's inputs.

    pip install ftfy
    python3 tools/repair-vs-ftfy.py [--no-speed]

Run from anywhere in the repository; it builds the engine's example
program `repair_lines` (cargo build --release -p mojiscope-core --example
repair_lines) and runs it on each set. The real-world set is read from
../shared/data/repair-dev/cases.jsonl beside the workspace (or
MOJISCOPE_REPAIR_DEV).

ftfy runs twice: as `ftfy.fix_text` with its defaults, which also
straightens quotes, widens or narrows characters and normalises (so it
changes correct text that is not mojibake), and with only its encoding
fixes on (uncurl_quotes, fix_character_width, fix_latin_ligatures,
fix_line_breaks, remove_control_chars, unescape_html and normalization
off), which is the comparison that matters for mojibake.

A case counts as exact when the output equals the expected text, and a
correct text as changed when the output differs from it. The figures go to
core/REPAIR.md.
"""

import json
import os
import subprocess
import sys
import tempfile
import time

import ftfy

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
DEV = os.environ.get(
    "MOJISCOPE_REPAIR_DEV",
    os.path.join(ROOT, "..", "shared", "data", "repair-dev", "cases.jsonl"),
)
GENERATED = os.path.join(ROOT, "core", "tests", "repair", "data", "cases.jsonl")
SENTENCES = os.path.join(ROOT, "core", "tests", "repair", "data", "sentences.tsv")

ENCODING_ONLY = ftfy.TextFixerConfig(
    unescape_html=False,
    remove_terminal_escapes=False,
    fix_latin_ligatures=False,
    fix_character_width=False,
    uncurl_quotes=False,
    fix_line_breaks=False,
    remove_control_chars=False,
    normalization=None,
    explain=False,
)


def build():
    subprocess.run(
        ["cargo", "build", "--quiet", "--release", "-p", "mojiscope-core",
         "--example", "repair_lines"],
        cwd=ROOT, check=True)
    return os.path.join(ROOT, "target", "release", "examples", "repair_lines")


def ours(program, texts):
    """Our repair of each text, through the example program."""
    lines = "\n".join(json.dumps(text) for text in texts) + "\n"
    done = subprocess.run([program], input=lines, capture_output=True,
                          text=True, check=True)
    # Split at line feeds only: the outputs may hold U+0085 or U+2028.
    return [json.loads(line)["output"] for line in done.stdout.split("\n") if line]


def fixers(program):
    return [
        ("mojiscope", lambda texts: ours(program, texts)),
        ("ftfy (encoding fixes only)",
         lambda texts: [ftfy.fix_text(text, ENCODING_ONLY) for text in texts]),
        ("ftfy (defaults)", lambda texts: [ftfy.fix_text(text) for text in texts]),
    ]


def score(cases, outputs):
    positives = [(case, out) for case, out in zip(cases, outputs) if case["damaged"]]
    negatives = [(case, out) for case, out in zip(cases, outputs) if not case["damaged"]]
    exact = sum(out == case["expected"] for case, out in positives)
    changed = sum(out != case["input"] for case, out in negatives)
    return exact, len(positives), changed, len(negatives)


def load_dev():
    cases = []
    with open(DEV, encoding="utf-8") as file:
        for line in file:
            if line.strip():
                case = json.loads(line)
                cases.append({
                    "input": case["garbled"],
                    "expected": case["expected"],
                    "damaged": case["chain"] != "negative",
                    "kind": kind(case["chain"]),
                })
    return cases


def kind(chain):
    """The kind of damage, from the chain's description: the grouping of
    core/tests/repair/real.rs."""
    first = chain.split(";")[0]

    def starts(*prefixes):
        return any(first.startswith(prefix) for prefix in prefixes)

    if chain == "negative":
        return "correct text"
    if "CESU-8" in first:
        return "CESU-8 emoji"
    if any(word in first for word in ("twice", "times", "then UTF-8", "re-encoded")):
        return "two or more rounds"
    if (any(word in first for word in ("U+FFFD", "unmappable", "read as UTF-8",
                                         "converted to"))
            or first.startswith("windows-1258")):
        return "lossy (U+FFFD, ?)"
    if any(word in first for word in ("mixed", "one field", "one word")):
        return "partial or mixed"
    if starts("UTF-8 read as cp437", "UTF-8 read as cp850"):
        return "UTF-8 read as cp437/cp850"
    if starts("UTF-8 read as windows-1252", "UTF-8 read as ISO-8859-1"):
        return "UTF-8 read as windows-1252/ISO-8859-1"
    if starts("UTF-8 read as Shift_JIS", "UTF-8 read as GB", "UTF-8 read as EUC"):
        return "UTF-8 read as a CJK encoding"
    if first.startswith("UTF-8 read as"):
        return "UTF-8 read as another single-byte page"
    if starts("GBK", "Big5", "Shift_JIS", "EUC-KR", "EUC-JP"):
        return "CJK read as a single-byte page"
    return "single-byte page read as another"


def load_generated():
    cases = []
    with open(GENERATED, encoding="utf-8") as file:
        for line in file:
            if line.strip():
                case = json.loads(line)
                cases.append({
                    "input": case["input"],
                    "expected": case["expected"],
                    "damaged": case["damage"] != "",
                })
    return cases


def accuracy(program):
    print("| set | fixer | damaged repaired exactly | correct texts changed |")
    print("|---|---|---:|---:|")
    dev_outputs = {}
    for name, cases in [("repair-dev (real)", load_dev()),
                        ("generated", load_generated())]:
        texts = [case["input"] for case in cases]
        for fixer, run in fixers(program):
            outputs = run(texts)
            if name.startswith("repair-dev"):
                dev_outputs[fixer] = outputs
            exact, positives, changed, negatives = score(cases, outputs)
            print(f"| {name} | {fixer} | {exact}/{positives} "
                  f"({100 * exact / positives:.1f}%) | {changed}/{negatives} |")
    # The real-world set kind by kind: exact repairs (unchanged correct
    # texts for the correct ones).
    cases = load_dev()
    names = list(dev_outputs)
    print()
    print("| repair-dev kind | cases | " + " | ".join(names) + " |")
    print("|---|---:|" + "---:|" * len(names))
    for group in sorted({case["kind"] for case in cases}):
        members = [index for index, case in enumerate(cases) if case["kind"] == group]
        counts = [sum(dev_outputs[fixer][index] == cases[index]["expected"]
                      for index in members) for fixer in names]
        print(f"| {group} | {len(members)} | "
              + " | ".join(str(count) for count in counts) + " |")


def bench_inputs():
    """The repair benchmark's inputs (core/benches/repair.rs), built the
    same way: about 10 MB of lines from the test set's sentences."""
    sentences = []
    with open(SENTENCES, encoding="utf-8") as file:
        for line in file:
            if line.startswith("#") or "\t" not in line:
                continue
            sentences.append(line.rstrip("\n").split("\t", 1)[1])

    def pick(n):
        return sentences[n * 7 % len(sentences)]

    def misread(text):
        # UTF-8 read as windows-1252 the Encoding Standard's way (the five
        # bytes it leaves undefined become C1 controls).
        return "".join(
            chr(byte) if byte in (0x81, 0x8D, 0x8F, 0x90, 0x9D)
            else bytes([byte]).decode("cp1252")
            for byte in text.encode("utf-8"))

    def build_text(line):
        parts, size, n = [], 0, 0
        while size < 10_000_000:
            text = line(n) + "\n"
            parts.append(text)
            size += len(text.encode("utf-8"))
            n += 1
        return "".join(parts)

    return [
        ("correct text, 25 languages", build_text(pick)),
        ("all damaged (UTF-8 read as windows-1252)",
         build_text(lambda n: misread(pick(n)))),
        ("one line in four damaged",
         build_text(lambda n: misread(pick(n)) if n % 4 == 0 else pick(n))),
    ]


def speed(program):
    print()
    print("| input (about 10 MB) | mojiscope | ftfy (encoding fixes only) |")
    print("|---|---:|---:|")
    with tempfile.TemporaryDirectory() as folder:
        for name, text in bench_inputs():
            path = os.path.join(folder, "input.txt")
            with open(path, "w", encoding="utf-8") as file:
                file.write(text)
            done = subprocess.run([program, "--time", path], capture_output=True,
                                  text=True, check=True)
            our_seconds = float(done.stdout.split("\t")[1])
            start = time.perf_counter()
            ftfy.fix_text(text, ENCODING_ONLY)
            ftfy_seconds = time.perf_counter() - start
            print(f"| {name} | {our_seconds:.2f} s | {ftfy_seconds:.2f} s |")


def main():
    program = build()
    accuracy(program)
    if "--no-speed" not in sys.argv:
        speed(program)


if __name__ == "__main__":
    main()
