//! Bytes → UTF-8 text, before the SGF parser sees it.
//!
//! Old collections come in every encoding: GB2312 and Big5 from Chinese servers, Shift_JIS and
//! EUC-KR from Japanese and Korean ones, Latin-1 from European tools, UTF-16 from Windows
//! editors. The order of evidence is fixed: a byte-order mark, else the file's own `CA`
//! property, else valid UTF-8, else statistical detection (chardetng), else a single-byte
//! fallback that cannot fail. The step that decided is recorded with the result.

use std::borrow::Cow;

use encoding_rs::{Encoding, UTF_16BE, UTF_16LE, UTF_8, WINDOWS_1252};

/// Which piece of evidence chose the encoding.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EncodingSource {
    /// A byte-order mark.
    Bom,
    /// No BOM, but the zero bytes of UTF-16 around an ASCII `(`.
    Utf16Sniff,
    /// The `CA` property, and the bytes decode cleanly with it.
    Ca,
    /// The bytes are valid UTF-8 (pure ASCII included).
    Utf8,
    /// chardetng's guess, and the bytes decode cleanly with it.
    Detected,
    /// Nothing else fitted; Windows-1252 maps every byte.
    Fallback,
}

impl EncodingSource {
    /// The short name written to the `encoding_source` column.
    pub fn as_str(self) -> &'static str {
        match self {
            EncodingSource::Bom => "bom",
            EncodingSource::Utf16Sniff => "utf16-sniff",
            EncodingSource::Ca => "ca",
            EncodingSource::Utf8 => "utf8",
            EncodingSource::Detected => "detected",
            EncodingSource::Fallback => "fallback",
        }
    }
}

/// Text decoded from a file's bytes, with how it was decoded.
#[derive(Debug)]
pub struct Decoded<'a> {
    pub text: Cow<'a, str>,
    /// The WHATWG name of the encoding used, e.g. `UTF-8`, `GBK`, `Shift_JIS`.
    pub encoding: &'static str,
    pub source: EncodingSource,
}

/// Why a file's bytes cannot be read as text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    #[error("byte-order mark says {encoding} but the bytes are malformed at byte {offset}")]
    MalformedBom {
        encoding: &'static str,
        offset: usize,
    },
    #[error("binary data: NUL byte at offset {0}")]
    Binary(usize),
}

/// Decodes a file's bytes to UTF-8.
pub fn decode(bytes: &[u8]) -> Result<Decoded<'_>, DecodeError> {
    if let Some((enc, bom_len)) = Encoding::for_bom(bytes) {
        return decode_strict(enc, &bytes[bom_len..], EncodingSource::Bom).map_err(|offset| {
            DecodeError::MalformedBom {
                encoding: enc.name(),
                offset: offset + bom_len,
            }
        });
    }
    if let Some(enc) = sniff_utf16(bytes) {
        if let Ok(d) = decode_strict(enc, bytes, EncodingSource::Utf16Sniff) {
            return Ok(d);
        }
    }
    if let Some(nul) = binary_at(bytes) {
        return Err(DecodeError::Binary(nul));
    }
    if let Some(enc) = ca_property(bytes).and_then(|label| Encoding::for_label(label.as_bytes())) {
        // A CA naming UTF-16 cannot describe bytes that hold no NUL: ignore it then.
        if enc != UTF_16LE && enc != UTF_16BE {
            if let Ok(d) = decode_strict(enc, bytes, EncodingSource::Ca) {
                return Ok(d);
            }
        }
    }
    if let Ok(text) = std::str::from_utf8(bytes) {
        return Ok(Decoded {
            text: Cow::Borrowed(text),
            encoding: UTF_8.name(),
            source: EncodingSource::Utf8,
        });
    }
    let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Allow);
    detector.feed(bytes, true);
    let guess = detector.guess(None, chardetng::Utf8Detection::Deny);
    if let Ok(d) = decode_strict(guess, bytes, EncodingSource::Detected) {
        return Ok(d);
    }
    let (text, _) = WINDOWS_1252.decode_without_bom_handling(bytes);
    Ok(Decoded {
        text,
        encoding: WINDOWS_1252.name(),
        source: EncodingSource::Fallback,
    })
}

/// Decodes with one encoding, failing (with the offset of the first bad byte, approximately)
/// when the bytes are malformed for it.
fn decode_strict<'a>(
    enc: &'static Encoding,
    bytes: &'a [u8],
    source: EncodingSource,
) -> Result<Decoded<'a>, usize> {
    match enc.decode_without_bom_handling_and_without_replacement(bytes) {
        Some(text) => Ok(Decoded {
            text,
            encoding: enc.name(),
            source,
        }),
        None => Err(first_malformed(enc, bytes)),
    }
}

fn first_malformed(enc: &'static Encoding, bytes: &[u8]) -> usize {
    let mut decoder = enc.new_decoder_without_bom_handling();
    let mut out = String::with_capacity(decoder.max_utf8_buffer_length(bytes.len()).unwrap_or(0));
    let (result, read) = decoder.decode_to_string_without_replacement(bytes, &mut out, true);
    match result {
        encoding_rs::DecoderResult::Malformed(..) => read.saturating_sub(1),
        _ => read,
    }
}

