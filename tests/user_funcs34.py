"""~120 user-style functions for tests/test_replay34.py: grad modes (detach, no_grad,
enable_grad, set_grad_enabled, inference_mode), in-place ops on views, requires_grad_,
data-dependent branches, captured globals, integer and bool values, float32 casts (refused
by trace), inner autograd.grad, ties and kinks.  ``FUNCS[name] = (f, input size)``."""
import math

import numpy as np

import tapegrad as tg
import tapegrad.nn.functional as F

FUNCS = {}
def reg(n=3):
    def d(f):  # noqa: ANN
        FUNCS[f.__name__] = (f, n)
        return f
    return d

# ---- detach / no_grad / enable_grad / set_grad_enabled / inference_mode
@reg()
def f_detach_mul(x): return (x * x.detach()).sum()
@reg()
def f_detach_sub(x): return ((x - x.detach()).exp() * x).sum()
@reg()
def f_detach_req(x):
    y = x.detach().requires_grad_()
    return (y * x).sum()
@reg()
def f_nograd_const(x):
    with tg.no_grad():
        c = (x * x).sum()
    return x.sum() * c
@reg()
def f_nograd_enable(x):
    with tg.no_grad():
        with tg.enable_grad():
            y = x * 3
        z = x * 4
    return (y * z).sum()
@reg()
def f_setgrad(x):
    with tg.set_grad_enabled(False):
        a = x.exp()
    with tg.set_grad_enabled(True):
        b = x.sin()
    return (a * b).sum()
@reg()
def f_setgrad_fn(x):
    tg.set_grad_enabled(False)
    try:
        a = x * 2
    finally:
        tg.set_grad_enabled(True)
    return (a * x).sum()
@reg()
def f_infer_add(x):
    with tg.inference_mode():
        c = x * 2
    return (x + c).sum()
@reg()
def f_infer_false(x):
    with tg.inference_mode(False):
        c = x * 2
    return (x * c).sum()
@reg()
def f_nograd_decor(x):
    g = tg.no_grad()(lambda t: t.norm())
    return (x / g(x)).sum()
@reg()
def f_detach_inplace_clone(x):
    y = x.detach().clone()
    y.mul_(2)
    return (x * y).sum()
@reg()
def f_detach_chain(x):
    return (x.detach().detach() * x.sin()).sum() + x.detach().sum()
@reg()
def f_nograd_view(x):
    with tg.no_grad():
        v = x[1:]
    return (v * x[:-1]).sum()
@reg()
def f_requires_grad_false(x):
    y = x * 2
    z = y.detach().requires_grad_(False)
    return (z * y).sum()
# ---- in-place on views
@reg(4)
def f_view_mul_(x):
    y = x.clone()
    y[1:].mul_(2)
    return (y * y).sum()
@reg(4)
def f_view_setitem(x):
    y = x * 1
    y[0] = x[1] * 3
    return (y * x).sum()
@reg(4)
def f_view_chain(x):
    y = x.clone().reshape(2, 2)
    y.t()[0].add_(x[:2])
    return (y ** 2).sum()
@reg(4)
def f_view_diag(x):
    y = x.reshape(2, 2).clone()
    y.diagonal().mul_(x[:2])
    return y.sum() + (y * y).sum()
@reg(6)
def f_view_unsq(x):
    y = x.clone().view(2, 3)
    y[:, 1].copy_(x[:2] ** 2)
    return (y.exp()).sum()
@reg(4)
def f_view_addcmul(x):
    y = x.clone()
    y[::2].addcmul_(x[1::2], x[1::2], value=0.5)
    return (y * x).sum()
@reg(4)
def f_view_clamp(x):
    y = x * 2
    y[:2].clamp_(min=0.1)
    return (y * y).sum()
@reg(4)
def f_view_relu_(x):
    y = x * 1.5
    F.relu(y[1:], inplace=True)
    return (y * x).sum()
@reg(4)
def f_view_masked_fill(x):
    y = x.clone()
    y.masked_fill_(x > 0.2, 0.0)
    return (y * x.exp()).sum()
