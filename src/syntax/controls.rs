//! The control characters inside a file's strings, which the checker warns about: a string is
//! shown to players, and though every output escapes them (`crate::printable`), one in a string
//! is almost surely pasted by mistake, or planted.

/// Each control character in a string of `text` (offset and character), found by reading the
/// strings as the grammar does: `\` escapes the next character, `{` opens an interpolation
/// (an expression, which may hold strings of its own and comments), `"` closes the string. A
/// line feed, a tab, and a carriage return before a line feed are text; anything else that
/// [`crate::printable::is_control`] names is reported.
pub fn in_strings(text: &str) -> Vec<(usize, char)> {
    let mut found = Vec::new();
    // Most files have no control character but line breaks and tabs: one pass over the bytes.
    if !text
        .bytes()
        .enumerate()
        .any(|(i, b)| suspect(text.as_bytes(), i, b))
    {
        return found;
    }
    // What encloses the position: a string, or braces (of an interpolation or a block).
    let mut levels: Vec<bool> = Vec::new(); // true: a string
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let in_string = levels.last() == Some(&true);
        if in_string {
            match c {
                '\\' => {
                    // the escaped character is text as it is, a control character too
                    if let Some((j, n)) = chars.next() {
                        if crate::printable::is_control(n) {
                            found.push((j, n));
                        }
                    }
                }
                '"' => {
                    levels.pop();
                }
                '{' => levels.push(false),
                '\r' if chars.peek().is_some_and(|(_, n)| *n == '\n') => {}
                c if c == '\r' || crate::printable::is_control(c) => found.push((i, c)),
                _ => {}
            }
            continue;
        }
        match c {
            '#' => {
                // a comment runs to the end of the line
                while chars.peek().is_some_and(|(_, n)| *n != '\n') {
                    chars.next();
                }
            }
            '"' => levels.push(true),
            '{' => levels.push(false),
            '}' => {
                levels.pop();
            }
            _ => {}
        }
    }
    found
}

/// True if byte `i` of `bytes` may start a control character worth a look.
fn suspect(bytes: &[u8], i: usize, b: u8) -> bool {
    match b {
        b'\n' | b'\t' => false,
        b'\r' => bytes.get(i + 1) != Some(&b'\n'),
        0..=0x1f | 0x7f => true,
        0xc2 => bytes.get(i + 1).is_some_and(|n| (0x80..=0x9f).contains(n)),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_are_found_in_strings_and_interpolated_strings_only() {
        let text = "game \"T\x1b[2J\" { }\n# a comment \x07\nlog \"{if x then \"\x1b\" else \"ok\"} \u{9b}\"\r\n";
        let found: Vec<char> = in_strings(text).into_iter().map(|(_, c)| c).collect();
        assert_eq!(found, ['\x1b', '\x1b', '\u{9b}']);
        assert!(in_strings("log \"a\\\"\tb\"\r\n").is_empty());
        assert_eq!(
            in_strings("log \"a\rb\"").len(),
            1,
            "a lone carriage return"
        );
    }
}
