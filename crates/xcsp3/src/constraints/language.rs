//! The language-based constraints: `<regular>` (an automaton, deterministic or not, with
//! named states) and `<mdd>` (a layered diagram, read as the automaton from its root to its
//! terminal).

use super::{tuple_items, Args};
use crate::{Reader, XcspError};
use csp::constraints::Nfa;
use roxmltree::Node;
use std::collections::HashMap;

/// State names numbered in order of appearance.
#[derive(Default)]
struct States<'t> {
    number: HashMap<&'t str, usize>,
}

impl<'t> States<'t> {
    fn of(&mut self, name: &'t str) -> usize {
        let next = self.number.len();
        *self.number.entry(name).or_insert(next)
    }
}

impl Reader<'_> {
    /// `<regular>`: the list spells a word the automaton of `<transitions>`, `<start>` and
    /// `<final>` accepts.
    pub(super) fn regular(
        &mut self,
        node: Node<'_, '_>,
        args: Option<&Args<'_>>,
    ) -> Result<(), XcspError> {
        let start = self.required(node, "start", args)?;
        let finals = self.required(node, "final", args)?;
        let mut states = States::default();
        let start = states.of(start.trim());
        let accepting: Vec<usize> = finals.split_whitespace().map(|q| states.of(q)).collect();
        let text = self.required(node, "transitions", args)?;
        let transitions = self.transitions(node, &text, &mut states)?;
        let nfa = Nfa {
            states: states.number.len(),
            transitions,
            start,
            accepting,
        };
        self.automaton(node, args, &nfa)
    }

    /// `<mdd>`: the list follows a path from the diagram's root (the node no transition
    /// enters) to its terminal (the node none leaves).
    pub(super) fn mdd(
        &mut self,
        node: Node<'_, '_>,
        args: Option<&Args<'_>>,
    ) -> Result<(), XcspError> {
        let text = self.required(node, "transitions", args)?;
        let mut states = States::default();
        let transitions = self.transitions(node, &text, &mut states)?;
        let count = states.number.len();
        let (mut entered, mut left) = (vec![false; count], vec![false; count]);
        for &(from, _, to) in &transitions {
            left[from] = true;
            entered[to] = true;
        }
        let only = |marks: &[bool], what: &str| -> Result<usize, XcspError> {
            let mut free = (0..count).filter(|&q| !marks[q]);
            match (free.next(), free.next()) {
                (Some(q), None) => Ok(q),
                _ => Err(self.fault(node, format!("<mdd> without exactly one {what}"))),
            }
        };
        let root = only(&entered, "root")?;
        let terminal = only(&left, "terminal")?;
        let nfa = Nfa {
            states: count,
            transitions,
            start: root,
            accepting: vec![terminal],
        };
        self.automaton(node, args, &nfa)
    }

    /// Posts the list of `node` as a word of `nfa`.
    fn automaton(
        &mut self,
        node: Node<'_, '_>,
        args: Option<&Args<'_>>,
        nfa: &Nfa,
    ) -> Result<(), XcspError> {
        let xs = self.required_vars(node, "list", args)?;
        let regular = nfa
            .to_regular(&xs)
            .map_err(|why| self.fault(node, format!("<{}>: {why}", node.tag_name().name())))?;
        self.model.post(regular).map_err(|e| self.engine(node, e))?;
        Ok(())
    }

    /// Transitions `(q0,1,q1)(q1,0,q1)`, states numbered as they come.
    fn transitions<'t>(
        &self,
        node: Node<'_, '_>,
        text: &'t str,
        states: &mut States<'t>,
    ) -> Result<Vec<(usize, i32, usize)>, XcspError> {
        let mut out = Vec::new();
        for item in tuple_items(text).map_err(|why| self.fault(node, why))? {
            let [from, value, to] = item[..] else {
                return Err(self.fault(node, format!("`({})` is not a transition", item.join(","))));
            };
            let value = value
                .parse()
                .map_err(|_| self.fault(node, format!("`{value}` is not an integer")))?;
            out.push((states.of(from), value, states.of(to)));
        }
        Ok(out)
    }
}
