#!/usr/bin/env python3
"""Writes core/tests/repair/data/negatives.txt: correct text in many
languages and scripts, with mathematics and box drawing, that the repair
must leave unchanged (core/tests/repair/negatives.rs).

Sources (both permissive; see core/tests/repair/data/SOURCES.md):
- the Unicode CLDR, as the babel package ships it: the names of
  territories, languages, scripts and currencies, and the months and days,
  in every locale CLDR has; and the territory names in capitals, as maps,
  forms and passports write them;
- SymPy's tests of its pretty printer (sympy/printing/pretty/tests/
  test_pretty.py in the SymPy source distribution): the expected output of
  formulas drawn with box-drawing characters, mathematical operators,
  Greek letters, superscripts and subscripts;
- the word lists of the Faker package's locales: personal names, street
  addresses and company names in 43 locales (Portuguese, Spanish, French,
  Nordic, Vietnamese, Turkish, Hungarian, Romanian, Baltic, Slavic, Greek,
  Hebrew, Arabic, Persian, CJK and more), and names and cities in capitals,
  as forms and labels write them, drawn with a fixed seed;
- the emoji package's table: emoji in runs and with their names in twelve
  languages, as chat and social media text writes them.

    pip install babel==2.18.0 faker==40.54.0 emoji==2.16.0
    pip download --no-deps --no-binary :all: sympy==1.13.3
    python3 tools/repair-negatives.py sympy-1.13.3.tar.gz

Re-running it with the same versions gives no diff.
"""

import ast
import io
import os
import sys
import tarfile

import random

import babel
import emoji
import faker
from babel import Locale, localedata

OUT = os.path.join(os.path.dirname(__file__), "..", "core", "tests", "repair",
                   "data", "negatives.txt")
NAMES_PER_LINE = 6


def cldr_lines():
    lines = []
    for identifier in sorted(localedata.locale_identifiers()):
        # The base locales: regional variants repeat their names.
        if "_" in identifier:
            continue
        try:
            locale = Locale.parse(identifier)
        except (ValueError, babel.UnknownLocaleError):
            continue
        groups = [
            sorted(set(locale.territories.values()))[:60],
            sorted(set(locale.languages.values()))[:30],
            sorted(set(locale.scripts.values()))[:12],
            sorted(set(locale.currencies.values()))[:24],
            list(locale.months["format"]["wide"].values()),
            list(locale.days["format"]["wide"].values()),
        ]
        capitals = [name.upper() for name in groups[0][:30]]
        for names in groups + [capitals]:
            names = [name for name in names if name and "\n" not in name]
            for start in range(0, len(names), NAMES_PER_LINE):
                lines.append(", ".join(names[start:start + NAMES_PER_LINE]))
    return lines


def sympy_lines(archive):
    with tarfile.open(archive) as tar:
        member = next(m for m in tar.getmembers()
                      if m.name.endswith("sympy/printing/pretty/tests/test_pretty.py"))
        source = tar.extractfile(member).read().decode("utf-8")
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            for line in node.value.split("\n"):
                line = line.rstrip()
                if line.strip() and not line.isascii():
                    lines.append(line)
    return lines


FAKER_LOCALES = [
    "pt_BR", "pt_PT", "es_ES", "es_MX", "fr_FR", "fr_CA", "de_DE", "de_AT",
    "sv_SE", "da_DK", "no_NO", "fi_FI", "is_IS", "vi_VN", "tr_TR", "hu_HU",
    "ro_RO", "pl_PL", "cs_CZ", "sk_SK", "hr_HR", "sl_SI", "lt_LT", "lv_LV",
    "et_EE", "ru_RU", "uk_UA", "bg_BG", "el_GR", "he_IL", "ar_AA", "fa_IR",
    "ja_JP", "ko_KR", "zh_CN", "zh_TW", "it_IT", "nl_NL", "az_AZ", "hy_AM",
    "ka_GE", "th_TH", "id_ID",
]


def faker_lines():
    lines = []
    for locale in FAKER_LOCALES:
        fake = faker.Faker(locale)
        fake.seed_instance(17)
        for _ in range(60):
            lines.append(fake.name() + ", " + fake.address().replace("\n", ", "))
            lines.append(fake.name().upper() + " — " + fake.city().upper())
            lines.append(fake.company())
    return lines


EMOJI_LANGUAGES = ["es", "pt", "fr", "de", "it", "ru", "ja", "ko", "zh", "tr", "fa", "id"]


def emoji_lines():
    table = sorted(emoji.EMOJI_DATA.items())
    random.Random(17).shuffle(table)
    lines = []
    for start in range(0, 1800, 6):
        chunk = table[start:start + 6]
        lines.append(" ".join(e for e, _ in chunk) + " " + "".join(e for e, _ in chunk[:3]) + "!!")
        for language in EMOJI_LANGUAGES:
            named = [(e, data[language]) for e, data in chunk if data.get(language)]
            if named:
                lines.append(" ".join(e + name.strip(":").replace("_", " ")
                                      for e, name in named))
    return lines


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: repair-negatives.py sympy-VERSION.tar.gz")
    seen = set()
    out = io.StringIO()
    out.write(f"# Generated by tools/repair-negatives.py (CLDR via babel {babel.__version__}, "
              f"{os.path.basename(sys.argv[1])}, faker {faker.VERSION}, "
              f"emoji {emoji.__version__}); do not edit.\n")
    for line in cldr_lines() + sympy_lines(sys.argv[1]) + faker_lines() + emoji_lines():
        if line in seen or line.isascii():
            continue
        seen.add(line)
        out.write(line + "\n")
    with open(OUT, "w", encoding="utf-8", newline="\n") as file:
        file.write(out.getvalue())


if __name__ == "__main__":
    main()
