import torch

configs = [
    ("Adam_amsgrad", lambda p: torch.optim.Adam(p, lr=0.1, amsgrad=True, weight_decay=0.01)),
    ("Adam_maximize", lambda p: torch.optim.Adam(p, lr=0.1, maximize=True)),
    ("AdamW", lambda p: torch.optim.AdamW(p, lr=0.1, weight_decay=0.5)),
    ("NAdam", lambda p: torch.optim.NAdam(p, lr=0.1, momentum_decay=0.004)),
    ("NAdam_dec", lambda p: torch.optim.NAdam(p, lr=0.1, weight_decay=0.1, decoupled_weight_decay=True)),
    ("RAdam", lambda p: torch.optim.RAdam(p, lr=0.1)),
    ("RAdam_dec", lambda p: torch.optim.RAdam(p, lr=0.1, weight_decay=0.1, decoupled_weight_decay=True)),
    ("SGD_nesterov", lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9, nesterov=True)),
    ("SGD_dampening", lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9, dampening=0.5, weight_decay=0.1)),
    ("Adamax", lambda p: torch.optim.Adamax(p, lr=0.1)),
    ("Adadelta", lambda p: torch.optim.Adadelta(p, lr=1.0, rho=0.8)),
    ("RMSprop_centered", lambda p: torch.optim.RMSprop(p, lr=0.05, centered=True, momentum=0.5)),
    ("ASGD", lambda p: torch.optim.ASGD(p, lr=0.1, t0=2)),
    ("Adagrad", lambda p: torch.optim.Adagrad(p, lr=0.3, lr_decay=0.1)),
    ("Rprop", lambda p: torch.optim.Rprop(p, lr=0.1)),
]
for name, make in configs:
    w = torch.nn.Parameter(torch.tensor([1.5, -2.0, 0.5]))
    opt = make([w])
    for _ in range(5):
        opt.zero_grad()
        loss = (w ** 4).sum() + (w[0] * w[1])
        loss.backward()
        opt.step()
    print(name, [round(v, 6) for v in w.tolist()], sorted(opt.state[w].keys()))
print(torch.optim.Adam([torch.nn.Parameter(torch.ones(1))], lr=0.1).defaults["betas"])
w = torch.nn.Parameter(torch.ones(2))
opt = torch.optim.Adam([w], lr=torch.tensor(0.01))
w.grad = torch.ones(2)
opt.step()
print([round(v, 6) for v in w.tolist()])
try:
    torch.optim.Adam([w], betas=(1.0, 0.9))
except ValueError as e:
    print("ValueError:", e)
try:
    torch.optim.SGD([w], lr=0.1, nesterov=True)
except ValueError as e:
    print("ValueError:", e)
