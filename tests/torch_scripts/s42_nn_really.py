import math
import torch
import torch.nn.functional as F
from torch import nn
from torch import optim
from torch.utils.data import TensorDataset, DataLoader

n, d, c = 120, 16, 4
x = torch.sin(torch.arange(n * d, dtype=torch.float64).reshape(n, d) * 0.37)
y_train = (x[:, :4].argmax(dim=1)).long()
x_train, x_valid = x[:90], x[90:]
y_train, y_valid = y_train[:90], y_train[90:]
print(x_train.shape, y_train.min(), y_train.max(), y_train.dtype)
weights = torch.cos(torch.arange(d * c, dtype=torch.float64)).reshape(d, c) / math.sqrt(d)
weights.requires_grad_()
bias = torch.zeros(c, requires_grad=True)


def log_softmax(x):
    return x - x.exp().sum(-1).log().unsqueeze(-1)


def model(xb):
    return log_softmax(xb @ weights + bias)


bs = 16
xb = x_train[0:bs]
preds = model(xb)
print(preds[0].detach().numpy().round(5), preds.shape)


def nll(input, target):
    return -input[range(target.shape[0]), target].mean()


loss_func = nll
yb = y_train[0:bs]
print(round(loss_func(preds, yb).item(), 6))


def accuracy(out, yb):
    preds = torch.argmax(out, dim=1)
    return (preds == yb).float().mean()


print(accuracy(preds, yb))
lr = 0.5
epochs = 2
for epoch in range(epochs):
    for i in range((n - 30 - 1) // bs + 1):
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
print(round(loss_func(model(xb), yb).item(), 6), accuracy(model(xb), yb))
print(torch.allclose(F.cross_entropy(xb @ weights + bias, yb), loss_func(model(xb), yb)))


class Lambda(nn.Module):
    def __init__(self, func):
        super().__init__()
        self.func = func

    def forward(self, x):
        return self.func(x)


def preprocess(x):
    return x.view(-1, 1, 4, 4)


model = nn.Sequential(
    Lambda(preprocess),
    nn.Conv2d(1, 8, kernel_size=3, stride=1, padding=1),
    nn.ReLU(),
    nn.Conv2d(8, c, kernel_size=3, stride=2, padding=1),
    nn.ReLU(),
    nn.AvgPool2d(2),
    Lambda(lambda x: x.view(x.size(0), -1)),
)
print(model)
with torch.no_grad():
    for k, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float64) + k).reshape(p.shape) * 0.3)


def loss_batch(model, loss_func, xb, yb, opt=None):
    loss = loss_func(model(xb), yb)
    if opt is not None:
        loss.backward()
        opt.step()
        opt.zero_grad()
    return loss.item(), len(xb)


class WrappedDataLoader:
    def __init__(self, dl, func):
        self.dl = dl
        self.func = func

    def __len__(self):
        return len(self.dl)

    def __iter__(self):
        for b in self.dl:
            yield (self.func(*b))


def get_data(train_ds, valid_ds, bs):
    return (DataLoader(train_ds, batch_size=bs, shuffle=False), DataLoader(valid_ds, batch_size=bs * 2))


def fit(epochs, model, loss_func, opt, train_dl, valid_dl):
    for epoch in range(epochs):
        model.train()
        for xb, yb in train_dl:
            loss_batch(model, loss_func, xb, yb, opt)
        model.eval()
        with torch.no_grad():
            losses, nums = zip(*[loss_batch(model, loss_func, xb, yb) for xb, yb in valid_dl])
        val_loss = sum(l * k for l, k in zip(losses, nums)) / sum(nums)
        print(epoch, round(val_loss, 6), nums)


train_dl, valid_dl = get_data(TensorDataset(x_train, y_train), TensorDataset(x_valid, y_valid), bs)
train_dl = WrappedDataLoader(train_dl, lambda a, b: (a.view(-1, 16), b))
print(len(train_dl), len(valid_dl))
opt = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
fit(2, model, F.cross_entropy, opt, train_dl, valid_dl)
