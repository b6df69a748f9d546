# save/load optimizer state_dict mid-training continues identically
import torch

def make():
    w = torch.nn.Parameter(torch.tensor([1.0, 2.0]))
    return w, torch.optim.Adam([w], lr=0.1, betas=(0.8, 0.9))

def step(w, opt):
    opt.zero_grad()
    (w ** 3).sum().backward()
    opt.step()

w1, o1 = make()
for _ in range(2):
    step(w1, o1)
sd = o1.state_dict()
print(sorted(sd), sd["param_groups"][0]["betas"], sorted(sd["state"][0]))
w2, o2 = make()
with torch.no_grad():
    w2.copy_(w1)
o2.load_state_dict(sd)
step(w1, o1)
step(w2, o2)
print(w1.data, torch.equal(w1, w2), o2.state[w2]["step"])
