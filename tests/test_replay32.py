"""Replay around values Python reads from a trace (round 32): what a guard or a captured
constant compares must tell apart every value f can tell apart.  -0.0 == 0.0 in IEEE
arithmetic, yet f can branch on the sign of a zero (``math.copysign``, ``1 / x``,
``math.atan2``, its ``str``): a trace at 0.0 replayed at -0.0 gave f's answer at 0.0.
Each test compares replay with f run eagerly at the same point."""
import copy
import math
import os

import numpy as np
import pytest

import tapegrad as tg


def _eager(f, x):
    xt = tg.tensor(x, requires_grad=True)
    y = f(xt)
    g, = tg.autograd.grad(y, xt)
    return float(y), g.numpy()


def _by_sign(x):  # (item(): a GUARD_EQ row)
    return x[1] * math.copysign(1.0, x[0].item())


def _by_atan2(x):  # (float(t): the same guard)
    return x[1] * math.atan2(float(x[0]), -1.0)


def _by_reciprocal(x):  # (the value read back into the graph)
    return x[1] / tg.tensor(x[0].item())


POS, NEG = np.array([0.0, 2.0]), np.array([-0.0, 2.0])


@pytest.mark.parametrize("f", [_by_sign, _by_atan2, _by_reciprocal])
@pytest.mark.parametrize("first,then", [(POS, NEG), (NEG, POS)])
def test_compile_retraces_at_the_other_zero(f, first, then):
    F = tg.compile(f)
    F(first)
    v, g = _eager(f, then)
    assert float(F(then)) == v
    np.testing.assert_array_equal(F.grad(then), g)
    V, G = F.value_and_grad_batch(np.stack([first, then]))
    assert V.tolist() == [_eager(f, first)[0], v]


@pytest.mark.parametrize("f", [_by_sign, _by_atan2])
def test_trace_refuses_the_other_zero(f):
    T = tg.jit.trace(f, POS)
    with pytest.raises(tg.DivergenceError):
        T.value(NEG)
    V = T.value_batch(np.stack([POS, NEG, POS]), on_divergence="mask")
    assert T.mask.tolist() == [True, False, True]
    assert V[0] == _eager(f, POS)[0] and np.isnan(V[1])


@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT", "0") == "1",
                    reason="fused kernels are off under NUMBA_DISABLE_JIT=1")
def test_fused_kernel_refuses_the_other_zero():
    T = tg.jit.trace(_by_sign, POS)
    assert T.compile_fused(wait=True) == "fused"
    X = np.stack([POS, NEG] * 4)
    V = T.value_batch(X, on_divergence="mask")
    assert T.mask is not None, "no point diverged"
    assert T.mask.tolist() == [True, False] * 4
    assert (V[::2] == 2.0).all() and np.isnan(V[1::2]).all()


def test_loaded_trace_refuses_the_other_zero(tmp_path):
    tg.jit.trace(_by_sign, POS).save(tmp_path / "t.npz")
    T = tg.jit.load(tmp_path / "t.npz")
    with pytest.raises(tg.DivergenceError):
        T.value(NEG)


SIGN = 0.0


class _Sign:
    def __init__(self):
        self.sign = 0.0


SIGN_OBJ = _Sign()


def _reads_global(x):
    return (x * math.copysign(1.0, SIGN)).sum()


def _reads_attribute(x):
    return (x * math.copysign(1.0, SIGN_OBJ.sign)).sum()


@pytest.mark.parametrize("f,set_neg,set_pos", [
    (_reads_global, lambda: globals().__setitem__("SIGN", -0.0),
     lambda: globals().__setitem__("SIGN", 0.0)),
    (_reads_attribute, lambda: setattr(SIGN_OBJ, "sign", -0.0),
     lambda: setattr(SIGN_OBJ, "sign", 0.0))])
def test_captured_zero_changing_sign_retraces(f, set_neg, set_pos):
    x = np.array([1.0, 2.0])
    F = tg.compile(f)
    try:
        assert float(F(x)) == 3.0
        set_neg()
        assert float(F(x)) == _eager(f, x)[0] == -3.0
        np.testing.assert_array_equal(F.grad(x), [-1.0, -1.0])
        set_pos()
        assert float(F(x)) == 3.0
    finally:
        set_pos()


def test_captured_closure_zero_changing_sign_retraces():
    s = 0.0

    def f(x):
        return (x * math.copysign(1.0, s)).sum()

    F = tg.compile(f)
    x = np.array([1.0, 2.0])
    assert float(F(x)) == 3.0
    s = -0.0  # noqa: F841 (read by f through its cell)
    assert float(F(x)) == -3.0


