//! Says, while the tests are built, which of them will skip on this machine and why: cargo
//! hides what a passing test prints, and a skipped test passes. Under CI those tests fail
//! instead (tests/integration/util.rs, `skip`). Nothing here changes what is built.

use std::path::Path;
use std::process::Command;

fn main() {
    // Only for builds that tests use; a release build says nothing.
    if std::env::var("PROFILE").as_deref() != Ok("debug") {
        return;
    }
    let mut skips = Vec::new();
    if !Path::new("../shared/corpus").is_dir() {
        skips.push("the tests of the shared corpora: ../shared/corpus is absent");
    }
    let python_has = |module: &str| {
        Command::new("python3")
            .args(["-c", &format!("import {module}")])
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if !python_has("sgfmill") {
        skips.push("the sgfmill cross-checks: python3 has no sgfmill (pip install sgfmill)");
    }
    if !python_has("pandas, polars") {
        skips.push(
            "docs/outputs.md's loaders: python3 lacks pandas or polars (pip install pandas polars)",
        );
    }
    for s in skips {
        println!("cargo:warning=cargo test skips {s}");
    }
}
