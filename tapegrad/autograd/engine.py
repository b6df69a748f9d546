"""backward() and grad(): seed adjoints, run the compiled sweep, hand out gradients."""
import functools
import threading
import warnings
import weakref

import numpy as np

from .. import _blas as blas
from .. import _kernels as compiled  # (module attributes: tests patch them)
from .. import dtypes
from .._state import anomaly, state
from ..arena import adjoint_arena, note_write
from ..grad_mode import _mode, keeps_grad_mode
from ..grad_mode import _set as _set_mode
from ..ops.custom import CUSTOM
from ..ops.registry import BY_NAME, NAMES, OPS
from ..ops.strided import SAVING_VIEW_NAMES, VIEW_NAMES
from ..ops._record import named_result
from ..ops.shape import clone, stack
from ..tape import CONST, FREED, LINK, OP_MASK, SECOND_TIME, current_tape, retire
from ..tensor import COMPLEX_HOOKS, GRAD_DTYPES, Size, Tensor, _leaf, norm
from . import graph, higher, hooks
from .anomaly import checked_sweep
from .function import free_records, run_backward
from .saved import check_saved
from .span import graph_span, needed_slots

_UNUSED = ("The differentiated Tensor at index {i} appears to not have been used in the graph. "
           "Set allow_unused=True if this is the desired behavior.")  # (PyTorch's words)

_GRAD_CYCLE = (  # PyTorch's warning: here the cycle also keeps the thread's tape from resetting
    "Using backward() with create_graph=True will create a reference cycle between the "
    "parameter and its gradient which can cause a memory leak. We recommend using "
    "autograd.grad when creating the graph to avoid this. If you have to use this function, "
    "make sure to reset the .grad fields of your parameters to None after use to break the "
    "cycle and avoid the leak.")



def _as_list(x):
    if x is None:
        return []
    return [x] if isinstance(x, Tensor) else list(x)


def _input_list(inputs):
    """``inputs`` of grad/backward as a list of tensors: a GradientEdge (graph.py) stands
    for the tensor it was taken from."""
    if isinstance(inputs, graph.GradientEdge):
        return [graph.edge_tensor(inputs)]
    return [graph.edge_tensor(x) if isinstance(x, graph.GradientEdge) else x
            for x in _as_list(inputs)]


def _tape_of(outputs):
    """The newest tape among the outputs' (older ones of this thread are reached by
    links, _sweep_all); a leaf output takes a slot on this thread's tape."""
    if len(outputs) == 1 and outputs[0]._tok is not None:
        return outputs[0]._tok.tape
    tapes = {id(t._tok.tape): t._tok.tape for t in outputs if t._tok is not None}
    if len({tp.owner for tp in tapes.values()}) > 1:
        raise RuntimeError("outputs were recorded on different threads' tapes; differentiate "
                           "each in the thread that recorded it")
    if not tapes or any(t._tok is None for t in outputs):
        return state.tape or current_tape()
    return max(tapes.values(), key=lambda tp: tp.gen)


_F64 = np.dtype(np.float64)
_ndarray = np.ndarray  # (a global: NumPy's module __getattr__ defeats CPython's load cache)
_FEW_CONSTS = 16  # constants up to which _sweep marks them one by one
_ONE = np.ones(1)  # the implicit seed of a scalar output (only ever read)
_ONE.flags.writeable = False


def _check_outputs(outputs, grad_outputs, op):
    """Validate outputs and seeds before anything runs: PyTorch's messages."""
    if len(grad_outputs) != len(outputs):
        raise RuntimeError(f"{op}: got {len(grad_outputs)} gradients for {len(outputs)} "
                           "outputs; give one per output (or None for a scalar output)")
    seeds = []
    for i, (t, g) in enumerate(zip(outputs, grad_outputs)):
        if not isinstance(t, Tensor):
            raise TypeError(f"{op}: outputs must be Tensors, got {type(t).__name__}")
        if not t._rg:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not "
                               "have a grad_fn")
        if g is None:
            if t.numel() != 1:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            seeds.append(_ONE)
            continue
        g = np.asarray(g._data if isinstance(g, Tensor) else g, dtype=np.float64)
        if g.shape != tuple(t.shape):
            raise RuntimeError(
                f"Mismatch in shape: grad_output[{i}] has a shape of {Size(g.shape)} and "
                f"output[{i}] has a shape of {t.shape}.")
        seeds.append(g.ravel())
    return seeds


def _sweep_all(tape, outputs, seeds, retain_graph, inputs=None, finish_leaf=None,
               retained=None):
    """Sweep from ``outputs`` through their tape and, by its LINK rows, the older tapes of
    this thread it reaches; returns ``[(tape, adj, reach, offs)]``, newest tape first.
    A link goes from a newer tape to an older one only, so sweeping the newest first
    gives each tape every seed before its own sweep.  ``retained``: as ``_sweep``'s."""
    todo = {}
    for t, g in zip(outputs, seeds):
        tp = t._tok.tape if t._tok is not None and t._gen == t._tok.tape.gen else tape
        todo.setdefault(tp, []).append((tp.out_slot(t), g))
    swept = []
    while todo:
        tp = max(todo, key=lambda x: x.gen)
        pairs = todo.pop(tp)
        links = []
        adj, reach, offs = _sweep(tp, [s for s, _ in pairs], [g for _, g in pairs],
                                  retain_graph, inputs, finish_leaf, links, retained)
        swept.append((tp, adj, reach, offs))
        for tok, s, g in links:
            todo.setdefault(tok.tape, []).append((s, g))
    if len(swept) > 2:  # a graph spanning many segments: the thread's next ones are longer
        n = sum(tp.nslots for tp, *_ in swept if tp.split)
        if n > state.segment:
            state.segment = n
    return swept


