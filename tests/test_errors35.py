"""PyTorch's exact words in ``str(e)`` (tapegrad/_errors.py): a corpus of bad inputs, each run
under tapegrad and PyTorch 2.13, with the same exception type and the same ``str(e)`` asserted.
Where tapegrad adds its own context (the op, the shapes, the fix), it is an exception note
(shown in a traceback, not in ``str(e)``), which must name the op: the context is not lost.
Both run with float64 as the default dtype (tapegrad's), so messages naming a dtype agree."""
import re
import warnings

import pytest

import tapegrad as tg
from tapegrad import _errors

torch = pytest.importorskip("torch")

B = ["add", "sub", "mul", "div", "true_divide", "pow", "maximum", "minimum", "atan2", "remainder",
     "fmod", "eq", "ne", "lt", "le", "gt", "ge", "hypot", "copysign", "floor_divide", "fmax",
     "fmin", "logaddexp", "xlogy", "float_power", "nextafter", "logical_and", "logical_or",
     "logical_xor", "heaviside", "ldexp", "arctan2", "subtract", "multiply", "divide", "greater",
     "less", "not_equal", "isclose"]
CASES = []
for op in B:
    CASES.append((f"bcast-{op}", f"t.{op}(t.ones(2, 3), t.ones(4, 5))"))
    CASES.append((f"bcast-method-{op}", f"t.ones(2, 3).{op}(t.ones(3, 2))"))
for sym in ["+", "-", "*", "/", "**", "==", "<", ">", "<=", ">=", "!=", "//", "%"]:
    CASES.append((f"bcast-op{sym}", f"t.ones(2, 3) {sym} t.ones(4, 5)"))
for sym in ["&", "|", "^", "<<", ">>"]:
    CASES.append((f"bcast-int{sym}", f"t.ones(2, 3, dtype=t.int64) {sym} t.ones(4, dtype=t.int64)"))
for op in ["add_", "sub_", "mul_", "div_", "pow_", "fmod_", "remainder_", "atan2_",
           "hypot_", "copysign_", "clamp_", "lerp_", "addcmul_", "addcdiv_", "eq_", "lt_"]:
    if op in ("clamp_",):
        CASES.append((f"inplace-{op}", f"t.ones(3).{op}(t.ones(2, 3), t.ones(2, 3))"))
        continue
    if op in ("lerp_",):
        CASES.append((f"inplace-{op}", f"t.ones(3).{op}(t.ones(2, 3), 0.5)"))
        continue
    if op in ("addcmul_", "addcdiv_"):
        CASES.append((f"inplace-{op}", f"t.ones(3).{op}(t.ones(2, 3), t.ones(2, 3))"))
        CASES.append((f"bcast-{op}", f"t.ones(3).{op}(t.ones(2, 3), t.ones(4, 3))"))
        continue
    CASES.append((f"inplace-{op}", f"t.ones(3).{op}(t.ones(2, 3))"))
    CASES.append((f"inplace-bcast-{op}", f"t.ones(2, 3).{op}(t.ones(4, 3))"))
for sym in ["+=", "-=", "*=", "/=", "**="]:
    CASES.append((f"inplace-op{sym}", f"exec('a = t.ones(3)\\na {sym} t.ones(2, 3)')"))
