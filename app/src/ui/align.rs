//! Several readings of one row laid out together on one grid of columns,
//! wrapped to a width: how the decode panes show whole lines.
//!
//! The readings of a row are its cells under each pane's encoding. Where
//! every reading starts a cell at the same byte (a *sync point*: after any
//! run of ASCII, say), the readings are brought to the same column, so that
//! the same bytes sit at the same place in every reading; between two sync
//! points each reading takes the columns it needs, and the widest sets the
//! segment's width. A segment whose text differs from the first reading's
//! is marked, and lines break only at sync points, so every reading of a
//! line covers the same bytes. Nothing here draws: the views measure cells
//! (`measure`, in columns) and paint what this places.

use crate::ui::cells::{Cell, CellKind};

/// One cell placed on a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placed {
    /// The cell's index among its reading's cells of the row.
    pub cell: usize,
    /// The first column it takes on the line.
    pub column: u32,
    /// How many columns it takes (0 for a combining mark, which sits on the
    /// cell before it).
    pub columns: u32,
    /// Whether the segment it is in reads differently from the first
    /// reading.
    pub differs: bool,
}

/// One line of a row: each reading's cells on it, all covering the same
/// bytes (but where a segment wider than the line had to be cut).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line {
    /// Each reading's cells, in the readings' order.
    pub readings: Vec<Vec<Placed>>,
    /// How many columns the line takes.
    pub width: u32,
    /// Whether every reading reads the line the same (it may then be shown
    /// once for all of them).
    pub same: bool,
}

/// A row of several readings, laid out in lines at most `width` columns
/// wide (one line at least, even for an empty row). `measure` says how many
/// columns a cell takes. Unless `align`, each reading flows on its own,
/// none padded to meet the others.
pub fn lay_out(
    readings: &[&[Cell]],
    width: u32,
    align: bool,
    measure: impl Fn(&Cell) -> u32,
) -> Vec<Line> {
    let width = width.max(1);
    let count = readings.len();
    let mut segments = segments(readings, &measure);
    if !align && segments.len() > 1 {
        // One segment: the lines are cut in each reading on its own.
        let mut whole = Segment {
            cells: vec![Vec::new(); count],
            width: u32::MAX,
            differs: vec![false; count],
        };
        for segment in segments {
            for (reading, cells) in segment.cells.into_iter().enumerate() {
                whole.cells[reading].extend(cells);
                whole.differs[reading] |= segment.differs[reading];
            }
        }
        segments = vec![whole];
    }
    let mut lines = Vec::new();
    let mut line = empty_line(count);
    for segment in &segments {
        if segment.width > width {
            // Too wide for any line: each reading flows on lines of its own
            // within the segment, as many as the longest needs.
            if !line.readings.iter().all(Vec::is_empty) {
                lines.push(std::mem::replace(&mut line, empty_line(count)));
            }
            lines.extend(cut(segment, count, width));
            continue;
        }
        if line.width + segment.width > width && !line.readings.iter().all(Vec::is_empty) {
            lines.push(std::mem::replace(&mut line, empty_line(count)));
        }
        let start = line.width;
        for (reading, cells) in segment.cells.iter().enumerate() {
            let mut column = start;
            for &(cell, columns, differs) in cells {
                line.readings[reading].push(Placed {
                    cell,
                    column,
                    columns,
                    differs,
                });
                column += columns;
            }
        }
        line.width += segment.width;
        line.same &= !segment.differs.iter().any(|&d| d);
    }
    if lines.is_empty() || !line.readings.iter().all(Vec::is_empty) {
        lines.push(line);
    }
    lines
}

fn empty_line(count: usize) -> Line {
    Line {
        readings: vec![Vec::new(); count],
        width: 0,
        same: true,
    }
}

/// The cells of each reading between two sync points.
struct Segment {
    /// Each reading's cells: index, columns, and whether the segment the
    /// cell came from reads differently from the first reading.
    cells: Vec<Vec<(usize, u32, bool)>>,
    /// The widest reading's columns.
    width: u32,
    /// Whether each reading reads the segment differently from the first.
    differs: Vec<bool>,
}

/// Splits the row at its sync points.
fn segments(readings: &[&[Cell]], measure: &impl Fn(&Cell) -> u32) -> Vec<Segment> {
    let syncs = sync_points(readings);
    let mut next = vec![0usize; readings.len()];
    let mut segments = Vec::with_capacity(syncs.len() + 1);
    // The segment before the first sync point, then one after each.
    for end in syncs.iter().copied().map(Some).chain([None]) {
        let mut cells = Vec::with_capacity(readings.len());
        for (reading, all) in readings.iter().enumerate() {
            let first = next[reading];
            let mut last = first;
            while last < all.len() && end.is_none_or(|end| all[last].span.start < end) {
                last += 1;
            }
            next[reading] = last;
            cells.push(
                (first..last)
                    .map(|i| (i, measure(&all[i]), false))
                    .collect::<Vec<_>>(),
            );
        }
        if cells.iter().all(Vec::is_empty) {
            continue;
        }
        let width = cells
            .iter()
            .map(|cells: &Vec<(usize, u32, bool)>| cells.iter().map(|&(_, c, _)| c).sum::<u32>())
            .max()
            .unwrap_or(0);
        let text = |reading: usize| {
            cells[reading]
                .iter()
                .map(move |&(i, _, _)| &readings[reading][i])
                .map(|cell| (cell.text.as_str(), kind_class(cell.kind)))
        };
        let differs: Vec<bool> = (0..readings.len())
            .map(|reading| reading > 0 && !text(reading).eq(text(0)))
            .collect();
        for (reading, cells) in cells.iter_mut().enumerate() {
            for cell in cells {
                cell.2 = differs[reading];
            }
        }
        segments.push(Segment {
            cells,
            width,
            differs,
        });
    }
    segments
}

