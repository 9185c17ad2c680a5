//! The README and the pages of `docs/` against the project: the layout table matches the tree,
//! the library page's examples table names every example, and neither they nor `--help`
//! miscount a noun or pick the wrong article before a number ("1 colours", "a 11-colouring").

use crate::common::{csp, stdout};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn readme() -> String {
    std::fs::read_to_string(root().join("README.md")).unwrap()
}

/// Each page of `docs/` (Markdown), by name.
fn doc_pages() -> Vec<(String, String)> {
    let mut pages: Vec<(String, String)> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .map(|p| {
            let name = format!("docs/{}", p.file_name().unwrap().to_string_lossy());
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    pages.sort();
    pages
}

/// The first cells of the table under `heading`, each split into its backquoted paths.
fn table_paths(text: &str, heading: &str) -> Vec<String> {
    let section = text.split(heading).nth(1).unwrap();
    section
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .flat_map(|row| {
            let cell = row.split('|').nth(1).unwrap();
            cell.split('`')
                .skip(1)
                .step_by(2)
                .map(|p| p.trim_end_matches('/').to_owned())
                .collect::<Vec<_>>()
        })
        .collect()
}

/// Whether `pattern` (with at most one `*` standing for one path component) names something.
fn exists(pattern: &str) -> bool {
    match pattern.split_once('*') {
        None => root().join(pattern).exists(),
        Some((before, after)) => std::fs::read_dir(root().join(before))
            .unwrap()
            .any(|entry| {
                entry
                    .unwrap()
                    .path()
                    .join(after.trim_start_matches('/'))
                    .exists()
            }),
    }
}

#[test]
fn the_layout_table_matches_the_tree() {
    let text = readme();
    let listed = table_paths(&text, "## Layout");
    for path in &listed {
        assert!(
            exists(path),
            "the layout table lists {path}, which does not exist"
        );
    }
    // Every crate, and everything at the top level but build output and licences, is listed.
    let mut present: Vec<String> = std::fs::read_dir(root().join("crates"))
        .unwrap()
        .map(|e| format!("crates/{}", e.unwrap().file_name().to_string_lossy()))
        .collect();
    for entry in std::fs::read_dir(root()).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name().to_string_lossy().into_owned();
        // Hidden directories are tools' (.git, .cargo), but for .ci, listed below.
        let skipped = ["target", "crates"];
        if entry.path().is_dir() && !name.starts_with('.') && !skipped.contains(&name.as_str()) {
            present.push(name);
        }
    }
    present.push(".ci/run".to_owned());
    for path in present {
        assert!(
            listed
                .iter()
                .any(|l| *l == path || l.starts_with(&format!("{path}/"))),
            "{path} is missing from the README's layout table"
        );
    }
    // The CLI keeps one file per command, as the table says.
    for command in ["queens", "sudoku", "color", "compare"] {
        assert!(root()
            .join(format!("crates/cli/src/commands/{command}.rs"))
            .exists());
    }
}

#[test]
fn the_examples_table_names_every_example() {
    let text = std::fs::read_to_string(root().join("docs/library.md")).unwrap();
    let section = text.split("| example | what it prints |").nth(1).unwrap();
    let named: Vec<&str> = section
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with('|'))
        .filter_map(|l| l.split('`').nth(1))
        .collect();
    for entry in std::fs::read_dir(root().join("examples")).unwrap() {
        let file = entry.unwrap().file_name().to_string_lossy().into_owned();
        // The Rust examples; examples/minizinc holds MiniZinc models.
        let Some(name) = file.strip_suffix(".rs") else {
            continue;
        };
        assert!(
            named.contains(&name),
            "example {name} is not in docs/library.md's table"
        );
    }
}

