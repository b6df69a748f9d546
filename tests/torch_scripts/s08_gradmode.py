import torch

x = torch.ones(3, requires_grad=True)
@torch.no_grad()
def f(v): return v * 2
print(f(x).requires_grad)
with torch.inference_mode():
    y = x * 3
print(y.requires_grad, y.is_inference())
with torch.no_grad():
    with torch.enable_grad():
        z = x * 2
print(z.requires_grad)
torch.set_grad_enabled(False)
print((x * 2).requires_grad, torch.is_grad_enabled())
torch.set_grad_enabled(True)
with torch.set_grad_enabled(False):
    print((x * 2).requires_grad)
print(torch.is_grad_enabled(), torch.is_inference_mode_enabled())
@torch.enable_grad()
def g(v): return v * 2
with torch.no_grad():
    print(g(x).requires_grad)
w = torch.tensor([1.0, 2.0], requires_grad=True)
for _ in range(3):
    loss = ((w - 3) ** 2).sum()
    loss.backward()
    with torch.no_grad():
        w -= 0.1 * w.grad
        w.grad.zero_()
print(w, w.requires_grad, w.is_leaf)
w.grad = None
a = w.detach()
a[0] = 100.
print(w)
b = torch.zeros(2)
b.requires_grad_()
print(b.requires_grad)
c = (b * 2)
c.detach_()
print(c.requires_grad, c.grad_fn)
try:
    w.add_(1)
except RuntimeError as e:
    print("RuntimeError", e)
