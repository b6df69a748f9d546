import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
y = x * w
z = y.pow(2)
gx, gw = torch.autograd.grad(z, (x, w), grad_outputs=torch.tensor([1.0, 0.1, 0.01]), retain_graph=True)
print(gx, gw)
z.sum().backward(retain_graph=True)
z.sum().backward()
print(x.grad, w.grad)
u = torch.tensor(1.0, requires_grad=True)
unused = torch.tensor(2.0, requires_grad=True)
out = u * 3
print(torch.autograd.grad(out, (u, unused), allow_unused=True, retain_graph=True))
print(torch.autograd.grad(out, (u, unused), allow_unused=True, materialize_grads=True))
try:
    torch.autograd.grad(u * 3, (u, unused))
except RuntimeError as e:
    print("RuntimeError:", str(e)[:70])
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a * 2
torch.autograd.backward([b.sum(), (a ** 2).sum()], grad_tensors=[torch.tensor(1.0), torch.tensor(0.5)])
print(a.grad)
c = torch.tensor([3.0], requires_grad=True)
(c * c).backward(inputs=[c])
print(c.grad)
m = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
n = m @ m
n.backward(torch.eye(2))
print(m.grad)
try:
    n.backward(torch.eye(2))
except RuntimeError as e:
    print("second backward:", str(e)[:40])
