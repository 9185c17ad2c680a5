//! Counting by classes: only each class's smallest board is searched for, and it counts for
//! the 8, 4 or 2 boards of its class, so the whole count and the class count come together.
//!
//! This is the full-symmetry method published by Takaken (2003); what follows is written from
//! its idea, not its code. Call `d` the distance of the first row's queen from the nearer
//! corner. Every edge of the board holds one queen, and a rotation or reflection can bring any
//! edge's queen to the first row at its own distance from a corner. So the class's smallest
//! column vector has the smallest such distance in its first row, and the search may demand:
//! - `d = 0` (a corner queen): then no board of the class is symmetric (a symmetry would need
//!   a second corner queen, or queens on (1, b) and (b, 1), which attack), every class has 8
//!   boards, and exactly two of them have the queen on square (0, 0): transposes of each
//!   other. The smaller one has row 1's queen left of column 1's queen's row, which the search
//!   demands; nothing is left to check on the finished board.
//! - `d >= 1`: no corner queen anywhere, and every other edge's queen at least `d` from each
//!   corner. The finished board is then compared with its 7 images; most differ in the first
//!   row, which is read off in constant time.
//!
//! The units of work (for threads, shards and the progress bar) are the placements of the
//! first two rows.

use csp::Poller;

/// The mask of a row's `n` squares (the bitmask solver's too).
pub(crate) fn full_mask(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// The smallest board walked by units: the walk places rows 2 onwards and takes the last three
/// rows inline, so it needs at least four rows below the first two.
pub(crate) const MIN_N: usize = 6;

/// A partial board after two rows, with the rules the remaining rows must follow.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct ClassUnit {
    /// The first row's queen's distance from the nearer corner: its column.
    pub(crate) distance: usize,
    second: usize,
}

/// The units in a fixed order: corner boards first, then by distance and second column.
/// Boards of fewer than [`MIN_N`] rows are counted directly by the caller.
pub(crate) fn class_units(n: usize) -> Vec<ClassUnit> {
    let mut out = Vec::new();
    if n < MIN_N {
        return out;
    }
    let last = n - 1;
    // Row 1's queen: not in column 0 or 1, and not in the last column (column 1's queen must
    // lie below it, so it cannot be the last row's).
    out.extend((2..last).map(|second| ClassUnit {
        distance: 0,
        second,
    }));
    let mut distance = 1;
    while distance < last - distance {
        for second in 0..n {
            // Rows above row `d` keep off the side columns.
            let sides_allowed = distance <= 1 || (second != 0 && second != last);
            if second.abs_diff(distance) > 1 && sides_allowed {
                out.push(ClassUnit { distance, second });
            }
        }
        distance += 1;
    }
    out
}

/// What the walk below one unit found: all solutions, classes, placements below the first two
/// rows, and the most queens on the board at once. Partial when the poller stopped the walk.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct UnitCount {
    pub(crate) solutions: u64,
    pub(crate) classes: u64,
    pub(crate) nodes: u64,
    pub(crate) backtracks: u64,
    pub(crate) max_depth: u64,
}

impl UnitCount {
    pub(crate) fn add(self, other: UnitCount) -> UnitCount {
        UnitCount {
            solutions: self.solutions + other.solutions,
            classes: self.classes + other.classes,
            nodes: self.nodes + other.nodes,
            backtracks: self.backtracks + other.backtracks,
            max_depth: self.max_depth.max(other.max_depth),
        }
    }
}

/// All solutions and classes below a unit, and the placements made below its first two rows.
/// The walk reads `poller`'s limits about every millisecond and stops early, with what it has
/// counted so far, once they say so.
#[inline(never)]
pub(crate) fn count_unit(n: usize, unit: ClassUnit, poller: &mut Poller) -> UnitCount {
    let full = full_mask(n);
    let last = n - 1;
    let sides = 1u64 | (1u64 << last);
    // Squares a row may use, whatever the board above; and the row that must complete the
    // two side columns (when `d >= 1`).
    let mut allowed = [full; 64];
    let side_row = if unit.distance == 0 {
        // Column 1's queen goes below row 1's column.
        for row in allowed.iter_mut().take(unit.second).skip(2) {
            *row &= !0b10;
        }
        usize::MAX
    } else {
        let d = unit.distance;
        for row in allowed.iter_mut().take(d).skip(2) {
            *row &= !sides;
        }
        // The last row's queen at least `d` from each corner.
        let near = (1u64 << d) - 1;
        allowed[last] &= !(near | (near << (n - d)));
        // Both side columns must be filled by row `last - d`, the last at distance `d`.
        last - d
    };
    let (first, second) = (1u64 << unit.distance, 1u64 << unit.second);
    let (mut columns, mut down, mut up) = ([0u64; 64], [0u64; 64], [0u64; 64]);
    let free = [0u64; 64];
    columns[2] = first | second;
    down[2] = ((first << 1) | second) << 1;
    up[2] = ((first >> 1) | second) >> 1;
    let start = |row: usize, c: u64, d: u64, u: u64| -> u64 {
        let mut next = allowed[row & 63] & !(c | d | u);
        if row == side_row {
            let used = c & sides;
            if used == 0 {
                next = 0;
            } else if used != sides {
                next &= sides;
            }
        }
        next
    };
    let mut w = Walk {
        first: unit.distance,
        columns,
        down,
        up,
        free,
        hand: Poller::hand(),
    };
    if unit.distance == 0 {
        walk::<true>(n, &mut w, &start, poller)
    } else {
        walk::<false>(n, &mut w, &start, poller)
    }
}

