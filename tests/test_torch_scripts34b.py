"""Differences from PyTorch found by the scripts s1901 onward (tests/torch_scripts/, run by
test_torch_scripts13.py), each against PyTorch."""
import collections
import importlib
import io

import numpy as np
import pytest

import tapegrad as tg

pytestmark = pytest.mark.oracle


# ---- scatter_reduce_ in place on a tensor with history (s1905, GNN mean aggregation) ------
@pytest.mark.parametrize("include_self", [True, False])
@pytest.mark.parametrize("reduce", ["sum", "prod", "mean", "amax", "amin"])
def test_inplace_scatter_reduce_differentiates_as_pytorch(reduce, include_self,
                                                          torch_float64):
    got = []
    for L in (tg, torch_float64):
        h = L.linspace(-1, 1, 30).view(6, 5).requires_grad_()
        idx = L.tensor([1, 0, 2, 1, 3, 2]).unsqueeze(1).expand(-1, 5)
        out = (h * 2 + 1).scatter_reduce_(0, idx[:4], h[:4] * 3, reduce,
                                          include_self=include_self)
        g, = L.autograd.grad(out.pow(2).sum(), h, create_graph=True)
        g.pow(2).sum().backward()
        got.append((type(out.grad_fn).__name__, out.detach().numpy(), g.detach().numpy(),
                    h.grad.numpy()))
    assert got[0][0] == got[1][0]
    for a, b in zip(got[0][1:], got[1][1:], strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-13, atol=1e-13)


@pytest.mark.parametrize("reduce", ["sum", "prod", "mean", "amax", "amin"])
def test_inplace_scatter_and_index_reduce_into_fresh_zeros_as_pytorch(reduce, torch_float64):
    """A buffer without history (new_zeros) reduced into in place from a source that has
    one: the saved self was a view sharing the buffer's version counter."""
    got = []
    for L in (tg, torch_float64):
        h = L.linspace(-1, 1, 12).view(4, 3).requires_grad_()
        idx = L.tensor([1, 0, 1, 3])
        agg = h.new_zeros(5, 3).scatter_reduce_(0, idx.unsqueeze(1).expand(-1, 3), h * 2,
                                                reduce, include_self=False)
        outs = [agg]
        if reduce != "sum":  # (index_reduce has no sum)
            outs.append(L.ones(5, 3).index_reduce_(0, idx, h.exp(), reduce))
        L.stack(outs).pow(2).sum().backward()
        got.append(([type(o.grad_fn).__name__ for o in outs], [o.detach().numpy() for o in outs],
                    h.grad.numpy()))
    assert got[0][0] == got[1][0]
    for a, b in zip(got[0][1], got[1][1], strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-13)
    np.testing.assert_allclose(got[0][2], got[1][2], rtol=1e-13)


# ---- torch._foreach_*: EMA of parameter lists (s1908; timm's ModelEmaV3 calls these) ------
def _foreach_story(L):
    def fresh():
        return [L.linspace(-1, 1, 6).view(2, 3), L.tensor([0.5, 2.0]), L.tensor(3.0)]
    seen = []
    a, b = fresh(), [t * 2 + 0.25 for t in fresh()]
    for name in ("abs", "exp", "sigmoid", "neg", "sqrt", "reciprocal", "sign", "frac", "clone"):
        seen.append(getattr(L, f"_foreach_{name}")([t.abs() + 0.5 for t in a]))
    for other in (b, 1.5, [0.5, 1.0, 2.0], L.tensor(0.25)):
        for name in ("add", "sub", "mul", "div", "maximum", "minimum", "clamp_min",
                     "clamp_max", "pow"):
            base = [t.abs() + 0.5 for t in a] if name == "pow" else a
            seen.append(getattr(L, f"_foreach_{name}")(base, other))
    seen += [L._foreach_add(a, b, alpha=-0.5), L._foreach_sub(a, b, alpha=3),
             L._foreach_pow(2.0, a), L._foreach_lerp(a, b, 0.3), L._foreach_lerp(a, b, b),
             L._foreach_addcmul(a, b, b, 0.5), L._foreach_addcdiv(a, a, b, [1.0, 2.0, 3.0]),
             L._foreach_addcmul(a, a, b, L.tensor([1.0, -1.0, 0.5])),
             L._foreach_norm(a), L._foreach_norm(a, 1), L._foreach_norm(a, float("inf")),
             L._foreach_max(a)]
    x = fresh()
    for call in (lambda: L._foreach_mul_(x, 0.9), lambda: L._foreach_add_(x, b, alpha=0.1),
                 lambda: L._foreach_lerp_(x, b, 0.5), lambda: L._foreach_sqrt_(
                     L._foreach_abs_(x)), lambda: L._foreach_addcmul_(x, b, b, value=2.0),
                 lambda: L._foreach_copy_(x, b), lambda: L._foreach_zero_(x)):
        r = call()
        seen.append(("same list", r is x, [t.clone() for t in x]))
    p = [L.tensor([1.0, 2.0], requires_grad=True), L.tensor([3.0], requires_grad=True)]
    out = L._foreach_mul(L._foreach_add(p, 1.0), [2.0, 3.0])
    sum(o.sum() for o in out).backward()
    seen.append([q.grad for q in p])
    for bad in (lambda: L._foreach_add(a, b[:2]), lambda: L._foreach_mul(a, [1.0]),
                lambda: L._foreach_exp([]), lambda: L._foreach_mul(a, L.ones(1)),
                lambda: L._foreach_mul_(p, 2.0)):
        with pytest.raises(RuntimeError) as info:
            bad()
        seen.append(str(info.value))
    return seen


