# Optimizer state_dict round-trip to a fresh optimizer continues identically
import io
import torch
import torch.nn as nn

def make():
    m = nn.Linear(2, 1)
    with torch.no_grad():
        m.weight.copy_(torch.tensor([[0.3, -0.4]]))
        m.bias.fill_(0.1)
    return m

x = torch.tensor([[1.0, 2.0], [3.0, -1.0]])
y = torch.tensor([[1.0], [0.0]])
m = make()
opt = torch.optim.Adam(m.parameters(), lr=0.05, betas=(0.8, 0.95), weight_decay=0.01)
for _ in range(3):
    opt.zero_grad()
    nn.functional.mse_loss(m(x), y).backward()
    opt.step()
buf = io.BytesIO()
torch.save({"model": m.state_dict(), "opt": opt.state_dict()}, buf)
buf.seek(0)
ck = torch.load(buf)
m2 = make()
m2.load_state_dict(ck["model"])
opt2 = torch.optim.Adam(m2.parameters(), lr=0.5)
opt2.load_state_dict(ck["opt"])
print(opt2.param_groups[0]["lr"], opt2.param_groups[0]["betas"], opt2.state[m2.weight]["step"])
for o, mm in ((opt, m), (opt2, m2)):
    o.zero_grad()
    nn.functional.mse_loss(mm(x), y).backward()
    o.step()
print(m.weight, m2.weight)
print(torch.equal(m.weight, m2.weight))
print(sorted(ck["opt"]["state"][0].keys()))
