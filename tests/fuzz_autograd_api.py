"""Differential fuzzing of autograd API usage against PyTorch: random short programs of
backward/grad (retain_graph, create_graph, allow_unused, materialize_grads), tensor hooks,
post-accumulate-grad and multi-grad hooks, in-place ops on leaves and views under no_grad,
grad-mode and inference-mode blocks, requires_grad_, retain_grad, detach/detach_, .grad
accumulation and resets, run on torch and tapegrad; after each step the values, grads,
flags (requires_grad, is_leaf, grad_fn is None, _version) and any error (type, message)
are compared.  ``python tests/fuzz_autograd_api.py [n_programs] [seed]`` prints each first
difference (tests/test_parity21.py runs a few seeds)."""
import sys

import numpy as np

import tapegrad as tg

N_TENSORS = 4


def _val(t):
    if t is None:
        return None
    return np.round(np.asarray(t.detach(), np.float64), 10).tolist()


VERSIONS = [True]  # (False: leave _version out, to look past its known difference)


def _record(name, t):
    """One tensor's entry of a snapshot, or the error that reading its flags raises (a view
    modified in place after it was made in no_grad mode or inside a custom Function)."""
    try:
        return (name, _val(t), t.requires_grad, t.is_leaf, t.grad_fn is None,
                t._version if VERSIONS[0] else None,
                _val(t.grad) if t.is_leaf or t.retains_grad else "-")
    except RuntimeError as e:
        return name, _val(t), "RuntimeError", str(e).split("\n")[0]


def snapshot(env):
    return [_record(name, env[name]) for name in sorted(env)]


def _pick(rng, env, pred=lambda t: True):
    names = sorted(n for n, t in env.items() if pred(t))
    return names[int(rng.integers(len(names)))] if names else None


UNARY = {"sin": lambda x: x.sin(), "exp": lambda x: (x * 0.1).exp(), "sq": lambda x: x * x,
         "relu": lambda x: x.relu(), "view": lambda x: x.view(-1), "slice": lambda x: x[1:],
         "neg": lambda x: -x, "clone": lambda x: x.clone(), "mul2": lambda x: x * 2}
BINARY = {"add": lambda x, y: x + y, "mul": lambda x, y: x * y, "sub": lambda x, y: x - y}


KINDS = ("unary", "binary", "backward", "grad", "hook", "post_hook", "multi_hook",
         "inplace_nograd", "inplace", "grad_mode", "inference", "requires_grad_",
         "retain_grad", "zero_grad", "detach", "detach_", "leaf", "inplace_view",
         # the wider surface (parity22)
         "backward_inputs", "grad_batched", "anomaly", "saved_hooks", "custom_fn",
         "custom_vmap", "int_op", "module", "again")


def make_program(seed, length=8, kinds=KINDS):
    """A list of (kind, args): drawn once, run on both libraries."""
    rng = np.random.default_rng(seed)
    steps = [("leaf", ("a", [1.0, -2.0, 3.0], True)), ("leaf", ("b", [0.5, 1.5, -1.0], True))]
    for i in range(length):
        k = kinds[int(rng.integers(len(kinds)))]
        r = [float(v) for v in rng.integers(-3, 4, size=3)]
        steps.append((k, (f"t{i}", r, bool(rng.integers(2)), int(rng.integers(1 << 30)))))
    return steps


def run(L, steps):
    """The per-step records of ``steps`` on library ``L``."""
    env, calls, records = {}, [], []
    for i, (kind, args) in enumerate(steps):
        if kind == "grad_batched" and any(k in ("hook", "post_hook", "multi_hook", "module")
                                          for k, _ in steps[:i]):
            kind = "grad"  # (PyTorch runs hooks under vmap: their .detach() has no batch rule)
        rng = np.random.default_rng(args[-1] if kind != "leaf" else 0)
        try:
            note = _step(L, env, calls, kind, args, rng)
            err = None
        except Exception as e:  # noqa: BLE001 (compared)
            note, err = None, (type(e).__name__, str(e).split("\n")[0])
        records.append((kind, err, note, snapshot(env), list(calls)))
    return records


