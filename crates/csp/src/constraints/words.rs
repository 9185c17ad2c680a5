//! `Words`: an all_different scope read as 64-bit words, and the Hall set test on them.

use crate::{Conflict, Context, VarId};

/// The scope's domains as words over one window of shifted values, for filtering with bit
/// operations: bit `b` of `masks[i]` stands for `vars[i] + offsets[i] = low + b`. Arrays on
/// the stack for at most `N` variables, since this is read at every propagation of a sudoku
/// or a small board: `N` is 16 for those of up to 16 variables, so that clearing the arrays
/// costs little, and 64 for the rest.
pub(super) struct Words<const N: usize> {
    pub(super) low: i64,
    pub(super) len: usize,
    pub(super) masks: [u64; N],
    /// The masks as read, to tell what went.
    pub(super) read: [u64; N],
    /// The value of bit 0 of each variable's word as read (`Context::word64`), and the shift
    /// that lines its mask up with `low`.
    pub(super) mins: [i32; N],
    pub(super) shifts: [u32; N],
}

impl<const N: usize> Words<N> {
    pub(super) fn new() -> Self {
        Words {
            low: 0,
            len: 0,
            masks: [0; N],
            read: [0; N],
            mins: [0; N],
            shifts: [0; N],
        }
    }

    /// Reads the domains; false unless there are at most `N` variables whose shifted values
    /// span at most 64.
    #[inline]
    pub(super) fn read(&mut self, vars: &[VarId], offsets: &[i32], ctx: &Context<'_>) -> bool {
        if vars.len() > N {
            return false;
        }
        self.len = vars.len();
        let (mut low, mut high) = (i64::MAX, i64::MIN);
        let mut first_start = None;
        let mut aligned = true;
        for (i, (&var, &offset)) in vars.iter().zip(offsets).enumerate() {
            let Some((min, bits)) = ctx.word64(var) else {
                return false;
            };
            let start = i64::from(min) + i64::from(offset);
            aligned &= *first_start.get_or_insert(start) == start;
            low = low.min(start);
            high = high.max(start + 63 - i64::from(bits.leading_zeros()));
            self.masks[i] = bits;
            self.mins[i] = min;
        }
        if high - low >= 64 {
            return false;
        }
        self.low = low;
        if aligned {
            // Every mask already starts at `low` (a sudoku's cells, zero offsets).
            self.read = self.masks;
            return true;
        }
        for (i, &offset) in offsets.iter().enumerate() {
            let shift = (i64::from(self.mins[i]) + i64::from(offset) - low) as u32;
            self.masks[i] <<= shift;
            self.read[i] = self.masks[i];
            self.shifts[i] = shift;
        }
        true
    }

    /// Removes from each of `vars` (the scope read) the values its mask lost.
    #[inline]
    pub(super) fn write_back(&self, vars: &[VarId], ctx: &mut Context<'_>) -> Result<(), Conflict> {
        // Which lost values, found without a branch (a coin toss per variable), then those.
        let mut lost = 0u64;
        for i in 0..self.len {
            lost |= u64::from(self.read[i] != self.masks[i]) << i;
        }
        while lost != 0 {
            let i = lost.trailing_zeros() as usize;
            lost &= lost - 1;
            let gone = self.read[i] & !self.masks[i];
            ctx.remove_bits64(vars[i], self.mins[i], gone >> self.shifts[i])?;
        }
        Ok(())
    }
}

/// Whether the unfixed variables among `masks` (fixed ones already gone from the others) may
/// hold a Hall set that Régin's filtering acts on, or too few values between them; see
/// `AllDifferent`'s `may_have_hall_set`.
pub(super) fn hall_set_possible_among(masks: &[u64]) -> bool {
    let mut with_size = [0u8; 65];
    let (mut open, mut union) = (0u32, 0u64);
    for &mask in masks {
        if mask & mask.wrapping_sub(1) != 0 {
            open += 1;
            union |= mask;
            with_size[mask.count_ones() as usize] += 1;
        }
    }
    hall_set_possible(open, union, &with_size, masks)
}

