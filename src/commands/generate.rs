//! `livingblocks generate`: the man page and shell completions, from the clap definition (as
//! ripgrep's `--generate` and fd's build do), written to standard output.

use std::io::Write;

use clap::CommandFactory;
use clap_complete::Shell;
use livingblocks::app::AppError;

use crate::cli::{Cli, Generate, GenerateArgs};

pub fn run(args: &GenerateArgs) -> Result<(), AppError> {
    let mut out = Vec::new();
    write(args.what, &mut out).map_err(|e| AppError::Output(format!("generate: {e}")))?;
    crate::progress::print(out)
}

/// Writes what `what` asks for into `out`.
pub fn write(what: Generate, out: &mut Vec<u8>) -> std::io::Result<()> {
    let mut cmd = Cli::command();
    let shell = match what {
        Generate::Man => return man(cmd, out),
        Generate::CompleteBash => Shell::Bash,
        Generate::CompleteZsh => Shell::Zsh,
        Generate::CompleteFish => Shell::Fish,
        Generate::CompletePowershell => Shell::PowerShell,
        Generate::CompleteElvish => Shell::Elvish,
    };
    clap_complete::generate(shell, &mut cmd, "livingblocks", out);
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
        sub.render_synopsis_section(&mut part)?;
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
    page.render_version_section(out)
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
