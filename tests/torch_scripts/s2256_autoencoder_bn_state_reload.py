import io
import torch
import torch.nn as nn


def make():
    enc = nn.Sequential(nn.Linear(6, 3), nn.BatchNorm1d(3), nn.Tanh())
    dec = nn.Sequential(nn.Linear(3, 6))
    m = nn.ModuleDict({"enc": enc, "dec": dec})
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(torch.linspace(-0.5, 0.5, p.numel()).view_as(p) * (1 + 0.1 * i))
    return m


data = torch.stack([torch.sin(torch.arange(6.0) * (k + 1) / 3) for k in range(12)])
ae = make()
opt = torch.optim.Adam(ae.parameters(), lr=0.02)
for epoch in range(40):
    for chunk in data.split(4):
        opt.zero_grad()
        recon = ae["dec"](ae["enc"](chunk))
        loss = nn.functional.mse_loss(recon, chunk)
        loss.backward()
        opt.step()
print(round(loss.item(), 6), ae["enc"][1].num_batches_tracked.item())
ae.eval()
with torch.no_grad():
    codes = ae["enc"](data)
print(codes[:3].round(decimals=4))
buf = io.BytesIO()
torch.save(ae.state_dict(), buf)
buf.seek(0)
fresh = make()
fresh.load_state_dict(torch.load(buf))
fresh.eval()
with torch.no_grad():
    print(torch.equal(fresh["enc"](data), codes))
fresh.train()
with torch.no_grad():
    train_codes = fresh["enc"](data)
print(torch.equal(train_codes, codes), fresh["enc"][1].num_batches_tracked.item())
print(list(ae.state_dict().keys()))
print(ae["enc"][1].running_var.round(decimals=4))
