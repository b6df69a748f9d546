# autograd.grad with allow_unused/materialize_grads, grad_outputs, retain_graph twice, only_inputs-style partial grads
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = torch.tensor([3.0], requires_grad=True)
z = torch.tensor(4.0, requires_grad=True)
out = (x ** 2).sum() * y
try:
    torch.autograd.grad(out, [x, z], retain_graph=True)
except RuntimeError as e:
    print(str(e)[:80])
gx, gz = torch.autograd.grad(out, [x, z], allow_unused=True, retain_graph=True)
print(gx, gz)
gx, gz = torch.autograd.grad(out, [x, z], allow_unused=True, materialize_grads=True, retain_graph=True)
print(gx, gz)
v = x * y
g, = torch.autograd.grad(v, x, grad_outputs=torch.tensor([1.0, -1.0]), retain_graph=True)
print(g)
g2, = torch.autograd.grad(v, x, grad_outputs=torch.tensor([0.5, 0.5]))
print(g2)
try:
    torch.autograd.grad(v, x, grad_outputs=torch.tensor([1.0]))
except RuntimeError as e:
    print(str(e)[:70])
a, b = torch.autograd.grad([x.sum(), (x * 2).sum()], [x, x])
print(a, b)
w = x.detach()
try:
    torch.autograd.grad((w * 2).sum(), w)
except RuntimeError as e:
    print(e)
print(x.grad, y.grad)
