//! Every command of the README and of the pages of `docs/` runs as written: each `sh` block's
//! lines and each `$ ` line of a `console` block, from a fresh build, in a scratch copy of the
//! checkout's layout, with the status the page gives it (0 unless it says `# exits N`).

use crate::common::installed;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

/// Commands the test does not run, each with why; every entry must still match a documented
/// command, so that the list does not outlive what it excuses.
const NOT_RUN: &[(&str, &str)] = &[
    (
        "cargo test",
        "the test command: this test is part of it",
    ),
    (
        "cargo install --path crates/cli",
        "builds the binary this test runs (CARGO_BIN_EXE_csp), into ~/.cargo/bin",
    ),
    (
        "cargo install pumpkin-checker",
        "installs a peer; .ci/run builds it into target/tools/bin, which is on the PATH here",
    ),
    (
        "sudo apt-get install",
        "installs MiniZinc as root from the network; .ci/run does it",
    ),
    (
        "scripts/build-wheel",
        "builds and installs the wheel; python::the_python_package_passes_its_own_tests_from_the_wheel \
         builds it and installs it in a fresh virtual environment",
    ),
    (
        "pip install",
        "installs the wheel into a Python environment: the Python test above does, in a fresh one",
    ),
];

/// One documented command.
struct Documented {
    page: String,
    line: usize,
    text: String,
    /// The exit status the page gives it.
    status: i32,
}

/// A block of commands that run one after the other in one shell (a `cd` holds for the rest).
struct Block {
    commands: Vec<Documented>,
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The README and every Markdown page of `docs/`, by name.
fn pages() -> Vec<(String, String)> {
    let mut pages = vec![(
        "README.md".to_owned(),
        std::fs::read_to_string(root().join("README.md")).unwrap(),
    )];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    for path in docs {
        let name = format!("docs/{}", path.file_name().unwrap().to_string_lossy());
        pages.push((name, std::fs::read_to_string(path).unwrap()));
    }
    pages
}

/// The status a command's comment gives it: `# exits N`, else 0.
fn expected_status(command: &str) -> i32 {
    command
        .split("# exits ")
        .nth(1)
        .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

/// The blocks of commands of one page.
fn blocks(page: &str, text: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut fence: Option<(String, Vec<Documented>)> = None;
    for (index, raw) in text.lines().enumerate() {
        let line = raw.trim_start();
        if let Some(tag) = line.strip_prefix("```") {
            match fence.take() {
                Some((_, commands)) => blocks.push(Block { commands }),
                None => fence = Some((tag.trim().to_owned(), Vec::new())),
            }
            continue;
        }
        let Some((tag, commands)) = fence.as_mut() else {
            continue;
        };
        let command = match tag.as_str() {
            "sh" if !line.is_empty() && !line.starts_with('#') => line,
            "console" => match line.strip_prefix("$ ") {
                Some(command) => command,
                None => continue,
            },
            _ => continue,
        };
        commands.push(Documented {
            page: page.to_owned(),
            line: index + 1,
            text: command.to_owned(),
            status: expected_status(command),
        });
    }
    blocks.retain(|b| !b.commands.is_empty());
    blocks
}

/// The command as this test runs it: `cargo run` of the CLI or an example becomes the binary
/// that the test build made of it.
fn as_run(command: &str, examples: &Path) -> String {
    if let Some(rest) = command.strip_prefix("cargo run --release -p csp-cli -- ") {
        return format!("csp {rest}");
    }
    if let Some(rest) = command.strip_prefix("cargo run --release --example ") {
        let (name, args) = rest.split_once(' ').unwrap_or((rest, ""));
        let args = args.trim_start_matches("-- ");
        return format!("{} {args}", examples.join(name).display());
    }
    command.to_owned()
}

#[test]
fn every_documented_command_runs_as_written() {
    let csp = PathBuf::from(env!("CARGO_BIN_EXE_csp"));
    let bin = csp.parent().unwrap().to_path_buf();
    let examples = bin.join("examples");
    // The scratch directory holds the checkout's folders as links, so that the pages' paths
    // resolve and the files the commands write land here; HOME is here too, so that
    // `csp minizinc-setup` registers csp for this test's MiniZinc alone.
    let scratch = std::env::temp_dir().join(format!("csp-docs-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    for folder in ["crates", "docs", "examples", "scripts", "tests"] {
        let link = scratch.join(folder);
        if !link.exists() {
            std::os::unix::fs::symlink(root().join(folder).canonicalize().unwrap(), &link).unwrap();
        }
    }
    let tools = root().join("target/tools/bin");
    let path = std::env::join_paths(
        [bin.clone(), tools.clone()]
            .into_iter()
            .chain(std::env::split_paths(&std::env::var_os("PATH").unwrap())),
    )
    .unwrap();
    let minizinc = installed("minizinc");
    let checker = installed("pumpkin-checker") || tools.join("pumpkin-checker").exists();
    let mut excused = vec![false; NOT_RUN.len()];
    let (mut ran, mut skipped) = (0, Vec::new());
    for (name, text) in pages() {
        for block in blocks(&name, &text) {
            let mut script = String::new();
            for command in &block.commands {
                let place = format!("{}:{}", command.page, command.line);
                if let Some(i) = NOT_RUN
                    .iter()
                    .position(|(p, _)| command.text.starts_with(p))
                {
                    excused[i] = true;
                    continue;
                }
                let needs = |program: &str| command.text.contains(program);
                // A .mzn model is compiled by MiniZinc, whichever command takes it.
                let needs_minizinc = needs("minizinc ") || needs(".mzn");
                if (needs_minizinc && !minizinc) || (needs("pumpkin-checker ") && !checker) {
                    skipped.push(format!("{place}: {} (not installed here)", command.text));
                    continue;
                }
                let run = as_run(&command.text, &examples);
                // Each command, then its status against the page's.
                script.push_str(&format!(
                    "{run}\nstatus=$?\nif [ \"$status\" -ne {expected} ]; then \
                     echo \"{place}: exit $status, expected {expected}: {quoted}\" >&2; exit 1; fi\n",
                    expected = command.status,
                    quoted = command.text.replace(['"', '$', '`', '\\'], "'"),
                ));
                ran += 1;
            }
            if script.is_empty() {
                continue;
            }
            let child = Command::new("sh")
                .args(["-c", &script])
                .current_dir(&scratch)
                .env("PATH", &path)
                .env("HOME", &scratch)
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            let out = crate::common::wait_with_watchdog(child, Duration::from_secs(600));
            assert!(
                out.status.success(),
                "{}\n(stdout: {})",
                String::from_utf8_lossy(&out.stderr),
                String::from_utf8_lossy(&out.stdout)
                    .chars()
                    .take(2000)
                    .collect::<String>()
            );
        }
    }
    std::fs::remove_dir_all(&scratch).ok();
    for ((prefix, why), used) in NOT_RUN.iter().zip(excused) {
        assert!(
            used,
            "NOT_RUN excuses `{prefix}` ({why}), which no page has any more"
        );
    }
    for line in &skipped {
        eprintln!("skipped: {line}");
    }
    // The pages have 31 commands to run (2026-11-29); a parser that found none would pass
    // every page. Those skipped for a missing MiniZinc or checker count as found.
    let found = ran + skipped.len();
    assert!(
        found >= 30,
        "only {found} documented commands found ({ran} run)"
    );
}
