//! lcg's explanations written as a DRCP proof of unsatisfiability and checked by Pumpkin's
//! checker (`cargo install pumpkin-checker`), on models of all_different and `!=` alone, the
//! constraints whose inferences that checker can judge. Skipped where it is not installed.

use csp::{Atom, ConstraintId, Inference, Model, Observer, Outcome, Solver, VarId};
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::Command;

/// Pumpkin's checker, on the path or where `cargo install --root /tmp/pumpkin-checker` put it.
fn checker() -> Option<PathBuf> {
    let candidates = [
        PathBuf::from("pumpkin-checker"),
        PathBuf::from("/tmp/pumpkin-checker/bin/pumpkin-checker"),
    ];
    candidates.into_iter().find(|path| {
        Command::new(path)
            .arg("--help")
            .output()
            .is_ok_and(|out| out.status.success())
    })
}

/// Where an inference comes from, for its tags.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Source {
    /// A constraint of the model, numbered from 1 as the checker numbers them.
    Constraint(usize),
    /// A declared bound.
    Initial,
    /// A nogood, by its step.
    Nogood(u32),
}

/// An inference: the premises imply the consequent (or, without one, cannot all hold).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
struct Step {
    premises: Vec<Atom>,
    consequent: Option<Atom>,
    source: Source,
}

/// A variable's domain as a derivation knows it: bounds and holes.
#[derive(Clone, Debug)]
struct Known {
    low: i64,
    high: i64,
    holes: Vec<i32>,
}

impl Known {
    fn holds(&self, atom: Atom) -> bool {
        let (low, high) = (self.low, self.high);
        match atom {
            Atom::Ge(_, v) => low >= i64::from(v),
            Atom::Le(_, v) => high <= i64::from(v),
            Atom::Eq(_, v) => low == i64::from(v) && high == i64::from(v),
            Atom::Ne(_, v) => i64::from(v) < low || i64::from(v) > high || self.holes.contains(&v),
        }
    }

    fn apply(&mut self, atom: Atom) {
        match atom {
            Atom::Ge(_, v) => self.low = self.low.max(i64::from(v)),
            Atom::Le(_, v) => self.high = self.high.min(i64::from(v)),
            Atom::Eq(_, v) => {
                self.low = self.low.max(i64::from(v));
                self.high = self.high.min(i64::from(v));
            }
            Atom::Ne(_, v) => self.holes.push(v),
        }
        while self.low <= self.high && self.holes.contains(&(self.low as i32)) {
            self.low += 1;
        }
        while self.low <= self.high && self.holes.contains(&(self.high as i32)) {
            self.high -= 1;
        }
    }

    fn empty(&self) -> bool {
        self.low > self.high
    }
}

/// What a derivation knows so far, by variable; a variable not met knows nothing.
#[derive(Default)]
struct Derivation {
    known: HashMap<VarId, Known>,
}

impl Derivation {
    fn holds(&self, atom: Atom) -> bool {
        self.known.get(&atom.var()).is_some_and(|k| k.holds(atom))
    }

    /// Makes `atom` known; whether its variable is left without a value.
    fn apply(&mut self, atom: Atom) -> bool {
        let k = self.known.entry(atom.var()).or_insert(Known {
            low: i64::MIN,
            high: i64::MAX,
            holes: Vec::new(),
        });
        k.apply(atom);
        k.empty()
    }
}

fn negated(atom: Atom) -> Atom {
    match atom {
        Atom::Ge(x, v) => Atom::Le(x, v - 1),
        Atom::Le(x, v) => Atom::Ge(x, v + 1),
        Atom::Eq(x, v) => Atom::Ne(x, v),
        Atom::Ne(x, v) => Atom::Eq(x, v),
    }
}

/// Collects an lcg search's explanations and writes a DRCP proof. The checker judges each
/// nogood by the inferences written since the previous one, applied in the order its hints
/// give; the search's explanations come newest first and the root's once, so for each nogood
/// the writer finds that order itself, by unit propagation over every inference seen and the
/// nogoods so far, and writes the inferences it used.
struct DrcpWriter {
    proof: String,
    atoms: HashMap<Atom, u32>,
    /// Each variable's declared bounds.
    initial: Vec<(i32, i32)>,
    next_step: u32,
    pool: Vec<Step>,
    in_pool: HashSet<Step>,
    nogoods: Vec<(u32, Vec<Atom>)>,
    /// A derivation failed: the proof will not check.
    lost: bool,
}

impl DrcpWriter {
    fn new(model: &Model) -> Self {
        let initial = model
            .vars()
            .map(|x| {
                let values: Vec<i32> = model.initial_values(x).collect();
                (values[0], *values.last().unwrap())
            })
            .collect();
        DrcpWriter {
            proof: String::new(),
            atoms: HashMap::new(),
            initial,
            // Step ids share their space with the model's constraints, numbered from 1.
            next_step: model.constraint_count() as u32 + 1,
            pool: Vec::new(),
            in_pool: HashSet::new(),
            nogoods: Vec::new(),
            lost: false,
        }
    }

