"""``tapegrad.save`` / ``tapegrad.load``: tensors, state dicts and nested containers in a
file that loads without running any code (``torch.save`` / ``torch.load`` with PyTorch
2.6's default ``weights_only=True``).

The file is a zip archive:

- ``tapegrad.json``: the object's structure, in JSON (format name and version, then a tree
  of nodes: numbers, strings, None, lists, ``{"tuple": [...]}``, ``{"dict": [[key, value],
  ...]}``, ``{"odict": ...}``, ``{"tensor": i}``, ...), and for each tensor its dtype,
  shape, ``requires_grad`` and whether it is an ``nn.Parameter``;
- ``tensors/<i>.npy``: each tensor's values, a plain ``.npy`` array, read with
  ``allow_pickle=False`` and checked against the JSON (dtype, shape, size) first;
- ``data.pkl``, only for objects the JSON tree cannot hold (a Module, a custom class):
  a pickle whose tensors are still stored as ``.npy`` members.  ``load`` refuses it
  unless ``weights_only=False`` (pickle runs whatever code its file names: trusted files
  only) or every class and function it names is allowed (``add_safe_globals``, as
  PyTorch's: its weights-only unpickler allows only those).

A tensor loads as a new leaf with its dtype and ``requires_grad``; a tensor saved twice in
one object loads as one object.  Views of one tensor saved together keep sharing its
memory, as PyTorch's tensors of one storage do: a view's entry names its base's entry
(``view_of``, saved too even when the object does not hold it) with its ``offset`` and
``stride`` there, and loads as a view of it (ops/views.py), so an in-place change of one
writes into the base; its own values are still stored, and must equal the base's there.
Likewise a tensor on the very array of another (``t.detach()``) names it (``same_as``).

>>> import io, collections, tapegrad as tg
>>> buf = io.BytesIO()
>>> tg.save({"w": tg.ones(2, requires_grad=True), "step": 3}, buf)
>>> _ = buf.seek(0)
>>> back = tg.load(buf)
>>> back["w"], back["step"]
(tensor([1., 1.], requires_grad=True), 3)
"""
import _codecs
import collections
import io
import json
import math
import operator
import os
import pickle
import struct
import sys
import warnings
import zipfile
import zlib

import numpy as np

from . import dtypes, replay
from .device import device as _Device
from .nn.parameter import Parameter
from .ops import views
from .replay import validate
from .tensor import COMPLEX_HOOKS, Size, Tensor

__all__ = ["add_safe_globals", "clear_safe_globals", "get_safe_globals", "load", "safe_globals",
           "save"]

FORMAT = "tapegrad.save"
VERSION = 1
_JSON = "tapegrad.json"
_PICKLE = "data.pkl"
_DTYPES = {"float64", "float32", "float16", "int64", "int32", "int16", "int8", "uint8", "bool",
           "uint16", "uint32", "uint64",
           "complex64", "complex128"}  # (a complex tensor's values: tapegrad/_complex.py)
_MAX_JSON = 64 << 20
_KINDS = {"tensor": "tensor", "ndarray": "ndarray", "npscalar": "scalar"}  # node tag -> kind


class _Unsafe(Exception):
    """The object holds something the JSON tree cannot (it is pickled instead)."""


# ---- saving ------------------------------------------------------------------------------
class _Writer:
    def __init__(self):
        self.arrays = []  # values of each stored tensor / array, in order
        self.meta = []
        self.seen = {}  # id(tensor) -> index (one object saved twice loads as one)
        self.keep = []  # the objects seen, alive while saving (so their ids stay unique)
        self.tensors = []  # (tensor, values, meta) of each saved tensor, for link()

    def array(self, t):
        key = id(t)
        if key not in self.seen:
            if isinstance(t, Tensor):
                a = np.array(t.detach().numpy(), order="C")  # (0-d stays 0-d)
                meta = {"kind": "tensor", "requires_grad": bool(t.requires_grad),
                        "parameter": isinstance(t, Parameter)}
            else:
                a = np.array(t, order="C")
                meta = {"kind": "ndarray" if isinstance(t, np.ndarray) else "scalar"}
            if str(a.dtype) not in _DTYPES:
                raise _Unsafe(f"dtype {a.dtype}")
            meta.update(dtype=str(a.dtype), shape=list(a.shape))
            self.seen[key] = len(self.arrays)
            self.arrays.append(a)
            self.meta.append(meta)
            self.keep.append(t)
            if isinstance(t, Tensor):
                self.tensors.append((t, a, meta))
        return self.seen[key]

    def link(self):
        """After the walk: note in each saved view's meta that it views a base saved too
        (``view_of``, PyTorch's ``offset`` and ``stride`` there).  The base is the tensor
        at the end of its chain of views, or, when the object does not hold that one, a
        saved tensor covering all of it in order (``x = arange(12.).reshape(3, 4)``: views
        of x then load as views of x, and writing into one shows in x).  A view whose
        layout does not name its elements exactly, or not refreshed since its base
        changed (docs/limits.md), is saved apart, with the values it shows."""
        groups, owners = {}, {}
        for t, a, meta in list(self.tensors):
            if a.dtype.kind == "c":  # (a complex tensor's values are two real ones)
                continue
            root = views.root(t)
            if root is None and isinstance(t._data, np.ndarray):
                j = owners.setdefault(id(t._data), (t, meta))
                if j[0] is not t and not meta["parameter"]:
                    meta["same_as"] = self.seen[id(j[0])]  # (t.detach(): one array)
                continue
            if root is not None and root.ndim and root.dtype == t.dtype:
                groups.setdefault(id(root), (root, []))[1].append(
                    (t, a, meta, _root_positions(t)))
        for root, members in groups.values():
            flat = np.asarray(root.detach().numpy()).reshape(-1)
            base = root
            if id(root) not in self.seen:
                base = next((t for t, _, _, pos in members if pos.size == flat.size and
                             np.array_equal(pos.reshape(-1), np.arange(flat.size))), root)
            for t, a, meta, pos in members:
                stride, offset = list(t.stride()), int(t.storage_offset())
                laid = views.strided_positions(offset, a.shape, stride)
                if t is base or laid.tolist() != pos.tolist() or \
                        flat[pos].tobytes() != a.tobytes():
                    continue
                meta.update(view_of=self.array(base), offset=offset, stride=stride)

    def node(self, obj, depth=0):
        if depth > 200:
            raise _Unsafe("nesting")
        if obj is None or isinstance(obj, (bool, str)):
            return obj
        if type(obj) is int:
            return obj
        if type(obj) is float:
            return obj if math.isfinite(obj) else {"float": repr(obj)}
        if isinstance(obj, Tensor):
            return {"tensor": self.array(obj)}
        if isinstance(obj, np.ndarray) or (isinstance(obj, np.generic) and
                                           not isinstance(obj, (np.str_, np.bytes_))):
            return {"ndarray" if isinstance(obj, np.ndarray) else "npscalar": self.array(obj)}
        if isinstance(obj, (np.dtype, dtypes.dtype)) and np.dtype(obj).name in _DTYPES:
            return {"dtype": np.dtype(obj).name}  # (the format of NumPy dtypes before)
        if type(obj) is list:
            return [self.node(v, depth + 1) for v in obj]
        if type(obj) in (tuple, Size):
            return {"tuple" if type(obj) is tuple else "size":
                    [self.node(v, depth + 1) for v in obj]}
        if type(obj) in (dict, collections.OrderedDict):
            items = [[self.key(k, depth), self.node(v, depth + 1)] for k, v in obj.items()]
            meta = getattr(obj, "_metadata", None)
            if type(obj) is collections.OrderedDict and isinstance(meta, dict):
                # a state_dict's modules' versions (load_state_dict upgrades by them)
                return {"odict_meta": [items, self.node(meta, depth + 1)]}
            return {"dict" if type(obj) is dict else "odict": items}
        raise _Unsafe(type(obj).__name__)

    def key(self, k, depth):
        if k is None or isinstance(k, (bool, str, int, float, tuple)):
            return self.node(k, depth + 1)
        raise _Unsafe(f"dict key of type {type(k).__name__}")


