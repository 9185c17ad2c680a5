//! `Luby`: the restart schedule of Luby, Sinclair and Zuckerman (1993), 1 1 2 1 1 2 4 1 1 2 ...

/// How many failures each run of a restarted search may have: `scale` times the next term of
/// the Luby sequence (OEIS A182105). The sequence is within a log factor of the best fixed
/// cutoff for any run-time distribution, which is why Gecode, Choco and most SAT solvers offer it.
#[derive(Clone, Debug)]
pub(crate) struct Luby {
    scale: u64,
    /// 1-based position of the current run in the sequence.
    run: u64,
}

impl Luby {
    pub(crate) fn new(scale: u64) -> Self {
        Luby {
            scale: scale.max(1),
            run: 1,
        }
    }

    /// The failures allowed in the current run.
    pub(crate) fn budget(&self) -> u64 {
        self.scale.saturating_mul(term(self.run))
    }

    /// Moves on to the next run.
    pub(crate) fn advance(&mut self) {
        self.run += 1;
    }
}

/// The `i`-th term (1-based) of the Luby sequence: `2^(k-1)` when `i = 2^k - 1`, and otherwise
/// the term at `i - (2^(k-1) - 1)` for the `k` with `2^(k-1) <= i < 2^k - 1`.
pub(crate) fn term(mut i: u64) -> u64 {
    loop {
        // The smallest k with 2^k - 1 >= i.
        let k = 64 - i.leading_zeros();
        if i == (1u64 << k) - 1 {
            return 1u64 << (k - 1);
        }
        i -= (1u64 << (k - 1)) - 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_match_oeis_a182105() {
        // The first 31 terms as listed in OEIS A182105.
        let published = [
            1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4,
            8, 16,
        ];
        let ours: Vec<u64> = (1..=31).map(term).collect();
        assert_eq!(ours, published);
    }

    #[test]
    fn budgets_scale_the_terms() {
        let mut luby = Luby::new(100);
        let mut budgets = vec![];
        for _ in 0..7 {
            budgets.push(luby.budget());
            luby.advance();
        }
        assert_eq!(budgets, [100, 100, 200, 100, 100, 200, 400]);
    }
}
