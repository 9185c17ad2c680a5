//! Unit tests of `Context`'s range operations against removing values one at a time.

use super::*;
use crate::propagation::domains::Domains;
use crate::{ConstraintId, Poller, SplitMix64, VarId};

/// One variable whose domain has `words` words from `base`, each bit kept with chance 3/4.
fn random_domains(rng: &mut SplitMix64, base: i32, words: usize) -> Domains {
    let bits: Vec<u64> = (0..words)
        .map(|_| rng.next_u64() | rng.next_u64() | 1)
        .collect();
    // Every other case holds the domain as bounds and holes instead of a bitset.
    let limit = if rng.below(2) == 0 {
        0
    } else {
        crate::BITSET_SPAN_LIMIT
    };
    let declared = [crate::propagation::domains::tests::declared(base, &bits)];
    Domains::with_bitset_limit(declared.iter(), &mut Poller::unlimited(), limit, &|_| false)
        .unwrap()
}

/// A value near the domain or far from it, including the ends of `i32`.
fn near(rng: &mut SplitMix64, base: i32, span: i64) -> i32 {
    match rng.below(8) {
        0 => i32::MIN,
        1 => i32::MAX,
        _ => (i64::from(base) - 3 + rng.below(span as u64 + 6) as i64)
            .clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32,
    }
}

#[test]
fn range_operations_remove_what_one_value_at_a_time_would() {
    let mut rng = SplitMix64::new(13);
    let x = VarId(0);
    for case in 0..3000 {
        let words = 1 + rng.below(4) as usize;
        let base = match case % 3 {
            0 => i32::MIN,
            1 => i32::MAX - (words as i32 * 64 - 1),
            _ => rng.below(200) as i32 - 100,
        };
        let span = words as i64 * 64;
        let seed = rng.next_u64();
        let (low, high) = (near(&mut rng, base, span), near(&mut rng, base, span));
        let operation = rng.below(4);
        // The expected result: the values kept, removing one value at a time.
        let mut reference = Store::new(
            random_domains(&mut SplitMix64::new(seed), base, words),
            true,
            1,
        );
        let before: Vec<i32> = reference.domains.iter(x).collect();
        let keep = |v: i32| match operation {
            0 => !(low..=high).contains(&v),
            1 => v >= low,
            2 => v <= high,
            _ => v == low,
        };
        let expected: Vec<i32> = before.iter().copied().filter(|&v| keep(v)).collect();
        let mut ctx = Context {
            store: &mut reference,
            current: ConstraintId(0),
        };
        let mut one_by_one = Ok(0);
        for &v in before.iter().filter(|&&v| !keep(v)) {
            one_by_one = ctx.remove(x, v).map(|_| 0);
        }
        // The same through the range operation.
        let mut store = Store::new(
            random_domains(&mut SplitMix64::new(seed), base, words),
            true,
            1,
        );
        let mark = store.domains.mark();
        let mut ctx = Context {
            store: &mut store,
            current: ConstraintId(0),
        };
        let result = match operation {
            0 => ctx.remove_range(x, low, high),
            1 => ctx.set_min(x, low),
            2 => ctx.set_max(x, high),
            _ => ctx.fix(x, low),
        };
        let removed = before.len() - expected.len();
        match result {
            Ok(n) => {
                assert!(one_by_one.is_ok(), "case {case}");
                assert_eq!(n as usize, removed, "case {case}");
                assert_eq!(
                    store.domains.iter(x).collect::<Vec<_>>(),
                    expected,
                    "case {case}"
                );
            }
            Err(conflict) => {
                assert!(
                    expected.is_empty(),
                    "case {case}: a wipe-out with values left"
                );
                assert_eq!(conflict.kind, ConflictKind::WipeOut(x));
                assert!(one_by_one.is_err(), "case {case}");
            }
        }
        // The figures and the observer's log agree with one value at a time.
        assert_eq!(store.pruned, removed as u64, "case {case}");
        assert_eq!(store.prune_log, reference.prune_log, "case {case}");
        assert_eq!(store.changed.is_empty(), reference.changed.is_empty());
        // And backtracking restores the domain whole.
        store.domains.restore(mark);
        assert_eq!(
            store.domains.iter(x).collect::<Vec<_>>(),
            before,
            "case {case}"
        );
        assert_eq!(store.domains.size(x) as usize, before.len());
    }
}
