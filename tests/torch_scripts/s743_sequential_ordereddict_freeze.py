# nn.Sequential built from an OrderedDict, named access, freezing with requires_grad_(False),
# an optimizer over trainable parameters only, init functions, train()/eval() flags
from collections import OrderedDict
import torch
import torch.nn as nn

model = nn.Sequential(OrderedDict([
    ('conv1', nn.Conv2d(1, 4, 3)),
    ('relu1', nn.ReLU()),
    ('pool', nn.AdaptiveAvgPool2d(1)),
    ('flat', nn.Flatten()),
    ('fc', nn.Linear(4, 3)),
    ('drop', nn.Dropout(0.5)),
]))
print(model)
print(model.conv1, model[4], len(model))
print([name for name, _ in model.named_children()])


def init_weights(m):
    if isinstance(m, nn.Linear):
        torch.nn.init.xavier_uniform_(m.weight)
        m.bias.data.fill_(0.01)
    elif isinstance(m, nn.Conv2d):
        nn.init.kaiming_normal_(m.weight, mode='fan_out', nonlinearity='relu')
        nn.init.zeros_(m.bias)


model.apply(init_weights)
print(model.fc.bias.tolist(), model.conv1.bias.abs().sum().item())
model.conv1.requires_grad_(False)
for name, param in model.named_parameters():
    print(f"{name:14s} {str(tuple(param.shape)):14s} requires_grad={param.requires_grad}")
params = [p for p in model.parameters() if p.requires_grad]
optimizer = torch.optim.SGD(params, lr=0.1, momentum=0.9, nesterov=True)
print(len(optimizer.param_groups[0]['params']), optimizer.defaults['nesterov'])
with torch.no_grad():
    model.conv1.weight.copy_(torch.linspace(-1, 1, 36).view(4, 1, 3, 3))
    model.fc.weight.copy_(torch.linspace(-0.5, 0.5, 12).view(3, 4))
x = torch.linspace(0, 1, 2 * 25).view(2, 1, 5, 5)
model.eval()
print(model.training, model.drop.training)
out = model(x)
loss = nn.functional.cross_entropy(out, torch.tensor([0, 2]))
optimizer.zero_grad(set_to_none=True)
loss.backward()
print(model.conv1.weight.grad, model.fc.weight.grad is not None)
optimizer.step()
print(round(loss.item(), 6), model.fc.weight[0].round(decimals=4).tolist())
model.train()
print(all(m.training for m in model.modules()))
del model[5]
print(len(model), list(model._modules.keys()))
model.add_module("softmax", nn.Softmax(dim=1))
print(model[-1], model.eval()(x).sum(1).round(decimals=6).tolist())
