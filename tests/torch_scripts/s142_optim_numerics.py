import torch

def rosen(p):
    return (1 - p[0]) ** 2 + 100 * (p[1] - p[0] ** 2) ** 2

def run(make, steps=25, **kw):
    p = torch.nn.Parameter(torch.tensor([-1.5, 2.0]))
    opt = make([p], **kw)
    for _ in range(steps):
        opt.zero_grad()
        loss = rosen(p)
        loss.backward()
        opt.step()
    return f"{type(opt).__name__:9s} {rosen(p).item():.10f} {p.detach().tolist()[0]:.10f} {p.detach().tolist()[1]:.10f}"

print(run(torch.optim.SGD, lr=1e-4, momentum=0.9, nesterov=True))
print(run(torch.optim.SGD, lr=1e-4, momentum=0.5, dampening=0.1, weight_decay=0.01))
print(run(torch.optim.Adagrad, lr=0.1, lr_decay=0.01, initial_accumulator_value=0.1))
print(run(torch.optim.Adadelta, lr=1.0, rho=0.8))
print(run(torch.optim.Adamax, lr=0.05))
print(run(torch.optim.NAdam, lr=0.05))
print(run(torch.optim.RAdam, lr=0.05))
print(run(torch.optim.ASGD, lr=1e-4, t0=5))
print(run(torch.optim.Rprop, lr=0.01, etas=(0.4, 1.3), step_sizes=(1e-5, 1.0)))
print(run(torch.optim.RMSprop, lr=0.01, alpha=0.9, momentum=0.5, centered=True))
print(run(torch.optim.Adam, lr=0.05))
print(run(torch.optim.AdamW, lr=0.05, weight_decay=0.1, amsgrad=True))
p = torch.nn.Parameter(torch.tensor([-1.5, 2.0]))
opt = torch.optim.LBFGS([p], lr=1, max_iter=50, history_size=10, line_search_fn="strong_wolfe")
def closure():
    opt.zero_grad()
    l = rosen(p)
    l.backward()
    return l
for i in range(3):
    l = opt.step(closure)
    print(i, f"{l.item():.4e}", [round(t, 8) for t in p.detach().tolist()], opt.state[p]["n_iter"], opt.state[p]["func_evals"])
