import torch

target = torch.tensor([3.0, -1.0, 0.5])
def f(x):
    return ((x - target) ** 2 * torch.tensor([1.0, 10.0, 0.1])).sum()

x = torch.zeros(3, requires_grad=True)
opt = torch.optim.Rprop([x], lr=0.05, etas=(0.4, 1.3), step_sizes=(1e-4, 0.5))
for i in range(25):
    opt.zero_grad()
    loss = f(x)
    loss.backward()
    opt.step()
    if i % 6 == 0:
        print("rprop", i, round(loss.item(), 6), opt.state[x]["step_size"].round(decimals=5).tolist())
print(x.detach().round(decimals=4))
y = torch.zeros(3, requires_grad=True)
asgd = torch.optim.ASGD([y], lr=0.02, lambd=1e-3, alpha=0.75, t0=5)
for i in range(30):
    asgd.zero_grad()
    f(y).backward()
    asgd.step()
st = asgd.state[y]
print(sorted(st.keys()))
print(y.detach().round(decimals=4), st["ax"].round(decimals=4))
print(st["eta"].item().__round__(7), st["mu"].item().__round__(5), st["step"].item())
z = torch.zeros(3, requires_grad=True)
rp2 = torch.optim.Rprop([z], maximize=True)
for _ in range(3):
    rp2.zero_grad()
    (-f(z)).backward()
    rp2.step()
print(z.detach().round(decimals=5), rp2.state[z]["prev"].round(decimals=4))