def _sweep(tape, out_slots, seeds, retain_graph, inputs=None, finish_leaf=None, links=None,
           retained=None):
    """Run the reverse sweep of ``tape`` from ``out_slots``; returns (adj, reach, offs) and
    appends ``(token, slot, adjoint)`` to ``links`` for each LINK row it reached.
    ``retained`` (a list; a sweep given ``inputs``): gets ``(t, gradient)`` for each
    non-leaf t that retains grad, is not among ``inputs`` and whose node is needed, as
    PyTorch's retain_grad hook fills .grad when its node runs (``_needed_retained``).

    With tensor hooks the sweep runs in compiled stretches between the rows where Python
    calls them (``hooks.plan``; ``finish_leaf(tape, t, adj, reach, offs)`` delivers a hooked leaf
    of ``inputs``, or of the tape's leaves, as soon as its gradient is complete); without,
    in one call.
    """
    saved = None
    if graph.hooked(tape):  # saved_tensors_hooks (graph.py)
        if tape.ext:  # (their rows read the arena: no row runs on a kept-aside array)
            tape.fill_ext()
        graph.pack_pending(tape)
        saved = graph.saved_rows(tape)
    # (no rule reads the rest; without retain_graph no row will be recorded on the tape)
    rows, offs, vals, consts, meta = tape.arrays(False, not retain_graph)
    adj = adjoint_arena(len(vals), vals.dtype)  # not zeroed: see _rules.reach_input
    reach = np.zeros(tape.nslots, np.uint8)
    consts_at = tape.consts_at
    if consts_at:  # constants: no rule accumulates (or zeroes) their adjoints
        if len(consts_at) <= _FEW_CONSTS:  # (a list index converts the list: ~2 us)
            for s in consts_at:
                reach[s] = CONST
        else:
            reach[consts_at] = CONST
    for s, g in zip(out_slots, seeds):
        if reach[s]:  # an output given twice
            adj[offs[s]:offs[s + 1]] += g
        else:
            adj[offs[s]:offs[s + 1]] = g
            reach[s] = 1
    args = (rows, offs, vals, consts, meta, adj, reach)
    lo, top = graph_span(tape, rows, meta, out_slots, True)  # the rows they can reach
    hi = top
    stops = []
    # PyTorch runs only the nodes on a path to the inputs given (span.needed_slots): no
    # custom backward or hook runs off them, and no row there is freed (or refused as freed)
    needed = None
    if inputs and (tape.custom or tape.hooks or tape.node_hooks or
                   (not retain_graph or tape.nfreed or tape.retained) and
                   not _covers(tape, inputs)):
        needed = needed_slots(tape, rows, meta, inputs, lo, top)
    if tape.hooks or tape.node_hooks or hooks.LEAF_HOOKS or hooks.POST_HOOKS:
        # (finish_leaf None: leaves are delivered after every tape is swept, _summed)
        leaves = [] if finish_leaf is None else inputs if inputs else \
            [t for _, t in tape.leaves]
        def finish(t, a, r, o):  # finish_leaf on this tape's slots
            finish_leaf(tape, t, a, r, o)
        stops = hooks.plan(tape, rows, reach, offs, adj, leaves, finish, needed)
    kept = {}
    # (changes hooks make during the sweep, a post-accumulate hook's optimizer step, come
    # after the rows read their values, as in PyTorch, where AccumulateGrad runs last)
    changed = len(tape.mutated) if tape.mutated else 0
    if tape.in_place:
        stops = sorted((*stops, *_in_place_stops(tape, inputs, reach, offs, adj, kept)),
                       key=lambda x: -x[0])
    for at, act in stops:
        if at < hi:
            _stretch_saved(tape, args, max(at, lo), hi, links, saved, needed)
            hi = at
        act()
    _stretch_saved(tape, args, lo, hi, links, saved, needed)
    for s, g in kept.items():  # (after the sweep: only _grad_at reads these spans now)
        if g is None:
            reach[s] = 0
        else:
            adj[offs[s]:offs[s + 1]] = g
    if changed:  # a value saved for a swept row was modified in place since
        check_saved(tape, rows, reach, lo, top, changed)
    if retained is not None and inputs and tape.retained:
        retained += _needed_retained(tape, inputs, adj, reach, offs, needed)
    if not retain_graph:  # free what this sweep went through (only after it succeeded)
        ran = reach if needed is None else reach * needed[1]  # (PyTorch's nodes that ran)
        try:
            tape.nfreed += compiled._free_swept(rows, meta, ran, lo, top, *_free_tables())
        except BaseException:  # (a signal between the free and the count: count them all)
            tape.nfreed = int(np.count_nonzero(rows[:, 0] & FREED))
            raise
        if tape.custom:
            free_records(tape, rows, ran, lo, top)
        # the thread records on a fresh tape from now on (tape.py: links reach this one)
        if tape.nfreed == len(rows) or (state.tape is tape and state.tracing is not tape):
            retire(tape)
    return adj, reach, offs


@functools.cache
def _free_tables():
    """``_sweep._free_swept``'s tables: per opcode whether a swept row is freed (registry
    ``frees``: 0 no, 1 yes, 2 / 3 by its name at aux / meta[aux]; LINK rows hand on to an
    older tape and hold nothing), and per view name (ops/strided.py SAVING_VIEW_NAMES)."""
    frees = np.ones(max(OPS) + 2, np.uint8)  # (the last: unknown opcodes)
    for code, d in OPS.items():
        frees[code] = (2 if d.aux == "name" else 3) if d.frees == BY_NAME else int(d.frees)
    frees[LINK] = 0
    by_name = np.array([n in SAVING_VIEW_NAMES for n in VIEW_NAMES], np.uint8)
    return frees, by_name


