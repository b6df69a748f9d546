import torch
import torch.nn.functional as F

x = torch.tensor([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]], requires_grad=True)
v = torch.tensor([3.0, 1.0, 4.0, 1.5], requires_grad=True)
idx = torch.tensor([0, 2, 0, 1])
print(torch.addmm(torch.ones(2, 2), x, x.T))
print(torch.lerp(v, v * 2, 0.25), torch.addcmul(v, v, v, value=0.5), torch.addcdiv(v, v, v + 1))
print(v.cumprod(0), v.logcumsumexp(0), v.cummax(0).values)
print(torch.zeros(3).scatter_add(0, idx, v), torch.zeros(3).index_add(0, idx, v))
print(torch.xlogy(v, 2.0), torch.special.xlog1py(v, v), torch.logit(v / 10), torch.sinc(v))
print(torch.fmod(v, 1.5), torch.remainder(v, v + 1), torch.hypot(v, v), v.frac(), v.rsqrt())
print(torch.tril(x), torch.rot90(x), torch.block_diag(x, v.unsqueeze(0)).shape, torch.cdist(x, x))
print(torch.trace(x @ x.T), torch.linalg.matrix_exp(x @ x.T / 10), torch.linalg.cross(x, x.flip(0)))
print(v.median(), torch.clamp(v, min=torch.full((4,), 2.0)), torch.nan_to_num(v / 0))
print(torch.trapezoid(v, dx=0.5), torch.exp2(v), torch.logaddexp(v, v), v.sgn())
print(F.cross_entropy(x, torch.tensor([[0.2, 0.3, 0.5], [1.0, 0.0, 0.0]])), F.pdist(x), x.unfold(1, 2, 1))
print(torch.cholesky_solve(torch.ones(2, 1), torch.linalg.cholesky(x @ x.T)), torch.diag_embed(v[:2]))
print(torch.select_scatter(x, v[:3], 0, 1), torch.special.multigammaln(v + 3, 2), torch.special.round(v * 1.5))
