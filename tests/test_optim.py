"""tapegrad.optim and tapegrad.nn modules: iterates equal to torch.optim's over several steps
(1e-12 in float64), equal to the textbook formulas written out here, float32 kept, state
saved and restored, PyTorch's errors."""
import copy
import warnings

import numpy as np
import pytest

import tapegrad as tg

_r = np.random.default_rng(11)
W0 = _r.standard_normal((3, 4))
B0 = _r.standard_normal(3)
S0 = 0.7  # a 0-d parameter (tapegrad holds it as a Python float)
X = _r.standard_normal((6, 4))

CONFIGS = {
    "sgd": ("SGD", dict(lr=0.1)),
    "sgd_momentum": ("SGD", dict(lr=0.05, momentum=0.9)),
    "sgd_momentum_dampening_wd": ("SGD", dict(lr=0.05, momentum=0.8, dampening=0.3,
                                              weight_decay=0.01)),
    "sgd_nesterov_maximize": ("SGD", dict(lr=0.02, momentum=0.9, nesterov=True, maximize=True)),
    "adam": ("Adam", dict(lr=0.01)),
    "adam_betas_eps": ("Adam", dict(lr=0.02, betas=(0.8, 0.95), eps=1e-6)),
    "adam_wd_amsgrad": ("Adam", dict(lr=0.01, weight_decay=0.1, amsgrad=True)),
    "adam_maximize": ("Adam", dict(lr=0.01, maximize=True)),
    "adamw": ("AdamW", dict(lr=0.01)),
    "adamw_amsgrad_wd": ("AdamW", dict(lr=0.03, weight_decay=0.5, amsgrad=True)),
    "rmsprop": ("RMSprop", dict(lr=0.01)),
    "rmsprop_alpha_eps_wd": ("RMSprop", dict(lr=0.02, alpha=0.9, eps=1e-4, weight_decay=0.1)),
    "rmsprop_momentum": ("RMSprop", dict(lr=0.01, momentum=0.9)),
    "rmsprop_centered": ("RMSprop", dict(lr=0.01, centered=True)),
    "rmsprop_centered_momentum_maximize": ("RMSprop", dict(lr=0.005, momentum=0.5,
                                                           centered=True, maximize=True,
                                                           weight_decay=0.05)),
    "adagrad": ("Adagrad", dict(lr=0.1)),
    "adagrad_lr_decay_wd": ("Adagrad", dict(lr=0.1, lr_decay=0.05, weight_decay=0.1)),
    "adagrad_initial_eps_maximize": ("Adagrad", dict(lr=0.05, initial_accumulator_value=0.3,
                                                     eps=1e-3, maximize=True)),
}


def _loss(x, w, b, s):
    return ((x @ w.T + b).tanh() * s).pow(2).sum() + s * s


def _train(L, name, kw, steps=8, dtype="float64", groups=False):
    dt = getattr(L, dtype)
    w = L.tensor(W0.astype(dtype), requires_grad=True)
    b = L.tensor(B0.astype(dtype), requires_grad=True)
    s = L.tensor(np.asarray(S0, dtype), requires_grad=True)
    x = L.tensor(X.astype(dtype), dtype=dt)
    params = [{"params": [w, b]}, {"params": [s], "lr": kw["lr"] * 0.5}] if groups else \
        [w, b, s]
    opt = getattr(L.optim, name)(params, **kw)
    for _ in range(steps):
        opt.zero_grad()
        _loss(x, w, b, s).backward()
        opt.step()
    return [np.asarray(t.detach(), np.float64) for t in (w, b, s)], opt


@pytest.mark.oracle
@pytest.mark.parametrize("groups", [False, True], ids=["one_group", "two_groups"])
@pytest.mark.parametrize("config", list(CONFIGS))
def test_matches_torch_optim_float64(config, groups, torch):
    name, kw = CONFIGS[config]
    mine, _ = _train(tg, name, kw, groups=groups)
    theirs, _ = _train(torch, name, kw, groups=groups)
    for a, b in zip(mine, theirs, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-13)


