import io
import torch
from torch.optim.lr_scheduler import LambdaLR, MultiplicativeLR

def make():
    p = torch.nn.Parameter(torch.tensor([1.0, -1.0]))
    opt = torch.optim.SGD([p], lr=0.5, momentum=0.9, weight_decay=0.01)
    sched = LambdaLR(opt, lr_lambda=lambda e: 1.0 / (1 + 0.5 * e))
    return p, opt, sched

p, opt, sched = make()
for e in range(3):
    opt.zero_grad()
    (p ** 2).sum().backward()
    opt.step()
    sched.step()
buf = io.BytesIO()
torch.save({"opt": opt.state_dict(), "sched": sched.state_dict(), "p": p.detach()}, buf)
buf.seek(0)
ck = torch.load(buf)
print(ck["sched"]["last_epoch"], ck["sched"]["_last_lr"], sorted(ck["opt"]["state"][0].keys()))
p2, opt2, sched2 = make()
with torch.no_grad():
    p2.copy_(ck["p"])
opt2.load_state_dict(ck["opt"])
sched2.load_state_dict(ck["sched"])
for opt_, sched_, q in ((opt, sched, p), (opt2, sched2, p2)):
    for e in range(2):
        opt_.zero_grad()
        (q ** 2).sum().backward()
        opt_.step()
        sched_.step()
print(torch.equal(p, p2), p.detach().round(decimals=6), sched2.get_last_lr())
m = torch.nn.Parameter(torch.ones(1))
o = torch.optim.SGD([m], lr=1.0)
ms = MultiplicativeLR(o, lr_lambda=lambda e: 0.5 if e % 2 else 0.9)
lrs = []
for _ in range(5):
    o.step(); ms.step()
    lrs.append(round(o.param_groups[0]["lr"], 6))
print(lrs, ms.state_dict()["lr_lambdas"])
