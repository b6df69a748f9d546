# no_grad wraps generator functions; requires_grad_ toggling; detach_ shares storage
import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)

@torch.no_grad()
def gen(n):
    for i in range(n):
        yield w * i

print([t.requires_grad for t in gen(3)])
a = w * 2
b = a.detach()
b[0] = 100.0
print(a, b)
c = (w * 3)
c.detach_()
print(c.requires_grad, c.is_leaf, c.grad_fn)
d = torch.ones(2)
d.requires_grad_()
print(d.requires_grad, d.is_leaf)
try:
    (w * 2).requires_grad_(False)
except RuntimeError as e:
    print("RuntimeError", str(e)[:60])
