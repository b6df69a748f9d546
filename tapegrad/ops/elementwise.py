"""Elementwise ops: one block per primitive (opcode, eager forward, Numba forward and
reverse rules).  Rules work on equal-sized flat ranges: ``o``, ``a``, ``b`` are offsets
into the arenas, ``n`` the length; broadcasting was made explicit by EXPAND rows.
Scalar operands (``x * 2.5``) come from the const pool as ``c`` (the ``_C`` variants).
"""
import math
import operator

import numpy as np

from .._jit import rule
from ._record import Binary, Unary, make_binary, make_unary
from .spec import Spec

NAMES = {}


def _sigmoid_np(x):
    # exp of a non-positive argument only: no overflow at either end
    e = np.exp(-np.abs(x))
    return np.where(x >= 0, 1 / (1 + e), e / (1 + e))


def _sigmoid_py(x):
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


# ---- add ----------------------------------------------------------------------------
ADD, ADD_C = 1, 6
NAMES[ADD] = NAMES[ADD_C] = "AddBackward0"
_ADD = Binary(ADD, ADD_C, ADD_C, "add", operator.add, np.add, False)


@rule
def add_fwd(vals, o, a, b, n):
    for i in range(n):
        vals[o + i] = vals[a + i] + vals[b + i]


@rule
def add_rev(adj, vals, o, a, b, n):
    # d(a + b) = da + db
    for i in range(n):
        adj[a + i] += adj[o + i]
        adj[b + i] += adj[o + i]


@rule
def add_c_fwd(vals, o, a, c, n):
    for i in range(n):
        vals[o + i] = vals[a + i] + c


@rule
def pass_rev(adj, o, a, n):
    # d(x + c) = dx; also the rule of x - c and of every flat copy (reshape, view)
    for i in range(n):
        adj[a + i] += adj[o + i]


add = make_binary(_ADD, "``input + other``, broadcasting.")


# ---- sub ----------------------------------------------------------------------------
SUB, SUB_C, RSUB_C = 2, 26, 9
NAMES[SUB] = NAMES[SUB_C] = "SubBackward0"
NAMES[RSUB_C] = "RsubBackward1"
_SUB = Binary(SUB, SUB_C, RSUB_C, "sub", operator.sub, np.subtract, False)


@rule
def sub_fwd(vals, o, a, b, n):
    for i in range(n):
        vals[o + i] = vals[a + i] - vals[b + i]


@rule
def sub_rev(adj, vals, o, a, b, n):
    # d(a - b) = da - db
    for i in range(n):
        adj[a + i] += adj[o + i]
        adj[b + i] -= adj[o + i]


@rule
def sub_c_fwd(vals, o, a, c, n):
    for i in range(n):
        vals[o + i] = vals[a + i] - c


@rule
def rsub_c_fwd(vals, o, a, c, n):
    for i in range(n):
        vals[o + i] = c - vals[a + i]


@rule
def neg_rev(adj, o, a, n):
    # d(c - x) = d(-x) = -dx
    for i in range(n):
        adj[a + i] -= adj[o + i]


sub = make_binary(_SUB, "``input - other``, broadcasting.")
rsub = make_binary(_SUB, "``other - input`` (``2 - x``).", reflected=True)


# ---- mul ----------------------------------------------------------------------------
MUL, MUL_C = 3, 7
NAMES[MUL] = NAMES[MUL_C] = "MulBackward0"
_MUL = Binary(MUL, MUL_C, MUL_C, "mul", operator.mul, np.multiply, False)


@rule
def mul_fwd(vals, o, a, b, n):
    for i in range(n):
        vals[o + i] = vals[a + i] * vals[b + i]


@rule
def mul_rev(adj, vals, o, a, b, n):
    # d(ab) = b da + a db   (a == b for x * x: both terms land on x)
    for i in range(n):
        gy = adj[o + i]
        adj[a + i] += gy * vals[b + i]
        adj[b + i] += gy * vals[a + i]


@rule
def mul_c_fwd(vals, o, a, c, n):
    for i in range(n):
        vals[o + i] = vals[a + i] * c


@rule
def mul_c_rev(adj, o, a, c, n):
    # d(cx) = c dx
    for i in range(n):
        adj[a + i] += adj[o + i] * c


