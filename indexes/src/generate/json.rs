//! A small JSON reader, just enough for `encodings.json`.
//!
//! It accepts any well-formed JSON text (RFC 8259) and keeps object members in
//! file order. Numbers are kept as their source text because `encodings.json`
//! has none; nesting is limited so hostile input cannot overflow the stack.

/// A parsed JSON value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Json {
    Null,
    Bool(bool),
    /// The number's source text, validated against the JSON grammar.
    Number(String),
    String(String),
    Array(Vec<Json>),
    /// Members in file order; duplicate names are rejected.
    Object(Vec<(String, Json)>),
}

/// Where and why parsing failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct JsonError {
    pub(crate) byte_offset: usize,
    pub(crate) message: &'static str,
}

const MAX_DEPTH: usize = 64;

/// Parses a whole JSON text (one value, optionally surrounded by whitespace).
pub(crate) fn parse(text: &str) -> Result<Json, JsonError> {
    let mut parser = Parser {
        text,
        byte_offset: 0,
    };
    parser.skip_whitespace();
    let value = parser.value(0)?;
    parser.skip_whitespace();
    if parser.byte_offset == text.len() {
        Ok(value)
    } else {
        Err(parser.error("trailing characters after the JSON value"))
    }
}

impl Json {
    /// The member called `name`, if this is an object that has one.
    pub(crate) fn member(&self, name: &str) -> Option<&Json> {
        match self {
            Json::Object(members) => members
                .iter()
                .find(|(member_name, _)| member_name == name)
                .map(|(_, value)| value),
            _ => None,
        }
    }

    pub(crate) fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }

    pub(crate) fn as_array(&self) -> Option<&[Json]> {
        match self {
            Json::Array(items) => Some(items),
            _ => None,
        }
    }
}

struct Parser<'a> {
    text: &'a str,
    byte_offset: usize,
}