def _as_plain(v):
    if hasattr(v, "detach"):
        return v.detach().numpy().tolist()
    if isinstance(v, (list, tuple)):
        return [type(v).__name__, *map(_as_plain, v)]
    return v


def test_foreach_list_ops_as_pytorch(torch_float64):
    ours, theirs = _foreach_story(tg), _foreach_story(torch_float64)
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs, strict=True):
        a, b = _as_plain(a), _as_plain(b)
        assert _close(a, b), (a, b)


def _close(a, b):
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float) and isinstance(b, float):
        return np.isclose(a, b, rtol=1e-14, atol=0)
    return a == b


# ---- torch.utils._pytree's tree_leaves / tree_map_only / tree_map over several trees ------
def _pytree_story(L):
    pt = importlib.import_module(L.__name__ + ".utils._pytree")
    batch = {"x": L.ones(2, 3), "meta": [1, "id", (2.5, None)], "y": (L.zeros(2), 4)}
    seen = [len(pt.tree_leaves(batch)), [type(v).__name__ for v in pt.tree_iter(batch)],
            pt.tree_structure(batch) == pt.tree_flatten(batch)[1],
            str(pt.tree_structure([1, (2, 3)])), pt.tree_is_leaf(3), pt.tree_is_leaf([3]),
            pt.tree_leaves([1, (2, 3)], is_leaf=lambda n: isinstance(n, tuple)),
            pt.tree_map_only(L.Tensor, lambda t: tuple(t.shape), batch),
            pt.tree_map_only((int, float), lambda v: v * 2, batch["meta"]),
            pt.tree_map_only(int | float, lambda v: -v, [1, 2.0, "s"]),
            pt.tree_map_only(lambda v: isinstance(v, str), str.upper, batch["meta"]),
            pt.tree_map(lambda a, b: a + b, [1, (2, 3)], [10, (20, 30)]),
            pt.tree_map(lambda a, b: (a, b), {"p": 1, "q": 2}, {"q": [5], "p": 4}),
            pt.tree_map(lambda a, b: len(b), [1, 2], [[7, 8], (9,)]),
            pt.tree_all(lambda v: v is not None, batch), pt.tree_any(lambda v: v is None, batch),
            pt.tree_map(str, (1, [2]), is_leaf=lambda n: isinstance(n, list))]
    acc = []
    seen += [pt.tree_map_(acc.append, [1, {"a": 2}]), acc]
    return seen


def test_pytree_helpers_as_pytorch(torch_float64):
    assert _pytree_story(tg) == _pytree_story(torch_float64)


