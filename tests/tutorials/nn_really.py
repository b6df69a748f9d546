"""After PyTorch's "What is torch.nn really?": logistic regression from scratch, then
refactored with torch.nn.functional, nn.Module, nn.Linear, optim, Dataset, DataLoader,
validation, and a CNN.  MNIST is not downloaded: the data are MNIST-shaped arrays from a
seeded NumPy generator (sparse, like ink on paper; classes separable by a random linear map), read as the tutorial
reads its pickle (``map(torch.tensor, ...)``)."""
import math

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn, optim
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)  # (not in the tutorial: the test's runs repeat)

rng = np.random.default_rng(0)
proj = rng.standard_normal((784, 10)).astype(np.float32)
x_all = (rng.random((1200, 784)) < 0.2) * rng.random((1200, 784), dtype=np.float32)  # sparse ink
y_all = ((x_all - x_all.mean(0)) @ proj).argmax(1)
x_train, y_train, x_valid, y_valid = map(
    torch.tensor, (x_all[:1000], y_all[:1000], x_all[1000:], y_all[1000:]))
n, c = x_train.shape
print(x_train, y_train)
print(x_train.shape)
print(y_train.min(), y_train.max())
RESULT = {}

weights = torch.randn(784, 10) / math.sqrt(784)
weights.requires_grad_()
bias = torch.zeros(10, requires_grad=True)


def log_softmax(x):
    return x - x.exp().sum(-1).log().unsqueeze(-1)


def model(xb):
    return log_softmax(xb @ weights + bias)


bs = 64
xb = x_train[0:bs]
preds = model(xb)
print(preds[0], preds.shape)


def nll(input, target):
    return -input[range(target.shape[0]), target].mean()


loss_func = nll
yb = y_train[0:bs]
print(loss_func(preds, yb))


def accuracy(out, yb):
    preds = torch.argmax(out, dim=1)
    return (preds == yb).float().mean()


print(accuracy(preds, yb))
lr = 0.5
epochs = 2
for epoch in range(epochs):
    for i in range((n - 1) // bs + 1):
        start_i = i * bs
        end_i = start_i + bs
        xb = x_train[start_i:end_i]
        yb = y_train[start_i:end_i]
        pred = model(xb)
        loss = loss_func(pred, yb)
        loss.backward()
        with torch.no_grad():
            weights -= weights.grad * lr
            bias -= bias.grad * lr
            weights.grad.zero_()
            bias.grad.zero_()
print(loss_func(model(xb), yb), accuracy(model(xb), yb))
RESULT["scratch_acc"] = accuracy(model(x_train), y_train).item()
# F.cross_entropy of the raw scores equals nll of our log_softmax
RESULT["ce_matches"] = bool(torch.allclose(F.cross_entropy(xb @ weights + bias, yb),
                                           nll(model(xb), yb), atol=1e-5))
loss_func = F.cross_entropy


class Mnist_Logistic(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(784, 10)

    def forward(self, xb):
        return self.lin(xb)


def get_model():
    model = Mnist_Logistic()
    return model, optim.SGD(model.parameters(), lr=lr)


def loss_batch(model, loss_func, xb, yb, opt=None):
    loss = loss_func(model(xb), yb)
    if opt is not None:
        loss.backward()
        opt.step()
        opt.zero_grad()
    return loss.item(), len(xb)


def fit(epochs, model, loss_func, opt, train_dl, valid_dl):
    for epoch in range(epochs):
        model.train()
        for xb, yb in train_dl:
            loss_batch(model, loss_func, xb, yb, opt)
        model.eval()
        with torch.no_grad():
            losses, nums = zip(
                *[loss_batch(model, loss_func, xb, yb) for xb, yb in valid_dl]
            )
        val_loss = np.sum(np.multiply(losses, nums)) / np.sum(nums)
        print(epoch, val_loss)
    return val_loss


def get_data(train_ds, valid_ds, bs):
    return (
        DataLoader(train_ds, batch_size=bs, shuffle=True),
        DataLoader(valid_ds, batch_size=bs * 2),
    )


train_ds = TensorDataset(x_train, y_train)
valid_ds = TensorDataset(x_valid, y_valid)
train_dl, valid_dl = get_data(train_ds, valid_ds, bs)
model, opt = get_model()
before = loss_func(model(x_valid), y_valid).item()
RESULT["linear_val"] = [before, float(fit(3, model, loss_func, opt, train_dl, valid_dl))]


class Lambda(nn.Module):
    def __init__(self, func):
        super().__init__()
        self.func = func

    def forward(self, x):
        return self.func(x)


def preprocess(x):
    return x.view(-1, 1, 28, 28)


dev = torch.device("cuda") if torch.cuda.is_available() else torch.device("cpu")


def to_dev(x, y):
    return x.view(-1, 1, 28, 28).to(dev), y.to(dev)


class WrappedDataLoader:
    def __init__(self, dl, func):
        self.dl = dl
        self.func = func

    def __len__(self):
        return len(self.dl)

    def __iter__(self):
        for b in self.dl:
            yield (self.func(*b))


train_dl = WrappedDataLoader(DataLoader(TensorDataset(x_train[:128], y_train[:128]),
                                        batch_size=bs, shuffle=True), to_dev)
valid_dl = WrappedDataLoader(DataLoader(valid_ds, batch_size=bs * 2), to_dev)
model = nn.Sequential(
    nn.Conv2d(1, 16, kernel_size=3, stride=2, padding=1),
    nn.ReLU(),
    nn.Conv2d(16, 16, kernel_size=3, stride=2, padding=1),
    nn.ReLU(),
    nn.Conv2d(16, 10, kernel_size=3, stride=2, padding=1),
    nn.ReLU(),
    nn.AdaptiveAvgPool2d(1),
    Lambda(lambda x: x.view(x.size(0), -1)),
)
model.to(dev)
opt = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
RESULT["cnn_val"] = float(fit(1, model, loss_func, opt, train_dl, valid_dl))
RESULT["cnn_out"] = list(model(x_valid[:5].view(-1, 1, 28, 28)).shape)
