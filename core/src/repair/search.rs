//! Finding every chain that applies to one word, and what each makes of it.

use std::sync::OnceLock;

use mojiscope_indexes::single_byte;

use super::chain::{
    Chain, EncodeAs, LEGACY_SOURCES, MAX_MIXED_STEPS, MAX_STEPS, Step, UTF8_MISREADS,
    legacy_sources,
};
use super::lossy::{self, Lost};
use super::restore::{self, Restoration};
use super::score;
use super::twice;
use crate::encoding::{
    BIG5, EUC_KR, Encoding, GBK, MACINTOSH, SHIFT_JIS, UTF_8, WINDOWS_1252, WINDOWS_1255,
};

/// One text a word can be repaired to.
#[derive(Clone, Debug)]
pub(crate) struct Outcome {
    pub(crate) text: String,
    pub(crate) cost: f32,
    /// For a legacy decode, how much its input looked like UTF-8 (see
    /// [`utf8_shape`]); 0 otherwise.
    pub(crate) utf8_shape: usize,
    /// Whether it decodes the real bytes the text came from.
    pub(crate) from_source: bool,
    /// Characters that could not be recovered (lossy repairs only).
    pub(crate) lost: Vec<Lost>,
    /// The script most of its letters are in.
    pub(crate) script: Option<score::Script>,
    /// What it brings to its line.
    pub(crate) facts: score::WordFacts,
    /// How many characters outside ASCII it has: how many damaged
    /// characters the chain explains.
    pub(crate) non_ascii: usize,
    /// Whether a further step makes it much more plausible: it is mojibake
    /// still ("â€œ" on the way from "Ã¢â‚¬Å“" to "“"), and the chain that
    /// stops at it is not the one that damaged the word.
    pub(crate) unfinished: bool,
    /// For each reading that made it with lost bytes, those the word makes
    /// clear enough to restore (see `restore`): applied to the change
    /// only, so that guessing never sways a decision.
    pub(crate) restorations: Vec<(EncodeAs, Vec<Restoration>)>,
}

impl Outcome {
    /// The outcome `text`, judged.
    pub(crate) fn new(text: String, lost: Vec<Lost>, utf8_shape: usize, from_source: bool) -> Self {
        Self {
            cost: lossy_cost(&text, &lost),
            script: score::dominant_script(&text),
            facts: score::WordFacts::of(&text),
            non_ascii: text.chars().filter(|c| !c.is_ascii()).count(),
            unfinished: false,
            restorations: Vec::new(),
            text,
            utf8_shape,
            from_source,
            lost,
        }
    }
}

impl Outcome {
    /// Records what `encode_as`'s reading restores of the lost characters.
    pub(crate) fn add_restorations(&mut self, encode_as: EncodeAs, restorations: Vec<Restoration>) {
        if !restorations.is_empty()
            && !self
                .restorations
                .iter()
                .any(|(reading, _)| *reading == encode_as)
        {
            self.restorations.push((encode_as, restorations));
        }
    }
}

/// Every repair of one word.
#[derive(Clone, Debug, Default)]
pub(crate) struct WordRepairs {
    /// The distinct texts the chains give.
    pub(crate) outcomes: Vec<Outcome>,
    /// Each chain that applies, with the index of its outcome, in the order
    /// ties are settled.
    pub(crate) chains: Vec<(Chain, usize)>,
    /// The repairer's number for each of `chains`, in the same order
    /// (filled in by the repairer, which numbers the chains it meets).
    pub(crate) ids: Vec<u32>,
}

impl WordRepairs {
    /// The index of the outcome `text`, which is added if it is new.
    fn outcome(
        &mut self,
        text: String,
        lost: Vec<Lost>,
        utf8_shape: usize,
        from_source: bool,
    ) -> usize {
        if let Some(index) = self
            .outcomes
            .iter()
            .position(|outcome| outcome.text == text)
        {
            return index;
        }
        self.outcomes
            .push(Outcome::new(text, lost, utf8_shape, from_source));
        self.outcomes.len() - 1
    }
}

/// What a repaired word costs for each character it could not recover.
pub(crate) const LOSS: f32 = 1.0;

