"""The rows of a custom op (``tapegrad.autograd.Function``): its backward runs in Python.

A custom op's tensor outputs are new slots; its row layout (see autograd/function.py for the
Python side, ``tape.custom[row]``):

- one differentiable output: one CUSTOM row ``[CUSTOM, out, out, -1, k]``;
- several: a size-1 *hub* slot, the CUSTOM row ``[CUSTOM, hub, hub, -1, k]`` and, right
  after it, one CUSTOM_OUT row ``[CUSTOM_OUT, out_i, hub, -1, i]`` per differentiable output
  (``i`` its index among the tensor outputs).  The sweep skips a row whose output was not
  reached, so a CUSTOM_OUT row marks the hub reached when its output is, and the CUSTOM row
  is then stopped at if ANY output was reached, while each output's own reached flag still
  says whether it got a gradient (None under ``set_materialize_grads(False)``).

``in0`` is the row's own output slot: the compiled sweep marks ``in0`` reached before it
dispatches, and that must not mark a real input reached before the Python backward says
whether it returns a gradient for it.  The inputs that require grad are listed in the meta
pool as cat's are, ``meta[k:] = [n, name id, slot_0 .. slot_n-1]``, so graph views,
listings, hooks and anomaly mode read them through ``graph.input_slots``.

CUSTOM has no compiled branch: the sweep returns its row and the engine runs the Python
backward there (DESIGN.md: "one sweep, many stops").  CUSTOM_OUT's branch only marks reached.
"""
from ..tape import OP_MASK
from . import layout
from .registry import declare, meta_list, no_gradient

# ---- custom: a Python backward ------------------------------------------------------------
CUSTOM, CUSTOM_OUT = 120, 121
_NODE_NAMES = []  # name id -> "<ClassName>Backward" (row_name reads meta[k + 1])
_NODE_IDS = {}


def node_name_id(name):
    """The meta-pool id of backward node name ``name`` (one entry per Function class)."""
    i = _NODE_IDS.get(name)
    if i is None:
        i = _NODE_IDS[name] = len(_NODE_NAMES)
        _NODE_NAMES.append(name)
    return i


def node_name(meta, k):
    """The node name of the CUSTOM row whose aux is ``k``."""
    return _NODE_NAMES[int(meta[k + 1])]


def _row_node_name(rows, meta, r):
    """A custom op's node name, for its CUSTOM row and the CUSTOM_OUT rows right after it."""
    while int(rows[r][0]) & OP_MASK == CUSTOM_OUT:
        r -= 1
    return node_name(meta, int(rows[r][4]))


_PYTHON = layout.refuse("a custom autograd.Function's backward runs Python")
declare(CUSTOM, _row_node_name, aux="meta", meta_slots=meta_list(), inputs_in_meta=True,
        check=_PYTHON)
# no math: the custom op's own record (tape.custom) runs its backward under create_graph
declare(CUSTOM_OUT, _row_node_name, aux="int", vjp=no_gradient, check=_PYTHON)


def record(tape, name, in_slots, out_slots, diff):
    """Append a custom op's rows; ``in_slots`` are the slots of the inputs that require
    grad, ``out_slots`` one per tensor output, ``diff`` the positions (in out_slots) of the
    differentiable ones (at least one).  Returns the CUSTOM row's index."""
    k = tape.push_meta((len(in_slots), node_name_id(name), *in_slots))
    hub = out_slots[diff[0]] if len(diff) == 1 else tape.push_scalar(0.0)
    r = tape.nrows
    tape.rbuf.extend((CUSTOM, hub, hub, -1, k))
    if len(diff) > 1:
        for i in diff:  # one extend per row: anomaly mode notes each row's record site
            tape.rbuf.extend((CUSTOM_OUT, out_slots[i], hub, -1, i))
    return r
