//! Unit tests of `domain`, kept beside the crate's source.

use super::*;

/// The declared domain of the values whose bits are set in `bits`, bit `i` standing for
/// `base + i`.
pub(crate) fn declared(base: i32, bits: &[u64]) -> DeclaredDomain {
    let values: Vec<i32> = (0..bits.len() * 64)
        .filter(|&i| bits[i / 64] >> (i % 64) & 1 == 1)
        .map(|i| base + i as i32)
        .collect();
    DeclaredDomain::values(&values).unwrap()
}

/// Domains laid out with bitsets up to `limit` values wide (0: every one an interval domain).
fn laid_out(initial: &[(i32, Vec<u64>)], limit: u64) -> Domains {
    let declared: Vec<DeclaredDomain> = initial.iter().map(|(b, w)| declared(*b, w)).collect();
    Domains::with_bitset_limit(declared.iter(), &mut Poller::unlimited(), limit, &|_| false)
        .unwrap()
}

fn sample() -> Domains {
    // x0 = {-3..=70}, x1 = {5}
    let declared = [
        DeclaredDomain::range(-3, 70).unwrap(),
        DeclaredDomain::range(5, 5).unwrap(),
    ];
    Domains::new(declared.iter(), &mut Poller::unlimited()).unwrap()
}

#[test]
fn remove_and_restore_round_trip() {
    let mut d = sample();
    let x = VarId(0);
    assert_eq!(d.size(x), 74);
    assert_eq!((d.min(x), d.max(x)), (Some(-3), Some(70)));
    let mark = d.mark();
    assert!(d.remove(x, -3));
    assert!(!d.remove(x, -3));
    assert!(d.remove(x, 70));
    assert!(!d.remove(x, 71));
    assert_eq!((d.min(x), d.max(x), d.size(x)), (Some(-2), Some(69), 72));
    d.assign(x, 64);
    assert_eq!((d.value(x), d.size(x)), (Some(64), 1));
    d.restore(mark);
    assert_eq!(d.size(x), 74);
    assert_eq!(d.iter(x).collect::<Vec<_>>(), (-3..=70).collect::<Vec<_>>());
}

#[test]
fn next_above_and_below_walk_the_domain() {
    let mut d = sample();
    let x = VarId(0);
    for v in (0..=70).step_by(2) {
        d.remove(x, v);
    }
    let mut up = vec![];
    let mut cur = None;
    while let Some(v) = d.next_above(x, cur) {
        up.push(v);
        cur = Some(v);
    }
    let mut down = vec![];
    let mut cur = None;
    while let Some(v) = d.next_below(x, cur) {
        down.push(v);
        cur = Some(v);
    }
    down.reverse();
    assert_eq!(up, d.iter(x).collect::<Vec<_>>());
    assert_eq!(down, up);
    assert_eq!(d.value(VarId(1)), Some(5));
    assert_eq!(d.window64(VarId(1)), Some((5, 1)));
    assert_eq!(d.window64(x), None, "spans 73 values");
    for v in [-3, -2].into_iter().chain(5..=60).chain(62..=70) {
        d.remove(x, v);
    }
    // Left: -1, 1, 3, 61: 63 values apart, across the first word boundary.
    let (min, bits) = d.window64(x).unwrap();
    let from_window: Vec<i32> = (0..64)
        .filter(|i| bits >> i & 1 == 1)
        .map(|i| min + i)
        .collect();
    assert_eq!(from_window, d.iter(x).collect::<Vec<_>>());
    assert_eq!(d.next_above(VarId(1), Some(5)), None);
    assert_eq!(d.next_below(VarId(1), Some(5)), None);
}

