import torch
import torch.nn as nn

lin = nn.Linear(3, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[1.0, 0.0, -1.0], [0.5, 0.5, 0.5]]))
    lin.bias.zero_()
x = torch.tensor([[1.0, 2.0, 3.0]])
with torch.inference_mode():
    y = lin(x)
    print(y, y.requires_grad, y.is_inference(), torch.is_inference_mode_enabled())
    with torch.inference_mode(False):
        print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
print(x.is_inference(), y.is_inference(), torch.is_inference_mode_enabled())
w = torch.ones(2, requires_grad=True)
try:
    (y * w).sum().backward()
    print("backward ok", w.grad)
except RuntimeError as e:
    print("RuntimeError:", e)
z = y.clone()
try:
    y.add_(1)
except RuntimeError as e:
    print("RuntimeError:", e)
print(z.is_inference(), z + 1)


@torch.inference_mode()
def predict(inp):
    return lin(inp).argmax(dim=1)


print(predict(x), predict(x).is_inference())
with torch.no_grad():
    q = lin(x)
print(q.is_inference(), q.requires_grad)