@reg(4)
def f_view_index_put(x):
    y = x.clone()
    y[tg.tensor([0, 2])] = x[1:3] * 2
    return (y * y).sum()
@reg(4)
def f_view_twice(x):
    y = x.clone()
    a = y[:3]
    b = a[1:]
    b.mul_(x[:2])
    a.add_(1)
    return (y * x).sum()
@reg(4)
def f_view_unbind(x):
    y = x.clone()
    for r in y.view(2, 2):
        r.mul_(2)
    return (y * x).sum()
@reg(4)
def f_view_zero_(x):
    y = x.clone()
    y[1].zero_()
    return (y * x.exp()).sum()
@reg(4)
def f_inplace_pow(x):
    y = x.clone()
    y.pow_(2).sub_(x).div_(1.5)
    return y.sum()
@reg(4)
def f_inplace_sigmoid_view(x):
    y = x.clone()
    y[2:].sigmoid_()
    return (y * x).sum()
@reg(4)
def f_inplace_leaf_like(x):
    y = tg.zeros(4, dtype=tg.float64)
    y += x
    y[0] *= x[1]
    return (y * y).sum()
@reg(4)
def f_zeros_fill_slice(x):
    y = tg.zeros(6, dtype=tg.float64)
    y[1:5] = x.sin()
    return (y.cumsum(0) * y).sum()
# ---- requires_grad_
@reg()
def f_const_requires_grad(x):
    c = tg.ones(3, dtype=tg.float64).requires_grad_()
    return (c * x).sum() + (c * c).sum()
@reg()
def f_tensor_from_item(x):
    c = tg.tensor(x[0].item())
    return (c * x).sum()
@reg()
def f_tensor_of_floats(x):
    c = tg.tensor([float(x[0]), float(x[1])], dtype=tg.float64)
    return (c.sum() * x).sum()
# ---- branches
@reg()
def f_branch_sum(x):
    return (x * x).sum() if x.sum() > 0 else x.exp().sum()
@reg()
def f_branch_loop(x):
    y = x
    n = 0
    while y.norm() > 0.5 and n < 8:
        y = y * 0.7
        n += 1
    return y.sum()
@reg()
def f_branch_int(x):
    k = int(x.argmax())
    return x[k] * x.sum()
@reg()
def f_branch_any(x):
    if (x > 0.5).any():
        return x.sum()
    return x.prod()
@reg()
def f_branch_item_math(x):
    return x.sum() * math.cos(x[0].item())
@reg()
def f_branch_mask_index(x):
    return x[x > 0].sum() * 2 + x.sum()
@reg()
def f_branch_nonzero(x):
    i = (x > 0).nonzero()
    return (x[i] ** 2).sum()
@reg()
def f_branch_sort(x):
    s, i = x.sort()
    return (s * tg.arange(3, dtype=tg.float64)).sum() + x[i[0]]
@reg()
def f_branch_topk(x):
    return x.topk(2).values.sum() * x.max()
@reg()
def f_branch_where(x):
    return tg.where(x > 0, x, x * 0.1).sum()
@reg()
def f_branch_bool(x):
    return x.sum() * bool(x[0] > x[1])
@reg()
def f_branch_round(x):
    return x.sum() * round(float(x[1]), 1)
@reg()
def f_branch_eq(x):
    return x.sum() if x[0] == x[1] else x.prod()
@reg()
def f_branch_isnan(x):
    return (x.log()).nan_to_num(0.0).sum()
@reg()
def f_branch_len(x):
    return x[: int((x > 0).sum())].sum()