mul = make_binary(_MUL, "``input * other``, broadcasting.")


# ---- div ----------------------------------------------------------------------------
DIV, DIV_C, RDIV_C = 4, 8, 10
NAMES[DIV] = NAMES[DIV_C] = "DivBackward0"
NAMES[RDIV_C] = "MulBackward0"  # PyTorch computes c / x as reciprocal(x) * c
_DIV = Binary(DIV, DIV_C, RDIV_C, "div", operator.truediv, np.true_divide, True)


@rule
def div_fwd(vals, o, a, b, n):
    for i in range(n):
        vals[o + i] = vals[a + i] / vals[b + i]


@rule
def div_rev(adj, vals, o, a, b, n):
    # d(a / b) = da / b - a db / b^2
    for i in range(n):
        gy = adj[o + i]
        bv = vals[b + i]
        adj[a + i] += gy / bv
        adj[b + i] -= gy * vals[a + i] / (bv * bv)


@rule
def div_c_fwd(vals, o, a, c, n):
    for i in range(n):
        vals[o + i] = vals[a + i] / c


@rule
def div_c_rev(adj, o, a, c, n):
    # d(x / c) = dx / c
    for i in range(n):
        adj[a + i] += adj[o + i] / c


@rule
def rdiv_c_fwd(vals, o, a, c, n):
    for i in range(n):
        vals[o + i] = c / vals[a + i]


@rule
def rdiv_c_rev(adj, vals, o, a, n):
    # d(c / x) = -(c / x) / x dx = -y / x dx
    for i in range(n):
        adj[a + i] -= adj[o + i] * vals[o + i] / vals[a + i]


div = make_binary(_DIV, "``input / other`` (true division), broadcasting.")
rdiv = make_binary(_DIV, "``other / input`` (``2 / x``).", reflected=True)


# ---- pow ----------------------------------------------------------------------------
POW, POW_C, RPOW_C = 5, 11, 12
NAMES[POW] = "PowBackward1"
NAMES[POW_C] = "PowBackward0"
NAMES[RPOW_C] = "PowBackward2"
_POW = Binary(POW, POW_C, RPOW_C, "pow", operator.pow, np.power, False)


@rule
def pow_fwd(vals, o, a, b, n):
    for i in range(n):
        vals[o + i] = vals[a + i] ** vals[b + i]


@rule
def pow_rev(adj, vals, o, a, b, n):
    # d(a^b) = b a^(b-1) da + a^b log(a) db; PyTorch's masks: b == 0 gives 0 for da,
    # a == 0 with b >= 0 gives 0 for db (tests/test_ops.py pins both)
    for i in range(n):
        gy = adj[o + i]
        av = vals[a + i]
        bv = vals[b + i]
        if bv != 0.0:
            adj[a + i] += gy * bv * av ** (bv - 1.0)
        if not (av == 0.0 and bv >= 0.0):
            adj[b + i] += gy * vals[o + i] * math.log(av)


@rule
def pow_c_fwd(vals, o, a, c, n):
    if c == 2.0:  # x * x is exact and ~10x cheaper than pow(); so is x^2 in the rule below
        for i in range(n):
            vals[o + i] = vals[a + i] * vals[a + i]
    else:
        for i in range(n):
            vals[o + i] = vals[a + i] ** c


@rule
def pow_c_rev(adj, vals, o, a, c, n):
    # d(x^c) = c x^(c-1) dx, and 0 for c == 0 (PyTorch's convention at x = 0)
    if c == 2.0:
        for i in range(n):
            adj[a + i] += adj[o + i] * 2.0 * vals[a + i]
    elif c != 0.0:
        for i in range(n):
            adj[a + i] += adj[o + i] * c * vals[a + i] ** (c - 1.0)


@rule
def rpow_c_fwd(vals, o, a, c, n):
    for i in range(n):
        vals[o + i] = c ** vals[a + i]


@rule
def rpow_c_rev(adj, vals, o, a, c, n):
    # d(c^x) = c^x log(c) dx, and 0 for c == 0 with x >= 0 (PyTorch's mask)
    lc = math.log(c) if c > 0.0 else math.nan
    for i in range(n):
        if not (c == 0.0 and vals[a + i] >= 0.0):
            adj[a + i] += adj[o + i] * vals[o + i] * lc


