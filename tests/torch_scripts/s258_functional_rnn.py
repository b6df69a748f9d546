import torch

torch.manual_seed(0)
lstm = torch.nn.LSTM(3, 4, num_layers=2)
x = torch.linspace(-1, 1, 30).reshape(5, 2, 3)
h0 = torch.zeros(2, 2, 4)
c0 = torch.zeros(2, 2, 4)
with torch.no_grad():
    for i, p in enumerate(lstm.parameters()):
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape) * (i + 1) / 8)
out, h, c = torch.lstm(x, [h0, c0], lstm._flat_weights, True, 2, 0.0, False, False, False)
ref, (rh, rc) = lstm(x, (h0, c0))
print(out.shape, h.shape, c.shape)
print(torch.allclose(out, ref), torch.allclose(h, rh), torch.allclose(c, rc))
print(out[-1].round(decimals=5))
gru_w = [torch.full((12, 3), 0.1), torch.full((12, 4), -0.05)]
o, hn = torch.gru(x, torch.zeros(1, 2, 4), gru_w, False, 1, 0.0, False, False, False)
print(hn.round(decimals=5))
o, hn = torch.rnn_tanh(x, torch.zeros(1, 2, 4), gru_w[:1] and [torch.full((4, 3), 0.2),
                       torch.full((4, 4), 0.1)], False, 1, 0.0, False, False, False)
print(o[:, 0, 0].round(decimals=5))
out.sum().backward()
print(lstm.weight_ih_l0.grad is None, round(float(lstm.weight_hh_l1.grad.abs().sum()), 5))
