# clip_grad_value_ inside an SGD loop
import torch
import torch.nn as nn

w = nn.Parameter(torch.tensor([1.0, -2.0, 3.0]))
opt = torch.optim.SGD([w], lr=0.1)
for i in range(3):
    opt.zero_grad()
    loss = (w ** 4).sum()
    loss.backward()
    print(i, w.grad)
    nn.utils.clip_grad_value_([w], clip_value=5.0)
    print(w.grad)
    opt.step()
    print(w.data)
g = torch.tensor([[-7.0, 0.5]])
p = nn.Parameter(torch.zeros(1, 2))
p.grad = g.clone()
nn.utils.clip_grad_value_(p, 1)
print(p.grad)
