# Inspecting optimizer state after steps: Adam's exp_avg / exp_avg_sq / step, SGD momentum
# buffers, state_dict round trip into a fresh optimizer, zero_grad behaviour
import torch

w = torch.nn.Parameter(torch.tensor([1.0, -2.0]))
opt = torch.optim.Adam([w], lr=0.1, betas=(0.8, 0.9), weight_decay=0.01)
for _ in range(3):
    opt.zero_grad()
    (w ** 2).sum().backward()
    opt.step()
st = opt.state[w]
print(sorted(st.keys()), st["step"], st["exp_avg"], st["exp_avg_sq"])
print(w)
sd = opt.state_dict()
print(list(sd.keys()), list(sd["state"].keys()), sd["param_groups"][0]["betas"])
w2 = torch.nn.Parameter(w.detach().clone())
opt2 = torch.optim.Adam([w2], lr=0.5)
opt2.load_state_dict(sd)
print(opt2.param_groups[0]["lr"], opt2.state[w2]["step"], torch.equal(opt2.state[w2]["exp_avg"], st["exp_avg"]))
for o, p in ((opt, w), (opt2, w2)):
    o.zero_grad()
    (p ** 2).sum().backward()
    o.step()
print(torch.allclose(w, w2), w)
v = torch.nn.Parameter(torch.tensor([3.0]))
sgd = torch.optim.SGD([v], lr=0.1, momentum=0.9, nesterov=True, dampening=0.0)
for _ in range(2):
    sgd.zero_grad()
    (v ** 2).sum().backward()
    sgd.step()
print(sgd.state[v]["momentum_buffer"], v)
sgd.zero_grad(set_to_none=True)
print(v.grad)
print(repr(opt2).splitlines()[0], len(repr(sgd).splitlines()))
print(sgd)