@pytest.mark.oracle
@pytest.mark.parametrize("config", list(CONFIGS))
def test_matches_torch_optim_float32(config, torch):
    name, kw = CONFIGS[config]
    # few steps: tapegrad's float32 gradients are rounded once from float64 sweeps, PyTorch's
    # at every op, and maximize=True runs uphill where the difference grows step by step
    mine, opt = _train(tg, name, kw, steps=3, dtype="float32")
    theirs, _ = _train(torch, name, kw, steps=3, dtype="float32")
    for a, b in zip(mine, theirs, strict=True):
        np.testing.assert_allclose(a, b, rtol=2e-5, atol=2e-6)


@pytest.mark.parametrize("config", list(CONFIGS))
def test_float32_parameters_and_state_stay_float32(config):
    name, kw = CONFIGS[config]
    w = tg.tensor(W0.astype(np.float32), requires_grad=True)
    opt = getattr(tg.optim, name)([w], **kw)
    for _ in range(3):
        opt.zero_grad()
        (w * w).sum().backward()
        opt.step()
    assert w.dtype == tg.float32 and w.grad.dtype == tg.float32
    for k, v in opt.state[w].items():
        if k != "step":
            assert v.dtype == tg.float32


# ---- the textbook formulas, written out independently ------------------------------------
def _grad(w):
    """Gradient of sum(w^4) / 4."""
    return w ** 3


def _sgd_reference(w, steps, lr, momentum=0.0, dampening=0.0, wd=0.0, nesterov=False):
    buf = None
    for _ in range(steps):
        g = _grad(w) + wd * w
        if momentum:
            buf = g.copy() if buf is None else momentum * buf + (1 - dampening) * g
            g = g + momentum * buf if nesterov else buf
        w = w - lr * g
    return w


def _adam_reference(w, steps, lr, b1=0.9, b2=0.999, eps=1e-8, wd=0.0, decoupled=False,
                    amsgrad=False):
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    vmax = np.zeros_like(w)
    for t in range(1, steps + 1):
        g = _grad(w)
        if decoupled:
            w = w * (1 - lr * wd)
        else:
            g = g + wd * w
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        vmax = np.maximum(vmax, v)
        vhat = (vmax if amsgrad else v) / (1 - b2 ** t)
        w = w - lr * (m / (1 - b1 ** t)) / (np.sqrt(vhat) + eps * 1.0 / 1.0)
    return w


REFERENCES = {
    "sgd": (lambda: tg.optim.SGD, dict(lr=0.1), lambda w: _sgd_reference(w, 6, 0.1)),
    "sgd_momentum_wd": (lambda: tg.optim.SGD, dict(lr=0.05, momentum=0.9, dampening=0.2,
                                                   weight_decay=0.05),
                        lambda w: _sgd_reference(w, 6, 0.05, 0.9, 0.2, 0.05)),
    "sgd_nesterov": (lambda: tg.optim.SGD, dict(lr=0.05, momentum=0.9, nesterov=True),
                     lambda w: _sgd_reference(w, 6, 0.05, 0.9, nesterov=True)),
    "adam": (lambda: tg.optim.Adam, dict(lr=0.01), lambda w: _adam_reference(w, 6, 0.01)),
    "adam_wd_amsgrad": (lambda: tg.optim.Adam, dict(lr=0.01, weight_decay=0.1, amsgrad=True),
                        lambda w: _adam_reference(w, 6, 0.01, wd=0.1, amsgrad=True)),
    "adamw": (lambda: tg.optim.AdamW, dict(lr=0.01, weight_decay=0.2),
              lambda w: _adam_reference(w, 6, 0.01, wd=0.2, decoupled=True)),
}


@pytest.mark.parametrize("name", list(REFERENCES))
def test_matches_the_textbook_formulas(name):
    cls, kw, ref = REFERENCES[name]
    w0 = np.array([1.5, -0.5, 0.25, 2.0])
    w = tg.tensor(w0, requires_grad=True)
    opt = cls()([w], **kw)
    for _ in range(6):
        opt.zero_grad()
        ((w ** 4).sum() / 4).backward()
        opt.step()
    # Adam's bias correction is applied in a different (equivalent) order: 1e-12 relative
    np.testing.assert_allclose(np.asarray(w.detach()), ref(w0), rtol=1e-12, atol=1e-14)


