# autograd.grad w.r.t. intermediate tensors and views; grad of a sum of outputs list
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
h = x.exp()
v = h[1:]
y = (v * 2).sum() + h[0] ** 2
gh, gv = torch.autograd.grad(y, (h, v), retain_graph=True)
print(gh, gv)
gx, = torch.autograd.grad([y, x.sum()], x, grad_outputs=[torch.tensor(1.0), torch.tensor(2.0)])
print(gx)
z = x * 2
w = z.view(3, 1)
(g,) = torch.autograd.grad(w.sum() * 3, z)
print(g)
