//! `livingblocks show FILE`: one position drawn with every method's verdict and the dead
//! stones, as text or SVG.

use std::path::Path;

use livingblocks::app::AppError;
use livingblocks::look::look;
use livingblocks::report::diagrams::{show_diagram, show_text};
use livingblocks::source::{Finder, Root};

use crate::cli::ShowArgs;
use crate::progress;

/// Records are read whole; no file a user points at by hand is this big.
const CAP: u64 = 1 << 30;

pub fn run(args: &ShowArgs) -> Result<(), AppError> {
    let (root, name) = locate(&args.file)?;
    let finder = Finder::new(&[Root::arg(&root)], CAP);
    let (bytes, game) = finder.game(&name, args.game).ok_or_else(|| {
        AppError::Config(format!(
            "{}: no game {} there (an archive needs ARCHIVE!MEMBER, as games.csv names it)",
            args.file.display(),
            args.game
        ))
    })?;
    let l = look(&bytes, game, args.moves)
        .map_err(|e| AppError::Config(format!("{}: {e}", args.file.display())))?;
    let title = format!("{} game {}", args.file.display(), args.game);
    if let Some(out) = &args.out {
        std::fs::write(out, show_diagram(&l).svg(&title))
            .map_err(|e| AppError::Output(format!("{}: {e}", out.display())))?;
    }
    if args.ascii || args.out.is_none() {
        progress::print(&show_text(&l, &title));
    }
    Ok(())
}

/// The file to walk and the name a run gives the record: `FILE` itself, or for
/// `ARCHIVE!MEMBER` the archive and that name.
fn locate(file: &Path) -> Result<(std::path::PathBuf, String), AppError> {
    let name_of = |p: &Path| {
        p.file_name().map_or_else(
            || p.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        )
    };
    if file.is_file() {
        return Ok((file.to_path_buf(), name_of(file)));
    }
    let text = file.to_string_lossy();
    for (i, _) in text.match_indices('!') {
        let archive = Path::new(&text[..i]);
        if archive.is_file() {
            return Ok((
                archive.to_path_buf(),
                format!("{}{}", name_of(archive), &text[i..]),
            ));
        }
    }
    Err(AppError::Config(format!(
        "{}: no such file",
        file.display()
    )))
}