def _step(L, env, calls, kind, args, rng):
    name, vals, flag = args[0], args[1], args[2]
    if kind == "leaf":
        env[name] = L.tensor(vals, requires_grad=flag)
        return None
    if len(env) >= N_TENSORS + 4:
        return "full"
    x = _pick(rng, env)
    if x is None:
        return None
    tx = env[x]
    if kind == "unary":
        op = sorted(UNARY)[int(rng.integers(len(UNARY)))]
        env[name] = UNARY[op](tx)
        return op
    if kind == "binary":
        y = _pick(rng, env, lambda t: t.shape == tx.shape)
        op = sorted(BINARY)[int(rng.integers(len(BINARY)))]
        env[name] = BINARY[op](tx, env[y])
        return op
    if kind == "backward":
        tx.sum().backward(retain_graph=flag)
        return "backward"
    if kind == "grad":
        leaves = [n for n in sorted(env) if env[n].requires_grad][:2]
        opts = dict(retain_graph=flag, create_graph=bool(rng.integers(2)),
                    allow_unused=bool(rng.integers(2)), materialize_grads=bool(rng.integers(2)))
        if opts["materialize_grads"] and not opts["allow_unused"]:
            opts["allow_unused"] = True
        gs = L.autograd.grad(tx.sum(), [env[n] for n in leaves], **opts)
        return [(n, _val(g), None if g is None else g.requires_grad)
                for n, g in zip(leaves, gs, strict=True)], opts
    if kind == "hook":
        tx.register_hook(lambda g, x=x: calls.append(("hook", x, _val(g))) or g * 2)
        return "hook"
    if kind == "post_hook":
        tx.register_post_accumulate_grad_hook(
            lambda t, x=x: calls.append(("post", x, _val(t.grad))))
        return "post"
    if kind == "multi_hook":
        ts = [env[n] for n in sorted(env) if env[n].requires_grad][:2]
        L.autograd.graph.register_multi_grad_hook(
            ts, lambda gs: calls.append(("multi", [_val(g) for g in gs])))
        return "multi"
    if kind == "inplace_nograd":
        with L.no_grad():
            tx.mul_(2.0) if flag else tx.add_(1.0)
        return "nograd"
    if kind == "inplace":
        tx.mul_(2.0) if flag else tx.add_(1.0)
        return "inplace"
    if kind == "inplace_view":
        v = tx[1:]
        with L.no_grad() if flag else _Null():
            v.mul_(3.0)
        return "view"
    if kind == "grad_mode":
        with L.set_grad_enabled(flag):
            env[name] = tx * 3
        return "mode"
    if kind == "inference":
        with L.inference_mode():
            y = tx * 3
        env[name] = y * 1 if flag else y.clone()
        return "inference"
    if kind == "requires_grad_":
        tx.requires_grad_(flag)
        return "rg"
    if kind == "retain_grad":
        tx.retain_grad()
        return "retain"
    if kind == "zero_grad":
        if flag:
            tx.grad = None
        elif tx.grad is not None:
            tx.grad.zero_()
        return "zero"
    if kind == "detach":
        env[name] = tx.detach()
        return "detach"
    if kind == "detach_":
        tx.detach_()
        return "detach_"
    return _wider(L, env, calls, kind, name, flag, rng, x, tx)


