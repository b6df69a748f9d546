"""What every op family shares: operand slots (adopting leaves and constants) and
appending an op's output slot and row."""
import functools
import weakref

import numpy as np

from .._errors import WRAPPERS, method_words
from .._state import state
from ..arena import LAZY_MIN, PENDING_MAX, UNREAD_MIN, WRITES, _ndarray
from ..tape import FREED, LINK, current_tape
from ..tensor import TRACE_HOOKS, Tensor, _leaf, _new, _nonleaf, norm
from . import views
from .registry import OPS


INFERENCE_SAVED = (
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in "
    "inference mode in computation tracked by autograd. To work around this, you can make a "
    "clone to get a normal tensor and use it in autograd, or use `torch.no_grad()` instead "
    "of `torch.inference_mode()`.")


def slot(t, tape, need=True, alone=False):
    """The slot of tensor ``t`` on ``tape``, adopting leaves and constants on first use.
    ``need=False``: the caller's reverse rule does not read t's values (Tape.push_array);
    ``alone``: the caller's row, appended next, is unary and its rule reads t's values and
    no others (ValueArena.needed)."""
    if t._gen == tape.gen:
        if need and (tape.lazy or tape.unread):
            tape.needed(t._slot, alone and t._tok is not None)
        return t._slot
    if views.MULTI and (msg := views.refusal(t, False)) is not None:
        raise views.refused(msg)  # (a piece of unbind, split or chunk after its base changed)
    if t._tok is not None:
        old = t._tok.tape
        if state.tracing is tape:
            if t._rg:  # (replay cannot send its gradient on: compile(f)(tensors) runs eagerly)
                tape.outside.append(t)
            s = push_value(tape, t._data)  # an outside intermediate is a constant of f
            tape.__dict__.setdefault("watched", []).append((s, weakref.ref(t)))  # (adopt)
            return s
        if not old.retired:
            raise RuntimeError(
                "this tensor was recorded on another thread's tape; tapegrad keeps one tape "
                "per thread, so pass values between threads with .detach() and record anew")
        return _link(tape, t)
    if not (tape.lazy or tape.unread) and (u := tape.uses.get(id(t))) is not None and \
            u[0] is t._data and \
            u[1] == WRITES.n and t._rg:  # (Tape.adopt's reuse of an array leaf's slot,
        return u[2]  # written out: its entries exist on eager tapes only, never traced ones)
    if need and getattr(t, "_inf", False):  # (its reverse rule would read it)
        raise RuntimeError(INFERENCE_SAVED)
    return tape.adopt(t, need)


def _freed_at(tape, s):
    """Whether every row of ``tape`` is freed, or the last row writing slot ``s`` is."""
    if tape.nfreed >= tape.nrows:
        return True
    rows = np.frombuffer(tape.rows, np.int64).reshape(-1, 5)
    at = np.flatnonzero(rows[:, 1] == s)
    return bool(at.size) and bool(rows[at[-1], 0] & FREED)


def _link(tape, t):
    """The slot of a LINK row standing for ``t``, a non-leaf of an older (retired) tape of
    this thread: a backward reaching it goes on in the old tape from t's slot (which raises
    PyTorch's "backward through the graph a second time" if a backward freed it).  One row
    per tensor and version; ``tape.links`` holds the old tape's token while this one lives."""
    c = getattr(t, "_ver", None)
    key = (id(t._tok), t._slot, 0 if c is None else c.version)
    s_out = tape.link_of.get(key)
    if s_out is None:
        old = t._tok.tape
        # a backward through a tensor whose own row was freed can only raise there, so the
        # link keeps no token (a chain of such tapes, an RNN's state carried on without
        # detach(), would otherwise all stay alive)
        tok = None if old.nfreed and _freed_at(old, t._slot) else t._tok
        s = push_value(tape, t._data)
        s_out = push_value(tape, t._data)
        k = len(tape.links)  # (the entry before the row that points at it: cut off in
        # between, an entry no row uses; without a token, t itself, weakly: a backward
        # reaching the link runs t's hooks before it raises, autograd/hooks.py)
        tape.links.append((tok, t._slot) if tok is not None else (None, weakref.ref(t)))
        if old.split:  # a graph spans the segments: split only after twice old's slots
            tape.split_at = max(tape.split_at, 2 * old.nslots)
        tape.rbuf.extend((LINK, s_out, s, -1, k))
        tape.link_of[key] = s_out
    return s_out