class _Pickler(pickle.Pickler):
    """Pickles everything but tensors and arrays, which go to ``.npy`` members."""

    def __init__(self, f, writer):
        super().__init__(f, protocol=pickle.HIGHEST_PROTOCOL)
        self.writer = writer

    def persistent_id(self, obj):
        if isinstance(obj, (Tensor, np.ndarray)):
            try:
                return ("tapegrad.array", self.writer.array(obj))
            except _Unsafe:
                return None
        return None


def save(obj, f):
    """Save ``obj`` (tensors, state dicts, lists, tuples, dicts, numbers, strings, None; or
    any picklable object) to ``f``, a path or a writable binary file object.

    >>> import io, tapegrad as tg
    >>> buf = io.BytesIO()
    >>> tg.save([tg.tensor([1.0, 2.0], dtype=tg.float32), (1, "a", None)], buf)
    >>> _ = buf.seek(0)
    >>> tg.load(buf)
    [tensor([1., 2.], dtype=torch.float32), (1, 'a', None)]
    """
    w = _Writer()
    header = {"format": FORMAT, "version": VERSION}
    pickled = None
    try:
        header["root"] = w.node(obj)
    except _Unsafe:
        w = _Writer()
        buf = io.BytesIO()
        _Pickler(buf, w).dump(obj)
        pickled = buf.getvalue()
        header["root"] = None
        header["pickle"] = _PICKLE
    w.link()
    header["tensors"] = w.meta
    if isinstance(f, (str, os.PathLike)):
        with open(f, "wb") as fh:
            _write(fh, header, w.arrays, pickled)
    elif hasattr(f, "write"):
        _write(f, header, w.arrays, pickled)
    else:
        raise TypeError(f"save: f must be a path or a writable binary file object, got "
                        f"{type(f).__name__}")


def _write(fh, header, arrays, pickled):
    with zipfile.ZipFile(fh, "w", zipfile.ZIP_STORED) as z:
        z.writestr(_JSON, json.dumps(header, allow_nan=False))
        for i, a in enumerate(arrays):
            with z.open(f"tensors/{i}.npy", "w", force_zip64=True) as m:
                np.lib.format.write_array(m, a, allow_pickle=False)
        if pickled is not None:
            z.writestr(_PICKLE, pickled)


# ---- loading -----------------------------------------------------------------------------
def _corrupt(what):
    return ValueError(f"load: not a valid tapegrad.save file: {what}")


