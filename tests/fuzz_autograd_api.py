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
    return np.round(np.asarray(t.detach()), 10).tolist()


VERSIONS = [True]  # (False: leave _version out, to look past its known difference)


def snapshot(env):
    out = []
    for name in sorted(env):
        t = env[name]
        out.append((name, _val(t), t.requires_grad, t.is_leaf, t.grad_fn is None,
                    t._version if VERSIONS[0] else None,
                    _val(t.grad) if t.is_leaf or t.retains_grad else "-"))
    return out


def _pick(rng, env, pred=lambda t: True):
    names = sorted(n for n, t in env.items() if pred(t))
    return names[int(rng.integers(len(names)))] if names else None


UNARY = {"sin": lambda x: x.sin(), "exp": lambda x: (x * 0.1).exp(), "sq": lambda x: x * x,
         "relu": lambda x: x.relu(), "view": lambda x: x.view(-1), "slice": lambda x: x[1:],
         "neg": lambda x: -x, "clone": lambda x: x.clone(), "mul2": lambda x: x * 2}
BINARY = {"add": lambda x, y: x + y, "mul": lambda x, y: x * y, "sub": lambda x, y: x - y}


KINDS = ("unary", "binary", "backward", "grad", "hook", "post_hook", "multi_hook",
         "inplace_nograd", "inplace", "grad_mode", "inference", "requires_grad_",
         "retain_grad", "zero_grad", "detach", "detach_", "leaf", "inplace_view")


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
    for kind, args in steps:
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
    raise AssertionError(kind)


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
