#!/usr/bin/env python3
"""cubin-elf-cuda11.py IN.cubin OUT.cubin — rewrite the ELF header of a cubin
that CUDA 13's ptxas made for sm_90 in the layout of CUDA 11.8, so that the
CUDA 11.8 cuobjdump and nvdisasm read it ("cuobjdump -sass OUT.cubin"). Only
the header changes (OS/ABI, ABI version, e_version, e_flags); the SASS bytes
and their control codes are the same. For comparing SASS on a machine whose
CUDA 13 toolkit lacks cuobjdump: Debian's non-free nvidia-cuda-toolkit (11.8)
has one (extract its .deb with dpkg -x; nothing to install). -res-usage does
not work this way (the .nv.info layout changed): take registers and spills
from `nvcc -Xptxas -v`. docs/ladder-notes.md, "plain-build parity", used it."""
import struct
import sys

src, dst = sys.argv[1], sys.argv[2]
elf = bytearray(open(src, "rb").read())
if elf[:4] != b"\x7fELF" or elf[4] != 2:
    sys.exit(f"{src}: not a 64-bit ELF file")
flags = struct.unpack_from("<I", elf, 0x30)[0]
sm = (flags >> 8) & 0xFF  # CUDA 13: the SM in bits 8-15
if elf[7] == 0x33:
    sys.exit(f"{src}: already in the CUDA 11 layout")
elf[7], elf[8] = 0x33, 7  # EI_OSABI (CUDA), EI_ABIVERSION
struct.pack_into("<I", elf, 0x14, 0x76)  # e_version: the CUDA 11 cubin version
struct.pack_into("<I", elf, 0x30, sm | 0x0500 | sm << 16)  # SM, 64-bit addresses and texture mode, virtual SM
open(dst, "wb").write(elf)
