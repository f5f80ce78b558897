//! Names of inputs as the tables write them, and back: the one place that escapes and
//! unescapes them (`\\`, `\!`, `\xNN`), so that a name written reads back to one path.

use std::path::PathBuf;

/// A name's bytes as the `file` column writes them: UTF-8 as it is; a byte that is not
/// UTF-8 as `\xNN`; `\` and `!` escaped as `\\` and `\!`, so that every name reads back to
/// one path and an unescaped `!` only ever separates an archive from its member.
pub fn name_of(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            if c == '\\' || c == '!' {
                s.push('\\');
            }
            s.push(c);
        }
        for b in chunk.invalid() {
            s.push_str(&format!("\\x{b:02X}"));
        }
    }
    s
}

/// Where a name written by `name_of` separates an archive from its member: its first `!`
/// that is not escaped (`\!` is a `!` of the name itself).
pub fn member_separator(name: &[u8]) -> Option<usize> {
    let mut i = 0;
    while i < name.len() {
        match name[i] {
            b'\\' => i += 2,
            b'!' => return Some(i),
            _ => i += 1,
        }
    }
    None
}

/// The bytes a name written by `name_of` stands for: `\\`, `\!` and `\xNN` undone.
pub fn unescape(name: &str) -> Vec<u8> {
    let b = name.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match (b[i], b.get(i + 1)) {
            (b'\\', Some(b'\\' | b'!')) => {
                out.push(b[i + 1]);
                i += 2;
            }
            (b'\\', Some(b'x')) => {
                match name
                    .get(i + 2..i + 4)
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                {
                    Some(byte) => {
                        out.push(byte);
                        i += 4;
                    }
                    None => {
                        out.push(b'\\');
                        i += 1;
                    }
                }
            }
            (c, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

/// A path from its bytes: exact on Unix, where a name is any bytes; elsewhere through UTF-8.
pub fn path_of_bytes(b: &[u8]) -> PathBuf {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        PathBuf::from(std::ffi::OsStr::from_bytes(b))
    }
    #[cfg(not(unix))]
    {
        PathBuf::from(String::from_utf8_lossy(b).into_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_member_separator_is_the_first_bang_not_escaped() {
        let name = name_of(b"a!b\\.zip");
        assert_eq!(member_separator(name.as_bytes()), None);
        let member = format!("{name}!x!y.sgf");
        assert_eq!(member_separator(member.as_bytes()), Some(name.len()));
        assert_eq!(member_separator(b"set.zip!g/a.sgf"), Some(7));
        assert_eq!(member_separator(b"plain.sgf"), None);
    }

    #[test]
    fn names_escape_what_would_read_back_ambiguously() {
        assert_eq!(name_of(b"plain.sgf"), "plain.sgf");
        assert_eq!(name_of(b"a\xff.sgf"), "a\\xFF.sgf");
        assert_eq!(name_of(b"a\xfe.sgf"), "a\\xFE.sgf");
        assert_eq!(name_of(b"x.zip!y.sgf"), "x.zip\\!y.sgf");
        assert_eq!(name_of(b"back\\slash.sgf"), "back\\\\slash.sgf");
        assert_eq!(
            name_of("Go-Seigen \u{5433}.sgf".as_bytes()),
            "Go-Seigen \u{5433}.sgf"
        );
    }

    #[test]
    fn unescape_reads_back_every_name() {
        for raw in [
            &b"plain/d.sgf"[..],
            b"a\xff.sgf",
            b"x.zip!y.sgf",
            b"back\\slash\\x41.sgf",
            "\u{5433}\\!".as_bytes(),
            b"\\",
        ] {
            assert_eq!(unescape(&name_of(raw)), raw, "{}", name_of(raw));
        }
    }
}
