"""Graph views built lazily from the rows: grad_fn nodes, next_functions, AccumulateGrad.

Nothing here runs while recording.  Node objects are cached per tape row so that
``e.grad_fn.next_functions[0][0] is c.grad_fn`` holds, as in PyTorch.
"""
import collections
import contextlib
import threading
import weakref

import numpy as np

from .._state import state
from ..ops import inplace
from ..ops import views as view_ops
from ..ops._record import WRITTEN
from ..ops.custom import CUSTOM, CUSTOM_OUT
from ..ops.registry import OPS, graph_inputs, node_name
from ..ops.shape import VIEW
from ..ops.strided import EXPAND, VIEW_NAMES
from ..tape import FREED, LINK, OP_MASK, SECOND_TIME
from ..tensor import Tensor, _leaf, _nonleaf, graph_fact, norm

input_slots = graph_inputs  # the slots row r reads with a gradient (registry.py)
row_name = node_name  # the backward node name of row r (``MulBackward0``...)
MULTI_INPUT = tuple(c for c, d in OPS.items() if d.meta_slots is not None)  # inputs in meta
# a no_grad in-place write's pass row (ops/inplace.py _write, _set_values; no other VIEW row
# has this name): the tensor's new values over a new slot, for the saved-value check; in
# PyTorch the tensor keeps its grad_fn, so the graph shown looks through it
PASS = VIEW_NAMES.index("AliasBackward0")


class AccumulateGrad:
    """The node that adds a leaf's gradient into ``variable.grad``."""

    __slots__ = ("variable", "__weakref__")
    next_functions = ()

    def __init__(self, variable):
        self.variable = variable

    def name(self):
        return "torch::autograd::AccumulateGrad"

    def __repr__(self):
        return f"<AccumulateGrad object at {id(self):#x}>"


class Node:
    """The backward node of one tape row (``MulBackward0``, ``SumBackward1``...)."""

    __slots__ = ("_views", "_row", "_tok", "__weakref__")

    def __init__(self, views, row, tok):
        self._views = views
        self._row = row
        self._tok = tok  # holding a node keeps its tape alive, as a grad_fn does in PyTorch

    @property
    def metadata(self):
        """The row's dict, kept by the tape's views: nodes are made afresh once none is
        held (``y.grad_fn.metadata[k] = v`` then ``y.grad_fn.metadata``), PyTorch's node
        lives as long as its graph."""
        return self._views.metadata.setdefault(self._row, {})

    def name(self):
        return self._views.name(self._row)

    @property
    def next_functions(self):
        return self._views.next_functions(self._row)

    def __getattr__(self, attr):
        """PyTorch's ``_saved_self``, ``_saved_other``, ``_saved_result`` (and
        ``_saved_exponent`` of a power by a number): the values the row saved for its
        backward, as its declaration says (``saves`` in ops/registry.py)."""
        if attr.startswith("_saved_"):
            found, value = _saved(self._views, self._row, attr[len("_saved_"):])
            if found:
                return value
        raise AttributeError(f"'{self.name()}' object has no attribute '{attr}'")

    def __dir__(self):
        """The attributes, with the ``_saved_*`` ones this node answers (PyTorch lists a
        node's saved values so: ``[k for k in dir(y.grad_fn) if k.startswith("_saved")]``)."""
        return sorted({*super().__dir__(), *(f"_saved_{w}" for w in _SAVED_NAMES
                                            if _has_saved(self._views, self._row, w))})

    def __repr__(self):
        # (a user's Function's node, XBackward, is a Python class there; a Function giving
        # one of PyTorch's own nodes, node_name LgammaBackward0 or NotImplemented, is not)
        name = type(self).__name__
        where = "torch.autograd.function." if self._views.rows[self._row, 0] & OP_MASK == \
            CUSTOM and name.endswith("Backward") else ""
        return f"<{where}{name} object at {id(self):#x}>"


_ACCUMS = weakref.WeakValueDictionary()  # id(leaf) -> its AccumulateGrad, while one is held


def accumulate_grad(leaf):
    """The AccumulateGrad node of ``leaf``: the same object while any graph or edge holds it,
    as PyTorch's tensor keeps its grad accumulator."""
    acc = _ACCUMS.get(id(leaf))
    if acc is None or acc.variable is not leaf:
        acc = _ACCUMS[id(leaf)] = AccumulateGrad(leaf)
    return acc


_NODE_CLASSES = {}


