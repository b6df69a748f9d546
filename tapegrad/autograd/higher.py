"""create_graph=True: the reverse sweep recorded as tape rows, so gradients can be
differentiated again (double backward, Hessians, Hessian-vector products).

The compiled sweep computes adjoints as numbers.  Here the same rows are walked in reverse
in Python and each reached row's adjoint is *recorded* with tensor ops
(each op's ``vjp``, declared with its rules: ``ops/registry.py``) onto the same tape,
after the forward rows.
The adjoints are then ordinary non-leaf tensors: a later ``backward``/``grad`` sweeps the
adjoint rows and, through them, the forward rows again, in compiled code.  Python runs
once per reached row here, so a create_graph backward costs about as much as recording
the forward did; everything after it is compiled.
"""
import numpy as np

from .. import _kernels as compiled  # (module attributes: tests patch them)
from .._state import state
from ..grad_mode import enable_grad
from ..ops._record import no_derivative, output, slot, tape_for_grad
from ..ops.arithmetic import negative_zero
from ..ops.reductions import SUM_DIM
from ..ops.registry import NAMES, VJP
from ..ops.strided import EXPAND
from ..tape import FREED, LINK, OP_MASK, SECOND_TIME
from ..tensor import TRACE_HOOKS, Tensor, _leaf, _nonleaf, norm
from .graph import refuse_unpacked, unpacked_rows
from .hooks import before_freed_node, run_hooks
from .span import graph_span, needed_slots


class Row:
    """One forward row as its op's vjp sees it (``ops/registry.py``): ``r.x``, ``r.y``,
    ``r.out`` are the row's operands and output as tensors, ``r.c(j)`` a const, ``r.m(j)``
    a meta int; ``emit``, ``spread``, ``sum_dim`` record the transposed structural rows."""

    __slots__ = ("w", "op", "o", "a", "b", "k", "r")

    def __init__(self, walk, r):
        row = walk.rows[r]
        self.w = walk
        self.r = r
        self.op = int(row[0] & OP_MASK)
        self.o, self.a, self.b, self.k = (int(v) for v in row[1:])

    x = property(lambda self: self.w.tensor(self.a))
    y = property(lambda self: self.w.tensor(self.b))
    out = property(lambda self: self.w.tensor(self.o))

    @property
    def tracing(self):
        """True while ``tapegrad.trace`` records onto this tape (replay will re-run the
        adjoint rows at other points)."""
        return state.tracing is self.w.tape

    def c(self, j):
        return float(self.w.consts[j])

    def m(self, j):
        return int(self.w.meta[j])

    def shape(self, s):
        return self.w.shape(s)

    def numel(self, s):
        return int(self.w.offs[s + 1] - self.w.offs[s])

    def values(self, s):
        return self.w.vals[self.w.offs[s]:self.w.offs[s + 1]]

    def unit_weights(self):
        """This single-input row's compiled reverse rule at a unit output seed: the weight
        each input element gets (max/min reductions: their tie and nan conventions)."""
        n_out, n_in = self.numel(self.o), self.numel(self.a)
        offs = np.array([0, n_out, n_out + n_in], np.int64)
        vals = np.concatenate([self.values(self.o), self.values(self.a)])
        adj = np.zeros(len(vals), vals.dtype)  # the arena's dtype: one compiled sweep
        adj[:n_out] = 1.0
        row = np.array([[self.op, 0, 1, -1, self.k]], np.int64)
        reach = np.ones(2, np.uint8)
        compiled.reverse_sweep(vals)(row, offs, vals, self.w.consts, self.w.meta, adj, reach,
                                     0, 1, 1)
        return adj[n_out:].copy()

    def point_only(self):
        """Refuse, while tracing, a rule that needs this point's values beyond comparisons
        (ties, zeros): a replayed trace would reuse them at every other point, silently
        wrong (tapegrad.compile(f).hvp/hessian)."""
        if self.tracing:
            raise NotImplementedError(
                f"{NAMES.get(self.op, self.op)}: its second-order rule uses masks of the traced "
                "point, which replay cannot re-evaluate yet; compute Hessians of this function "
                "eagerly with tapegrad.autograd.functional (hessian, hvp) instead of "
                "tapegrad.compile")

    def emit(self, op, x, k, out_shape):
        """Record row ``op`` on tensor ``x`` with the meta/const pointer ``k``; its value
        comes from the op's compiled forward rule (the same rule replay runs)."""
        tape = tape_for_grad()
        if tape is not self.w.tape:  # recording on a newer tape (links): k is the walk's
            k = self.w.meta_on(tape) + k
        xv = np.ascontiguousarray(np.asarray(x._data, dtype=np.float64)).reshape(-1)
        n_out = int(np.prod(out_shape, dtype=np.int64))
        vals = np.concatenate([xv, np.zeros(n_out)])
        offs = np.array([0, xv.size, xv.size + n_out], np.int64)
        rows = np.array([[op, 1, 0, -1, k]], np.int64)
        tape.flush()
        meta = np.frombuffer(tape.meta, np.int64) if tape.meta else np.zeros(1, np.int64)
        consts = np.frombuffer(tape.consts) if tape.consts else np.zeros(1)
        compiled._forward_replay(rows, offs, vals, consts, meta, 0, 1, 1, np.zeros(1, np.int64))
        del meta, consts  # the views pin the buffers: drop them before recording
        v = norm(vals[xv.size:].reshape(out_shape).astype(x.dtype, copy=False))  # x's dtype
        if not (x._rg and state.grad_enabled):
            return _leaf(v)
        return output(tape, v, op, slot(x, tape), -1, k)

    def spread(self, t, k_map):
        """A per-group tensor (the output's shape) repeated over the input's shape, by the
        broadcast map at meta ``k_map`` (an EXPAND row)."""
        return self.emit(EXPAND, t, k_map, self.shape(self.a))

    def sum_dim(self, t, k_map, shape):
        """``t`` summed back to ``shape`` by the broadcast map at meta ``k_map`` (a SUM_DIM
        row: the transpose of EXPAND and STRIDED)."""
        return self.emit(SUM_DIM, t, k_map, shape)

    def unit_weighted(self, g, k_map):
        """Reductions: ``g`` spread back over the input by the row's map at ``k_map``,
        times the row's compiled rule at a unit seed (this point's ties: refused while
        tracing)."""
        self.point_only()
        w = self.unit_weights().reshape(self.shape(self.a))
        return self.spread(g, k_map) * _leaf(norm(w))

    @staticmethod
    def f(mask):
        """A bool tensor (a CMP row while tracing) as 1.0 / 0.0, in the dtype of the
        graph's values (a float32 graph stays float32: tape.py)."""
        return mask.to(tape_for_grad().dtype)


