//! The pane policy, all of it: how many decode panes there are, which
//! encodings they show first, how each treats a byte order mark, which
//! panes a recent file remembers, which one Add pane adds, and how the
//! panes change without losing what their jobs already did.

use std::path::Path;
use std::sync::Arc;

use mojiscope_core::{ALL, BomHandling, Detection, Encoding, UTF_8};

use crate::model::analysis::counts::{ErrorCount, is_bytewise, same_decoder};
use crate::model::document_jobs::DocumentJobs;
use crate::model::session::{Pane, Session};
use crate::model::settings::Settings;

/// The fewest and the most decode panes side by side.
pub const MIN_PANES: usize = 2;
/// See [`MIN_PANES`].
pub const MAX_PANES: usize = 4;

/// The encodings to show first, from detection: the byte order mark's
/// encoding alone if there is one; otherwise the best candidate, UTF-8 (for
/// comparison, unless it is the best) and the next candidate that reads the
/// file differently. Encodings that decode the examined bytes to the same
/// text as a better one are skipped (a second pane showing the same text
/// says nothing).
pub fn detected_panes(
    bom: Option<&'static Encoding>,
    detection: &Detection,
) -> Vec<&'static Encoding> {
    if let Some(bom) = bom {
        return vec![bom];
    }
    let mut distinct = detection
        .distinct_texts()
        .map(|candidate| candidate.encoding)
        .filter(|encoding| encoding.is_override_choice());
    let best = distinct.next().unwrap_or(UTF_8);
    let mut panes = vec![best];
    if best != UTF_8 {
        panes.push(UTF_8);
    }
    panes.extend(distinct.filter(|&e| e != UTF_8).take(3 - panes.len()));
    // Two panes at least, even when every encoding reads the same text.
    if panes.len() < 2
        && let Some(next) = detection
            .candidates
            .iter()
            .map(|candidate| candidate.encoding)
            .find(|e| e.is_override_choice() && !panes.contains(e))
    {
        panes.push(next);
    }
    panes
}

/// The encodings to show first: the byte order mark's encoding alone if
/// there is one; otherwise UTF-8 and the two override choices (other than
/// UTF-8) with the fewest errors, ties going to multi-byte encodings, then
/// to the standard's order.
pub fn default_panes(
    bom: Option<&'static Encoding>,
    counts: &[ErrorCount],
) -> Vec<&'static Encoding> {
    if let Some(bom) = bom {
        return vec![bom];
    }
    let order = |encoding: &Encoding| ALL.iter().position(|&other| other == encoding);
    let mut candidates: Vec<&ErrorCount> = counts
        .iter()
        .filter(|count| count.encoding != UTF_8 && count.encoding.is_override_choice())
        .collect();
    // Among equals, a multi-byte encoding that reads the file without
    // errors says more than a single-byte one (most of which read any byte).
    candidates.sort_by_key(|count| {
        (
            count.errors,
            is_bytewise(count.encoding),
            order(count.encoding),
        )
    });
    // GBK's decoder is gb18030's: one of them is enough.
    candidates.dedup_by_key(|count| same_decoder(count.encoding));
    let mut panes = vec![UTF_8];
    panes.extend(candidates.iter().take(2).map(|count| count.encoding));
    panes
}

/// How a pane decodes: a byte order mark picks the encoding when it is the
/// pane's own encoding or a UTF-16 one (which nothing overrides); any other
/// pane shows how its encoding's decoder reads every byte.
pub fn bom_handling_for(
    bom: Option<&'static Encoding>,
    encoding: &'static Encoding,
) -> BomHandling {
    match bom {
        Some(bom) if bom == encoding || !bom.is_override_choice() => BomHandling::Sniff,
        _ => BomHandling::None,
    }
}

