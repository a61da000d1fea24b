//! The built-in functions, each declared once: its name, arguments, the rulebook's words for it,
//! whether it visits a whole list, and its line in docs/language.md. The checker, the language
//! server, the rulebook and the memo analysis read these facts here, and tests hold the editor
//! grammars and the docs to them. (What each one computes is the engine's `Eval::builtin`; its
//! type rule is the checker's `builtin_call`, and its reach `check/ranges.rs`: each of those is
//! code over the checker's or the engine's state, not a fact.)

/// Built-in functions on values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Builtin {
    /// Number of elements.
    Count,
    /// Sum of integers.
    Sum,
    /// Smallest integer (`none`, or the second argument, for an empty list).
    Min,
    /// Largest integer (`none`, or the second argument, for an empty list).
    Max,
    /// The elements whose value occurs more than once, in order.
    Duplicates,
    /// The other players, clockwise from the one after `p`.
    Others,
    /// All players clockwise starting at `p`.
    SeatsFrom,
    /// The player to the left.
    Next,
    /// The player to the right.
    Prev,
    /// A list reversed.
    Reverse,
    /// Absolute value.
    Abs,
    /// First element, or none.
    First,
    /// Last element, or none.
    Last,
    /// Seat number, 1-based.
    Seat,
    /// Each value once, in first-seen order.
    Distinct,
    /// A list sorted ascending.
    Sort,
    /// The i-th element, counting from 1.
    Nth,
    /// The first n elements.
    Take,
    /// All but the first n elements.
    Drop,
    /// Where a value first stands in a list, counting from 1; 0 if absent.
    Position,
    /// Every sub-list, in order, from the empty one to the whole list.
    Subsets,
    /// The player in seat i, counting from 1.
    AtSeat,
    /// A number held between two bounds.
    Clamp,
    /// `xs[i]`: the element at position i (from 1) of a list; no name calls it.
    Index,
    /// The list with the element at position i replaced (`xs[i] = v`); no name calls it.
    Replace,
    /// The list with one element equal to `v` taken out, or one of each element of the list
    /// `v` where the third argument is false (`xs[i] -= v`); no name calls it.
    Without,
    /// `m[k]` of a map by a range `lo..hi`: the position of key k, from 1, or an
    /// `out-of-range` error for a key outside the range; no name calls it.
    Key,
    /// `m[p]` of a map by player: the seat of player p, from 1, or an error for `none`; no
    /// name calls it.
    PlayerKey,
    /// `m[c]` of a map by a kind: the instance's number, from 1, or a `no-value` error for
    /// `none`; no name calls it.
    InstanceKey,
}

/// What is known of one built-in, declared in [`Builtin::facts`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Facts {
    /// Its name, as rules call it (for those written with brackets, how they are written).
    pub name: &'static str,
    /// How many arguments it takes.
    pub arity: usize,
    /// Whether one more argument may follow: the value when the list is empty.
    pub takes_default: bool,
    /// Whether it walks a whole list, so that a def calling it is worth remembering.
    pub visits_list: bool,
    /// Whether it only reads its first argument's values, so that it takes a map's values as
    /// a list (`sum(p.gems)`); the others would reach a map's positions or change its length.
    pub reads_values: bool,
    /// The rulebook's words for a call (see [`Words`]); empty for those no name calls.
    pub words: Words,
    /// How a call is written, with its arguments named (`nth(xs, i)`); empty for those no name
    /// calls.
    pub usage: &'static str,
    /// Its line in docs/language.md's table of built-in functions, which the language server
    /// shows too; empty for those no name calls.
    pub doc: &'static str,
}

/// The rulebook's words for a call. In `text`, `{0}` is the first argument as a term, `{list 0}`
/// the same but a comprehension without its article ("the number of c in crate where ..."),
/// and so on for `{1}`, `{2}`. A call with the default argument reads
/// "... (`d` if there is none)".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Words {
    /// The phrase, with its arguments' places.
    pub text: &'static str,
    /// True if the phrase reads as a comparison ("x held between 1 and 5"): bracketed inside
    /// arithmetic, bare inside `and` and `or`.
    pub comparison: bool,
}

/// Words of a phrase that binds like a single term.
const fn says(text: &'static str) -> Words {
    Words {
        text,
        comparison: false,
    }
}

/// Words of a phrase that reads as a comparison.
const fn compares(text: &'static str) -> Words {
    Words {
        text,
        comparison: true,
    }
}

/// The facts of a built-in that rules call by name, written `usage`, of one argument until
/// said otherwise.
const fn called(name: &'static str, usage: &'static str) -> Facts {
    Facts {
        name,
        arity: 1,
        takes_default: false,
        visits_list: false,
        reads_values: false,
        words: says(""),
        usage,
        doc: "",
    }
}

/// The facts of a built-in written with brackets, which no name calls.
const fn written(name: &'static str, arity: usize) -> Facts {
    called(name, "").arity(arity)
}