/// The depth-first walk's stack, a row per level.
struct Walk {
    /// The first row's column; the others are read off `columns`, row by row.
    first: usize,
    /// The columns taken above each row (rows 0 and 1 included from row 2 on).
    columns: [u64; 64],
    down: [u64; 64],
    up: [u64; 64],
    free: [u64; 64],
    /// The poller's clock hand when the walk last looked.
    hand: u64,
}

/// The walk below row 1, with the free squares of a row given by `start`. On a corner board
/// every finished board is a class's smallest; otherwise each is compared with its images.
/// The limits are read where the walk goes back up a row, once the poller's hand has moved:
/// between two such steps it places at most a row's queens per row on the way down and the
/// three inline rows (O(n^3) placements, well under a millisecond), so a stop is seen within
/// about a millisecond. The hand is compared with a copy kept in the walk's frame: holding the
/// poller in a register spills the walk's own state.
#[inline(always)]
fn walk<const CORNER: bool>(
    n: usize,
    w: &mut Walk,
    start: &impl Fn(usize, u64, u64, u64) -> u64,
    poller: &mut Poller,
) -> UnitCount {
    let last = n - 1;
    // The last row is never the side row, so only its forbidden squares apply.
    let last_allowed = start(last, 0, 0, 0);
    // `dead`: placements after which the next row has no square left under the walk's rules
    // (the backtracks, counted as the listing walk counts them).
    let (mut all, mut classes, mut nodes, mut dead) = (0u64, 0u64, 0u64, 0u64);
    let (mut placed, mut inverse) = ([0usize; 64], [0usize; 64]);
    let mut row = 2;
    // The current row's free squares stay in a register; the stack holds them only for the
    // rows above, stored when the walk goes down.
    let mut avail = start(2, w.columns[2], w.down[2], w.up[2]);
    loop {
        if avail == 0 {
            if row == 2 {
                break;
            }
            row = (row - 1) & 63;
            avail = w.free[row];
            if Poller::hand() != w.hand && !hand_moved(w, poller) {
                break;
            }
            continue;
        }
        let bit = avail & avail.wrapping_neg();
        avail ^= bit;
        nodes += 1;
        let c = w.columns[row] | bit;
        let d = (w.down[row] | bit) << 1;
        let u = (w.up[row] | bit) >> 1;
        let next = start(row + 1, c, d, u);
        if next == 0 {
            dead += 1;
            continue;
        }
        if row + 3 == last {
            // The last three rows inline: no push for them. Row `last - 2` gets a queen.
            let mut third = next;
            while third != 0 {
                let b3 = third & third.wrapping_neg();
                third ^= b3;
                nodes += 1;
                let (c3, d3, u3) = (c | b3, (d | b3) << 1, (u | b3) >> 1);
                let mut second = start(last - 1, c3, d3, u3);
                dead += u64::from(second == 0);
                // Marks for `deepest`: rows `last - 2` and (if `second` has a square) `last - 1`
                // got a queen. The stack never holds these rows, so nothing reads them else.
                w.columns[(last - 2) & 63] = c3;
                w.columns[(last - 1) & 63] |= second;
                while second != 0 {
                    let b2 = second & second.wrapping_neg();
                    second ^= b2;
                    nodes += 1;
                    let final_row =
                        last_allowed & !((c3 | b2) | ((d3 | b2) << 1) | ((u3 | b2) >> 1));
                    if final_row == 0 {
                        dead += 1;
                        continue;
                    }
                    // One column is left, so this is the last row's only queen: a finished
                    // board (marked for `deepest`).
                    nodes += 1;
                    w.columns[last & 63] = final_row;
                    if CORNER {
                        all += 8;
                        classes += 1;
                    } else {
                        let tail = [b3, b2, final_row];
                        read_columns(w, row, c, &tail, &mut placed[..n]);
                        let smallest = class_size_if_smallest(&placed[..n], &mut inverse[..n]);
                        if let Some(size) = smallest {
                            all += size;
                            classes += 1;
                        }
                    }
                }
            }
            continue;
        }
        w.free[row] = avail;
        row = (row + 1) & 63;
        avail = next;
        w.columns[row] = c;
        w.down[row] = d;
        w.up[row] = u;
    }
    UnitCount {
        solutions: all,
        classes,
        nodes,
        backtracks: dead,
        max_depth: deepest(w, n, nodes) as u64,
    }
}

