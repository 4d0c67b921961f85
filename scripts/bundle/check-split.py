#!/usr/bin/env python3
"""Checks that the split bundle's chunks carry their own data.

cargo-leptos' splitter (wasm_split_cli_support 0.2.3) gives up splitting a data segment
whose per-module layout comes out longer than the segment ("Overlong segment … putting it in
main module", a warning cargo-leptos does not show) and leaves every chunk's strings and
shaders in the main module: the first download then doubles. `frontend/src/lib.rs` pads the
segments against it (SPLIT_SLACK_*). This fails the build when it happens anyway.
Healthy here: chunks 247 KB of data, main 224 KB; fallen back: main 467 KB, chunks next to none.

Usage: scripts/bundle/check-split.py target/site/pkg [main name, default space-baduk]
"""
import os
import sys

from wasm_sections import sections


def data_bytes(path):
    """The size of a module's data section (0 without one)."""
    b = open(path, "rb").read()
    return next((size for sid, _, _, size in sections(b, f"check-split: {path}") if sid == 11), 0)


def main():
    pkg = sys.argv[1] if len(sys.argv) > 1 else "target/site/pkg"
    name = sys.argv[2] if len(sys.argv) > 2 else "space-baduk"
    main_path = os.path.join(pkg, f"{name}.wasm")
    if not os.path.exists(main_path):
        raise SystemExit(f"check-split: no {main_path}; build with cargo leptos build --release --split")
    main_data = data_bytes(main_path)
    chunks = [os.path.join(pkg, f) for f in os.listdir(pkg) if f.endswith(".wasm") and f != f"{name}.wasm"]
    chunk_data = sum(data_bytes(c) for c in chunks)
    print(f"check-split: main module data {main_data} B; {len(chunks)} chunks, data {chunk_data} B")
    if not chunks:
        raise SystemExit("check-split: no chunks: the bundle was not split (cargo leptos build needs --split)")
    if chunk_data * 4 < main_data:
        raise SystemExit(
            "check-split: the chunks' data stayed in the main module (the splitter's 'Overlong segment' "
            "fallback). Raise SPLIT_SLACK_RODATA / SPLIT_SLACK_DATA in frontend/src/lib.rs, or run "
            "wasm-split-cli (wasm_split_cli_support) on target/front/…/frontend.wasm with RUST_LOG=warn to see it."
        )


if __name__ == "__main__":
    main()
