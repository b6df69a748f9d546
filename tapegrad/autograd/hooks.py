"""Tensor hooks: ``register_hook`` (leaves and non-leaves), ``register_post_accumulate_grad_hook``.

Where hooks live (as in PyTorch, where a non-leaf's hooks sit on its grad_fn and a leaf's
on the tensor):

- a non-leaf's hooks on its tape, ``tape.hooks[slot]``: they live as long as the graph,
  even if the tensor itself dies, and go when the tape resets;
- a leaf's hooks here, keyed by ``id`` with a weakref that drops them with the tensor
  (a dict keyed by the tensor would call ``Tensor.__eq__``).

How the sweep runs them (DESIGN.md's "one sweep, many stops"): the engine asks ``plan`` for
the rows where Python must act, sweeps the compiled stretches between them, and at each stop
calls the hooks on the adjoint there.  A non-leaf's gradient is complete when the sweep
reaches the row that produced it (every consumer was recorded later, so was swept before);
a hooked leaf's gradient is complete once the sweep passed the first row that consumed it,
and PyTorch runs AccumulateGrad as soon as it is ready, so the leaf's hooks, accumulation and
post-accumulate hooks run right there (the order PyTorch shows: tests/test_hooks.py).
Without hooks the engine gets an empty plan and sweeps in one call, as before.
"""
import itertools
import weakref

import numpy as np

from .. import _kernels as compiled  # (module attributes: tests patch them)
from .. import dtypes
from .._state import state
from ..grad_mode import grad_mode_scope
from ..tape import OP_MASK
from ..tensor import EagerOnlyError, Tensor, _leaf, norm
from ..ops import views
from ..ops.custom import CUSTOM
from ..ops.registry import OPS
from ..tape import CONST
from .graph import MULTI_INPUT, Node, input_slots

_IDS = itertools.count()
LEAF_HOOKS = {}  # id(leaf) -> (weakref, {handle id: fn})
POST_HOOKS = {}  # id(leaf) -> (weakref, {handle id: fn})

class RemovableHandle:
    """What registering a hook returns (a tensor's, a node's, a module's: one class, as
    ``torch.utils.hooks.RemovableHandle``): ``.remove()`` unregisters it (also as a context
    manager's exit).  ``extra_dict``: a dict or set, or a list of them, the id is also
    removed from (a module's hooks that take kwargs)."""

    def __init__(self, hooks_dict, *, extra_dict=None):
        self.id = next(_IDS)
        self._table = hooks_dict
        self._extra = (() if extra_dict is None else
                       tuple(extra_dict) if isinstance(extra_dict, (list, tuple)) else
                       (extra_dict,))

    def remove(self):
        self._table.pop(self.id, None)
        for d in self._extra:
            if isinstance(d, set):
                d.discard(self.id)
            else:
                d.pop(self.id, None)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()

    def __repr__(self):
        return f"<tapegrad RemovableHandle id={self.id}>"


def _leaf_table(registry, t):
    key = id(t)
    entry = registry.get(key)
    if entry is None or entry[0]() is not t:
        entry = registry[key] = (weakref.ref(t, lambda _, k=key: registry.pop(k, None)), {})
    return entry[1]


def _not_tracing(what):
    """A hook is Python run by backward: replay (tapegrad.trace, tapegrad.compile) runs the
    recorded rows only, so its gradients would silently miss the hook's change."""
    if state.tracing is not None:
        raise EagerOnlyError(f"tapegrad.trace: {what} while tracing: a hook runs Python "
                             "during backward, which replay does not run, so the replayed "
                             "gradient would ignore it. Register the hook outside the traced "
                             "function, or call f eagerly")


def register_hook(t, hook):
    """``Tensor.register_hook``: see the module docstring for where the hook is kept."""
    if not t._rg:
        raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
    if not callable(hook):
        raise TypeError(f"register_hook expects a callable, got {type(hook).__name__}")
    _not_tracing("register_hook")
    if views.MULTI and (msg := views.refusal(t, False)) is not None:
        raise RuntimeError(msg)  # (PyTorch reads its grad_fn: a view changed since made)
    if t._tok is None:
        table = _leaf_table(LEAF_HOOKS, t)
    else:
        table = t._tok.tape.hooks.get(t._slot)
        if table is None:
            table = t._tok.tape.hooks[t._slot] = _SlotHooks()
            table.dtype = t.dtype
    handle = RemovableHandle(table)
    table[handle.id] = hook
    return handle


class _SlotHooks(dict):
    """A non-leaf's hooks ({handle id: fn}) and its dtype: a hook gets the gradient in the
    tensor's dtype, whatever the dtype of the graph's adjoints (tape.py)."""
    __slots__ = ("dtype",)


