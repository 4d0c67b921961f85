#!/usr/bin/env python3
"""Drops the custom sections of the split bundle's WASM files, chunks and main module.

wasm-opt, as cargo-leptos runs it on each chunk, keeps every chunk's `producers` and
`target_features` sections: about 200 bytes of tool names per file, which nothing reads at
run time (browsers ignore custom sections; the splitter's loader does not ask for them). The
room page loads ~250 chunks, most of them a few hundred bytes, and each is compressed on its
own, so those sections were ~37 KB of its gzip download. `wasm-tools strip` does the same;
this is 30 lines where that would be one more tool to build on every fresh machine.

Usage: scripts/bundle/strip-chunks.py target/site/pkg
"""
import os
import sys

from wasm_sections import sections


def stripped(b, what):
    """`b` without its custom sections (id 0); every other section as it was, in order."""
    out = bytearray(b[:8])
    for sid, start, body, size in sections(b, what):
        if sid != 0:
            out += b[start : body + size]
    return bytes(out)


def main():
    pkg = sys.argv[1] if len(sys.argv) > 1 else "target/site/pkg"
    before = after = files = 0
    for name in sorted(os.listdir(pkg)):
        if not name.endswith(".wasm"):
            continue
        path = os.path.join(pkg, name)
        b = open(path, "rb").read()
        s = stripped(b, f"strip-chunks: {path}")
        before += len(b)
        after += len(s)
        files += 1
        if len(s) != len(b):
            with open(path + ".tmp", "wb") as f:
                f.write(s)
            os.replace(path + ".tmp", path)
    print(f"strip-chunks: {files} WASM files, {before} -> {after} bytes")


if __name__ == "__main__":
    main()
