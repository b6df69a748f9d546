import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)

@torch.no_grad()
def predict(x):
    return (w * x).sum()

@torch.enable_grad()
def inner(x):
    return (w * x).sum()

@torch.inference_mode()
def infer(x):
    return w * x

@torch.set_grad_enabled(False)
def off(x):
    return w * x

x = torch.tensor([3.0, 4.0])
print(predict(x).requires_grad, inner(x).requires_grad)
with torch.no_grad():
    print("inner under no_grad:", inner(x).requires_grad, torch.is_grad_enabled())
r = infer(x)
print(r.requires_grad, r.is_inference(), torch.is_inference_mode_enabled())
print(off(x).requires_grad, torch.is_grad_enabled())
with torch.set_grad_enabled(False):
    a = w * 2
print(a.requires_grad)
torch.set_grad_enabled(False)
b = w * 2
torch.set_grad_enabled(True)
print(b.requires_grad, (w * 2).requires_grad)
with torch.inference_mode(mode=False):
    print((w * 2).requires_grad)
with torch.inference_mode():
    t = torch.ones(2)
    with torch.inference_mode(False):
        print(torch.is_inference_mode_enabled(), t.is_inference())
try:
    (t * w).sum().backward()
    print("ok", w.grad)
except RuntimeError as e:
    print("RuntimeError", "inference" in str(e).lower())
class Model(torch.nn.Module):
    @torch.no_grad()
    def generate(self, x):
        return x * w
print(Model().generate(x).requires_grad)
def gen():
    for i in range(2):
        yield (w * i).requires_grad
print(list(torch.no_grad()(gen)()))
print(torch.no_grad()(lambda: torch.is_grad_enabled())())
