# autograd.grad options: allow_unused, materialize_grads, grad_outputs for vector outputs,
# several outputs at once, retain_graph reuse, only_inputs
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = torch.tensor([3.0], requires_grad=True)
u = torch.tensor(5.0, requires_grad=True)
out = (x * y).sum()
print(torch.autograd.grad(out, [x, y, u], allow_unused=True, retain_graph=True))
print(torch.autograd.grad(out, [x, u], allow_unused=True, materialize_grads=True, retain_graph=True))
try:
    torch.autograd.grad(out, [u], retain_graph=True)
except RuntimeError as e:
    print(str(e)[:95])
vec = x ** 2
print(torch.autograd.grad(vec, x, grad_outputs=torch.tensor([1.0, 0.5]), retain_graph=True))
print(torch.autograd.grad(vec, x, torch.ones(2)))
a = x.sum()
b = (x ** 3).sum()
print(torch.autograd.grad([a, b], x))
print(torch.autograd.grad([x.prod(), x.sum()], [x], grad_outputs=[torch.tensor(2.0), torch.tensor(-1.0)]))
c = (x * 2).sum()
g1 = torch.autograd.grad(c, x, retain_graph=True)
g2 = torch.autograd.grad(c, x)
print(g1, g2, x.grad)
try:
    torch.autograd.grad(torch.tensor(1.0), x)
except RuntimeError as e:
    print(str(e)[:70])
