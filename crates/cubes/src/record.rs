//! `CubeRecord`: one cube as a line of JSON, with the model it was cut from.

use csp::constraints::Relation;
use csp::cube::{Cube, CubeLiteral};
use csp::{Model, VarId};
use serde::{Deserialize, Serialize};

/// One cube of a split, as `csp split` writes it, one per line:
/// `{"cube":3,"of":40,"model":"5f0c...","literals":[{"var":2,"name":"q[3]","op":"=","value":1}]}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CubeRecord {
    /// Its index, from 0.
    pub cube: usize,
    /// How many cubes the split made.
    pub of: usize,
    /// The fingerprint of the model it was cut from ([`Model::fingerprint`]), in hex.
    pub model: String,
    /// Its conditions.
    pub literals: Vec<LiteralRecord>,
}

/// One condition: `var op value`, the variable by its index in the model (its name, where it
/// has one, for a reader).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LiteralRecord {
    /// The variable's index.
    pub var: u32,
    /// Its name, if it has one (not read back).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// `=`, `!=`, `<=` or `>=`.
    pub op: String,
    /// The constant.
    pub value: i32,
}

/// A cube line that cannot be used, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError(pub String);

impl std::fmt::Display for RecordError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RecordError {}

/// The fingerprint of `model` as cube and result files write it.
pub fn fingerprint(model: &Model) -> String {
    format!("{:016x}", model.fingerprint())
}

impl CubeRecord {
    /// The record of `cube`, the `index`-th of `of` cut from `model`.
    pub fn new(model: &Model, cube: &Cube, index: usize, of: usize) -> Self {
        let literals = cube
            .literals
            .iter()
            .map(|l| LiteralRecord {
                var: l.var.index() as u32,
                name: model.var_name(l.var).map(|n| n.into_owned()),
                op: l.relation.to_string(),
                value: l.value,
            })
            .collect();
        CubeRecord {
            cube: index,
            of,
            model: fingerprint(model),
            literals,
        }
    }

    /// One line of JSON (without its newline).
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// The record on `line` of a cube file; `Err` says what is wrong with it.
    pub fn parse(line: &str) -> Result<Self, RecordError> {
        serde_json::from_str(line).map_err(|e| RecordError(format!("not a cube record: {e}")))
    }

    /// The record at index `index` of a cube file's `text` (its line `index + 1`).
    pub fn find(text: &str, index: usize) -> Result<Self, RecordError> {
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        let Some(line) = lines.get(index) else {
            return Err(RecordError(format!(
                "cube {index} asked for, the file has {} (0 to {})",
                lines.len(),
                lines.len().saturating_sub(1)
            )));
        };
        let record =
            Self::parse(line).map_err(|e| RecordError(format!("line {}: {e}", index + 1)))?;
        if record.cube != index {
            return Err(RecordError(format!(
                "line {}: holds cube {}, not {index}",
                index + 1,
                record.cube
            )));
        }
        Ok(record)
    }

    /// The cube, checked against `model`: the same fingerprint, and known variables and
    /// relations.
    pub fn cube_for(&self, model: &Model) -> Result<Cube, RecordError> {
        let expected = fingerprint(model);
        if self.model != expected {
            return Err(RecordError(format!(
                "cube {} was cut from another model (fingerprint {}, this model's {expected})",
                self.cube, self.model
            )));
        }
        let literals = self
            .literals
            .iter()
            .map(|l| {
                let relation = match l.op.as_str() {
                    "=" | "==" => Relation::Eq,
                    "!=" => Relation::Ne,
                    "<=" => Relation::Le,
                    ">=" => Relation::Ge,
                    "<" => Relation::Lt,
                    ">" => Relation::Gt,
                    other => {
                        return Err(RecordError(format!(
                            "cube {}: unknown relation {other:?}",
                            self.cube
                        )))
                    }
                };
                let var = VarId::from_index(l.var as usize)
                    .filter(|v| v.index() < model.var_count())
                    .ok_or_else(|| {
                        RecordError(format!(
                            "cube {}: variable {} is not in the model ({} variables)",
                            self.cube,
                            l.var,
                            model.var_count()
                        ))
                    })?;
                Ok(CubeLiteral {
                    var,
                    relation,
                    value: l.value,
                })
            })
            .collect::<Result<_, _>>()?;
        Ok(Cube { literals })
    }
}
