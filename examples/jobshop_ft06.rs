//! The job shop ft06 (Fisher and Thompson, 1963; OR-Library's `ft06`): six jobs of six tasks,
//! each task on its own machine for a given time, tasks of a job in order, one task at a time
//! per machine. Each pair of tasks on a machine gets a 0/1 variable that decides which goes
//! first, through reified precedences. The published optimal makespan is 55.

use csp_toolkit::csp::constraints::Compare;
use csp_toolkit::csp::{
    Inference, Model, ModelError, Reification, Relation, Solver, VarId, VarOrder,
};

/// (machine, duration) of each task, job by job.
const FT06: [[(usize, i64); 6]; 6] = [
    [(2, 1), (0, 3), (1, 6), (3, 7), (5, 3), (4, 6)],
    [(1, 8), (2, 5), (4, 10), (5, 10), (0, 10), (3, 4)],
    [(2, 5), (3, 4), (5, 8), (0, 9), (1, 1), (4, 7)],
    [(1, 5), (0, 5), (2, 5), (3, 3), (4, 8), (5, 9)],
    [(2, 9), (1, 3), (4, 5), (5, 4), (0, 3), (3, 1)],
    [(1, 3), (3, 3), (5, 9), (0, 10), (4, 4), (2, 1)],
];

/// The optimal makespan, by branch and bound; dom/wdeg takes the 0/1 ordering decisions first
/// (their domains are the smallest) and learns which machines are contended.
fn makespan() -> Result<i32, ModelError> {
    let horizon: i64 = FT06.iter().flatten().map(|t| t.1).sum();
    let mut model = Model::new();
    let mut tasks: Vec<(VarId, usize, i64)> = Vec::new(); // start, machine, duration
    let end = model.new_named_var("makespan", 0..=horizon as i32)?;
    for job in &FT06 {
        let starts: Vec<VarId> = job
            .iter()
            .map(|_| model.new_var(0..=horizon as i32))
            .collect::<Result<_, _>>()?;
        for (k, (&s, &(machine, d))) in starts.iter().zip(job).enumerate() {
            let next = starts.get(k + 1).copied().unwrap_or(end);
            model.compare_offset(s, Relation::Le, next, -d)?; // s + d <= next task's start
            tasks.push((s, machine, d));
        }
    }
    for (i, &(a, ma, da)) in tasks.iter().enumerate() {
        for &(b, _, db) in tasks[i + 1..].iter().filter(|t| t.1 == ma) {
            let (first, second) = (model.new_bool()?, model.new_bool()?);
            model.bool_not(first, second)?;
            model.reify(
                first,
                Compare::new(a, Relation::Le, b, -da),
                Reification::Full,
            )?;
            model.reify(
                second,
                Compare::new(b, Relation::Le, a, -db),
                Reification::Full,
            )?;
        }
    }
    let solver = Solver::new(&model)
        .inference(Inference::Mac)
        .var_order(VarOrder::DomWdeg)
        .minimize(end);
    let best = solver.solutions().last().map(|s| s[end.index()]);
    Ok(best.unwrap_or(-1))
}

fn main() -> Result<(), ModelError> {
    println!("ft06: optimal makespan {}", makespan()?);
    Ok(())
}

#[test]
fn the_optimal_makespan_is_55() {
    assert_eq!(makespan().unwrap(), 55);
}