# ---- zero_grad, groups, state -------------------------------------------------------------
def test_zero_grad_set_to_none_or_zeros():
    w = tg.tensor([1.0, 2.0], requires_grad=True)
    opt = tg.optim.SGD([w], lr=0.1)
    (w * w).sum().backward()
    g = w.grad
    opt.zero_grad(set_to_none=False)
    assert w.grad is g and w.grad.tolist() == [0.0, 0.0]
    opt.zero_grad()
    assert w.grad is None


def test_step_skips_parameters_without_grad():
    a = tg.tensor([1.0], requires_grad=True)
    b = tg.tensor([2.0], requires_grad=True)
    opt = tg.optim.Adam([a, b], lr=0.1)
    (a * 3).sum().backward()
    opt.step()
    assert b.tolist() == [2.0] and b not in opt.state and a in opt.state


def test_state_dict_round_trip_continues_exactly():
    _, kw = CONFIGS["adam_wd_amsgrad"]
    full, _ = _train(tg, "Adam", kw, steps=6)
    # 3 steps, save, a fresh optimizer on the same parameters loads it, 3 more steps
    w = tg.tensor(W0, requires_grad=True)
    b = tg.tensor(B0, requires_grad=True)
    s = tg.tensor(S0, requires_grad=True)
    x = tg.tensor(X)
    opt = tg.optim.Adam([w, b, s], **kw)
    for _ in range(3):
        opt.zero_grad()
        _loss(x, w, b, s).backward()
        opt.step()
    saved = copy.deepcopy(opt.state_dict())
    assert sorted(saved) == ["param_groups", "state"]
    assert saved["param_groups"][0]["params"] == [0, 1, 2]
    assert sorted(saved["state"][0]) == ["exp_avg", "exp_avg_sq", "max_exp_avg_sq", "step"]
    opt2 = tg.optim.Adam([w, b, s], lr=1.0)
    opt2.load_state_dict(saved)
    assert opt2.param_groups[0]["lr"] == kw["lr"]
    for _ in range(3):
        opt2.zero_grad()
        _loss(x, w, b, s).backward()
        opt2.step()
    for a, ref in zip((w, b, s), full, strict=True):
        np.testing.assert_array_equal(np.asarray(a.detach(), np.float64), ref)


@pytest.mark.oracle
def test_state_dict_layout_matches_torch(torch):
    _, opt = _train(tg, "SGD", CONFIGS["sgd_momentum"][1], steps=2, groups=True)
    _, topt = _train(torch, "SGD", CONFIGS["sgd_momentum"][1], steps=2, groups=True)
    mine, theirs = opt.state_dict(), topt.state_dict()
    assert [g["params"] for g in mine["param_groups"]] == \
        [g["params"] for g in theirs["param_groups"]]
    assert sorted(mine["param_groups"][1]) == sorted(theirs["param_groups"][1])
    for i in theirs["state"]:
        np.testing.assert_allclose(np.asarray(mine["state"][i]["momentum_buffer"]),
                                   theirs["state"][i]["momentum_buffer"].numpy(), rtol=1e-12)


def test_step_before_backward_of_an_older_graph_raises_like_torch():
    w = tg.tensor([1.0, 2.0], requires_grad=True)
    opt = tg.optim.SGD([w], lr=0.1)
    w.grad = tg.tensor([1.0, 1.0])
    loss = (w * w).sum()
    opt.step()  # modifies w, which loss saved for its backward
    with pytest.raises(RuntimeError, match="modified by an inplace operation: "
                       r"\[torch.DoubleTensor \[2\]\] is at version 1; expected version 0"):
        loss.backward()


