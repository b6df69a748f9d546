import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
X = torch.randn(16, 3)
y = X @ torch.tensor([[1.0], [-2.0], [0.5]]) + 0.1
model = nn.Linear(3, 1)
ref = nn.Linear(3, 1)
ref.load_state_dict(model.state_dict())

accum = 4
opt = torch.optim.SGD(model.parameters(), lr=0.1)
opt.zero_grad()
for i in range(accum):
    xb, yb = X[i * 4:(i + 1) * 4], y[i * 4:(i + 1) * 4]
    loss = F.mse_loss(model(xb), yb) / accum
    loss.backward()
    print(i, model.weight.grad is not None, round(loss.item() * accum, 6) > 0)
opt.step()

opt2 = torch.optim.SGD(ref.parameters(), lr=0.1)
opt2.zero_grad()
F.mse_loss(ref(X), y).backward()
grad_full = ref.weight.grad.clone()
opt2.step()
print(torch.allclose(model.weight, ref.weight), torch.allclose(model.bias, ref.bias))

opt.zero_grad(set_to_none=True)
print(model.weight.grad)
opt.zero_grad(set_to_none=False) if False else None
for p in model.parameters():
    p.grad = torch.zeros_like(p)
model.zero_grad()
print(model.weight.grad)

w = torch.tensor([1.0, 2.0], requires_grad=True)
for k in range(3):
    (w * (k + 1)).sum().backward()
print(w.grad)
w.grad.zero_()
loss = (w ** 2).sum()
loss.backward(retain_graph=True)
loss.backward()
print(w.grad)
try:
    loss.backward()
    loss.backward()
except RuntimeError as e:
    print("RuntimeError", "second time" in str(e))
scaler_steps = 0
for step in range(6):
    out = model(X[:2]).sum()
    (out / 2).backward()
    if (step + 1) % 3 == 0:
        opt.step(); opt.zero_grad(); scaler_steps += 1
print(scaler_steps, model.weight.grad)
