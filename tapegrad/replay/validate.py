"""Traces from outside (``tapegrad.load``, unpickling): every field is checked before any
compiled code sees it, and a loaded trace must reproduce, at its own traced point, the
values and the gradient it was saved with.

The compiled interpreters index the arena and the pools with the numbers the rows hold,
unchecked (a check per element would cost more than most rules), so a crafted file could
make them read or write outside their arrays.  Here:

- the archive: only the members a trace has, each a plain ``.npy`` array (no pickle)
  whose header (dtype, shape) is read and checked before its data, whose size matches
  what the header says, and whose uncompressed size is bounded (``max_bytes``: a deflate
  bomb is refused before it expands; zipfile inflates no more than a member's declared
  size), with the memory every field takes once loaded, checked and planned: one total
  (``check_budget``) from the headers, before any data is read;
- the fields: exact dtypes (so loading never makes Numba compile a new specialisation),
  shapes, slot offsets non-decreasing and matching the arena, input shapes of their slots'
  sizes, the output slot of out_shape's size, argnums and guard numbers in range.  (Not
  their slots' shapes: rows carry none.  None is needed: rows read an input slot as its
  C-order elements only, and the shape serves where arguments come in, checked then
  flattened, and where gradients go out, reshaped; so a (2, 3) input given the shape (3, 2)
  replays exactly ``f(y.reshape(2, 3))``, a trace tapegrad makes itself, and the output's
  shape likewise: tests/test_hostile14.py);
- every row: a known opcode, and the layout its op declares (``ops/layout.py``): slots,
  const and meta references in range, meta contents (indices, strided maps, batch
  offsets) inside the slots they address;
- then one replay at the traced point must give back the recorded values of every slot
  and the saved gradient: a file altered consistently enough to pass the layouts but not
  recomputed is refused, not replayed wrongly.

Any violation is a ``ValueError`` naming the field.  Pickle is another matter: unpickling
runs code chosen by whoever made the file, so a pickled trace is for trusted data only
(``Traced.__setstate__`` still checks the fields it receives as ``load`` does, under
``UNPICKLE_MAX_BYTES``).
"""
import contextvars
import hashlib
import io
import math
import os
import stat
import struct
import zipfile
import zlib

import numpy as np

from .. import _kernels
from .._point import POINT_OPS
from ..ops import elementwise as _E
from ..ops.control import STOP_GRAD
from ..ops import layout
from ..ops.layout import Layout
from ..ops.registry import NAMES, OPS

MAX_BYTES = 1 << 30  # uncompressed bytes a compressed .npz trace may expand to (load's default)
SLOT_BYTES = 80  # memory a slot takes to check and plan (measured: ~70 bytes; 8 in 'offs')
VALUE_BYTES = 56  # memory an arena value takes to load and check at the traced point: vals0
# (8), then the replay's arena (8, freed), the plan's reach sweep (a copy and adjoints, 16,
# freed) and arena (8), the gradient replay's values and adjoints (16): 4 arenas, and what
# the allocator keeps of freed ones (measured, VmHWM: 49 bytes a value at 9e6 values of an
# outer product, 36 at 1.9e7; tracemalloc 31).  Uncounted, a 153 kB file of 155 MB of
# values loaded under max_bytes = 2e8 and took 880 MB
ROW_BYTES = 200  # memory a row takes to check, plan and replay (measured: ~170 bytes at
# 10**6 to 3 * 10**6 guard rows; 40 in 'rows')
INPUT_BYTES = 4096  # what an input (in_slots, in_shapes) and a guard's name take: Python
GUARD_BYTES = 1024  # objects made one at a time (3 * 10**6 rows of 'in_shapes', a 560 kB
# file, took 32 s and 1.2 GB to be refused; 2 * 10**7 guard names 20 s and 760 MB to load);
# a name of c characters takes 8 c bytes more: 4 c in the member, up to 4 c as a str
GUARD_CHARS = 1 << 13  # the longest guard name: "bool at <file>:<line>" (a path has at most
# 4096); Traced.save shortens a longer one.  (A 1 MB file's one name of 2.5 * 10**8
# characters took 2.4 GB and 21 s to load under the default max_bytes)
META_BYTES = 24  # a meta entry: the member and the plan's copy (measured, VmHWM: 19 bytes)
CONST_BYTES = 16  # a const (measured: 11 bytes)
# the memory each entry of a member (its first dim) takes to load, check and plan, summed
# over the members into the one total max_bytes bounds (check_budget).  Each bounded on its
# own, a trace's fields added up: 1 GB of meta under the default max_bytes took 2.1 GB, and
# 1.2 * 10**8 argnums (a 1.4 MB file, Python ints once loaded) 7 GB and 47 s to be refused
ENTRY_BYTES = {"vals0": VALUE_BYTES, "offs": SLOT_BYTES, "rows": ROW_BYTES,
               "meta": META_BYTES, "consts": CONST_BYTES, "in_slots": INPUT_BYTES,
               "in_shapes": 512, "grad0": 24}
# (in_shapes: a tuple of up to 8 ints a row, measured ~400 bytes; its count is compared with
# in_slots' after; grad0: the check's point and gradient)
OTHER_BYTES = 64  # an entry of another field (argnums, out_shape: a Python int each)
WORK_PER_BYTE = 1  # element operations of the traced-point check per byte of max_bytes
# (the default allows ~1e9: seconds; a file's data alone cannot exceed it by much)
# the max_bytes a Traced being unpickled is checked under (Traced.__setstate__):
# tapegrad.load's while it unpickles, else the default (pickle.loads passes none; set
# this to None for no bound on trusted data)
UNPICKLE_MAX_BYTES = contextvars.ContextVar("tapegrad_unpickle_max_bytes", default=MAX_BYTES)
MAX_DIMS = 8  # an input's dims in the saved format (in_shapes is padded to 8 with -1)
_POINT_OPS = np.asarray(POINT_OPS, np.int64)
_BINARY_POINT_OPS = np.array([_E.ADD, _E.SUB, _E.MUL, _E.DIV], np.int64)  # (in1 a slot)
FORMAT = 2  # 2: vals0 holds replayed values, grad0 the gradient at the traced point

# name -> (dtype, ndim) of each array in a saved trace; optional ones are marked
_I8, _F8 = np.dtype(np.int64), np.dtype(np.float64)
ARRAYS = {"rows": (_I8, 2), "offs": (_I8, 1), "vals0": (_F8, 1), "consts": (_F8, 1),
          "meta": (_I8, 1), "in_slots": (_I8, 1), "in_shapes": (_I8, 2), "out_slot": (_I8, 0),
          "argnums": (_I8, 1), "guards": (None, 1), "grad0": (_F8, 1), "format": (_I8, 0),
          "digest": (np.dtype(np.uint8), 1), "out_shape": (_I8, 1),
          "no_derivative": (None, 1)}
