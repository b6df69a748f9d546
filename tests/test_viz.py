"""Graph pictures (DOT text, rendering through Graphviz's dot), tape listings and stats."""
import contextlib
import re
import shutil

import numpy as np
import pytest

import tapegrad as tg
from tapegrad import viz
from tapegrad._state import state
from tapegrad.tape import Tape

pytestmark = pytest.mark.usefixtures("collect_cycles")

needs_dot = pytest.mark.skipif(
    shutil.which("dot") is None,
    reason="Graphviz's dot program is not installed (apt-get install graphviz)")


def tutorial():
    a = tg.tensor(2.0, requires_grad=True)
    b = tg.tensor(3.0)
    c = a * b
    d = tg.tensor(4.0, requires_grad=True)
    e = c * d
    return a, b, c, d, e


def _nodes(dot):
    """node id -> label, from DOT text (plain labels, or the title of an HTML table)."""
    out = {}
    for m in re.finditer(r"^  (\w+) \[(.*)\];$", dot, re.M):
        if m.group(1) in ("graph", "node", "edge"):
            continue
        attrs = m.group(2)
        plain = re.search(r'label="((?:[^"\\]|\\.)*)"', attrs)
        html_title = re.search(r"<B>(.*?)</B>", attrs) or re.search(r"label=<([^<]*)<BR/>", attrs)
        out[m.group(1)] = html_title.group(1) if html_title else plain.group(1)
    return out


def _edges(dot):
    return re.findall(r"^  (\w+) -> (\w+)", dot, re.M)


def test_backward_view_of_the_tutorial_graph():
    a, b, c, d, e = tutorial()
    dot = viz.draw(e)
    nodes = _nodes(dot)
    labels = sorted(nodes.values())
    assert labels == sorted(["e\\n()", "MulBackward0", "MulBackward0", "AccumulateGrad",
                             "AccumulateGrad", "a\\n()", "d\\n()"])  # b needs no gradient
    by_label = {}
    for k, v in nodes.items():
        by_label.setdefault(v, []).append(k)
    edges = set(_edges(dot))
    root = by_label["e\\n()"][0]
    e_fn = [y for x, y in edges if x == root][0]
    # e.grad_fn's next_functions: (c.grad_fn, AccumulateGrad(d)), in that order
    assert [y for x, y in _edges(dot) if x == e_fn][0] != by_label["AccumulateGrad"]
    nxt = [nodes[y] for x, y in _edges(dot) if x == e_fn]
    assert nxt == ["MulBackward0", "AccumulateGrad"]
    accs = {nodes[y]: x for x, y in edges if nodes[x] == "AccumulateGrad"}
    assert set(accs) == {"a\\n()", "d\\n()"}
    assert "grad_fn" in dot and "variable" in dot
    assert "c.grad_fn" in dot and "e.grad_fn" in dot  # whose grad_fn each node is
    assert e.grad_fn.next_functions[1][0].variable is d  # what the picture shows


def test_forward_view_shows_every_field():
    a, b, c, d, e = tutorial()
    e.backward()
    dot = viz.draw(e, view="forward")
    assert sorted(_nodes(dot).values())[:5] == ["a", "b", "c", "d", "e"]
    for field in ("data", "grad", "grad_fn", "is_leaf", "requires_grad", "shape"):
        assert dot.count(f">{field}</FONT>") == 5
    box_a = dot[dot.index("<B>a</B>"):].split("</TABLE>")[0]
    assert ">2.0<" in box_a and ">12.0<" in box_a and ">True<" in box_a  # data, grad, leaf
    box_c = dot[dot.index("<B>c</B>"):].split("</TABLE>")[0]
    assert "&lt;MulBackward0&gt;" in box_c and ">6.0<" in box_c and ">False<" in box_c
    box_b = dot[dot.index("<B>b</B>"):].split("</TABLE>")[0]
    assert box_b.count(">False<") == 1 and ">3.0<" in box_b  # requires_grad False
    assert dot.count('label="mul"') == 2


def test_names_explicit_or_none():
    a, b, c, d, e = tutorial()
    dot = viz.draw(e, names={"loss": e, "w": a})
    labels = set(_nodes(dot).values())
    assert "loss\\n()" in labels and "w\\n()" in labels and "leaf\\n()" in labels
    plain = viz.draw(e, names={})
    assert "tensor\\n()" in set(_nodes(plain).values())