/// The Hall set test on a census of the `open` unfixed variables among `masks`: `union`,
/// their values together, and `with_size[s]`, how many have `s` values (for every `s` below
/// `open`).
///
/// When the open variables share exactly `open` values (a sudoku unit always: its open cells
/// share the missing digits), Hall sets pair up. If `h` variables share only `h` values, the
/// `open - h` values left lie in the other `open - h` variables alone: a "hidden" set. So a
/// Hall set, or too few values for some variables, needs either `h` variables of at most `h`
/// values or `g` values each in at most `g` variables, for some `h` or `g` up to half of
/// `open`. Hidden singles (a value in one variable) are the case `g = 1`. The values' counts
/// are kept in bit slices, four bits per value, exact up to 15 variables and 0 for 16.
///
/// Counting is only a necessary condition: four cells of two values each in a cycle (12, 23,
/// 34, 41) pass it with no pair among them. So for sets of two and three, where counting
/// passes, the sets themselves are looked for ([`some_closed`]). On forum_hardest puzzles this
/// turned about seven in eight of the matchings that pruned nothing, each a second run of
/// the constraint, into a plain "nothing to do" (measured on the calls of 200 puzzles).
#[inline(always)]
pub(super) fn hall_set_possible(open: u32, union: u64, with_size: &[u8], masks: &[u64]) -> bool {
    if open < 2 {
        return false;
    }
    let values = union.count_ones();
    if values < open {
        return true;
    }
    // Tight: hidden sets pair up with naked ones, so either kind up to half of them.
    let tight = values == open && open <= 16;
    let limit = if tight { open / 2 } else { open - 1 } as usize;
    // h variables of at most h values each.
    let mut at_most = 0u32;
    for (h, &count) in with_size.iter().enumerate().take(limit + 1).skip(2) {
        at_most += u32::from(count);
        if at_most >= h as u32 && (h > 3 || some_closed(masks, h as u32, 2)) {
            return true;
        }
    }
    if !tight {
        return false;
    }
    // slices[k]: bit k of each value's count of open variables holding it.
    let mut slices = [0u64; 4];
    for &mask in masks {
        // Open variables only, without a branch.
        let mut carry = mask & u64::from(mask & mask.wrapping_sub(1) != 0).wrapping_neg();
        for slice in &mut slices {
            let next = *slice & carry;
            *slice ^= carry;
            carry = next;
        }
    }
    let mut rare = 0u64;
    for g in 1..=limit {
        // The values held by exactly g open variables.
        let exactly = slices.iter().enumerate().fold(union, |acc, (k, &slice)| {
            acc & if g >> k & 1 == 1 { slice } else { !slice }
        });
        rare |= exactly;
        if rare.count_ones() >= g as u32 {
            if g == 1 || g > 3 {
                return true;
            }
            let mut held = [0u64; 16];
            let count = holders(masks, rare, &mut held);
            if count > held.len() || some_closed(&held[..count], g as u32, 1) {
                return true;
            }
        }
    }
    false
}

/// The open variables holding each of the `values` (bit `i`: `masks[i]`), gathered in
/// `held`; how many.
fn holders(masks: &[u64], values: u64, held: &mut [u64; 16]) -> usize {
    let mut left = values;
    let mut count = 0;
    while left != 0 && count < held.len() {
        let value = left.trailing_zeros();
        left &= left - 1;
        let mut holders = 0u64;
        for (i, &mask) in masks.iter().enumerate() {
            let open = mask & mask.wrapping_sub(1) != 0;
            holders |= (u64::from(open) & mask >> value) << i;
        }
        held[count] = holders;
        count += 1;
    }
    if left != 0 {
        // More than 16 values: let the caller take it as possible.
        return usize::MAX;
    }
    count
}

/// Whether `h` (2 or 3) of `sets` have at most `h` elements between them: only sets of
/// `min_bits` to `h` elements take part (variables' values from 2, fixed ones left out;
/// values' holders from 1). True, to be safe, when more than 16 sets could take part.
fn some_closed(sets: &[u64], h: u32, min_bits: u32) -> bool {
    let mut small = [0u64; 16];
    let mut count = 0;
    for &set in sets {
        let bits = set.count_ones();
        if bits >= min_bits && bits <= h {
            if count == small.len() {
                return true;
            }
            small[count] = set;
            count += 1;
        }
    }
    for i in 0..count {
        for j in i + 1..count {
            let pair = small[i] | small[j];
            if pair.count_ones() > h {
                continue;
            }
            if h == 2 {
                return true;
            }
            for &third in &small[j + 1..count] {
                if (pair | third).count_ones() <= h {
                    return true;
                }
            }
        }
    }
    false
}
