//! The N-Queens search tree cut into subtrees below the first two rows: the unit of work for
//! the fast counter, for threads, and for shards.
//!
//! Mirror symmetry halves the work: a solution with its first queen in the left half has a
//! mirror image with it in the right half, so only the left half is walked and its subtrees
//! weigh 2. On an odd board the middle column of row one is its own mirror; there the second
//! queen is kept to the left half instead, again weighing 2 (as the reference C counter does).

/// One subtree: the masks after two queens, and how many solutions each of its solutions
/// stands for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Subtree {
    pub(crate) columns: u64,
    pub(crate) down: u64,
    pub(crate) up: u64,
    pub(crate) weight: u64,
}

/// The board's subtrees in a fixed order (so that shard I of K always means the same work).
/// Boards of fewer than three rows are counted directly by the caller.
pub(crate) fn subtrees(n: usize) -> Vec<Subtree> {
    let full = full_mask(n);
    let mut out = Vec::new();
    let push_second = |first: u64, weight: u64, second_mask: u64, out: &mut Vec<Subtree>| {
        let (columns, down, up) = (first, first << 1, first >> 1);
        let mut free = full & !(columns | down | up) & second_mask;
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            out.push(Subtree {
                columns: columns | bit,
                down: (down | bit) << 1,
                up: (up | bit) >> 1,
                weight,
            });
        }
    };
    for column in 0..n / 2 {
        push_second(1 << column, 2, full, &mut out);
    }
    if n % 2 == 1 {
        let half = (1u64 << (n / 2)) - 1;
        push_second(1 << (n / 2), 2, half, &mut out);
    }
    out
}

pub(crate) fn full_mask(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// Solutions and placements below a subtree, for a board with `rows_left` rows still empty
/// (at least 1). Iterative, with the last two rows inline and the last counted by popcount.
pub(crate) fn count(full: u64, start: Subtree, rows_left: usize) -> (u64, u64) {
    let first = full & !(start.columns | start.down | start.up);
    if rows_left == 1 {
        let found = u64::from(first.count_ones());
        return (found, found);
    }
    // Per depth: free squares still to try, and the masks they came from.
    let mut free = [0u64; 64];
    let mut columns = [0u64; 64];
    let mut down = [0u64; 64];
    let mut up = [0u64; 64];
    free[0] = first;
    columns[0] = start.columns;
    down[0] = start.down;
    up[0] = start.up;
    let last = rows_left - 1;
    let (mut solutions, mut nodes) = (0u64, 0u64);
    let mut depth = 0usize;
    loop {
        let avail = free[depth];
        if avail == 0 {
            if depth == 0 {
                break;
            }
            depth -= 1;
            continue;
        }
        let bit = avail & avail.wrapping_neg();
        free[depth] = avail ^ bit;
        nodes += 1;
        let c = columns[depth] | bit;
        let d = (down[depth] | bit) << 1;
        let u = (up[depth] | bit) >> 1;
        let next = full & !(c | d | u);
        if depth + 1 == last {
            let found = u64::from(next.count_ones());
            solutions += found;
            nodes += found;
        } else if depth + 2 == last {
            // The last two rows inline: most nodes live here, and pushing them costs.
            nodes += u64::from(next.count_ones());
            let mut second = next;
            while second != 0 {
                let b = second & second.wrapping_neg();
                second ^= b;
                let final_row = full & !((c | b) | ((d | b) << 1) | ((u | b) >> 1));
                let found = u64::from(final_row.count_ones());
                solutions += found;
                nodes += found;
            }
        } else if next != 0 {
            depth += 1;
            free[depth] = next;
            columns[depth] = c;
            down[depth] = d;
            up[depth] = u;
        }
    }
    (solutions, nodes)
}
