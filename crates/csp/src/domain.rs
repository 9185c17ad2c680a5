//! Bitset domains for every variable in one flat word array, restored on backtrack from a trail.
//!
//! Each variable owns a run of 64-bit words; bit `i` of the run stands for the value `base + i`.
//! Every change to a word first records the word's old contents (and the old domain size) on the
//! trail, so backtracking to a mark undoes exactly the changes made since, in reverse order. No
//! domain is ever cloned.

use crate::VarId;

/// Where one variable's bits live and which value bit 0 stands for.
#[derive(Copy, Clone, Debug)]
struct Layout {
    base: i32,
    first_word: u32,
    word_count: u32,
}

/// One undo record: the word at `word` held `old`, and the variable's size was `old_size`.
#[derive(Copy, Clone, Debug)]
struct TrailEntry {
    word: u32,
    var: u32,
    old_size: u32,
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

impl Domains {
    /// Lays out the initial domains, each given as its base value and its bit words.
    pub(crate) fn new<'a>(initial: impl Iterator<Item = (i32, &'a [u64])>) -> Self {
        let mut domains = Domains {
            words: Vec::new(),
            layout: Vec::new(),
            sizes: Vec::new(),
            trail: Vec::new(),
        };
        for (base, bits) in initial {
            let first_word = domains.words.len() as u32;
            domains.words.extend_from_slice(bits);
            domains.layout.push(Layout {
                base,
                first_word,
                word_count: bits.len() as u32,
            });
            domains
                .sizes
                .push(bits.iter().map(|w| w.count_ones()).sum());
        }
        domains
    }

    /// The number of variables.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.layout.len()
    }

    #[inline]
    fn words_of(&self, var: VarId) -> (&[u64], i32) {
        let l = self.layout[var.index()];
        let start = l.first_word as usize;
        (&self.words[start..start + l.word_count as usize], l.base)
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
        Some((l.first_word as usize + offset / 64, 1u64 << (offset % 64)))
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
        let (words, base) = self.words_of(var);
        words
            .iter()
            .position(|&w| w != 0)
            .map(|i| base + (i * 64) as i32 + words[i].trailing_zeros() as i32)
    }

    /// The largest value left, or `None` for an empty domain.
    pub(crate) fn max(&self, var: VarId) -> Option<i32> {
        let (words, base) = self.words_of(var);
        words
            .iter()
            .rposition(|&w| w != 0)
            .map(|i| base + (i * 64) as i32 + 63 - words[i].leading_zeros() as i32)
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
        let (words, base) = self.words_of(var);
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
        let mut word = words[index] & (!0u64 << (start % 64));
        loop {
            if word != 0 {
                return Some(base + (index * 64) as i32 + word.trailing_zeros() as i32);
            }
            index += 1;
            if index == words.len() {
                return None;
            }
            word = words[index];
        }
    }

    /// The largest value strictly smaller than `before` (or the largest of all when `None`).
    pub(crate) fn next_below(&self, var: VarId, before: Option<i32>) -> Option<i32> {
        let (words, base) = self.words_of(var);
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
            words[index]
        } else {
            words[index] & ((1u64 << keep) - 1)
        };
        loop {
            if word != 0 {
                return Some(base + (index * 64) as i32 + 63 - word.leading_zeros() as i32);
            }
            if index == 0 {
                return None;
            }
            index -= 1;
            word = words[index];
        }
    }

    /// The domain as one 64-bit word of values from its minimum up (bit i: `min + i`), when
    /// it spans at most 64 values.
    pub(crate) fn window64(&self, var: VarId) -> Option<(i32, u64)> {
        let (min, max) = (self.min(var)?, self.max(var)?);
        if i64::from(max) - i64::from(min) >= 64 {
            return None;
        }
        let (words, base) = self.words_of(var);
        let offset = (i64::from(min) - i64::from(base)) as usize;
        let (index, shift) = (offset / 64, offset % 64);
        let mut window = words[index] >> shift;
        if shift > 0 && index + 1 < words.len() {
            window |= words[index + 1] << (64 - shift);
        }
        let span = (max - min) as u32 + 1;
        if span < 64 {
            window &= (1u64 << span) - 1;
        }
        Some((min, window))
    }

    /// The values of `var`, smallest first.
    pub(crate) fn iter(&self, var: VarId) -> DomainIter<'_> {
        let (words, base) = self.words_of(var);
        DomainIter {
            words,
            base,
            index: 0,
            current: words.first().copied().unwrap_or(0),
        }
    }

    #[inline(always)]
    fn write_word(&mut self, var: VarId, word: usize, new: u64, new_size: u32) {
        let old = self.words[word];
        self.trail.push(TrailEntry {
            word: word as u32,
            var: var.0,
            old_size: self.sizes[var.index()],
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

    /// Reduces `var` to the single value `value`, which must be in its domain.
    pub(crate) fn assign(&mut self, var: VarId, value: i32) {
        let Some((target, bit)) = self.locate(var, value) else {
            return;
        };
        let l = self.layout[var.index()];
        let first = l.first_word as usize;
        for word in first..first + l.word_count as usize {
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
                self.words[entry.word as usize] = entry.old;
                self.sizes[entry.var as usize] = entry.old_size;
            }
        }
    }
}

/// The values of one domain in ascending order.
pub(crate) struct DomainIter<'a> {
    words: &'a [u64],
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
            self.current = self.words[self.index];
        }
    }
}

#[cfg(test)]
#[path = "tests/domain.rs"]
mod tests;