/// Runs one random sequence of removals, assignments and restores on `domains` and on sets of
/// values kept beside them, and checks every query after every step.
fn agrees_with_sets_under_random_changes(initial: &[(i32, Vec<u64>)], seed: u64, limit: u64) {
    let mut d = laid_out(initial, limit);
    // Odd seeds record every change as a word, as boards of over 2^25 words do.
    if seed % 2 == 1 {
        d.bit_records = false;
    }
    let sets: Vec<std::collections::BTreeSet<i32>> = initial
        .iter()
        .map(|(base, bits)| {
            (0..bits.len() * 64)
                .filter(|&i| bits[i / 64] >> (i % 64) & 1 == 1)
                .map(|i| base + i as i32)
                .collect()
        })
        .collect();
    let mut rng = crate::rng::SplitMix64::new(seed);
    let mut random = |below: usize| rng.below(below as u64) as usize;
    let mut history = vec![(d.mark(), sets.clone())];
    let mut sets = sets;
    for _ in 0..400 {
        let var = random(sets.len());
        let x = VarId(var as u32);
        let (base, bits) = &initial[var];
        let value = base - 2 + random(bits.len() * 64 + 4) as i32;
        let high = value + random(40) as i32 - 5;
        match random(12) {
            0..=5 => assert_eq!(d.remove(x, value), sets[var].remove(&value)),
            9..=10 => {
                let gone: Vec<i32> = sets[var]
                    .iter()
                    .copied()
                    .filter(|v| (value..=high).contains(v))
                    .collect();
                assert_eq!(d.remove_range(x, value, high), gone.len() as u64);
                for v in gone {
                    sets[var].remove(&v);
                }
            }
            6 if sets[var].contains(&value) => {
                d.assign(x, value);
                sets[var] = [value].into();
            }
            7 => history.push((d.mark(), sets.clone())),
            8 if history.len() > 1 => {
                let (mark, saved) = history.pop().unwrap_or_else(|| unreachable!());
                d.restore(mark);
                sets = saved;
            }
            _ => {}
        }
        for (i, set) in sets.iter().enumerate() {
            let x = VarId(i as u32);
            assert_eq!(d.size(x) as usize, set.len());
            assert_eq!(d.min(x), set.first().copied());
            assert_eq!(d.max(x), set.last().copied());
            assert_eq!(
                d.iter(x).collect::<Vec<_>>(),
                set.iter().copied().collect::<Vec<_>>()
            );
            assert_eq!(d.contains(x, value), set.contains(&value));
            for k in [0, set.len() / 2, set.len().saturating_sub(1), set.len()] {
                assert_eq!(d.nth(x, k as u64), set.iter().nth(k).copied());
            }
            assert_eq!(
                d.next_above(x, Some(value)),
                set.range(value + 1..).next().copied()
            );
            assert_eq!(
                d.next_below(x, Some(value)),
                set.range(..value).next_back().copied()
            );
            let window = d.window64(x).map(|(min, bits)| {
                (0..64)
                    .filter(|b| bits >> b & 1 == 1)
                    .map(|b| min + b)
                    .collect::<Vec<_>>()
            });
            let spans_64 = matches!((set.first(), set.last()), (Some(a), Some(b)) if b - a < 64);
            assert_eq!(window, spans_64.then(|| set.iter().copied().collect()));
            // The runs of consecutive values, rebuilt from the set.
            let mut runs: Vec<(i32, i32)> = Vec::new();
            for &v in set {
                match runs.last_mut() {
                    Some(run) if run.1 + 1 == v => run.1 = v,
                    _ => runs.push((v, v)),
                }
            }
            assert_eq!(d.ranges(x).collect::<Vec<_>>(), runs);
        }
    }
}

#[test]
fn striped_and_packed_layouts_agree_with_plain_sets() {
    let full = |words: usize, len: usize| -> Vec<u64> {
        let mut bits = vec![0u64; words];
        for i in 0..len {
            bits[i / 64] |= 1 << (i % 64);
        }
        bits
    };
    // Runs of one length are striped (words of a rank side by side); very uneven ones packed.
    let even = vec![(-5, full(3, 190)), (0, full(3, 150)), (100, full(3, 192))];
    let uneven = vec![(-5, full(3, 190)), (7, full(1, 10)), (1, full(1, 1))];
    let striped = laid_out(&even, BITSET_LIMIT);
    let packed = laid_out(&uneven, BITSET_LIMIT);
    assert_eq!(striped.layout[1].stride, 3);
    assert_eq!(packed.layout[1].stride, 1);
    for seed in 0..20 {
        agrees_with_sets_under_random_changes(&even, seed, BITSET_LIMIT);
        agrees_with_sets_under_random_changes(&uneven, seed, BITSET_LIMIT);
    }
    // Bits up to 2 x 600 x 64 apart: removals alternate between near bit records (a distance
    // within 2^14) and far ones.
    let long = vec![(-1000, full(600, 38_400)), (0, full(600, 38_000))];
    for seed in 0..10 {
        agrees_with_sets_under_random_changes(&long, seed, BITSET_LIMIT);
    }
    let mut d = laid_out(&long, BITSET_LIMIT);
    let mark = d.mark();
    d.remove(VarId(0), -1000);
    d.remove(VarId(1), 37_999);
    d.remove(VarId(0), -999);
    assert_eq!(d.trail.len(), 1 + 3 + 3, "near, far, far: {:?}", d.trail);
    d.restore(mark);
    assert_eq!((d.size(VarId(0)), d.size(VarId(1))), (38_400, 38_000));
}

