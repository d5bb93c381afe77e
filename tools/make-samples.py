#!/usr/bin/env python3
"""Writes the sample files built into the desktop app (app/samples/).

Usage: tools/make-samples.py   (from anywhere; re-running it gives no diff)

Each sample is real text in the public domain (sources in
app/samples/SOURCES.md), put in the state the sample shows: in a legacy
encoding, damaged, double-encoded, in two encodings at once, in UTF-16
without a byte order mark, or declaring the wrong encoding.
"""

import os

# The Constitution of Japan (1946), the start of its preamble. Works of the
# Japanese state such as the constitution have no copyright (Copyright Act
# of Japan, article 13).
JAPANESE = (
    "日本国憲法 前文\n\n"
    "日本国民は、正当に選挙された国会における代表者を通じて行動し、"
    "われらとわれらの子孫のために、諸国民との協和による成果と、"
    "わが国全土にわたつて自由のもたらす恵沢を確保し、"
    "政府の行為によつて再び戦争の惨禍が起ることのないやうにすることを決意し、"
    "ここに主権が国民に存することを宣言し、この憲法を確定する。\n"
)

# Declaration of the Rights of Man and of the Citizen (1789), articles 1
# and 2: public domain.
FRENCH = (
    "Déclaration des droits de l'homme et du citoyen de 1789\n\n"
    "Article premier. Les hommes naissent et demeurent libres et égaux en droits. "
    "Les distinctions sociales ne peuvent être fondées que sur l'utilité commune.\n"
    "Article 2. Le but de toute association politique est la conservation des "
    "droits naturels et imprescriptibles de l'homme. Ces droits sont la liberté, "
    "la propriété, la sûreté, et la résistance à l'oppression.\n"
)

# Alexander Pushkin, "К ***" (1825), the first stanza: public domain.
RUSSIAN = (
    "Александр Пушкин. К ***\n\n"
    "Я помню чудное мгновенье:\n"
    "Передо мной явилась ты,\n"
    "Как мимолетное виденье,\n"
    "Как гений чистой красоты.\n"
)


def utf8_with_errors():
    """UTF-8 with three kinds of damage: a lone continuation byte, a
    truncated sequence, and a byte that is never UTF-8."""
    data = bytearray((FRENCH + "\n" + RUSSIAN + "\n" + JAPANESE).encode("utf-8"))
    égaux = data.index("égaux".encode("utf-8"))
    data[égaux] = 0xE9  # é written in windows-1252: C3 A9 -> E9 A9
    sûreté = data.index("sûreté".encode("utf-8"))
    del data[sûreté + 1]  # û loses its first byte: a lone BB
    data[data.index(b"oppression")] = 0xFF  # a byte no UTF-8 has
    return bytes(data)


def samples():
    html = (
        '<!DOCTYPE html>\n<html lang="ru">\n<head>\n<meta charset="utf-8">\n'
        "<title>Пушкин</title>\n</head>\n<body>\n<pre>\n"
        + RUSSIAN
        + "</pre>\n</body>\n</html>\n"
    )
    return {
        "shift-jis.txt": JAPANESE.encode("shift_jis"),
        "utf-8-with-errors.txt": utf8_with_errors(),
        "double-encoded.txt": FRENCH.encode("utf-8").decode("cp1252").encode("utf-8"),
        "two-encodings.txt": FRENCH.encode("utf-8")
        + b"\n"
        + FRENCH.encode("cp1252"),
        "utf-16le-without-bom.txt": RUSSIAN.encode("utf-16-le"),
        "wrong-declaration.html": html.encode("cp1251"),
    }


def main():
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "app", "samples")
    os.makedirs(out, exist_ok=True)
    for name, data in samples().items():
        with open(os.path.join(out, name), "wb") as file:
            file.write(data)


if __name__ == "__main__":
    main()
