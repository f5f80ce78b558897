//! The cluster examples of the documentation, checked without a cluster: the Kubernetes Job's
//! YAML parses, runs the README's Slurm command, and uses the image the documented build
//! gives. (`scripts/slurm-check.sh` runs the Slurm example itself on a real cluster.)

use std::path::Path;

use yaml_rust2::{Yaml, YamlLoader};

fn read(name: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(name)).unwrap()
}

/// The code blocks of `text` fenced with ```` ```lang ````, in order.
fn blocks(text: &str, lang: &str) -> Vec<String> {
    let fence = format!("```{lang}");
    let mut out = Vec::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        match &mut current {
            None if line.trim_end() == fence => current = Some(String::new()),
            Some(b) if line.starts_with("```") => {
                out.push(std::mem::take(b));
                current = None;
            }
            Some(b) => {
                b.push_str(line);
                b.push('\n');
            }
            None => {}
        }
    }
    out
}

/// The `livingblocks analyze …` command of a script, continuation lines joined, as words.
fn analyze_command(script: &str) -> Vec<String> {
    let joined = script.replace("\\\n", " ");
    let line = joined
        .lines()
        .find(|l| l.trim_start().starts_with("livingblocks analyze"))
        .expect("a livingblocks analyze command");
    line.split_whitespace().map(str::to_string).collect()
}

#[test]
fn the_kubernetes_job_runs_the_slurm_command() {
    let readme = read("README.md");
    let slurm = &blocks(&readme, "bash")[0];
    assert!(slurm.contains("#SBATCH --array"), "{slurm}");
    let cluster = read("docs/cluster.md");
    let yaml = blocks(&cluster, "yaml");
    assert_eq!(yaml.len(), 1);
    let docs = YamlLoader::load_from_str(&yaml[0]).expect("the Job's YAML parses");
    let job = &docs[0];
    assert_eq!(job["kind"].as_str(), Some("Job"));
    let spec = &job["spec"];
    assert_eq!(spec["completionMode"].as_str(), Some("Indexed"));
    let shards = spec["completions"].as_i64().unwrap();
    let container = &spec["template"]["spec"]["containers"][0];
    let cpus = container["resources"]["requests"]["cpu"].as_str().unwrap();
    let args = match &container["args"] {
        Yaml::Array(a) => a[0].as_str().unwrap().to_string(),
        other => panic!("args: {other:?}"),
    };
    // Slurm's variables, as the Job has them.
    let expected: Vec<String> = analyze_command(slurm)
        .into_iter()
        .map(|w| {
            w.replace("${SLURM_ARRAY_TASK_ID}", "$JOB_COMPLETION_INDEX")
                .replace("${SLURM_ARRAY_TASK_COUNT}", &shards.to_string())
                .replace("\"${SLURM_CPUS_PER_TASK}\"", cpus)
                .replace("\"shards/", "\"/out/shards/")
        })
        .collect();
    assert_eq!(analyze_command(&args), expected);
    // The image is the one the documented build command tags.
    let image = container["image"].as_str().unwrap();
    assert!(
        cluster.contains(&format!("docker build -t {image} .")),
        "no build command for {image}"
    );
    let dockerfile = read("Dockerfile");
    assert!(dockerfile.contains("cargo install --locked --path ."));
}

/// docs/outputs.md's loaders, run on two real runs: one of games and a failed file, one of a
/// failed file alone (every count and text column empty). Both libraries give every column
/// the type the map names, and the two runs concatenate.
#[test]
fn the_loaders_give_every_column_its_type_on_every_run() {
    let has_libraries = std::process::Command::new("python3")
        .args(["-c", "import pandas, polars"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_libraries {
        crate::util::skip(
            "python3 with pandas and polars is not installed (pip install pandas polars)",
        );
        return;
    }
    let env = crate::util::TestEnv::new();
    for f in ["Dosaku/079.sgf", "Dosaku/008.sgf"] {
        env.write(f, std::fs::read(crate::util::corpus().join(f)).unwrap());
    }
    env.write("broken.sgf", "no game here");
    let failed = env.dir.path().join("failed");
    std::fs::create_dir(&failed).unwrap();
    std::fs::write(failed.join("broken.sgf"), "no game here").unwrap();
    for (input, out) in [("in", "a"), ("failed", "b")] {
        let o = env.run(&["analyze", input, "--out", out]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let example = blocks(&read("docs/outputs.md"), "python")
        .into_iter()
        .find(|b| b.contains("read_csv"))
        .expect("docs/outputs.md has the loaders");
    let checks = r#"
import os
HERE = os.getcwd()
def load(run, name, how):
    os.chdir(os.path.join(HERE, "..", run))
    try:
        return how(name)
    finally:
        os.chdir(HERE)
PANDAS = {"int": "Int64", "float": "Float64", "text": "string"}
POLARS = {"int": pl.Int64, "float": pl.Float64, "text": pl.String}
for name, columns in DTYPES.items():
    for how in (pandas_table, polars_table):
        a, b = load("a", name, how), load("b", name, how)
        if how is pandas_table:
            both = pd.concat([a, b])
            got = {c: str(t) for c, t in both.dtypes.items()}
            want = {c: PANDAS[k] for c, k in columns.items()}
        else:
            both = pl.concat([a, b])
            got = dict(both.schema)
            want = {c: POLARS[k] for c, k in columns.items()}
        assert got == want, (name, how.__name__, {c: (got.get(c), t) for c, t in want.items() if got.get(c) != t})
assert len(load("a", "games.csv", pandas_table)) == 3
assert load("a", "chains.csv", polars_table)["word"].str.starts_with("w").all()
print("ok")
"#;
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_livingblocks"));
    let path = std::env::join_paths(std::iter::once(bin.parent().unwrap().to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    let o = std::process::Command::new("python3")
        .args(["-c", &format!("{example}{checks}")])
        .current_dir(env.dir.path().join("a"))
        .env("PATH", path)
        .output()
        .unwrap();
    assert!(
        o.status.success() && String::from_utf8_lossy(&o.stdout).trim() == "ok",
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
}
