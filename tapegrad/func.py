"""``tapegrad.func``: ``torch.func``'s composable transforms on the eager tape: ``grad``,
``grad_and_value``, ``vjp``, ``jvp``, ``linearize``, ``jacrev``, ``jacfwd``, ``hessian``,
``vmap`` and ``functional_call``, with PyTorch's signatures, pytrees (tuples, lists, dicts)
and errors.

How they are built:
- reverse mode (``grad``, ``vjp``, ``jacrev``) is ``autograd.grad`` on a fresh copy of the
  differentiated inputs; when the result must stay differentiable (grad mode on and an
  input requires grad, inside another differentiating transform, or ``f`` read a tensor
  that requires grad, which the plain sweep notices) the gradient is recorded
  (``create_graph``), which is what makes ``grad(grad(f))``, ``jacrev(jacrev(f))``,
  ``hessian`` and an outer ``backward`` to a network's parameters work;
- forward mode (``jvp``, ``jacfwd``) is the compiled tangent sweep over f's recorded rows
  (``autograd/tangent.py``; ``jacfwd``: one sweep with a lane per input element), and
  ``jvp(grad(f))`` is forward over reverse (the tangent sweep, then the reverse sweep and
  its tangent).  Where those cannot run (a row without a rule, a result that must stay
  differentiable) and for ``linearize``, forward mode is computed by transposition of the
  reverse graph (``autograd/forward_ad.py``: ``J t`` as the vjp of the recorded
  ``u -> J^T u``);
- ``hessian`` is ``jacrev(jacrev(f))`` (PyTorch uses ``jacfwd(jacrev(f))``: the same
  values; with forward mode by transposition the reverse-over-reverse one is cheaper);
- ``vmap`` runs ``f`` once per batch element and stacks the results (``path == "loop"``),
  except ``vmap(grad(f))`` / ``vmap(grad_and_value(f))`` of a traceable scalar ``f``,
  which runs as one batch replay of one trace in compiled code (``path == "replay"``,
  ``tapegrad.compile``; points that take another branch than the traced one run eagerly:
  ``"replay+loop"``); ``repr`` and ``.path`` say which ran.

A transform's function receives tensors and works whether or not the caller is in
``no_grad`` (as in PyTorch, a transform ignores the grad mode outside it).

>>> import tapegrad as tg
>>> tg.func.grad(lambda x: (x ** 3).sum())(tg.tensor([1.0, 2.0]))
tensor([ 3., 12.])
"""
import contextlib
import functools
import threading

import numpy as np

from . import creation, dtypes
from .autograd import engine, tangent
from .autograd.forward_ad import transposed, transposed_jvp
from .autograd.function import TRANSFORMS
from .grad_mode import enable_grad, is_grad_enabled
from .nn.layers import _BatchNorm
from .ops.shape import stack
from .replay import Compiled
from .tensor import Tensor, _leaf, norm
from .utils._pytree import broadcast_prefix, tree_flatten, tree_unflatten


class _Depth(threading.local):
    n = 0  # differentiating transforms running f on this thread (grad inside jacrev, ...)


_depth = _Depth()


# ---- shared pieces ---------------------------------------------------------------------
def _check_argnums(argnums, nargs):
    """The positions differentiated: PyTorch's errors for bad ``argnums``."""
    if not isinstance(argnums, tuple):
        if not isinstance(argnums, int) or isinstance(argnums, bool):
            raise RuntimeError(f"argnums must be int or Tuple[int, ...], got: {type(argnums)}")
        argnums = (argnums,)
    elif not argnums:
        raise RuntimeError("argnums must be non-empty")
    for a in argnums:
        if not isinstance(a, int) or isinstance(a, bool):
            raise RuntimeError(f"argnum must be int, got: {type(a)}")
        if not -nargs <= a < nargs:
            raise RuntimeError(f"Got argnum={a}, but only {nargs} positional inputs")
    wrapped = tuple(a % nargs for a in argnums)
    if len(set(wrapped)) != len(wrapped):
        raise RuntimeError(f"argnums elements must be unique, got {wrapped}")


def _picked(args, argnums):
    return tuple(args[a] for a in argnums) if isinstance(argnums, tuple) else args[argnums]


def _replaced(args, argnums, new):
    args = list(args)
    for a, v in zip(argnums, new, strict=True) if isinstance(argnums, tuple) else \
            ((argnums, new),):
        args[a] = v
    return tuple(args)


def _tensors(leaves, where="Thing passed to transform API"):
    for x in leaves:
        if not isinstance(x, Tensor):
            raise ValueError(f"{where} must be Tensor, got {type(x)}")
        if not x.is_floating_point():
            raise RuntimeError("only Tensors of floating point dtype can require gradients")


def _connected(leaves):
    """Must the transform's result stay differentiable (its gradient recorded)?  Yes when
    grad mode is on and an input requires grad, or inside another differentiating transform
    (whose inputs ``f`` may close over).  (A parameter ``f`` reads is found later, by the
    sweep: ``_grads``.)"""
    return is_grad_enabled() and (_depth.n > 0 or any(x.requires_grad for x in leaves))


def _enter(x, connected):
    """The tensor ``f`` sees for input ``x``: a view on x's graph when the result must stay
    connected to it, else a fresh leaf (no perturbation confusion either way: each call
    differentiates with respect to its own tensor)."""
    return x.view_as(x) if connected and x.requires_grad else x.detach().requires_grad_(True)


def _entered(leaves, tangents=()):
    """``(the tensors f sees for leaves, connected)``: see ``_connected`` and ``_enter``
    (tangents that require grad connect jvp's result too)."""
    connected = _connected([*leaves, *tangents])
    with enable_grad():
        return [_enter(x, connected) for x in leaves], connected


def _call(func, args, kwargs, batched=False):
    """``func(*args, **kwargs)`` with grad mode on, one transform deeper (``batched``: one
    PyTorch runs as a vmap, jacfwd)."""
    _depth.n += 1
    try:
        with enable_grad(), _running(batched):
            return func(*args, **kwargs)
    finally:
        _depth.n -= 1