def node_class(name):
    """The Node subclass named as PyTorch's node class (``type(y.grad_fn).__name__`` is
    ``MulBackward0``), made once per name."""
    cls = _NODE_CLASSES.get(name)
    if cls is None:
        short = name.rpartition("::")[2]  # (torch::autograd::CopySlices: class CopySlices)
        ident = short if short.isidentifier() else "".join(
            c if c.isalnum() else "_" for c in short)
        cls = _NODE_CLASSES[name] = type(ident, (Node,), {"__slots__": ()})
    return cls


def renamed(node, name):
    """``node`` shown as PyTorch's node ``name``: a complex tensor's, whose two real parts
    tapegrad records as rows of their own (_complex.py); one object per node and name."""
    if node.name() == name:
        return node
    views, r = node._views, node._row
    n = views.nodes.get((r, name))
    if n is None:
        cls = _RENAMED.get(name)
        if cls is None:
            base = node_class(name)
            cls = _RENAMED[name] = type(base.__name__, (base,), {
                "__slots__": (), "name": lambda self: name})
        n = views.nodes[(r, name)] = cls(views, r, node._tok)
    return n


_RENAMED = {}


_CONST_OPERAND = {"MulBackward0": "other", "DivBackward0": "other", "PowBackward0": "exponent"}
_SAVED_COLUMN = {"self": 2, "other": 3, "result": 1}  # a saved value's slot: its row's column


_SAVED_NAMES = ("exponent", "other", "result", "self")
_RENAMED = {"PowBackward1": {"exponent": "other", "other": None}}  # x ** tensor


def _has_saved(views, r, what):
    """Whether row ``r`` answers ``_saved_<what>`` (freed by a sweep or not, as PyTorch
    still lists it then)."""
    try:
        return _saved(views, r, what, raw=True)[0]
    except RuntimeError:
        return True


def _saved(views, r, what, raw=False):
    """``(True, value)`` when row ``r`` saved ``what`` ("self", "other", "result", or a
    number operand's name), else ``(False, None)``; PyTorch's error once a sweep freed it.
    Unless ``raw``, a value saved under saved_tensors_hooks is what unpack gives back."""
    tape = views.tape
    if not raw and _HOOKS.stack:
        pack_pending(tape)
    row = views.rows[r]
    d = OPS.get(int(row[0]) & OP_MASK)
    if d is None:
        return False, None
    saves, name = d.saves, views.name(r)
    if name in _RENAMED:  # (PyTorch's name for the operand the row saved as another)
        what = _RENAMED[name].get(what, what)
        if what is None:
            return False, None
    const = d.aux == "const" and _CONST_OPERAND.get(name) == what
    wanted = {"self": "a" in saves or ("A" in saves and row[3] >= 0),
              "other": "b" in saves or ("B" in saves and row[2] >= 0),
              "result": "o" in saves}.get(what, False)
    if not (wanted or const):  # (x * 2.5 saves no self: PyTorch shows None)
        return (what == "self" and d.aux == "const" and name in _CONST_OPERAND), None
    if tape.rows[5 * r] & FREED:
        raise RuntimeError(SECOND_TIME)
    packed = None if raw else (tape.packed or {}).get((r, what))
    if packed is not None:  # saved under saved_tensors_hooks: what unpack gives back
        return True, packed[1](packed[0])
    if const:
        c = float(tape.consts[int(row[4])])
        if what == "exponent":  # a Python number, as PyTorch keeps it
            return True, int(c) if c.is_integer() else c
        return True, Tensor(np.float64(c))
    s = int(row[_SAVED_COLUMN[what]])
    leaf = views.leaf_of.get(s)
    if leaf is not None:
        return True, leaf
    values = tape.slot_values(s).reshape(tuple(tape.shapes.get(s, ())))
    if tape.vals.typecode == "f":
        values = values.astype(np.float32)
    if views.row_of[s] < 0:  # (an operand that requires no grad: a plain tensor, as PyTorch's)
        return True, _leaf(norm(values))
    return True, _nonleaf(norm(values), s, tape, None)


