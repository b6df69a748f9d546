import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
X = torch.linspace(-1, 1, 50).unsqueeze(1)
Y = 3 * X + 0.5
model = nn.Linear(1, 1)
with torch.no_grad():
    model.weight.fill_(0.0); model.bias.zero_()
crit = nn.MSELoss()
for name, opt in [('sgd', torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, nesterov=True, weight_decay=1e-4)),
                  ('adam', torch.optim.Adam(model.parameters(), lr=0.05, betas=(0.9, 0.99), amsgrad=True)),
                  ('adamw', torch.optim.AdamW(model.parameters(), lr=0.05, weight_decay=0.01)),
                  ('rmsprop', torch.optim.RMSprop(model.parameters(), lr=0.01, alpha=0.9, centered=True)),
                  ('adagrad', torch.optim.Adagrad(model.parameters(), lr=0.1)),
                  ('lbfgs', torch.optim.LBFGS(model.parameters(), lr=1, max_iter=5))]:
    for epoch in range(20):
        def closure():
            opt.zero_grad()
            loss = crit(model(X), Y)
            loss.backward()
            return loss
        if name == 'lbfgs':
            loss = opt.step(closure)
        else:
            loss = closure(); opt.step()
    print(name, round(loss.item(), 6), [round(v, 5) for v in model.weight.flatten().tolist() + model.bias.tolist()])
opt.zero_grad(set_to_none=True)
print(model.weight.grad)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
opt.zero_grad(); print(model.weight.grad)
crit(model(X), Y).backward(); opt.zero_grad(set_to_none=False); print(model.weight.grad)
opt.add_param_group({'params': [nn.Parameter(torch.zeros(2))], 'lr': 0.5})
print(len(opt.param_groups), opt.param_groups[1]['lr'], opt.param_groups[1]['momentum'])
print(opt)
for g in opt.param_groups: g['lr'] *= 0.5
print([g['lr'] for g in opt.param_groups])
print(opt.state_dict()['param_groups'][1]['params'])
