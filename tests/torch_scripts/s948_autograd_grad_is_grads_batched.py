# Jacobian rows from autograd.grad with is_grads_batched and with a loop of unit vectors
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = torch.stack([x.prod(), (x ** 2).sum(), x[0] - x[2]])
I = torch.eye(3)
J, = torch.autograd.grad(y, x, I, is_grads_batched=True, retain_graph=True)
print(J)
rows = [torch.autograd.grad(y, x, e, retain_graph=True)[0] for e in I]
print(torch.stack(rows), torch.equal(torch.stack(rows), J))
g = torch.autograd.grad(y.sum(), [x], create_graph=True)[0]
print(g, g.grad_fn is not None)
print(torch.autograd.grad(y[2], x, allow_unused=True, materialize_grads=True))
