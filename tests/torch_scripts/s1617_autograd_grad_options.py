# torch.autograd.grad options: allow_unused, materialize_grads, grad_outputs, is_grads_batched
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = torch.tensor([3.0], requires_grad=True)
z = (x ** 2).sum()
print(torch.autograd.grad(z, [x, y], allow_unused=True, retain_graph=True))
print(torch.autograd.grad(z, [x, y], allow_unused=True, materialize_grads=True, retain_graph=True))
try:
    torch.autograd.grad(z, [x, y], retain_graph=True)
except RuntimeError as e:
    print(str(e)[:100])
out = x * torch.tensor([2.0, 3.0])
print(torch.autograd.grad(out, x, grad_outputs=torch.tensor([1.0, -1.0]), retain_graph=True))
eye = torch.eye(2)
print(torch.autograd.grad(out, x, grad_outputs=eye, is_grads_batched=True))
try:
    torch.autograd.grad(out, x)
except RuntimeError as e:
    print(e)
print(torch.autograd.grad(x.sum(), x, create_graph=True)[0].requires_grad)
w = torch.tensor(2.0, requires_grad=True)
g, = torch.autograd.grad(w ** 3, w, create_graph=True)
g2, = torch.autograd.grad(g, w)
print(g, g2)