@pytest.mark.parametrize("make, exc, phrase", [
    (lambda w: tg.optim.SGD([w], lr=-1.0), ValueError, "Invalid learning rate: -1.0"),
    (lambda w: tg.optim.SGD([w], lr=0.1, momentum=-0.5), ValueError,
     "Invalid momentum value: -0.5"),
    (lambda w: tg.optim.SGD([w], lr=0.1, nesterov=True), ValueError,
     "Nesterov momentum requires a momentum and zero dampening"),
    (lambda w: tg.optim.Adam([w], betas=(1.0, 0.9)), ValueError,
     "Invalid beta parameter at index 0: 1.0"),
    (lambda w: tg.optim.Adam([w], eps=-1.0), ValueError, "Invalid epsilon value: -1.0"),
    (lambda w: tg.optim.Adam([]), ValueError, "optimizer got an empty parameter list"),
    (lambda w: tg.optim.Adam(w), TypeError, "params argument given to the optimizer should be "
                                            "an iterable of Tensors or dicts"),
    (lambda w: tg.optim.Adam([w * 2]), ValueError, "can't optimize a non-leaf Tensor"),
    (lambda w: tg.optim.Adam([{"params": [w]}, {"params": [w]}]), ValueError,
     "some parameters appear in more than one parameter group"),
    (lambda w: tg.optim.RMSprop([w], alpha=-0.1), ValueError, "Invalid alpha value: -0.1"),
    (lambda w: tg.optim.Adagrad([w], lr_decay=-1.0), ValueError,
     "Invalid lr_decay value: -1.0"),
    (lambda w: tg.optim.Adagrad([w], initial_accumulator_value=-1.0), ValueError,
     "Invalid initial_accumulator_value value: -1.0"),
    (lambda w: tg.optim.LBFGS([{"params": [w]},
                               {"params": [tg.tensor([1.0], requires_grad=True)]}]),
     ValueError, "LBFGS doesn't support per-parameter options (parameter groups)"),
    (lambda w: tg.optim.LBFGS([w], lr=-1.0), ValueError, "Invalid learning rate: -1.0"),
    (lambda w: tg.optim.lr_scheduler.StepLR([w], 2), TypeError, "list is not an Optimizer"),
])
def test_bad_arguments(make, exc, phrase):
    w = tg.tensor([1.0], requires_grad=True)
    with pytest.raises(exc) as info:
        make(w)
    if phrase:
        assert phrase in str(info.value)


def test_duplicate_parameters_in_a_group_warn():
    w = tg.tensor([1.0], requires_grad=True)
    with pytest.warns(UserWarning, match="optimizer contains a parameter group with duplicate "
                                         "parameters"):
        tg.optim.SGD([w, w], lr=0.1)


# ---- modules -------------------------------------------------------------------------------
def test_linear_init_bounds_and_shapes():
    tg.manual_seed(0)
    lin = tg.nn.Linear(16, 4)
    assert lin.weight.shape == (4, 16) and lin.bias.shape == (4,)
    assert np.abs(np.asarray(lin.weight.detach())).max() <= 0.25
    assert isinstance(lin.weight, tg.nn.Parameter) and lin.weight.requires_grad
    assert lin(tg.ones(3, 16)).shape == (3, 4)
    assert tg.nn.Linear(3, 2, bias=False).bias is None
    assert tg.nn.Linear(3, 2, dtype=tg.float32).weight.dtype == tg.float32


@pytest.mark.oracle
def test_sequential_repr_and_parameter_names_match_torch(torch):
    def net(L):
        return L.nn.Sequential(L.nn.Linear(2, 8), L.nn.Tanh(), L.nn.Linear(8, 8), L.nn.ReLU(),
                               L.nn.Linear(8, 1, bias=False))
    mine, theirs = net(tg), net(torch)
    assert repr(mine) == repr(theirs)
    assert [n for n, _ in mine.named_parameters()] == [n for n, _ in theirs.named_parameters()]
    assert list(mine.state_dict()) == list(theirs.state_dict())


@pytest.mark.oracle
def test_module_training_step_matches_torch(torch):
    mine = tg.nn.Sequential(tg.nn.Linear(4, 5), tg.nn.Tanh(), tg.nn.Linear(5, 3))
    theirs = torch.nn.Sequential(torch.nn.Linear(4, 5), torch.nn.Tanh(), torch.nn.Linear(5, 3))
    theirs.double()
    theirs.load_state_dict({k: torch.tensor(np.asarray(v)) for k, v in
                            mine.state_dict().items()})
    target = np.array([0, 2, 1, 1, 0, 2])
    for m, L in ((mine, tg), (theirs, torch)):
        opt = L.optim.Adam(m.parameters(), lr=0.05)
        loss_fn = L.nn.CrossEntropyLoss()
        for _ in range(5):
            opt.zero_grad()
            loss_fn(m(L.tensor(X)), L.tensor(target)).backward()
            opt.step()
    for (n, a), (_, b) in zip(mine.named_parameters(), theirs.named_parameters(), strict=True):
        np.testing.assert_allclose(np.asarray(a.detach()), b.detach().numpy(), rtol=1e-12,
                                   atol=1e-13, err_msg=n)


