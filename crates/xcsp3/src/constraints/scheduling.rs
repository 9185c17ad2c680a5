//! The packing and scheduling constraints: `<noOverlap>` (tasks on a line, or boxes in any
//! number of dimensions), `<cumulative>` (tasks sharing a resource), `<binPacking>` and
//! `<knapsack>`.

use super::{parse_values, tuple_items, Args};
use crate::intension::Operand;
use crate::{Reader, XcspError};
use csp::constraints::{Compare, Linear};
use csp::{Relation, VarId};
use roxmltree::Node;

impl Reader<'_> {
    /// `<noOverlap>`: tasks at `<origins>` lasting `<lengths>` never overlap; with tuples,
    /// boxes in two dimensions. A task of length 0 overlaps nothing unless `zeroIgnored` is
    /// `false`.
    pub(super) fn no_overlap(
        &mut self,
        node: Node<'_, '_>,
        args: Option<&Args<'_>>,
    ) -> Result<(), XcspError> {
        let strict = node.attribute("zeroIgnored").map(str::trim) == Some("false");
        let origins = self.required(node, "origins", args)?;
        let lengths = self.required(node, "lengths", args)?;
        if origins.trim_start().starts_with('(') {
            return self.boxes(node, &origins, &lengths, strict);
        }
        let starts = self.list_vars(node, &origins)?;
        let lengths = self.operands(node, &lengths)?;
        if starts.len() != lengths.len() {
            return Err(self.fault(
                node,
                format!("{} origins and {} lengths", starts.len(), lengths.len()),
            ));
        }
        let fixed: Option<Vec<i64>> = lengths
            .iter()
            .map(|l| match l {
                Operand::Const(c) => Some(*c),
                Operand::Var(_) => None,
            })
            .collect();
        if let Some(durations) = fixed {
            self.model
                .disjunctive(&starts, &durations, strict)
                .map_err(|e| self.engine(node, e))?;
            return Ok(());
        }
        if strict {
            return Err(self.fault(
                node,
                "<noOverlap> with lengths that are variables and zeroIgnored=\"false\" is not supported yet",
            ));
        }
        // Tasks of unit height on a resource of capacity 1; one of length 0 uses none of it.
        let durations = lengths
            .into_iter()
            .map(|l| self.operand_var_at(node, l))
            .collect::<Result<Vec<_>, _>>()?;
        let one = self.operand_var_at(node, Operand::Const(1))?;
        let heights = vec![one; starts.len()];
        self.model
            .cumulative(&starts, &durations, &heights, one)
            .map_err(|e| self.engine(node, e))?;
        Ok(())
    }

    /// `<noOverlap>` over boxes: `(x,y)` of sizes `(dx,dy)` to the two-dimensional
    /// propagator; in other dimensions, each pair of boxes apart along some axis (a clause
    /// over reified inequalities, as ACE and CPMpy decompose it).
    fn boxes(
        &mut self,
        node: Node<'_, '_>,
        origins: &str,
        lengths: &str,
        strict: bool,
    ) -> Result<(), XcspError> {
        let tuples = |reader: &mut Self, text: &str| -> Result<Vec<Vec<Operand>>, XcspError> {
            let mut out = Vec::new();
            for item in tuple_items(text).map_err(|why| reader.fault(node, why))? {
                out.push(reader.operands(node, &item.join(" "))?);
            }
            Ok(out)
        };
        let at = tuples(self, origins)?;
        let size = tuples(self, lengths)?;
        let dims = at.first().map_or(0, Vec::len);
        if at.len() != size.len() || at.iter().chain(&size).any(|t| t.len() != dims) {
            return Err(self.fault(
                node,
                format!(
                    "{} origins and {} lengths of {dims} dimensions",
                    at.len(),
                    size.len()
                ),
            ));
        }
        if dims != 2 {
            return self.boxes_apart(node, &at, &size, strict);
        }
        let mut axes: [Vec<VarId>; 4] = Default::default();
        for (o, l) in at.into_iter().zip(size) {
            for (axis, item) in axes.iter_mut().zip(o.into_iter().chain(l)) {
                axis.push(self.operand_var_at(node, item)?);
            }
        }
        let [x, y, dx, dy] = &axes;
        self.model
            .diffn(x, y, dx, dy, strict)
            .map_err(|e| self.engine(node, e))?;
        Ok(())
    }

    /// Boxes at `at` of sizes `size` pairwise apart along some axis: `o[i] + l[i] <= o[j]` or
    /// the other way round. A box of size 0 along some axis overlaps nothing unless
    /// `strict` (`zeroIgnored="false"`).
    fn boxes_apart(
        &mut self,
        node: Node<'_, '_>,
        at: &[Vec<Operand>],
        size: &[Vec<Operand>],
        strict: bool,
    ) -> Result<(), XcspError> {
        let engine = |reader: &Self, e| reader.engine(node, e);
        let zero_size = |l: &[Operand]| l.contains(&Operand::Const(0));
        for i in 0..at.len() {
            for j in i + 1..at.len() {
                if !strict && (zero_size(&size[i]) || zero_size(&size[j])) {
                    continue;
                }
                let mut apart = Vec::new();
                for d in 0..at[i].len() {
                    for (a, b) in [(i, j), (j, i)] {
                        // at[a][d] + size[a][d] - at[b][d] <= 0.
                        let mut terms = Vec::with_capacity(3);
                        let mut rhs = 0;
                        for (k, o) in [(1, at[a][d]), (1, size[a][d]), (-1, at[b][d])] {
                            match o {
                                Operand::Const(c) => rhs -= k * c,
                                Operand::Var(v) => terms.push((k, v)),
                            }
                        }
                        apart
                            .push(self.reified_bool(node, Linear::new(&terms, Relation::Le, rhs))?);
                    }
                    if !strict {
                        for l in [size[i][d], size[j][d]] {
                            if let Operand::Var(l) = l {
                                let empty = Compare::with_value(l, Relation::Le, 0);
                                apart.push(self.reified_bool(node, empty)?);
                            }
                        }
                    }
                }
                self.model
                    .clause(&apart, &[])
                    .map_err(|e| engine(self, e))?;
            }
        }
        Ok(())
    }

    /// `<binPacking>`: item `i`, of size `sizes[i]`, goes in bin `list[i]`, and the load of
    /// each bin (each value the items may take) meets the `<condition>`; or the load of
    /// bin `j` (from 0) stays within `<limits>[j]`, or is `<loads>[j]`, bins past their
    /// number left free, as CPMpy's reader leaves them.
    pub(super) fn bin_packing(
        &mut self,
        node: Node<'_, '_>,
        args: Option<&Args<'_>>,
    ) -> Result<(), XcspError> {
        let items = self.required_vars(node, "list", args)?;
        let text = self.required(node, "sizes", args)?;
        let sizes = parse_values(&text, &self.values).map_err(|why| self.fault(node, why))?;
        if sizes.len() != items.len() {
            return Err(self.fault(
                node,
                format!("{} sizes for {} items", sizes.len(), items.len()),
            ));
        }
        if sizes.iter().any(|&w| w < 0) {
            return Err(self.fault(node, "<binPacking> with a negative size"));
        }
        let total: i64 = sizes.iter().map(|&w| i64::from(w)).sum();
        let mut loads = Vec::new();
        if let Some(text) = self.child_text(node, "loads", args)? {
            loads = self.list_vars(node, &text)?;
        } else if let Some(text) = self.child_text(node, "limits", args)? {
            for limit in self.operands(node, &text)? {
                let load = self.new_load(node, total)?;
                match limit {
                    Operand::Const(c) => self.model.compare_value(load, Relation::Le, c),
                    Operand::Var(v) => self.model.compare(load, Relation::Le, v),
                }
                .map_err(|e| self.engine(node, e))?;
                loads.push(load);
            }
        } else {
            // Every bin an item may take meets the condition.
            let condition = self.required(node, "condition", args)?;
            let Some(&first_item) = items.first() else {
                return Ok(());
            };
            let start = self.bounds(Operand::Var(first_item)).0;
            let (low, high) = self.bins(node, &items, (start, start))?;
            for _ in low..=high {
                loads.push(self.condition_var(node, &condition, (0, total))?);
            }
            return self.pack(node, &items, &sizes, &loads, low);
        }
        self.pack(node, &items, &sizes, &loads, 0)
    }

    /// Items of `sizes` into bins numbered from `first` of loads `loads`; items that may go
    /// past those bins get bins of their own, whose loads nothing constrains.
    fn pack(
        &mut self,
        node: Node<'_, '_>,
        items: &[VarId],
        sizes: &[i32],
        loads: &[VarId],
        first: i64,
    ) -> Result<(), XcspError> {
        let total: i64 = sizes.iter().map(|&w| i64::from(w)).sum();
        let last = first + loads.len() as i64 - 1;
        let (low, high) = self.bins(node, items, (first, last))?;
        let mut all = Vec::with_capacity((high - low + 1) as usize);
        for bin in low..=high {
            let known = usize::try_from(bin - first).ok().and_then(|k| loads.get(k));
            all.push(match known {
                Some(&load) => load,
                None => self.new_load(node, total)?,
            });
        }
        let low = i32::try_from(low).map_err(|_| self.fault(node, "a bin beyond 32 bits"))?;
        self.model
            .bin_packing_load(&all, low, items, sizes)
            .map_err(|e| self.engine(node, e))?;
        Ok(())
    }

    /// The bins from `low..=high` widened to every value the items may take, at most 65,536.
    fn bins(
        &self,
        node: Node<'_, '_>,
        items: &[VarId],
        (low, high): (i64, i64),
    ) -> Result<(i64, i64), XcspError> {
        let (low, high) = items.iter().fold((low, high), |(l, h), &x| {
            let (a, b) = self.bounds(Operand::Var(x));
            (l.min(a), h.max(b))
        });
        if high - low > 1 << 16 {
            return Err(self.fault(node, "<binPacking> over more than 65,536 bins"));
        }
        Ok((low, high))
    }

    /// A bin's load: a new variable over `0..=total`.
    fn new_load(&mut self, node: Node<'_, '_>, total: i64) -> Result<VarId, XcspError> {
        let total = i32::try_from(total).map_err(|_| self.fault(node, "a load beyond 32 bits"))?;
        self.model
            .new_var(0..=total)
            .map_err(|e| self.engine(node, e))
    }

    /// `<knapsack>`: the chosen quantities `list` weigh `sum(weights[i] * list[i])`, which
    /// meets the first `<condition>`, and are worth `sum(profits[i] * list[i])`, which meets
    /// the second. Over quantities, weights and profits of at least 0 it is csp's knapsack
    /// (the relaxation bounds each total by the other), each condition on a total; otherwise
    /// two linear conditions.
    pub(super) fn knapsack(
        &mut self,
        node: Node<'_, '_>,
        args: Option<&Args<'_>>,
    ) -> Result<(), XcspError> {
        let xs = self.required_vars(node, "list", args)?;
        let conditions: Vec<Node<'_, '_>> = node
            .children()
            .filter(|c| c.has_tag_name("condition"))
            .collect();
        let [weight_condition, profit_condition] = conditions[..] else {
            return Err(self.fault(
                node,
                "<knapsack> has two <condition>s, on weights and profits",
            ));
        };
        let mut sums = Vec::with_capacity(2);
        for (name, condition) in [("weights", weight_condition), ("profits", profit_condition)] {
            let text = self.required(node, name, args)?;
            let coeffs = parse_values(&text, &self.values).map_err(|why| self.fault(node, why))?;
            if coeffs.len() != xs.len() {
                return Err(self.fault(
                    node,
                    format!("{} {name} for {} items", coeffs.len(), xs.len()),
                ));
            }
            sums.push((coeffs, self.text(condition, args)?));
        }
        let [(weights, weight_condition), (profits, profit_condition)] = &sums[..] else {
            unreachable!("two sums were read");
        };
        if let Some([weight, profit]) = self.knapsack_totals(&xs, weights, profits) {
            self.model
                .knapsack(weights, profits, &xs, weight, profit)
                .map_err(|e| self.engine(node, e))?;
            self.condition(node, vec![(1, weight)], weight_condition)?;
            return self.condition(node, vec![(1, profit)], profit_condition);
        }
        for (coeffs, condition) in &sums {
            let terms = coeffs
                .iter()
                .map(|&c| i64::from(c))
                .zip(xs.iter().copied())
                .collect();
            self.condition(node, terms, condition)?;
        }
        Ok(())
    }

    /// The knapsack's total weight and profit, new variables from 0 to the most the items
    /// can reach; `None` (two linear conditions instead) when an item may be negative, a
    /// weight or profit is, or a total passes 32 bits.
    fn knapsack_totals(
        &mut self,
        xs: &[VarId],
        weights: &[i32],
        profits: &[i32],
    ) -> Option<[VarId; 2]> {
        let mut most = [0i64; 2];
        for (i, &x) in xs.iter().enumerate() {
            let (low, high) = self.model.initial_bounds(x)?;
            if low < 0 || weights[i] < 0 || profits[i] < 0 {
                return None;
            }
            most[0] += i64::from(weights[i]) * i64::from(high);
            most[1] += i64::from(profits[i]) * i64::from(high);
        }
        let [weight, profit] = most.map(|m| i32::try_from(m).ok());
        Some([
            self.model.new_var(0..=weight?).ok()?,
            self.model.new_var(0..=profit?).ok()?,
        ])
    }

    /// `<cumulative>`: tasks at `<origins>` lasting `<lengths>` and using `<heights>` never
    /// use more than the condition's capacity at once (`(le,c)` or `(lt,c)`); `<ends>`, when
    /// given, are the origins plus the lengths.
    pub(super) fn cumulative(
        &mut self,
        node: Node<'_, '_>,
        args: Option<&Args<'_>>,
    ) -> Result<(), XcspError> {
        let mut lists = Vec::with_capacity(3);
        for name in ["origins", "lengths", "heights"] {
            let text = self.required(node, name, args)?;
            lists.push(self.list_vars(node, &text)?);
        }
        let [starts, durations, heights] = &lists[..] else {
            return Err(self.fault(node, "<cumulative> needs origins, lengths and heights"));
        };
        if durations.len() != starts.len() || heights.len() != starts.len() {
            return Err(self.fault(
                node,
                format!(
                    "{} origins, {} lengths and {} heights",
                    starts.len(),
                    durations.len(),
                    heights.len()
                ),
            ));
        }
        if let Some(ends) = self.child_text(node, "ends", args)? {
            let ends = self.list_vars(node, &ends)?;
            if ends.len() != starts.len() {
                return Err(self.fault(
                    node,
                    format!("{} ends for {} origins", ends.len(), starts.len()),
                ));
            }
            for ((&s, &d), &e) in starts.iter().zip(durations).zip(&ends) {
                self.model
                    .linear(&[(1, s), (1, d), (-1, e)], Relation::Eq, 0)
                    .map_err(|e| self.engine(node, e))?;
            }
        }
        let condition = self.required(node, "condition", args)?;
        let inside = condition
            .trim()
            .trim_start_matches('(')
            .trim_end_matches(')');
        let capacity = match inside.split_once(',').map(|(op, c)| (op.trim(), c.trim())) {
            Some(("le", c)) => self.operands(node, c)?,
            Some(("lt", c)) => match self.operands(node, c)?[..] {
                [Operand::Const(k)] => vec![Operand::Const(k - 1)],
                _ => Vec::new(),
            },
            _ => Vec::new(),
        };
        let [capacity] = capacity[..] else {
            return Err(self.fault(
                node,
                format!(
                    "<cumulative> with condition `{}` is not supported yet (le or lt)",
                    condition.trim()
                ),
            ));
        };
        let capacity = self.operand_var_at(node, capacity)?;
        self.model
            .cumulative(starts, durations, heights, capacity)
            .map_err(|e| self.engine(node, e))?;
        Ok(())
    }
}
