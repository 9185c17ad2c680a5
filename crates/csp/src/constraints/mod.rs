//! The constraints that come with the engine; each file holds one, except the algorithms
//! some of them build on: `regin.rs`, `words.rs`, `hall_sets.rs` and `hall_intervals.rs`
//! (all_different), `cardinality_flow.rs` (global_cardinality), `components.rs` (the
//! strongly connected components both matchings read), `energetic.rs` (cumulative's
//! energetic reasoning) and `task.rs` (the task bounds the scheduling constraints read).
//!
//! # Adding a built-in constraint, the whole path
//!
//! A constraint of your own needs only [`Constraint`](crate::Constraint) and
//! [`Model::post`](crate::Model::post) (the guide is in the trait's module). One that comes
//! with csp reaches every route: the engine, MiniZinc (FlatZinc), XCSP3, Python and CPMpy.
//! `nvalue` is a small one to follow through these steps (`git grep -n nvalue` shows each
//! place), and `knapsack` the last one added along them (`git grep -n -i knapsack`); each
//! route has a test against an oracle nobody here wrote by hand.
//!
//! 1. **The propagator**, `constraints/<family>.rs`, exported here: its documentation
//!    states its consistency (`Consistency: ...`); its hooks give reasons for learning
//!    (`remove_because`, `at_most_because` and the like; without them learning blames the
//!    whole scope, which is sound and weaker) and, for a linear or all-different form,
//!    `checkable` for proofs. Tests that test it alone go beside it, in a
//!    `#[cfg(test)] mod tests`, on the oracles of `crate::brute_force` (every tuple, the
//!    supported values, `assert_gac`) and proptest's fixed-seed `config()`: see
//!    `all_different.rs` or `nfa.rs`.
//! 2. **The posting method**, in `model/post.rs` (`Model::nvalue`): it checks the arguments
//!    and returns a [`ModelError`](crate::ModelError) rather than posting nonsense.
//! 3. **The property test**, a `Spec` variant in `crates/csp/tests/engine/properties.rs`:
//!    random small models with it are solved in every mode and compared with brute force,
//!    and under `lcg` each reason it gives is checked against the constraint's own
//!    `is_satisfied`. `cargo test -p csp` runs it.
//! 4. **FlatZinc**: a `csp_<name>` builtin in the family's reader,
//!    `crates/flatzinc/src/build/builtins/<family>.rs` (`counting.rs` for `csp_nvalue`; a new
//!    family is a new file there and one entry in `builtins/mod.rs`'s list), and the file
//!    `crates/flatzinc/mznlib/fzn_<name>.mzn` that makes MiniZinc emit it (it ships by being
//!    there: `crates/flatzinc/build.rs` lists the folder). A case in
//!    `crates/flatzinc/tests/builtins.rs` reads it; in `crates/cli/tests/cli/fzn.rs`,
//!    `each_native_global_reaches_csp_as_one_constraint` compiles a model with it under every
//!    MiniZinc found, and `each_redefined_global_has_as_many_solutions_on_csp_as_on_gecode`
//!    compares its solutions with MiniZinc's own decomposition on Gecode.
//! 5. **XCSP3**: the element's mapping in `crates/xcsp3/src/constraints/<family>.rs`
//!    (`<nValues>` in `counting.rs`), with an instance under `crates/xcsp3/tests/data/forms/`
//!    whose count or optimum `brute_force.py` there computes.
//! 6. **Python**: a method of the native model, `crates/python/src/model.rs` (`fn nvalue`),
//!    the modelling layer's method in `crates/python/python/csp_solver/model.py` when it is
//!    one a modeller writes, and CPMpy's global, by name, in
//!    `crates/python/python/csp_solver/cpmpy.py` (the list of supported globals at its top,
//!    and its branch in the posting of globals); a global CPMpy lacks (knapsack) reaches the
//!    native method through CPMpy's `DirectConstraint`, with nothing to add. Tests:
//!    `crates/python/tests/test_model.py` and `test_cpmpy.py`, against brute force over
//!    `itertools.product`.
//! 7. **Docs**: the global's row in the table of globals in `docs/library.md` (its MiniZinc
//!    name, `Model` method and consistency: the table MiniZinc's natives are listed by), the
//!    element in `docs/xcsp3.md`'s list, and the method in `docs/python.md`.
//!
//! How it is searched needs nothing: the policy (`crates/policy`) picks the search for
//! every route, and the engine's core does not change either: the network learns the new
//! constraint's wake conditions and costs from its hooks at posting.