class _Reader:
    def __init__(self, z, header, max_bytes, spent=0, map_location=None):
        self.z = z
        self.map_location = map_location
        self.meta = header.get("tensors")
        if not isinstance(self.meta, list):
            raise _corrupt("'tensors' is not a list")
        self.cache = {}
        self.max_bytes = max_bytes
        self.read_bytes = spent  # (what parsing the structure took of max_bytes)

    def spend(self, nbytes, what):
        """Count ``nbytes`` more of what loading makes against ``max_bytes``."""
        self.read_bytes += nbytes
        if self.read_bytes > self.max_bytes:
            raise _OverBudget(f"load: the file's {what} more than max_bytes={self.max_bytes} "
                              "bytes; pass a larger max_bytes to tapegrad.load if you trust "
                              "this file")

    def array(self, i):
        if type(i) is not int or not 0 <= i < len(self.meta):
            raise _corrupt(f"tensor index {i!r} is out of range")
        if i in self.cache:
            return self.cache[i]
        m = self.meta[i]
        if not isinstance(m, dict) or not isinstance(m.get("dtype"), str) or \
                m["dtype"] not in _DTYPES or \
                not isinstance(m.get("shape"), list) or \
                not all(type(n) is int and n >= 0 for n in m["shape"]):
            raise _corrupt(f"entry {i} of 'tensors' is malformed: {m!r}")
        name = f"tensors/{i}.npy"
        try:
            info = self.z.getinfo(name)
        except KeyError:
            raise _corrupt(f"member {name} is missing") from None
        if info.flag_bits & 0x1:  # (zipfile would ask for a password)
            raise _corrupt(f"member {name} is encrypted")
        validate.check_member(self.z, info, "load: not a valid tapegrad.save file: member")
        dtype, shape = np.dtype(m["dtype"]), tuple(m["shape"])
        validate.check_shape(shape, dtype, f"load: not a valid tapegrad.save file: entry {i} "
                                           "of 'tensors'")
        nbytes = math.prod(shape) * dtype.itemsize
        if info.compress_type != zipfile.ZIP_STORED:  # (a stored member is in the file)
            self.spend(info.file_size, "its compressed members expand to")
        with self.z.open(info) as fh:
            try:
                got_shape, fortran, got = validate.npy_header(fh)
            except ValueError as e:
                raise _corrupt(f"member {name} is not a .npy array ({e})") from None
            if got != dtype or tuple(got_shape) != shape or fortran:
                raise _corrupt(f"member {name} holds {got} {tuple(got_shape)}"
                               f"{' in Fortran order' if fortran else ''}, the structure "
                               f"says {dtype} {shape} (C order)")
            if nbytes > info.file_size:
                raise _corrupt(f"member {name} has {info.file_size} bytes, too few for "
                               f"{dtype} {shape}")
            try:  # (into the array itself: a bytes object and its copy took twice its size)
                raw = validate.read_bytes(fh, nbytes, f"member {name}")
            except ValueError:
                raw = None
            if raw is None or fh.read(1):
                raise _corrupt(f"member {name} holds {'fewer' if raw is None else 'more'} "
                               f"bytes of values than {dtype} {shape} needs ({nbytes})")
        if dtype.kind == "b" and any((raw[i:i + validate.READ_CHUNK] > 1).any()
                                     for i in range(0, nbytes, validate.READ_CHUNK)):
            # (NumPy keeps such bytes as they are: its ops read them as True, but they
            # come back out of .numpy(), tobytes() and a save of the tensor)
            raise _corrupt(f"member {name} is a bool array holding bytes other than 0 and 1")
        a = raw.view(dtype).reshape(shape)
        kind = m.get("kind")
        if kind == "tensor" and m.get("requires_grad") is True and dtype.kind not in "fc":
            # (before the view and alias entries too: Tensor's own RuntimeError there)
            raise _corrupt(f"tensor {i} of dtype {dtype} cannot require grad")
        if "view_of" in m:
            return self.view(i, m, a, kind)
        if "same_as" in m:
            return self.alias(i, m, a, kind)
        if kind == "tensor":
            rg = m.get("requires_grad") is True
            if dtype.kind == "c":
                if m.get("parameter") is True:
                    raise _corrupt(f"tensor {i}: a complex nn.Parameter (tapegrad has none)")
                out = COMPLEX_HOOKS["make"](a, dtype, rg)
            elif m.get("parameter") is True:
                out = Parameter(Tensor(a), requires_grad=rg)
            else:
                out = Tensor(a, requires_grad=rg)
            if callable(self.map_location):
                out = _mapped(self.map_location, out)
        elif kind == "ndarray":
            out = a
        elif kind == "scalar":
            out = a[()] if a.ndim == 0 else a
        else:
            raise _corrupt(f"entry {i} of 'tensors' has an unknown kind {kind!r}")
        self.cache[i] = out
        return out

    def view(self, i, m, a, kind):
        """Entry ``i`` (values ``a``): a view of the base entry ``m['view_of']`` (a tensor
        entry that is no view itself, of one dtype) at ``m['offset']``, ``m['stride']``,
        which must stay inside the base and name the values ``a``."""
        j, offset, stride = m.get("view_of"), m.get("offset"), m.get("stride")
        mb = self.meta[j] if type(j) is int and 0 <= j < len(self.meta) else None
        if kind != "tensor" or j == i or not isinstance(mb, dict) or \
                mb.get("kind") != "tensor" or "view_of" in mb or \
                mb.get("dtype") != m["dtype"] or a.dtype.kind == "c":
            # (a complex tensor is no Tensor: save keeps no view of one, ops/views.py has
            # none; loaded as one, its first op raised tapegrad's ComplexPart error)
            raise _corrupt(f"entry {i} of 'tensors' names no tensor entry of its dtype as its "
                           f"base: view_of={j!r}")
        if type(offset) is not int or not isinstance(stride, list) or \
                len(stride) != a.ndim or not all(type(s) is int for s in stride + [offset]) \
                or min(stride + [offset]) < 0:
            raise _corrupt(f"entry {i} of 'tensors' has a malformed view layout: "
                           f"offset={offset!r}, stride={stride!r}")
        base = self.array(j)
        src = np.asarray(base._data)  # (C order: loaded as a copy)
        flat = src.reshape(-1)
        # every offset and stride of a view within its base's extent (zeros counted as
        # ones: an empty base's views keep its strides), as save writes them: a stride on a
        # dim of one element, or of an empty view, is never stepped but went to NumPy in
        # bytes (OverflowError from as_strided at 2**62)
        extent = math.prod(max(n, 1) for n in src.shape)
        if max(stride + [offset]) > extent:
            raise _corrupt(f"entry {i} of 'tensors' has an offset or stride beyond its base's "
                           f"{extent} elements: offset={offset}, stride={stride}")
        end = offset + sum((n - 1) * s for n, s in zip(a.shape, stride))
        if a.size and end >= flat.size:
            raise _corrupt(f"entry {i} of 'tensors' views elements up to {end} of its base, "
                           f"which has {flat.size}")
        if not _nested(a.shape, stride):
            # (a view naming an element twice took in-place writes that PyTorch refuses on
            # an expanded tensor, each element's last write landing in the base)
            raise _corrupt(f"entry {i} of 'tensors' has a view layout that no view op makes "
                           f"(it may name an element of its base more than once): shape "
                           f"{list(a.shape)}, stride={stride}")
        item = src.itemsize
        view = np.lib.stride_tricks.as_strided(flat[offset:] if a.size else flat[:0], a.shape,
                                               [s * item for s in stride], writeable=False)
        if view.tobytes() != a.tobytes():
            raise _corrupt(f"entry {i} of 'tensors' holds values other than its base's at "
                           "its view layout")
        out = Tensor(a, requires_grad=m.get("requires_grad") is True)
        views.note(out, base, src, view)
        self.cache[i] = out
        return out

    def alias(self, i, m, a, kind):
        """Entry ``i`` (values ``a``): a tensor on the very array of entry ``m['same_as']``
        (saved as ``t`` and ``t.detach()``), a tensor entry of its dtype and shape that is
        no view or alias itself, holding the same values."""
        j = m.get("same_as")
        mb = self.meta[j] if type(j) is int and 0 <= j < len(self.meta) else None
        if kind != "tensor" or j == i or m.get("parameter") is True or \
                not isinstance(mb, dict) or mb.get("kind") != "tensor" or "view_of" in mb \
                or "same_as" in mb or mb.get("dtype") != m["dtype"] or \
                mb.get("shape") != m["shape"] or np.dtype(m["dtype"]).kind == "c":
            raise _corrupt(f"entry {i} of 'tensors' names no tensor entry of its dtype and "
                           f"shape to share: same_as={j!r}")
        base = self.array(j)
        if np.asarray(base._data).tobytes() != a.tobytes():
            raise _corrupt(f"entry {i} of 'tensors' holds values other than the entry it "
                           "shares")
        out = base.detach()
        if m.get("requires_grad") is True:
            out.requires_grad_(True)
        self.cache[i] = out
        return out

    def node(self, n):
        if n is None or isinstance(n, (bool, str, int, float)):
            return n
        if isinstance(n, list):
            return [self.node(v) for v in n]
        if not isinstance(n, dict) or len(n) != 1:
            raise _corrupt(f"unexpected node {str(n)[:80]}")
        (tag, v), = n.items()
        if tag == "float" and v in ("inf", "-inf", "nan"):
            return float(v)
        if tag in _KINDS:
            kind = self.meta[v].get("kind") if type(v) is int and 0 <= v < len(self.meta) \
                and isinstance(self.meta[v], dict) else None
            if kind is not None and kind != _KINDS[tag]:  # (what save writes: one of each)
                raise _corrupt(f"node {{{tag!r}: {v}}} names entry {v} of 'tensors', of kind "
                               f"{kind!r}, not {_KINDS[tag]!r}")
            return self.array(v)
        if tag == "dtype" and isinstance(v, str) and v in _DTYPES:
            return dtypes.of(v)
        if tag in ("tuple", "size") and isinstance(v, list):
            items = tuple(self.node(x) for x in v)
            if tag == "size":
                if not all(type(x) is int and -1 << 63 <= x < 1 << 63 for x in items):
                    # (torch.Size holds int64s: zeros(Size([2**70])) failed inside NumPy)
                    raise _corrupt("a Size holds non-integers or integers beyond int64")
                return Size(items)
            return items
        if tag == "odict_meta" and isinstance(v, list) and len(v) == 2:
            out, meta = self.node({"odict": v[0]}), self.node(v[1])
            if not isinstance(meta, dict):
                raise _corrupt("a state_dict's _metadata is not a dict")
            out._metadata = meta
            return out
        if tag in ("dict", "odict") and isinstance(v, list):
            out = {} if tag == "dict" else collections.OrderedDict()
            for item in v:
                if not isinstance(item, list) or len(item) != 2:
                    raise _corrupt(f"a dict item is not a [key, value] pair: {str(item)[:80]}")
                key = self.node(item[0])
                if isinstance(key, (list, dict, Tensor, np.ndarray)) or not _hashable(key):
                    raise _corrupt(f"a dict key of type {type(key).__name__} (unhashable, or "
                                   "holding a tensor)")
                out[key] = self.node(item[1])
            return out
        raise _corrupt(f"unknown node {tag!r}")