def _needed_retained(tape, inputs, adj, reach, offs, needed):
    """``[(t, gradient)]`` for the non-leaves of ``tape`` that retain grad, are not among
    ``inputs`` and whose row is needed for them (``needed``: span.needed_slots; None, all
    are) and reached: PyTorch's engine runs their retain_grad hook with their node."""
    ids = {id(t) for t in inputs}
    out = []
    for _, ref in tape.retained:
        t = ref()
        if t is None or id(t) in ids:
            continue
        slots = [s for s in _slots_of(t, tape, reach) if needed is None or needed[1][s]]
        if slots:
            out.append((t, _grad_at(t, slots, adj, offs)))
    return out


def _in_place_stops(tape, inputs, reach, offs, adj, kept):
    """Stops of a sweep for the non-leaf targets (``inputs``, else the tensors that
    retain_grad) whose slot was written in place (ops/shape.py ``_put_in_place``): the
    slot holds their adjoint when the sweep reaches their last PUT row, and the rows below
    go on adding the adjoints of the values it overwrote, so it is kept there
    (``kept[s]``, None when unreached) and put back after the sweep."""
    targets = [*(inputs or ()), *(t for _, ref in tape.retained if (t := ref()) is not None)]
    stops = []
    for t in targets:
        s = t._slot
        r = tape.in_place.get(s) if t._tok is not None and t._gen == tape.gen else None
        if r is None or s in kept or s >= len(reach):
            continue
        kept[s] = None

        def act(s=s):
            if reach[s]:
                kept[s] = adj[offs[s]:offs[s + 1]].copy()
        stops.append((r + 1, act))
    return stops


def _covers(tape, inputs, most=256):
    """Whether every node of ``tape`` is needed for ``inputs``: they are leaves, among them
    every leaf of the tape that requires grad (up to ``most`` leaf slots; beyond, False)."""
    if len(tape.leaves) > most or any(t._tok is not None for t in inputs):
        return False
    ids = {id(t) for t in inputs}
    return all(id(t) in ids or not t._rg for _, t in tape.leaves)


def _stretch_saved(tape, args, lo, hi, links, saved, needed):
    """``_stretch`` with saved_tensors_hooks' values (``saved``: the rows holding packed
    values, graph.saved_rows): each such row the sweep reaches is unpacked then (as PyTorch
    unpacks when the node runs; graph.unpack_row) and swept alone with those values in its
    slots, and the values recorded are put back after it, so that no other row reads them."""
    if not saved:
        return _stretch(tape, args, lo, hi, links, needed)
    rows, offs, vals, reach = args[0], args[1], args[2], args[6]
    for r in sorted((r for r in saved if lo <= r < hi), reverse=True):
        _stretch(tape, args, r + 1, hi, links, needed)
        hi = r + 1
        if not reach[rows[r, 1]]:  # (not in this backward's graph: never unpacked)
            continue
        pairs = graph.unpack_row(tape, r)
        kept = [(s, vals[offs[s]:offs[s + 1]].copy()) for s, _ in pairs]
        try:
            for s, data in pairs:
                vals[offs[s]:offs[s + 1]] = data
            _stretch(tape, args, r, r + 1, links, needed)
        finally:
            for s, old in reversed(kept):
                vals[offs[s]:offs[s + 1]] = old
        hi = r
    return _stretch(tape, args, lo, hi, links, needed)


def _stretch(tape, args, lo, hi, links, needed=None):
    """Sweep rows ``hi-1 .. lo`` in compiled code (row by row, checked, in anomaly mode);
    at a custom op's row the sweep stops, Python runs its backward, and the sweep goes on
    below it (DESIGN.md: "one sweep, many stops"); at a LINK row, the adjoint it holds is
    noted for the older tape's sweep.  A row reading values kept aside (``tape.ext``) is
    run over them where they are (``_ext_row``).  ``needed`` (span.needed_slots, a
    backward given inputs): a custom row or a freed row that is not needed is passed over,
    as PyTorch does not run its node."""
    ext = tape.ext
    if ext:
        rows = args[0]
        for r in sorted((r for r in ext if lo <= r < hi), reverse=True):
            s = ext[r]
            if not (tape.lazy and s in tape.lazy):  # (copied in since: an arena row)
                continue
            op = OPS.get(int(rows[r, 0] & OP_MASK))
            if rows[r, 2] != s or rows[r, 3] >= 0 or op is None or op.reads != "a" or \
                    needed is not None and not needed[1][rows[r, 1]]:
                tape.fill(s)  # (an entry whose row was never recorded: cut off before it;
                continue  # a row off the inputs' paths: the plain sweep passes over it)
            _stretch_rows(tape, args, r + 1, hi, links, needed)
            _ext_row(tape, args, r, links)
            hi = r
    _stretch_rows(tape, args, lo, hi, links, needed)


def _ext_row(tape, args, r, links):
    """Row ``r``, a unary row whose rule reads its input's values alone, kept aside as an
    ndarray x (arena.ValueArena.needed's ``alone``): the compiled sweep runs it with x as
    the values and every offset taken from x's slot on (its output's is later), so the
    rule reads x where the arena would hold it: the same rule, the same adjoints, and no
    copy of x into the arena (k-means' (n, K, d) differences squared, issue 20)."""
    rows, offs, _, consts, meta, adj, reach = args
    s = int(rows[r, 2])
    if anomaly.enabled and anomaly.check_nan:  # (checked row by row: in the arena)
        tape.fill(s)
        return _stretch_rows(tape, args, r, r + 1, links)
    x = tape.lazy[s][0].reshape(-1)
    lo = offs[s]
    at = (rows, offs - lo, x, consts, meta, adj[lo:], reach)
    if blas.held(compiled.reverse_sweep(x), *at, r, r + 1, 1) >= 0:
        raise RuntimeError(SECOND_TIME)  # (a freed row: the one stop such a row makes)