# 1 == True == 1.0 too, yet tg.tensor / tg.full make an int64, a bool or a float64 of them
# (True + True is True: f below gives 6 at C = 1 and 3 at C = True)
C = 1
MIXED = (np.ones(1), 1)  # (a tuple holding an array: compared element by element)


class _Cfg:
    c = 1


CFG_OBJ = _Cfg()


def _sums_global(x):
    return (x * (tg.full((1,), C) + tg.full((1,), C))).sum()


def _sums_mixed(x):
    return (x * (tg.tensor(MIXED[1]) + tg.tensor(MIXED[1]))).sum()


def _sums_attribute(x):
    return (x * (tg.tensor(CFG_OBJ.c) + tg.tensor(CFG_OBJ.c))).sum()


def _set(name, v):
    globals()[name] = v


@pytest.mark.parametrize("f,to_bool,back", [
    (_sums_global, lambda: _set("C", True), lambda: _set("C", 1)),
    (_sums_mixed, lambda: _set("MIXED", (MIXED[0], True)), lambda: _set("MIXED", (MIXED[0], 1))),
    (_sums_attribute, lambda: setattr(CFG_OBJ, "c", True), lambda: setattr(CFG_OBJ, "c", 1))])
def test_captured_number_changing_type_retraces(f, to_bool, back):
    x = np.array([1.0, 2.0])
    F = tg.compile(f)
    try:
        assert float(F(x)) == _eager(f, x)[0] == 6.0
        to_bool()
        assert float(F(x)) == _eager(f, x)[0] == 3.0
        back()
        assert float(F(x)) == 6.0
    finally:
        back()


def test_closure_number_changing_type_retraces():
    c = 1

    def f(x):
        return (x * (tg.tensor(c) + tg.tensor(c))).sum()

    F = tg.compile(f)
    x = np.array([1.0, 2.0])
    assert float(F(x)) == 6.0
    c = True  # noqa: F841 (read by f through its cell)
    assert float(F(x)) == _eager(f, x)[0] == 3.0


# an attribute f reads of an object that its class holds (a default setting): setting it
# on the instance shadows the class's, which was all that was watched
class _Defaults:
    scale = 1.0


class _Sub(_Defaults):
    pass


DEFAULTS = _Defaults()


def _reads_class_default(x):
    return (x * DEFAULTS.scale).sum()


def _reads_inherited(x):
    return (x * _Sub.scale).sum()


@pytest.mark.parametrize("f,change", [
    (_reads_class_default, lambda v: setattr(DEFAULTS, "scale", v)),  # (shadows the class's)
    (_reads_class_default, lambda v: setattr(_Defaults, "scale", v)),
    (_reads_inherited, lambda v: setattr(_Sub, "scale", v)),  # (shadows the base's)
    (_reads_inherited, lambda v: setattr(_Defaults, "scale", v))])
def test_class_attribute_changed_or_shadowed_retraces(f, change):
    x = np.array([1.0, 2.0])
    F = tg.compile(f)
    try:
        assert float(F(x)) == 3.0
        change(5.0)
        assert float(F(x)) == _eager(f, x)[0] == 15.0
    finally:
        for o in (DEFAULTS, _Sub):
            o.__dict__.get("scale") is None or delattr(o, "scale")
        _Defaults.scale = 1.0
    assert float(F(x)) == 3.0


class _Scaled(tg.nn.Module):
    scale = 2.0  # (a class attribute the forward reads as self.scale)

    def forward(self, x):
        return (x * self.scale).sum()


def test_module_class_attribute_shadowed_retraces():
    m = _Scaled()
    F = tg.compile(m)
    x = np.array([1.0, 2.0])
    assert float(F(x)) == 6.0
    m.scale = 3.0
    assert float(F(x)) == float(m(tg.tensor(x))) == 9.0


class _Computed:
    def __init__(self):
        self._s = 1.0

    @property
    def scale(self):  # (its reads are f's: self._s)
        return self._s


COMPUTED = _Computed()


def _reads_property(x):
    return (x * COMPUTED.scale).sum()


def test_property_reads_are_watched():
    x = np.array([1.0, 2.0])
    F = tg.compile(_reads_property)
    try:
        assert float(F(x)) == 3.0
        COMPUTED._s = 5.0
        assert float(F(x)) == _eager(_reads_property, x)[0] == 15.0
    finally:
        COMPUTED._s = 1.0


