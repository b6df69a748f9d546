import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(2, 1)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[0.5, -0.5]]))
    model.bias.fill_(0.0)
X = torch.tensor([[1.0, 2.0], [2.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
Y = torch.tensor([[1.0], [2.0], [0.0], [1.0]])
opt = torch.optim.SGD(model.parameters(), lr=0.1)
accum = 2
for step, (xb, yb) in enumerate(zip(X.split(1), Y.split(1))):
    loss = ((model(xb) - yb) ** 2).mean() / accum
    loss.backward()
    print(step, model.weight.grad.round(decimals=4).tolist())
    if (step + 1) % accum == 0:
        opt.step()
        opt.zero_grad(set_to_none=False)
        print("  stepped", model.weight.detach().round(decimals=4).tolist(), model.weight.grad.tolist())
opt.zero_grad()
print(model.weight.grad)
full = nn.Linear(2, 1)
full.load_state_dict({"weight": torch.tensor([[0.5, -0.5]]), "bias": torch.zeros(1)})
((full(X[:2]) - Y[:2]) ** 2).mean().backward()
print(full.weight.grad.round(decimals=4))
model.zero_grad(set_to_none=False)
print(model.bias.grad)