class Walk:
    """The tape as it was when create_graph's backward started, and tensors for its slots."""

    def __init__(self, tape):
        self.tape = tape
        rows, offs, vals, consts, meta = tape.arrays()
        # copies: recording the adjoint rows appends to (and may move) the live buffers
        self.rows, self.offs, self.vals = rows.copy(), offs, vals.copy()
        self.consts = consts.copy() if len(consts) else np.zeros(1)
        self.meta = meta.copy() if len(meta) else np.zeros(1, np.int64)
        del rows, vals, consts, meta
        self.leaf_of = {s: t for s, t in tape.leaves}
        self.produced = set(self.rows[:, 1].tolist())
        self.made = {}
        self.copied = None  # (tape, gen, base): this walk's meta pool copied onto a tape

    def meta_on(self, tape):
        """Where this walk's meta pool starts in ``tape``'s, copied there once: the rows
        emitted onto a newer tape than the walked one (through a link) read their maps
        from it."""
        c = self.copied
        if c is None or c[0] is not tape or c[1] != tape.gen:
            c = self.copied = (tape, tape.gen, tape.push_meta(self.meta))
        return c[2]

    def shape(self, s):
        return tuple(self.tape.shapes.get(s, ()))

    def tensor(self, s):
        """Slot ``s`` as a tensor that records onto slot ``s`` itself: a leaf is the leaf;
        a row's output is a non-leaf on that slot (so gradients flow through its row);
        anything else (an adopted constant) is a constant."""
        t = self.made.get(s)
        if t is None:
            t = self.leaf_of.get(s)
            if t is None:
                data = norm(self.vals[self.offs[s]:self.offs[s + 1]].reshape(self.shape(s)))
                if type(data) is not float:
                    data = data.copy()
                t = _nonleaf(data, s, self.tape, None) if s in self.produced else _leaf(data)
            self.made[s] = t
        return t


