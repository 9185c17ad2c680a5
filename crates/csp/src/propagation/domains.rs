//! The domains of every variable of one search, restored on backtrack from a trail.
//!
//! A variable whose span is narrow (see [`BITSET_SPAN_LIMIT`](crate::BITSET_SPAN_LIMIT)) owns a run of 64-bit words in one
//! flat array; bit `i` of the run stands for the value `base + i`. Every change to a word first
//! records the word's old contents on the trail, so backtracking to a mark undoes exactly the
//! changes made since, in reverse order. No domain is ever cloned. A wider variable is an
//! [`IntervalDomain`] (bounds and holes) with a trail of its own; the bitset paths test for it
//! only where a value falls outside every run, so narrow domains pay nothing for it.
//!
//! When the variables' runs are (nearly) the same length, the words are striped: word `i` of
//! every variable sits together, variable by variable. A constraint that walks its scope and
//! touches the same value in each domain (an all-different removing a column, or a diagonal that
//! moves one value per row) then reads consecutive words instead of one cache line per
//! variable. On 10,000 queens, where each domain is 157 words, that is the difference between
//! a cache miss per check and a streamed scan.

use crate::propagation::declared_domain::DeclaredDomain;
use crate::propagation::interval_domain::{IntervalDomain, IntervalUndo};
use crate::{Poller, VarId};

/// Where one variable's bits live and which value bit 0 stands for: word `i` of the run is
/// `words[first_word + i * stride]`. A wide variable has no words (`word_count` 0) and its
/// `first_word` is its place among the interval domains.
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

    /// The interval domain's index, for a wide variable.
    #[inline(always)]
    fn interval(&self) -> Option<usize> {
        (self.word_count == 0).then_some(self.first_word as usize)
    }
}

/// The widest span held as a bitset for a variable read by its bounds only (16 words).
pub(crate) const BOUNDS_BITSET_LIMIT: u64 = 1024;

/// How many variables' words are laid out together when the domains are striped.
const TRANSPOSE_BLOCK: usize = 256;

/// The trail is a stack of `u16`s holding three kinds of undo record, told apart by the last
/// `u16` pushed (the first popped). Bit records name a bit by its index among all words' bits,
/// `word * 64 + bit`, relative to `cursor`, the bit of the newest bit record on the trail:
///
/// - a near bit, one `u16` below `FAR_BIT`: the new bit's distance from the cursor, 15 bits in
///   two's complement; undoing it sets the cursor's bit again, adds one to its variable's size
///   and steps the cursor back by the distance;
/// - a far bit: the distance as a wrapping `u32` (low half, high half), then `FAR_BIT`;
/// - a word rewritten (ranges, assignments): its old contents (four quarters), its variable and
///   its index (two halves each), then `WORD_RECORD`; undoing it puts the word back and changes
///   the size by the difference in bit counts.
///
/// Pruning one value, by far the commonest change, mostly costs 2 bytes: a propagator walking
/// its scope removes the same value, or a neighbour, from variable after variable, whose words
/// stand side by side when the domains are striped. The trail is most of the engine's memory on
/// large boards: at N = 10,000 queens, one record per value pruned along the current path, about
/// 10^8 of them at a solution, which took 400 MB at 4 bytes a record.
const FAR_BIT: u16 = 0x8000;
const WORD_RECORD: u16 = 0xC000;
/// The largest distance a near bit record holds (and `-NEAR - 1` the smallest).
const NEAR: i32 = (1 << 14) - 1;

/// Bit records need `word * 64 + 63` to fit a `u32`: with more words than this, every change is
/// a word record.
const MAX_WORDS_FOR_BIT_RECORDS: usize = 1 << 26;

/// A position on the trails to come back to: the bitset trail's, the intervals' and the
/// trailed integers'.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct TrailMark(usize, usize, usize);

