//! Reverse tables (code point → pointer) built at compile time from the
//! generated forward tables, and the small lookups shared by the index modules.
//!
//! Multi-byte indexes get a flat `[u16; 0x10000]` per plane: one load per
//! lookup, which is what an encoder wants per character. Single-byte indexes
//! get a two-level table (a page map by the code point's high byte into a
//! shared pool of 256-byte pages): 27 page maps and 118 pages, 36 KiB in all.

/// Marks a code point without a pointer in a flat reverse table. No index has
/// this many pointers; the builders check.
pub(crate) const NO_POINTER: u16 = u16::MAX;

/// A flat table from the low 16 bits of a code point (in one plane) to a pointer.
pub(crate) type FlatReverse = [u16; 0x1_0000];

/// Builds the "index pointer" table of a BMP-only index: for each code point
/// its *first* pointer, skipping the pointers in `excluded` (inclusive).
#[expect(
    clippy::large_stack_arrays,
    reason = "only evaluated at compile time, to initialise a static"
)]
pub(crate) const fn first_pointers(table: &[u16], excluded: Option<(usize, usize)>) -> FlatReverse {
    assert!(
        table.len() <= NO_POINTER as usize,
        "pointers must fit below NO_POINTER"
    );
    let mut reverse = [NO_POINTER; 0x1_0000];
    // Walk backwards so that the first pointer is written last and wins.
    let mut pointer = table.len();
    while pointer > 0 {
        pointer -= 1;
        let code_point = table[pointer];
        let is_excluded = match excluded {
            Some((start, end)) => start <= pointer && pointer <= end,
            None => false,
        };
        if code_point != 0 && !is_excluded {
            reverse[code_point as usize] = pointer as u16;
        }
    }
    reverse
}

/// Builds the "index Big5 pointer" table for the code points of one `plane`:
/// pointers below `first_pointer` are left out, the code points in
/// `last_pointer_code_points` get their *last* pointer, all others their first.
#[expect(
    clippy::large_stack_arrays,
    reason = "only evaluated at compile time, to initialise a static"
)]
pub(crate) const fn big5_pointers(
    table: &[u32],
    plane: u32,
    first_pointer: usize,
    last_pointer_code_points: &[u32],
) -> FlatReverse {
    assert!(
        table.len() <= NO_POINTER as usize,
        "pointers must fit below NO_POINTER"
    );
    let mut reverse = [NO_POINTER; 0x1_0000];
    // First pointers: walk backwards so the first one is written last.
    let mut pointer = table.len();
    while pointer > first_pointer {
        pointer -= 1;
        let code_point = table[pointer];
        assert!(
            code_point >> 16 != 1 && code_point >> 16 <= 2,
            "Big5 code points must be in planes 0 and 2"
        );
        if code_point != 0 && code_point >> 16 == plane {
            reverse[(code_point & 0xFFFF) as usize] = pointer as u16;
        }
    }
    // Last pointers for the listed code points: walk forwards so the last one wins.
    let mut pointer = first_pointer;
    while pointer < table.len() {
        let code_point = table[pointer];
        if code_point >> 16 == plane && contains(last_pointer_code_points, code_point) {
            reverse[(code_point & 0xFFFF) as usize] = pointer as u16;
        }
        pointer += 1;
    }
    reverse
}

const fn contains(code_points: &[u32], code_point: u32) -> bool {
    let mut i = 0;
    while i < code_points.len() {
        if code_points[i] == code_point {
            return true;
        }
        i += 1;
    }
    false
}

/// The code point for `pointer` in a `u16` forward table (0 = none).
#[inline]
pub(crate) fn code_point_u16(table: &[u16], pointer: usize) -> Option<char> {
    match table.get(pointer) {
        None | Some(0) => None,
        Some(&code_point) => char::from_u32(u32::from(code_point)),
    }
}

/// The code point for `pointer` in a `u32` forward table (0 = none).
#[inline]
pub(crate) fn code_point_u32(table: &[u32], pointer: usize) -> Option<char> {
    match table.get(pointer) {
        None | Some(0) => None,
        Some(&code_point) => char::from_u32(code_point),
    }
}

/// The pointer for a BMP code point in a flat reverse table.
#[inline]
pub(crate) fn bmp_pointer(reverse: &FlatReverse, c: char) -> Option<u16> {
    let code_point = u16::try_from(u32::from(c)).ok()?;
    let pointer = reverse[usize::from(code_point)];
    (pointer != NO_POINTER).then_some(pointer)
}

/// The two-level reverse tables of all single-byte indexes.
pub(crate) struct SingleByteReverse<const INDEXES: usize, const PAGES: usize> {
    /// Per index: the pool page for each high byte of a BMP code point.
    pub(crate) page_maps: [[u8; 256]; INDEXES],
    /// Pages by low byte: `pointer + 0x80` (the encoded byte), 0 for none.
    /// Page 0 is empty and shared by every unused page-map slot.
    pub(crate) pages: [[u8; 256]; PAGES],
}

/// How many pool pages [`single_byte_reverse`] needs: one empty page plus one
/// per (index, high byte) pair in use.
pub(crate) const fn single_byte_page_count(indexes: &[(&str, &[u16; 128])]) -> usize {
    let mut count = 1;
    let mut i = 0;
    while i < indexes.len() {
        let mut used = [false; 256];
        let mut pointer = 0;
        while pointer < 128 {
            let code_point = indexes[i].1[pointer];
            if code_point != 0 && !used[(code_point >> 8) as usize] {
                used[(code_point >> 8) as usize] = true;
                count += 1;
            }
            pointer += 1;
        }
        i += 1;
    }
    count
}

/// Builds the page maps and the page pool for `indexes`, honouring "first pointer".
pub(crate) const fn single_byte_reverse<const INDEXES: usize, const PAGES: usize>(
    indexes: &[(&str, &[u16; 128]); INDEXES],
) -> SingleByteReverse<INDEXES, PAGES> {
    assert!(PAGES <= 256, "page numbers must fit a u8");
    let mut reverse = SingleByteReverse {
        page_maps: [[0; 256]; INDEXES],
        pages: [[0; 256]; PAGES],
    };
    let mut next_page = 1;
    let mut i = 0;
    while i < INDEXES {
        // Walk backwards so that the first pointer is written last and wins.
        let mut pointer = 128;
        while pointer > 0 {
            pointer -= 1;
            let code_point = indexes[i].1[pointer];
            if code_point != 0 {
                let high = (code_point >> 8) as usize;
                if reverse.page_maps[i][high] == 0 {
                    reverse.page_maps[i][high] = next_page as u8;
                    next_page += 1;
                }
                let page = reverse.page_maps[i][high] as usize;
                reverse.pages[page][(code_point & 0xFF) as usize] = pointer as u8 + 0x80;
            }
        }
        i += 1;
    }
    assert!(
        next_page == PAGES,
        "PAGES must come from single_byte_page_count"
    );
    reverse
}
