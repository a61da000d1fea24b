//! Did you mean: the closest known name to a misspelt one, for the diagnostics of every stage.

/// The closest of `candidates` to a misspelt `name`, if one is close enough: the did-you-mean
/// of every stage.
pub fn suggest_name<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    let mut best: Option<(f64, &str)> = None;
    for c in candidates {
        if c == name {
            continue;
        }
        let score = strsim::jaro_winkler(name, c);
        // Ties go to the name first in alphabetical order, whatever order the candidates come
        // in (some come from hash maps), so that the same mistake gets the same suggestion.
        let better = |(b, bc): (f64, &str)| score > b || (score == b && c < bc);
        if score > 0.8 && best.is_none_or(better) {
            best = Some((score, c));
        }
    }
    best.map(|(_, c)| c.to_string())
}
