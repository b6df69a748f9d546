"""What a traced f reads from outside besides tensors, held as constants by its trace, and
the check at each call that it still holds them (torch.compile's guards on Python state).

``captures(fn)`` looks at the names f's code loads (its closure's cells, the module globals
it names, a method's or a Module's instance attributes it names), the attributes it names
of objects found there (``cfg.scale``, ``Config.scale``, ``self.cfg.scale``), a
``functools.partial``'s arguments and f's default arguments, and does the same for the
functions of the user's own code that f names (a helper it calls, a method ``self.step``),
transitively.  Each place's value is kept as a snapshot: plain data (numbers, strings,
None, tuples, lists, dicts, NumPy arrays of up to ``SMALL`` numbers in all) by value, any
other object (a function, a Module, a large array) by identity; a tensor by identity and
values (f may read them by value, ``float(buf.sum())``; past ``SMALL`` numbers, their digest,
compared after a write into a tensor only).  ``moved`` tells
when one changed.  Library modules and functions (tapegrad's, NumPy's, the standard
library's) are not looked into: f's own code is what it names.
"""
import dis
import functools
import hashlib
import math
import sys
import types

import numpy as np

from .. import dtypes
from ..arena import WRITES, escaped
from ..tensor import Tensor

SMALL = 4096  # numbers: plain data this large (all arrays and containers of one value)
# is compared by value; larger, only whether the name holds the same object
_WALK = 16  # a Python value costs as much of SMALL as 16 array numbers (walked one by one
# at each call: ~50 ns each, where an array's bytes compare at once): 256 of them at most
_DEPTH = 3  # attribute steps followed from a name (self.cfg.scale: 2)
_ATOMS = (int, float, complex, str, bytes, bool, type(None), np.generic)
_LIBRARY = frozenset(("tapegrad", "numpy", "scipy", "torch", "numba", "jax", "autograd",
                      "builtins")) | frozenset(sys.stdlib_module_names)


class _Same:
    """An object that is no plain data, in a snapshot: equal only to itself (identity; a
    tensor's ``==`` would compare values and record a guard)."""
    __slots__ = ("obj",)

    def __init__(self, obj):
        self.obj = obj

    def __eq__(self, other):
        return type(other) is _Same and other.obj is self.obj

    __hash__ = None


class _NaN:
    """NaN in a snapshot: equal to NaN (a NaN constant must not retrace at every call)."""

    def __eq__(self, other):
        return type(other) is _NaN

    __hash__ = None


class _Zero:
    """A float zero in a snapshot: equal to a zero of the same sign only (``-0.0 == 0.0``,
    but f may tell them apart: ``math.copysign``, ``1 / x``, ``atan2``), as an element of a
    container ``_snap`` walks.  A place's own zero is kept as itself (``moved`` compares
    signs); a ``_Plain`` copy holds none: its Python ``==`` per zero cost 13% of a compiled
    call on 10 elements (docs/replay.md)."""
    __slots__ = ("sign",)

    def __init__(self, v):
        self.sign = math.copysign(1.0, v)

    def __eq__(self, other):
        if type(other) is _Zero:
            return other.sign == self.sign
        return type(other) is float and other == 0.0 and math.copysign(1.0, other) == self.sign

    __hash__ = None


def _parts(t):
    """The real tensors holding t's values: t, or a complex tensor's two parts (it has no
    ``_data``: reading it raised ComplexPart, so compile(f) of an f naming one failed)."""
    re = getattr(t, "_re", None)
    return (t,) if re is None else (re, t._im)


def _contents(t, large):
    """A tensor's dtype, shape and values, as ``_TensorSnap`` compares them: its bytes, or
    for a ``large`` one their digest (no copy of a model's weights kept per trace)."""
    out = []
    for p in _parts(t):
        a = np.asarray(p._data)
        if large:
            b = np.ascontiguousarray(a).reshape(-1).view(np.uint8)
            out.append((a.dtype.str, a.shape, hashlib.blake2b(b, digest_size=16).digest()))
        else:
            out.append((a.dtype.str, a.shape, a.tobytes()))
    return tuple(out)


def _escaped(t):
    return any(type(p._data) is np.ndarray and escaped(p._data) for p in _parts(t))


