//! One module per subcommand. Each takes its parsed arguments and returns what it did or an
//! `AppError`, whose `exit_code` `main` turns into the process's status: the same mistake
//! gets the same code in every command.

pub mod analyze;
pub mod generate;
pub mod merge;
pub mod report;
pub mod show;
