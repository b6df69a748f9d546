# Elementwise functions from ML code: logit with eps, sigmoid/softplus with beta/threshold,
# erf/erfinv, lgamma/digamma, sinc, heaviside, nan_to_num with custom values, clip, sign/sgn
import torch
import torch.nn.functional as F

p = torch.tensor([0.0, 0.25, 0.5, 1.0])
print(torch.logit(p), torch.logit(p, eps=1e-6), torch.special.logit(p, 0.1))
x = torch.tensor([-30.0, -1.0, 0.0, 2.0, 30.0])
print(F.softplus(x), F.softplus(x, beta=2.0, threshold=5.0), torch.sigmoid(x), F.logsigmoid(x))
print(torch.erf(torch.tensor([0.0, 0.5, 1.0])), torch.erfinv(torch.tensor([0.0, 0.5, -0.9])), torch.erfc(torch.tensor([2.0])))
print(torch.lgamma(torch.tensor([0.5, 1.0, 10.0])), torch.digamma(torch.tensor([1.0, 2.5])), torch.polygamma(1, torch.tensor([1.0])))
print(torch.sinc(torch.tensor([0.0, 0.5, 1.0])), torch.heaviside(torch.tensor([-1.0, 0.0, 2.0]), torch.tensor(0.5)))
n = torch.tensor([float("nan"), float("inf"), -float("inf"), 1.0])
print(torch.nan_to_num(n), torch.nan_to_num(n, nan=0.0, posinf=100.0, neginf=-100.0), n.nan_to_num(-1.0))
print(torch.clip(x, -2, 2), torch.sign(torch.tensor([-2.0, 0.0, 3.0])), torch.sgn(torch.tensor([-0.5])), torch.sign(torch.tensor([-3, 0, 4])))
print(torch.exp2(torch.tensor([3.0])), torch.expm1(torch.tensor([1e-10])), torch.log1p(torch.tensor([1e-10])), torch.rsqrt(torch.tensor([4.0])))
print(torch.i0(torch.tensor([0.0, 1.0])), torch.special.i1(torch.tensor([1.0])), torch.special.entr(torch.tensor([0.0, 0.5, -1.0])))
print(torch.deg2rad(torch.tensor([180.0])), torch.rad2deg(torch.tensor([1.0])), torch.atan2(torch.tensor([1.0, -1.0]), torch.tensor([-1.0, -1.0])))
y = torch.tensor([0.3, 0.7], requires_grad=True)
(torch.logit(y) + torch.erfinv(y) + torch.lgamma(y + 1)).sum().backward()
print(y.grad)
