//! Bitset domains for every variable in one flat word array, restored on backtrack from a trail.
//!
//! Each variable owns a run of 64-bit words; bit `i` of the run stands for the value `base + i`.
//! Every change to a word first records the word's old contents on the trail, so backtracking to
//! a mark undoes exactly the changes made since, in reverse order. No domain is ever cloned.
//!
//! When the variables' runs are (nearly) the same length, the words are striped: word `i` of
//! every variable sits together, variable by variable. A constraint that walks its scope and
//! touches the same value in each domain (an all-different removing a column, or a diagonal that
//! moves one value per row) then reads consecutive words instead of one cache line per
//! variable. On 10,000 queens, where each domain is 157 words, that is the difference between
//! a cache miss per check and a streamed scan.

use crate::{Poller, VarId};

/// Where one variable's bits live and which value bit 0 stands for: word `i` of the run is
/// `words[first_word + i * stride]`.
#[derive(Copy, Clone, Debug)]
struct Layout {
    base: i32,
    first_word: u32,
    word_count: u32,
    stride: u32,
}

impl Layout {
    #[inline(always)]
    fn at(&self, i: usize) -> usize {
        self.first_word as usize + i * self.stride as usize
    }
}

/// How many variables' words are laid out together when the domains are striped.
const TRANSPOSE_BLOCK: usize = 256;

/// One undo record: the word at `word`, one of `var`'s, held `old`. The old size is not kept:
/// a domain's size is the number of bits in its words, so undoing a word changes it by the
/// difference in bit counts. That keeps an entry at 16 bytes instead of 24, and the trail is
/// most of the engine's memory on large boards (1.85 GB at N = 10,000 with 24-byte entries).
#[derive(Copy, Clone, Debug)]
struct TrailEntry {
    word: u32,
    var: u32,
    old: u64,
}

/// A position on the trail to come back to.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct TrailMark(usize);

/// The current domains of all variables of one search.
#[derive(Clone, Debug)]
pub(crate) struct Domains {
    words: Vec<u64>,
    layout: Vec<Layout>,
    sizes: Vec<u32>,
    trail: Vec<TrailEntry>,
}

/// One variable's words, read through its layout.
#[derive(Copy, Clone)]
struct Run<'a> {
    words: &'a [u64],
    layout: Layout,
}

impl Run<'_> {
    #[inline(always)]
    fn len(&self) -> usize {
        self.layout.word_count as usize
    }

    #[inline(always)]
    fn get(&self, i: usize) -> u64 {
        self.words[self.layout.at(i)]
    }
}

impl Domains {
    /// Lays out the initial domains, each given as its base value and its bit words, ticking
    /// `poller` once per variable: at 100,000 queens this copies 1.25 GB. Returns `None` when
    /// the poller's limits stop it first.
    pub(crate) fn new<'a>(
        initial: impl Iterator<Item = (i32, &'a [u64])>,
        poller: &mut Poller,
    ) -> Option<Self> {
        let initial: Vec<(i32, &[u64])> = initial.collect();
        let count = initial.len();
        let total: usize = initial.iter().map(|(_, bits)| bits.len()).sum();
        let longest = initial
            .iter()
            .map(|(_, bits)| bits.len())
            .max()
            .unwrap_or(0);
        // Striping pads every run to the longest; allow it while the padding stays under a
        // quarter of the words.
        let striped = longest * count <= total + total / 4;
        let mut domains = Domains {
            words: Vec::new(),
            layout: Vec::with_capacity(count),
            sizes: Vec::with_capacity(count),
            trail: Vec::new(),
        };
        let mut next_free = 0;
        for (var, &(base, bits)) in initial.iter().enumerate() {
            let word_count = bits.len() as u32;
            domains.layout.push(if striped {
                Layout {
                    base,
                    first_word: var as u32,
                    word_count,
                    stride: count as u32,
                }
            } else {
                let first_word = next_free as u32;
                next_free += bits.len();
                Layout {
                    base,
                    first_word,
                    word_count,
                    stride: 1,
                }
            });
            domains
                .sizes
                .push(bits.iter().map(|w| w.count_ones()).sum());
        }
        if striped {
            // A block of variables at a time, word by word across the block: the writes then
            // go in runs of a block's words and the reads in runs of each variable's words.
            // Variable by variable touched a new page with every word written, word by word
            // across all variables read a new page with every word read (at 100,000 queens,
            // either took about 6 s, most of it page faults and TLB misses).
            domains.words = vec![0; longest * count];
            for (block, firsts) in initial.chunks(TRANSPOSE_BLOCK).enumerate() {
                let first = block * TRANSPOSE_BLOCK;
                for i in 0..longest {
                    let row = &mut domains.words[i * count + first..][..firsts.len()];
                    for (slot, &(_, bits)) in row.iter_mut().zip(firsts) {
                        *slot = bits.get(i).copied().unwrap_or(0);
                    }
                }
                if !poller.tick() {
                    return None;
                }
            }
        } else {
            domains.words.reserve_exact(total);
            for &(_, bits) in &initial {
                domains.words.extend_from_slice(bits);
                if !poller.tick() {
                    return None;
                }
            }
        }
        Some(domains)
    }

