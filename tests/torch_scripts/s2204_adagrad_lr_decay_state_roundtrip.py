import io
import torch

def make():
    w = torch.nn.Parameter(torch.tensor([1.0, -2.0, 3.0]))
    b = torch.nn.Parameter(torch.tensor(0.5))
    return w, b

def loss_fn(w, b):
    x = torch.tensor([[1.0, 0.5, -1.0], [0.0, 2.0, 1.0]])
    return ((x @ w + b - torch.tensor([1.0, -1.0])) ** 2).sum() + 0.1 * w.abs().sum()

w, b = make()
opt = torch.optim.Adagrad([w, b], lr=0.3, lr_decay=0.01, initial_accumulator_value=0.1, weight_decay=0.01)
for i in range(6):
    opt.zero_grad()
    l = loss_fn(w, b)
    l.backward()
    opt.step()
    print(i, f"{l.item():.6f}")
buf = io.BytesIO()
torch.save({"w": w.detach(), "b": b.detach(), "opt": opt.state_dict()}, buf)
buf.seek(0)
ck = torch.load(buf)
print(sorted(ck["opt"]["state"][0].keys()), ck["opt"]["state"][0]["step"])
print(ck["opt"]["state"][0]["sum"].round(decimals=5))
w2, b2 = make()
with torch.no_grad():
    w2.copy_(ck["w"])
    b2.copy_(ck["b"])
opt2 = torch.optim.Adagrad([w2, b2], lr=0.3)
opt2.load_state_dict(ck["opt"])
print(opt2.param_groups[0]["lr_decay"], opt2.param_groups[0]["initial_accumulator_value"])
for o, params in [(opt, (w, b)), (opt2, (w2, b2))]:
    for _ in range(3):
        o.zero_grad()
        loss_fn(*params).backward()
        o.step()
print(torch.equal(w, w2), torch.equal(b, b2), w.detach().round(decimals=6))
