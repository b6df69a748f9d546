import torch
import torch.nn.functional as F
from torch import nn, optim
from torch.utils.data import TensorDataset, DataLoader

n, d = 64, 6
x_train = torch.linspace(-1, 1, n * d).view(n, d).sin()
w_true = torch.linspace(-2, 2, d * 3).view(d, 3)
y_train = (x_train @ w_true).argmax(1)
x_valid, y_valid = x_train[::4], y_train[::4]
print(x_train.shape, y_train.shape, y_train.min(), y_train.max(), y_train.bincount())
weights = torch.zeros(d, 3, requires_grad=True)
bias = torch.zeros(3, requires_grad=True)


def log_softmax(x):
    return x - x.exp().sum(-1).log().unsqueeze(-1)


def model(xb):
    return log_softmax(xb @ weights + bias)


def nll(input, target):
    return -input[range(target.shape[0]), target].mean()


def accuracy(out, yb):
    preds = torch.argmax(out, dim=1)
    return (preds == yb).float().mean()


bs = 16
print(round(nll(model(x_train[:bs]), y_train[:bs]).item(), 6), accuracy(model(x_train[:bs]), y_train[:bs]))
lr = 0.5
for epoch in range(3):
    for i in range((n - 1) // bs + 1):
        start_i = i * bs
        xb = x_train[start_i:start_i + bs]
        yb = y_train[start_i:start_i + bs]
        loss = nll(model(xb), yb)
        loss.backward()
        with torch.no_grad():
            weights -= weights.grad * lr
            bias -= bias.grad * lr
            weights.grad.zero_()
            bias.grad.zero_()
print(round(loss.item(), 5), accuracy(model(x_train), y_train))


class Mnist_Logistic(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(d, 3)
        with torch.no_grad():
            self.lin.weight.zero_()
            self.lin.bias.zero_()

    def forward(self, xb):
        return self.lin(xb)


def loss_batch(model, loss_func, xb, yb, opt=None):
    loss = loss_func(model(xb), yb)
    if opt is not None:
        loss.backward()
        opt.step()
        opt.zero_grad()
    return loss.item(), len(xb)


train_dl = DataLoader(TensorDataset(x_train, y_train), batch_size=bs)
valid_dl = DataLoader(TensorDataset(x_valid, y_valid), batch_size=bs * 2)
model = Mnist_Logistic()
opt = optim.SGD(model.parameters(), lr=lr)
for epoch in range(4):
    model.train()
    for xb, yb in train_dl:
        loss_batch(model, F.cross_entropy, xb, yb, opt)
    model.eval()
    with torch.no_grad():
        losses, nums = zip(*[loss_batch(model, F.cross_entropy, xb, yb) for xb, yb in valid_dl])
    val_loss = sum(l * k for l, k in zip(losses, nums)) / sum(nums)
    print(epoch, f"{val_loss:.6f}", nums)
print(len(train_dl), len(valid_dl), len(train_dl.dataset))
