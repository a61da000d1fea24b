//! `meeple test --junit FILE`: the outcome of every test as a JUnit XML report, the format CI
//! services (GitLab, Jenkins, GitHub's test reporters) show test by test.

use crate::files::JUNIT_MARK;
use crate::printable::html as xml;
use std::path::Path;

/// One test: a check, a scenario, a bot game or a golden file.
#[derive(Debug, Clone)]
pub(super) struct Case {
    /// What was tested, as `meeple test` prints it.
    pub name: String,
    /// Why it failed: a one-line message and the full text (a diagnostic, a diff).
    pub failure: Option<(String, String)>,
}

/// The tests of one rules file.
#[derive(Debug)]
pub(super) struct Suite {
    name: String,
    cases: Vec<Case>,
}

/// Every file's tests, in the order they ran.
#[derive(Debug, Default)]
pub(super) struct Junit {
    suites: Vec<Suite>,
}

impl Junit {
    /// Adds the tests of `file`.
    pub(super) fn add(&mut self, file: &Path, cases: Vec<Case>) {
        self.suites.push(Suite {
            name: file.display().to_string(),
            cases,
        });
    }

    /// The report as XML. Names and texts come from rules files: escaped as XML, and control
    /// characters (which XML 1.0 cannot hold at all) written as `\u{..}`.
    pub(super) fn to_xml(&self) -> String {
        let count = |s: &Suite| s.cases.len();
        let failures = |s: &Suite| s.cases.iter().filter(|c| c.failure.is_some()).count();
        let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        out.push_str(&format!(
            "{JUNIT_MARK} tests=\"{}\" failures=\"{}\" errors=\"0\">\n",
            self.suites.iter().map(count).sum::<usize>(),
            self.suites.iter().map(failures).sum::<usize>(),
        ));
        for suite in &self.suites {
            let name = xml(&suite.name);
            out.push_str(&format!(
                "  <testsuite name=\"{name}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"0\">\n",
                count(suite),
                failures(suite)
            ));
            for case in &suite.cases {
                let case_name = xml(&case.name);
                match &case.failure {
                    None => out.push_str(&format!(
                        "    <testcase classname=\"{name}\" name=\"{case_name}\"/>\n"
                    )),
                    Some((message, text)) => out.push_str(&format!(
                        "    <testcase classname=\"{name}\" name=\"{case_name}\">\n      \
                         <failure message=\"{}\">{}</failure>\n    </testcase>\n",
                        xml(message),
                        xml(text)
                    )),
                }
            }
            out.push_str("  </testsuite>\n");
        }
        out.push_str("</testsuites>\n");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_escapes() {
        let mut j = Junit::default();
        j.add(
            Path::new("a&b.rules"),
            vec![
                Case {
                    name: "ok <one>".into(),
                    failure: None,
                },
                Case {
                    name: "bad \u{1b}[2J".into(),
                    failure: Some(("it \"broke\"".into(), "line 1\nx < y".into())),
                },
            ],
        );
        let x = j.to_xml();
        assert!(x.contains("tests=\"2\" failures=\"1\""), "{x}");
        assert!(x.contains("name=\"a&amp;b.rules\""), "{x}");
        assert!(x.contains("name=\"ok &lt;one&gt;\"/>"), "{x}");
        assert!(
            x.contains("message=\"it &quot;broke&quot;\">line 1\nx &lt; y</failure>"),
            "{x}"
        );
        assert!(!x.contains('\u{1b}'), "{x}");
        assert!(x.contains(JUNIT_MARK), "{x}");
    }
}