class _Views:
    """Per-tape cache: the slot -> row map, nodes per row, AccumulateGrad per leaf."""

    def __init__(self, tape):
        self.tape = tape
        # weak: a node holds the tape's token, so a strong cache would keep the tape alive
        self.nodes = weakref.WeakValueDictionary()
        self.metadata = {}  # row -> its node's metadata dict
        self.accums = {}
        self.known = -1

    def refresh(self):
        tape = self.tape
        if self.known != (tape.nslots, tape.nrows):  # (a write in place adds a row only)
            tape.flush()
            rows = np.frombuffer(tape.rows, np.int64).reshape(-1, 5) if tape.rows else \
                np.zeros((0, 5), np.int64)
            self.rows = rows.copy()  # a copy: views must not pin the growable buffers
            self.row_of = np.full(tape.nslots, -1, np.int64)
            self.row_of[self.rows[:, 1]] = np.arange(len(self.rows))
            self.leaf_of = {s: t for s, t in tape.leaves}
            self.known = (tape.nslots, tape.nrows)
            self.meta = np.array(tape.meta, np.int64)

    def named(self, r):
        """The note of row ``r`` if it made the result of a composite op, else None: a
        later row writing the same slot in place is not named (ops/_record.py named_result)."""
        named = self.tape.named
        if named:
            s = int(self.rows[r, 1])
            note = named.get(s)
            if note is not None and r < note[2] and not (self.rows[r + 1:note[2], 1] == s).any():
                return note
        return None

    def name(self, r):
        note = self.named(r)
        return row_name(self.rows, self.meta, r) if note is None else note[0]

    def node(self, r):
        n = self.nodes.get(r)
        if n is None:
            n = node_class(self.name(r))(self, r, self.tape.token())
            self.nodes[r] = n
        return n

    def source(self, s, reader=None):
        """``(row, slot)``: the row whose node gets the gradient for slot ``s`` (-1 for a leaf
        or a constant) and the slot that row (or leaf) owns; EXPAND rows (implicit
        broadcasts) are looked through, as PyTorch has no node for them.  ``reader``: the
        row that reads ``s``; when it writes s in place (ops/shape.py _put_in_place) the
        source is the row before it that wrote s."""
        r = self.row_of[s]
        if reader is not None and self.rows[reader, 1] == s:
            earlier = np.flatnonzero(self.rows[:reader, 1] == s)
            r = earlier[-1] if len(earlier) else -1
        while r >= 0 and ((self.rows[r, 0] & OP_MASK) == EXPAND or self.passes(r)):
            s = self.rows[r, 2]
            r = self.row_of[s]
        return int(r), int(s)

    def passes(self, r):
        """Whether row ``r`` is a no_grad in-place write's pass row (``PASS``)."""
        return self.rows[r, 0] & OP_MASK == VIEW and self.rows[r, 4] == PASS

    def through(self, s):
        """Slot ``s``, or the slot the no_grad in-place writes that gave it started from
        (their pass rows looked through): whose row is the tensor's grad_fn."""
        r = self.row_of[s]
        while r >= 0 and self.passes(r):
            s = self.rows[r, 2]
            r = self.row_of[s]
        return int(s)

    def edge(self, s, reader=None):
        """The (node, 0) pair that gradient for slot ``s`` (read by row ``reader``) flows
        into."""
        r, s = self.source(s, reader)
        if r >= 0:
            if self.rows[r, 0] & OP_MASK == LINK:  # a non-leaf of an older tape (tape.py)
                tok, old = self.tape.links[int(self.rows[r, 4])]
                return (None, 0) if tok is None else views(tok.tape).edge(old)
            if self.rows[r, 0] & OP_MASK == CUSTOM_OUT:  # output i of a custom op
                return (self.node(int(self.row_of[self.rows[r, 2]])), int(self.rows[r, 4]))
            return (self.node(r), 0)
        leaf = self.leaf_of.get(s)
        if leaf is None:
            return (None, 0)
        acc = self.accums.get(id(leaf))
        if acc is None:
            acc = self.accums[id(leaf)] = accumulate_grad(leaf)
        return (acc, 0)

    def next_functions(self, r):
        self.refresh()
        note = self.named(r)
        if note is not None and note[1] is not None:
            if note[1][0] == WRITTEN:  # a write through a view (ops/_record.py copy_slices)
                first = self.edge(int(input_slots(self.rows, self.meta, r)[0]), r)
                return (first, *self._written(*note[1][1:]))
            return tuple((None, 0) if s < 0 else self.edge(s) for s in note[1])  # composite's
        return self._row_edges(r)

    def _row_edges(self, r):
        op = int(self.rows[r, 0] & OP_MASK)
        edges = [self.edge(s, r) for s in input_slots(self.rows, self.meta, r)]
        if op in OPS and OPS[op].scalar_edge:
            edges.append((None, 0))  # the Python scalar operand, as PyTorch shows it
        return tuple(edges)

    def _written(self, s, prev, base_old):
        """The edges of the in-place op that wrote view slot ``s`` but the view's own (the
        operand read from ``base_old`` through a view row, else the first): from the note
        ``prev`` the slot had then, else from its row."""
        if prev is not None:
            if prev[0] == WRITTEN:  # (the view was a base written through its own view)
                return self._written(*prev[1:])
            slots, r = prev, -1
        else:
            inner = self.tape.named.get(("written", s))
            if inner is not None:  # (s is a view's base, written through that view)
                return self._written(*inner[1:])
            r = int(self.row_of[s])
            if r < 0:
                return (self.edge(s),)
            slots = input_slots(self.rows, self.meta, r)
        own = next((i for i, t in enumerate(slots) if t >= 0 and self.row_of[t] >= 0 and
                    base_old in input_slots(self.rows, self.meta, int(self.row_of[t]))), 0)
        edges = [(None, 0) if t < 0 else self.edge(t, None if r < 0 else r) for t in slots]
        if r >= 0 and int(self.rows[r, 0] & OP_MASK) in OPS and \
                OPS[int(self.rows[r, 0] & OP_MASK)].scalar_edge:
            edges.append((None, 0))
        return tuple(edges[:own] + edges[own + 1:])


