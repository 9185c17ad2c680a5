//! `Config`: one named configuration of a comparison, parsed from `fc+mrv+lcv`.

use csp::{Inference, ValueOrder, VarOrder};
use csp_policy::Defaults;
use csp_policy::SearchSettings;

/// A configuration and its name: the mode, then `+` and each non-default heuristic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    pub name: String,
    pub search: SearchSettings,
}

/// Parses `mode[+heuristic...]`.
pub fn parse(text: &str, seed: u64) -> Result<Config, String> {
    let mut parts = text.trim().split('+').map(str::trim);
    let mode = parts.next().unwrap_or("");
    let inference = match mode.parse::<Inference>() {
        Ok(inference) => inference,
        Err(_) => {
            return Err(format!(
                "configuration '{text}': '{mode}' is not a mode (none, fc, mac or lcg)"
            ))
        }
    };
    let mut search = Defaults::Compare(inference).settings();
    let mut name = mode.to_owned();
    // Each kind of heuristic may be named once: `mac+lcv+desc` names two value orders.
    let (mut var_order, mut value_order): (Option<&str>, Option<&str>) = (None, None);
    for heuristic in parts {
        // The names are the ones --var-order and --val-order take.
        let (slot, kind) = if let Ok(order) = heuristic.parse::<VarOrder>() {
            search.var_order = order;
            (&mut var_order, "variable orders")
        } else if let Ok(order) = heuristic.parse::<ValueOrder>() {
            search.value_order = order.seeded(seed);
            (&mut value_order, "value orders")
        } else {
            return Err(format!(
                "configuration '{text}': '{heuristic}' is not a heuristic \
                 (mrv, dom-deg, dom-wdeg, desc, lcv, random)"
            ));
        };
        if let Some(earlier) = slot.replace(heuristic) {
            return Err(format!(
                "configuration '{text}' names two {kind}, '{earlier}' and '{heuristic}'"
            ));
        }
        if heuristic != "input" && heuristic != "asc" {
            name.push('+');
            name.push_str(heuristic);
        }
    }
    // A heuristic the mode would not follow would make two configurations that differ in
    // name only.
    let unfollowed = [var_order, value_order]
        .into_iter()
        .flatten()
        .find(|h| !follows(inference, h, seed));
    if let Some(heuristic) = unfollowed {
        return Err(format!(
            "configuration '{text}': {mode} does not follow '{heuristic}' (it branches on the \
             variables most active in recent conflicts)"
        ));
    }
    Ok(Config { name, search })
}

/// Whether a search under `inference` follows `heuristic` (a name --var-order or --val-order
/// takes); a name that is neither is left for [`parse`] to refuse.
fn follows(inference: Inference, heuristic: &str, seed: u64) -> bool {
    if heuristic.parse::<VarOrder>().is_ok() {
        return inference.follows_var_order();
    }
    match heuristic.parse::<ValueOrder>() {
        Ok(order) => inference.follows_value_order(order.seeded(seed)),
        Err(_) => true,
    }
}

/// The configurations of a comparison: the three modes, plus one per listed heuristic for each
/// mode (`with`), or exactly the listed ones (`configs`).
pub fn configurations(
    with: Option<&str>,
    configs: Option<&str>,
    seed: u64,
) -> Result<Vec<Config>, String> {
    let list: Vec<String> = match (configs, with) {
        (Some(list), _) => list.split(',').map(str::to_owned).collect(),
        (None, Some(heuristics)) => {
            let heuristics: Vec<&str> = heuristics.split(',').map(str::trim).collect();
            Inference::CHOICES
                .iter()
                .flat_map(|&(mode, _)| {
                    // Each mode with the heuristics it follows.
                    let inference = mode.parse::<Inference>();
                    let followed = heuristics
                        .iter()
                        .filter(move |h| inference.as_ref().map_or(true, |&i| follows(i, h, seed)));
                    std::iter::once((*mode).to_owned())
                        .chain(followed.map(move |h| format!("{mode}+{h}")))
                })
                .collect()
        }
        (None, None) => Inference::CHOICES
            .iter()
            .map(|&(mode, _)| mode.to_owned())
            .collect(),
    };
    let configs = list
        .iter()
        .filter(|t| !t.trim().is_empty())
        .map(|t| parse(t, seed))
        .collect::<Result<Vec<_>, _>>()?;
    if configs.is_empty() {
        return Err("no configuration to compare".into());
    }
    Ok(configs)
}
