import torch

t = torch.linspace(0, 2, 9)
y = 2.5 * torch.exp(-1.3 * t) + 0.4
a = torch.tensor(1.0, requires_grad=True)
k = torch.tensor(0.5, requires_grad=True)
c = torch.tensor(0.0, requires_grad=True)
opt = torch.optim.LBFGS([a, k, c], lr=1, max_iter=50, history_size=10, line_search_fn="strong_wolfe", tolerance_grad=1e-10, tolerance_change=1e-12)
calls = []


def closure():
    opt.zero_grad()
    loss = ((a * torch.exp(-k * t) + c - y) ** 2).sum()
    loss.backward()
    calls.append(loss.item())
    return loss


for _ in range(3):
    loss = opt.step(closure)
print(round(a.item(), 5), round(k.item(), 5), round(c.item(), 5))
print(loss.item() < 1e-10, len(calls) > 3)
st = opt.state[opt._params[0]]
print(sorted(k for k in st.keys()))
w = torch.tensor([1.5, -0.5], requires_grad=True)
opt2 = torch.optim.LBFGS([w], lr=0.5, max_iter=4)


def rosen():
    opt2.zero_grad()
    l = (1 - w[0]) ** 2 + 10 * (w[1] - w[0] ** 2) ** 2
    l.backward()
    return l


for i in range(3):
    print(i, round(opt2.step(rosen).item(), 6), w.detach().round(decimals=5))
