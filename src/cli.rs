//! Command-line arguments (clap derive), turned into validated configs for `app`.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::app::AnalyzeConfig;

#[derive(Parser, Debug)]
#[command(
    name = "livingblocks",
    version,
    about = "Replays SGF game records, decides which blocks live, writes CSV statistics",
    long_about = "Replays SGF game records to their final positions, decides which blocks of \
                  stones live, and writes CSV statistics.\n\nWith no command, runs \
                  `analyze corpus --out reports`."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Walk files and folders of SGF records and write DIR/games.csv.
    Analyze(AnalyzeArgs),
}

#[derive(Args, Debug)]
pub struct AnalyzeArgs {
    /// SGF files or folders to walk (files ending in .sgf, any case; symlinks not followed).
    #[arg(default_value = "corpus")]
    pub paths: Vec<PathBuf>,
    /// Folder for the outputs.
    #[arg(short, long, value_name = "DIR", default_value = "reports")]
    pub out: PathBuf,
    /// Worker threads [default: the number of cores].
    #[arg(short = 'j', long, value_name = "N")]
    pub threads: Option<usize>,
    /// No progress bar or progress lines; the summary and errors still go to stderr.
    #[arg(short, long)]
    pub quiet: bool,
}

impl Default for AnalyzeArgs {
    fn default() -> Self {
        AnalyzeArgs {
            paths: vec![PathBuf::from("corpus")],
            out: PathBuf::from("reports"),
            threads: None,
            quiet: false,
        }
    }
}

impl AnalyzeArgs {
    /// Checks the arguments and fills in defaults.
    pub fn to_config(&self) -> Result<AnalyzeConfig, String> {
        let threads = match self.threads {
            Some(0) => return Err("--threads must be at least 1".to_string()),
            Some(n) => n,
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        };
        Ok(AnalyzeConfig {
            paths: self.paths.clone(),
            out: self.out.clone(),
            threads,
        })
    }
}
