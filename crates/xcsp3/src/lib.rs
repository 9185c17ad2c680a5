//! XCSP3-core instances (`.xml`, or `.xml.lzma` as the competition ships them) read into a
//! [`csp::Model`]; no I/O: the caller hands over the text or the compressed bytes.
//!
//! The reader takes integer variables and arrays, every XCSP3-core constraint family the
//! specification lists (generic, language-based, comparison, counting, connection,
//! scheduling, circuit, instantiation; groups, blocks and `slide`) and one objective. An
//! element it does not take is named with its line and column, never guessed at.
// Bad input is an Err, never a panic: unwrap, expect and panic! are for the tests.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

mod constraints;
mod error;
mod expression;
mod intension;
mod objectives;
mod symbolic;
mod symbols;
mod tabulate;
mod variables;

pub use error::XcspError;

use csp::constraints::TableData;
use csp::{Model, VarId};
use roxmltree::{Document, Node};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use symbolic::SymbolicValues;
use symbols::Symbols;

/// Whether the instance asks for solutions (CSP) or for an optimum (COP).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Satisfaction: solutions, or all of them counted.
    Csp,
    /// Optimisation: an optimum of the objective.
    Cop,
}

/// An instance read: the model, its kind, and its declared variables in document order that
/// some constraint involves (the ones an `<instantiation>` lists and a count tells apart).
#[derive(Debug)]
pub struct XcspModel {
    /// The model, one variable per declared variable first, then any the reader added.
    pub model: Model,
    /// CSP or COP.
    pub kind: Kind,
    /// The objective of a COP.
    pub objective: Option<csp::Objective>,
    declared: Vec<VarId>,
    /// The variables of symbolic domains, whose values are codes of `values`' symbols.
    symbolic: HashSet<VarId>,
    values: SymbolicValues,
}

impl XcspModel {
    /// The declared variables some constraint involves, in document order.
    pub fn declared(&self) -> &[VarId] {
        &self.declared
    }

    /// A solution (one value per model variable) as the competition's `<instantiation>`, on
    /// one line: `<instantiation type="solution"> <list> x[0] x[1] </list> <values> 3 1
    /// </values> </instantiation>`. For a COP, the objective's value too, in `cost="..."` as
    /// ACE writes it (PyCSP3 reads the bound from there).
    pub fn instantiation(&self, values: &[i32]) -> String {
        let mut list = String::new();
        let mut vals = String::new();
        for &v in &self.declared {
            let name = self.model.var_name(v).unwrap_or_default();
            list.push(' ');
            list.push_str(&name);
            let value = values.get(v.index()).copied().unwrap_or_default();
            vals.push(' ');
            match self.values.name(value) {
                Some(symbol) if self.symbolic.contains(&v) => vals.push_str(symbol),
                _ => vals.push_str(&value.to_string()),
            }
        }
        let cost = match self.objective {
            Some(objective) => {
                let value = values
                    .get(objective.var.index())
                    .copied()
                    .unwrap_or_default();
                format!(" cost=\"{value}\"")
            }
            None => String::new(),
        };
        format!(
            "<instantiation type=\"solution\"{cost}> <list>{list} </list> <values>{vals} </values> </instantiation>"
        )
    }
}

/// The text of an `.xml.lzma` file (LZMA-alone, as the competition compresses instances).
pub fn decompress(bytes: &[u8]) -> Result<String, XcspError> {
    let mut out = Vec::new();
    lzma_rs::lzma_decompress(&mut std::io::Cursor::new(bytes), &mut out)
        .map_err(|e| XcspError::whole(format!("not LZMA data: {e}")))?;
    String::from_utf8(out).map_err(|_| XcspError::whole("the decompressed text is not UTF-8"))
}

/// Reads an instance from its XML text.
pub fn load(xml: &str) -> Result<XcspModel, XcspError> {
    load_within(xml, &csp::Limits::none())
}