class _TensorSnap:
    """A tensor in a snapshot: the same tensor holding the same values (f may read them by
    value, ``float(buf.sum())``, which records nothing a trace could watch), or, past SMALL
    numbers, values of the same digest: f may read such a tensor through what it computes of
    it (``W[:3]``, ``W.sum()``: constants of the trace that die with the call, so no watch
    sees ``W.mul_(2)`` after it).  ``n``: WRITES.n when they were last seen unchanged;
    ``esc``: whether NumPy held their memory then (its writes are never counted: compared at
    each call; not a large one's: a digest of 10**6 numbers took 10-60 ms, at every call of
    an f reading weights made by ``from_numpy``).  Handing NumPy a view counts a write."""
    __slots__ = ("obj", "data", "n", "esc", "large")

    def __init__(self, t, large=False):
        self.obj, self.large, self.data = t, large, _contents(t, large)
        self.n, self.esc = WRITES.n, not large and _escaped(t)

    def __eq__(self, other):
        return type(other) is _TensorSnap and other.obj is self.obj and other.data == self.data

    __hash__ = None

    def holds(self, t):
        """Whether tensor t is the snapshot's, with its values."""
        if t is not self.obj:
            return False
        n = WRITES.n
        if n == self.n and not self.esc:
            return True
        if _contents(t, self.large) != self.data:
            return False
        self.n, self.esc = n, not self.large and _escaped(t)
        return True


class _Large(Exception):
    pass


def _spend(budget, n):
    budget[0] -= n
    if budget[0] < 0:
        raise _Large


_PLAIN = frozenset((int, str, bytes, bool, type(None)))


def _snap(v, budget):
    """A comparable copy of plain data ``v`` (``budget``: a one-element list, the numbers
    left); raises _Large past SMALL numbers, _Same for anything else.  Exact types first:
    ``isinstance(v, Tensor)`` runs Tensor's metaclass check (slow at every call)."""
    t = type(v)
    if t in _PLAIN or t is float or t is complex:
        _spend(budget, _WALK)
        return _NaN() if v != v else v
    if t is tuple or t is list:
        _spend(budget, _WALK)
        return (t, tuple([_typed(u, budget) for u in v]))
    if t is dict:
        _spend(budget, _WALK)
        return (t, tuple([(_typed(k, budget), _typed(u, budget)) for k, u in v.items()]))
    if t is np.ndarray:
        if v.dtype.kind not in "biufcUS":
            return _Same(v)
        _spend(budget, v.size)
        return ("array", v.dtype.str, v.shape, v.tobytes())  # (a dtype's == converts)
    if isinstance(v, np.generic):  # (NumPy's == broadcasts against a tuple)
        _spend(budget, _WALK)
        return ("scalar", v.dtype.str, v.tobytes())
    if isinstance(v, _ATOMS):  # (subclasses: an IntEnum, a str subclass)
        _spend(budget, _WALK)
        return v
    if isinstance(v, Tensor):
        _spend(budget, v.numel())
        return _TensorSnap(v)
    return _Same(v)


def _typed(v, budget):
    """``_snap`` of a container's element, a number with its type: 1 == True == 1.0, but
    ``tg.tensor(v)`` makes an int64, a bool or a float64 of them (``moved`` compares a
    place's own value and type)."""
    s = _snap(v, budget)
    if type(v) is float and v == 0.0:
        return _Zero(v)
    return (type(v), s) if type(v) in _NUMBERS else s


_NUMBERS = frozenset((int, bool, float, complex))


class _Plain:
    """A container of plain Python values only (numbers, strings, None, and lists, tuples,
    dicts of them), copied: compared by ``==`` at C speed (a walk by ``_snap`` costs ~1 us a
    value).  NaN equals itself there, the copy holding the same float object.  Functions and
    modules in it are held as themselves (``_BY_IDENTITY``)."""
    __slots__ = ("copy",)

    def __init__(self, copy):
        self.copy = copy

    def __eq__(self, other):
        return type(other) is _Plain and _same_plain(other.copy, self.copy)

    __hash__ = None


def _same_plain(v, copy):
    return type(v) is type(copy) and v == copy


class _NotPlain(Exception):
    pass


# values a _Plain copy holds as themselves: their ``==`` is identity, as ``_snap``'s _Same
# compares them (a dict of functions, bench_fastest_west's ``ops``: walked by ``_snap`` at
# every call it cost ~18 us a call, ~9% of a 10^4-row graph's one-point replay)
_BY_IDENTITY = frozenset((types.FunctionType, types.BuiltinFunctionType, types.ModuleType))


def _plain_copy(v, budget):
    t = type(v)
    _spend(budget, _WALK)
    if t in _PLAIN or t is float or t is complex or t in _BY_IDENTITY:
        return v
    if t is list or t is tuple:
        return t([_plain_copy(u, budget) for u in v])
    if t is dict:
        return {_plain_copy(k, budget): _plain_copy(u, budget) for k, u in v.items()}
    raise _NotPlain


