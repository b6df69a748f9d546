import torch
import torch.nn as nn
import torch.nn.functional as F

X = torch.cat([torch.stack([torch.linspace(-2, -0.5, 10), torch.sin(torch.arange(10.))], 1),
               torch.stack([torch.linspace(0.5, 2, 10), torch.cos(torch.arange(10.))], 1)])
y = torch.cat([torch.zeros(10), torch.ones(10)])


class LogisticRegression(nn.Module):
    def __init__(self, n_inputs):
        super().__init__()
        self.linear = nn.Linear(n_inputs, 1)

    def forward(self, x):
        return torch.sigmoid(self.linear(x))


model = LogisticRegression(2)
nn.init.zeros_(model.linear.weight)
nn.init.zeros_(model.linear.bias)
criterion = nn.BCELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
for epoch in range(50):
    y_pred = model(X).squeeze(1)
    loss = criterion(y_pred, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if (epoch + 1) % 10 == 0:
        print(f'epoch: {epoch + 1}, loss = {loss.item():.4f}')
with torch.no_grad():
    y_predicted = model(X).squeeze(1)
    y_predicted_cls = y_predicted.round()
    acc = y_predicted_cls.eq(y).sum() / float(y.shape[0])
    print(f'accuracy: {acc.item():.4f}', y_predicted_cls.dtype)
logits_model = nn.Linear(2, 1)
with torch.no_grad():
    logits_model.weight.copy_(model.linear.weight)
    logits_model.bias.copy_(model.linear.bias)
print(torch.allclose(F.binary_cross_entropy_with_logits(logits_model(X).squeeze(1), y), criterion(model(X).squeeze(1), y)))
print(F.binary_cross_entropy_with_logits(logits_model(X).squeeze(1), y, pos_weight=torch.tensor(2.0)).item().__round__(6))


class AutoEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(1, 4, 3, stride=2, padding=1), nn.ReLU(), nn.Conv2d(4, 8, 3, stride=2, padding=1), nn.ReLU())
        self.decoder = nn.Sequential(nn.ConvTranspose2d(8, 4, 3, stride=2, padding=1, output_padding=1), nn.ReLU(), nn.ConvTranspose2d(4, 1, 3, stride=2, padding=1, output_padding=1), nn.Sigmoid())

    def forward(self, x):
        return self.decoder(self.encoder(x))


ae = AutoEncoder()
with torch.no_grad():
    for i, p in enumerate(ae.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float64) * 0.7 + i).reshape(p.shape) * 0.3)
imgs = (torch.sin(torch.arange(2 * 64.)).reshape(2, 1, 8, 8) > 0).double()
print(ae.encoder(imgs).shape, ae(imgs).shape)
opt = torch.optim.Adam(ae.parameters(), lr=1e-2)
for step in range(5):
    recon = ae(imgs)
    loss = F.mse_loss(recon, imgs)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 6))
print(ae.decoder[0].weight.shape, ae.decoder[0])