CASES += [
    ("where-bcast", "t.where(t.ones(2, 3) > 0, t.ones(4, 3), t.ones(2, 3))"),
    ("lerp-bcast", "t.lerp(t.ones(2, 3), t.ones(4, 3), 0.5)"),
    ("addcmul-bcast", "t.addcmul(t.ones(2, 3), t.ones(4, 3), t.ones(2, 3))"),
    ("clamp-bcast", "t.clamp(t.ones(2, 3), t.ones(4, 3))"),
    ("masked_fill-bcast", "t.ones(2, 3).masked_fill(t.ones(4, 3) > 0, 1.0)"),
    ("broadcast_tensors", "t.broadcast_tensors(t.ones(2, 3), t.ones(4, 3))"),
    ("broadcast_shapes", "t.broadcast_shapes((2, 3), (4, 3))"),
    ("mse-bcast", "F.mse_loss(t.ones(2, 3), t.ones(4, 3))"),
    ("grad-bcast", "(t.ones(2, 3, requires_grad=True) * t.ones(2, 3)).sum().backward(t.ones(2))"),
    # matmul family
    ("matmul-2d", "t.matmul(t.ones(2, 3), t.ones(4, 5))"),
    ("matmul-op", "t.ones(2, 3) @ t.ones(4, 5)"),
    ("matmul-1d", "t.matmul(t.ones(3), t.ones(4))"),
    ("matmul-1d2d", "t.matmul(t.ones(3), t.ones(4, 5))"),
    ("matmul-2d1d", "t.matmul(t.ones(2, 3), t.ones(4))"),
    ("matmul-3d", "t.matmul(t.ones(2, 2, 3), t.ones(2, 4, 5))"),
    ("matmul-batch", "t.matmul(t.ones(2, 2, 3), t.ones(3, 3, 5))"),
    ("matmul-0d", "t.matmul(t.ones(()), t.ones(3))"),
    ("mm", "t.mm(t.ones(2, 3), t.ones(4, 5))"),
    ("mm-1d", "t.mm(t.ones(3), t.ones(3, 5))"),
    ("mm-dtype", "t.mm(t.ones(2, 3), t.ones(3, 5, dtype=t.float32))"),
    ("matmul-dtype", "t.matmul(t.ones(2, 3), t.ones(3, 5, dtype=t.float32))"),
    ("bmm", "t.bmm(t.ones(2, 2, 3), t.ones(2, 4, 5))"),
    ("bmm-batch", "t.bmm(t.ones(2, 2, 3), t.ones(3, 3, 5))"),
    ("bmm-2d", "t.bmm(t.ones(2, 3), t.ones(3, 5))"),
    ("mv", "t.mv(t.ones(2, 3), t.ones(4))"),
    ("mv-1d", "t.mv(t.ones(3), t.ones(3))"),
    ("dot", "t.dot(t.ones(3), t.ones(4))"),
    ("dot-2d", "t.dot(t.ones(3, 1), t.ones(3))"),
    ("dot-dtype", "t.dot(t.ones(3), t.ones(3, dtype=t.float32))"),
    ("vdot", "t.vdot(t.ones(3), t.ones(4))"),
    ("inner", "t.inner(t.ones(3), t.ones(4))"),
    ("addmm", "t.addmm(t.ones(2, 5), t.ones(2, 3), t.ones(4, 5))"),
    ("addmm-bias", "t.addmm(t.ones(3, 5), t.ones(2, 3), t.ones(3, 5))"),
    ("baddbmm", "t.baddbmm(t.ones(2, 2, 5), t.ones(2, 2, 3), t.ones(2, 4, 5))"),
    ("addbmm", "t.addbmm(t.ones(2, 5), t.ones(2, 2, 3), t.ones(2, 4, 5))"),
    ("addmv", "t.addmv(t.ones(2), t.ones(2, 3), t.ones(4))"),
    ("linear", "F.linear(t.ones(2, 3), t.ones(4, 5))"),
    ("linear-3d", "F.linear(t.ones(2, 2, 3), t.ones(4, 5))"),
    ("linear-1d", "F.linear(t.ones(3), t.ones(4, 5))"),
    ("linear-bias", "F.linear(t.ones(2, 3), t.ones(4, 3), t.ones(5))"),
    ("linear-module", "t.nn.Linear(3, 4)(t.ones(2, 5))"),
    ("linear-dtype", "F.linear(t.ones(2, 3), t.ones(4, 3, dtype=t.float32))"),
    ("bilinear", "F.bilinear(t.ones(2, 3), t.ones(2, 4), t.ones(5, 3, 3))"),
    ("tensordot", "t.tensordot(t.ones(2, 3), t.ones(4, 5), dims=1)"),
    ("einsum", "t.einsum('ij,jk->ik', t.ones(2, 3), t.ones(4, 5))"),
    ("outer-2d", "t.outer(t.ones(2, 3), t.ones(3))"),
    ("conv1d-ch", "F.conv1d(t.ones(1, 3, 8), t.ones(4, 2, 3))"),
    ("conv2d-ch", "F.conv2d(t.ones(1, 3, 8, 8), t.ones(4, 2, 3, 3))"),
    ("conv2d-dim", "F.conv2d(t.ones(3, 8), t.ones(4, 3, 3, 3))"),
    ("conv2d-big", "F.conv2d(t.ones(1, 3, 2, 2), t.ones(4, 3, 3, 3))"),
    ("conv2d-wdim", "F.conv2d(t.ones(1, 3, 8, 8), t.ones(4, 3, 3))"),
    ("conv2d-bias", "F.conv2d(t.ones(1, 3, 8, 8), t.ones(4, 3, 3, 3), t.ones(5))"),
    ("conv2d-module", "t.nn.Conv2d(3, 4, 3)(t.ones(1, 2, 8, 8))"),
    ("conv1d-module", "t.nn.Conv1d(3, 4, 3)(t.ones(1, 2, 8))"),
    ("conv_transpose2d", "F.conv_transpose2d(t.ones(1, 3, 8, 8), t.ones(4, 2, 3, 3))"),
    ("conv2d-dtype", "F.conv2d(t.ones(1, 3, 8, 8), t.ones(4, 3, 3, 3, dtype=t.float32))"),
    ("conv2d-groups", "F.conv2d(t.ones(1, 3, 8, 8), t.ones(4, 3, 3, 3), groups=2)"),
    # reshape / view / expand
    ("reshape", "t.ones(2, 3).reshape(4, 2)"),
    ("reshape-fn", "t.reshape(t.ones(2, 3), (7,))"),
    ("reshape-2neg", "t.ones(2, 3).reshape(-1, -1)"),
    ("reshape-neg", "t.ones(2, 3).reshape(-1, 4)"),
    ("reshape-bad", "t.ones(2, 3).reshape(-2, 3)"),
    ("reshape-0", "t.ones(2, 3).reshape(0, -1)"),
    ("view", "t.ones(2, 3).view(4, 4)"),
    ("view-neg", "t.ones(2, 3).view(-1, 4)"),
    ("view-2neg", "t.ones(2, 3).view(-1, -1)"),
    ("view-stride", "t.ones(2, 3).t().view(6)"),
    ("view-dtype", "t.ones(2, 3, dtype=t.float32).view(t.complex64)"),
    ("view_as", "t.ones(2, 3).view_as(t.ones(4))"),
    ("reshape_as", "t.ones(2, 3).reshape_as(t.ones(4))"),
    ("expand", "t.ones(2, 3).expand(3, 4)"),
    ("expand-few", "t.ones(2, 3).expand(3)"),
    ("expand-neg", "t.ones(2, 3).expand(-1, 4)"),
    ("expand-newneg", "t.ones(2, 3).expand(-1, 2, 3)"),
    ("expand_as", "t.ones(2, 3).expand_as(t.ones(3, 4))"),
    ("broadcast_to", "t.broadcast_to(t.ones(2, 3), (3, 4))"),
    ("repeat-few", "t.ones(2, 3).repeat(2)"),
    ("repeat-neg", "t.ones(2, 3).repeat(2, -1)"),
    ("tile-neg", "t.ones(2, 3).tile(2, -1)"),
    ("flatten-range", "t.ones(2, 3).flatten(1, 0)"),
    ("unflatten", "t.ones(2, 6).unflatten(1, (4, 2))"),
    ("unflatten-dim", "t.ones(2, 6).unflatten(5, (3, 2))"),
    ("sum_to_size", "t.ones(2, 3).sum_to_size(4)"),
    ("view-0d", "t.ones(()).view(2)"),
    ("unfold-big", "t.ones(2, 3).unfold(0, 3, 1)"),
    ("narrow-len", "t.ones(2, 3).narrow(1, 2, 2)"),
    ("narrow-dim", "t.ones(2, 3).narrow(5, 0, 1)"),
    ("select-idx", "t.ones(2, 3).select(1, 5)"),
    ("select-dim", "t.ones(2, 3).select(5, 0)"),
    ("chunk-0", "t.ones(2, 3).chunk(0)"),
    ("split-dim", "t.ones(2, 3).split(1, 5)"),
    ("split-sizes", "t.ones(2, 3).split([1, 1], 1)"),
    ("tensor_split-dim", "t.ones(2, 3).tensor_split(2, 5)"),
    ("movedim", "t.ones(2, 3).movedim(0, 5)"),
    ("movedim-rep", "t.ones(2, 3).movedim((0, 0), (0, 1))"),
    ("diagonal-dim", "t.ones(2, 3).diagonal(0, 0, 5)"),
    ("diagonal-same", "t.ones(2, 3).diagonal(0, 0, 0)"),
    ("diag-3d", "t.diag(t.ones(2, 2, 2))"),
    ("triu-1d", "t.triu(t.ones(3))"),
    ("trace-1d", "t.trace(t.ones(3))"),
    ("t-3d", "t.ones(2, 3, 4).t()"),
    ("unfold-dim", "t.ones(2, 3).unfold(5, 1, 1)"),
    ("unfold-size", "t.ones(2, 3).unfold(1, 5, 1)"),
    ("flip-dim", "t.ones(2, 3).flip(5)"),
    ("flip-rep", "t.ones(2, 3).flip(0, 0)"),
    ("roll-dim", "t.ones(2, 3).roll(1, 5)"),
    ("roll-len", "t.ones(2, 3).roll((1, 2), (0,))"),
    ("roll-flat", "t.ones(2, 3).roll((1, 2))"),
    ("rot90-dims", "t.ones(2, 3).rot90(1, (0, 5))"),
    ("unbind-dim", "t.ones(2, 3).unbind(5)"),
    ("squeeze", "t.ones(2, 3).squeeze(5)"),
    ("squeeze-neg", "t.ones(2, 3).squeeze(-5)"),
    ("squeeze-tuple", "t.ones(2, 3).squeeze((0, 5))"),
    ("unsqueeze", "t.ones(2, 3).unsqueeze(5)"),
    ("unsqueeze-neg", "t.ones(2, 3).unsqueeze(-5)"),
    ("transpose", "t.ones(2, 3).transpose(0, 5)"),
    ("transpose-neg", "t.ones(2, 3).transpose(-5, 0)"),
    ("swapaxes", "t.ones(2, 3).swapaxes(0, 5)"),
    ("permute-len", "t.ones(2, 3).permute(0)"),
    ("permute-dim", "t.ones(2, 3).permute(0, 5)"),
    ("permute-rep", "t.ones(2, 3).permute(0, 0)"),
    ("permute-fn", "t.permute(t.ones(2, 3), (1, 1))"),
    ("cat-dim", "t.cat([t.ones(2, 3), t.ones(2, 3)], 5)"),
    ("cat-shape", "t.cat([t.ones(2, 3), t.ones(4, 5)])"),
    ("cat-shape1", "t.cat([t.ones(2, 3), t.ones(4, 5)], 1)"),
    ("cat-ndim", "t.cat([t.ones(2, 3), t.ones(3)])"),
    ("cat-empty", "t.cat([])"),
    ("cat-0d", "t.cat([t.ones(()), t.ones(())])"),
    ("concat-shape", "t.concat([t.ones(2, 3), t.ones(4, 5)])"),
    ("stack-shape", "t.stack([t.ones(2, 3), t.ones(3, 2)])"),
    ("stack-dim", "t.stack([t.ones(2, 3), t.ones(2, 3)], 5)"),
    ("stack-empty", "t.stack([])"),
    ("hstack-shape", "t.hstack([t.ones(2, 3), t.ones(3, 3)])"),
    ("vstack-shape", "t.vstack([t.ones(2, 3), t.ones(2, 4)])"),
    ("index_select-dim", "t.ones(2, 3).index_select(5, t.tensor([0]))"),
    ("index_select-range", "t.ones(2, 3).index_select(1, t.tensor([5]))"),
    ("index_select-neg", "t.ones(2, 3).index_select(1, t.tensor([-1]))"),
    ("index_select-float", "t.ones(2, 3).index_select(1, t.tensor([0.0]))"),
    ("index_select-2d", "t.ones(2, 3).index_select(1, t.tensor([[0]]))"),
    ("gather-dim", "t.ones(2, 3).gather(5, t.tensor([[0]]))"),
    ("gather-range", "t.ones(2, 3).gather(1, t.tensor([[5]]))"),
    ("gather-float", "t.ones(2, 3).gather(1, t.tensor([[0.0]]))"),
    ("gather-ndim", "t.ones(2, 3).gather(1, t.tensor([0]))"),
    ("gather-size", "t.ones(2, 3).gather(1, t.zeros(3, 3, dtype=t.int64))"),
    ("scatter-dim", "t.ones(2, 3).scatter(5, t.tensor([[0]]), 1.0)"),
    ("scatter-range", "t.ones(2, 3).scatter(1, t.tensor([[5]]), 1.0)"),
    ("scatter-float", "t.ones(2, 3).scatter(1, t.tensor([[0.0]]), 1.0)"),
    ("scatter-src-dtype",
     "t.ones(2, 3).scatter(1, t.tensor([[0]]), t.ones(1, 1, dtype=t.float32))"),
    ("scatter_add-range", "t.ones(2, 3).scatter_add(1, t.tensor([[5]]), t.ones(1, 1))"),
    ("scatter_add-ndim", "t.ones(2, 3).scatter_add(1, t.tensor([0]), t.ones(1, 1))"),
    ("index_add-dim", "t.ones(2, 3).index_add(5, t.tensor([0]), t.ones(2, 1))"),
    ("index_add-range", "t.ones(2, 3).index_add(1, t.tensor([5]), t.ones(2, 1))"),
    ("index_add-src", "t.ones(2, 3).index_add(1, t.tensor([0]), t.ones(3, 1))"),
    ("index_fill-range", "t.ones(2, 3).index_fill(1, t.tensor([5]), 1.0)"),
    ("index_copy-range", "t.ones(2, 3).index_copy(1, t.tensor([5]), t.ones(2, 1))"),
    ("take-range", "t.ones(2, 3).take(t.tensor([9]))"),
    ("getitem-range", "t.ones(2, 3)[5]"),
    ("getitem-range1", "t.ones(2, 3)[0, 5]"),
    ("getitem-toomany", "t.ones(2, 3)[0, 0, 0]"),
    ("getitem-tensor-range", "t.ones(2, 3)[t.tensor([5])]"),
    ("getitem-mask", "t.ones(2, 3)[t.ones(3, dtype=t.bool)]"),
    ("getitem-float", "t.ones(2, 3)[t.tensor([0.0])]"),
    ("setitem-shape", "exec('a = t.ones(2, 3)\\na[0] = t.ones(4)')"),
    ("setitem-range", "exec('a = t.ones(2, 3)\\na[5] = 1.0')"),
    ("masked_select-bcast", "t.ones(2, 3).masked_select(t.ones(4, 3) > 0)"),
    ("masked_fill-float", "t.ones(2, 3).masked_fill(t.ones(2, 3), 1.0)"),
    ("masked_fill-valuedim", "t.ones(2, 3).masked_fill(t.ones(2, 3) > 0, t.ones(2))"),
    ("where-cond-float", "t.where(t.ones(2, 3), t.ones(2, 3), t.ones(2, 3))"),
    ("embedding-range", "F.embedding(t.tensor([5]), t.ones(3, 2))"),
    ("embedding-float", "F.embedding(t.tensor([0.0]), t.ones(3, 2))"),
    ("one_hot-range", "F.one_hot(t.tensor([5]), 3)"),
    ("cross_entropy-range", "F.cross_entropy(t.ones(2, 3), t.tensor([0, 5]))"),
    ("cross_entropy-shape", "F.cross_entropy(t.ones(2, 3), t.tensor([0, 1, 2]))"),
    ("nll-range", "F.nll_loss(t.ones(2, 3), t.tensor([0, 5]))"),
    ("nll-float", "F.nll_loss(t.ones(2, 3), t.tensor([0.0, 1.0]))"),
    ("bce-shape", "F.binary_cross_entropy(t.ones(2, 3) / 2, t.ones(3, 2))"),
    ("layer_norm-shape", "F.layer_norm(t.ones(2, 3), (4,))"),
    ("layer_norm-weight", "F.layer_norm(t.ones(2, 3), (3,), t.ones(4))"),
    ("batch_norm-shape", "F.batch_norm(t.ones(2, 3), t.ones(4), t.ones(4))"),
    ("group_norm-groups", "F.group_norm(t.ones(2, 6, 4), 4)"),
    ("bn-module", "t.nn.BatchNorm1d(4)(t.ones(2, 3))"),
    ("ln-module", "t.nn.LayerNorm(4)(t.ones(2, 3))"),
    ("embedding-module", "t.nn.Embedding(3, 2)(t.tensor([5]))"),
    ("max_pool2d-dim", "F.max_pool2d(t.ones(3), 2)"),
    ("max_pool2d-small", "F.max_pool2d(t.ones(1, 1, 1, 1), 2)"),
    ("avg_pool2d-small", "F.avg_pool2d(t.ones(1, 1, 1, 1), 2)"),
    ("pad-odd", "F.pad(t.ones(2, 3), (1,))"),
    ("pad-long", "F.pad(t.ones(2, 3), (1, 1, 1, 1, 1, 1))"),
    ("softmax-dim", "F.softmax(t.ones(2, 3), 5)"),
    ("log_softmax-dim", "F.log_softmax(t.ones(2, 3), 5)"),
    ("softmax-method-dim", "t.ones(2, 3).softmax(5)"),
    ("dropout-p", "F.dropout(t.ones(2, 3), 1.5)"),
    ("glu-odd", "F.glu(t.ones(2, 3))"),
    ("glu-dim", "F.glu(t.ones(2, 4), 5)"),
    ("cosine_similarity", "F.cosine_similarity(t.ones(2, 3), t.ones(4, 3))"),
    ("normalize-dim", "F.normalize(t.ones(2, 3), dim=5)"),
    ("pairwise_distance", "F.pairwise_distance(t.ones(2, 3), t.ones(2, 4))"),
    ("cdist", "t.cdist(t.ones(2, 3), t.ones(2, 4))"),
    ("cross-dim", "t.cross(t.ones(2, 3), t.ones(2, 3), dim=5)"),
    ("cross-size", "t.linalg.cross(t.ones(2, 4), t.ones(2, 4))"),
    ("cross-bcast", "t.linalg.cross(t.ones(2, 3), t.ones(4, 3))"),
    ("dist-bcast", "t.dist(t.ones(2, 3), t.ones(4, 3))"),
    ("inv-shape", "t.linalg.inv(t.ones(2, 3))"),
    ("det-shape", "t.det(t.ones(2, 3))"),
    ("solve-shape", "t.linalg.solve(t.eye(3), t.ones(4))"),
    ("cholesky-shape", "t.linalg.cholesky(t.ones(2, 3))"),
    ("trapz", "t.trapezoid(t.ones(2, 3), dim=5)"),
    ("diff-dim", "t.diff(t.ones(2, 3), dim=5)"),
    ("diff-prepend", "t.diff(t.ones(2, 3), prepend=t.ones(3, 3))"),
    ("cumsum-dim", "t.ones(2, 3).cumsum(5)"),
    ("cumprod-dim", "t.ones(2, 3).cumprod(5)"),
    ("cummax-dim", "t.ones(2, 3).cummax(5)"),
    ("cummin-dim", "t.ones(2, 3).cummin(5)"),
    ("logcumsumexp-dim", "t.ones(2, 3).logcumsumexp(5)"),
    ("sort-dim", "t.ones(2, 3).sort(5)"),
    ("argsort-dim", "t.ones(2, 3).argsort(5)"),
    ("topk-dim", "t.ones(2, 3).topk(1, 5)"),
    ("topk-k", "t.ones(2, 3).topk(5)"),
    ("kthvalue-k", "t.ones(2, 3).kthvalue(5)"),
    ("kthvalue-dim", "t.ones(2, 3).kthvalue(1, 5)"),
    ("renorm-dim", "t.ones(2, 3).renorm(2, 5, 1.0)"),
    ("searchsorted-shape", "t.searchsorted(t.ones(2, 3), t.ones(3, 3))"),
    ("bucketize-float", "t.bucketize(t.ones(3), t.ones(2, 2))"),
    ("histc-int", "t.histc(t.ones(3, dtype=t.int64))"),
    ("bincount-2d", "t.bincount(t.ones(2, 2, dtype=t.int64))"),
    ("bincount-neg", "t.bincount(t.tensor([-1]))"),
    ("repeat_interleave-dim", "t.ones(2, 3).repeat_interleave(2, 5)"),
    ("repeat_interleave-len", "t.ones(2, 3).repeat_interleave(t.tensor([1, 2, 3]), 0)"),
    # dtype mismatches / type errors
    ("add-bool-sub", "t.ones(2, dtype=t.bool) - t.ones(2, dtype=t.bool)"),
    ("neg-bool", "-t.ones(2, dtype=t.bool)"),
    ("bitwise-float", "t.ones(2) & t.ones(2)"),
    ("invert-float", "~t.ones(2)"),
    ("shift-float", "t.ones(2) << 1"),
    ("iadd-int-float", "exec('a = t.ones(2, dtype=t.int64)\\na += t.ones(2)')"),
    ("imul-int-float", "t.ones(2, dtype=t.int64).mul_(1.5)"),
    ("idiv-int", "t.ones(2, dtype=t.int64).div_(2)"),
    ("copy-shape", "t.ones(2, 3).copy_(t.ones(4))"),
    ("requires_grad-int", "t.ones(2, dtype=t.int64).requires_grad_()"),
    ("tensor-rg-int", "t.tensor([1, 2], requires_grad=True)"),
    ("backward-nonscalar", "(t.ones(2, requires_grad=True) * 2).backward()"),
    ("backward-noreq", "t.ones(2).sum().backward()"),
    ("item-many", "t.ones(2).item()"),
    ("bool-many", "bool(t.ones(2))"),
    ("float-many", "float(t.ones(2))"),
    ("int-many", "int(t.ones(2))"),
    ("len-0d", "len(t.ones(()))"),
    ("iter-0d", "iter(t.ones(()))"),
    ("numpy-grad", "t.ones(2, requires_grad=True).numpy()"),
    ("leaf-inplace", "t.ones(2, requires_grad=True).add_(1)"),
    ("arange-step0", "t.arange(0, 5, 0)"),
    ("arange-bound", "t.arange(5, 0, 1)"),
    ("linspace-neg", "t.linspace(0, 1, -1)"),
    ("zeros-neg", "t.zeros(-1)"),
    ("ones-neg", "t.ones(2, -3)"),
    ("empty-neg", "t.empty(-2)"),
    ("full-neg", "t.full((-1,), 1.0)"),
    ("randn-neg", "t.randn(-1)"),
    ("eye-neg", "t.eye(-1)"),
    ("eye-neg-m", "t.eye(2, -1)"),
    ("randint-range", "t.randint(5, 3, (2,))"),
    ("multinomial-neg", "t.multinomial(t.tensor([-1.0, 1.0]), 1)"),
    ("multinomial-n", "t.multinomial(t.tensor([1.0, 1.0]), 3)"),
    ("normal-std", "t.normal(0.0, -1.0, (2,))"),
    ("normal-std-half", "t.normal(t.zeros(2), -0.5)"),
    ("normal-std-tensor", "t.normal(0.0, t.tensor([-1.0, 1.0]))"),
    ("tensor-ragged", "t.tensor([[1, 2], [3]])"),
    ("cat-ndim1", "t.cat([t.ones(2), t.ones(2, 3)], 1)"),
    ("clamp-none", "t.clamp(t.ones(2))"),
    ("chunk-neg", "t.ones(4).chunk(-1)"),
    ("split-neg", "t.ones(4).split(-1)"),
    ("fold", "F.fold(t.ones(1, 4, 3), (3, 3), 2)"),
    ("interpolate-size", "F.interpolate(t.ones(1, 1, 4), size=(2, 2))"),
    ("pixel_shuffle", "F.pixel_shuffle(t.ones(1, 3, 2, 2), 2)"),
]
# dim out of range across reductions and dim ops
R = ["sum", "mean", "prod", "max", "min", "amax", "amin", "argmax", "argmin", "std", "var",
     "logsumexp", "any", "all", "median", "nanmedian", "mode", "nansum", "nanmean",
     "count_nonzero", "norm", "aminmax", "softmax", "log_softmax",
     "cumsum", "cumprod", "flatten", "squeeze", "unsqueeze", "unbind", "flip", "narrow"]
