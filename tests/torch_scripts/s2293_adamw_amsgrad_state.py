import torch

w = torch.nn.Parameter(torch.tensor([1.0, -2.0, 0.5]))
opt = torch.optim.AdamW([w], lr=0.1, betas=(0.8, 0.95), weight_decay=0.05, amsgrad=True)
target = torch.tensor([0.0, 1.0, 2.0])
for i in range(6):
    opt.zero_grad()
    loss = ((w - target) ** 2).sum()
    loss.backward()
    opt.step()
    print(i, f"{loss.item():.5f}", w.detach().round(decimals=5).tolist())
st = opt.state[w]
print(sorted(st.keys()), st["step"], st["exp_avg"].round(decimals=5))
print(st["max_exp_avg_sq"].shape, st["step"].dtype)
print({k: v for k, v in opt.param_groups[0].items() if k != "params" and not isinstance(v, bool) and v is not None})
w2 = torch.nn.Parameter(torch.tensor([1.0, -2.0, 0.5]))
o2 = torch.optim.Adam([w2], lr=0.1, betas=(0.8, 0.95), weight_decay=0.05)
for i in range(6):
    o2.zero_grad()
    ((w2 - target) ** 2).sum().backward()
    o2.step()
print(w2.detach().round(decimals=5).tolist(), torch.allclose(w, w2))
a = torch.nn.Parameter(torch.ones(2))
ad = torch.optim.Adagrad([a], lr=0.5)
for i in range(3):
    ad.zero_grad()
    (a * torch.tensor([1.0, 3.0])).sum().backward()
    ad.step()
print(a.detach(), ad.state[a]["sum"])
