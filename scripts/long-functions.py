#!/usr/bin/env python3
"""Lists every function over 100 lines in src/ (from its `fn` line to its closing brace), longest
first, with `reason` where a `// Long because ...` line stands above it. Counts as
tests/code_shape.rs does: comments, strings, raw strings and character literals are skipped.

Usage: python3 scripts/long-functions.py [FOLDER ...]   (default: src)
"""
import os
import re
import sys

MAX_LINES = 100
FN = re.compile(r'^\s*(pub(\([^)]*\))?\s+)?((const|async|unsafe|extern "C")\s+)*fn\s+(\w+)')


def body_end(text, start_line):
    """The line of the brace closing the body of the fn starting at `start_line`, or None."""
    lines = text.split("\n")
    t = "\n".join(lines[start_line:])
    i, line, depth, opened, nested = 0, start_line, 0, False, 0
    at = lambda k: t[k] if k < len(t) else "\0"
    while i < len(t):
        c = t[i]
        if c == "\n":
            line += 1
        elif c == "/" and at(i + 1) == "/":
            while i < len(t) and t[i] != "\n":
                i += 1
            continue
        elif c == "/" and at(i + 1) == "*":
            i += 2
            while i < len(t) and not (t[i] == "*" and at(i + 1) == "/"):
                line += t[i] == "\n"
                i += 1
            i += 2
            continue
        elif c == "r" and (at(i + 1) == '"' or (at(i + 1) == "#" and at(i + 2) in '"#')) and not (
            i > 0 and (t[i - 1].isalnum() or t[i - 1] == "_") and t[i - 1] != "b"
        ):
            hashes = len(t[i + 1:]) - len(t[i + 1:].lstrip("#"))
            i += 2 + hashes
            while True:
                if i >= len(t):
                    return None
                if t[i] == '"' and all(at(i + k) == "#" for k in range(1, hashes + 1)):
                    i += 1 + hashes
                    break
                line += t[i] == "\n"
                i += 1
            continue
        elif c == '"':
            i += 1
            while i < len(t) and t[i] != '"':
                if t[i] == "\\":
                    i += 1
                line += at(i) == "\n"
                i += 1
        elif c == "'" and at(i + 1) == "\\":
            i += 3
            while i < len(t) and t[i] != "'":
                i += 1
        elif c == "'" and at(i + 2) == "'":
            i += 2
        elif c == "{":
            depth += 1
            opened = True
        elif c == "}":
            depth = max(depth - 1, 0)
            if opened and depth == 0:
                return line
        elif c in "([":
            nested += 1
        elif c in ")]":
            nested = max(nested - 1, 0)
        elif c == ";" and not opened and nested == 0:
            return None
        i += 1
    return None


def has_reason(lines, start):
    for l in reversed(lines[:start]):
        l = l.lstrip()
        if not (l.startswith("//") or l.startswith("#[")):
            return False
        if l.startswith("// Long because"):
            return True
    return False


def main(roots):
    found = []
    for root in roots:
        paths = [root] if root.endswith(".rs") else [
            os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs if f.endswith(".rs")]
        for path in paths:
            text = open(path, encoding="utf-8").read()
            lines = text.split("\n")
            for n, line in enumerate(lines):
                m = FN.match(line)
                if not m:
                    continue
                end = body_end(text, n)
                if end is not None and end - n + 1 > MAX_LINES:
                    found.append((end - n + 1, path, n + 1, m.group(5), has_reason(lines, n)))
    for length, path, line, name, reason in sorted(found, key=lambda f: (-f[0], f[1], f[2])):
        print(f"{length:4} {path}:{line} {name}{'  (reason)' if reason else ''}")


if __name__ == "__main__":
    main(sys.argv[1:] or ["src"])