for op in R:
    args = {"norm": "2, 5", "flatten": "5", "narrow": "5, 0, 1", "aminmax": "dim=5",
            "flip": "(5,)"}.get(op, "5")
    CASES.append((f"dim-{op}", f"t.ones(2, 3).{op}({args})"))
    if op in ("sum", "mean", "amax", "amin", "std", "var", "logsumexp", "nansum", "count_nonzero",
              "any", "all", "prod"):
        CASES.append((f"dim-fn-{op}", f"t.{op}(t.ones(2, 3), -3)"))
    if op in ("sum", "mean", "amax", "amin", "std", "var", "logsumexp", "nansum", "count_nonzero",
              "any", "all"):
        CASES.append((f"dim-tuple-{op}", f"t.{op}(t.ones(2, 3), (0, 5))"))
        CASES.append((f"dim-rep-{op}", f"t.{op}(t.ones(2, 3), (0, 0))"))
        CASES.append((f"dim-0d-{op}", f"t.{op}(t.ones(()), 1)"))
for op in ["sum", "mean", "max", "argmax", "softmax", "cumsum", "squeeze", "transpose", "select",
           "unsqueeze"]:
    args = {"transpose": "0, 1", "select": "1, 0", "unsqueeze": "2"}.get(op, "1")
    CASES.append((f"dim-0d-{op}-method", f"t.ones(()).{op}({args})"))
