//! The generator of the repair test set: takes the clean sentences of
//! `data/sentences.tsv` and the correct text of `data/tricky.txt`, damages
//! the sentences by every chain the repair undoes, and writes every case with
//! its expected output to `data/cases.jsonl`.
//!
//! The damage is done with `encoding_rs`, not with this crate's engine, so
//! that the fixtures do not depend on the code under test. What the repair
//! must return is fixed here, by rules that need no heuristics: the original
//! text, except for characters whose bytes were lost on the way, which come
//! back only where the surviving bytes leave exactly one possibility and are
//! U+FFFD otherwise.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::Path;

use encoding_rs::Encoding;

/// One case: a text, and what repairing it must give.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// Unique, and says what the case is.
    pub id: String,
    /// The row of the results table the case counts in.
    pub category: String,
    /// The language of the text (ISO 639-3, or "mixed").
    pub language: String,
    /// How the text was damaged, in words; empty for clean text.
    pub damage: String,
    /// The text given to the repair.
    pub input: String,
    /// What the repair must return.
    pub expected: String,
    /// For damage that lost bytes, the text before the damage: where
    /// `expected` has U+FFFD for a character whose bytes were lost, a
    /// repair may give that character instead, restored from the lost
    /// byte the rest of the text makes clear (and only that character).
    pub original: Option<String>,
}

impl Case {
    /// Whether the text was damaged (a negative case is not).
    pub fn is_damaged(&self) -> bool {
        !self.damage.is_empty()
    }

    /// The case as one line of JSON.
    pub fn to_json(&self) -> String {
        let mut value = serde_json::json!({
            "id": self.id,
            "category": self.category,
            "language": self.language,
            "damage": self.damage,
            "input": self.input,
            "expected": self.expected,
        });
        if let Some(original) = &self.original {
            value["original"] = serde_json::Value::from(original.as_str());
        }
        value.to_string()
    }

    /// Whether `output` is what the repair must return: `expected`, but
    /// for characters lost in it (U+FFFD) that `output` restored to what
    /// they were in [`Case::original`].
    pub fn accepts(&self, output: &str) -> bool {
        if output == self.expected {
            return true;
        }
        let Some(original) = &self.original else {
            return false;
        };
        let (mut output, mut expected) = (output.chars(), self.expected.chars());
        let mut original = original.chars();
        loop {
            match (output.next(), expected.next(), original.next()) {
                (None, None, _) => return true,
                (Some(got), Some(want), was) => {
                    if got != want && !(want == '\u{FFFD}' && Some(got) == was) {
                        return false;
                    }
                }
                _ => return false,
            }
        }
    }

    /// A case from one line of JSON.
    pub fn from_json(line: &str) -> Result<Self, String> {
        let value: serde_json::Value = serde_json::from_str(line).map_err(|e| e.to_string())?;
        let field = |name: &str| {
            value[name]
                .as_str()
                .map(str::to_owned)
                .ok_or_else(|| format!("no string field {name:?} in {line}"))
        };
        Ok(Self {
            id: field("id")?,
            category: field("category")?,
            language: field("language")?,
            damage: field("damage")?,
            input: field("input")?,
            expected: field("expected")?,
            original: value["original"].as_str().map(str::to_owned),
        })
    }
}

/// A decoder that misreads UTF-8: one of the standard's single-byte
/// encodings, or ISO-8859-1 taken byte for code point (C1 controls kept).
#[derive(Clone, Copy, Debug)]
enum Misread {
    Encoding(&'static Encoding),
    Latin1,
}

impl Misread {
    fn name(self) -> &'static str {
        match self {
            Self::Encoding(encoding) => encoding.name(),
            Self::Latin1 => "ISO-8859-1 (bytes)",
        }
    }

    /// The character a byte decodes to, or `None` where the decoder reports
    /// an error.
    fn decode_byte(self, byte: u8) -> Option<char> {
        match self {
            Self::Latin1 => Some(char::from(byte)),
            Self::Encoding(encoding) => {
                let bytes = [byte];
                let (text, had_errors) = encoding.decode_without_bom_handling(&bytes);
                (!had_errors).then(|| text.chars().next()).flatten()
            }
        }
    }