@contextlib.contextmanager
def _running(batched):
    """A transform runs f: custom Functions check PyTorch's rules (autograd/function.py)."""
    TRANSFORMS.every += 1
    TRANSFORMS.batched += batched
    try:
        yield
    finally:
        TRANSFORMS.every -= 1
        TRANSFORMS.batched -= batched


def _zeros_like(x):
    return _leaf(norm(np.zeros(tuple(x.shape), x.dtype)))


def _grads(outs, xs, seeds, connected, ignore=()):
    """``(gradients, connected)``: the gradients of ``outs`` (seeded) with respect to
    ``xs``, zeros where unused, the graph retained (``f`` may read tensors of the caller's
    graph).  Recorded when ``connected``; else one plain sweep, which also tells whether
    ``f`` closed over a tensor that requires grad (a parameter): with grad mode on, the
    gradients are then recorded after all and the result is connected, as PyTorch keeps
    the outer graph.  ``ignore``: tensors reached that do not count (the inputs of f)."""
    live = [(o, s) for o, s in zip(outs, seeds, strict=True) if o.requires_grad]
    gs = [None] * len(xs)
    if live and connected:
        with enable_grad():
            gs = engine.grad([o for o, _ in live], xs, [s for _, s in live],
                             retain_graph=True, create_graph=True, allow_unused=True)
    elif live:
        gs, others = engine.grad_and_others([o for o, _ in live], xs, [s for _, s in live],
                                            ignore)
        if others and is_grad_enabled():
            return _grads(outs, xs, seeds, True)
    return [_zeros_like(x) if g is None else g if connected else g.detach()
            for g, x in zip(gs, xs, strict=True)], connected


def _detached(tree, connected):
    if connected:
        return tree
    leaves, spec = tree_flatten(tree)
    return tree_unflatten([x.detach() if isinstance(x, Tensor) else x for x in leaves], spec)


def _split_aux(out, has_aux, api):
    if not has_aux:
        return out, None
    if not (isinstance(out, tuple) and len(out) == 2):
        raise RuntimeError(f"{api}: output of function f should be a tuple: (output, aux) if "
                           "has_aux is True")
    for x in tree_flatten(out[1])[0]:
        if not isinstance(x, Tensor):
            raise RuntimeError(f"Expected tensors, got unsupported type {type(x)}")
    return out


def _out_leaves(out, api):
    leaves, spec = tree_flatten(out)
    for o in leaves:
        if not isinstance(o, Tensor):
            raise RuntimeError(f"{api}: expected f(*primals) to return only tensors, got "
                               f"unsupported type {type(o)}")
    return leaves, spec


def _prepare(args, argnums):
    """(the differentiated leaves as f sees them, their spec, the new args, connected)."""
    _check_argnums(argnums, len(args))
    leaves, spec = tree_flatten(_picked(args, argnums))
    _tensors(leaves)
    xs, connected = _entered(leaves)
    return xs, spec, _replaced(args, argnums, tree_unflatten(xs, spec)), connected


# ---- reverse mode ------------------------------------------------------------------------
class _Transform:
    """A transformed function (what ``grad(f)`` returns): callable, and it tells ``vmap``
    what it is (vmap runs ``vmap(grad(f))`` of a traceable f as one batch replay)."""

    def __init__(self, kind, func, argnums, has_aux):
        self.kind, self.func, self.argnums, self.has_aux = kind, func, argnums, has_aux
        functools.update_wrapper(self, func, updated=())

    def __call__(self, *args, **kwargs):
        g, (value, aux), _ = _grad_and_value(self.func, self.argnums, self.has_aux, args,
                                             kwargs)
        if self.kind == "grad":
            return (g, aux) if self.has_aux else g
        return (g, (value, aux)) if self.has_aux else (g, value)

    def __repr__(self):
        return f"<tapegrad.func.{self.kind}({getattr(self.func, '__name__', self.func)})>"


def _grad_and_value(func, argnums, has_aux, args, kwargs):
    api = "grad_and_value(f)(*args)"
    xs, spec, new_args, connected = _prepare(args, argnums)
    out, aux = _split_aux(_call(func, new_args, kwargs), has_aux, api)
    if not isinstance(out, Tensor):
        raise RuntimeError(f"{api}: Expected f(*args) to return a Tensor, got {type(out)}")
    if out.dim() != 0:
        raise RuntimeError(f"{api}: Expected f(*args) to return a scalar Tensor, got tensor "
                           f"with {out.dim()} dims. Maybe you wanted to use the vjp or jacrev "
                           "APIs instead?")
    gs, connected = _grads([out], xs, [None], connected)
    return (tree_unflatten(gs, spec),
            (_detached(out, connected), _detached(aux, connected) if has_aux else None),
            connected)


def grad(func, argnums=0, has_aux=False):
    """The gradient of scalar ``func`` with respect to ``args[argnums]`` (int, or a tuple of
    ints for a tuple of gradients; each argument may be a pytree of tensors).  With
    ``has_aux``, ``func`` returns ``(output, aux)`` and ``grad`` returns ``(gradient, aux)``.

    >>> import tapegrad as tg
    >>> tg.func.grad(tg.func.grad(lambda x: x.sin()))(tg.tensor(0.5))
    tensor(-0.4794)
    """
    return _Transform("grad", func, argnums, has_aux)


def grad_and_value(func, argnums=0, has_aux=False):
    """``(gradient, value)`` (with has_aux: ``(gradient, (value, aux))``); see ``grad``."""
    return _Transform("grad_and_value", func, argnums, has_aux)