    /// No variables: the stand-in for domains whose setting up was stopped.
    pub(crate) fn empty() -> Self {
        Domains {
            words: Vec::new(),
            layout: Vec::new(),
            sizes: Vec::new(),
            trail: Vec::new(),
        }
    }

    /// The number of variables.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.layout.len()
    }

    #[inline]
    fn run(&self, var: VarId) -> (Run<'_>, i32) {
        let layout = self.layout[var.index()];
        let run = Run {
            words: &self.words,
            layout,
        };
        (run, layout.base)
    }

    /// Bit position of `value` in `var`'s run, if the value lies inside the run at all.
    #[inline(always)]
    fn locate(&self, var: VarId, value: i32) -> Option<(usize, u64)> {
        let l = self.layout[var.index()];
        let offset = i64::from(value) - i64::from(l.base);
        if offset < 0 || offset >= i64::from(l.word_count) * 64 {
            return None;
        }
        let offset = offset as usize;
        Some((l.at(offset / 64), 1u64 << (offset % 64)))
    }

    /// How many values `var` still has.
    #[inline]
    pub(crate) fn size(&self, var: VarId) -> u32 {
        self.sizes[var.index()]
    }

    #[inline]
    pub(crate) fn contains(&self, var: VarId, value: i32) -> bool {
        match self.locate(var, value) {
            Some((word, bit)) => self.words[word] & bit != 0,
            None => false,
        }
    }

    /// The smallest value left, or `None` for an empty domain.
    pub(crate) fn min(&self, var: VarId) -> Option<i32> {
        let (words, base) = self.run(var);
        (0..words.len())
            .find(|&i| words.get(i) != 0)
            .map(|i| base + (i * 64) as i32 + words.get(i).trailing_zeros() as i32)
    }

    /// The largest value left, or `None` for an empty domain.
    pub(crate) fn max(&self, var: VarId) -> Option<i32> {
        let (words, base) = self.run(var);
        (0..words.len())
            .rev()
            .find(|&i| words.get(i) != 0)
            .map(|i| base + (i * 64) as i32 + 63 - words.get(i).leading_zeros() as i32)
    }

    /// The single value of a fixed variable.
    #[inline]
    pub(crate) fn value(&self, var: VarId) -> Option<i32> {
        if self.size(var) == 1 {
            self.min(var)
        } else {
            None
        }
    }

    /// The smallest value strictly greater than `after` (or the smallest of all when `None`).
    pub(crate) fn next_above(&self, var: VarId, after: Option<i32>) -> Option<i32> {
        let (words, base) = self.run(var);
        let start = match after {
            None => 0,
            Some(v) => {
                let offset = i64::from(v) - i64::from(base) + 1;
                if offset < 0 {
                    0
                } else {
                    offset as usize
                }
            }
        };
        let mut index = start / 64;
        if index >= words.len() {
            return None;
        }
        let mut word = words.get(index) & (!0u64 << (start % 64));
        loop {
            if word != 0 {
                return Some(base + (index * 64) as i32 + word.trailing_zeros() as i32);
            }
            index += 1;
            if index == words.len() {
                return None;
            }
            word = words.get(index);
        }
    }

    /// The largest value strictly smaller than `before` (or the largest of all when `None`).
    pub(crate) fn next_below(&self, var: VarId, before: Option<i32>) -> Option<i32> {
        let (words, base) = self.run(var);
        let end = match before {
            None => words.len() * 64,
            Some(v) => {
                let offset = i64::from(v) - i64::from(base);
                if offset <= 0 {
                    return None;
                }
                (offset as usize).min(words.len() * 64)
            }
        };
        // Bits strictly below `end`.
        let mut index = (end - 1) / 64;
        let keep = end - index * 64;
        let mut word = if keep == 64 {
            words.get(index)
        } else {
            words.get(index) & ((1u64 << keep) - 1)
        };
        loop {
            if word != 0 {
                return Some(base + (index * 64) as i32 + 63 - word.leading_zeros() as i32);
            }
            if index == 0 {
                return None;
            }
            index -= 1;
            word = words.get(index);
        }
    }

    /// The domain as one 64-bit word of values from its minimum up (bit i: `min + i`), when
    /// it spans at most 64 values.
    pub(crate) fn window64(&self, var: VarId) -> Option<(i32, u64)> {
        let (min, max) = (self.min(var)?, self.max(var)?);
        if i64::from(max) - i64::from(min) >= 64 {
            return None;
        }
        let (words, base) = self.run(var);
        let offset = (i64::from(min) - i64::from(base)) as usize;
        let (index, shift) = (offset / 64, offset % 64);
        let mut window = words.get(index) >> shift;
        if shift > 0 && index + 1 < words.len() {
            window |= words.get(index + 1) << (64 - shift);
        }
        let span = (max - min) as u32 + 1;
        if span < 64 {
            window &= (1u64 << span) - 1;
        }
        Some((min, window))
    }

    /// The values of `var`, smallest first.
    pub(crate) fn iter(&self, var: VarId) -> DomainIter<'_> {
        let (words, base) = self.run(var);
        DomainIter {
            words,
            base,
            index: 0,
            current: if words.len() > 0 { words.get(0) } else { 0 },
        }
    }

    #[inline(always)]
    fn write_word(&mut self, var: VarId, word: usize, new: u64, new_size: u32) {
        let old = self.words[word];
        self.trail.push(TrailEntry {
            word: word as u32,
            var: var.0,
            old,
        });
        self.words[word] = new;
        self.sizes[var.index()] = new_size;
    }

    /// Removes `value` from `var`; returns whether it was there.
    #[inline(always)]
    pub(crate) fn remove(&mut self, var: VarId, value: i32) -> bool {
        match self.locate(var, value) {
            Some((word, bit)) if self.words[word] & bit != 0 => {
                let new_size = self.sizes[var.index()] - 1;
                self.write_word(var, word, self.words[word] & !bit, new_size);
                true
            }
            _ => false,
        }
    }

    /// Removes every value of `var` in `low..=high`, a word at a time; returns how many went.
    pub(crate) fn remove_range(&mut self, var: VarId, low: i32, high: i32) -> u32 {
        let l = self.layout[var.index()];
        // The range in bit offsets of the run, clamped to the run.
        let first = (i64::from(low) - i64::from(l.base)).max(0);
        let last = (i64::from(high) - i64::from(l.base)).min(i64::from(l.word_count) * 64 - 1);
        if first > last {
            return 0;
        }
        let (first, last) = (first as usize, last as usize);
        let mut removed = 0;
        for i in first / 64..=last / 64 {
            let from = if i == first / 64 { first % 64 } else { 0 };
            let to = if i == last / 64 { last % 64 } else { 63 };
            // Bits from..=to of the word.
            let mask = (!0u64 << from) & (!0u64 >> (63 - to));
            let word = l.at(i);
            let gone = self.words[word] & mask;
            if gone != 0 {
                removed += gone.count_ones();
                let new_size = self.sizes[var.index()] - gone.count_ones();
                self.write_word(var, word, self.words[word] & !mask, new_size);
            }
        }
        removed
    }

    /// Reduces `var` to the single value `value`, which must be in its domain.
    pub(crate) fn assign(&mut self, var: VarId, value: i32) {
        let Some((target, bit)) = self.locate(var, value) else {
            return;
        };
        let l = self.layout[var.index()];
        for i in 0..l.word_count as usize {
            let word = l.at(i);
            let new = if word == target { bit } else { 0 };
            if self.words[word] != new {
                self.write_word(var, word, new, 1);
            }
        }
    }

    #[inline]
    pub(crate) fn mark(&self) -> TrailMark {
        TrailMark(self.trail.len())
    }

    /// Undoes every change made since `mark`.
    pub(crate) fn restore(&mut self, mark: TrailMark) {
        while self.trail.len() > mark.0 {
            if let Some(entry) = self.trail.pop() {
                let word = &mut self.words[entry.word as usize];
                let size = &mut self.sizes[entry.var as usize];
                *size = *size + entry.old.count_ones() - word.count_ones();
                *word = entry.old;
            }
        }
    }
}

/// The values of one domain in ascending order.
pub(crate) struct DomainIter<'a> {
    words: Run<'a>,
    base: i32,
    index: usize,
    current: u64,
}

impl Iterator for DomainIter<'_> {
    type Item = i32;

    #[inline]
    fn next(&mut self) -> Option<i32> {
        loop {
            if self.current != 0 {
                let bit = self.current.trailing_zeros();
                self.current &= self.current - 1;
                return Some(self.base + (self.index * 64) as i32 + bit as i32);
            }
            self.index += 1;
            if self.index >= self.words.len() {
                return None;
            }
            self.current = self.words.get(self.index);
        }
    }
}

#[cfg(test)]
#[path = "tests/domain.rs"]
mod tests;
