//! Finding a row's record again: the bytes behind a `file` column and game number, for the
//! report's board diagrams and `show`. The same walk and the same names as the run's.

use super::{read_input, walk::collect_existing, InputKind, Inputs, Root, Unit};

/// The inputs of a run, walked once, to look records up by their `file` name.
pub struct Finder {
    inputs: Inputs,
    cap: u64,
}

impl Finder {
    /// Walks `roots` as a run does, relative paths taken from `base` (the folder the run was
    /// started in) when given; a root that is not there (moved since the run) is left out,
    /// so its rows find nothing.
    pub fn new(roots: &[Root], cap: u64, base: Option<&std::path::Path>) -> Finder {
        Finder {
            inputs: collect_existing(roots, base),
            cap,
        }
    }

    /// Looks records up among inputs already walked.
    pub fn of_inputs(inputs: Inputs, cap: u64) -> Finder {
        Finder { inputs, cap }
    }

    /// Whether the walk found any input at all.
    pub fn is_empty(&self) -> bool {
        self.inputs.is_empty()
    }

    /// The bytes holding game `game` of the row named `file`, and the game's number in them:
    /// a plain file and its game, an archive member (`archive!member`) and its game, or the
    /// game tree of a compressed collection (then game 0 of the bytes).
    pub fn game(&self, file: &str, game: usize) -> Option<(Vec<u8>, usize)> {
        let candidates = self.inputs.named(|name| {
            name == file
                || file
                    .strip_prefix(name)
                    .is_some_and(|rest| rest.starts_with('!'))
        });
        for input in candidates.filter(|i| i.kind == InputKind::File) {
            let mut found = None;
            let _ = super::for_each_unit(&input, self.cap, &mut |unit| {
                match unit {
                    Unit::File(i) if i.name == file => {
                        found = read_input(i, self.cap).ok().map(|b| (b, game));
                    }
                    Unit::File(_) => {}
                    Unit::Member(m) if m.name == file => match m.game {
                        // A tree of a compressed collection: the one numbered `game`.
                        Some(n) if n == game => found = m.bytes.ok().map(|b| (b, 0)),
                        Some(_) => return Ok(()),
                        None => found = m.bytes.ok().map(|b| (b, game)),
                    },
                    Unit::Member(_) => return Ok(()),
                }
                // Found (or failed to read) what was asked: stop the walk.
                Err(())
            });
            if found.is_some() {
                return found;
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn finds_files_archive_members_and_trees_of_a_stream() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::create_dir(d.join("sub")).unwrap();
        std::fs::write(d.join("sub/a.sgf"), "(;SZ[9];B[aa])(;SZ[9];B[bb])").unwrap();
        let zip = std::fs::File::create(d.join("g.zip")).unwrap();
        let mut z = zip::ZipWriter::new(zip);
        z.start_file("in/x.sgf", zip::write::SimpleFileOptions::default())
            .unwrap();
        z.write_all(b"(;SZ[9];B[cc])").unwrap();
        z.finish().unwrap();
        let gz = std::fs::File::create(d.join("c.sgf.gz")).unwrap();
        let mut e = flate2::write::GzEncoder::new(gz, flate2::Compression::fast());
        e.write_all(b"(;SZ[9];B[dd])\n(;SZ[9];B[ee])").unwrap();
        e.finish().unwrap();

        let f = Finder::new(&[Root::arg(d)], 1 << 20, None);
        assert_eq!(
            f.game("sub/a.sgf", 1),
            Some((b"(;SZ[9];B[aa])(;SZ[9];B[bb])".to_vec(), 1))
        );
        assert_eq!(
            f.game("g.zip!in/x.sgf", 0),
            Some((b"(;SZ[9];B[cc])".to_vec(), 0))
        );
        let (bytes, n) = f.game("c.sgf.gz", 1).unwrap();
        assert_eq!(
            (String::from_utf8(bytes).unwrap().trim(), n),
            ("(;SZ[9];B[ee])", 0)
        );
        assert_eq!(f.game("gone.sgf", 0), None);
        assert_eq!(f.game("g.zip!other.sgf", 0), None);
    }
}
