# Linear regression the blog way: nn.Module, TensorDataset, DataLoader, SGD, device boilerplate
import torch
import torch.nn as nn
from torch.utils.data import TensorDataset, DataLoader

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
print(f"Using device: {device}")

X = torch.linspace(-1, 1, 40).unsqueeze(1)
y = 3.0 * X + 0.5 + 0.1 * torch.sin(7 * X)
dataset = TensorDataset(X, y)
loader = DataLoader(dataset, batch_size=8, shuffle=False)
print(len(dataset), len(loader))


class LinearRegression(nn.Module):
    def __init__(self):
        super(LinearRegression, self).__init__()
        self.linear = nn.Linear(1, 1)

    def forward(self, x):
        return self.linear(x)


model = LinearRegression().to(device)
with torch.no_grad():
    model.linear.weight.fill_(0.0)
    model.linear.bias.fill_(0.0)
criterion = nn.MSELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

for epoch in range(30):
    model.train()
    running = 0.0
    for xb, yb in loader:
        xb, yb = xb.to(device), yb.to(device)
        optimizer.zero_grad()
        outputs = model(xb)
        loss = criterion(outputs, yb)
        loss.backward()
        optimizer.step()
        running += loss.item() * xb.size(0)
    if (epoch + 1) % 10 == 0:
        print(f"Epoch [{epoch + 1}/30], Loss: {running / len(dataset):.6f}")

w, b = model.linear.weight.item(), model.linear.bias.item()
print(f"w = {w:.4f}, b = {b:.4f}")
model.eval()
with torch.no_grad():
    predicted = model(X).detach().cpu().numpy()
print(predicted.shape, predicted.dtype, round(float(predicted[0, 0]), 4))
print([round(v, 4) for v in model(torch.tensor([[0.0], [1.0]])).squeeze().tolist()])
for name, param in model.named_parameters():
    print(name, tuple(param.shape), param.requires_grad, param.grad is not None)
