"""Reproducible Ogg files: libsndfile picks a random stream serial number for every file.

An Ogg page (RFC 3533) carries the stream's serial number at bytes 14 to 17 and a
CRC-32 of the whole page (polynomial ``0x04C11DB7``, not reflected, initial value 0,
computed with the CRC field zeroed) at bytes 22 to 25. :func:`fixed_serial`
rewrites both on every page, so that the same samples give the same bytes.
"""

from __future__ import annotations

import struct

_POLYNOMIAL = 0x04C11DB7


def _table() -> list[int]:
    table = []
    for index in range(256):
        value = index << 24
        for _ in range(8):
            value = ((value << 1) ^ _POLYNOMIAL) if value & 0x80000000 else value << 1
        table.append(value & 0xFFFFFFFF)
    return table


_TABLE = _table()


def ogg_crc(data: bytes) -> int:
    """Ogg's page checksum.

    >>> hex(ogg_crc(b"OggS"))
    '0x5fb0a94f'
    """
    crc = 0
    for byte in data:
        crc = ((crc << 8) & 0xFFFFFFFF) ^ _TABLE[((crc >> 24) ^ byte) & 0xFF]
    return crc


def fixed_serial(data: bytes, serial: int = 1) -> bytes:
    """``data`` (one logical Ogg stream) with every page's serial set to ``serial``."""
    pages = bytearray()
    position = 0
    while position < len(data):
        if data[position : position + 4] != b"OggS":
            raise ValueError(f"not an Ogg page at byte {position}")
        segments = data[position + 26]
        lacing = data[position + 27 : position + 27 + segments]
        length = 27 + segments + sum(lacing)
        page = bytearray(data[position : position + length])
        page[14:18] = struct.pack("<I", serial)
        page[22:26] = b"\0\0\0\0"
        page[22:26] = struct.pack("<I", ogg_crc(bytes(page)))
        pages += page
        position += length
    return bytes(pages)