def views(tape):
    v = tape._views
    if v is None:
        v = tape._views = _Views(tape)
    v.refresh()
    return v


def node_of(t):
    """The grad_fn of non-leaf tensor ``t``."""
    v = views(t._tok.tape)
    r = int(v.row_of[v.through(t._slot)])
    if v.rows[r, 0] & OP_MASK == CUSTOM_OUT:  # the outputs of a custom op share its node
        r = int(v.row_of[v.rows[r, 2]])
    return v.node(r)


def _grad_fn(t):
    """The backward node that made this non-leaf (None for a leaf)."""
    if view_ops.MULTI and (msg := view_ops.refusal(t, False)) is not None:
        raise RuntimeError(msg)  # (a piece of unbind, split, chunk after its base changed)
    if t._tok is None:
        return None
    if state.tracing is not None:
        graph_fact(t, "grad_fn")
    return node_of(t)


Tensor.grad_fn = property(_grad_fn)
Tensor._node_name = lambda t: node_of(t).name()  # (grad_fn's name, for ops/views.py's errors)


# ---- gradient edges ------------------------------------------------------------------------
class GradientEdge(collections.namedtuple("GradientEdge", "node output_nr ownership_token",
                                          defaults=(None,))):
    """``(node, output_nr)``: where a tensor's gradient flows in, PyTorch's
    ``torch.autograd.graph.GradientEdge``.  ``autograd.grad(outputs, inputs=[edge])`` gives
    the gradient at that edge, as for the tensor it was taken from (which it holds, as
    PyTorch's edge holds the node)."""


def get_gradient_edge(tensor):
    """The ``GradientEdge`` of ``tensor``: its grad_fn (a leaf's AccumulateGrad) and output
    number, for ``autograd.grad(..., inputs=[edge])`` once the tensor itself is gone.

    >>> import tapegrad as tg
    >>> x = tg.tensor([1.0, 2.0], requires_grad=True)
    >>> y = x * 2
    >>> edge = tg.autograd.graph.get_gradient_edge(y)
    >>> tg.autograd.grad((y * y).sum(), inputs=[edge])
    (tensor([4., 8.]),)
    """
    if not tensor.requires_grad:
        raise RuntimeError("It is not possible to get the gradient edge for a Tensor that does "
                           "not require gradients")
    if tensor._tok is None:  # a leaf: its AccumulateGrad (the one next_functions shows)
        node, nr = accumulate_grad(tensor), 0
    else:
        v = views(tensor._tok.tape)
        r = int(v.row_of[v.through(tensor._slot)])
        nr = int(v.rows[r, 4]) if v.rows[r, 0] & OP_MASK == CUSTOM_OUT else 0
        node = node_of(tensor)
    edge = GradientEdge(node, nr)
    edge._tensor, edge._at = tensor, (tensor._slot, tensor._gen)
    return edge