    /// The bytes the decoders of this encoding are known to lose: those
    /// the standard leaves unassigned, and those it maps to the C1 control
    /// of the same value because the vendor's table has nothing there.
    fn lost_bytes(self) -> BTreeSet<u8> {
        (0x80..=0xFF_u8)
            .filter(|&byte| match self.decode_byte(byte) {
                None => true,
                Some(c) => u32::from(c) == u32::from(byte) && byte < 0xA0,
            })
            .collect()
    }
}

/// The decoders that misread UTF-8, most common first.
fn misreads() -> [Misread; 11] {
    [
        Misread::Encoding(encoding_rs::WINDOWS_1252),
        Misread::Latin1,
        Misread::Encoding(encoding_rs::WINDOWS_1251),
        Misread::Encoding(encoding_rs::WINDOWS_1250),
        Misread::Encoding(encoding_rs::MACINTOSH),
        Misread::Encoding(encoding_rs::KOI8_R),
        Misread::Encoding(encoding_rs::IBM866),
        Misread::Encoding(encoding_rs::WINDOWS_1253),
        Misread::Encoding(encoding_rs::WINDOWS_1254),
        Misread::Encoding(encoding_rs::WINDOWS_1257),
        Misread::Encoding(encoding_rs::KOI8_U),
    ]
}

/// What happened to a byte its decoder lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Loss {
    /// It vanished.
    Dropped,
    /// It became "?".
    Question,
    /// It became U+FFFD.
    Replacement,
}

impl Loss {
    fn name(self) -> &'static str {
        match self {
            Self::Dropped => "dropped",
            Self::Question => "turned into \"?\"",
            Self::Replacement => "turned into U+FFFD",
        }
    }
}

/// `text`'s UTF-8 read by `misread`. `None` if the decoder lost a byte (the
/// lossy cases are made by [`misread_lossy`]).
fn misread_utf8(text: &str, misread: Misread) -> Option<String> {
    text.bytes().map(|byte| misread.decode_byte(byte)).collect()
}

/// `text`'s UTF-8 read by `misread`, with the bytes its decoders lose
/// treated as `loss` says (an unassigned byte always becomes U+FFFD, as the
/// standard's decoder writes it). Returns the damaged text and what a repair
/// must make of it, or `None` if nothing was lost or a lost byte was a lead
/// byte (then not even the length of the character is known).
fn misread_lossy(text: &str, misread: Misread, loss: Loss) -> Option<(String, String)> {
    let lost = misread.lost_bytes();
    let continuations: Vec<u8> = lost.iter().copied().filter(|b| *b < 0xC0).collect();
    let mut damaged = String::new();
    let mut expected = String::new();
    let mut any_lost = false;
    for c in text.chars() {
        let mut buffer = [0; 4];
        let bytes = c.encode_utf8(&mut buffer).as_bytes();
        let mut kept: Vec<Option<u8>> = Vec::new();
        let mut dropped = 0;
        for (index, &byte) in bytes.iter().enumerate() {
            let unassigned = misread.decode_byte(byte).is_none();
            if !lost.contains(&byte) {
                damaged.push(misread.decode_byte(byte)?);
                kept.push(Some(byte));
                continue;
            }
            if index == 0 {
                return None;
            }
            let effect = if unassigned { Loss::Replacement } else { loss };
            match effect {
                Loss::Dropped => dropped += 1,
                Loss::Question => {
                    damaged.push('?');
                    kept.push(None);
                }
                Loss::Replacement => {
                    damaged.push(char::REPLACEMENT_CHARACTER);
                    kept.push(None);
                }
            }
        }
        if kept.len() == bytes.len() && kept.iter().all(Option::is_some) {
            expected.push(c);
            continue;
        }
        any_lost = true;
        let candidates = candidates(&kept, dropped, &continuations);
        match candidates.as_slice() {
            [only] => expected.push(*only),
            _ => expected.push(char::REPLACEMENT_CHARACTER),
        }
    }
    any_lost.then_some((damaged, expected))
}

