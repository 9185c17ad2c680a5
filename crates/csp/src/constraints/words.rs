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
        for (i, &var) in vars[..self.len].iter().enumerate() {
            let gone = self.read[i] & !self.masks[i];
            if gone != 0 {
                ctx.remove_bits64(var, self.mins[i], gone >> self.shifts[i])?;
            }
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
#[inline(always)]
pub(super) fn hall_set_possible(open: u32, union: u64, with_size: &[u8], masks: &[u64]) -> bool {
    if open < 2 {
        return false;
    }
    let values = union.count_ones();
    if values < open {
        return true;
    }
    if values > open || open > 16 {
        // h variables of at most h values each, for some h short of all of them.
        let mut at_most = 0u32;
        for (h, &count) in with_size.iter().enumerate().take(open as usize).skip(2) {
            at_most += u32::from(count);
            if at_most >= h as u32 {
                return true;
            }
        }
        return false;
    }
    let half = (open / 2) as usize;
    let mut at_most = 0u32;
    for (h, &count) in with_size.iter().enumerate().take(half + 1).skip(2) {
        at_most += u32::from(count);
        if at_most >= h as u32 {
            return true;
        }
    }
    // slices[k]: bit k of each value's count of open variables holding it.
    let mut slices = [0u64; 4];
    for &mask in masks {
        if mask & mask.wrapping_sub(1) != 0 {
            let mut carry = mask;
            for slice in &mut slices {
                let next = *slice & carry;
                *slice ^= carry;
                carry = next;
            }
        }
    }
    let mut rare = 0u64;
    for g in 1..=half {
        // The values held by exactly g open variables.
        let exactly = slices.iter().enumerate().fold(union, |acc, (k, &slice)| {
            acc & if g >> k & 1 == 1 { slice } else { !slice }
        });
        rare |= exactly;
        if rare.count_ones() >= g as u32 {
            return true;
        }
    }
    false
}
