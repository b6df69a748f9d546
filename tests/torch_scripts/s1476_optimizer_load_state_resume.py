# resuming training: optimizer and model state_dicts round-trip through torch.save/load
import io
import torch
import torch.nn as nn

def make():
    m = nn.Linear(2, 1)
    with torch.no_grad():
        m.weight.fill_(0.5); m.bias.fill_(0.0)
    return m, torch.optim.Adam(m.parameters(), lr=0.1)
x = torch.tensor([[1.0, 2.0], [3.0, -1.0]]); y = torch.tensor([[1.0], [0.0]])
def step(m, o):
    o.zero_grad(); nn.functional.mse_loss(m(x), y).backward(); o.step()
m1, o1 = make()
for _ in range(6): step(m1, o1)
m2, o2 = make()
for _ in range(3): step(m2, o2)
buf = io.BytesIO()
torch.save({"model": m2.state_dict(), "opt": o2.state_dict()}, buf)
buf.seek(0)
ck = torch.load(buf)
m3, o3 = make()
m3.load_state_dict(ck["model"]); o3.load_state_dict(ck["opt"])
for _ in range(3): step(m3, o3)
print(m1.weight.data, m3.weight.data, torch.allclose(m1.weight, m3.weight))
print(o3.state_dict()["state"][0]["step"])