def edge_tensor(edge):
    """The tensor ``edge`` was taken from, refused once an in-place op moved it to another
    node (the edge keeps the gradient of the value it was taken at, which tapegrad does not
    address apart from the tensor)."""
    t = getattr(edge, "_tensor", None)
    if t is None:
        raise TypeError("autograd: a GradientEdge given as an input must come from "
                        "torch.autograd.graph.get_gradient_edge(tensor)")
    if (t._slot, t._gen) != edge._at:
        raise RuntimeError(
            "autograd: the tensor of this GradientEdge was modified in place after "
            "get_gradient_edge(); tapegrad gives the gradient of a tensor's current value "
            "only: take the edge after the in-place op, or clone() the tensor first")
    return t

# ---- saved_tensors_hooks ------------------------------------------------------------------
# tapegrad copies every saved value into the tape as it records, with no per-op Python; so
# the hooks run around that: ``pack`` on each value saved by the rows recorded inside the
# context when it exits (in recording order, as PyTorch calls it per op), or when a
# backward starts inside it; ``unpack`` when a backward's sweep reaches the row (or a
# ``_saved_*`` is read), and what it returns becomes the value the backward reads, as in
# PyTorch, which unpacks when the node runs.
class _HookState(threading.local):
    def __init__(self):
        self.stack = []  # [tape, first row, pack, unpack] per open context, innermost last
        self.disabled = None  # disable_saved_tensors_hooks' message


_HOOKS = _HookState()
_WHAT = ("other", "self", "result")  # PyTorch's order of packing (MulBackward0's, say)


def _const_operand(v, r):
    """The name of row ``r``'s Python-number operand ("other" of x * 2), else None."""
    d = OPS.get(int(v.rows[r, 0]) & OP_MASK)
    return _CONST_OPERAND.get(v.name(r)) if d is not None and d.aux == "const" else None


def _pack_rows(tape, lo, pack, unpack):
    """Call ``pack`` on what rows ``lo ..`` of ``tape`` saved (those not packed yet)."""
    v = views(tape)
    if tape.packed is None:
        tape.packed = {}
    for r in range(lo, len(v.rows)):
        for what in _WHAT:
            if (r, what) in tape.packed or _const_operand(v, r) == what:
                continue  # (x * 2's number: PyTorch packs no tensor for it)
            found, value = _saved(v, r, what, raw=True)
            if found and isinstance(value, Tensor):
                tape.packed[r, what] = (pack(value), unpack)


def hooked(tape):
    """True when a backward of ``tape`` has saved values to pack or unpack."""
    return bool(tape.packed) or bool(_HOOKS.stack)


def _first_row(entry, tape):
    """The first row of ``tape`` recorded inside the context of ``entry``: all of them if
    the thread's tape at entry was an older one (or an older generation of this one), none
    of a tape older than that (one a linked backward reaches)."""
    if entry[0] is tape and entry[4] == tape.gen:
        return entry[1]
    return 0 if tape.gen > entry[4] else len(views(tape).rows)


def pack_pending(tape):
    """Pack what the open contexts recorded on ``tape`` so far (before a backward)."""
    for entry in reversed(_HOOKS.stack):
        _pack_rows(tape, _first_row(entry, tape), entry[2], entry[3])
        if entry[0] is tape:  # (a linked older tape must not move the entry off its own)
            entry[1], entry[4] = len(views(tape).rows), tape.gen


def saved_rows(tape):
    """Before a backward of ``tape``: the rows holding values packed under the hooks (the
    packed values of rows a backward freed are dropped)."""
    rows = set()
    for r, what in list(tape.packed):
        if tape.rows[5 * r] & FREED:
            del tape.packed[r, what]
        else:
            rows.add(r)
    return rows


def unpack_row(tape, r):
    """``[(slot, values), ...]``: what ``unpack`` returns for each value row ``r`` saved
    under the hooks, called when a sweep reaches the row, as PyTorch unpacks when the node
    runs.  The sweep puts those values in the slot only while it sweeps that row
    (engine._stretch_saved): a row recorded outside the context that reads the same slot
    sees the value recorded, as in PyTorch."""
    v = views(tape)
    out = []
    for what in _WHAT:
        entry = tape.packed.get((r, what))
        if entry is None:
            continue
        packed, unpack = entry
        value = unpack(packed)
        s = int(v.rows[r, _SAVED_COLUMN[what]])
        data = np.asarray(value.detach()._data if isinstance(value, Tensor) else value)
        if data.size != tape.slot_values(s).size:
            raise RuntimeError(f"saved_tensors_hooks: unpack_hook returned a tensor of "
                               f"{data.size} elements for a saved value of "
                               f"{tape.slot_values(s).size} ({v.name(r)})")
        data = np.ravel(data).astype(np.dtype(tape.dtype))
        for s2, other in out:
            if s2 == s and not np.array_equal(other, data):  # (x * x: one slot, two values)
                raise RuntimeError(
                    f"saved_tensors_hooks: {v.name(r)} saved the same tensor twice and "
                    f"unpack_hook returned different values for the two; tapegrad keeps one "
                    f"value per operand slot (a limit: see docs/limits.md). Fix: make "
                    f"unpack_hook return the same value for both, or record x * x.clone()")
        if tape.lazy and s in tape.lazy:
            tape.fill(s)
        out.append((s, data))
    return out