pow = make_binary(_POW, "``input ** exponent``, broadcasting.")
rpow = make_binary(_POW, "``exponent ** input`` (``2 ** x``).", reflected=True)


# ---- unary ops: y = f(x); rules read the saved x or the saved y --------------------------
NEG = 13
NAMES[NEG] = "NegBackward0"
_NEG = Unary(NEG, "neg", operator.neg, np.negative)


@rule
def neg_fwd(vals, o, a, n):
    for i in range(n):
        vals[o + i] = -vals[a + i]


neg = make_unary(_NEG, "``-input``.")


ABS = 14
NAMES[ABS] = "AbsBackward0"
_ABS = Unary(ABS, "abs", abs, np.abs)


@rule
def abs_fwd(vals, o, a, n):
    for i in range(n):
        vals[o + i] = math.fabs(vals[a + i])


@rule
def abs_rev(adj, vals, o, a, n):
    # d|x| = sign(x) dx, with sign(0) = 0 as PyTorch (pinned in test_ops)
    for i in range(n):
        x = vals[a + i]
        if x > 0.0:
            adj[a + i] += adj[o + i]
        elif x < 0.0:
            adj[a + i] -= adj[o + i]
        elif x != x:
            adj[a + i] += math.nan


abs = make_unary(_ABS, "``|input|``.")


EXP = 15
NAMES[EXP] = "ExpBackward0"
_EXP = Unary(EXP, "exp", math.exp, np.exp)


@rule
def exp_fwd(vals, o, a, n):
    for i in range(n):
        vals[o + i] = math.exp(vals[a + i])


@rule
def exp_rev(adj, vals, o, a, n):
    # d e^x = e^x dx = y dx
    for i in range(n):
        adj[a + i] += adj[o + i] * vals[o + i]


exp = make_unary(_EXP, "``e ** input``.")


LOG = 16
NAMES[LOG] = "LogBackward0"
_LOG = Unary(LOG, "log", math.log, np.log)


@rule
def log_fwd(vals, o, a, n):
    for i in range(n):
        x = vals[a + i]
        vals[o + i] = math.log(x) if x > 0.0 else (-math.inf if x == 0.0 else math.nan)


@rule
def log_rev(adj, vals, o, a, n):
    # d log x = dx / x
    for i in range(n):
        adj[a + i] += adj[o + i] / vals[a + i]


log = make_unary(_LOG, "Natural logarithm.")


LOG1P = 17
NAMES[LOG1P] = "Log1PBackward0"
_LOG1P = Unary(LOG1P, "log1p", math.log1p, np.log1p)


@rule
def log1p_fwd(vals, o, a, n):
    for i in range(n):
        x = vals[a + i]
        vals[o + i] = math.log1p(x) if x > -1.0 else (-math.inf if x == -1.0 else math.nan)


@rule
def log1p_rev(adj, vals, o, a, n):
    # d log(1 + x) = dx / (1 + x)
    for i in range(n):
        adj[a + i] += adj[o + i] / (1.0 + vals[a + i])


log1p = make_unary(_LOG1P, "``log(1 + input)``, accurate near 0.")


EXPM1 = 18
NAMES[EXPM1] = "Expm1Backward0"
_EXPM1 = Unary(EXPM1, "expm1", math.expm1, np.expm1)


@rule
def expm1_fwd(vals, o, a, n):
    for i in range(n):
        vals[o + i] = math.expm1(vals[a + i])


@rule
def expm1_rev(adj, vals, o, a, n):
    # d (e^x - 1) = e^x dx = (y + 1) dx
    for i in range(n):
        adj[a + i] += adj[o + i] * (vals[o + i] + 1.0)


expm1 = make_unary(_EXPM1, "``exp(input) - 1``, accurate near 0.")


SQRT = 19
NAMES[SQRT] = "SqrtBackward0"
_SQRT = Unary(SQRT, "sqrt", math.sqrt, np.sqrt)


@rule
def sqrt_fwd(vals, o, a, n):
    for i in range(n):
        x = vals[a + i]
        vals[o + i] = math.sqrt(x) if x >= 0.0 else math.nan