# methods of an object f finds (not f's own self) and class-level members: their reads are
# f's too (docs/replay.md: "the functions of your code it names ... transitively")
SG = 1.0


class _Methods:
    scale = 1.0

    def __init__(self):
        self._s = 1.0

    def get(self):
        return self._s

    @classmethod
    def cget(cls):
        return cls.scale

    @staticmethod
    def sget():
        return SG


class _Slotted:
    __slots__ = ("scale",)

    def __init__(self):
        self.scale = 1.0


METHODS, SLOTTED = _Methods(), _Slotted()


def _calls_method(x):
    return (x * METHODS.get()).sum()


def _calls_classmethod(x):
    return (x * METHODS.cget()).sum()


def _calls_classmethod_of_class(x):
    return (x * _Methods.cget()).sum()


def _calls_staticmethod(x):
    return (x * METHODS.sget()).sum()


def _reads_slot(x):
    return (x * SLOTTED.scale).sum()


def _reset_methods():
    METHODS._s, _Methods.scale, SLOTTED.scale = 1.0, 1.0, 1.0
    globals()["SG"] = 1.0


@pytest.mark.parametrize("f,change", [
    (_calls_method, lambda: setattr(METHODS, "_s", 5.0)),
    (_calls_classmethod, lambda: setattr(_Methods, "scale", 5.0)),
    (_calls_classmethod_of_class, lambda: setattr(_Methods, "scale", 5.0)),
    (_calls_staticmethod, lambda: globals().__setitem__("SG", 5.0)),
    (_reads_slot, lambda: setattr(SLOTTED, "scale", 5.0))])
def test_methods_and_slots_of_found_objects_are_watched(f, change):
    x = np.array([1.0, 2.0])
    F = tg.compile(f)
    try:
        assert float(F(x)) == 3.0
        change()
        assert float(F(x)) == _eager(f, x)[0] == 15.0
    finally:
        _reset_methods()
    assert float(F(x)) == 3.0


# copy.copy / copy.deepcopy of a traced tensor: the copy held the traced tensor's slot, so
# to replay it was the tensor itself (a gradient through it counted twice), where PyTorch
# makes a new leaf.  Refused while tracing; eager copies are unchanged (against PyTorch)
def _deepcopies(x):
    return (copy.deepcopy(x) * x).sum()


def _copies(x):
    return (copy.copy(x) * x).sum()


def _deepcopies_computed(x):
    y = x * 2.0
    return (copy.deepcopy(y.detach()) * x).sum()


@pytest.mark.parametrize("f", [_deepcopies, _copies, _deepcopies_computed])
def test_copy_of_a_traced_tensor_is_refused(f):
    with pytest.raises(RuntimeError, match=r"copy\.(deep)?copy of a traced tensor.*clone\(\)"):
        tg.jit.trace(f, np.array([0.3, 0.7]))
    F = tg.compile(f)
    with pytest.raises(RuntimeError, match="clone"):
        F(np.array([0.3, 0.7]))


@pytest.mark.parametrize("how", [copy.copy, copy.deepcopy])
def test_eager_copies_match_torch(how):
    torch = pytest.importorskip("torch")
    got = []
    for M in (tg, torch):
        x = M.tensor([1.0, 2.0], requires_grad=True)
        (x * 3).sum().backward()  # (x holds a slot of the tape, and a .grad)
        c = how(x)
        (c * x * x).sum().backward()
        with M.no_grad():
            c.add_(1.0)  # (its own values)
        got.append([np.asarray(v.detach()).tolist() for v in (x, c, x.grad, c.grad)] +
                   [c.is_leaf, c.requires_grad])
    assert got[0] == got[1]
    p = tg.nn.Parameter(tg.ones(2))
    q = copy.deepcopy(p)
    assert type(q) is tg.nn.Parameter and q.requires_grad and q is not p


class _ByClass:
    scale = 1.0

    def by_type(self, x):
        return (x * type(self).scale).sum()

    def by_dunder(self, x):
        return (x * self.__class__.scale).sum()


@pytest.mark.parametrize("name", ["by_type", "by_dunder"])
def test_method_reading_its_class_attribute_retraces(name):
    m, x = _ByClass(), np.array([1.0, 2.0])
    F = tg.compile(getattr(m, name))
    try:
        assert float(F(x)) == 3.0
        m.scale = 1.0  # (the instance's own, which f does not read)
        _ByClass.scale = 5.0
        assert float(F(x)) == float(getattr(m, name)(tg.tensor(x))) == 15.0
    finally:
        _ByClass.scale = 1.0