/// The override choice with the fewest errors (in `counts`, once known)
/// that no pane shows yet: the pane Add pane adds.
pub fn best_unused(used: &[&'static Encoding], counts: Option<&[ErrorCount]>) -> &'static Encoding {
    let mut candidates: Vec<(u64, usize, &'static Encoding)> = mojiscope_core::ALL
        .iter()
        .copied()
        .enumerate()
        .filter(|(_, e)| e.is_override_choice() && !used.contains(e))
        .map(|(order, e)| {
            let errors = counts
                .and_then(|counts| counts.iter().find(|c| c.encoding == e))
                .map_or(u64::MAX, |c| c.errors);
            (errors, order, e)
        })
        .collect();
    candidates.sort_by_key(|&(errors, order, _)| (errors, order));
    candidates.first().map_or(UTF_8, |&(_, _, e)| e)
}

impl Settings {
    /// The panes' encodings last used for `path`, if it is a recent file and
    /// they are all still override choices.
    pub fn panes_for(&self, path: &Path) -> Option<Vec<&'static Encoding>> {
        let path = crate::model::settings::absolute(path);
        let recent = self.recent.iter().find(|recent| recent.path == path)?;
        let panes: Option<Vec<_>> = recent
            .panes
            .iter()
            .map(|name| Encoding::for_label(name.as_bytes()).filter(|e| e.is_override_choice()))
            .collect();
        panes.filter(|panes| (1..=MAX_PANES).contains(&panes.len()))
    }
}

impl Session {
    /// Shows the Mixed reading in pane `pane` (each part of the file
    /// decoded with its own encoding), or, with `mixed` false, that pane's
    /// first part's encoding alone. Does nothing when the file is not in
    /// several encodings, or a byte order mark decides.
    pub fn set_mixed(&mut self, jobs: &mut DocumentJobs, pane: usize, mixed: bool) {
        if self.forced_by_bom().is_some() {
            return;
        }
        let (Some(document), Some(parts)) = (&self.document, &self.parts) else {
            return;
        };
        let Some(target) = self.panes.get_mut(pane) else {
            return;
        };
        if target.parts.is_some() == mixed {
            return;
        }
        let encoding = parts.first().map_or(target.encoding, |part| part.encoding);
        let bom_handling = bom_handling_for(document.bom, encoding);
        let parts = mixed.then(|| Arc::clone(parts));
        jobs.start_reading(document, pane, encoding, bom_handling, parts.clone());
        let mut replaced = Pane::new(encoding, bom_handling);
        replaced.parts = parts;
        *target = replaced;
        if pane == 0 {
            self.lines = None;
            self.failed.lines = false;
        }
    }

    /// Sets the panes' encodings, keeping the analyses of panes whose
    /// encoding and place did not change and starting jobs for the others.
    /// Returns, for each pane, the index it had before if it was kept (its
    /// view goes with it); `None` when no document is open.
    pub fn set_panes(
        &mut self,
        jobs: &mut DocumentJobs,
        encodings: &[&'static Encoding],
    ) -> Option<Vec<Option<usize>>> {
        let session = self;
        session.panes_settled = true;
        let document = session.document.as_ref()?;
        let forced = session
            .document
            .as_ref()
            .and_then(|d| d.bom)
            .filter(|bom| !bom.is_override_choice());
        let encodings: Vec<&'static Encoding> = match forced {
            Some(bom) => vec![bom],
            None => encodings.to_vec(),
        };
        let mut old: Vec<Option<Pane>> = std::mem::take(&mut session.panes)
            .into_iter()
            .map(Some)
            .collect();
        // For each pane, the index it had if it is kept.
        let mut kept_from = Vec::with_capacity(encodings.len());
        for (index, &encoding) in encodings.iter().enumerate() {
            let bom_handling = bom_handling_for(document.bom, encoding);
            // A pane's work is kept if its encoding is unchanged and it stays
            // in place, or moves with a finished analysis (the primary pane
            // must not move: the line index comes from its job). A pane
            // whose job still runs does not move: the job belongs to its old
            // place, and the pane that takes that place replaces it, so the
            // moved pane would wait for the rest of its analysis forever.
            // The Mixed reading stays only in its place (its first part's
            // encoding stands for it in `encodings`).
            let reusable = old.iter().enumerate().position(|(position, pane)| {
                pane.as_ref().is_some_and(|pane| {
                    pane.encoding == encoding
                        && pane.bom_handling == bom_handling
                        && (pane.parts.is_none() || position == index)
                })
            });
            let from = reusable.filter(|&position| {
                position == index
                    || (index != 0
                        && old[position]
                            .as_ref()
                            .is_some_and(|p| p.analysis.as_ref().is_some_and(|a| a.is_complete())))
            });
            let kept = from.and_then(|position| old[position].take());
            kept_from.push(from);
            let pane = kept.unwrap_or_else(|| {
                jobs.start_analysis(document, index, encoding, bom_handling);
                if index == 0 {
                    session.lines = None;
                    session.failed.lines = false;
                }
                Pane::new(encoding, bom_handling)
            });
            session.panes.push(pane);
        }
        for index in encodings.len()..MAX_PANES {
            jobs.cancel_pane(index);
        }
        session.focused_pane = session
            .focused_pane
            .min(session.panes.len().saturating_sub(1));
        Some(kept_from)
    }
}

#[cfg(test)]
mod tests {
    use mojiscope_core::{
        BIG5, EUC_JP, GB18030, GBK, ISO_8859_8, REPLACEMENT, SHIFT_JIS, UTF_16BE, UTF_16LE,
        WINDOWS_1252,
    };

    use super::*;
    use crate::model::analysis::counts::count_errors;
    use crate::model::analysis::testing::{Rng, never, realistic};

    fn count(encoding: &'static Encoding, errors: u64) -> ErrorCount {
        ErrorCount {
            encoding,
            errors,
            first_error_offsets: Vec::new(),
        }
    }

    #[test]
    fn default_panes_prefer_the_bom_then_the_fewest_errors() {
        let counts = [
            count(UTF_8, 0),
            count(WINDOWS_1252, 5),
            count(SHIFT_JIS, 0),
            count(UTF_16LE, 0),
            count(REPLACEMENT, 0),
            count(EUC_JP, 3),
            count(BIG5, 3),
            count(ISO_8859_8, 3),
        ];
        assert_eq!(default_panes(Some(UTF_16LE), &counts), [UTF_16LE]);
        // Ties: multi-byte before single-byte, then the standard's order
        // (Big5 comes before EUC-JP).
        assert_eq!(default_panes(None, &counts), [UTF_8, SHIFT_JIS, BIG5]);
        let tied = [count(ISO_8859_8, 0), count(GBK, 0), count(GB18030, 0)];
        assert_eq!(default_panes(None, &tied), [UTF_8, GBK, ISO_8859_8]);
        assert_eq!(default_panes(None, &[]), [UTF_8]);
        // With real counts: a Shift_JIS file.
        let mut rng = Rng(3);
        let bytes = realistic(SHIFT_JIS, 10_000, &mut rng);
        let choices: Vec<&'static Encoding> = ALL
            .iter()
            .copied()
            .filter(|e| e.is_override_choice())
            .collect();
        let counts = count_errors(&bytes, &choices, &never()).unwrap();
        let panes = default_panes(None, &counts);
        assert_eq!(panes.len(), 3);
        assert_eq!(panes[0], UTF_8);
        assert!(!panes.contains(&UTF_16BE) && !panes.contains(&REPLACEMENT));
        let shift_jis = counts.iter().find(|c| c.encoding == SHIFT_JIS).unwrap();
        for pane in &panes[1..] {
            let errors = counts.iter().find(|c| c.encoding == *pane).unwrap().errors;
            assert!(errors <= shift_jis.errors, "{pane}");
        }
    }

    #[test]
    fn detected_panes_show_the_best_utf8_and_another_reading() {
        let shift_jis =
            b"\x93\xFA\x96\x7B\x8C\xEA\x82\xCC\x83e\x83L\x83X\x83g\x82\xC5\x82\xB7\x81B";
        let panes = detected_panes(None, &mojiscope_core::detect(shift_jis));
        assert_eq!(panes.len(), 3, "{panes:?}");
        assert_eq!(panes[..2], [SHIFT_JIS, UTF_8]);
        let utf8 = "Grüße aus Köln".as_bytes();
        let panes = detected_panes(None, &mojiscope_core::detect(utf8));
        assert_eq!(panes[0], UTF_8);
        assert_eq!(panes.len(), 3);
        // Plain ASCII reads the same in every encoding: the two panes
        // there are at least: UTF-8 and the next most likely.
        let ascii = detected_panes(None, &mojiscope_core::detect(b"plain text"));
        assert_eq!(ascii.len(), 2);
        assert_eq!(ascii[0], UTF_8);
        let bom = detected_panes(Some(UTF_16LE), &mojiscope_core::detect(b"\xFF\xFEa\0"));
        assert_eq!(bom, [UTF_16LE]);
    }

    #[test]
    fn a_bom_decides_only_where_it_may() {
        assert_eq!(bom_handling_for(None, UTF_8), BomHandling::None);
        assert_eq!(bom_handling_for(Some(UTF_8), UTF_8), BomHandling::Sniff);
        assert_eq!(
            bom_handling_for(Some(UTF_8), WINDOWS_1252),
            BomHandling::None
        );
        assert_eq!(
            bom_handling_for(Some(UTF_16LE), SHIFT_JIS),
            BomHandling::Sniff
        );
    }

    #[test]
    fn a_pane_moves_with_its_analysis_only_once_that_is_finished() {
        use std::path::PathBuf;
        use std::sync::Arc;

        use crate::model::analysis::Analyser;
        use crate::model::document::{Document, FileBytes};

        // Three MiB: the analyser stops after one, a snapshot of a part.
        let bytes = vec![b'a'; 3 << 20];
        let mut analyser = Analyser::new(UTF_8, BomHandling::None, true);
        assert!(!analyser.advance(&bytes));
        let (partial, _) = analyser.snapshot();
        while !analyser.advance(&bytes) {}
        let (finished, _) = analyser.finish(&bytes);
        for (analysis, moves) in [(partial, false), (finished, true)] {
            let mut session = Session {
                document: Some(Document::from_bytes(
                    PathBuf::from("a.txt"),
                    FileBytes::from(bytes.clone()),
                    1,
                )),
                ..Session::default()
            };
            let mut pane = Pane::new(UTF_8, BomHandling::None);
            pane.analysis = Some(Arc::new(analysis));
            session.panes = vec![pane];
            let mut jobs = DocumentJobs::new(Arc::new(|| {}));
            // Detection puts another encoding first: the UTF-8 pane moves.
            let kept = session.set_panes(&mut jobs, &[WINDOWS_1252, UTF_8]);
            assert_eq!(kept, Some(vec![None, moves.then_some(0)]));
            assert_eq!(session.panes[1].analysis.is_some(), moves);
            jobs.cancel_all();
        }
    }

    #[test]
    fn remembered_panes_must_be_override_choices() {
        let mut settings = Settings::default();
        settings.remember(Path::new("/a"), &[UTF_16LE]);
        assert_eq!(settings.panes_for(Path::new("/a")), None);
    }
}
