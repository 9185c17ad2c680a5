//! Counted nouns and articles before numbers, so that messages read "1 colour", "2 colours"
//! and "an 8-colouring" rather than "1 colours" and "a 8-colouring".

/// `n` and the noun, singular for 1: `count(1, "colour", "colours")` is "1 colour".
pub fn count(n: impl Into<u64>, singular: &str, plural: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { singular } else { plural })
}

/// The line for solutions that failed the check every answer gets before it is printed:
/// `command` names the run, `against` what they were checked against.
pub fn withheld(command: &str, wrong: u64, against: &str) -> String {
    format!(
        "{command}: internal error: {} failed the check against {against} and {} withheld \
         (a bug in csp: please report it)",
        count(wrong, "solution", "solutions"),
        if wrong == 1 { "was" } else { "were" }
    )
}

/// The article for a number said aloud: "an" before 8, 11, 18, 80-89, 800-899, 11,000 and
/// their kin, whose names start with a vowel sound; "a" before the rest.
pub fn article(n: u64) -> &'static str {
    let digits = n.to_string();
    let eleven_or_eighteen =
        digits.len() % 3 == 2 && (digits.starts_with("11") || digits.starts_with("18"));
    if digits.starts_with('8') || eleven_or_eighteen {
        "an"
    } else {
        "a"
    }
}

/// "a 5-colouring", "an 8-colouring", "an 11-colouring".
pub fn a_colouring(k: impl Into<u64>) -> String {
    let k = k.into();
    format!("{} {k}-colouring", article(k))
}

#[cfg(test)]
#[path = "tests/wording.rs"]
mod tests;
