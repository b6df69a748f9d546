import torch
import torch.nn as nn

bn = nn.BatchNorm1d(3, momentum=None)
batches = [torch.tensor([[1.0, 2.0, 3.0], [3.0, 2.0, 1.0]]),
           torch.tensor([[0.0, 4.0, 1.0], [2.0, 0.0, 1.0], [4.0, 2.0, 1.0]]),
           torch.tensor([[10.0, -2.0, 0.0], [-10.0, 2.0, 0.0]])]
for i, b in enumerate(batches):
    out = bn(b)
    print(i, bn.running_mean.tolist(), [round(v, 6) for v in bn.running_var.tolist()], int(bn.num_batches_tracked))
all_means = torch.stack([b.mean(0) for b in batches]).mean(0)
print(torch.allclose(bn.running_mean, all_means))
bn.eval()
print(bn(torch.tensor([[1.0, 1.0, 1.0]])).round(decimals=4))
bn2 = nn.BatchNorm1d(3, momentum=0.3, affine=False)
for b in batches:
    bn2(b)
print(bn2.running_mean.round(decimals=5), bn2.running_var.round(decimals=5), bn2.weight)
nostats = nn.BatchNorm1d(3, track_running_stats=False)
nostats.eval()
print(nostats.running_mean, nostats(batches[1]).round(decimals=4))
seq = nn.Sequential(nn.Linear(3, 2), nn.BatchNorm1d(2), nn.ReLU())
with torch.no_grad():
    seq[0].weight.copy_(torch.tensor([[1.0, -1.0, 0.5], [0.2, 0.3, -0.4]]))
    seq[0].bias.zero_()
seq.train()
t = seq(batches[1])
print(t.round(decimals=4))
seq.eval()
print(seq(batches[1]).round(decimals=4))
try:
    seq.train()(torch.ones(1, 3))
except ValueError as e:
    print("ValueError:", e)
sd = bn.state_dict()
print(list(sd.keys()), sd["num_batches_tracked"].dtype)
bn.reset_running_stats()
print(bn.running_mean, bn.running_var, bn.num_batches_tracked)