impl Facts {
    /// The same, with the rulebook's words.
    const fn words(self, words: Words) -> Facts {
        Facts { words, ..self }
    }

    /// The same, with its line in the docs.
    const fn doc(self, doc: &'static str) -> Facts {
        Facts { doc, ..self }
    }

    /// The same, taking `n` arguments.
    const fn arity(self, n: usize) -> Facts {
        Facts { arity: n, ..self }
    }

    /// The same, walking a whole list.
    const fn visits_list(self) -> Facts {
        Facts {
            visits_list: true,
            ..self
        }
    }

    /// The same, reading only a list's values (a map's too).
    const fn reads_values(self) -> Facts {
        Facts {
            reads_values: true,
            ..self
        }
    }

    /// The same, with an optional last argument for an empty list.
    const fn takes_default(self) -> Facts {
        Facts {
            takes_default: true,
            ..self
        }
    }
}

impl Builtin {
    /// Every built-in function rules call by name, in the order the checker lists them for
    /// suggestions.
    pub const ALL: [Builtin; 23] = [
        Builtin::Count,
        Builtin::Sum,
        Builtin::Min,
        Builtin::Max,
        Builtin::Duplicates,
        Builtin::Others,
        Builtin::SeatsFrom,
        Builtin::Next,
        Builtin::Prev,
        Builtin::Reverse,
        Builtin::Abs,
        Builtin::First,
        Builtin::Last,
        Builtin::Seat,
        Builtin::Distinct,
        Builtin::Sort,
        Builtin::Nth,
        Builtin::Take,
        Builtin::Drop,
        Builtin::Position,
        Builtin::Subsets,
        Builtin::AtSeat,
        Builtin::Clamp,
    ];

    /// Everything known of it: the one place a built-in is declared.
    // Long because it is one match over every built-in, an arm its facts.
    pub const fn facts(self) -> Facts {
        match self {
            Builtin::Count => called("count", "count(xs)")
                .words(says("the number of {list 0}"))
                .doc("how many elements")
                .visits_list()
                .reads_values(),
            Builtin::Sum => called("sum", "sum(xs)")
                .words(says("the total of {list 0}"))
                .doc("the total of a list of numbers (0 if empty)")
                .visits_list()
                .reads_values(),
            Builtin::Min => called("min", "min(xs)")
                .words(says("the least of {list 0}"))
                .doc("the least number: `none` if `xs` is empty, or `d` if given")
                .visits_list()
                .reads_values()
                .takes_default(),
            Builtin::Max => called("max", "max(xs)")
                .words(says("the greatest of {list 0}"))
                .doc("the greatest number: `none` if `xs` is empty, or `d` if given")
                .visits_list()
                .reads_values()
                .takes_default(),
            Builtin::First => called("first", "first(xs)")
                .words(says("the first of {list 0}"))
                .doc("the first element: `none` if `xs` is empty, or `d` if given")
                .takes_default(),
            Builtin::Last => called("last", "last(xs)")
                .words(says("the last of {list 0}"))
                .doc("the last element: `none` if `xs` is empty, or `d` if given")
                .takes_default(),
            Builtin::Nth => called("nth", "nth(xs, i)")
                .words(says("item {1} of {list 0}"))
                .doc(
                    "the i-th element, counting from 1; outside the list, the game stops with \
                    `out-of-range`",
                )
                .arity(2),
            Builtin::Position => called("position", "position(xs, x)")
                .words(says("the position of {1} in {list 0}"))
                .doc("where `x` first stands in `xs`, counting from 1; 0 if it is absent")
                .arity(2)
                .visits_list(),
            Builtin::Take => called("take", "take(xs, n)")
                .words(says("the first {1} of {list 0}"))
                .doc("the first `n` elements")
                .arity(2),
            Builtin::Drop => called("drop", "drop(xs, n)")
                .words(says("{0} without its first {1}"))
                .doc("all but the first `n` elements")
                .arity(2),
            Builtin::Subsets => called("subsets", "subsets(xs)")
                .words(says("every selection from {list 0}"))
                .doc(
                    "every sub-list of `xs` (order kept), smallest first, from `[]` to `xs`; at \
                    most 12 elements",
                )
                .visits_list(),
            Builtin::Sort => called("sort", "sort(xs)")
                .words(says("{0} in increasing order"))
                .doc(
                    "the list in increasing order: numbers by value, `false` before `true`, \
                    players by seat, enum values as declared, instances by number",
                )
                .visits_list()
                .reads_values(),
            Builtin::Reverse => called("reverse", "reverse(xs)")
                .words(says("{0} in reverse order"))
                .doc("the list backwards")
                .visits_list(),
            Builtin::Distinct => called("distinct", "distinct(xs)")
                .words(says("{0} without repeats"))
                .doc("the list without repeats, first occurrences kept")
                .visits_list()
                .reads_values(),
            Builtin::Duplicates => called("duplicates", "duplicates(xs)")
                .words(says("the repeated values of {list 0}"))
                .doc(
                    "every element that occurs more than once, each occurrence kept: \
                    `duplicates([3, 3, 5, 5, 5, 2])` is `[3, 3, 5, 5, 5]`",
                )
                .visits_list(),
            Builtin::Abs => called("abs", "abs(n)")
                .words(says("the size of {list 0}"))
                .doc("the size of a number without its sign"),
            Builtin::Clamp => called("clamp", "clamp(x, lo, hi)")
                .words(compares("{0} held between {1} and {2}"))
                .doc("`x` held between `lo` and `hi`")
                .arity(3),
            Builtin::Seat => called("seat", "seat(p)")
                .words(says("the seat number of {0}"))
                .doc("the seat number of a player, from 1"),
            Builtin::AtSeat => called("at_seat", "at_seat(i)")
                .words(says("the player in seat {0}"))
                .doc("the player in seat `i`, counting from 1 (`out-of-range` if there is none)"),
            Builtin::Next => called("next", "next(p)")
                .words(says("the player after {0}"))
                .doc(
                    "the player to the left (next in seat order), wrapping round, past players \
                    out of the game",
                ),
            Builtin::Prev => called("prev", "prev(p)")
                .words(says("the player before {0}"))
                .doc(
                    "the player to the right (before in seat order), wrapping round, past \
                    players out of the game",
                ),
            Builtin::Others => called("others", "others(p)")
                .words(says("the players other than {0}"))
                .doc("every other player still in, in seat order starting after `p`"),
            Builtin::SeatsFrom => called("seats_from", "seats_from(p)")
                .words(says("the players in seat order from {0}"))
                .doc("every player still in, in seat order starting with `p`"),
            // Written with brackets, not called by name: not in `ALL`.
            Builtin::Index => written("xs[i]", 2),
            Builtin::Replace => written("xs[i] = v", 3),
            Builtin::Without => written("xs[i] -= x", 3),
            Builtin::Key => written("m[k]", 3),
            Builtin::PlayerKey => written("m[k]", 1),
            Builtin::InstanceKey => written("m[k]", 1),
        }
    }

