#!/usr/bin/env python3
"""Extract the uncompressed ELF vmlinux from a bzImage.

Why: qemu can boot an uncompressed ELF vmlinux through its PVH entry point,
which skips the real-mode setup and in-guest decompression. Under TCG that
saves several seconds per boot.

Debian's amd64 kernel is xz-compressed (CONFIG_KERNEL_XZ); gzip is handled
too. Anything else: fall back to linux-source's scripts/extract-vmlinux.
"""
import gzip
import lzma
import sys
import zlib

MAGICS = [
    (b"\xfd7zXZ\x00", "xz"),
    (b"\x1f\x8b\x08", "gzip"),
]


def try_decompress(data: bytes, kind: str) -> bytes | None:
    try:
        if kind == "xz":
            # LZMADecompressor stops at the end of the stream and ignores
            # the trailing bzImage bytes (a plain lzma.decompress would not).
            return lzma.LZMADecompressor(format=lzma.FORMAT_XZ).decompress(data)
        d = zlib.decompressobj(16 + zlib.MAX_WBITS)
        return d.decompress(data)
    except (lzma.LZMAError, zlib.error, EOFError, gzip.BadGzipFile):
        return None


def main() -> int:
    if len(sys.argv) != 3:
        print("usage: extract-vmlinux.py BZIMAGE OUT", file=sys.stderr)
        return 2
    data = open(sys.argv[1], "rb").read()
    for magic, kind in MAGICS:
        pos = data.find(magic)
        while pos != -1:
            out = try_decompress(data[pos:], kind)
            if out and out[:4] == b"\x7fELF":
                with open(sys.argv[2], "wb") as f:
                    f.write(out)
                return 0
            pos = data.find(magic, pos + 1)
    print("no ELF payload found in " + sys.argv[1], file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
