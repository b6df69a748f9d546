"""The op registry: one declaration per opcode, the single source of every per-op table.

Each primitive's block in its family module (the base-2 logarithm's in ``elementwise.py`` is a
worked example) has its opcode, its Numba rules, one ``declare`` call and its function::

    TANH = 23
    _TANH = Unary(TANH, "tanh", math.tanh, np.tanh)
    ... tanh_fwd, tanh_rev (Numba rules) ...
    declare(TANH, "TanhBackward0", saves="o", fwd=tanh_fwd, rev=tanh_rev,
            vjp=smooth(lambda x, y: 1.0 - y * y))
    tanh = make_unary(_TANH, "Hyperbolic tangent.")
    api(tanh)

and everything else about the op is derived from the declarations:

- ``NAMES``: backward node names (graph views, ``grad_fn.name()``, error messages);
- ``saved_flags``: the operands PyTorch saves, for the in-place version check;
- ``reads``: the operands whose values the reverse rule reads (values it never reads are
  kept aside, not copied: ``Tape.push_array``);
- ``aux`` and ``meta_slots``: where a row keeps slot numbers besides its own columns (the
  aux field, the meta pool), read by ``graph_inputs`` (graph views, hooks, listings) and
  by a trace's slot renumbering (``replay``);
- ``VJP``: the create_graph rule, a function of ``(r, g)`` (``autograd/higher.py``'s Row
  and the output's adjoint as a tensor) returning ``[(slot, adjoint tensor), ...]``;
- ``fwd`` / ``rev``: the Numba rules that the op's branches in ``_sweep.py`` call
  (``tests/test_registry.py`` checks every declared op against both dispatch chains);
- ``tan``: the forward-mode (tangent) rule that the op's branch of ``_sweep._tangent_sweep``
  calls: ``tan[o] = J tan[in]``, reading saved values from ``vals``.  A linear op declares
  its forward rule (run on the tangent arena it is its own tangent rule), an op whose
  output is piecewise constant declares ``ZERO``; None: no tangent rule yet (forward mode
  falls back to transposition for a graph holding it);
- ``curv``: the second-order part of the reverse rule's tangent, for Hessian-vector
  products by forward over reverse (``_sweep._hvp_sweep``): ``tadj[in] += gy * d2f[t]``;
  ``ZERO`` for an op linear in its inputs (or piecewise linear); None: none yet (the HVP
  falls back to reverse over reverse).

Public functions are declared with ``api``: ``ops/__init__.py`` binds the ``method`` ones
to Tensor and ``tapegrad/__init__.py`` exports the rest, so a new op touches its family
module and the dispatch lines of ``_sweep.py`` (reverse, replay, tangent, forward over
reverse), nothing else.

- ``check``: the row's layout (``ops/layout.py``), checked on every row of a loaded trace
  before compiled code sees it; elementwise ops get theirs from their ``aux``.

This module sits at the bottom of ``ops/``: it imports only the tape's opcode mask and the
row layouts.
"""
from ..tape import OP_MASK
from . import layout

OPS = {}  # opcode -> Op
NAMES = {}  # opcode -> backward node name (a str; rows named by their aux are in Op.node)
VJP = {}  # opcode -> create_graph rule
API = {}  # public name -> (function, bind as a Tensor method, export from tapegrad)
_frozen = []  # [True] once ops/__init__.py has imported every family (freeze)

_SAVES = "aAbBo"  # a/b: in0/in1 always; A/B: in0 (in1) when the other one requires grad;
#                   o: the output (PyTorch's SavedVariables, checked after in-place writes)
BY_NAME = "by name"  # frees= of a row named by its aux or meta (views): its name decides
ZERO = "zero"  # tan/curv of an op with no tangent (piecewise constant) or no curvature
AUX = ("", "const", "meta", "slot", "name", "int")  # what a row's aux holds: nothing, a
#    const index, a meta index, a slot, a view-name index, a small int of its own


class Op:
    """One opcode's declaration (see the module docstring)."""

    __slots__ = ("code", "node", "saves", "frees", "reads", "aux", "meta_slots",
                 "inputs_in_meta", "scalar_edge", "fwd", "rev", "vjp", "check", "tan", "curv")

    def __init__(self, code, node, saves, frees, reads, aux, meta_slots, inputs_in_meta,
                 scalar_edge, fwd, rev, vjp, check, tan, curv):
        self.code, self.node, self.saves, self.reads = code, node, saves, reads
        self.frees = frees
        self.aux, self.meta_slots, self.inputs_in_meta = aux, meta_slots, inputs_in_meta
        self.scalar_edge, self.fwd, self.rev, self.vjp = scalar_edge, fwd, rev, vjp
        self.check, self.tan, self.curv = check, tan, curv

    def __repr__(self):
        return f"Op({self.code}, {self.node!r})"


