"""The op registry (tapegrad/ops/registry.py) is the one source of every per-op table: each
declared op has its branches in both compiled dispatch chains, calling the rules it
declares, and every table derived from the declarations agrees with them."""
import ast
import pathlib
import re

import numpy as np
import pytest

import tapegrad as tg
from tapegrad.autograd import graph
from tapegrad.ops import inplace, registry
from tapegrad.ops.out import takes_dim
from tapegrad.ops.registry import API, NAMES, OPS, VJP

PKG = pathlib.Path(tg.__file__).resolve().parent
_MODULES = {"C": "control", "U": "custom", "E": "elementwise", "L": "linalg", "N": "nn",
            "R": "reductions", "S": "shape", "T": "strided"}


def _branches(fn_name):
    """{opcode: names of the functions its branch in ``_sweep.<fn_name>`` calls}."""
    tree = ast.parse((PKG / "_sweep.py").read_text())
    fn = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == fn_name)
    out = {}
    for node in ast.walk(fn):
        if not isinstance(node, ast.If):
            continue
        codes = []
        for cmp in ast.walk(node.test):
            if isinstance(cmp, ast.Compare) and isinstance(cmp.left, ast.Name) and \
                    cmp.left.id == "op" and isinstance(cmp.ops[0], ast.Eq):
                attr = cmp.comparators[0]
                module = getattr(tg.ops, _MODULES[attr.value.id])
                codes.append(getattr(module, attr.attr))
        calls = {c.func.attr for st in node.body for c in ast.walk(st)
                 if isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute)
                 and isinstance(c.func.value, ast.Name) and c.func.value.id in _MODULES}
        for code in codes:
            assert code not in out, f"opcode {code} has two branches in {fn_name}"
            out[code] = calls
    return out


REVERSE = _branches("_reverse_sweep")
FORWARD = _branches("_forward_replay")


@pytest.mark.parametrize("code", sorted(OPS), ids=lambda c: f"{c}-{NAMES.get(c, 'view')}")
def test_declared_rules_are_the_ones_dispatched(code):
    d = OPS[code]
    for chain, rule, kind in ((REVERSE, d.rev, "_rev"), (FORWARD, d.fwd, "_fwd")):
        called = {c for c in chain.get(code, ()) if c.endswith(kind)}
        if rule is None:
            assert not called, f"{d}: declared without a {kind} rule, its branch calls {called}"
        else:
            assert code in chain, f"{d}: no branch in the {kind[1:]} dispatch chain"
            assert rule.__name__ in chain[code], f"{d}: its branch calls {chain[code]}"


def test_every_dispatched_opcode_is_declared():
    # (but replay plans' own rows, never on a tape, so never declared: a saved tape holding
    # one fails validation as any unknown opcode)
    plan_only = {tg.ops.strided.BCAST, tg.ops.strided.SQSUM}
    assert not plan_only & set(OPS)
    for chain in (REVERSE, FORWARD, TANGENT, CURVATURE):
        assert set(chain) <= set(OPS) | plan_only


TANGENT = _branches("_tangent_sweep")
CURVATURE = _branches("_hvp_sweep")


@pytest.mark.parametrize("code", sorted(OPS), ids=lambda c: f"{c}-{NAMES.get(c, 'view')}")
def test_declared_forward_mode_rules_are_the_ones_dispatched(code):
    """An op's ``tan`` rule is what its branch of the tangent sweep calls, its ``curv`` rule
    what its branch of the forward-over-reverse sweep calls; ``ZERO`` ops have a branch that
    calls nothing, and an op without a rule has no branch (the sweep stops there)."""
    d = OPS[code]
    for chain, rule in ((TANGENT, d.tan), (CURVATURE, d.curv)):
        if rule is None:
            assert code not in chain, f"{d}: declared without a rule, yet dispatched"
        elif rule == registry.ZERO:  # (guard rows have no output: the sweeps pass them)
            assert not chain.get(code), f"{d}: {chain.get(code)}"
            assert code in chain or code in (tg.ops.control.GUARD, tg.ops.control.GUARD_EQ)
        else:
            assert code in chain and rule.__name__ in chain[code], (d, chain.get(code))


# Ops whose forward mode is still computed by transposition (the tangent sweep stops at
# them and jvp/jacfwd fall back for that graph), and ops whose HVP is reverse over reverse.
# Shrink these lists as rules are added; a new op must not join them silently.
NO_TANGENT_RULE = {"CUSTOM", "CUSTOM_OUT"}  # (a custom Function's own jvp is not run yet)
NO_CURVATURE_RULE = NO_TANGENT_RULE | {
    "PROD", "PROD_DIM", "NORM", "VAR", "STD", "POW", "ATAN2",
    "LSTM_CELL", "LSTM_H", "GRU_CELL"}  # (the cells' HVP: reverse over their create_graph vjp)


def _opcode_names():
    return {getattr(getattr(tg.ops, m), n): n for m in _MODULES.values()
            for n in dir(getattr(tg.ops, m)) if n.isupper() and
            isinstance(getattr(getattr(tg.ops, m), n), int) and
            getattr(getattr(tg.ops, m), n) in OPS}