def vjp(func, *primals, has_aux=False):
    """``(func(*primals), vjp_fn)``: ``vjp_fn(cotangents)`` (a pytree shaped as the output)
    returns the tuple of vector-Jacobian products, one per primal (callable many times).
    With ``has_aux``: ``(output, vjp_fn, aux)``.

    >>> import tapegrad as tg
    >>> out, vjp_fn = tg.func.vjp(lambda x: x * x, tg.tensor([1.0, 2.0]))
    >>> vjp_fn(tg.ones(2))
    (tensor([2., 4.]),)
    """
    api = "vjp(f, *primals)"
    leaves, spec = tree_flatten(primals)
    _tensors(leaves)
    xs, connected = _entered(leaves)
    out, aux = _split_aux(_call(func, tree_unflatten(xs, spec), {}), has_aux, api)
    outs, out_spec = _out_leaves(out, api)

    def vjp_fn(cotangents, *, retain_graph=True, create_graph=None):
        cts, ct_spec = tree_flatten(cotangents)
        if ct_spec != out_spec:
            raise RuntimeError("Expected pytree structure of cotangents to be the same as "
                               "pytree structure of outputs to the function. cotangents: "
                               f"{ct_spec.pprint()}, primal output: {out_spec.pprint()}")
        for i, (c, o) in enumerate(zip(cts, outs, strict=True)):
            if not isinstance(c, Tensor):
                raise RuntimeError(f"Expected tensors, got unsupported type {type(c)}")
            if tuple(c.shape) != tuple(o.shape):
                raise RuntimeError(f"Mismatch in shape: grad_output[{i}] has a shape of "
                                   f"{c.shape!r} and output[{i}] has a shape of {o.shape!r}.")
        cg = create_graph if create_graph is not None else connected or (
            is_grad_enabled() and any(c.requires_grad for c in cts))
        return tree_unflatten(_grads(outs, xs, cts, bool(cg))[0], spec)

    result = (_detached(out, connected), vjp_fn)
    return (*result, _detached(aux, connected)) if has_aux else result


def _jacobian_blocks(outs, xs, connected):
    """``blocks[i][j]``: d outs[i] / d xs[j], shaped ``outs[i].shape + xs[j].shape``, one
    reverse sweep per output element (the graph retained between them)."""
    blocks = []
    for o in outs:
        rows = []
        for e in range(o.numel()):
            seed = np.zeros(o.numel(), o.dtype)
            seed[e] = 1.0
            row, connected = _grads([o], xs, [_leaf(norm(seed.reshape(tuple(o.shape))))],
                                    connected)
            rows.append(row)
        blocks.append([_stacked([r[j] for r in rows], (*o.shape, *x.shape), x, connected)
                       for j, x in enumerate(xs)])
    return blocks, connected


def _stacked(parts, shape, like, connected, dim=0):
    if not parts:
        return _leaf(norm(np.zeros(shape, like.dtype)))
    with enable_grad() if connected else contextlib.nullcontext():
        j = stack(parts, dim=dim).reshape(shape)
    return j if connected else j.detach()


def _nest(blocks, out_spec, in_specs, argnums):
    """PyTorch's layout: the output's tree, each leaf holding the input's tree of blocks
    (a tuple of them when argnums is a tuple)."""
    per_out = []
    for row in blocks:
        trees, k = [], 0
        for s in in_specs:
            trees.append(tree_unflatten(row[k:k + s.num_leaves], s))
            k += s.num_leaves
        per_out.append(tuple(trees) if isinstance(argnums, tuple) else trees[0])
    return tree_unflatten(per_out, out_spec)


def _jac(func, argnums, has_aux, args, kwargs, forward, randomness="different"):
    api = "jvp(f, primals, tangents)" if forward else "vjp(f, *primals)"
    _check_argnums(argnums, len(args))
    picked = _picked(args, argnums)
    in_specs = [tree_flatten(p)[1] for p in (picked if isinstance(argnums, tuple) else
                                             (picked,))]
    xs, _, new_args, connected = _prepare(args, argnums)
    rng = _rng_state()
    out, aux = _split_aux(_call(func, new_args, kwargs, forward), has_aux, api)
    if randomness == "error" and _rng_state() != rng:  # (PyTorch's jacfwd is a vmap)
        raise RuntimeError(_RANDOM_ERROR)
    outs, out_spec = _out_leaves(out, api)
    blocks, connected = (_jacobian_columns if forward else _jacobian_blocks)(outs, xs,
                                                                              connected)
    jac = _nest(blocks, out_spec, in_specs, argnums)
    return (jac, _detached(aux, connected)) if has_aux else jac


def jacrev(func, argnums=0, *, has_aux=False, chunk_size=None, _preallocate_and_copy=False):
    """The Jacobian of ``func`` with respect to ``args[argnums]`` by reverse mode (one
    sweep per output element): for each output leaf, ``out.shape + in.shape`` per input
    leaf, nested as the output's pytree of the inputs' pytrees.  ``chunk_size`` is
    accepted and has no effect.

    >>> import tapegrad as tg
    >>> tg.func.jacrev(lambda x: x.sin())(tg.tensor([0.0, 0.0]))
    tensor([[1., 0.],
            [0., 1.]])
    """
    if chunk_size is not None and (not isinstance(chunk_size, int) or chunk_size <= 0):
        raise ValueError("jacrev: `chunk_size` should be greater than 0.")

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        return _jac(func, argnums, has_aux, args, kwargs, forward=False)
    return wrapper