const BITSET_LIMIT: u64 = crate::BITSET_SPAN_LIMIT;

#[test]
fn interval_domains_agree_with_plain_sets() {
    // The same random changes with every domain held as bounds and holes, and with the two
    // kinds mixed (bitsets up to 64 values).
    let mut rng = crate::rng::SplitMix64::new(5);
    for seed in 0..200 {
        let initial: Vec<(i32, Vec<u64>)> = (0..3)
            .map(|_| {
                let words = 1 + rng.below(3) as usize;
                let base = rng.below(200) as i32 - 100;
                // Dense or sparse, so that holes are both rare and many.
                let bits = (0..words)
                    .map(|_| match rng.below(3) {
                        0 => !0,
                        1 => rng.next_u64() | rng.next_u64(),
                        _ => rng.next_u64() & rng.next_u64(),
                    } | 1)
                    .collect();
                (base, bits)
            })
            .collect();
        agrees_with_sets_under_random_changes(&initial, seed, 0);
        agrees_with_sets_under_random_changes(&initial, seed, 64);
    }
}

#[test]
fn a_wide_domain_costs_no_more_than_its_holes() {
    let declared = [
        DeclaredDomain::range(0, 1_000_000_000).unwrap(),
        DeclaredDomain::range(-1_000_000_000, 1_000_000_000).unwrap(),
        DeclaredDomain::range(i32::MIN, i32::MAX).unwrap(),
    ];
    let mut d = Domains::new(declared.iter(), &mut Poller::unlimited()).unwrap();
    assert!(d.words.is_empty(), "no bitset words for wide domains");
    // A hole wider than i32 can count (between the ends of i32) is counted in 64 bits.
    let ends = [DeclaredDomain::values(&[i32::MIN, 0, i32::MAX]).unwrap()];
    let e = Domains::new(ends.iter(), &mut Poller::unlimited()).unwrap();
    assert_eq!(e.size(VarId(0)), 3);
    assert_eq!(
        e.iter(VarId(0)).collect::<Vec<_>>(),
        [i32::MIN, 0, i32::MAX]
    );
    let far = [DeclaredDomain::values(&[i32::MIN, i32::MAX]).unwrap()];
    assert_eq!(
        Domains::new(far.iter(), &mut Poller::unlimited())
            .unwrap()
            .size(VarId(0)),
        2
    );
    let (x, y, z) = (VarId(0), VarId(1), VarId(2));
    assert_eq!(d.size(x), 1_000_000_001);
    assert_eq!(d.size_u64(y), 2_000_000_001);
    assert_eq!(d.size(z), u32::MAX, "the size saturates");
    assert_eq!(d.size_u64(z), 1 << 32);
    let mark = d.mark();
    assert_eq!(d.remove_range(x, 10, 999_999_990), 999_999_981);
    assert_eq!(
        d.ranges(x).collect::<Vec<_>>(),
        [(0, 9), (999_999_991, 1_000_000_000)]
    );
    assert_eq!(d.remove_range(x, i32::MIN, 5), 6);
    assert_eq!(d.next_above(x, Some(9)), Some(999_999_991));
    assert_eq!(d.next_below(x, Some(999_999_991)), Some(9));
    assert!(d.remove(z, i32::MIN) && d.remove(z, i32::MAX) && d.remove(z, 0));
    assert_eq!(
        (d.min(z), d.max(z)),
        (Some(i32::MIN + 1), Some(i32::MAX - 1))
    );
    assert!(!d.contains(z, 0) && d.contains(z, 1) && d.contains(z, -1));
    d.restore(mark);
    assert_eq!(d.ranges(x).collect::<Vec<_>>(), [(0, 1_000_000_000)]);
    assert_eq!(d.size_u64(z), 1 << 32);
}