/// The current domains of all variables of one search.
#[derive(Clone, Debug)]
pub(crate) struct Domains {
    words: Vec<u64>,
    layout: Vec<Layout>,
    /// Each variable's size; a wide domain's saturates at `u32::MAX`.
    sizes: Vec<u32>,
    trail: Vec<u16>,
    /// The bit of the newest bit record on the trail, which the next is told relative to.
    cursor: u32,
    /// Whether one removed bit is a bit record (see `FAR_BIT`) rather than a word record.
    bit_records: bool,
    /// Whether the words are striped (word `w` is variable `w % len`'s); otherwise
    /// `packed_starts` lists each bitset variable's first word, in order.
    striped: bool,
    packed_starts: Vec<(u32, u32)>,
    /// `u64::MAX / len + 1`, for `word % len` by two multiplications instead of a division
    /// (Lemire's fastmod): undoing a bit record asks it, and a division there cost a fifth of
    /// counting 14 queens.
    stripe_magic: u64,
    /// The layout every variable shares but for its first word, when all are bitsets striped
    /// with the same base and length (a board's rows): a value's word is then found without
    /// reading the variable's layout.
    uniform: Option<Layout>,
    intervals: Vec<IntervalDomain>,
    /// The variable of each interval domain.
    interval_vars: Vec<u32>,
    interval_trail: Vec<IntervalUndo>,
    /// Integers the constraints keep through a search (see `Context::trailed`), 0 until
    /// set, restored with the domains; and their old values, to undo.
    ints: Vec<i64>,
    int_trail: Vec<(u32, i64)>,
    /// The words and sizes as declared, kept by `keep_declared` for a session: copying them
    /// back is cheaper than undoing a solve's trail record by record.
    declared: Option<(Vec<u64>, Vec<u32>)>,
}

