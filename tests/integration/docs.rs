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

/// docs/outputs.md's pandas example, run on real tables with a failed file among them: the
/// counts come out as integers, the words and shapes as the text written.
#[test]
fn the_pandas_example_reads_the_tables_with_the_right_types() {
    let has_pandas = std::process::Command::new("python3")
        .args(["-c", "import pandas"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_pandas {
        crate::util::skip("python3 with pandas is not installed (pip install pandas)");
        return;
    }
    let env = crate::util::TestEnv::new();
    for f in ["Dosaku/079.sgf", "Dosaku/008.sgf"] {
        env.write(f, std::fs::read(crate::util::corpus().join(f)).unwrap());
    }
    env.write("broken.sgf", "no game here");
    env.analyze("out", 1);
    let example = blocks(&read("docs/outputs.md"), "python")
        .into_iter()
        .find(|b| b.contains("read_csv"))
        .expect("docs/outputs.md has the pandas example");
    let checks = r#"
from pandas.api.types import is_integer_dtype, is_string_dtype
assert len(games) == 3, len(games)
for column in ["stones_b", "moves", "blocks_w", "benson_blocks_b"]:
    assert is_integer_dtype(games[column]), (column, games[column].dtype)
assert games.stones_b.isna().sum() == 1
for column in ["stones", "liberties", "benson"]:
    assert is_integer_dtype(blocks[column]), (column, blocks[column].dtype)
assert is_string_dtype(chains.word) and chains.word.str.startswith("w").all(), chains.word
assert "w00" in set(chains.word)
assert is_string_dtype(eyes["eye_shape"]) and (eyes["eye_shape"] == "0-0-0-2").any(), eyes["eye_shape"]
print("ok")
"#;
    let o = std::process::Command::new("python3")
        .args(["-c", &format!("{example}{checks}")])
        .current_dir(env.dir.path().join("out"))
        .output()
        .unwrap();
    assert!(
        o.status.success() && String::from_utf8_lossy(&o.stdout).trim() == "ok",
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}