/// Every character whose UTF-8 fits `kept` (unknown bytes `None`) with
/// `dropped` more bytes anywhere after the first, unknown bytes being any of
/// `continuations`.
fn candidates(kept: &[Option<u8>], dropped: usize, continuations: &[u8]) -> Vec<char> {
    let mut layouts = vec![kept.to_vec()];
    for _ in 0..dropped {
        let mut next = Vec::new();
        for layout in &layouts {
            for position in 1..=layout.len() {
                let mut with = layout.clone();
                with.insert(position, None);
                if !next.contains(&with) {
                    next.push(with);
                }
            }
        }
        layouts = next;
    }
    let mut found = BTreeSet::new();
    for layout in layouts {
        let mut sequences: Vec<Vec<u8>> = vec![Vec::new()];
        for unit in layout {
            let choices: Vec<u8> = match unit {
                Some(byte) => vec![byte],
                None => continuations.to_vec(),
            };
            sequences = sequences
                .into_iter()
                .flat_map(|prefix| {
                    choices.iter().map(move |&byte| {
                        let mut longer = prefix.clone();
                        longer.push(byte);
                        longer
                    })
                })
                .collect();
        }
        for sequence in sequences {
            if let Ok(decoded) = std::str::from_utf8(&sequence) {
                let mut chars = decoded.chars();
                if let (Some(c), None) = (chars.next(), chars.next()) {
                    found.insert(c);
                }
            }
        }
    }
    found.into_iter().collect()
}

/// `text` encoded in the legacy `encoding`, read as windows-1252: `None` if
/// the encoding cannot encode all of it.
fn legacy(text: &str, encoding: &'static Encoding) -> Option<String> {
    let (bytes, _, unmappable) = encoding.encode(text);
    if unmappable {
        return None;
    }
    let (damaged, had_errors) = encoding_rs::WINDOWS_1252.decode_without_bom_handling(&bytes);
    (!had_errors).then(|| damaged.into_owned())
}

/// The legacy encodings and the languages whose text they hold.
fn legacy_sources() -> [(&'static Encoding, &'static [&'static str]); 8] {
    [
        (encoding_rs::SHIFT_JIS, &["jpn"]),
        (encoding_rs::EUC_JP, &["jpn"]),
        (encoding_rs::GBK, &["cmn_hans"]),
        (encoding_rs::GB18030, &["cmn_hans"]),
        (encoding_rs::BIG5, &["cmn_hant"]),
        (encoding_rs::EUC_KR, &["kor"]),
        (encoding_rs::WINDOWS_1251, &["rus", "ukr", "bul", "srp"]),
        (encoding_rs::WINDOWS_1250, &["pol", "ces", "hun"]),
    ]
}

/// A sentence of the test set.
#[derive(Clone, Debug)]
struct Sentence {
    language: String,
    /// Its position among its language's sentences.
    index: usize,
    text: String,
}

fn read_sentences(data: &Path) -> Vec<Sentence> {
    let path = data.join("sentences.tsv");
    let tsv = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut sentences: Vec<Sentence> = Vec::new();
    for line in tsv
        .lines()
        .filter(|line| !line.starts_with('#') && !line.is_empty())
    {
        let (language, text) = line
            .split_once('\t')
            .unwrap_or_else(|| panic!("no tab in {line:?}"));
        let index = sentences
            .iter()
            .filter(|sentence| sentence.language == language)
            .count();
        sentences.push(Sentence {
            language: language.to_owned(),
            index,
            text: text.to_owned(),
        });
    }
    sentences
}

fn read_tricky(data: &Path) -> Vec<String> {
    let path = data.join("tricky.txt");
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(str::to_owned)
        .collect()
}

/// Collects cases, numbering them within each category.
#[derive(Default)]
struct Cases {
    cases: Vec<Case>,
}

impl Cases {
    fn push(
        &mut self,
        category: &str,
        language: &str,
        damage: &str,
        input: String,
        expected: String,
    ) {
        self.push_lossy(category, language, damage, input, expected, None);
    }

    /// As [`Cases::push`], for damage that lost bytes of `original`.
    fn push_lossy(
        &mut self,
        category: &str,
        language: &str,
        damage: &str,
        input: String,
        expected: String,
        original: Option<String>,
    ) {
        // Damage that changed nothing (ASCII text) makes no case.
        if !damage.is_empty() && input == expected {
            return;
        }
        let number = self
            .cases
            .iter()
            .filter(|case| case.category == category)
            .count()
            + 1;
        let slug: String = category
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() {
                    c.to_ascii_lowercase()
                } else {
                    '-'
                }
            })
            .collect();
        self.cases.push(Case {
            id: format!("{slug}/{language}/{number}"),
            category: category.to_owned(),
            language: language.to_owned(),
            damage: damage.to_owned(),
            input,
            expected,
            original,
        });
    }
}