@rule
def sqrt_rev(adj, vals, o, a, n):
    # d sqrt(x) = dx / (2 sqrt(x)) = dx / (2 y)
    for i in range(n):
        adj[a + i] += adj[o + i] / (2.0 * vals[o + i])


sqrt = make_unary(_SQRT, "Square root.")


SIN = 20
NAMES[SIN] = "SinBackward0"
_SIN = Unary(SIN, "sin", math.sin, np.sin)


@rule
def sin_fwd(vals, o, a, n):
    for i in range(n):
        vals[o + i] = math.sin(vals[a + i])


@rule
def sin_rev(adj, vals, o, a, n):
    # d sin x = cos x dx
    for i in range(n):
        adj[a + i] += adj[o + i] * math.cos(vals[a + i])


sin = make_unary(_SIN, "Sine.")


COS = 21
NAMES[COS] = "CosBackward0"
_COS = Unary(COS, "cos", math.cos, np.cos)


@rule
def cos_fwd(vals, o, a, n):
    for i in range(n):
        vals[o + i] = math.cos(vals[a + i])


@rule
def cos_rev(adj, vals, o, a, n):
    # d cos x = -sin x dx
    for i in range(n):
        adj[a + i] -= adj[o + i] * math.sin(vals[a + i])


cos = make_unary(_COS, "Cosine.")


TAN = 22
NAMES[TAN] = "TanBackward0"
_TAN = Unary(TAN, "tan", math.tan, np.tan)


@rule
def tan_fwd(vals, o, a, n):
    for i in range(n):
        vals[o + i] = math.tan(vals[a + i])


@rule
def tan_rev(adj, vals, o, a, n):
    # d tan x = (1 + tan^2 x) dx = (1 + y^2) dx
    for i in range(n):
        y = vals[o + i]
        adj[a + i] += adj[o + i] * (1.0 + y * y)


tan = make_unary(_TAN, "Tangent.")


TANH = 23
NAMES[TANH] = "TanhBackward0"
_TANH = Unary(TANH, "tanh", math.tanh, np.tanh)


@rule
def tanh_fwd(vals, o, a, n):
    for i in range(n):
        vals[o + i] = math.tanh(vals[a + i])


@rule
def tanh_rev(adj, vals, o, a, n):
    # d tanh x = (1 - y^2) dx
    for i in range(n):
        y = vals[o + i]
        adj[a + i] += adj[o + i] * (1.0 - y * y)


tanh = make_unary(_TANH, "Hyperbolic tangent.")


SIGMOID = 24
NAMES[SIGMOID] = "SigmoidBackward0"
_SIGMOID = Unary(SIGMOID, "sigmoid", _sigmoid_py, _sigmoid_np)


@rule
def sigmoid_fwd(vals, o, a, n):
    for i in range(n):
        x = vals[a + i]
        if x >= 0.0:
            vals[o + i] = 1.0 / (1.0 + math.exp(-x))
        else:
            e = math.exp(x)
            vals[o + i] = e / (1.0 + e)


@rule
def sigmoid_rev(adj, vals, o, a, n):
    # d s(x) = s (1 - s) dx = y (1 - y) dx
    for i in range(n):
        y = vals[o + i]
        adj[a + i] += adj[o + i] * y * (1.0 - y)


sigmoid = make_unary(_SIGMOID, "Logistic sigmoid ``1 / (1 + exp(-x))``, stable at both ends.")


RELU = 25
NAMES[RELU] = "ReluBackward0"
_RELU = Unary(RELU, "relu", lambda x: 0.0 if x <= 0.0 else x,
              lambda x: np.where(x <= 0, np.zeros((), np.asarray(x).dtype), x))


@rule
def relu_fwd(vals, o, a, n):
    for i in range(n):
        x = vals[a + i]
        vals[o + i] = 0.0 if x <= 0.0 else x


@rule
def relu_rev(adj, vals, o, a, n):
    # d relu x = [y > 0] dx: 0 at x = 0, as PyTorch (pinned in test_ops)
    for i in range(n):
        if vals[o + i] > 0.0:
            adj[a + i] += adj[o + i]


