# dropout is the identity in eval and with p=0; p=1 zeros everything; scaling in train
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.ones(2, 5, requires_grad=True)
d = nn.Dropout(0.5)
d.eval()
print(d(x))
print(F.dropout(x, p=0.0, training=True))
print(F.dropout(x, p=1.0, training=True))
d.train()
y = d(x)
print(bool(((y == 0) | (y == 2)).all()), y.shape)
y.sum().backward()
print(bool(((x.grad == 0) | (x.grad == 2)).all()), torch.equal(x.grad, y.detach()))
try:
    nn.Dropout(1.5)
except ValueError as e:
    print("ValueError", e)