/// Every case of the test set, in a fixed order.
pub fn generate(data: &Path) -> Vec<Case> {
    let sentences = read_sentences(data);
    let mut cases = Cases::default();
    damaged_whole(&sentences, &mut cases);
    damaged_legacy(&sentences, &mut cases);
    damaged_partial(&sentences, &mut cases);
    damaged_lossy(&sentences, &mut cases);
    negatives(&sentences, &read_tricky(data), &mut cases);
    cases.cases
}

/// Whole sentences through one, two and three wrong decodes.
fn damaged_whole(sentences: &[Sentence], cases: &mut Cases) {
    let misreads = misreads();
    for (position, &misread) in misreads.iter().enumerate() {
        // Every sentence through the two commonest; half of them through the
        // rest.
        let per_language = if position < 2 { 8 } else { 4 };
        for sentence in sentences.iter().filter(|s| s.index < per_language) {
            let Some(once) = misread_utf8(&sentence.text, misread) else {
                continue;
            };
            let category = format!("UTF-8 read as {}", misread.name());
            let damage = format!("UTF-8 read as {}", misread.name());
            cases.push(
                &category,
                &sentence.language,
                &damage,
                once.clone(),
                sentence.text.clone(),
            );
            // Two layers for the title and one article, three for the title.
            if (sentence.index == 0 || sentence.index == 2)
                && let Some(twice) = misread_utf8(&once, misread)
            {
                let damage = format!("UTF-8 read as {}, twice", misread.name());
                cases.push(
                    "two layers",
                    &sentence.language,
                    &damage,
                    twice.clone(),
                    sentence.text.clone(),
                );
                if sentence.index == 0
                    && let Some(thrice) = misread_utf8(&twice, misread)
                {
                    let damage = format!("UTF-8 read as {}, three times", misread.name());
                    cases.push(
                        "three layers",
                        &sentence.language,
                        &damage,
                        thrice,
                        sentence.text.clone(),
                    );
                }
            }
        }
    }
    // Two different wrong decodes in a row.
    let pairs = [(0, 2), (2, 0), (3, 0), (4, 0), (1, 0), (0, 1)];
    for (first, second) in pairs {
        let (first, second) = (misreads[first], misreads[second]);
        for sentence in sentences.iter().filter(|s| s.index == 2) {
            let Some(twice) =
                misread_utf8(&sentence.text, first).and_then(|once| misread_utf8(&once, second))
            else {
                continue;
            };
            let damage = format!("UTF-8 read as {}, then as {}", first.name(), second.name());
            cases.push(
                "two layers, two encodings",
                &sentence.language,
                &damage,
                twice,
                sentence.text.clone(),
            );
        }
    }
}

/// Legacy text read as windows-1252 and saved as UTF-8, alone and then read
/// as windows-1252 again once or twice.
fn damaged_legacy(sentences: &[Sentence], cases: &mut Cases) {
    let windows_1252 = Misread::Encoding(encoding_rs::WINDOWS_1252);
    for (encoding, languages) in legacy_sources() {
        for sentence in sentences
            .iter()
            .filter(|s| languages.contains(&s.language.as_str()))
        {
            let Some(once) = legacy(&sentence.text, encoding) else {
                continue;
            };
            let category = format!("{} read as windows-1252", encoding.name());
            cases.push(
                &category,
                &sentence.language,
                &category,
                once.clone(),
                sentence.text.clone(),
            );
            if sentence.index % 2 == 0
                && let Some(twice) = misread_utf8(&once, windows_1252)
            {
                let damage = format!("{category}, then UTF-8 read as windows-1252");
                cases.push(
                    "legacy, two layers",
                    &sentence.language,
                    &damage,
                    twice.clone(),
                    sentence.text.clone(),
                );
                if sentence.index % 4 == 0
                    && let Some(thrice) = misread_utf8(&twice, windows_1252)
                {
                    let damage = format!("{category}, then UTF-8 read as windows-1252 twice");
                    cases.push(
                        "legacy, three layers",
                        &sentence.language,
                        &damage,
                        thrice,
                        sentence.text.clone(),
                    );
                }
            }
        }
    }
}

