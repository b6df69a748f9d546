"""Seeing the graph: tape listings, tape statistics, and Graphviz pictures.

- ``tape_listing(tape)`` (``print(tape)``) and ``Tensor.tape_listing()``: the tape as a
  Wengert list, one line per row: ``v7 = mul(v3, v5)  [2, 3]  MulBackward0``.
- ``tape_stats(...)``: rows, slots, values, bytes and rows per op; ``Tape.stats()`` and
  ``Traced.stats()`` both use it.
- ``draw(tensor)``: the graph reachable from a tensor as Graphviz DOT text, rendered by
  Graphviz's ``dot`` program to PNG or SVG.  Two views:

  * ``"backward"``: what autograd runs, as ``grad_fn`` / ``next_functions`` show it: the
    tensor, its ``grad_fn`` node, the nodes gradient flows on to, and ``AccumulateGrad``
    nodes with the leaves they add into;
  * ``"forward"``: what the program computed: one box per tensor (data, grad, grad_fn,
    is_leaf, requires_grad, shape) and one ellipse per op.

  Large graphs are cut after ``max_nodes`` nodes (nearest the tensor first) with a note
  saying how many were left out.

Everything is read lazily from the rows (autograd/graph.py's views); nothing here runs
while recording.
"""
import html
import inspect
import os
import shutil
import subprocess

import numpy as np

from .autograd.graph import input_slots, row_name, views
from .ops import elementwise as ew
from .ops.registry import NAMES
from .ops.shape import GATHER, VIEW
from .ops.strided import EXPAND, STRIDED
from .tape import OP_MASK, Tape
from .tensor import Tensor

# ops whose second operand is a Python scalar in the const pool (aux)
_CONST_OPERAND = tuple(getattr(ew, n) for n in (
    "ADD_C", "SUB_C", "MUL_C", "DIV_C", "RDIV_C", "RSUB_C", "POW_C", "RPOW_C")
    if hasattr(ew, n))


_VIEW_CODES = {VIEW, STRIDED, GATHER}

# -- statistics and listings -------------------------------------------------------------

def tape_stats(rows, nslots, nvals, nbytes, nguards=0, meta=None):
    """Sizes of a tape: rows, slots, values, guards, bytes, and rows per op name."""
    ops = rows[:, 0] & OP_MASK
    codes, counts = np.unique(ops, return_counts=True)
    named = {}
    for c, n in zip(codes.tolist(), counts.tolist(), strict=True):
        if c in _VIEW_CODES:  # one opcode, many names (ViewBackward0, SliceBackward0...)
            continue
        name = NAMES.get(c, str(c))
        named[name] = named.get(name, 0) + n
    view_rows = np.nonzero(np.isin(ops, list(_VIEW_CODES)))[0].tolist()
    for r in view_rows:
        name = row_name(rows, meta, r) if meta is not None else NAMES.get(int(ops[r]), "view")
        named[name] = named.get(name, 0) + 1
    return {"rows": len(rows), "slots": int(nslots), "values": int(nvals),
            "guards": int(nguards), "bytes": int(nbytes), "ops": named}


def _fwd_name(name):
    """``MulBackward0`` -> ``mul`` (the op as the user called it)."""
    i = name.find("Backward")
    return (name[:i] if i > 0 else name).lower()


def _shape_text(shape):
    return "[" + ", ".join(str(int(n)) for n in shape) + "]"