    /// Its name, as rules call it (for those written with brackets, how they are written).
    pub const fn name(self) -> &'static str {
        self.facts().name
    }

    /// The built-in function called `name`, if one is.
    pub fn by_name(name: &str) -> Option<Builtin> {
        Builtin::ALL.into_iter().find(|b| b.name() == name)
    }

    /// How many arguments it takes.
    pub const fn arity(self) -> usize {
        self.facts().arity
    }

    /// Whether a second argument may follow the first: the value when the list is empty.
    pub const fn takes_default(self) -> bool {
        self.facts().takes_default
    }

    /// How its calls are written in docs/language.md's table: `min(xs)`, and `min(xs, d)` for
    /// one that takes a default.
    pub fn forms(self) -> String {
        let usage = self.facts().usage;
        match usage.strip_suffix(')') {
            Some(open) if self.takes_default() => format!("`{usage}`, `{open}, d)`"),
            _ => format!("`{usage}`"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{QueryKind, QUERY_NAMES};

    #[test]
    fn each_built_in_is_found_by_its_one_name() {
        let mut names = std::collections::BTreeSet::new();
        for b in Builtin::ALL {
            assert_eq!(Builtin::by_name(b.name()), Some(b));
            assert!(names.insert(b.name()), "{} twice", b.name());
        }
        for q in QUERY_NAMES {
            assert!(names.insert(q), "{q} is a query and a built-in");
            assert_eq!(Builtin::by_name(q), None);
            assert_eq!(QueryKind::by_name(q).map(QueryKind::name), Some(q));
        }
        assert_eq!(Builtin::by_name("join"), None);
        for bracketed in [
            Builtin::Index,
            Builtin::Replace,
            Builtin::Without,
            Builtin::Key,
            Builtin::PlayerKey,
            Builtin::InstanceKey,
        ] {
            assert!(!Builtin::ALL.contains(&bracketed));
            assert_eq!(Builtin::by_name(bracketed.name()), None);
        }
    }

    #[test]
    fn every_called_built_in_is_declared_whole() {
        for b in Builtin::ALL {
            let f = b.facts();
            assert!(
                f.usage.starts_with(&format!("{}(", f.name)),
                "{f:?}: its usage calls it"
            );
            let args = f.usage.matches(',').count() + 1;
            assert_eq!(args, f.arity, "{f:?}: its usage names its arguments");
            assert!(!f.doc.is_empty() && !f.words.text.is_empty(), "{f:?}");
            for i in 0..f.arity {
                assert!(
                    f.words.text.contains(&format!("{{{i}}}"))
                        || f.words.text.contains(&format!("{{list {i}}}")),
                    "{f:?}: its words leave out argument {i}"
                );
            }
        }
    }

    #[test]
    fn only_those_that_take_a_default_are_written_with_two_forms() {
        assert_eq!(Builtin::Min.forms(), "`min(xs)`, `min(xs, d)`");
        assert_eq!(Builtin::Nth.forms(), "`nth(xs, i)`");
    }
}