def test_arrays_broadcast_and_cat():
    x = tg.tensor(np.arange(6.0).reshape(2, 3), requires_grad=True)
    w = tg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = tg.cat([(x * w).reshape(-1), w, w * 2])  # a 3-input cat, a hidden broadcast
    assert len(y.grad_fn.next_functions) == 3
    dot = viz.draw(y)
    labels = list(_nodes(dot).values())
    assert "ExpandBackward0" not in labels  # implicit broadcasting has no node
    assert labels.count("AccumulateGrad") == 2  # one per leaf, however often it is used
    cat = [k for k, v in _nodes(dot).items() if v == "CatBackward0"][0]
    assert len([1 for x_, _ in _edges(dot) if x_ == cat]) == 3
    fwd = viz.draw(y, view="forward")
    assert "(2, 3)" in fwd and "(12,)" in fwd and "[[0. 1. 2.]" in fwd


def _chain(steps):
    a = tg.tensor(0.999, requires_grad=True)
    b = tg.tensor(0.002, requires_grad=True)
    y = tg.tensor(0.5)
    for _ in range(steps):
        y = y * a + y.sin() * b
    return y


@pytest.mark.parametrize("view", ["backward", "forward"])
def test_large_graphs_are_capped_with_a_count(view):
    y = _chain(50)  # 200 rows
    full = viz.draw(y, view=view, max_nodes=10**6)
    n_full = len(_nodes(full))
    assert "more node" not in full
    # 199 rows (the first sin(y) reads a constant: not recorded)
    # backward: 199 nodes + AccumulateGrad and a box per leaf + the root box
    # forward: 199 ops + 199 outputs + a, b and the constants 0.5 and sin(0.5)
    assert n_full == (199 + 4 + 1 if view == "backward" else 199 * 2 + 4)
    capped = viz.draw(y, view=view, max_nodes=30)
    nodes = _nodes(capped)
    more = int(re.search(r'"([\d,]+) more nodes not drawn', capped).group(1).replace(",", ""))
    assert len(nodes) - 1 <= 30  # minus the note itself
    assert len(nodes) - 1 + more == n_full
    assert "(max_nodes=30)" in capped
    assert any(b_ == "more" for _, b_ in _edges(capped))


def test_deep_graph_draws_quickly():
    import time
    y = _chain(25_000)  # 10^5 rows
    t0 = time.perf_counter()
    dot = viz.draw(y, max_nodes=50)
    assert time.perf_counter() - t0 < 20  # generous: this machine is shared
    assert "99,9" in dot


def test_leaf_and_errors():
    x = tg.tensor(1.0, requires_grad=True)
    assert "AccumulateGrad" in viz.draw(x)
    assert "<B>x</B>" in viz.draw(x, view="forward")
    with pytest.raises(ValueError, match="view must be"):
        viz.draw(x, view="sideways")
    with pytest.raises(TypeError, match="expects a Tensor"):
        viz.draw(1.0)
    with pytest.raises(ValueError, match="format must be"):
        viz.draw(x, format="gif")


@needs_dot
@pytest.mark.parametrize("fmt,magic", [("png", b"\x89PNG"), ("svg", b"<?xml")])
def test_render(tmp_path, fmt, magic):
    *_, e = tutorial()
    path = tmp_path / f"g.{fmt}"
    out = viz.draw(e, path=path)
    assert isinstance(out, viz.Drawing) and path.read_bytes().startswith(magic)
    assert viz.draw(e, view="forward").pipe(fmt).startswith(magic)
    # no suffix: the format is appended
    written = viz.draw(e).render(tmp_path / "noext", format=fmt)
    assert written.endswith("." + fmt)


def test_without_dot_the_text_works_and_rendering_says_what_to_install(monkeypatch, tmp_path):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    *_, e = tutorial()
    dot = viz.draw(e)
    assert dot.startswith("digraph backward {")
    with pytest.raises(viz.ExecutableNotFound, match="apt-get install graphviz"):
        dot.render(tmp_path / "g.png")
    with pytest.raises(RuntimeError, match="not on PATH"):
        viz.draw(e, path=tmp_path / "g.svg")
    assert dot._repr_svg_() is None  # Jupyter then shows the text
    viz.draw(e, path=tmp_path / "g.dot")  # DOT text to a file needs no dot
    assert (tmp_path / "g.dot").read_text().startswith("digraph")