/// One variable's words, read through its layout.
#[derive(Copy, Clone)]
pub(crate) struct Run<'a> {
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
    /// Lays out the declared domains, ticking `poller` once per variable (or block of them):
    /// at 100,000 queens this writes 1.25 GB of bits. Returns `None` when the poller's limits
    /// stop it first.
    #[cfg(test)]
    pub(crate) fn new<'a>(
        declared: impl Iterator<Item = &'a DeclaredDomain>,
        poller: &mut Poller,
    ) -> Option<Self> {
        Self::with_bitset_limit(declared, poller, crate::BITSET_SPAN_LIMIT, &|_| false)
    }

    /// As [`Domains::new`], with bitsets for spans up to `limit` (tests lower it to try the
    /// interval domains on small spans), except for the variables `by_bounds` names whose
    /// span passes [`BOUNDS_BITSET_LIMIT`]: only their bounds are read, which an interval
    /// domain gives at once where a bitset scans its words (a scheduling horizon of 5,000
    /// values is 79 of them).
    pub(crate) fn with_bitset_limit<'a>(
        declared: impl Iterator<Item = &'a DeclaredDomain>,
        poller: &mut Poller,
        limit: u64,
        by_bounds: &dyn Fn(usize) -> bool,
    ) -> Option<Self> {
        let declared: Vec<&DeclaredDomain> = declared.collect();
        let count = declared.len();
        let narrow_flags: Vec<bool> = declared
            .iter()
            .enumerate()
            .map(|(var, d)| {
                d.span() <= limit && !(d.span() > BOUNDS_BITSET_LIMIT && by_bounds(var))
            })
            .collect();
        let narrow = |var: usize| narrow_flags[var];
        let word_count = |var: usize, d: &DeclaredDomain| {
            if narrow(var) {
                d.span().div_ceil(64) as usize
            } else {
                0
            }
        };
        let total: usize = declared
            .iter()
            .enumerate()
            .map(|(v, d)| word_count(v, d))
            .sum();
        let longest = declared
            .iter()
            .enumerate()
            .map(|(v, d)| word_count(v, d))
            .max()
            .unwrap_or(0);
        // Striping pads every run to the longest; allow it while the padding stays under a
        // quarter of the words.
        let striped = longest * count <= total + total / 4;
        let mut domains = Domains::empty();
        domains.layout.reserve_exact(count);
        domains.sizes.reserve_exact(count);
        let mut next_free = 0;
        domains.striped = striped;
        domains.stripe_magic = (u64::MAX / count.max(1) as u64).wrapping_add(1);
        for (var, d) in declared.iter().enumerate() {
            domains
                .sizes
                .push(u32::try_from(d.size()).unwrap_or(u32::MAX));
            if !narrow(var) {
                domains.layout.push(Layout {
                    base: d.low,
                    first_word: domains.intervals.len() as u32,
                    word_count: 0,
                    stride: 0,
                });
                domains.intervals.push(IntervalDomain::new(d));
                domains.interval_vars.push(var as u32);
                continue;
            }
            let words = word_count(var, d) as u32;
            domains.layout.push(if striped {
                Layout {
                    base: d.low,
                    first_word: var as u32,
                    word_count: words,
                    stride: count as u32,
                }
            } else {
                let first_word = next_free as u32;
                next_free += words as usize;
                domains.packed_starts.push((first_word, var as u32));
                Layout {
                    base: d.low,
                    first_word,
                    word_count: words,
                    stride: 1,
                }
            });
        }
        if striped && domains.intervals.is_empty() {
            domains.uniform = domains.layout.first().copied().filter(|first| {
                domains
                    .layout
                    .iter()
                    .all(|l| l.base == first.base && l.word_count == first.word_count)
            });
        }
        domains.bit_records =
            (if striped { longest * count } else { total }) < MAX_WORDS_FOR_BIT_RECORDS;
        if striped {
            // A block of variables at a time, word by word across the block: the writes then
            // go in runs of a block's words. Variable by variable touched a new page with every
            // word written (at 100,000 queens that took about 6 s, most of it page faults and
            // TLB misses). Only domains with holes are spelled out as bits first.
            domains.words = vec![0; longest * count];
            for (block, firsts) in declared.chunks(TRANSPOSE_BLOCK).enumerate() {
                let first = block * TRANSPOSE_BLOCK;
                let spelled: Vec<Option<Vec<u64>>> = firsts
                    .iter()
                    .enumerate()
                    .map(|(k, d)| (narrow(first + k) && !d.holes.is_empty()).then(|| d.bits()))
                    .collect();
                for i in 0..longest {
                    let row = &mut domains.words[i * count + first..][..firsts.len()];
                    for (k, ((slot, d), bits)) in
                        row.iter_mut().zip(firsts).zip(&spelled).enumerate()
                    {
                        *slot = match bits {
                            Some(bits) => bits.get(i).copied().unwrap_or(0),
                            None if narrow(first + k) => d.full_word(i),
                            None => 0,
                        };
                    }
                }
                if !poller.tick() {
                    return None;
                }
            }
        } else {
            domains.words.reserve_exact(total);
            for (_, d) in declared.iter().enumerate().filter(|&(v, _)| narrow(v)) {
                domains.words.extend_from_slice(&d.bits());
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
            cursor: 0,
            bit_records: false,
            striped: false,
            packed_starts: Vec::new(),
            stripe_magic: 0,
            uniform: None,
            intervals: Vec::new(),
            interval_vars: Vec::new(),
            interval_trail: Vec::new(),
            ints: Vec::new(),
            int_trail: Vec::new(),
            declared: None,
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
        let l = match self.uniform {
            Some(shared) => Layout {
                first_word: var.0,
                ..shared
            },
            None => self.layout[var.index()],
        };
        let offset = i64::from(value) - i64::from(l.base);
        if offset < 0 || offset >= i64::from(l.word_count) * 64 {
            return None;
        }
        let offset = offset as usize;
        Some((l.at(offset / 64), 1u64 << (offset % 64)))
    }

    /// Every variable's size, indexed by variable.
    #[inline]
    pub(crate) fn sizes(&self) -> &[u32] {
        &self.sizes
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
            None => self.interval(var).is_some_and(|d| d.contains(value)),
        }
    }

    /// The interval domain of a wide variable.
    #[inline]
    fn interval(&self, var: VarId) -> Option<&IntervalDomain> {
        self.layout[var.index()]
            .interval()
            .map(|i| &self.intervals[i])
    }

    /// `next_above` (`upward`) or `next_below` on a wide variable, out of the bitsets' way.
    #[cold]
    #[inline(never)]
    fn interval_next(&self, var: VarId, from: Option<i32>, upward: bool) -> Option<i32> {
        let d = self.interval(var)?;
        if upward {
            d.next_above(from)
        } else {
            d.next_below(from)
        }
    }

    /// A wide variable's smallest or largest value, out of the bitsets' way.
    #[cold]
    #[inline(never)]
    fn interval_bound(&self, var: VarId, largest: bool) -> Option<i32> {
        let d = self.interval(var)?;
        if largest {
            d.max()
        } else {
            d.min()
        }
    }

    /// A wide variable's size in full (`size` saturates at `u32::MAX`).
    pub(crate) fn size_u64(&self, var: VarId) -> u64 {
        match self.interval(var) {
            Some(d) => d.size(),
            None => u64::from(self.size(var)),
        }
    }

    /// The smallest value left, or `None` for an empty domain.
    #[inline]
    pub(crate) fn min(&self, var: VarId) -> Option<i32> {
        let (words, base) = self.run(var);
        if words.len() == 0 {
            return self.interval_bound(var, false);
        }
        (0..words.len())
            .find(|&i| words.get(i) != 0)
            .map(|i| base + (i * 64) as i32 + words.get(i).trailing_zeros() as i32)
    }

    /// The largest value left, or `None` for an empty domain.
    #[inline]
    pub(crate) fn max(&self, var: VarId) -> Option<i32> {
        let (words, base) = self.run(var);
        if words.len() == 0 {
            return self.interval_bound(var, true);
        }
        (0..words.len())
            .rev()
            .find(|&i| words.get(i) != 0)
            .map(|i| base + (i * 64) as i32 + (63 - words.get(i).leading_zeros() as i32))
    }

    /// The single value of a fixed variable.
    #[inline(always)]
    pub(crate) fn value(&self, var: VarId) -> Option<i32> {
        if self.size(var) == 1 {
            self.min(var)
        } else {
            None
        }
    }

    /// The smallest value strictly greater than `after` (or the smallest of all when `None`).
    #[inline(always)]
    pub(crate) fn next_above(&self, var: VarId, after: Option<i32>) -> Option<i32> {
        let (words, base) = self.run(var);
        if words.len() == 0 {
            return self.interval_next(var, after, true);
        }
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
    #[inline]
    pub(crate) fn next_below(&self, var: VarId, before: Option<i32>) -> Option<i32> {
        let (words, base) = self.run(var);
        if words.len() == 0 {
            return self.interval_next(var, before, false);
        }
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
                // The bit's offset first: `base + 63` alone may pass i32::MAX.
                return Some(base + (index * 64) as i32 + (63 - word.leading_zeros() as i32));
            }
            if index == 0 {
                return None;
            }
            index -= 1;
            word = words.get(index);
        }
    }

    /// The value at position `index` (from 0) of `var`'s domain in ascending order, found by
    /// counting a word's bits at a time.
    pub(crate) fn nth(&self, var: VarId, index: u64) -> Option<i32> {
        if let Some(d) = self.interval(var) {
            return self.iter_interval(d).nth(usize::try_from(index).ok()?);
        }
        let (words, base) = self.run(var);
        let mut left = index;
        for i in 0..words.len() {
            let mut word = words.get(i);
            let count = u64::from(word.count_ones());
            if left >= count {
                left -= count;
                continue;
            }
            for _ in 0..left {
                word &= word - 1;
            }
            return Some(base + (i * 64) as i32 + word.trailing_zeros() as i32);
        }
        None
    }

    /// The domain as one 64-bit word of values from its minimum up (bit i: `min + i`), when
    /// it spans at most 64 values.
    #[inline(always)]
    pub(crate) fn window64(&self, var: VarId) -> Option<(i32, u64)> {
        // One word (a sudoku cell, a small board's row) needs no search for the bounds.
        let (start, word) = self.word64(var)?;
        let low = word.trailing_zeros();
        Some((start + low as i32, word >> low))
    }

    /// The domain as one 64-bit word and the value of its bit 0, when it spans at most 64
    /// values: a single-word bitset as it is stored (bit i: `base + i`, so that variables of
    /// one layout line up without shifting), anything else as `window64` gives it.
    #[inline(always)]
    pub(crate) fn word64(&self, var: VarId) -> Option<(i32, u64)> {
        let layout = self.layout[var.index()];
        if layout.word_count != 1 {
            return self.window64_wide(var);
        }
        let word = self.words[layout.first_word as usize];
        (word != 0).then_some((layout.base, word))
    }

    /// `window64` for a domain of several words or an interval.
    #[inline(never)]
    fn window64_wide(&self, var: VarId) -> Option<(i32, u64)> {
        let (min, max) = (self.min(var)?, self.max(var)?);
        if i64::from(max) - i64::from(min) >= 64 {
            return None;
        }
        if let Some(d) = self.interval(var) {
            let bits = self
                .iter_interval(d)
                .fold(0u64, |bits, v| bits | 1 << (v - min));
            return Some((min, bits));
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
        if let Some(d) = self.interval(var) {
            return self.iter_interval(d);
        }
        let (words, base) = self.run(var);
        DomainIter::Bits {
            words,
            base,
            index: 0,
            current: if words.len() > 0 { words.get(0) } else { 0 },
        }
    }

    fn iter_interval<'a>(&self, d: &'a IntervalDomain) -> DomainIter<'a> {
        DomainIter::Interval {
            domain: d,
            next: d.min(),
        }
    }

    /// The maximal runs of consecutive values of `var`, smallest first, as `(first, last)`.
    pub(crate) fn ranges(&self, var: VarId) -> RangeIter<'_> {
        RangeIter {
            domains: self,
            var,
            next: self.min(var),
        }
    }

    /// The runs of `var`'s values from `from` up, smallest first.
    pub(crate) fn ranges_from(&self, var: VarId, from: i32) -> RangeIter<'_> {
        RangeIter {
            domains: self,
            var,
            next: self.next_above(var, from.checked_sub(1)),
        }
    }

    /// The last value of the run of consecutive values that starts at `v` (in the domain).
    fn run_end(&self, var: VarId, v: i32) -> i32 {
        if let Some(d) = self.interval(var) {
            return d.run_end(v);
        }
        // The first value above v that is missing, less one; a word at a time.
        let l = self.layout[var.index()];
        let offset = (i64::from(v) - i64::from(l.base)) as usize;
        let mut index = offset / 64;
        // Ones from v's bit up, then the first zero above them.
        // (only the bits that came from the word: the zeros shifted in are not gaps).
        let mut word = !(self.words[l.at(index)] >> (offset % 64)) & (!0u64 >> (offset % 64));
        let mut shift = offset % 64;
        loop {
            if word != 0 {
                let end = index * 64 + shift + word.trailing_zeros() as usize;
                let end = end.min(l.word_count as usize * 64);
                // Less one first: `base + end` alone may pass i32::MAX.
                return l.base + (end as i32 - 1);
            }
            index += 1;
            shift = 0;
            if index == l.word_count as usize {
                return l.base + ((index * 64) as i32 - 1);
            }
            word = !self.words[l.at(index)];
        }
    }

    #[inline(always)]
    fn write_word(&mut self, var: VarId, word: usize, new: u64, new_size: u32) {
        let old = self.words[word];
        self.trail.extend_from_slice(&[
            old as u16,
            (old >> 16) as u16,
            (old >> 32) as u16,
            (old >> 48) as u16,
            var.0 as u16,
            (var.0 >> 16) as u16,
            word as u16,
            (word >> 16) as u16,
            WORD_RECORD,
        ]);
        self.words[word] = new;
        self.sizes[var.index()] = new_size;
    }

    /// Records that bit `bit` (its index among all words' bits) was cleared.
    #[inline(always)]
    fn push_bit(&mut self, bit: u32) {
        let distance = bit.wrapping_sub(self.cursor) as i32;
        if (-NEAR - 1..=NEAR).contains(&distance) {
            self.trail.push(distance as u16 & !FAR_BIT);
        } else {
            self.trail.extend_from_slice(&[
                distance as u16,
                (distance as u32 >> 16) as u16,
                FAR_BIT,
            ]);
        }
        self.cursor = bit;
    }

    /// Sets the cursor's bit again and steps the cursor back by `distance`.
    #[inline(always)]
    fn undo_bit(&mut self, distance: u32) {
        let word = self.cursor as usize / 64;
        self.words[word] |= 1 << (self.cursor % 64);
        let var = self.var_of_word(word);
        self.sizes[var] += 1;
        self.cursor = self.cursor.wrapping_sub(distance);
    }

    /// The variable that owns bitset word `word`.
    fn var_of_word(&self, word: usize) -> usize {
        if self.striped {
            // Exact for 32-bit words and counts.
            let low = self.stripe_magic.wrapping_mul(word as u64);
            ((u128::from(low) * self.layout.len() as u128) >> 64) as usize
        } else {
            let i = self
                .packed_starts
                .partition_point(|&(first, _)| first as usize <= word);
            self.packed_starts[i - 1].1 as usize
        }
    }

    /// Removes `value` from `var`; returns whether it was there.
    #[inline(always)]
    pub(crate) fn remove(&mut self, var: VarId, value: i32) -> bool {
        match self.locate(var, value) {
            Some((word, bit)) if self.words[word] & bit != 0 => {
                let new_size = self.sizes[var.index()] - 1;
                if self.bit_records {
                    self.push_bit(word as u32 * 64 + bit.trailing_zeros());
                    self.words[word] &= !bit;
                    self.sizes[var.index()] = new_size;
                } else {
                    self.write_word(var, word, self.words[word] & !bit, new_size);
                }
                true
            }
            Some(_) => false,
            // Outside a bitset's run (a clash value beyond the board) costs no call.
            None if self.layout[var.index()].word_count != 0 => false,
            None => self.remove_range_interval(var, value, value).0 > 0,
        }
    }

    /// Forward checking along a row of variables on one shared layout (a board's rows): from
    /// each variable `first + j` not `assigned`, removes the value `shifted - offsets[j]`. The
    /// same removals as `remove` one at a time, in one loop that reads no layout, for the
    /// all_different of a large board, where they are nearly all of the work. `None` unless
    /// the domains are striped bitsets of one layout; otherwise how many went and how many
    /// variables were looked at, the last of them, if the variable left with no value, with
    /// the removals before it made, as one at a time would have made them.
    #[inline]
    pub(crate) fn remove_along(
        &mut self,
        first: u32,
        offsets: &[i32],
        shifted: i64,
        assigned: &[bool],
    ) -> Option<(u64, u64, Option<VarId>)> {
        let shared = self.uniform?;
        let span = u64::from(shared.word_count) * 64;
        let stride = shared.stride as usize;
        let first = first as usize;
        let base = i64::from(shared.base);
        let place = |j: usize| {
            // Off the board wraps to at >= span (a negative offset too).
            let at = (shifted - i64::from(offsets[j]) - base) as u64;
            // Wrapping: an `at` off the board is never read through `word`, but is computed.
            let word = ((at / 64) as usize)
                .wrapping_mul(stride)
                .wrapping_add(first + j);
            (at < span, word, at % 64)
        };
        let (mut removed, mut looked) = (0u64, 0u64);
        // Blocks of 64 variables: which to look at and which hold their value, found without
        // a branch (whether a variable is assigned, or still has the value, is a coin toss in
        // the middle of a search, and each wrong guess stalled the loads behind it); then the
        // removals, in order.
        for start in (0..offsets.len()).step_by(64) {
            let end = (start + 64).min(offsets.len());
            let mut open = 0u64;
            for (t, &done) in assigned[first + start..first + end].iter().enumerate() {
                open |= u64::from(!done) << t;
            }
            // Only the open variables' words are read: late in a search most are assigned.
            let (mut held, mut left) = (0u64, open);
            while left != 0 {
                let t = left.trailing_zeros() as usize;
                left &= left - 1;
                let (inside, word, bit) = place(start + t);
                let word = if inside { word } else { first + start + t };
                held |= (self.words[word] >> bit & 1 & u64::from(inside)) << t;
            }
            while held != 0 {
                let t = held.trailing_zeros() as usize;
                held &= held - 1;
                let j = start + t;
                let var = first + j;
                let (_, word, bit) = place(j);
                let size = self.sizes[var] - 1;
                if self.bit_records {
                    self.push_bit(word as u32 * 64 + bit as u32);
                    self.words[word] &= !(1u64 << bit);
                    self.sizes[var] = size;
                } else {
                    self.write_word(
                        VarId(var as u32),
                        word,
                        self.words[word] & !(1u64 << bit),
                        size,
                    );
                }
                removed += 1;
                if size == 0 {
                    looked += u64::from((open & (u64::MAX >> (63 - t))).count_ones());
                    return Some((removed, looked, Some(VarId(var as u32))));
                }
            }
            looked += u64::from(open.count_ones());
        }
        Some((removed, looked, None))
    }

    /// Removes the values `start + b` of `var` for the bits `b` of `gone` that it has; one
    /// word's bits at once when the domain is a single word. Returns how many went.
    #[inline]
    pub(crate) fn remove_bits(&mut self, var: VarId, start: i32, gone: u64) -> u64 {
        let l = self.layout[var.index()];
        let shift = i64::from(start) - i64::from(l.base);
        let aligned = match shift {
            0 => Some(gone),
            1..=63 if gone.leading_zeros() >= shift as u32 => Some(gone << shift),
            -63..=-1 if gone.trailing_zeros() >= (-shift) as u32 => Some(gone >> -shift),
            _ => None,
        };
        match aligned {
            Some(aligned) if l.word_count == 1 => {
                let word = l.first_word as usize;
                let present = aligned & self.words[word];
                let count = present.count_ones();
                if count == 0 {
                    return 0;
                }
                let new_size = self.sizes[var.index()] - count;
                if self.bit_records {
                    let mut bits = present;
                    while bits != 0 {
                        self.push_bit(word as u32 * 64 + bits.trailing_zeros());
                        bits &= bits - 1;
                    }
                    self.words[word] &= !present;
                    self.sizes[var.index()] = new_size;
                } else {
                    self.write_word(var, word, self.words[word] & !present, new_size);
                }
                u64::from(count)
            }
            _ => self.remove_bits_one_by_one(var, start, gone),
        }
    }

    /// `remove_bits` on a domain of several words or an interval.
    #[inline(never)]
    fn remove_bits_one_by_one(&mut self, var: VarId, start: i32, gone: u64) -> u64 {
        let mut removed = 0;
        let mut bits = gone;
        while bits != 0 {
            let value = i64::from(start) + i64::from(bits.trailing_zeros());
            bits &= bits - 1;
            if let Ok(value) = i32::try_from(value) {
                removed += u64::from(self.remove(var, value));
            }
        }
        removed
    }

    /// `remove_span` on a wide variable (nothing for a narrow one).
    #[cold]
    fn remove_range_interval(&mut self, var: VarId, low: i32, high: i32) -> (u64, i32, i32) {
        let Some(i) = self.layout[var.index()].interval() else {
            return (0, low, high);
        };
        let d = &mut self.intervals[i];
        // What went lies within the old bounds.
        let span = (
            d.min().map_or(low, |min| low.max(min)),
            d.max().map_or(high, |max| high.min(max)),
        );
        let removed = d.remove_range(i as u32, low, high, &mut self.interval_trail);
        self.sizes[var.index()] = u32::try_from(d.size()).unwrap_or(u32::MAX);
        (removed, span.0, span.1)
    }

    /// Removes every value of `var` in `low..=high`, a word at a time; returns how many went.
    pub(crate) fn remove_range(&mut self, var: VarId, low: i32, high: i32) -> u64 {
        self.remove_span(var, low, high).0
    }

    /// Removes every value of `var` in `low..=high`, a word at a time; returns how many went
    /// and a span of values holding every one that went (for a bitset, from the smallest to
    /// the largest gone; a bound set as `low = i32::MIN` thus names the values it cut, which
    /// is what waking the comparisons linked to them reads).
    pub(crate) fn remove_span(&mut self, var: VarId, low: i32, high: i32) -> (u64, i32, i32) {
        let l = self.layout[var.index()];
        if l.interval().is_some() {
            return self.remove_range_interval(var, low, high);
        }
        // The range in bit offsets of the run, clamped to the run.
        let first = (i64::from(low) - i64::from(l.base)).max(0);
        let last = (i64::from(high) - i64::from(l.base)).min(i64::from(l.word_count) * 64 - 1);
        if first > last {
            return (0, low, high);
        }
        let (first, last) = (first as usize, last as usize);
        let mut removed = 0;
        let (mut lowest, mut highest) = (usize::MAX, 0);
        for i in first / 64..=last / 64 {
            let from = if i == first / 64 { first % 64 } else { 0 };
            let to = if i == last / 64 { last % 64 } else { 63 };
            // Bits from..=to of the word.
            let mask = (!0u64 << from) & (!0u64 >> (63 - to));
            let word = l.at(i);
            let gone = self.words[word] & mask;
            if gone != 0 {
                lowest = lowest.min(i * 64 + gone.trailing_zeros() as usize);
                highest = i * 64 + 63 - gone.leading_zeros() as usize;
                removed += u64::from(gone.count_ones());
                let new_size = self.sizes[var.index()] - gone.count_ones();
                self.write_word(var, word, self.words[word] & !mask, new_size);
            }
        }
        if removed == 0 {
            return (0, low, high);
        }
        // Offsets within the run, whose values fit an i32.
        let value = |offset: usize| (i64::from(l.base) + offset as i64) as i32;
        (removed, value(lowest), value(highest))
    }

    /// Reduces `var` to the single value `value`, which must be in its domain.
    pub(crate) fn assign(&mut self, var: VarId, value: i32) {
        let l = self.layout[var.index()];
        if let Some(i) = l.interval() {
            if self.intervals[i].contains(value) {
                self.intervals[i].assign(i as u32, value, &mut self.interval_trail);
                self.sizes[var.index()] = 1;
            }
            return;
        }
        let Some((target, bit)) = self.locate(var, value) else {
            return;
        };
        for i in 0..l.word_count as usize {
            let word = l.at(i);
            let new = if word == target { bit } else { 0 };
            if self.words[word] != new {
                self.write_word(var, word, new, 1);
            }
        }
    }

    /// Undoes every change since the domains were set up: they are as declared again.
    pub(crate) fn restore_all(&mut self) {
        match &self.declared {
            Some((words, sizes)) if self.trail.len() > words.len() => {
                self.words.copy_from_slice(words);
                self.sizes.copy_from_slice(sizes);
                self.trail.clear();
                self.cursor = 0;
                self.restore(TrailMark(0, 0, 0));
            }
            _ => self.restore(TrailMark(0, 0, 0)),
        }
    }

    /// Keeps a copy of the domains as declared, for `restore_all` to copy back: for domains
    /// set up once and searched many times. Undoes any change first.
    pub(crate) fn keep_declared(&mut self) {
        self.restore(TrailMark(0, 0, 0));
        self.cursor = 0;
        self.declared = Some((self.words.clone(), self.sizes.clone()));
    }

    #[inline]
    pub(crate) fn mark(&self) -> TrailMark {
        TrailMark(
            self.trail.len(),
            self.interval_trail.len(),
            self.int_trail.len(),
        )
    }

    /// Undoes every change made since `mark`.
    #[inline]
    pub(crate) fn restore(&mut self, mark: TrailMark) {
        while self.trail.len() > mark.0 {
            let Some(last) = self.trail.pop() else { break };
            if last & FAR_BIT == 0 {
                // Sign-extend the 15-bit distance.
                self.undo_bit((((last << 1) as i16) >> 1) as i32 as u32);
                continue;
            }
            let n = self.trail.len();
            if last == FAR_BIT {
                let distance = u32::from(self.trail[n - 2]) | u32::from(self.trail[n - 1]) << 16;
                self.trail.truncate(n - 2);
                self.undo_bit(distance);
                continue;
            }
            let r = &self.trail[n - 8..];
            let old = r[..4]
                .iter()
                .rev()
                .fold(0u64, |acc, &q| acc << 16 | u64::from(q));
            let var = usize::from(r[4]) | usize::from(r[5]) << 16;
            let word = usize::from(r[6]) | usize::from(r[7]) << 16;
            self.trail.truncate(n - 8);
            let size = &mut self.sizes[var];
            *size = *size + old.count_ones() - self.words[word].count_ones();
            self.words[word] = old;
        }
        if self.interval_trail.len() > mark.1 {
            self.restore_intervals(mark.1);
        }
        while self.int_trail.len() > mark.2 {
            if let Some((i, old)) = self.int_trail.pop() {
                self.ints[i as usize] = old;
            }
        }
    }

    /// Room for `count` more trailed integers, all 0: the index of the first.
    pub(crate) fn add_ints(&mut self, count: usize) -> usize {
        let first = self.ints.len();
        self.ints.resize(first + count, 0);
        first
    }

    /// Trailed integer `i`.
    #[inline(always)]
    pub(crate) fn int(&self, i: usize) -> i64 {
        self.ints[i]
    }

    /// Sets trailed integer `i`, to be undone as the domains' changes are.
    #[inline]
    pub(crate) fn set_int(&mut self, i: usize, value: i64) {
        let old = std::mem::replace(&mut self.ints[i], value);
        if old != value {
            self.int_trail.push((i as u32, old));
        }
    }

    /// Undoes the interval domains' changes down to `mark`, a length of their trail.
    #[cold]
    fn restore_intervals(&mut self, mark: usize) {
        while self.interval_trail.len() > mark {
            if let Some(record) = self.interval_trail.pop() {
                let i = record.index();
                self.intervals[i].undo(record);
                self.sizes[self.interval_vars[i] as usize] =
                    u32::try_from(self.intervals[i].size()).unwrap_or(u32::MAX);
            }
        }
    }
}

