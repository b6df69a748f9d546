# optimizer step hooks, maximize, tensor lr, load_state_dict into a fresh optimizer
import torch
import torch.optim as optim

p = torch.nn.Parameter(torch.tensor([1.0, -2.0]))
opt = optim.SGD([p], lr=0.1, maximize=True)
log = []
h1 = opt.register_step_pre_hook(lambda o, args, kwargs: log.append("pre"))
h2 = opt.register_step_post_hook(lambda o, args, kwargs: log.append("post"))
p.grad = torch.tensor([1.0, 1.0])
opt.step()
print(p.data, log)
h1.remove()
h2.remove()
opt.step()
print(p.data, log)
q = torch.nn.Parameter(torch.tensor([1.0, 2.0]))
adam = optim.Adam([q], lr=torch.tensor(0.01))
q.grad = torch.tensor([0.5, -0.5])
adam.step()
print(q.data, type(adam.param_groups[0]["lr"]).__name__)
sd = adam.state_dict()
q2 = torch.nn.Parameter(torch.tensor([1.0, 2.0]))
adam2 = optim.Adam([q2], lr=0.5)
adam2.load_state_dict(sd)
print(adam2.param_groups[0]["lr"], adam2.state[q2]["step"], adam2.state[q2]["exp_avg"])
try:
    adam2.load_state_dict({"state": {}, "param_groups": []})
except ValueError as e:
    print("ValueError", e)
sgd = optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=0.1, momentum=0.9, dampening=0.5, weight_decay=0.1)
sgd.param_groups[0]["params"][0].grad = torch.tensor([1.0])
for _ in range(3):
    sgd.step()
print(sgd.param_groups[0]["params"][0].data, sgd.state_dict()["state"][0]["momentum_buffer"])
try:
    optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=0.1, nesterov=True)
except ValueError as e:
    print("ValueError", e)
try:
    optim.Adam([torch.nn.Parameter(torch.zeros(1))], lr=0.1, weight_decay=-1)
except ValueError as e:
    print("ValueError", e)
try:
    optim.SGD([], lr=0.1)
except ValueError as e:
    print("ValueError", e)
try:
    optim.SGD(torch.zeros(2), lr=0.1)
except TypeError as e:
    print("TypeError", e)
r = optim.Rprop([torch.nn.Parameter(torch.tensor([1.0]))], lr=0.1, etas=(0.4, 1.3), step_sizes=(1e-3, 1.0))
print(r.defaults)
