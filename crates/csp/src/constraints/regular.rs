//! `Regular`: a sequence of variables spells a word that a finite automaton accepts.

use super::listed::listed;
use crate::{Atom, Conflict, Constraint, Context, Priority, VarId};

/// The sequence `xs` is accepted by a deterministic automaton with states `1..=Q`, symbols
/// `1..=S`, transitions `next(q, s)` (0: no transition), start state `q0` and accepting
/// states `F` (MiniZinc's `regular`). A value outside `1..=S` is never accepted.
///
/// Consistency: domain consistency (Pesant, 2004), by the layered graph of the automaton
/// over the sequence: the states reachable from `q0` after each prefix, then, backwards,
/// those from which an accepting state can still be reached; a value stays if some
/// transition on it joins two such states. O(n Q S) a run. A removal's reason is every
/// symbol gone from the other variables (which, with the automaton, leave the value no
/// path). Over a sequence that names a variable twice, sound but not domain consistent.
/// Under `none` and `fc`, the default hooks.
#[derive(Clone, Debug)]
pub struct Regular {
    xs: Vec<VarId>,
    states: usize,
    symbols: usize,
    /// `next[(q - 1) * symbols + (s - 1)]`, each in `0..=states`.
    next: Vec<u32>,
    start: u32,
    /// `accepting[q]` for `q` in `0..=states` (0, the failure state, never).
    accepting: Vec<bool>,
    /// The value of symbol 1.
    first: i32,
    /// Whether a variable comes twice in `xs`: then a removal at one place can take a
    /// path's value at another, and a second run may find more.
    repeats: bool,
}

/// Buffers reused between runs: a state set per layer.
#[derive(Default)]
struct Scratch {
    /// `layers[i * (states + 1) + q]`: state `q` is alive before variable `i`.
    layers: Vec<bool>,
    /// `present[i * symbols + k]`: the `k`-th symbol is in variable `i`'s domain, read once
    /// a run rather than once per state in each of the three passes.
    present: Vec<bool>,
    keep: Vec<bool>,
}

impl Regular {
    /// The automaton with `states` states and `symbols` symbols, `next` row by row (state 1
    /// first), starting at `start` and accepting in `accepting`; an error naming what is
    /// out of range.
    pub fn new(
        xs: &[VarId],
        states: usize,
        symbols: usize,
        next: &[i64],
        start: i64,
        accepting: &[i64],
    ) -> Result<Self, String> {
        if next.len() != states * symbols {
            return Err(format!(
                "regular: {} transitions for {states} states and {symbols} symbols",
                next.len()
            ));
        }
        let state = |q: i64, zero: bool| -> Result<u32, String> {
            u32::try_from(q)
                .ok()
                .filter(|&q| (zero || q > 0) && q as usize <= states)
                .ok_or_else(|| format!("regular: {q} is not a state of 1..{states}"))
        };
        let next = next
            .iter()
            .map(|&q| state(q, true))
            .collect::<Result<Vec<u32>, String>>()?;
        let start = state(start, false)?;
        let mut final_states = vec![false; states + 1];
        for &q in accepting {
            final_states[state(q, false)? as usize] = true;
        }
        let mut sorted = xs.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        Ok(Regular {
            first: 1,
            repeats: sorted.len() < xs.len(),
            xs: xs.to_vec(),
            states,
            symbols,
            next,
            start,
            accepting: final_states,
        })
    }

    /// The same automaton reading the values `first..first + symbols` as its symbols
    /// (MiniZinc's `regular` with a set of symbols); `None` past `i32`.
    pub fn symbols_from(mut self, first: i32) -> Option<Self> {
        first.checked_add(i32::try_from(self.symbols).ok()?)?;
        self.first = first;
        Some(self)
    }

    /// The values that are symbols.
    fn alphabet(&self) -> std::ops::RangeInclusive<i32> {
        self.first..=self.first + self.symbols as i32 - 1
    }

    /// The state after `q` reads the value `v` (0 when it cannot).
    fn step(&self, q: usize, v: i32) -> usize {
        let symbol = i64::from(v) - i64::from(self.first);
        if q == 0 || symbol < 0 || symbol >= self.symbols as i64 {
            return 0;
        }
        self.next[(q - 1) * self.symbols + symbol as usize] as usize
    }

