"""tapegrad.autograd.functional: vjp, jvp, jacobian, hessian, vhp, hvp with PyTorch's
signatures and return conventions (a tuple of inputs gives tuples back).

All are built on ``grad`` with ``create_graph=True`` (autograd/higher.py): a jvp is the
double-vjp trick, a Hessian-vector product is reverse over reverse, and jacobian/hessian
sweep the recorded gradient graph once per output element in compiled code.
For the same at many points without Python per point, see ``tapegrad.compile(f).hvp``.
"""
import numpy as np

from ..grad_mode import enable_grad
from ..ops.shape import reshape, stack
from ..tensor import Size, Tensor, _leaf, norm
from .engine import grad


def _tuple(x, name, fn):
    if isinstance(x, Tensor):
        return (x,), False
    if isinstance(x, (tuple, list)) and all(isinstance(t, Tensor) for t in x):
        return tuple(x), True
    raise TypeError(f"{fn}: The {name} given to {fn} must be either a Tensor or a tuple of "
                    f"Tensors but the value at index 0 has type {type(x).__name__}.")


def _prepare(inputs, create_graph):
    """Fresh differentiable copies; with create_graph, views that keep inputs' graphs."""
    with enable_grad():
        return tuple(x.view_as(x) if (create_graph and x.requires_grad)
                     else x.detach().requires_grad_(True) for x in inputs)


def _zeros_like(x):
    return _leaf(norm(np.zeros(tuple(x.shape), x.dtype)))


# strict mode's message for a gradient that is None, by the sweep that found it (PyTorch's)
_INDEPENDENT = {
    "vjp": "The output of the user-provided function is independent of input {i}. This is not "
           "allowed in strict mode.",
    "jvp": "The gradient with respect to the input is independent of entry {i} in the "
           "grad_outputs when using the double backward trick to compute forward mode "
           "gradients. This is not allowed in strict mode.",
    "vhp": "The jacobian of the user-provided function is independent of input {i}. This is "
           "not allowed in strict mode.",
    "hvp": "The hessian of the user-provided function is independent of entry {i} in the "
           "grad_jacobian. This is not allowed in strict mode as it prevents from using the "
           "double backward trick to replace forward mode AD.",
}
_NO_GRAD = {  # strict mode's message for a result that does not require grad (PyTorch's)
    "outputs": "Output {i} of the user-provided function does not require gradients. The "
               "outputs must be computed in a differentiable manner from the input when "
               "running in strict mode.",
    "jacobian": "While computing the hessian, found that the jacobian of the user-provided "
                "function with respect to input {i} is independent of the input. This is not "
                "allowed in strict mode. You should ensure that your function is twice "
                "differentiable and that the jacobian depends on the inputs (this would be "
                "violated by a linear function for example).",
}


def _check_requires_grad(ts, kind, strict):
    """In strict mode, every one of ``ts`` (a function's outputs, or its gradient when a
    Hessian is wanted) must depend on the inputs; a gradient that is None (an input the
    function does not use) is said to be so as vjp says it."""
    if strict:
        for i, t in enumerate(ts):
            if t is None:
                raise RuntimeError(_INDEPENDENT["vjp"].format(i=i))
            if not t.requires_grad:
                raise RuntimeError(_NO_GRAD[kind].format(i=i))


def _finish(gs, inputs, create_graph, strict, fn):
    """None -> zeros (or an error in strict mode); detached unless create_graph."""
    out = []
    for i, (g, x) in enumerate(zip(gs, inputs, strict=True)):
        if g is None:
            if strict:
                raise RuntimeError(_INDEPENDENT[fn].format(i=i))
            g = _zeros_like(x)
        out.append(g if create_graph else g.detach())
    return tuple(out)


def _call(func, inputs, fn):
    with enable_grad():
        out = func(*inputs)
    outs, is_tuple = _tuple(out, "outputs of the user-provided function", fn)
    return outs, is_tuple