def tape_for_grad(a=None, b=None):
    """This thread's tape, at the start of recording an op (where a tape whose non-leaves
    have all died, unnoticed, is reset: see Tape.begin).  ``a``, ``b``: the op's tensor
    operands, where the caller passes them: an op neither of which is a live non-leaf of
    the tape starts a graph, where a long tape a live graph holds may split (Tape._split);
    an op that may extend a live graph never splits it (a long chain: a sweep a segment)."""
    tape = state.tape or current_tape()
    gen = tape.gen
    start = a is not None and (a._tok is None or a._gen != gen) and \
        (b is None or b._tok is None or b._gen != gen)
    tape.begin(False, start)
    return tape if not tape.retired else current_tape()  # (begin split it: Tape._split)


def _result(v):
    """norm() of a ufunc's result, which is most often already a C-contiguous array of at
    least one dim (norm's calls cost 0.3 us, much of a small op's time)."""
    return v if type(v) is _ndarray and v.ndim and v.flags.c_contiguous else norm(v)


def push_value(tape, v):
    return tape.push_scalar(v) if type(v) is float else tape.push_array(v)


def output(tape, v, op, a, b=-1, aux=-1, keep=True):
    """Append the value slot and row of an op; returns the result tensor.  ``keep=False``:
    the op's reverse rule does not read its output (Tape.push_array)."""
    s = tape.push_scalar(v) if type(v) is float else tape.push_array(v, keep, True)
    tape.rbuf.extend((op, s, a, b, aux))
    return _nonleaf(v, s, tape, None)


def record(v, code, a, b, need, keep, tape, fresh=False, aux=-1, dt=None, shape=None):
    """``tape_for_grad`` and ``output`` in one call, for an elementwise op on arrays (``b``
    None for a unary one) on ``tape``, the thread's (the caller read it with grad mode: one
    thread-local read): an input's live token stands for ``Tape.begin`` (a token of this
    generation lives, so no reset can be due) and goes to the output.  ``fresh``: ``v`` is
    a ufunc's new array (see below); ``aux``: the row's; ``dt``, ``shape``: v's dtype and
    shape where the caller knows them from its inputs (each NumPy attribute read of v costs
    ~300 instructions of a ~25,000-instruction small-vector op, issue 20)."""
    gen = tape.gen
    tok = a._tok if a._gen == gen else None
    if tok is None and b is not None and b._gen == gen:
        tok = b._tok
    if tok is None:
        tape.begin(False)
        if tape.retired:  # (begin split it: the new segment, Tape._split)
            tape = current_tape()
        gen = tape.gen
    if tape.lazy:  # (a unary row reading its input alone may leave it aside: slot's alone)
        sa = slot(a, tape, need, b is None and OPS[code].reads == "a")
        sb = -1 if b is None else slot(b, tape, need)
    elif not (unread := tape.unread):
        # slot()'s first lines written out, with its reuse of an array leaf's slot (``uses``:
        # an entry is a live leaf's; a call was ~1/10 of a 4-value op on a parameter)
        sa = a._slot if a._gen == gen else u[2] if (
            a._rg and (u := tape.uses.get(id(a))) is not None and u[0] is a._data
            and u[1] == WRITES.n and not views.MULTI) else slot(a, tape, need)
        sb = -1 if b is None else b._slot if b._gen == gen else u[2] if (
            b._rg and (u := tape.uses.get(id(b))) is not None and u[0] is b._data
            and u[1] == WRITES.n and not views.MULTI) else slot(b, tape, need)
    else:  # (the reads take away their values' notes)
        sa = a._slot if a._gen == gen else slot(a, tape, need)
        sb = -1 if b is None else b._slot if b._gen == gen else slot(b, tape, need)
        if need:
            unread.pop(sa, None)
            unread.pop(sb, None)
    # the value's slot: ValueArena.push_array(v, keep, owned=True), its common case (a small
    # array of the arena's dtype, no pending scalars: v waits in abuf) written out, with
    # four NumPy attribute reads instead of eight, three when ``fresh`` (a ufunc's new
    # ndarray, no view: its base is None), and no call (issue 20: ~4% of a 4-value op).
    # push_array's order: the pending offset first, nslots last (the commit)
    if (tape.vbuf or (not fresh and (type(v) is not _ndarray or v.base is not None))
            or (n := v.size) >= LAZY_MIN
            or (v.dtype if dt is None else dt) is not tape.vdt):
        s = tape.push_array(v, keep, True)
    else:
        s, lo = tape.nslots, tape.nvals
        tape.obuf.append(lo)
        tape.shapes[s] = v.shape if shape is None else shape
        abuf = tape.abuf
        if not abuf:
            tape.alo = lo
        abuf.append(v)
        if not keep and n >= UNREAD_MIN and state.tracing is not tape:
            # (ValueArena._unread written out: its call was ~1/3 of a poly-fit op's pushes)
            if (unread := tape.unread) is None:
                unread = tape.unread = {}
            unread[s] = (len(abuf) - 1, lo)
        if lo - tape.alo >= PENDING_MAX:
            tape._flush_arrays(lo + n)
        tape.nvals = lo + n
        tape.nslots = s + 1
        if s >= tape.flush_at:
            tape.flush()
    tape.rbuf.extend((code, s, sa, sb, aux))
    t = _new(Tensor)  # (tensor._nonleaf written out: a frame is ~2% of a small-vector op)
    t._data = v
    t._rg = True
    t._slot = s
    t._gen = gen
    t._tok = tok or tape.token()
    t._grad = None
    t._retains_grad = False
    return t