    fn run(&self, ctx: &mut Context<'_>, scratch: &mut Scratch) -> Result<(), Conflict> {
        let n = self.xs.len();
        let width = self.states + 1;
        let Scratch {
            layers,
            present,
            keep,
        } = scratch;
        // Values are symbols.
        let (first, last) = (i64::from(self.first), i64::from(*self.alphabet().end()));
        for &x in &self.xs {
            ctx.at_least(x, first)?;
            ctx.at_most(x, last)?;
        }
        let symbols = self.symbols;
        present.clear();
        for &x in &self.xs {
            present.extend(self.alphabet().map(|s| ctx.contains(x, s)));
        }
        let has = |i: usize, k: usize| present[i * symbols + k];
        // Forwards: the states reachable after each prefix.
        layers.clear();
        layers.resize((n + 1) * width, false);
        layers[self.start as usize] = true;
        for i in 0..n {
            for q in 1..width {
                if !layers[i * width + q] {
                    continue;
                }
                for (k, s) in self.alphabet().enumerate() {
                    if has(i, k) {
                        let to = self.step(q, s);
                        layers[(i + 1) * width + to] = true;
                    }
                }
            }
            layers[(i + 1) * width] = false;
        }
        // Backwards: of those, the states from which an accepting one is still reachable.
        for q in 0..width {
            let alive = &mut layers[n * width + q];
            *alive = *alive && self.accepting[q];
        }
        for i in (0..n).rev() {
            for q in 1..width {
                if !layers[i * width + q] {
                    continue;
                }
                let onwards = self
                    .alphabet()
                    .enumerate()
                    .any(|(k, s)| has(i, k) && layers[(i + 1) * width + self.step(q, s)]);
                layers[i * width + q] = onwards;
            }
        }
        ctx.count_checks((n * self.states * self.symbols) as u64);
        if !layers[self.start as usize] {
            return Err(ctx.violated());
        }
        // A value stays if a transition on it joins two live states.
        let mut reason = Vec::new();
        for (i, &x) in self.xs.iter().enumerate() {
            keep.clear();
            keep.resize(self.symbols, false);
            for q in 1..width {
                if layers[i * width + q] {
                    for (k, s) in self.alphabet().enumerate() {
                        if has(i, k) && layers[(i + 1) * width + self.step(q, s)] {
                            keep[k] = true;
                        }
                    }
                }
            }
            for (k, s) in self.alphabet().enumerate() {
                if keep[k] || !ctx.contains(x, s) {
                    continue;
                }
                if ctx.explaining() && reason.is_empty() {
                    reason = self.symbols_gone(ctx, i);
                }
                ctx.remove_because(x, s, &reason)?;
            }
            reason.clear();
        }
        Ok(())
    }

    /// `x_j != s` for every symbol `s` gone from every variable but the `i`-th.
    fn symbols_gone(&self, ctx: &Context<'_>, i: usize) -> Vec<Atom> {
        let mut reason = Vec::new();
        for (j, &x) in self.xs.iter().enumerate() {
            if j == i {
                continue;
            }
            for s in self.alphabet() {
                if !ctx.contains(x, s) {
                    reason.push(Atom::Ne(x, s));
                }
            }
        }
        reason
    }
}

impl Constraint for Regular {
    fn scope(&self) -> &[VarId] {
        &self.xs
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let end = values
            .iter()
            .fold(self.start as usize, |q, &s| self.step(q, s));
        self.accepting[end]
    }

    fn describe(&self) -> String {
        format!(
            "regular([{}], {} states, {} symbols)",
            listed(self.xs.iter(), 6, ", "),
            self.states,
            self.symbols
        )
    }

    fn priority(&self) -> Priority {
        Priority::Global
    }

    fn idempotent(&self) -> bool {
        !self.repeats
    }

    fn propagate(&self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        ctx.with_scratch(|ctx, scratch: &mut Scratch| self.run(ctx, scratch))
    }
}
