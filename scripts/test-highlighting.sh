#!/usr/bin/env bash
# Tests the TextMate grammar of the VS Code extension (editors/vscode/syntaxes/) against the
# annotated samples in editors/vscode/tests/, with vscode-tmgrammar-test at the version pinned in
# editors/vscode/package-lock.json. Needs Node.js and npm; not part of `cargo test`.
# Exits non-zero when a sample's expected scope is wrong.
set -euo pipefail
cd "$(dirname "$0")/../editors/vscode"
npm ci --no-audit --no-fund --loglevel=error
npx --no-install vscode-tmgrammar-test --grammar syntaxes/meeple.tmLanguage.json "tests/*.rules"