def snapshot(v):
    """``_snap`` of v (a ``_Plain`` copy of a plain container), or when it is larger than
    SMALL numbers _Same(v), a tensor's digest (``_TensorSnap``)."""
    t = type(v)
    try:
        if t is list or t is tuple or t is dict:
            try:
                return _Plain(_plain_copy(v, [SMALL]))
            except _NotPlain:
                pass
        return _snap(v, [SMALL])
    except _Large:
        return _TensorSnap(v, large=True) if isinstance(v, Tensor) else _Same(v)


def _library(obj):
    """True for a module, function or class of a library: not the user's code to look into."""
    if isinstance(obj, types.ModuleType):
        name = obj.__name__
    elif isinstance(obj, (type, types.FunctionType, types.BuiltinFunctionType, np.ufunc)):
        name = getattr(obj, "__module__", None)
    else:
        return False
    return isinstance(name, str) and name.partition(".")[0] in _LIBRARY


_REGISTRIES = ("_parameters", "_buffers", "_modules")  # a Module's attributes (nn/modules.py)


def _namespaces(v):
    """The attribute mappings of ``v`` to look into (``cfg.scale``): a user's module, class,
    namespace or object (a Module's registries too: ``self.b`` of a buffer), not a library's
    (a tensor, a NumPy array)."""
    if isinstance(v, (types.ModuleType, type, types.SimpleNamespace)):
        ok = not _library(v)
    else:
        ok = not isinstance(v, types.FunctionType) and (
            not _library(type(v)) or "_parameters" in getattr(v, "__dict__", ()))
    d = getattr(v, "__dict__", None) if ok else None
    if not isinstance(d, (dict, types.MappingProxyType)):
        return ()
    return [d] + [d[r] for r in _REGISTRIES if type(d.get(r)) is dict]


_METHODS = (types.FunctionType, classmethod, staticmethod, property)


class _Inherited:
    """``v.name`` where ``v``'s own namespace lacks it and a class of the user's holds it
    (``class Cfg: scale = 1.0``; ``cfg.scale``, or ``Sub.scale`` of a base's; a ``__slots__``
    member), as a place: looked up at each look as Python finds it, without running code of
    the user's (the instance's dict, then the classes in MRO order; a slot's value read from
    its member).  Watching the class's dict alone missed ``cfg.scale = 5.0``, which shadows
    it on the instance."""
    __slots__ = ("v",)

    def __init__(self, v):
        self.v = v

    def __getitem__(self, name):
        v = self.v
        if name == "__class__":  # (self.__class__.scale, type(self).scale)
            return type(v)
        own = getattr(v, "__dict__", None) if not isinstance(v, type) else None
        if own is not None and name in own:
            return own[name]
        for k in (v if isinstance(v, type) else type(v)).__mro__:
            if name in k.__dict__:
                u = k.__dict__[name]
                if type(u) is types.MemberDescriptorType and not isinstance(v, type):
                    try:
                        return u.__get__(v)
                    except AttributeError:  # (a slot never set, or deleted)
                        raise KeyError(name) from None
                return u
        raise KeyError(name)


def _inherited(v, attrs, names, todo):
    """What ``v`` (a user's object or class, whose own namespace is ``names``) gets from a
    user's class for the ``attrs`` f names: values as ``_Inherited`` places, and the
    functions behind them to ``todo``, whose reads are f's (a method ``cfg.get()``, a
    classmethod's ``cls.scale``, a staticmethod, a property's getter)."""
    is_type = isinstance(v, type)
    if not names and (is_type or isinstance(v, (types.ModuleType, types.FunctionType)) or
                      _library(type(v))):
        return []  # (a library's object, or one without attributes)
    own = names[0] if names and not is_type else {}
    out = []
    for a in attrs:
        if a in own:
            continue
        if a == "__class__" and not is_type:  # (its class's attributes: the depth loop)
            out.append((_Inherited(v), a))
            continue
        for k in (v if is_type else type(v)).__mro__:
            if a not in k.__dict__:
                continue
            u = k.__dict__[a]
            if _library(k):
                break
            if isinstance(u, (classmethod, staticmethod)):
                todo.append((u.__func__, None if isinstance(u, staticmethod) else
                             v if is_type else type(v)))
            elif isinstance(u, types.FunctionType):
                todo.append((u, None if is_type else v))  # (Cfg.helper(x): a function)
            elif isinstance(u, property):
                if isinstance(u.fget, types.FunctionType) and not is_type:
                    todo.append((u.fget, v))
            elif not (is_type and k is v):  # (a class's own values: places of names)
                out.append((_Inherited(v), a))
            break
    return out