def _nested(shape, stride):
    """Whether the view layout nests as every view op's does (slices, transposes,
    diagonals of a row-major base): its dims of more than one element, by rising stride,
    each stepping past all the elements of the ones before.  Such a layout names each
    element once; one that does not may name one twice (an expand's stride 0, overlapping
    windows), and save never writes it."""
    dims = sorted((s, n) for n, s in zip(shape, stride) if n > 1)
    return 0 in shape or all(s > sum((m - 1) * t for t, m in dims[:j])
                             for j, (s, _) in enumerate(dims))


def _root_positions(t):
    """The flat positions (C order) of view ``t``'s elements in the values of the tensor
    at the end of its chain of views."""
    vb = views.of(t)
    pos = views.positions(vb)
    while views.of(vb[0]) is not None:
        vb = views.of(vb[0])
        pos = views.positions(vb).reshape(-1)[pos]
    return pos


def _mapped(map_location, t):
    """torch.load's callable map_location(storage, location), given each tensor (tapegrad
    has no storages) and 'cpu': its result replaces the tensor, None keeps it."""
    got = map_location(t, "cpu")
    if got is None:
        return t
    if not isinstance(got, Tensor):
        raise TypeError(f"load: map_location returned a {type(got).__name__}; given a tensor "
                        "and its location 'cpu', it must return a tensor or None")
    return got


def _hashable(key):
    """A dict key of the JSON tree: hashable (a tuple of lists is not) and tensor-free."""
    if isinstance(key, tuple):
        return all(not isinstance(k, (Tensor, np.ndarray)) and _hashable(k) for k in key)
    try:
        hash(key)
    except TypeError:
        return False
    return True


