//! `Activity`: VSIDS (Moskewicz et al., Chaff, 2001) over the search's choices. Every choice met
//! in a conflict's analysis gains the current increment, which grows after each conflict so
//! that recent conflicts weigh most; the search takes the most active open choice, kept at the
//! top of an indexed binary heap. On a narrow variable each value is a choice of its own, as
//! each `[x = v]` literal is in Chuffed, so that conflicts pick the value as well as the
//! variable; a wider variable is one choice, and the bound where conflicts last cut it is
//! kept, for the search to branch there.

use crate::propagation::domains::Domains;
use crate::{Atom, VarId};

/// How much the increment grows per conflict: activities decay by 5% a conflict.
const DECAY: f64 = 1.0 / 0.95;
/// Past this, every activity is scaled down.
const RESCALE_AT: f64 = 1e100;
/// The widest span of values that gets a choice per value.
pub(crate) const WIDEST_BY_VALUE: u64 = 64;

/// A choice the search can make next.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Choice {
    /// `x = v`, a value of a narrow variable.
    Value(VarId, i32),
    /// A wide variable, its value to be chosen.
    Var(VarId),
}

/// The activities of the choices and the heap of those that may be open.
#[derive(Clone, Debug)]
pub(crate) struct Activity {
    score: Vec<f64>,
    increment: f64,
    heap: Vec<u32>,
    /// Each choice's place in the heap, `u32::MAX` when out.
    place: Vec<u32>,
    /// Each variable's first choice, and after the last variable, the number of choices.
    first: Vec<u32>,
    /// Each variable's lowest value, for one with a choice per value.
    low: Vec<i32>,
    /// Each choice's variable.
    owner: Vec<u32>,
    /// For each wide variable, the bound `t` of the last atom `[x <= t]` (or its negation
    /// `[x >= t + 1]`) met in a conflict: where conflicts last cut it.
    last_cut: Vec<Option<i32>>,
}

impl Activity {
    /// A choice per value of each variable whose initial bounds `spans` lie at most
    /// [`WIDEST_BY_VALUE`] values apart, one for each other variable; all in the heap, the
    /// model's order first (and the lower values first) while scores tie.
    pub(crate) fn new(spans: impl Iterator<Item = (i32, i32)>) -> Self {
        let (mut first, mut low, mut owner) = (Vec::new(), Vec::new(), Vec::new());
        for (i, (min, max)) in spans.enumerate() {
            first.push(owner.len() as u32);
            low.push(min);
            let width = (i64::from(max) - i64::from(min) + 1).max(1) as u64;
            let choices = if width <= WIDEST_BY_VALUE { width } else { 1 };
            owner.extend(std::iter::repeat_n(i as u32, choices as usize));
        }
        first.push(owner.len() as u32);
        let n = owner.len();
        let mut activity = Activity {
            // A faint preference for the model's order until conflicts speak.
            score: (0..n).map(|k| 1e-9 * (n - k) as f64).collect(),
            increment: 1.0,
            heap: Vec::with_capacity(n),
            place: vec![u32::MAX; n],
            last_cut: vec![None; first.len() - 1],
            first,
            low,
            owner,
        };
        for key in 0..n as u32 {
            activity.insert_key(key);
        }
        activity
    }

    fn by_value(&self, var: VarId) -> bool {
        let i = var.index();
        self.first[i + 1] - self.first[i] > 1
    }

    /// The choice `x = value` stands for, or `var`'s only one.
    fn key(&self, var: VarId, value: i32) -> u32 {
        let i = var.index();
        let (first, end) = (self.first[i], self.first[i + 1]);
        let offset =
            (i64::from(value) - i64::from(self.low[i])).clamp(0, i64::from(end - first - 1));
        first + offset as u32
    }

    /// Puts back in the heap `var`'s choices among the values `low..=high` it has again (a
    /// backjump gave them back), or its only choice, when it is open.
    pub(crate) fn reopen(&mut self, var: VarId, low: i32, high: i32, domains: &Domains) {
        if domains.size(var) <= 1 {
            return;
        }
        if !self.by_value(var) {
            self.insert_key(self.first[var.index()]);
            return;
        }
        let i = var.index();
        let top = i64::from(self.low[i]) + i64::from(self.first[i + 1] - self.first[i]) - 1;
        let (from, to) = (
            i64::from(low).max(i64::from(self.low[i])),
            i64::from(high).min(top),
        );
        for value in from..=to {
            if domains.contains(var, value as i32) {
                self.insert_key(self.key(var, value as i32));
            }
        }
    }

