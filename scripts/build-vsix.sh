#!/usr/bin/env bash
# Builds the VS Code extension in editors/vscode into target/vscode/meeple-VERSION.vsix, ready for
# `code --install-extension`. Needs Node.js (16 or later) and npm, and the npm registry: it
# installs the extension's locked dependencies (`npm ci`) and runs vsce, the packager, at the
# version pinned below (VSCE_VERSION overrides it). The .vsix is never committed (target/ is
# ignored). Prints the path of the .vsix on its last line.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# 2.32.0 is the last vsce that runs on Node 18, Debian 12's; vsce 3 needs Node 20, vsce 4 Node 22.
vsce="@vscode/vsce@${VSCE_VERSION:-2.32.0}"
out="$root/target/vscode"
mkdir -p "$out"
cd "$root/editors/vscode"
version="$(node -p 'require("./package.json").version')"
# Only the runtime dependency (vscode-languageclient) goes into the package; vsce lists it from
# node_modules, so it must be installed, at the locked version.
npm ci --omit=dev --no-audit --no-fund --loglevel=error
# keytar, an optional dependency of vsce, stores publishing tokens: packaging does not need it.
npx --yes --omit=optional --package="$vsce" -- vsce package \
  --allow-missing-repository --skip-license --out "$out/meeple-$version.vsix" >&2
echo "$out/meeple-$version.vsix"
