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
    // Where scripts/get-net.sh puts the nets (engine::nn::nets_dir, which build.rs cannot call).
    let nets = std::env::var_os("LIVINGBLOCKS_NETS")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(&std::env::var_os("HOME").unwrap_or_default())
                .join(".cache/livingblocks/nets")
        });
    let net_files = [
        "b10c384h6nbttflrs.bin.gz",
        "g170e-b15c192-s1672170752-d466197061.bin.gz",
    ];
    if !net_files.iter().all(|f| nets.join(f).is_file()) {
        skips.push("the tests of --net against KataGo's nets: scripts/get-net.sh fetches them");
    }
    // Cargo shows these again at every build until the script runs again, which it does
    // when a file of the package changes: the warning says how to refresh it.
    for s in skips {
        println!(
            "cargo:warning=cargo test skips {s} (as of this script's last run: `touch build.rs` \
             after installing what is missing)"
        );
    }
}
