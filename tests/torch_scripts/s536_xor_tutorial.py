import torch
import torch.nn as nn

X = torch.tensor([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
Y = torch.tensor([[0.0], [1.0], [1.0], [0.0]])


class XOR(nn.Module):
    def __init__(self):
        super(XOR, self).__init__()
        self.hidden = nn.Linear(2, 4)
        self.output = nn.Linear(4, 1)
        self.sigmoid = nn.Sigmoid()

    def forward(self, x):
        x = self.sigmoid(self.hidden(x))
        return self.sigmoid(self.output(x))


model = XOR()
with torch.no_grad():
    model.hidden.weight.copy_(torch.tensor([[3.0, 3.0], [-3.0, -3.0], [2.0, -2.0], [-2.0, 2.0]]))
    model.hidden.bias.copy_(torch.tensor([-1.0, 4.0, 0.5, 0.5]))
    model.output.weight.copy_(torch.tensor([[1.0, 1.0, -1.0, 1.0]]))
    model.output.bias.zero_()
print(model)
criterion = nn.BCELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=1.0)
for epoch in range(1, 1001):
    optimizer.zero_grad()
    out = model(X)
    loss = criterion(out, Y)
    loss.backward()
    optimizer.step()
    if epoch % 250 == 0:
        print(f"Epoch {epoch}, Loss: {loss.item():.4f}")
with torch.no_grad():
    pred = model(X)
print(pred.round())
print((pred.round() == Y).all().item())
for name, param in model.named_parameters():
    print(name, tuple(param.shape), param.requires_grad)
print(model.state_dict()["output.bias"].shape)