# absent from traces saved before format 2 (out_shape: before vector outputs; a scalar;
# no_derivative: a trace whose gradient eager refuses, "slot Type: message" each)
OPTIONAL = ("grad0", "format", "digest", "out_shape", "no_derivative")
NO_DERIVATIVE_ERRORS = ("RuntimeError", "NotImplementedError")  # (what eager raises)
NO_DERIVATIVE_CHARS = 200  # (the longest: "derivative for aten::... is not implemented")


def digest(arrays):
    """SHA-256 of a trace's arrays (names, dtypes, shapes, bytes), as 32 uint8: damage and
    edits that do not recompute it are refused before anything else is read.  (Anyone can
    recompute it: it is a checksum, not a signature; the checks below are the safety.)"""
    h = hashlib.sha256()
    for name in sorted(n for n in arrays if n != "digest"):
        a = np.ascontiguousarray(arrays[name])
        h.update(f"{name}|{a.dtype.str}|{a.shape}|".encode())
        # (its bytes in place: tobytes() copied a 1 GB member; a caller's object array, which
        # no file holds, as before)
        h.update(a.tobytes() if a.dtype.hasobject else a.reshape(-1).view(np.uint8))
    return np.frombuffer(h.digest(), np.uint8)


def check_digest(arrays):
    fmt = arrays.get("format")
    if fmt is None:
        return  # format 1 (before checksums): the field checks below still apply
    if int(fmt) != FORMAT:
        raise ValueError(f"trace field 'format' is {int(fmt)}; this tapegrad reads format "
                         f"{FORMAT} (and 1, whose files have no 'format' field)")
    if "digest" not in arrays or not np.array_equal(arrays["digest"], digest(arrays)):
        raise ValueError("trace field 'digest': the checksum does not match the contents "
                         "(the file is damaged or was edited)")


def check_seekable(f, what):
    """A zip archive is read from its end (the central directory) back: a pipe or socket
    cannot be, and zipfile's own error there ("Illegal seek", "File is not a zip file")
    does not say so.  torch.load's error and advice."""
    seekable = getattr(f, "seekable", None)
    if seekable is not None and not seekable():
        raise io.UnsupportedOperation(
            f"{what}: {f!r} is not seekable. You can only load from a file that is seekable. "
            "Please pre-load the data into a buffer like io.BytesIO and try to load from it "
            "instead.")
    try:  # (a device: /dev/zero seeks, has a size of 0 and reads on without end, in
        mode = os.fstat(f.fileno()).st_mode  # zipfile's read of the tail too)
    except (AttributeError, OSError, ValueError):  # (no file descriptor: a BytesIO)
        return
    if not stat.S_ISREG(mode):
        raise ValueError(f"{what}: {getattr(f, 'name', f)!r} is not a regular file (a device "
                         "or another special file); load from a file or a buffer like "
                         "io.BytesIO")


def made_up(f, max_bytes):
    """A regular file the kernel makes up as it is read (``/proc/self/status``): it reports
    a size of 0 and cannot be seeked from its end (zipfile's and the checks' first step
    raised a bare OSError, "Invalid argument").  Its bytes from where ``f`` stands, read to
    the end (at most ``max_bytes``), as a buffer named as f, to be read as any file's; None
    for any other file."""
    try:
        st = os.fstat(f.fileno())
    except (AttributeError, OSError, ValueError):
        return None
    if not stat.S_ISREG(st.st_mode) or st.st_size:
        return None
    data = f.read(max_bytes + 1 if max_bytes is not None else -1)
    if max_bytes is not None and len(data) > max_bytes:
        raise ValueError(f"load: {getattr(f, 'name', f)!s} reports a size of 0 but holds more "
                         f"than max_bytes={max_bytes} bytes; pass a larger max_bytes to "
                         "tapegrad.load if you trust this file")
    return _Read(data, getattr(f, "name", None))


class _Read(io.BytesIO):
    """A file's bytes, read whole (``made_up``), named and shown as that file."""

    def __init__(self, data, name):
        super().__init__(data)
        self.name = name

    def __repr__(self):
        return f"<the bytes of {self.name!r}>"


MEMBER_COST = 1 << 15  # max_bytes per member a save file's directory may list
DIRECTORY_ENTRY = 256  # directory bytes per member allowed (a tapegrad entry takes ~80)
TRACE_MEMBERS = 1024  # a trace has 14 members (zipfile takes ~1 MB to parse 1024)


