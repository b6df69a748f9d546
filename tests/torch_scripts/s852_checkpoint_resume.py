# Saving and resuming training: a checkpoint dict with model/optimizer/scheduler/epoch into a
# BytesIO, resuming, and checking the resumed run matches an uninterrupted one
import io
import torch
import torch.nn as nn


def build():
    m = nn.Linear(2, 1)
    with torch.no_grad():
        m.weight.copy_(torch.tensor([[0.3, -0.2]]))
        m.bias.fill_(0.1)
    o = torch.optim.Adam(m.parameters(), lr=0.1)
    s = torch.optim.lr_scheduler.StepLR(o, step_size=2, gamma=0.5)
    return m, o, s


x = torch.tensor([[1.0, 2.0], [2.0, 1.0], [0.0, -1.0]])
y = torch.tensor([[1.0], [0.5], [-0.5]])


def step(m, o, s):
    o.zero_grad()
    loss = ((m(x) - y) ** 2).mean()
    loss.backward()
    o.step()
    s.step()
    return loss.item()


m, o, s = build()
full = [step(m, o, s) for _ in range(6)]
m, o, s = build()
for _ in range(3):
    step(m, o, s)
buf = io.BytesIO()
torch.save({"epoch": 3, "model": m.state_dict(), "optim": o.state_dict(), "sched": s.state_dict()}, buf)
buf.seek(0)
ck = torch.load(buf)
m2, o2, s2 = build()
m2.load_state_dict(ck["model"])
o2.load_state_dict(ck["optim"])
s2.load_state_dict(ck["sched"])
rest = [step(m2, o2, s2) for _ in range(3)]
print([round(v, 8) for v in full[3:]], [round(v, 8) for v in rest])
print(ck["epoch"], sorted(ck.keys()), s2.get_last_lr(), o2.param_groups[0]["lr"])
print(m2.weight)