    fn atom(&mut self, atom: Atom) -> u32 {
        if let Some(&id) = self.atoms.get(&atom) {
            return id;
        }
        let id = self.atoms.len() as u32 + 1;
        let (x, op, v) = match atom {
            Atom::Eq(x, v) => (x, "==", v),
            Atom::Ne(x, v) => (x, "!=", v),
            Atom::Le(x, v) => (x, "<=", v),
            Atom::Ge(x, v) => (x, ">=", v),
        };
        writeln!(self.proof, "a {id} [v{} {op} {v}]", x.index()).unwrap();
        self.atoms.insert(atom, id);
        id
    }

    fn step_id(&mut self) -> u32 {
        self.next_step += 1;
        self.next_step - 1
    }

    fn add(&mut self, step: Step) {
        if self.in_pool.insert(step.clone()) {
            self.pool.push(step);
        }
    }

    /// Writes the inferences that derive a conflict from `premises`, then the nogood.
    fn deduce(&mut self, premises: &[Atom]) -> u32 {
        let mut known = Derivation::default();
        let mut conflict = false;
        for &atom in premises {
            conflict |= known.apply(atom);
        }
        let mut used: Vec<Step> = Vec::new();
        let mut fired = vec![false; self.pool.len()];
        while !conflict {
            let mut progress = false;
            for (i, step) in self.pool.iter().enumerate() {
                if fired[i] || !step.premises.iter().all(|&a| known.holds(a)) {
                    continue;
                }
                fired[i] = true;
                if let Some(c) = step.consequent {
                    if known.holds(c) {
                        continue;
                    }
                    conflict = known.apply(c);
                } else {
                    conflict = true;
                }
                used.push(step.clone());
                progress = true;
                if conflict {
                    break;
                }
            }
            if conflict {
                break;
            }
            for (id, atoms) in &self.nogoods {
                let open: Vec<Atom> = atoms.iter().copied().filter(|&a| !known.holds(a)).collect();
                match open[..] {
                    [] => {
                        used.push(Step {
                            premises: atoms.clone(),
                            consequent: None,
                            source: Source::Nogood(*id),
                        });
                        conflict = true;
                    }
                    [last] if !known.holds(negated(last)) => {
                        let rest = atoms.iter().copied().filter(|&a| a != last).collect();
                        let c = negated(last);
                        conflict = known.apply(c);
                        used.push(Step {
                            premises: rest,
                            consequent: Some(c),
                            source: Source::Nogood(*id),
                        });
                        progress = true;
                    }
                    _ => {}
                }
                if conflict {
                    break;
                }
            }
            if !progress {
                break;
            }
        }
        if !conflict && !self.lost {
            eprintln!("no derivation of the nogood {premises:?}");
        }
        self.lost |= !conflict;
        let mut sequence = Vec::new();
        for step in used {
            let premises: Vec<u32> = step.premises.iter().map(|&a| self.atom(a)).collect();
            let consequent = step.consequent.map(|a| self.atom(a));
            let id = self.step_id();
            let mut line = format!("i {id}");
            for p in premises {
                write!(line, " {p}").unwrap();
            }
            line.push_str(" 0");
            if let Some(c) = consequent {
                write!(line, " {c}").unwrap();
            }
            match step.source {
                Source::Constraint(c) => write!(line, " c:{c} l:all_different").unwrap(),
                Source::Initial => line.push_str(" l:initial_domain"),
                Source::Nogood(n) => write!(line, " c:{n} l:nogood").unwrap(),
            }
            writeln!(self.proof, "{line}").unwrap();
            sequence.push(id);
        }
        let ids: Vec<u32> = premises.iter().map(|&a| self.atom(a)).collect();
        let id = self.step_id();
        let mut line = format!("n {id}");
        for a in ids {
            write!(line, " {a}").unwrap();
        }
        line.push_str(" 0");
        for s in sequence {
            write!(line, " {s}").unwrap();
        }
        writeln!(self.proof, "{line}").unwrap();
        self.nogoods.push((id, premises.to_vec()));
        id
    }
}

impl Observer for DrcpWriter {
    fn wants_explanations(&self) -> bool {
        true
    }

    fn on_explanation(
        &mut self,
        by: ConstraintId,
        _nogood: &[Atom],
        reason: &[Atom],
        implied: Option<Atom>,
    ) {
        if by == ConstraintId::NOGOOD {
            // The writer's own propagation of the nogoods stands for these.
            return;
        }
        // The checker reads a variable's domain from the premises alone: every variable met
        // gets its declared bounds too, each an inference of its own.
        let mut vars: Vec<VarId> = reason.iter().chain(&implied).map(Atom::var).collect();
        vars.sort_unstable();
        vars.dedup();
        let mut premises: Vec<Atom> = Vec::new();
        for x in vars {
            let (low, high) = self.initial[x.index()];
            for bound in [Atom::Ge(x, low), Atom::Le(x, high)] {
                self.add(Step {
                    premises: Vec::new(),
                    consequent: Some(bound),
                    source: Source::Initial,
                });
                premises.push(bound);
            }
        }
        premises.extend_from_slice(reason);
        self.add(Step {
            premises,
            consequent: implied,
            source: Source::Constraint(by.index() + 1),
        });
    }