mod all_different;
mod all_different_except;
mod among;
mod arg_extremum;
mod arithmetic;
mod array_member;
mod bin_packing_load;
mod binary;
mod boolean;
mod cardinality_flow;
mod circuit;
mod compare;
mod components;
mod count;
mod cumulative;
mod diffn;
mod disjunctive;
mod element;
mod energetic;
mod global_cardinality;
mod hall_intervals;
mod hall_sets;
mod increasing;
mod inverse;
mod knapsack;
mod lex;
mod linear;
mod listed;
mod member;
mod min_max;
mod nfa;
mod not_equal;
mod nvalue;
mod path;
mod regin;
mod regular;
mod reified;
mod relation;
mod table;
mod task;
mod value_precede;
mod words;

pub use all_different::AllDifferent;
pub use all_different_except::AllDifferentExcept;
pub use among::Among;
pub use arg_extremum::ArgExtremum;
pub(crate) use arithmetic::SMALL_FACTOR_DECLARED;
pub use arithmetic::{Abs, ArithOp, Arithmetic};
pub use array_member::ArrayMember;
pub use bin_packing_load::BinPackingLoad;
pub use binary::Binary;
pub use boolean::{BoolGate, BoolXor, Gate, Lit};
pub use circuit::Circuit;
pub use compare::Compare;
pub use count::Count;
pub use cumulative::Cumulative;
pub use diffn::Diffn;
pub use disjunctive::Disjunctive;
pub use element::Element;
pub use global_cardinality::GlobalCardinality;
pub use increasing::Increasing;
pub use inverse::Inverse;
pub use knapsack::Knapsack;
pub use lex::Lex;
pub use linear::Linear;
pub use member::Member;
pub use min_max::Extremum;
pub use nfa::Nfa;
pub use not_equal::NotEqual;
pub use nvalue::NValue;
pub use path::Path;
pub use regular::Regular;
pub use reified::{LinearForm, Reifiable, Reified};
pub use relation::Relation;
pub use table::{Table, TableData};
pub use value_precede::ValuePrecede;

/// Propagators together: each one's own tests sit beside it.
#[cfg(test)]
mod tests {
    use crate::brute_force::{projection, random_vars};
    use crate::{Inference, Model, Relation, Solver, SplitMix64};

    #[test]
    fn no_propagator_removes_a_supported_value_in_a_network() {
        let mut rng = SplitMix64::new(13);
        let pool: Vec<i32> = (-1..=4).collect();
        for case in 0..400 {
            let mut model = Model::new();
            let vars = random_vars(&mut rng, &mut model, 4, &pool, 5);
            model
                .not_equal_offset(vars[0], vars[1], rng.below(3) as i32 - 1)
                .unwrap();
            model.all_different(&vars[1..4]).unwrap();
            let pairs: Vec<[i32; 2]> = (0..10)
                .map(|_| [rng.below(6) as i32 - 1, rng.below(6) as i32 - 1])
                .collect();
            model.table(&[vars[0], vars[3]], &pairs).unwrap();
            let terms = [
                (1 + rng.below(3) as i64, vars[0]),
                (rng.below(5) as i64 - 2, vars[2]),
                (-1, vars[3]),
            ];
            let op = Relation::ALL[rng.below(6) as usize];
            model.linear(&terms, op, rng.below(7) as i64 - 3).unwrap();
            let filtered = Solver::new(&model).inference(Inference::Mac).root_domains();
            match (filtered, projection(&model)) {
                (Some(filtered), Some(supported)) => {
                    for (kept, needed) in filtered.iter().zip(&supported) {
                        assert!(
                            needed.iter().all(|v| kept.contains(v)),
                            "case {case}: {kept:?} lost part of {needed:?}"
                        );
                    }
                }
                (None, Some(_)) => panic!("case {case}: filtering failed a satisfiable network"),
                (_, None) => {}
            }
        }
    }
}
