# autograd.grad with is_grads_batched computes several vjps at once (a Jacobian)
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = torch.stack([x.prod(), (x ** 2).sum()])
(J,) = torch.autograd.grad(y, x, torch.eye(2), is_grads_batched=True)
print(J)
z = x.exp()
(J2,) = torch.autograd.grad(z, x, torch.eye(3), is_grads_batched=True)
print(J2)