def sweep_linked(tape, out_slots, seeds, more=None, ran=None, inputs=None):
    """``sweep`` through ``tape`` and, by its LINK rows, the older tapes of this thread it
    reaches (newest first, as engine._sweep_all); ``more``: ``{tape: (slots, seeds)}`` of
    outputs on other tapes.  Returns ``[(tape, {slot: adjoint})]``; ``ran``, if given, gets
    ``(tape, [row, ...])``, the rows each sweep went through; ``inputs``, as ``sweep``'s."""
    todo = dict(more or {})
    todo[tape] = (list(out_slots), list(seeds))
    swept = []
    while todo:
        tp = max(todo, key=lambda x: x.gen)
        slots, gs = todo.pop(tp)
        links, rows = [], []
        swept.append((tp, sweep(tp, slots, gs, links, rows, inputs)))
        if ran is not None:
            ran.append((tp, rows))
        for tok, s, g in links:
            e = todo.setdefault(tok.tape, ([], []))
            e[0].append(s)
            e[1].append(g)
    return swept


def sweep(tape, out_slots, seeds, links=None, ran=None, inputs=None):
    """Record the adjoints of every slot reached from ``out_slots`` (seeded with tensors
    ``seeds``); returns ``{slot: adjoint tensor}``.  A reached LINK row's adjoint goes to
    ``links`` as ``(token, slot, adjoint)``, for the older tape it stands for; each row
    swept goes to ``ran`` (a list), if given.  ``inputs`` (tensors): only the rows on a
    path to them run, as PyTorch's needed nodes (span.needed_slots)."""
    ran = [] if ran is None else ran
    saved = unpacked_rows(tape)  # (saved_tensors_hooks: the values recorded are what it reads)
    with enable_grad():
        walk = Walk(tape)
        adj = {}
        for s, g in zip(out_slots, seeds, strict=True):
            _add(adj, s, g)
        custom = getattr(tape, "custom", None) or {}
        lo, hi = graph_span(tape, walk.rows, walk.meta, out_slots)
        dep = run = None
        if inputs:
            dep, run = needed_slots(tape, walk.rows, walk.meta, inputs, lo, hi)
        # a slot written in place (ops/shape.py _put_in_place) holds its tensor's present
        # values from its last PUT row on: that tensor's adjoint is the slot's there
        in_place = tape.in_place or {}
        named = tape.named
        snaps = {}
        # (a backward inside f while traced: the slots its adjoints reach, for eager's
        # refusal of an op without a derivative, ops/control.py swept_notes)
        reached = [] if state.tracing is tape and "no_derivative" in tape.__dict__ else None
        for r in range(hi - 1, lo - 1, -1):
            rec = custom.get(r)
            o = int(walk.rows[r, 1])
            if reached is not None and o in adj:
                reached.append(o)
            if rec is not None:
                if any(s in adj for s in rec.outputs) and (run is None or run[o]):
                    _check_live(walk.rows[r, 0], SECOND_TIME)
                    ran.append(r)
                    if r in saved:
                        refuse_unpacked(tape, r)
                    grads = rec.backward([adj.get(s) for s in rec.outputs])
                    for s, gi in zip(rec.inputs, grads, strict=True):
                        if s >= 0 and gi is not None:
                            _add(adj, s, gi)
                continue
            if in_place and in_place.get(o) == r:
                snaps[o] = adj.get(o)
            if o < 0 or o not in adj or dep is not None and not dep[o]:
                continue
            if run is not None and not run[o]:  # an input whose own node is not needed
                if o in tape.hooks:  # (its tensor hooks see its gradient: PyTorch's capture)
                    adj[o] = _hooked(tape, o, adj[o])
                continue
            _check_live(walk.rows[r, 0], SECOND_TIME)
            ran.append(r)
            if r in saved:
                refuse_unpacked(tape, r)
            if walk.rows[r, 0] == LINK:
                tok, s = tape.links[int(walk.rows[r, 4])]
                if tok is None:  # into a fully freed tape (ops/_record.py _link)
                    before_freed_node(s, adj[o], create_graph=True)
                    raise RuntimeError(SECOND_TIME)
                links.append((tok, s, adj[o]))
                continue
            if o in tape.hooks and in_place.get(o, r) == r:
                adj[o] = _hooked(tape, o, adj[o])
            if tape.node_hooks.get(r):
                raise NotImplementedError(
                    "create_graph=True: hooks registered on a grad_fn (node.register_hook) are "
                    "not supported by tapegrad's differentiable backward; use tensor hooks")
            row = Row(walk, r)
            rule = VJP.get(row.op)
            if rule is None:
                raise RuntimeError(f"create_graph=True: {NAMES.get(row.op, row.op)} (opcode "
                                   f"{row.op}, tape row {r}) has no differentiable adjoint")
            g = adj.pop(o) if row.a == o else adj[o]  # (in place: the old values' adjoint
            for s, gi in rule(row, g):  # is what the rule leaves of g)
                if gi is not None:
                    _add(adj, s, gi)
            if named and o in named:
                _zero_curvature(walk, row, named[o], adj, g)
    if reached is not None:
        reach = np.zeros(tape.nslots, np.uint8)
        reach[reached] = 1
        TRACE_HOOKS["swept"](tape, walk.rows, walk.meta, reach, inputs)
    for s, r in in_place.items():
        if r >= hi:  # the tensor's present values are not in the swept graph
            adj.pop(s, None)
    for s, g in snaps.items():
        if g is None:
            adj.pop(s, None)
        else:
            adj[s] = g
    return adj