def test_module_zero_grad_train_eval_and_state():
    net = tg.nn.Sequential(tg.nn.Linear(3, 3), tg.nn.Dropout(0.5), tg.nn.Linear(3, 1))
    net(tg.ones(2, 3)).sum().backward()
    assert all(p.grad is not None for p in net.parameters())
    net.zero_grad()
    assert all(p.grad is None for p in net.parameters())
    net.eval()
    assert not net[1].training
    x = tg.randn(4, 3)
    assert net(x).tolist() == net(x).tolist()  # dropout off
    net.train()
    assert net[1].training
    other = tg.nn.Sequential(tg.nn.Linear(3, 3), tg.nn.Dropout(0.5), tg.nn.Linear(3, 1))
    other.load_state_dict(net.state_dict())
    net.eval()
    other.eval()
    assert other(x).tolist() == net(x).tolist()
    with pytest.raises(RuntimeError, match="Missing key"):
        other.load_state_dict({})
    with pytest.raises(TypeError, match="cannot assign 'torch.DoubleTensor' as parameter 'weight'"):
        net[0].weight = tg.ones(3, 3)


def test_parameter_is_a_tensor_in_every_position():
    p = tg.nn.Parameter(tg.tensor([1.0, 2.0]))
    q = tg.nn.Parameter(tg.tensor(3.0))
    x = tg.tensor([0.5, 0.25])
    y = ((x - p) * p + q / q - x / q + 2.0 ** q - p @ x + (p - p).sum()).sum()
    y.backward()
    # d/dp: x - 2p - x; d/dq: -sum(-x / q^2) + 2 * 2^q ln 2
    # d/dp: (x - 2p) - 2x (p @ x is broadcast over both elements); d/dq: x / q^2 + 2 2^q ln 2
    np.testing.assert_allclose(np.asarray(p.grad), [-0.5 - 2.0, -0.25 - 4.0])
    assert q.grad.item() == pytest.approx(0.75 / 9 + 2 * 8 * np.log(2))
    assert repr(p).startswith("Parameter containing:\ntensor([1., 2.], requires_grad=True)")


# ---- LBFGS: torch's iterates on Rosenbrock ------------------------------------------------
def _rosenbrock(x):
    return ((1 - x[:-1]) ** 2 + 100 * (x[1:] - x[:-1] ** 2) ** 2).sum()


def _lbfgs_run(L, kw, x0, steps):
    x = L.tensor(x0, requires_grad=True)
    opt = L.optim.LBFGS([x], **kw)

    def closure():
        opt.zero_grad()
        loss = _rosenbrock(x)
        loss.backward()
        return loss

    path = []
    for _ in range(steps):
        loss = opt.step(closure)
        path.append([float(loss.detach()), *np.asarray(x.detach(), np.float64)])
    state = opt.state[x]
    return np.array(path), state["func_evals"], state["n_iter"]


LBFGS_CONFIGS = {
    "fixed_step": dict(lr=0.1, max_iter=5),
    "fixed_step_history2": dict(lr=0.05, max_iter=7, history_size=2),
    "strong_wolfe": dict(line_search_fn="strong_wolfe", max_iter=4),
    "strong_wolfe_history3_tols": dict(line_search_fn="strong_wolfe", history_size=3,
                                       max_iter=10, tolerance_grad=1e-5,
                                       tolerance_change=1e-7),
}


@pytest.mark.oracle
@pytest.mark.parametrize("config", list(LBFGS_CONFIGS))
def test_lbfgs_matches_torch_on_rosenbrock(config, torch):
    kw = LBFGS_CONFIGS[config]
    x0 = np.array([-1.2, 1.0, -0.5, 0.8])
    mine, evals, iters = _lbfgs_run(tg, kw, x0, steps=6)
    theirs, tevals, titers = _lbfgs_run(torch, kw, x0, steps=6)
    np.testing.assert_allclose(mine, theirs, rtol=1e-10, atol=1e-12)
    assert (evals, iters) == (tevals, titers)


