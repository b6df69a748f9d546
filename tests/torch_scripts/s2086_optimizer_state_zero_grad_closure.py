import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1, momentum=0.9)
(w ** 2).sum().backward()
opt.step()
print(opt.state[w]["momentum_buffer"], w)
opt.zero_grad(set_to_none=False)
print(w.grad)
opt.zero_grad()
print(w.grad)
sd = opt.state_dict()
print(sd["state"], sd["param_groups"])
def closure():
    opt.zero_grad()
    loss = (w - 3).pow(2).sum()
    loss.backward()
    return loss
l = opt.step(closure)
print(l, w)
adam = torch.optim.Adam([w], lr=0.1)
for i in range(3):
    adam.step(closure)
st = adam.state[w]
print(sorted(st), st["step"], st["exp_avg"].round(decimals=5), st["exp_avg_sq"].round(decimals=5))
adam.param_groups[0]["lr"] = 0.01
adam.step(closure)
print(w.round(decimals=5))
lr_t = torch.optim.Adam([torch.zeros(2, requires_grad=True)], lr=torch.tensor(0.01))
print(type(lr_t.param_groups[0]["lr"]).__name__)
print(adam.defaults["betas"], adam.defaults["eps"], adam.defaults["amsgrad"])
sgd_nf = torch.optim.SGD([w], lr=0.1)
w.grad = None
sgd_nf.step()
print(w.round(decimals=5))
hooked = []
h = adam.register_step_post_hook(lambda o, a, k: hooked.append("post"))
adam.register_step_pre_hook(lambda o, a, k: hooked.append("pre"))
adam.step(closure)
print(hooked)
h.remove()
