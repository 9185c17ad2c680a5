//! `csp merge`: the results of a split's cubes made into the model's answer.

use crate::args::MergeArgs;
use crate::exit_code::Status;
use csp_cubes::{merge, CubeResult, MergeError};

/// Runs `csp merge`.
pub fn run(args: &MergeArgs) -> Status {
    let mut results = Vec::new();
    let mut origins = Vec::new();
    let mut unreadable = 0;
    for file in &args.files {
        let read = std::fs::read_to_string(file)
            .map_err(|e| format!("cannot read it: {e}"))
            .and_then(|text| CubeResult::parse(&text));
        match read {
            Ok(result) => {
                results.push(result);
                origins.push(file);
            }
            Err(message) => {
                // Its cube is named below as missing, once the split's size is known.
                eprintln!("csp merge: {}: {message}", file.display());
                unreadable += 1;
            }
        }
    }
    let merged = match merge(&results) {
        Ok(merged) => merged,
        Err(MergeError::Empty) => {
            eprintln!(
                "csp merge: no result among the {} files given",
                args.files.len()
            );
            return Status::BadInput;
        }
        Err(MergeError::Mismatch { index, what }) => {
            eprintln!(
                "csp merge: {}: of another split than {}: {what}",
                origins[index].display(),
                origins[0].display()
            );
            return Status::BadInput;
        }
    };
    let complete = merged.complete();
    if args.json {
        let json = serde_json::json!({
            "task": merged.task,
            "complete": complete,
            "answer": merged.summary(),
            "solutions": merged.solutions,
            "objective": merged.best,
            "output": merged.output,
            "cubes": merged.of,
            "missing": merged.missing,
            "incomplete": merged.incomplete,
        });
        println!("{json}");
    } else {
        println!("{}", merged.summary());
        // A count's answer is its number; one of its solutions would read as the answer.
        let output = merged
            .output
            .as_ref()
            .filter(|_| merged.task != csp_cubes::Task::Count);
        if let Some(output) = output {
            print!("{output}");
            if !output.ends_with('\n') {
                println!();
            }
        }
        let found = merged.of - merged.missing.len();
        println!("cubes: {found} of {} with a result", merged.of);
        if !merged.missing.is_empty() {
            println!("missing: {}", list(&merged.missing));
        }
        if !merged.incomplete.is_empty() {
            println!("incomplete: {}", list(&merged.incomplete));
        }
    }
    if unreadable > 0 && !complete {
        eprintln!("csp merge: {unreadable} file(s) held no result");
    }
    if complete {
        Status::Success
    } else {
        Status::Limit
    }
}

/// Cube indices as `3, 7, 12` (the first 50, then how many more).
fn list(cubes: &[usize]) -> String {
    let mut text: Vec<String> = cubes.iter().take(50).map(usize::to_string).collect();
    if cubes.len() > 50 {
        text.push(format!("and {} more", cubes.len() - 50));
    }
    text.join(", ")
}
