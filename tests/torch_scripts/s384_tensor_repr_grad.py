import torch
import torch.nn as nn

x = torch.tensor([1.0, 2.0], requires_grad=True)
print(x * 2, x.sum(), x.mean(), x[0], x.exp().log(), x.view(2, 1), x.unsqueeze(0).expand(2, 2))
print(x.abs(), -x, x ** 2, x @ x, x.max(), x.clone(), x.detach(), x.cumsum(0), x.softmax(0), x.to(torch.float32))
print(torch.stack([x, x]), torch.cat([x, x]), x.reshape(1, 2), x.flip(0), x[[0, 0]], x.repeat(2), x.norm(), x.sigmoid().sqrt())


def names(*ts):
    return " ".join(type(t.grad_fn).__name__ for t in ts)


m = nn.Linear(2, 1)
print(names(m(x), m(x.view(1, 2)), nn.functional.relu(x), nn.functional.softplus(x)))
print(names(torch.where(x > 1, x, 0.0), x.clamp(0, 1), x.masked_fill(x > 1, 0), x.sort().values))
print(names(x.sum(0), x.sum(dim=0, keepdim=True), x.mean(0), x.var(), x.std(0), x.prod()))
print(names(x / 2, 2 / x, x - 1, 1 - x, x.pow(3), torch.pow(2, x), x.pow(x)))
print(names(x.squeeze(), x.unsqueeze(1), x.permute(0), x.narrow(0, 0, 1), x.select(0, 1), x.unbind()[0]))
print(names(x.tanh(), x.atan(), x.log1p(), x.rsqrt(), x.erf(), x.reciprocal(), x.sign()))
print(names(x.exp2(), x.expm1(), x.log2(), x.log10(), x.sinh(), x.asinh(), x.lgamma(), x.digamma(), x.frac(), x.trunc()))
print(names(x.min(), x.amax(), x.logsumexp(0), x.cummax(0).values, x.kthvalue(1).values, x.median(), x.topk(1).values))
print(names(torch.outer(x, x), torch.dot(x, x), torch.mv(x.view(1, 2), x), x.diag(), x.roll(1), x.tile(2), x.lerp(x * 2, 0.5)))