relu = make_unary(_RELU, "``max(input, 0)``; its gradient at 0 is 0.")


# ---- spec rows ----------------------------------------------------------------------
SPECS = [
    Spec("add", lambda a, b: a + b, lambda np_, a, b: a + b, arity=2),
    Spec("sub", lambda a, b: a - b, lambda np_, a, b: a - b, arity=2),
    Spec("mul", lambda a, b: a * b, lambda np_, a, b: a * b, arity=2),
    Spec("div", lambda a, b: a / b, lambda np_, a, b: a / b, arity=2, domain=(0.5, 2.0)),
    Spec("pow", lambda a, b: a ** b, lambda np_, a, b: a ** b, arity=2, domain=(0.5, 2.0),
         pinned=(((0.0, 2.0), (0.0, 0.0)), ((2.0, 0.0), (0.0, 0.6931471805599453)))),
    Spec("add_c", lambda x: x + 2.5, lambda np_, x: x + 2.5),
    Spec("radd_c", lambda x: 2.5 + x, lambda np_, x: 2.5 + x),
    Spec("sub_c", lambda x: x - 2.5, lambda np_, x: x - 2.5),
    Spec("rsub_c", lambda x: 2.5 - x, lambda np_, x: 2.5 - x),
    Spec("mul_c", lambda x: x * 2.5, lambda np_, x: x * 2.5),
    Spec("rmul_c", lambda x: 2.5 * x, lambda np_, x: 2.5 * x),
    Spec("div_c", lambda x: x / 2.5, lambda np_, x: x / 2.5),
    Spec("rdiv_c", lambda x: 2.5 / x, lambda np_, x: 2.5 / x, domain=(0.5, 2.0)),
    Spec("pow_c", lambda x: x ** 3, lambda np_, x: x ** 3,
         pinned=(((0.0,), (0.0,)),)),
    Spec("pow_c_frac", lambda x: x ** 0.5, lambda np_, x: x ** 0.5, domain=(0.5, 2.0)),
    Spec("pow_c_zero", lambda x: x ** 0, lambda np_, x: x ** 0 + 0 * x,
         pinned=(((0.0,), (0.0,)),)),
    Spec("rpow_c", lambda x: 2.5 ** x, lambda np_, x: 2.5 ** x),
    Spec("neg", lambda x: -x, lambda np_, x: -x),
    Spec("abs", lambda x: x.abs(), lambda np_, x: np_.abs(x), domain=(0.1, 2.0),
         pinned=(((0.0,), (0.0,)), ((-1.5,), (-1.0,)))),
    Spec("exp", lambda x: x.exp(), lambda np_, x: np_.exp(x)),
    Spec("log", lambda x: x.log(), lambda np_, x: np_.log(x), domain=(0.1, 3.0)),
    Spec("log1p", lambda x: x.log1p(), lambda np_, x: np_.log1p(x), domain=(-0.9, 3.0)),
    Spec("expm1", lambda x: x.expm1(), lambda np_, x: np_.expm1(x)),
    Spec("sqrt", lambda x: x.sqrt(), lambda np_, x: np_.sqrt(x), domain=(0.1, 3.0)),
    Spec("sin", lambda x: x.sin(), lambda np_, x: np_.sin(x)),
    Spec("cos", lambda x: x.cos(), lambda np_, x: np_.cos(x)),
    Spec("tan", lambda x: x.tan(), lambda np_, x: np_.tan(x), domain=(-1.2, 1.2)),
    Spec("tanh", lambda x: x.tanh(), lambda np_, x: np_.tanh(x)),
    Spec("sigmoid", lambda x: x.sigmoid(), lambda np_, x: 1 / (1 + np_.exp(-x)),
         pinned=(((-800.0,), (0.0,)), ((800.0,), (0.0,)))),
    Spec("relu", lambda x: x.relu(), lambda np_, x: np_.maximum(x, 0.0), domain=(0.1, 2.0),
         pinned=(((0.0,), (0.0,)), ((-1.0,), (0.0,)))),
    Spec("relu_neg", lambda x: x.relu(), lambda np_, x: np_.maximum(x, 0.0),
         domain=(-2.0, -0.1)),
]