for op in ["max", "min", "argmax", "argmin", "amax", "median", "mode", "kthvalue", "topk"]:
    args = {"kthvalue": "1, 1", "topk": "1, 1"}.get(op, "1")
    CASES.append((f"numel0-{op}", f"t.ones(0, 3).{op}(0)" if op not in ("kthvalue", "topk")
                  else f"t.ones(2, 0).{op}({args})"))
CASES.append(("numel0-max-all", "t.ones(0).max()"))
CASES.append(("numel0-argmax-all", "t.ones(0).argmax()"))
# mean of int
CASES.append(("mean-int", "t.ones(2, dtype=t.int64).mean()"))
CASES.append(("std-int", "t.ones(2, dtype=t.int64).std()"))
CASES.append(("softmax-int", "t.ones(2, dtype=t.int64).softmax(0)"))
# argument-less method calls
A = ["softmax", "log_softmax", "reshape", "view", "expand", "permute", "transpose", "new_ones",
     "new_zeros", "new_empty", "new_full", "tile", "sum_to_size", "repeat", "repeat_interleave",
     "broadcast_to", "unsqueeze", "narrow", "select", "index_select", "gather", "scatter",
     "flip", "roll", "movedim", "expand_as", "view_as", "reshape_as", "add", "mul", "sub", "div",
     "pow", "matmul", "mm", "bmm", "dot", "chunk", "cumsum", "cumprod", "topk", "kthvalue",
     "masked_fill", "where", "clamp", "lerp", "type_as", "fill_", "copy_", "index_add", "unfold",
     "eq", "lt", "addmm", "outer", "mv", "swapaxes", "maximum", "minimum", "atan2", "fmod",
     "remainder", "logsumexp", "renorm", "cummax", "cummin", "logcumsumexp", "clamp_min",
     "clamp_max", "masked_scatter", "add_", "mul_", "sub_", "div_", "addcmul", "addcdiv",
     "baddbmm", "hypot", "copysign", "float_power", "dist", "kron", "swapdims", "moveaxis",
     "fill_diagonal_", "take", "masked_select", "index_fill", "scatter_add", "new_tensor",
     "equal", "allclose", "isclose", "tensor_split", "split", "unflatten"]