_NOT_IMPLEMENTED = "torch::autograd::NotImplemented"  # (its class: NotImplemented)


def no_derivative(name, value, *inputs, node_name=_NOT_IMPLEMENTED, error=None):
    """``value`` (an array, or a tuple of them) as the result of an op on ``inputs`` with no
    derivative: PyTorch's ``NotImplemented`` node (or ``node_name``), whose backward raises
    'derivative for aten::name is not implemented' (or ``error``): floor_divide, scatter's
    reduce, heaviside, histogram, unique.  Plain leaves where nothing records (grad mode
    off, no input requiring grad); while tracing, rows noted as eager's refusal (a
    Function's rows would not replay: ops/control.py no_derivative_traced)."""
    from ..autograd.function import not_differentiable  # (autograd.function imports ops/)
    values = value if isinstance(value, tuple) else (value,)
    tensors = [t for t in inputs if isinstance(t, Tensor)]
    if state.in_place == name + "_":  # (heaviside_: PyTorch's error names the spelling)
        name = state.in_place
    if state.tracing is not None:  # (a traced value among ``values``: floor_divide's rows)
        outs = TRACE_HOOKS["no_derivative"](name, error or RuntimeError(
            f"derivative for aten::{name} is not implemented"), values, tensors)
        return outs if isinstance(value, tuple) else outs[0]
    if not (state.grad_enabled and any(t._rg for t in tensors)):
        outs = tuple(_leaf(norm(v)) for v in values)
        return outs if isinstance(value, tuple) else outs[0]
    out = not_differentiable(name, *values, node_name=node_name, error=error).apply(*tensors)
    return out if isinstance(value, tuple) or not isinstance(out, tuple) else out[0]


def as_tensor_arg(x, op):
    if isinstance(x, Tensor):
        return x
    if isinstance(x, (int, float, bool, np.ndarray, np.generic, list, tuple)):
        return Tensor(x)
    raise TypeError(f"{op}(): expected a Tensor or a number, got {type(x).__name__}")


