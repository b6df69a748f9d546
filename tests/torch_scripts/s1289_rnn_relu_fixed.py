# nn.RNN with relu nonlinearity, no bias, h0 given, grads to h0
import torch
import torch.nn as nn

rnn = nn.RNN(2, 2, nonlinearity="relu", bias=False, batch_first=True)
with torch.no_grad():
    rnn.weight_ih_l0.copy_(torch.tensor([[1.0, -1.0], [0.5, 0.5]]))
    rnn.weight_hh_l0.copy_(torch.tensor([[0.5, 0.0], [-0.5, 1.0]]))
x = torch.tensor([[[1.0, 0.0], [2.0, 1.0], [0.0, 3.0]]])
h0 = torch.tensor([[[0.1, -0.2]]], requires_grad=True)
out, hn = rnn(x, h0)
print(out, hn)
out.sum().backward()
print(h0.grad, rnn.weight_hh_l0.grad)
