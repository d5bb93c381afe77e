//! "Why?": how detection ranks one encoding for the open file, and the
//! evidence behind it, next to the candidates it competes with.

use eframe::egui::{self, Grid, RichText, Ui, Window};
use mojiscope_core::{Detection, Encoding};

use crate::theme::Palette;
use crate::ui::{error_count_text, score_text};

/// Candidates listed for comparison.
const SHOWN_CANDIDATES: usize = 6;

/// The "why?" window for `encoding`; `open` is cleared when it is closed.
pub fn why_ui(
    ctx: &egui::Context,
    open: &mut Option<&'static Encoding>,
    detection: Option<&Detection>,
    palette: &Palette,
) {
    let Some(encoding) = *open else {
        return;
    };
    let mut keep_open = true;
    Window::new(format!("Why {encoding}?"))
        .id(egui::Id::unique("why window"))
        .open(&mut keep_open)
        .resizable(true)
        .default_width(520.0)
        .show(ctx, |ui| match detection {
            Some(detection) => explanation_ui(ui, encoding, detection, palette),
            None => {
                ui.label("Detection has not finished yet.");
            }
        });
    if !keep_open {
        *open = None;
    }
}

/// The sentences that say how `encoding` ranks, and why.
pub fn ranking_sentences(encoding: &'static Encoding, detection: &Detection) -> Vec<String> {
    let mut sentences = Vec::new();
    let total = detection.candidates.len();
    let Some((rank, candidate)) = detection
        .candidates
        .iter()
        .enumerate()
        .find(|(_, candidate)| candidate.encoding == encoding)
    else {
        sentences.push(format!(
            "Detection does not rank {encoding}: it ranks only the encodings a user may \
             choose (the standard's Browser UI section leaves UTF-16BE/LE and replacement out)."
        ));
        return sentences;
    };
    sentences.push(format!(
        "Detection ranks {encoding} {} of {total} ({}).",
        ordinal(rank + 1),
        score_text(candidate.score)
    ));
    if let Some(same) = candidate.same_text_as {
        sentences.push(format!(
            "It reads the bytes examined as the same text as {same}, so choosing between \
             the two changes nothing here."
        ));
    }
    if rank > 0 {
        sentences.push(format!(
            "The best candidate, {}, is {} more likely in log-likelihood ({:.1} nats).",
            detection.best(),
            if candidate.log_likelihood < -20.0 {
                "far"
            } else {
                "somewhat"
            },
            -candidate.log_likelihood
        ));
    }
    sentences
}

fn explanation_ui(
    ui: &mut Ui,
    encoding: &'static Encoding,
    detection: &Detection,
    palette: &Palette,
) {
    for sentence in ranking_sentences(encoding, detection) {
        ui.label(sentence);
    }
    if detection.is_weak {
        ui.label(
            RichText::new(format!(
                "The evidence is weak: the best answer is only {:.0}% sure. Compare the \
                 panes before trusting it.",
                detection.confidence * 100.0
            ))
            .color(palette.malformed_fg),
        );
    }
    if let Some(candidate) = detection.candidate(encoding)
        && !candidate.evidence.is_empty()
    {
        ui.add_space(6.0);
        ui.strong("Evidence");
        for evidence in &candidate.evidence {
            ui.label(format!("• {evidence}"));
        }
    }
    if !detection.notes.is_empty() {
        ui.add_space(6.0);
        ui.strong("About the file");
        for note in &detection.notes {
            ui.label(format!("• {note}"));
        }
    }
    ui.add_space(6.0);
    ui.strong("The most likely encodings");
    Grid::new("why candidates")
        .num_columns(3)
        .striped(true)
        .show(ui, |ui| {
            for candidate in detection.candidates.iter().take(SHOWN_CANDIDATES) {
                let name = RichText::new(candidate.encoding.name());
                ui.label(if candidate.encoding == encoding {
                    name.strong()
                } else {
                    name
                });
                ui.label(score_text(candidate.score));
                let errors = error_count_text(candidate.errors);
                ui.label(match candidate.same_text_as {
                    Some(same) => format!("{errors}; same text as {same}"),
                    None => errors,
                });
                ui.end_row();
            }
        });
    ui.label(
        RichText::new(format!(
            "{} bytes examined. Scores are shares of probability over every candidate.",
            detection.bytes_examined
        ))
        .small()
        .color(palette.weak_fg),
    );
}

/// "1st", "2nd", "3rd", "4th", ... "11th", "21st".
fn ordinal(n: usize) -> String {
    let suffix = if (11..=13).contains(&(n % 100)) {
        "th"
    } else {
        match n % 10 {
            1 => "st",
            2 => "nd",
            3 => "rd",
            _ => "th",
        }
    };
    format!("{n}{suffix}")
}

#[cfg(test)]
mod tests {
    use mojiscope_core::{SHIFT_JIS, UTF_16LE, detect};

    use super::*;

    #[test]
    fn ordinals_read_as_english() {
        let words: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 37].map(ordinal).into();
        assert_eq!(
            words,
            [
                "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "37th"
            ]
        );
    }

    #[test]
    fn the_ranking_is_said_in_words() {
        let detection = detect(b"\x93\xFA\x96\x7B\x8C\xEA\x82\xCC\x83e\x83L\x83X\x83g");
        let best = ranking_sentences(SHIFT_JIS, &detection);
        assert!(
            best[0].starts_with("Detection ranks Shift_JIS 1st of 37 (likely "),
            "{best:?}"
        );
        let utf16 = ranking_sentences(UTF_16LE, &detection);
        assert!(utf16[0].contains("does not rank UTF-16LE"), "{utf16:?}");
        let other = detection.candidates[5].encoding;
        let sentences = ranking_sentences(other, &detection);
        assert!(sentences[0].contains("6th of 37"), "{sentences:?}");
        assert!(
            sentences
                .iter()
                .any(|s| s.starts_with("The best candidate, Shift_JIS, is")),
            "{sentences:?}"
        );
    }
}
