# grad_fn names after copy_, fill_, zero_, masked_fill_, index_fill_ and clamp_ on non-leaves, and grads through them
import torch

x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
src = torch.tensor([5.0, 6.0, 7.0], requires_grad=True)
for name, op in [("fill_", lambda h: h.fill_(2.0)), ("zero_", lambda h: h.zero_()),
                 ("masked_fill_", lambda h: h.masked_fill_(h < 0, 0.0)),
                 ("index_fill_", lambda h: h.index_fill_(0, torch.tensor([1]), -1.0)),
                 ("clamp_", lambda h: h.clamp_(min=0.0)), ("mul_", lambda h: h.mul_(3)),
                 ("copy_", lambda h: h.copy_(src * 2))]:
    x.grad = None
    src.grad = None
    h = x * 1
    y = op(h)
    (y * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
    print(name, y.grad_fn.name(), x.grad, src.grad)