_SETTINGS = frozenset((int, float, bool, str, type(None), tuple))


_HOOKS = ("_forward_pre_hooks", "_forward_hooks", "_backward_pre_hooks", "_backward_hooks")


class _Grad:
    """A tensor's ``.grad`` as a place (f reads ``w.grad``): a backward after
    ``zero_grad()`` or ``w.grad = None`` binds a new tensor, while the old one may live on."""
    __slots__ = ("t",)

    def __init__(self, t):
        self.t = t

    def __getitem__(self, _name):
        return self.t._grad


class _Hooks:
    """A Module's hooks as one place (``where[name]``), read afresh at each look: a forward
    hook registered or removed after the trace changes its OrderedDict in place."""
    __slots__ = ("d",)

    def __init__(self, d):
        self.d = d

    def __getitem__(self, _name):
        return tuple(tuple(self.d[h].items()) for h in _HOOKS if h in self.d)


def _module_flags(v, seen):
    """A Module's and its submodules' state as places: the ``training`` flag and plain
    settings (``eval()``/``train()``, a Dropout's ``p``: what the library's own forwards read,
    which f never names), its hooks, and each parameter, buffer and submodule (one rebound
    to a new object while the old one lives on, in an optimizer, is no write the trace
    sees)."""
    out, stack = [], [v]
    while stack:
        m = stack.pop()
        d = getattr(m, "__dict__", None)
        if type(d) is not dict or type(d.get("_modules")) is not dict or id(m) in seen:
            continue
        seen.add(id(m))
        out += [(d, k) for k, u in d.items() if type(u) in _SETTINGS]
        out.append((_Hooks(d), "hooks"))
        out += [(d[r], k) for r in _REGISTRIES if type(d.get(r)) is dict for k in d[r]]
        stack.extend(u for u in d["_modules"].values() if u is not None)
    return out


def _read(where, name):
    try:
        return where.cell_contents if name is None else where[name]
    except (KeyError, ValueError):  # (gone; an empty cell)
        return _read


def _code_names(code):
    """The global names and the attribute names a code object (with the lambdas and
    comprehensions inside it) loads; with ``getattr``, ``vars`` or ``__dict__`` among
    them, its string constants too (``getattr(cfg, "scale")`` reads ``cfg.scale``)."""
    names, attrs, strings, codes = set(), set(), set(), [code]
    while codes:
        code = codes.pop()
        for ins in dis.get_instructions(code):  # (x.T is no read of a global T)
            if ins.opname in ("LOAD_GLOBAL", "LOAD_NAME"):
                names.add(ins.argval)
            elif ins.opname in ("LOAD_ATTR", "LOAD_METHOD"):
                attrs.add(ins.argval)
            elif ins.opname == "LOAD_CONST" and type(ins.argval) is str and \
                    ins.argval.isidentifier():
                strings.add(ins.argval)
        codes.extend(c for c in code.co_consts if isinstance(c, types.CodeType))
    if names & {"getattr", "vars"} or "__dict__" in attrs:
        attrs |= strings
    return names, attrs


class _Defaults:
    """f's default arguments as a place (``where[name]``), read afresh at each look: a
    default written in place (``def f(x, c=[1.0])``) or rebound (``f.__defaults__ = ...``)."""
    __slots__ = ("fn",)

    def __init__(self, fn):
        self.fn = fn

    def __getitem__(self, _name):
        return (self.fn.__defaults__, self.fn.__kwdefaults__)


class _DefaultDtype:
    """The default float dtype (``set_default_dtype``) as a place: every f reads it, through
    ``tensor(0.1)``, ``ones(3)`` or ``arange(3.0)``, which make float32 constants under a
    float32 default (torch.compile guards it too).  Not among every trace's places (a look
    at each call cost a compiled call ~15%): ``default_dtype_place`` adds it once the
    default changes (replay's hook, ``dtypes.ON_CHANGE``)."""
    __slots__ = ()

    def __getitem__(self, _name):
        return dtypes._DEFAULT_FLOAT is dtypes.float32  # (a bool: compared at once)


_DEFAULT_DTYPE = _DefaultDtype()


def with_default_dtype(captured):
    """``captured`` with the default dtype's place, holding the default now (unless it holds
    that place already)."""
    if any(where is _DEFAULT_DTYPE for where, *_ in captured):
        return captured
    v = _DEFAULT_DTYPE["float32"]
    return (*captured, (_DEFAULT_DTYPE, "float32", v, v))


