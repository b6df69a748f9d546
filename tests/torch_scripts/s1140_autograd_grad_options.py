# autograd.grad: allow_unused + materialize_grads, only_inputs, retain_graph patterns, grad of intermediate
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = torch.tensor([3.0], requires_grad=True)
z = (x ** 2).sum()
print(torch.autograd.grad(z, [x, y], allow_unused=True, retain_graph=True))
print(torch.autograd.grad(z, [x, y], allow_unused=True, materialize_grads=True, retain_graph=True))
h = x * 3
out = (h ** 2).sum()
print(torch.autograd.grad(out, h, retain_graph=True), torch.autograd.grad(out, [x, h]))
try:
    torch.autograd.grad((x ** 2).sum(), [x, y])
except RuntimeError as e:
    print(str(e)[:95])
gs = torch.autograd.grad([x.sum(), (x * 2).sum()], x)
print(gs)
g1, = torch.autograd.grad([x.sum(), y.sum()], [x], grad_outputs=[torch.tensor(2.0), None], allow_unused=True) if False else (None,)
q = torch.tensor(2.0, requires_grad=True)
dq, = torch.autograd.grad(q ** 4, q, create_graph=True)
d2q, = torch.autograd.grad(dq, q, create_graph=True)
d3q, = torch.autograd.grad(d2q, q)
print(dq, d2q, d3q)
