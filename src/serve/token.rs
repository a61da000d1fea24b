//! The keys of a table: 128 random bits from the operating system for each seat and one for
//! onlookers, written as 32 hex digits in the seat's link.

use super::table::Who;

/// One key.
#[derive(Clone, PartialEq, Eq)]
pub struct Token(String);

impl Token {
    /// A fresh key from the operating system's randomness.
    fn fresh() -> Result<Token, std::io::Error> {
        let mut bytes = [0u8; 16];
        getrandom::fill(&mut bytes).map_err(|e| std::io::Error::other(e.to_string()))?;
        Ok(Token(bytes.iter().map(|b| format!("{b:02x}")).collect()))
    }

    /// The key as it stands in a link.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for Token {
    // A key is a seat's only credential: never printed by accident.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Token(..)")
    }
}

/// The keys of every seat, then the onlookers'.
pub struct Tokens {
    seats: Vec<Token>,
    onlooker: Token,
}

impl Tokens {
    /// Fresh keys for `players` seats and the onlookers, all different.
    pub fn fresh(players: u8) -> Result<Tokens, std::io::Error> {
        let mut all: Vec<Token> = Vec::new();
        while all.len() < players as usize + 1 {
            let t = Token::fresh()?;
            if !all.contains(&t) {
                all.push(t);
            }
        }
        let onlooker = all.pop().expect("one key more than seats");
        Ok(Tokens {
            seats: all,
            onlooker,
        })
    }

    /// Whose key `text` is. Every key is compared in full whatever matches, so that the time
    /// taken does not tell how much of a guess was right.
    pub fn who(&self, text: &str) -> Option<Who> {
        let mut found = None;
        for (p, t) in self.seats.iter().enumerate() {
            if same(t.as_str(), text) {
                found = Some(Who::Seat(p as u8));
            }
        }
        if same(self.onlooker.as_str(), text) {
            found = Some(Who::Onlooker);
        }
        found
    }

    /// The key of `who`.
    pub fn token_of(&self, who: Who) -> &Token {
        match who {
            Who::Seat(p) => &self.seats[p as usize],
            Who::Onlooker => &self.onlooker,
        }
    }
}

/// Equal texts, compared byte by byte without stopping at the first difference.
fn same(key: &str, guess: &str) -> bool {
    if key.len() != guess.len() {
        return false;
    }
    key.bytes()
        .zip(guess.bytes())
        .fold(0u8, |acc, (a, b)| acc | (a ^ b))
        == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_long_distinct_and_found_only_whole() {
        let keys = Tokens::fresh(3).expect("the OS gives randomness");
        let texts: Vec<&str> = (0..3)
            .map(|p| keys.token_of(Who::Seat(p)).as_str())
            .chain([keys.token_of(Who::Onlooker).as_str()])
            .collect();
        for (i, t) in texts.iter().enumerate() {
            assert_eq!(t.len(), 32);
            assert!(t.bytes().all(|b| b.is_ascii_hexdigit()));
            assert!(texts[..i].iter().all(|u| u != t));
        }
        assert_eq!(keys.who(texts[1]), Some(Who::Seat(1)));
        assert_eq!(keys.who(texts[3]), Some(Who::Onlooker));
        assert_eq!(keys.who(&texts[1][..31]), None);
        assert_eq!(keys.who(&format!("{}0", texts[1])), None);
        assert_eq!(keys.who(""), None);
        assert!(!format!("{:?}", keys.token_of(Who::Seat(0))).contains(texts[0]));
    }
}
