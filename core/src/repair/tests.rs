//! Tests of the whole repair: decisions, changes, suggestions.

use super::*;

mod kinds;

#[track_caller]
fn repaired(text: &str) -> String {
    repair(text).apply(text)
}

#[test]
fn repairs_the_examples_of_the_issue() {
    assert_eq!(repaired("Ã©tÃ©"), "été");
    assert_eq!(repaired("–¾“ú‚Ì’©"), "明日の朝");
    assert_eq!(repaired("РњРѕСЃРєРІР°"), "Москва");
}

#[test]
fn leaves_correct_text_alone() {
    for text in [
        "été",
        "ÉTÉ",
        "SÃO PAULO",
        "IRMÃ»",
        "Москва",
        "明日の朝",
        "Ελληνικά",
        "Tokyo 東京 😀",
        "Ðað",
        "naïve café",
        "Â bientôt",
        "12°C, 5 €, © 2024",
    ] {
        assert!(repair(text).is_empty(), "{text}: {:?}", repair(text));
    }
}

#[test]
fn partial_damage_is_repaired_word_by_word() {
    let text = "Prénom: José\nNom: GarcÃ\u{ad}a LÃ³pez\nVille: Málaga";
    let repair = repair(text);
    assert_eq!(
        repair.apply(text),
        "Prénom: José\nNom: García López\nVille: Málaga"
    );
    // One change: the two neighbouring words share their chain.
    assert_eq!(repair.changes.len(), 1);
    let change = &repair.changes[0];
    assert_eq!(&text[change.utf8_range.clone()], "GarcÃ\u{ad}a LÃ³pez");
    let chars: String = text
        .chars()
        .skip(change.char_range.start)
        .take(change.char_range.len())
        .collect();
    assert_eq!(chars, "GarcÃ\u{ad}a LÃ³pez");
    assert!(change.confidence >= 0.5);
}

#[test]
fn multiple_layers_are_one_chain() {
    let text = "ÃƒÂ©tÃƒÂ© Ã ";
    let repair = repair(text);
    assert_eq!(repair.changes[0].replacement, "été");
    assert_eq!(
        repair.changes[0].chain.to_string(),
        "encoded as windows-1252, decoded as UTF-8, twice"
    );
}

#[test]
fn lost_bytes_are_marked() {
    // "Í" is 0xC3 0x8D, and 0x8D has no character in Windows's windows-1252.
    let text = "BogotÃ¡, Ã?ndice, pÃºblico";
    let repair = repair(text);
    assert_eq!(repair.apply(text), "Bogotá, \u{FFFD}ndice, público");
    let lossy: Vec<&Change> = repair.changes.iter().filter(|c| c.is_lossy()).collect();
    assert_eq!(lossy.len(), 1);
    assert!(lossy[0].lost[0].alternatives.contains(&'Í'));
}

#[test]
fn source_bytes_make_up_for_the_decoder() {
    // UTF-8 read as windows-1257, which has no 0xA1: "š" is 0xC5 0xA1, so
    // the decoded text has U+FFFD where the source bytes still have 0xA1.
    let bytes = "šalčiausia".as_bytes();
    let text = crate::WINDOWS_1257
        .decode_with_bom_handling(bytes, BomHandling::None)
        .text;
    assert!(text.contains('\u{FFFD}'));
    let source = Source {
        bytes,
        encoding: crate::WINDOWS_1257,
    };
    let repair = repair_with_source(&text, source);
    assert_eq!(repair.apply(&text), "šalčiausia");
}

#[test]
fn accepted_changes_are_applied_alone() {
    let text = "Ã©tÃ© and cafÃ©";
    let repair = repair(text);
    let only_first = repair.apply_accepted(text, |change| change.utf8_range.start == 0);
    assert_eq!(only_first, "été and cafÃ©");
    assert_eq!(repair.chains()[0].1, 2);
}

// Issue 17: good text the repair damaged, each kind once.

#[track_caller]
fn assert_unchanged(text: &str) {
    let found = repair(text);
    assert!(found.is_empty(), "{text:?} changed: {:?}", found.changes);
}

#[test]
fn issue_17_symbols_that_read_as_one_sequence_stay() {
    // "×£" is windows-1252 for D7 A3, which is UTF-8 for "ף".
    assert_unchanged("5×£35");
    assert_unchanged("1×£1 + 1×50p + 2×20p + 1×5p + 1×2p + 3×1p");
    // "√π" is macintosh for C3 B9, "ù".
    assert_unchanged("(-1/2)! = √π");
    assert_unchanged("the breakthrough finding that g† = cH₀/(4√π) gives");
    // A trademark sign after a name: "Å™" is windows-1252 for "ř".
    assert_unchanged("AHÅ™");
    assert_unchanged("will be formally branded as “Intel® Core™ i7 processor.”");
}

#[test]
fn issue_17_box_drawing_stays() {
    assert_unchanged("├┤a┼┐a");
    assert_unchanged("mahpastes/\n├── main.go\n│   ├── app.go");
}