def members_allowed(max_bytes):
    """How many members a save file's directory may list under ``max_bytes``: zipfile
    makes a ZipInfo (~1 kB) per entry of 46 bytes or more, before any member can be looked
    at (a 45 MB directory of a million empty members took 1 GB and 45 s to open)."""
    return max(max_bytes // MEMBER_COST, 1024)


_END, _LOCATOR, _END64 = b"PK\x05\x06", b"PK\x06\x07", b"PK\x06\x06"


def _directories(fh):
    """``(end, size)`` of each central directory the archive's tail could declare: its end
    record at ``end`` and ``size`` bytes of directory before it.  Read here (zipfile's own
    reader is private): the last end-record signature in the last 64 kB + 22 bytes (the one
    zipfile picks) and every other one whose comment length reaches exactly to the file's
    end (the one a stricter reader may pick; a signature inside a member's data, by chance,
    has not), each with its zip64 record, both where zipfile reads it (just before the
    locator) and where the locator says."""
    fh.seek(0, io.SEEK_END)
    filesize = fh.tell()
    base = max(filesize - (1 << 16) - 22, 0)
    fh.seek(base)
    tail = fh.read()
    out, last = [], True
    p = tail.rfind(_END)
    while p >= 0:
        if len(tail) - p >= 22 and (last or len(tail) - p - 22 ==
                                    int.from_bytes(tail[p + 20:p + 22], "little")):
            size = int.from_bytes(tail[p + 12:p + 16], "little")
            at = base + p
            fh.seek(max(at - 20, 0))
            loc = fh.read(20) if at >= 20 else b""
            sizes = []  # (a zip64 record's size replaces the end record's, 0xFFFFFFFF there)
            if loc[:4] == _LOCATOR:
                for q in {at - 76, int.from_bytes(loc[8:16], "little")}:
                    if 0 <= q <= filesize - 56:
                        fh.seek(q)
                        rec = fh.read(56)
                        if rec[:4] == _END64:
                            sizes.append(int.from_bytes(rec[40:48], "little"))
            out.append((at, max(sizes, default=size)))
        p, last = tail.rfind(_END, 0, p), False
    return out


def check_directory(fh, max_members, what, advice=""):
    """Refuse an archive whose central directory lists more than ``max_members`` members
    (or takes more than ``DIRECTORY_ENTRY`` bytes a member) before zipfile parses it: every
    directory its tail could declare is measured, and its entries counted by their
    signatures, found once in the bytes all of them span (each counted on its own, a tail
    of 2,978 end records each declaring an 8 MB directory read 24 GB: 44 s for an 8 MB
    file).  (Anything not a zip is left to zipfile to say so.)"""
    pos = fh.tell()
    try:
        dirs = _directories(fh)
        for end, size in dirs:
            if size > max_members * DIRECTORY_ENTRY:
                raise ValueError(
                    f"{what}: the archive's directory is {size} bytes, more than "
                    f"{DIRECTORY_ENTRY} for each of at most {max_members} members (opening it "
                    f"takes about 1 kB of memory a member){advice}")
        if not dirs:
            return
        starts = [max(end - 76 - size, 0) for end, size in dirs]  # (a zip64 record between)
        lo = min(starts)
        fh.seek(lo)
        b = np.frombuffer(fh.read(max(end for end, _ in dirs) - lo), np.uint8)
        at = lo + np.flatnonzero((b[:-3] == 0x50) & (b[1:-2] == 0x4B) & (b[2:-1] == 1) &
                                 (b[3:] == 2))  # ("PK\x01\x02": no two overlap)
        for (end, _), start in zip(dirs, starts):
            count = int(np.searchsorted(at, end - 4, "right") - np.searchsorted(at, start))
            if count > max_members:
                raise ValueError(
                    f"{what}: the archive's directory lists {count} members, more than "
                    f"{max_members} (opening it takes about 1 kB of memory a member){advice}")
    finally:
        fh.seek(pos)


def check_members(z, max_members, what, advice=""):
    """The same bound once zipfile has parsed the directory (should the two readings of the
    end record ever differ, the file is refused still)."""
    if len(z.filelist) > max_members:
        raise ValueError(f"{what}: the archive's directory lists {len(z.filelist)} members, "
                         f"more than {max_members}{advice}")


def read_npz(path, max_bytes=MAX_BYTES):
    """The arrays of a saved trace, each checked against ``ARRAYS`` before it is read."""
    if not hasattr(path, "read"):
        with open(path, "rb") as fh:  # (zipfile's own open: "Illegal seek" from a pipe)
            return read_npz(fh, max_bytes)
    check_seekable(path, "load")
    path = made_up(path, max_bytes) or path
    check_directory(path, TRACE_MEMBERS, "not a tapegrad trace")
    try:
        with zipfile.ZipFile(path) as z:
            check_members(z, TRACE_MEMBERS, "not a tapegrad trace")
            infos = z.infolist()
            names = [i.filename for i in infos]
            want = {n + ".npy" for n in ARRAYS}
            extra = sorted(set(names) - want)
            missing = sorted(n for n in want - set(names) if n[:-4] not in OPTIONAL)
            if extra or missing or len(set(names)) != len(names):
                raise ValueError(f"not a tapegrad trace: the archive holds "
                                 f"{_few(sorted(names))}; unexpected {_few(extra)}, missing "
                                 f"{missing}")
            if any(i.flag_bits & 0x1 for i in infos):  # (zipfile would ask for a password)
                raise ValueError("not a tapegrad trace: the archive's members are encrypted; "
                                 "tapegrad.jit.save writes plain members")
            check_archive(z, "not a tapegrad trace: member")
            packed = sum(i.file_size for i in infos if i.compress_type != zipfile.ZIP_STORED)
            if packed > max_bytes:
                raise ValueError(f"the trace's compressed members expand to {packed} bytes, "
                                 f"more than max_bytes={max_bytes}; pass a larger max_bytes "
                                 "to tapegrad.load if you trust this file")
            heads = {i.filename: _member_header(z, i, max_bytes) for i in infos}
            # every member's memory, one total, before any member's data is read
            check_budget(max_bytes, entries({n[:-4]: h for n, h in heads.items()}))
            return {i.filename[:-4]: _read_member(z, i, *heads[i.filename]) for i in infos}
    except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError) as e:
        raise ValueError(f"not a readable tapegrad trace (.npz) file: "
                         f"{getattr(path, 'name', path)!s}: {e}") from None


def _few(names, n=20):
    """The first n of names, and how many more (an archive of thousands of members made
    a message of as many names; 10**8 argnums one of a gigabyte)."""
    if not isinstance(names, (list, tuple)):
        return repr(names)[:200]
    return f"{names[:n]}{f' and {len(names) - n} more' if len(names) > n else ''}"


_ODD_FLAGS = 0x20 | 0x40  # compressed patched data, strong encryption


def check_member(z, info, what):
    """Only stored or deflated members (what np.savez, np.savez_compressed and tapegrad.save
    write): a damaged bzip2 or LZMA stream raises OSError or LZMAError from deep inside
    zipfile, which no caller expects, and no tapegrad file uses them.  A stored member's
    size is its data's, inside the archive: a directory claiming gigabytes for a short
    file would have the reader allocate them before finding the end."""
    if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
        raise ValueError(f"{what} {info.filename} uses zip compression method "
                         f"{info.compress_type}; tapegrad reads stored or deflated members only")
    if info.flag_bits & _ODD_FLAGS:  # (zipfile's NotImplementedError from open())
        raise ValueError(f"{what} {info.filename} has zip flags {info.flag_bits:#06x}: "
                         "patched data or strong encryption, which tapegrad does not read")
    end = getattr(z, "start_dir", None)  # (where the central directory starts)
    if info.compress_type == zipfile.ZIP_STORED and (
            info.compress_size != info.file_size or
            (end is not None and info.header_offset + info.compress_size > end)):
        raise ValueError(f"{what} {info.filename} declares {info.file_size} bytes, more than "
                         "the archive holds (the file is truncated or crafted)")


