import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([3.0, 4.0], requires_grad=True)
y = (x * w).sum()
y.backward(inputs=[x]); print(x.grad, w.grad)
z = x * w
z.backward(torch.tensor([1.0, 0.5])); print(x.grad)
torch.autograd.backward([(x ** 2).sum(), (w ** 2).sum()], grad_tensors=[torch.tensor(1.0), torch.tensor(2.0)])
print(x.grad, w.grad)
x.grad = None; w.grad = None
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x ** 3
    @staticmethod
    def setup_context(ctx, inputs, output):
        x, = inputs
        ctx.save_for_backward(x)
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * 3 * x ** 2
c = Cube.apply(x); c.sum().backward(); print(x.grad)
from torch.autograd.function import once_differentiable
class Clip(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        ctx.save_for_backward(x)
        return x.clamp(0, 1)
    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * ((x > 0) & (x < 1)).to(g.dtype)
t = torch.tensor([-0.5, 0.5, 1.5], requires_grad=True)
Clip.apply(t).sum().backward(); print(t.grad)
with torch.autograd.set_detect_anomaly(True):
    q = (t * 2).sum(); q.backward()
print(t.grad, torch.is_anomaly_enabled())
packed = []
def pack(tensor): packed.append(tuple(tensor.shape)); return tensor
def unpack(tensor): return tensor
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    a = torch.ones(2, requires_grad=True)
    out = (a * a).sum()
out.backward(); print(a.grad, len(packed) > 0)
p = torch.ones(2, requires_grad=True)
seen = []
p.register_post_accumulate_grad_hook(lambda param: seen.append(param.grad.clone()))
(p * 3).sum().backward(); print(seen)
g = torch.ones(3, requires_grad=True)
out = g.pow(2)
try:
    out.backward()
except RuntimeError as e:
    print("RuntimeError", str(e)[:48])
try:
    torch.ones(2).sum().backward()
except RuntimeError as e:
    print("RuntimeError", str(e)[:48])
try:
    torch.tensor([1, 2], requires_grad=True)
except RuntimeError as e:
    print("RuntimeError", str(e)[:48])
try:
    g.numpy()
except RuntimeError as e:
    print("RuntimeError", str(e)[:48])
try:
    g.add_(1)
except RuntimeError as e:
    print("RuntimeError", str(e)[:48])
try:
    float(g)
except (RuntimeError, ValueError, TypeError) as e:
    print(type(e).__name__, str(e)[:48])
try:
    if g > 0: pass
except RuntimeError as e:
    print("RuntimeError", str(e)[:48])
try:
    torch.ones(2, 3) @ torch.ones(2, 3)
except RuntimeError as e:
    print("RuntimeError", str(e)[:48])
try:
    torch.ones(2, 3).view(4, 2)
except RuntimeError as e:
    print("RuntimeError", str(e)[:48])
try:
    torch.ones(3)[5]
except IndexError as e:
    print("IndexError", str(e)[:48])
try:
    torch.cat([torch.ones(2, 3), torch.ones(2, 4)])
except RuntimeError as e:
    print("RuntimeError", str(e)[:48])
try:
    torch.nn.Linear(3, 2)(torch.ones(4, 5))
except RuntimeError as e:
    print("RuntimeError", str(e)[:48])
h = torch.ones(2, requires_grad=True)
k = h * 2
k.sum().backward()
try:
    k.sum().backward()
except RuntimeError as e:
    print("RuntimeError", str(e)[:70])
print(h.grad, k.grad_fn.next_functions[0][0].__class__.__name__ if k.grad_fn.next_functions else None)
try:
    k.grad
except Exception as e:
    print(type(e).__name__)
import warnings
with warnings.catch_warnings(record=True) as ws:
    warnings.simplefilter('always')
    _ = k.grad
print(len(ws), ws[0].category.__name__ if ws else None)