#[test]
fn issue_17_capitals_keep_their_letters() {
    // A letter whose next byte would have been a dropped C1 control, with
    // nothing else in the word or the line to say bytes were lost.
    assert_unchanged("SELKÄ EDELLÄ");
    assert_unchanged("Groskop spells 'STALIN' as 'STДLIN'.");
    assert_unchanged("ATENÇÃO: A JORNADA DE TRABALHO");
}

#[test]
fn issue_17_a_wrong_chain_is_not_extended_to_good_words() {
    let text = "C’est l’égalité pour tous";
    assert_unchanged(text);
    // A line with real mojibake: only the damaged word changes.
    let text = "C’est l’égalité pour tous, cafÃ© compris";
    assert_eq!(repaired(text), "C’est l’égalité pour tous, café compris");
}

#[test]
fn issue_17_an_ambiguous_sequence_is_only_suggested() {
    let text = "Mccoy – DrÃ¥ber";
    let found = repair(text);
    assert!(found.changes.is_empty(), "{:?}", found.changes);
    assert_eq!(found.suggestions.len(), 1);
    assert_eq!(found.suggestions[0].replacement, "Dråber");
    // The same sequence in a line that was misread as a whole is repaired.
    assert_eq!(repaired("Mccoy â€“ DrÃ¥ber"), "Mccoy – Dråber");
}

#[test]
fn issue_17_random_bytes_are_declined_as_not_text() {
    let mut state = 0x9E37_79B9_7F4A_7C15_u64;
    let bytes: Vec<u8> = (0..4_000_000)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 32) as u8
        })
        .collect();
    for encoding in [crate::WINDOWS_1250, crate::WINDOWS_1252, crate::UTF_8] {
        let text = encoding.decode(&bytes).text;
        let found = repair(&text);
        assert!(found.declined.is_some(), "{encoding}");
        assert!(found.changes.is_empty() && found.suggestions.is_empty());
        let source = Source {
            bytes: &bytes,
            encoding,
        };
        assert!(repair_with_source(&text, source).declined.is_some());
    }
    assert_eq!(repair("Ã©tÃ©").declined, None);
}

#[test]
fn issue_17_hostile_text_is_bounded() {
    // One "word" of a million characters, and a line of words with no line
    // feed: nothing to repair in the first, every word in the second.
    let word = "ÿ".repeat(1_000_000);
    assert!(repair(&word).is_empty());
    let line = "cafÃ© ".repeat(100_000);
    assert_eq!(repair(&line).apply(&line), "café ".repeat(100_000));
    assert!(repair(&"\x1b".repeat(1_000_000)).is_empty());
}

#[test]
fn issue_17_a_space_for_a_lost_no_break_space_is_a_guess() {
    // "à" is C3 A0; A0 is windows-1252's no-break space, which became a
    // plain space.
    for (text, expected) in [
        ("voilÃ  le travail", "voilà le travail"),
        ("Ã  nos jours", "à nos jours"),
        ("Ã s crianças", "às crianças"),
        ("se dÃ©veloppe Ã  ChambÃ©ry", "se développe à Chambéry"),
        // "신" is EC 8B A0: the space glued "ì‹" to the next word.
        ("<option>ì‹ ê·œ</option>", "<option>신규</option>"),
    ] {
        let found = repair(text);
        assert_eq!(found.apply(text), expected);
        let guess = found
            .changes
            .iter()
            .find(|change| change.is_guess())
            .expect("a guess");
        let assumption = &guess.assumptions[0];
        assert_eq!(
            (assumption.found, assumption.assumed),
            (Some(' '), '\u{A0}')
        );
        let original = guess.assumed_original(text).unwrap();
        assert_eq!(guess.chain.apply(&original).unwrap(), guess.replacement);
    }
    // A space after a capital that ends a word is a space.
    assert_unchanged("PÅ SKJERMEN, CAFÉ NOIR");
}

#[test]
fn issue_17_c1_controls_from_sloppy_decodes_are_read_as_their_bytes() {
    for (text, expected) in [
        ("C’est fini\u{85} Il a dit\u{94}", "C’est fini… Il a dit”"),
        ("It\u{92}s here", "It’s here"),
        // macintosh text read as ISO-8859-1: "á" is 0x87, "í" 0x92.
        ("Coatl\u{87}n conf\u{92}an en ti", "Coatlán confían en ti"),
    ] {
        assert_eq!(repaired(text), expected, "{text:?}");
    }
    // C1 controls that are UTF-8 continuation bytes read as ISO-8859-1.
    assert_eq!(repaired("Å\u{99}"), "ř");
}

#[test]
fn issue_17_partly_repaired_text_is_finished() {
    // Earlier software repaired "’" and "“" but left the rest.
    assert_eq!(repaired("Il y a l’humanitÃ© ici"), "Il y a l’humanité ici");
    assert_eq!(repaired("“senza modifiche\u{94}"), "“senza modifiche”");
    // Shift_JIS mojibake holds such characters as bytes of its own.
    assert_eq!(repaired(";ƒeƒXƒgˆÈŠO‚È‚ç"), ";テスト以外なら");
    assert_eq!(
        repaired("Р’СЃС– Р»СЋРґРё, СЃРѕРІС–СЃС‚СЋ"),
        "Всі люди, совістю"
    );
}