/// The values of one domain in ascending order.
pub(crate) enum DomainIter<'a> {
    Bits {
        words: Run<'a>,
        base: i32,
        index: usize,
        current: u64,
    },
    Interval {
        domain: &'a IntervalDomain,
        next: Option<i32>,
    },
}

impl Iterator for DomainIter<'_> {
    type Item = i32;

    #[inline]
    fn next(&mut self) -> Option<i32> {
        match self {
            DomainIter::Bits {
                words,
                base,
                index,
                current,
            } => loop {
                if *current != 0 {
                    let bit = current.trailing_zeros();
                    *current &= *current - 1;
                    return Some(*base + (*index * 64) as i32 + bit as i32);
                }
                *index += 1;
                if *index >= words.len() {
                    return None;
                }
                *current = words.get(*index);
            },
            DomainIter::Interval { domain, next } => {
                let v = (*next)?;
                *next = domain.next_above(Some(v));
                Some(v)
            }
        }
    }
}

/// The runs of consecutive values of one domain, smallest first.
pub(crate) struct RangeIter<'a> {
    domains: &'a Domains,
    var: VarId,
    next: Option<i32>,
}

impl Iterator for RangeIter<'_> {
    type Item = (i32, i32);

    fn next(&mut self) -> Option<(i32, i32)> {
        let first = self.next?;
        let last = self.domains.run_end(self.var, first);
        self.next = self.domains.next_above(self.var, Some(last));
        Some((first, last))
    }
}

#[cfg(test)]
pub(crate) mod tests;
