//! `Session`: one solver kept ready to solve its model again and again, under other assumed
//! values each time, reusing its memory.

use super::node_loop::Run;
use super::{Solution, Summary};
use crate::VarId;
use std::ops::ControlFlow;

/// A [`Solver`](crate::Solver) set up once and run any number of times, each time with other
/// values assumed: thousands of sudoku on one blank model, a model's variants. Each
/// [`Session::solve`] finds what `solver.assume(..).solve(..)` would (the same solutions, the
/// same statistics, the limits counted afresh), without setting up the domains, the queues
/// and the heuristics again.
///
/// ```
/// # fn main() -> Result<(), csp::ModelError> {
/// use csp::{Model, Relation, Solver};
/// use std::ops::ControlFlow;
///
/// let mut model = Model::new();
/// let x = model.new_var(0..=3)?;
/// let y = model.new_var(0..=3)?;
/// model.compare(x, Relation::Lt, y)?;
/// let solver = Solver::new(&model);
/// let mut session = solver.session();
/// for low in 0..3 {
///     let mut count = 0;
///     session.solve(&[(x, low)], |_| {
///         count += 1;
///         ControlFlow::Continue(())
///     });
///     assert_eq!(count, 3 - low);
/// }
/// # Ok(())
/// # }
/// ```
pub struct Session<'m> {
    run: Box<dyn Run + 'm>,
}

impl<'m> Session<'m> {
    pub(super) fn new(mut run: Box<dyn Run + 'm>) -> Self {
        run.keep_fresh();
        Session { run }
    }

    /// Solves with each `(variable, value)` of `assumed` fixed at the root, on top of the
    /// solver's own [`Solver::assume`](crate::Solver::assume), handing each solution to
    /// `on_solution` as [`Solver::solve`](crate::Solver::solve) does.
    pub fn solve(
        &mut self,
        assumed: &[(VarId, i32)],
        mut on_solution: impl FnMut(&Solution<'_>) -> ControlFlow<()>,
    ) -> Summary {
        self.run.reset(assumed);
        while let Some(values) = self.run.next_solution() {
            if on_solution(&Solution { values }).is_break() {
                self.run.stop();
                break;
            }
        }
        self.run.summary()
    }
}