def listing_lines(rows, offs, consts, meta, shape_of, kind_of, select=None, max_rows=None):
    """The Wengert list of ``rows`` (or of the rows in ``select``), one line per row.

    A slot that no row produces is listed once, before its first use, as ``kind_of(s)``
    (``leaf``, ``const``, ``input``).  ``shape_of(s)`` gives a slot's shape (or None: then
    its element count is shown).  More than ``max_rows`` rows: the first and last halves.
    """
    idx = range(len(rows)) if select is None else select
    produced = set(rows[:, 1].tolist())
    rows = rows.tolist()  # Python ints: row by row, lists are 10x faster than an ndarray
    shown = set()
    lines = []

    def size(s):
        shape = shape_of(s)
        return _shape_text(shape) if shape is not None else _shape_text(
            (int(offs[s + 1] - offs[s]),))

    def line(r):
        out = []
        op, o, k = rows[r][0] & OP_MASK, rows[r][1], rows[r][4]
        ins = input_slots(rows, meta, r)
        for s in ins:
            if s not in produced and s not in shown:
                shown.add(s)
                out.append(f"v{s} = {kind_of(s)}  {size(s)}")
        args = [f"v{s}" for s in ins]
        if op in _CONST_OPERAND and 0 <= k < len(consts):
            args.append(f"{float(consts[k]):g}")
        name = row_name(rows, meta, r)
        if o < 0:
            out.append(f"{_fwd_name(name)}({', '.join(args)})")
        else:
            out.append(f"v{o} = {_fwd_name(name)}({', '.join(args)})  {size(o)}  {name}")
        return out

    idx = list(idx)
    if max_rows is not None and len(idx) > max_rows:
        half = max(max_rows // 2, 1)
        for r in idx[:half]:
            lines += line(r)
        lines.append(f"... {len(idx) - 2 * half} rows not shown ...")
        for r in idx[-half:]:
            lines += line(r)
    else:
        for r in idx:
            lines += line(r)
    return lines


def _op_counts(rows, meta, select=None):
    """``mul 2, sin 1``: rows per op, most frequent first."""
    rows = rows.tolist()
    counts = {}
    for r in range(len(rows)) if select is None else select:
        name = _fwd_name(row_name(rows, meta, r))
        counts[name] = counts.get(name, 0) + 1
    return ", ".join(f"{n} {c}" for n, c in sorted(counts.items(), key=lambda x: -x[1]))


def _tape_parts(tape):
    tape.flush()
    rows = np.frombuffer(tape.rows, np.int64).reshape(-1, 5).copy() if tape.rows else \
        np.zeros((0, 5), np.int64)
    offs = tape.arrays(fill=False)[1].copy()  # (nslots + 1, the arena's end last)
    consts = np.array(tape.consts, np.float64)
    meta = np.array(tape.meta, np.int64)
    leaves = {s for s, _ in tape.leaves}

    def shape_of(s):
        return tape.shapes.get(s, ())

    def kind_of(s):
        return "leaf" if s in leaves else "const"
    return rows, offs, consts, meta, shape_of, kind_of


def tape_listing(tape, max_rows=1000):
    """A tape as a Wengert list with a summary line (``print(tape)``)."""
    rows, offs, consts, meta, shape_of, kind_of = _tape_parts(tape)
    st = tape_stats(rows, tape.nslots, tape.nvals, tape.nbytes(), len(tape.guards), meta)
    head = (f"# tape: {st['rows']} rows, {st['slots']} slots, {st['values']} values, "
            f"{st['bytes']} bytes")
    body = listing_lines(rows, offs, consts, meta, shape_of, kind_of, max_rows=max_rows)
    tail = f"# ops: {_op_counts(rows, meta) or 'none'}"
    return "\n".join([head, *body, tail])


def _reachable_rows(rows, meta, slot):
    """The rows slot ``slot`` depends on, in tape order (no recursion: one reverse pass)."""
    need = {slot}
    picked = []
    rows = rows.tolist()
    for r in range(len(rows) - 1, -1, -1):
        if rows[r][1] in need:
            picked.append(r)
            need.update(input_slots(rows, meta, r))
    return picked[::-1]


def _tape_stats(tape):
    """``Tape.stats()``: rows, slots, values, bytes and rows per op (as Traced.stats)."""
    tape.flush()
    rows = np.frombuffer(tape.rows, np.int64).reshape(-1, 5).copy() if tape.rows else \
        np.zeros((0, 5), np.int64)
    return tape_stats(rows, tape.nslots, tape.nvals, tape.nbytes(), len(tape.guards),
                      np.array(tape.meta, np.int64))


def tensor_listing(t, max_rows=None):
    """``Tensor.tape_listing()``: the rows ``t`` depends on, as a Wengert list."""
    if t._tok is None:
        return f"# a leaf tensor {_shape_text(t.shape)}: no rows (it records nothing)"
    tape = t._tok.tape
    rows, offs, consts, meta, shape_of, kind_of = _tape_parts(tape)
    sel = _reachable_rows(rows, meta, t._slot)
    body = listing_lines(rows, offs, consts, meta, shape_of, kind_of, sel, max_rows)
    return "\n".join([f"# {len(sel)} of the tape's {len(rows)} rows", *body,
                      f"# output: v{t._slot}  ({_op_counts(rows, meta, sel)})"])


# -- pictures ----------------------------------------------------------------------------

class ExecutableNotFound(RuntimeError):
    """Graphviz's ``dot`` program is not installed."""


_INSTALL = ("rendering needs Graphviz's `dot` program, which is not on PATH. Install Graphviz "
            "(Debian/Ubuntu: `apt-get install graphviz`, macOS: `brew install graphviz`, conda: "
            "`conda install graphviz`); the DOT text (str(drawing)) needs nothing.")


def _dot():
    exe = shutil.which("dot")
    if exe is None:
        raise ExecutableNotFound(_INSTALL)
    return exe


class Drawing(str):
    """Graphviz DOT text (a str) that can render itself with ``dot``."""

    def pipe(self, format="svg", dpi=None):
        """The rendered picture as bytes (``format``: png, svg, pdf, ...; ``dpi`` for png)."""
        args = [_dot(), f"-T{format}"] + ([f"-Gdpi={int(dpi)}"] if dpi else [])
        proc = subprocess.run(args, input=self.encode(), capture_output=True, timeout=120)
        if proc.returncode != 0:
            raise RuntimeError(f"dot -T{format} failed: {proc.stderr.decode(errors='replace')}")
        return proc.stdout

    def render(self, path, format=None, dpi=None):
        """Write the picture to ``path`` (format from ``format`` or the suffix, default png;
        ``dpi`` for png, default 96); returns the path written."""
        path = os.fspath(path)
        ext = os.path.splitext(path)[1].lstrip(".").lower()
        fmt = format or ext or "png"
        if not ext:
            path = f"{path}.{fmt}"
        data = self.pipe(fmt, dpi)
        with open(path, "wb") as f:
            f.write(data)
        return path

    def _repr_svg_(self):  # Jupyter shows the picture (or, without dot, the text)
        try:
            return self.pipe("svg").decode()
        except (ExecutableNotFound, RuntimeError):
            return None

    @property
    def source(self):
        return str(self)


def draw(tensor, view="backward", path=None, format=None, max_nodes=100, names=None):
    """The graph reachable from ``tensor`` as Graphviz DOT text (a ``Drawing``), written as
    a picture to ``path`` if given (``format`` png or svg, else from the suffix).

    ``view="backward"`` draws autograd's nodes (grad_fn, next_functions, AccumulateGrad);
    ``view="forward"`` draws tensor boxes (data, grad, grad_fn, is_leaf, requires_grad,
    shape) and op nodes.  ``names`` labels tensors: a dict ``{name: tensor}``; by default the
    caller's variables that hold tensors; ``{}`` for none.  At most ``max_nodes`` nodes are
    drawn, nearest to ``tensor`` first; a note says how many more there are.

    >>> import tapegrad as tg
    >>> a = tg.tensor(2.0, requires_grad=True)
    >>> print(draw(a * 3).splitlines()[0])
    digraph backward {
    """
    if not isinstance(tensor, Tensor):
        raise TypeError(f"draw() expects a Tensor, got {type(tensor).__name__}")
    if view not in ("backward", "forward"):
        raise ValueError(f"draw(): view must be 'backward' or 'forward', got {view!r}")
    if format is not None and format not in ("png", "svg", "pdf", "dot"):
        raise ValueError(f"draw(): format must be 'png', 'svg' or 'pdf', got {format!r}")
    if names is None:
        names = _caller_tensors()
    labels = _Labels(names)
    build = _backward if view == "backward" else _forward
    g = build(tensor, labels, max(int(max_nodes), 1))
    who = labels.of_tensor(tensor) or "the tensor"
    g.caption = (f"backward graph of {who}\n(grad_fn, next_functions, AccumulateGrad.variable)"
                 if view == "backward" else
                 f"forward graph of {who}\n(the tensors and ops that computed it)")
    drawing = Drawing(g.dot(view))
    if path is not None:
        if format == "dot" or str(path).endswith(".dot"):
            with open(path, "w") as f:
                f.write(drawing)
        else:
            drawing.render(path, format)
    return drawing


def _caller_tensors():
    """The tensors held by variables of the first caller outside tapegrad."""
    pkg = os.path.dirname(os.path.abspath(__file__)) + os.sep
    f = inspect.currentframe()
    while f is not None and f.f_code.co_filename.startswith(pkg):
        f = f.f_back
    if f is None:
        return {}
    return {k: v for k, v in f.f_locals.items() if isinstance(v, Tensor)}


class _Labels:
    """Names for tensors: by identity, and by (tape generation, slot) for the slots that
    non-leaves and scalar constants own (an array leaf takes a new slot at each use)."""

    def __init__(self, names):
        self.by_id = {}
        self.by_slot = {}
        for name, t in dict(names).items():
            if not isinstance(t, Tensor):
                continue
            self.by_id.setdefault(id(t), str(name))
            if t._gen:
                self.by_slot.setdefault((t._gen, t._slot), str(name))

    def of_tensor(self, t):
        if id(t) in self.by_id:
            return self.by_id[id(t)]
        return self.by_slot.get((t._gen, t._slot)) if t._gen else None

    def of_slot(self, tape, s):
        return self.by_slot.get((tape.gen, s))


class _Graph:
    """Nodes and edges to be written as DOT, cut after ``limit`` nodes."""

    def __init__(self, limit):
        self.limit = limit
        self.nodes = {}  # id -> attribute text
        self.edges = []
        self.cut = 0  # nodes left out
        self.cut_from = set()  # drawn nodes with an edge into what was left out
        self.caption = ""

    def add(self, key, attrs):
        if key in self.nodes:
            return True
        if len(self.nodes) >= self.limit:
            return False
        self.nodes[key] = attrs
        return True

    def dot(self, name):
        out = [f"digraph {name} {{",
               '  graph [rankdir=TB, nodesep=0.35, ranksep=0.45, bgcolor="white", '
               'fontname="Helvetica", pad=0.25];',
               '  node [fontname="Helvetica", fontsize=12, penwidth=1.2];',
               '  edge [color="#555555", arrowsize=0.8, fontname="Helvetica", fontsize=10];']
        if self.caption:
            out.append(f'  graph [label={_q(self.caption)}, labelloc=b, fontsize=11, '
                       'fontcolor="#555555"];')
        for key, attrs in self.nodes.items():
            out.append(f"  {key} [{attrs}];")
        for a, b, attrs in self.edges:
            if a in self.nodes and b in self.nodes:
                out.append(f"  {a} -> {b}" + (f" [{attrs}]" if attrs else "") + ";")
        if self.cut:
            out.append(f'  more [shape=note, style=filled, fillcolor="#fff8e1", color="#b08900",'
                       f' label="{self.cut:,} more node{"s" if self.cut != 1 else ""} not drawn'
                       f'\\n(max_nodes={self.limit})"];')
            for a in sorted(self.cut_from):
                out.append(f'  {a} -> more [style=dashed, color="#b08900"];')
        out.append("}")
        return "\n".join(out) + "\n"


def _q(text):
    """A DOT string literal."""
    return '"' + str(text).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _shape_tuple(shape):
    shape = tuple(int(n) for n in shape)
    return "(" + ", ".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")"


_FN = 'shape=box, style="rounded,filled", fillcolor="#e8e8e8", color="#6b6b6b"'
_ACC = 'shape=box, style="rounded,filled", fillcolor="#fff2cc", color="#a08400"'
_LEAF = 'shape=box, style=filled, fillcolor="#cfe2ff", color="#3d6fb6"'
_ROOT = 'shape=box, style=filled, fillcolor="#d4edda", color="#3c8d50"'


def _fn_label(v, r, labels, tape):
    """A grad_fn node's label: its name, and whose grad_fn it is if that tensor is named."""
    name = html.escape(v.name(r))
    owner = labels.of_slot(tape, int(v.rows[r, 1]))
    if owner is None:
        return f"label={_q(v.name(r))}"
    return (f'label=<{name}<BR/><FONT POINT-SIZE="10" COLOR="#555555">'
            f"{html.escape(owner)}.grad_fn</FONT>>")


def _backward(t, labels, limit):
    """grad_fn nodes, next_functions edges, AccumulateGrad -> leaf (breadth first)."""
    g = _Graph(limit)
    name = labels.of_tensor(t)
    root = "root"
    g.add(root, f"{_ROOT}, label={_q((name or 'tensor') + chr(10) + _shape_tuple(t.shape))}")
    if t._tok is None:  # a leaf: its AccumulateGrad, if it requires grad
        if t._rg:
            g.add("acc", f"{_ACC}, label=\"AccumulateGrad\"")
            g.edges.append((root, "acc", 'label=" grad_fn", style=dashed'))
        return g
    tape = t._tok.tape
    v = views(tape)
    start = int(v.row_of[v.through(t._slot)])  # (its grad_fn: no_grad writes' pass rows are none)
    total = _count_reachable(v, start)
    seen_rows = {start}
    drawn_leaves = set()
    queue = [start]
    if not g.add(f"r{start}", f"{_FN}, {_fn_label(v, start, labels, tape)}"):
        return g
    g.edges.append((root, f"r{start}", 'label=" grad_fn"'))
    head = 0
    while head < len(queue):
        r = queue[head]
        head += 1
        for s in input_slots(v.rows, v.meta, r):
            src, s0 = v.source(s, r)
            if src >= 0:
                key = f"r{src}"
                if src not in seen_rows:
                    seen_rows.add(src)
                    if not g.add(key, f"{_FN}, {_fn_label(v, src, labels, tape)}"):
                        g.cut_from.add(f"r{r}")
                        continue
                    queue.append(src)
                if key in g.nodes:
                    g.edges.append((f"r{r}", key, ""))
                else:
                    g.cut_from.add(f"r{r}")
                continue
            leaf = v.leaf_of.get(s0)
            if leaf is None:
                continue  # a constant: PyTorch shows (None, 0), nothing to draw
            acc, box = f"acc{id(leaf)}", f"leaf{id(leaf)}"
            if id(leaf) not in drawn_leaves:
                if len(g.nodes) + 2 > g.limit:  # AccumulateGrad and its leaf, or neither
                    g.cut_from.add(f"r{r}")
                    continue
                drawn_leaves.add(id(leaf))
                label = (labels.of_tensor(leaf) or "leaf") + "\n" + _shape_tuple(leaf.shape)
                g.add(acc, f'{_ACC}, label="AccumulateGrad"')
                g.add(box, f"{_LEAF}, label={_q(label)}")
                g.edges.append((acc, box, 'style=dashed, label=" variable"'))
            g.edges.append((f"r{r}", acc, ""))
    g.cut = max(1 + total - len(g.nodes), 0)
    return g


def _count_reachable(v, start):
    """How many nodes the full backward view has: rows, plus two per reachable leaf."""
    rows, meta = v.rows, v.meta
    need = np.zeros(len(v.row_of), bool)
    need[int(rows[start, 1])] = True
    n_rows = 0
    leaves = set()
    for r in range(start, -1, -1):
        o = int(rows[r, 1])
        if o < 0 or not need[o]:
            continue
        if int(rows[r, 0] & OP_MASK) != _EXPAND and not v.passes(r):
            n_rows += 1
        for s in input_slots(rows, meta, r):
            need[s] = True
            leaf = v.leaf_of.get(s)
            if leaf is not None:
                leaves.add(id(leaf))
    return n_rows + 2 * len(leaves)


def _expand_code():
    return EXPAND


_EXPAND = _expand_code()


# -- the forward view ---------------------------------------------------------------------

def _fmt_values(a):
    a = np.asarray(a)
    if a.ndim == 0:
        text = f"{float(a):.6g}"
        return text if any(c in text for c in ".eni") else text + ".0"
    return np.array2string(a, precision=4, threshold=12, edgeitems=2, max_line_width=48)


def _table(title, color, fields):
    rows = [f'<TR><TD COLSPAN="2" BGCOLOR="{color}"><B>{html.escape(title)}</B></TD></TR>']
    for k, val in fields:
        text = "<BR ALIGN=\"LEFT\"/>".join(html.escape(x) for x in str(val).split("\n"))
        rows.append(f'<TR><TD ALIGN="LEFT"><FONT COLOR="#555555">{k}</FONT></TD>'
                    f'<TD ALIGN="LEFT">{text}</TD></TR>')
    return ('shape=plaintext, label=<<TABLE BORDER="0" CELLBORDER="1" CELLSPACING="0" '
            'CELLPADDING="4" COLOR="#888888">' + "".join(rows) + "</TABLE>>")


def _box(title, data, grad, grad_fn, is_leaf, rg, shape):
    color = "#d4edda" if not is_leaf else "#cfe2ff" if rg else "#eeeeee"
    return _table(title, color, [
        ("data", _fmt_values(data)),
        ("grad", "None" if grad is None else _fmt_values(grad._data)),
        ("grad_fn", "None" if grad_fn is None else f"<{grad_fn}>"),
        ("is_leaf", is_leaf), ("requires_grad", rg), ("shape", _shape_tuple(shape))])


def _forward(t, labels, limit):
    """Tensor boxes and op ellipses, from ``t`` back to the leaves and constants."""
    g = _Graph(limit)
    if t._tok is None:
        g.add("root", _box(labels.of_tensor(t) or "tensor", t._data, t._grad, None, True,
                           t._rg, t.shape))
        return g
    tape = t._tok.tape
    v = views(tape)
    retained = {s: ref() for s, ref in tape.retained}
    vals = None

    def slot_box(s):
        nonlocal vals
        r = int(v.row_of[v.through(s)])  # (s's values, drawn as the tensor of its grad_fn)
        leaf = v.leaf_of.get(s)
        name = labels.of_slot(tape, s)
        if leaf is not None:
            return _box(labels.of_tensor(leaf) or name or "leaf", leaf._data, leaf._grad, None,
                        True, leaf._rg, leaf.shape)
        shape = tape.shapes.get(s, ())
        data = tape.slot_values(s).reshape(shape)
        if r < 0:
            return _box(name or "constant", data, None, None, True, False, shape)
        kept = retained.get(s)
        return _box(name or f"v{s}", data, kept._grad if kept is not None else None,
                    v.name(r), False, True, shape)

    top = v.through(t._slot)
    start = int(v.row_of[top])
    total = _count_forward(v, start)
    g.add(f"s{top}", slot_box(t._slot))
    queue, head, seen = [start], 0, {start}
    while head < len(queue):
        r = queue[head]
        head += 1
        op = f"op{r}"
        if not g.add(op, f'shape=ellipse, style=filled, fillcolor="#fde2c8", color="#c0762f", '
                         f"label={_q(_fwd_name(v.name(r)))}"):
            g.cut_from.add(f"s{int(v.rows[r, 1])}")
            continue
        g.edges.append((op, f"s{int(v.rows[r, 1])}", ""))
        for s in input_slots(v.rows, v.meta, r):
            src, s0 = v.source(s, r)
            leaf = v.leaf_of.get(s0)
            key = f"s{s0}" if leaf is None else f"leaf{id(leaf)}"
            read = s if v.through(s) == s0 else s0  # (the values read, past a no_grad write)
            if key not in g.nodes and not g.add(key, slot_box(read)):
                g.cut_from.add(op)
                continue
            g.edges.append((key, op, ""))
            if src >= 0 and src not in seen:
                seen.add(src)
                queue.append(src)
    g.cut = max(total - len(g.nodes), 0)
    return g


def _count_forward(v, start):
    """Nodes of the full forward view: one per op row and one per tensor slot."""
    rows, meta = v.rows, v.meta
    need = np.zeros(len(v.row_of), bool)
    need[int(rows[start, 1])] = True
    n = 1
    for r in range(start, -1, -1):
        o = int(rows[r, 1])
        if o < 0 or not need[o]:
            continue
        if int(rows[r, 0] & OP_MASK) == _EXPAND or v.passes(r):
            n -= 1  # looked through: neither its op nor its output slot is drawn
        else:
            n += 1
        for s in input_slots(rows, meta, r):
            if not need[s]:
                need[s] = True
                n += 1
    return n - _repeated_leaf_slots(v, need)


def _repeated_leaf_slots(v, need):
    """An array leaf has a slot per use but one box: the extra slots among ``need``."""
    seen, extra = set(), 0
    for s, leaf in v.leaf_of.items():
        if s < len(need) and need[s]:
            extra += id(leaf) in seen
            seen.add(id(leaf))
    return extra


__all__ = ["Drawing", "ExecutableNotFound", "draw", "tape_listing", "tape_stats",
           "tensor_listing"]


Tensor.tape_listing = tensor_listing
Tape.stats = _tape_stats
Tape.__str__ = tape_listing