def _stretch_rows(tape, args, lo, hi, links, needed=None):
    """_stretch's compiled stretches and stops, rows ``hi-1 .. lo``."""
    while hi > lo:
        if anomaly.enabled and anomaly.check_nan:
            stop = checked_sweep(tape, *args, lo, hi)
        else:
            # (SciPy's BLAS pool on one thread beside NumPy's: _blas.py)
            stop = blas.held(compiled.reverse_sweep(args[2]), *args, lo, hi, 1)
        if stop < 0:
            return
        rows = args[0]
        if needed is not None and not needed[1][rows[stop, 1]] and \
                (rows[stop, 0] & FREED or int(rows[stop, 0] & OP_MASK) == CUSTOM):
            hi = stop
            continue
        if rows[stop, 0] & FREED:
            raise RuntimeError(SECOND_TIME)
        code = int(rows[stop, 0] & OP_MASK)
        if code == LINK:
            offs, adj, o = args[1], args[5], rows[stop, 1]
            tok, s = tape.links[rows[stop, 4]]
            if tok is None:  # into a fully freed tape (ops/_record.py _link)
                t = s()
                if t is not None:
                    hooks.before_freed_node(s, _grad_at(t, [o], adj, offs))
                raise RuntimeError(SECOND_TIME)
            links.append((tok, s, adj[offs[o]:offs[o + 1]].copy()))
            hi = stop
            continue
        if code != CUSTOM:
            raise RuntimeError(f"no reverse rule for opcode {code} "
                               f"({NAMES.get(code, 'unknown op')}) at tape row {stop}")
        run_backward(tape, args, stop)
        hi = stop


_FEW_LEAVES = 32


def _targets(tape, inputs, reach=()):
    """Where backward delivers gradients, with the reached slots that hold each: ``[(t,
    slots)]`` for ``inputs`` if given, else for every leaf of the tape and the non-leaves
    that retain_grad().  A leaf holds one slot per use; slots recorded after the sweep
    started (by a hook that records, say) are not in ``reach``: not reached.  An input
    listed twice is one target (PyTorch's engine delivers its gradient once)."""
    n = len(reach)
    uses = {}  # id(leaf) -> (leaf, its reached slots), in order of first reached use
    leaves = tape.leaves
    if not n:  # no sweep (create_graph): every leaf, no slots
        for _, t in leaves:
            uses.setdefault(id(t), (t, []))
    elif leaves:
        if len(leaves) <= _FEW_LEAVES:  # (a loop: NumPy's six calls cost more below this)
            hits = [u for u in leaves if u[0] < n and reach[u[0]] == 1]
        else:
            slots = np.frombuffer(tape.leaf_slots, np.int64).copy()  # (a view would pin it)
            hits = [leaves[i] for i in
                    np.flatnonzero(reach[np.minimum(slots, n - 1)] & (slots < n)).tolist()]
        for s, t in hits:
            e = uses.get(id(t))
            if e is None:
                e = uses[id(t)] = (t, [])
            e[1].append(s)
    if not inputs:
        if not tape.retained:
            return list(uses.values())
        return [*uses.values(),
                *((t, _slots_of(t, tape, reach)) for _, ref in tape.retained
                  if (t := ref()) is not None)]
    return [(t, _slots_of(t, tape, reach) if t._tok is not None else
             uses.get(id(t), (t, []))[1]) for t in {id(t): t for t in inputs}.values()]


def _slots_of(t, tape, reach):
    """The reached slots that hold ``t`` on ``tape`` (Tape.slots_of)."""
    n = len(reach)
    return [s for s in tape.slots_of(t) if s < n and reach[s]]


def _grad_at(t, slots, adj, offs):
    """The gradient of ``t``: its adjoints summed over ``slots``, in t's shape and dtype,
    then cast to a leaf's grad_dtype where one was set (a copy: the adjoint buffer is
    reused by the next sweep)."""
    g = _adjoint_of(t, slots, adj, offs)
    return in_grad_dtype(t, g) if GRAD_DTYPES[0] else g


def in_grad_dtype(t, g):
    """``g`` cast to leaf ``t``'s grad_dtype, as PyTorch's engine casts a gradient arriving
    at a leaf (before its hooks); a cast gradient carries no history, as PyTorch's."""
    want = getattr(t, "_gd", None)
    if want is None or t._tok is not None or g.dtype == want:
        return g
    if not want.is_floating_point:
        raise RuntimeError(
            f"grad_dtype of a leaf is {want}, which cannot hold a gradient: set it to a "
            "floating point dtype, or to None")
    return _leaf(norm(np.asarray(g._data).astype(want.dtype)))


def _adjoint_of(t, slots, adj, offs):
    """_grad_at's sum of the adjoints, in t's own dtype."""
    d = t._data
    if len(slots) == 1:
        s = slots[0]
        if type(d) is _ndarray and d.ndim:  # (as below, the common case in one line)
            return _leaf(adj[offs[s]:offs[s + 1]].astype(d.dtype).reshape(d.shape))
        if type(d) is float or d.ndim == 0 and d.dtype == _F64:
            return _leaf(float(adj[offs[s]]))  # (as below, without three NumPy calls)
    g = adj[offs[slots[0]]:offs[slots[0] + 1]]
    for s in slots[1:]:
        g = g + adj[offs[s]:offs[s + 1]]
    if type(t._data) is float:
        return _leaf(float(g[0]))
    # (one slot: a copy of the adjoint span; more: their sum is a new array already)
    g = g.astype(t._data.dtype, copy=len(slots) == 1).reshape(t._data.shape)
    return _leaf(float(g) if g.ndim == 0 and g.dtype == _F64 else g)