for m in A:
    CASES.append((f"noarg-{m}", f"t.ones(2, 3, requires_grad=True).{m}()"))
# the functions without arguments, and calls with some of the required ones (the parser of a
# one-signature op lists the rest)
for f in ["add", "div", "pow", "cumsum", "transpose", "lerp", "gather", "index_add", "hypot",
          "matmul", "where", "narrow", "topk", "addcmul", "masked_fill", "movedim", "scatter",
          "split", "logsumexp", "renorm"]:
    CASES.append((f"noarg-fn-{f}", f"t.{f}()"))
CASES += [
    ("part-gather", "t.ones(2, 3).gather(0)"),
    ("part-index_add", "t.ones(2, 3).index_add(0, t.tensor([0]))"),
    ("part-unfold", "t.ones(2, 3).unfold(0, 1)"),
    ("part-fn-transpose", "t.transpose(t.ones(2, 3), 0)"),
    ("part-fn-cumsum", "t.cumsum(t.ones(2, 3))"),
    ("part-fn-index_select", "t.index_select(t.ones(2, 3), 0)"),
]

_PREFIX = re.compile(r"^(bcast-method-|bcast-|inplace-bcast-|inplace-|dim-fn-|dim-tuple-|"
                     r"dim-rep-|dim-0d-|dim-|noarg-fn-|noarg-|part-fn-|part-|numel0-)")