#[test]
fn issue_17_utf8_read_as_dos_code_pages() {
    for (text, expected, page) in [
        ("─îe┼ítina", "Čeština", "cp437"),
        ("Tiß║┐ng Viß╗çt", "Tiếng Việt", "cp437"),
        ("╨┐╤Ç╨░╨▓╨╕╨╗╤î╨╜╨╛╨╡", "правильное", "cp437"),
        ("YouÔÇÖre", "You’re", "cp850"),
    ] {
        let found = repair(text);
        assert_eq!(found.apply(text), expected);
        assert_eq!(
            found.changes[0].chain.display_name(),
            format!("UTF-8 read as {page}")
        );
    }
}

#[test]
fn issue_17_emoji_as_surrogate_pairs_read_as_windows_1252() {
    // CESU-8 ("modified UTF-8") writes U+1F60D as the surrogates D83D and
    // DE0D, each in three bytes: ED A0 BD ED B8 8D.
    assert_eq!(repaired("I love it í\u{a0}½í¸\u{8d}"), "I love it 😍");
    assert_eq!(repaired("í\u{a0}¾í´”"), "🤔");
    // A lone surrogate is no character.
    assert_unchanged("í\u{a0}½ alone");
}

#[test]
fn issue_17_mojibake_of_mojibake_mixed_with_single() {
    let text = "Itâ€™s the cafÃ©â€™s Ã¢â‚¬Å“bestÃ¢â‚¬Â\u{9d} one";
    assert_eq!(repaired(text), "It’s the café’s “best” one");
    // windows-1252 then windows-1251 ("£" as "Г‚ВЈ"): too few characters to
    // be sure of; left alone, and reported.
    let found = repair("The deal cost Г‚ВЈ5.8bn last year");
    assert!(found.changes.is_empty());
    assert_eq!(found.suggestions.len(), 1);
}

#[test]
fn issue_17_replacement_characters_inside_mojibake() {
    // Shift_JIS read as windows-1252 by a reader that wrote U+FFFD for
    // 0x8F, the lead byte of "章": the rest comes back, the lost character
    // stays U+FFFD, with its candidates, and is counted.
    let text = "ƒeƒXƒg—p•¶\u{FFFD}Í‚Å‚·";
    let found = repair(text);
    assert_eq!(found.apply(text), "テスト用文\u{FFFD}です");
    assert_eq!(found.lost_count(), 1);
    let lost = &found.changes[0].lost[0];
    assert!(lost.alternatives.contains(&'章'), "{lost:?}");
    // Cyrillic UTF-8 whose 0x9D ("Н" is D0 9D) became U+FFFD.
    let text = "Ð\u{FFFD}ÐµÑ‚ Ð¿Ñ€Ð¾Ð±Ð»ÐµÐ¼";
    let found = repair(text);
    assert_eq!(found.apply(text), "\u{FFFD}ет проблем");
    assert_eq!(found.lost_count(), 1);
    assert!(found.changes[0].lost[0].alternatives.contains(&'Н'));
    // A U+FFFD that was itself misread.
    assert_eq!(
        repaired("(marked with ï¿½{TBDï¿½)"),
        "(marked with \u{FFFD}{TBD\u{FFFD})"
    );
}

#[test]
fn issue_17_one_word_that_other_decoders_also_read_is_repaired() {
    // "Ã£" is also cp850 for "ǜ" and macintosh makes a combining mark of
    // it: the text is mojibake whichever decoder made it, and windows-1252
    // is by far the likeliest.
    assert_eq!(
        repaired("T commented on GuimarÃ£es's photo."),
        "T commented on Guimarães's photo."
    );
    // A legacy decode that only goes further ("°C" on to one Han
    // character) is no rival of the step it goes through.
    assert_eq!(repaired("It's 25Â°C outside"), "It's 25°C outside");
}

#[test]
fn issue_17_runs_of_emoji_and_symbols_are_plausible() {
    assert_eq!(
        repaired("So good ðŸ˜\u{8d}ðŸ˜\u{8d}ðŸ˜\u{8d}"),
        "So good 😍😍😍"
    );
    assert_eq!(repaired("Rated â˜…â˜…â˜…â˜…â˜†"), "Rated ★★★★☆");
    assert_eq!(repaired("Allez ðŸ‡«ðŸ‡·!"), "Allez 🇫🇷!");
    for text in ["😍😍😍 ★★★★☆ 🇫🇷 👨‍👩‍👧 1️⃣ ❤️", "Merci❤️ Café☕"]
    {
        assert_unchanged(text);
    }
}