/// A NUL byte before any `(` means the file is not text at all. NULs later on (padding after
/// the game, a stray byte in a comment) are left to the parser, which skips or rejects them.
fn binary_at(bytes: &[u8]) -> Option<usize> {
    let nul = memchr::memchr(0, bytes)?;
    memchr::memchr(b'(', &bytes[..nul]).is_none().then_some(nul)
}

/// UTF-16 without a BOM: an SGF file starts with `(`, so its first code unit shows the order.
fn sniff_utf16(bytes: &[u8]) -> Option<&'static Encoding> {
    let start = bytes.chunks_exact(2).position(|p| {
        !matches!(
            p,
            [0, b' ' | b'\t' | b'\r' | b'\n'] | [b' ' | b'\t' | b'\r' | b'\n', 0]
        )
    })?;
    match bytes.get(2 * start..2 * start + 2)? {
        [b'(', 0] => Some(UTF_16LE),
        [0, b'('] => Some(UTF_16BE),
        _ => None,
    }
}

/// The value of the first `CA[...]` property, found on the raw bytes (it is ASCII in every
/// encoding the property can name, UTF-16 aside). Only the start of the file is searched: CA is
/// a root property.
fn ca_property(bytes: &[u8]) -> Option<String> {
    let head = &bytes[..bytes.len().min(64 * 1024)];
    let mut from = 0;
    // Every file is searched, so with memchr's substring search rather than a window per
    // byte (which cost as much as decoding the file).
    while let Some(pos) = memchr::memmem::find(&head[from..], b"CA[") {
        let at = from + pos;
        // Must be a property identifier of its own, not the tail of e.g. `XCA[`.
        let standalone = at == 0 || !head[at - 1].is_ascii_uppercase();
        let value_start = at + 3;
        if standalone {
            let end = head[value_start..].iter().position(|&b| b == b']')?;
            let value = &head[value_start..value_start + end];
            return std::str::from_utf8(value)
                .ok()
                .map(|s| s.trim().to_string());
        }
        from = value_start;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_is_utf8() {
        let d = decode(b"(;GM[1]SZ[19];B[dd])").unwrap();
        assert_eq!(d.source, EncodingSource::Utf8);
        assert_eq!(d.encoding, "UTF-8");
    }

    #[test]
    fn utf8_bom_is_stripped() {
        let d = decode(b"\xEF\xBB\xBF(;PB[x])").unwrap();
        assert_eq!(d.source, EncodingSource::Bom);
        assert_eq!(d.text, "(;PB[x])");
    }

    #[test]
    fn utf16_with_and_without_bom() {
        let text = "(;PB[李昌镐])";
        let le: Vec<u8> = text.encode_utf16().flat_map(|u| u.to_le_bytes()).collect();
        let be: Vec<u8> = text.encode_utf16().flat_map(|u| u.to_be_bytes()).collect();
        let with_bom: Vec<u8> = [&[0xFF, 0xFE][..], &le].concat();
        for (bytes, source, enc) in [
            (with_bom, EncodingSource::Bom, "UTF-16LE"),
            (le, EncodingSource::Utf16Sniff, "UTF-16LE"),
            (be, EncodingSource::Utf16Sniff, "UTF-16BE"),
        ] {
            let d = decode(&bytes).unwrap();
            assert_eq!(d.text, text);
            assert_eq!(d.source, source);
            assert_eq!(d.encoding, enc);
        }
    }

    #[test]
    fn ca_property_names_the_encoding() {
        let (gb, _, _) = encoding_rs::GBK.encode("(;CA[gb2312]PB[聂卫平])");
        let d = decode(&gb).unwrap();
        assert_eq!(d.source, EncodingSource::Ca);
        assert_eq!(d.encoding, "GBK");
        assert!(d.text.contains("聂卫平"));
    }

    #[test]
    fn a_lying_ca_falls_through_to_utf8() {
        // CA says Shift_JIS but the bytes are UTF-8 that Shift_JIS cannot decode.
        let d = decode("(;CA[Shift_JIS]PB[이세돌])".as_bytes()).unwrap();
        assert_eq!(d.source, EncodingSource::Utf8);
        assert!(d.text.contains("이세돌"));
    }

    #[test]
    fn no_ca_and_not_utf8_is_detected() {
        let (sj, _, _) = encoding_rs::SHIFT_JIS
            .encode("(;PB[本因坊秀策]PW[井上因碩]C[耳赤の一手、本因坊秀策の名局])");
        let d = decode(&sj).unwrap();
        assert_eq!(d.source, EncodingSource::Detected);
        assert_eq!(d.encoding, "Shift_JIS");
        assert!(d.text.contains("本因坊秀策"));
    }

    #[test]
    fn nul_bytes_after_the_game_are_not_binary() {
        let d = decode(b"(;SZ[9];B[aa])\0\0\0").unwrap();
        assert_eq!(d.source, EncodingSource::Utf8);
    }

    #[test]
    fn binary_is_a_decode_error() {
        assert_eq!(
            decode(b"\x89PNG\r\n\x1a\n\0\0").unwrap_err(),
            DecodeError::Binary(8)
        );
    }

    #[test]
    fn ca_inside_another_identifier_is_not_ca() {
        assert_eq!(
            ca_property(b"(;XCA[foo]CA[UTF-8])").as_deref(),
            Some("UTF-8")
        );
        assert_eq!(ca_property(b"(;PB[x])"), None);
    }
}