# the op a note names where the case's op is a spelling or a composite of another
INNER = {
    "true_divide": "div", "divide": "div", "op/": "div", "addcdiv_": "div",
    "subtract": "sub", "op-": "sub", "mse": "sub", "pairwise_distance": "sub", "dist": "sub",
    "multiply": "mul", "op*": "mul", "ldexp": "mul", "addcmul_": "mul",
    "cosine_similarity": "mul", "cross": "mul", "op+": "add", "op**": "pow",
    "float_power": "pow", "arctan2": "atan2", "fmax": "ge", "fmin": "le",
    "logaddexp": "maximum", "xlogy": "where", "greater": "gt", "less": "lt",
    "not_equal": "ne", "op==": "eq", "op<": "lt", "op>": "gt", "op<=": "le", "op>=": "ge",
    "op!=": "ne", "op%": "remainder", "expand_as": "expand", "getitem": "indexing",
    "normalize": "norm", "trapz": "trapezoid", "argsort": "sort", "cat": "cat",
    "tensor": "requires_grad", "nanmedian": "median", "nansum": "sum", "nanmean": "sum",
    "reshape": "view/reshape", "view": "view/reshape", "op": "sub",  # (bcast-op-)
    "op//": "floor_divide", "int&": "bitwise_and", "int|": "bitwise_or", "int^": "bitwise_xor",
    "int<<": "bitwise_left_shift", "int>>": "bitwise_right_shift",
}
# Not PyTorch's words yet (strict xfail: the fix that makes one pass removes it here); the
# reasons are listed in docs/limits.md ("Errors"). The methods without arguments here are plain
# functions: a wrapper to catch Python's TypeError in would cost every call (the others have
# one anyway: _errors.parser_words).
_NOARG_PYTHON = ("transpose new_full roll movedim expand_as view_as reshape_as add mul sub div "
                 "pow matmul mm bmm dot masked_fill where type_as fill_ copy_ eq lt outer mv "
                 "swapaxes maximum minimum atan2 fmod remainder clamp_min clamp_max add_ mul_ "
                 "sub_ div_ float_power swapdims moveaxis fill_diagonal_ new_tensor equal "
                 "allclose isclose").split()
