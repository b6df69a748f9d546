import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x ** 3
g, = torch.autograd.grad(y, x, grad_outputs=torch.ones_like(y), create_graph=True)
print(g, g.requires_grad)
g2, = torch.autograd.grad(g.sum(), x)
print(g2)
a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(3.0, requires_grad=True)
out = a * b + a ** 2
ga, gb = torch.autograd.grad(out, (a, b), retain_graph=True)
print(ga, gb)
c = torch.tensor(1.0, requires_grad=True)
print(torch.autograd.grad(out, [a, c], allow_unused=True, retain_graph=True))
print(torch.autograd.grad(out, [a, c], allow_unused=True, materialize_grads=True))
z = torch.tensor([1.0, 2.0], requires_grad=True)
w = z * 2
w.backward(gradient=torch.tensor([1.0, 0.1]))
print(z.grad)
with torch.no_grad():
    q = z * 2
print(q.requires_grad, q.grad_fn)
with torch.enable_grad():
    r = z * 2
print(r.requires_grad, r.grad_fn.name())
torch.set_grad_enabled(False)
print((z * 2).requires_grad)
torch.set_grad_enabled(True)
d = z.detach()
d[0] = 100.0
print(z, d.requires_grad)
print(torch.autograd.functional.jacobian(lambda v: v ** 2, torch.tensor([1.0, 2.0])))
print(torch.autograd.functional.hessian(lambda v: (v ** 3).sum(), torch.tensor([1.0, 2.0])))
print(torch.autograd.functional.vjp(lambda v: v * 2, torch.tensor([1.0, 2.0]), torch.tensor([1.0, 1.0])))
print(torch.autograd.functional.jvp(lambda v: v ** 2, torch.tensor([1.0, 2.0]), torch.tensor([1.0, 0.0])))
print(torch.autograd.functional.hvp(lambda v: (v ** 3).sum(), torch.tensor([1.0, 2.0]), torch.tensor([1.0, 1.0])))
e = torch.tensor([1.0, -1.0], requires_grad=True)
f = e.relu().sum()
print(f.grad_fn.name(), f.grad_fn.next_functions[0][0].name())
h = (e * 2).sum()
h.backward(inputs=[e])
print(e.grad)
try:
    torch.autograd.grad((e ** 2).sum(), torch.tensor([1.0], requires_grad=True))
except RuntimeError as err:
    print("RuntimeError", "One of the differentiated Tensors appears to not have been used in the graph" in str(err))
k = torch.ones(2, requires_grad=True)
print(torch.autograd.grad((k * 3).sum(), k)[0], k.grad)