#[test]
fn issue_17_text_misread_again_and_again() {
    let misread = |text: &str| {
        crate::WINDOWS_1252
            .decode_with_bom_handling(text.as_bytes(), crate::BomHandling::None)
            .text
    };
    for times in 4..=MAX_STEPS {
        let mut damaged = "calixto peñaloza, für Vorjahr".to_owned();
        for _ in 0..times {
            damaged = misread(&damaged);
        }
        let found = repair(&damaged);
        assert_eq!(
            found.apply(&damaged),
            "calixto peñaloza, für Vorjahr",
            "{times}"
        );
        assert_eq!(found.changes[0].chain.len(), times);
    }
}

#[test]
fn issue_17_a_dropped_soft_hyphen_is_no_lost_no_break_space() {
    // "í" is C3 AD; misread twice, its soft hyphen became invisible and was
    // dropped: the space after "ChÃƒÂ" was a space. "ThÃƒÂ nh" lost a
    // no-break space ("à" is C3 A0). Both are repaired, each as the guess
    // it is.
    let text = "ThÃƒÂ nh phÃ¡Â»â€˜ HÃ¡Â»â€œ ChÃƒÂ Minh";
    let found = repair(text);
    assert_eq!(found.apply(text), "Thành phố Hồ Chí Minh");
    let assumptions: Vec<(Option<char>, char)> = found
        .changes
        .iter()
        .flat_map(|change| &change.assumptions)
        .map(|assumption| (assumption.found, assumption.assumed))
        .collect();
    assert_eq!(assumptions, [(Some(' '), '\u{A0}'), (None, '\u{AD}')]);
    for change in &found.changes {
        let original = change.assumed_original(text).unwrap();
        assert_eq!(change.chain.apply(&original).unwrap(), change.replacement);
    }
    // Where bytes were dropped inside words as well ("ę" is C4 99, and 0x99
    // a C1 control), the byte lost before a space is one of them, not a
    // soft hyphen ("siÄ" is no "siĭ").
    let text = "Wszyscy ludzie rodzÄ siÄ wolni i rÃ³wni pod wzglÄdem swej godnoÅci";
    let repaired = repair(text).apply(text);
    assert!(!repaired.contains('ĭ'), "{repaired}");
}

#[test]
fn issue_17_prices_misread_through_two_pages_stay_prices() {
    // "£" is C2 A3: read as windows-1252 it is "Â£", whose UTF-8 read as
    // windows-1251 is "Г‚ВЈ". One step further (windows-1250's "Ł") is a
    // letter beside English words, not the price it was.
    let text = "Shares fell after the Г‚ВЈ5.8bn deal and the Г‚ВЈ40m fine";
    let found = repair(text);
    assert_eq!(
        found.apply(text),
        "Shares fell after the £5.8bn deal and the £40m fine"
    );
    assert!(found.changes.iter().all(|change| change.chain.len() == 2));
    // A currency sign before a number is ordinary text.
    assert_unchanged("Tickets cost £40, €35 or ¥4000 at the door");
}

#[test]
fn issue_17_a_single_byte_decode_must_make_one_language() {
    // Latin-1 text encoded twice with its C1 controls dropped lost the byte
    // that tells "á" from "б": windows-1251 read as windows-1252 makes
    // "ГВЎ, ГВі, ГВє" of it, whose "ў" is Belarusian only and "є"
    // Ukrainian only. Not misread so: undone as what it is, the lead of
    // Latin-1's letters restored as a guess.
    let text = "ÃÂ¡, ÃÂ³, ÃÂº, ÃÂ±";
    let found = repair(text);
    assert_eq!(found.apply(text), "á, ó, ú, ñ");
    assert!(found.changes.iter().all(super::Change::is_guess));
    // Words that one language writes are still repaired ("Íèêòî íå" is
    // Russian read as windows-1252).
    let text = "Íèêòî íå ìîæåò áûòü ïîäâåðãíóò ïðîèçâîëüíîìó àðåñòó.";
    assert_eq!(
        repair(text).apply(text),
        "Никто не может быть подвергнут произвольному аресту."
    );
}

/// `bytes` as a reader of windows-1252 shows them that writes U+FFFD for the
/// five bytes the encoding leaves undefined (the standard's decoder maps
/// them to C1 controls instead).
fn misread_as_1252_with_replacement(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|&byte| match byte {
            0x81 | 0x8D | 0x8F | 0x90 | 0x9D => '\u{FFFD}',
            _ => encoding_rs::WINDOWS_1252
                .decode_without_bom_handling(&[byte])
                .0
                .chars()
                .next()
                .unwrap_or('\u{FFFD}'),
        })
        .collect()
}

