#!/usr/bin/env python3
"""The import graph of the workspace's Rust code, between folders and between top-level modules.

Usage:
  scripts/module-graph.py            figures: folders, arrows, upward arrows, circles, floors
  scripts/module-graph.py --arrows   also every arrow between folders
  scripts/module-graph.py --check    fail if a crate's top-level modules import each other in a
                                     circle that `scripts/module-circles.allowed` does not list
  scripts/module-graph.py --why CRATE A B
                                     the files and paths that make top-level module A of CRATE
                                     import module B (what to move to break a circle)

A *folder* is a source directory (`app/src/matches/state` → `app/matches/state`); a file imports
a folder when it names a path in it (`use crate::…`, `super::…`, `engine::…`, or such a path
inline). An arrow is a pair of folders with at least one such import. *Circles* are the
strongly connected components of more than one folder. *Upward* arrows are the ones that point
backwards in a greedy order that puts few arrows backwards (Eades–Lin–Smyth): the arrows that
would have to go for the folders to stand in floors. *Floors* is the longest chain of arrows
once the upward ones are gone, plus one.

Written here rather than taken from a crate (cargo-modules draws one crate's modules, not
folders across crates, and needs rust-analyzer's build): a regular-expression reading is
enough for counting, and it needs nothing but Python.
"""
import os
import re
import sys
from collections import defaultdict

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
# Crate directory → the name other crates use for it.
CRATES = {}


def crates():
    """Workspace crates with their source roots, read from each Cargo.toml."""
    found = {}
    for dirpath, dirnames, filenames in os.walk(ROOT):
        dirnames[:] = [d for d in dirnames if d not in ("target", "node_modules", ".git", ".tools")]
        if "Cargo.toml" in filenames and os.path.isdir(os.path.join(dirpath, "src")):
            text = open(os.path.join(dirpath, "Cargo.toml")).read()
            m = re.search(r'^\[package\][^\[]*?^name\s*=\s*"([^"]+)"', text, re.M | re.S)
            if m:
                found[m.group(1).replace("-", "_")] = os.path.relpath(dirpath, ROOT)
    return found


USE_RE = re.compile(r"\buse\s+([^;]*);", re.S)
PATH_RE = re.compile(r"\b((?:crate|super|self|[a-z_][a-z0-9_]*)(?:::[A-Za-z_][A-Za-z0-9_]*)+)")
COMMENT_RE = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
STRING_RE = re.compile(r'"(?:\\.|[^"\\])*"')


def expand(tree):
    """`a::{b, c::{d, e}}` → [a::b, a::c::d, a::c::e] (an alias counts as what it names)."""
    tree = re.sub(r"\s+as\s+\w+", "", tree)  # `x as y` imports x
    tree = re.sub(r"\s+", "", tree)
    out = []

    def walk(prefix, s):
        depth, start, parts = 0, 0, []
        for i, ch in enumerate(s):
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            elif ch == "," and depth == 0:
                parts.append(s[start:i])
                start = i + 1
        parts.append(s[start:])
        for part in parts:
            if not part:
                continue
            brace = part.find("{")
            if brace >= 0 and part.endswith("}"):
                head = part[:brace].rstrip(":")
                walk(prefix + ([head] if head else []), part[brace + 1:-1])
            else:
                out.append("::".join(prefix + [part]))

    walk([], tree)
    return out


def module_of(path, root):
    """The module path of a source file: `src/matches/state/fold.rs` → ['matches','state','fold']."""
    rel = os.path.relpath(path, root)[:-3].split(os.sep)
    if rel[-1] in ("lib", "main", "mod"):
        rel = rel[:-1]
    return rel