/// Grammar slips of counted nouns: "1" before a plural, "a" before a number read with a
/// vowel sound (8, 11, 18, 80-89) and "an" before one read with a consonant.
fn slips(text: &str) -> Vec<String> {
    let words: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == '(' || c == '"' || c == '`')
        .filter(|w| !w.is_empty())
        .collect();
    let mut found = Vec::new();
    let plurals = [
        "colours",
        "colors",
        "puzzles",
        "solutions",
        "vertices",
        "edges",
        "nodes",
        "boards",
        "threads",
        "seconds",
        "lines",
        "errors",
        "queens",
    ];
    for (b_index, pair) in words.windows(2).enumerate() {
        let (a, b) = (pair[0], pair[1]);
        let following = &words[1..];
        let b_word = b.trim_end_matches(|c: char| !c.is_alphanumeric());
        if a == "1" && plurals.contains(&b_word) {
            found.push(format!("{a} {b_word}"));
        }
        // One word between: "1 sudoku puzzles", "1 repeated edges".
        if let (true, Some(c)) = (a == "1", following.get(b_index + 1)) {
            let c_word = c.trim_end_matches(|c: char| !c.is_alphanumeric());
            if plurals.contains(&c_word)
                && !plurals.contains(&b_word)
                && b_word.chars().all(char::is_alphabetic)
            {
                found.push(format!("{a} {b_word} {c_word}"));
            }
        }
        let number: String = b
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == ',')
            .filter(char::is_ascii_digit)
            .collect();
        if !number.is_empty() {
            // How the number is read starts with its leading group of three digits: "eight",
            // "eleven", "eighteen", "eighty-", "eight hundred" take "an".
            let lead = match number.len() % 3 {
                0 => &number[..3],
                r => &number[..r],
            };
            let vowel = lead == "8"
                || lead == "11"
                || lead == "18"
                || (lead.len() >= 2 && lead.starts_with('8'));
            if (a == "a" || a == "A") && vowel {
                found.push(format!("{a} {b}"));
            }
            if (a == "an" || a == "An") && !vowel {
                found.push(format!("{a} {b}"));
            }
        }
    }
    found
}

#[test]
fn the_readme_and_the_help_count_their_nouns_right() {
    // The check itself catches what it is for.
    assert_eq!(
        slips("with 1 colours, a 11-colouring, an 9-colouring, 1 sudoku puzzles"),
        [
            "1 colours",
            "a 11-colouring,",
            "an 9-colouring,",
            "1 sudoku puzzles"
        ]
    );
    assert!(slips("an 8-colouring, a 9-colouring, 1 colour, an 11x11 board, a 1,000").is_empty());
    assert_eq!(slips("an 80, an 8,000, a 800,000"), ["a 800,000"]);
    let mut texts = vec![("README.md".to_owned(), readme())];
    texts.extend(doc_pages());
    for command in ["queens", "sudoku", "color", "compare"] {
        let help = stdout(&csp(&[command, "--help"]));
        assert!(help.contains("Usage"), "{command} --help: {help}");
        texts.push((format!("csp {command} --help"), help));
    }
    for (name, text) in texts {
        assert_eq!(slips(&text), Vec::<String>::new(), "in {name}");
    }
}

#[test]
fn every_link_to_a_page_or_file_of_the_project_leads_somewhere() {
    // [text](target) links between the README and the pages: the file must exist, and a
    // #fragment must be a heading of it (GitHub's anchors: lower case, spaces as dashes,
    // punctuation dropped).
    let mut texts = vec![("README.md".to_owned(), readme())];
    texts.extend(doc_pages());
    let anchors = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| l.starts_with('#'))
            .map(|l| {
                l.trim_start_matches('#')
                    .trim()
                    .to_lowercase()
                    .chars()
                    .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
                    .map(|c| if c == ' ' { '-' } else { c })
                    .collect()
            })
            .collect()
    };
    for (name, text) in &texts {
        let base = root().join(name);
        let dir = base.parent().unwrap();
        for link in text.split("](").skip(1) {
            let Some(target) = link.split(')').next() else {
                continue;
            };
            if target.starts_with("http") {
                continue;
            }
            let (file, fragment) = match target.split_once('#') {
                Some((file, fragment)) => (file, Some(fragment)),
                None => (target, None),
            };
            let path = if file.is_empty() {
                base.clone()
            } else {
                dir.join(file)
            };
            assert!(path.exists(), "{name}: the link to {target} leads nowhere");
            if let Some(fragment) = fragment {
                let page = std::fs::read_to_string(&path).unwrap();
                assert!(
                    anchors(&page).iter().any(|a| a == fragment),
                    "{name}: no heading {fragment} in {}",
                    path.display()
                );
            }
        }
    }
}
