import torch
import torch.nn as nn

def make():
    torch.manual_seed(0)
    m = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1))
    with torch.no_grad():
        m[0].weight.copy_(torch.tensor([[0.5, -0.3], [0.2, 0.8]]))
        m[0].bias.copy_(torch.tensor([0.1, -0.1]))
        m[1].weight.copy_(torch.tensor([[1.0, -1.0]]))
        m[1].bias.zero_()
    return m

x = torch.tensor([[1.0, 2.0], [-1.0, 0.5], [0.3, -0.2]])
y = torch.tensor([[1.0], [0.0], [0.5]])
for name, ctor in [("sgd", lambda g: torch.optim.SGD(g, lr=0.1, momentum=0.9, nesterov=True)),
                   ("adam", lambda g: torch.optim.Adam(g, lr=0.01, amsgrad=True)),
                   ("adamw", lambda g: torch.optim.AdamW(g, lr=0.01, weight_decay=0.1)),
                   ("rms", lambda g: torch.optim.RMSprop(g, lr=0.01, centered=True, momentum=0.5)),
                   ("adagrad", lambda g: torch.optim.Adagrad(g, lr=0.1, lr_decay=0.01))]:
    m = make()
    opt = ctor([{"params": m[0].parameters()}, {"params": m[1].parameters(), "lr": 0.001}])
    for _ in range(5):
        opt.zero_grad()
        nn.functional.mse_loss(m(x), y).backward()
        opt.step()
    print(name, [g["lr"] for g in opt.param_groups], m[0].weight.detach().flatten().round(decimals=6), m[1].weight.detach().round(decimals=6))
m = make()
opt = torch.optim.SGD(m[0].parameters(), lr=0.1)
opt.add_param_group({"params": m[1].parameters(), "lr": 0.5, "momentum": 0.3})
print(len(opt.param_groups), sorted(opt.param_groups[1].keys()))
for _ in range(3):
    opt.zero_grad(set_to_none=True)
    nn.functional.mse_loss(m(x), y).backward()
    opt.step()
sd = opt.state_dict()
print(sd["param_groups"][1]["params"], list(sd["state"].keys()), sorted(sd["state"][2].keys()))
print(sd["state"][2]["momentum_buffer"].round(decimals=6))
opt.zero_grad()
print(m[0].weight.grad)
try:
    opt.add_param_group({"params": m[1].weight})
except ValueError as e:
    print("ValueError", e)
m2 = make()
opt2 = torch.optim.SGD([{"params": m2[0].parameters()}, {"params": m2[1].parameters(), "momentum": 0.1}], lr=1.0)
opt2.load_state_dict(opt.state_dict())
print([g["lr"] for g in opt2.param_groups], opt2.param_groups[1]["momentum"])