def test_ops_without_forward_mode_rules_are_listed():
    names = _opcode_names()
    assert {names[c] for c, d in OPS.items() if d.tan is None} == NO_TANGENT_RULE
    assert {names[c] for c, d in OPS.items() if d.curv is None} == NO_CURVATURE_RULE


def test_every_op_with_a_reverse_rule_has_a_create_graph_vjp():
    missing = [d for d in OPS.values() if d.rev is not None and d.vjp is None]
    assert not missing
    assert VJP == {c: d.vjp for c, d in OPS.items() if d.vjp is not None}


def test_saved_value_flags_are_derived_from_the_declarations():
    for letter in "aAbBo":
        flags = inplace._FLAGS[letter]
        for code, d in OPS.items():
            assert flags[code] == (letter in d.saves), (d, letter)
        assert not flags[-1]  # unknown opcodes are never checked


def test_reads_default_to_what_is_saved_and_name_only_operands():
    for d in OPS.values():
        assert set(d.reads) <= set("abo"), d
        assert set(d.saves.lower()) <= set(d.reads), d  # a saved operand is read


def test_node_names_and_graph_inputs_come_from_the_registry():
    x = tg.tensor([1.0, 2.0], requires_grad=True)
    y = tg.cat([x * 2.0, x.log2()])
    assert y.grad_fn.name() == "CatBackward0"
    names = sorted(f[0].name() for f in y.grad_fn.next_functions)
    assert names == ["Log2Backward0", "MulBackward0"]
    rows = np.frombuffer(y._tok.tape.rows, np.int64).reshape(-1, 5)
    meta = np.frombuffer(y._tok.tape.meta, np.int64)
    r = len(rows) - 1
    assert graph.input_slots(rows, meta, r) == [int(rows[0, 1]), int(rows[1, 1])]


def test_api_declarations_are_the_methods_and_exports():
    for name, (fn, method, export) in API.items():
        if method:  # the function itself, or (one with a dim) taking axis= (ops/out.py)
            bound = getattr(tg.Tensor, name)
            assert bound is fn or (bound.__wrapped__ is fn and takes_dim(fn)), name
        if export:  # the function itself, taking out= (ops/out.py)
            assert getattr(tg, name).__wrapped__ is fn and name in tg.__all__, name
    assert tg.log2.__wrapped__ is tg.Tensor.log2 and "log2" in tg.__all__


def test_the_registry_refuses_a_second_or_a_late_declaration():
    with pytest.raises(ImportError, match="frozen"):
        registry.declare(250, "LateBackward0")
    assert 250 not in OPS
    frozen = registry._frozen[:]
    registry._frozen.clear()
    try:
        with pytest.raises(ImportError, match="declared twice"):
            registry.declare(1, "AddAgainBackward0")
        with pytest.raises(ValueError, match="saves"):
            registry.declare(251, "BadBackward0", saves="q")
    finally:
        registry._frozen[:] = frozen
    assert OPS[1].node == "AddBackward0" and 251 not in OPS


def test_log2_lives_in_its_family_module_and_two_dispatch_lines():
    """The worked example: adding log2 touched ops/elementwise.py (its block and spec row)
    and the four dispatch chains of _sweep.py (reverse, replay, tangent, forward over
    reverse), and, optionally, its template in replay/fused.py (without one, a tape
    using it stays interpreted); nothing else in the library (_ieee_math.py
    names math.log2 as the Python form of every rule's math, not as an op; foreach.py
    lists PyTorch's ``_foreach_`` names, which map each name to the op's function;
    _torch_words.py, generated, PyTorch's words for each op called without arguments)."""
    files = sorted(str(p.relative_to(PKG)) for p in PKG.rglob("*.py")
                   if p.name not in ("_ieee_math.py", "foreach.py", "_torch_words.py")
                   and re.search(r"\blog2\b|\bLOG2\b", p.read_text()))
    assert files == ["_sweep.py", "ops/elementwise.py", "replay/fused.py"]
    assert len(re.findall(r"\bE\.LOG2\b", (PKG / "replay" / "fused.py").read_text())) == 1
    assert len(re.findall(r"\bE\.LOG2\b", (PKG / "_sweep.py").read_text())) == 4


def test_log2_gradients():
    x = tg.tensor([0.5, 2.0, 8.0], requires_grad=True)
    y = x.log2()
    np.testing.assert_allclose(np.asarray(y.detach()), [-1.0, 1.0, 3.0], rtol=1e-15)
    (g,) = tg.autograd.grad(y.sum(), x, create_graph=True)
    np.testing.assert_allclose(np.asarray(g.detach()), 1 / (np.array([0.5, 2, 8]) * np.log(2)))
    (h,) = tg.autograd.grad(g.sum(), x)
    np.testing.assert_allclose(np.asarray(h), -1 / (np.array([0.5, 2, 8]) ** 2 * np.log(2)))
    assert y.grad_fn.name() == "Log2Backward0"
    f = tg.trace(lambda t: t.log2().sum(), [1.0, 4.0])
    np.testing.assert_allclose(f.grad_batch(np.array([[1.0, 4.0], [2.0, 0.5]])),
                               1 / (np.array([[1.0, 4.0], [2.0, 0.5]]) * np.log(2)))