def folder_of_file(crate_dir, src, path):
    """A file's folder; a module file at the crate's root (`src/role.rs`) counts as a folder of
    its own, so that the root folder is only `lib.rs`/`main.rs`."""
    d = os.path.dirname(path)
    base = os.path.basename(path)[:-3]
    if os.path.normpath(d) == os.path.normpath(src) and base not in ("lib", "main"):
        return os.path.join(crate_dir, base)
    return os.path.join(crate_dir, os.path.relpath(d, src)).rstrip("/.")


def resolve(crate_dir, src, segments):
    """The folder a module path lands in: the deepest existing directory along it. A module
    written as `name.rs` beside a `name/` folder of submodules (its tests, say) lives in the
    folder of `name.rs`, unless the path goes on into one of those submodules."""
    d = src
    for i, seg in enumerate(segments):
        nxt = os.path.join(d, seg)
        if os.path.isdir(nxt):
            if os.path.exists(nxt + ".rs"):
                rest = segments[i + 1:]
                into_child = rest and (os.path.isdir(os.path.join(nxt, rest[0]))
                                       or os.path.exists(os.path.join(nxt, rest[0] + ".rs")))
                if not into_child:
                    return folder_of_file(crate_dir, src, nxt + ".rs")
            d = nxt
        else:
            if d == src and os.path.exists(nxt + ".rs"):
                return os.path.join(crate_dir, seg)
            break
    return folder_of_file(crate_dir, src, os.path.join(d, "lib.rs" if d == src else "x.rs"))


def read_graph():
    global CRATES
    CRATES = crates()
    folder_arrows = defaultdict(set)  # from folder → to folders
    folders = set()
    top_arrows = defaultdict(lambda: defaultdict(set))  # crate → from top module → to top modules
    global WHY
    WHY = defaultdict(list)  # (crate, from, to) → [(file, path)]
    for name, crate_dir in sorted(CRATES.items()):
        src = os.path.join(ROOT, crate_dir, "src")
        for dirpath, _, filenames in os.walk(src):
            for fn in filenames:
                if not fn.endswith(".rs"):
                    continue
                path = os.path.join(dirpath, fn)
                own = module_of(path, src)
                if own and own[0] == "bin":
                    continue  # binaries are crates of their own; counted under their crate's root
                here = folder_of_file(crate_dir, src, path)
                folders.add(here)
                text = STRING_RE.sub('""', COMMENT_RE.sub("", open(path).read()))
                paths = []
                for m in USE_RE.finditer(text):
                    paths.extend(expand(m.group(1)))
                paths.extend(m.group(1) for m in PATH_RE.finditer(text))
                for p in paths:
                    segs = [s for s in p.split("::") if s]
                    if not segs:
                        continue
                    head = segs[0]
                    if head == "crate":
                        target_crate, target_segs = crate_dir, segs[1:]
                        tsrc = src
                    elif head == "super":
                        base = own[:]
                        while segs and segs[0] == "super":
                            base = base[:-1]
                            segs = segs[1:]
                        target_crate, target_segs, tsrc = crate_dir, base + segs, src
                    elif head in CRATES and head != name:
                        target_crate = CRATES[head]
                        target_segs = segs[1:]
                        tsrc = os.path.join(ROOT, target_crate, "src")
                    else:
                        continue
                    there = resolve(target_crate, tsrc, target_segs[:-1] if len(target_segs) > 1 else target_segs)
                    if there != here:
                        folder_arrows[here].add(there)
                        folders.add(there)
                    if target_crate == crate_dir and own and target_segs:
                        a, b = own[0], target_segs[0]
                        is_module = os.path.exists(os.path.join(src, b)) or os.path.exists(os.path.join(src, b + ".rs"))
                        if a != b and is_module:
                            top_arrows[name][a].add(b)
                            WHY[(name, a, b)].append((os.path.relpath(path, ROOT), p))
    return folders, folder_arrows, top_arrows