# PyTorch's nodes of piecewise-linear ops and poolings (tapegrad composes them of rows
# whose adjoints are masks or spreads of constants): their backward is a node of its own
# that takes the input, differentiable with a zero derivative, so a create_graph gradient
# through one requires grad (a 1-d pooling: the 2-d node, squeezed, as PyTorch's)
_ZERO_CURVATURE = ("HardtanhBackward", "LeakyReluBackward", "ThresholdBackward",
                   "HardshrinkBackward", "SoftshrinkBackward", "PreluKernelBackward",
                   "RreluWithNoiseBackward", "MaxPool2DWithIndicesBackward",
                   "MaxPool3DWithIndicesBackward", "AdaptiveMaxPool2DBackward",
                   "AdaptiveMaxPool3DBackward", "AvgPool2DBackward", "AvgPool3DBackward",
                   "AdaptiveAvgPool2DBackward", "AdaptiveAvgPool3DBackward")


# PyTorch's nodes whose backward has no derivative (a NotImplemented node of both the input
# and the output's gradient): a gradient through one requires grad, and differentiating it
# raises
_NO_SECOND = {"HardsigmoidBackward0": "hardsigmoid_backward"}


def _zero_curvature(walk, row, note, adj, g):
    """A -0.0 term of each input of such a node into its adjoint (``g``: the node's output
    adjoint): the values unchanged, the gradient now a function of the input (its derivative
    zero, or none: ``_NO_SECOND``), as PyTorch's."""
    second = _NO_SECOND.get(note[0])
    if second is None and not note[0].startswith(_ZERO_CURVATURE):
        return
    slots = note[1] if note[1] is not None else (row.a, row.b)
    for s in slots:
        if s >= 0:
            x = walk.tensor(s)
            if x._rg and x.dtype.is_floating_point:
                _add(adj, s, negative_zero(x) if second is None else no_derivative(
                    second, np.full(x.shape, -0.0, x.dtype), x, g))


def _hooked(tape, o, g):
    """Slot o's adjoint ``g`` through its tensor hooks (in their dtype: _SlotHooks)."""
    hooks = tape.hooks[o]
    return run_hooks(hooks, g if g.dtype == hooks.dtype else g.to(hooks.dtype),
                     create_graph=True)


def _check_live(op, message):
    if op & FREED:
        raise RuntimeError(message)


def _add(adj, s, g):
    adj[s] = adj[s] + g if s in adj else g


def grad_of(t, tape, adj):
    """The recorded gradient of tensor ``t`` (None if unreached), in t's shape and dtype."""
    parts = [adj[s] for s in tape.slots_of(t) if s in adj]
    if not parts:
        return None
    g = parts[0]
    for p in parts[1:]:
        g = g + p
    if tuple(g.shape) != tuple(t.shape):
        g = g.reshape(*t.shape)
    if g.dtype != t.dtype:
        g = g.to(t.dtype)
    return g


def seed_tensors(outputs, grad_outputs):
    """Seeds as tensors: a given ``grad_output`` tensor keeps its graph (the double-vjp
    trick differentiates with respect to it); ``None`` seeds a scalar output with 1."""
    seeds = []
    for t, g in zip(outputs, grad_outputs, strict=True):
        if g is None:  # in t's dtype, as PyTorch's: a float32 graph's adjoints stay float32
            seeds.append(_leaf(norm(np.ones(t.shape, t.dtype))))
        elif isinstance(g, Tensor):
            seeds.append(g)
        else:
            seeds.append(_leaf(norm(np.asarray(g, dtype=t.dtype))))
    return seeds
