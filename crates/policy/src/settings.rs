//! `SearchSettings`: the inference, orders and restarts of one search, built from the
//! options a user gave ([`SearchOptions`]) over a row of the defaults.

use crate::error::PolicyError;
use csp::{Inference, Solver, ValueOrder, VarOrder};

/// The search options a user may give, each `None` when not given: the command line's
/// `--inference`, `--var-order`, `--val-order`, `--seed`, `--restarts`, and Python's keywords.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchOptions {
    /// How much to infer after each assignment.
    pub inference: Option<Inference>,
    /// Which variable to branch on next.
    pub var_order: Option<VarOrder>,
    /// In which order to try a variable's values.
    pub val_order: Option<ValueOrder>,
    /// The seed of random values.
    pub seed: Option<u64>,
    /// The scale of Luby restarts.
    pub restarts: Option<u64>,
}

impl SearchOptions {
    /// Whether a variable or a value order was given.
    pub fn orders_given(&self) -> bool {
        self.var_order.is_some() || self.val_order.is_some()
    }

    /// Whether any of the search's options was given (the seed aside, which varies one).
    pub fn any_given(&self) -> bool {
        self.inference.is_some() || self.orders_given() || self.restarts.is_some()
    }

    /// The options that were given, by their command-line names (for the commands whose
    /// other engines take none of them).
    pub fn given_names(&self) -> Vec<&'static str> {
        [
            ("--inference", self.inference.is_some()),
            ("--var-order", self.var_order.is_some()),
            ("--val-order", self.val_order.is_some()),
            ("--seed", self.seed.is_some()),
            ("--restarts", self.restarts.is_some()),
        ]
        .iter()
        .filter(|(_, given)| *given)
        .map(|(name, _)| *name)
        .collect()
    }
}

/// Inference and heuristics for the csp engine.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SearchSettings {
    /// How much is inferred after each assignment.
    pub inference: Inference,
    /// Which variable is branched on next.
    pub var_order: VarOrder,
    /// In which order a variable's values are tried.
    pub value_order: ValueOrder,
    /// The scale of Luby restarts.
    pub restarts: Option<u64>,
}

impl SearchSettings {
    /// The settings asked for, each option not given taken from `defaults`. The seed seeds
    /// random values, asked for or the default's, and is refused unless it seeds something:
    /// those or, where `seed_used_elsewhere`, the front end's own randomness (colour's
    /// TabuCol). A heuristic the chosen search would not follow is refused, not ignored.
    pub fn from_options(
        options: &SearchOptions,
        defaults: SearchSettings,
        seed_used_elsewhere: bool,
    ) -> Result<Self, PolicyError> {
        let random_default = options.val_order.is_none()
            && matches!(defaults.value_order, ValueOrder::Random { .. });
        if options.seed.is_some()
            && !matches!(options.val_order, Some(ValueOrder::Random { .. }))
            && !random_default
            && !seed_used_elsewhere
        {
            return Err(PolicyError::SeedUnused);
        }
        let seed = options.seed.unwrap_or(ValueOrder::DEFAULT_SEED);
        let settings = SearchSettings {
            inference: options.inference.unwrap_or(defaults.inference),
            var_order: options.var_order.unwrap_or(defaults.var_order),
            value_order: match options.val_order {
                Some(order) => order.seeded(seed),
                None if random_default => ValueOrder::Random { seed },
                None => defaults.value_order,
            },
            restarts: options.restarts.or(defaults.restarts),
        };
        if options.var_order.is_some() && !settings.inference.follows_var_order() {
            return Err(PolicyError::VarOrderNotFollowed(settings.inference));
        }
        if let Some(order) = options.val_order {
            if !settings.inference.follows_value_order(settings.value_order) {
                return Err(PolicyError::ValOrderNotFollowed {
                    order: order.name(),
                    inference: settings.inference,
                });
            }
        }
        Ok(settings)
    }

    /// A solver for `model` with these settings.
    pub fn solver<'m>(&self, model: &'m csp::Model) -> Solver<'m> {
        Solver::new(model)
            .inference(self.inference)
            .var_order(self.var_order)
            .value_order(self.value_order)
            .restarts(self.restarts)
    }

    /// Refuses restarts for a search that looks for more than one solution, where the engine
    /// would not apply them (a restarted search would meet its solutions again); `instead`
    /// says what to do.
    pub fn check_restarts(&self, single_solution: bool, instead: &str) -> Result<(), PolicyError> {
        if self.restarts.is_some() && !single_solution {
            return Err(PolicyError::RestartsForMany {
                instead: instead.to_owned(),
            });
        }
        Ok(())
    }

    /// What the user should know about these settings before the run: a heuristic that
    /// cannot do anything in this mode, so that it is not taken for one that does.
    pub fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        if self.inference == Inference::None && self.var_order == VarOrder::MinDomain {
            notes.push(
                "note: under --inference none no domain shrinks, so --var-order mrv picks \
                 variables in input order; use fc or mac to see it choose"
                    .to_owned(),
            );
        }
        notes
    }

    /// The settings in words: `inference mac, variable order dom-wdeg, value order asc`.
    pub fn describe(&self) -> String {
        format!(
            "inference {}, variable order {}, value order {}",
            self.inference, self.var_order, self.value_order
        )
    }
}
