import torch
import torch.nn as nn
from torch.optim import Optimizer

class MySGD(Optimizer):
    def __init__(self, params, lr=0.01, momentum=0.0):
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        defaults = dict(lr=lr, momentum=momentum)
        super().__init__(params, defaults)
    @torch.no_grad()
    def step(self, closure=None):
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        for group in self.param_groups:
            for p in group['params']:
                if p.grad is None:
                    continue
                state = self.state[p]
                if 'momentum_buffer' not in state:
                    state['momentum_buffer'] = torch.clone(p.grad).detach()
                else:
                    state['momentum_buffer'].mul_(group['momentum']).add_(p.grad)
                p.add_(state['momentum_buffer'], alpha=-group['lr'])
        return loss

torch.manual_seed(0)
model = nn.Linear(2, 1)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[0.5, -0.5]])); model.bias.zero_()
opt = MySGD(model.parameters(), lr=0.1, momentum=0.9)
X = torch.tensor([[1., 2.], [3., 4.], [5., 6.]]); Y = torch.tensor([[1.], [2.], [3.]])
for _ in range(5):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(X), Y)
    loss.backward()
    opt.step()
print(round(loss.item(), 6), model.weight.data, len(opt.state))
print(opt.defaults, opt.param_groups[0]['momentum'], sorted(opt.state_dict()['state'][0].keys()))
print(opt.state_dict()['param_groups'])
opt2 = MySGD(model.parameters(), lr=1.0)
opt2.load_state_dict(opt.state_dict())
print(opt2.param_groups[0]['lr'], torch.equal(opt2.state[model.weight]['momentum_buffer'], opt.state[model.weight]['momentum_buffer']))
try:
    MySGD(model.parameters(), lr=-1)
except ValueError as e:
    print("ValueError", e)
print(repr(opt))
def closure():
    opt.zero_grad(); l = nn.functional.mse_loss(model(X), Y); l.backward(); return l
print(round(opt.step(closure).item(), 6))
sgd = torch.optim.SGD(model.parameters(), lr=0.1)
print(sgd.param_groups[0].keys())
adam = torch.optim.Adam(model.parameters())
nn.functional.mse_loss(model(X), Y).backward(); adam.step()
print(sorted(adam.state[model.weight].keys()), adam.state[model.weight]['step'])
print(adam.state_dict()['param_groups'][0]['betas'], adam.defaults['eps'])