def check_archive(z, what):
    """Every member as ``check_member`` says, no two members of one name (zipfile reads the
    last, another reader the first: one file, two contents), and no two members share
    bytes: a member's local header, name, extra field and data end before the next member
    starts (and the last before the central directory).  Overlapping members let a small
    file declare the same stored bytes many times over, each read as an array of its own (a
    1 MB file loaded as 50 tensors of 1 MB each: memory grows with the count of directory
    entries, which no size check of one member sees)."""
    seen = set()
    for info in z.infolist():
        if info.filename in seen:
            raise ValueError(f"{what} {info.filename} appears more than once in the archive "
                             "(a crafted or damaged file)")
        seen.add(info.filename)
        check_member(z, info, what)
    infos = sorted(z.infolist(), key=lambda i: i.header_offset)
    end = getattr(z, "start_dir", None)
    for k, info in enumerate(infos):
        if info.header_offset < 0 or (end is not None and info.header_offset > end):
            # (zipfile shifts every offset by where the directory is found against where
            # the end record says it starts: a directory claimed beyond that made them
            # negative, and the seek raised OSError "Invalid argument")
            raise ValueError(f"{what} {info.filename} has its local header at offset "
                             f"{info.header_offset}, outside the archive's members (the file "
                             "is damaged or crafted)")
        z.fp.seek(info.header_offset)
        head = z.fp.read(30)
        if len(head) != 30 or head[:4] != b"PK\x03\x04":
            raise ValueError(f"{what} {info.filename} has no local header at offset "
                             f"{info.header_offset} (the file is damaged or crafted)")
        # zipfile reads a member by the directory's method, CRC and sizes, a streaming
        # reader by its local header's: they must agree (else one file, two contents)
        method, flags = int.from_bytes(head[8:10], "little"), head[6]
        crc, packed, size = struct.unpack("<3L", head[14:26])
        if method != info.compress_type or (not flags & 0x08 and (
                crc != info.CRC or packed not in (info.compress_size, 0xFFFFFFFF) or
                size not in (info.file_size, 0xFFFFFFFF))):
            raise ValueError(f"{what} {info.filename}: its local header's compression method, "
                             "CRC or sizes differ from the archive's directory (a crafted or "
                             "damaged file)")
        stop = info.header_offset + 30 + int.from_bytes(head[26:28], "little") + \
            int.from_bytes(head[28:30], "little") + info.compress_size
        nxt = infos[k + 1].header_offset if k + 1 < len(infos) else end
        if nxt is not None and stop > nxt:
            raise ValueError(f"{what} {info.filename} overlaps the next member or the "
                             "archive's directory (a crafted archive: members sharing bytes)")


def check_shape(shape, dtype, what):
    """A declared array shape NumPy can hold, or a ValueError naming ``what``: at most 64
    dims (NumPy's limit), and the product of the sizes (zeros counted as ones, as NumPy
    checks it: an empty (0, 2**62, 2**62) is refused there too) times the item size below
    2**63.  NumPy's own errors ("array is too big", "maximum supported dimension") name
    neither the file nor the field."""
    if dtype.itemsize == 0:
        raise ValueError(f"{what} has dtype {dtype} of 0 bytes an element")
    if len(shape) > 64:
        raise ValueError(f"{what} declares {len(shape)} dims; at most 64 are supported")
    if any(int(n) < 0 for n in shape):  # (NumPy's .npy header reader takes them: (-n, -5)
        # rows held 5 n of them, counted as none by the memory budget)
        raise ValueError(f"{what} declares shape {tuple(shape)}, with a negative size")
    if math.prod(max(int(n), 1) for n in shape) * dtype.itemsize >= 1 << 63:
        raise ValueError(f"{what} declares shape {tuple(shape)}, too large for any array")


READ_CHUNK = 1 << 20  # bytes of a member inflated at once
NPY_HEADER = 10000  # NumPy's max_header_size: longer headers it refuses, after reading them


def npy_header(f):
    """``(shape, fortran_order, dtype)`` from the ``.npy`` header at file object ``f``'s
    position, read before any data (raises ValueError for anything else).  Its length is
    checked before the header is read: a version 2 header may claim 4 GB, which NumPy's
    reader would take into memory (twice) before refusing it as too long."""
    version = np.lib.format.read_magic(f)
    width = 2 if version == (1, 0) else 4
    length = f.read(width)
    if len(length) != width:
        raise ValueError("the .npy header is truncated")
    n = int.from_bytes(length, "little")
    if n > NPY_HEADER:
        raise ValueError(f"the .npy header is {n} bytes, more than {NPY_HEADER}")
    head = f.read(n)
    if len(head) != n:
        raise ValueError(f"the .npy header is truncated ({len(head)} of {n} bytes)")
    header = (np.lib.format.read_array_header_1_0 if version == (1, 0)
              else np.lib.format.read_array_header_2_0)
    try:
        return header(io.BytesIO(length + head))
    except ValueError:
        raise
    except Exception as e:  # noqa: BLE001 (NumPy's parse of a damaged header: a bracket
        # left open raised tokenize's TokenError, from its filter of Python 2 headers)
        raise ValueError(f"the .npy header is not readable ({type(e).__name__}: "
                         f"{str(e)[:100]})") from None


def read_bytes(f, nbytes, what):
    """``nbytes`` bytes of file object ``f`` as a uint8 array, read into it a chunk at a
    time: a bytes object and the array copied from it took twice a member's size (zipfile
    checks a member's CRC on reaching its end)."""
    data = np.empty(nbytes, np.uint8)
    view, done = memoryview(data), 0
    while done < nbytes:
        chunk = f.read(min(nbytes - done, READ_CHUNK))
        if not chunk:
            raise ValueError(f"{what} is truncated")
        view[done:done + len(chunk)] = chunk
        done += len(chunk)
    return data


