//! The compiled program: the stage between the resolved program (`ir`) and play.
//!
//! Once per program and player count, the engine turns what it will run into forms made for
//! running rather than for reading:
//!
//! - every body of statements (`flat.rs`) into one run of instructions, with jumps for
//!   branches and loops and each loop's state in slots of its frame, so that the machine
//!   (`exec.rs`) steps through an array rather than a stack of block cursors;
//! - every numbered root expression (`exprs.rs`) into a tree of typed closures.
//!
//! Both give exactly what the plain forms give: the same values, errors, spans and work spent
//! (`tests/compiled.rs` plays every rules file with the closures and with the reference tree
//! walker, `engine::reference`, which only test builds contain).

mod exprs;
pub(crate) mod fields;
pub(crate) mod flat;

use crate::ir::Program;

/// A program's compiled code, kept beside a game's domains.
pub struct Code {
    roots: exprs::Roots,
    /// The statements of every body, flattened.
    pub(crate) flat: flat::Flat,
}

impl std::fmt::Debug for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Code({} roots, {} instructions)",
            self.roots.len(),
            self.flat.len()
        )
    }
}

/// No code: a game whose initial values are not set yet.
impl Default for Code {
    fn default() -> Code {
        Code {
            roots: exprs::Roots::default(),
            flat: flat::Flat::default(),
        }
    }
}

/// Code is derived from the program: two games of one program have equal code.
impl PartialEq for Code {
    fn eq(&self, _: &Code) -> bool {
        true
    }
}

impl Eq for Code {}

impl Code {
    /// Compiles a program: its bodies of statements, and every numbered root (none when the
    /// roots are not numbered: every expression is then compiled when evaluated).
    pub fn compile(program: &Program) -> Code {
        Code {
            roots: exprs::Roots::compile(program),
            flat: flat::Flat::compile(program),
        }
    }

    /// True if the program's roots were numbered and compiled (otherwise every expression is
    /// compiled on the spot, or walked by the reference walker of a test build).
    #[cfg(any(test, feature = "reference"))]
    #[inline(always)]
    pub(crate) fn is_compiled(&self) -> bool {
        self.roots.len() > 0
    }

    /// Compiles an expression that is no root of the program, to run it once.
    pub(crate) fn once(e: &crate::ir::Expr) -> exprs::Node {
        exprs::once(e)
    }

    /// The code of root `i`, if compiled.
    #[inline(always)]
    pub(crate) fn root(&self, i: u32) -> Option<&exprs::Node> {
        self.roots.root(i)
    }

    /// The code of root `i` as a condition, if compiled as one.
    #[inline(always)]
    pub(crate) fn condition(&self, i: u32) -> Option<&exprs::BoolNode> {
        self.roots.condition(i)
    }

    /// The code of root `i` as a list read where it lies, if compiled as one.
    #[inline(always)]
    pub(in crate::engine) fn source(&self, i: u32) -> Option<&exprs::Source> {
        self.roots.source(i)
    }

    /// The code of root `i` as a number, if compiled as one.
    #[inline(always)]
    pub(crate) fn number(&self, i: u32) -> Option<&exprs::IntNode> {
        self.roots.number(i)
    }
}
