import torch
import torch.nn as nn

model = nn.Linear(3, 1)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[0.5, -0.25, 1.0]]))
    model.bias.fill_(0.1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
scaler = torch.amp.GradScaler("cpu", init_scale=1024.0, growth_interval=2)
print(scaler.is_enabled(), scaler.get_scale(), scaler.get_growth_factor(), scaler.get_backoff_factor())
x = torch.tensor([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]])
y = torch.tensor([[1.0], [0.0]])
for step in range(5):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    scaled = scaler.scale(loss)
    print(step, round(loss.item(), 6), round(scaled.item(), 3))
    scaled.backward()
    if step == 2:
        model.weight.grad[0, 0] = float("inf")
    scaler.unscale_(opt)
    print("  grad", model.weight.grad.round(decimals=5))
    scaler.step(opt)
    scaler.update()
    print("  scale", scaler.get_scale(), model.weight.data.round(decimals=5))
sd = scaler.state_dict()
print(sorted(sd), sd["scale"], sd["_growth_tracker"])
s2 = torch.amp.GradScaler("cpu")
s2.load_state_dict(sd)
print(s2.get_scale())
off = torch.amp.GradScaler("cpu", enabled=False)
t = torch.tensor(2.0)
print(off.is_enabled(), off.scale(t) is t, off.get_scale())
