import torch
import torch.nn as nn

t = torch.linspace(0, 8, 81)
series = torch.sin(t)
window = 10
X = series.unfold(0, window, 1)[:-1].unsqueeze(-1)
y = series[window:].unsqueeze(-1)
print(X.shape, y.shape)


class LSTMForecaster(nn.Module):
    def __init__(self, hidden=6):
        super().__init__()
        self.lstm = nn.LSTM(input_size=1, hidden_size=hidden, num_layers=1, batch_first=True)
        self.head = nn.Linear(hidden, 1)

    def forward(self, x):
        out, (h, c) = self.lstm(x)
        return self.head(out[:, -1, :])


model = LSTMForecaster()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float64) * 0.37 + i).reshape(p.shape) * 0.3)
opt = torch.optim.Adam(model.parameters(), lr=0.02)
loss_fn = nn.MSELoss()
for epoch in range(6):
    opt.zero_grad()
    pred = model(X)
    loss = loss_fn(pred, y)
    loss.backward()
    opt.step()
    print(epoch, round(loss.item(), 7))
model.eval()
with torch.no_grad():
    seq = series[-window:].reshape(1, window, 1)
    preds = []
    for _ in range(3):
        nxt = model(seq)
        preds.append(round(nxt.item(), 6))
        seq = torch.cat([seq[:, 1:], nxt.unsqueeze(1)], dim=1)
print(preds, seq.shape)
cell = nn.LSTMCell(1, 4)
with torch.no_grad():
    for i, p in enumerate(cell.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float64) + i).reshape(p.shape) * 0.2)
h = torch.zeros(2, 4)
c = torch.zeros(2, 4)
outs = []
for step in range(5):
    h, c = cell(series[step:step + 2].unsqueeze(1), (h, c))
    outs.append(h)
print(torch.stack(outs).shape, h.detach().numpy().round(6))
gru = nn.GRU(1, 3, num_layers=2, batch_first=True, dropout=0.0)
with torch.no_grad():
    for i, p in enumerate(gru.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float64) * 0.5 + i).reshape(p.shape) * 0.4)
o, hn = gru(X[:2], torch.zeros(2, 2, 3))
print(o.shape, hn.shape, torch.allclose(o[:, -1], hn[-1]), hn[-1].detach().numpy().round(6))
bi = nn.LSTM(1, 2, batch_first=True, bidirectional=True)
with torch.no_grad():
    for i, p in enumerate(bi.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float64) * 0.3 + i).reshape(p.shape) * 0.5)
o, (hn, cn) = bi(X[:3])
print(o.shape, hn.shape, torch.allclose(o[:, -1, :2], hn[0]), torch.allclose(o[:, 0, 2:], hn[1]))
print([n for n, _ in bi.named_parameters()])