    /// Puts back `var`'s only choice (a halving left a wide variable open).
    pub(crate) fn reopen_var(&mut self, var: VarId) {
        if !self.by_value(var) {
            self.insert_key(self.first[var.index()]);
        }
    }

    fn insert_key(&mut self, key: u32) {
        let k = key as usize;
        if self.place[k] != u32::MAX {
            return;
        }
        self.place[k] = self.heap.len() as u32;
        self.heap.push(key);
        self.up(self.heap.len() - 1);
    }

    /// Takes the most active choice still open off the heap; the closed ones met on the way
    /// leave it until a backjump reopens them. `None` when no choice is open.
    pub(crate) fn pop(&mut self, domains: &Domains) -> Option<Choice> {
        loop {
            let key = self.pop_key()?;
            let var = VarId(self.owner[key as usize]);
            if domains.size(var) <= 1 {
                continue;
            }
            if !self.by_value(var) {
                return Some(Choice::Var(var));
            }
            let value = self.low[var.index()] + (key - self.first[var.index()]) as i32;
            if domains.contains(var, value) {
                return Some(Choice::Value(var, value));
            }
        }
    }

    fn pop_key(&mut self) -> Option<u32> {
        let top = *self.heap.first()?;
        let last = self.heap.len() - 1;
        self.heap.swap(0, last);
        self.place[self.heap[0] as usize] = 0;
        self.heap.pop();
        self.place[top as usize] = u32::MAX;
        if !self.heap.is_empty() {
            self.down(0);
        }
        Some(top)
    }

    /// Raises the activity of the choice `atom` is about: the value it fixes or takes away
    /// (for a bound, the value just past it), or its variable's only choice.
    pub(crate) fn bump(&mut self, atom: Atom) {
        let value = match atom {
            Atom::Eq(_, v) | Atom::Ne(_, v) => v,
            Atom::Ge(_, v) => v.saturating_sub(1),
            Atom::Le(_, v) => v.saturating_add(1),
        };
        let var = atom.var();
        match atom {
            Atom::Le(_, t) if !self.by_value(var) => self.last_cut[var.index()] = Some(t),
            Atom::Ge(_, t) if !self.by_value(var) => {
                self.last_cut[var.index()] = t.checked_sub(1);
            }
            _ => {}
        }
        let k = self.key(var, value) as usize;
        self.score[k] += self.increment;
        if self.score[k] > RESCALE_AT {
            for s in &mut self.score {
                *s *= 1.0 / RESCALE_AT;
            }
            self.increment *= 1.0 / RESCALE_AT;
        }
        if self.place[k] != u32::MAX {
            self.up(self.place[k] as usize);
        }
    }

    /// The bound `t` where conflicts last cut the wide variable `var` (`[x <= t]`), if any.
    pub(crate) fn last_cut(&self, var: VarId) -> Option<i32> {
        self.last_cut[var.index()]
    }

    /// After a conflict: later bumps count more.
    pub(crate) fn decay(&mut self) {
        self.increment *= DECAY;
    }

    fn better(&self, a: u32, b: u32) -> bool {
        self.score[a as usize] > self.score[b as usize]
    }

    fn up(&mut self, mut at: usize) {
        let key = self.heap[at];
        while at > 0 {
            let parent = (at - 1) / 2;
            if !self.better(key, self.heap[parent]) {
                break;
            }
            self.heap[at] = self.heap[parent];
            self.place[self.heap[at] as usize] = at as u32;
            at = parent;
        }
        self.heap[at] = key;
        self.place[key as usize] = at as u32;
    }

    fn down(&mut self, mut at: usize) {
        let key = self.heap[at];
        loop {
            let left = 2 * at + 1;
            if left >= self.heap.len() {
                break;
            }
            let right = left + 1;
            let child = if right < self.heap.len() && self.better(self.heap[right], self.heap[left])
            {
                right
            } else {
                left
            };
            if !self.better(self.heap[child], key) {
                break;
            }
            self.heap[at] = self.heap[child];
            self.place[self.heap[at] as usize] = at as u32;
            at = child;
        }
        self.heap[at] = key;
        self.place[key as usize] = at as u32;
    }
}