/// Reads an instance from its XML text, stopping on the time limit or cancel flag of
/// `limits` (read between constraints): the error then says which, in its `stopped` field.
/// A large instance can take seconds to read, and a run's time limit counts them.
pub fn load_within(xml: &str, limits: &csp::Limits) -> Result<XcspModel, XcspError> {
    let doc = Document::parse(xml).map_err(|e| {
        let pos = e.pos();
        XcspError::at((pos.row, pos.col), format!("not well-formed XML: {e}"))
    })?;
    let mut reader = Reader {
        doc: &doc,
        model: Model::new(),
        symbols: Symbols::default(),
        declared: Vec::new(),
        values: SymbolicValues::default(),
        symbolic: HashSet::new(),
        tables: HashMap::new(),
        poller: csp::Poller::new(limits),
    };
    let root = doc.root_element();
    if !root.has_tag_name("instance") {
        return Err(reader.fault(root, "the root element is not <instance>"));
    }
    let kind = match root.attribute("type") {
        Some("CSP") => Kind::Csp,
        Some("COP") => Kind::Cop,
        Some(other) => {
            return Err(reader.fault(root, format!("instances of type {other} are not supported")))
        }
        None => return Err(reader.fault(root, "<instance> has no type")),
    };
    let mut objective = None;
    for part in root.children().filter(Node::is_element) {
        match part.tag_name().name() {
            "variables" => reader.variables(part)?,
            "constraints" => reader.constraints(part)?,
            "objectives" => objective = Some(reader.objectives(part)?),
            "annotations" => {}
            other => {
                let first = part.children().find(Node::is_element).unwrap_or(part);
                let what = if first == part {
                    format!("<{other}> is not supported yet")
                } else {
                    format!("<{}> is not supported yet", first.tag_name().name())
                };
                return Err(reader.fault(first, what));
            }
        }
    }
    // A variable in no constraint is not part of the problem (ACE and the competition's
    // counts leave it out): it is fixed to its least value and left out of the solutions.
    let Reader {
        mut model,
        declared,
        symbolic,
        values,
        ..
    } = reader;
    // The variables the reader added hold intermediate values: the search branches on the
    // instance's own first, as ACE does.
    // Implied tables where auxiliary variables carry a relation in pieces (a knight's move as
    // two distances and a table of them).
    model
        .add_projections()
        .map_err(|e| XcspError::whole(e.to_string()))?;
    let own: HashSet<VarId> = declared.iter().copied().collect();
    let added: Vec<VarId> = model.vars().filter(|v| !own.contains(v)).collect();
    for v in added {
        model.set_introduced(v);
    }
    let mut involved = Vec::with_capacity(declared.len());
    for &v in &declared {
        if !model.constraints_on(v).is_empty() {
            involved.push(v);
        } else if let Some((low, _)) = model.initial_bounds(v) {
            model
                .compare_value(v, csp::Relation::Eq, i64::from(low))
                .map_err(|e| XcspError::whole(e.to_string()))?;
        }
    }
    if involved.is_empty() {
        // No constraint at all (pycsp3 writes such instances, LatinSquare-7-2-0): the
        // solution lists every variable, each at its smallest value, since the competition's
        // checker cannot read an empty one; the count stays 1.
        involved = declared;
    }
    if kind == Kind::Cop && objective.is_none() {
        return Err(XcspError::whole("a COP without <objectives>"));
    }
    Ok(XcspModel {
        model,
        kind,
        objective,
        declared: involved,
        symbolic,
        values,
    })
}

/// The state of one read: the document, the model built so far and the names declared.
pub(crate) struct Reader<'d> {
    doc: &'d Document<'d>,
    model: Model,
    symbols: Symbols,
    declared: Vec<VarId>,
    /// The codes of symbolic values.
    values: SymbolicValues,
    /// The variables declared with symbolic domains.
    symbolic: HashSet<VarId>,
    /// The tuples of a group's `<supports>` or `<conflicts>` without parameters, read once
    /// for all the group's constraints.
    tables: HashMap<roxmltree::NodeId, Arc<TableData>>,
    /// The limits, read before each constraint.
    poller: csp::Poller,
}

