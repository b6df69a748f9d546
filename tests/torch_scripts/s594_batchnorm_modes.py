import torch
import torch.nn as nn

x = torch.arange(12, dtype=torch.float64).reshape(4, 3) ** 1.5
bn = nn.BatchNorm1d(3)
print(bn.training, bn.momentum, bn.eps, bn.affine, bn.track_running_stats)
y = bn(x)
print(y.mean(0).abs().max() < 1e-12, y.var(0, unbiased=False).round(decimals=4))
print(bn.running_mean.round(decimals=4), bn.running_var.round(decimals=4), bn.num_batches_tracked)
bn.eval()
ye = bn(x)
man = (x - bn.running_mean) / torch.sqrt(bn.running_var + bn.eps) * bn.weight + bn.bias
print(torch.allclose(ye, man))
bn.train()
bn.reset_running_stats()
print(bn.running_mean, bn.running_var, bn.num_batches_tracked)
drop = nn.Dropout(p=0.5)
drop.eval()
print(torch.equal(drop(x), x), nn.Dropout(p=0.0)(x).equal(x))
model = nn.Sequential(nn.Linear(3, 3), nn.BatchNorm1d(3), nn.Dropout(0.1))
model.eval()
print([m.training for m in model.modules()])
model.train(True)
print([m.training for m in model.modules()])
model[1].eval()
print(model.training, model[1].training)
try:
    bn(torch.ones(1, 3))
except ValueError as e:
    print("ValueError", e)
bn2 = nn.BatchNorm2d(2)
z = torch.arange(2 * 2 * 2 * 2, dtype=torch.float64).reshape(2, 2, 2, 2)
print(bn2(z)[0, 0], bn2.running_var)
try:
    bn2(torch.ones(2, 2))
except ValueError as e:
    print("ValueError", e)
sd = bn.state_dict()
print(list(sd), sd["num_batches_tracked"].dtype)
