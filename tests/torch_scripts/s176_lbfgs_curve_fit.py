import torch

t = torch.linspace(0, 3, 20)
y = 2.5 * torch.exp(-1.3 * t) + 0.4
params = torch.tensor([1.0, 1.0, 0.0], requires_grad=True)
opt = torch.optim.LBFGS([params], lr=1, max_iter=50, history_size=10,
                        tolerance_grad=1e-12, tolerance_change=1e-14)
calls = []


def closure():
    opt.zero_grad()
    a, k, c = params
    loss = ((a * torch.exp(-k * t) + c - y) ** 2).mean()
    loss.backward()
    calls.append(loss.item())
    return loss


for epoch in range(3):
    loss = opt.step(closure)
    print(epoch, f"{loss.item():.3e}")
print(params.detach().round(decimals=5))
print(len(calls) > 3, opt.state_dict()["param_groups"][0]["max_iter"])
state = opt.state[opt.param_groups[0]["params"][0]]
print(sorted(state.keys()))
print(opt)