impl Reader<'_> {
    /// A fault at `node`'s start.
    fn fault(&self, node: Node<'_, '_>, what: impl Into<String>) -> XcspError {
        let pos = self.doc.text_pos_at(node.range().start);
        XcspError::at((pos.row, pos.col), what)
    }

    /// The attribute `name` of `node`, or a fault naming it.
    fn attribute<'n>(&self, node: Node<'n, '_>, name: &str) -> Result<&'n str, XcspError> {
        node.attribute(name).ok_or_else(|| {
            self.fault(
                node,
                format!("<{}> has no `{name}` attribute", node.tag_name().name()),
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variables_and_arrays_become_named_variables_in_document_order_those_in_no_constraint_left_out(
    ) {
        let xml = r#"<instance format="XCSP3" type="CSP">
  <variables>
    <var id="b"> 0 1 </var>
    <array id="x" size="[2][2]">
      <domain for="x[0][]"> 1..3 </domain>
      <domain for="others"> -1 4 9 </domain>
    </array>
    <var id="c" as="b"/>
    <var id="free"> 0..5 </var>
  </variables>
  <constraints>
    <allDifferent> x[][] </allDifferent>
    <intension> ne(b,c) </intension>
  </constraints>
</instance>"#;
        let m = load(xml).unwrap();
        assert_eq!(m.kind, Kind::Csp);
        let names: Vec<String> = m
            .declared()
            .iter()
            .map(|&v| m.model.var_name(v).unwrap().into_owned())
            .collect();
        // `free` is in no constraint: not part of the problem.
        assert_eq!(
            names,
            ["b", "x[0][0]", "x[0][1]", "x[1][0]", "x[1][1]", "c"]
        );
        let domain = |i: usize| m.model.initial_domain(m.declared()[i]);
        assert_eq!(domain(1), vec![1, 2, 3]);
        assert_eq!(domain(4), vec![-1, 4, 9]);
        assert_eq!(domain(5), vec![0, 1]);
        let values: Vec<i32> = vec![1, 2, 3, 4, 9, 0];
        assert_eq!(
            m.instantiation(&values),
            "<instantiation type=\"solution\"> <list> b x[0][0] x[0][1] x[1][0] x[1][1] c </list> \
             <values> 1 2 3 4 9 0 </values> </instantiation>"
        );
    }

    #[test]
    fn an_instance_without_constraints_lists_every_variable() {
        // A solution must name some variable for the competition's checker to read it.
        let m = load("<instance format=\"XCSP3\" type=\"CSP\"><variables><array id=\"x\" size=\"[2]\"> 3..5 </array></variables></instance>").unwrap();
        assert_eq!(m.declared().len(), 2);
        assert_eq!(
            m.instantiation(&[3, 3]),
            "<instantiation type=\"solution\"> <list> x[0] x[1] </list> <values> 3 3 </values> </instantiation>"
        );
    }

    #[test]
    fn faults_name_their_line_and_column() {
        let err = load("<instance format=\"XCSP3\" type=\"CSP\">\n  <variables>\n    <var id=\"x\"> 1..a </var>\n  </variables>\n</instance>").unwrap_err();
        assert_eq!(err.at, Some((3, 5)));
        assert!(err.what.contains("1..a"), "{err}");
        let err = load("<instance type=\"CSP\">\n<constraints>\n  <stretch> x[] </stretch>\n</constraints>\n</instance>").unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 3, column 3: <stretch> is not supported yet"
        );
        assert!(load("<instance").is_err());
        // `in` without a set: refused, not passed back and forth between value and truth.
        let err = load("<instance type=\"CSP\"><variables><var id=\"x\"> 0..2 </var><var id=\"y\"> 0..2 </var></variables>\n<constraints><intension> or(in(x,y),eq(x,1)) </intension></constraints></instance>").unwrap_err();
        assert!(err.what.contains("`in`"), "{err}");
        assert!(load("<instance type=\"WCSP\"/>").is_err());
        let err = load("<instance type=\"CSP\"><variables><var id=\"x\" type=\"set\"> a b </var></variables></instance>").unwrap_err();
        assert!(err.what.contains("set variables"), "{err}");
        let err = load("<instance type=\"CSP\"><variables><var id=\"x\"> 0..2 </var></variables>\n<constraints>\n <clause> not(x) </clause></constraints></instance>").unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 3, column 2: <clause> over `x`, which is not a 0/1 variable"
        );
    }

    #[test]
    fn an_instance_as_the_competition_ships_it_decompresses() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/AllInterval-10.xml.lzma"
        );
        let text = decompress(&std::fs::read(path).unwrap()).unwrap();
        assert!(text.starts_with("<instance"));
        assert!(decompress(b"not lzma").is_err());
    }
}