def named_result(x, name, *inputs):
    """``x``, the result of an op composed of others, as a node of PyTorch's name for that
    op (``GeluBackward0``, ``MseLossBackward0``: what ``print(y)`` and ``type(y.grad_fn)``
    show) whose next_functions lead to ``inputs`` (tensors, or None where PyTorch shows
    None), as PyTorch's one node for the op does; with no ``inputs`` they stay those of the
    row that made x.  No row: a note in the tape's ``named`` (slot -> name, the inputs'
    slots, the rows recorded so far), read by the graph views only (autograd/graph.py).
    Numbers among ``inputs`` are skipped.  x must be the composite's own intermediate: its
    caller's tensor (an input handed back unchanged) keeps its node."""
    tok = x._tok
    if tok is None:  # (not recorded: a leaf, or grad mode off)
        return x
    tape = tok.tape
    slots = None
    if inputs:
        gen, slots = x._gen, []
        for t in inputs:
            if t is x:
                return x
            if t is not None and not isinstance(t, Tensor):
                continue  # (a number operand is no input of PyTorch's node)
            slots.append(-1 if t is None or not t._rg else t._slot if t._gen == gen else
                         _leaf_slot(t, tape))
        slots = tuple(slots)
    named = tape.named
    if named is None:
        named = tape.named = {}
    named[x._slot] = (name, slots, (len(tape.rows) + len(tape.rbuf)) // 5)
    return x


WRITTEN = -2  # a CopySlices note's first "slot": what follows is the view written through


def copy_slices(base, view, base_old):
    """After an in-place op on ``view`` wrote into ``base`` (one PUT row: ops/inplace.py
    _write_back): show them as PyTorch does.  ``base`` is a CopySlices node whose
    next_functions are the base's before the write, then the in-place op's other operands
    (its node's next_functions after the first, which was the view's: no edge to the view,
    so no cycle); ``view`` is an AsStridedBackward0 node leading to that CopySlices.  Notes
    read by the graph views only (autograd/graph.py), as named_result's.  The caller
    checked that the write recorded its PUT row; ``base_old``: the base's slot before it
    (which the view was taken of)."""
    tok = base._tok
    if tok is None or view._tok is not tok or view._gen != base._gen or \
            view._slot == base._slot:
        return
    tape = tok.tape
    named = tape.named
    if named is None:
        named = tape.named = {}
    n = tape.nrows
    prev = named.get(view._slot)  # (the op's own note, a composite's)
    written = (WRITTEN, view._slot, None if prev is None else prev[1], base_old)
    named["written", base._slot] = written  # (for a write into the base's own base)
    outer = named.get(base._slot)
    if outer is None or outer[2] != n:  # (else base is itself a view written through just
        named[base._slot] = ("torch::autograd::CopySlices", written, n)  # now: it shows so)
    named[view._slot] = ("AsStridedBackward0", (base._slot,), n)


def node(name, broadcasts=None):
    """Decorates a composite op so that its result shows PyTorch's node ``name`` (or
    ``name(*args, **kwargs)``, for ops whose overloads PyTorch numbers: LerpBackward0 for a
    number weight, LerpBackward1 for a tensor), leading to the op's tensor arguments.
    ``broadcasts`` (strided.broadcast_error), for an op whose positional tensors broadcast
    in order: its error where they do not, in place of its inner ops' (or NumPy's)."""
    def deco(fn):
        @functools.wraps(fn)
        def op(*args, **kwargs):
            try:  # (free when nothing is raised)
                out = fn(*args, **kwargs)
            except TypeError as e:  # (x.lerp(): PyTorch's words)
                method_words(e, fn.__name__, args, kwargs)
                raise
            except (RuntimeError, ValueError):
                if broadcasts is not None:
                    broadcasts(fn.__name__, args)
                raise
            if not isinstance(out, Tensor) or out._tok is None:
                return out
            label = name(*args, **kwargs) if callable(name) else name
            inputs = [a for a in (*args, *kwargs.values()) if isinstance(a, Tensor)]
            return named_result(out, label, *inputs)
        WRAPPERS.add(op.__code__)
        return op
    return deco


def by_operand(name, pos=1, key="other"):
    """``node``'s name for an op PyTorch numbers by whether its operand ``pos`` (keyword
    ``key``) is a tensor (``name + "0"``) or a number (``name + "1"``)."""
    def label(*args, **kwargs):
        v = args[pos] if len(args) > pos else kwargs.get(key)
        return f"{name}{0 if isinstance(v, Tensor) else 1}"
    return label


def _leaf_slot(t, tape):
    """A slot of leaf ``t`` on ``tape``: its last use's (Tape.adopt), -1 if it has none."""
    u = tape.uses.get(id(t))
    if u is not None and u[0] is t._data:
        return u[2]
    for s, leaf in reversed(tape.leaves):
        if leaf is t:
            return s
    return -1
