//! Unit tests of `domain`, kept beside the crate's source.

use super::*;

fn sample() -> Domains {
    // x0 = {-3..=70}, x1 = {5}
    let mut bits = vec![0u64; 2];
    for i in 0..74 {
        bits[i / 64] |= 1 << (i % 64);
    }
    let one = [1u64];
    Domains::new([(-3, bits.as_slice()), (5, one.as_slice())].into_iter())
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