def _vector(v, like, like_tuple, fn, what="v"):
    """``v`` checked against ``like`` (the outputs for vjp, the inputs otherwise), in
    PyTorch's words (torch.autograd.functional._validate_v), which name no function."""
    if v is None:
        if len(like) == 1 and like[0].numel() == 1:
            return (_leaf(norm(np.ones(tuple(like[0].shape)))),)
        raise RuntimeError(f"The vector {what} can only be None if the " + (
            "user-provided function returns a single Tensor" if fn == "vjp" else
            "input to the user-provided function is a single Tensor") + " with a single element.")
    vs, _ = _tuple(v, what, fn)
    if len(vs) != len(like):
        if not like_tuple:
            raise RuntimeError(f"The given {what} should contain a single Tensor.")
        raise RuntimeError(f"{what} is a tuple of invalid length: should be {len(like)} "
                           f"but got {len(vs)}.")
    for i, (a, b) in enumerate(zip(vs, like, strict=True)):
        if tuple(a.shape) != tuple(b.shape):
            entry = f"Entry {i} in " if len(like) > 1 else ""
            raise RuntimeError(f"{entry}{what} has invalid size: should be "
                               f"{Size(b.shape)!r} but got {Size(a.shape)!r}.")
    return vs


def _out(xs, is_tuple):
    return xs if is_tuple else xs[0]


def _detach(outs, create_graph):
    return tuple(o if create_graph else o.detach() for o in outs)


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), v^T J)``."""
    inputs, in_tuple = _tuple(inputs, "inputs", "vjp")
    xs = _prepare(inputs, create_graph)
    outs, out_tuple = _call(func, xs, "vjp")
    _check_requires_grad(outs, "outputs", strict)
    vs = _vector(v, outs, out_tuple, "vjp")
    gs = grad(outs, xs, vs, create_graph=create_graph, retain_graph=create_graph,
              allow_unused=True) if any(o.requires_grad for o in outs) else [None] * len(xs)
    return (_out(_detach(outs, create_graph), out_tuple),
            _out(_finish(gs, xs, create_graph, strict, "vjp"), in_tuple))


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), J v)``, by the double-vjp trick: ``u -> J^T u`` is linear in u, and
    its vjp with v is ``J v``."""
    inputs, in_tuple = _tuple(inputs, "inputs", "jvp")
    xs = _prepare(inputs, create_graph)
    vs = _vector(v, xs, in_tuple, "jvp")
    outs, out_tuple = _call(func, xs, "jvp")
    _check_requires_grad(outs, "outputs", strict)
    with enable_grad():
        us = tuple(_zeros_like(o).requires_grad_(True) for o in outs)
        diff = [o for o in outs if o.requires_grad]
        if not diff:
            jv = [None] * len(outs)
        else:
            gx = grad(diff, xs, [u for o, u in zip(outs, us, strict=True) if o.requires_grad],
                      create_graph=True, allow_unused=True)
            pairs = [(g, w) for g, w in zip(gx, vs, strict=True)
                     if g is not None and g.requires_grad]
            jv = grad([g for g, _ in pairs], us, [w for _, w in pairs],
                      create_graph=create_graph, allow_unused=True) if pairs else \
                [None] * len(outs)
    return (_out(_detach(outs, create_graph), out_tuple),
            _out(_finish(jv, outs, create_graph, strict, "jvp"), out_tuple))


def _check_strategy(strategy, vectorize, create_graph):
    """PyTorch's checks of ``strategy``; "forward-mode" (vectorize only) gives the same
    numbers, computed here by reverse sweeps."""
    if strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode".')
    if strategy == "forward-mode" and not vectorize:
        raise NotImplementedError("Computing Jacobian using forward-AD or forward-over-reverse "
                                  "Hessian isonly implemented for `vectorize=True`.")  # (sic)
    if strategy == "forward-mode" and create_graph:
        raise NotImplementedError('torch.autograd.functional.jacobian: `create_graph=True` and '
                                  '`strategy="forward-mode"` are not supported together (yet).'
                                  ' Please either set `create_graph=False` or '
                                  '`strategy="reverse-mode"`.')


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False,
             strategy="reverse-mode"):
    """The Jacobian: ``out.shape + in.shape`` per (output, input) pair, nested as PyTorch
    (a tensor; a tuple per input; a tuple per output of those).  One compiled sweep of the
    recorded graph per output element (``vectorize`` is accepted and gives the same)."""
    _check_strategy(strategy, vectorize, create_graph)
    if strict and strategy == "forward-mode":
        raise RuntimeError('torch.autograd.functional.jacobian: `strict=True` and `strategy='
                           '"forward-mode"` are not supported together (yet). Please either '
                           'set `strict=False` or `strategy="reverse-mode"`.')
    inputs, in_tuple = _tuple(inputs, "inputs", "jacobian")
    xs = _prepare(inputs, create_graph)
    outs, out_tuple = _call(func, xs, "jacobian")
    _check_requires_grad(outs, "outputs", strict)
    if strict and vectorize:
        raise RuntimeError("torch.autograd.functional.jacobian: `strict=True` and "
                           "`vectorized=True` are not supported together. Please either set "
                           "`strict=False` or `vectorize=False`.")
    table = []
    for oi, o in enumerate(outs):
        flat = o.reshape(-1)
        rows = [[] for _ in xs]
        for e in range(flat.numel()):
            gs = grad(flat[e], xs, retain_graph=True, create_graph=create_graph,
                      allow_unused=True) if o.requires_grad else [None] * len(xs)
            if strict and any(g is None for g in gs):
                i = next(i for i, g in enumerate(gs) if g is None)
                raise RuntimeError(f"Output {oi} of the user-provided function is independent "
                                   f"of input {i}. This is not allowed in strict mode.")
            for i, (g, x) in enumerate(zip(gs, xs, strict=True)):
                rows[i].append(g if g is not None else _zeros_like(x))
        table.append(tuple(_stack_rows(r, o, x, create_graph)
                           for r, x in zip(rows, xs, strict=True)))
    if not out_tuple:
        return _out(table[0], in_tuple)
    return tuple(_out(t, in_tuple) for t in table)