# ---- torch.utils.data._utils.collate: collate with a custom type's function (s1924) -------
def _custom_collate_story(L):
    c = importlib.import_module(L.__name__ + ".utils.data._utils.collate")

    class Box:
        def __init__(self, v):
            self.v = v

    def collate_box(batch, *, collate_fn_map=None):
        return L.tensor([b.v for b in batch]) * 10

    fns = dict(c.default_collate_fn_map)
    fns[Box] = collate_box
    samples = [{"b": Box(k), "x": L.ones(2) * k, "n": (k, 0.5 * k, "s", np.int32(k))}
               for k in range(3)]
    out = c.collate(samples, collate_fn_map=fns)
    data = importlib.import_module(L.__name__ + ".utils.data")
    loader = data.DataLoader(samples, batch_size=2, collate_fn=lambda b: c.collate(
        b, collate_fn_map=fns))
    seen = [sorted(out), out["b"].tolist(), out["x"].tolist(), str(out["n"][3].dtype),
            [v.tolist() if hasattr(v, "tolist") else v for v in out["n"]],
            [b["b"].tolist() for b in loader], c.default_collate([np.float64(1.5)]).tolist(),
            c.default_convert(np.ones(2)).tolist(), data.default_collate([[1, 2], [3, 4]])]
    for bad in ([Box(1)], [np.array(["a"])], [object()]):
        with pytest.raises(TypeError) as info:
            c.default_collate(bad)
        seen.append(str(info.value).split(";")[0])
    return seen


def test_collate_with_custom_type_map_as_pytorch(torch_float64):
    ours, theirs = _custom_collate_story(tg), _custom_collate_story(torch_float64)
    assert str(ours) == str(theirs)


# ---- import paths of custom-transformer and training code (s1934) ------------------------
def _import_paths_story(L):
    r = L.__name__
    tr = importlib.import_module(r + ".nn.modules.transformer")
    mod = importlib.import_module(r + ".nn.modules.module")
    typ = importlib.import_module(r + ".types")
    layers = tr._get_clones(L.nn.Linear(2, 3), 3)
    with L.no_grad():
        layers[0].weight.fill_(1.0)
    seen = [type(layers).__name__, len(layers), float(layers[1].weight.sum() != 6.0),
            tr._get_activation_fn("relu")(L.tensor([-1.0, 2.0])).tolist(),
            tr._get_activation_fn("gelu").__name__,
            mod._addindent("Block(\n  (a): X\n\n)", 2), mod._addindent("one", 4),
            isinstance(3, typ.Number), isinstance(2.5, typ.Number), isinstance("a", typ.Number),
            isinstance(L.Size([2]), typ._size.__args__[0])]
    with pytest.raises(RuntimeError) as info:
        tr._get_activation_fn("tanh")
    seen.append(str(info.value))
    for file, name in (("adam", "Adam"), ("adamw", "AdamW"), ("sgd", "SGD"),
                       ("rmsprop", "RMSprop"), ("adagrad", "Adagrad"), ("radam", "RAdam"),
                       ("nadam", "NAdam"), ("adamax", "Adamax"), ("rprop", "Rprop"),
                       ("asgd", "ASGD"), ("adadelta", "Adadelta"),
                       ("sparse_adam", "SparseAdam")):
        m = importlib.import_module(f"{r}.optim.{file}")
        seen.append((file, getattr(m, name) is getattr(L.optim, name),
                     hasattr(L.optim, file)))
    return seen


def test_transformer_helpers_optim_files_and_types_import_as_pytorch(torch_float64):
    assert _import_paths_story(tg) == _import_paths_story(torch_float64)


# ---- a custom Distribution's helpers: utils.lazy_property & co., _get_checked_instance ---
def _custom_distribution_story(L):
    D = L.distributions
    u = importlib.import_module(L.__name__ + ".distributions.utils")

    class Shifted(D.Distribution):
        arg_constraints = {"loc": D.constraints.real}
        support = D.constraints.real

        def __init__(self, loc, validate_args=None):
            (self.loc,) = u.broadcast_all(loc)
            super().__init__(self.loc.shape, validate_args=validate_args)

        @u.lazy_property
        def twice(self):
            return self.loc * 2

        def expand(self, batch_shape, _instance=None):
            new = self._get_checked_instance(Shifted, _instance)
            new.loc = self.loc.expand(batch_shape)
            super(Shifted, new).__init__(L.Size(batch_shape), validate_args=False)
            return new

    class Child(Shifted):
        def __init__(self, loc):
            super().__init__(loc)

    d = Shifted(L.tensor([1.0, 2.0]))
    seen = ["twice" in d.__dict__, d.twice.tolist(), "twice" in d.__dict__, u.euler_constant,
            u.vec_to_tril_matrix(L.arange(1.0, 7.0)).tolist(),
            u.tril_matrix_to_vec(L.arange(9.0).view(3, 3)).tolist(),
            u.tril_matrix_to_vec(L.arange(9.0).view(3, 3), diag=-1).tolist()]
    e = d.expand((3, 2))
    seen += [type(e).__name__, tuple(e.batch_shape), tuple(e.loc.shape), e.twice.tolist()]
    inst = d._get_checked_instance(Shifted)
    seen += [type(inst).__name__, "loc" in inst.__dict__]
    with pytest.raises(NotImplementedError) as info:
        Child(L.tensor([1.0]))._get_checked_instance(Shifted)
    seen.append(str(info.value))
    return seen


