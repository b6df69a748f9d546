# torch.special: values and gradients of the less common special functions
import torch
import torch.special as sp

x = torch.tensor([0.3, 1.0, 2.5], requires_grad=True)
fns = {"erfcx": sp.erfcx, "i0": sp.i0, "i0e": sp.i0e, "i1": sp.i1, "i1e": sp.i1e,
       "ndtr": sp.ndtr, "log_ndtr": sp.log_ndtr, "digamma": sp.digamma,
       "entr": sp.entr, "sinc": sp.sinc, "expit": sp.expit, "erfinv": lambda t: sp.erfinv(t / 3)}
for name, f in fns.items():
    y = f(x)
    (g,) = torch.autograd.grad(y.sum(), x)
    print(name, y.detach(), g, y.grad_fn.name())
p = torch.tensor([0.1, 0.5, 0.9], requires_grad=True)
sp.ndtri(p).sum().backward()
print(sp.ndtri(p.detach()), p.grad)
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([0.5, 3.0])
print(sp.xlog1py(a, b), sp.xlogy(a, b), sp.zeta(torch.tensor([2.0, 3.0]), torch.tensor(1.0)))
sp.xlog1py(a, b).sum().backward()
print(a.grad)
print(sp.polygamma(1, torch.tensor([1.0, 2.0])), sp.multigammaln(torch.tensor([2.5]), 2))
print(sp.log_softmax(torch.tensor([1.0, 2.0, 3.0]), 0), sp.logit(torch.tensor([0.25]), eps=0.1))
try:
    sp.zeta(a, b).sum().backward()
except RuntimeError as e:
    print(str(e)[:120])