/// The most queens the walk had on the board: row `r` held one if the walk pushed it (its
/// entry of the stack was written) or marked it in the inline rows, and row 2 if the walk
/// placed anything. Read off the stack at the end, so that the walk spends nothing on it per
/// descent (a running maximum there cost 2 to 4% at N = 16).
fn deepest(w: &Walk, n: usize, nodes: u64) -> usize {
    match (3..n).rev().find(|&r| w.columns[r] != 0) {
        Some(r) => r + 1,
        None if nodes > 0 => 3,
        None => 2,
    }
}

/// The clock hand moved: notes it and reads the limits; false when the walk must stop. Out of
/// line, so that the walk's loop holds nothing of the poller's.
#[cold]
#[inline(never)]
fn hand_moved(w: &mut Walk, poller: &mut Poller) -> bool {
    w.hand = Poller::hand();
    poller.tick()
}

/// The finished board's column vector: rows up to `row - 1` from the walk's stack (each row's
/// queen is the column its placement added), row `row` from `c`, the columns taken after it,
/// and the rows below from `tail`, a queen's bit each. Reading them off only here spares the
/// walk a store per placement.
#[inline(never)]
fn read_columns(w: &Walk, row: usize, c: u64, tail: &[u64], q: &mut [usize]) {
    q[0] = w.first;
    let mut above = 1u64 << w.first;
    for (slot, &taken) in q[1..row].iter_mut().zip(&w.columns[2..]) {
        *slot = (taken ^ above).trailing_zeros() as usize;
        above = taken;
    }
    q[row] = (c ^ above).trailing_zeros() as usize;
    for (slot, bit) in q[row + 1..].iter_mut().zip(tail) {
        *slot = bit.trailing_zeros() as usize;
    }
}

/// For a finished board that meets the rules for `d >= 1`: the size of its class if it is the
/// class's smallest board, `None` if an image is smaller. The rules leave every image's first
/// row at least `d`, so only images whose first row ties need comparing further. Kept out of
/// line: inlined, it crowds the walk's registers.
#[inline(never)]
fn class_size_if_smallest(q: &[usize], p: &mut [usize]) -> Option<u64> {
    let n = q.len();
    let last = n - 1;
    for (row, &column) in q.iter().enumerate() {
        p[column] = row;
    }
    let p = &*p;
    let first = q[0];
    let mut equal = 1u64;
    // Row i of each image other than the identity, and its first row in constant time. The
    // left-right mirror (first row `last - d`) and the transpose (column 0's queen on row d
    // would attack the first row's) never tie, so they are left out.
    let images: [(usize, &dyn Fn(usize) -> usize); 5] = [
        (last - p[0], &|i| last - p[i]),           // rotation by 90 degrees
        (last - q[last], &|i| last - q[last - i]), // rotation by 180 degrees
        (p[last], &|i| p[last - i]),               // rotation by 270 degrees
        (q[last], &|i| q[last - i]),               // mirror top-bottom
        (last - p[last], &|i| last - p[last - i]), // anti-transpose
    ];
    for (top, image) in images {
        if top != first {
            continue;
        }
        match compare_with_image(q, image) {
            std::cmp::Ordering::Greater => return None,
            std::cmp::Ordering::Equal => equal += 1,
            std::cmp::Ordering::Less => {}
        }
    }
    // 1, 2 or 4 boards equal to this one (the class's stabiliser): 8, 4 or 2 in the class.
    Some(8 >> equal.trailing_zeros())
}

fn compare_with_image(q: &[usize], image: &dyn Fn(usize) -> usize) -> std::cmp::Ordering {
    for (i, &own) in q.iter().enumerate().skip(1) {
        let other = image(i);
        if own != other {
            return own.cmp(&other);
        }
    }
    std::cmp::Ordering::Equal
}