/// The damage of a chain to a piece of text, for the partial cases.
fn damage_piece(text: &str, language: &str, round: usize) -> (String, String) {
    let misreads = misreads();
    // Legacy damage where the language has a legacy encoding, on every
    // third case; otherwise UTF-8 read as one of the wrong decoders in turn.
    if round % 3 == 2
        && let Some((encoding, _)) = legacy_sources()
            .into_iter()
            .find(|(_, languages)| languages.contains(&language))
        && let Some(damaged) = legacy(text, encoding)
    {
        return (damaged, format!("{} read as windows-1252", encoding.name()));
    }
    let misread = misreads[round % 4];
    let damaged = misread_utf8(text, misread).unwrap_or_else(|| text.to_owned());
    (damaged, format!("UTF-8 read as {}", misread.name()))
}

/// Texts where only some lines, fields or words are damaged.
fn damaged_partial(sentences: &[Sentence], cases: &mut Cases) {
    let count = sentences.len();
    // Lines: three sentences of different languages, the middle one damaged.
    for (round, sentence) in sentences.iter().enumerate().filter(|(i, _)| i % 2 == 0) {
        let before = &sentences[(round + 17) % count];
        let after = &sentences[(round + 41) % count];
        let (damaged, damage) = damage_piece(&sentence.text, &sentence.language, round / 2);
        let input = format!("{}\n{damaged}\n{}\n", before.text, after.text);
        let expected = format!("{}\n{}\n{}\n", before.text, sentence.text, after.text);
        cases.push(
            "partial: lines",
            &sentence.language,
            &format!("{damage}, middle line only"),
            input,
            expected,
        );
    }
    // Fields: a CSV record whose second field is damaged.
    for (round, sentence) in sentences.iter().enumerate().filter(|(i, _)| i % 2 == 1) {
        let field: String = first_words(&sentence.text, 3);
        let other = first_words(&sentences[(round + 23) % count].text, 2);
        let (damaged, damage) = damage_piece(&field, &sentence.language, round / 2);
        let input = format!(
            "{round};\"{damaged}\";\"{other}\";2024-05-{:02}\n",
            round % 28 + 1
        );
        let expected = format!(
            "{round};\"{field}\";\"{other}\";2024-05-{:02}\n",
            round % 28 + 1
        );
        cases.push(
            "partial: fields",
            &sentence.language,
            &format!("{damage}, one field only"),
            input,
            expected,
        );
    }
    // Words: one word of a correct sentence damaged.
    for (round, sentence) in sentences.iter().enumerate() {
        let words: Vec<&str> = sentence
            .text
            .split(' ')
            .filter(|word| !word.is_ascii() && word.chars().count() >= 3)
            .collect();
        let Some(word) = words.get(round % words.len().max(1)) else {
            continue;
        };
        let word = word.trim_matches(|c: char| c.is_ascii_punctuation());
        if word.is_empty() || word.is_ascii() {
            continue;
        }
        let (damaged, damage) = damage_piece(word, &sentence.language, round);
        let input = sentence.text.replacen(word, &damaged, 1);
        cases.push(
            "partial: one word",
            &sentence.language,
            &format!("{damage}, one word only"),
            input,
            sentence.text.clone(),
        );
    }
}

fn first_words(text: &str, count: usize) -> String {
    text.split(' ')
        .take(count)
        .collect::<Vec<_>>()
        .join(" ")
        .trim_end_matches(|c: char| c.is_ascii_punctuation())
        .to_owned()
}

