import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = torch.tensor([3.0], requires_grad=True)
z = torch.tensor(0.5, requires_grad=True)
out = (x ** 2).sum() * y.sum()
gx, gz = torch.autograd.grad(out, (x, z), allow_unused=True, retain_graph=True)
print(gx, gz)
gx, gz = torch.autograd.grad(out, [x, z], allow_unused=True, materialize_grads=True, retain_graph=True)
print(gx, gz)
try:
    torch.autograd.grad(out, [x, z], retain_graph=True)
except RuntimeError as e:
    print("RuntimeError", str(e)[:90])
torch.autograd.backward(out, inputs=[y], retain_graph=True)
print(x.grad, y.grad)
out.backward(inputs=[x], retain_graph=True)
print(x.grad, y.grad)
torch.autograd.backward([out, x.sum()], grad_tensors=[torch.tensor(2.0), torch.tensor(1.0)])
print(x.grad, y.grad)
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = a * 2
c = b.sum()
g = torch.autograd.grad(c, b, retain_graph=True)
print(g, torch.autograd.grad(c, a, grad_outputs=torch.tensor(3.0)))
try:
    c.backward()
except RuntimeError as e:
    print("RuntimeError", str(e)[:70])
v = torch.tensor([1.0, -1.0], requires_grad=True)
w = v.exp()
(gv,) = torch.autograd.grad(w, v, torch.ones(2), create_graph=True)
(ggv,) = torch.autograd.grad(gv.sum(), v)
print(gv, ggv, gv.requires_grad)
try:
    torch.autograd.grad(w, v)
except RuntimeError as e:
    print("RuntimeError", str(e)[:51])
p = torch.tensor(2.0, requires_grad=True)
print(torch.autograd.grad(p * p, p, is_grads_batched=False)[0], torch.autograd.grad([p * 2, p * 3], [p])[0])
