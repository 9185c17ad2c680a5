//! `SplitMix64`: a small seeded generator for random value orders (Steele, Lea, Flood 2014).

/// Deterministic 64-bit generator; quality is ample for shuffling, and it needs no dependency.
/// It is the generator behind [`ValueOrder::Random`](crate::ValueOrder::Random), public so that
/// models and tests that need seeded randomness use the same one.
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator started from `seed`; the same seed gives the same numbers.
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform number in `0..bound` (Lemire's multiply-shift, bias below 2^-32 for our sizes).
    pub fn below(&mut self, bound: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(bound)) >> 64) as u64
    }
}
