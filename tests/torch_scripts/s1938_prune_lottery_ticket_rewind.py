# A lottery-ticket experiment with torch.nn.utils.prune: train, global magnitude pruning
# over two layers, rewind the surviving weights to their initial values (weight_orig),
# retrain with the masks applied through the forward pre-hook, then prune.remove
import copy
import torch
import torch.nn as nn
import torch.nn.utils.prune as prune

net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float64) * 1.7 + i).view_as(p) * 0.5)
init = copy.deepcopy(net.state_dict())
x = torch.cos(torch.arange(32, dtype=torch.float64) * 0.6).view(8, 4)
y = torch.tensor([0, 1, 1, 0, 1, 0, 0, 1])


def train(steps):
    opt = torch.optim.SGD(net.parameters(), lr=0.2)
    for _ in range(steps):
        loss = nn.functional.cross_entropy(net(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


print(f"{train(5):.6f}")
targets = ((net[0], "weight"), (net[2], "weight"))
prune.global_unstructured(targets, pruning_method=prune.L1Unstructured, amount=0.5)
print([n for n, _ in net.named_parameters()], [n for n, _ in net.named_buffers()])
print([int(m.weight_mask.sum().item()) for m in (net[0], net[2])])
with torch.no_grad():
    net[0].weight_orig.copy_(init["0.weight"])
    net[2].weight_orig.copy_(init["2.weight"])
    net[0].bias.copy_(init["0.bias"])
    net[2].bias.copy_(init["2.bias"])
print(f"{train(5):.6f}", float((net[0].weight == 0).double().mean()))
print(prune.is_pruned(net), len(net[0]._forward_pre_hooks))
for m, name in targets:
    prune.remove(m, name)
print(prune.is_pruned(net), [n for n, _ in net.named_parameters()])
print(float((net[2].weight == 0).double().mean()), net[2].weight.requires_grad)
