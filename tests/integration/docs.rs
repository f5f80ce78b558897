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
        .args(["-c", "import pandas, polars, zstandard"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_libraries {
        crate::util::skip(
            "python3 with pandas, polars and zstandard is not installed \
             (pip install pandas polars zstandard)",
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
    for (input, out, more) in [
        ("in", "a", None),
        ("failed", "b", None),
        ("in", "c", Some("--compress")),
    ] {
        let mut args = vec!["analyze", input, "--out", out];
        args.extend(more);
        let o = env.run(&args);
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
        # The compressed tables read as the plain ones.
        z = load("c", name + ".zst", how)
        assert z.equals(a), (name, how.__name__, "compressed")
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

/// docs/cli.md's synopsis names every option of every command, as `--help` lists them.
#[test]
fn the_cli_synopsis_names_every_option() {
    let cli = read("docs/cli.md");
    let synopsis = cli
        .split("## Synopsis")
        .nth(1)
        .and_then(|s| s.split("```").nth(1))
        .expect("docs/cli.md has a synopsis under ## Synopsis");
    let env = crate::util::TestEnv::new();
    for command in ["analyze", "merge", "report", "show", "generate"] {
        // The command's lines: its own, and the indented ones that continue it.
        let mut lines = synopsis
            .lines()
            .skip_while(|l| !l.starts_with(&format!("livingblocks {command} ")));
        let mut usage = lines.next().unwrap_or_default().to_string();
        for l in lines.take_while(|l| l.starts_with(' ')) {
            usage += l;
        }
        assert!(
            !usage.is_empty(),
            "no livingblocks {command} in the synopsis"
        );
        let words: Vec<&str> = usage
            .split(|c: char| c.is_whitespace() || "[]|".contains(c))
            .collect();
        let help = String::from_utf8(env.run(&[command, "--help"]).stdout).unwrap();
        for line in help
            .lines()
            .map(str::trim_start)
            .filter(|l| l.starts_with('-'))
        {
            let names: Vec<&str> = line
                .split_whitespace()
                .take_while(|w| w.starts_with('-'))
                .map(|w| w.trim_end_matches(','))
                // Not a list's bullet (`- counted: …`), not the help itself.
                .filter(|w| w.len() > 1 && !["-h", "--help"].contains(w))
                .collect();
            if names.is_empty() {
                continue;
            }
            assert!(
                names.iter().any(|n| words.contains(n)),
                "docs/cli.md's synopsis of {command} lacks {names:?}: {usage}"
            );
        }
    }
}

/// Every command line given in the README, the docs, `--help` and the man page keeps a `!`
/// in single quotes: an interactive bash expands a bare `!` (or one in double quotes) from
/// its history, and `livingblocks show games.zip!a/b.sgf` fails there.
#[test]
fn every_bang_in_a_documented_command_is_quoted() {
    let env = crate::util::TestEnv::new();
    let mut texts: Vec<(String, String)> = vec![("README.md".into(), read("README.md"))];
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs");
    for e in walkdir::WalkDir::new(&docs).sort_by_file_name() {
        let e = e.unwrap();
        if e.path().extension().is_some_and(|x| x == "md") {
            let text = std::fs::read_to_string(e.path()).unwrap();
            texts.push((e.path().display().to_string(), text));
        }
    }
    for command in ["analyze", "merge", "report", "show", "generate"] {
        let o = env.run(&[command, "--help"]);
        texts.push((
            format!("{command} --help"),
            String::from_utf8(o.stdout).unwrap(),
        ));
    }
    let man = env.run(&["generate", "man"]);
    texts.push((
        "the man page".into(),
        String::from_utf8(man.stdout).unwrap(),
    ));
    let mut commands = 0;
    for (name, text) in &texts {
        for (i, _) in text.match_indices("livingblocks ") {
            // The command: to the end of its inline code, its line or a comment.
            let rest = &text[i..];
            let end = rest.find(['`', '\n', '#']).unwrap_or(rest.len());
            let command = &rest[..end];
            if !command.contains('!') {
                continue;
            }
            commands += 1;
            let mut quoted = false;
            for c in command.chars() {
                match c {
                    '\'' => quoted = !quoted,
                    '!' => assert!(quoted, "{name}: a bare ! in {command:?}"),
                    _ => {}
                }
            }
        }
    }
    // show's example, in its help, in the man page, in README.md and docs/outputs.md.
    assert!(commands >= 4, "{commands} commands with a !");
}

/// Every `cargo test --test integration NAME` the docs give runs the tests it names: NAME
/// matches some test, and where every test it matches is marked ignored, the command asks
/// for ignored tests (else cargo says "ignored" and runs nothing).
#[test]
fn documented_test_commands_run_what_they_name() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // Every test of this binary, by its full name, and whether it is marked ignored.
    let mut tests: Vec<(String, bool)> = Vec::new();
    for e in std::fs::read_dir(root.join("tests/integration")).unwrap() {
        let path = e.unwrap().path();
        let module = path.file_stem().unwrap().to_string_lossy().into_owned();
        let (mut test, mut ignored) = (false, false);
        for line in std::fs::read_to_string(&path).unwrap().lines() {
            let line = line.trim();
            test |= line == "#[test]";
            ignored |= line.starts_with("#[ignore");
            if let Some(rest) = line.strip_prefix("fn ") {
                if test {
                    let name = rest.split('(').next().unwrap();
                    tests.push((format!("{module}::{name}"), ignored));
                }
                (test, ignored) = (false, false);
            }
        }
    }
    assert!(tests.iter().filter(|t| t.1).count() >= 3, "{tests:?}");
    let mut docs = vec![root.join("README.md")];
    for e in walkdir::WalkDir::new(root.join("docs")).sort_by_file_name() {
        let e = e.unwrap();
        if e.path().extension().is_some_and(|x| x == "md") {
            docs.push(e.path().to_path_buf());
        }
    }
    let mut checked = 0;
    for doc in docs {
        let text = std::fs::read_to_string(&doc).unwrap().replace('\n', " ");
        for (i, _) in text.match_indices("`cargo test") {
            let command = text[i + 1..].split('`').next().unwrap();
            let words: Vec<&str> = command.split_whitespace().collect();
            let Some(at) = words
                .windows(2)
                .position(|w| w == ["--test", "integration"])
            else {
                continue;
            };
            let Some(filter) = words.get(at + 2).filter(|w| !w.starts_with('-')) else {
                continue;
            };
            let matched: Vec<&(String, bool)> =
                tests.iter().filter(|(t, _)| t.contains(filter)).collect();
            assert!(
                !matched.is_empty(),
                "{}: `{command}` names no test",
                doc.display()
            );
            let asks = words.contains(&"--ignored") || words.contains(&"--include-ignored");
            assert!(
                asks || matched.iter().any(|(_, ignored)| !ignored),
                "{}: `{command}` runs nothing: its tests are marked ignored (add -- --ignored)",
                doc.display()
            );
            checked += 1;
        }
    }
    assert!(checked >= 3, "{checked} commands");
}

/// The top-level module names a `crate::` path at `text` (just after `crate::`) names: one,
/// or each of a `{…}` group's.
fn crate_paths(text: &str) -> Vec<String> {
    let name = |s: &str| -> String {
        s.trim_start()
            .chars()
            .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_')
            .collect()
    };
    let Some(group) = text.strip_prefix('{') else {
        return vec![name(text)];
    };
    // The group's top-level entries, up to its closing brace.
    let (mut depth, mut start, mut names) = (0, 0, Vec::new());
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                names.push(name(&group[start..i]));
                break;
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                names.push(name(&group[start..i]));
                start = i + 1;
            }
            _ => {}
        }
    }
    names
}

/// Each library module imports only the modules docs/architecture.md lists above it: every
/// `crate::` path in `src/` (outside comments, before a file's `#[cfg(test)]`, test-only files
/// aside) against the list's order. The binary's modules (main, cli, commands, progress) and
/// lib.rs, which declares the layers, stand above the list's rule.
#[test]
fn the_layers_hold_as_the_architecture_lists_them() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let order: Vec<String> = read("docs/architecture.md")
        .lines()
        .filter_map(|l| l.strip_prefix("src/"))
        .filter_map(|l| l.split_whitespace().next())
        .map(|m| m.trim_end_matches('/').trim_end_matches(".rs").to_string())
        .collect();
    let rank = |m: &str| order.iter().position(|o| o == m);
    let above_the_rule = ["main", "cli", "commands", "progress", "lib"];
    let (mut wrong, mut checked) = (Vec::new(), 0);
    for e in walkdir::WalkDir::new(root.join("src")).sort_by_file_name() {
        let e = e.unwrap();
        let rel = e
            .path()
            .strip_prefix(root.join("src"))
            .unwrap()
            .to_path_buf();
        let parts: Vec<String> = rel
            .iter()
            .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
            .collect();
        let tests_only = parts
            .iter()
            .any(|p| ["tests", "testnet", "boards"].contains(&p.as_str()));
        if e.path().extension().is_none_or(|x| x != "rs")
            || above_the_rule.contains(&parts[0].as_str())
            || tests_only
        {
            continue;
        }
        let top = &parts[0];
        let Some(mine) = rank(top) else {
            wrong.push(format!("{}: {top} is not in the list", rel.display()));
            continue;
        };
        let text = std::fs::read_to_string(e.path()).unwrap();
        let code: String = text
            .split("#[cfg(test)]")
            .next()
            .unwrap()
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        for (i, _) in code.match_indices("crate::") {
            for name in crate_paths(&code[i + "crate::".len()..]) {
                checked += 1;
                if name.is_empty() || &name == top {
                    continue;
                }
                if rank(&name).is_none_or(|r| r >= mine) {
                    wrong.push(format!("{}: {top} imports {name}", rel.display()));
                }
            }
        }
    }
    assert!(checked > 200, "{checked} paths");
    assert!(
        wrong.is_empty(),
        "imports that go up docs/architecture.md's list of layers:\n{}",
        wrong.join("\n")
    );
}