def before_freed_node(ref, g, create_graph=False):
    """A backward reaching a LINK row whose non-leaf's own row was freed (ops/_record.py
    ``_link``; ``ref``: a weak reference to that tensor) raises "backward through the graph
    a second time" at its node; PyTorch runs the node's tensor pre-hooks first: the
    tensor's hooks and its retain_grad, on its gradient ``g`` (a tensor)."""
    t = ref() if ref is not None else None
    if t is None or t._tok is None:
        return
    table = t._tok.tape.hooks.get(t._slot) if t._gen == t._tok.tape.gen else None
    if table:
        g = run_hooks(table, g if g.dtype == table.dtype else g.to(table.dtype), create_graph)
    if t._retains_grad:
        with grad_mode_scope(create_graph):
            retain_into(t, g)


def retain_into(t, g):
    """A gradient ``g`` (a tensor) into ``t.grad`` as PyTorch's retain_grad hook puts it:
    the first a copy, later ones added out of place (a .grad kept from before stays)."""
    t._grad = g.clone() if t._grad is None else t._grad + g


def register_post_accumulate_grad_hook(t, hook):
    """``Tensor.register_post_accumulate_grad_hook``: ``hook(t)`` after ``t.grad`` grew."""
    if not t._rg:
        raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
    if t._tok is not None:
        raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf tensors")
    _not_tracing("register_post_accumulate_grad_hook")
    table = _leaf_table(POST_HOOKS, t)
    handle = RemovableHandle(table)
    table[handle.id] = hook
    return handle


def _hooks_of(registry, t):
    entry = registry.get(id(t))
    return entry[1] if entry is not None and entry[0]() is t else None


def run_leaf_hooks(t, g, create_graph=False):
    """The gradient ``g`` of leaf ``t`` through t's tensor hooks."""
    hooks = _hooks_of(LEAF_HOOKS, t)
    if not hooks:
        return g
    g = run_hooks(hooks, g, create_graph)
    # a hook may keep the tensor it saw; .grad must not be that object, or the next
    # backward's accumulation (in place) would change what the hook kept (PyTorch clones
    # a gradient something else still refers to)
    if create_graph or g.requires_grad or type(g._data) is float:  # (a float is immutable)
        return g
    return _leaf(np.array(g._data, copy=True))


def run_hooks(hooks, g, create_graph=False):
    """Call tensor hooks in registration order, each seeing the previous replacement
    (with grad mode on only under create_graph, as PyTorch's backward runs them)."""
    for fn in list(hooks.values()):
        with grad_mode_scope(create_graph):
            r = fn(g)
        if r is None:
            continue
        if not isinstance(r, Tensor):
            raise TypeError(f"hook '{_name(fn)}' returned {type(r).__name__}; a hook returns "
                            "a Tensor (the new gradient) or None")
        if tuple(r.shape) != tuple(g.shape):
            raise RuntimeError(f"hook '{_name(fn)}' has changed the size of value")
        if r.dtype != g.dtype:
            raise RuntimeError(f"hook '{_name(fn)}' has changed the type of value (was "
                               f"{dtypes.legacy_type_name(g.dtype)} got "
                               f"{dtypes.legacy_type_name(r.dtype)})")
        g = r
    return g


def run_post_hooks(t):
    hooks = _hooks_of(POST_HOOKS, t)
    if hooks:
        for fn in list(hooks.values()):
            with grad_mode_scope(False):
                fn(t)


def _name(fn):
    return getattr(fn, "__name__", type(fn).__name__)


def plan(tape, rows, reach, offs, adj, leaf_targets, finish_leaf, needed=None):
    """The stops of one sweep, as ``[(boundary, action)]`` by falling boundary: the engine
    sweeps rows ``[boundary, previous boundary)`` in compiled code, then calls ``action()``.

    ``leaf_targets`` are the leaves the sweep delivers to; ``finish_leaf`` delivers one
    (its gradient through its tensor hooks, then accumulation or capture), called as
    ``finish_leaf(t, adj, reach, offs)``.  Empty (the fast
    path: one compiled call) when no reachable tensor has hooks.  ``needed``
    (span.needed_slots, a backward given inputs): the hooks of a tensor or node off every
    path to them do not run, as PyTorch runs no node there.
    """
    stops = []
    if tape.hooks:
        row_of = None
        for s, hooks in tape.hooks.items():
            if not hooks or s >= len(reach) or needed is not None and not needed[0][s]:
                continue
            if row_of is None:
                row_of = _row_of(rows, tape.nslots)
            r = int(row_of[s])
            if r >= 0:  # a non-leaf: its hooks run when the sweep reaches its row
                stops.append((r + 1, 1, r, _nonleaf_action(s, hooks, tape, reach, offs, adj)))
    if LEAF_HOOKS or POST_HOOKS:
        hooked = [t for t in leaf_targets
                  if _hooks_of(LEAF_HOOKS, t) or _hooks_of(POST_HOOKS, t)]
        if hooked:
            ids = {id(t) for t in hooked}
            first = _first_use(tape, rows, {s for s, u in tape.leaves if id(u) in ids})
            for t in hooked:
                slots = [s for s, u in tape.leaves if u is t]
                b = min((first.get(s, 0) for s in slots), default=0)
                # leaf first at a tie: PyTorch runs a ready AccumulateGrad before other nodes
                stops.append((b, 0, -1, lambda t=t: finish_leaf(t, adj, reach, offs)))
    for r, table in tape.node_hooks.items():
        if table and r < len(rows) and (needed is None or needed[1][rows[r, 1]]):
            # a grad_fn's hooks: around its row (_node_actions)
            before, after = _node_actions(r, table, tape, rows, reach, offs, adj)
            stops.append((r + 1, 2, r, before))  # (after the tensor hooks on its output)
            stops.append((r, -1, r, after))  # (before a leaf below is delivered)
    stops.sort(key=lambda x: (-x[0], x[1], -x[2]))
    return [(b, act) for b, _, _, act in stops]