def test_custom_distribution_helpers_as_pytorch(torch_float64):
    assert _custom_distribution_story(tg) == _custom_distribution_story(torch_float64)


# ---- _load_from_state_dict overrides and a saved state_dict's _metadata (s1941) -----------
def _legacy_checkpoint_story(L):
    seen = []

    class Block(L.nn.Module):
        _version = 2

        def __init__(self):
            super().__init__()
            self.proj = L.nn.Linear(2, 2)

        def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict,
                                  missing_keys, unexpected_keys, error_msgs):
            version = local_metadata.get("version", None)
            seen.append((prefix, version, sorted(k for k in state_dict if k.startswith(prefix))))
            if version is None or version < 2:
                for name in ("weight", "bias"):
                    if prefix + "fc." + name in state_dict:
                        state_dict[prefix + "proj." + name] = state_dict.pop(prefix + "fc." + name)
            super()._load_from_state_dict(state_dict, prefix, local_metadata, strict,
                                          missing_keys, unexpected_keys, error_msgs)

    src = L.nn.Sequential(Block(), L.nn.Linear(2, 1))
    with L.no_grad():
        for i, p in enumerate(src.parameters()):
            p.copy_(L.arange(float(p.numel())).view_as(p) + i)
    sd = src.state_dict()
    buf = io.BytesIO()
    L.save(sd, buf)
    for weights_only in (True, False):
        buf.seek(0)
        back = L.load(buf, weights_only=weights_only)
        seen.append((type(back).__name__, dict(back._metadata)))
    for meta in ({"0": {"version": 1}}, None):
        legacy = collections.OrderedDict(
            (k.replace("0.proj.", "0.fc."), v) for k, v in sd.items())
        if meta is not None:
            legacy._metadata = meta
        dst = L.nn.Sequential(Block(), L.nn.Linear(2, 1))
        dst.register_load_state_dict_pre_hook(
            lambda m, sd_, prefix, *rest: seen.append(("pre-hook", prefix)))
        seen.append(str(dst.load_state_dict(legacy, strict=False)))
        seen.append(dst[0].proj.weight.tolist())
    fresh = L.nn.Sequential(Block(), L.nn.Linear(2, 1))
    fresh.load_state_dict(back)
    seen.append(fresh[0].proj.bias.tolist())
    return seen


def test_load_from_state_dict_override_and_saved_metadata_as_pytorch(torch_float64):
    assert _legacy_checkpoint_story(tg) == _legacy_checkpoint_story(torch_float64)


# ---- nn.parallel.DistributedDataParallel: unwrapping checks in training scripts ----------
def test_distributed_data_parallel_name_and_refusal_as_pytorch(torch_float64):
    got = []
    for L in (tg, torch_float64):
        par = L.nn.parallel
        lin = L.nn.Linear(2, 1)
        wrapped = L.nn.DataParallel(lin)
        unwrapped = [m.module if isinstance(m, (L.nn.DataParallel,
                                                par.DistributedDataParallel)) else m
                     for m in (lin, wrapped)]
        with pytest.raises(ValueError) as info:
            par.DistributedDataParallel(lin)
        with pytest.raises(RuntimeError) as no_device:
            par.data_parallel(lin, L.ones(3, 2))
        got.append(([u is lin for u in unwrapped], str(info.value), str(no_device.value),
                    issubclass(par.DistributedDataParallel, L.nn.Module)))
    assert got[0] == got[1]
