# in-place clamp_/relu_/sigmoid_ on non-leaves: grad_fn names and gradients
import torch

x = torch.tensor([-1.0, 0.5, 2.0], requires_grad=True)
a = x * 2
a.clamp_(min=0.0, max=3.0)
print(a, a.grad_fn.name())
b = x * 1
b.relu_()
c = x + 0
c.sigmoid_()
print(b.grad_fn.name(), c.grad_fn.name())
(a.sum() + b.sum() + c.sum()).backward()
print(x.grad)
d = x.detach().clone()
d.clamp_min_(0).clamp_max_(1)
print(d)