/// Checks that `text` repairs to `expected`, losing `lost` characters,
/// and that each lost character lists the one it was (`truth`, in order).
#[track_caller]
fn assert_lossy(text: &str, expected: &str, truth: &[char]) {
    let found = repair(text);
    assert_eq!(found.apply(text), expected);
    assert!(found.suggestions.is_empty(), "{:?}", found.suggestions);
    assert_eq!(found.lost_count(), truth.len());
    let lost: Vec<&Lost> = found
        .changes
        .iter()
        .flat_map(|change| &change.lost)
        .collect();
    for (lost, truth) in lost.iter().zip(truth) {
        assert!(lost.alternatives.contains(truth), "{truth}: {lost:?}");
    }
    // Each lost character is marked where its change says.
    for change in &found.changes {
        for lost in &change.lost {
            assert!(change.replacement[lost.utf8_offset..].starts_with('\u{FFFD}'));
        }
    }
}

#[test]
fn issue_17_shift_jis_with_replacement_characters_is_repaired_around_them() {
    // "、" and "。" are 81 41 and 81 42, "準" is 8F 80: a lead byte turned
    // into U+FFFD takes its trail byte with it, and the characters after
    // it come back whole.
    let (bytes, _, _) =
        encoding_rs::SHIFT_JIS.encode("明日は東京で会議があります。資料を準備してください。");
    let text = misread_as_1252_with_replacement(&bytes);
    assert!(text.contains('\u{FFFD}'));
    assert_lossy(
        &text,
        "明日は東京で会議があります\u{FFFD}資料を\u{FFFD}備してください\u{FFFD}",
        &['。', '準', '。'],
    );
}

#[test]
fn issue_17_gbk_with_replacement_characters_is_repaired_around_them() {
    // GBK's traditional characters use trail bytes below 0xA1: "濟" is
    // 9D 90, two bytes windows-1252 leaves undefined.
    let (bytes, _, _) = encoding_rs::GBK.encode("臺灣的經濟發展很快，人們的生活也變得更好。");
    let text = misread_as_1252_with_replacement(&bytes);
    assert_lossy(
        &text,
        "臺灣的經\u{FFFD}發展很快，人們的生活也變得更好。",
        &['濟'],
    );
}

#[test]
fn issue_17_cyrillic_utf8_with_replacement_characters_keeps_what_is_lost() {
    // "Н" is D0 9D and "с" D1 81: "Ð" or "Ñ" then U+FFFD. Other letters
    // share those lead bytes ("А" is D0 90, "я" D1 8F): the letter is gone,
    // and stays U+FFFD with its candidates.
    let text = misread_as_1252_with_replacement("Новости России и мира".as_bytes());
    assert_lossy(
        &text,
        "\u{FFFD}ово\u{FFFD}ти Ро\u{FFFD}\u{FFFD}ии и мира",
        &['Н', 'с', 'с', 'с'],
    );
    let text = misread_as_1252_with_replacement("Привет, как дела? Это Анна.".as_bytes());
    assert_lossy(&text, "Привет, как дела? Это \u{FFFD}нна.", &['А']);
}

#[test]
fn issue_17_a_misread_replacement_character_comes_back_as_itself() {
    // windows-1252 text read as UTF-8 lost its "é" to U+FFFD; that was then
    // read as windows-1252: "ï¿½". The U+FFFD is what the text held before
    // the misreading, so it is restored, not counted as lost by this repair.
    let text = "Universidad Politï¿½cnica de Madrid";
    let found = repair(text);
    assert_eq!(
        found.apply(text),
        "Universidad Polit\u{FFFD}cnica de Madrid"
    );
    assert_eq!(found.lost_count(), 0);
}

#[test]
fn issue_17_a_misread_byte_order_mark_at_the_start_is_undone() {
    // The mark becomes U+FEFF, the character its bytes are, by the chain
    // that explains it.
    for (text, expected, page) in [
        ("ï»¿Hello world", "\u{FEFF}Hello world", "windows-1252"),
        ("ï»¿", "\u{FEFF}", "windows-1252"),
        ("п»їПривет", "\u{FEFF}Привет", "windows-1251"),
        ("∩╗┐Hello", "\u{FEFF}Hello", "cp437"),
    ] {
        let found = repair(text);
        assert_eq!(found.apply(text), expected);
        assert_eq!(found.changes.len(), 1, "{text}");
        let change = &found.changes[0];
        assert_eq!(change.utf8_range.start, 0);
        assert_eq!(change.char_range, 0..3);
        assert_eq!(change.chain.display_name(), format!("UTF-8 read as {page}"));
        assert_eq!(
            change
                .chain
                .apply(&text[change.utf8_range.clone()])
                .as_deref(),
            Some(change.replacement.as_str())
        );
    }
    // Mojibake right after the mark is one change with it; the rest of the
    // text is repaired as it would be without the mark.
    let text = "ï»¿Ã©tÃ© Ã  Paris";
    let found = repair(text);
    assert_eq!(found.apply(text), "\u{FEFF}été à Paris");
    let rest = repair(&text[6..]);
    assert_eq!(found.changes.len(), rest.changes.len());
    assert_eq!(
        found.changes[0].replacement,
        format!("\u{FEFF}{}", rest.changes[0].replacement)
    );
    assert_eq!(found.guess_count(), rest.guess_count());
    let assumed = found.changes[0].assumed_original(text);
    assert_eq!(
        assumed
            .and_then(|assumed| found.changes[0].chain.apply(&assumed))
            .as_deref(),
        Some(found.changes[0].replacement.as_str())
    );
    // With the bytes the text was decoded from.
    let bytes = b"\xEF\xBB\xBFCaf\xC3\xA9";
    let text = crate::WINDOWS_1252
        .decode_with_bom_handling(bytes, crate::BomHandling::None)
        .text;
    let found = repair_with_source(
        &text,
        Source {
            bytes,
            encoding: crate::WINDOWS_1252,
        },
    );
    assert_eq!(found.apply(&text), "\u{FEFF}Café");
    // Elsewhere the three characters are a word like any other: one
    // uncommon character alone in a line is at most a suggestion.
    assert_unchanged("Hello ï»¿ world");
    assert_unchanged("Files that start with ï»¿ were saved with a byte order mark");
}