@pytest.mark.oracle
@pytest.mark.parametrize("line_search_fn", [None, "strong_wolfe"])
def test_lbfgs_matches_torch_over_several_parameters(line_search_fn, torch):
    """Three parameters (one 0-d) as one flat vector, a short history."""
    def run(L):
        w = L.tensor(W0, requires_grad=True)
        b = L.tensor(B0, requires_grad=True)
        s = L.tensor(np.asarray(S0), requires_grad=True)
        x = L.tensor(X)
        opt = L.optim.LBFGS([w, b, s], lr=0.5, max_iter=6, history_size=4,
                            line_search_fn=line_search_fn)

        def closure():
            opt.zero_grad()
            loss = _loss(x, w, b, s) + (w * w).sum() * 0.01
            loss.backward()
            return loss
        for _ in range(4):
            opt.step(closure)
        return [np.asarray(t.detach(), np.float64) for t in (w, b, s)]
    for a, b in zip(run(tg), run(torch), strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-13)


def test_lbfgs_strong_wolfe_converges_and_stops_on_a_small_gradient():
    path, _, _ = _lbfgs_run(tg, dict(line_search_fn="strong_wolfe"), np.array([-1.2, 1.0]),
                                steps=5)
    # (PyTorch's L-BFGS stalls at 2e-5 from the minimum here, by its tolerance_change)
    np.testing.assert_allclose(path[-1, 1:], [1.0, 1.0], atol=1e-4)
    x = tg.tensor([1.0, 1.0], requires_grad=True)  # the minimum: one evaluation, no move
    opt = tg.optim.LBFGS([x])
    calls = []

    def closure():
        calls.append(1)
        opt.zero_grad()
        loss = _rosenbrock(x)
        loss.backward()
        return loss
    assert float(opt.step(closure)) == 0.0 and len(calls) == 1 and x.tolist() == [1.0, 1.0]
    with pytest.raises(RuntimeError, match="requires a closure"):
        opt.step(None)


# ---- lr schedulers: torch's lr sequences -------------------------------------------------
SCHEDULERS = {
    "step": ("StepLR", dict(step_size=3, gamma=0.5)),
    "multistep": ("MultiStepLR", dict(milestones=[2, 5, 5, 9], gamma=0.3)),
    "exponential": ("ExponentialLR", dict(gamma=0.9)),
    "cosine": ("CosineAnnealingLR", dict(T_max=4, eta_min=0.01)),
    "cosine_default": ("CosineAnnealingLR", dict(T_max=7)),
    "lambda": ("LambdaLR", dict(lr_lambda=lambda e: 1.0 / (1 + e) + 0.1 * (e % 3))),
}


def _lr_sequence(L, name, kw, epochs=14, groups=True):
    w = L.tensor(np.array([1.0, 2.0]), requires_grad=True)
    b = L.tensor(np.array([0.5]), requires_grad=True)
    opt = L.optim.SGD([{"params": [w]}, {"params": [b], "lr": 0.3}] if groups else [w, b],
                      lr=0.1, momentum=0.9)
    sched = getattr(L.optim.lr_scheduler, name)(opt, **kw)
    seq = [list(sched.get_last_lr())]
    for _ in range(epochs):
        opt.zero_grad()
        ((w * w).sum() + (b * b).sum()).backward()
        opt.step()
        sched.step()
        seq.append(list(sched.get_last_lr()))
        assert seq[-1] == [g["lr"] for g in opt.param_groups]
    return seq, opt, sched, [np.asarray(t.detach(), np.float64).tolist() for t in (w, b)]


@pytest.mark.oracle
@pytest.mark.parametrize("config", list(SCHEDULERS))
def test_scheduler_lrs_match_torch(config, torch):
    name, kw = SCHEDULERS[config]
    mine, _, _, wm = _lr_sequence(tg, name, kw)
    theirs, _, _, wt = _lr_sequence(torch, name, kw)
    assert mine == theirs  # the same recurrences: equal to the bit
    for a, b in zip(wm, wt, strict=True):  # and so the same SGD iterates
        np.testing.assert_allclose(a, b, rtol=1e-12)


