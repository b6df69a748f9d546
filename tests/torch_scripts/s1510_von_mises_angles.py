# von Mises distribution on angles: log_prob, mean, variance, gradients w.r.t. loc/kappa
import torch
from torch.distributions import VonMises

loc = torch.tensor([0.0, 1.0], requires_grad=True)
kappa = torch.tensor([2.0, 0.5], requires_grad=True)
vm = VonMises(loc, kappa)
x = torch.tensor([[0.3, -2.0], [3.0, 1.0]])
lp = vm.log_prob(x)
print(lp)
lp.sum().backward()
print(loc.grad, kappa.grad)
print(vm.mean, vm.mode)
print(vm.variance)
print(vm.support, vm.has_rsample)
s = vm.sample((6,))
print(s.shape, bool((s.abs() <= torch.pi).all()))