/// `text` written in `written` and read as `read` (independently of the
/// engine).
fn misread(
    text: &str,
    written: &'static encoding_rs::Encoding,
    read: &'static encoding_rs::Encoding,
) -> String {
    let (bytes, _, unmappable) = written.encode(text);
    assert!(!unmappable, "{text} in {}", written.name());
    read.decode_without_bom_handling(&bytes).0.into_owned()
}

#[test]
fn issue_17_utf8_read_as_windows_1256_is_undone() {
    for text in [
        "// تحميل البيانات من الخادم",
        "label: 'نام کاربری'",
        "error = \"لا يوجد اتصال\"",
    ] {
        let damaged = misread(text, encoding_rs::UTF_8, encoding_rs::WINDOWS_1256);
        assert_ne!(damaged, text);
        assert_eq!(repaired(&damaged), text, "{damaged}");
    }
    // Arabic and Persian text as it is stays.
    for text in ["سلام دنیا", "مرحبا بكم في الموقع", "گزارش کار"] {
        assert_unchanged(text);
    }
}

#[test]
fn issue_17_cyrillic_pages_read_as_each_other_are_undone() {
    // Windows text read as DOS (a console), and DOS text read as Windows.
    for (text, written, read) in [
        (
            "print(\"Добрый вечер, друзья\")",
            encoding_rs::WINDOWS_1251,
            encoding_rs::IBM866,
        ),
        (
            "label = 'Сохранение'",
            encoding_rs::WINDOWS_1251,
            encoding_rs::IBM866,
        ),
        (
            "# Загрузка настроек",
            encoding_rs::WINDOWS_1251,
            encoding_rs::IBM866,
        ),
        (
            "Здравствуйте",
            encoding_rs::IBM866,
            encoding_rs::WINDOWS_1251,
        ),
    ] {
        let damaged = misread(text, written, read);
        assert_eq!(repaired(&damaged), text, "{damaged}");
    }
    // Box drawing is DOS's Cyrillic letters in Windows: it stays, as do
    // Cyrillic capitals used as Latin letters.
    for text in [
        "┌──────┬──────┐",
        "│ ──── │ ──── │ ════ ║",
        "the band's name is written 'ЯОСК'",
    ] {
        assert_unchanged(text);
    }
}

#[test]
fn issue_17_hebrew_read_as_windows_1252_is_not_made_cyrillic() {
    // windows-1255 and windows-1251 make letters of the same bytes: the
    // line is not turned into Cyrillic that nobody wrote.
    let text = "שלום לכם חברים יקרים";
    let damaged = misread(text, encoding_rs::WINDOWS_1255, encoding_rs::WINDOWS_1252);
    let found = repair(&damaged);
    let out = found.apply(&damaged);
    assert!(
        !out.chars().any(|c| ('\u{400}'..='\u{4FF}').contains(&c)),
        "{damaged} -> {out}"
    );
    // Hebrew points belong on Hebrew letters.
    assert!(score::word_cost("bezpe\u{5b4}nost") > score::word_cost("bezpeÄnost"));
}

#[test]
fn issue_17_utf8_read_as_a_double_byte_encoding_is_undone() {
    for (text, read) in [
        ("// 打开文件", encoding_rs::GBK),
        ("title = \"上传文件\"", encoding_rs::GBK),
        ("msg: 保存しました", encoding_rs::SHIFT_JIS),
        ("log('検索結果')", encoding_rs::SHIFT_JIS),
    ] {
        let damaged = misread(text, encoding_rs::UTF_8, read);
        assert!(!damaged.contains('\u{FFFD}'), "{damaged}");
        assert_eq!(repaired(&damaged), text, "{damaged}");
    }
    // Chinese, Japanese and Korean text as it is stays, short words too.
    for text in [
        "打开文件",
        "中文",
        "数据 库",
        "東京都",
        "こんにちは、世界",
        "한국어 사용자",
        "涓 枃",
    ] {
        assert_unchanged(text);
    }
}

