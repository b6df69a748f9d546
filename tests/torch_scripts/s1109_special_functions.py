# torch.special: erfcx, i0e, i1, ndtri, log_ndtr, zeta, multigammaln, polygamma, digamma, entr, bessel_j0
import torch
import torch.special as sp

x = torch.tensor([0.5, 1.0, 2.5])
print(sp.erfcx(x), sp.i0e(x), sp.i1(x), sp.i1e(x))
print(sp.ndtri(torch.tensor([0.1, 0.5, 0.975])), sp.log_ndtr(torch.tensor([-3.0, 0.0, 2.0])), sp.ndtr(x))
print(sp.zeta(torch.tensor([2.0, 3.0]), torch.tensor([1.0, 2.0])), sp.multigammaln(torch.tensor([2.5, 3.0]), 2))
print(sp.polygamma(1, x), sp.digamma(x), sp.psi(x), sp.gammaln(x))
print(sp.entr(torch.tensor([0.0, 0.5, -1.0])), sp.bessel_j0(x), sp.bessel_j1(x))
print(sp.expit(x), sp.exp2(x), sp.expm1(x), sp.log1p(x), sp.logsumexp(x, 0))
print(sp.erfinv(torch.tensor([0.0, 0.5])), sp.gammainc(torch.tensor([1.0, 2.0]), x[:2]), sp.gammaincc(torch.tensor([1.0]), torch.tensor([1.0])))
print(sp.softmax(x, 0), sp.log_softmax(x, dim=0), sp.round(torch.tensor([2.5, 3.5])), sp.sinc(x))
y = x.clone().requires_grad_()
(sp.erfcx(y).sum() + sp.i0e(y).sum() + sp.log_ndtr(y).sum() + sp.digamma(y).sum()).backward()
print(y.grad)