def _unpickler(unpickler, f, reader, pickle_load_args):
    """An ``unpickler`` (torch.load's ``pickle_module``'s, ``pickle``'s by default, or
    the weights-only one) reading ``f``, whose persistent ids name the file's ``.npy``
    members; ``pickle_load_args`` (encoding=, errors=) go to it, as torch's do."""
    def persistent_load(pid):
        if not (isinstance(pid, tuple) and len(pid) == 2 and type(pid[0]) is str and
                pid[0] == "tapegrad.array"):  # (a tensor's == of a str raised NumPy's error)
            raise pickle.UnpicklingError(f"load: unknown persistent id {pid!r}")
        return reader.array(pid[1])

    u = unpickler(f, **pickle_load_args)
    u.persistent_load = persistent_load  # (as torch sets it: an attribute of the instance)
    return u


class WeightsOnlyError(pickle.UnpicklingError, RuntimeError):
    """A file needing pickle, refused under ``weights_only=True``: PyTorch's
    ``UnpicklingError``, and a RuntimeError as tapegrad's other refusals of a file's
    contents are (either ``except`` catches it)."""


def _weights_only_message(why):  # (PyTorch's words, its terminal's bold included)
    return (
        "Weights only load failed. This file can still be loaded, to do so you have two "
        "options, \x1b[1mdo those steps only if you trust the source of the checkpoint"
        "\x1b[0m. \n\t(1) In PyTorch 2.6, we changed the default value of the `weights_only` "
        "argument in `torch.load` from `False` to `True`. Re-running `torch.load` with "
        "`weights_only` set to `False` will likely succeed, but it can result in arbitrary "
        "code execution. Do it only if you got the file from a trusted source.\n\t(2) "
        "Alternatively, to load with `weights_only=True` please check the recommended steps "
        f"in the following error message.\n\tWeightsUnpickler error: {why}\n\nCheck the "
        "documentation of torch.load to learn more about types accepted by default with "
        "weights_only https://pytorch.org/docs/stable/generated/torch.load.html.")


# ---- weights_only's unpickler: PyTorch's allowed globals, and the ones a program adds ----
_SAFE = {}  # add_safe_globals' entries (a dict for their order: PyTorch's is a set)
_ALLOWED = {f"{c.__module__}.{c.__qualname__}": c for c in (
    collections.OrderedDict, collections.Counter, bytearray, set, frozenset, complex,
    Parameter, Size, Tensor, _Device)}
_ALLOWED["tapegrad.dtypes._of_name"] = dtypes._of_name  # (how a dtype pickles)
_ALLOWED["_codecs.encode"] = _codecs.encode  # (how protocol 2 pickles bytes)
_BLOCKED = {"sys", "os", "posix", "nt"}  # (PyTorch's: never allowed, add_safe_globals or not)


def add_safe_globals(safe_globals):
    """Mark classes and functions (or ``(global, "module.qualname")`` pairs) as safe for
    ``load(weights_only=True)`` to find in a file's pickle, as torch.serialization's."""
    _SAFE.update(dict.fromkeys(safe_globals))


def get_safe_globals():
    return list(_SAFE)


def clear_safe_globals():
    _SAFE.clear()


class safe_globals:
    """``with safe_globals([...]):`` add_safe_globals for the block only."""

    def __init__(self, safe_globals):
        self.safe_globals = safe_globals

    def __enter__(self):
        add_safe_globals(self.safe_globals)

    def __exit__(self, *exc):
        for g in self.safe_globals:
            _SAFE.pop(g, None)


def _user_allowed():
    out = {}
    for g in _SAFE:
        if isinstance(g, tuple):  # (PyTorch's checks and words)
            if len(g) != 2:
                raise ValueError("Expected tuple of length 2 (global, str of callable full "
                                 f"path), but got tuple of length: {len(g)}")
            if type(g[1]) is not str:
                raise TypeError("Expected second item in tuple to be str of callable full "
                                f"path, but got: {type(g[1])}")
            out[g[1]] = g[0]
        else:
            out[f"{g.__module__}.{g.__qualname__}"] = g
    return out


OP_BYTES = 256  # memory an opcode may make (an empty set: 216 bytes and its stack entry)


class _Ops(dict):
    """The opcode table of ``_SafeUnpickler``: an unknown opcode is PyTorch's
    UnpicklingError (a KeyError from the pure-Python one's table)."""

    def __missing__(self, key):
        raise pickle.UnpicklingError(f"Unsupported operand {key}")


def _counted(run):
    """An opcode's handler charged ``OP_BYTES`` against the load's ``max_bytes``: a small
    (or deflated) pickle of a million empty sets made 220 MB under max_bytes=10**6."""
    def handler(self):
        self.reader.spend(OP_BYTES, "pickle makes objects of")
        return run(self)
    return handler


