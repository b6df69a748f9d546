import torch
import torch.nn as nn

model = nn.Linear(3, 1)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[0.5, -1.0, 2.0]]))
    model.bias.fill_(0.1)
x = torch.tensor([[1.0, 2.0, 3.0]])
with torch.inference_mode():
    y = model(x)
    z = torch.ones(2)
print(y, y.requires_grad, y.is_inference(), x.is_inference())
print(torch.is_inference_mode_enabled())
try:
    w = torch.ones(2, requires_grad=True)
    (w * z).sum().backward()
    print("backward ok", w.grad)
except RuntimeError as e:
    print("RuntimeError", str(e)[:50])
try:
    z.add_(1)
except RuntimeError as e:
    print("RuntimeError", str(e)[:60])
zc = torch.ones(2).clone()
print(zc.is_inference(), zc.add_(1))


@torch.inference_mode()
def predict(inp):
    return model(inp) * 2


p = predict(x)
print(p, p.is_inference(), p.requires_grad)
with torch.inference_mode(mode=False):
    q = model(x)
print(q.requires_grad, q.is_inference())
with torch.no_grad():
    r = model(x)
print(r.requires_grad, r.is_inference())
with torch.inference_mode():
    with torch.inference_mode(False):
        print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
    print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
total = 0.0
model.eval()
with torch.inference_mode():
    for i in range(3):
        total += model(x * i).sum().item()
print(round(total, 6), model.training)
