import torch


def rosenbrock(xy):
    x, y = xy
    return (1 - x) ** 2 + 100 * (y - x ** 2) ** 2


def run(make, steps=60):
    p = torch.tensor([-1.5, 2.0], requires_grad=True)
    opt = make([p])
    for _ in range(steps):
        opt.zero_grad()
        loss = rosenbrock(p)
        loss.backward()
        opt.step()
    return [round(v, 6) for v in p.tolist()], round(rosenbrock(p).item(), 6)


print('sgd', run(lambda ps: torch.optim.SGD(ps, lr=1e-4)))
print('momentum', run(lambda ps: torch.optim.SGD(ps, lr=1e-4, momentum=0.9, dampening=0.1)))
print('nesterov', run(lambda ps: torch.optim.SGD(ps, lr=1e-4, momentum=0.9, nesterov=True)))
print('adam', run(lambda ps: torch.optim.Adam(ps, lr=0.05)))
print('amsgrad', run(lambda ps: torch.optim.Adam(ps, lr=0.05, amsgrad=True, weight_decay=0.01)))
print('adamw', run(lambda ps: torch.optim.AdamW(ps, lr=0.05, weight_decay=0.1)))
print('adamax', run(lambda ps: torch.optim.Adamax(ps, lr=0.05)))
print('nadam', run(lambda ps: torch.optim.NAdam(ps, lr=0.05)))
print('radam', run(lambda ps: torch.optim.RAdam(ps, lr=0.05)))
print('rmsprop', run(lambda ps: torch.optim.RMSprop(ps, lr=0.01, momentum=0.5)))
print('adagrad', run(lambda ps: torch.optim.Adagrad(ps, lr=0.3, lr_decay=0.01, initial_accumulator_value=0.1)))
print('adadelta', run(lambda ps: torch.optim.Adadelta(ps, lr=1.0)))
print('rprop', run(lambda ps: torch.optim.Rprop(ps, lr=0.01)))
print('asgd', run(lambda ps: torch.optim.ASGD(ps, lr=1e-4)))
p = torch.tensor([-1.5, 2.0], requires_grad=True)
opt = torch.optim.LBFGS([p], lr=1, max_iter=50, history_size=10, line_search_fn='strong_wolfe')


def closure():
    opt.zero_grad()
    loss = rosenbrock(p)
    loss.backward()
    return loss


for i in range(5):
    loss = opt.step(closure)
print('lbfgs', [round(v, 5) for v in p.tolist()], rosenbrock(p).item() < 1e-8, type(loss).__name__)
p = torch.tensor([-1.5, 2.0], requires_grad=True)
opt = torch.optim.LBFGS([p], lr=0.5, max_iter=20)
for i in range(3):
    l = opt.step(closure)
print('lbfgs-plain', round(rosenbrock(p).item(), 6), sorted(opt.state[p].keys())[:4])
p = torch.tensor([1.0, -1.0], requires_grad=True)
opt = torch.optim.Adam([p], lr=0.1, betas=(0.8, 0.9), eps=1e-6, maximize=True)
(p ** 2).sum().backward()
opt.step()
print(p, opt.state[p]['step'], sorted(opt.state[p].keys()))
print(opt.defaults['betas'], opt.param_groups[0]['maximize'], len(opt.state))
w = torch.nn.Parameter(torch.ones(3))
b = torch.nn.Parameter(torch.zeros(1))
opt = torch.optim.SGD([{'params': [w], 'weight_decay': 0.5}, {'params': [b], 'lr': 1.0}], lr=0.1, momentum=0.9)
for _ in range(2):
    opt.zero_grad()
    (w.sum() + 2 * b.sum()).backward()
    opt.step()
print(w, b, [g['weight_decay'] for g in opt.param_groups])
