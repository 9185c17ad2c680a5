//! `Nfa`: an automaton that may be nondeterministic, over values as symbols, made
//! deterministic (subset construction) to post as a [`Regular`].

use super::Regular;
use crate::VarId;
use std::collections::HashMap;

/// The most transitions (states times symbols) the deterministic automaton may have.
const TABLE_LIMIT: usize = 1 << 24;

/// An automaton over integer values: states `0..states`, any number of transitions on a
/// value from one state (XCSP3's `regular` and MiniZinc's `regular_nfa` allow several).
#[derive(Clone, Debug, Default)]
pub struct Nfa {
    /// The number of states.
    pub states: usize,
    /// `(from, value, to)`.
    pub transitions: Vec<(usize, i32, usize)>,
    /// The state every word starts in.
    pub start: usize,
    /// The states a word may end in.
    pub accepting: Vec<usize>,
}

impl Nfa {
    /// The deterministic automaton accepting the same words, as a [`Regular`] over `xs`: its
    /// states are the sets of states reachable on a prefix, its symbols the values from the
    /// least value of any transition to the greatest. An error for a state out of range or
    /// a table of over 2^24 transitions.
    pub fn to_regular(&self, xs: &[VarId]) -> Result<Regular, String> {
        let out_of_range = |q: usize| format!("state {q} is not one of 0..{}", self.states);
        let mut leaving: Vec<Vec<(i32, usize)>> = vec![Vec::new(); self.states];
        for &(from, value, to) in &self.transitions {
            if to >= self.states {
                return Err(out_of_range(to));
            }
            leaving
                .get_mut(from)
                .ok_or_else(|| out_of_range(from))?
                .push((value, to));
        }
        if self.start >= self.states {
            return Err(out_of_range(self.start));
        }
        let (low, high) = self
            .transitions
            .iter()
            .fold((i32::MAX, i32::MIN), |(l, h), t| (l.min(t.1), h.max(t.1)));
        let symbols = if low > high {
            0
        } else {
            (i64::from(high) - i64::from(low) + 1) as usize
        };
        let mut accepting = vec![false; self.states];
        for &q in &self.accepting {
            *accepting.get_mut(q).ok_or_else(|| out_of_range(q))? = true;
        }
        // Deterministic state k + 1 is the set `sets[k]`; 0 is the dead state.
        let mut sets: Vec<Vec<usize>> = vec![vec![self.start]];
        let mut number: HashMap<Vec<usize>, usize> = HashMap::from([(vec![self.start], 1)]);
        let mut next: Vec<i64> = Vec::new();
        let mut target: Vec<Vec<usize>> = vec![Vec::new(); symbols];
        let mut k = 0;
        while k < sets.len() {
            if (k + 1).saturating_mul(symbols) > TABLE_LIMIT {
                return Err(format!(
                    "the deterministic automaton passes {TABLE_LIMIT} transitions"
                ));
            }
            target.iter_mut().for_each(Vec::clear);
            for &q in &sets[k] {
                for &(value, to) in &leaving[q] {
                    target[(i64::from(value) - i64::from(low)) as usize].push(to);
                }
            }
            for set in &mut target {
                if set.is_empty() {
                    next.push(0);
                    continue;
                }
                set.sort_unstable();
                set.dedup();
                let id = match number.get(set.as_slice()) {
                    Some(&id) => id,
                    None => {
                        sets.push(set.clone());
                        number.insert(set.clone(), sets.len());
                        sets.len()
                    }
                };
                next.push(id as i64);
            }
            k += 1;
        }
        let finals: Vec<i64> = sets
            .iter()
            .enumerate()
            .filter(|(_, set)| set.iter().any(|&q| accepting[q]))
            .map(|(k, _)| k as i64 + 1)
            .collect();
        let regular = Regular::new(xs, sets.len(), symbols, &next, 1, &finals)?;
        if symbols == 0 {
            return Ok(regular);
        }
        regular
            .symbols_from(low)
            .ok_or_else(|| "the values pass 32 bits".to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::Nfa;
    use crate::brute_force::{accepted, config, every_mode_finds_exactly, model_over};
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    /// Whether `nfa`, read nondeterministically (every state a prefix can lead to), accepts
    /// `word`: the oracle for the determinised automaton.
    fn nfa_accepts(nfa: &Nfa, word: &[i32]) -> bool {
        let mut current = BTreeSet::from([nfa.start]);
        for &v in word {
            current = nfa
                .transitions
                .iter()
                .filter(|&&(from, value, _)| value == v && current.contains(&from))
                .map(|&(_, _, to)| to)
                .collect();
        }
        current.iter().any(|q| nfa.accepting.contains(q))
    }

    proptest! {
        #![proptest_config(config())]

        /// An automaton with any transitions (several on one value from a state, or none),
        /// made deterministic and posted as a regular constraint, accepts exactly the words it
        /// accepts read nondeterministically, in every mode; mac keeps every value some
        /// accepted word uses.
        #[test]
        fn nondeterministic_automata_accept_the_words_they_accept(
            states in 1..=4usize,
            raw in prop::collection::vec((0..4usize, -1..=2i32, 0..4usize), 0..=10),
            start in 0..4usize,
            accepting in prop::collection::vec(0..4usize, 0..=3),
            domains in prop::collection::vec(prop::collection::btree_set(-2..=3i32, 1..=3), 1..=4),
        ) {
            let nfa = Nfa {
                states,
                transitions: raw.iter().map(|&(f, v, t)| (f % states, v, t % states)).collect(),
                start: start % states,
                accepting: accepting.iter().map(|q| q % states).collect(),
            };
            let domains: Vec<Vec<i32>> =
                domains.into_iter().map(|d| d.into_iter().collect()).collect();
            let (mut model, xs) = model_over(&domains);
            model.post(nfa.to_regular(&xs).unwrap()).unwrap();
            let expected = accepted(&domains, |word| nfa_accepts(&nfa, word));
            every_mode_finds_exactly(&model, &expected)?;
        }
    }
}
