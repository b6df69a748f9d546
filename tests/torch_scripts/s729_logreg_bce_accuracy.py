# Logistic regression, classic tutorial: sigmoid + BCELoss, accuracy, predict_proba, .numpy()
import torch
import torch.nn as nn
import numpy as np

torch.manual_seed(42)
n = 60
t = torch.arange(n, dtype=torch.float32)
X = torch.stack([torch.cos(t * 0.37), torch.sin(t * 0.91)], dim=1)
y = ((X[:, 0] + 0.5 * X[:, 1]) > 0).float().unsqueeze(1)
print(X.dtype, y.dtype, y.sum().item())


class LogisticRegression(nn.Module):
    def __init__(self, input_dim):
        super().__init__()
        self.linear = nn.Linear(input_dim, 1)

    def forward(self, x):
        return torch.sigmoid(self.linear(x))


model = LogisticRegression(2).to(torch.float32)
nn.init.zeros_(model.linear.weight)
nn.init.constant_(model.linear.bias, 0.0)
print(model.linear.weight.dtype)
criterion = nn.BCELoss()
optimizer = torch.optim.Adam(model.parameters(), lr=0.1)

for epoch in range(1, 101):
    y_pred = model(X)
    loss = criterion(y_pred, y)
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()
    if epoch % 25 == 0:
        with torch.no_grad():
            acc = ((y_pred >= 0.5).float() == y).float().mean()
        print(f"epoch: {epoch}, loss = {loss.item():.4f}, acc = {acc:.3f}")

with torch.no_grad():
    probs = model(X).numpy().ravel()
preds = (probs > 0.5).astype(np.int64)
print(type(probs).__name__, probs.dtype, preds[:10].tolist())
print("accuracy:", float((preds == y.numpy().ravel()).mean()))
print(model.linear.weight.grad is None, [p.grad.shape for p in model.parameters()])
print(np.round(model.linear.weight.detach().numpy(), 3).tolist())