_ACCUMULATE = threading.Lock()  # NumPy's in-place add releases the GIL on large arrays


def _accumulate(t, g):
    """AccumulateGrad: the first gradient becomes ``.grad``; later ones add into it in place
    (under a lock: threads accumulating into one shared leaf lose no update).  A leaf that
    stopped requiring grad after the graph was built gets nothing (its hooks still ran), as
    PyTorch's AccumulateGrad."""
    if not t._rg:
        return
    with _ACCUMULATE:
        if t._grad is None:
            t._grad = g
        elif t._tok is not None:  # a retained non-leaf: PyTorch's retain_grad hook adds out
            t._grad = _leaf(norm(t._grad._data + g._data))  # of place (a .grad kept, kept)
        elif type(t._grad._data) is float:
            t._grad._data = t._grad._data + g._data
        else:
            note_write()  # (Tape.adopt)
            t._grad._data += g._data


@keeps_grad_mode
def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False,
             grad_variables=None, inputs=None):
    """Accumulate gradients of ``tensors`` into the ``.grad`` of leaves (or of ``inputs``);
    ``grad_variables`` is ``grad_tensors``' deprecated name (PyTorch's warning)."""
    if grad_variables is not None:
        warnings.warn("`grad_variables` is deprecated. Use `grad_tensors` instead.",
                      FutureWarning, stacklevel=2)
        if grad_tensors is not None:
            raise RuntimeError("`grad_tensors` and `grad_variables` (deprecated) arguments both "
                               "passed to `backward()`. Please only use `grad_tensors`.")
        grad_tensors = grad_variables
    if inputs is not None and not _as_list(inputs):  # (PyTorch's first check of the tensors)
        raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
    # (a plain Tensor alone, the common loss.backward(), is not complex: has_complex's
    # generators cost ~2 us a call, issue 20)
    if (type(tensors) is not Tensor or inputs is not None) and \
            COMPLEX_HOOKS["has_complex"](tensors, inputs):  # through the parts (_complex.py)
        return COMPLEX_HOOKS["backward"](backward, tensors, grad_tensors,
                                         retain_graph=retain_graph,
                                         create_graph=create_graph, inputs=inputs)
    outputs = _as_list(tensors)
    grads = _grad_list(grad_tensors, len(outputs))
    seeds = _check_outputs(outputs, grads, "backward")
    given = () if inputs is None else [inputs] if isinstance(
        inputs, (Tensor, graph.GradientEdge)) else list(inputs)
    for x in given:  # PyTorch's engine retains each input tensor's grad first (a no-op on a
        if isinstance(x, Tensor):  # leaf; its words for one that does not require grad):
            x.retain_grad()  # later backwards fill a non-leaf input's .grad too
    # the edge of a non-leaf bounds the sweep; .grad only if it retains grad
    kept = [(x._tensor, x._tensor._grad) for x in given if isinstance(x, graph.GradientEdge)
            and x._tensor._tok is not None and not x._tensor._retains_grad]
    inputs = _input_list(inputs)
    if inputs:
        _check_inputs(inputs, "backward")
    try:
        _backward_into(outputs, grads, seeds, retain_graph, create_graph, inputs)
    finally:
        for t, g in kept:
            t._grad = g


def _backward_into(outputs, grads, seeds, retain_graph, create_graph, inputs):
    """backward's sweep, its arguments checked: into the .grad of ``inputs`` (a list of
    tensors), else of every leaf and retained non-leaf the outputs reach."""
    tape = _tape_of(outputs)
    # (while tapegrad.trace records f, a .grad f reads must replay: recorded, then detached)
    tracing = not create_graph and tape is not None and tape is state.tracing
    if create_graph or tracing:  # record the adjoints as rows (autograd/higher.py)
        retained = [] if inputs else None
        swept = _recorded(tape, outputs, grads,
                           create_graph and retain_graph is not None and not retain_graph,
                           inputs, retained)
        targets = {id(t): t for tp, _ in swept for t, _ in _targets(tp, inputs)}
        for t, g in retained or ():
            hooks.retain_into(t, g.detach() if tracing else g)
        leaf_grads = False
        for t in targets.values():
            g = _recorded_grad(t, swept)
            if g is not None and tracing:
                _into_input(tape, t)
                g = g.detach()
            if g is not None:
                g = hooks.run_leaf_hooks(t, g, True) if t._tok is None else g
                # (PyTorch's AccumulateGrad with grad mode on: the first gradient is
                # copied, a CopyBackwards node; later ones add out of place; nothing for a
                # leaf that stopped requiring grad, _accumulate)
                if t._rg:
                    if t._grad is None and t._tok is None:
                        t._grad = named_result(clone(g), "CopyBackwards", None, g)
                    else:
                        hooks.retain_into(t, g)
                    leaf_grads = leaf_grads or t._tok is None
                if t._tok is None:
                    hooks.run_post_hooks(t)
        if leaf_grads and create_graph:
            warnings.warn(_GRAD_CYCLE, UserWarning, stacklevel=3)
        return
    done = set()  # hooked leaves, delivered during the sweep (autograd/hooks.py)

    def finish_leaf(tp, t, adj, reach, offs):
        if id(t) not in done:
            done.add(id(t))
            slots = _slots_of(t, tp, reach)
            if slots:
                _accumulate(t, hooks.run_leaf_hooks(t, _grad_at(t, slots, adj, offs)))
                hooks.run_post_hooks(t)

    retained = [] if inputs else None  # (the retained non-leaves the needed nodes reach)
    if _linked(tape, outputs):  # a leaf's parts on several tapes: hooks see their sum
        swept = _sweep_all(tape, outputs, seeds, bool(retain_graph), inputs, None, retained)
        for t, g in _summed(swept, inputs):
            if t._tok is None:
                g = hooks.run_leaf_hooks(t, g)
            _accumulate(t, g)
            if t._tok is None:
                hooks.run_post_hooks(t)
    else:
        for tp, adj, reach, offs in _sweep_all(tape, outputs, seeds, bool(retain_graph),
                                               inputs, finish_leaf, retained):
            for t, slots in _targets(tp, inputs, reach):
                if slots and id(t) not in done:
                    _accumulate(t, _grad_at(t, slots, adj, offs))
    for t, g in retained or ():
        _accumulate(t, g)