/// Damage that lost bytes on the way.
fn damaged_lossy(sentences: &[Sentence], cases: &mut Cases) {
    let misreads = misreads();
    let windows_1252 = misreads[0];
    let latin1 = misreads[1];
    for sentence in sentences.iter().filter(|s| s.index < 3) {
        for (misread, loss) in [
            (windows_1252, Loss::Question),
            (windows_1252, Loss::Replacement),
            (windows_1252, Loss::Dropped),
            (latin1, Loss::Dropped),
            (latin1, Loss::Question),
            (latin1, Loss::Replacement),
        ] {
            let Some((input, expected)) = misread_lossy(&sentence.text, misread, loss) else {
                continue;
            };
            let category = format!("lossy: {} lost bytes {}", misread.name(), loss.name());
            let original = Some(sentence.text.clone());
            cases.push_lossy(
                &category,
                &sentence.language,
                &category,
                input,
                expected,
                original,
            );
        }
    }
    // The standard's windows-1253 and windows-1257 have unassigned bytes:
    // the damage itself writes U+FFFD for them.
    for misread in [misreads[7], misreads[9]] {
        for sentence in sentences.iter().filter(|s| s.index < 4) {
            if misread_utf8(&sentence.text, misread).is_some() {
                continue;
            }
            let Some((input, expected)) = misread_lossy(&sentence.text, misread, Loss::Replacement)
            else {
                continue;
            };
            let category = format!("lossy: UTF-8 read as {}, unassigned bytes", misread.name());
            let original = Some(sentence.text.clone());
            cases.push_lossy(
                &category,
                &sentence.language,
                &category,
                input,
                expected,
                original,
            );
        }
    }
}

/// Correct text, which must come back unchanged.
fn negatives(sentences: &[Sentence], tricky: &[String], cases: &mut Cases) {
    let clean = |cases: &mut Cases, category: &str, language: &str, text: String| {
        cases.push(category, language, "", text.clone(), text);
    };
    for sentence in sentences {
        clean(
            cases,
            "clean: sentences",
            &sentence.language,
            sentence.text.clone(),
        );
    }
    for sentence in sentences {
        let upper = sentence.text.to_uppercase();
        if upper != sentence.text {
            clean(cases, "clean: upper case", &sentence.language, upper);
        }
    }
    // Every distinct word with a character outside ASCII, as written and in
    // capitals: short texts are where plausibility is hardest to judge.
    let mut seen = BTreeSet::new();
    for sentence in sentences {
        for word in sentence.text.split([' ', ',', '.', ';', ':']) {
            if word.is_ascii() || !seen.insert((sentence.language.clone(), word.to_owned())) {
                continue;
            }
            clean(cases, "clean: words", &sentence.language, word.to_owned());
            let upper = word.to_uppercase();
            if upper != word {
                clean(cases, "clean: words in capitals", &sentence.language, upper);
            }
        }
    }
    let count = sentences.len();
    for (round, sentence) in sentences.iter().enumerate() {
        let other = &sentences[(round + 37) % count];
        clean(
            cases,
            "clean: mixed scripts",
            "mixed",
            format!("{} | {}", sentence.text, other.text),
        );
        let decorations = [
            "😀",
            "© 2024 → №5",
            "«…»",
            "½ × 3 = 1.5 ±0.1",
            "🇯🇵 ★ ♥",
            "— “ok” ‘so’ †",
        ];
        let decoration = decorations[round % decorations.len()];
        clean(
            cases,
            "clean: symbols and emoji",
            &sentence.language,
            format!("{decoration} {} {decoration}", sentence.text),
        );
    }
    // Clauses, title case and whole paragraphs: more lengths and shapes.
    for sentence in sentences {
        for clause in sentence.text.split([',', ';', '.', '，', '。', '、']) {
            let clause = clause.trim();
            if !clause.is_ascii() && clause != sentence.text {
                clean(
                    cases,
                    "clean: clauses",
                    &sentence.language,
                    clause.to_owned(),
                );
            }
        }
        let title: String = sentence
            .text
            .split(' ')
            .map(|word| {
                let mut chars = word.chars();
                chars.next().map_or_else(String::new, |first| {
                    first.to_uppercase().chain(chars).collect()
                })
            })
            .collect::<Vec<_>>()
            .join(" ");
        if title != sentence.text {
            clean(cases, "clean: title case", &sentence.language, title);
        }
    }
    for (round, sentence) in sentences.iter().enumerate().filter(|(i, _)| i % 2 == 0) {
        let second = &sentences[(round + 13) % count];
        let third = &sentences[(round + 71) % count];
        clean(
            cases,
            "clean: paragraphs",
            "mixed",
            format!("{}\n{}\n{}\n", sentence.text, second.text, third.text),
        );
    }
    for line in tricky {
        clean(cases, "clean: tricky", "mixed", line.clone());
    }
}

/// The cases as the fixture file's text.
pub fn render(cases: &[Case]) -> String {
    let mut out = String::new();
    for case in cases {
        writeln!(out, "{}", case.to_json()).expect("writing to a String cannot fail");
    }
    out
}