impl Parser<'_> {
    fn error(&self, message: &'static str) -> JsonError {
        JsonError {
            byte_offset: self.byte_offset,
            message,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.byte_offset).copied()
    }

    fn skip_whitespace(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.byte_offset += 1;
        }
    }

    fn expect_literal(&mut self, literal: &'static str) -> Result<(), JsonError> {
        if self.text[self.byte_offset..].starts_with(literal) {
            self.byte_offset += literal.len();
            Ok(())
        } else {
            Err(self.error("unknown literal (expected true, false or null)"))
        }
    }

    fn value(&mut self, depth: usize) -> Result<Json, JsonError> {
        match self.peek() {
            None => Err(self.error("unexpected end of input")),
            Some(b'{') => self.object(depth + 1),
            Some(b'[') => self.array(depth + 1),
            Some(b'"') => self.string().map(Json::String),
            Some(b't') => self.expect_literal("true").map(|()| Json::Bool(true)),
            Some(b'f') => self.expect_literal("false").map(|()| Json::Bool(false)),
            Some(b'n') => self.expect_literal("null").map(|()| Json::Null),
            Some(b'-' | b'0'..=b'9') => self.number().map(Json::Number),
            Some(_) => Err(self.error("unexpected character (expected a JSON value)")),
        }
    }

    fn object(&mut self, depth: usize) -> Result<Json, JsonError> {
        if depth > MAX_DEPTH {
            return Err(self.error("nesting too deep"));
        }
        self.byte_offset += 1; // '{'
        let mut members: Vec<(String, Json)> = Vec::new();
        self.skip_whitespace();
        if self.peek() == Some(b'}') {
            self.byte_offset += 1;
            return Ok(Json::Object(members));
        }
        loop {
            self.skip_whitespace();
            if self.peek() != Some(b'"') {
                return Err(self.error("expected a member name"));
            }
            let name_offset = self.byte_offset;
            let name = self.string()?;
            if members.iter().any(|(existing, _)| *existing == name) {
                return Err(JsonError {
                    byte_offset: name_offset,
                    message: "duplicate member name",
                });
            }
            self.skip_whitespace();
            if self.peek() != Some(b':') {
                return Err(self.error("expected ':' after a member name"));
            }
            self.byte_offset += 1;
            self.skip_whitespace();
            let value = self.value(depth)?;
            members.push((name, value));
            self.skip_whitespace();
            match self.peek() {
                Some(b',') => self.byte_offset += 1,
                Some(b'}') => {
                    self.byte_offset += 1;
                    return Ok(Json::Object(members));
                }
                _ => return Err(self.error("expected ',' or '}' in an object")),
            }
        }
    }

    fn array(&mut self, depth: usize) -> Result<Json, JsonError> {
        if depth > MAX_DEPTH {
            return Err(self.error("nesting too deep"));
        }
        self.byte_offset += 1; // '['
        let mut items = Vec::new();
        self.skip_whitespace();
        if self.peek() == Some(b']') {
            self.byte_offset += 1;
            return Ok(Json::Array(items));
        }
        loop {
            self.skip_whitespace();
            items.push(self.value(depth)?);
            self.skip_whitespace();
            match self.peek() {
                Some(b',') => self.byte_offset += 1,
                Some(b']') => {
                    self.byte_offset += 1;
                    return Ok(Json::Array(items));
                }
                _ => return Err(self.error("expected ',' or ']' in an array")),
            }
        }
    }

    fn number(&mut self) -> Result<String, JsonError> {
        let start = self.byte_offset;
        if self.peek() == Some(b'-') {
            self.byte_offset += 1;
        }
        match self.peek() {
            Some(b'0') => self.byte_offset += 1,
            Some(b'1'..=b'9') => self.digits(),
            _ => return Err(self.error("expected a digit")),
        }
        if self.peek() == Some(b'.') {
            self.byte_offset += 1;
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(self.error("expected a digit after '.'"));
            }
            self.digits();
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.byte_offset += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.byte_offset += 1;
            }
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(self.error("expected a digit in the exponent"));
            }
            self.digits();
        }
        Ok(self.text[start..self.byte_offset].to_owned())
    }

    fn digits(&mut self) {
        while let Some(b'0'..=b'9') = self.peek() {
            self.byte_offset += 1;
        }
    }

    /// Parses a string starting at its opening quote.
    fn string(&mut self) -> Result<String, JsonError> {
        self.byte_offset += 1; // '"'
        let mut out = String::new();
        loop {
            // Copy the run up to the next quote, backslash or control character
            // in one go: those are all ASCII, so the slice ends on a char boundary.
            let run_start = self.byte_offset;
            while let Some(byte) = self.peek() {
                if byte == b'"' || byte == b'\\' || byte < 0x20 {
                    break;
                }
                self.byte_offset += 1;
            }
            out.push_str(&self.text[run_start..self.byte_offset]);
            match self.peek() {
                None => return Err(self.error("unterminated string")),
                Some(b'"') => {
                    self.byte_offset += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.byte_offset += 1;
                    let escaped = match self.peek() {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{C}',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'u') => {
                            self.byte_offset += 1;
                            out.push(self.unicode_escape()?);
                            continue;
                        }
                        _ => return Err(self.error("unknown escape sequence")),
                    };
                    self.byte_offset += 1;
                    out.push(escaped);
                }
                Some(_) => return Err(self.error("control character in a string")),
            }
        }
    }

    /// Parses the hex digits after `\u`, and a second `\uXXXX` for a surrogate pair.
    fn unicode_escape(&mut self) -> Result<char, JsonError> {
        let first = self.hex4()?;
        let code_point = match first {
            0xD800..=0xDBFF => {
                if !self.text[self.byte_offset..].starts_with("\\u") {
                    return Err(self.error("lone high surrogate in \\u escape"));
                }
                self.byte_offset += 2;
                let second = self.hex4()?;
                if !(0xDC00..=0xDFFF).contains(&second) {
                    return Err(self.error("high surrogate not followed by a low surrogate"));
                }
                0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            }
            0xDC00..=0xDFFF => return Err(self.error("lone low surrogate in \\u escape")),
            _ => first,
        };
        char::from_u32(code_point).ok_or_else(|| self.error("invalid \\u escape"))
    }

    fn hex4(&mut self) -> Result<u32, JsonError> {
        let mut value = 0;
        for _ in 0..4 {
            let digit = self
                .peek()
                .and_then(|byte| char::from(byte).to_digit(16))
                .ok_or_else(|| self.error("expected four hex digits in \\u escape"))?;
            value = value * 16 + digit;
            self.byte_offset += 1;
        }
        Ok(value)
    }
}

#[cfg(test)]
mod tests {
    use super::{Json, parse};

    #[test]
    fn parses_nested_values() {
        let json =
            parse(r#" [ {"a": "x\u00e9\ud83d\ude00\n", "b": [1, -2.5e3, true, null]} ] "#).unwrap();
        let object = &json.as_array().unwrap()[0];
        assert_eq!(object.member("a").unwrap().as_str(), Some("xé😀\n"));
        assert_eq!(
            object.member("b"),
            Some(&Json::Array(vec![
                Json::Number("1".to_owned()),
                Json::Number("-2.5e3".to_owned()),
                Json::Bool(true),
                Json::Null,
            ]))
        );
    }

    #[test]
    fn rejects_malformed_input() {
        for bad in [
            "",
            "[",
            "[1,]",
            "{\"a\" 1}",
            "\"abc",
            "\"\\x\"",
            "\"\\ud800\"",
            "01",
            "[1] 2",
            "{\"a\":1,\"a\":2}",
            "\"\u{1}\"",
            "tru",
            "-",
            "1.",
            "1e",
        ] {
            assert!(parse(bad).is_err(), "accepted {bad:?}");
        }
        let deep = "[".repeat(1000) + &"]".repeat(1000);
        assert_eq!(parse(&deep).unwrap_err().message, "nesting too deep");
    }
}