def _into_input(tape, t):
    """A backward inside a traced f accumulating into the .grad of one of f's inputs: the
    trace's gradient is that of f's output alone, as ``autograd.grad(f(x), x)`` (the .grad
    f reads is a constant of f), and replay repeats no side effect; where the caller's
    x.grad would hold both (``compile(f)(x).backward()``), f runs eagerly instead (marked
    here: replay/__init__.py's ``reads_grad``)."""
    if any(t is x for x in tape.__dict__.get("inputs", ())):
        tape.into_input = True


def _linked(tape, outputs):
    """True when a backward from ``outputs`` may sweep more than one tape (their tapes
    differ, or ``tape`` has LINK rows): leaves are then delivered after every sweep."""
    if tape.links:
        return True
    for t in outputs:  # (a loop: any() over a generator costs ~1 us more, issue 20)
        if t._tok is not None and t._tok.tape is not tape:
            return True
    return False


def _summed(swept, inputs):
    """``[(t, gradient)]`` over the tapes of ``swept``: each target's parts summed."""
    found = {}
    for tp, adj, reach, offs in swept:
        for t, slots in _targets(tp, inputs, reach):
            if slots:
                g = _grad_at(t, slots, adj, offs)
                e = found.get(id(t))
                if e is None:
                    found[id(t)] = [t, g]
                else:
                    e[1] = _leaf(e[1]._data + g._data)
    return [tuple(e) for e in found.values()]


@keeps_grad_mode
def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False,
         only_inputs=True, allow_unused=None, is_grads_batched=False,
         materialize_grads=False):
    """Gradients of ``outputs`` with respect to ``inputs``, returned (not accumulated)."""
    if inputs is not None and not isinstance(inputs, Tensor):
        inputs = _input_list(inputs)  # (GradientEdges: their tensors)
    if COMPLEX_HOOKS["has_complex"](outputs, inputs):  # through the parts (_complex.py)
        return COMPLEX_HOOKS["grad"](
            grad, outputs, inputs, grad_outputs, retain_graph=retain_graph,
            create_graph=create_graph, allow_unused=allow_unused,
            is_grads_batched=is_grads_batched, materialize_grads=materialize_grads)
    if is_grads_batched:
        return _grad_batched(outputs, inputs, grad_outputs, retain_graph, create_graph,
                             allow_unused, materialize_grads)
    outputs = _as_list(outputs)
    if inputs is None:  # (PyTorch: 'NoneType' object is not iterable)
        raise TypeError("grad(): inputs must be a Tensor or a sequence of Tensors, got None")
    inputs_list = _as_list(inputs)  # (its GradientEdges are tensors already, above)
    if not inputs_list:
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty.")
    grads = _grad_list(grad_outputs, len(outputs))
    seeds = _check_outputs(outputs, grads, "grad")
    _check_inputs(inputs_list, "grad")
    if allow_unused is None:
        allow_unused = materialize_grads
    tape = _tape_of(outputs)
    if not create_graph and tape is not None and tape is state.tracing:
        # while tapegrad.trace records f, a gradient f takes is one of its values: it must
        # replay at every point, so it is recorded (create_graph's rows), then cut from the
        # gradient path as create_graph=False's is (a recorded detach: ops/control.py)
        gs = grad(outputs, inputs, grad_outputs, True, True, only_inputs, allow_unused,
                  False, materialize_grads)
        return tuple(None if g is None else g.detach() for g in gs)
    if create_graph:  # gradients as tensors on the tape (autograd/higher.py)
        retained = []
        swept = _recorded(tape, outputs, grads, retain_graph is not None and not retain_graph,
                          inputs_list, retained)
        for t, g in retained:
            hooks.retain_into(t, g)
        found, seen = [], set()
        for t in inputs_list:  # (every hook runs before an unused input raises, as in
            g = _recorded_grad(t, swept)  # PyTorch, where they run in the engine)
            if g is not None and t._retains_grad and id(t) not in seen:  # (captured)
                seen.add(id(t))
                hooks.retain_into(t, g)
            if g is not None and t._tok is None:
                g = hooks.run_leaf_hooks(t, g, True)
            found.append(g)
        result = []
        for i, (t, g) in enumerate(zip(inputs_list, found, strict=True)):
            if g is None and materialize_grads:  # (a leaf that requires grad, as PyTorch's
                g = _leaf(norm(np.zeros(t.shape, t.dtype))).requires_grad_()  # zeros_like)
            if g is None and not allow_unused:
                raise RuntimeError(_UNUSED.format(i=i))
            result.append(g)
        return tuple(result)
    captured = {}  # hooked leaves: their gradient through their hooks (autograd/hooks.py)

    def finish_leaf(tp, t, adj, reach, offs):
        slots = _slots_of(t, tp, reach)
        if slots and id(t) not in captured:
            captured[id(t)] = hooks.run_leaf_hooks(t, _grad_at(t, slots, adj, offs))

    linked = _linked(tape, outputs)
    retained = []  # (the non-leaves that retain grad on the needed nodes: their .grad)
    swept = _sweep_all(tape, outputs, seeds, bool(retain_graph), inputs_list,
                       None if linked else finish_leaf, retained)
    for t, g in retained:
        _accumulate(t, g)
    by_id = {id(t): g for t, g in _summed(swept, inputs_list)}
    found = [by_id.get(id(t)) for t in inputs_list]
    if linked:  # hooks see the sum of a leaf's parts
        found = [None if g is None else hooks.run_leaf_hooks(t, g) if t._tok is None else g
                 for t, g in zip(inputs_list, found, strict=True)]
    seen = set()
    for t, g in zip(inputs_list, found, strict=True):  # (an input's retain_grad hook runs
        if g is not None and t._retains_grad and id(t) not in seen:  # as its gradient is
            seen.add(id(t))  # captured: a copy)
            _accumulate(t, _leaf(norm(np.array(g._data))))
    result = []
    for i, t in enumerate(inputs_list):
        if id(t) in captured:
            result.append(captured[id(t)])
        elif found[i] is not None:
            result.append(found[i])
        elif materialize_grads:
            result.append(_leaf(norm(np.zeros(t.shape, t.dtype))))
        elif allow_unused:
            result.append(None)
        else:
            raise RuntimeError(_UNUSED.format(i=i))
    return tuple(result)