class _SafeUnpickler(pickle._Unpickler):  # noqa: SLF001 (pickle's own Python unpickler)
    """weights_only's unpickler: a global the file names must be one PyTorch allows by
    default (its tapegrad twin) or one the program added (add_safe_globals).  Python's own
    unpickler, as PyTorch's weights-only one is, not C's: the C one sized its memo by the
    index a file names (a 20-byte file's LONG_BINPUT 2**26 made and zeroed 1 GB) and BUILD
    ran any object's ``__setstate__`` (a dtype's is NumPy's, of a global object).  Every
    opcode, and the memory each allowed call makes (``bytearray(2**33)``, ``Tensor(2**16,
    2**16)``: ``_call_bytes``) is counted against ``max_bytes`` before it is made."""

    dispatch = _Ops({op: _counted(run) for op, run in pickle._Unpickler.dispatch.items()})
    uncounted = _Ops(pickle._Unpickler.dispatch)  # (a pickle charged whole: _weights_only)

    def __init__(self, f, reader, counted=True):
        super().__init__(f)
        self.reader = reader
        self.user = _user_allowed()  # (its errors raised as they are, as PyTorch's)
        self.calling = False  # (while an allowed call runs, or raised: its errors are its own)
        if not counted:
            self.dispatch = self.uncounted

    def load(self):
        """Its errors of a malformed pickle, not raised by an allowed call, are
        UnpicklingErrors (the C unpickler's words for nothing to pop): an IndexError, a
        struct.error (an opcode's argument cut short), a TypeError or AttributeError
        (SETITEMS into a list, ADDITEMS into a dict, an unhashable key)."""
        try:
            return super().load()
        except (IndexError, struct.error, TypeError, AttributeError) as e:
            if self.calling:
                raise
            if isinstance(e, IndexError):
                raise pickle.UnpicklingError("unpickling stack underflow") from None
            raise pickle.UnpicklingError(f"malformed pickle ({type(e).__name__}: "
                                         f"{str(e)[:200]})") from None

    def load_bytearray8(self):
        """BYTEARRAY8 of the bytes that follow it: pickle's own made a bytearray of the size
        the file names first (a 20-byte file's 2**40 took 1 TB), and one cut short came
        back padded with zeros."""
        n, = struct.unpack("<Q", self.read(8))
        if n > sys.maxsize:  # (pickle's words)
            raise pickle.UnpicklingError(f"BYTEARRAY8 exceeds system's maximum size of "
                                         f"{sys.maxsize} bytes")
        data = self.read(n)  # (at most the bytes there are)
        if len(data) != n:
            raise pickle.UnpicklingError("pickle data was truncated")  # (C's words)
        self.append(bytearray(data))

    def find_class(self, module, name):
        key = f"{module}.{name}"
        if module in _BLOCKED:
            raise _Refused(f"Trying to load unsupported GLOBAL {key} whose module {module} "
                           "is blocked.")
        found = _ALLOWED.get(key)
        if found is None:
            found = self.user.get(key)
        if found is None:
            key = name if module == "builtins" else key  # (PyTorch names a builtin alone)
            raise _Refused(
                f"Unsupported global: GLOBAL {key} was not an allowed global by default. "
                f"Please use `torch.serialization.add_safe_globals([{key}])` or the "
                f"`torch.serialization.safe_globals([{key}])` context manager to allowlist "
                "this global if you trust this class/function.")
        return found

    def _call(self, func, args, kwargs=None, new=False):
        """``func(*args, **kwargs)`` (``func.__new__(func, ...)`` if ``new``: NEWOBJ, whose
        ``Size.__new__(Size, b"..." * n)`` makes a tuple of n ints too), charged first."""
        if not any(func is g for g in _ALLOWED.values()) and \
                not any(func is g for g in self.user.values()):
            # (an object the pickle made: an int, an allowed class's instance; PyTorch's words)
            raise pickle.UnpicklingError(
                "Can only create new object for nn.Parameter or classes allowlisted via "
                f"`add_safe_globals` but got {_short(func)}" if new else
                f"Trying to call reduce for unrecognized function {_short(func)}")
        if not isinstance(args, tuple) or not isinstance(kwargs, (dict, type(None))):
            raise pickle.UnpicklingError("REDUCE: args must be a tuple")  # (C's words)
        args2 = tuple((kwargs or {}).values())
        self.reader.spend(_call_bytes(func, args) + _call_bytes(func, args2),
                          f"pickle calls {getattr(func, '__name__', '?')} to make objects of")
        self.calling = True
        out = func.__new__(func, *args, **kwargs or {}) if new else func(*args, **kwargs or {})
        self.calling = False
        return out

    def load_reduce(self):
        args = self.stack.pop()
        self.stack[-1] = self._call(self.stack[-1], args)

    def _instantiate(self, klass, args):  # (INST and OBJ)
        self.append(self._call(klass, tuple(args)))

    def load_newobj(self):
        args = self.stack.pop()
        self.stack[-1] = self._call(self.stack[-1], args, new=True)

    def load_newobj_ex(self):
        kwargs, args = self.stack.pop(), self.stack.pop()
        self.stack[-1] = self._call(self.stack[-1], args, kwargs, new=True)

    def load_build(self):
        """PyTorch's BUILD: only of a Tensor, a Parameter, an OrderedDict or a type the
        program allowed (a dtype's or a device's state comes from no file)."""
        inst = self.stack[-2] if len(self.stack) >= 2 else None
        if type(inst) is _Device:  # (pickled from its slots: checked as device() checks)
            state = self.stack.pop()
            slots = state[1] if type(state) is tuple and len(state) == 2 and \
                state[0] is None else None
            if type(slots) is not dict or set(slots) - {"type", "index"}:
                raise pickle.UnpicklingError(f"a device's state holds its type and index "
                                             f"only, got {str(state)[:80]}")
            self.calling = True  # (device()'s errors are its own)
            made = _Device(slots.get("type"), slots.get("index"))
            self.calling = False
            inst.type, inst.index = made.type, made.index
            return
        if not (type(inst) in (Tensor, Parameter, collections.OrderedDict) or
                type(inst) in self.user.values()):
            raise pickle.UnpicklingError(
                "Can only build Tensor, Parameter, OrderedDict or types allowlisted via "
                f"`add_safe_globals`, but got {type(inst)}")
        state = self.stack[-1]
        if isinstance(inst, Tensor) and type(state) is tuple and len(state) == 2 and \
                type(state[1]) is dict and type(state[1].get("_data")) is np.ndarray:
            # its values of its own: two tensors built on one array of the file shared
            # it unseen (an in-place change of one changed the other, its version not)
            data = state[1]["_data"]
            self.reader.spend(data.nbytes, "tensors' values, each a copy, take")
            self.stack[-1] = (state[0], {**state[1], "_data": data.copy()})
        self.calling = True  # (a Tensor's __setstate__)
        pickle._Unpickler.load_build(self)  # noqa: SLF001
        self.calling = False

    for _op, _run in ((pickle.REDUCE, load_reduce), (pickle.BUILD, load_build),
                      (pickle.NEWOBJ, load_newobj), (pickle.NEWOBJ_EX, load_newobj_ex),
                      (pickle.BYTEARRAY8, load_bytearray8)):
        dispatch[_op[0]] = _counted(_run)
        uncounted[_op[0]] = _run
    del _op, _run


