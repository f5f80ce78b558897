//! End-to-end tests, built into one binary (as ripgrep does) around a small `util` module.

mod archives;
mod cli;
mod docs;
mod duplicates;
mod edge_cases;
mod golden;
mod integrity;
mod katago;
mod net;
mod outside;
mod replay_reference;
mod report;
mod robustness;
mod rules;
mod scoring;
mod show;
mod util;