def unpacked_rows(tape):
    """Before a create_graph backward of ``tape`` (autograd/higher.py): the rows holding
    packed values (``refuse_unpacked`` each as the sweep reaches it)."""
    if not hooked(tape):
        return ()
    pack_pending(tape)
    return saved_rows(tape)


def refuse_unpacked(tape, r):
    """A create_graph backward, which records its rules from the values recorded, reached
    row ``r``: unpack its values (as PyTorch, when the node runs) and refuse an ``unpack``
    that gives back another value."""
    for s, data in unpack_row(tape, r):
        if not np.array_equal(data, np.ravel(tape.slot_values(s))):
            raise NotImplementedError(
                f"saved_tensors_hooks: unpack_hook returned a value other than the one "
                f"saved for {views(tape).name(r)}, and a backward with create_graph=True "
                f"reads the values recorded (a tapegrad limit: docs/limits.md). Fix: "
                f"backward without create_graph, or compute the changed value in the "
                f"forward")


class saved_tensors_hooks:  # noqa: N801 (PyTorch's name)
    """Context manager: ``pack_hook(tensor)`` for each value the ops inside save for
    backward, ``unpack_hook(packed)`` when backward needs it (see above for when)."""

    def __init__(self, pack_hook, unpack_hook):
        self.pack_hook, self.unpack_hook = pack_hook, unpack_hook

    def __enter__(self):
        if _HOOKS.disabled is not None:
            raise RuntimeError(_HOOKS.disabled)
        tape = state.tape
        first = len(views(tape).rows) if tape is not None else 0
        self._entry = [tape, first, self.pack_hook, self.unpack_hook,
                       tape.gen if tape is not None else -1]
        _HOOKS.stack.append(self._entry)
        return self

    def __exit__(self, *exc):
        _HOOKS.stack.remove(self._entry)
        tape = state.tape
        while exc[0] is None and tape is not None:  # (and the segments it split from
            _pack_rows(tape, _first_row(self._entry, tape), self.pack_hook,  # inside the
                       self.unpack_hook)  # context: tape.py Tape._split)
            if tape is self._entry[0] or tape.gen <= self._entry[4] or tape.prev is None:
                break
            tape = tape.prev()
        return False


class save_on_cpu(saved_tensors_hooks):  # noqa: N801
    """Keep saved values on the CPU: where they are here (identity hooks)."""

    def __init__(self, pin_memory=False, device_type="cuda"):
        super().__init__(lambda t: t, lambda t: t)


@contextlib.contextmanager
def disable_saved_tensors_hooks(error_message):
    """Inside, entering saved_tensors_hooks raises RuntimeError(error_message)."""
    prev, _HOOKS.disabled = _HOOKS.disabled, error_message
    try:
        yield
    finally:
        _HOOKS.disabled = prev


def increment_version(tensor):
    """Count an in-place change made behind autograd's back (through ``.data`` or NumPy)
    to ``tensor`` (or each of an iterable of them), as PyTorch's: a backward that saved
    its old values then raises the version-counter error instead of using stale ones."""
    for t in (tensor,) if isinstance(tensor, Tensor) else tensor:
        inplace.count_change(t)


class _AllowMutationOnSavedContext:
    """What ``allow_mutation_on_saved_tensors`` yields (PyTorch's class name)."""


@contextlib.contextmanager
def allow_mutation_on_saved_tensors():
    """Inside, modifying in place a value saved for backward is allowed: backward uses the
    values as they were when saved (the tape's own copies), as PyTorch's clones them.
    Contexts cannot be nested (PyTorch's error)."""
    if inplace.MUTATION.allowed:
        raise RuntimeError("allow_mutation_on_saved_tensors contexts cannot be nested")
    inplace.MUTATION.allowed = True
    try:
        yield _AllowMutationOnSavedContext()
    finally:
        inplace.MUTATION.allowed = False