DIFFERS = {f"noarg-{m}": "Python's own missing-argument TypeError, not PyTorch's parser's"
           for m in _NOARG_PYTHON}
DIFFERS["noarg-repeat_interleave"] = "the method shares the function's one-argument form"
DIFFERS.update({
    "inplace-clamp_": "NumPy's error for an in-place result that does not broadcast",
    "mm-dtype": "float32 meeting float64 promotes while float64 is the default (README)",
    "matmul-dtype": "float32 meeting float64 promotes while float64 is the default (README)",
    "dot-dtype": "float32 meeting float64 promotes while float64 is the default (README)",
    "linear-dtype": "float32 meeting float64 promotes while float64 is the default (README)",
    "conv2d-dtype": "float32 meeting float64 promotes while float64 is the default (README)",
    "addmm-bias": "the bias's broadcast is checked by add, not expand",
    "addbmm": "checked in another order than PyTorch's",
    "linear-bias": "tapegrad's own wording",
    "conv2d-wdim": "PyTorch's message names the stride it derives; tapegrad's the weight",
    "reshape-0": "NumPy's wording for a -1 beside a 0",
    "view-dtype": "view(dtype) is refused (NotImplementedError), see docs/limits.md",
    "index_add-src": "an older wording of the slice-shape check",
    "diff-prepend": "checked by cat, in cat's words",
    "shift-float": "the kernel name PyTorch's message gives (lshift_cpu) is another",
    "multinomial-neg": "another check first",
})


def _ops(cid):
    op = _PREFIX.sub("", cid).split("-")[0]
    return {op, op.rstrip("_"), INNER.get(op, op)}


def _raised(lib, code):
    """The exception ``code`` raises under ``lib``, without its traceback (nor its context's):
    its frames would hold the tensors, the tape with them, until a full collection (each a
    fraction of a second, after a test: conftest's release_the_tape)."""
    env = {"t": lib, "F": lib.nn.functional}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            eval(code, env)
        except Exception as e:  # noqa: BLE001 (the error is the result)
            c = e
            while c is not None:
                c.__traceback__ = None
                c = c.__context__ or c.__cause__
            return e
    return None


def _check(ok, *why):
    """A failed check as its message alone: a strict xfail fails here for every DIFFERS case,
    and pytest's usual report (the test's source parsed, the values introspected) cost a
    quarter of the file's time."""
    if not ok:
        pytest.fail(repr(why), pytrace=False)


