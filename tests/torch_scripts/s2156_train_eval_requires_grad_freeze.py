import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Dropout(0.3), nn.Linear(4, 2))
print(model.training, [m.training for m in model])
model.eval()
print(model.training, [m.training for m in model])
model[1].train()
print([m.training for m in model])
model.train(False)
model.requires_grad_(False)
model[3].requires_grad_(True)
trainable = [n for n, p in model.named_parameters() if p.requires_grad]
print(trainable)
print(sum(p.numel() for p in model.parameters()), sum(p.numel() for p in model.parameters() if p.requires_grad))
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.linspace(-1, 1, p.numel()).view_as(p))
x = torch.tensor([[1.0, 2.0, 3.0], [0.0, -1.0, 1.0]])
out = model(x)
out.sum().backward()
print(model[0].weight.grad is None, model[3].weight.grad.round(decimals=4))
print(out.detach().round(decimals=4), out.requires_grad)
opt = torch.optim.SGD(filter(lambda p: p.requires_grad, model.parameters()), lr=0.1)
opt.step()
print(model[3].bias.detach().round(decimals=4), model[1].running_mean)
model.train()
_ = model(x)
print(model[1].running_mean.round(decimals=4), model[1].num_batches_tracked)