def sccs(nodes, arrows):
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def strong(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in arrows.get(v, ()):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(comp)

    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            strong(v)
    return out


def greedy_order(nodes, arrows):
    """Eades–Lin–Smyth: sinks to the end, sources to the front, else the largest out−in first."""
    out_ = {v: set(arrows.get(v, ())) & nodes for v in nodes}
    in_ = {v: set() for v in nodes}
    for v in nodes:
        for w in out_[v]:
            in_[w].add(v)
    left, right, remaining = [], [], set(nodes)
    while remaining:
        changed = True
        while changed:
            changed = False
            for v in sorted(remaining):
                if not (out_[v] & remaining):
                    right.insert(0, v)
                    remaining.discard(v)
                    changed = True
            for v in sorted(remaining):
                if not (in_[v] & remaining):
                    left.append(v)
                    remaining.discard(v)
                    changed = True
        if remaining:
            v = max(sorted(remaining), key=lambda u: len(out_[u] & remaining) - len(in_[u] & remaining))
            left.append(v)
            remaining.discard(v)
    return left + right


def figures(folders, arrows):
    nodes = set(folders)
    pairs = [(a, b) for a in arrows for b in arrows[a]]
    order = greedy_order(nodes, arrows)
    pos = {v: i for i, v in enumerate(order)}
    # An importer stands above what it imports: in this order importers come first.
    upward = [(a, b) for a, b in pairs if pos[a] > pos[b]]
    down = defaultdict(set)
    for a, b in pairs:
        if pos[a] < pos[b]:
            down[a].add(b)
    depth = {}
    for v in reversed(order):
        depth[v] = 1 + max((depth[w] for w in down[v]), default=0)
    circles = [c for c in sccs(nodes, arrows) if len(c) > 1]
    return pairs, upward, max(depth.values(), default=0), circles


def main():
    folders, arrows, top = read_graph()
    if "--why" in sys.argv:
        args = sys.argv[sys.argv.index("--why") + 1:][:3]
        if len(args) != 3:
            sys.exit("usage: scripts/module-graph.py --why CRATE A B (e.g. --why app data matches)")
        crate, a, b = args
        for file, path in sorted(set(WHY.get((crate, a, b), []))):
            print(f"{file}: {path}")
        return
    pairs, upward, floors, circles = figures(folders, arrows)
    mutual = sorted({tuple(sorted((a, b))) for a, b in pairs if a in arrows.get(b, ())})
    print(f"folders {len(folders)}, arrows between folders {len(pairs)}, upward {len(upward)}, "
          f"circles {len(circles)} (folders in them {sum(len(c) for c in circles)}), "
          f"pairs importing each other {len(mutual)}, floors {floors}")
    for c in circles:
        print("  circle: " + " ↔ ".join(sorted(c)))
    if "--arrows" in sys.argv:
        for a, b in sorted(pairs):
            print(f"  {a} → {b}{'   (upward)' if (a, b) in upward else ''}")
    allowed_path = os.path.join(ROOT, "scripts", "module-circles.allowed")
    allowed = set()
    if os.path.exists(allowed_path):
        for line in open(allowed_path):
            line = line.split("#")[0].strip()
            if line:
                allowed.add(line)
    found = set()
    for crate, arrows_ in sorted(top.items()):
        nodes = set(arrows_) | {b for bs in arrows_.values() for b in bs}
        for c in sccs(nodes, arrows_):
            if len(c) > 1:
                found.add(crate + ": " + " ".join(sorted(c)))
    print(f"circles between a crate's top-level modules: {len(found)}")
    for f in sorted(found):
        print(f"  {f}{'' if f in allowed else '   (NOT ALLOWED)'}")
    if "--check" in sys.argv:
        new = found - allowed
        gone = allowed - found
        for g in sorted(gone):
            print(f"listed in scripts/module-circles.allowed but no longer a circle (delete the line): {g}")
        if new:
            print("a new import circle between top-level modules: break it (move the shared piece "
                  "down to the module both use), do not list it")
        sys.exit(1 if new or gone else 0)


if __name__ == "__main__":
    main()
