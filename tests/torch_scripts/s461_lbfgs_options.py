import torch


def rosen(p):
    return (1 - p[0]) ** 2 + 100 * (p[1] - p[0] ** 2) ** 2


for kwargs in [dict(line_search_fn="strong_wolfe"), dict(line_search_fn="strong_wolfe", history_size=3, max_iter=40),
               dict(lr=0.5, max_iter=5), dict(line_search_fn="strong_wolfe", tolerance_grad=1e-3)]:
    p = torch.tensor([-1.5, 2.0], requires_grad=True)
    opt = torch.optim.LBFGS([p], **kwargs)
    calls = [0]

    def closure():
        calls[0] += 1
        opt.zero_grad()
        loss = rosen(p)
        loss.backward()
        return loss

    for _ in range(5):
        loss = opt.step(closure)
    st = opt.state[p]
    print(p.detach().round(decimals=4), round(rosen(p).item(), 8), st["n_iter"], st["func_evals"] == calls[0], type(loss).__name__)
print(opt.defaults)
print(sorted(opt.state_dict()["state"][0].keys()))
q = torch.tensor([3.0], requires_grad=True)
o2 = torch.optim.LBFGS([q], line_search_fn="strong_wolfe")
out = o2.step(lambda: (o2.zero_grad(), (q - 1).pow(2).sum().backward(), (q - 1).pow(2).sum())[2])
print(round(q.item(), 6), out)
o3 = torch.optim.LBFGS([q], line_search_fn="armijo")
try:
    o3.step(lambda: (o3.zero_grad(), (q ** 2).sum().backward(), (q ** 2).sum())[2])
except RuntimeError as e:
    print("RuntimeError:", e, o3.state[q]["func_evals"])
