//! `livingblocks generate`: the man page and shell completions, from the clap definition (as
//! ripgrep's `--generate` and fd's build do), written to standard output.

use std::io::Write;

use clap::CommandFactory;
use clap_complete::Shell;
use livingblocks::app::AppError;

use crate::cli::{Cli, Generate, GenerateArgs};

pub fn run(args: &GenerateArgs) -> Result<(), AppError> {
    // -q leaves nothing on stderr but errors, as in every command; generate prints nothing
    // else there, so it changes nothing here.
    let GenerateArgs { what, quiet: _ } = args;
    let mut out = Vec::new();
    write(*what, &mut out).map_err(AppError::Stdout)?;
    crate::progress::print(out)
}

/// Writes what `what` asks for into `out`.
pub fn write(what: Generate, out: &mut Vec<u8>) -> std::io::Result<()> {
    let mut cmd = Cli::command();
    let shell = match what {
        Generate::Man => return man(cmd, out),
        Generate::Dtypes => return dtypes(out),
        Generate::CompleteBash => Shell::Bash,
        Generate::CompleteZsh => Shell::Zsh,
        Generate::CompleteFish => Shell::Fish,
        Generate::CompletePowershell => Shell::PowerShell,
        Generate::CompleteElvish => Shell::Elvish,
    };
    clap_complete::generate(shell, &mut cmd, "livingblocks", out);
    Ok(())
}

/// `{"big_eyes.csv": {"block": "text", ...}, ...}`: every table's columns with their types,
/// from the schema the writers use (keys sorted: a loader looks columns up by name).
fn dtypes(out: &mut Vec<u8>) -> std::io::Result<()> {
    let mut tables = serde_json::Map::new();
    for (table, fields) in livingblocks::sink::schemas() {
        let columns = fields
            .iter()
            .map(|f| (f.name.to_string(), f.kind.name().into()))
            .collect();
        tables.insert(table.to_string(), serde_json::Value::Object(columns));
    }
    serde_json::to_writer_pretty(&mut *out, &tables)?;
    out.push(b'\n');
    Ok(())
}

/// One man page for the whole tool: the main page's sections, then a section per command with
/// its synopsis and options (clap_mangen writes a page per command; one page is what `man -l`
/// and a man folder want).
fn man(mut cmd: clap::Command, out: &mut Vec<u8>) -> std::io::Result<()> {
    cmd.build();
    let page = clap_mangen::Man::new(cmd.clone());
    page.render_title(out)?;
    page.render_name_section(out)?;
    page.render_synopsis_section(out)?;
    page.render_description_section(out)?;
    for sc in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
        let name = format!("livingblocks {}", sc.get_name());
        writeln!(out, ".SH \"{}\"", name.to_uppercase())?;
        if let Some(about) = sc.get_long_about().or(sc.get_about()) {
            writeln!(out, "{}", about.to_string().replace('\\', "\\\\"))?;
        }
        let mut part = Vec::new();
        let sub = clap_mangen::Man::new(sc.clone().bin_name(&name));
        writeln!(part, ".SH SYNOPSIS\n{}", synopsis(&name, sc))?;
        sub.render_options_section(&mut part)?;
        if let Some(after) = sc.get_after_help() {
            writeln!(
                part,
                ".SH EXAMPLES\n.nf\n{}\n.fi",
                after.to_string().replace('\\', "\\\\")
            )?;
        }
        // Their sections become subsections of the command's.
        let part = String::from_utf8_lossy(&part).replace("\n.SH ", "\n.SS ");
        let part = part
            .strip_prefix(".SH ")
            .map_or(part.clone(), |p| format!(".SS {p}"));
        out.extend_from_slice(part.as_bytes());
    }
    writeln!(out, ".SH \"EXIT STATUS\"\nThe same for every command.")?;
    for (code, meaning) in livingblocks::app::exit::MEANINGS {
        writeln!(
            out,
            ".TP\n\\fB{code}\\fR\n{}",
            meaning.replace('\\', "\\\\")
        )?;
    }
    page.render_version_section(out)
}

/// A command's synopsis in roff, each option with its value's name (`[-j|--threads N]`),
/// which clap_mangen's leaves out.
fn synopsis(name: &str, cmd: &clap::Command) -> String {
    let esc = |t: &str| t.replace('-', "\\-");
    let mut line = format!("\\fB{}\\fR", esc(name));
    for arg in cmd.get_arguments() {
        let value = arg
            .get_value_names()
            .map(|v| {
                v.iter()
                    .map(|n| n.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .filter(|_| arg.get_action().takes_values());
        if arg.is_positional() {
            let v = value.unwrap_or_else(|| arg.get_id().to_string().to_uppercase());
            let many = matches!(arg.get_num_args(), Some(r) if r.max_values() > 1);
            let dots = if many { "..." } else { "" };
            line += &if arg.is_required_set() {
                format!(" \\fI{v}\\fR{dots}")
            } else {
                format!(" [\\fI{v}\\fR{dots}]")
            };
            continue;
        }
        let mut names = Vec::new();
        if let Some(c) = arg.get_short() {
            names.push(format!("\\fB\\-{c}\\fR"));
        }
        if let Some(l) = arg.get_long() {
            names.push(format!("\\fB\\-\\-{}\\fR", esc(l)));
        }
        let value = value.map_or(String::new(), |v| format!(" \\fI{v}\\fR"));
        line += &format!(" [{}{value}]", names.join("|"));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dtype_map_is_the_writers_schema() {
        let mut out = Vec::new();
        write(Generate::Dtypes, &mut out).unwrap();
        let map: serde_json::Value = serde_json::from_slice(&out).unwrap();
        for (table, fields) in livingblocks::sink::schemas() {
            let columns = map[table].as_object().unwrap();
            assert_eq!(columns.len(), fields.len(), "{table}");
            for f in fields {
                assert_eq!(columns[f.name], f.kind.name(), "{table} {}", f.name);
            }
        }
        assert_eq!(map["games.csv"]["margin"], "float");
        assert_eq!(map["games.csv"]["KM"], "text");
        assert_eq!(map["big_eyes.csv"]["eye_shape"], "text");
    }

    #[test]
    fn every_kind_names_the_commands() {
        for what in [
            Generate::Man,
            Generate::CompleteBash,
            Generate::CompleteZsh,
            Generate::CompleteFish,
            Generate::CompletePowershell,
            Generate::CompleteElvish,
        ] {
            let mut out = Vec::new();
            write(what, &mut out).unwrap();
            let text = String::from_utf8(out).unwrap();
            for word in ["livingblocks", "analyze", "merge", "estimate"] {
                assert!(text.contains(word), "{what:?} lacks {word}");
            }
        }
    }

    #[test]
    fn the_man_page_gives_values_in_synopses_and_the_exit_codes() {
        let mut out = Vec::new();
        write(Generate::Man, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.contains("[\\fB\\-j\\fR|\\fB\\-\\-threads\\fR \\fIN\\fR]"),
            "{text}"
        );
        assert!(text.contains("\\fB\\-\\-estimate\\fR \\fIWHICH\\fR"));
        assert!(text.contains(".SH \"EXIT STATUS\""));
        for (code, _) in livingblocks::app::exit::MEANINGS {
            assert!(text.contains(&format!("\\fB{code}\\fR")), "{code}");
        }
    }
}
