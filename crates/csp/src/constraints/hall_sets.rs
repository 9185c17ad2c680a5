//! Hall sets as reasons: Régin's filtering on words under learning, each removal and each
//! failure explained by the variables whose domains lie within as many values, or fewer.
//!
//! After a matching `M` covering every variable, the value `b` leaves `x` when no alternating
//! path leads from `b` (to the variable holding it, on to that variable's other values, and
//! so on) to a free value or to `x`'s own. The variables such a path reaches from `b` then
//! hold, between them, exactly the values it reaches: a Hall set `H` with `x` outside it. Its
//! reason is `dom(y) ⊆ values(H)` for each `y` in `H`, the explanation Katsirelos and Bacchus
//! give for all_different ("Generalized nogoods in CSPs", 2005). A failed augmenting path from
//! `x` likewise reaches a set of variables with one value fewer than variables.

use super::regin::{match_words, prune_words, WordMatching, NO_BIT};
use super::words::Words;
use crate::{Atom, Conflict, Context, VarId};
use smallvec::SmallVec;

/// Filters `vars[i] + offsets[i]` to generalised arc consistency as Régin's filtering does,
/// giving every removal and the failure their Hall set; `hint` is the previous matching, as
/// `filter_words` takes it. `Ok(false)` when the scope does not fit one word per variable.
pub(super) fn filter_explained(
    vars: &[VarId],
    offsets: &[i32],
    hint: &mut Vec<Option<i64>>,
    ctx: &mut Context<'_>,
) -> Result<bool, Conflict> {
    let mut words = Words::<64>::new();
    if !words.read(vars, offsets, ctx) {
        return Ok(false);
    }
    let (low, len) = (words.low, words.len);
    let before = &words.masks[..len];
    // Examining each (variable, value) pair of the graph counts as one check.
    ctx.count_checks(before.iter().map(|m| u64::from(m.count_ones())).sum());
    let mut matching = WordMatching::default();
    if let Err(failed) = match_words(before, low, hint, &mut matching) {
        let (within, values) = closure(before, &matching.holder, 1 << failed);
        let reason = reason_within(vars, offsets, low, within, values);
        return Err(ctx.violated_because(&reason));
    }
    let mut after = words.masks;
    prune_words(&mut after[..len], &matching);
    let mut gone = 0u64;
    for (&was, &is) in before.iter().zip(&after[..len]) {
        gone |= was & !is;
    }
    while gone != 0 {
        let bit = gone.trailing_zeros();
        gone &= gone - 1;
        let (within, values) = closure_of_value(before, &matching.holder, bit);
        let reason = reason_within(vars, offsets, low, within, values);
        ctx.because(&reason, |ctx| {
            for j in 0..len {
                if (before[j] & !after[j]) >> bit & 1 == 0 {
                    continue;
                }
                if let Ok(value) = i32::try_from(low + i64::from(bit) - i64::from(offsets[j])) {
                    ctx.remove(vars[j], value)?;
                }
            }
            Ok(())
        })?;
    }
    Ok(true)
}

/// The variables and values alternating paths reach from the variables `start`: each value
/// leads to the variable holding it, each variable to all its values.
fn closure(masks: &[u64], holder: &[u8; 64], start: u64) -> (u64, u64) {
    let mut values = 0u64;
    for_bits(start, |i| values |= masks[i]);
    grow(masks, holder, start, values)
}

/// As [`closure`], from the value `bit` alone.
fn closure_of_value(masks: &[u64], holder: &[u8; 64], bit: u32) -> (u64, u64) {
    grow(masks, holder, 0, 1 << bit)
}

/// Adds the holders of `values` to `within`, and their values to `values`, until neither grows.
fn grow(masks: &[u64], holder: &[u8; 64], mut within: u64, mut values: u64) -> (u64, u64) {
    loop {
        let mut holders = 0u64;
        for_bits(values, |w| {
            if holder[w] != NO_BIT {
                holders |= 1 << holder[w];
            }
        });
        let new = holders & !within;
        if new == 0 {
            return (within, values);
        }
        within |= new;
        for_bits(new, |y| values |= masks[y]);
    }
}

/// Calls `f` with the index of each set bit of `bits`, lowest first.
fn for_bits(mut bits: u64, mut f: impl FnMut(usize)) {
    while bits != 0 {
        f(bits.trailing_zeros() as usize);
        bits &= bits - 1;
    }
}

/// The atoms saying that each variable of `within` has its shifted values among `values`:
/// its bounds at their ends, and the values missing between.
fn reason_within(
    vars: &[VarId],
    offsets: &[i32],
    low: i64,
    within: u64,
    values: u64,
) -> SmallVec<[Atom; 32]> {
    let mut reason = SmallVec::new();
    if values == 0 {
        return reason;
    }
    let (first, last) = (values.trailing_zeros(), 63 - values.leading_zeros());
    let span = if last == 63 {
        u64::MAX
    } else {
        (1u64 << (last + 1)) - 1
    };
    let gaps = !values & span & !((1u64 << first) - 1);
    let clamp = |v: i64| v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
    for_bits(within, |y| {
        let (var, offset) = (vars[y], i64::from(offsets[y]));
        reason.push(Atom::Ge(var, clamp(low + i64::from(first) - offset)));
        reason.push(Atom::Le(var, clamp(low + i64::from(last) - offset)));
        for_bits(gaps, |g| {
            if let Ok(value) = i32::try_from(low + g as i64 - offset) {
                reason.push(Atom::Ne(var, value));
            }
        });
    });
    reason
}