@pytest.fixture(scope="module")
def torch_float64():
    old = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    yield
    torch.set_default_dtype(old)


def _params():
    for cid, code in CASES:
        marks = [pytest.mark.xfail(strict=True, reason=DIFFERS[cid])] if cid in DIFFERS else []
        yield pytest.param(cid, code, id=cid, marks=marks)


@pytest.mark.parametrize("cid, code", list(_params()))
def test_str_e_is_pytorchs(cid, code, torch_float64):
    want = _raised(torch, code)
    _check(want is not None, "PyTorch raises nothing for", code)
    got = _raised(tg, code)
    _check(got is not None, "tapegrad raises nothing for", code)
    _check(type(got).__name__ == type(want).__name__, str(got), str(want))
    notes = getattr(got, "__notes__", [])
    if _errors.NOTES:
        _check(str(got) == str(want), str(got), str(want))
    else:  # (Python 3.10 shows no notes: the context follows PyTorch's words)
        _check(str(got).startswith(str(want)), str(got), str(want))
    for note in notes:
        _check(any(op in note for op in _ops(cid)), cid, note)


def test_corpus_is_large_and_mostly_pytorchs():
    assert len(CASES) >= 300 and len({c for c, _ in CASES}) == len(CASES)
    assert set(DIFFERS) <= {c for c, _ in CASES}
    assert len(DIFFERS) < len(CASES) // 3


@pytest.mark.parametrize("notes", [True, False])
def test_with_note_keeps_the_context(monkeypatch, notes):
    """A note on 3.11+ (str(e) PyTorch's); on 3.10 the context appended to the message."""
    monkeypatch.setattr(_errors, "NOTES", notes)
    e = _errors.with_note(IndexError("Dimension out of range"), "sum(): dim 5")
    assert isinstance(e, IndexError)
    if notes:
        assert str(e) == "Dimension out of range" and e.__notes__ == ["sum(): dim 5"]
    else:
        assert str(e) == "Dimension out of range (sum(): dim 5)"
        assert not hasattr(e, "__notes__")


def test_broadcast_note_names_op_and_shapes():
    with pytest.raises(RuntimeError) as info:
        tg.ones(2, 3) + tg.ones(4, 5)
    assert str(info.value) == ("The size of tensor a (3) must match the size of tensor b (5) "
                               "at non-singleton dimension 1")
    if _errors.NOTES:
        assert info.value.__notes__ == ["add: shapes (2, 3) and (4, 5); broadcasting needs "
                                        "equal sizes or 1 in each dimension"]


def test_parser_words_are_pytorchs_now():
    """tapegrad/_torch_words.py is what tests/torch_words.py builds from the PyTorch here (a
    method or op added, or PyTorch's signatures changed: run it again)."""
    import importlib.util
    import pathlib

    path = pathlib.Path(__file__).with_name("torch_words.py")
    spec = importlib.util.spec_from_file_location("torch_words", path)
    words = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(words)
    from tapegrad import _torch_words

    assert words.build() == (_torch_words.METHODS, _torch_words.FUNCTIONS)
    assert pathlib.Path(_torch_words.__file__).read_text() == words.source(*words.build())


def test_parser_words_only_for_the_call_itself():
    """A TypeError raised inside an op (not binding its arguments) keeps its own words."""
    with pytest.raises(TypeError) as info:
        tg.ones(2, 3).cumsum("0")
    assert "required positional" not in str(info.value)


@pytest.mark.parametrize("op", ["any", "all"])
@pytest.mark.parametrize("dim", [0, -1, (0,), ()])
def test_any_all_of_0d_take_its_one_dim(op, dim, torch_float64):
    """A 0-d tensor has one dim for any/all, as for PyTorch's other reductions."""
    want = getattr(torch, op)(torch.tensor(0.5), dim)
    got = getattr(tg, op)(tg.tensor(0.5), dim)
    assert (got.item(), tuple(got.shape)) == (want.item(), tuple(want.shape))


@pytest.mark.parametrize("code", [
    "F.conv2d(t.ones(1, 3, 8, 8), t.ones(4, 3, 3, 3, dtype=t.float64))",
    "F.conv2d(t.ones(1, 3, 8, 8, dtype=t.float64), t.ones(4, 3, 3, 3))",
    "F.conv1d(t.ones(1, 3, 8), t.ones(4, 3, 3, dtype=t.float16))",
    "F.conv2d(t.ones(1, 3, 8, 8), t.ones(4, 3, 3, 3), t.ones(4, dtype=t.float64))",
    "F.conv2d(t.ones(1, 3, 8, 8), t.ones(4, 3, 3, 3), t.ones(4, dtype=t.float16))",
    "F.conv_transpose2d(t.ones(1, 3, 8, 8), t.ones(3, 2, 3, 3, dtype=t.float64))",
])
def test_conv_dtype_mix_refused_with_float32_the_default(code):
    """With PyTorch's default (float32) nothing stands in for it: a convolution's mixed
    dtypes are refused in PyTorch's words, as the products' are (test_torch_scripts15)."""
    old, old_tg = torch.get_default_dtype(), tg.get_default_dtype()
    torch.set_default_dtype(torch.float32)
    tg.set_default_dtype(tg.float32)
    try:
        want, got = _raised(torch, code), _raised(tg, code)
    finally:
        torch.set_default_dtype(old)
        tg.set_default_dtype(old_tg)
    assert want is not None and got is not None, code
    assert (type(got), str(got)) == (type(want), str(want))
