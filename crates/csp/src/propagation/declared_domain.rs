//! `DeclaredDomain`: a variable's values as the model declares them, as bounds less holes.
//!
//! The model keeps this compact form (a full range is two numbers whatever its span), and each
//! search lays it out as it suits the span: a bitset when it is narrow, an
//! [`IntervalDomain`](crate::propagation::interval_domain::IntervalDomain) when it is wide.

use crate::ModelError;

/// The widest span held as a bitset (2^17 values, 16 KiB); wider domains are held as bounds
/// and holes, whose memory does not grow with the span.
pub const BITSET_SPAN_LIMIT: u64 = 1 << 17;

/// `low..=high` less the sorted, disjoint `holes`, none of which touches `low` or `high`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct DeclaredDomain {
    pub(crate) low: i32,
    pub(crate) high: i32,
    pub(crate) holes: Vec<(i32, i32)>,
}

impl DeclaredDomain {
    /// Every value of `low..=high`.
    pub(crate) fn range(low: i32, high: i32) -> Result<Self, ModelError> {
        if high < low {
            return Err(ModelError::EmptyDomain);
        }
        Ok(DeclaredDomain {
            low,
            high,
            holes: Vec::new(),
        })
    }

    /// Exactly `values`, in any order, repeats ignored.
    pub(crate) fn values(values: &[i32]) -> Result<Self, ModelError> {
        let mut sorted = values.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        let (Some(&low), Some(&high)) = (sorted.first(), sorted.last()) else {
            return Err(ModelError::EmptyDomain);
        };
        let holes = sorted
            .windows(2)
            .filter(|w| i64::from(w[1]) - i64::from(w[0]) > 1)
            .map(|w| (w[0] + 1, w[1] - 1))
            .collect();
        Ok(DeclaredDomain { low, high, holes })
    }

    /// How many values lie between the bounds, inclusive.
    pub(crate) fn span(&self) -> u64 {
        (i64::from(self.high) - i64::from(self.low) + 1) as u64
    }

    /// How many values it has.
    pub(crate) fn size(&self) -> u64 {
        let removed: u64 = self
            .holes
            .iter()
            .map(|&(a, b)| (i64::from(b) - i64::from(a) + 1) as u64)
            .sum();
        self.span() - removed
    }

    /// The values, smallest first.
    pub(crate) fn iter(&self) -> impl Iterator<Item = i32> + '_ {
        let mut holes = self.holes.iter().peekable();
        let mut next = Some(self.low);
        std::iter::from_fn(move || {
            let mut v = next?;
            while let Some(&&(start, end)) = holes.peek() {
                if v < start {
                    break;
                }
                if v <= end {
                    v = end + 1;
                }
                holes.next();
            }
            next = if v < self.high { Some(v + 1) } else { None };
            Some(v)
        })
    }

    /// The bitset of a narrow domain: bit `i` stands for `low + i`.
    pub(crate) fn bits(&self) -> Vec<u64> {
        let words = (self.span() as usize).div_ceil(64);
        let mut bits: Vec<u64> = (0..words).map(|i| self.full_word(i)).collect();
        for &(start, end) in &self.holes {
            let (first, last) = (self.offset(start), self.offset(end));
            for i in first..=last {
                bits[i / 64] &= !(1u64 << (i % 64));
            }
        }
        bits
    }

    /// Word `i` of the bitset of a narrow domain without holes, computed in place.
    pub(crate) fn full_word(&self, i: usize) -> u64 {
        let span = self.span() as usize;
        let words = span.div_ceil(64);
        if i >= words {
            0
        } else if i + 1 < words || span % 64 == 0 {
            !0
        } else {
            (1u64 << (span % 64)) - 1
        }
    }

    fn offset(&self, v: i32) -> usize {
        (i64::from(v) - i64::from(self.low)) as usize
    }
}