def declare(code, node, *, saves="", frees=None, reads=None, aux="", meta_slots=None,
            inputs_in_meta=False, scalar_edge=False, fwd=None, rev=None, vjp=None, check=None,
            tan=None, curv=None):
    """Register opcode ``code``; returns it.

    ``node``: PyTorch's backward node name, or a function ``(rows, meta, r) -> name`` for
    rows named by their aux (views). ``saves``: letters of ``_SAVES``. ``frees``: whether
    PyTorch's node holds a saved tensor at all, which a backward without retain_graph frees
    (a second backward through the row then raises; rows that hold none sweep again, as
    PyTorch's): default ``bool(saves)``; True for a tensor that is no operand (a scalar
    operand, indices, a mask), ``BY_NAME`` where the row's node name decides. ``reads``: the
    operands (``a``, ``b``, ``o``) whose values ``rev`` reads; default: those it saves.
    ``aux``: what the row's aux holds (``AUX``). ``meta_slots``: a function ``(meta, k)``
    giving the meta positions that hold slot numbers (cat's operands, linear's bias);
    ``inputs_in_meta``: those are all the row's graph inputs (in0/in1 are not).
    ``scalar_edge``: a Python-scalar operand that PyTorch lists as a ``(None, 0)`` edge.
    ``fwd``/``rev``: the rules its dispatch branches call (None: the branch computes
    nothing: no replay, or no gradient). ``vjp``: the create_graph rule (None: none).
    ``tan``/``curv``: the forward-mode rule and the HVP's second-order rule (module
    docstring; ``ZERO``: none needed).
    ``check``: the row layout (``layout.py``); None derives an elementwise one from ``aux``
    (a meta aux has no default: its layout is the op's own).
    """
    if _frozen:
        raise ImportError(f"tapegrad: opcode {code} ({node!r}) is declared after the op "
                          "registry was frozen; declare it in a family module of ops/")
    if code in OPS:
        raise ImportError(f"tapegrad: opcode {code} is declared twice "
                          f"({OPS[code].node!r} and {node!r})")
    if set(saves) - set(_SAVES) or aux not in AUX:
        raise ValueError(f"declare({code}, {node!r}): saves {saves!r} must use {_SAVES!r} "
                         f"and aux {aux!r} be one of {AUX}")
    if reads is None:
        reads = "".join(sorted(set(saves.lower())))
    if frees is None:
        frees = bool(saves)
    if check is None:
        if aux in ("meta", "name"):
            raise ValueError(f"declare({code}, {node!r}): an aux of kind {aux!r} needs its "
                             "row layout, check= (ops/layout.py)")
        check = layout.elementwise(consts=aux == "const", slot_aux=aux == "slot")
    OPS[code] = Op(code, node, saves, frees, reads, aux, meta_slots, inputs_in_meta, scalar_edge,
                   fwd, rev, vjp, check, tan, curv)
    if isinstance(node, str):
        NAMES[code] = node
    if vjp is not None:
        VJP[code] = vjp
    return code


def api(fn=None, *, method=True, export=True, name=None):
    """Declare a public function: ``method`` binds it to Tensor (``x.tanh()``), ``export``
    puts it in ``tapegrad``'s namespace (``tapegrad.tanh``).  Returns ``fn``."""
    def deco(f):
        API[name or f.__name__] = (f, method, export)
        return f
    return deco(fn) if fn is not None else deco


def freeze():
    """Called once every family is imported: later declarations are refused, and the
    tables derived at import time (``saved_flags``) can trust that they see every op."""
    _frozen.append(True)


def _complete():
    if not _frozen:
        raise ImportError("tapegrad: a table was derived from the op registry before every "
                          "family declared its ops (import ops/ through ops/__init__.py)")


def no_gradient(r, g):
    """The vjp of a row nothing flows through (comparisons, argmax, a stop-gradient)."""
    return []


def zero_gradient(r, g):
    """The vjp of an elementwise piecewise-constant op (sign, floor, round...): zeros for
    its input, as PyTorch's (a create_graph gradient of x is zeros, not "unused")."""
    return [(r.a, g.new_zeros(r.shape(r.a)))]


NO_DERIVATIVE = (no_gradient, zero_gradient)  # (vjps whose rows no derivative crosses)


def smooth(d):
    """The vjp of a smooth unary op from its derivative ``d(x, y)`` (tensors: the input and
    the saved output): ``gx = g * d(x, y)``."""
    def vjp(r, g):
        return [(r.a, g * d(r.x, r.out))]
    return vjp


def meta_list(count_at=0, first_at=2):
    """meta_slots of a row whose aux ``k`` points at ``[n, ..., slot_0 .. slot_n-1]``:
    the count at ``k + count_at``, the slots from ``k + first_at``."""
    def positions(meta, k):
        n = int(meta[k + count_at])
        return list(range(k + first_at, k + first_at + n))
    positions.spec = ("list", count_at, first_at)  # for compiled readers (autograd/span.py)
    return positions


def meta_at(*offsets):
    """meta_slots of a row that keeps slot numbers at fixed offsets from its aux."""
    def positions(meta, k):
        return [k + j for j in offsets]
    positions.spec = ("at", *offsets)
    return positions


def node_name(rows, meta, r):
    """The backward node name of row ``r`` of a tape (``rows`` masked or not)."""
    op = int(rows[r][0]) & OP_MASK
    d = OPS.get(op)
    if d is None:
        return f"Op{op}Backward"
    return d.node if isinstance(d.node, str) else d.node(rows, meta, r)


def graph_inputs(rows, meta, r):
    """The slots row ``r`` reads with a gradient, in PyTorch's order: the meta ones first
    (addmm's bias), then in0 and in1, unless the meta list holds them all (cat)."""
    row = rows[r]
    d = OPS.get(int(row[0]) & OP_MASK)
    in_meta = [] if d is None or d.meta_slots is None else \
        [int(meta[j]) for j in d.meta_slots(meta, int(row[4]))]
    if d is not None and d.inputs_in_meta:
        return in_meta
    return in_meta + [int(x) for x in (row[2], row[3]) if x >= 0]


def saved_flags(letter, ncodes):
    """A bool table over opcodes ``0 .. ncodes`` (the last entry stands for unknown
    opcodes: False): True where the op saves the operand ``letter`` of ``_SAVES``."""
    _complete()
    flags = [False] * (ncodes + 1)
    for code, d in OPS.items():
        if letter in d.saves:
            flags[code] = True
    return flags