/// The kinds that tell two readings apart: an error is an error whatever
/// its kind, and a U+FFFD that was in the file is not one.
fn kind_class(kind: CellKind) -> u8 {
    match kind {
        CellKind::Text => 0,
        CellKind::Control => 1,
        CellKind::Malformed(_) => 2,
        CellKind::LiteralReplacement => 3,
        CellKind::Skip(_) => 4,
        CellKind::Lost => 5,
    }
}

/// The byte offsets at which every reading starts a cell, ascending.
fn sync_points(readings: &[&[Cell]]) -> Vec<u64> {
    let Some((first, others)) = readings.split_first() else {
        return Vec::new();
    };
    let mut positions = vec![0usize; others.len()];
    first
        .iter()
        .map(|cell| cell.span.start)
        .filter(|&start| {
            others
                .iter()
                .zip(positions.iter_mut())
                .all(|(cells, position)| {
                    while *position < cells.len() && cells[*position].span.start < start {
                        *position += 1;
                    }
                    cells.get(*position).is_some_and(|c| c.span.start == start)
                })
        })
        .collect()
}

/// A segment wider than a line, cut into lines: each reading's cells flow
/// on their own.
fn cut(segment: &Segment, count: usize, width: u32) -> Vec<Line> {
    let mut lines: Vec<Line> = Vec::new();
    for (reading, cells) in segment.cells.iter().enumerate() {
        let mut line = 0;
        let mut column = 0;
        for &(cell, columns, differs) in cells {
            if column + columns > width && column > 0 {
                line += 1;
                column = 0;
            }
            while lines.len() <= line {
                let mut new = empty_line(count);
                new.same = !segment.differs.iter().any(|&d| d);
                lines.push(new);
            }
            lines[line].readings[reading].push(Placed {
                cell,
                column,
                columns,
                differs,
            });
            column += columns;
            lines[line].width = lines[line].width.max(column);
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use mojiscope_core::{ByteSpan, DecodeErrorKind};

    use super::*;

    fn cell(text: &str, start: u64, end: u64) -> Cell {
        Cell {
            text: text.to_owned(),
            kind: CellKind::Text,
            span: ByteSpan::new(start, end),
            edited: false,
        }
    }

    /// One byte per character.
    fn ascii(text: &str, start: u64) -> Vec<Cell> {
        (start..)
            .zip(text.chars())
            .map(|(i, c)| cell(&c.to_string(), i, i + 1))
            .collect()
    }

    fn columns(cell: &Cell) -> u32 {
        u32::try_from(cell.text.chars().count()).unwrap_or(1)
    }

    /// Each reading of each line as text, with its columns.
    fn shown(lines: &[Line], readings: &[&[Cell]]) -> Vec<Vec<String>> {
        lines
            .iter()
            .map(|line| {
                line.readings
                    .iter()
                    .enumerate()
                    .map(|(r, placed)| {
                        let mut text = String::new();
                        for p in placed {
                            while (text.chars().count() as u32) < p.column {
                                text.push('.');
                            }
                            text.push_str(&readings[r][p.cell].text);
                        }
                        text
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn readings_meet_again_after_they_differ() {
        // "aé b": UTF-8 reads é as one character of two bytes, windows-1252
        // as two.
        let mut utf8 = vec![cell("a", 0, 1), cell("é", 1, 3)];
        utf8.extend(ascii(" b", 3));
        let mut cp1252 = vec![cell("a", 0, 1), cell("Ã", 1, 2), cell("©", 2, 3)];
        cp1252.extend(ascii(" b", 3));
        let readings: [&[Cell]; 2] = [&utf8, &cp1252];
        let lines = lay_out(&readings, 80, true, columns);
        assert_eq!(lines.len(), 1);
        // The space after é is at column 3 in both: é takes the two
        // columns the other reading needs.
        assert_eq!(shown(&lines, &readings), [["aé. b", "aÃ© b"]]);
        let differs: Vec<bool> = lines[0].readings[1].iter().map(|p| p.differs).collect();
        assert_eq!(differs, [false, true, true, false, false]);
        assert!(lines[0].readings[0].iter().all(|p| !p.differs));
        assert!(!lines[0].same);
    }

    #[test]
    fn lines_break_where_every_reading_can() {
        let a = ascii("abcdefghij", 0);
        let mut b = ascii("abc", 0);
        // Bytes 3..5 are one character in the second reading.
        b.push(cell("X", 3, 5));
        b.extend(ascii("fghij", 5));
        let readings: [&[Cell]; 2] = [&a, &b];
        let lines = lay_out(&readings, 4, true, columns);
        // Greedy: "de" (one character in the second reading) does not fit
        // after "abc", and starts the next line.
        assert_eq!(
            shown(&lines, &readings),
            [["abc", "abc"], ["defg", "X.fg"], ["hij", "hij"]]
        );
        assert!(lines[0].same && !lines[1].same && lines[2].same);
        // Every line of every reading covers the same bytes.
        for line in &lines {
            let spans: Vec<(u64, u64)> = line
                .readings
                .iter()
                .zip(readings)
                .map(|(placed, cells)| {
                    let first = cells[placed.first().unwrap().cell].span.start;
                    let last = cells[placed.last().unwrap().cell].span.end;
                    (first, last)
                })
                .collect();
            assert!(spans.windows(2).all(|w| w[0] == w[1]), "{spans:?}");
        }
    }

    #[test]
    fn a_segment_wider_than_the_line_is_cut_in_each_reading() {
        // The readings meet only at byte 0: the first reads bytes 1..7 as
        // three two-byte characters, the second bytes 0..6 so.
        let a = vec![
            cell("a", 0, 1),
            cell("X", 1, 3),
            cell("Y", 3, 5),
            cell("W", 5, 7),
        ];
        let b = vec![
            cell("P", 0, 2),
            cell("Q", 2, 4),
            cell("R", 4, 6),
            cell("S", 6, 7),
        ];
        let readings: [&[Cell]; 2] = [&a, &b];
        let lines = lay_out(&readings, 3, true, columns);
        assert_eq!(shown(&lines, &readings), [["aXY", "PQR"], ["W", "S"]]);
        assert!(lines.iter().all(|line| line.width <= 3));
    }

    #[test]
    fn an_empty_row_is_one_empty_line_and_errors_compare_as_errors() {
        let lines = lay_out(&[&[], &[]], 10, true, columns);
        assert_eq!(lines.len(), 1);
        assert!(lines[0].same);
        let error = |kind| Cell {
            text: "\u{FFFD}".to_owned(),
            kind: CellKind::Malformed(kind),
            span: ByteSpan::new(0, 1),
            edited: false,
        };
        let literal = Cell {
            kind: CellKind::LiteralReplacement,
            ..error(DecodeErrorKind::InvalidByte)
        };
        let a = [error(DecodeErrorKind::InvalidByte)];
        let b = [error(DecodeErrorKind::TruncatedSequence)];
        assert!(lay_out(&[&a, &b], 10, true, columns)[0].same);
        assert!(!lay_out(&[&a, &[literal]], 10, true, columns)[0].same);
    }

    #[test]
    fn a_reinterpreted_span_lines_up_with_the_bytes_it_replaced() {
        // "Ã©t" (bytes 0..5) put back as "ét" in the second reading: its
        // cells all have the span's bytes, and the next character ("é", at
        // byte 5) starts at the same column in both.
        let first = [
            cell("Ã", 0, 2),
            cell("©", 2, 4),
            cell("t", 4, 5),
            cell("!", 5, 6),
        ];
        let mut second = crate::ui::cells::edited_cells("ét", &[], ByteSpan::new(0, 5));
        second.push(cell("!", 5, 6));
        let lines = lay_out(&[&first, &second], 40, true, columns);
        assert_eq!(lines.len(), 1);
        let last = |reading: usize| *lines[0].readings[reading].last().unwrap();
        assert_eq!(last(0).column, 3);
        assert_eq!(last(1).column, 3);
        assert!(lines[0].readings[1][0].differs);
        assert!(!last(1).differs);
    }

    #[test]
    fn a_single_reading_wraps_at_the_width() {
        let a = ascii("abcdefg", 0);
        let lines = lay_out(&[&a], 3, true, columns);
        assert_eq!(shown(&lines, &[&a]), [["abc"], ["def"], ["g"]]);
        assert!(lines.iter().all(|line| line.same));
    }

    #[test]
    fn unaligned_readings_flow_each_on_its_own() {
        let mut utf8 = vec![cell("a", 0, 1), cell("é", 1, 3)];
        utf8.extend(ascii(" b", 3));
        let mut cp1252 = vec![cell("a", 0, 1), cell("Ã", 1, 2), cell("©", 2, 3)];
        cp1252.extend(ascii(" b", 3));
        let readings: [&[Cell]; 2] = [&utf8, &cp1252];
        let lines = lay_out(&readings, 80, false, columns);
        assert_eq!(shown(&lines, &readings), [["aé b", "aÃ© b"]]);
        assert!(!lines[0].same);
        let lines = lay_out(&readings, 3, false, columns);
        assert_eq!(shown(&lines, &readings), [["aé ", "aÃ©"], ["b", " b"]]);
    }
}
