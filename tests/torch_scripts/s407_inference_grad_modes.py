import torch
import torch.nn as nn

m = nn.Linear(2, 2)
x = torch.ones(1, 2)


@torch.no_grad()
def predict(model, inp):
    return model(inp)


@torch.inference_mode()
def infer(model, inp):
    return model(inp)


@torch.enable_grad()
def forced(inp):
    return inp * 2


p = predict(m, x)
i = infer(m, x)
print(p.requires_grad, i.requires_grad, i.is_inference(), p.is_inference())
with torch.no_grad():
    f = forced(torch.ones(1, requires_grad=True))
print(f.requires_grad, torch.is_grad_enabled(), torch.is_inference_mode_enabled())
with torch.inference_mode():
    print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
    t = torch.ones(2)
try:
    t.add_(1)
    print("inplace outside ok")
except RuntimeError as e:
    print("RuntimeError", str(e)[:60])
try:
    (t * torch.ones(2, requires_grad=True)).sum().backward()
    print("used in autograd ok")
except RuntimeError as e:
    print("RuntimeError", str(e)[:70])
with torch.set_grad_enabled(False):
    print((m(x)).requires_grad)
torch.set_grad_enabled(True)
print(m(x).requires_grad)
with torch.no_grad():
    with torch.enable_grad():
        print(m(x).requires_grad)
with torch.autograd.grad_mode.no_grad():
    print(torch.is_grad_enabled())
c = t.clone()
print(c.is_inference(), t.is_inference(), torch.ones(1).is_inference())
