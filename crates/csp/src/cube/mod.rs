//! Cubes: a model's search space cut into disjoint parts that separate processes or machines
//! search independently ([`split`]), each part a conjunction of unary conditions ([`Cube`]).
//!
//! The parts partition the space exactly: no solution lies in two cubes and none in no cube,
//! so that the cubes' solution counts add up to the model's, and the best of their optima is
//! the model's optimum. This is embarrassingly parallel search (Régin, Rezgui and Malapert,
//! CP 2013): many more cubes than workers, so that the slow ones even out.

mod split;

pub use split::{split, Split};

use crate::constraints::Relation;
use crate::{Model, ModelError, VarId};

/// One condition of a cube: `var relation value`, with `relation` one of `=`, `!=`, `<=`,
/// `>=`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct CubeLiteral {
    /// The variable.
    pub var: VarId,
    /// How it compares with `value`.
    pub relation: Relation,
    /// The constant.
    pub value: i32,
}

impl CubeLiteral {
    /// Whether `x` (a value of `var`) satisfies this condition.
    pub fn holds(&self, x: i32) -> bool {
        self.relation.holds(i64::from(x), i64::from(self.value))
    }
}

/// A part of a model's search space: the solutions that satisfy every one of its literals.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Cube {
    /// The conditions, all of which hold in the cube.
    pub literals: Vec<CubeLiteral>,
}

impl Cube {
    /// The whole space: no condition.
    pub fn whole() -> Self {
        Cube::default()
    }

    /// `model` restricted to this cube: a copy (which shares the constraints) with each
    /// literal posted as a comparison with a constant. Refused when a literal names a
    /// variable the model does not have.
    pub fn restrict(&self, model: &Model) -> Result<Model, ModelError> {
        let mut restricted = model.clone();
        for literal in &self.literals {
            restricted.compare_value(literal.var, literal.relation, i64::from(literal.value))?;
        }
        Ok(restricted)
    }

    /// Whether `values` (one per variable of the model) lies in this cube.
    pub fn contains(&self, values: &[i32]) -> bool {
        self.literals.iter().all(|literal| {
            values
                .get(literal.var.index())
                .is_some_and(|&x| literal.holds(x))
        })
    }

    /// This cube with one more condition.
    fn and(&self, var: VarId, relation: Relation, value: i32) -> Cube {
        let mut literals = Vec::with_capacity(self.literals.len() + 1);
        literals.extend_from_slice(&self.literals);
        literals.push(CubeLiteral {
            var,
            relation,
            value,
        });
        Cube { literals }
    }
}