def _grad_list(grads, n):
    """The seeds given as ``gradient=`` / ``grad_outputs=``: Tensors or None (PyTorch's
    error for anything else, a NumPy array included)."""
    if grads is None:
        return [None] * n
    if not isinstance(grads, (Tensor, list, tuple)):
        raise TypeError("gradients can be either Tensors or None, but got "
                        f"{type(grads).__name__}")
    grads = _as_list(grads)
    for g in grads:
        if g is not None and not isinstance(g, Tensor):
            raise TypeError(f"gradients can be either Tensors or None, but got "
                            f"{type(g).__name__}")
    return grads


def _check_inputs(inputs, op):
    for i, t in enumerate(inputs):
        if not isinstance(t, Tensor):
            raise TypeError(f"{op}: inputs must be Tensors, got {type(t).__name__} at {i}")
        if not t._rg:
            raise RuntimeError(f"One of the differentiated Tensors does not require grad "
                               f"(input {i} of {op}; call .requires_grad_() on it first)")


def _recorded(tape, outputs, grads, free=False, inputs=None, retained=None):
    """create_graph's sweep: adjoints recorded as tape rows (autograd/higher.py), through
    every tape of this thread the outputs reach; ``[(tape, {slot: adjoint})]``.  ``free``
    (an explicit retain_graph=False): the rows swept are freed after, as PyTorch frees;
    ``inputs``: only the rows on a path to them are swept (higher.sweep); ``retained``
    (a list): gets ``(t, gradient)`` for the non-leaves that retain grad, are not among
    ``inputs`` and whose row was swept (engine._sweep's)."""
    seeds = higher.seed_tensors(outputs, grads)
    by_tape = {}
    for t, g in zip(outputs, seeds):
        tp = t._tok.tape if t._tok is not None else tape
        e = by_tape.setdefault(tp, ([], []))
        e[0].append(tp.out_slot(t))
        e[1].append(g)
    newest = max(by_tape, key=lambda x: x.gen)
    slots, gs = by_tape.pop(newest)
    ran = [] if free or retained is not None else None
    swept = higher.sweep_linked(newest, slots, gs, by_tape, ran, inputs)
    if retained is not None:
        ids = {id(t) for t in inputs or ()}
        for (tp, adj), (_, rs) in zip(swept, ran, strict=True):
            if not tp.retained or not rs:
                continue
            outs = set(tp.arrays(False)[0][rs, 1].tolist())
            retained += [(t, higher.grad_of(t, tp, adj)) for _, ref in tp.retained
                         if (t := ref()) is not None and id(t) not in ids and
                         t._gen == tp.gen and t._slot in outs and t._slot in adj]
    for tp, rs in ran if free else ():
        if rs:
            rows, _, _, _, meta = tp.arrays(False)
            reach = np.zeros(tp.nslots, np.uint8)
            reach[rows[rs, 1]] = 1
            lo, hi = min(rs), max(rs) + 1
            tp.nfreed += compiled._free_swept(rows, meta, reach, lo, hi, *_free_tables())
            if tp.custom:
                free_records(tp, rows, reach, lo, hi)
    return swept


def _recorded_grad(t, swept):
    """The recorded gradient of ``t``, summed over the tapes it was used on (or None)."""
    parts = [g for tp, adj in swept if (g := higher.grad_of(t, tp, adj)) is not None]
    if not parts:
        return None
    g = parts[0]
    for p in parts[1:]:
        g = g + p
    return in_grad_dtype(t, g) if GRAD_DTYPES[0] else g