/// What a repaired word costs. A character that could not be recovered is
/// judged as its most plausible candidate, plus what the loss itself costs:
/// the repair is honest about it, but the text is poorer.
pub(crate) fn lossy_cost(text: &str, lost: &[Lost]) -> f32 {
    // A U+FFFD decoded whole ("ï¿½" is its UTF-8 read as windows-1252) was
    // in the text before it was damaged: the repair restores it faithfully,
    // and it costs nothing more than punctuation would.
    let faithful = text.contains(char::REPLACEMENT_CHARACTER);
    if lost.is_empty() && !faithful {
        return score::word_cost(text);
    }
    let mut guessed = String::with_capacity(text.len());
    let mut done = 0;
    let punctuation = |piece: &str, guessed: &mut String| {
        for c in piece.chars() {
            guessed.push(if c == char::REPLACEMENT_CHARACTER {
                '-'
            } else {
                c
            });
        }
    };
    for lost in lost {
        punctuation(&text[done..lost.utf8_offset], &mut guessed);
        guessed.push(placeholder(
            lost.alternatives.first().copied().unwrap_or('?'),
        ));
        done = lost.utf8_offset + char::REPLACEMENT_CHARACTER.len_utf8();
    }
    punctuation(&text[done..], &mut guessed);
    score::word_cost(&guessed) + LOSS * score::small(lost.len())
}

/// A common character of the script of `c`, to stand for a lost character
/// that may have been `c` or one of its neighbours: which one is not known,
/// so the word is judged as if it were an ordinary letter of that script.
pub(crate) fn placeholder(c: char) -> char {
    let info = score::info(c);
    if info.kind != score::Kind::Letter {
        return c;
    }
    match info.script {
        score::Script::Han => '中',
        score::Script::Kana => 'の',
        score::Script::Hangul => '가',
        score::Script::Cyrillic if info.upper => 'А',
        score::Script::Cyrillic => 'а',
        score::Script::Greek if info.upper => 'Α',
        score::Script::Greek => 'α',
        score::Script::Latin if info.upper => 'A',
        score::Script::Latin => 'a',
        _ => c,
    }
}

/// How many lead bytes of UTF-8 `word` holds when encoded back as the
/// single-byte text it looks like, each followed by continuation bytes, with
/// no stray continuation byte: 0 when it does not look like UTF-8 at all.
/// Text in Shift_JIS, GBK, Big5 or EUC read as windows-1252 almost never
/// looks like UTF-8, even with bytes missing; mojibake of UTF-8 always does.
pub(crate) fn utf8_shape(word: &str) -> usize {
    let bytes = EncodeAs::Isomorphic
        .encode(word)
        .or_else(|| EncodeAs::Encoding(WINDOWS_1252).encode(word));
    let Some(bytes) = bytes else {
        return 0;
    };
    let mut leads = 0;
    let mut in_sequence = false;
    let mut index = 0;
    while let Some(&byte) = bytes.get(index) {
        match byte {
            0x00..=0x7F => in_sequence = false,
            0x80..=0xBF if in_sequence => {}
            0xC2..=0xF4 => {
                in_sequence = bytes
                    .get(index + 1)
                    .is_some_and(|next| (0x80..=0xBF).contains(next));
                if in_sequence {
                    leads += 1;
                }
            }
            _ => return 0,
        }
        index += 1;
    }
    leads
}

/// The bytes a word was decoded from, when the caller has them: the first
/// step that encodes as `encode_as` uses them instead of encoding, which
/// also recovers bytes the decoder turned into U+FFFD.
#[derive(Clone, Copy, Debug)]
pub(crate) struct WordSource<'a> {
    pub(crate) encode_as: EncodeAs,
    pub(crate) bytes: &'a [u8],
}

/// What a step decodes as: UTF-8, then the legacy sources.
const DECODERS: [&Encoding; 1 + LEGACY_SOURCES.len()] = {
    let mut decoders = [UTF_8; 1 + LEGACY_SOURCES.len()];
    let mut index = 0;
    while index < LEGACY_SOURCES.len() {
        decoders[index + 1] = LEGACY_SOURCES[index];
        index += 1;
    }
    decoders
};