#[test]
fn issue_17_short_legacy_cjk_in_code_is_repaired_when_one_reading_stands_out() {
    for (text, written) in [
        ("// 读取配置文件", encoding_rs::GBK),
        ("// 讀取設定檔", encoding_rs::BIG5),
        ("label = \"使用者名稱\"", encoding_rs::BIG5),
        // "¤¤¤å" is Big5's "中文", and EUC-JP's "いゅ", which no Japanese
        // writes.
        ("title = \"中文說明\"", encoding_rs::BIG5),
        ("// 파일을 열 수 없습니다", encoding_rs::EUC_KR),
    ] {
        let damaged = misread(text, written, encoding_rs::WINDOWS_1252);
        assert_eq!(repaired(&damaged), text, "{damaged}");
    }
    // Where the decoders make equally likely characters, nothing changes
    // but to the right text.
    for (text, written) in [
        ("msg = \"저장되었습니다\"", encoding_rs::EUC_KR),
        ("printf(\"错误代码: %d\", err);", encoding_rs::GBK),
    ] {
        let damaged = misread(text, written, encoding_rs::WINDOWS_1252);
        let out = repaired(&damaged);
        assert!(out == damaged || out == text, "{damaged} -> {out}");
    }
    // A run of one symbol is no text, whatever a decoder makes of it.
    assert_unchanged("×××××ª and ××××, ××");
}

/// `text`'s UTF-8 read as windows-1252 by a decoder that then dropped
/// `dropped` (bytes it has no character for, or a soft hyphen).
fn misread_dropping(text: &str, dropped: &[u8]) -> String {
    let bytes: Vec<u8> = text
        .bytes()
        .filter(|byte| !dropped.contains(byte))
        .collect();
    crate::WINDOWS_1252
        .decode_with_bom_handling(&bytes, BomHandling::None)
        .text
}

/// Checks that each change of `text`'s repair is explained: its chain,
/// applied to the span with its assumptions, gives its replacement.
#[track_caller]
fn assert_explained(text: &str, repair: &Repair) {
    for change in &repair.changes {
        if change.is_lossy() {
            continue;
        }
        let assumed = change.assumed_original(text).unwrap();
        assert_eq!(
            change.chain.apply(&assumed).as_deref(),
            Some(change.replacement.as_str()),
            "{change:?}"
        );
    }
}

#[test]
fn issue_17_a_lost_byte_the_word_makes_clear_is_restored_as_a_guess() {
    // "ρ" is CF 81: windows-1252 has no 0x81, and the reader dropped it.
    // "ύ" (CF 8D) would give the word a second accent, which Greek does
    // not write; the other candidates are no letters of today's Greek.
    let original = "Η ιστορία του θεάτρου.";
    let text = misread_dropping(original, &[0x81, 0x8D, 0x8F, 0x90, 0x9D]);
    assert_ne!(text, misread_dropping(original, &[]));
    let repair = repair(&text);
    assert_eq!(repair.apply(&text), original);
    assert_explained(&text, &repair);
    let restored: Vec<(Option<char>, char, Option<char>)> = repair
        .changes
        .iter()
        .flat_map(|change| &change.assumptions)
        .map(|assumption| (assumption.found, assumption.assumed, assumption.restored))
        .collect();
    assert_eq!(
        restored,
        [(None, '\u{81}', Some('ρ')), (None, '\u{81}', Some('ρ'))]
    );
    assert!(repair.changes.iter().all(Change::is_guess));
    assert_eq!(
        repair
            .changes
            .iter()
            .map(Change::restored_count)
            .sum::<usize>(),
        2
    );
    assert_eq!(repair.lost_count(), 0);
    let said = repair.changes[0].assumptions[0].to_string();
    assert!(said.starts_with("a lost byte restored: U+0081"), "{said}");
}

#[test]
fn issue_17_a_dropped_soft_hyphen_is_a_candidate() {
    // "ح" is D8 AD: 0xAD is the invisible soft hyphen, and was dropped; the
    // ellipsis shows the reading was windows-1252's.
    let original = "قال: صباح… ثم مضى";
    let text = misread_dropping(original, &[0xAD]);
    let repair = repair(&text);
    assert_eq!(repair.apply(&text), original);
    assert_explained(&text, &repair);
    assert!(
        repair
            .changes
            .iter()
            .flat_map(|change| &change.assumptions)
            .any(|assumption| assumption.assumed == '\u{AD}' && assumption.restored == Some('ح'))
    );
}

#[test]
fn issue_17_a_lost_byte_with_no_clear_candidate_stays_lost() {
    // "с" is D1 81; "э" (D1 8D) and "я" (D1 8F) fit as well and are as
    // plausible: the character stays U+FFFD, with its candidates.
    let text = misread_dropping("Москва", &[0x81, 0x8D, 0x8F, 0x90, 0x9D]);
    let repair = repair(&text);
    assert_eq!(repair.apply(&text), "Мо\u{FFFD}ква");
    let change = &repair.changes[0];
    assert_eq!(change.restored_count(), 0);
    assert!(change.lost[0].alternatives.contains(&'с'));
    assert!(change.lost[0].alternatives.contains(&'я'));
}