# -- listings and stats ---------------------------------------------------------------------

def test_tensor_listing_is_a_wengert_list():
    x = tg.tensor(np.ones((2, 3)), requires_grad=True)
    w = tg.tensor(np.ones((2, 3)), requires_grad=True)
    y = (x * w).sin().sum()
    text = y.tape_listing()
    sx, sw = x_slot(text, 0), x_slot(text, 1)
    lines = text.splitlines()
    mul = [ln for ln in lines if "= mul(" in ln][0]
    assert re.fullmatch(rf"v(\d+) = mul\(v{sx}, v{sw}\)  \[2, 3\]  MulBackward0", mul)
    sm = int(re.match(r"v(\d+)", mul).group(1))
    assert f"= sin(v{sm})  [2, 3]  SinBackward0" in text
    assert re.search(r"= sum\(v\d+\)  \[\]  SumBackward0", text)
    assert lines[0] == f"# 3 of the tape's {y._tok.tape.nrows} rows"
    assert lines[-1] == f"# output: v{y._slot}  (mul 1, sin 1, sum 1)"
    assert "leaf" in x.tape_listing()


def x_slot(text, k):
    """The slot of the k-th leaf line of a listing."""
    return int(re.findall(r"^v(\d+) = leaf", text, re.M)[k])


def test_listing_constants_and_only_dependencies():
    a = tg.tensor(2.0, requires_grad=True)
    unrelated = a.exp()  # noqa: F841 (on the tape, but y does not depend on it)
    y = a * 2.5 + 1
    text = y.tape_listing()
    assert "exp" not in text
    assert re.search(r"= mul\(v\d+, 2.5\)  \[\]  MulBackward0", text)
    assert re.search(r"= add\(v\d+, 1\)  \[\]  AddBackward0", text)


@contextlib.contextmanager
def own_tape():
    """Record on a fresh tape (row and slot numbers from 0), then restore the thread's."""
    tape = Tape()
    old = state.tape
    state.tape = tape
    try:
        yield tape
    finally:
        state.tape = old


def test_print_tape_and_stats():
    with own_tape() as tape:
        a = tg.tensor(2.0, requires_grad=True)
        b = tg.tensor(3.0)
        c = a * b
        d = tg.tensor(4.0, requires_grad=True)
        e = c * d
        text = str(tape)
        assert text.splitlines() == [
            f"# tape: 2 rows, 5 slots, 5 values, {tape.nbytes()} bytes",
            "v0 = leaf  []",
            "v1 = const  []",
            "v2 = mul(v0, v1)  []  MulBackward0",
            "v3 = leaf  []",
            "v4 = mul(v2, v3)  []  MulBackward0",
            "# ops: mul 2"]
        stats = tape.stats()
        assert stats == {"rows": 2, "slots": 5, "values": 5, "guards": 0,
                         "bytes": tape.nbytes(), "ops": {"MulBackward0": 2}}
        assert repr(tape).startswith("<tapegrad.Tape: 2 rows, 5 slots")
        del c, e


def test_long_tapes_print_head_and_tail():
    y = _chain(500)
    text = viz.tape_listing(y._tok.tape, max_rows=20)
    assert re.search(r"^\.\.\. \d+ rows not shown \.\.\.$", text, re.M)
    assert len(text.splitlines()) < 40


def test_stats_one_implementation_for_tape_and_trace():
    def f(x):
        return (x[1:] * x[:-1]).sin().sum()
    traced = tg.trace(f, np.ones(4))
    with own_tape() as tape:
        y = f(tg.tensor(np.ones(4), requires_grad=True))
        ts, rs = tape.stats(), traced.stats()
        assert ts["ops"] == rs["ops"] == {"MulBackward0": 1, "SinBackward0": 1,
                                          "SumBackward0": 1, "SliceBackward0": 2}
        assert ts["rows"] == rs["rows"] == 5
        del y
    text = traced.listing()
    assert re.search(r"= mul\(v\d+, v\d+\)  \[3\]  MulBackward0", text)
