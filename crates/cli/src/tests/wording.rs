//! Unit tests of `wording`, against how the numbers are said aloud.

use super::*;

#[test]
fn counts_are_singular_for_one_only() {
    assert_eq!(count(1u64, "colour", "colours"), "1 colour");
    assert_eq!(count(0u64, "colour", "colours"), "0 colours");
    assert_eq!(count(2u64, "puzzle", "puzzles"), "2 puzzles");
}

#[test]
fn an_goes_before_numbers_said_with_a_vowel_sound() {
    for n in [
        8, 11, 18, 80, 83, 89, 800, 8_000, 11_000, 18_500, 80_000, 11_000_000,
    ] {
        assert_eq!(article(n), "an", "{n}");
    }
    for n in [
        1, 2, 7, 9, 10, 12, 17, 19, 100, 110, 180, 1_100, 1_800, 111_000, 9_000,
    ] {
        assert_eq!(article(n), "a", "{n}");
    }
    assert_eq!(a_colouring(11u32), "an 11-colouring");
    assert_eq!(a_colouring(5u32), "a 5-colouring");
}
