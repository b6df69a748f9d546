import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x ** 2
eye = torch.eye(3)
(jac,) = torch.autograd.grad(y, x, grad_outputs=eye, is_grads_batched=True)
print(jac)
a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(3.0, requires_grad=True)
out = a * b + a ** 2
ga, gb = torch.autograd.grad(out, [a, b], create_graph=True)
print(ga, gb)
gaa, = torch.autograd.grad(ga, a, retain_graph=True)
gab, = torch.autograd.grad(ga, b)
print(gaa, gab)
c = torch.tensor(1.0, requires_grad=True)
d = torch.tensor(1.0, requires_grad=True)
r = c * 2
g = torch.autograd.grad(r, [c, d], allow_unused=True)
print(g)
g = torch.autograd.grad(c * 2, [c, d], allow_unused=True, materialize_grads=True)
print(g)
try:
    torch.autograd.grad(c * 2, [d])
except RuntimeError as e:
    print("RuntimeError", "appears to not have been used" in str(e))
u = torch.tensor([1.0, 2.0], requires_grad=True)
o1, o2 = u.sum(), (u ** 2).sum()
print(torch.autograd.grad([o1, o2], u))
try:
    torch.autograd.grad([o1 * 1, o2 * 1], u, grad_outputs=[torch.tensor(2.0), torch.tensor(0.5)])
except RuntimeError as e:
    print("RuntimeError", "backward through the graph a second time" in str(e))
o1, o2 = u.sum(), (u ** 2).sum()
print(torch.autograd.grad([o1 * 1, o2 * 1], u, grad_outputs=[torch.tensor(2.0), torch.tensor(0.5)]))
torch.autograd.backward([u.sum() * 3, (u * u).sum()], grad_tensors=[torch.tensor(1.0), torch.tensor(2.0)])
print(u.grad)
u.grad = None
(u * 2).backward(gradient=torch.tensor([1.0, -1.0]), inputs=[u])
print(u.grad)
v = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([3.0, 4.0], requires_grad=True)
(v * w).sum().backward(inputs=[w])
print(v.grad, w.grad)
try:
    (v * 2).backward()
except RuntimeError as e:
    print("RuntimeError", "only be implicitly created for scalar outputs" in str(e))
