"""A WASM module's sections, for the build's checks (check-split.py, strip-chunks.py)."""


def leb(b, i):
    """The unsigned LEB128 number at `b[i]`, and the index after it."""
    r = s = 0
    while True:
        x = b[i]
        i += 1
        r |= (x & 0x7F) << s
        s += 7
        if x < 0x80:
            return r, i


def sections(b, what="module"):
    """Each section of the module `b` as (id, start of the section, start of its body, size
    of its body), in order."""
    if b[:4] != b"\0asm":
        raise SystemExit(f"{what} is not a WASM module")
    i = 8
    while i < len(b):
        sid = b[i]
        size, body = leb(b, i + 1)
        if body + size > len(b):
            raise SystemExit(f"{what} is cut short (section {sid} at byte {i})")
        yield sid, i, body, size
        i = body + size