/// One step that applies to a text, and what it makes of it.
struct Expansion {
    step: Step,
    decoded: String,
    utf8_shape: usize,
    from_source: bool,
}

/// Every step that applies to `text` in fatal mode, in the order ties are
/// settled. With `source`, the step that encodes as its encoding decodes
/// its bytes instead. `first` is true for the word itself, false for what
/// a chain made of it.
#[expect(
    clippy::too_many_lines,
    reason = "the wrong decoders share their buffers and what one decode says of the next"
)]
fn expand(text: &str, source: Option<WordSource<'_>>, first: bool) -> Vec<Expansion> {
    let mask = repertoire_mask(text);
    // The same for every legacy decode of `text`: worked out once.
    let mut shape = None;
    // Windows-1252 and ISO-8859-1 as bytes give the same bytes for most
    // text, and then the same decodes: the bytes decoded by every decoder
    // last, and for each decoder the expansion it gave, if any.
    let mut last: Option<[Option<usize>; DECODERS.len()]> = None;
    // The buffers each encode and decode is made in: only a decode that
    // gives a new text is kept (copied out).
    let (mut bytes, mut last_bytes, mut decoded) = (Vec::new(), Vec::new(), String::new());
    let mut expansions: Vec<Expansion> = Vec::new();
    for (bit, &encode_as) in UTF8_MISREADS.iter().enumerate() {
        let from_source = source.filter(|source| source.encode_as == encode_as);
        match from_source {
            Some(source) => {
                bytes.clear();
                bytes.extend_from_slice(source.bytes);
            }
            None if mask & (1 << bit) != 0 => {
                if !encode_as.encode_into(text, &mut bytes) {
                    continue;
                }
            }
            None => continue,
        }
        let legacy_too = matches!(
            encode_as,
            EncodeAs::Encoding(encoding) if encoding == WINDOWS_1252
        ) || encode_as == EncodeAs::Isomorphic;
        // Other wrong decoders' legacy sources are tried where their bytes
        // are not windows-1252's (whose decodes are known already).
        let decoders = if legacy_too {
            &DECODERS[..]
        } else {
            &DECODERS[..1]
        };
        // (Only for the word itself, as the double-byte misreads below.)
        let others = if !first || legacy_too || (last.is_some() && last_bytes == bytes) {
            &[][..]
        } else {
            legacy_sources(encode_as)
        };
        let known = last.filter(|_| legacy_too && last_bytes == bytes);
        let mut found = [None; DECODERS.len()];
        for (number, &decode_as) in decoders.iter().chain(others).enumerate() {
            let step = Step {
                encode_as,
                decode_as,
            };
            let text_out = if let Some(known) = known {
                match known[number] {
                    Some(index) => expansions[index].decoded.clone(),
                    None => continue,
                }
            } else {
                // Hebrew read as windows-1252 never has UTF-8's shape:
                // mojibake of UTF-8 is not read as windows-1255.
                if (decode_as == WINDOWS_1255 && *shape.get_or_insert_with(|| utf8_shape(text)) > 0)
                    || !step.decode_into(&bytes, &mut decoded)
                    || decoded == text
                {
                    continue;
                }
                decoded.clone()
            };
            let utf8_shape = if decode_as == UTF_8 {
                0
            } else {
                *shape.get_or_insert_with(|| utf8_shape(text))
            };
            if let Some(slot) = found.get_mut(number) {
                *slot = Some(expansions.len());
            }
            expansions.push(Expansion {
                step,
                decoded: text_out,
                utf8_shape,
                from_source: from_source.is_some(),
            });
        }
        if legacy_too {
            last = Some(found);
            std::mem::swap(&mut last_bytes, &mut bytes);
        }
    }
    // Only the word itself: what a chain made of it is text of UTF-8
    // decodes, not misread as double-byte text in between.
    if first {
        add_double_byte_misreads(text, &mut bytes, &mut decoded, &mut expansions);
    }
    // C1 controls are the bytes of windows-1252 (or macintosh) text that a
    // decoder took for ISO-8859-1 ("modifiche\u{94}" for "modifiche”",
    // "Coatl\u{87}n" for "Coatlán"): the text as bytes, decoded right.
    // Sloppy windows-1252 decoders are far more common: macintosh is tried
    // only where windows-1252 makes odd text ("Coatl‡n").
    // C1 controls in text that is UTF-8 through and through ("Å\u{99}" is
    // "ř") are its continuation bytes, not windows-1252's.
    if text.chars().any(is_c1)
        && *shape.get_or_insert_with(|| utf8_shape(text)) == 0
        && EncodeAs::Isomorphic.encode_into(text, &mut bytes)
    {
        let mut windows_1252_is_odd = true;
        for decode_as in C1_DECODERS {
            let step = Step {
                encode_as: EncodeAs::Isomorphic,
                decode_as,
            };
            if decode_as != WINDOWS_1252 && !windows_1252_is_odd {
                continue;
            }
            if step.decode_into(&bytes, &mut decoded) && decoded != text {
                if decode_as == WINDOWS_1252 {
                    windows_1252_is_odd = score::word_cost(&decoded) >= ODD;
                }
                expansions.push(Expansion {
                    step,
                    decoded: decoded.clone(),
                    utf8_shape: 0,
                    from_source: false,
                });
            }
        }
    }
    expansions
}

