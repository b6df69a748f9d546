"""The PyTorch autograd tutorial examples, run on tapegrad.

Written as PyTorch code: swapping the two imports below for `import torch` and
`import torch.nn.functional as F` prints the same lines (tests/test_examples.py checks
this whenever PyTorch is installed), except the timing at the end.
"""
import sys
import time

import tapegrad as torch
import tapegrad.nn.functional as F


def show(title, *values):
    print(f"{title:<44}", *values)


def r4(t):
    """Values rounded to 4 places, so float32 (PyTorch) and float64 (tapegrad) print alike."""
    v = t.tolist()
    return [round(x, 4) for x in v] if isinstance(v, list) else round(v, 4)


# 1. A leaf that requires grad, and what backward() puts into .grad
a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(3.0)
c = a * b
c.backward()
show("c = a*b; c.backward(); a.grad, b.grad:", a.grad.item(), b.grad)
show("is_leaf a, b, c:", a.is_leaf, b.is_leaf, c.is_leaf)
show("c.grad_fn.name():", c.grad_fn.name())
show("next_functions:", [type(f).__name__ if f is not None else None
                         for f, _ in c.grad_fn.next_functions])

# 2. Three leaves: e = (a*b)*d
a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(3.0, requires_grad=True)
d = torch.tensor(4.0, requires_grad=True)
e = (a * b) * d
e.backward()
show("e = a*b*d; grads of a, b, d:", a.grad.item(), b.grad.item(), d.grad.item())

# 3. no_grad and detach
with torch.no_grad():
    f = a * 3
show("under no_grad: requires_grad, grad_fn:", f.requires_grad, f.grad_fn)
g = (a * 2).detach()
show("detach(): requires_grad, is_leaf:", g.requires_grad, g.is_leaf)

# 4. y = w*x + b, MSE loss, autograd.grad and backward
x = torch.tensor(2)
w = torch.full([1], 2, requires_grad=True, dtype=torch.float)
bias = torch.tensor([1], dtype=torch.float)
bias.requires_grad_()
y_ = x * w + bias
mse = F.mse_loss(torch.ones(1), y_)
show("mse, y_.grad_fn:", mse.item(), y_.grad_fn.name())
w_grad, b_grad = torch.autograd.grad(mse, [w, bias], retain_graph=True)
show("autograd.grad(mse, [w, b]):", w_grad.tolist(), b_grad.tolist())
mse.backward()
show("after mse.backward(): w.grad, b.grad:", w.grad.tolist(), bias.grad.tolist())

# 5. Softmax and the gradient of one output
z = torch.tensor([2, 1, 0.1], requires_grad=True)
p = F.softmax(z, dim=0)
show("softmax([2, 1, 0.1]):", r4(p))
try:
    p.backward()
except RuntimeError as err:
    show("p.backward() on a vector:", str(err).split(".")[0][:48])
(dp0,) = torch.autograd.grad(p[0], z, retain_graph=True)
show("d p[0] / dz:", r4(dp0))
p.backward(torch.tensor([1.0, 0.0, 0.0]))
show("p.backward(gradient=[1, 0, 0]); z.grad:", r4(z.grad))

# 6. The chain rule through an intermediate
w1 = torch.tensor(2.0, requires_grad=True)
w2 = torch.tensor(2.0, requires_grad=True)
u = torch.tensor(3) * w1 + torch.tensor(1)
yy = u * w2 + torch.tensor(1)
dy_dw1 = torch.autograd.grad(yy, w1, retain_graph=True)[0].item()
dy_du = torch.autograd.grad(yy, u, retain_graph=True)[0].item()
du_dw1 = torch.autograd.grad(u, w1, retain_graph=True)[0].item()
show("dy/dw1 = dy/du * du/dw1:", dy_dw1, "=", dy_du, "*", du_dw1)

# 7. A deep chain: no recursion limit
xd = torch.tensor(1.0, requires_grad=True, dtype=torch.float64)
yd = xd
for _ in range(200_000):
    yd = yd * 1.000001
yd.backward()
show("200k-op chain, d/dx (x * 1.000001**n):", round(xd.grad.item(), 6))

# 8. Speed: the scalar graph y = y*a + sin(y)*b, 4 ops per step
if "--no-timing" not in sys.argv:
    n = 100_000
    a = torch.tensor(0.9, requires_grad=True, dtype=torch.float64)
    b = torch.tensor(0.1, requires_grad=True, dtype=torch.float64)
    y = torch.tensor(0.5, requires_grad=True, dtype=torch.float64)
    t0 = time.perf_counter()
    for _ in range(n // 4):
        y = y * a + y.sin() * b
    t1 = time.perf_counter()
    y.backward()
    t2 = time.perf_counter()
    print(f"\n{torch.__name__}: scalar graph of {n} ops: forward {(t1 - t0) / n * 1e9:.0f} ns/op, "
          f"backward {(t2 - t1) / n * 1e9:.0f} ns/op (includes any one-off compile or cache "
          "load; see benchmarks/ for medians)")
