//! Bytes → UTF-8 text, before the SGF parser sees it.
//!
//! Old collections come in every encoding: GB2312 and Big5 from Chinese servers, Shift_JIS and
//! EUC-KR from Japanese and Korean ones, Latin-1 from European tools, UTF-16 from Windows
//! editors. The order of evidence is fixed: a byte-order mark, else the file's own `CA`
//! property, else valid UTF-8, else statistical detection (chardetng), else a single-byte
//! fallback that cannot fail. The step that decided is recorded with the result.
//!
//! Bytes that are not text at all (random data, a PNG or a gzip file renamed `.sgf`) are one
//! error: a NUL before any `(`, or control bytes no text encoding uses, many of them, in the
//! file's head. The same test decides whether a large file may be cut into game trees on its
//! bytes before decoding (`splits_as_bytes`), so that such a file is still one row.

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
    #[error("binary data: {count} control bytes in its first {len}")]
    Controls { count: usize, len: usize },
}

/// How much of a file's start the evidence of its encoding is taken from.
pub const HEAD: usize = 64 * 1024;

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
    if let Some(e) = not_text(bytes) {
        return Err(e);
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

/// Why bytes that are not UTF-16 are not text at all. A NUL byte before any `(`; NULs later
/// on (padding after the game, a stray byte in a comment) are left to the parser, which skips
/// or rejects them. Or more than one byte in 20 of the head a control byte that no encoding
/// an SGF file comes in uses (white space, SUB, ESC, SO and SI are used): random data has one
/// in 12, text none, so a few junk bytes between games do not make a file binary.
fn not_text(bytes: &[u8]) -> Option<DecodeError> {
    if let Some(nul) = memchr::memchr(0, bytes) {
        if memchr::memchr(b'(', &bytes[..nul]).is_none() {
            return Some(DecodeError::Binary(nul));
        }
    }
    let head = &bytes[..bytes.len().min(HEAD)];
    let count = controls(head);
    (count >= 16 && count * 20 > head.len()).then_some(DecodeError::Controls {
        count,
        len: head.len(),
    })
}

/// How many bytes of `head` are control bytes no text encoding uses (1–8, 0x10–0x19,
/// 0x1C–0x1F). Counted without branches into a byte per block, so that the count runs at
/// vector speed over every file's head.
fn controls(head: &[u8]) -> usize {
    let is_control = |b: u8| {
        u8::from((b.wrapping_sub(1) < 8) | (b.wrapping_sub(0x10) < 10) | (b.wrapping_sub(0x1C) < 4))
    };
    head.chunks(255)
        .map(|block| {
            block
                .iter()
                .fold(0u8, |n, &b| n.wrapping_add(is_control(b))) as usize
        })
        .sum()
}

/// Whether a file whose start is `head` may be cut into game trees on its bytes, before
/// decoding (a large file is read a tree at a time): text in which `(`, `;`, `[` and `)` are
/// their ASCII bytes. UTF-16 and binary data are not: such a file is read and decoded whole,
/// so that it gives its games or one row saying it is not text, not a row per `(;` found.
pub fn splits_as_bytes(head: &[u8]) -> bool {
    let utf16 = |enc| enc == UTF_16LE || enc == UTF_16BE;
    !Encoding::for_bom(head).is_some_and(|(enc, _)| utf16(enc))
        && sniff_utf16(head).is_none()
        && not_text(head).is_none()
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
    fn control_bytes_are_counted_exactly() {
        let all: Vec<u8> = (0..=255u8).cycle().take(256 * 3 + 17).collect();
        let naive = all
            .iter()
            .filter(|&&b| matches!(b, 1..=8 | 0x10..=0x19 | 0x1C..=0x1F))
            .count();
        assert_eq!(controls(&all), naive);
        assert_eq!(controls(&[5u8; 1000]), 1000);
        assert_eq!(controls(b"(;GM[1]\t\r\n)"), 0);
    }

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

    /// A little generator of noise: the same bytes on every run.
    fn noise(seed: u64, len: usize) -> Vec<u8> {
        let mut x = seed;
        (0..len)
            .map(|_| {
                x = x
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                (x >> 56) as u8
            })
            .collect()
    }

    /// Issue 49 item 7: noise with a `(` before its first NUL passed as text (and a large
    /// file of it was cut into a row per `(;`).
    #[test]
    fn noise_with_a_paren_before_any_nul_is_binary() {
        for seed in 1..40 {
            for len in [1 << 10, 64 << 10, 200 << 10] {
                let mut bytes = noise(seed, len);
                bytes[..3].copy_from_slice(b"(;C");
                let e = decode(&bytes).unwrap_err();
                assert!(
                    matches!(e, DecodeError::Controls { .. }),
                    "{seed} {len}: {e}"
                );
                assert!(!splits_as_bytes(&bytes[..len.min(HEAD)]));
            }
        }
    }

    /// Text with a little junk in it is text, and a large one is cut into trees.
    #[test]
    fn text_with_junk_between_games_is_text() {
        let game = b"(;GM[1]SZ[9]PB[x]PW[y];B[ee];W[cc];B[gg])\n";
        let mut bytes = Vec::new();
        for seed in 0..40 {
            bytes.extend_from_slice(game);
            bytes.extend(noise(seed, 20));
        }
        assert!(decode(&bytes).is_ok());
        assert!(splits_as_bytes(&bytes));
        let (gb, _, _) = encoding_rs::GBK.encode("(;CA[gb2312]PB[聂卫平])\x1a");
        assert!(splits_as_bytes(&gb));
    }

    /// UTF-16 decodes, so it is not cut on its bytes; nor is binary data.
    #[test]
    fn utf16_and_binary_are_not_cut_on_their_bytes() {
        let text = "(;PB[李昌镐])".repeat(10);
        let le: Vec<u8> = text.encode_utf16().flat_map(|u| u.to_le_bytes()).collect();
        let be: Vec<u8> = text.encode_utf16().flat_map(|u| u.to_be_bytes()).collect();
        let with_bom: Vec<u8> = [&[0xFF, 0xFE][..], &le].concat();
        for bytes in [le, be, with_bom] {
            assert!(!splits_as_bytes(&bytes));
            assert!(decode(&bytes).is_ok());
        }
        assert!(!splits_as_bytes(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"));
        assert!(!splits_as_bytes(b"\x1f\x8b\x08\0\0\0\0\0\0\x03"));
        assert!(splits_as_bytes(b"(;SZ[9];B[aa])\0\0\0"));
    }
}