/// The double-byte decoders UTF-8 is undone from, most common first.
const UTF8_DOUBLE_BYTE_MISREADS: [&Encoding; 3] = [GBK, SHIFT_JIS, EUC_KR];

/// Whether `c` is one that Chinese, Japanese and Korean decoders give for
/// two bytes: from U+3000 on (Han, kana, Hangul, full-width forms), and
/// not in the private use area.
fn is_double_byte_char(c: char) -> bool {
    let code = u32::from(c);
    (0x3000..0xE000).contains(&code) || (0xF900..0x1_0000).contains(&code)
}

/// The steps that undo UTF-8 read by a double-byte decoder ("浣犲ソ" for
/// "你好" as GBK, "縺薙ｓ縺ｫ縺｡縺ｯ" for "こんにちは" as Shift_JIS), added
/// to `expansions` where they apply to `text`. Such mojibake is made of
/// the characters those decoders give: only text with some is encoded
/// back. `bytes` and `decoded` are buffers.
fn add_double_byte_misreads(
    text: &str,
    bytes: &mut Vec<u8>,
    decoded: &mut String,
    expansions: &mut Vec<Expansion>,
) {
    if !text.chars().any(is_double_byte_char) {
        return;
    }
    for encoding in UTF8_DOUBLE_BYTE_MISREADS {
        let step = Step {
            encode_as: EncodeAs::Encoding(encoding),
            decode_as: UTF_8,
        };
        if step.encode_as.encode_into(text, bytes)
            && step.decode_into(bytes, decoded)
            && decoded.as_str() != text
        {
            expansions.push(Expansion {
                step,
                decoded: decoded.clone(),
                utf8_shape: 0,
                from_source: false,
            });
        }
    }
}

/// A word costing this much is odd text.
const ODD: f32 = 2.5;

/// What text whose C1 controls were bytes is decoded as, in the order tried.
const C1_DECODERS: [&Encoding; 2] = [WINDOWS_1252, MACINTOSH];

/// Whether `c` is a C1 control (U+0080 to U+009F).
pub(crate) fn is_c1(c: char) -> bool {
    ('\u{80}'..='\u{9F}').contains(&c)
}