#[test]
fn issue_17_a_reading_the_word_does_not_show_restores_no_byte_of_its_own() {
    // Nothing in "ÃA" shows a windows-1252 reading rather than ISO-8859-1
    // taken byte for code point, which loses every C1 control: the lost
    // byte is any of 32, and correct text ("SÃO") looks the same.
    for text in ["SÃO PAULO", "ECONOMÃA", "IRMÃ»"] {
        assert_unchanged(text);
    }
    // With whole sequences beside it, the word is repaired. Of the 33
    // bytes that may have vanished after 0xC3 (the C1 controls and the
    // soft hyphen), only the soft hyphen makes a small letter there, and
    // one that goes with "é" ("í"; "ß" does not): it is restored, as a guess.
    let text = "Ã©conomÃa";
    let repair = repair(text);
    assert_eq!(repair.apply(text), "économía");
    assert_explained(text, &repair);
    let change = &repair.changes[0];
    assert_eq!(change.restored_count(), 1);
    assert_eq!(change.assumptions[0].assumed, '\u{AD}');
    assert_eq!(
        change.chain.to_string(),
        "encoded as ISO-8859-1 (bytes as code points), decoded as UTF-8"
    );
}

#[test]
fn issue_17_what_is_left_of_a_sequence_is_suspected() {
    // "❤️" is E2 9D A4 EF B8 8F; a windows-1252 reader dropped 0x9D and
    // 0x8F, leaving "â¤ï¸": no whole sequence, but leads followed by
    // continuation bytes. Many emoji fit each gap: both stay lost, marked.
    let text = misread_dropping("J’aime ❤️", &[0x81, 0x8D, 0x8F, 0x90, 0x9D]);
    let repair = repair(&text);
    assert_eq!(repair.apply(&text), "J’aime \u{FFFD}\u{FFFD}");
    let lost: Vec<&Lost> = repair.changes.iter().flat_map(|c| &c.lost).collect();
    assert_eq!(lost.len(), 2);
    assert!(lost[0].alternatives.contains(&'❤'), "{lost:?}");
    assert!(lost[1].alternatives.contains(&'\u{FE0F}'), "{lost:?}");
    // Correct text where a letter meets punctuation that would continue
    // its UTF-8 ("é" then "”" is E9 94) is left alone.
    for text in ["«café”»", "l’été—", "voilà…", "naïve™", "Âge: 12 ans"] {
        assert_unchanged(text);
    }
}

#[test]
fn issue_17_a_line_that_kept_its_no_break_spaces_lost_a_byte_before_a_space() {
    // "에" is EC 97 90 and lost its 0x90 before a space. In a line whose
    // no-break spaces were turned into spaces, "ì—" and a space would be
    // "엠" (EC 97 A0) glued to the next word; this line still holds one
    // ("정" is EC A0 95), so the space was a space and a byte was lost.
    // "에" and "역" (EC 97 AD, a soft hyphen dropped) are both common
    // syllables, but Korean's letter statistics make "문서에" (the
    // particle after a noun) clearly likelier: "에" is restored, as a
    // guess. ("이", EC 9D B4, lost its 0x9D in a word that shows no
    // windows-1252: any C1 control may have gone, and a word of one lost
    // character has no letters around it to tell; it stays lost.)
    let original = "정보: 이 문서에 대한 설명";
    let text = misread_dropping(original, &[0x81, 0x8D, 0x8F, 0x90, 0x9D]);
    assert!(text.contains('\u{A0}'));
    let repair = repair(&text);
    assert_eq!(repair.apply(&text), "정보: \u{FFFD} 문서에 대한 설명");
    let lost: Vec<&Lost> = repair.changes.iter().flat_map(|c| &c.lost).collect();
    assert_eq!(lost.len(), 1);
    assert_eq!(repair.guess_count(), 1);
    // Where they were turned into spaces, the space is taken for one.
    assert_eq!(repaired("ì‹ ê·œ"), "신규");
}

#[test]
fn issue_17_a_correct_letter_that_is_a_lone_lead_is_never_taken_apart() {
    // Partly repaired lines: "à" and "é" are right, and they are also the
    // windows-1252 reading of lone UTF-8 leads (E0, E9). Neither may
    // become a character with guessed bytes, nor be glued through the
    // space to the next word's first letter ("Š" is 0x8A, a continuation
    // byte: E9 A0 8A would be "頊").
    for (text, fixed) in [
        ("Il est dÃ©jà là", "Il est déjà là"),
        ("Voilà dÃ©jà trois ans", "Voilà déjà trois ans"),
        ("Un café ŠkodovÃ¡ bon marché", "Un café Škodová bon marché"),
        ("Café ŠtÄ›pÃ¡nka", "Café Štěpánka"),
    ] {
        let out = repaired(text);
        assert!(out == text || out == fixed, "{text} -> {out}");
    }
    // The no-break space a lone two-byte lead lost is still restored.
    assert_eq!(repaired("voilÃ  le travail"), "voilà le travail");
}