def _jacobian_columns(outs, xs, connected):
    """``blocks[i][j]`` by forward mode: one tangent sweep with a lane per input element
    (the identity as seeds, ``autograd/tangent.py``), or by transposition where it cannot
    run (``_transposed_columns``)."""
    total = sum(x.numel() for x in xs)
    if connected or not total:
        return _transposed_columns(outs, xs, connected)
    cols = [[] for _ in outs]
    lanes = max(1, tangent.LANE_VALUES // max(1, _arena_size(outs)))
    for j0 in range(0, total, lanes):  # (chunks of lanes: the arena is repeated per lane)
        w = min(lanes, total - j0)
        seeds, e = [], 0
        for x in xs:
            eye = np.zeros((x.numel(), w))
            idx = np.arange(x.numel())
            hit = (idx + e >= j0) & (idx + e < j0 + w)
            eye[idx[hit], idx[hit] + e - j0] = 1.0
            seeds.append(eye)
            e += x.numel()
        got = tangent.sweep(outs, xs, seeds, w)
        if got is None:
            return _transposed_columns(outs, xs, connected)
        for i, (o, t) in enumerate(zip(outs, got, strict=True)):
            cols[i].append(np.zeros((o.numel(), w)) if t is None else t)
    blocks = [[None] * len(xs) for _ in outs]
    for i, o in enumerate(outs):
        J = np.concatenate(cols[i], axis=1)
        e = 0
        for j, x in enumerate(xs):
            blocks[i][j] = _as(J[:, e:e + x.numel()], o, (*o.shape, *x.shape))
            e += x.numel()
    return blocks, connected


def _arena_size(outs):
    tok = next((o._tok for o in outs if o._tok is not None), None)
    return 1 if tok is None else tok.tape.nvals


def _transposed_columns(outs, xs, connected):
    """``blocks[i][j]`` by forward mode computed by transposition: ``g(u) = J^T u``
    recorded once, then one sweep of it per input element (a column of J)."""
    ones = [_leaf(norm(np.ones(tuple(o.shape), o.dtype))).requires_grad_(True) for o in outs]
    live = [(o, u) for o, u in zip(outs, ones, strict=True) if o.requires_grad]
    with enable_grad():
        gs = engine.grad([o for o, _ in live], xs, [u for _, u in live], create_graph=True,
                         allow_unused=True) if live else [None] * len(xs)
    blocks = [[None] * len(xs) for _ in outs]
    for j, (x, g) in enumerate(zip(xs, gs, strict=True)):
        cols = [[] for _ in outs]
        for e in range(x.numel() if g is not None and g.requires_grad else 0):
            seed = np.zeros(x.numel(), x.dtype)
            seed[e] = 1.0
            got, connected = _grads([g], ones, [_leaf(norm(seed.reshape(tuple(x.shape))))],
                                    connected, ignore=xs)
            for i, c in enumerate(got):
                cols[i].append(c)
        for i, o in enumerate(outs):
            blocks[i][j] = _stacked(cols[i], (*o.shape, *x.shape), o, connected, dim=-1)
    return blocks, connected


def jacfwd(func, argnums=0, has_aux=False, *, randomness="error"):
    """The Jacobian of ``func`` by forward mode, laid out as ``jacrev``'s: one tangent sweep
    of ``func``'s rows with a lane per input element (chunked beyond
    ``tangent.LANE_VALUES``), or by transposition where the sweep cannot run.  ``randomness="error"``
    (PyTorch's default) refuses a ``func`` that draws random numbers; "same" and
    "different" allow it (one evaluation serves every column here).

    >>> import tapegrad as tg
    >>> tg.func.jacfwd(lambda x: x * x)(tg.tensor([1.0, 2.0]))
    tensor([[2., 0.],
            [0., 4.]])
    """
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        _check_randomness(randomness)
        return _jac(func, argnums, has_aux, args, kwargs, forward=True, randomness=randomness)
    return wrapper


def hessian(func, argnums=0):
    """The Hessian of scalar ``func`` with respect to ``args[argnums]``: the Jacobian of its
    gradient (``jacrev(jacrev(func))``; PyTorch's ``jacfwd(jacrev(func))`` gives the same).

    >>> import tapegrad as tg
    >>> tg.func.hessian(lambda x: (x ** 3).sum())(tg.tensor([1.0, 2.0]))
    tensor([[ 6.,  0.],
            [ 0., 12.]])
    """
    return jacrev(jacrev(func, argnums), argnums)


# ---- forward mode ------------------------------------------------------------------------
def jvp(func, primals, tangents, *, strict=False, has_aux=False):
    """``(func(*primals), J tangents)`` (with has_aux: ``(output, jvp_out, aux)``).

    ``func`` is recorded once and its rows swept forward by each op's tangent rule, in
    compiled code (``autograd/tangent.py``); a custom Function's row runs its ``jvp``.
    Where the sweep cannot run (a Function without ``jvp``; inside another transform, where
    the result must stay differentiable) ``J t`` is computed by transposition: the vjp of
    the recorded ``g(u) = J^T u`` (``autograd/forward_ad.py``).

    >>> import tapegrad as tg
    >>> tg.func.jvp(lambda x: x * x, (tg.tensor([1.0, 2.0]),), (tg.ones(2),))[1]
    tensor([2., 4.])
    """
    api = "jvp(f, primals, tangents)"
    if not isinstance(primals, tuple):
        raise RuntimeError(f"{api}: Expected primals to be a tuple. E.g. it should be valid "
                           "to call f(*primals).")
    leaves, spec = tree_flatten(primals)
    t_leaves, t_spec = tree_flatten(tangents)
    if t_spec != spec:
        raise RuntimeError(f"{api}: Expected primals and tangents to have the same python "
                           "structure. For example, if primals is a tuple of 3 tensors, "
                           f"tangents also must be. Got primals with structure {spec} and "
                           f"tangents with structure {t_spec}")
    if not leaves:
        raise RuntimeError(f"{api}: Expected primals to contain at least one Tensor.")
    for what, group in (("primals", leaves), ("tangents", t_leaves)):
        for x in group:
            if not isinstance(x, Tensor):
                raise RuntimeError(f"{api}: Expected {what} to only contain Tensors, got "
                                   f"{type(x)}")
    for p, t in zip(leaves, t_leaves, strict=True):
        if not p.is_floating_point():
            raise ValueError(f"Expected primal to be floating point or complex, but got: "
                             f"{dtypes.name(p.dtype)}")
        if tuple(p.shape) != tuple(t.shape):
            raise RuntimeError("Trying to set a forward gradient that has a different size "
                               "than that of the original Tensor, this is not supported. "
                               f"Tensor is of size {list(p.shape)} while the given forward "
                               f"gradient is of size {list(t.shape)}.")
    xs, connected = _entered(leaves, t_leaves)
    if _of_a_whole_gradient(func, len(primals)) and not has_aux:
        return _hvp(func, xs, spec, t_leaves, connected)
    out, aux = _split_aux(_call(func, tree_unflatten(xs, spec), {}), has_aux, api)
    outs, out_spec = _out_leaves(out, api)
    swept = None if connected else tangent.sweep(outs, xs, [_flat(t) for t in t_leaves])
    if swept is not None:  # the tangent sweep
        jt = [None if t is None else _as(t, o) for t, o in zip(swept, outs, strict=True)]
    else:  # a row the sweep cannot run, or a result that must stay differentiable
        jt, connected = transposed_jvp(outs, xs, t_leaves, connected)
    jt = [_zeros_like(o) if t is None else t for o, t in zip(outs, jt, strict=True)]
    result = (_detached(out, connected), tree_unflatten(jt, out_spec))
    return (*result, _detached(aux, connected)) if has_aux else result


def _flat(t):
    return np.asarray(t.detach()._data, np.float64).reshape(-1)


def _as(values, like, shape=None):
    """A result array as a tensor of ``like``'s dtype (and ``shape``, else like's)."""
    return _leaf(norm(values.astype(like.dtype, copy=False).reshape(
        tuple(like.shape) if shape is None else shape)))


def _of_a_whole_gradient(func, nargs):
    """Is ``func`` ``grad(f)`` with respect to all of its (positional) arguments, in order?
    Then its Jacobian is f's Hessian, which is symmetric."""
    return (isinstance(func, _Transform) and func.kind == "grad" and not func.has_aux
            and func.argnums in ((0,) * (nargs == 1) + (tuple(range(nargs)),)))


def _hvp(func, xs, spec, t_leaves, connected):
    """``jvp(grad(f), primals, tangents)``: ``(grad f, H t)`` by forward over reverse: f
    recorded once, then the tangent sweep and the reverse sweep with its tangent, in
    compiled code (``autograd/tangent.py``).  Where those cannot run (a row without a
    second-order rule, a result that must stay differentiable) ``H t = H^T t`` is the
    gradient of ``<grad f, t>``: reverse over reverse, one sweep of the recorded gradient
    (f runs once more)."""
    if not connected:
        out = _call(func.func, tree_unflatten(xs, spec), {})
        if isinstance(out, Tensor) and out.dim() == 0 and out.requires_grad:
            got = tangent.hvp(out, xs, [_flat(t) for t in t_leaves])
            if got is not None:  # (shaped as grad's result: argnums 0 or all of them)
                one = not isinstance(func.argnums, tuple)
                return tuple(tree_unflatten([_as(a, x) for a, x in zip(r, xs, strict=True)],
                                            spec)[0 if one else slice(None)] for r in got)
    g = _call(func, tree_unflatten(xs, spec), {})
    g_leaves, g_spec = tree_flatten(g)
    ht, connected = _grads(g_leaves, xs, t_leaves, connected)
    return _detached(g, connected), tree_unflatten(ht, g_spec)


def linearize(func, *primals):
    """``(func(*primals), jvp_fn)``: ``jvp_fn(*tangents)`` is ``J tangents`` at the
    primals (a pytree shaped as the output).  Forward mode by transposition pays off here:
    ``g(u) = J^T u`` is recorded once, and each ``jvp_fn`` call is one sweep of it.

    >>> import tapegrad as tg
    >>> out, jvp_fn = tg.func.linearize(lambda x: x * x, tg.tensor([1.0, 2.0]))
    >>> jvp_fn(tg.ones(2))
    tensor([2., 4.])
    """
    leaves, spec = tree_flatten(primals)
    _tensors(leaves)
    xs, connected = _entered(leaves)
    outs, out_spec = _out_leaves(_call(func, tree_unflatten(xs, spec), {}),
                                 "linearize(f, *primals)")
    apply = transposed(outs, xs)

    def jvp_fn(*tangents):
        t_leaves, t_spec = tree_flatten(tangents)
        if t_spec != spec:
            raise RuntimeError(f"Expected the tangents {t_spec} to have the same argspec as "
                               f"the primals {spec}")
        for i, (t, p) in enumerate(zip(t_leaves, leaves, strict=True)):
            for what, a, b in (("shape", t.shape, p.shape), ("dtype", t.dtype, p.dtype)):
                if a != b:
                    a, b = (dtypes.name(a), dtypes.name(b)) if what == "dtype" else (a, b)
                    raise RuntimeError(f"tangent:{i} with {what} {a!s} in flattened pytree "
                                       f"doesn't match the {what} {b!s} of the corresponding "
                                       "primal.")
        jt, _ = apply(t_leaves, connected)
        return tree_unflatten([_zeros_like(o) if t is None else t
                               for o, t in zip(outs, jt, strict=True)], out_spec)
    return _detached(tree_unflatten(outs, out_spec), connected), jvp_fn


# ---- vmap --------------------------------------------------------------------------------
_RANDOMNESS = ("error", "different", "same")
_RANDOM_ERROR = ("vmap: called random operation while in randomness error mode. Please either "
                 "use the 'same' or 'different' randomness flags on vmap or perform the "
                 "randomness operation out of vmap")


def _check_randomness(randomness):
    if randomness not in _RANDOMNESS:
        raise RuntimeError("Only allowed values for randomness are 'error', 'different', or "
                           f"'same'. Got {randomness}")


def _rng_state():
    return creation._rng.bit_generator.state


class vmap:  # noqa: N801 (PyTorch's name; a class, so that repr and .path tell the path)
    """``vmap(func, in_dims=0, out_dims=0, randomness='error', *, chunk_size=None)``:
    ``func`` mapped over a dimension of its inputs (``in_dims``: an int, or a pytree
    prefix of the arguments with ints and None), the results stacked at ``out_dims``.

    Runs ``func`` once per batch element (``path == "loop"``), or, for ``vmap(grad(f))``
    and ``vmap(grad_and_value(f))`` of a traceable scalar ``f`` with every argument batched
    (or None) and no result to differentiate further, as one compiled batch replay
    (``path == "replay"``; ``"replay+loop"`` when points that branch otherwise than the
    trace ran eagerly).  ``randomness``: "error" raises if ``func`` draws random
    numbers, "same" gives every element the same draws, "different" its own.

    >>> import tapegrad as tg
    >>> tg.func.vmap(lambda x, y: x @ y, in_dims=(0, None))(tg.ones(3, 2), tg.ones(2))
    tensor([2., 2., 2.])
    """

    def __init__(self, func, in_dims=0, out_dims=0, randomness="error", *, chunk_size=None):
        _check_randomness(randomness)
        if chunk_size is not None and (not isinstance(chunk_size, int) or chunk_size <= 0):
            raise ValueError(f"vmap: chunk_size should be None or greater than 0. (got "
                             f"{chunk_size})")
        self.func, self.in_dims, self.out_dims = func, in_dims, out_dims
        self.randomness, self.chunk_size = randomness, chunk_size
        self.path = None  # once called: "loop", "replay" or "replay+loop"
        functools.update_wrapper(self, func, updated=())

    def __repr__(self):
        return (f"<tapegrad.func.vmap({self._name()}, in_dims={self.in_dims}, "
                f"out_dims={self.out_dims}): path={self.path}>")

    def _name(self):
        return getattr(self.func, "__name__", repr(self.func))

    def __call__(self, *args, **kwargs):
        name = self._name()
        head = f"vmap({name}, in_dims={self.in_dims}, ...)(<inputs>)"
        if not args:
            raise ValueError(f"vmap({name})(<inputs>): got no inputs. Maybe you forgot to add "
                             "inputs, or you are trying to vmap over a function with no "
                             "inputs. The latter is unsupported.")
        if not isinstance(self.in_dims, (int, tuple)) or isinstance(self.in_dims, bool):
            raise ValueError(f"{head}: expected `in_dims` to be int or a (potentially nested) "
                             "tuple matching the structure of inputs, got: "
                             f"{type(self.in_dims)}.")
        leaves, spec = tree_flatten(args)
        dims = broadcast_prefix(self.in_dims if isinstance(self.in_dims, tuple) else
                                (self.in_dims,) * len(args), spec)
        if dims is None:
            raise ValueError(f"{head}: in_dims is not compatible with the structure of "
                             f"`inputs`. in_dims has structure {tree_flatten(self.in_dims)[1]}"
                             f" but inputs has structure {spec}.")
        dims, size = _batch_dims(leaves, dims, head)
        self._check_out_dims_type()
        fast = self._replay(leaves, dims, spec, size, kwargs)
        if fast is not None:
            result, self.path = fast
            return result
        self.path = "loop"
        return self._loop(leaves, dims, spec, size, kwargs, name)

    def _check_out_dims_type(self):
        leaves, _ = tree_flatten(self.out_dims)
        if not all(d is None or (isinstance(d, int) and not isinstance(d, bool))
                   for d in leaves):
            raise ValueError(f"vmap({self._name()}, ..., out_dims={self.out_dims}): `out_dims` "
                             "must be an int, None or a python collection of ints representing "
                             "where in the outputs the vmapped dimension should appear.")

    def _loop(self, leaves, dims, spec, size, kwargs, name):
        n = max(size, 1)  # a batch of 0 runs f once on zeros to learn the outputs' shapes
        rng = _rng_state() if self.randomness != "different" else None
        results = []
        for b in range(n):
            if self.randomness == "same":
                creation._rng.bit_generator.state = rng
            args = tree_unflatten([_slice(x, d, b, size) for x, d in zip(leaves, dims,
                                                                         strict=True)], spec)
            with _running(True):
                results.append(self.func(*args, **kwargs))
            if self.randomness == "error" and _rng_state() != rng:
                raise RuntimeError(_RANDOM_ERROR)
        return self._stack(results, size, name)

    def _stack(self, results, size, name):
        outs, out_spec = tree_flatten(results[0])
        per = [tree_flatten(r)[0] for r in results]
        odims = broadcast_prefix(self.out_dims, out_spec)
        if odims is None:
            raise ValueError(f"vmap({name}, ..., out_dims={self.out_dims})(<inputs>): out_dims "
                             "is not compatible with the structure of `outputs`. out_dims has "
                             f"structure {tree_flatten(self.out_dims)[1]} but outputs has "
                             f"structure {out_spec}.")
        stacked = []
        for k, (o, d) in enumerate(zip(outs, odims, strict=True)):
            column = [p[k] for p in per]
            if d is None:
                if any(not _same(o, c) for c in column[1:]):
                    raise ValueError(f"vmap({name}, ...): `{name}` can not return a "
                                     "BatchedTensor when out_dim is None")
                stacked.append(o)
                continue
            if not isinstance(o, Tensor):
                raise ValueError(f"vmap({name}, ...): `{name}` must only return Tensors, got "
                                 f"type {type(o)}. Did you mean to set out_dims= to None for "
                                 "output?")
            if not -(o.dim() + 1) <= d <= o.dim():
                raise IndexError(f"Dimension out of range (expected to be in range of "
                                 f"[{-(o.dim() + 1)}, {o.dim()}], but got {d})")
            s = stack(column, dim=d)
            stacked.append(s if size else s.narrow(d, 0, 0))
        return tree_unflatten(stacked, out_spec)

    def _replay(self, leaves, dims, spec, size, kwargs):
        """``vmap(grad(f))`` as one batch replay of a trace of f: ``(result, path)``, or
        None when that does not apply (another function, aux outputs, kwargs, pytree
        arguments, a result to differentiate further, a trace that fails or draws random
        numbers).  Points whose guards diverge from the trace (another branch of an
        ``if``) run eagerly, one by one: path ``"replay+loop"``; if one of them reaches a
        tensor outside that requires grad, the whole batch runs the loop instead."""
        t = self.func
        if (not isinstance(t, _Transform) or t.has_aux or kwargs or size < 2
                or tree_flatten(self.out_dims)[0] != [0] or spec.num_leaves != len(spec.children)
                or not all(isinstance(x, Tensor) and x.is_floating_point() for x in leaves)
                or _connected(leaves)):
            return None
        try:
            _check_argnums(t.argnums, len(leaves))
        except RuntimeError:
            return None
        if _grad_and_value(t.func, t.argnums, False, [  # f closed over a parameter: the
                _slice(x, d, 0, size) for x, d in zip(leaves, dims, strict=True)], {})[2]:
            return None  # results must stay differentiable, which replay's are not
        argnums = tuple(a % len(leaves) for a in (
            t.argnums if isinstance(t.argnums, tuple) else (t.argnums,)))
        Xs = [np.moveaxis(np.asarray(x.detach()._data, np.float64), d, 0) if d is not None
              else np.broadcast_to(np.asarray(x.detach()._data, np.float64),
                                   (size, *x.shape)) for x, d in zip(leaves, dims, strict=True)]
        rng = _rng_state()
        compiled = Compiled(t.func, argnums, on_divergence="mask")
        try:
            V, G = compiled.value_and_grad_batch(*Xs)
        except Exception:  # noqa: BLE001 (not traceable: the loop runs f eagerly instead)
            V = None
        if V is None or _rng_state() != rng:  # (random draws: a trace would freeze them)
            creation._rng.bit_generator.state = rng
            return None
        G = list(G) if isinstance(t.argnums, tuple) else [G]
        mask = compiled.mask
        diverged = [] if mask is None else np.flatnonzero(~mask).tolist()
        for b in diverged:  # another branch than the trace's: eagerly
            g, (value, _), connected = _grad_and_value(t.func, t.argnums, False, [
                _slice(x, d, b, size) for x, d in zip(leaves, dims, strict=True)], {})
            if connected:  # this branch reads a parameter: the loop keeps every graph
                creation._rng.bit_generator.state = rng
                return None
            V[b] = float(value)
            for k, gk in enumerate(g if isinstance(t.argnums, tuple) else (g,)):
                G[k][b] = np.asarray(gk._data)
        grads = tuple(_leaf(norm(np.asarray(g).astype(leaves[a].dtype, copy=False)))
                      for g, a in zip(G, argnums, strict=True))
        g = grads if isinstance(t.argnums, tuple) else grads[0]
        path = "replay+loop" if diverged else "replay"
        if t.kind == "grad":
            return g, path
        return (g, _leaf(norm(np.asarray(V).astype(leaves[argnums[0]].dtype, copy=False)))), path


def _batch_dims(leaves, dims, head):
    """Checked in_dims per leaf (negative ones wrapped) and the batch size."""
    sizes, out = [], []
    for x, d in zip(leaves, dims, strict=True):
        if d is None:
            out.append(None)
            continue
        if not isinstance(d, int) or isinstance(d, bool):
            raise ValueError(f"{head}: Got in_dim={d} for an input but in_dim must be either an "
                             "integer dimension or None.")
        if not isinstance(x, Tensor):
            raise ValueError(f"{head}: Got in_dim={d} for an input but the input is of type "
                             f"{type(x)}. We cannot vmap over non-Tensor arguments, please "
                             "use None as the respective in_dim")
        if not -x.dim() <= d < x.dim():
            raise ValueError(f"{head}: Got in_dim={d} for some input, but that input is a "
                             f"Tensor of dimensionality {x.dim()} so expected in_dim to satisfy "
                             f"-{x.dim()} <= in_dim < {x.dim()}.")
        out.append(d % x.dim())
        sizes.append(x.shape[d])
    if not sizes:
        raise ValueError("vmap: Expected at least one Tensor to vmap over")
    if len(set(sizes)) > 1:
        raise ValueError("vmap: Expected all tensors to have the same size in the mapped "
                         f"dimension, got sizes {sizes} for the mapped dimension")
    return out, sizes[0]


def _slice(x, d, b, size):
    if d is None:
        return x
    if size == 0:
        shape = [s for i, s in enumerate(x.shape) if i != d]
        return _leaf(norm(np.zeros(shape, x.dtype)))
    return x.select(d, b)


def _same(a, b):
    if isinstance(a, Tensor) and isinstance(b, Tensor):
        return a is b or (tuple(a.shape) == tuple(b.shape) and
                          bool(np.array_equal(np.asarray(a.detach()._data),
                                              np.asarray(b.detach()._data), equal_nan=True)))
    return a is b or a == b


# ---- stack_module_state: an ensemble's parameters and buffers, stacked ---------------------
def stack_module_state(models):
    """``(params, buffers)``: two dicts mapping each name of ``models[0]``'s parameters and
    buffers to the stacked tensors of all ``models`` (leading dim ``len(models)``), for
    ``vmap(functional_call)`` over an ensemble.  The stacked parameters are new leaves that
    require grad as the originals did; buffers are stacked as they are.

    >>> import tapegrad as tg
    >>> params, _ = tg.func.stack_module_state([tg.nn.Linear(2, 3) for _ in range(4)])
    >>> params["weight"].shape
    torch.Size([4, 3, 2])
    """
    models = list(models)
    if not models:
        raise RuntimeError("stack_module_state: Expected at least one model, got 0.")
    if len({m.training for m in models}) > 1:
        raise RuntimeError("stack_module_state: Expected all models to have the same "
                           "training/eval mode.")
    names = [list(dict(m.named_parameters())) + [";"] + list(dict(m.named_buffers()))
             for m in models]
    if any(n != names[0] for n in names):
        raise RuntimeError("stack_module_state: Expected all models to be of the same class "
                           "(the same parameter and buffer names).")

    def stacked(get, leaf):
        out = {}
        for name, first in get(models[0]).items():
            t = stack([get(m)[name].detach() for m in models])
            out[name] = t.requires_grad_(first.requires_grad) if leaf else t
        return out

    return (stacked(lambda m: dict(m.named_parameters()), True),
            stacked(lambda m: dict(m.named_buffers()), False))


# ---- functional_call ---------------------------------------------------------------------
def functional_call(module, parameter_and_buffer_dicts, args=None, kwargs=None, *,
                    tie_weights=True, strict=False):
    """``module(*args, **kwargs)`` with its parameters and buffers replaced, for this call
    only, by the tensors given by name (a dict, or a list/tuple of dicts); tied
    parameters follow (``tie_weights``); ``strict`` requires exactly the module's names.

    >>> import tapegrad as tg
    >>> m = tg.nn.Linear(2, 1)
    >>> tg.func.functional_call(m, {"weight": tg.ones(1, 2), "bias": tg.zeros(1)},
    ...                         (tg.ones(1, 2),))
    tensor([[2.]])
    """
    if isinstance(parameter_and_buffer_dicts, dict):
        given = dict(parameter_and_buffer_dicts)
    elif isinstance(parameter_and_buffer_dicts, (list, tuple)) and all(
            isinstance(d, dict) for d in parameter_and_buffer_dicts):
        given = {}
        seen = [k for d in parameter_and_buffer_dicts for k in d]
        dup = sorted({k for k in seen if seen.count(k) > 1})
        if dup:
            raise ValueError(f"{dup} appeared in multiple dictionaries; behavior of "
                             "functional call is ambiguous")
        for d in parameter_and_buffer_dicts:
            given.update(d)
    else:
        raise ValueError("Expected parameter_and_buffer_dicts to be a dict, or a list/tuple "
                         f"of dicts, but got {type(parameter_and_buffer_dicts)}")
    args = () if args is None else args if isinstance(args, tuple) else (args,)
    kwargs = {} if kwargs is None else kwargs
    named = [*module.named_parameters(remove_duplicate=False),
             *module.named_buffers(remove_duplicate=False)]
    if tie_weights:  # a tensor shared by several names: each takes the value given for one
        tied = {}
        for n, p in named:
            tied.setdefault(id(p), []).append(n)
        for group in (g for g in tied.values() if len(g) > 1):
            values = {id(given[n]): n for n in group if n in given}
            if len(values) > 1:
                raise ValueError(f"functional_call got multiple values for keys "
                                 f"{sorted(group)}, which are tied. Consider using "
                                 f"tie_weights=False")
            if values:
                value = given[next(iter(values.values()))]
                given.update((n, value) for n in group)
    if strict:  # (checked after the ties are filled in, sorted, as PyTorch's)
        names = {n for n, _ in named}
        missing = sorted(names - set(given))
        unexpected = sorted(set(given) - names)
        lines = ([f"Unexpected key(s): {', '.join(map(repr, unexpected))}."] if unexpected
                 else []) + ([f"Missing key(s): {', '.join(map(repr, missing))}."] if missing
                             else [])
        if lines:
            raise RuntimeError(f"Error(s) in reparametrizing for {type(module).__name__}:\n\t"
                               + "\n\t".join(lines))
    undo = []
    try:
        for name, value in given.items():
            undo.append(_swap(module, name, value))
        return module(*args, **kwargs)
    finally:
        for restore in reversed(undo):
            restore()


def _swap(module, name, value):
    """Put ``value`` at the dotted ``name`` of ``module``; returns the undo."""
    path, _, leaf = name.rpartition(".")
    mod = module.get_submodule(path)
    for registry in (mod._parameters, mod._buffers):
        if leaf in registry:
            old = registry[leaf]
            registry[leaf] = value

            def restore(registry=registry, old=old):
                registry[leaf] = old
            return restore
    had = leaf in mod.__dict__
    old = mod.__dict__.get(leaf)
    object.__setattr__(mod, leaf, value)

    def restore_attr():
        if had:
            object.__setattr__(mod, leaf, old)
        else:
            object.__delattr__(mod, leaf)
    return restore_attr


_REMOVE_OPTIONS = (
    "functionalize(f, remove='mutations'): received invalid argument for remove={}. Valid "
    "options are:\n     remove='mutations': all inplace and out= operators will be removed "
    "from the program, and replaced with their out-of-place equivalents.\n     "
    "remove='mutations_and_views': In addition to the above, all aliasing operators {{view}} "
    "will be replaced with their non-aliasing counterparts, {{view}}_copy.\n")


def functionalize(func, *, remove="mutations"):
    """``torch.func.functionalize``: ``func`` with its mutations rewritten out of place, for
    a tracer to see a functional program.  Run eagerly, the rewritten program computes what
    ``func`` computes and copies mutations back into the inputs, so here it is ``func``
    itself (tapegrad's traces record in-place ops as they are).  One difference: an output
    that ``func`` mutated through a view of an input is a fresh tensor in PyTorch, a view
    here."""
    if remove not in ("mutations", "mutations_and_views"):
        raise RuntimeError(_REMOVE_OPTIONS.format(remove))

    @functools.wraps(func)
    def functionalized(*args, **kwargs):
        return func(*args, **kwargs)
    return functionalized


def replace_all_batch_norm_modules_(root):
    """Make every BatchNorm module in ``root`` (``root`` too) use its batch's statistics:
    its running stats become None and ``track_running_stats`` False, in place, so that
    ``vmap`` over a model changes no buffer; returns ``root`` (PyTorch's).

    >>> import tapegrad as tg
    >>> m = tg.func.replace_all_batch_norm_modules_(tg.nn.Sequential(tg.nn.BatchNorm1d(2)))
    >>> m[0].running_mean is None, m[0].track_running_stats
    (True, False)
    """
    for m in root.modules():
        if isinstance(m, _BatchNorm):
            m.running_mean = m.running_var = m.num_batches_tracked = None
            m.track_running_stats = False
    return root


__all__ = ["functional_call", "functionalize", "grad", "grad_and_value", "hessian", "jacfwd",
           "jacrev", "jvp", "linearize", "replace_all_batch_norm_modules_", "stack_module_state",
           "vjp", "vmap"]