def _weights_only(z, packed, reader):
    """The weights-only load of pickle member ``packed``, its opcodes charged ``OP_BYTES``
    each.  A pickle of n bytes runs at most n opcodes: when n * OP_BYTES fits in what
    max_bytes has left, that is charged at once and the opcodes run uncounted (the charge
    an opcode made loads 1.27x as slow); should the load then outgrow max_bytes, it runs
    again counted opcode by opcode, refused only where that count refuses it (an allowed
    class and map_location are called again then)."""
    start = reader.read_bytes
    whole = OP_BYTES * packed.file_size
    counted = whole > reader.max_bytes - start
    while True:
        if not counted:
            reader.spend(whole, "pickle makes objects of")
        try:
            with z.open(packed) as fh:
                return _unpickler(lambda f: _SafeUnpickler(f, reader, counted), fh, reader,
                                  {}).load()
        except _OverBudget:
            if counted:
                raise
        except (_Refused, pickle.UnpicklingError) as e:
            raise WeightsOnlyError(_weights_only_message(e)) from None
        counted, reader.read_bytes, reader.cache = True, start, {}


def _short(obj):
    """``str(obj)`` for a message (PyTorch's), at most 80 characters (a tensor's may be
    long)."""
    try:
        text = str(obj)
    except Exception:  # noqa: BLE001 (an object of the file: its str's error is not ours)
        text = f"<{type(obj).__name__} object>"
    return text if len(text) <= 80 else text[:77] + "..."


def _call_bytes(func, args):
    """About the memory a call of an allowed global makes, from its arguments, before it is
    called: a size (``bytearray(n)``, anything with ``__index__``; ``Tensor(n, m)``'s
    float64s), else 16 bytes an item of each sized argument (``Size(b"..." * n)``: a tuple
    of n ints, ``_codecs.encode`` up to 10 bytes a character)."""
    if func in (Tensor, Parameter) and args and all(type(a) is int for a in args):
        return 8 * math.prod(max(a, 0) for a in args)
    total = 0
    for a in args:
        if func is bytearray and hasattr(type(a), "__index__"):
            total += max(operator.index(a), 0)
        elif hasattr(type(a), "__len__"):
            total += 16 * len(a)
    return total


class _Refused(Exception):
    pass


class _OverBudget(ValueError):
    """Loading would make more than ``max_bytes`` (``_Reader.spend``)."""


def _open(f, max_bytes):
    """The file object to read ``f`` from, or None for f itself: a path's, opened, or a
    buffer of a file that reports no size (``validate.made_up``)."""
    if isinstance(f, (str, os.PathLike)):
        fh = open(f, "rb")
        try:
            validate.check_seekable(fh, "load")  # (a named pipe)
            b = validate.made_up(fh, max_bytes)
        except ValueError:
            fh.close()
            raise
        if b is not None:
            fh.close()
        return b or fh
    if hasattr(f, "read") and hasattr(f, "seek"):
        validate.check_seekable(f, "load")
        return validate.made_up(f, max_bytes)
    raise TypeError(f"load: f must be a path or a readable, seekable binary file object, got "
                    f"{type(f).__name__}")


def _cpu_only(map_location):
    """torch.load's map_location forms that keep every tensor on the CPU: None, 'cpu', a
    CPU device, or a dict mapping 'cpu' to one of these (a tapegrad file's tensors are all
    on the CPU: the dict's other keys map nothing)."""
    if isinstance(map_location, dict):
        return all(_cpu_only(v) for k, v in map_location.items() if str(k) == "cpu")
    return map_location is None or str(map_location) == "cpu"


def load(f, map_location=None, pickle_module=None, *, weights_only=None, mmap=None,
         max_bytes=validate.MAX_BYTES, **pickle_load_args):
    """Load what ``tapegrad.save`` saved to ``f`` (a path or a binary file object).

    With ``weights_only=True`` (the default) the structure is JSON, the values plain
    ``.npy`` arrays, every field checked (a damaged or crafted file raises
    ``ValueError``); a file holding other objects (a pickle) needs ``weights_only=False``
    (trusted files only), or every class and function it names allowed by
    ``add_safe_globals``.  A tapegrad trace (``Traced.save``, ``tapegrad.jit.save``) loads
    as the ``Traced`` tape, as ``tapegrad.jit.load`` does.  ``max_bytes`` bounds what compressed
    members may expand to (``save`` stores its arrays uncompressed), what a weights-only
    pickle makes (``OP_BYTES`` an opcode, and each allowed call's sizes) and a trace's check
    (``tapegrad.replay.load``; a pickled trace's too, with ``weights_only=False``:
    ``Traced.__setstate__``); ``map_location`` may
    only name the CPU (a device, a string or a dict of them) or be a callable, called with
    each tensor and 'cpu' (returning a tensor or None); ``weights_only=None`` means the
    default, True, as in torch, unless a ``pickle_module`` is given: then False, as torch
    has it (``pickle_module`` with ``weights_only=True`` is refused, as torch refuses it);
    ``pickle_module.Unpickler`` and ``pickle_load_args`` serve ``weights_only=False`` only.
    """
    if weights_only is None:  # (torch.load's None: True, unless a pickle_module is given)
        weights_only = pickle_module is None
    if weights_only:
        if pickle_module is not None:  # (torch's words)
            raise RuntimeError("Can not safely load weights when explicit pickle_module is "
                               "specified")
        if pickle_load_args:
            warnings.warn("pickle_load_args only works if `weights_only=False`.", stacklevel=2)
    elif pickle_module is None:
        pickle_module = pickle
    if not callable(map_location) and not _cpu_only(map_location):
        raise RuntimeError(f"load: map_location={map_location!r}: tapegrad runs on the CPU "
                           "only; use map_location='cpu' or leave it out")
    own = _open(f, max_bytes)
    fh = own if own is not None else f
    try:
        start = fh.tell()
        # (what zipfile's parse of the directory takes counts toward max_bytes)
        members = validate.members_allowed(max_bytes)
        advice = (f" (max_bytes={max_bytes} allows {members}); pass a larger max_bytes to "
                  "tapegrad.load if you trust this file")
        validate.check_directory(fh, members, "load", advice)
        try:
            z = zipfile.ZipFile(fh)
        except (zipfile.BadZipFile, EOFError, OSError, ValueError, NotImplementedError) as e:
            z, why = None, e  # (NotImplementedError: a member needing a newer zip version)
        if z is not None:
            try:
                validate.check_members(z, members, "load", advice)
            except ValueError:
                z.close()
                raise
        if z is None or _JSON not in z.namelist():
            if z is not None:
                z.close()
            fh.seek(start)
            try:  # a trace, or nothing of tapegrad's
                return replay.load(fh, max_bytes=max_bytes)
            except ValueError as e:
                if "max_bytes" in str(e):  # (a bound the caller may raise: its advice)
                    raise
                if z is None:
                    raise ValueError(f"load: {f!s} is neither a tapegrad.save file nor a "
                                     f"tapegrad trace (not a zip archive: {why}): {e}") from None
                raise ValueError(f"load: {f!s} is neither a tapegrad.save file (it has no "
                                 f"{_JSON}) nor a valid tapegrad trace: {e}") from None
        with z:
            return _load_zip(z, weights_only, max_bytes, map_location, pickle_module,
                             pickle_load_args)
    finally:
        if own is not None:
            own.close()