def _grad_batched(outputs, inputs, grad_outputs, retain_graph, create_graph, allow_unused,
                  materialize_grads):
    """``grad(is_grads_batched=True)``: dim 0 of every grad_output runs over a batch of
    seeds; one backward per seed (the graph kept until the last), results stacked on dim 0.
    PyTorch vmaps the backward; the values and gradients are the same."""
    outputs = _as_list(outputs)
    grads = _grad_list(grad_outputs, len(outputs))
    if any(g is None for g in grads):
        raise RuntimeError("grad(is_grads_batched=True): every output needs a batched "
                           "grad_output (batch on dim 0); got None")
    grads = [g if isinstance(g, Tensor) else Tensor(g) for g in grads]
    for i, (o, g) in enumerate(zip(outputs, grads, strict=True)):
        if g.ndim == 0:  # (PyTorch indexes grad_output[0] for its first seed)
            raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python "
                             "or `tensor.item<T>()` in C++ to convert a 0-dim tensor to a "
                             "number")
        if g.shape[1:] != o.shape:
            # (PyTorch's words; the shape it names is its first seed's minus one more dim)
            raise RuntimeError(
                "If `is_grads_batched=True`, we interpret the first dimension of each "
                "grad_output as the batch dimension. The sizes of the remaining dimensions are "
                "expected to match the shape of corresponding output, but a mismatch was "
                f"detected: grad_output[{i}] has a shape of {g.shape[2:]} and output[{i}] "
                f"has a shape of {o.shape}. If you only want some tensors in `grad_output` "
                f"to be considered batched, consider using vmap.\n(grad_output[{i}] is "
                f"{list(g.shape)}: a batch of {g.shape[0]} seeds of shape {list(g.shape[1:])}, "
                f"where output[{i}] is {list(o.shape)})")
    n = grads[0].shape[0]
    if any(g.shape[0] != n for g in grads):  # (PyTorch vmaps its backward over dim 0)
        raise ValueError("vmap: Expected all tensors to have the same size in the mapped "
                         f"dimension, got sizes {[g.shape[0] for g in grads]} for the mapped "
                         "dimension")
    keep = create_graph if retain_graph is None else retain_graph
    rows = [grad(outputs, inputs, [g[b] for g in grads], True if b < n - 1 else keep,
                 create_graph, allow_unused=allow_unused, materialize_grads=materialize_grads)
            for b in range(n)]
    return tuple(None if col[0] is None else stack(col) for col in zip(*rows, strict=True))


def grad_and_others(outputs, inputs, grad_outputs=None, ignore=()):
    """``grad(outputs, inputs, grad_outputs, retain_graph=True, allow_unused=True)`` from one
    compiled sweep, and whether that sweep reached a tensor that requires grad other than
    ``inputs`` and ``ignore`` (leaves, or non-leaves that retain_grad).  ``tapegrad.func``
    asks it: a transformed function that closed over a parameter must have its gradient
    recorded for an outer backward, as PyTorch's transforms keep it.  The inputs must be
    leaves (func's fresh copies); hooks on them are not run."""
    outputs = _as_list(outputs)
    seeds = _check_outputs(outputs, _grad_list(grad_outputs, len(outputs)), "grad")
    swept = _sweep_all(_tape_of(outputs), outputs, seeds, True)
    mine = {id(t): None for t in inputs}
    skip = {id(t) for t in ignore}
    others = False
    for tp, adj, reach, offs in swept:  # (every reached leaf: the inputs among them)
        for t, slots in _targets(tp, None, reach):
            if not slots:
                continue
            if id(t) in mine:
                g = _grad_at(t, slots, adj, offs)
                mine[id(t)] = g if mine[id(t)] is None else _leaf(mine[id(t)]._data + g._data)
            elif t._rg and id(t) not in skip:
                others = True
    return [mine[id(t)] for t in inputs], others


__all__ = ["backward", "grad", "dtypes"]


# ---- callbacks run when the outermost backward / grad call ends ---------------------------
_FINAL = threading.local()  # .ref: a weak reference to the outermost call's _Pass


class _Pass:
    """The callbacks queued during one outermost backward / grad call.  Only that call's
    frame holds it, so it dies with the call however the call ends (an interrupt at any
    line included): no counter to reset, nothing left marking the thread as in a backward."""

    __slots__ = ("queue", "__weakref__")

    def __init__(self):
        self.queue = []


def _current():
    ref = getattr(_FINAL, "ref", None)
    return None if ref is None else ref()


def _finishing(fn):
    """``fn`` (backward or grad) that runs the callbacks queued during it once the
    outermost call returns (PyTorch's final callbacks: multi-grad hooks use them)."""
    @functools.wraps(fn)
    def run(*args, **kwargs):
        if _current() is not None:  # inside a backward (a hook's, a callback's)
            return fn(*args, **kwargs)
        p = _Pass()
        _FINAL.ref = weakref.ref(p)
        out = fn(*args, **kwargs)
        while p.queue:
            p.queue.pop(0)()
        return out
    return run


def in_backward():
    return _current() is not None


def queue_callback(callback):
    """Run ``callback()`` when the current backward ends."""
    p = _current()
    if p is None:
        raise RuntimeError("Final callbacks can only be installed during backward pass.")
    p.queue.append(callback)


backward = _finishing(backward)
grad = _finishing(grad)


def _tensor_backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
    """Accumulate d(self)/d(leaf) into every leaf's ``.grad``."""
    tok = self._tok
    if (gradient is None and inputs is None and not create_graph and tok is not None
            and type(self) is Tensor and self._rg and self._gen == tok.tape.gen):
        tape = tok.tape
        if (not tape.links and tape is not state.tracing and not tape.hooks
                and not tape.node_hooks and not hooks.LEAF_HOOKS and not hooks.POST_HOOKS
                and (type(self._data) is float or self._data.size == 1)):
            return _lone_backward(self, tape, bool(retain_graph))
    backward(self, gradient, retain_graph, create_graph, inputs=inputs)


def _lone_backward(t, tape, retain_graph):
    """``t.backward()`` for a scalar ``t`` of its thread's tape without links or hooks (a
    training loop's ``loss.backward()``): ``backward``'s work without its generic set-up,
    and its two wrappers' (_finishing, keeps_grad_mode) in this one frame (~5 us a call
    fewer, issue 20).  A custom Function's backward may still queue a callback or change
    the grad mode: both are handled as the wrappers do."""
    p = None
    if _current() is None:
        p = _Pass()
        _FINAL.ref = weakref.ref(p)
    prev = _mode()
    try:
        adj, reach, offs = _sweep(tape, [t._slot], [_ONE], retain_graph, None, None, [])
        for u, slots in _targets(tape, None, reach):
            if slots:
                _accumulate(u, _grad_at(u, slots, adj, offs))
    finally:
        if _mode() != prev:
            _set_mode(prev)
    while p is not None and p.queue:
        p.queue.pop(0)()


Tensor.backward = _tensor_backward
