# inference_mode vs no_grad: is_inference, nesting, inference tensors in autograd
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.inference_mode():
    y = x * 2
    with torch.inference_mode(False):
        z = x * 3
    print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
print(y.requires_grad, y.is_inference(), z.requires_grad, z.is_inference())
with torch.no_grad():
    w = x * 2
print(w.is_inference(), w.requires_grad, torch.is_inference_mode_enabled())
try:
    (y * x).sum().backward()
except RuntimeError as e:
    print("RuntimeError", str(e)[:70])
print((y + 1).requires_grad)
y2 = y.clone()
print(y2.is_inference())
@torch.inference_mode()
def f(t):
    return t.exp()
print(f(x).requires_grad, f(x).is_inference())