def _node_actions(r, hooks, tape, rows, reach, offs, adj):
    """Two stops around row ``r`` for its node's ``register_hook`` hooks: before it, copies
    of its output's adjoint and its inputs' adjoints so far; after it, what the row added to
    each input (its grad_inputs) goes to ``hook(grad_inputs, grad_outputs)``, and a tuple
    the hook returns replaces those additions."""
    ins = input_slots(rows, tape.meta, r)
    o = int(rows[r, 1])
    op = OPS.get(int(rows[r, 0]) & OP_MASK)
    edges = len(ins) + int(op is not None and op.scalar_edge)  # (x * 2: (x, None) as PyTorch)
    seen = {}

    def part(s):
        return adj[offs[s]:offs[s + 1]]

    def as_tensor(a, s):
        return _leaf(norm(a.reshape(tape.shapes.get(s, ()))))

    def before():
        seen.clear()
        if reach[o]:
            seen["g"] = as_tensor(part(o).copy(), o)
            seen["old"] = [part(s).copy() if reach[s] == 1 else None for s in ins]

    def after():
        if not seen:
            return
        grads = []
        for s, old in zip(ins, seen["old"], strict=True):
            new = part(s)
            grads.append(None if reach[s] in (0, CONST) else
                         as_tensor(new - old if old is not None else new.copy(), s))
        twins = _twin_grads(r, rows, tape, np.ravel(seen["g"]._data), ins)
        if twins is not None and grads[0] is not None:  # (x * x: each operand's part)
            grads = [as_tensor(t, ins[0]) for t in twins]
        grads += [None] * (edges - len(grads))
        for fn in list(hooks.values()):
            with grad_mode_scope(False):
                res = fn(tuple(grads), (seen["g"],))
            if res is None:
                continue
            grads = list(res)
            if len(grads) != edges:
                raise RuntimeError(f"hook '{_name(fn)}' has returned an incorrect number of "
                                   f"values (got {len(grads)}, but expected {edges})")
            added = {}  # slot -> [its adjoint before the row, the sum of what its operands get]
            for s, old, gi in zip(ins, seen["old"], grads[:len(ins)], strict=True):
                if reach[s] in (0, CONST):
                    continue
                acc = added.setdefault(s, [old, None])
                if gi is not None:
                    g = np.ravel(gi._data)
                    acc[1] = g if acc[1] is None else acc[1] + g
            for s, (old, g) in added.items():
                if g is not None:
                    part(s)[:] = g + (0 if old is None else old)
                elif old is None:  # (None: no gradient for that input, as PyTorch)
                    reach[s] = 0
                else:
                    part(s)[:] = old
    return before, after


def _twin_grads(r, rows, tape, g, ins):
    """When row ``r`` reads one slot as both its operands (``x * x``, ``torch.add(q, q)``):
    the gradient each operand gets, apart, as PyTorch's node hands them to its hooks (the
    sweep adds both into the one slot).  The row's compiled rule runs once more on a copy
    of its values where the two operands are distinct slots.  None for any other row."""
    op = int(rows[r, 0]) & OP_MASK
    d = OPS.get(op)
    o, a = int(rows[r, 1]), int(rows[r, 2])
    if len(ins) != 2 or ins[0] != ins[1] or a != ins[0] or int(rows[r, 3]) != a or o == a or \
            d is None or d.rev is None or d.meta_slots is not None or d.aux == "slot":
        return None
    for s in (o, a):
        if tape.lazy and s in tape.lazy:
            tape.fill(s)
    vo, va = np.ravel(tape.slot_values(o)), np.ravel(tape.slot_values(a))
    n_o, n_a = vo.size, va.size
    vals = np.concatenate([vo, va, va])
    offs = np.array([0, n_o, n_o + n_a, n_o + 2 * n_a], np.int64)
    adj = np.zeros(len(vals), vals.dtype)
    adj[:n_o] = g
    tape.flush()
    consts = np.frombuffer(tape.consts) if tape.consts else np.zeros(1)
    meta = np.frombuffer(tape.meta, np.int64) if tape.meta else np.zeros(1, np.int64)
    row = np.array([[op, 0, 1, 2, int(rows[r, 4])]], np.int64)
    compiled.reverse_sweep(vals)(row, offs, vals, consts, meta, adj, np.ones(3, np.uint8),
                                 0, 1, 1)
    return adj[n_o:n_o + n_a].copy(), adj[n_o + n_a:].copy()


