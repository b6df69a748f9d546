import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x ** 2
z = y.sum()
print(type(z.grad_fn).__name__, z.grad_fn.next_functions[0][0].__class__.__name__, y.grad_fn.name())
g = torch.autograd.grad([y.sum(), (x * 3).sum()], [x], retain_graph=True)
print(g)
g2 = torch.autograd.grad(y, x, grad_outputs=torch.ones(3), allow_unused=True, retain_graph=True)
print(g2)
u = torch.tensor(1.0, requires_grad=True)
print(torch.autograd.grad(z, [x, u], allow_unused=True, retain_graph=True)[1])
print(torch.autograd.grad(z, [x, u], allow_unused=True, materialize_grads=True)[1])
try:
    torch.autograd.grad((x * 2).sum(), u)
except RuntimeError as e:
    print("RuntimeError", str(e)[:55])
torch.autograd.backward([(x * 2).sum(), (x * x).sum()], [torch.tensor(1.0), torch.tensor(0.5)])
print(x.grad)
x.grad.zero_()
(x.detach().requires_grad_() * 2).sum().backward()
print(x.grad)
with torch.autograd.set_detect_anomaly(True):
    w = torch.tensor([1.0], requires_grad=True)
    (w * 2).backward()
print(w.grad, torch.is_anomaly_enabled())
s = torch.tensor([4.0], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(lambda t: t * 1, lambda t: t):
    r = s.sqrt()
r.backward()
print(s.grad)
p = torch.ones(2, requires_grad=True)
q = p.expand(3, 2)
q.sum().backward(inputs=[p])
print(p.grad, torch.autograd.grad(p.sum(), p, create_graph=True)[0].requires_grad)
k = torch.tensor([2.0], requires_grad=True)
out = k.exp()
print(out.grad_fn._saved_result if hasattr(out.grad_fn, "_saved_result") else None)
print(torch.autograd.Variable(torch.ones(1)).requires_grad, isinstance(k, torch.Tensor), k.is_leaf, out.is_leaf)