def _wider(L, env, calls, kind, name, flag, rng, x, tx):
    """The kinds added by parity22: backward's inputs=, batched grads, anomaly mode,
    saved-tensor hooks, custom Functions (setup_context, vmap), integer results, Module
    hooks, and a second backward of the last output."""
    if kind == "backward_inputs":
        ins = [env[n] for n in sorted(env) if env[n].requires_grad][:1 + int(flag)]
        tx.sum().backward(inputs=ins, retain_graph=bool(rng.integers(2)))
        return "inputs"
    if kind == "grad_batched":
        leaves = [n for n in sorted(env) if env[n].requires_grad][:1]
        gs = L.autograd.grad(tx, [env[n] for n in leaves], grad_outputs=L.eye(3),
                             retain_graph=flag, is_grads_batched=True, allow_unused=True)
        return [(n, _val(g)) for n, g in zip(leaves, gs, strict=True)]
    if kind == "anomaly":
        with L.autograd.detect_anomaly(check_nan=flag):
            y = (tx * 0.5).exp()
            env[name] = y
            if rng.integers(2):
                y.sum().backward(retain_graph=True)
        return "anomaly"
    if kind == "saved_hooks":
        def pack(t):
            calls.append(("pack", _val(t)))
            return t

        def unpack(t):  # (another value than packed: refused under create_graph, a limit)
            calls.append(("unpack", _val(t)))
            return t
        with L.autograd.graph.saved_tensors_hooks(pack, unpack):
            env[name] = tx * tx
        return "saved_hooks"
    if kind == "custom_fn":
        env[name] = _custom(L, flag).apply(tx, 2.0)
        return "custom"
    if kind == "custom_vmap":
        f = _custom(L, True)
        out = L.func.vmap(lambda r: f.apply(r, 3.0))(tx.detach().reshape(3, 1).expand(3, 2))
        env[name] = out.sum(1)
        return "custom_vmap"
    if kind == "int_op":
        op = ("long", "argmax", "gt", "floor_div", "round")[int(rng.integers(5))]
        y = {"long": lambda: tx.long(), "argmax": lambda: tx.argmax().expand(3),
             "gt": lambda: tx > 0, "floor_div": lambda: tx // 2,
             "round": lambda: tx.round()}[op]()
        env[name] = y
        return op, str(y.dtype).split(".")[-1]
    if kind == "module":
        return _module(L, env, calls, name, flag, tx)
    if kind == "again":
        tx.sum().backward()
        tx.sum().backward()
        return "again"
    raise AssertionError(kind)


def _custom(L, with_vmap):
    """A custom Function with forward/setup_context (and a vmap rule) on ``L``."""
    class Scale(L.autograd.Function):
        @staticmethod
        def forward(x, k):
            return x * k

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(inputs[0])
            ctx.k = inputs[1]

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * ctx.k + 0 * x, None

        if with_vmap:
            @staticmethod
            def vmap(info, in_dims, x, k):
                return Scale.apply(x, k), in_dims[0]
    return Scale


def _module(L, env, calls, name, flag, tx):
    """A Linear(3, 3) with fixed weights and forward, pre-forward and backward hooks."""
    lin = L.nn.Linear(3, 3, dtype=L.float64)
    with L.no_grad():
        lin.weight.copy_(L.tensor([[1.0, -1.0, 0.5], [0.0, 2.0, 1.0], [1.5, 0.5, -2.0]]))
        lin.bias.copy_(L.tensor([0.1, -0.2, 0.3]))
    lin.register_forward_pre_hook(lambda m, a: calls.append(("pre", _val(a[0]))))
    lin.register_forward_hook(lambda m, a, o: calls.append(("fwd", _val(o))))
    if flag:
        lin.register_full_backward_hook(
            lambda m, gi, go: calls.append(("bwd", [_val(g) for g in gi],
                                            [_val(g) for g in go])))
    else:
        lin.register_full_backward_pre_hook(
            lambda m, go: calls.append(("bwd_pre", [_val(g) for g in go])))
    env[name] = lin(tx)
    return "module", _val(lin.weight.grad)


class _Null:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def first_difference(seed, torch, kinds=KINDS):
    """None, or (step index, step, torch's record, tapegrad's record)."""
    steps = make_program(seed, kinds=kinds)
    a, b = run(torch, steps), run(tg, steps)
    for i, (ra, rb) in enumerate(zip(a, b, strict=True)):
        if ra != rb:
            return i, steps[i], ra, rb
    return None


def main(n=200, seed=0, kinds=KINDS):
    import warnings

    import torch
    warnings.simplefilter("ignore")
    torch.set_default_dtype(torch.float64)
    found = 0
    for s in range(seed, seed + n):
        d = first_difference(s, torch, kinds)
        if d is not None:
            found += 1
            i, step, ra, rb = d
            print(f"seed {s} step {i} {step[0]}:\n  torch {ra[:3]}\n  tg    {rb[:3]}")
            if ra[3] != rb[3]:
                print("  state torch", ra[3], "\n  state tg   ", rb[3])
            if ra[4] != rb[4]:
                print("  calls torch", ra[4], "\n  calls tg   ", rb[4])
    print(f"{found} of {n} programs differ")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:]))
