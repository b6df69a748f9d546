# Grad-mode contexts: no_grad decorator, enable_grad inside, set_grad_enabled function form, inference_mode is_inference
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)

@torch.no_grad()
def f(a):
    with torch.enable_grad():
        inner = a * 2
    return a * 3, inner

o, i = f(x)
print(o.requires_grad, i.requires_grad, torch.is_grad_enabled())
torch.set_grad_enabled(False)
print((x * 2).requires_grad, torch.is_grad_enabled())
torch.set_grad_enabled(True)
with torch.set_grad_enabled(False):
    print((x + 1).requires_grad)
with torch.inference_mode():
    t = x * 2
print(t.requires_grad, t.is_inference(), x.is_inference(), torch.is_inference_mode_enabled())
with torch.inference_mode(mode=False):
    print((x * 2).requires_grad)
try:
    t.requires_grad_()
except RuntimeError as e:
    print("RuntimeError:", str(e)[:60])

@torch.inference_mode()
def g(a):
    return a.sum()
print(g(x).requires_grad, g(x))
with torch.autograd.set_detect_anomaly(True):
    y = (x ** 2).sum()
    y.backward()
print(x.grad, torch.is_anomaly_enabled())
