//! `Activity`: VSIDS for variables (Moskewicz et al., Chaff, 2001). Every variable met in a
//! conflict's analysis gains the current increment, which grows after each conflict so that
//! recent conflicts weigh most; the search branches on the most active unfixed variable,
//! kept at the top of an indexed binary heap.

use crate::VarId;

/// How much the increment grows per conflict: activities decay by 5% a conflict.
const DECAY: f64 = 1.0 / 0.95;
/// Past this, every activity is scaled down.
const RESCALE_AT: f64 = 1e100;

/// Variable activities and the heap of the variables that may be unfixed.
#[derive(Clone, Debug)]
pub(crate) struct Activity {
    score: Vec<f64>,
    increment: f64,
    heap: Vec<u32>,
    /// Each variable's place in the heap, `u32::MAX` when out.
    place: Vec<u32>,
}

impl Activity {
    /// Every variable in the heap, the first ones on top when scores tie.
    pub(crate) fn new(vars: usize) -> Self {
        let mut activity = Activity {
            // A faint preference for the model's order until conflicts speak.
            score: (0..vars).map(|i| 1e-9 * (vars - i) as f64).collect(),
            increment: 1.0,
            heap: Vec::with_capacity(vars),
            place: vec![u32::MAX; vars],
        };
        for i in 0..vars {
            activity.insert(VarId(i as u32));
        }
        activity
    }

    /// Adds `var` to the heap if it is not there.
    pub(crate) fn insert(&mut self, var: VarId) {
        let i = var.index();
        if self.place[i] != u32::MAX {
            return;
        }
        self.place[i] = self.heap.len() as u32;
        self.heap.push(var.0);
        self.up(self.heap.len() - 1);
    }

    /// Takes the most active variable off the heap.
    pub(crate) fn pop(&mut self) -> Option<VarId> {
        let top = *self.heap.first()?;
        let last = self.heap.len() - 1;
        self.heap.swap(0, last);
        self.place[self.heap[0] as usize] = 0;
        self.heap.pop();
        self.place[top as usize] = u32::MAX;
        if !self.heap.is_empty() {
            self.down(0);
        }
        Some(VarId(top))
    }

    /// Raises `var`'s activity by the increment.
    pub(crate) fn bump(&mut self, var: VarId) {
        let i = var.index();
        self.score[i] += self.increment;
        if self.score[i] > RESCALE_AT {
            for s in &mut self.score {
                *s *= 1.0 / RESCALE_AT;
            }
            self.increment *= 1.0 / RESCALE_AT;
        }
        if self.place[i] != u32::MAX {
            self.up(self.place[i] as usize);
        }
    }

    /// After a conflict: later bumps count more.
    pub(crate) fn decay(&mut self) {
        self.increment *= DECAY;
    }

    fn better(&self, a: u32, b: u32) -> bool {
        self.score[a as usize] > self.score[b as usize]
    }

    fn up(&mut self, mut at: usize) {
        let var = self.heap[at];
        while at > 0 {
            let parent = (at - 1) / 2;
            if !self.better(var, self.heap[parent]) {
                break;
            }
            self.heap[at] = self.heap[parent];
            self.place[self.heap[at] as usize] = at as u32;
            at = parent;
        }
        self.heap[at] = var;
        self.place[var as usize] = at as u32;
    }

    fn down(&mut self, mut at: usize) {
        let var = self.heap[at];
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
            if !self.better(self.heap[child], var) {
                break;
            }
            self.heap[at] = self.heap[child];
            self.place[self.heap[at] as usize] = at as u32;
            at = child;
        }
        self.heap[at] = var;
        self.place[var as usize] = at as u32;
    }
}