/// Every chain of up to [`MAX_STEPS`] steps (past [`MAX_MIXED_STEPS`], repeats
/// of the last) that applies to `word` in fatal mode, then the lossy repairs
/// of one step.
pub(crate) fn search(word: &str, source: Option<WordSource<'_>>) -> WordRepairs {
    let mut repairs = WordRepairs::default();
    // The steps from each outcome that is undone further, with the outcomes
    // they lead to: one outcome is often reached by several chains
    // ("encoded as windows-1252" and "as ISO-8859-1" agree on most text).
    let mut expanded: Vec<(usize, Vec<(Step, usize)>)> = Vec::new();
    // The chains that may go on, with the outcome each has reached.
    let mut frontier: Vec<(Option<usize>, Chain)> = vec![(None, Chain::EMPTY)];
    for depth in 0..MAX_STEPS {
        let mut next = Vec::new();
        for &(reached, chain) in &frontier {
            let steps = match reached {
                None => expand(word, source, true)
                    .into_iter()
                    .map(|expansion| (expansion.step, add_expansion(&mut repairs, expansion)))
                    .collect(),
                Some(outcome) => {
                    if let Some((_, steps)) = expanded.iter().find(|(known, _)| *known == outcome) {
                        steps.clone()
                    } else {
                        let steps: Vec<(Step, usize)> =
                            expand(&repairs.outcomes[outcome].text, None, false)
                                .into_iter()
                                .map(|expansion| {
                                    (expansion.step, add_expansion(&mut repairs, expansion))
                                })
                                .collect();
                        expanded.push((outcome, steps.clone()));
                        steps
                    }
                }
            };
            for (step, outcome) in steps {
                if depth >= MAX_MIXED_STEPS && chain.last() != Some(step) {
                    continue;
                }
                let Some(longer) = chain.then(step) else {
                    continue;
                };
                repairs.chains.push((longer, outcome));
                // Only a UTF-8 decode can have been damaged again before
                // (or text whose C1 controls were decoded right: it may be
                // mojibake still), and only a chain with room for more
                // steps goes on.
                if (step.decode_as == UTF_8 || step.undoes_c1()) && depth + 1 < MAX_STEPS {
                    next.push((Some(outcome), longer));
                }
            }
        }
        frontier = next;
    }
    for (outcome, steps) in &expanded {
        let further = steps
            .iter()
            .map(|&(_, next)| repairs.outcomes[next].cost)
            .fold(f32::INFINITY, f32::min);
        if further + UNFINISHED_GAIN < repairs.outcomes[*outcome].cost {
            repairs.outcomes[*outcome].unfinished = true;
        }
    }
    add_lossy(word, &mut repairs);
    repairs
}

/// An outcome a further step makes this much more plausible is unfinished.
const UNFINISHED_GAIN: f32 = 2.5;

/// The outcome of `expansion` in `repairs`, added if it is new.
fn add_expansion(repairs: &mut WordRepairs, expansion: Expansion) -> usize {
    let known = repairs.outcomes.len();
    let language = cjk_language(expansion.step.decode_as);
    let index = repairs.outcome(
        expansion.decoded,
        Vec::new(),
        expansion.utf8_shape,
        expansion.from_source,
    );
    // A double-byte decode makes text of its decoder's language, or
    // mojibake: it is judged as that language's.
    if index == known
        && let Some(language) = language
        && let Some(outcome) = repairs.outcomes.get_mut(index)
    {
        outcome.cost += score::cjk_language_excess(&outcome.text, language);
    }
    index
}

/// The language `encoding`'s text is written in, for the double-byte
/// encodings.
fn cjk_language(encoding: &Encoding) -> Option<score::CjkLanguage> {
    use crate::encoding::{EUC_JP, GB18030, ISO_2022_JP};
    if encoding == EUC_JP || encoding == SHIFT_JIS || encoding == ISO_2022_JP {
        Some(score::CjkLanguage::Japanese)
    } else if encoding == GBK || encoding == GB18030 {
        Some(score::CjkLanguage::Chinese)
    } else if encoding == BIG5 {
        Some(score::CjkLanguage::Traditional)
    } else if encoding == EUC_KR {
        Some(score::CjkLanguage::Korean)
    } else {
        None
    }
}

