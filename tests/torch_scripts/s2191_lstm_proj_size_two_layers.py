import torch
import torch.nn as nn

lstm = nn.LSTM(input_size=3, hidden_size=5, num_layers=2, proj_size=2)
print([(n, tuple(p.shape)) for n, p in lstm.named_parameters()])
with torch.no_grad():
    for k, p in enumerate(lstm.parameters()):
        p.copy_(0.25 * torch.sin(torch.arange(p.numel(), dtype=p.dtype) + k).view_as(p))
x = torch.linspace(-1, 1, 4 * 2 * 3).view(4, 2, 3)
h0 = torch.zeros(2, 2, 2)
c0 = torch.zeros(2, 2, 5)
out, (hn, cn) = lstm(x, (h0, c0))
print(out.shape, hn.shape, cn.shape)
print(out[-1].round(decimals=5))
print(torch.allclose(out[-1], hn[-1]))
print(cn[0].round(decimals=5))
# the same recurrence by hand for layer 0
w_ih, w_hh, b_ih, b_hh, w_hr = (lstm.weight_ih_l0, lstm.weight_hh_l0, lstm.bias_ih_l0,
                                lstm.bias_hh_l0, lstm.weight_hr_l0)
h, c = h0[0], c0[0]
for t in range(4):
    gates = x[t] @ w_ih.T + b_ih + h @ w_hh.T + b_hh
    i, f, g, o = gates.chunk(4, dim=1)
    c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
    h = (torch.sigmoid(o) * torch.tanh(c)) @ w_hr.T
print(torch.allclose(h, hn[0]), torch.allclose(c, cn[0]))
loss = out.pow(2).sum()
loss.backward()
print(lstm.weight_hr_l1.grad.round(decimals=5))
unb = nn.LSTM(3, 5, proj_size=2)
print(unb(x[:, 0])[0].shape)
try:
    nn.LSTM(3, 5, proj_size=5)
except ValueError as e:
    print("ValueError:", e)
