//! A nurse roster: each nurse works a day shift, a night shift or is off each day. Every day
//! needs so many nurses on days and so many on nights, every nurse works enough nights, and
//! each nurse's sequence of shifts follows the ward's rules, one `regular` constraint per
//! nurse over an automaton:
//! - at most three working days in a row;
//! - after a night shift, another night or a day off (no day shift straight after a night).
//!
//! The default instance is the MiniZinc handbook's size (7 nurses, 10 days, 3 on days and 2
//! on nights each day, at least 2 nights each); `--nurses N --days D` change it.

use csp_toolkit::csp::{Inference, Model, ModelError, Solver, VarId, VarOrder};

const DAY: i32 = 1;
const NIGHT: i32 = 2;
const OFF: i32 = 3;

/// The rules as an automaton over the shifts 1 (day), 2 (night), 3 (off); states count the
/// working days in a row and remember a night: 1 rested, 2 one day, 3 one night, 4 two with
/// a day last, 5 two with a night last, 6 three (must rest). Row `q` holds the next states
/// on day, night and off; 0 is no way on.
const RULES: [i64; 18] = [
    2, 3, 1, // 1: rested
    4, 5, 1, // 2: one day
    0, 5, 1, // 3: one night: no day shift next
    6, 6, 1, // 4: two, a day last
    0, 6, 1, // 5: two, a night last
    0, 0, 1, // 6: three: rest
];

/// The size of a roster and what each day needs.
#[derive(Copy, Clone, Debug)]
struct Ward {
    nurses: usize,
    days: usize,
    on_days: i32,
    on_nights: i32,
    least_nights: i32,
}

/// The roster model: one variable per nurse and day, nurse by nurse.
fn model(ward: Ward) -> Result<(Model, Vec<VarId>), ModelError> {
    let mut model = Model::new();
    let mut shift = Vec::with_capacity(ward.nurses * ward.days);
    for n in 0..ward.nurses {
        for d in 0..ward.days {
            shift.push(model.new_named_var(format!("nurse {} day {}", n + 1, d + 1), DAY..=OFF)?);
        }
    }
    let fixed = |model: &mut Model, v: i32| model.new_var(v..=v);
    let (day, night) = (fixed(&mut model, DAY)?, fixed(&mut model, NIGHT)?);
    for d in 0..ward.days {
        let column: Vec<VarId> = (0..ward.nurses).map(|n| shift[n * ward.days + d]).collect();
        let on_days = fixed(&mut model, ward.on_days)?;
        let on_nights = fixed(&mut model, ward.on_nights)?;
        model.count(&column, day, on_days)?;
        model.count(&column, night, on_nights)?;
    }
    for n in 0..ward.nurses {
        let row = &shift[n * ward.days..(n + 1) * ward.days];
        model.regular(row, 6, 3, &RULES, 1, &[1, 2, 3, 4, 5, 6])?;
        let nights = model.new_var(ward.least_nights..=ward.days as i32)?;
        model.count(row, night, nights)?;
    }
    Ok((model, shift))
}

/// Whether `roster` (nurse by nurse) keeps every rule, checked directly rather than through
/// the automaton.
fn keeps_the_rules(ward: Ward, roster: &[i32]) -> bool {
    let row = |n: usize| &roster[n * ward.days..(n + 1) * ward.days];
    let cover = (0..ward.days).all(|d| {
        let on = |s: i32| (0..ward.nurses).filter(|&n| row(n)[d] == s).count() as i32;
        on(DAY) == ward.on_days && on(NIGHT) == ward.on_nights
    });
    let each = (0..ward.nurses).all(|n| {
        let r = row(n);
        let nights = r.iter().filter(|&&s| s == NIGHT).count() as i32;
        let no_day_after_night = r.windows(2).all(|w| !(w[0] == NIGHT && w[1] == DAY));
        let at_most_three = r.windows(4).all(|w| w.contains(&OFF));
        nights >= ward.least_nights && no_day_after_night && at_most_three
    });
    cover && each
}

fn main() -> Result<(), ModelError> {
    let args: Vec<String> = std::env::args().collect();
    let arg = |name: &str, default: usize| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let ward = Ward {
        nurses: arg("--nurses", 7),
        days: arg("--days", 10),
        on_days: 3,
        on_nights: 2,
        least_nights: 2,
    };
    let (model, shift) = model(ward)?;
    let solver = Solver::new(&model)
        .inference(Inference::Mac)
        .var_order(VarOrder::DomWdeg);
    let Some(roster) = solver.solutions().next() else {
        println!("no roster keeps every rule");
        return Ok(());
    };
    let roster: Vec<i32> = shift.iter().map(|v| roster[v.index()]).collect();
    assert!(keeps_the_rules(ward, &roster), "a roster breaks a rule");
    for n in 0..ward.nurses {
        let line: String = roster[n * ward.days..(n + 1) * ward.days]
            .iter()
            .map(|&s| match s {
                DAY => " d",
                NIGHT => " n",
                _ => " -",
            })
            .collect();
        println!("nurse {}:{line}", n + 1);
    }
    Ok(())
}

/// Every roster of `ward`, counted by trying every assignment of shifts.
#[cfg(test)]
fn brute_force_count(ward: Ward) -> usize {
    let cells = ward.nurses * ward.days;
    let mut roster = vec![DAY; cells];
    let mut count = 0;
    loop {
        count += usize::from(keeps_the_rules(ward, &roster));
        // The next assignment, as a number in base 3.
        let mut k = 0;
        while k < cells && roster[k] == OFF {
            roster[k] = DAY;
            k += 1;
        }
        if k == cells {
            return count;
        }
        roster[k] += 1;
    }
}

#[test]
fn small_wards_have_the_brute_force_number_of_rosters() {
    let wards = [
        (2, 4, 1, 1, 1),
        (3, 4, 1, 1, 1),
        (3, 5, 1, 1, 1),
        (2, 6, 1, 0, 0),
    ];
    for (nurses, days, on_days, on_nights, least_nights) in wards {
        let ward = Ward {
            nurses,
            days,
            on_days,
            on_nights,
            least_nights,
        };
        let (model, _) = model(ward).unwrap();
        let count = Solver::new(&model).inference(Inference::Mac).count();
        assert_eq!(count as usize, brute_force_count(ward), "{ward:?}");
    }
}

#[test]
fn the_handbook_sized_ward_gets_a_roster_that_keeps_every_rule() {
    let ward = Ward {
        nurses: 7,
        days: 10,
        on_days: 3,
        on_nights: 2,
        least_nights: 2,
    };
    let (model, shift) = model(ward).unwrap();
    let solution = Solver::new(&model)
        .inference(Inference::Mac)
        .var_order(VarOrder::DomWdeg)
        .solutions()
        .next()
        .expect("a roster");
    let roster: Vec<i32> = shift.iter().map(|v| solution[v.index()]).collect();
    assert!(keeps_the_rules(ward, &roster));
}