@pytest.mark.oracle
def test_lambda_lr_per_group_and_state_dict_resume(torch):
    def run(L, resume):
        w = L.tensor([1.0], requires_grad=True)
        b = L.tensor([1.0], requires_grad=True)
        opt = L.optim.SGD([{"params": [w]}, {"params": [b], "lr": 0.5}], lr=0.1)
        lambdas = [lambda e: 0.95 ** e, lambda e: 1.0 + e]
        sched = L.optim.lr_scheduler.LambdaLR(opt, lambdas)
        out = []
        for epoch in range(8):
            opt.step()
            sched.step()
            out.append(sched.get_last_lr())
            if resume and epoch == 3:
                saved = copy.deepcopy(sched.state_dict())
                assert saved["lr_lambdas"] == [None, None] and saved["last_epoch"] == 4
                sched = L.optim.lr_scheduler.LambdaLR(opt, lambdas, last_epoch=3)
                sched.load_state_dict(saved)
        return out
    assert run(tg, False) == run(torch, False) == run(tg, True)


@pytest.mark.oracle
@pytest.mark.parametrize("kw", [dict(), dict(mode="max", factor=0.5, patience=1, cooldown=2),
                                dict(threshold_mode="abs", threshold=0.05, patience=0,
                                     min_lr=[0.01, 0.05]),
                                dict(mode="min", factor=0.2, patience=2, eps=0.02)],
                         ids=["default", "max_cooldown", "abs_min_lr", "eps"])
def test_reduce_lr_on_plateau_matches_torch(kw, torch):
    metrics = [1.0, 0.9, 0.95, 0.96, 0.97, 0.89, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9,
               0.9, 0.5, 0.6, 0.7, 0.8, 0.8, 0.8, 0.8]

    def run(L):
        w, b = L.tensor([1.0], requires_grad=True), L.tensor([1.0], requires_grad=True)
        opt = L.optim.SGD([{"params": [w]}, {"params": [b], "lr": 0.2}], lr=0.1)
        sched = L.optim.lr_scheduler.ReduceLROnPlateau(opt, **kw)
        out = [sched.get_last_lr()]
        for m in metrics:
            sched.step(L.tensor(m) if m > 0.85 else m)
            out.append(list(sched.get_last_lr()))
        return out, sched.state_dict()
    (mine, ms), (theirs, ts) = run(tg), run(torch)
    assert mine == theirs
    for k in ("best", "num_bad_epochs", "cooldown_counter", "last_epoch", "min_lrs"):
        assert ms[k] == ts[k], k


def test_scheduler_state_dict_round_trip_and_errors():
    seq, opt, sched, _ = _lr_sequence(tg, "StepLR", dict(step_size=2, gamma=0.5), epochs=3)
    saved = sched.state_dict()
    assert "optimizer" not in saved and saved["last_epoch"] == 3
    other = tg.optim.lr_scheduler.StepLR(opt, step_size=9)
    other.load_state_dict(saved)
    assert other.step_size == 2 and other.get_last_lr() == seq[-1]
    with pytest.raises(KeyError, match=r"param 'initial_lr' is not specified in "
                       r"param_groups\[0\] when resuming an optimizer"):
        tg.optim.lr_scheduler.StepLR(tg.optim.SGD([tg.tensor([1.0], requires_grad=True)]), 2,
                                     last_epoch=4)
    with pytest.raises(ValueError, match="Factor should be < 1.0."):
        tg.optim.lr_scheduler.ReduceLROnPlateau(opt, factor=1.5)
    with pytest.raises(ValueError, match="Expected 2 lr_lambdas, but got 1"):
        tg.optim.lr_scheduler.LambdaLR(opt, [lambda e: 1.0])
    with pytest.raises(ValueError, match="mode maxi is unknown!"):
        tg.optim.lr_scheduler.ReduceLROnPlateau(opt, mode="maxi")


@pytest.mark.oracle
def test_stepping_the_scheduler_first_warns_as_torch(torch):
    for L in (tg, torch):
        opt = L.optim.SGD([L.tensor([1.0], requires_grad=True)], lr=0.1)
        sched = L.optim.lr_scheduler.ExponentialLR(opt, 0.5)
        with pytest.warns(UserWarning, match=r"Detected call of `lr_scheduler.step\(\)` before "
                          r"`optimizer.step\(\)`"):
            sched.step()
        opt = L.optim.SGD([L.tensor([1.0], requires_grad=True)], lr=0.1)
        sched = L.optim.lr_scheduler.ExponentialLR(opt, 0.5)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            opt.step()
            sched.step()
            opt.step()
            sched.step()
        assert sched.get_last_lr() == [0.025]