def _stack_rows(rows, o, x, create_graph):
    shape = (*o.shape, *x.shape)
    if not rows:
        return _leaf(norm(np.zeros(shape, x.dtype)))
    j = reshape(stack(rows), *shape)
    return j if create_graph else j.detach()


def _one_element(outs, is_tuple, fn):
    """PyTorch's checks (and words) of a function that must return one one-element Tensor."""
    if is_tuple or len(outs) != 1:
        raise RuntimeError(f"The function given to {fn} should return a single Tensor")
    if outs[0].numel() != 1:
        raise RuntimeError(f"The Tensor returned by the function given to {fn} should "
                           "contain a single element")


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False,
            outer_jacobian_strategy="reverse-mode"):
    """The Hessian of a scalar function: the Jacobian of its recorded gradient."""
    inputs, in_tuple = _tuple(inputs, "inputs", "hessian")

    def gradient(*xs):
        out = func(*xs)
        outs, is_tuple = _tuple(out, "outputs of the user-provided function", "hessian")
        _check_requires_grad(outs, "outputs", strict)
        _one_element(outs, is_tuple, "hessian")
        if not outs[0].requires_grad:
            return tuple(_zeros_like(x) for x in xs)
        gs = grad(outs[0].reshape(()), xs, create_graph=True, allow_unused=True)
        gs = _finish(gs, xs, True, False, "hessian")  # (PyTorch's jacobian, zeros for None)
        _check_requires_grad(gs, "jacobian", strict)
        return gs

    h = jacobian(gradient, inputs if in_tuple else inputs[0], create_graph=create_graph,
                 strict=strict, vectorize=vectorize, strategy=outer_jacobian_strategy)
    return h if in_tuple else h[0]  # gradient() returns a tuple: one row of blocks per input


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), v^T H)``: reverse over reverse."""
    return _hess_vec(func, inputs, v, create_graph, strict, "vhp")


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), H v)``: equal to vhp for the symmetric Hessian of a twice
    differentiable function; computed the same way (one recorded gradient, one sweep)."""
    return _hess_vec(func, inputs, v, create_graph, strict, "hvp")


def _hess_vec(func, inputs, v, create_graph, strict, fn):
    inputs, in_tuple = _tuple(inputs, "inputs", fn)
    xs = _prepare(inputs, create_graph)
    vs = _vector(v, xs, in_tuple, fn)
    outs, is_tuple = _call(func, xs, fn)
    _check_requires_grad(outs, "outputs", strict)
    _one_element(outs, is_tuple, fn)
    out = outs[0]
    if not out.requires_grad:
        res = [None] * len(xs)
    else:
        gs = grad(out.reshape(()), xs, create_graph=True, allow_unused=True)
        _check_requires_grad(gs, "jacobian", strict)
        pairs = [(g, w, i) for i, (g, w) in enumerate(zip(gs, vs, strict=True))
                 if g is not None and g.requires_grad]
        res = [None] * len(xs)
        if pairs:
            hv = grad([g for g, _, _ in pairs], xs, [w for _, w, _ in pairs],
                      create_graph=create_graph, allow_unused=True)
            res = list(hv)
    return (out if create_graph else out.detach(),
            _out(_finish(res, xs, create_graph, strict, fn), in_tuple))


__all__ = ["hessian", "hvp", "jacobian", "jvp", "vhp", "vjp"]
