#!/usr/bin/env python3
"""Hand-written Rust files longer than LIMIT lines must say why in their first comment.

A file over the limit passes when a line of its first comment block starts with
`Long file:` (after `//!` or `//`) and gives the reason, or when it is listed in
`scripts/long-files.allowed` (files still to be split: the list may only shrink — a listed
file that is now short, or no longer exists, fails the check until its line is deleted).
"""
import os
import re
import subprocess
import sys

LIMIT = 600
ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def tracked_rust_files():
    out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "*.rs"], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    return [p for p in out.split() if os.path.exists(os.path.join(ROOT, p))]


def reason(path):
    for line in open(os.path.join(ROOT, path), encoding="utf-8"):
        s = line.strip()
        if not s.startswith("//"):
            return None
        if re.match(r"//[!/]?\s*Long file:\s*\S", s):
            return s
    return None


def main():
    allowed_path = os.path.join(ROOT, "scripts", "long-files.allowed")
    allowed = {l.split("#")[0].strip() for l in open(allowed_path)} - {""} if os.path.exists(allowed_path) else set()
    bad, listed_long, longest = [], set(), []
    for p in tracked_rust_files():
        n = sum(1 for _ in open(os.path.join(ROOT, p), encoding="utf-8"))
        longest.append((n, p))
        if n <= LIMIT:
            continue
        if p in allowed:
            listed_long.add(p)
        elif not reason(p):
            bad.append((n, p))
    if "--longest" in sys.argv:
        for n, p in sorted(longest, reverse=True)[:15]:
            print(f"{n:6} {p}")
    stale = sorted(allowed - listed_long)
    for n, p in sorted(bad, reverse=True):
        print(f"{p}: {n} lines (> {LIMIT}) and no 'Long file:' reason in its first comment: split it, or say why not")
    for p in stale:
        print(f"{p}: listed in scripts/long-files.allowed but not over {LIMIT} lines (or gone): delete its line")
    sys.exit(1 if bad or stale else 0)


if __name__ == "__main__":
    main()
