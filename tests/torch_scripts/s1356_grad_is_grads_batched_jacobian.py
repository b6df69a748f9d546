# Jacobian rows in one call with is_grads_batched, as in the autograd tutorial
import torch

x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
y = torch.stack([x[0] * x[1], x[1].sin() + x[2] ** 2, x.exp().sum()])
eye = torch.eye(3)
(J,) = torch.autograd.grad(y, x, eye, is_grads_batched=True)
print(J)
J2 = torch.autograd.functional.jacobian(lambda t: torch.stack([t[0] * t[1], t[1].sin() + t[2] ** 2, t.exp().sum()]), x)
print(torch.allclose(J, J2))
z = x.unsqueeze(0) * torch.tensor([[1.0], [2.0]])
(Jz,) = torch.autograd.grad(z, x, torch.ones(4, 2, 3), is_grads_batched=True)
print(Jz.shape, Jz[0])