    fn on_nogood(&mut self, nogood: &[Atom], _backjump: usize) {
        self.deduce(nogood);
    }
}

/// The model as FlatZinc for the checker: every constraint is an all_different over its scope
/// (a `!=` is one over two), in the order of their ids.
fn flatzinc(model: &Model) -> String {
    let mut fzn = String::new();
    for x in model.vars() {
        let values: Vec<i32> = model.initial_values(x).collect();
        let (low, high) = (values[0], values.last().unwrap());
        writeln!(fzn, "var {low}..{high}: v{};", x.index()).unwrap();
    }
    for c in model.constraint_ids() {
        let constraint = model.constraint(c).unwrap();
        let scope: Vec<String> = constraint
            .scope()
            .iter()
            .map(|x| format!("v{}", x.index()))
            .collect();
        writeln!(
            fzn,
            "constraint pumpkin_all_different([{}]);",
            scope.join(", ")
        )
        .unwrap();
    }
    fzn.push_str("solve satisfy;\n");
    fzn
}

/// Solves `model` under lcg, writing the proof; the checker's verdict on it, or `None` when
/// the model has a solution.
fn proved(model: &Model, name: &str, checker: &PathBuf) -> Option<bool> {
    let mut writer = DrcpWriter::new(model);
    let mut found = false;
    let summary = Solver::new(model)
        .inference(Inference::Lcg)
        .solve_observed(&mut writer, |_| {
            found = true;
            std::ops::ControlFlow::Break(())
        });
    if found {
        return None;
    }
    assert_eq!(summary.outcome, Outcome::Exhausted, "{name}");
    writer.deduce(&[]);
    writer.proof.push_str("c UNSAT\n");
    assert!(!writer.lost, "{name}: a nogood the writer could not derive");
    let dir = std::env::temp_dir().join(format!("csp-proof-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (fzn, drcp) = (
        dir.join(format!("{name}.fzn")),
        dir.join(format!("{name}.drcp")),
    );
    std::fs::write(&fzn, flatzinc(model)).unwrap();
    std::fs::write(&drcp, &writer.proof).unwrap();
    let out = Command::new(checker).arg(&fzn).arg(&drcp).output().unwrap();
    let valid = out.status.success();
    if !valid {
        eprintln!("{name}: {}", String::from_utf8_lossy(&out.stderr));
    }
    // The checker is not a rubber stamp: without the last inference of the final derivation,
    // the same proof is rejected.
    let lines: Vec<&str> = writer.proof.lines().collect();
    let last = lines.iter().rposition(|l| l.starts_with("i ")).unwrap();
    let cut: String = lines
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != last)
        .map(|(_, l)| format!("{l}\n"))
        .collect();
    std::fs::write(&drcp, cut).unwrap();
    let out = Command::new(checker).arg(&fzn).arg(&drcp).output().unwrap();
    assert!(
        !out.status.success(),
        "{name}: accepted without its last inference"
    );
    Some(valid)
}

#[test]
fn pumpkins_checker_accepts_lcgs_proofs_that_queen_graphs_need_more_colours() {
    let Some(checker) = checker() else {
        eprintln!("SKIPPED: pumpkin-checker is not installed (cargo install pumpkin-checker)");
        return;
    };
    for (n, k) in [(4, 4), (5, 4), (6, 6), (7, 6)] {
        let mut model = Model::new();
        let cells: Vec<VarId> = (0..n * n)
            .map(|_| model.new_var(0..=k - 1).unwrap())
            .collect();
        let cell = |r: i32, c: i32| cells[(r * n + c) as usize];
        for r in 0..n {
            model
                .all_different(&(0..n).map(|c| cell(r, c)).collect::<Vec<_>>())
                .unwrap();
            model
                .all_different(&(0..n).map(|c| cell(c, r)).collect::<Vec<_>>())
                .unwrap();
        }
        for d in -(n - 2)..=n - 2 {
            let diagonal: Vec<VarId> = (0..n)
                .filter(|&r| (0..n).contains(&(r - d)))
                .map(|r| cell(r, r - d))
                .collect();
            model.all_different(&diagonal).unwrap();
        }
        for s in 1..=2 * n - 3 {
            let anti: Vec<VarId> = (0..n)
                .filter(|&r| (0..n).contains(&(s - r)))
                .map(|r| cell(r, s - r))
                .collect();
            model.all_different(&anti).unwrap();
        }
        let name = format!("queen{n}_{n}_k{k}");
        assert_eq!(proved(&model, &name, &checker), Some(true), "{name}");
    }
}
