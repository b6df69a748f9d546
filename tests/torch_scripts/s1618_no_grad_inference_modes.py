# grad modes: no_grad, enable_grad inside, set_grad_enabled, inference_mode tensors, decorators
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.no_grad():
    y = x * 2
    with torch.enable_grad():
        z = x * 3
print(y.requires_grad, z.requires_grad, torch.is_grad_enabled())
with torch.set_grad_enabled(False):
    print((x + 1).requires_grad, torch.is_grad_enabled())
torch.set_grad_enabled(True)


@torch.no_grad()
def f(t):
    return t * 5


print(f(x).requires_grad, f.__name__)
with torch.inference_mode():
    i = x * 2
print(i.requires_grad, i.is_inference(), x.is_inference(), torch.is_inference_mode_enabled())
try:
    (i * x).sum().backward()
except RuntimeError as e:
    print(str(e)[:120])
with torch.inference_mode(False):
    print((x * 2).requires_grad)
k = y.clone().requires_grad_()
print(k.is_leaf, k.requires_grad, y.grad_fn)
