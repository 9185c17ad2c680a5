//! Headless Chromium for the page and plot tests. Where it is not installed the tests say
//! that they skipped the browser part, on stderr, visibly (`.ci/run` installs it).

use std::path::Path;
use std::process::Command;

fn chromium() -> Option<&'static str> {
    ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|name| {
            Command::new(name)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
}

fn browser(profile: &Path) -> Option<Command> {
    let Some(name) = chromium() else {
        eprintln!("SKIPPED: the headless-browser checks need chromium, which is not installed here (.ci/run installs it)");
        return None;
    };
    let mut command = Command::new(name);
    command.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-quic",
        "--no-first-run",
    ]);
    command.arg(format!("--user-data-dir={}", profile.display()));
    Some(command)
}

/// Opens `page#selftest`, lets its script step the replay, and returns what it reported;
/// `None` only when there is no browser (a page that reports nothing fails the test).
pub fn self_test(page: &Path) -> Option<serde_json::Value> {
    let profile = page.with_extension("profile");
    let mut command = browser(&profile)?;
    let output = command
        .args(["--virtual-time-budget=5000", "--dump-dom"])
        .arg(format!("file://{}#selftest", page.display()))
        .output()
        .unwrap();
    let dom = String::from_utf8_lossy(&output.stdout);
    let report = dom
        .find("<pre id=\"selftest\"")
        .map(|start| &dom[start..])
        .and_then(|body| Some(&body[body.find('>')? + 1..body.find("</pre>")?]))
        .unwrap_or_else(|| {
            panic!(
                "the page reported nothing; chromium said: {}",
                String::from_utf8_lossy(&output.stderr)
            )
        });
    let json = report.replace("&quot;", "\"").replace("&amp;", "&");
    Some(serde_json::from_str(&json).unwrap_or_else(|e| panic!("self-test report {json}: {e}")))
}

/// Takes a screenshot of `file` into `png`, if a browser is there; checks it was written.
pub fn screenshot_if_available(file: &Path, png: &Path, (width, height): (u32, u32)) {
    let profile = png.with_extension("profile");
    let Some(mut command) = browser(&profile) else {
        return;
    };
    let status = command
        .arg(format!("--window-size={width},{height}"))
        .arg("--virtual-time-budget=3000")
        .arg(format!("--screenshot={}", png.display()))
        .arg(format!("file://{}#step=40", file.display()))
        .output()
        .unwrap();
    assert!(
        status.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&status.stderr)
    );
    let size = std::fs::metadata(png).map(|m| m.len()).unwrap_or(0);
    assert!(size > 10_000, "the screenshot is {size} bytes");
}