def captures(fn):
    """The places f reads from outside and what each held: (where, name, value, snapshot)
    with ``where`` a cell (name None) or a mapping; see the module's docstring."""
    places, seen, todo, modules = [], set(), [(fn, None)], set()
    while todo:
        fn, obj = todo.pop()
        while isinstance(fn, functools.partial):  # its arguments are f's too
            places.append(({"p": (fn.args, fn.keywords)}, "p"))
            fn = fn.func
        if isinstance(fn, types.MethodType):
            obj, fn = fn.__self__, fn.__func__
        elif not isinstance(fn, types.FunctionType):  # a Module or another callable object
            obj = fn
            fn = getattr(type(fn), "forward", None) or getattr(type(fn), "__call__", None)
        if not isinstance(fn, types.FunctionType) or (fn.__code__, id(obj)) in seen or \
                (seen and _library(fn)):  # (f itself is looked into: a library's wrapper
            continue  # of the user's function, as compile(f).hvp's, holds it in its closure)
        seen.add((fn.__code__, id(obj)))
        names, attrs = _code_names(fn.__code__)
        found = [(cell, None) for cell in fn.__closure__ or ()]
        found += [(fn.__globals__, name) for name in names if name in fn.__globals__]
        if fn.__defaults__ or fn.__kwdefaults__:  # (written in place, or rebound)
            found.append((_Defaults(fn), "d"))
        inside = _namespaces(obj) if obj is not None else ()
        found += _module_flags(obj, modules)
        for d in inside:
            found += [(d, name) for name in attrs if name in d]
        found += _inherited(obj, attrs | {"__class__"} if "type" in names else attrs, inside,
                            todo)  # (type(self).scale: its class's, as self.__class__'s)
        for name in attrs if inside else ():  # self.helper(x): the method's reads are f's
            m = getattr(type(obj), name, None)
            if isinstance(m, types.FunctionType) and name not in inside[0]:
                todo.append((m, obj))
        for _ in range(_DEPTH):  # cfg.scale, Config.scale, self.cfg.scale
            more = []
            for where, name in found:
                v = _read(where, name)
                places.append((where, name))
                if isinstance(v, (types.FunctionType, types.MethodType, functools.partial)):
                    todo.append((v, None))  # a helper f calls
                else:
                    if "grad" in attrs and isinstance(v, Tensor):
                        places.append((_Grad(v), "grad"))
                    flags = _module_flags(v, modules)
                    if flags:  # a Module f calls, MOD(x): its forward's reads are f's
                        todo.append((v, None))
                    places.extend(flags)
                    inside = _namespaces(v)
                    more += [(d, a) for d in inside for a in attrs if a in d and
                             not isinstance(d[a], _METHODS)]
                    more += _inherited(v, attrs, inside, todo)
            found = more
        places += found
    out, done = [], set()
    for where, name in places:
        if (id(where), name) in done:
            continue
        done.add((id(where), name))
        v = _read(where, name)
        if v is _read or _library(v) and not isinstance(v, _ATOMS):
            continue  # (np, tg, math: library modules, functions and classes)
        out.append((where, name, v, snapshot(v)))
    return tuple(out)


def moved(captured):
    """True once a place of ``captures`` holds another value (compared as snapshotted)."""
    for where, name, was, snap in captured:
        try:  # (_read, inline: a compiled f's guard at every call)
            v = where.cell_contents if name is None else where[name]
        except (KeyError, ValueError):
            return True
        if v is was and (snap is was or type(snap) is _Same):  # (a number's snapshot is
            continue  # itself: the same object is the same value)
        tv = type(v)
        if type(snap) is _TensorSnap:
            if not snap.holds(v):
                return True
        elif type(snap) is _Plain:
            if not _same_plain(v, snap.copy):
                return True
        elif tv in (int, float, bool) and tv is type(was):
            if not (v == was or (v != v and was != was)) or \
                    (tv is float and v == 0.0 and math.copysign(1.0, v) != math.copysign(1.0, was)):
                return True  # (-0.0 == 0.0: the sign of a zero tells them apart)
        elif tv is not type(was):  # (1 == True == 1.0: tg.tensor(v)'s dtype differs)
            return True
        elif snapshot(v) != snap:
            return True
    return False


def _snapped_tensors(snap):
    """The tensors a snapshot holds (``_TensorSnap``), walking its tuples."""
    if type(snap) is _TensorSnap:
        yield snap.obj
    elif type(snap) is tuple:
        for u in snap:
            yield from _snapped_tensors(u)


def require_grad(captured):
    """True when a tensor among the places of ``captures`` requires grad now: one that did
    not while f was traced (``W.requires_grad_()`` after it) is a constant of the trace, whose
    gradient replay would lose."""
    return any(t._rg for _, _, _, snap in captured for t in _snapped_tensors(snap))