def _unique_keys(pairs):
    """A JSON object naming a key twice: json keeps the last, another reader may keep the
    first (one file, two contents, as with duplicate zip members)."""
    out = {}
    for k, v in pairs:
        if k in out:
            raise ValueError(f"the key {k[:80]!r} appears twice in one object")
        out[k] = v
    return out


def _load_zip(z, weights_only, max_bytes, map_location, pickle_module, pickle_load_args):
    info = z.getinfo(_JSON)
    if info.file_size > _MAX_JSON:
        raise _corrupt(f"its structure is {info.file_size} bytes, more than {_MAX_JSON}")
    if info.flag_bits & 0x1:  # (zipfile would ask for a password)
        raise _corrupt(f"{_JSON} is encrypted")
    validate.check_archive(z, "load: not a valid tapegrad.save file: member")
    try:
        if info.file_size > max_bytes:  # (before it is inflated: its parse costs more)
            raise ValueError(f"load: the file's {_JSON} is {info.file_size} bytes, more than "
                             f"max_bytes={max_bytes}; pass a larger max_bytes to "
                             "tapegrad.load if you trust this file")
        raw = z.read(info)
        # Parsing costs memory per container and item, not per byte: "[]," is 3 bytes of
        # text, ~140 bytes as a list parsed and again as the node loaded (a 15 kB deflated
        # member of 5 million of them took 700 MB).  Bounded, with the members' bytes, by
        # max_bytes (a bracket or comma inside a string counts too: an over-estimate).
        cost = len(raw) + 160 * (raw.count(b"[") + raw.count(b"{")) + 64 * raw.count(b",")
        if cost > max_bytes:
            raise ValueError(f"load: the file's {_JSON} ({len(raw)} bytes) would take about "
                             f"{cost} bytes to parse, more than max_bytes={max_bytes}; pass a "
                             "larger max_bytes to tapegrad.load if you trust this file")
        header = json.loads(raw.decode("utf-8"), object_pairs_hook=_unique_keys)
    except (zipfile.BadZipFile, zlib.error, EOFError) as e:
        raise _corrupt(f"{_JSON} is not readable ({type(e).__name__}: {str(e)[:200]})") from None
    except (ValueError, RecursionError) as e:
        if "max_bytes" in str(e):
            raise
        raise _corrupt(f"{_JSON} is not readable JSON ({str(e)[:200]})") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise _corrupt(f"{_JSON} does not name the {FORMAT!r} format")
    if type(header.get("version")) is not int or header["version"] != VERSION:  # (True == 1)
        raise ValueError(f"load: this file has format version {header.get('version')!r}; "
                         f"this tapegrad reads version {VERSION}: upgrade tapegrad")
    reader = _Reader(z, header, max_bytes, spent=cost, map_location=map_location)
    try:
        if header.get("pickle") is None:
            return reader.node(header.get("root"))
        if header["pickle"] != _PICKLE:
            raise _corrupt(f"unknown pickle member {header['pickle']!r}")
        bound = validate.UNPICKLE_MAX_BYTES.set(max_bytes)  # (a Traced's __setstate__)
        try:
            try:
                packed = z.getinfo(_PICKLE)
            except KeyError:  # (zipfile's KeyError: a file's damage is a ValueError)
                raise _corrupt(f"member {_PICKLE} is missing") from None
            if packed.compress_type != zipfile.ZIP_STORED:  # (read whole by a FRAME)
                reader.spend(packed.file_size, "its compressed members expand to")
            if weights_only:
                return _weights_only(z, packed, reader)
            with z.open(packed) as fh:
                return _unpickler(pickle_module.Unpickler, fh, reader, pickle_load_args).load()
        finally:
            validate.UNPICKLE_MAX_BYTES.reset(bound)
    except RecursionError:
        raise _corrupt("its structure is nested too deeply") from None
    except (zipfile.BadZipFile, zlib.error, EOFError) as e:
        # a damaged deflate stream (zlib.error), a member shorter than the archive's
        # directory says (EOFError)
        raise _corrupt(f"a member is damaged or truncated ({type(e).__name__}: {e})") from None