def _member_header(z, info, max_bytes):
    """``(shape, dtype)`` of a trace member, from its ``.npy`` header (the data unread),
    checked against ``ARRAYS`` and the member's size, its own count against ``max_bytes``."""
    name = info.filename[:-4]
    dtype, ndim = ARRAYS[name]
    with z.open(info) as f:
        try:
            shape, fortran, got = npy_header(f)
        except ValueError as e:
            raise ValueError(f"trace field {name!r}: not a .npy array ({e})") from None
        if got.hasobject or (dtype is not None and got != dtype) or \
                (dtype is None and got.kind != "U"):
            raise ValueError(f"trace field {name!r} has dtype {got}; a trace stores "
                             f"{dtype or 'unicode strings'}")
        check_shape(shape, got, f"trace field {name!r}")
        if fortran or len(shape) != ndim:
            raise ValueError(f"trace field {name!r} has shape {shape} "
                             f"({'Fortran order' if fortran else f'{len(shape)} dims'}); "
                             f"a trace stores a C-order array of {ndim} dims")
        if name in _COUNTED:  # (before 1 GB of them is inflated and copied)
            check_counts(max_bytes, **{_COUNTED[name]: max(shape[0] - (name == "offs"), 0)},
                         guard_chars=got.itemsize // 4 if name == "guards" else 0)
        nbytes = int(np.prod(shape, dtype=object)) * got.itemsize
        if f.tell() + nbytes != info.file_size:
            raise ValueError(f"trace field {name!r}: its header says {shape} ({nbytes} bytes) "
                             f"but the member holds {info.file_size - f.tell()} bytes")
    return shape, got


def _read_member(z, info, shape, got):
    """The data of a member whose header ``_member_header`` checked."""
    name = info.filename[:-4]
    with z.open(info) as f:
        npy_header(f)
        data = read_bytes(f, int(np.prod(shape, dtype=object)) * got.itemsize,
                          f"trace field {name!r}")
    if got.kind == "U" and (data.view(np.dtype("u4").newbyteorder(got.byteorder))
                            > 0x10FFFF).any():
        # (NumPy makes Python strings of them that break str's invariants: upper() raises
        # SystemError, encode() gives bytes no UTF-8 decoder reads)
        raise ValueError(f"trace field {name!r} holds characters beyond U+10FFFF, outside "
                         "Unicode")
    return data.view(got).reshape(shape)  # writable


def fields_from_npz(z):
    """Traced's constructor arguments from a saved trace's arrays (checked by ``check``)."""
    shapes = []
    for row in z["in_shapes"].tolist():
        dims = [v for v in row if v >= 0]
        if len(row) != MAX_DIMS or any(v < -1 for v in row) or row[len(dims):] != \
                [-1] * (len(row) - len(dims)):
            raise ValueError(f"trace field 'in_shapes': row {row} is not a shape padded "
                             f"with -1 to {MAX_DIMS} dims")
        shapes.append(tuple(dims))
    return dict(rows=z["rows"], offs=z["offs"], vals0=z["vals0"], consts=z["consts"],
                meta=z["meta"], in_slots=z["in_slots"], in_shapes=shapes,
                out_slot=int(z["out_slot"]), argnums=tuple(z["argnums"].tolist()),
                guards=z["guards"].tolist(),  # (str: np.str_ each, then a copy, took 2x)
                out_shape=tuple(z["out_shape"].tolist()) if "out_shape" in z else (),
                no_derivative=z["no_derivative"].tolist() if "no_derivative" in z else [])


def saved_notes(notes):
    """Traced.no_derivative as the saved field's strings."""
    return [f"{s} {text}" for s, text in notes]


def _notes(d, nslots):
    """The checked (slot, "Type: message") pairs of field 'no_derivative' (saved_notes)."""
    got = d.get("no_derivative", [])
    if not isinstance(got, list) or len(got) > nslots:
        raise ValueError(f"trace field 'no_derivative' must be a list of at most {nslots} "
                         "strings")
    notes = []
    for e in got:
        ok = isinstance(e, str) and 0 < len(e) <= NO_DERIVATIVE_CHARS
        slot, _, text = e.partition(" ") if ok else ("", "", "")
        if not (ok and slot.isdigit() and slot.isascii() and
                int(slot) < nslots and ": " in text and
                text.partition(": ")[0] in NO_DERIVATIVE_ERRORS):
            raise ValueError(f"trace field 'no_derivative': entry {_few(e)} is not 'slot Error:"
                             f" message' (a slot below {nslots}, an error of "
                             f"{NO_DERIVATIVE_ERRORS}, at most {NO_DERIVATIVE_CHARS} "
                             "characters)")
        notes.append((int(slot), text))
    return notes


def _array(d, name):
    a = d.get(name)
    dtype, ndim = ARRAYS[name]
    if type(a) is not np.ndarray or a.dtype != dtype or a.ndim != ndim:
        what = f"{a.dtype} array of {a.ndim} dims" if isinstance(a, np.ndarray) else \
            type(a).__name__
        raise ValueError(f"trace field {name!r} must be a {dtype} array of {ndim} dims, got "
                         f"a {what}")
    if not (a.flags.c_contiguous and a.flags.writeable and a.flags.aligned):
        a = np.array(a, order="C")  # the compiled rules' one signature
    return a


def check(d, max_bytes=None):
    """The checked constructor arguments of a Traced (a dict as ``fields_from_npz`` or
    ``__getstate__`` give); raises ValueError naming the first bad field.  With
    ``max_bytes`` (a file's), the replay ``check_traced_point`` makes is bounded too."""
    return check_work(d, max_bytes)[0]


def check_work(d, max_bytes=None):
    """``check``'s fields, and the work of one replay of their rows (``check_rows``): what
    ``check_traced_point`` is told its kernels cost."""
    rows, offs, vals0, consts, meta = (_array(d, n) for n in
                                       ("rows", "offs", "vals0", "consts", "meta"))
    in_slots = d.get("in_slots")
    in_slots = _array({"in_slots": np.asarray(in_slots) if isinstance(in_slots, (list, tuple))
                       else in_slots}, "in_slots")
    if rows.shape[1] != 5:
        raise ValueError(f"trace field 'rows' has {rows.shape[1]} columns; a row is "
                         "[opcode, out, in0, in1, aux]")
    if len(offs) < 2 or offs[0] != 0 or (np.diff(offs) < 0).any() or offs[-1] != len(vals0):
        raise ValueError(f"trace field 'offs' must rise from 0 to len(vals0) = {len(vals0)} "
                         "(the slots' starts in the arena), never decreasing")
    size = np.diff(offs)
    nslots = len(size)
    in_shapes, guards = d.get("in_shapes"), d.get("guards")
    check_counts(max_bytes, nslots, len(rows), len(in_slots),  # (read_npz counted them too)
                 len(guards) if isinstance(guards, list) else 0, nvals=len(vals0))
    argnums = d.get("argnums")
    check_budget(max_bytes, {  # (before any field is looked at one entry at a time)
        **{n: (len(a), 0) for n, a in (("vals0", vals0), ("offs", offs), ("rows", rows),
                                       ("meta", meta), ("consts", consts),
                                       ("in_slots", in_slots), ("in_shapes", in_shapes),
                                       ("argnums", argnums)) if isinstance(a, _SIZED)},
        "guards": (len(guards), max((len(g) for g in guards if isinstance(g, str)), default=0))
        if isinstance(guards, list) else (0, 0)})
    if not isinstance(in_shapes, (list, tuple)) or len(in_shapes) != len(in_slots) or \
            not all(isinstance(s, tuple) and all(_is_int(v) and v >= 0 for v in s)
                    for s in in_shapes):
        raise ValueError("trace field 'in_shapes' must hold one shape (a tuple of sizes) per "
                         "input slot")
    if len(in_slots) and (in_slots.min() < 0 or in_slots.max() >= nslots or
                          len(np.unique(in_slots)) != len(in_slots)):
        raise ValueError(f"trace field 'in_slots' must name distinct slots below {nslots}")
    for j, (s, shape) in enumerate(zip(in_slots.tolist(), in_shapes)):
        # (an empty shape of huge dims matches an empty slot, but no array has it: every
        # call failed with NumPy's "array is too big")
        check_shape(shape, _F8, f"trace field 'in_shapes': input {j}")
        if int(np.prod(shape, dtype=object)) != size[s]:
            raise ValueError(f"trace field 'in_shapes': shape {shape} for input slot {s} of "
                             f"{size[s]} elements")
    out_shape = d.get("out_shape", ())
    if not isinstance(out_shape, tuple) or len(out_shape) > MAX_DIMS or \
            not all(_is_int(v) and v >= 0 for v in out_shape):
        raise ValueError(f"trace field 'out_shape' must be a shape (a tuple of at most "
                         f"{MAX_DIMS} sizes), got {_few(out_shape, 8)}")
    check_shape(out_shape, _F8, "trace field 'out_shape'")
    for j, shape in enumerate(in_shapes):  # (a Jacobian's shape, out_shape + the input's)
        check_shape((*out_shape, *shape), _F8, f"the Jacobian of trace field 'out_shape' by "
                                               f"input {j}")
    out_size = int(np.prod(out_shape, dtype=object))
    out_slot = d.get("out_slot")
    if not _is_int(out_slot) or not 0 <= out_slot < nslots or size[out_slot] != out_size:
        raise ValueError(f"trace field 'out_slot' must name a slot of {out_size} element(s), "
                         f"the size of out_shape {out_shape}, got {out_slot!r}")
    if not isinstance(argnums, tuple) or not argnums or len(set(argnums)) != len(argnums) \
            or not all(_is_int(j) and 0 <= j < len(in_shapes) for j in argnums):
        raise ValueError(f"trace field 'argnums' must be distinct input numbers below "
                         f"{len(in_shapes)}, got {_few(argnums, 8)}")
    if not isinstance(guards, list) or not all(isinstance(g, str) for g in guards):
        raise ValueError("trace field 'guards' must be a list of strings")
    check_counts(max_bytes, nguards=len(guards), guard_chars=max(map(len, guards), default=0))
    work = check_rows(rows, size, meta, consts, len(guards), in_slots, max_bytes)
    written = np.isin(rows[:, 1], in_slots)
    if written.any():  # an input is a leaf: a row writing it would hide the point's values
        r = int(np.argmax(written))
        raise ValueError(f"trace field 'in_slots': input slot {rows[r, 1]} is written by row {r}")
    return dict(rows=rows, offs=offs, vals0=vals0, consts=consts, meta=meta,
                in_slots=in_slots, in_shapes=[tuple(int(v) for v in s) for s in in_shapes],
                out_slot=int(out_slot), argnums=tuple(int(j) for j in argnums),
                guards=list(guards), out_shape=tuple(int(v) for v in out_shape),
                no_derivative=_notes(d, nslots)), work


# the members check_counts bounds from their headers
_COUNTED = {"vals0": "nvals", "offs": "nslots", "rows": "nrows", "in_slots": "ninputs",
            "in_shapes": "ninputs", "guards": "nguards"}


def check_counts(max_bytes, nslots=0, nrows=0, ninputs=0, nguards=0, guard_chars=0, nvals=0):
    """The memory a trace's values, slots, rows, inputs and guards take to check, plan and
    replay, against ``max_bytes`` (None: unbounded); ``read_npz`` asks it of the members'
    headers, before their data is read."""
    if max_bytes is None:
        return
    if guard_chars > GUARD_CHARS:
        raise ValueError(f"trace field 'guards' holds names of up to {guard_chars} characters; "
                         f"a guard's name has at most {GUARD_CHARS}")
    for n, each, what in ((ninputs, INPUT_BYTES, "'in_slots' and 'in_shapes': inputs"),
                          (nguards, GUARD_BYTES + 8 * guard_chars, "'guards': guards")):
        if n * each > max_bytes:
            field, unit = what.split(": ")
            raise ValueError(
                f"trace field {field}: its {n} {unit} take about {n * each} bytes to check "
                f"({each} a{'n' if unit == 'inputs' else ''} {unit[:-1]}), more than "
                f"max_bytes={max_bytes}; pass a larger max_bytes to tapegrad.load if you "
                "trust this file")
    if nvals * VALUE_BYTES > max_bytes:
        # (a deflated file of constant values is small: 153 kB held 155 MB of them)
        raise ValueError(
            f"trace field 'vals0': its {nvals} values take about {nvals * VALUE_BYTES} bytes to "
            f"load and check at the traced point ({VALUE_BYTES} a value: the arena, its "
            f"replays' copies and adjoints, the plan's), more than max_bytes={max_bytes}; "
            "pass a larger max_bytes to tapegrad.load if you trust this file")
    if nslots * SLOT_BYTES > max_bytes:
        # (empty slots cost 8 bytes each in the file, a thousand to a kB deflated)
        raise ValueError(
            f"trace field 'offs': its {nslots} slots take about {nslots * SLOT_BYTES} bytes to "
            f"check and plan ({SLOT_BYTES} a slot), more than max_bytes={max_bytes}; pass a "
            "larger max_bytes to tapegrad.load if you trust this file")
    if nrows * ROW_BYTES > max_bytes:
        # (10**6 rows are 120 kB deflated: 2.7 * 10**7, 1 GB of 'rows', took ~5 GB and
        # minutes to load)
        raise ValueError(
            f"trace field 'rows': its {nrows} rows take about {nrows * ROW_BYTES} bytes to "
            f"check, plan and replay ({ROW_BYTES} a row), more than max_bytes={max_bytes}; "
            "pass a larger max_bytes to tapegrad.load if you trust this file")


def budget(counts):
    """The bytes each field takes (``ENTRY_BYTES``), from ``counts``: field name ->
    ``(entries, characters of its longest string)`` (a guard's name costs 8 bytes a
    character more)."""
    return {name: n * (GUARD_BYTES + 8 * chars if name in ("guards", "no_derivative") else
                       ENTRY_BYTES.get(name, OTHER_BYTES)) for name, (n, chars) in counts.items()}


def entries(heads):
    """``budget``'s counts from each member's ``(shape, dtype)``: its first dim (1 for a
    0-d one) and, for strings, their length."""
    return {name: (shape[0] if len(shape) else 1, dtype.itemsize // 4 if dtype.kind == "U"
                   else 0) for name, (shape, dtype) in heads.items()}


def check_budget(max_bytes, counts):
    """All of a trace's fields together (``budget``) within ``max_bytes`` (None: unbounded):
    the one hard total, counted from the members' headers before their data is read."""
    if max_bytes is None:
        return
    parts = budget(counts)
    total = sum(parts.values())
    if total > max_bytes:
        top = ", ".join(f"{n!r} {b}" for n, b in sorted(parts.items(), key=lambda kv: -kv[1])[:3])
        raise ValueError(
            f"trace: its fields take about {total} bytes together to load, check and plan "
            f"(most: {top}), more than max_bytes={max_bytes}; pass a larger max_bytes to "
            "tapegrad.load if you trust this file")


def short_name(g):
    """A guard's name as a trace file keeps it: at most ``GUARD_CHARS`` characters, its
    end (the file and line) kept."""
    return g if len(g) <= GUARD_CHARS else "..." + g[3 - GUARD_CHARS:]


def shown_name(g):
    """A guard's name as an error message shows it: characters that are not printable (a
    loaded file's name may hold lone surrogates, which no UTF-8 stream can write, so that
    printing the message raised UnicodeEncodeError; or a newline, or a terminal's escape
    codes) written as escapes, as ``ascii`` writes them."""
    return g if g.isprintable() else "".join(c if c.isprintable() else ascii(c)[1:-1]
                                             for c in g)


_SIZED = (list, tuple, np.ndarray)


def _is_int(v):
    return isinstance(v, (int, np.integer)) and not isinstance(v, bool)


def _check_work(work, max_bytes, what="replaying the trace at its traced point (which load "
                                      "does to check it)"):
    if max_bytes is not None and work > WORK_PER_BYTE * max_bytes:
        raise ValueError(
            f"trace field 'rows': {what} takes about {work:.3g} element operations, more than "
            f"the {WORK_PER_BYTE * max_bytes:.3g} (one a byte) that max_bytes={max_bytes} "
            "allows; pass a larger max_bytes to tapegrad.load if you trust this file")


def check_rows(rows, size, meta, consts, nguards, in_slots=(), max_bytes=None):
    """Every row: a known opcode and its op's declared layout.  Returns the work of one
    replay of the rows (element operations, roughly): each row reads and writes its slots,
    plus what its layout check adds (``Layout.work``: a product's multiply-adds, the loops
    of a cat or softmax over empty blocks).  A row's output may be smaller than what it
    reads (a sum, a dot, a guard): a small file of many rows reading one large slot, or of
    products reusing one block at every batch offset, took hours to check (10**12
    multiply-adds from a 7 kB file).  With ``max_bytes``, a work over ``WORK_PER_BYTE *
    max_bytes`` is refused, and so are more meta entries of variable-length windows
    (indices, a cat's operands, a product's batch offsets) than that, before they are read
    (every row may name one long window).  Every check runs over all the rows of an opcode
    at once (NumPy), none row by row in Python."""
    codes = rows[:, 0]
    known = np.isin(codes, np.fromiter(OPS, np.int64, len(OPS)))
    if not known.all():
        r = int(np.argmax(~known))
        raise ValueError(f"trace field 'rows': row {r} has opcode {int(codes[r])}, which "
                         "tapegrad does not know (a trace from a newer version, or damaged)")
    lay = Layout(size, meta, len(consts), nguards, lambda op: NAMES.get(op, f"Op{op}"),
                 const_values=consts)
    lay.op, lay.rows = "any", np.arange(len(rows))  # what every sweep reads of every row:
    lay.slots(rows[:, 1], "out", optional=True)  # (guards have no output)
    lay.computed = np.zeros(len(size), bool)
    lay.computed[rows[:, 1][rows[:, 1] >= 0]] = True
    lay.computed[np.asarray(in_slots, np.int64)] = True
    lay.slots(rows[:, 2], "in0")
    lay.slots(rows[:, 3], "in1", optional=True)
    out = rows[:, 1]
    has = out >= 0  # recorded in order: each row writes a new slot, after those it reads
    # but no_grad while tracing (ops/control.py _NoGradRows) makes a pair: the op's row
    # writes a hidden slot h made after the op's own slot o, and a STOP_GRAD row copies h
    # to o.  Such a row is ordered as if written just after h (key 2h + 1), and o must be
    # neither written nor read by any row before it
    key = 2 * out
    pair = np.zeros(len(rows), bool)
    pair[1:] = (codes[1:] == STOP_GRAD) & has[1:] & (rows[1:, 2] == out[:-1]) & \
        (out[1:] < out[:-1])
    key[pair] = 2 * rows[pair, 2] + 1
    late = has & ((2 * rows[:, 2] >= key) | (2 * rows[:, 3] >= key))
    late[np.nonzero(has)[0][1:]] |= np.diff(key[has]) <= 0
    if pair.any():
        first = np.full(len(size), len(rows))
        for c in (1, 2, 3):
            used = rows[:, c] >= 0
            np.minimum.at(first, rows[used, c], np.nonzero(used)[0])
        late[pair] |= first[out[pair]] < np.nonzero(pair)[0]
    if late.any():
        r = int(np.argmax(late))
        raise ValueError(f"trace field 'rows': row {r} writes slot {out[r]}, which is not a new "
                         "slot after every slot the rows before it wrote and it reads")
    # a guard (no output) reads a slot older than the next row's output too: one a later row
    # writes held the traced point's value there, or the last point's in a reused buffer (a
    # point's divergence flag depended on the points before it in its batch), and the fused
    # tier's code named it before defining it
    nxt = np.minimum.accumulate(np.where(has, out, np.iinfo(np.int64).max)[::-1])[::-1]
    ahead = ~has & ((rows[:, 2] >= nxt) | (rows[:, 3] >= nxt))
    if ahead.any():
        r = int(np.argmax(ahead))
        raise ValueError(f"trace field 'rows': row {r} (a guard) reads slot {rows[r, 2]}, which "
                         f"is not older than the next row's output, slot {nxt[r]}")
    # the one-point lowering (replay/lower.py) takes a scalar row's third operand from in1
    # when in1 >= 0, else from aux: a unary row given an in1 had its const index replaced
    # by an arena offset (consts read out of bounds), a binary row without one its in1 by
    # the aux; the interpreters ignore the field, so the traced point cannot tell
    point = np.isin(codes, _POINT_OPS)
    binary = np.isin(codes, _BINARY_POINT_OPS)
    wrong = point & ((rows[:, 3] >= 0) != binary)
    if wrong.any():
        r = int(np.argmax(wrong))
        lay.op, lay.rows = int(codes[r]), np.array([r])
        lay.fail(0, f"in1 must be {'a slot' if binary[r] else '-1'} for this "
                    f"{'binary' if binary[r] else 'unary'} op, got {int(rows[r, 3])}")
    order = np.argsort(codes, kind="stable")  # (the rows of each opcode, in order)
    ops, starts = np.unique(codes[order], return_index=True)
    groups = [(code, order[lo:hi]) for code, lo, hi in
              zip(ops.tolist(), starts.tolist(), [*starts[1:].tolist(), len(rows)])]
    lay.bound = lambda work, what: _check_work(work, max_bytes, what)
    if any(OPS[code].meta_slots is not None for code, _ in groups):
        lay.spans = []  # (meta entries holding slot numbers: read by one row's check only)
    for code, sel in groups:
        lay.op, lay.rows = code, sel
        OPS[code].check(lay, rows[sel])
    if pair.any():
        _stopped_read_early(rows, meta, groups, np.nonzero(pair)[0])
    p = lay.shared_slots()
    if p is not None:
        raise ValueError(f"trace field 'meta': entry {p} holds a slot number (a cat's operand, "
                         "a linear's bias) and is named by more than one row's fields (the "
                         "replay plan renumbers it in place: each row needs its own)")
    touched = [np.where(rows[:, c] >= 0, size[np.maximum(rows[:, c], 0)], 0) for c in (1, 2, 3)]
    work = float(sum(t.sum(dtype=np.float64) for t in touched)) + len(meta) + lay.work
    _check_work(work, max_bytes)
    return work


def _stopped_read_early(rows, meta, groups, pairs):
    """The slot o of a STOP_GRAD pair is written by its STOP_GRAD row, after slots numbered
    above it: no row before that one may read it, through its columns (``check_rows``)
    nor through its aux (where's condition) or the meta pool (a cat's operands, a linear's
    bias), whose checks ask only for a slot numbered below the row's output.  Such a read
    got the arena's memory before any row wrote it: the traced point's value in the trace
    that load checks, anything at another point (a value computed for another call, or
    never written: 1.75e-301 from a trace whose traced point gave 10.0).  The layouts
    are checked (windows in range) before this runs."""
    slot, row = [], []
    for code, sel in groups:
        spec = OPS[code]
        if spec.aux == "slot":
            slot.append(rows[sel, 4])
            row.append(sel)
        how = getattr(spec.meta_slots, "spec", None)
        if how is not None and how[0] == "list":
            count = meta[rows[sel, 4] + how[1]]
            first = np.cumsum(count) - count
            at = np.repeat(rows[sel, 4] + how[2] - first, count) + np.arange(int(count.sum()))
            slot.append(meta[at])
            row.append(np.repeat(sel, count))
        elif how is not None:
            for j in how[1:]:
                slot.append(meta[rows[sel, 4] + j])
                row.append(sel)
        elif spec.meta_slots is not None:  # (every meta_slots declares its spec)
            raise AssertionError(f"opcode {code}: meta_slots without a spec")
    if not slot:
        return
    slot, row = np.concatenate(slot), np.concatenate(row)
    use = slot >= 0  # (linear's bias: -1 for none)
    first = np.full(len(rows) and int(rows[:, 1].max()) + 1, len(rows))
    np.minimum.at(first, slot[use & (slot < len(first))], row[use & (slot < len(first))])
    o = rows[pairs, 1]
    early = first[o] < pairs
    if early.any():
        r = int(first[o[np.argmax(early)]])
        raise ValueError(f"trace field 'rows': row {r} reads slot {int(o[np.argmax(early)])} "
                         f"through its aux or the meta pool before row "
                         f"{int(pairs[np.argmax(early)])} (a STOP_GRAD) writes it")


def check_traced_point(traced, grad0, work):
    """Replay at the traced point must give back every slot's recorded value (and the
    saved gradient): rows, pools and values that disagree are refused.  ``work``: what
    ``check_work`` counted of one replay; the kernels are told it (``_kernels.counted``:
    their own estimates count outputs only, and on a cold cache a crafted file's rows ran
    interpreted for as long as they read), plus each row's dispatch."""
    with _kernels.counted(int(work) + _kernels.ROW * len(traced.rows)):
        _check_traced_point(traced, grad0)


def _check_traced_point(traced, grad0):
    vals = traced.vals0.copy()
    bad = np.zeros(1, np.int64)
    r = _kernels._forward_replay(traced.rows, traced.offs, vals, traced.consts, traced.meta, 0,
                                 len(traced.rows), 1, bad)
    if r >= 0:
        raise ValueError(f"trace field 'rows': row {r} cannot be replayed")
    if bad[0]:
        raise ValueError(f"trace: guard #{bad[0] - 1} fails at the trace's own point")
    for lo in range(0, len(vals), READ_CHUNK):  # (in chunks: isclose's temporaries took
        # five times the arena)
        off = ~np.isclose(vals[lo:lo + READ_CHUNK], traced.vals0[lo:lo + READ_CHUNK],
                          rtol=1e-9, atol=1e-300, equal_nan=True)
        if not off.any():
            continue
        e = lo + int(np.argmax(off))
        s = int(np.searchsorted(traced.offs, e, side="right") - 1)
        raise ValueError(f"trace field 'vals0': slot {s} holds {traced.vals0[e]!r} but its rows "
                         f"compute {vals[e]!r} at the traced point (the file was altered)")
    del vals  # (VALUE_BYTES: the plan's arena and the gradient's buffers replace it)
    if grad0 is None:
        return
    X = np.ascontiguousarray(traced.vals0[traced.in_elems][None, :])
    if grad0.shape != (X.shape[1],):
        raise ValueError(f"trace field 'grad0' must have {X.shape[1]} entries")
    plan = traced._plan if "_plan" in traced.__dict__ else traced._make_plan()
    if plan.rev_error is not None:
        traced._no_reverse(plan.rev_error)
    # one block of one point in buffers of one arena each, dropped after: Traced.run's
    # blocks of 8 points and the buffers it keeps took 16 arenas (reserved; 2 touched)
    nv = len(plan.vals0)
    G = np.empty(X.shape)
    r = _kernels._replay_blocks(plan.fwd, plan.rev, plan.offs, plan.vals0, traced.consts,
                                plan.meta, plan.fill, plan.in_elems, plan.out_slot, X,
                                np.empty(1), G, np.zeros(1, np.int64), 1, 0, 1, np.empty(nv),
                                np.empty(nv), 0)
    if r != -1:
        raise ValueError(f"trace field 'rows': {'reverse' if r >= 0 else 'forward'} row "
                         f"{r if r >= 0 else -2 - r} of the replay plan cannot run")
    if not np.allclose(G[0], grad0, rtol=1e-9, atol=1e-300, equal_nan=True):
        raise ValueError("trace field 'grad0': the rows' gradient at the traced point differs "
                         "from the saved one (the file was altered)")