# ---- captured / globals
W_GLOBAL = tg.tensor([1.0, 2.0, 3.0], dtype=tg.float64)
SCALE = [2.0]
@reg()
def f_global_tensor(x): return (x * W_GLOBAL).sum()
@reg()
def f_global_list(x): return x.sum() * SCALE[0]
# ---- integer / bool
@reg()
def f_int_count(x): return x.sum() * (x > 0).sum()
@reg()
def f_bool_mul(x): return (x * (x > 0)).sum()
@reg()
def f_bool_float(x): return (x * (x > 0).float()).sum()
@reg()
def f_int_arange(x): return (x * tg.arange(3)).sum()
@reg()
def f_int_div(x): return (x * (tg.arange(3) // 2)).sum()
@reg()
def f_bool_logic(x): return (x * ((x > 0) & (x < 1)).double()).sum() + (x * ~(x > 0)).sum()
@reg()
def f_sign(x): return (x.sign() * x ** 2).sum()
@reg()
def f_floor_div(x): return (x // 0.3 * x).sum()
@reg()
def f_remainder(x): return (x % 0.7 * x).sum() + x.fmod(0.4).sum()
@reg()
def f_argmax_gather(x):
    return x.gather(0, x.argsort()).cumsum(0).sum()
@reg()
def f_int_pow(x): return (x ** tg.tensor(2)).sum()
@reg()
def f_sum_bool_int(x):
    return (x.abs() > 0.2).long().sum() * x.sum() + (x > 0).to(tg.int32).sum()
@reg()
def f_eq_float(x): return (x == x).double().sum() * x.sum()
@reg()
def f_int_minmax(x): return x.sum() * (tg.arange(3) * 2).max()
# ---- float32
@reg()
def f_float32_round(x): return ((x.float() * 1.1).double() * x).sum()
@reg()
def f_float32_all(x): return (x.float().exp() * 0.3).sum()
@reg()
def f_float32_to(x): return (x.to(tg.float32) + 1e-9).double().sum()
@reg()
def f_float32_mix(x): return (x.float() * tg.ones(3, dtype=tg.float64)).sum()
@reg()
def f_half(x): return (x.half().double() * x).sum()
@reg()
def f_float32_const(x): return (x * tg.tensor([0.1, 0.2, 0.3], dtype=tg.float32)).sum()
@reg()
def f_type_as(x): return (x * x.float().type_as(x)).sum()
# ---- grad accumulation / autograd inside
@reg()
def f_inner_grad(x):
    y = (x ** 3).sum()
    g, = tg.autograd.grad(y, x, create_graph=True)
    return (g * x).sum()
@reg()
def f_inner_grad_nocreate(x):
    y = (x ** 3).sum()
    g, = tg.autograd.grad(y, x)
    return (g * x).sum()
@reg()
def f_inner_backward(x):
    z = x.detach().requires_grad_()
    (z ** 2).sum().backward()
    return (z.grad * x).sum()
# ---- misc math
@reg()
def f_softmax(x): return (x.softmax(0) * x).sum()
@reg()
def f_logsumexp(x): return x.logsumexp(0) + x.max()
@reg()
def f_norm0(x): return (x - x).norm() + x.norm()
@reg()
def f_abs0(x): return (x * 0).abs().sum() + x.abs().sum()
@reg()
def f_sqrt0(x): return (x * x).sqrt().sum()
@reg()
def f_minimum(x): return tg.minimum(x, x.flip(0)).sum() + tg.maximum(x, x[1]).sum()
@reg()
def f_clamp_eq(x): return x.clamp(min=x[0].item()).sum() * x[1]
@reg()
def f_clamp_tensor(x): return x.clamp(min=x[0], max=x[2]).sum()
@reg()
def f_max_tie(x): return tg.stack([x[0], x[0], x[1]]).max() * 2 + x.sum()
@reg()
def f_amax_tie(x): return tg.stack([x[0], x[0], x[1]]).amax() * 2
@reg()
def f_median(x): return x.median() + x.sum()
@reg()
def f_cummax(x): return x.cummax(0).values.sum() + x.cumprod(0).sum()
@reg()
def f_pow_scalar_base(x): return (2.0 ** x).sum() + (x ** 0.5).abs().sum()
@reg()
def f_atan2(x): return tg.atan2(x, x.flip(0)).sum()
@reg()
def f_hypot(x): return tg.hypot(x, x * 2).sum()
@reg()
def f_copysign(x): return tg.copysign(x, x[0] - 0.5).sum()
@reg()
def f_lerp(x): return tg.lerp(x, x.flip(0), 0.3).sum() * x[0]
@reg(6)
def f_matmul(x): return (x.reshape(2, 3) @ x.reshape(3, 2)).trace()
@reg(6)
def f_einsum(x): return tg.einsum("ij,kj->", x.reshape(2, 3), x.reshape(2, 3).exp())
@reg(6)
def f_var(x): return x.reshape(2, 3).var(1, unbiased=False).sum() + x.std()
@reg()
def f_dist(x): return tg.dist(x, x.flip(0)) + tg.cdist(x[None, None], x[None, None]).sum()
@reg()
def f_dropout_eval(x): return F.dropout(x, 0.5, training=False).sum()
@reg()
def f_trace_in_f(x):
    return tg.trace(tg.outer(x, x))
@reg()
def f_polar(x):
    return x.cosh().sum() - x.sinh().sum() + F.softplus(x, beta=2).sum()
@reg()
def f_scalar_tensor_arith(x):
    t = tg.tensor(2.0)
    return (x * t + t ** 2).sum()
@reg()
def f_std_single(x):
    return x[:1].std(unbiased=False) + x.sum()
@reg()
def f_new_tensor(x):
    return (x.new_tensor([1.0, 2.0, 3.0]) * x).sum() + (x.new_ones(3) * x).sum()
@reg()
def f_zeros_like(x):
    z = tg.zeros_like(x)
    z[1] = 5.0
    return (x * z).sum()
@reg()
def f_full_like(x): return (tg.full_like(x, 0.5) * x + tg.ones_like(x)).sum()
@reg()
def f_expand_inplace(x):
    y = x.clone()
    y += x[0]
    return (y ** 2).sum()
@reg()
def f_sum_int_dim(x):
    return x.reshape(3, 1).sum(dim=1, keepdim=True).squeeze().sum()
@reg()
def f_narrow(x): return x.narrow(0, 1, 2).prod()
@reg()
def f_roll(x): return (x.roll(1) * x).sum()
@reg()
def f_repeat(x): return (x.repeat(2) * tg.arange(6, dtype=tg.float64)).sum()
@reg()
def f_flip_view_inplace(x):
    y = x.clone()
    y.flip(0).mul_(3)  # flip is a copy: no effect on y
    return (y * y).sum()
@reg()
def f_as_strided(x):
    return x.as_strided((2, 2), (1, 1)).sum() * x[0]
@reg()
def f_unfold(x):
    return x.unfold(0, 2, 1).prod(1).sum()
@reg()
def f_index_select(x):
    return x.index_select(0, tg.tensor([2, 2, 0])).cumsum(0).sum()
@reg()
def f_scatter_add(x):
    z = tg.zeros(2, dtype=tg.float64)
    return z.scatter_add(0, tg.tensor([0, 1, 0]), x).prod()
@reg()
def f_index_add_(x):
    z = tg.zeros(2, dtype=tg.float64)
    z.index_add_(0, tg.tensor([0, 1, 0]), x * x)
    return z.prod()
@reg()
def f_masked_scatter(x):
    return x.masked_scatter(x > 0, x.exp()).sum()
@reg()
def f_put(x):
    y = x.clone()
    y.put_(tg.tensor([0]), x[2:3] * 4)
    return (y * x).sum()
@reg()
def f_sigmoid_nan(x):
    return (x.sigmoid().log() + (1 - x.sigmoid()).log()).sum()
@reg()
def f_where_nan_grad(x):
    return tg.where(x > 0, x.sqrt(), tg.zeros_like(x)).sum()
@reg()
def f_xlogy(x):
    return tg.xlogy(x.abs(), x.abs()).sum() + tg.special.xlog1py(x, x.abs()).sum()
@reg()
def f_cross_entropy(x):
    return F.cross_entropy(x.reshape(1, 3), tg.tensor([1])) + F.mse_loss(x, x.flip(0))
@reg()
def f_huber(x):
    return F.smooth_l1_loss(x, tg.zeros_like(x)) + F.huber_loss(x, x.flip(0), delta=0.5)
@reg()
def f_int_tensor_item_idx(x):
    i = tg.tensor(1)
    return x[i] * x[i.item()] + x[-i]