def _node_row(node, what):
    """The tape and row of a grad_fn that takes hooks (one output: not a custom op's)."""
    _not_tracing(what)
    views, r = node._views, node._row
    if views.rows[r, 0] & OP_MASK == CUSTOM:
        raise NotImplementedError(f"{node.name()}.{what}: hooks on a custom Function's node "
                                  "are not supported by tapegrad; register tensor hooks on "
                                  "its outputs or inputs instead")
    return views.tape, r


def _node_register_prehook(self, hook):
    """``hook(grad_outputs)`` before this node runs; a returned tuple replaces them (a hook
    on the gradient of the node's output, run with the tensor hooks there)."""
    tape, r = _node_row(self, "register_prehook")
    s = int(self._views.rows[r, 1])
    table = tape.hooks.get(s)
    if table is None:
        table = tape.hooks[s] = _SlotHooks()
        table.dtype = np.dtype(tape.vals.typecode)

    def pre(g):
        res = hook((g,))
        return None if res is None else res[0]
    pre.__name__ = _name(hook)
    handle = RemovableHandle(table)
    table[handle.id] = pre
    return handle


def _node_register_hook(self, hook):
    """``hook(grad_inputs, grad_outputs)`` after this node ran; a returned tuple replaces
    grad_inputs (plan's stops around the node's row)."""
    tape, r = _node_row(self, "register_hook")
    table = tape.node_hooks.setdefault(r, {})
    handle = RemovableHandle(table)
    table[handle.id] = hook
    return handle


def _nonleaf_action(s, hooks, tape, reach, offs, adj):
    def act():
        if not reach[s] or not hooks:
            return
        lo, hi = offs[s], offs[s + 1]
        shape = tape.shapes.get(s, ())
        g = adj[lo:hi]
        g = _leaf(norm(g.reshape(shape).astype(hooks.dtype)))  # (a copy)
        g2 = run_hooks(hooks, g)
        if g2 is not g:
            adj[lo:hi] = np.ravel(g2._data)
    return act


def _row_of(rows, nslots):
    row_of = np.full(nslots, -1, np.int64)
    outs = rows[:, 1]
    ok = outs >= 0
    row_of[outs[ok]] = np.nonzero(ok)[0]
    return row_of


def _first_use(tape, rows, slots):
    """slot -> the first (lowest) row that reads it, for ``slots``: after the sweep passed
    that row, the slot's adjoint is complete."""
    cols = rows[:, 2:4]
    first = {}
    for s in slots:
        hit = np.nonzero((cols == s).any(axis=1))[0]
        first[s] = int(hit[0]) if len(hit) else None
    for r in _multi_input_rows(rows):  # inputs kept in the meta pool (cat, stack)
        for s in input_slots(rows, tape.meta, r):
            if s in first and (first[s] is None or r < first[s]):
                first[s] = r
    return {s: r for s, r in first.items() if r is not None}


def _multi_input_rows(rows):
    ops = rows[:, 0] & OP_MASK
    return [int(r) for r in np.nonzero(np.isin(ops, MULTI_INPUT))[0]]


def _register_hook(self, hook):
    """Call ``hook(grad)`` when this tensor's gradient is computed; a returned tensor
    replaces the gradient.  Returns a handle with ``.remove()``.

    >>> import tapegrad as tg
    >>> x = tg.tensor(1.0, requires_grad=True)
    >>> h = x.register_hook(lambda g: g * 2)
    >>> (x * 3).backward()
    >>> x.grad
    tensor(6.)
    """
    return register_hook(self, hook)


def _register_post_accumulate_grad_hook(self, hook):
    """Call ``hook(tensor)`` on a leaf after its ``.grad`` was accumulated."""
    return register_post_accumulate_grad_hook(self, hook)


Tensor.register_hook = _register_hook
Node.register_prehook = _node_register_prehook
Node.register_hook = _node_register_hook
Tensor.register_post_accumulate_grad_hook = _register_post_accumulate_grad_hook