/// The lossy repairs of one step: for each wrong decoder that loses bytes,
/// if the word has its signs of loss ("?", U+FFFD, or a lead byte cut short)
/// and the strict step did not apply.
fn add_lossy(word: &str, repairs: &mut WordRepairs) {
    let mask = repertoire_mask_ignoring_loss(word);
    // The outcomes of one lossy reading through ISO-8859-1 or windows-1252.
    let mut once_lossy = Vec::new();
    for (bit, &encode_as) in UTF8_MISREADS.iter().enumerate() {
        if mask & (1 << bit) == 0 {
            continue;
        }
        let step = Step {
            encode_as,
            decode_as: UTF_8,
        };
        let Some(chain) = Chain::new(&[step]) else {
            continue;
        };
        if repairs.chains.iter().any(|(known, _)| *known == chain) {
            continue;
        }
        let lost_bytes = encode_as.lost_bytes();
        if lost_bytes.is_empty() {
            continue;
        }
        let Some(decoded) = lossy::decode(word, encode_as, lost_bytes) else {
            continue;
        };
        // A byte that left no mark ("?" or U+FFFD) is guessed only in a word
        // that also holds whole sequences, or what is left of one ("â€"):
        // "STДLIN" is no "STĘLIN" with a byte dropped, and "SELKÄ" lost no
        // letter.
        if decoded.whole == 0 && decoded.cut == 0 && !has_loss_marks(word) {
            continue;
        }
        if decoded.text != word {
            let outcome = repairs.outcome(decoded.text, decoded.lost, 0, false);
            repairs.outcomes[outcome].add_restorations(encode_as, decoded.restorations);
            repairs.chains.push((chain, outcome));
            if restore::restores_for(encode_as) {
                once_lossy.push(outcome);
            }
        }
    }
    // UTF-8 read as ISO-8859-1 twice, the C1 controls dropped the second
    // time ("cafÃÂ©").
    if let Some(decoded) = twice::decode(word) {
        let step = Step {
            encode_as: EncodeAs::Isomorphic,
            decode_as: UTF_8,
        };
        if let Some(chain) = Chain::new(&[step, step])
            && !repairs.chains.iter().any(|(known, _)| *known == chain)
        {
            let outcome = repairs.outcome(decoded.text, decoded.lost, 0, false);
            repairs.outcomes[outcome].add_restorations(EncodeAs::Isomorphic, decoded.restorations);
            repairs.chains.push((chain, outcome));
            // Undone once, such a word keeps the second half of each
            // character ("Belgi�«" from "BelgiÃÂ«"): it is mojibake still.
            for &once in once_lossy.iter().filter(|&&once| once != outcome) {
                repairs.outcomes[once].unfinished = true;
            }
        }
    }
    // UTF-8 read as windows-1252 twice, the undefined bytes dropped the
    // second time ("Ã¢â‚¬Â" for "”").
    if let Some(decoded) = twice::decode_1252(word) {
        let encode_as = EncodeAs::Encoding(WINDOWS_1252);
        let step = Step {
            encode_as,
            decode_as: UTF_8,
        };
        if let Some(chain) = Chain::new(&[step, step])
            && !repairs.chains.iter().any(|(known, _)| *known == chain)
        {
            let outcome = repairs.outcome(decoded.text, decoded.lost, 0, false);
            repairs.outcomes[outcome].add_restorations(encode_as, decoded.restorations);
            repairs.chains.push((chain, outcome));
            for &once in once_lossy.iter().filter(|&&once| once != outcome) {
                repairs.outcomes[once].unfinished = true;
            }
        }
    }
    // Double-byte text read as windows-1252 by a reader that wrote U+FFFD
    // for the bytes windows-1252 leaves undefined.
    if word.contains(char::REPLACEMENT_CHARACTER) {
        for decode_as in [SHIFT_JIS, GBK, BIG5, EUC_KR] {
            let step = Step {
                encode_as: EncodeAs::Encoding(WINDOWS_1252),
                decode_as,
            };
            let Some(chain) = Chain::new(&[step]) else {
                continue;
            };
            if let Some(decoded) = lossy::decode_double_byte(word, decode_as)
                && decoded.whole > 0
                && decoded.text != word
            {
                let outcome = repairs.outcome(decoded.text, decoded.lost, 0, false);
                repairs.chains.push((chain, outcome));
            }
        }
    }
}

/// Whether `word` holds the marks decoders leave for bytes they lost: "?"
/// or U+FFFD.
pub(crate) fn has_loss_marks(word: &str) -> bool {
    word.contains(['?', char::REPLACEMENT_CHARACTER])
}

/// For each encoding of [`UTF8_MISREADS`] (one bit each), whether it can
/// encode every character of `text`.
fn repertoire_mask(text: &str) -> u16 {
    let repertoires = repertoires();
    text.chars()
        .filter(|c| !c.is_ascii())
        .fold(ALL_BITS, |mask, c| mask & repertoires.mask(c))
}

