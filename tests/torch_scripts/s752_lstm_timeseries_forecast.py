# LSTM time-series forecasting (airline-passenger style): sliding windows, MinMax scaling by hand,
# nn.LSTM(batch_first=True), last step, inverse transform, RMSE
import numpy as np
import torch
import torch.nn as nn

series = np.sin(np.arange(60) * 0.3) * 50 + np.arange(60) * 2.0 + 100
data = series.astype("float32")
mn, mx = data.min(), data.max()
scaled = (data - mn) / (mx - mn)


def create_sequences(data, seq_length):
    xs, ys = [], []
    for i in range(len(data) - seq_length):
        xs.append(data[i:(i + seq_length)])
        ys.append(data[i + seq_length])
    return np.array(xs), np.array(ys)


X, y = create_sequences(scaled, 6)
X_train = torch.from_numpy(X[:40]).float().unsqueeze(-1)
y_train = torch.from_numpy(y[:40]).float().unsqueeze(-1)
X_test = torch.from_numpy(X[40:]).float().unsqueeze(-1)
y_test = torch.from_numpy(y[40:]).float()
print(X_train.shape, y_train.shape, X_train.dtype)


class LSTMModel(nn.Module):
    def __init__(self, input_size=1, hidden_size=8, num_layers=1):
        super().__init__()
        self.lstm = nn.LSTM(input_size, hidden_size, num_layers, batch_first=True)
        self.linear = nn.Linear(hidden_size, 1)

    def forward(self, x):
        out, (hn, cn) = self.lstm(x)
        return self.linear(out[:, -1, :])


model = LSTMModel().float()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(0.3 * torch.sin(torch.arange(p.numel()) * 0.9 + i).view_as(p))
print(model.lstm.weight_ih_l0.dtype, model.lstm)
optimizer = torch.optim.Adam(model.parameters(), lr=0.02)
loss_fn = nn.MSELoss()
for epoch in range(30):
    model.train()
    optimizer.zero_grad()
    loss = loss_fn(model(X_train), y_train)
    loss.backward()
    optimizer.step()
    if epoch % 10 == 0:
        print(f"Epoch {epoch} train RMSE {np.sqrt(loss.item()):.4f}")
model.eval()
with torch.no_grad():
    pred = model(X_test).squeeze(-1).numpy()
pred_inv = pred * (mx - mn) + mn
true_inv = y_test.numpy() * (mx - mn) + mn
rmse = np.sqrt(np.mean((pred_inv - true_inv) ** 2))
print(pred.dtype, pred.shape, f"test RMSE {rmse:.2f}")
h0 = torch.zeros(1, 2, 8, dtype=X_test.dtype)
out, (hn, cn) = model.lstm(X_test[:2], (h0, h0.clone()))
print(out.shape, hn.shape, torch.allclose(out[:, -1], hn[0]))