/// As [`repertoire_mask`], but "?" and U+FFFD, which may stand for lost
/// bytes, fit every encoding.
fn repertoire_mask_ignoring_loss(text: &str) -> u16 {
    let repertoires = repertoires();
    text.chars()
        .filter(|&c| !c.is_ascii() && c != char::REPLACEMENT_CHARACTER)
        .fold(ALL_BITS, |mask, c| mask & repertoires.mask(c))
}

const ALL_BITS: u16 = (1 << UTF8_MISREADS.len()) - 1;

/// Which encodings of [`UTF8_MISREADS`] can encode each non-ASCII
/// character, from their indexes.
struct Repertoires {
    /// Sorted by character.
    entries: Vec<(char, u16)>,
}

impl Repertoires {
    fn mask(&self, c: char) -> u16 {
        self.entries
            .binary_search_by_key(&c, |&(entry, _)| entry)
            .map_or(0, |found| self.entries[found].1)
    }
}

fn repertoires() -> &'static Repertoires {
    static REPERTOIRES: OnceLock<Repertoires> = OnceLock::new();
    REPERTOIRES.get_or_init(|| {
        let mut entries: Vec<(char, u16)> = Vec::new();
        let mut add = |c: char, bit: usize| match entries.iter_mut().find(|(known, _)| *known == c)
        {
            Some((_, mask)) => *mask |= 1 << bit,
            None => entries.push((c, 1 << bit)),
        };
        for (bit, encode_as) in UTF8_MISREADS.iter().enumerate() {
            match encode_as {
                EncodeAs::Isomorphic => {
                    for byte in 0x80..=0xFF_u8 {
                        add(char::from(byte), bit);
                    }
                }
                EncodeAs::DosCodePage(page) => {
                    for byte in 0x80..=0xFF_u8 {
                        add(page.decode_byte(byte), bit);
                    }
                }
                EncodeAs::Encoding(encoding) => {
                    let Some(index) = single_byte::for_encoding(encoding.name()) else {
                        continue;
                    };
                    for pointer in 0..128 {
                        if let Some(c) = index.code_point(pointer) {
                            add(c, bit);
                        }
                    }
                }
            }
        }
        entries.sort_unstable_by_key(|&(c, _)| c);
        Repertoires { entries }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn best(repairs: &WordRepairs) -> &str {
        let outcome = repairs
            .outcomes
            .iter()
            .min_by(|a, b| a.cost.total_cmp(&b.cost))
            .unwrap();
        &outcome.text
    }

    #[test]
    fn finds_one_two_and_three_layers() {
        assert_eq!(best(&search("Ã©tÃ©", None)), "été");
        assert_eq!(best(&search("ÃƒÂ©tÃƒÂ©", None)), "été");
        assert_eq!(best(&search("ÃƒÆ’Ã‚Â©tÃƒÆ’Ã‚Â©", None)), "été");
        assert_eq!(best(&search("–¾“ú‚Ì’©", None)), "明日の朝");
        assert_eq!(best(&search("РњРѕСЃРєРІР°", None)), "Москва");
    }

    #[test]
    fn every_chain_is_recorded_with_its_outcome() {
        let repairs = search("Ã©", None);
        let chains: Vec<String> = repairs
            .chains
            .iter()
            .filter(|(_, outcome)| repairs.outcomes[*outcome].text == "é")
            .map(|(chain, _)| chain.to_string())
            .collect();
        assert!(chains.contains(&"encoded as windows-1252, decoded as UTF-8".to_owned()));
        assert!(chains.contains(
            &"encoded as ISO-8859-1 (bytes as code points), decoded as UTF-8".to_owned()
        ));
    }

    #[test]
    fn source_bytes_recover_what_the_decoder_lost() {
        // "š" is 0xC5 0xA1; windows-1257 has no 0xA1.
        let encode_as = EncodeAs::Encoding(crate::WINDOWS_1257);
        let source = WordSource {
            encode_as,
            bytes: b"\xC5\xA1",
        };
        let repairs = search("Å\u{FFFD}", Some(source));
        assert_eq!(best(&repairs), "š");
        // Without them the character is lost between two candidates.
        let repairs = search("Å\u{FFFD}", None);
        assert_eq!(best(&repairs), "\u{FFFD}");
    }
}
